#!/usr/bin/python3
"""Plots and the accuracy table of consensus runs (Fan, Mendler-Dünner, Jaggi 2023:
collaborative learning via prediction consensus, and its baselines).

Usage:
    /usr/bin/python3 analysis/plot_consensus.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                                [--round R] [--format png|pdf|svg]

Each RUN_DIR is an --outDir of build/bin/consensus: rounds.csv
(`round,sim_time_s,node,metric,value`), run.json (parameters algorithm, trust,
flippedDevices) and, for --algorithm=consensus, trust.csv
(`round,sim_time_s,node,peer,w,received`).  Writes into PLOT_DIR (default: the first
RUN_DIR), in --format (default png):

  trust.png      the paper's Fig. 4: per consensus run, the trust matrix of round R (default:
                 the middle collaboration round) with the diagonal masked, and its column
                 sums without the diagonal in the bar beneath; flipped agents marked with *
  xstar.png      mean X* accuracy of the regular agents per round, one line per run
  bytes.png      bytes handed to the radios per round (node -1 bytes_sent), one line per run

A table in the form of the paper's Table 1 is printed to stdout: per run its folder,
algorithm (consensus runs: algorithm/trust), the flipped agents, and the final test and X*
accuracy of the regular agents (mean over the agents not flipped; FedAvg/FedProx: the global
model's test accuracy, X* not measured).

Bad input (a missing folder or file, a missing column, a non-numeric value) gives a
one-line error on stderr and exit code 2 before anything is written.
"""

import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_io import (TraceError, add_format_argument, note, read_trace,  # noqa: E402
                      save_figure, to_numeric)

ROUNDS_COLUMNS = ["round", "sim_time_s", "node", "metric", "value"]
TRUST_COLUMNS = ["round", "sim_time_s", "node", "peer", "w", "received"]


def load_run(folder):
    if not os.path.isdir(folder):
        raise TraceError("not a folder: %s" % folder)
    path = os.path.join(folder, "run.json")
    try:
        with open(path) as fh:
            meta = json.load(fh)
    except (OSError, ValueError) as exc:
        raise TraceError("cannot read %s: %s" % (path, " ".join(str(exc).split())))
    params = meta.get("parameters", {})
    rounds_path = os.path.join(folder, "rounds.csv")
    rounds = read_trace(rounds_path, ROUNDS_COLUMNS)
    to_numeric(rounds, ["round", "node", "value"], rounds_path)
    trust = None
    trust_path = os.path.join(folder, "trust.csv")
    if os.path.isfile(trust_path):
        trust = read_trace(trust_path, TRUST_COLUMNS)
        to_numeric(trust, ["round", "node", "peer", "w"], trust_path)
    flipped = params.get("flippedDevices", []) or []
    algorithm = str(params.get("algorithm", "?"))
    label = algorithm + ("/" + str(params.get("trust")) if algorithm == "consensus" else "")
    return {"folder": folder, "params": params, "rounds": rounds, "trust": trust,
            "flipped": [int(v) for v in flipped], "algorithm": algorithm, "label": label}


def regular_mean(run, metric):
    """Final-round mean of metric over the regular agents (per-node rows), or the node -1
    value where there are no per-node rows (FedAvg's global model)."""
    df = run["rounds"]
    df = df[df["metric"] == metric]
    if df.empty:
        return float("nan")
    last = df["round"].max()
    df = df[df["round"] == last]
    nodes = df[(df["node"] >= 0) & (~df["node"].isin(run["flipped"]))]
    if not nodes.empty:
        return float(nodes.groupby("node")["value"].last().mean())
    glob = df[df["node"] == -1]
    return float(glob["value"].iloc[-1]) if not glob.empty else float("nan")


def plot_trust(runs, round_choice, out, fmt):
    with_trust = [r for r in runs if r["trust"] is not None and not r["trust"].empty]
    if not with_trust:
        note("no trust.csv: trust figure skipped")
        return None
    fig, axes = plt.subplots(2, len(with_trust), figsize=(4.2 * len(with_trust), 5.2),
                             gridspec_kw={"height_ratios": [8, 1]}, squeeze=False)
    for k, run in enumerate(with_trust):
        t = run["trust"]
        rounds = sorted(t["round"].unique())
        r = round_choice if round_choice is not None else rounds[len(rounds) // 2]
        if r not in rounds:
            raise TraceError("%s: trust.csv has no round %d" % (run["folder"], r))
        sel = t[t["round"] == r]
        n = int(max(sel["node"].max(), sel["peer"].max())) + 1
        w = np.full((n, n), np.nan)
        for row in sel.itertuples():
            w[int(row.node), int(row.peer)] = row.w
        masked = w.copy()
        np.fill_diagonal(masked, np.nan)
        ax = axes[0][k]
        im = ax.imshow(masked, cmap="viridis")
        names = [("%d*" % i) if i in run["flipped"] else str(i) for i in range(n)]
        ax.set_xticks(range(n), names)
        ax.set_yticks(range(n), names)
        ax.set_title("%s, round %d (diagonal masked)" % (run["label"], r), fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046)
        sums = np.nansum(masked, axis=0)
        bar = axes[1][k]
        bar.imshow(sums[np.newaxis, :], cmap="magma", aspect="auto")
        for j, v in enumerate(sums):
            bar.text(j, 0, "%.2f" % v, ha="center", va="center", fontsize=7, color="w")
        bar.set_yticks([])
        bar.set_xticks(range(n), names)
        bar.set_xlabel("column sums without the diagonal")
    return save_figure(fig, out, "trust." + fmt, fmt)


def plot_metric(runs, metric, ylabel, name, out, fmt):
    fig, ax = plt.subplots(figsize=(6, 4))
    drawn = False
    for run in runs:
        df = run["rounds"]
        df = df[(df["metric"] == metric) & (df["node"] == -1)]
        if df.empty:
            continue
        df = df.groupby("round")["value"].last()
        ax.plot(df.index, df.values, label="%s (%s)" % (run["label"],
                                                        os.path.basename(run["folder"])))
        drawn = True
    if not drawn:
        plt.close(fig)
        note("no %s rows: %s skipped" % (metric, name))
        return None
    ax.set_xlabel("round")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)
    return save_figure(fig, out, name + "." + fmt, fmt)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--round", type=int)
    add_format_argument(parser)
    args = parser.parse_args(argv)
    try:
        runs = [load_run(f) for f in args.runs]
        out = args.out or args.runs[0]
        if not os.path.isdir(out):
            raise TraceError("not a folder: %s" % out)
    except TraceError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    print("run,algorithm,flipped,test_accuracy_regular,xstar_accuracy_regular")
    for run in runs:
        print("%s,%s,%s,%.4f,%.4f" % (os.path.basename(os.path.normpath(run["folder"])),
                                      run["label"], " ".join(map(str, run["flipped"])),
                                      regular_mean(run, "accuracy"),
                                      regular_mean(run, "xstar_accuracy")))
    try:
        plot_trust(runs, args.round, out, args.format)
    except TraceError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    plot_metric(runs, "xstar_accuracy", "X* accuracy (regular agents)", "xstar", out,
                args.format)
    plot_metric(runs, "bytes_sent", "bytes sent per round", "bytes", out, args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
