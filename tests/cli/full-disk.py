#!/usr/bin/env python3
"""A full file system, too few inodes, too few file descriptors: every program ends with
one line naming the file and the system's reason, exit status 2, and leaves nothing behind.

For each of the six programs, runs with --traces=full into a small tmpfs (mounted here,
unmounted at the end: root only; without root or mount(8) the test skips with exit 77 and
says why), of several sizes so that the disk fills while different files are written
(energy.csv, rounds.csv, a protocol's own file, run.json, the manifest .run-files), and of
few inodes (a temporary file cannot be created), and under `ulimit -n` too small for the
trace files. Each run must either succeed or:
  - exit with status 2 and one error line on stderr, the last (after the progress lines),
    "PROGRAM: error: outDir: ...";
  - give the real reason: "No space left on device" on the full tmpfs (a full disk used to
    be reported as "Invalid argument": errno read long after the write that failed),
    "Too many open files" under the descriptor limit;
  - leave no temporary file (.NAME.PID.tmp) and no run.json in --outDir.
At least one run of each program must fail on the full tmpfs (else the sizes test nothing).

Usage: full-disk.py BIN_DIR
"""

import os
import shutil
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: full-disk.py BIN_DIR")
SKIP = 77

# program -> a small run whose traces (--traces=full) take more than the smallest tmpfs.
PROGRAMS = {
    "d2d-exchange": ["--nDevices=10", "--duration=20s"],
    "fedavg": ["--nDevices=5", "--rounds=3", "--dataFraction=0.02"],
    "cmfl": ["--rounds=3", "--dataFraction=0.02"],
    "consensus": ["--nDevices=5", "--rounds=3", "--warmupRounds=1", "--dataFraction=0.02"],
    "bayes-consensus": ["--nDevices=6", "--steps=50"],
    "graph-discovery": ["--nDevices=6", "--dataFraction=0.02", "--iterations=10",
                        "--rounds=2"],
}
SIZES_KB = [4, 12, 20, 28, 36]


def main():
    if os.geteuid() != 0:
        print("SKIP: mounting a small tmpfs needs root (CI runs the tests as root)")
        return SKIP
    mnt = tempfile.mkdtemp(prefix="full-disk.")
    failures = []

    def mount(options):
        subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
        return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mnt],
                              stderr=subprocess.PIPE, universal_newlines=True)

    probe = mount("size=4k")
    if probe.returncode != 0:
        os.rmdir(mnt)
        print("SKIP: cannot mount a tmpfs here (%s)" % probe.stderr.strip())
        return SKIP

    def run(name, args, out, reason, limit_fds=None):
        """One run; a failure must be one line giving reason, with nothing left behind.
        Returns whether the run failed (as it may)."""
        argv = [os.path.join(BIN, name)] + args + ["--traces=full", "--outDir=" + out]
        preexec = None
        if limit_fds is not None:
            import resource

            def preexec():
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit_fds, limit_fds))
        proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace", timeout=300,
                              preexec_fn=preexec)
        what = "%s (%s)" % (name, reason)
        left = sorted(f for f in (os.listdir(out) if os.path.isdir(out) else [])
                      if f.endswith(".tmp"))
        if proc.returncode == 0:
            if left:
                failures.append("%s: succeeded but left %s" % (what, left))
            return False
        lines = proc.stderr.strip().splitlines()
        if proc.returncode != 2:
            failures.append("%s: exit %d, not 2: %s" % (what, proc.returncode, lines[-1:]))
        elif (sum(": error:" in line for line in lines) != 1
              or not lines[-1].startswith(name + ": error: outDir: ")):
            failures.append("%s: not one last line \"%s: error: outDir: ...\": %r"
                            % (what, name, lines[-3:]))
        elif reason not in lines[-1]:
            failures.append("%s: the reason is not given: %s" % (what, lines[-1]))
        if left:
            failures.append("%s: left temporary files %s" % (what, left))
        if os.path.exists(os.path.join(out, "run.json")):
            failures.append("%s: failed but wrote run.json" % what)
        return True

    try:
        for name, args in PROGRAMS.items():
            failed = 0
            for kb in SIZES_KB:
                mount("size=%dk" % kb)
                failed += run(name, args, os.path.join(mnt, "run"),
                              "No space left on device")
            # Few inodes: the folder and two files fit, the other temporary files do not.
            mount("size=1m,nr_inodes=4")
            failed += run(name, args, os.path.join(mnt, "run"), "No space left on device")
            if failed == 0:
                failures.append("%s: no run failed on the full tmpfs: the test tests "
                                "nothing" % name)
            # Too few descriptors for the trace files (the program's own start needs some).
            with tempfile.TemporaryDirectory(prefix="full-disk-fds.") as tmp:
                run(name, args, os.path.join(tmp, "run"), "Too many open files",
                    limit_fds=int(os.environ.get("FULL_DISK_FDS", "12")))
            print("%s: %d of %d runs on the full tmpfs failed, each as it must"
                  % (name, failed, len(SIZES_KB) + 1))
    finally:
        subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
        shutil.rmtree(mnt, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
