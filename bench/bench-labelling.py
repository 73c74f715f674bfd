#!/usr/bin/env python3
"""Labelling accuracy of graph discovery's semi-supervised paradigm against the PCA dimension
(Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
D2D-Enabled Federated Learning", 2025, Fig. 8a: accuracy grows with the number of distributed
PCA components). Run by hand, prints its figures; not a test.

For each seed and d it runs build/bin/graph-discovery --paradigm=semi-supervised with no
graph and no downstream training (only the distributed PCA over the D2S link and the label
propagation), and reports the mean over devices of gd_labelling.csv's accuracy on the
unlabelled points and on all points, and the PCA bytes (run.json gdPcaBytes). With
--labellers propagation,mlp it also runs App. D-D's labeller (--labeller=mlp: a local MLP per
device on its labelled raw features, no PCA; one run per seed, d does not apply) and prints
the two side by side.

The manual's labelling table (--nDevices 10 --dataFraction 0.1, d = 5, 10, 20, 50 and mlp,
seeds 1-3) is not typed from this script's output: it is the campaign
analysis/campaigns/paper-graph-discovery-semi.toml, tabulated by
analysis/discovery_tables.py labelling and written into doc/data/ by
bench/doc-numbers.py --campaign paper-graph-discovery-semi.

Usage: /usr/bin/python3 bench/bench-labelling.py [--bin build/bin/graph-discovery]
       [--dims 5,10,20,50] [--seeds 1,2,3] [--nDevices 15] [--dataFraction 0.25]
       [--labelledFraction 0.15] [--knn 7] [--labellers propagation,mlp]
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="build/bin/graph-discovery")
ap.add_argument("--dims", default="5,10,20,50")
ap.add_argument("--seeds", default="1,2,3")
ap.add_argument("--nDevices", type=int, default=15)
ap.add_argument("--dataFraction", type=float, default=0.25)
ap.add_argument("--labelledFraction", type=float, default=0.15)
ap.add_argument("--knn", type=int, default=7)
ap.add_argument("--labellers", default="propagation")
args = ap.parse_args()
labellers = args.labellers.split(",")

dims = [int(d) for d in args.dims.split(",")]
seeds = [int(s) for s in args.seeds.split(",")]
print(f"N = {args.nDevices}, dataFraction {args.dataFraction}, labelled "
      f"{args.labelledFraction}, k = {args.knn}")
print("labeller,seed,d,mean_unlabelled_accuracy,min_unlabelled_accuracy,mean_accuracy,pca_bytes")
table = {}
with tempfile.TemporaryDirectory() as tmp:
    for labeller in labellers:
        for seed in seeds:
            for d in dims if labeller == "propagation" else ["-"]:
                out = os.path.join(tmp, f"{labeller}-s{seed}-d{d}")
                cmd = [args.bin, "--paradigm=semi-supervised", f"--labeller={labeller}",
                       f"--knn={args.knn}", f"--labelledFraction={args.labelledFraction}",
                       f"--nDevices={args.nDevices}", f"--dataFraction={args.dataFraction}",
                       "--graph=none", "--downstream=none", "--iterations=1", "--threads=0",
                       "--quiet", f"--seed={seed}", f"--outDir={out}"]
                if d != "-":
                    cmd.append(f"--pcaDims={d}")
                res = subprocess.run(cmd, capture_output=True, text=True)
                if res.returncode != 0:
                    sys.exit(f"{' '.join(cmd)}: {res.stderr.strip()}")
                rows = list(csv.DictReader(open(os.path.join(out, "gd_labelling.csv"))))
                unl = [float(r["unlabelled_accuracy"]) for r in rows]
                acc = [float(r["accuracy"]) for r in rows]
                pca = json.load(open(os.path.join(out, "run.json")))["summary"]["results"].get(
                    "gdPcaBytes", 0)
                table.setdefault((labeller, d), []).append(sum(unl) / len(unl))
                print(f"{labeller},{seed},{d},{sum(unl) / len(unl):.4f},{min(unl):.4f},"
                      f"{sum(acc) / len(acc):.4f},{pca}", flush=True)
print("labeller,d,mean over seeds of the mean unlabelled accuracy")
for (labeller, d), v in table.items():
    print(f"{labeller},{d},{sum(v) / len(v):.4f}")
