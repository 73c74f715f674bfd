#!/usr/bin/python3
"""Plots of bayes-consensus runs (Lalitha et al. 2018, belief consensus).

Usage:
  /usr/bin/python3 analysis/plot_bayes.py RUN_DIR [RUN_DIR ...] --out PLOT_DIR

Each RUN_DIR is an --outDir of build/bin/bayes-consensus (beliefs.csv, rounds.csv,
run.json). Writes into PLOT_DIR:
  belief_true.png  discrete runs: belief of the true parameter rho_i(theta*) against step,
                   one line per node, one panel per run;
  mse.png          the learning metric against step for every run, one line per node,
                   coloured by --cooperation (central, isolated, network): metric `mse`
                   for gaussian-linear runs, `error` (fraction of nodes whose estimate is
                   not theta*, as a mean over nodes) for discrete runs;
  summary.csv      per run: folder, mode, cooperation, lossRule, final step, final mean
                   metric over nodes.
Exits 2 with a one-line error if a folder lacks a trace or holds no rows.
"""

import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

COLOURS = {"central": "black", "isolated": "tab:red", "network": "tab:blue"}


def fail(message):
    print("plot_bayes.py: error: " + message, file=sys.stderr)
    sys.exit(2)


def load(run_dir):
    """Return (parameters, beliefs DataFrame, rounds DataFrame) of one run folder."""
    paths = {name: os.path.join(run_dir, name)
             for name in ("run.json", "beliefs.csv", "rounds.csv")}
    for name, path in paths.items():
        if not os.path.isfile(path):
            fail("{} has no {}".format(run_dir, name))
    try:
        with open(paths["run.json"]) as fh:
            params = json.load(fh)["parameters"]
        beliefs = pd.read_csv(paths["beliefs.csv"])
        rounds = pd.read_csv(paths["rounds.csv"])
    except (ValueError, KeyError) as e:
        fail("{}: unreadable trace ({})".format(run_dir, e))
    if beliefs.empty or rounds.empty:
        fail("{}: beliefs.csv or rounds.csv holds no rows".format(run_dir))
    return params, beliefs, rounds


def label_of(run_dir, params):
    return "{} ({}{})".format(params.get("cooperation", "?"), os.path.basename(
        os.path.normpath(run_dir)),
        ", " + params["lossRule"] if params.get("cooperation") == "network" else "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+")
    parser.add_argument("--out", metavar="PLOT_DIR", required=True)
    args = parser.parse_args(argv)
    runs = [(d,) + load(d) for d in args.runs]
    os.makedirs(args.out, exist_ok=True)

    discrete = [r for r in runs if r[1].get("mode") == "discrete"]
    if discrete:
        fig, axes = plt.subplots(1, len(discrete), figsize=(5 * len(discrete), 3.6),
                                 squeeze=False)
        for ax, (d, params, beliefs, _) in zip(axes[0], discrete):
            for node, g in beliefs.groupby("node"):
                ax.plot(g["step"], g["belief_true"], lw=1,
                        label="central" if node < 0 else "node {}".format(node))
            ax.set_title(label_of(d, params), fontsize=9)
            ax.set_xlabel("step")
            ax.set_ylabel("belief of theta*")
            ax.set_ylim(-0.02, 1.02)
            if beliefs["node"].nunique() <= 10:
                ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "belief_true.png"), dpi=110)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.5, 4))
    summary = []
    seen = set()
    for d, params, _, rounds in runs:
        metric = "mse" if params.get("mode") == "gaussian-linear" else "error"
        rows = rounds[rounds["metric"] == metric]
        if rows.empty:
            fail("{}: rounds.csv has no '{}' rows".format(d, metric))
        coop = params.get("cooperation", "network")
        colour = COLOURS.get(coop, "tab:green")
        if metric == "error":
            mean = rows.groupby("round")["value"].mean()
            ax.plot(mean.index, mean.values, color=colour, lw=1.5,
                    label=label_of(d, params))
        else:
            for node, g in rows.groupby("node"):
                label = label_of(d, params) if (d, coop) not in seen else None
                seen.add((d, coop))
                ax.plot(g["round"], g["value"], color=colour, lw=1, alpha=0.8,
                        ls="-" if node <= 0 else "--", label=label)
        last = rows["round"].max()
        summary.append({"run": d, "mode": params.get("mode"), "cooperation": coop,
                        "lossRule": params.get("lossRule"), "metric": metric,
                        "final_step": int(last),
                        "final_mean": rows[rows["round"] == last]["value"].mean()})
    ax.set_xlabel("step")
    ax.set_ylabel("test MSE (gaussian-linear) / error rate (discrete)")
    ax.set_yscale("log" if all(s["metric"] == "mse" for s in summary) else "linear")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "mse.png"), dpi=110)
    plt.close(fig)
    pd.DataFrame(summary).to_csv(os.path.join(args.out, "summary.csv"), index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
