#!/usr/bin/python3
"""d2dlearn standalone against an ns-3 release installed into a prefix, and its tests there.

    prefix.py --release 3.48 [--sources DIR] [--work DIR] [--jobs N] [--exclude REGEX]

What a researcher who installed ns-3 from source does (doc/howto/install.md, "an ns-3 installed
from source into a prefix"):

1. The release's tree (unpacked once under the work folder, shared with in-tree.py) is
   configured with the ns-3 modules d2dlearn links only (cmake/d2dlearnNs3.cmake's
   D2DLEARN_NS3_MODULES; ns-3 adds what they need) and `--prefix WORK/prefix-3.XX`, built
   and installed with ns-3's own `./ns3 install`. d2dlearn is not one of the modules (an ns-3
   that has it inside would hide what the standalone build has to find by itself); the
   tree's build folder is reused, so after in-tree.py little is compiled again.
2. This repository is configured (`cmake -DCMAKE_PREFIX_PATH=WORK/prefix-3.XX`, Release, no
   sanitized tests) into WORK/standalone-3.XX and built: the release's C++ standard and
   target names are chosen by d2dlearn's CMake, and Debian's ns-3.37 in /usr, if installed,
   must not be what it finds (the build records which ns-3 it found).
3. CTest runs the whole suite there but the tests matching --exclude (default: the
   ns3-release-compile tests, which compile in the release trees, not against the prefix, and
   doc-ns3-compat-table, which compares the records with the pages, as the standalone
   build's CTest does). The installed package's test among them also checks that the
   installed d2dlearnConfig.cmake refuses another ns-3 in one line.

The result (release, each step's seconds, the ns-3 found, the tests passed and failed, machine,
date, commit) goes to doc/data/ns3-releases/ns-3.XX-prefix.json, from which compat-table.py
makes a row of the compatibility table.
"""

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ns3_tree  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
# The tests not run against the prefix build (see the docstring).
DEFAULT_EXCLUDE = r"^(ns3-release-compile|doc-ns3-compat-table$)"


def ns3_modules():
    """D2DLEARN_NS3_MODULES of cmake/d2dlearnNs3.cmake (one list, read from there)."""
    text = (REPO / "cmake" / "d2dlearnNs3.cmake").read_text()
    m = re.search(r"^set\(D2DLEARN_NS3_MODULES ([^)]*)\)", text, re.M)
    return m.group(1).split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ns3_tree.add_release_arguments(ap)
    ap.add_argument("--exclude", default=DEFAULT_EXCLUDE, help="ctest -E regex")
    args = ap.parse_args()

    tree, work = ns3_tree.release_tree(args, "prefix")
    if tree is None:
        return 2
    prefix = work / f"prefix-{args.release}"
    build = work / f"standalone-{args.release}"
    log = work / f"prefix-{args.release}.log"
    log.write_text("")
    py = sys.executable
    record = {"release": args.release, "mode": "prefix", "profile": args.profile,
              **ns3_tree.stamp(), "log": str(log), "prefix": str(prefix)}

    def step(name, cmd, cwd, env=None):
        t0 = time.monotonic()
        rc = ns3_tree.run(cmd, cwd, log, env)
        record[name] = {"ok": rc == 0, "seconds": round(time.monotonic() - t0, 1)}
        print(f"prefix {args.release}: {name} {record[name]['seconds']} s, "
              f"{'ok' if rc == 0 else 'FAILED'}", flush=True)
        if rc != 0:
            print(ns3_tree.log_tail(log))
        return rc == 0

    modules = ns3_modules()
    ok = (step("ns3_configure", [py, "ns3", "configure", "-d", args.profile,
                                 f"--prefix={prefix}", "--disable-examples", "--disable-tests",
                                 "--enable-modules=" + ";".join(modules)], tree)
          and step("ns3_build", [py, "ns3", "build", "-j", str(args.jobs)], tree)
          and step("ns3_install", [py, "ns3", "install"], tree))
    if ok:
        installed = sorted(p.name for p in (prefix / "lib").glob("libns3*.so"))
        record["ns3_libraries"] = installed
        ok = not any("d2dlearn" in name for name in installed)
        if not ok:
            print(f"prefix {args.release}: the prefix holds a d2dlearn module: {installed}")
    if ok:
        ok = (step("configure", ["cmake", "-S", str(REPO), "-B", str(build),
                                 "-DCMAKE_BUILD_TYPE=Release", "-DD2DLEARN_SANITIZED_TESTS=OFF",
                                 f"-DCMAKE_PREFIX_PATH={prefix}"], REPO)
              and step("build", ["cmake", "--build", str(build), "-j", str(args.jobs)], REPO))
    if ok:
        found = re.search(r"^ns3_DIR:PATH=(.*)$", (build / "CMakeCache.txt").read_text(), re.M)
        record["ns3_dir"] = found.group(1) if found else None
        # configure's own line, "d2dlearn: ns-3 3.48 (DIR), C++23".
        line = re.findall(r"d2dlearn: ns-3 (\S+) \((.*)\), C\+\+(\d+)",
                          log.read_text(errors="replace"))
        record["ns3_found"] = line[-1][0] if line else None
        record["cxx_standard"] = int(line[-1][2]) if line else None
        ok = (record["ns3_found"] == args.release
              and str(record["ns3_dir"] or "").startswith(str(prefix)))
        if not ok:
            print(f"prefix {args.release}: the build found ns-3 {record['ns3_found']} in "
                  f"{record['ns3_dir']}, not {args.release} in {prefix}")
    if ok:
        t0 = time.monotonic()
        junit = work / f"prefix-{args.release}-ctest.xml"
        rc = ns3_tree.run(["ctest", "--test-dir", str(build), "-j", str(args.jobs), "-E",
                           args.exclude, "--output-on-failure", "--output-junit", str(junit)],
                          REPO, log)
        text = junit.read_text(errors="replace") if junit.is_file() else ""
        cases = re.findall(r'<testcase name="([^"]*)"[^>]*status="(\w+)"', text)
        record["ctest"] = {"excluded": args.exclude, "seconds": round(time.monotonic() - t0, 1),
                           "passed": sum(s == "run" for _, s in cases),
                           "skipped": sum(s in ("disabled", "notrun") for _, s in cases),
                           "failed": sorted(n for n, s in cases if s == "fail")}
        ok = rc == 0 and not record["ctest"]["failed"] and record["ctest"]["passed"] > 0
        print(f"prefix {args.release}: ctest {record['ctest']['passed']} passed, "
              f"{len(record['ctest']['failed'])} failed ({record['ctest']['seconds']} s)",
              flush=True)
    record["ok"] = bool(ok)
    path = ns3_tree.write_record(args.record, record)
    print(f"prefix {args.release}: {'PASSED' if ok else 'FAILED'}; recorded in {path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
