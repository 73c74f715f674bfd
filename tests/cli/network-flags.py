#!/usr/bin/env python3
"""One meaning per network flag, in every scenario program.

For each of the six programs, on a small setting:
- --dropProbability=P (and --d2sDropProbability=Q where the program has a server link):
  every row of messages.csv has p_drop = P on a device-to-device link and Q on a
  device-to-server link (the server is device N), to 1e-9. (graph-discovery once turned Q
  into an RSS with the D2D noise and then gave the server link another noise: its D2S rows
  had P_D 0.0177 for Q = 0.3.)
- --printLinks prints the links (the summary lines and the link table), exits 0, simulates
  nothing and writes no --outDir. (consensus and graph-discovery once ran the whole
  simulation and wrote their traces.)
A program's two runs are forked by one start of it (case_batch.py, D2DLEARN_CASES).

Usage: network-flags.py BIN_DIR
"""

import csv
import os
import subprocess
import sys
import tempfile

import case_batch

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: network-flags.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="network-flags.")
P, Q = 0.2, 0.35
failures = 0

# program -> (small flags, has a device-to-server link in this setting)
SCENARIOS = {
    "d2d-exchange": (["--nDevices=6", "--duration=1s", "--d2sFraction=0.3"], True),
    "fedavg": (["--algorithm=semi-decentralized", "--nDevices=4", "--rounds=1",
                "--dataFraction=0.02", "--model=mlp:16"], True),
    "cmfl": (["--nDevices=20", "--activationFraction=0.5", "--rounds=1", "--dataFraction=0.02",
              "--model=logistic"], False),
    "consensus": (["--nDevices=4", "--rounds=2", "--warmupRounds=1", "--dataFraction=0.05",
                   "--dataset=gaussian-mixture", "--model=mlp:8"], False),
    "bayes-consensus": (["--nDevices=6", "--steps=5"], False),
    "graph-discovery": (["--paradigm=unsupervised", "--nDevices=10", "--dataFraction=0.05",
                         "--pcaDims=8", "--clusters=7", "--edges=2", "--iterations=50",
                         "--downstream=none"], True),
}


def fail(message):
    global failures
    failures += 1
    print("  FAIL: " + message)


def argv(program, args, out):
    # No LibTorch work in d2d-exchange, nor in bayes-consensus's discrete beliefs (its
    # --threads acts with --mode=variational alone).
    threads = [] if program in ("d2d-exchange", "bayes-consensus") else ["--threads=0"]
    return [*args, "--quiet", *threads, "--outDir=" + out]


def check_drop_probabilities(program, flags, server, p, out):
    cmd = " ".join(p.args[1:])
    if p.returncode != 0:
        fail("%s %s exited %d: %s" % (program, cmd, p.returncode, p.stderr.strip()[-300:]))
        return
    n = next(int(a.split("=", 1)[1]) for a in flags if a.startswith("--nDevices="))
    counts = {"d2d": 0, "d2s": 0}
    with open(os.path.join(out, "messages.csv"), newline="") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            link = "d2s" if n in (int(row["src"]), int(row["dst"])) else "d2d"
            expected = Q if link == "d2s" else P
            got = float(row["p_drop"])
            counts[link] += 1
            if abs(got - expected) > 1e-9:
                fail("%s: messages.csv:%d (%s %s link %s -> %s): p_drop %.17g, expected %g"
                     % (program, i, row["kind"], link, row["src"], row["dst"], got, expected))
                return  # one line per program is enough to tell
    if counts["d2d"] == 0:
        fail("%s: no device-to-device row to check" % program)
    if server and counts["d2s"] == 0:
        fail("%s: no device-to-server row to check" % program)
    print("  %s: %d D2D rows at P_D %g, %d D2S rows at %g"
          % (program, counts["d2d"], P, counts["d2s"], Q))


def check_print_links(program, p, out):
    cmd = " ".join(p.args[1:])
    if p.returncode != 0:
        fail("%s %s exited %d: %s" % (program, cmd, p.returncode, p.stderr.strip()[-300:]))
        return
    before = failures
    if os.path.exists(out):
        fail("%s --printLinks wrote its --outDir (it must simulate nothing)" % program)
    lines = p.stdout.splitlines()
    if not any(line.startswith("# links of this configuration") for line in lines):
        fail("%s --printLinks: no summary line ('# links of this configuration ...')" % program)
    if "link,rx,tx,distance_m,rss_w,p_drop" not in lines:
        fail("%s --printLinks: no link table" % program)
    if failures == before:
        print("  %s --printLinks: %d lines, nothing written" % (program, len(lines)))


for program, (flags, server) in SCENARIOS.items():
    if not os.path.exists(os.path.join(BIN, program)):
        fail("%s is not built in %s" % (program, BIN))
        continue
    print("check: %s" % program)
    drops = ["--dropProbability=%g" % P] + (["--d2sDropProbability=%g" % Q] if server else [])
    # Both runs forked by one start of the program (case_batch); each child parses its flags
    # and goes on as a process of its own would.
    out, links_out = os.path.join(TMP, program), os.path.join(TMP, program + "-links")
    runs = case_batch.run(os.path.join(BIN, program),
                          [argv(program, flags + drops, out),
                           argv(program, flags + ["--printLinks"], links_out)], timeout=300)
    check_drop_probabilities(program, flags, server, runs[0], out)
    check_print_links(program, runs[1], links_out)

subprocess.run(["rm", "-rf", TMP])
if failures:
    print("network-flags: %d failure(s)" % failures)
    sys.exit(1)
print("network-flags: every program gives every link the P_D asked for, and --printLinks "
      "only prints")
