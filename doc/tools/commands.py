#!/usr/bin/python3
"""The manual's runnable command blocks: list them, or run one as a test.

A page marks a command block as runnable with a MyST comment on the line before its fence
(README.md, which the manual's tests cover too, with `<!-- runnable -->` instead):

    % runnable
    ```sh
    build/bin/fedavg --outDir=results/fedavg
    ```

or, where the page says the test uses small settings,

    % runnable: append --rounds=1 --dataFraction=0.02

which appends those flags to every line that starts a program of build/bin/, or

    % runnable: continue

which runs the block in the same test as the page's previous runnable block, after it
(a block that reads what the one before wrote).

A block's lines run in one bash -e shell, from a
temporary folder that mirrors the repository's top level (symbolic links to its files and
folders, `build` linked to the build folder), so a command writes into the temporary
folder's `results/` and never into the source tree (analysis/campaigns/ is copied there,
since a campaign writes its results beside its file).

    commands.py list DOCDIR                 one ID per line (PAGE:N, N counts from 1)
    commands.py names DOCDIR                ID TEST-NAME per line (doc-cmd-PAGE-N, for CTest)
    commands.py show DOCDIR ID              the script that `run` would run
    commands.py run DOCDIR ID SRCDIR BINDIR run it; exit status that of the block
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# '% runnable' in the manual's MyST pages; '<!-- runnable -->' in README.md (an HTML comment,
# which GitHub hides, where MyST's comment would show)
MARK = re.compile(r"^(?:%|<!--)\s*runnable(?::\s*(?:append\s+(.*?)|(continue)))?\s*(?:-->)?\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*(sh|bash|console)?\s*$")
PROGRAM = re.compile(r"^(\s*(?:\S+=\S+\s+)*)(build/bin/[A-Za-z0-9_.-]+)(.*)$")


def blocks(docdir):
    """{ID: (page path, append, [lines])} of every marked block, in page order."""
    found = {}
    pages = []
    readme = os.path.join(docdir, os.pardir, "README.md")
    if os.path.exists(readme):
        pages.append((os.path.normpath(readme), "README"))
    for root, dirs, files in os.walk(docdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")) and d != "tools")
        for name in sorted(files):
            if name.endswith(".md"):
                path = os.path.join(root, name)
                pages.append((path, os.path.relpath(path, docdir)[:-3]))
    for path, page in pages:
        lines = open(path, encoding="utf-8").read().split("\n")
        n = 0
        fence_open = None  # the fence of the block being skipped, if in one
        for i, line in enumerate(lines):
            if fence_open:
                if line.startswith(fence_open) and not line.strip(fence_open[0]).strip():
                    fence_open = None
                continue
            f = re.match(r"^(```+|~~~+)", line)
            if f:
                fence_open = f.group(1)
                continue
            m = MARK.match(line)
            if not m:
                continue
            if i + 1 >= len(lines) or not FENCE.match(lines[i + 1]):
                sys.exit("commands.py: %s:%d: '%% runnable' not followed by a sh fence"
                         % (path, i + 1))
            fence = FENCE.match(lines[i + 1]).group(1)
            body = []
            for line2 in lines[i + 2:]:
                if line2.startswith(fence):
                    break
                body.append(line2)
            else:
                sys.exit("commands.py: %s:%d: unterminated block" % (path, i + 2))
            if m.group(2):  # continue: one test with the page's previous block
                if n == 0:
                    sys.exit("commands.py: %s:%d: 'continue' without a block before"
                             % (path, i + 1))
                prev = found["%s:%d" % (page, n)]
                found["%s:%d" % (page, n)] = (prev[0], prev[1], prev[2] + [""] + body)
                continue
            n += 1
            found["%s:%d" % (page, n)] = (path, (m.group(1) or "").strip(), body)
    return found


def script(block):
    _, append, body = block
    out = []
    for line in body:
        # join continuation lines first so that flags go at the command's end
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    res = []
    for line in out:
        code = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not code:
            continue
        m = PROGRAM.match(code)
        if m and append:
            code = code + " " + append
        res.append(code)
    return "\n".join(res) + "\n"


def main(argv):
    if len(argv) < 3 or argv[1] not in ("list", "names", "show", "run"):
        sys.exit(__doc__)
    found = blocks(argv[2])
    if argv[1] == "list":
        print("\n".join(found))
        return 0
    if argv[1] == "names":
        for key in found:
            print("%s doc-cmd-%s" % (key, re.sub(r"[^A-Za-z0-9]+", "-", key)))
        return 0
    if len(argv) < 4 or argv[3] not in found:
        sys.exit("commands.py: no runnable block %r" % (argv[3] if len(argv) > 3 else ""))
    text = script(found[argv[3]])
    if argv[1] == "show":
        sys.stdout.write(text)
        return 0
    srcdir, bindir = os.path.abspath(argv[4]), os.path.abspath(argv[5])
    work = tempfile.mkdtemp(prefix="d2dlearn-doc-cmd.")
    try:
        for entry in os.listdir(srcdir):
            if entry not in ("build", "results", ".git", "analysis"):
                os.symlink(os.path.join(srcdir, entry), os.path.join(work, entry))
        # analysis/: the scripts linked, the campaign files copied (a campaign writes its
        # results/ beside its file: that must not be the source tree)
        os.mkdir(os.path.join(work, "analysis"))
        for entry in os.listdir(os.path.join(srcdir, "analysis")):
            src = os.path.join(srcdir, "analysis", entry)
            if entry == "campaigns":
                shutil.copytree(src, os.path.join(work, "analysis", entry),
                                ignore=shutil.ignore_patterns("results"))
            elif entry != "__pycache__":
                os.symlink(src, os.path.join(work, "analysis", entry))
        os.symlink(bindir, os.path.join(work, "build"))
        print("commands.py: %s from %s:\n%s" % (argv[3], found[argv[3]][0], text), flush=True)
        env = dict(os.environ, D2DLEARN_BIN=os.path.join(bindir, "bin"))
        proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=work, env=env)
        if proc.returncode != 0:
            print("commands.py: %s exited with status %d" % (argv[3], proc.returncode),
                  file=sys.stderr)
        return proc.returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
