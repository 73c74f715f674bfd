"""What bench-unsupervised-edges.py and bench-unsupervised-downstream.py share: the setting
of graph discovery's unsupervised paradigm they measure (Wagle, Das, Love and Brinton,
"Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
2025, sec. VI-O: PCA d = 8, K = 7 clusters, two incoming edges, real points moved, labels at
70/20/10 %), its flags and one run of it.

SPDX-License-Identifier: GPL-2.0-only
"""

import json
import os
import subprocess
import sys


def add_arguments(ap, graphs):
    """The flags both benchmarks take; graphs: the default --graphs."""
    ap.add_argument("--bin", default="build/bin/graph-discovery")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--graphs", default=graphs)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--nDevices", type=int, default=10)
    # 10 devices x 1000 images of Fashion-MNIST's 60,000: a sixth of the training set.
    ap.add_argument("--dataFraction", type=float, default=1 / 6)
    ap.add_argument("--extra", default="")


def run(args, seed, graph, out, flags):
    """Run graph-discovery in the setting above with the benchmark's own flags, then
    args.extra; exit with the program's error if it fails. Returns run.json's summary results."""
    cmd = [args.bin, "--paradigm=unsupervised", "--pcaDims=8", "--clusters=7", "--edges=2",
           "--exchangeMode=real", f"--graph={graph}", f"--iterations={args.iterations}",
           f"--nDevices={args.nDevices}", f"--dataFraction={args.dataFraction}",
           "--partition=labels", "--quiet", "--traceEvery=1000000", f"--seed={seed}",
           f"--outDir={out}"] + flags + args.extra.split()
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {res.stderr.strip()}")
    with open(os.path.join(out, "run.json")) as f:
        return json.load(f)["summary"]["results"]
