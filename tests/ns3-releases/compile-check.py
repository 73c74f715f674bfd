#!/usr/bin/python3
"""Compile every d2dlearn source against one ns-3 release, with the flags ns-3 itself uses.

    compile-check.py --release 3.48 [--sources DIR] [--work DIR] [--jobs N]

The release (a tarball ns-3.48.tar.gz or a tree ns-3.48/ in DIR; default D2DLEARN_NS3_SOURCES,
else ../shared/ns-3 beside the repository) is unpacked into the work folder once, this
repository linked as its contrib/d2dlearn, and `./ns3 configure -d debug --enable-examples
--enable-tests --enable-modules=d2dlearn` run: ns-3's own CMake then writes the compile line of
every d2dlearn source (module, TestSuites, scenario programs and examples) into
compile_commands.json, with the debug profile's flags (-Wall -Wpedantic -Werror, the release's
C++ standard, NS3_LOG_ENABLE and NS3_ASSERT_ENABLE). Each line is run with -fsyntax-only
instead of -c -o: the whole front end (parsing, overload resolution, template instantiation,
-Werror warnings) without code generation or linking, which is what an ns-3 API change breaks.
Only the standard library headers (ns-3's own precompiled-header list) and, for the LibTorch
sources, <torch/torch.h> come from a precompiled header, made here with the same flags; ns-3's
and d2dlearn's headers are read as every user's compiler reads them, so a header a source
forgets to include is caught.

When ccache is installed every compilation goes through it (as the standalone build's do,
cmake/d2dlearnCcache.cmake): its base_dir is the repository, which holds the work folder of
the tests, and __FILE__ is mapped to relative paths, so a clean clone reuses the results of
an earlier one; a compilation that fails is never cached. The hits are printed.

Exit 0: every source compiled; 1: some failed (their errors printed); 77: skipped (no such
release in DIR, with the reason).
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ns3_tree  # noqa: E402

SKIP = 77
# ns-3's stdlib_pch list (build-support/macros-and-definitions.cmake) and <memory>.
STD_HEADERS = ["algorithm", "cstdlib", "cstring", "exception", "deque", "fstream", "functional",
               "iostream", "limits", "list", "map", "cmath", "ostream", "queue", "set", "sstream",
               "cstdint", "string", "tuple", "typeinfo", "type_traits", "unordered_map",
               "utility", "vector", "memory"]


def syntax_command(entry):
    """The compile line of a compile_commands.json entry, made -fsyntax-only (a list)."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    args = [a for a in args]
    out = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a == entry["file"]:
            continue
        if a == "-include" and i + 1 < len(args) and "cmake_pch" in args[i + 1]:
            skip = True  # ns-3's own precompiled header, not built here
            continue
        if a.startswith("-fdiagnostics-color"):
            continue
        out.append(a)
    return out


def gtest_entries(entries):
    """Compile lines for the GoogleTest sources (test/gtest/, built by the standalone build
    only: ns-3 has no GoogleTest programs), made from a TestSuite source's line, with the
    define of the program each is in (contrib/d2dlearn/CMakeLists.txt)."""
    base = next((e for e in entries if "/contrib/d2dlearn/contrib/d2dlearn/test/" in e["file"]),
                None)
    if base is None:
        return []
    text = (ns3_tree.REPO / "contrib" / "d2dlearn" / "CMakeLists.txt").read_text()
    module = base["file"].split("/contrib/d2dlearn/contrib/d2dlearn/")[0]
    module += "/contrib/d2dlearn/contrib/d2dlearn/"
    out = []
    for program, define in (("d2dlearn-gtest-torch-free", "D2DLEARN_GTEST_TORCH_FREE"),
                            ("d2dlearn-gtest", "D2DLEARN_GTEST_TORCH_PART")):
        m = re.search(r"add_executable\(" + re.escape(program) + r"\s([^)]*)\)", text)
        for src in m.group(1).split() if m else []:
            args = [a for a in syntax_command(base)]
            out.append({"directory": base["directory"], "file": module + src,
                        "arguments": [args[0], f"-D{define}", *args[1:]]})
    return out


def cached(cmd, tree, stats):
    """cmd behind ccache (when installed), with relative __FILE__ paths: see the docstring."""
    ccache = shutil.which("ccache")
    maps = [f"-fmacro-prefix-map={d}/=" for d in (os.path.realpath(tree), str(ns3_tree.REPO))]
    # ns-3 defines PROJECT_SOURCE_PATH, the tree's absolute path (a string its tests read at
    # run time): "." here, as in ccache's view every other path is relative. Nothing runs after
    # -fsyntax-only, and the literal's text changes no diagnostic.
    cmd = [cmd[0], *maps, *('-DPROJECT_SOURCE_PATH="."' if a.startswith("-DPROJECT_SOURCE_PATH=")
                            else a for a in cmd[1:])]
    if not ccache:
        return cmd
    return ["env", f"CCACHE_BASEDIR={ns3_tree.REPO}", "CCACHE_NOHASHDIR=1",
            "CCACHE_SLOPPINESS=pch_defines,time_macros", f"CCACHE_STATSLOG={stats}", ccache,
            *cmd]


def cache_hits(stats):
    """(hits, compilations) in a ccache stats log; (0, 0) without one."""
    if not Path(stats).is_file():
        return 0, 0
    lines = Path(stats).read_text().splitlines()
    return (sum(l in ("direct_cache_hit", "preprocessed_cache_hit") for l in lines),
            sum(l.startswith("#") for l in lines))


def make_pch(flags, headers, path, cwd, log):
    """A precompiled header of headers (with flags) at path.gch; True if made."""
    text = "".join(f"#include <{h}>\n" for h in headers)
    if not Path(path).is_file() or Path(path).read_text() != text:
        Path(path).write_text(text)  # unchanged: ccache's direct mode can hit
    cmd = [*flags, "-x", "c++-header", str(path), "-o", f"{path}.gch"]
    with open(log, "a") as out:
        return subprocess.call(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT) == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--release", required=True, help="e.g. 3.48 (none: only say what is found)")
    ap.add_argument("--sources", type=Path, default=None,
                    help="folder of ns-3 release tarballs or trees (default "
                         "D2DLEARN_NS3_SOURCES, else ../shared/ns-3)")
    ap.add_argument("--work", type=Path, default=Path("ns3-trees"),
                    help="where the release is unpacked and configured (reused)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configure-only", metavar="WHY", default=None,
                    help="configure the tree (ns-3's CMake reads the module) but compile "
                         "nothing, saying why (e.g. the standalone build compiled every "
                         "source against this release with ns-3's flags as errors)")
    ap.add_argument("--record", type=Path, default=None,
                    help="also write the result into RECORD/ns-3.XX-compile.json "
                         "(for compat-table.py)")
    args = ap.parse_args()

    sources = args.sources or ns3_tree.default_sources()
    releases = ns3_tree.find_releases(sources)
    where = sources or "D2DLEARN_NS3_SOURCES (unset) or ../shared/ns-3 (absent)"
    if not releases:
        print(f"compile-check: skipped: no ns-3 release (ns-3.XX.tar.gz or ns-3.XX/) in {where}")
        return SKIP
    if args.release not in releases:
        print(f"compile-check: skipped: no ns-3 {args.release} in {where} (found: "
              f"{', '.join(releases)})")
        return SKIP
    start = time.monotonic()
    # The commit (and whether the work tree differs from it) of the sources compiled: taken
    # before they are read, as in-tree.py and prefix.py do.
    stamp = ns3_tree.stamp()
    work = args.work.resolve()
    tree = ns3_tree.unpack(releases[args.release], work)
    ns3_tree.link_module(tree)
    log = work / f"compile-check-{args.release}.log"
    log.write_text("")
    if ns3_tree.configure(tree, "debug", log) != 0:
        print(f"compile-check: ns-3 {args.release}: ./ns3 configure failed:\n"
              + ns3_tree.log_tail(log))
        return 1
    configured = time.monotonic()
    if args.configure_only:
        print(f"compile-check: ns-3 {args.release}: ./ns3 configure with d2dlearn passed "
              f"({configured - start:.1f} s); compiling skipped: {args.configure_only}")
        return 0
    db = json.loads((tree / "cmake-cache" / "compile_commands.json").read_text())
    module = str(tree / "contrib" / "d2dlearn") + "/"
    entries = [e for e in db if e["file"].startswith(module)]
    if not entries:
        print(f"compile-check: ns-3 {args.release}: no d2dlearn source in compile_commands.json")
        return 1
    entries += gtest_entries(entries)

    # Precompiled headers, made with the flags of the module's first source: the standard
    # library for all, and <torch/torch.h> too for the sources that include LibTorch.
    first = syntax_command(entries[0])
    pch_dir = work / f"pch-{args.release}"
    pch_dir.mkdir(exist_ok=True)
    std_pch = pch_dir / "d2dlearn-std.h"
    torch_pch = pch_dir / "d2dlearn-torch.h"
    stats = work / f"ccache-{args.release}.log"
    stats.unlink(missing_ok=True)
    first = cached(first, tree, stats)
    have_std = make_pch(first, STD_HEADERS, std_pch, entries[0]["directory"], log)
    have_torch = make_pch(first, STD_HEADERS + ["torch/torch.h"], torch_pch,
                          entries[0]["directory"], log)

    def check(entry):
        src = Path(entry["file"])
        text = src.read_text(errors="replace")
        cmd = syntax_command(entry)
        pch = torch_pch if "#include <torch/" in text and have_torch else std_pch
        if have_std:
            # The PCH is this script's speed-up, made with the first source's flags: a source
            # whose defines differ (ns-3.37 lists LibTorch's _GLIBCXX_USE_CXX11_ABI for the
            # tests only) compiles from the header's text instead, without ns-3's
            # -Winvalid-pch, which -Werror made an error about the PCH, not the source.
            cmd = [cmd[0], "-include", str(pch), *(a for a in cmd[1:] if a != "-Winvalid-pch")]
        cmd = cached(cmd, tree, stats)
        t0 = time.monotonic()
        p = subprocess.run([*cmd, "-fsyntax-only", entry["file"]], cwd=entry["directory"],
                           capture_output=True, text=True)
        return src, p.returncode, p.stdout + p.stderr, time.monotonic() - t0

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(check, entries))
    failed = [(s, out) for s, rc, out, _ in results if rc != 0]
    real = Path(os.path.realpath(module))
    for src, out in failed:
        rel = Path(os.path.realpath(src)).relative_to(ns3_tree.REPO)
        errors = [l for l in out.splitlines() if "error" in l][:20]
        print(f"FAILED {rel}:\n  " + "\n  ".join(errors))
    compile_s = sum(r[3] for r in results)
    hits, cached_n = cache_hits(stats)
    print(f"compile-check: ns-3 {args.release} ({real}): {len(results)} d2dlearn sources, "
          f"-fsyntax-only with ns-3's debug-profile flags (-Werror): "
          f"{len(results) - len(failed)} passed, {len(failed)} failed; configure "
          f"{configured - start:.1f} s, compile {compile_s:.1f} s of CPU, "
          f"{time.monotonic() - start:.1f} s in all; compiler cache: "
          + (f"{hits} of {cached_n} compilations were hits" if cached_n else "not used"))
    if args.record:
        ns3_tree.write_record(args.record, {
            "release": args.release, "mode": "compile-check", "profile": "debug",
            "cxx_standard": ns3_tree.cxx_standard(" ".join(syntax_command(entries[0]))), "ok": not failed,
            "sources": len(results), "failed": [str(s) for s, _ in failed],
            "configure_seconds": round(configured - start, 1),
            "compile_cpu_seconds": round(compile_s, 1),
            "seconds": round(time.monotonic() - start, 1), **stamp})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
