#!/usr/bin/env python3
"""Downstream FedAvg accuracy of graph discovery's semi-supervised paradigm with either
labeller (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph
Discovery in D2D-Enabled Federated Learning", 2025, App. D-D, Fig. 14b: with an MLP
assigning the labels, the RL graph still beats the baselines, by about 5 % on SVHN). Run by
hand, prints its figures; not a test.

For each labeller (propagation, mlp), graph and seed it runs build/bin/graph-discovery
--paradigm=semi-supervised --labeller=L --graph=G and reports run.json's mean labelling
accuracy on the unlabelled points, the mean W1 to uniform after the exchange (of the
assigned labels' histograms) and FedAvg's final test accuracy, then the means over seeds.

Usage: /usr/bin/python3 bench/bench-labeller-downstream.py [--bin build/bin/graph-discovery]
       [--labellers propagation,mlp] [--graphs rl,closest,uniform,none] [--seeds 1,2,3]
       [--nDevices 25] [--dataFraction 0.25] [--iterations 1000] [--rounds 20]
       [--threads 2]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="build/bin/graph-discovery")
ap.add_argument("--labellers", default="propagation,mlp")
ap.add_argument("--graphs", default="rl,closest,uniform,none")
ap.add_argument("--seeds", default="1,2,3")
ap.add_argument("--nDevices", type=int, default=25)
ap.add_argument("--dataFraction", type=float, default=0.25)
ap.add_argument("--iterations", type=int, default=1000)
ap.add_argument("--rounds", type=int, default=20)
ap.add_argument("--threads", type=int, default=2)
args = ap.parse_args()

seeds = [int(s) for s in args.seeds.split(",")]
print(f"N = {args.nDevices}, dataFraction {args.dataFraction}, {args.iterations} iterations, "
      f"{args.rounds} FedAvg rounds")
print("labeller,graph,seed,labelling_unlabelled_accuracy,w1_after,final_accuracy")
table = {}
with tempfile.TemporaryDirectory() as tmp:
    for labeller in args.labellers.split(","):
        for graph in args.graphs.split(","):
            for seed in seeds:
                out = os.path.join(tmp, f"{labeller}-{graph}-{seed}")
                cmd = [args.bin, "--paradigm=semi-supervised", f"--labeller={labeller}",
                       f"--graph={graph}", f"--nDevices={args.nDevices}",
                       f"--dataFraction={args.dataFraction}",
                       f"--iterations={args.iterations}", f"--rounds={args.rounds}",
                       f"--threads={args.threads}", "--quiet", f"--seed={seed}",
                       f"--outDir={out}"]
                res = subprocess.run(cmd, capture_output=True, text=True)
                if res.returncode != 0:
                    sys.exit(f"{' '.join(cmd)}: {res.stderr.strip()}")
                p = json.load(open(os.path.join(out, "run.json")))["summary"]["results"]
                row = (float(p["gdLabellingMeanUnlabelledAccuracy"]),
                       float(p["gdMeanW1ToUniformAfter"]), float(p["finalAccuracy"]))
                table.setdefault((labeller, graph), []).append(row)
                print(f"{labeller},{graph},{seed},{row[0]:.4f},{row[1]:.4f},{row[2]:.4f}",
                      flush=True)
print("labeller,graph,mean labelling accuracy,mean W1 after,mean final accuracy")
for (labeller, graph), rows in table.items():
    k = len(rows)
    print(f"{labeller},{graph},{sum(r[0] for r in rows) / k:.4f},"
          f"{sum(r[1] for r in rows) / k:.4f},{sum(r[2] for r in rows) / k:.4f}")
