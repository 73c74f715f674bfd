#!/usr/bin/python3
"""Peak memory against the length of a run: a run ten times as long must not need more memory
(within 5 %), since nothing a run keeps may grow with its messages or rounds (run.json's
summary streams its statistics: D2dRunSummary folds each message once its last row is in,
and keeps a kind's latencies exactly only up to 4,096, then the P-squared estimate).

    bench/bench-memory.py [--bin DIR] [--scale S] [--json FILE]

Cases (at --scale 1, the issue's sizes):
  fedavg        500 devices, logistic model, 30 rounds against 300 rounds;
  d2d-exchange  50 devices, a message every 0.5 s each: 10^5 messages (1,000 s) against
                10^6 (10,000 s).
Each program runs in a fresh process; its peak resident set size is the kernel's ru_maxrss
of that child (os.wait4). Prints one row per case: the peak of the short run, of the long
run, their ratio, and PASS when long / short <= 1.05. --scale shrinks both lengths (e.g. 0.1
for a quick look). The first line names the machine, the date and the git commit.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_kb(cmd):
    """(peak RSS in kB, wall s) of cmd run to its end in a child process."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit("bench-memory: %s failed (%d): %s" % (" ".join(cmd), proc.returncode,
                                                       err.strip()[-300:]))
    return usage.ru_maxrss, time.monotonic() - start  # Linux: kB


def commit():
    try:
        return subprocess.run(["git", "-C", TOP, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "bin"))
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()
    if not 0 < args.scale <= 1:
        sys.exit("bench-memory: --scale=%s is out of range (accepted: (0, 1])" % args.scale)
    out = tempfile.mkdtemp(prefix="bench-memory-")
    rounds = max(3, round(300 * args.scale))
    seconds = max(100, round(10000 * args.scale))
    cases = [
        ("fedavg", "rounds", rounds // 10, rounds,
         lambda n, d: [os.path.join(args.bin, "fedavg"), "--nDevices=500",
                       "--model=logistic", "--rounds=%d" % n, "--quiet", "--outDir=" + d]),
        ("d2d-exchange", "simulated s", seconds // 10, seconds,
         lambda n, d: [os.path.join(args.bin, "d2d-exchange"), "--nDevices=50",
                       "--meanInterval=0.5s", "--duration=%ds" % n, "--quiet",
                       "--outDir=" + d]),
    ]
    print("bench-memory: %s, %d cores, %s, commit %s" % (
        platform.processor() or platform.machine(), os.cpu_count(),
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), commit()))
    print("%-13s %-12s %8s %8s %10s %10s %6s  %s" % (
        "program", "length", "short", "long", "short MB", "long MB", "ratio", "flat?"))
    rows = []
    for name, unit, short, long, cmd in cases:
        kb = {}
        wall = {}
        messages = {}
        for n in (short, long):
            d = os.path.join(out, "%s-%d" % (name, n))
            kb[n], wall[n] = peak_kb(cmd(n, d))
            with open(os.path.join(d, "run.json")) as fh:
                messages[n] = json.load(fh)["summary"]["messages"]
        ratio = kb[long] / kb[short]
        row = {"program": name, "unit": unit, "short": short, "long": long,
               "short_peak_kb": kb[short], "long_peak_kb": kb[long], "ratio": ratio,
               "short_messages": messages[short], "long_messages": messages[long],
               "short_wall_s": wall[short], "long_wall_s": wall[long],
               "flat": ratio <= 1.05}
        rows.append(row)
        print("%-13s %-12s %8d %8d %10.1f %10.1f %6.3f  %s (%d -> %d messages, %.1f s)" % (
            name, unit, short, long, kb[short] / 1024, kb[long] / 1024, ratio,
            "PASS" if row["flat"] else "FAIL", messages[short], messages[long],
            wall[long]))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
