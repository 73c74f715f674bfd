#!/usr/bin/python3
"""Plots of bayes-consensus runs (Lalitha et al. 2018, belief consensus).

Usage:
  /usr/bin/python3 analysis/plot_bayes.py RUN_DIR [RUN_DIR ...] --out PLOT_DIR
                                          [--format png|pdf|svg]

Each RUN_DIR is an --outDir of build/bin/bayes-consensus (beliefs.csv, rounds.csv,
run.json). Each run's learning metric follows its --mode: `error` for discrete runs (the
fraction of nodes whose estimate is not theta*), `mse` for gaussian-linear runs (test MSE),
`accuracy` for variational runs (test accuracy of the posterior-mean models). Writes into
PLOT_DIR, in --format (default png), one figure per metric present, so that no axis mixes
two metrics:
  belief_true  discrete runs: belief of the true parameter rho_i(theta*) against step,
               one line per node, one panel per run;
  error        discrete runs: error rate against step (mean over nodes), one line per run;
  mse          gaussian-linear runs: MSE against step (log scale), one line per node, coloured
               by --cooperation (central, isolated, network);
  accuracy     variational runs: mean accuracy over the devices against step (the devices'
               own as thin lines), coloured by --cooperation;
  summary.csv  per run: folder, mode, cooperation, lossRule, metric, final step, final metric
               (mean over the devices' rows of the last step; the central learner's row for
               central runs).
Everything is read and drawn before anything is written: a folder that lacks a trace, holds
no rows or lacks its metric gives a one-line error and exit 2, and nothing is written (no
output folder is created). Figures of these names older than the traces and not written now
are removed.
"""

import csv
import os
import sys

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.reader import read_run_json, read_trace  # noqa: E402
from d2dlearn_analysis.traces import (MAX_LEGEND_ENTRIES, add_format_argument, axis_label,  # noqa: E402
                      legend, remove_stale_figures, save_figure, set_domain_limits)
from d2dlearn_analysis.traces import integer_ticks  # noqa: E402

PROG = "plot_bayes.py"
COLOURS = {"central": "black", "isolated": "tab:red", "network": "tab:blue"}
#: --mode and its learning metric in rounds.csv, in figure order.
METRICS = {"discrete": "error", "gaussian-linear": "mse", "variational": "accuracy"}
FIGURES = ["belief_true", "error", "mse", "accuracy"]
#: What the metric's axis label adds to trace_io's label of the metric.
DETAILS = {"error": None, "mse": None, "accuracy": "posterior-mean model"}


def load(run_dir):
    """Return a run: dict with dir, params, mode, metric, beliefs, rounds."""
    paths = {name: os.path.join(run_dir, name)
             for name in ("run.json", "beliefs.csv", "rounds.csv")}
    for name, path in paths.items():
        if not os.path.isfile(path):
            raise AnalysisError("{} has no {}".format(run_dir, name))
    params = read_run_json(run_dir).get("parameters")
    if not isinstance(params, dict):
        raise AnalysisError("{}: run.json has no object `parameters`".format(paths["run.json"]))
    beliefs = read_trace(paths["beliefs.csv"], [])
    rounds = read_trace(paths["rounds.csv"], ["round", "node", "metric", "value"])
    if beliefs.empty or rounds.empty:
        raise AnalysisError("{}: beliefs.csv or rounds.csv holds no rows".format(run_dir))
    mode = params.get("mode")
    if mode not in METRICS:
        present = [m for m, metric in METRICS.items() if (rounds["metric"] == metric).any()]
        if mode is not None or not present:
            raise AnalysisError("{}: unknown mode {!r} (accepted: {})".format(
                run_dir, mode, ", ".join(METRICS)))
        mode = present[0]
    metric = METRICS[mode]
    rows = rounds[rounds["metric"] == metric]
    if rows.empty:
        raise AnalysisError("{}: rounds.csv has no '{}' rows (mode {})".format(run_dir, metric,
                                                                          mode))
    if mode == "discrete" and not {"step", "node", "belief_true"} <= set(beliefs.columns):
        raise AnalysisError("{}: beliefs.csv lacks step,node,belief_true".format(run_dir))
    return {"dir": run_dir, "params": params, "mode": mode, "metric": metric,
            "beliefs": beliefs, "rows": rows,
            "traces": [paths["beliefs.csv"], paths["rounds.csv"]]}


def label_of(run):
    params = run["params"]
    return "{} ({}{})".format(params.get("cooperation", "?"), os.path.basename(
        os.path.normpath(run["dir"])),
        ", " + str(params.get("lossRule")) if params.get("cooperation") == "network" else "")


def node_rows(rows):
    """The devices' rows (node >= 0) if there are any, else the central learner's (-1)."""
    dev = rows[rows["node"] >= 0]
    return dev if not dev.empty else rows[rows["node"] < 0]


def figure_beliefs(runs):
    discrete = [r for r in runs if r["mode"] == "discrete"]
    if not discrete:
        return None
    fig, axes = plt.subplots(1, len(discrete), figsize=(5 * len(discrete), 3.6),
                             squeeze=False)
    for ax, run in zip(axes[0], discrete):
        beliefs = run["beliefs"]
        nodes = sorted(beliefs["node"].unique())
        # Few nodes: a legend; more: coloured along a colour map with a colour bar of the
        # node index (no legend of more than MAX_LEGEND_ENTRIES entries).
        many = len(nodes) > MAX_LEGEND_ENTRIES
        cmap = plt.get_cmap("viridis")
        devices = [n for n in nodes if n >= 0]
        top = max(1, max(devices) if devices else 1)
        for node, g in beliefs.groupby("node"):
            colour = ("black" if node < 0 else cmap(node / top)) if many else None
            ax.plot(g["step"], g["belief_true"], lw=1, color=colour,
                    label="central" if node < 0 else "node {}".format(node))
        ax.set_title(label_of(run), fontsize=9)
        ax.set_xlabel(axis_label("step"))
        integer_ticks(ax)
        ax.set_ylabel(axis_label("belief_true"))
        set_domain_limits(ax, "belief_true")
        if many:
            bar = fig.colorbar(plt.cm.ScalarMappable(plt.Normalize(0, top), cmap), ax=ax)
            bar.set_label("node" + (" (black: central)" if len(devices) < len(nodes) else ""))
        else:
            legend(ax, fontsize=7)
    fig.tight_layout()
    return fig


def figure_metric(runs, metric):
    chosen = [r for r in runs if r["metric"] == metric]
    if not chosen:
        return None
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for run in chosen:
        rows = run["rows"]
        coop = run["params"].get("cooperation", "network")
        colour = COLOURS.get(coop, "tab:green")
        if metric == "mse":
            first = True
            for node, g in node_rows(rows).groupby("node"):
                ax.plot(g["round"], g["value"], color=colour, lw=1, alpha=0.8,
                        ls="-" if node <= 0 else "--",
                        label=label_of(run) if first else None)
                first = False
        else:
            mean = node_rows(rows).groupby("round")["value"].mean()
            ax.plot(mean.index, mean.values, color=colour, lw=1.5, label=label_of(run))
            if metric == "accuracy":
                for _, g in rows[rows["node"] >= 0].groupby("node"):
                    ax.plot(g["round"], g["value"], color=colour, lw=0.5, alpha=0.3)
    ax.set_xlabel(axis_label("step"))
    integer_ticks(ax)
    ax.set_ylabel(axis_label(metric, DETAILS[metric]))
    if metric == "mse":
        ax.set_yscale("log")
    else:
        set_domain_limits(ax, metric)
    legend(ax, fontsize=7)
    fig.tight_layout()
    return fig


def summary_rows(runs):
    out = []
    for run in runs:
        rows = node_rows(run["rows"])
        last = rows["round"].max()
        out.append({"run": run["dir"], "mode": run["mode"],
                    "cooperation": run["params"].get("cooperation", "network"),
                    "lossRule": run["params"].get("lossRule"), "metric": run["metric"],
                    "final_step": int(last),
                    "final_mean": rows[rows["round"] == last]["value"].mean()})
    return out


def write_summary(path, rows):
    with atomic_open(path, "w", newline="") as fh:
        pd.DataFrame(rows).to_csv(fh, index=False, quoting=csv.QUOTE_MINIMAL)
    print("wrote %s" % path)
    return path


def main(argv=None):
    parser = ArgumentParser(prog=PROG, description=__doc__)
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+",
                        help="run folders (each a program's --outDir)")
    parser.add_argument("--out", metavar="PLOT_DIR", required=True,
                        help="folder for the figures (made if missing)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    figures = []
    try:
        # Read, check and draw everything before writing anything.
        runs = [load(d) for d in args.runs]
        figures = [("belief_true", figure_beliefs(runs))]
        figures += [(m, figure_metric(runs, m)) for m in ("error", "mse", "accuracy")]
        summary = summary_rows(runs)
    except AnalysisError as e:
        for _, fig in figures:
            if fig is not None:
                plt.close(fig)
        return report(PROG, e)
    created = not os.path.isdir(args.out)
    written = []
    try:
        os.makedirs(args.out, exist_ok=True)
        for name, fig in figures:
            if fig is not None:
                written.append(save_figure(fig, args.out, "%s.%s" % (name, args.format)))
        written.append(write_summary(os.path.join(args.out, "summary.csv"), summary))
    except OSError as e:
        for path in written:
            os.unlink(path)
        if created:
            try:
                os.rmdir(args.out)
            except OSError:
                pass
        print("{}: error: cannot write in {}: {}".format(PROG, args.out, e.strerror or e),
              file=sys.stderr)
        return 2
    finally:
        for _, fig in figures:
            if fig is not None:
                plt.close(fig)
    remove_stale_figures(args.out, FIGURES, [t for r in runs for t in r["traces"]], written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
