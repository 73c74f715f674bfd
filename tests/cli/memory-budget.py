#!/usr/bin/python3
"""Sizes that cannot fit are refused in seconds; sizes that are accepted fit.

For graph-discovery, cmfl and consensus:
1. Refused: a size whose estimate exceeds the memory available (D2DLEARN_MEMORY_MB caps it, so
   the test does not depend on the machine) exits 2 within 20 s with one line that names
   --nDevices, gives the estimate in GB and the largest size that fits, and writes nothing.
2. The largest size that fits, as the refusal names it, passes --validate under the same
   budget and one device more does not (the bisection and the check agree).
3. Fits: a small accepted run's peak resident memory (getrusage of the child) is at most the
   estimate (read from the refusal under a 1 MB budget), and the estimate is not more than
   FACTOR times the peak (a bound, not a guess of any size).
4. D2DLEARN_MEMORY_MB that is not a size is refused with one line naming it.

Usage: memory-budget.py BIN_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import threading

BIN = sys.argv[1]
FACTOR = 3.0
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(name, args, memory_mb, out, timeout=600):
    """(returncode, stderr, peak resident memory of this run in bytes, from wait4)."""
    env = dict(os.environ, D2DLEARN_MEMORY_MB=str(memory_mb))
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([os.path.join(BIN, name)] + args + ["--quiet", "--outDir=" + out],
                                stdout=subprocess.DEVNULL, stderr=err, env=env, text=True)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return proc.returncode, err.read(), usage.ru_maxrss * 1024


REFUSAL = re.compile(r"^\S+: error: --nDevices=(\d+): (\S+) holds about ([0-9.e+]+) GB for \d+ devices "
                     r"\(.*\), more than the ([0-9.e+]+) GB available \(accepted here: "
                     r"(?:at most (\d+) devices|no size.*)\)$")

# (program, flags of a small run and its devices, flags and devices refused under 2 GB)
CASES = [
    ("consensus", ["--dataset=gaussian-mixture", "--model=logistic", "--syntheticSamples=12000",
                   "--warmupRounds=0", "--rounds=1"], 600,
     ["--dataset=gaussian-mixture", "--model=logistic", "--syntheticSamples=400000"], 12000),
    ("cmfl", ["--dataset=gaussian-mixture", "--model=logistic", "--rounds=1"], 800,
     ["--dataset=gaussian-mixture", "--model=logistic", "--syntheticSamples=400000"], 60000),
    ("graph-discovery", ["--downstream=none", "--iterations=200"], 300,
     ["--downstream=none", "--dataFraction=1"], 40000),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, small, n_small, big, n_big in CASES:
        out = os.path.join(tmp, name)
        # 1. refused under 2 GB, at once, one line, nothing written.
        rc, err, _ = run(name, big + ["--nDevices=%d" % n_big], 2000, out, timeout=20)
        m = REFUSAL.match(err.strip())
        check(rc == 2 and m is not None and err.count("\n") == 1,
              f"{name} --nDevices={n_big} under 2 GB: exit 2 (got {rc}), one line: "
              f"{err.strip()[:300]}")
        check(not os.path.exists(out), f"{name}: the refused run wrote nothing")
        if m and m.group(5):
            # 2. the largest size that fits is accepted, one more is not (--validate stops
            # after every check, before any output).
            fits = int(m.group(5))
            rc_fit, err_fit, _ = run(name, big + ["--nDevices=%d" % fits, "--validate"], 2000,
                                     out, timeout=60)
            rc_one, _, _ = run(name, big + ["--nDevices=%d" % (fits + 1), "--validate"], 2000,
                               out, timeout=60)
            check(0 < fits < n_big and rc_fit == 0 and rc_one == 2,
                  f"{name}: {fits} devices fit in 2 GB (exit {rc_fit}: {err_fit.strip()[:200]}),"
                  f" {fits + 1} do not (exit {rc_one})")
        # 3. a small run fits in its estimate.
        rc, err, _ = run(name, small + ["--nDevices=%d" % n_small], 1, out, timeout=20)
        m = REFUSAL.match(err.strip())
        check(rc == 2 and m is not None, f"{name} --nDevices={n_small} under 1 MB: refused "
              f"with the estimate ({err.strip()[:200]})")
        if not m:
            continue
        estimate = float(m.group(3)) * 1e9
        rc, err, peak = run(name, small + ["--nDevices=%d" % n_small],
                            int(estimate / 1e6 * 1.01) + 1, out)
        check(rc == 0, f"{name} --nDevices={n_small} under its estimate "
              f"({estimate / 1e6:.0f} MB) runs (exit {rc}: {err.strip()[:200]})")
        check(peak <= estimate <= FACTOR * peak,
              f"{name} --nDevices={n_small}: peak {peak / 1e6:.0f} MB <= estimate "
              f"{estimate / 1e6:.0f} MB <= {FACTOR} x peak")

    # 4. a malformed budget.
    rc, err, _ = run("cmfl", ["--nDevices=100"], "12MB", os.path.join(tmp, "bad"), timeout=20)
    check(rc == 2 and "D2DLEARN_MEMORY_MB=12MB" in err and err.count("\n") == 1,
          f"D2DLEARN_MEMORY_MB=12MB refused in one line ({err.strip()[:200]})")

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("all checks passed")
