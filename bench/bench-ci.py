#!/usr/bin/python3
"""The time of CI: `bash .ci/run` (the README's test command, `bash setup.sh --test`) on a
clean clone, cold and then warm, with where the time goes.

    bench/bench-ci.py [--source DIR] [--rev REV] [--runs cold,warm] [--shared DIR | --no-shared]
                      [--top N] [--keep DIR]

Clones the repository DIR (default: this one) at REV (default HEAD: committed work only, as
CI sees it) into a temporary folder and runs `bash .ci/run` there, as CI does, once per run
of --runs (default cold,warm), each in a clone of its own folder (CI clones afresh every
time): cold with an empty compiler cache (a private CCACHE_DIR) and no ns-3 prefix for the
release tests (a private D2DLEARN_RELEASE_WORK: the cold run builds it), warm with the cache and
the prefix the cold run left, as on a machine where CI ran before (--runs warm alone: the
machine's own). As in CI, a copy of shared/ sits beside each clone (default: DIR's ../shared
when it exists; --shared names another, --no-shared puts none, which leaves out the release
tests and skips the ns3-release ones). Prints for each run: the wall time of the whole run, of
the build (from the start to setup.sh's "running the tests") and of the tests (`ctest -j2`, to
the end); setup.sh's phases (packages, configure, build, tests); the compiler cache's hits;
the tests passed and the seconds CTest gives each test, summed, in all and per label (quick,
full, ns3-release, release); the compiler's seconds per CMake target (every compilation timed
by a launcher that CMake's CMAKE_CXX_COMPILER_LAUNCHER environment variable puts in front of
the compiler and its cache: two sources compile at once on 2 cores, so on an otherwise idle
machine a source's seconds are its CPU seconds); and the N slowest tests (default 10). Exits
non-zero, with the end of the log, if `.ci/run` fails: a failing suite has no time.
Needs the packages installed (setup.sh installs them as root; run it once before) and an
idle machine: other work slows every figure here.
--keep DIR: the clones go to DIR/cold and DIR/warm (DIR must not exist) and stay, with their
builds and logs (ci.log).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# In front of every C++ compilation: the start and end (bash's EPOCHREALTIME, no process of
# its own) and the object file, one line each, appended (lines this short are written at
# once, so two compilations at a time do not interleave).
LAUNCHER = """#!/bin/bash
s=$EPOCHREALTIME
"$@"
rc=$?
e=$EPOCHREALTIME
out=
prev=
for a in "$@"; do
    [ "$prev" = -o ] && out=$a
    prev=$a
done
echo "$s $e $out" >>%s
exit $rc
"""

TEST_TIME = re.compile(r'^\d+/\d+ Testing: (\S+)$.*?^"?Test time =\s*([0-9.]+) sec',
                       re.M | re.S)
SUMMARY = re.compile(r"(\d+)% tests passed, (\d+) tests? failed out of (\d+)")


def target_of(obj):
    """The CMake target of an object file (CMakeFiles/TARGET.dir/...); CMake's own checks
    while configuring (cmTC_*) as one."""
    m = re.search(r"CMakeFiles/([^/]+)\.dir/", obj)
    if not m:
        return "(other)"
    return "(configure checks)" if m.group(1).startswith("cmTC_") else m.group(1)


def compile_times(path):
    """{target: [seconds, sources]} from the launcher's log."""
    by = {}
    if not os.path.exists(path):
        return by
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            entry = by.setdefault(target_of(parts[2]), [0.0, 0])
            entry[0] += float(parts[1]) - float(parts[0])
            entry[1] += 1
    return by


def test_times(path):
    """[(seconds, test)] from CTest's LastTest.log, slowest first."""
    with open(path, errors="replace") as f:
        text = f.read()
    return sorted(((float(t), n) for n, t in TEST_TIME.findall(text)), reverse=True)


PHASE = re.compile(r"^setup\.sh: phase (\S+): ([0-9.]+) s$", re.M)
CACHE = re.compile(r"^setup\.sh: compiler cache: (.*)$", re.M)
LABELS = ("quick", "full", "ns3-release", "release")


def labelled(build, label):
    """The names of the tests of BUILD that carry LABEL (ctest -N -L, exact match)."""
    # After the run: CTest's -N rewrites BUILD's LastTest.log, read before this.
    out = subprocess.run(["ctest", "--test-dir", build, "-N", "-L", "^%s$" % label],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return set(re.findall(r"^\s*Test\s+#\d+: (\S+)$", out, re.M))


def one_run(name, a, rev, root, ccache_dir, release_work):
    """Clone, run .ci/run, print this run's lines. Returns nothing; exits on failure."""
    os.makedirs(root)
    clone = os.path.join(root, "clone")
    subprocess.run(["git", "clone", "-q", "--no-checkout", a.source, clone], check=True)
    subprocess.run(["git", "-C", clone, "checkout", "-q", rev], check=True)
    if a.shared:
        os.symlink(os.path.abspath(a.shared), os.path.join(root, "shared"))
    times = os.path.join(root, "compile-times")
    launcher = os.path.join(root, "time-compile")
    with open(launcher, "w") as f:
        f.write(LAUNCHER % times)
    os.chmod(launcher, 0o755)
    env = dict(os.environ, CMAKE_CXX_COMPILER_LAUNCHER=launcher, CCACHE_DIR=ccache_dir,
               D2DLEARN_RELEASE_WORK=release_work, CI="true")
    log_path = os.path.join(root, "ci.log")
    load_start = os.getloadavg()[0]
    t0 = time.monotonic()
    build_end = None
    with open(log_path, "w") as log:
        proc = subprocess.Popen(["bash", ".ci/run"], cwd=clone, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for line in proc.stdout:
            log.write(line)
            if build_end is None and line.startswith("setup.sh: running the tests"):
                build_end = time.monotonic()
        code = proc.wait()
    end = time.monotonic()
    with open(log_path) as f:
        text = f.read()
    if code != 0 or build_end is None:
        sys.stderr.write("".join(text.splitlines(True)[-40:]))
        sys.exit("bench-ci: %s: .ci/run exited %d%s: no time is given for a failing suite"
                 % (name, code, "" if build_end else " before the tests"))
    summary = SUMMARY.findall(text)
    if not summary:
        sys.stderr.write("".join(text.splitlines(True)[-40:]))
        sys.exit("bench-ci: %s: no CTest summary at the end of .ci/run's output" % name)
    _, failed, total = (int(x) for x in summary[-1])
    build = os.path.join(clone, "build")
    tests = test_times(os.path.join(build, "Testing", "Temporary", "LastTest.log"))
    compiled = compile_times(times)

    print("ci %s: total %.1f s, build %.1f s, tests %.1f s; load average %.1f at the start, "
          "%.1f at the end" % (name, end - t0, build_end - t0, end - build_end, load_start,
                               os.getloadavg()[0]))
    phases = PHASE.findall(text)
    if phases:
        print("phases %s: %s" % (name, ", ".join("%s %s s" % p for p in phases)))
    cache = CACHE.findall(text)
    print("cache %s: %s" % (name, cache[-1] if cache else "not used (ccache not installed)"))
    print("tests %s: %d of %d passed, %.1f s summed over %d tests" % (
        name, total - failed, total, sum(t for t, _ in tests), len(tests)))
    for label in LABELS:
        names = labelled(build, label)
        mine = [t for t, n in tests if n in names]
        print("label %s %s: %.1f s summed over %d tests" % (name, label, sum(mine), len(mine)))
    if compiled:
        print("compile %s: %.1f s in %d sources" % (name, sum(v[0] for v in compiled.values()),
                                                    sum(v[1] for v in compiled.values())))
        for target, (secs, n) in sorted(compiled.items(), key=lambda kv: -kv[1][0]):
            print("compile %s %s: %.1f s in %d sources" % (name, target, secs, n))
    else:
        print("compile %s: not measured (CMake did not use the launcher)" % name)
    for secs, test in tests[:a.top]:
        print("test %s %s: %.1f s" % (name, test, secs))
    sys.stdout.flush()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--source", default=TOP, help="the repository to clone (default: this one)")
    p.add_argument("--rev", default="HEAD", help="the commit to measure (default HEAD)")
    p.add_argument("--runs", default="cold,warm",
                   help="which runs, in order: cold, warm or both (default cold,warm)")
    p.add_argument("--shared", help="the shared/ folder put beside each clone "
                   "(default: SOURCE/../shared when it exists)")
    p.add_argument("--no-shared", action="store_true",
                   help="put no shared/ beside the clones (the ns3-release tests skip)")
    p.add_argument("--top", type=int, default=10, help="slowest tests to list (default 10)")
    p.add_argument("--keep", help="clone into this folder (must not exist) and keep it")
    a = p.parse_args()
    if a.top < 0:
        p.error("--top must be 0 or more")
    runs = a.runs.split(",")
    if not runs or any(r not in ("cold", "warm") for r in runs) or len(set(runs)) != len(runs):
        p.error("--runs: %s is not accepted (cold, warm, or both separated by a comma)"
                % a.runs)
    if a.keep and os.path.exists(a.keep):
        p.error("--keep: %s exists" % a.keep)
    if a.no_shared and a.shared:
        p.error("--shared and --no-shared exclude each other")
    if not a.no_shared and not a.shared:
        default = os.path.join(os.path.dirname(os.path.abspath(a.source)), "shared")
        a.shared = default if os.path.isdir(default) else None
    if a.shared and not os.path.isdir(a.shared):
        p.error("--shared: %s is not a folder" % a.shared)
    rev = subprocess.run(["git", "-C", a.source, "rev-parse", "--verify", a.rev + "^{commit}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if rev.returncode != 0:
        p.error("--rev: %s is not a commit of %s" % (a.rev, a.source))
    rev = rev.stdout.strip()

    tmp = tempfile.mkdtemp(prefix="bench-ci.")
    top = os.path.abspath(a.keep) if a.keep else tmp
    try:
        ccache_dir = os.path.join(tmp, "ccache")
        # The release tests' ns-3 prefix (tests/CMakeLists.txt): built by the cold run.
        release_work = os.path.join(tmp, "ns3-releases")
        if "warm" in runs and "cold" not in runs:
            # A warm run alone uses the machine's own cache and prefix, as earlier runs left
            # them.
            ccache_dir = os.environ.get("CCACHE_DIR", os.path.expanduser("~/.cache/ccache"))
            release_work = os.environ.get("D2DLEARN_RELEASE_WORK", os.path.expanduser(
                "~/.cache/d2dlearn/ns3-releases"))
        print("bench-ci: clean clones of %s at %s, `bash .ci/run`, runs %s; shared/ beside: "
              "%s" % (a.source, rev[:12], ",".join(runs), a.shared or "none"), flush=True)
        for name in runs:
            one_run(name, a, rev, os.path.join(top, name), ccache_dir, release_work)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
