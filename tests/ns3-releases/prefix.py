#!/usr/bin/python3
"""d2dlearn standalone against an ns-3 release installed into a prefix, and its tests there.

    prefix.py --release 3.48 [--sources DIR] [--work DIR] [--jobs N] [--exclude REGEX]
    prefix.py --release 3.48 --work DIR --prefix-only
    prefix.py --release 3.48 --work DIR --standalone-only BUILD

--prefix-only does step 1 alone, once per machine: the CTest label `release` (tests/CMakeLists.txt)
builds the prefix in a folder outside the clone (default ~/.cache/d2dlearn/ns3-releases), marks it
complete with what it was built from (the release's SHA-256, the modules, the profile), and a later
run, from any clone, finds it and builds nothing (a lock keeps two runs from building it at once).
ns-3's own build uses ccache when it is installed (NS3_CCACHE). --standalone-only BUILD does step 2
alone against that prefix, into BUILD (no release tests of its own, -DD2DLEARN_RELEASE_TESTS=OFF),
through the compiler cache as every build of this repository. Both print the folder and exit 0,
or 1 with the log's end; 77 (skipped) when the release is not in the sources.

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
import fcntl
import hashlib
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ns3_tree  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
# The tests not run against the prefix build (see the docstring).
DEFAULT_EXCLUDE = r"^(ns3-release-compile|doc-ns3-compat-table$)"
SKIP = 77


def ns3_modules():
    """D2DLEARN_NS3_MODULES of cmake/d2dlearnNs3.cmake (one list, read from there)."""
    text = (REPO / "cmake" / "d2dlearnNs3.cmake").read_text()
    m = re.search(r"^set\(D2DLEARN_NS3_MODULES ([^)]*)\)", text, re.M)
    return m.group(1).split()


def stepper(log, record, who):
    """step(name, cmd, cwd): runs cmd into log, records its seconds and outcome under name,
    prints one line; True if it passed (else the log's end is printed)."""
    def step(name, cmd, cwd, env=None):
        t0 = time.monotonic()
        rc = ns3_tree.run(cmd, cwd, log, env)
        record[name] = {"ok": rc == 0, "seconds": round(time.monotonic() - t0, 1)}
        print(f"{who}: {name} {record[name]['seconds']} s, {'ok' if rc == 0 else 'FAILED'}",
              flush=True)
        if rc != 0:
            print(ns3_tree.log_tail(log))
        return rc == 0
    return step


def build_prefix(step, tree, prefix, profile, jobs):
    """Step 1: ns-3's modules that d2dlearn links, configured, built and installed into prefix."""
    py = sys.executable
    return (step("ns3_configure", [py, "ns3", "configure", "-d", profile, f"--prefix={prefix}",
                                   "--disable-examples", "--disable-tests",
                                   "--enable-modules=" + ";".join(ns3_modules())], tree)
            # ns-3's own `./ns3 build -j N` runs at most one job fewer than the cores (one job
            # on 2): its CMake build folder is built directly instead.
            and step("ns3_build", ["cmake", "--build", str(Path(tree) / "cmake-cache"), "-j",
                                   str(jobs)], tree)
            and step("ns3_install", [py, "ns3", "install"], tree))


def build_standalone(step, prefix, build, jobs, release, record, extra=()):
    """Step 2: this repository configured against prefix into build and built; True if it
    built and found ns-3 `release` in prefix (record: ns3_dir, ns3_found, cxx_standard; its
    "log" is the log the steps write)."""
    if not (step("configure", ["cmake", "-S", str(REPO), "-B", str(build),
                               "-DCMAKE_BUILD_TYPE=Release", "-DD2DLEARN_SANITIZED_TESTS=OFF",
                               f"-DCMAKE_PREFIX_PATH={prefix}", *extra], REPO)
            and step("build", ["cmake", "--build", str(build), "-j", str(jobs)], REPO)):
        return False
    found = re.search(r"^ns3_DIR:PATH=(.*)$", (Path(build) / "CMakeCache.txt").read_text(), re.M)
    record["ns3_dir"] = found.group(1) if found else None
    # configure's own line, "d2dlearn: ns-3 3.48 (DIR), C++23".
    log = Path(record["log"])
    line = re.findall(r"d2dlearn: ns-3 (\S+) \((.*)\), C\+\+(\d+)",
                      log.read_text(errors="replace"))
    record["ns3_found"] = line[-1][0] if line else None
    record["cxx_standard"] = int(line[-1][2]) if line else None
    if record["ns3_found"] == release and str(record["ns3_dir"] or "").startswith(str(prefix)):
        return True
    print(f"prefix {release}: the build found ns-3 {record['ns3_found']} in "
          f"{record['ns3_dir']}, not {release} in {prefix}")
    return False


def source_digest(path):
    """SHA-256 of a release tarball (a tree: its name and its ns3 script's)."""
    path = Path(path)
    h = hashlib.sha256()
    if path.is_file():
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    else:
        h.update(path.name.encode())
        h.update((path / "ns3").read_bytes())
    return h.hexdigest()


def prefix_only(args):
    """--prefix-only: the prefix built once (see the docstring); the exit status."""
    sources = args.sources or ns3_tree.default_sources()
    releases = ns3_tree.find_releases(sources)
    if args.release not in releases:
        print(f"prefix: skipped: no ns-3 {args.release} in {sources} "
              f"(found: {', '.join(releases) or 'none'})")
        return SKIP
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    prefix = work / f"prefix-{args.release}"
    want = {"release": args.release, "source_sha256": source_digest(releases[args.release]),
            "modules": ns3_modules(), "profile": args.profile}
    done = prefix / ".d2dlearn-prefix.json"
    t0 = time.monotonic()
    with open(work / f"prefix-{args.release}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run building it: wait for it
        if done.is_file() and json.loads(done.read_text()) == want:
            print(f"prefix {args.release}: {prefix} (built before from the same release, "
                  f"modules and profile: reused)")
            return 0
        tree = ns3_tree.unpack(releases[args.release], work)
        log = work / f"prefix-{args.release}.log"
        log.write_text("")
        record = {}
        if not build_prefix(stepper(log, record, f"prefix {args.release}"), tree, prefix,
                            args.profile, args.jobs):
            return 1
        done.write_text(json.dumps(want, indent=1) + "\n")
    print(f"prefix {args.release}: {prefix} (built in {time.monotonic() - t0:.0f} s; later "
          f"runs reuse it)")
    return 0


def standalone_only(args):
    """--standalone-only BUILD: this repository built against the prefix; the exit status."""
    prefix = args.work.resolve() / f"prefix-{args.release}"
    if not (prefix / ".d2dlearn-prefix.json").is_file():
        print(f"prefix {args.release}: no complete prefix in {prefix} (run --prefix-only)")
        return 1
    build = Path(args.standalone_only).resolve()
    build.mkdir(parents=True, exist_ok=True)
    log = build / "standalone.log"
    log.write_text("")
    record = {"log": str(log)}
    ok = build_standalone(stepper(log, record, f"standalone {args.release}"), prefix, build,
                          args.jobs, args.release, record, ["-DD2DLEARN_RELEASE_TESTS=OFF"])
    if ok:
        print(f"standalone {args.release}: {build} (ns-3 {record['ns3_found']} of {prefix}, "
              f"C++{record['cxx_standard']})")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ns3_tree.add_release_arguments(ap)
    ap.add_argument("--exclude", default=DEFAULT_EXCLUDE, help="ctest -E regex")
    ap.add_argument("--prefix-only", action="store_true",
                    help="build the ns-3 prefix alone, once (see the docstring)")
    ap.add_argument("--standalone-only", metavar="BUILD",
                    help="build this repository against the prefix into BUILD, alone")
    args = ap.parse_args()
    if args.prefix_only:
        return prefix_only(args)
    if args.standalone_only:
        return standalone_only(args)

    tree, work = ns3_tree.release_tree(args, "prefix")
    if tree is None:
        return 2
    prefix = work / f"prefix-{args.release}"
    build = work / f"standalone-{args.release}"
    log = work / f"prefix-{args.release}.log"
    log.write_text("")
    record = {"release": args.release, "mode": "prefix", "profile": args.profile,
              **ns3_tree.stamp(), "log": str(log), "prefix": str(prefix)}

    step = stepper(log, record, f"prefix {args.release}")
    ok = build_prefix(step, tree, prefix, args.profile, args.jobs)
    if ok:
        installed = sorted(p.name for p in (prefix / "lib").glob("libns3*.so"))
        record["ns3_libraries"] = installed
        ok = not any("d2dlearn" in name for name in installed)
        if not ok:
            print(f"prefix {args.release}: the prefix holds a d2dlearn module: {installed}")
    if ok:
        ok = build_standalone(step, prefix, build, args.jobs, args.release, record)
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
