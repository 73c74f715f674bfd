#!/usr/bin/env python3
"""graph-discovery: the RL graph leaves less label bias than the closest, uniform and
most-trusted baselines (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning
for Graph Discovery in D2D-Enabled Federated Learning", 2025, Fig. 4).

A small but realistic instance: the scenario's supervised defaults (25 devices of
Fashion-MNIST, 3 labels at 70/20/10 %, random trust at density 0.5, positions in a 100 m
square, reliable clusters at alpha_D = 0.1, rewards through the cluster head), so every
receiver has several trusted transmitters that could help it, on links of different P_D;
5 % of the data (120 points per device) and 1000 RL iterations per run, no downstream
learning. The bias is run.json's summary.results.gdMeanW1ToUniformAfter (the mean over
devices of W1 between the label histogram after the exchange and the uniform one).

The check is a one-sided sign test per baseline: RL's W1 must be strictly lower than the
baseline's on every one of the n = 8 seeds (1-8). Under the null hypothesis that RL is no
better (each seed a fair coin), that happens with p = 2^-8 = 0.0039 per baseline, and for
any of the three by chance at most 3 x 2^-8 = 0.012 (Bonferroni).

It would fail if RL were no better: a graph against itself ties on every seed (a tie is not
a win), e.g. `graph-discovery-rl-diversity.py BIN uniform` puts uniform in RL's place and
must fail.

Usage: graph-discovery-rl-diversity.py PATH/TO/graph-discovery [CANDIDATE (default rl)]
"""
import json
import os
import sys
import tempfile

import case_batch

BIN = sys.argv[1]
CANDIDATE = sys.argv[2] if len(sys.argv) > 2 else "rl"
SEEDS = range(1, 9)
BASELINES = ("closest", "uniform", "most-trusted")
COMMON = ["--dataFraction=0.05", "--iterations=1000", "--downstream=none", "--threads=0",
          "--traceEvery=1000", "--quiet"]


def w1_after(tmp, graphs):
    """{graph: [W1 after, per seed]}: the 32 runs forked by one start of the program."""
    runs = [(g, s, os.path.join(tmp, f"{g}-{s}")) for g in graphs for s in SEEDS]
    argvs = [[f"--graph={g}", f"--seed={s}", f"--outDir={out}"] + COMMON for g, s, out in runs]
    w = {g: [] for g in graphs}
    for (g, _, out), res in zip(runs, case_batch.run(BIN, argvs, timeout=600)):
        if res.returncode != 0:
            sys.exit(f"FAIL: {' '.join(res.args)}: exit {res.returncode}: "
                     f"{res.stderr.strip()[-300:]}")
        with open(os.path.join(out, "run.json")) as f:
            w[g].append(float(json.load(f)["summary"]["results"]["gdMeanW1ToUniformAfter"]))
    return w


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        w = w1_after(tmp, (CANDIDATE,) + BASELINES)
    print(f"W1 after, seeds {SEEDS[0]}-{SEEDS[-1]}:")
    for g, values in w.items():
        print(f"  {g:13s} " + " ".join(f"{v:.3f}" for v in values))
    for g in BASELINES:
        wins = sum(1 for a, b in zip(w[CANDIDATE], w[g]) if a < b)
        print(f"{CANDIDATE} below {g} on {wins} of {len(SEEDS)} seeds")
        if wins < len(SEEDS):
            failures.append(f"{CANDIDATE}'s W1 after is below {g}'s on {wins} of "
                            f"{len(SEEDS)} seeds only (the sign test needs all)")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
