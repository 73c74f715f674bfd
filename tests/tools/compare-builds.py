#!/usr/bin/env python3
"""Same traces from two builds: the check of a refactor (not a CTest test: it needs two).

Runs every scenario program of OLD_BIN and NEW_BIN on the same small settings and seed (the
determinism tests' settings, over both messaging backends where they are quick) and
compares every trace file the two write, byte for byte, except run.json (its parameters
record the flags, which a change may add to). EXTRA arguments go to the NEW programs only,
e.g. --energySource=basic to compare with a build whose default battery was
BasicEnergySource. Exit 0 if all are identical, 1 otherwise (the differing files named).

The command lines spell every share in [0, 1] (--activationFraction=0.5). A program of OLD_BIN
that takes shares in percent under their former names (a build before the shares became
fractions: its --PrintHelp has --activationPercent) is given them so (--activationPercent=50),
by SPELLED_IN_PERCENT: the same settings on both sides.

  tests/tools/compare-builds.py OLD_BIN NEW_BIN [EXTRA...]
"""

import filecmp
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "analysis"))
from d2dlearn_analysis.run_json import FORMER_PERCENT  # noqa: E402

if len(sys.argv) < 3:
    sys.exit(__doc__)
OLD, NEW, EXTRA = sys.argv[1], sys.argv[2], sys.argv[3:]

RUNS = [
    ("d2d-exchange", ["--nDevices=8", "--duration=3s", "--d2sFraction=0.3", "--seed=7"]),
    ("d2d-exchange", ["--nDevices=8", "--duration=3s", "--reliable=true", "--seed=7",
                      "--traces=full"]),
    ("d2d-exchange", ["--backend=wifi", "--areaSideM=30", "--nDevices=6", "--duration=2s",
                      "--d2sFraction=0.3"]),
    ("fedavg", ["--nDevices=4", "--rounds=2", "--dataFraction=0.02", "--model=mlp:16",
                "--seed=3"]),
    ("fedavg", ["--algorithm=decentralized", "--nDevices=5", "--rounds=2",
                "--dataFraction=0.02", "--model=mlp:16", "--seed=3"]),
    ("fedavg", ["--algorithm=semi-decentralized", "--nDevices=4", "--rounds=2",
                "--dataFraction=0.02", "--model=mlp:16", "--seed=3"]),
    ("fedavg", ["--backend=wifi", "--areaSideM=30", "--nDevices=5", "--rounds=2",
                "--dataFraction=0.05"]),
    ("cmfl", ["--nDevices=20", "--activationFraction=0.5", "--rounds=2", "--dataFraction=0.02",
              "--model=logistic", "--seed=5"]),
    ("cmfl", ["--nDevices=20", "--activationFraction=0.6", "--committeeFraction=0.25",
              "--aggregationFraction=0.3", "--maliciousFraction=0.15", "--attack=back-gradient",
              "--rounds=2", "--dataFraction=0.02", "--model=logistic", "--seed=5"]),
    ("consensus", ["--nDevices=4", "--rounds=3", "--warmupRounds=1", "--dataFraction=0.02",
                   "--seed=5"]),
    ("bayes-consensus", ["--nDevices=6", "--steps=5", "--seed=5"]),
    ("graph-discovery", ["--nDevices=8", "--dataFraction=0.02", "--iterations=40",
                         "--bufferSize=16", "--traceEvery=1", "--downstream=fedavg",
                         "--rounds=1", "--seed=5"]),
]
# Every other protocol each program offers (D2dProtocolRegistry), on the same small
# settings: the registry must make each one exactly as the programs made it before. By hand,
# not from the registry's export (analysis/d2dlearn_analysis/protocols.py): OLD_BIN, an
# earlier build, must offer each of them too (fedasync and fedbuff, registered later, are
# not here; nor is graph-discovery's --downstream=fedsgd).
FEDAVG = ["--nDevices=4", "--rounds=2", "--dataFraction=0.02", "--model=mlp:16", "--seed=3"]
for algorithm in ["fedprox", "fedsgd", "local"]:
    RUNS.append(("fedavg", ["--algorithm=" + algorithm] + FEDAVG))
RUNS.append(("fedavg", ["--aggregation=krum", "--flipDevices=1"] + FEDAVG))
RUNS.append(("fedavg", ["--aggregation=trimmed-mean", "--trimFraction=0.3", "--flipDevices=1"]
             + FEDAVG))
RUNS.append(("fedavg", ["--aggregation=multi-krum", "--aggregationFraction=0.7",
                        "--flipDevices=1"] + FEDAVG))
CMFL = ["--nDevices=20", "--rounds=2", "--dataFraction=0.02", "--model=logistic", "--seed=5",
        "--maliciousFraction=0.1"]
for algorithm in ["cmfl-2", "fedavg", "median", "trimmed-mean", "krum", "multi-krum"]:
    RUNS.append(("cmfl", ["--algorithm=" + algorithm, "--activationFraction=0.5"] + CMFL))
# (The serverless baselines have no share of active clients: the program refuses the flag.)
for algorithm in ["braintorrent", "gossipfl"]:
    RUNS.append(("cmfl", ["--algorithm=" + algorithm] + CMFL))
RUNS.append(("cmfl", ["--algorithm=trimmed-mean", "--trimFraction=0.3",
                      "--activationFraction=0.5"] + CMFL))
RUNS.append(("cmfl", ["--algorithm=multi-krum", "--aggregationFraction=0.3",
                      "--activationFraction=0.5"] + CMFL))
for algorithm in ["fedavg", "fedprox", "local"]:
    RUNS.append(("consensus", ["--algorithm=" + algorithm, "--nDevices=4", "--rounds=3",
                               "--dataFraction=0.02", "--seed=5"]))
for extra in [["--mode=gaussian-linear", "--graph=ring", "--steps=5"],
              ["--graph=range", "--cooperation=isolated", "--steps=5"],
              ["--graph=complete", "--weights=metropolis", "--steps=5"],
              ["--cooperation=central", "--steps=5"],
              ["--mode=variational", "--steps=3", "--dataFraction=0.05"]]:
    RUNS.append(("bayes-consensus", ["--nDevices=6", "--seed=5"] + extra))
for downstream in ["fedprox", "decentralized", "semi-decentralized"]:
    RUNS.append(("graph-discovery", ["--nDevices=8", "--dataFraction=0.02", "--iterations=20",
                                     "--bufferSize=16", "--downstream=" + downstream,
                                     "--rounds=1", "--seed=5"]))

# The shares' former percent flags: current name -> former name (the value x 100), from the
# analysis package's table of the renamed shares (flags: the lower-case names).
SPELLED_IN_PERCENT = {current: former for former, current in FORMER_PERCENT.items()
                      if former[:1].islower()}
in_percent = {}  # program of OLD_BIN -> whether it takes the former percent flags


def old_spelling(program, args):
    """args as OLD_BIN's program takes them: the shares in percent if it has the former
    flags (--activationFraction=0.5 -> --activationPercent=50)."""
    if program not in in_percent:
        shown = subprocess.run([os.path.join(OLD, program), "--PrintHelp"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        in_percent[program] = any("--%s" % name in shown.stdout
                                  for name in SPELLED_IN_PERCENT.values())
    if not in_percent[program]:
        return args
    out = []
    for arg in args:
        name, _, value = arg[2:].partition("=")
        if arg.startswith("--") and name in SPELLED_IN_PERCENT:
            arg = "--%s=%s" % (SPELLED_IN_PERCENT[name],
                               format((Decimal(value) * 100).normalize(), "f"))
        out.append(arg)
    return out


tmp = tempfile.mkdtemp(prefix="compare-builds.")
failures = 0
for k, (program, args) in enumerate(RUNS):
    dirs = []
    for side, binary, line in (("old", OLD, old_spelling(program, args)),
                               ("new", NEW, args + EXTRA)):
        out = os.path.join(tmp, "%02d-%s-%s" % (k, program, side))
        proc = subprocess.run([os.path.join(binary, program), "--quiet", "--outDir=" + out]
                              + line, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        if proc.returncode != 0:
            print("FAIL %s %s (%s): exit %d: %s" % (program, " ".join(args), side,
                                                   proc.returncode, proc.stdout[-500:]))
            failures += 1
        dirs.append(out)
    a, b = dirs
    if not (os.path.isdir(a) and os.path.isdir(b)):
        continue
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    differ = [n for n in names if n != "run.json" and (
        not os.path.isfile(os.path.join(a, n)) or not os.path.isfile(os.path.join(b, n))
        or not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False))]
    compared = [n for n in names if n != "run.json" and n not in differ]
    if differ:
        failures += 1
    print("%s %s %s: %d files identical%s" % ("FAIL" if differ else "ok  ", program,
                                              " ".join(args), len(compared),
                                              ", differ: " + ", ".join(differ) if differ else ""))
print("compare-builds: " + ("PASS" if not failures else "FAIL (%d)" % failures))
sys.exit(1 if failures else 0)
