#!/usr/bin/env python3
"""Efficiency benchmark of Che et al. 2022 (run by hand, prints its figures; not a test).

The paper's efficiency experiment: 43 committee and 65 training clients, alpha = 40 %,
no attack, link rates of 1, 10 and 100 Mbit/s. Here: 108 devices, all active
(--activationFraction=1, --committeeFraction=0.4 gives 43 + 65), Fashion-MNIST (10 %),
MLP 784-64-10 (50,890 parameters, 203,592 bytes per model message), reliable links in a
50 m square, the link rate set through --bandwidthHz (spectral efficiency 2 bit/s/Hz).
For each algorithm and rate it runs build/bin/cmfl and reports the simulated time and the
bytes handed to the radios per round (rounds.csv round_time_s and bytes_sent), the wall
time of the run and the accuracy after the last round. BrainTorrent and GossipFL (the
serverless baselines: the registry's cmfl protocols with D2D links only, other than CMFL) run
over all 108 devices; FedAvg (all 108 clients over the D2S link) is shown for reference.
cmfl-1 uploads each gradient as 43 unicasts (the paper's O(C |w|) per client);
cmfl-1/broadcast as one D2D broadcast naming the committee (--gradientUpload=broadcast).

Usage: /usr/bin/python3 bench/bench-cmfl.py [--bin build/bin/cmfl] [--rounds 3] [--keep DIR]
(--keep: leave the run folders in DIR, e.g. for analysis/plot_cmfl.py DIR/* --out DIR,
whose communication.png shows these figures.)
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis"))
from d2dlearn_analysis.protocols import for_program  # noqa: E402

RATES_MBPS = [1, 10, 100]
#: The serverless baselines, from the library's registry: the cmfl program's protocols with
#: D2D links only, other than CMFL (class D2dCmfl): braintorrent, gossipfl.
BASELINES = for_program("cmfl", lambda p: p["usesD2d"] and not p["usesD2s"]
                        and p["class"] != "ns3::D2dCmfl")
#: cmfl-1 (both uploads) and fedavg by hand: the paper's efficiency experiment is strategy I's,
#: and FedAvg its one reference with a server; no field of the registry's export says either.
ALGORITHMS = ["cmfl-1", "cmfl-1/broadcast"] + BASELINES + ["fedavg"]


def in_scope(args):
    """args without the flags that cannot act with their --algorithm (the program refuses
    those: the CMFL flags with a baseline, --roundDeadline with CMFL, ...), as the program's
    --printScope says; the rest in their order."""
    res = subprocess.run(args + ["--printScope"], capture_output=True, text=True, check=True)
    lines = [line for line in res.stdout.splitlines() if not line.startswith("#")]
    inert = {row["flag"] for row in csv.DictReader(io.StringIO("\n".join(lines)))
             if row["acts"] == "no"}
    return [a for a in args if a[2:].split("=")[0] not in inert]


def run(binary, algorithm, rate, rounds, out):
    name, _, upload = algorithm.partition("/")
    args = [
        binary,
        "--algorithm=" + name,
        "--gradientUpload=" + (upload or "unicast"),
        "--nDevices=108",
        "--activationFraction=1",
        "--committeeFraction=0.4",
        "--aggregationFraction=0.4",
        "--rounds=%d" % rounds,
        "--dataFraction=0.1",
        "--model=mlp:64",
        "--bandwidthHz=%g" % (rate * 1e6 / 2.0),
        "--roundDeadline=0s",
        "--phaseTimeout=100000s",
        "--quiet",
    ]
    subprocess.run(in_scope(args) + ["--outDir=" + out], check=True)
    r = pd.read_csv(os.path.join(out, "rounds.csv"))
    r = r[(r.node == -1) & (r["round"] > 0)]
    per = r.pivot_table(index="round", columns="metric", values="value", aggfunc="last")
    run_json = json.load(open(os.path.join(out, "run.json")))
    return {
        "algorithm": algorithm,
        "rate_mbps": rate,
        "round_time_s": per["round_time_s"].mean(),
        "mbytes_per_round": per["bytes_sent"].mean() / 1e6,
        "accuracy": run_json["summary"]["results"]["finalAccuracy"],
        "wall_s": run_json["wall_time_s"],
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(here, "..", "build", "bin", "cmfl"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", help="folder for the run folders (default: deleted)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        os.makedirs(tmp, exist_ok=True)
        for rate in RATES_MBPS:
            for algorithm in ALGORITHMS:
                out = os.path.join(tmp, "%s-%d" % (algorithm.replace("/", "-"), rate))
                rows.append(run(args.bin, algorithm, rate, args.rounds, out))
                row = rows[-1]
                print(
                    "%-12s %4d Mbit/s  round %9.3f s sim  %8.2f MB/round  accuracy %.3f  "
                    "wall %6.1f s" % (row["algorithm"], rate, row["round_time_s"],
                                      row["mbytes_per_round"], row["accuracy"], row["wall_s"]),
                    flush=True,
                )
    table = pd.DataFrame(rows)
    print()
    print(table.to_string(index=False, float_format=lambda x: "%.3f" % x))
    return 0


if __name__ == "__main__":
    sys.exit(main())
