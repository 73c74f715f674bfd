#!/usr/bin/python3
"""The up-front memory check against what the runs really hold: for cmfl, consensus and
graph-discovery at growing sizes, the estimate the program refuses with (D2dMemoryBudget,
read from its refusal under D2DLEARN_MEMORY_MB=1) beside the peak resident set size of the
same run carried out (os.wait4 of the child).

    bench/bench-memory-budget.py [--bin DIR] [--quick] [--json FILE]

Prints the machine, the date and the commit on its first line, then one row per run:
program, devices, estimate (MB), peak (MB), estimate / peak, and "bound" when the peak is at
most the estimate (the check then never accepts a run that cannot fit) or "UNDER" when it is
not. --quick runs the smallest size of each program only.
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ESTIMATE = re.compile(r"holds about ([0-9.e+]+) GB for")

# (program, flags, sizes)
CASES = [
    ("cmfl", ["--dataset=gaussian-mixture", "--model=logistic", "--rounds=1",
              "--syntheticSamples=80000"], [2500, 5000, 10000]),
    ("consensus", ["--dataset=gaussian-mixture", "--model=logistic", "--warmupRounds=0",
                   "--rounds=1", "--syntheticSamples=80000"], [500, 1000, 2000]),
    ("graph-discovery", ["--downstream=none", "--iterations=1000"], [500, 1000, 2000]),
]


def run(cmd, memory_mb):
    """(returncode, stderr, peak RSS bytes, wall s)."""
    env = dict(os.environ, D2DLEARN_MEMORY_MB=str(memory_mb))
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    return proc.returncode, err, usage.ru_maxrss * 1024, time.monotonic() - start


def commit():
    try:
        return subprocess.run(["git", "-C", TOP, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "bin"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()
    print("# %s, %s, commit %s" % (platform.node() or "unknown",
                                   datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), commit()))
    print("%-16s %8s %12s %10s %9s %8s %s" % ("program", "devices", "estimate_MB", "peak_MB",
                                             "est/peak", "wall_s", "verdict"))
    rows = []
    out = "/tmp/bench-memory-budget.%d" % os.getpid()
    for name, flags, sizes in CASES:
        for n in sizes[:1] if args.quick else sizes:
            cmd = [os.path.join(args.bin, name)] + flags + ["--nDevices=%d" % n, "--quiet",
                                                            "--outDir=" + out]
            rc, err, _, _ = run(cmd, 1)
            m = ESTIMATE.search(err)
            if rc != 2 or not m:
                sys.exit("bench-memory-budget: %s gave no estimate (exit %d): %s"
                         % (" ".join(cmd), rc, err.strip()[-300:]))
            estimate = float(m.group(1)) * 1e9
            rc, err, peak, wall = run(cmd, int(estimate / 1e6 * 1.01) + 1)
            if rc != 0:
                sys.exit("bench-memory-budget: %s failed (%d): %s"
                         % (" ".join(cmd), rc, err.strip()[-300:]))
            row = {"program": name, "devices": n, "estimate_bytes": estimate,
                   "peak_bytes": peak, "wall_s": round(wall, 1)}
            rows.append(row)
            print("%-16s %8d %12.0f %10.0f %9.2f %8.1f %s"
                  % (name, n, estimate / 1e6, peak / 1e6, estimate / peak, wall,
                     "bound" if peak <= estimate else "UNDER"), flush=True)
    subprocess.run(["rm", "-rf", out], check=False)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0 if all(r["peak_bytes"] <= r["estimate_bytes"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
