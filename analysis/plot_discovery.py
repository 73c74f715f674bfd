#!/usr/bin/python3
"""Plots of graph-discovery runs (Wagle, Das, Love and Brinton 2025: D2D graph discovery by
multi-agent RL, data exchange, downstream FL).

Usage:
    /usr/bin/python3 analysis/plot_discovery.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                                [--format png|pdf|svg]

Each RUN_DIR is an --outDir of build/bin/graph-discovery: run.json (parameters graph,
labelsPerDevice, gdDeliveredFraction, gdMeanW1ToUniformAfter, targetsReached, ...),
gd_nodes.csv (`node,x_m,y_m,cluster,satisfied_before,satisfied_after,min_labels`),
gd_links.csv (`edge,receiver,transmitter,p_drop,requested,allocated,sent,received,shareable`)
and, with a downstream protocol, rounds.csv. Writes into PLOT_DIR (default: the first
RUN_DIR), in --format (default png):

  graph_<RUN_DIR name>.png  the paper's Fig. 4: the devices at their positions, node colour
                     = labels satisfied after the exchange (red <= 3, orange 4, green >= 5),
                     edges transmitter -> receiver coloured by the labels the transmitter
                     could share (red < 3, orange 3-4, green >= 5); one per run
  accuracy.png       global test accuracy per round, one line per run (labelled graph, seed)
  energy.png         Fig. 6e: energy to reach each target accuracy, D2D (bottom) and D2S
                     (top) parts, bars per graph method (mean over seeds of the runs that
                     reached it)
  delivered.png      Fig. 6d: fraction of the datapoints sent that arrived, and mean P_D of
                     the graph's links, per graph method (mean over seeds)
  label_gain.png     Fig. 7d: final accuracy of the rl runs over that of the none runs
                     against labels per device (runs matched by labelsPerDevice and seed)

A figure none of whose inputs exist is skipped with a `note:` line; a table per run is
printed to stdout. Bad input (missing folder or run.json, unparsable file, missing column)
gives a one-line error on stderr and exit code 2 before anything is written.
"""

import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_io import (TraceError, add_format_argument, note, read_trace,  # noqa: E402
                      save_figure, to_numeric)

NODE_COLUMNS = ["node", "x_m", "y_m", "cluster", "satisfied_before", "satisfied_after",
                "min_labels"]
LINK_COLUMNS = ["edge", "receiver", "transmitter", "p_drop", "requested", "allocated", "sent",
                "received", "shareable"]
METHODS = ["rl", "closest", "most-trusted", "uniform", "gcn", "none"]


def load_run(run_dir):
    if not os.path.isdir(run_dir):
        raise TraceError("run folder not found: %s" % run_dir)
    path = os.path.join(run_dir, "run.json")
    if not os.path.isfile(path):
        raise TraceError("missing run.json: %s (the run did not finish?)" % path)
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as exc:
        raise TraceError("cannot parse %s: %s" % (path, " ".join(str(exc).split())))
    params = doc.get("parameters", {})
    if not isinstance(params, dict) or "graph" not in params:
        raise TraceError("%s: not a graph-discovery run (no parameters.graph)" % path)
    run = {"dir": run_dir, "params": params, "seed": doc.get("seed", params.get("seed"))}
    nodes_path = os.path.join(run_dir, "gd_nodes.csv")
    links_path = os.path.join(run_dir, "gd_links.csv")
    run["nodes"] = read_trace(nodes_path, NODE_COLUMNS)
    to_numeric(run["nodes"], NODE_COLUMNS, nodes_path)
    run["links"] = read_trace(links_path, LINK_COLUMNS)
    to_numeric(run["links"], LINK_COLUMNS, links_path)
    rounds_path = os.path.join(run_dir, "rounds.csv")
    run["accuracy"] = None
    if os.path.isfile(rounds_path):
        rounds = read_trace(rounds_path, ["round", "sim_time_s", "node", "metric", "value"])
        to_numeric(rounds, ["round", "node", "value"], rounds_path)
        acc = rounds[(rounds["node"] == -1) & (rounds["metric"] == "accuracy")]
        run["accuracy"] = acc.groupby("round")["value"].last()
    return run


def level_colour(value, low, high):
    """red below low, orange in [low, high), green from high."""
    return "tab:red" if value < low else ("tab:orange" if value < high else "tab:green")


def graph_figure(run):
    nodes, links = run["nodes"], run["links"]
    fig, ax = plt.subplots(figsize=(5.5, 5))
    pos = {int(r.node): (r.x_m, r.y_m) for r in nodes.itertuples()}
    for r in links.itertuples():
        if r.allocated <= 0 and run["params"].get("graph") != "none":
            style = ":"
        else:
            style = "-"
        (x1, y1), (x0, y0) = pos[int(r.receiver)], pos[int(r.transmitter)]
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                    arrowprops=dict(arrowstyle="->", color=level_colour(r.shareable, 3, 5),
                                    linestyle=style, lw=1.2))
    for r in nodes.itertuples():
        ax.scatter([r.x_m], [r.y_m], s=110, zorder=3, edgecolors="black",
                   color=level_colour(r.satisfied_after, 4, 5))
        ax.text(r.x_m, r.y_m, str(int(r.node)), fontsize=6, ha="center", va="center", zorder=4)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title("%s graph (seed %s)" % (run["params"].get("graph"), run["seed"]))
    ax.set_aspect("equal")
    return fig


def mean(values):
    values = [v for v in values if v is not None and math.isfinite(v)]
    return sum(values) / len(values) if values else math.nan


def by_method(runs):
    groups = {}
    for run in runs:
        groups.setdefault(run["params"].get("graph"), []).append(run)
    return [(m, groups[m]) for m in METHODS if m in groups]


def main(argv):
    parser = argparse.ArgumentParser(description="Plots of graph-discovery runs")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR")
    parser.add_argument("--out", default=None)
    add_format_argument(parser)
    args = parser.parse_args(argv)
    try:
        runs = [load_run(d) for d in args.runs]
    except TraceError as exc:
        print("plot_discovery.py: error: %s" % exc, file=sys.stderr)
        return 2
    out = args.out or args.runs[0]
    os.makedirs(out, exist_ok=True)
    ext = "." + args.format
    figures = []
    for run in runs:
        if not run["nodes"].empty:
            base = os.path.basename(os.path.normpath(run["dir"]))
            figures.append(("graph_%s%s" % (base, ext),
                            graph_figure(run)))
    with_acc = [r for r in runs if r["accuracy"] is not None and not r["accuracy"].empty]
    if with_acc:
        fig, ax = plt.subplots(figsize=(6, 4))
        for run in with_acc:
            ax.plot(run["accuracy"].index, run["accuracy"].values,
                    label="%s s%s" % (run["params"]["graph"], run["seed"]))
        ax.set_xlabel("round")
        ax.set_ylabel("test accuracy")
        ax.legend(fontsize=7)
        figures.append(("accuracy" + ext, fig))
    else:
        note("no rounds.csv: accuracy figure skipped")
    methods = by_method(runs)
    targets = sorted({t["target"] for r in runs
                      for t in (r["params"].get("targetsReached") or []) if "target" in t})
    if targets and with_acc:
        fig, axes = plt.subplots(1, len(targets), figsize=(4 * len(targets), 3.5), squeeze=False)
        for ax, target in zip(axes[0], targets):
            names, d2d, d2s = [], [], []
            for method, group in methods:
                hits = [t for r in group for t in (r["params"].get("targetsReached") or [])
                        if t.get("target") == target and t.get("round") is not None]
                names.append("%s (%d/%d)" % (method, len(hits), len(group)))
                d2d.append(mean([t["d2dJ"] for t in hits]))
                d2s.append(mean([t["d2sJ"] for t in hits]))
            ax.bar(names, d2d, label="D2D", color="tab:blue")
            ax.bar(names, d2s, bottom=d2d, label="D2S", color="tab:gray")
            ax.set_title("energy to %.0f %% accuracy" % (100 * target))
            ax.set_ylabel("J")
            ax.tick_params(axis="x", rotation=30, labelsize=7)
            ax.legend(fontsize=7)
        figures.append(("energy" + ext, fig))
    else:
        note("no targetsReached: energy figure skipped")
    if methods:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(8, 3.5))
        names = [m for m, _ in methods]
        a1.bar(names, [mean([r["params"].get("gdDeliveredFraction") for r in g])
                       for _, g in methods])
        a1.set_ylabel("delivered fraction of datapoints sent")
        a2.bar(names, [mean([r["params"].get("gdMeanLinkPDrop") for r in g]) for _, g in methods])
        a2.set_ylabel("mean P_D of the graph's links")
        for ax in (a1, a2):
            ax.tick_params(axis="x", rotation=30, labelsize=7)
        figures.append(("delivered" + ext, fig))
    pairs = {}
    for run in with_acc:
        key = (run["params"].get("labelsPerDevice"), run["seed"])
        pairs.setdefault(key, {})[run["params"]["graph"]] = float(run["accuracy"].iloc[-1])
    gains = sorted((k[0], v["rl"] / v["none"]) for k, v in pairs.items()
                   if "rl" in v and "none" in v and v["none"] > 0)
    if gains:
        fig, ax = plt.subplots(figsize=(5, 3.5))
        xs = sorted({g[0] for g in gains})
        ax.plot(xs, [mean([g[1] for g in gains if g[0] == x]) for x in xs], marker="o")
        ax.set_xlabel("labels per device")
        ax.set_ylabel("final accuracy rl / none")
        figures.append(("label_gain" + ext, fig))
    else:
        note("no rl/none pairs with rounds.csv: label_gain figure skipped")
    print("run,graph,seed,mean_w1_before,mean_w1_after,mean_link_p_drop,delivered,final_accuracy")
    for run in runs:
        p = run["params"]
        acc = run["accuracy"]
        print("%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%s" % (
            run["dir"], p.get("graph"), run["seed"], p.get("gdMeanW1ToUniformBefore", math.nan),
            p.get("gdMeanW1ToUniformAfter", math.nan), p.get("gdMeanLinkPDrop", math.nan),
            p.get("gdDeliveredFraction", math.nan),
            "%.4f" % acc.iloc[-1] if acc is not None and not acc.empty else ""))
    for name, fig in figures:
        save_figure(fig, out, name, args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
