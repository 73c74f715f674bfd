#!/usr/bin/python3
"""Plots of graph-discovery runs (Wagle, Das, Love and Brinton 2025: D2D graph discovery by
multi-agent RL, data exchange, downstream FL).

Usage:
    /usr/bin/python3 analysis/plot_discovery.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                                [--format png|pdf|svg]

Each RUN_DIR is an --outDir of build/bin/graph-discovery: run.json (parameters graph,
paradigm, labelsPerDevice; summary.results gdDeliveredFraction, gdMeanW1ToUniformAfter,
targetsReached, ...),
gd_nodes.csv (`node,x_m,y_m,cluster,satisfied_before,satisfied_after,min_labels`),
gd_links.csv (`edge,receiver,transmitter,p_drop,requested,allocated,sent,received,trust,shareable`)
and, with a downstream protocol, rounds.csv. Writes into PLOT_DIR (default: the first
RUN_DIR), in --format (default png):

  graph_<RUN_DIR name>.png  the paper's Fig. 4: the devices at their positions, node colour
                     = labels satisfied after the exchange (red <= 3, orange 4, green >= 5),
                     edges transmitter -> receiver coloured by the labels the transmitter
                     could share (red < 3, orange 3-4, green >= 5); one per run, with a
                     legend of both
  accuracy.png       global test accuracy per round, one line per run (labelled graph,
                     paradigm, seed)
  energy.png         Fig. 6e: energy to reach each target accuracy, D2D (bottom) and D2S
                     (top) parts, a bar per method (mean over the runs that reached it;
                     "none reached" where no run did, a panel text where no run of any
                     method did)
  delivered.png      Fig. 6d: fraction of the datapoints sent that arrived, and mean P_D of
                     the graph's links, per method (mean and sd over its runs); a method that
                     sent nothing (graph none) is shown as "no exchange", not as 1.0
  label_gain.png     Fig. 7d: final accuracy of the rl runs over that of the none runs
                     against labels per device (runs matched by paradigm, labelsPerDevice
                     and seed): a bar per labels per device (mean), its pairs as points

A method is a (paradigm, graph) pair: parameters.paradigm (default supervised) and
parameters.graph, and the values of every other flag of run.json's commandLine in which
that pair's runs differ (rl with --bufferMode=shared is another method than rl): runs that
differ only in their seed (or another flag that does not distinguish runs:
d2dlearn_analysis/run_flags.py) are averaged, never unlike runs; each bar says how many runs it
averages (n). A figure none of whose
inputs exist is skipped with a `note:` line; a table per run is printed to stdout. Bad input (missing folder or run.json, unparsable file, missing column)
gives a one-line error on stderr and exit code 2 before anything is written.
"""

import math
import os
import sys

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.reader import load_rounds, read_run_json  # noqa: E402
from d2dlearn_analysis.run_flags import distinguishing_flags  # noqa: E402
from d2dlearn_analysis.traces import (add_format_argument, axis_label, error_bars,  # noqa: E402
                      legend, make_out_dir, no_data, note, read_trace, save_figure,
                      series_style, set_domain_limits, to_numeric)
from d2dlearn_analysis.traces import integer_ticks  # noqa: E402

NODE_COLUMNS = ["node", "x_m", "y_m", "cluster", "satisfied_before", "satisfied_after",
                "min_labels"]
LINK_COLUMNS = ["edge", "receiver", "transmitter", "p_drop", "requested", "allocated", "sent",
                "received", "shareable"]
METHODS = ["rl", "closest", "most-trusted", "uniform", "gcn", "none"]
PARADIGMS = ["supervised", "semi-supervised", "unsupervised"]
#: Node colour: labels satisfied after the exchange; edge colour: labels shareable.
NODE_LEVELS = (4, 5, ["<= 3", "4", ">= 5"])
EDGE_LEVELS = (3, 5, ["< 3", "3-4", ">= 5"])
LEVEL_COLOURS = ["tab:red", "tab:orange", "tab:green"]


def load_run(run_dir):
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters", {})
    if not isinstance(params, dict) or "graph" not in params:
        raise AnalysisError("%s: not a graph-discovery run (no parameters.graph)" % path)
    # Inputs (parameters) and what the run found (summary.results: gdMeanW1ToUniformAfter,
    # gdDeliveredFraction, targetsReached, ...), read as one mapping.
    results = (doc.get("summary") or {}).get("results") or {}
    params = dict(params, **(results if isinstance(results, dict) else {}))
    run = {"dir": run_dir, "params": params, "seed": doc.get("seed", params.get("seed")),
           "paradigm": str(params.get("paradigm") or "supervised"),
           "graph": str(params.get("graph"))}
    nodes_path = os.path.join(run_dir, "gd_nodes.csv")
    links_path = os.path.join(run_dir, "gd_links.csv")
    run["nodes"] = read_trace(nodes_path, NODE_COLUMNS)
    to_numeric(run["nodes"], NODE_COLUMNS, nodes_path)
    run["links"] = read_trace(links_path, LINK_COLUMNS)
    to_numeric(run["links"], LINK_COLUMNS, links_path)
    rounds_path = os.path.join(run_dir, "rounds.csv")
    run["accuracy"] = None
    if os.path.isfile(rounds_path):
        rounds = load_rounds(rounds_path)
        acc = rounds[(rounds["node"] == -1) & (rounds["metric"] == "accuracy")]
        run["accuracy"] = acc.groupby("round")["value"].last()
    return run


def level_colour(value, low, high):
    """red below low, orange in [low, high), green from high."""
    return LEVEL_COLOURS[0 if value < low else (1 if value < high else 2)]


def graph_legends(ax, dotted):
    """Two legends right of the graph: node colours and edge colours (and styles)."""
    nodes = [Line2D([], [], linestyle="none", marker="o", markersize=8, markeredgecolor="black",
                    color=c, label=t) for c, t in zip(LEVEL_COLOURS, NODE_LEVELS[2])]
    edges = [Line2D([], [], color=c, lw=1.2, label=t)
             for c, t in zip(LEVEL_COLOURS, EDGE_LEVELS[2])]
    if dotted:
        edges.append(Line2D([], [], color="grey", lw=1.2, linestyle=":",
                            label="found, nothing allocated"))
    first = legend(ax, nodes, [h.get_label() for h in nodes], outside=True,
                   title="node: labels satisfied\nafter the exchange", title_fontsize=8)
    ax.add_artist(first)
    legend(ax, edges, [h.get_label() for h in edges], outside=True,
           bbox_to_anchor=(1.02, 0.55), title="edge tx -> rx: labels\nthe tx could share",
           title_fontsize=8)


def graph_figure(run):
    nodes, links = run["nodes"], run["links"]
    fig, ax = plt.subplots(figsize=(5.5, 5))
    pos = {int(r.node): (r.x_m, r.y_m) for r in nodes.itertuples()}
    dotted = False
    for r in links.itertuples():
        if r.allocated <= 0 and run["graph"] != "none":
            style, dotted = ":", True
        else:
            style = "-"
        (x1, y1), (x0, y0) = pos[int(r.receiver)], pos[int(r.transmitter)]
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                    arrowprops=dict(arrowstyle="->", linestyle=style, lw=1.2,
                                    color=level_colour(r.shareable, *EDGE_LEVELS[:2])))
    for r in nodes.itertuples():
        ax.scatter([r.x_m], [r.y_m], s=110, zorder=3, edgecolors="black",
                   color=level_colour(r.satisfied_after, *NODE_LEVELS[:2]))
        ax.text(r.x_m, r.y_m, str(int(r.node)), fontsize=6, ha="center", va="center", zorder=4)
    ax.set_xlabel(axis_label("x_m", "device position"))
    ax.set_ylabel(axis_label("y_m", "device position"))
    ax.set_title("%s graph, %s (seed %s)" % (run["graph"], run["paradigm"], run["seed"]),
                 fontsize=10)
    ax.set_aspect("equal")
    graph_legends(ax, dotted)
    return fig


def mean(values):
    values = [v for v in values if v is not None and math.isfinite(v)]
    return sum(values) / len(values) if values else math.nan


def sd(values):
    values = [v for v in values if v is not None and math.isfinite(v)]
    if len(values) < 2:
        return 0.0
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def rank(order, value):
    return (order.index(value) if value in order else len(order), value)


#: The method's own keys (the flags that do not distinguish runs are left out too).
METHOD_KEYS = {"graph", "paradigm"}


def given_flags(run):
    """{flag: value} of the run's command line (run.json's commandLine) but the flags that do
    not distinguish runs (run_flags) and METHOD_KEYS."""
    return distinguishing_flags(run["params"], METHOD_KEYS)


def by_method(runs):
    """[(method label, runs)] per method, in paradigm then graph order. A method is a
    (paradigm, graph) pair and the values of every other flag in which that pair's runs differ
    (e.g. rl with --bufferMode=shared is not rl): runs differing only in their seed are
    averaged, never unlike runs. The label names the paradigm only when the runs have several,
    and those flags whose value is not the most common one among the pair's runs
    (name=value)."""
    pairs = {}
    for run in runs:
        pairs.setdefault((run["paradigm"], run["graph"]), []).append(run)
    several = len({p for p, _ in pairs}) > 1
    out = []
    for p, g in sorted(pairs, key=lambda k: (rank(PARADIGMS, k[0]), rank(METHODS, k[1]))):
        flags = [given_flags(r) for r in pairs[(p, g)]]
        names = sorted({n for f in flags for n in f})
        differing = [n for n in names if len({f.get(n, "(default)") for f in flags}) > 1]
        variants = {}
        for run, f in zip(pairs[(p, g)], flags):
            variants.setdefault(tuple(f.get(n, "(default)") for n in differing),
                                []).append(run)
        # A label names a flag only where its value is not the pair's most common one.
        common = {}
        for n in differing:
            counts = {}
            for f in flags:
                v = f.get(n, "(default)")
                counts[v] = counts.get(v, 0) + 1
            common[n] = min(counts, key=lambda v: (-counts[v], v))
        for values in sorted(variants):
            label = "%s\n%s" % (g, p) if several else g
            label += "".join("\n%s=%s" % (n, v) for n, v in zip(differing, values)
                             if v != common[n])
            out.append((label, variants[values]))
    return out


def sent_nothing(run):
    """True if the run exchanged no datapoint (graph none, or no edge found)."""
    p = run["params"]
    return p.get("gdPointsSent") == 0 or run["graph"] == "none" or p.get("gdEdgesFound") == 0


def bar_ticks(ax, names, counts):
    ax.set_xticks(range(len(names)))
    # Long labels (a method with flags) would run into each other: slant them.
    slant = len(names) > 6 or any(len(line) > 12 for n in names for line in n.split("\n"))
    ax.set_xticklabels(["%s\nn=%d" % (name, n) for name, n in zip(names, counts)], fontsize=7,
                       rotation=35 if slant else 0, ha="right" if slant else "center",
                       rotation_mode="anchor")
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_xlabel("method (graph, then the paradigm or flags where runs differ; n = runs "
                  "averaged)" if any("\n" in n for n in names)
                  else "graph method (n = runs averaged)")


def energy_figure(methods, targets):
    fig, axes = plt.subplots(1, len(targets), figsize=(4.4 * len(targets), 3.8),
                             squeeze=False)
    for ax, target in zip(axes[0], targets):
        names, counts, d2d, d2s, reached = [], [], [], [], []
        for method, group in methods:
            hits = [t for r in group for t in (r["params"].get("targetsReached") or [])
                    if t.get("target") == target and t.get("round") is not None]
            names.append(method)
            counts.append(len(hits))
            reached.append("%d/%d" % (len(hits), len(group)))
            d2d.append(mean([t.get("d2dJ") for t in hits]))
            d2s.append(mean([t.get("d2sJ") for t in hits]))
        ax.set_title("energy to %.0f %% accuracy" % (100 * target), fontsize=10)
        if not any(counts):
            no_data(ax, "no runs reached the target\n%s" % "\n".join(
                "%s %s" % (n.replace("\n", " "), r) for n, r in zip(names, reached)))
            continue
        x = np.arange(len(names))
        d2d, d2s = np.array(d2d), np.array(d2s)
        ax.bar(x, d2d, label="D2D", color="tab:blue")
        ax.bar(x, d2s, bottom=np.nan_to_num(d2d), label="D2S", color="tab:gray")
        for i, c in enumerate(counts):
            if c == 0:
                ax.text(i, 0, "none\nreached", ha="center", va="bottom", fontsize=7,
                        color="dimgrey")
        bar_ticks(ax, names, counts)
        ax.set_ylabel(axis_label("energy_j", "to reach the target"))
        set_domain_limits(ax, "energy_j")
        legend(ax)
    fig.suptitle("Energy to each target accuracy: mean over the n runs that reached it",
                 fontsize=10)
    fig.tight_layout()
    return fig


def delivered_figure(methods):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(max(10, 1.3 * len(methods)), 4.6))
    names = [m for m, _ in methods]
    panels = [(a1, "gdDeliveredFraction", "delivery_rate", "\ndatapoints received / sent"),
              (a2, "gdMeanLinkPDrop", "p_drop", "\nmean over the graph's links")]
    for ax, key, column, detail in panels:
        counts, means, sds = [], [], []
        for _, group in methods:
            values = [r["params"].get(key) for r in group if not sent_nothing(r)]
            values = [float(v) for v in values if isinstance(v, (int, float))]
            counts.append(len(values))
            means.append(mean(values))
            sds.append(sd(values))
        if not any(counts):
            no_data(ax, "no exchange in any run (nothing sent)")
            continue
        x = np.arange(len(names))
        ax.bar(x, means, color="tab:blue")
        error_bars(ax, x, means, sds, column)
        for i, c in enumerate(counts):
            if c == 0:
                ax.text(i, 0.02, "no exchange\n(n/a)", ha="center", va="bottom", fontsize=7,
                        color="dimgrey")
        bar_ticks(ax, names, counts)
        ax.set_ylabel(axis_label(column, detail))
        set_domain_limits(ax, column)
    fig.suptitle("Data exchange per method: mean and sd over the n runs that sent data",
                 fontsize=10)
    fig.tight_layout()
    return fig


def label_gain_figure(gains):
    """gains: [(labels per device, rl/none)] of matched pairs."""
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    xs = sorted({g[0] for g in gains})
    counts = [sum(1 for g in gains if g[0] == x) for x in xs]
    ax.bar(range(len(xs)), [mean([g[1] for g in gains if g[0] == x]) for x in xs],
           color="tab:blue", alpha=0.6, width=0.6, label="mean of the pairs")
    ax.scatter([xs.index(g[0]) for g in gains], [g[1] for g in gains], color="black",
               zorder=3, s=14, label="one rl/none pair (same seed)")
    ax.axhline(1.0, color="grey", linestyle="--", lw=1, label="no gain (rl = none)")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(["%s\nn=%d" % (x, c) for x, c in zip(xs, counts)])
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set_xlabel(axis_label("labels_per_device", "n = rl/none pairs"))
    ax.set_ylabel(axis_label("accuracy_gain"))
    set_domain_limits(ax, "accuracy_gain")
    ax.set_title("Final accuracy of rl over none, runs paired by paradigm,\nlabels per "
                 "device and seed (bar: mean of its n pairs)", fontsize=9)
    legend(ax, outside=True)
    fig.tight_layout()
    return fig


def main(argv):
    parser = ArgumentParser(description=__doc__)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="graph-discovery run folders (each its --outDir)")
    parser.add_argument("--out", default=None, metavar="PLOT_DIR",
                        help="folder for the figures (default: the first RUN_DIR)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    try:
        runs = [load_run(d) for d in args.runs]
        make_out_dir(args.out or args.runs[0])
    except AnalysisError as exc:
        return report("plot_discovery.py", exc)
    out = args.out or args.runs[0]
    ext = "." + args.format
    figures = []
    for run in runs:
        if not run["nodes"].empty:
            base = os.path.basename(os.path.normpath(run["dir"]))
            figures.append(("graph_%s%s" % (base, ext), graph_figure(run)))
    with_acc = [r for r in runs if r["accuracy"] is not None and not r["accuracy"].empty]
    several = len({r["paradigm"] for r in runs}) > 1
    if with_acc:
        fig, ax = plt.subplots(figsize=(6.4, 4))
        for i, run in enumerate(with_acc):
            ax.plot(run["accuracy"].index, run["accuracy"].values, clip_on=False,
                    label="%s%s s%s" % (run["graph"], " (%s)" % run["paradigm"]
                                        if several else "", run["seed"]),
                    **series_style(i))
        ax.set_xlabel(axis_label("round"))
        integer_ticks(ax)
        ax.set_ylabel(axis_label("accuracy", "global model"))
        set_domain_limits(ax, "accuracy")
        legend(ax, outside=len(with_acc) > 4)
        fig.tight_layout()
        figures.append(("accuracy" + ext, fig))
    else:
        note("no rounds.csv: accuracy figure skipped")
    methods = by_method(runs)
    targets = sorted({t["target"] for r in runs
                      for t in (r["params"].get("targetsReached") or []) if "target" in t})
    if targets and with_acc:
        figures.append(("energy" + ext, energy_figure(methods, targets)))
    else:
        note("no targetsReached: energy figure skipped")
    if methods:
        figures.append(("delivered" + ext, delivered_figure(methods)))
    pairs = {}
    for run in with_acc:
        key = (run["paradigm"], run["params"].get("labelsPerDevice"), run["seed"])
        pairs.setdefault(key, {})[run["graph"]] = float(run["accuracy"].iloc[-1])
    gains = sorted((k[1], v["rl"] / v["none"]) for k, v in pairs.items()
                   if "rl" in v and "none" in v and v["none"] > 0)
    if gains:
        figures.append(("label_gain" + ext, label_gain_figure(gains)))
    else:
        note("no rl/none pairs with rounds.csv: label_gain figure skipped")
    print("run,graph,seed,mean_w1_before,mean_w1_after,mean_link_p_drop,delivered,final_accuracy")
    for run in runs:
        p = run["params"]
        acc = run["accuracy"]
        # A result that is null (no link, nothing sent) prints as nan.
        num = lambda k: p.get(k) if isinstance(p.get(k), (int, float)) else math.nan
        print("%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%s" % (
            run["dir"], p.get("graph"), run["seed"], num("gdMeanW1ToUniformBefore"),
            num("gdMeanW1ToUniformAfter"), num("gdMeanLinkPDrop"),
            num("gdDeliveredFraction"),
            "%.4f" % acc.iloc[-1] if acc is not None and not acc.empty else ""))
    for name, fig in figures:
        save_figure(fig, out, name, args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
