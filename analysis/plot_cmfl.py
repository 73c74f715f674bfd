#!/usr/bin/python3
"""Plots of cmfl runs (Che et al. 2022: committee mechanism based FL, its baselines and
attacks).

Usage:
    /usr/bin/python3 analysis/plot_cmfl.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                           [--format png|pdf|svg]

Each RUN_DIR is an --outDir of build/bin/cmfl: rounds.csv
(`round,sim_time_s,node,metric,value`, node -1 rows: accuracy, loss, round_time_s,
bytes_sent, ...) and run.json (parameters algorithm, attack, maliciousFraction,
linkRateBps, ...; top-level wall_time_s), and for CMFL runs committee.csv
(`round,sim_time_s,training,committee,aggregation,n1,n2,n3`), ccp.csv
(`round,step,attempt,primary,replies,quorum,outcome,sim_time_s`) and aggregation.csv
(`device,malicious,training,committee,aggregated`).  Writes into PLOT_DIR (default: the
first RUN_DIR), in --format (default png; the names below with its extension):

  accuracy.png       like the paper's robustness figures: one column per attack present
                     (run.json parameters.attack), global-model loss per round (top) and
                     accuracy per round (bottom), one line per run labelled by its algorithm
  malicious.png      N1/N2/N3 (malicious training, committee, aggregation clients) per
                     round from committee.csv, one panel per run, epsilon in the title
  aggregation.png    the paper's Fig. 3(a): number of clients against the
                     times they were aggregated (aggregation.csv, 0 included), one line per run
  communication.png  per algorithm and link rate (parameters.linkRateBps): mean simulated
                     round time (round_time_s), mean bytes handed to radios per round
                     (bytes_sent) and the run's wall-clock time (run.json wall_time_s); bars,
                     runs with the same algorithm and link rate averaged (with a note)
  ccp.png            CCP attempts per round (ccp.csv rows of steps aggregation and
                     election) and the counts of their outcomes consensus/timeout/failed

A figure none of whose inputs any run has is skipped with a `note:` line.  Per-round
values are the node -1 rows; a round written twice counts with its last row.  A table is
printed to stdout: per run its folder, algorithm, attack, rounds, final accuracy, mean
round time [s] and mean bytes per round.

Bad input (a missing folder, rounds.csv or run.json, an unparsable file, a missing column,
a non-numeric value, a negative or fractional count in aggregation.csv) gives a one-line
error on stderr and exit code 2 before anything is written.  Figures are drawn first and
then written atomically (temporary file in PLOT_DIR, then os.replace); figures of these names
older than the traces and not written now (a rerun folder) are removed.

Only Debian's python3 with its pandas and matplotlib packages is needed.
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
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.protocols import for_program, labelled  # noqa: E402
from d2dlearn_analysis.reader import load_rounds, read_run_json  # noqa: E402
from d2dlearn_analysis.run_json import as_percent  # noqa: E402
from d2dlearn_analysis.traces import (  # noqa: E402
    check_counts,
    add_format_argument,
    axis_label,
    legend,
    make_out_dir,
    no_data,
    note,
    read_trace,
    remove_stale_figures,
    save_figure,
    set_domain_limits,
    to_numeric,
)
from d2dlearn_analysis.traces import limits_from_zero  # noqa: E402

PROG = "plot_cmfl.py"

COMMITTEE_COLUMNS = ["round", "sim_time_s", "training", "committee", "aggregation",
                     "n1", "n2", "n3"]
CCP_COLUMNS = ["round", "step", "attempt", "primary", "replies", "quorum", "outcome",
               "sim_time_s"]
AGGREGATION_COLUMNS = ["device", "malicious", "training", "committee", "aggregated"]

#: --algorithm values of the cmfl scenario and their labels in the paper, in legend order
#: (the library's registry, d2dlearn_analysis.protocols).
ALGORITHMS = labelled(for_program("cmfl"))
ALGORITHM_LABELS = dict(ALGORITHMS)
ALGORITHM_ORDER = {key: i for i, (key, _) in enumerate(ALGORITHMS)}
#: --attack values and the column titles, in column order.
ATTACKS = [
    ("none", "No attack"), ("gradient-scaling", "Gradient scaling attack"),
    ("same-value", "Same-value attack"), ("back-gradient", "Back-gradient attack"),
    ("label-flipping", "Label flipping attack"),
]
ATTACK_TITLES = dict(ATTACKS)
ATTACK_ORDER = {key: i for i, (key, _) in enumerate(ATTACKS)}
CCP_STEPS = ["aggregation", "election"]  # the voted steps; `scores` rows are exchanges
CCP_OUTCOMES = ["consensus", "timeout", "failed"]
OUTCOME_COLOURS = {"consensus": "tab:green", "timeout": "tab:orange", "failed": "tab:red"}
FIGURES = ["accuracy", "malicious", "aggregation", "communication", "ccp"]
#: Figure file format (--format).
FORMAT = "png"


def figure_name(base):
    return "%s.%s" % (base, FORMAT)
LINESTYLES = ["-", "--", "-.", ":"]
#: Parameters that tell runs with the same label apart (appended to the label).
DISTINGUISH = [
    ("attack", lambda v: str(v)),
    ("maliciousFraction", lambda v: "\u03b5=%g%%" % as_percent(v)),
    ("committeeFraction", lambda v: "\u03c9=%g%%" % as_percent(v)),
    ("aggregationFraction", lambda v: "\u03b1=%g%%" % as_percent(v)),
    ("activationFraction", lambda v: "activation %g%%" % as_percent(v)),
    ("linkRateBps", lambda v: rate_text(v)),
]


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def load_csv(path, columns, numeric, text=()):
    df = read_trace(path, columns)
    to_numeric(df, numeric, path)
    for col in text:
        df[col] = df[col].fillna("").astype(str).str.strip()
    return df


def load_run_json(run_dir):
    """(parameters, wall_time_s or NaN) of RUN_DIR/run.json (reader.read_run_json)."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    if not isinstance(doc.get("parameters", {}), dict):
        raise AnalysisError("%s: expected a JSON object with an object `parameters`" % path)
    wall = doc.get("wall_time_s")
    if wall is not None and (isinstance(wall, bool) or not isinstance(wall, (int, float))):
        raise AnalysisError("%s: wall_time_s is %r, not a number" % (path, wall))
    return doc.get("parameters", {}), (float(wall) if wall is not None else math.nan)


def number_param(params, key):
    """A numeric run.json parameter as float, or None if absent / null / not a number."""
    value = params.get(key)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    try:
        v = float(str(value).strip())
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def load_run(run_dir):
    params, wall = load_run_json(run_dir)
    path = os.path.join(run_dir, "rounds.csv")
    rounds = load_rounds(path)
    run = {"dir": run_dir, "name": os.path.basename(os.path.normpath(run_dir)) or run_dir,
           "params": params, "wall_time_s": wall, "rounds": rounds}
    optional = {
        "committee": (COMMITTEE_COLUMNS, COMMITTEE_COLUMNS, ()),
        "ccp": (CCP_COLUMNS, [c for c in CCP_COLUMNS if c not in ("step", "outcome")],
                ("step", "outcome")),
        "aggregation": (AGGREGATION_COLUMNS, ["device", "aggregated"], ()),
    }
    for key, (columns, numeric, text) in optional.items():
        path = os.path.join(run_dir, key + ".csv")
        run[key] = load_csv(path, columns, numeric, text) if os.path.exists(path) else None
    if run["aggregation"] is not None:
        check_counts(run["aggregation"], "aggregated",
                     os.path.join(run_dir, "aggregation.csv"))

    alg = params.get("algorithm")
    run["algorithm"] = str(alg).strip().lower() if alg is not None else ""
    if run["algorithm"] == "":
        note("%s: run.json has no parameters.algorithm; labelled by the folder name"
             % run_dir)
        run["label"] = run["name"]
    else:
        run["label"] = ALGORITHM_LABELS.get(run["algorithm"], str(alg).strip())
    attack = params.get("attack")
    if attack is None or str(attack).strip() == "":
        note("%s: run.json has no parameters.attack; taken as none" % run_dir)
        attack = "none"
    run["attack"] = str(attack).strip().lower().replace("_", "-")
    run["rate_bps"] = number_param(params, "linkRateBps")
    if params.get("linkRateBps") is not None and run["rate_bps"] is None:
        note("%s: parameters.linkRateBps %r is not a number; shown as n/a"
             % (run_dir, params.get("linkRateBps")))

    run["accuracy"] = global_series(rounds, "accuracy")
    run["loss"] = global_series(rounds, "loss")
    run["round_time_s"] = global_series(rounds, "round_time_s")
    run["bytes_sent"] = global_series(rounds, "bytes_sent")
    return run


# --------------------------------------------------------------------------
# Computation
# --------------------------------------------------------------------------

def global_series(rounds, metric):
    """The node -1 values of a rounds.csv metric: a float Series indexed by round (sorted);
    a round written twice counts with its last row; empty if there are none."""
    if rounds.empty:
        return pd.Series(dtype=float)
    rows = rounds[(rounds["metric"] == metric) & (rounds["node"] == -1)
                  & rounds["round"].notna() & rounds["value"].notna()]
    if rows.empty:
        return pd.Series(dtype=float)
    return rows.groupby("round", sort=True)["value"].last().astype(float)


def run_summary(run):
    """Numbers of the stdout table: rounds, final accuracy, mean round time [s], mean
    bytes per round (NaN where rounds.csv has no such rows)."""
    r = run["rounds"]
    n = int(r["round"].dropna().nunique()) if not r.empty else 0
    acc = run["accuracy"]
    return {"rounds": n,
            "final_accuracy": float(acc.iloc[-1]) if not acc.empty else math.nan,
            "mean_round_time_s": float(run["round_time_s"].mean())
            if not run["round_time_s"].empty else math.nan,
            "mean_bytes_per_round": float(run["bytes_sent"].mean())
            if not run["bytes_sent"].empty else math.nan}


def committee_series(committee):
    """committee.csv per round (last row of a round written twice): DataFrame indexed by
    round with columns n1, n2, n3 (and the others)."""
    rows = committee[committee["round"].notna()]
    return rows.groupby("round", sort=True).last()


def aggregation_counts(aggregation):
    """Number of clients per number of times aggregated: int Series indexed 0..max
    (counts with no client included as 0)."""
    times = aggregation["aggregated"].astype(int)
    if times.empty:
        return pd.Series(dtype=int)
    return times.value_counts().reindex(range(0, int(times.max()) + 1),
                                        fill_value=0).astype(int)


def ccp_summary(ccp):
    """CCP votes of ccp.csv: (attempts per round: int Series indexed by every round of
    ccp.csv, counting the rows of steps aggregation and election; outcome counts:
    {step: {outcome: count}} for CCP_STEPS x CCP_OUTCOMES; unknown: {(step, outcome): n}
    of vote rows with another step or outcome, not counted)."""
    rows = ccp[ccp["round"].notna()]
    votes = rows[rows["step"].isin(CCP_STEPS)]
    index = sorted(rows["round"].unique())
    attempts = votes.groupby("round").size().reindex(index, fill_value=0).astype(int)
    counts = {s: {o: int(((votes["step"] == s) & (votes["outcome"] == o)).sum())
                  for o in CCP_OUTCOMES} for s in CCP_STEPS}
    known = votes["outcome"].isin(CCP_OUTCOMES)
    other = rows[~rows["step"].isin(CCP_STEPS + ["scores"])]
    unknown = {}
    for frame in (votes[~known], other):
        for (s, o), n in frame.groupby(["step", "outcome"]).size().items():
            unknown[(s, o)] = int(n)
    return attempts, counts, unknown


def communication_table(runs):
    """Bars of communication.png: one row per (algorithm label, link rate) with the mean
    over its runs of the per-run mean round time, mean bytes per round and wall time.
    Columns label, algorithm, rate_bps (NaN: unknown), runs, round_time_s, bytes_per_round,
    wall_time_s; rows sorted by link rate (unknown last), then algorithm order."""
    groups = {}
    for r in runs:
        s = run_summary(r)
        values = (s["mean_round_time_s"], s["mean_bytes_per_round"], r["wall_time_s"])
        if all(math.isnan(v) for v in values):
            continue
        key = (r["label"], r["rate_bps"])
        g = groups.setdefault(key, {"label": r["label"], "algorithm": r["algorithm"],
                                    "rate_bps": math.nan if r["rate_bps"] is None
                                    else r["rate_bps"], "values": []})
        g["values"].append(values)
    rows = []
    for g in groups.values():
        v = np.array(g["values"], dtype=float)
        means = [float(np.nanmean(v[:, i])) if not np.isnan(v[:, i]).all() else math.nan
                 for i in range(3)]
        rows.append({"label": g["label"], "algorithm": g["algorithm"],
                     "rate_bps": g["rate_bps"], "runs": len(g["values"]),
                     "round_time_s": means[0], "bytes_per_round": means[1],
                     "wall_time_s": means[2]})
    df = pd.DataFrame(rows, columns=["label", "algorithm", "rate_bps", "runs",
                                     "round_time_s", "bytes_per_round", "wall_time_s"])
    if df.empty:
        return df
    df["_rate"] = df["rate_bps"].fillna(math.inf)
    df["_alg"] = [algorithm_rank(a, lab) for a, lab in zip(df["algorithm"], df["label"])]
    return df.sort_values(["_rate", "_alg"], kind="stable").drop(
        columns=["_rate", "_alg"]).reset_index(drop=True)


# --------------------------------------------------------------------------
# Labels and styles
# --------------------------------------------------------------------------

def rate_text(bps):
    if bps is None or (isinstance(bps, float) and not math.isfinite(bps)):
        return "link rate n/a"
    for div, unit in ((1e9, "Gbit/s"), (1e6, "Mbit/s"), (1e3, "kbit/s")):
        if bps >= div:
            return "%g %s" % (bps / div, unit)
    return "%g bit/s" % bps


def attack_title(attack):
    return ATTACK_TITLES.get(attack, attack)


def algorithm_rank(algorithm, label):
    return (ALGORITHM_ORDER.get(algorithm, len(ALGORITHMS)), label)


def sort_runs(runs):
    return sorted(runs, key=lambda r: algorithm_rank(r["algorithm"], r["label"]))


def param_text(run, key, fmt):
    if key == "attack":
        return fmt(run["attack"])
    if key == "linkRateBps":
        return fmt(run["rate_bps"])
    v = number_param(run["params"], key)
    return fmt(v) if v is not None else "%s n/a" % key


def unique_labels(runs, base):
    """Labels from `base` (one per run); runs sharing a label get the parameters that tell
    them apart appended (attack, epsilon, omega, alpha, link rate), else their folder."""
    labels = list(base)
    groups = {}
    for i, lab in enumerate(base):
        groups.setdefault(lab, []).append(i)
    for lab, idx in groups.items():
        if len(idx) < 2:
            continue
        extra = {i: [] for i in idx}
        for key, fmt in DISTINGUISH:
            texts = [param_text(runs[i], key, fmt) for i in idx]
            if len(set(texts)) > 1:
                for i, t in zip(idx, texts):
                    extra[i].append(t)
        new = {i: lab + (" (%s)" % ", ".join(extra[i]) if extra[i] else "") for i in idx}
        if len(set(new.values())) < len(idx):
            names = [runs[i]["name"] for i in idx]
            use = names if len(set(names)) == len(names) else [runs[i]["dir"] for i in idx]
            new = {i: "%s [%s]" % (new[i], u) for i, u in zip(idx, use)}
        for i in idx:
            labels[i] = new[i]
    return labels


def algorithm_colours(runs):
    """One colour per algorithm label, in the paper's algorithm order."""
    labels = sorted({(algorithm_rank(r["algorithm"], r["label"]), r["label"]) for r in runs})
    cmap = plt.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    return {lab: cmap(i % cmap.N) for i, (_, lab) in enumerate(labels)}


def line_styles(runs, colours):
    """(colour, linestyle) per run: the algorithm's colour, another dash per repeat."""
    seen = {}
    styles = []
    for r in runs:
        k = seen.get(r["label"], 0)
        seen[r["label"]] = k + 1
        styles.append((colours[r["label"]], LINESTYLES[k % len(LINESTYLES)]))
    return styles


def percent_text(run, key, symbol):
    """A share parameter (in [0, 1]) as a percent label: "\u03b5 = 10%"."""
    v = number_param(run["params"], key)
    return "%s = %g%%" % (symbol, as_percent(v)) if v is not None else "%s n/a" % symbol


def panel_grid(n, width, height):
    ncols = min(3, n)
    nrows = int(math.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.axis("off")
    return fig, flat[:n]


# --------------------------------------------------------------------------
# Figures (each returns a Figure, or None with a note when no run has its input)
# --------------------------------------------------------------------------

def figure_accuracy(runs):
    name = figure_name("accuracy")
    plotted = [r for r in runs if not r["accuracy"].empty or not r["loss"].empty]
    if not plotted:
        note("%s skipped: no run has node -1 accuracy or loss rows in rounds.csv" % name)
        return None
    ids = {id(r) for r in plotted}
    for r in runs:
        if id(r) not in ids:
            note("%s left out of %s: no node -1 accuracy or loss rows" % (r["dir"], name))
    attacks = sorted({r["attack"] for r in plotted},
                     key=lambda a: (ATTACK_ORDER.get(a, len(ATTACKS)), a))
    colours = algorithm_colours(runs)  # over all runs: the same colours in every figure
    fig, axes = plt.subplots(2, len(attacks), figsize=(4.8 * len(attacks), 7.2),
                             squeeze=False, sharex="col")
    for j, attack in enumerate(attacks):
        col = sort_runs([r for r in plotted if r["attack"] == attack])
        labels = unique_labels(col, [r["label"] for r in col])
        for r, lab, (colour, ls) in zip(col, labels, line_styles(col, colours)):
            for i, key in enumerate(("loss", "accuracy")):
                s = r[key]
                if not s.empty:
                    axes[i][j].plot(s.index.to_numpy(dtype=float), s.to_numpy(dtype=float),
                                    color=colour, linestyle=ls, linewidth=1.4, label=lab)
        eps = {percent_text(r, "maliciousFraction", "\u03b5") for r in col}
        title = attack_title(attack)
        if attack != "none" and len(eps) == 1:
            title += " (%s)" % eps.pop()
        axes[0][j].set_title(title, fontsize=10)
        for i, key in enumerate(("loss", "accuracy")):
            ax = axes[i][j]
            ax.grid(True, alpha=0.3)
            if not ax.lines:
                no_data(ax, "no %s rows" % key)
                continue
            ax.set_ylabel(axis_label(key, "global model"))
            ax.set_xlabel(axis_label("round"))
            set_domain_limits(ax, key)
        axes[1][j].xaxis.set_major_locator(MaxNLocator(integer=True))
        if axes[1][j].lines or axes[0][j].lines:
            src = axes[1][j] if axes[1][j].lines else axes[0][j]
            handles, labs = src.get_legend_handles_labels()
            # Below the column, so that many runs do not hide the curves.
            legend(axes[1][j], handles, labs, loc="upper center",
                   bbox_to_anchor=(0.5, -0.24), ncol=1 if len(labs) <= 6 else 2,
                   frameon=False)
    fig.suptitle("Global model per round under each attack", fontsize=11)
    fig.tight_layout()
    return fig


def runs_with_rows(runs, key, name):
    """The runs whose <key>.csv has rows, in sort_runs order. Notes each run left out and,
    when none is left, that the figure `name` is skipped (then returns [])."""
    def n_rows(df):
        return int(df["round"].notna().sum()) if "round" in df.columns else len(df)

    have = [r for r in runs if r[key] is not None]
    if not have:
        note("%s skipped: no run has %s.csv" % (name, key))
        return []
    for r in have:
        if n_rows(r[key]) == 0:
            note("%s left out of %s: %s.csv has no rows" % (r["dir"], name, key))
    have = sort_runs([r for r in have if n_rows(r[key]) > 0])
    if not have:
        note("%s skipped: no %s.csv has rows" % (name, key))
    return have


def figure_malicious(runs):
    name = figure_name("malicious")
    have = runs_with_rows(runs, "committee", name)
    if not have:
        return None
    base = ["%s, %s, %s" % (r["label"], r["attack"],
                             percent_text(r, "maliciousFraction", "\u03b5")) for r in have]
    titles = unique_labels(have, base)
    fig, axes = panel_grid(len(have), 4.8, 3.6)
    series = [("n1", "N1 (training)", "tab:blue", "o"),
              ("n2", "N2 (committee)", "tab:red", "s"),
              ("n3", "N3 (aggregation)", "tab:green", "^")]
    for ax, r, title in zip(axes, have, titles):
        c = committee_series(r["committee"])
        x = c.index.to_numpy(dtype=float)
        for col, lab, colour, marker in series:
            ax.plot(x, c[col].to_numpy(dtype=float), color=colour, marker=marker,
                    markersize=3, linewidth=1.2, label=lab)
        top = max(1.0, float(c[["n1", "n2", "n3"]].max().max()))
        ax.set_ylim(-0.05 * top, 1.1 * top)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(axis_label("round"))
        ax.set_ylabel(axis_label("clients", "malicious"))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
        legend(ax, fontsize=7)
    fig.suptitle("Malicious clients per round (N1 training, N2 committee, N3 aggregation)",
                 fontsize=10)
    fig.tight_layout()
    return fig


def figure_aggregation(runs):
    name = figure_name("aggregation")
    have = runs_with_rows(runs, "aggregation", name)
    if not have:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    labels = unique_labels(have, [r["label"] for r in have])
    # A histogram: bars side by side per count (hatched per repeat of an algorithm).
    width = 0.8 / len(have)
    hatches = {"-": None, "--": "//", "-.": "..", ":": "xx"}
    for k, (r, lab, (colour, ls)) in enumerate(zip(
            have, labels, line_styles(have, algorithm_colours(runs)))):
        counts = aggregation_counts(r["aggregation"])
        ax.bar(counts.index.to_numpy(dtype=float) - 0.4 + width * (k + 0.5),
               counts.to_numpy(dtype=float), width=width, color=colour, hatch=hatches[ls],
               edgecolor="white" if hatches[ls] else None, label=lab)
    ax.set_xlabel(axis_label("aggregated"))
    ax.set_ylabel(axis_label("clients"))
    set_domain_limits(ax, "clients")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Clients by the number of times their gradient was aggregated",
                 fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    legend(ax)
    fig.tight_layout()
    return fig


def byte_unit(max_bytes):
    for div, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if max_bytes >= div:
            return div, unit
    return 1.0, "B"


def figure_communication(runs):
    name = figure_name("communication")
    table = communication_table(runs)
    if table.empty:
        note("%s skipped: no run has node -1 round_time_s or bytes_sent rows in rounds.csv "
             "or wall_time_s in run.json" % name)
        return None
    for _, row in table[table["runs"] > 1].iterrows():
        note("%s: %d runs of %s at %s averaged" % (name, row["runs"], row["label"],
                                                   rate_text(row["rate_bps"])))
    rates = list(dict.fromkeys(table["rate_bps"].fillna(math.inf)))
    algs = sorted(dict.fromkeys(zip(table["algorithm"], table["label"])),
                  key=lambda al: algorithm_rank(*al))
    slot = {lab: i for i, (_, lab) in enumerate(algs)}
    colours = algorithm_colours(runs)
    width = 0.8 / len(algs)
    bmax = table["bytes_per_round"].max()
    bdiv, bunit = byte_unit(bmax if not math.isnan(bmax) else 0.0)
    panels = [("round_time_s", 1.0, axis_label("round_time_s", "mean")),
              ("bytes_per_round", bdiv, axis_label("bytes_sent", "mean", unit=bunit)),
              ("wall_time_s", 1.0, axis_label("wall_time_s", "of the run"))]
    width_in = max(6.0, min(12.0, 2.0 + 0.25 * len(rates) * len(algs)))
    fig, axes = plt.subplots(3, 1, figsize=(width_in, 8.4), sharex=True, squeeze=False)
    axes = axes.T  # axes[0]: the three panels, top to bottom
    for ax, (col, div, ylabel) in zip(axes[0], panels):
        drawn = set()
        for _, row in table.iterrows():
            v = row[col]
            if math.isnan(v):
                continue
            x = rates.index(row["rate_bps"] if not math.isnan(row["rate_bps"]) else math.inf)
            lab = row["label"]
            ax.bar(x - 0.4 + width * (slot[lab] + 0.5), v / div, width=width,
                   color=colours[lab], label=None if lab in drawn else lab)
            drawn.add(lab)
        values = table[col].dropna()
        positive = values[values > 0]
        if len(positive) == len(values) and len(values) and \
                positive.max() >= 100 * positive.min():
            ax.set_yscale("log")
        if values.empty:
            no_data(ax, "no run has %s" % col)
        ax.set_xticks(range(len(rates)))
        ax.set_xticklabels([rate_text(r if math.isfinite(r) else None) for r in rates])
        ax.set_xlim(-0.6, len(rates) - 0.4)
        ax.set_ylabel(ylabel, fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
    handles = {}
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    order = [lab for _, lab in algs if lab in handles]
    for ax in axes[0]:
        ax.set_xlabel("link rate")
    legend(axes[0][0], [handles[lab] for lab in order], order, outside=True, frameon=False)
    fig.suptitle("Communication per algorithm and link rate", fontsize=10)
    fig.tight_layout()
    return fig


def figure_ccp(runs):
    name = figure_name("ccp")
    have = runs_with_rows(runs, "ccp", name)
    if not have:
        return None
    labels = unique_labels(have, [r["label"] for r in have])
    summaries = [ccp_summary(r["ccp"]) for r in have]
    for r, (_, _, unknown) in zip(have, summaries):
        for (s, o), n in sorted(unknown.items()):
            note("%s: ccp.csv: %d row(s) of step %r with outcome %r not counted"
                 % (r["dir"], n, s, o))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12.0, 4.4))
    for lab, (attempts, _, _), (colour, ls) in zip(
            labels, summaries, line_styles(have, algorithm_colours(runs))):
        ax1.plot(attempts.index.to_numpy(dtype=float), attempts.to_numpy(dtype=float),
                 color=colour, linestyle=ls, marker="o", markersize=3, linewidth=1.2,
                 label=lab)
    ax1.set_xlabel(axis_label("round"))
    ax1.set_ylabel(axis_label("attempts", "aggregation + election votes"))
    ax1.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.yaxis.set_major_locator(MaxNLocator(integer=True))
    # From 0: two attempts every round is a constant 2, not a 1.9..2.1 axis.
    limits_from_zero(ax1, [v for attempts, _, _ in summaries for v in attempts])
    ax1.set_title("CCP attempts per round", fontsize=10)
    ax1.grid(True, alpha=0.3)
    legend(ax1)
    width = 0.8 / len(CCP_OUTCOMES)
    for i, (_, counts, _) in enumerate(summaries):
        for k, o in enumerate(CCP_OUTCOMES):
            x = i - 0.4 + width * (k + 0.5)
            agg, ele = counts["aggregation"][o], counts["election"][o]
            ax2.bar(x, agg, width=width, color=OUTCOME_COLOURS[o],
                    label="%s (aggregation)" % o if i == 0 else None)
            ax2.bar(x, ele, width=width, bottom=agg, color=OUTCOME_COLOURS[o], alpha=0.45,
                    hatch="//", label="%s (election)" % o if i == 0 else None)
    ax2.set_xticks(range(len(have)))
    ax2.set_xlim(-0.6, len(have) - 0.4)
    ax2.set_xticklabels(labels, rotation=20 if len(have) > 2 else 0, ha="right"
                        if len(have) > 2 else "center", fontsize=8)
    ax2.set_ylabel(axis_label("attempts"))
    ax2.set_xlabel("run")
    ax2.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_title("Outcomes of the CCP attempts", fontsize=10)
    ax2.grid(True, axis="y", alpha=0.3)
    legend(ax2, fontsize=7, outside=True)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def fmt(value):
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else "%.10g" % value


def print_table(runs):
    header = ["run", "algorithm", "attack", "rounds", "final_accuracy",
              "mean_round_time_s", "mean_bytes_per_round"]
    rows = []
    for r in runs:
        s = run_summary(r)
        rows.append([r["name"], r["algorithm"] or "n/a", r["attack"], str(s["rounds"]),
                     fmt(s["final_accuracy"]), fmt(s["mean_round_time_s"]),
                     fmt(s["mean_bytes_per_round"])])
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    for line in [header] + rows:
        print("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip())


def check_out_dir(out_dir):
    """Fail early (before any output) if PLOT_DIR cannot be a writable folder."""
    if out_dir == "":
        raise AnalysisError("--out: empty; give a folder for the PNGs")
    probe = os.path.abspath(out_dir)
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise AnalysisError("--out: %s is not a folder" % probe)
    if not os.access(probe, os.W_OK | os.X_OK):
        raise AnalysisError("--out: folder %s is not writable" % probe)


def main(argv=None):
    parser = ArgumentParser(
        prog=PROG,
        description="Plot cmfl runs: accuracy/loss per attack, malicious clients, "
                    "aggregation counts, communication, CCP outcomes.")
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+",
                        help="cmfl run folders (rounds.csv, run.json; committee.csv, "
                             "ccp.csv, aggregation.csv for CMFL runs)")
    parser.add_argument("--out", metavar="PLOT_DIR", default=None,
                        help="output folder for the figures (default: the first RUN_DIR)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    global FORMAT
    FORMAT = args.format
    out_dir = args.out if args.out is not None else args.runs[0]
    try:
        # Read and check everything before producing any output.
        runs = [load_run(d) for d in args.runs]
        check_out_dir(out_dir)
        figures = [(n, f(runs)) for n, f in zip(FIGURES, (
            figure_accuracy, figure_malicious, figure_aggregation, figure_communication,
            figure_ccp))]
        make_out_dir(out_dir)
        print_table(runs)
        written = []
        for i, (n, fig) in enumerate(figures):
            if fig is None:
                continue
            n = figure_name(n)
            try:
                written.append(save_figure(fig, out_dir, n))
            except OSError as exc:
                for _, rest in figures[i + 1:]:
                    if rest is not None:
                        plt.close(rest)
                raise AnalysisError("cannot write %s: %s"
                                 % (os.path.join(out_dir, n), exc.strerror or exc))
        traces = [os.path.join(d, f) for d in args.runs
                  for f in ("rounds.csv", "committee.csv", "ccp.csv", "aggregation.csv")]
        remove_stale_figures(out_dir, FIGURES, traces, written)
    except AnalysisError as exc:
        return report(PROG, exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
