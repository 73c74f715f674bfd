#!/usr/bin/env python3
"""Downstream of graph discovery's unsupervised paradigm (Wagle, Das, Love and Brinton,
"Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
2025, sec. V-B and VI): after discovery and the exchange of real points over two incoming
edges, FedAvg trains the self-supervised triplet encoder (--model=triplet) on the shards as
the exchange left them, scored by linear evaluation on the test set. Compares each graph
(rl by default) with no exchange (--graph=none) on the same seeds. Run by hand, prints its
figures; not a test.

Per seed and graph it prints the mean W1 of the label histograms to uniform after the
exchange, the linear-evaluation accuracy after the last round and the mean over rounds
1..R (rounds.csv, node -1).

Usage: /usr/bin/python3 bench/bench-unsupervised-downstream.py [--bin build/bin/graph-discovery]
       [--seeds 1,2,3] [--graphs rl,none] [--iterations 1000] [--rounds 5]
       [--nDevices 10] [--dataFraction 0.1667] [--extra "--flag=value ..."]
"""

import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import unsupervised_runs  # noqa: E402

ap = argparse.ArgumentParser()
unsupervised_runs.add_arguments(ap, graphs="rl,none")
ap.add_argument("--rounds", type=int, default=5)
args = ap.parse_args()

seeds = [int(s) for s in args.seeds.split(",")]
graphs = args.graphs.split(",")
print(f"N = {args.nDevices}, dataFraction {args.dataFraction:.4f}, PCA d = 8, K = 7, two "
      f"edges, real points, {args.iterations} RL iterations per edge, FedAvg of the triplet "
      f"encoder for {args.rounds} rounds")
print("seed,graph,w1_after,final_linear_eval_accuracy,mean_accuracy_rounds_1_to_R")
final = {}
with tempfile.TemporaryDirectory() as tmp:
    for seed in seeds:
        for g in graphs:
            out = os.path.join(tmp, f"s{seed}-{g}")
            params = unsupervised_runs.run(args, seed, g, out,
                                           ["--downstream=fedavg", "--model=triplet",
                                            f"--rounds={args.rounds}", "--threads=2"])
            rows = [r for r in csv.DictReader(open(os.path.join(out, "rounds.csv")))
                    if r["node"] == "-1" and r["metric"] == "accuracy" and int(r["round"]) > 0]
            acc = [float(r["value"]) for r in sorted(rows, key=lambda r: int(r["round"]))]
            final[(seed, g)] = acc[-1]
            print(f"{seed},{g},{float(params['gdMeanW1ToUniformAfter']):.4f},{acc[-1]:.4f},"
                  f"{sum(acc) / len(acc):.4f}", flush=True)
if "none" in graphs:
    for g in graphs:
        if g == "none":
            continue
        wins = sum(final[(s, g)] > final[(s, "none")] for s in seeds)
        gain = sum(final[(s, g)] - final[(s, "none")] for s in seeds) / len(seeds)
        print(f"{g} against none: final accuracy higher in {wins} of {len(seeds)} seeds, "
              f"mean difference {gain:+.4f}")
