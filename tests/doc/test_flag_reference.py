#!/usr/bin/python3
"""The manual's flag reference against the programs: no flag missing, no default stale;
and no page names a flag that its program does not have.

    test_flag_reference.py BINDIR PROGRAM...

Runs each program's --PrintHelp once, generates the flag tables from that output with
doc/tools/gen_flags.py into a temporary folder (as the doc build does), reads them back as a reader would (the Markdown table rows), and compares
them with each program's --PrintHelp, parsed here independently of the generator: the
same flags in the same order, each with its default. Then reads every page of the manual
(doc/**/*.md, the model-library chapter) and README.md for commands of these programs
(`build/bin/PROGRAM --flag...`, `PROGRAM --flag` in inline code too) and checks that each
flag is one the program lists (`--ns3::Class::Attribute` is left to the program): a flag
renamed or removed in a program fails here, in pages whose commands no test runs too.
Exit status 1 and one line per difference otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(TOP, "doc", "tools", "gen_flags.py")


def from_help(text):
    """[(flag, default)] of every '--flag:' line of --PrintHelp."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\s+--([^:\s]+):\s*(.*?)\s*$", line)
        if m:
            d = re.search(r"\[([^\[\]]*)\]$", m.group(2))
            rows.append((m.group(1), d.group(1) if d else None))
    return rows


def unescape(cell):
    return re.sub(r"\\(.)", r"\1", cell)


def from_table(text):
    """[(flag, default)] of the generated Markdown table rows."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\| `--([^`]+)` \| (.*?) \| (.*) \|$", line)
        if m:
            d = m.group(2)
            if d == "":
                default = None
            elif d == "(empty)":
                default = ""
            else:
                default = d[1:-1]
            rows.append((m.group(1), default))
    return rows


def pages():
    out = [os.path.join(TOP, "README.md"),
           os.path.join(TOP, "contrib", "d2dlearn", "doc", "d2dlearn.rst")]
    for root, dirs, files in os.walk(os.path.join(TOP, "doc")):
        dirs[:] = [d for d in dirs if not d.startswith(("_", ".")) and d != "tools"]
        out += [os.path.join(root, f) for f in files if f.endswith((".md", ".rst"))]
    return sorted(out)


def page_flags(programs, texts):
    """One error per flag that a page's command gives a program that does not list it."""
    known = {p: {f.split("=")[0] for f, _ in from_help(texts[p])} for p in programs}
    names = "|".join(re.escape(p) for p in sorted(programs, key=len, reverse=True))
    # a command: the program (build/bin/P or P/bin/P, or bare inside inline code) and the
    # flags up to the end of the line, joining continuation lines
    start = re.compile(r"(?:^|[\s`(/])(?:build/bin/)?(%s)((?:\s+--[^\s`|]+)+)" % names)
    errors, checked = [], 0
    for path in pages():
        text = open(path, encoding="utf-8").read().replace("\\\n", " ")
        for lineno, line in enumerate(text.split("\n"), 1):
            for m in start.finditer(line):
                program = m.group(1)
                # the program as a flag's value (`bench-x --bin=build/bin/fedavg --sizes=10`
                # in a benchmark's stamp) is not a command: the flags after it are the
                # benchmark's
                before = line[:m.start(1)].split()
                if before and "=" in before[-1]:
                    continue
                checked += 1
                for flag in re.findall(r"--([^\s=`'\"|,;)]+)", m.group(2)):
                    flag = flag.rstrip(":.")  # "`fedavg --validate`:" in prose
                    if flag.startswith("ns3::") or flag in known[program]:
                        continue
                    errors.append("%s:%d: %s --%s: %s has no such flag (see its --PrintHelp)"
                                  % (os.path.relpath(path, TOP), lineno, program, flag,
                                     program))
    print("%d commands of the programs in the pages, every flag checked" % checked)
    return errors


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    bindir, programs = argv[1], argv[2:]
    errors = []
    with tempfile.TemporaryDirectory(prefix="d2dlearn-flag-reference.") as tmp:
        # each program's --PrintHelp once (about a second each: LibTorch), two at a time
        def helptext(program):
            return subprocess.run([os.path.join(bindir, program), "--PrintHelp"],
                                  stdout=subprocess.PIPE, text=True, check=True).stdout
        with ThreadPoolExecutor(max_workers=2) as pool:
            texts = dict(zip(programs, pool.map(helptext, programs)))
        for program in programs:
            with open(os.path.join(tmp, program + ".help"), "w") as f:
                f.write(texts[program])
        subprocess.run(["/usr/bin/python3", GEN, "--from", tmp, tmp] + programs, check=True)
        for program in programs:
            want = from_help(texts[program])
            with open(os.path.join(tmp, "flags-%s.md" % program)) as f:
                got = from_table(f.read())
            if not want:
                errors.append("%s: --PrintHelp lists no flag" % program)
            missing = [f for f, _ in want if f not in dict(got)]
            extra = [f for f, _ in got if f not in dict(want)]
            for f in missing:
                errors.append("%s: --%s is in --PrintHelp but not in the reference" % (program, f))
            for f in extra:
                errors.append("%s: --%s is in the reference but not in --PrintHelp" % (program, f))
            for (f, d) in want:
                if f in dict(got) and dict(got)[f] != d:
                    errors.append("%s: --%s default %r in --PrintHelp, %r in the reference"
                                  % (program, f, d, dict(got)[f]))
            if not missing and not extra and [f for f, _ in want] != [f for f, _ in got]:
                errors.append("%s: the reference lists the flags in another order" % program)
            print("%s: %d flags, %d in the reference" % (program, len(want), len(got)))
    errors += page_flags(programs, texts)
    for e in errors:
        print("test_flag_reference: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
