#!/usr/bin/env python3
"""Devices as they are, from the command line (--deviceProfiles, --computeSpread), end to end.

- a profile file for 4 devices (speeds 1e10, 5e9, 2.5e9 and 1e9 FLOP/s, busy powers 2, 1.5,
  1 and 0.5 W, batteries 1e4 + i J): each busy compute period of device i, times its
  speed, equals the same job's period in the run without the file times 1e10 FLOP/s (the
  same FLOPs; 2 ns), at the device's busy power (1e-9 relative); run.json lists the values
  and audit.py passes (it reads each device's busy power and battery from run.json); a file
  of batteries alone with 1 J for device 3: its battery empties (remaining_j 0), the
  others' do not, audited;
- --computeSpread=0.9 on 40 devices: the busy periods against the run without it as above
  (each speed is run.json's flopsPerSecondPerDevice); ln(speed / 1e10) has mean about 0 and
  standard deviation about 0.9 (4 standard errors); the same seed gives the same traces,
  another seed other speeds; --computeSpread=0 gives the traces of no flag, byte for byte;
- refusals, one line each, exit 2, nothing written: a file missing a device, a speed
  column with --computeModel=cpu, --computeSpread with a speed column, --computeSpread with
  --computeModel=cpu.

Usage: device-profiles.py BIN_DIR ANALYSIS_DIR
"""

import json
import math
import os
import sys
import tempfile

import cli_checks
from cli_checks import audited, check, read_csv

if len(sys.argv) < 3:
    sys.exit("usage: device-profiles.py BIN_DIR ANALYSIS_DIR")
cli_checks.configure(sys.argv[1], sys.argv[2])
TMP = tempfile.mkdtemp(prefix="device-profiles.")
BASE = ["--rounds=2", "--dataFraction=0.02", "--model=mlp:16", "--traces=full", "--quiet"]


def run(args, name):
    """fedavg BASE + ARGS in TMP/NAME, checked to run: the folder (also if it failed)."""
    out = os.path.join(TMP, name)
    cli_checks.run_ok(BASE + args, out, name)
    return out


def params(run_dir):
    with open(os.path.join(run_dir, "run.json")) as f:
        return json.load(f)["parameters"]


def busy_periods(run_dir, idle_w):
    """{node: [(duration s, power W)]} of the compute rows drawing more than the idle power."""
    out = {}
    for r in read_csv(os.path.join(run_dir, "energy.csv")):
        if r["component"] == "compute" and float(r["power_w"]) > idle_w * (1 + 1e-9):
            out.setdefault(int(r["node"]), []).append((float(r["duration_s"]),
                                                       float(r["power_w"])))
    return out


def same_jobs(plain, varied, speeds, n, label):
    """Each busy period of device i in varied x speeds[i] = plain's x 1e10 (2 ns)."""
    idle = float(params(plain)["ns3::D2dComputeModel::IdlePowerW"])
    a, b = busy_periods(plain, idle), busy_periods(varied, idle)
    worst = 0.0
    count = 0
    for i in range(n):
        for (d0, _), (d1, _) in zip(a.get(i, []), b.get(i, [])):
            worst = max(worst, abs(d1 * speeds[i] / 1e10 - d0) / max(speeds[i] / 1e10, 1.0))
            count += 1
    check(count >= n and worst <= 2e-9 * max(1.0, 1e10 / min(speeds)),
          "%s: %d busy periods x the device's speed = the plain run's x 1e10 (worst %.3g s)"
          % (label, count, worst))
    return b


def profile_file():
    speeds = [1e10, 5e9, 2.5e9, 1e9]
    busy = [2.0, 1.5, 1.0, 0.5]
    path = os.path.join(TMP, "profile.csv")
    with open(path, "w") as f:
        f.write("device,flops_per_second,busy_power_w,initial_energy_j\n")
        for i in (3, 1, 0, 2):  # any order
            f.write("%d,%r,%r,%r\n" % (i, speeds[i], busy[i], 1e4 + i))
    plain = run(["--nDevices=4"], "plain4")
    varied = run(["--nDevices=4", "--deviceProfiles=" + path], "profile4")
    p = params(varied)
    check(p.get("flopsPerSecondPerDevice") == speeds and p.get("busyPowerWPerDevice") == busy
          and p.get("initialEnergyJPerDevice") == [1e4, 1e4 + 1, 1e4 + 2, 1e4 + 3],
          "run.json lists each device's speed, busy power and battery")
    b = same_jobs(plain, varied, speeds, 4, "--deviceProfiles")
    check(all(abs(w - busy[i]) <= 1e-9 * busy[i] for i in b for _, w in b[i]),
          "each busy period draws its device's busy_power_w")
    audited(varied)
    # A battery column alone: device 3's 1 J empties, the others' 1e4 J do not.
    batteries = os.path.join(TMP, "batteries.csv")
    with open(batteries, "w") as f:
        f.write("device,initial_energy_j\n0,1e4\n1,1e4\n2,1e4\n3,1\n")
    small = run(["--nDevices=4", "--deviceProfiles=" + batteries], "battery4")
    last = {}
    for r in read_csv(os.path.join(small, "energy.csv")):
        last[r["node"]] = float(r["remaining_j"])
    check(last.get("3") == 0.0 and all(last[k] > 0 for k in ("0", "1", "2")),
          "device 3's 1 J battery empties, the others' do not: %s" % last)
    audited(small)
    return path


def compute_spread():
    plain = run(["--nDevices=40"], "plain40")
    varied = run(["--nDevices=40", "--computeSpread=0.9"], "spread")
    speeds = params(varied).get("flopsPerSecondPerDevice") or []
    check(len(speeds) == 40, "run.json lists 40 speeds")
    if len(speeds) != 40:
        return
    logs = [math.log(s / 1e10) for s in speeds]
    mean = sum(logs) / 40
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 39)
    check(abs(mean) < 4 * 0.9 / math.sqrt(40) and abs(sd - 0.9) < 4 * 0.9 / math.sqrt(80),
          "ln(speed / 1e10): mean %.3f, sd %.3f (0 and 0.9 within 4 standard errors)"
          % (mean, sd))
    same_jobs(plain, varied, speeds, 40, "--computeSpread=0.9")
    audited(varied)
    again = run(["--nDevices=40", "--computeSpread=0.9"], "spread-again")
    other = run(["--nDevices=40", "--computeSpread=0.9", "--seed=2"], "spread-seed2")
    zero = run(["--nDevices=40", "--computeSpread=0"], "spread-zero")
    for name in ("messages.csv", "rounds.csv", "energy.csv"):
        with open(os.path.join(varied, name), "rb") as f1, \
                open(os.path.join(again, name), "rb") as f2:
            check(f1.read() == f2.read(), "same seed, same %s" % name)
        with open(os.path.join(plain, name), "rb") as f1, \
                open(os.path.join(zero, name), "rb") as f2:
            check(f1.read() == f2.read(), "--computeSpread=0: the %s of no flag" % name)
    check(params(other).get("flopsPerSecondPerDevice") != speeds, "--seed=2: other speeds")


def refusals(profile):
    short = os.path.join(TMP, "short.csv")
    with open(short, "w") as f:
        f.write("device,flops_per_second\n0,1e9\n")
    cases = [(["--nDevices=4", "--deviceProfiles=" + short], "device 1 has none"),
             (["--nDevices=4", "--deviceProfiles=" + profile, "--computeModel=cpu"],
              "flops_per_second cannot act"),
             (["--nDevices=4", "--deviceProfiles=" + profile, "--computeSpread=0.5"],
              "both set the speeds"),
             (["--nDevices=4", "--computeSpread=0.5", "--computeModel=cpu"],
              "cannot change this run")]
    cli_checks.refused(cases, os.path.join(TMP, "refused"), BASE)


def main():
    profile = profile_file()
    compute_spread()
    refusals(profile)
    if cli_checks.failures:
        sys.exit("device-profiles: %d failure(s) (runs in %s)" % (cli_checks.failures, TMP))
    print("device-profiles: ok")


if __name__ == "__main__":
    main()
