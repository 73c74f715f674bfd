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

The manual's tables of these figures (Q = 100 on seeds 1-8, Q = 200 on seeds 1-5) are not
typed from this script's output: they are the campaign
analysis/campaigns/paper-graph-discovery-unsupervised.toml, tabulated by
analysis/discovery_tables.py edges and written into doc/data/ by
bench/doc-numbers.py --campaign paper-graph-discovery-unsupervised.

Usage: /usr/bin/python3 bench/bench-unsupervised-edges.py [--bin build/bin/graph-discovery]
       [--seeds 1,2,3] [--graphs rl,closest,uniform] [--iterations 1000]
       [--requestPoints 100] [--extra "--flag=value ..."]
"""

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import unsupervised_runs  # noqa: E402

ap = argparse.ArgumentParser()
unsupervised_runs.add_arguments(ap, graphs="rl,closest,uniform")
ap.add_argument("--requestPoints", type=int, default=100)
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
            t0 = time.time()
            p = unsupervised_runs.run(args, seed, g, out,
                                      [f"--requestPoints={args.requestPoints}",
                                       "--downstream=none", "--threads=0"])
            wall = time.time() - t0
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
