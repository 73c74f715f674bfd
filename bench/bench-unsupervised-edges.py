#!/usr/bin/env python3
"""Label bias after each edge of graph discovery's unsupervised paradigm (Wagle, Das, Love and
Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
Learning", 2025, sec. VI-O and Fig. 8d: the mean 1-Wasserstein distance between the devices'
label histograms and uniform falls by about 17 % after the first edge and by about 5 % more
after the second; the RL graph beats the baselines). Run by hand, prints its figures; not a
test.

The setting of the issue's acceptance: 10 devices x 1000 Fashion-MNIST images with 3 labels
at 70/20/10 %, distributed PCA with d = 8, K-means with K = 7, two incoming edges, real points
moved. For each seed and graph (rl, closest, uniform) it runs build/bin/graph-discovery
--paradigm=unsupervised --downstream=none and reads run.json's gdMeanW1ToUniformPerEdge
(before, after edge 1, after edge 2; the labels are used for nothing else).

Usage: /usr/bin/python3 bench/bench-unsupervised-edges.py [--bin build/bin/graph-discovery]
       [--seeds 1,2,3] [--graphs rl,closest,uniform] [--iterations 1000]
       [--requestPoints 100] [--extra "--flag=value ..."]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="build/bin/graph-discovery")
ap.add_argument("--seeds", default="1,2,3")
ap.add_argument("--graphs", default="rl,closest,uniform")
ap.add_argument("--iterations", type=int, default=1000)
ap.add_argument("--requestPoints", type=int, default=100)
ap.add_argument("--nDevices", type=int, default=10)
# 10 devices x 1000 images of the 60,000: a sixth of the training set.
ap.add_argument("--dataFraction", type=float, default=1 / 6)
ap.add_argument("--extra", default="")
args = ap.parse_args()

seeds = [int(s) for s in args.seeds.split(",")]
graphs = args.graphs.split(",")
print(f"N = {args.nDevices}, dataFraction {args.dataFraction:.4f}, d = 8, K = 7, E = 2, "
      f"Q = {args.requestPoints}, {args.iterations} RL iterations per edge, real points")
print("seed,graph,w1_before,w1_edge1,w1_edge2,drop1_pct,drop2_pct,points_moved,wall_s")
table = {}
with tempfile.TemporaryDirectory() as tmp:
    for seed in seeds:
        for g in graphs:
            out = os.path.join(tmp, f"s{seed}-{g}")
            cmd = [args.bin, "--paradigm=unsupervised", "--pcaDims=8", "--clusters=7",
                   "--edges=2", "--exchangeMode=real", f"--graph={g}",
                   f"--requestPoints={args.requestPoints}", f"--iterations={args.iterations}",
                   f"--nDevices={args.nDevices}", f"--dataFraction={args.dataFraction}",
                   "--partition=labels", "--downstream=none", "--threads=0", "--quiet",
                   "--traceEvery=1000000", f"--seed={seed}", f"--outDir={out}"]
            cmd += args.extra.split()
            t0 = time.time()
            res = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.time() - t0
            if res.returncode != 0:
                sys.exit(f"{' '.join(cmd)}: {res.stderr.strip()}")
            p = json.load(open(os.path.join(out, "run.json")))["parameters"]
            w = p["gdMeanW1ToUniformPerEdge"]
            d1 = 100 * (w[0] - w[1]) / w[0]
            d2 = 100 * (w[1] - w[2]) / w[0]
            table.setdefault(g, []).append((w, d1, d2))
            print(f"{seed},{g},{w[0]:.5f},{w[1]:.5f},{w[2]:.5f},{d1:.2f},{d2:.2f},"
                  f"{p['gdPointsMoved']},{wall:.1f}", flush=True)
print("graph,mean_w1_edge1,mean_w1_edge2,mean_drop1_pct,mean_drop2_pct (drops: % of before)")
for g, rows in table.items():
    k = len(rows)
    print(f"{g},{sum(r[0][1] for r in rows) / k:.5f},{sum(r[0][2] for r in rows) / k:.5f},"
          f"{sum(r[1] for r in rows) / k:.2f},{sum(r[2] for r in rows) / k:.2f}")
if "rl" in table:
    for g in table:
        if g == "rl":
            continue
        wins = sum(1 for a, b in zip(table["rl"], table[g]) if a[0][1] < b[0][1])
        print(f"rl below {g} after edge 1 in {wins} of {len(table[g])} seeds")
