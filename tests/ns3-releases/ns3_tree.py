"""ns-3 release source trees with d2dlearn in contrib/d2dlearn, as a user makes them.

Shared by compile-check.py (the CTest test: every d2dlearn source compiled against each
release's headers with ns-3's own flags) and in-tree.py (the whole in-tree path on one
release: build, ./test.py, ./ns3 run, trace comparison).

A release comes as ns-3's tarball (ns-3.XX.tar.gz, e.g. from ../shared/ns-3) or an unpacked
tree (ns-3.XX/). It is unpacked once into a work folder and reused; contrib/d2dlearn is a
folder of links to this repository's top-level items (CMakeLists.txt, cmake/, contrib/,
examples/, scenarios/, test/), which is what `git clone <repository> contrib/d2dlearn` gives
ns-3's CMake, without a link back to the repository root (whose build/ may hold the tree).
"""

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What ns-3's CMake reads of the module folder (the rest of the repository is not the module's).
MODULE_ITEMS = ["CMakeLists.txt", "cmake", "contrib", "examples", "scenarios", "test"]
RELEASE_RE = re.compile(r"^ns-3\.(\d+)(?:\.tar\.gz)?$")


def default_sources():
    """D2DLEARN_NS3_SOURCES, else ../shared/ns-3 beside the repository (None if absent)."""
    env = os.environ.get("D2DLEARN_NS3_SOURCES")
    if env:
        return Path(env)
    shared = REPO.parent / "shared" / "ns-3"
    return shared if shared.is_dir() else None


def find_releases(sources):
    """{"3.48": path} of the tarballs and unpacked trees in sources, oldest first."""
    found = {}
    if sources is None or not Path(sources).is_dir():
        return found
    for entry in sorted(Path(sources).iterdir()):
        m = RELEASE_RE.match(entry.name)
        if not m:
            continue
        version = f"3.{m.group(1)}"
        if entry.is_dir() and (entry / "ns3").is_file():
            found[version] = entry
        elif entry.is_file() and entry.name.endswith(".tar.gz"):
            found.setdefault(version, entry)
    return dict(sorted(found.items(), key=lambda kv: int(kv[0].split(".")[1])))


def unpack(release_path, work):
    """The release's tree under work (unpacked once; an unpacked tree is copied once)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    name = release_path.name[: -len(".tar.gz")] if release_path.is_file() else release_path.name
    tree = work / name
    done = tree / ".d2dlearn-unpacked"
    if done.is_file():
        return tree
    if tree.exists():
        shutil.rmtree(tree)
    if release_path.is_file():
        # The tarballs are git archives of the release tag: one top folder, ns-3.XX/.
        subprocess.run(["tar", "-xzf", str(release_path), "-C", str(work)], check=True)
    else:
        shutil.copytree(release_path, tree, symlinks=True)
    if not (tree / "ns3").is_file():
        raise SystemExit(f"{release_path}: not an ns-3 release (no ns3 script in {tree})")
    done.write_text("")
    return tree


def link_module(tree):
    """contrib/d2dlearn in the tree: links to the repository's module items."""
    module = Path(tree) / "contrib" / "d2dlearn"
    if module.is_symlink() or module.is_file():
        module.unlink()
    module.mkdir(parents=True, exist_ok=True)
    for item in MODULE_ITEMS:
        link = module / item
        if link.is_symlink() or link.exists():
            if link.is_symlink() and os.readlink(link) == str(REPO / item):
                continue
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            else:
                link.unlink()
        link.symlink_to(REPO / item)
    return module


def add_release_arguments(ap, jobs=2):
    """The options in-tree.py and prefix.py share: --release, --sources, --work, --jobs,
    --profile and --record."""
    ap.add_argument("--release", required=True)
    ap.add_argument("--sources", type=Path, default=None)
    ap.add_argument("--work", type=Path, default=Path("/tmp/d2dlearn-ns3-trees"))
    ap.add_argument("--jobs", type=int, default=jobs)
    ap.add_argument("--profile", default="default",
                    help="ns-3 build profile: debug, default, release, optimized")
    ap.add_argument("--record", type=Path, default=REPO / "doc" / "data" / "ns3-releases")


def release_tree(args, who):
    """The tree of args.release under args.work (unpacked once) and the resolved work folder;
    (None, None) with a line naming the releases found if there is no such release."""
    sources = args.sources or default_sources()
    releases = find_releases(sources)
    if args.release not in releases:
        print(f"{who}: no ns-3 {args.release} in {sources} (found: {', '.join(releases)})")
        return None, None
    work = args.work.resolve()
    return unpack(releases[args.release], work), work


def run(cmd, cwd, log, env=None):
    """Run cmd in cwd, output appended to log; return the exit status."""
    with open(log, "a") as out:
        out.write(f"$ {' '.join(str(c) for c in cmd)}\n")
        out.flush()
        return subprocess.call(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)


def configure(tree, profile, log, extra=()):
    """./ns3 configure with d2dlearn, its examples and tests; returns the exit status.

    First removes the tree's forwarding headers of d2dlearn (build/include/ns3/X.h, each an
    #include of the module's header by its path): ns-3's CMake writes one for a header it does
    not have one for and leaves the others, so a header that moved between folders would
    still be forwarded to its old path in a reused tree. Configure writes them all again."""
    stubs = Path(tree) / "build" / "include" / "ns3"
    if stubs.is_dir():
        for stub in stubs.glob("*.h"):
            try:
                if "/contrib/d2dlearn/" in stub.read_text(errors="replace")[:4096]:
                    stub.unlink()
            except OSError:
                pass
    cmd = [sys.executable, "ns3", "configure", "-d", profile, "--enable-examples",
           "--enable-tests", "--enable-modules=d2dlearn",
           "--filter-module-examples-and-tests=d2dlearn", *extra]
    return run(cmd, tree, log)


def log_tail(log, lines=30):
    """The last lines of a log, for a failure message."""
    try:
        text = Path(log).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(text[-lines:])


def cxx_standard(command):
    """The -std= of a compile command line, as a number (23 for c++23 or gnu++23)."""
    m = re.search(r"-std=(?:c|gnu)\+\+(\d+)", command)
    return int(m.group(1)) if m else None


def tree_cxx_standard(tree):
    """The C++ standard ns-3's CMake compiles d2dlearn with in a configured tree (from its
    compile_commands.json: no release keeps CMAKE_CXX_STANDARD in the cache)."""
    path = Path(tree) / "cmake-cache" / "compile_commands.json"
    try:
        entries = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    for entry in entries:
        if "d2dlearn" in entry.get("file", ""):
            return cxx_standard(entry.get("command", " ".join(entry.get("arguments", []))))
    return None


def stamp():
    """Date, commit (+changes if the work tree differs from it: the records these scripts
    write, doc/data/ns3-releases/, do not count) and machine of a record."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout.strip()
    rev = git("rev-parse", "--short", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no", "--", ".",
           ":(exclude)doc/data/ns3-releases"):
        rev += "+changes"
    try:
        cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text()
                    .splitlines() if l.startswith("model name")), "")
    except OSError:
        cpu = ""
    try:
        compiler = subprocess.run(["c++", "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        compiler = ""
    return {"date": time.strftime("%Y-%m-%d", time.gmtime()), "commit": rev,
            "machine": {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count(),
                        "os": platform.platform(), "compiler": compiler}}


def write_record(folder, record):
    """folder/ns-3.XX-MODE.json (MODE: compile-check's "compile", in-tree.py's "in-tree"),
    written atomically; returns its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = "compile" if record["mode"] == "compile-check" else record["mode"]
    path = folder / f"ns-{record['release']}-{suffix}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=2) + "\n")
    tmp.replace(path)
    return path
