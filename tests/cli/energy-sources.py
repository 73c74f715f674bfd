#!/usr/bin/env python3
"""The default battery (D2dEnergySource) against ns-3's BasicEnergySource, per program.

D2dEnergySource is BasicEnergySource without the periodic update (every 1 s): the same
linear battery and arithmetic, brought up to date only at changes of draw and at reads.
So the traces of a run with --energySource=linear (default) and with --energySource=basic
on the same seed differ only where a periodic update fell between two changes of draw,
and there only by its rounding to whole nJ. Checked on d2d-exchange (5 s of traffic, a
server link) and fedavg (2 rounds over D2S):
- every trace file but energy.csv byte-identical (messages, rounds, ...);
- energy.csv: the same rows, every column equal but remaining_j, which is within 1 nJ per
  second of simulated time so far (one rounding per periodic update) plus 1e-12 J. (How
  many rows differ is printed, not required: where changes of draw are dense, both round
  the same.)

Usage: energy-sources.py BIN_DIR
"""

import csv
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: energy-sources.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="energy-sources.")
failures = 0

RUNS = {
    "d2d-exchange": ["--nDevices=8", "--duration=5s", "--d2sFraction=0.3", "--seed=3"],
    "fedavg": ["--nDevices=4", "--rounds=2", "--dataFraction=0.02", "--model=mlp:16",
               "--seed=3"],
}


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(program, source):
    out = os.path.join(TMP, "%s-%s" % (program, source))
    cmd = [os.path.join(BIN, program), "--outDir=" + out, "--energySource=" + source]
    proc = subprocess.run(cmd + RUNS[program], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    if proc.returncode != 0:
        fail("%s --energySource=%s exited %d:\n%s" % (program, source, proc.returncode,
                                                     proc.stdout[-2000:]))
        return None
    return out


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


for program in RUNS:
    linear, basic = run(program, "linear"), run(program, "basic")
    if not linear or not basic:
        continue
    files = sorted(f for f in os.listdir(linear) if f.endswith(".csv"))
    if sorted(f for f in os.listdir(basic) if f.endswith(".csv")) != files:
        fail("%s: the two runs wrote different trace files" % program)
        continue
    if "energy.csv" not in files or "messages.csv" not in files:
        fail("%s: energy.csv or messages.csv missing: %s" % (program, files))
        continue
    for name in files:
        if name == "energy.csv":
            continue
        with open(os.path.join(linear, name), "rb") as a, open(os.path.join(basic, name),
                                                                "rb") as b:
            if a.read() != b.read():
                fail("%s: %s differs between --energySource=linear and basic" % (program, name))
    a, b = read(os.path.join(linear, "energy.csv")), read(os.path.join(basic, "energy.csv"))
    if len(a) != len(b) or not a:
        fail("%s: energy.csv has %d rows with linear, %d with basic" % (program, len(a), len(b)))
        continue
    worst, differing = 0.0, 0
    for i, (ra, rb) in enumerate(zip(a, b), 2):
        for col in ra:
            if col != "remaining_j" and ra[col] != rb[col]:
                fail("%s: energy.csv:%d: %s = %s (linear) vs %s (basic)"
                     % (program, i, col, ra[col], rb[col]))
        d = abs(float(ra["remaining_j"]) - float(rb["remaining_j"]))
        bound = 1e-9 * (float(ra["sim_time_s"]) + 1.0) + 1e-12
        differing += d > 0
        worst = max(worst, d / bound)
        if d > bound:
            fail("%s: energy.csv:%d: remaining_j %s (linear) vs %s (basic): |diff| %.3g J > "
                 "%.3g J (1 nJ per periodic update)" % (program, i, ra["remaining_j"],
                                                        rb["remaining_j"], d, bound))
    print("%s: %d trace files, energy.csv %d rows: %d remaining_j differ, the largest "
          "difference %.2g of the bound; every other file and column identical"
          % (program, len(files), len(a), differing, worst))

print("energy-sources: " + ("PASS" if not failures else "FAIL (%d)" % failures))
sys.exit(1 if failures else 0)
