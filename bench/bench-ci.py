#!/usr/bin/python3
"""The time of CI: `bash .ci/run` (the README's test command, `bash setup.sh --test`) on a
clean clone, with where the time goes.

    bench/bench-ci.py [--source DIR] [--rev REV] [--top N] [--keep DIR]

Clones the repository DIR (default: this one) at REV (default HEAD: committed work only, as
CI sees it) into a temporary folder and runs `bash .ci/run` there, as CI does. Prints the
wall time of the whole run, of the build (from the start to setup.sh's "running the tests")
and of the tests (`ctest -j2`, to the end); the tests passed and the seconds CTest gives each
test, summed; the compiler's seconds per CMake target (every compilation timed by a
launcher that CMake's CMAKE_CXX_COMPILER_LAUNCHER environment variable puts in front of the
compiler: two sources compile at once on 2 cores, so on an otherwise idle machine a
source's seconds are its CPU seconds); and the N slowest tests (default 10). Exits non-zero,
with the end of the log, if `.ci/run` fails: a failing suite has no time.
Needs the packages installed (setup.sh installs them as root; run it once before) and an
idle machine: other work slows every figure here.
--keep DIR: the clone goes to DIR (must not exist) and stays, with its build and the log
(ci.log).
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


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--source", default=TOP, help="the repository to clone (default: this one)")
    p.add_argument("--rev", default="HEAD", help="the commit to measure (default HEAD)")
    p.add_argument("--top", type=int, default=10, help="slowest tests to list (default 10)")
    p.add_argument("--keep", help="clone into this folder (must not exist) and keep it")
    a = p.parse_args()
    if a.top < 0:
        p.error("--top must be 0 or more")
    if a.keep and os.path.exists(a.keep):
        p.error("--keep: %s exists" % a.keep)
    rev = subprocess.run(["git", "-C", a.source, "rev-parse", "--verify", a.rev + "^{commit}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if rev.returncode != 0:
        p.error("--rev: %s is not a commit of %s" % (a.rev, a.source))
    rev = rev.stdout.strip()

    tmp = tempfile.mkdtemp(prefix="bench-ci.")
    clone = os.path.abspath(a.keep) if a.keep else os.path.join(tmp, "clone")
    try:
        subprocess.run(["git", "clone", "-q", "--no-checkout", a.source, clone], check=True)
        subprocess.run(["git", "-C", clone, "checkout", "-q", rev], check=True)
        times = os.path.join(tmp, "compile-times")
        launcher = os.path.join(tmp, "time-compile")
        with open(launcher, "w") as f:
            f.write(LAUNCHER % times)
        os.chmod(launcher, 0o755)
        env = dict(os.environ, CMAKE_CXX_COMPILER_LAUNCHER=launcher)
        log_path = os.path.join(clone if a.keep else tmp, "ci.log")
        print("bench-ci: a clean clone of %s at %s, `bash .ci/run`; load average %.1f at the "
              "start" % (a.source, rev[:12], os.getloadavg()[0]), flush=True)
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
            sys.exit("bench-ci: .ci/run exited %d%s: no time is given for a failing suite"
                     % (code, "" if build_end else " before the tests"))
        summary = SUMMARY.findall(text)
        if not summary:
            sys.stderr.write("".join(text.splitlines(True)[-40:]))
            sys.exit("bench-ci: no CTest summary at the end of .ci/run's output")
        _, failed, total = (int(x) for x in summary[-1])
        tests = test_times(os.path.join(clone, "build", "Testing", "Temporary", "LastTest.log"))
        compiled = compile_times(times)

        print("ci: total %.1f s, build %.1f s, tests %.1f s; load average %.1f at the end"
              % (end - t0, build_end - t0, end - build_end, os.getloadavg()[0]))
        print("tests: %d of %d passed, %.1f s summed over %d tests" % (
            total - failed, total, sum(t for t, _ in tests), len(tests)))
        if compiled:
            print("compile: %.1f s in %d sources" % (sum(v[0] for v in compiled.values()),
                                                     sum(v[1] for v in compiled.values())))
            for name, (secs, n) in sorted(compiled.items(), key=lambda kv: -kv[1][0]):
                print("compile %s: %.1f s in %d sources" % (name, secs, n))
        else:
            print("compile: not measured (CMake did not use the launcher)")
        for secs, name in tests[:a.top]:
            print("test %s: %.1f s" % (name, secs))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if not a.keep:
            shutil.rmtree(clone, ignore_errors=True)


if __name__ == "__main__":
    main()
