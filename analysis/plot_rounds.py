#!/usr/bin/python3
"""Plot learning runs (rounds.csv + energy.csv) of one or more run folders into figures.

Usage:
    /usr/bin/python3 analysis/plot_rounds.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                             [--labels a,b,...] [--metric accuracy]
                                             [--format png|pdf|svg]

Each RUN_DIR is an --outDir of a scenario that writes rounds.csv (fedavg and the other
learning scenarios): rounds.csv (`round,sim_time_s,node,metric,value`, node -1 = global
or mean model), energy.csv (`sim_time_s,node,component,energy_j,remaining_j`) and,
optionally, run.json.  Every run is one curve, labelled by --labels, else by run.json's
parameters `algorithm` and `partition`, else by the folder name (runs whose labels
coincide, e.g. two seeds, all get their folder added).  Writes into PLOT_DIR (default: the
first RUN_DIR/plots), METRIC being --metric (default accuracy), in --format (default png):

  METRIC_vs_round   the node -1 value of the metric against round; where per-device
                    rows (node >= 0) exist, a light band spans their min..max per round
  METRIC_vs_time    the same against the round's sim_time_s
  METRIC_vs_energy  the same against the cumulative energy of all nodes at the round's
                    sim_time_s: rounds.csv's own node -1 rows `energy_j` (the total)
                    and `energy_j.COMPONENT` at that (round, time), which the programs
                    write exactly at every trace level; for run folders without them
                    (older traces) the energy.csv rows with sim_time_s <= that time,
                    with a note, as at --traces=standard those are summed per simulated
                    second and the curve becomes a staircase. Up to six panels, one per
                    radio and state: D2D
                    radio transmit + receive (radio_tx + radio_rx), D2D radio idle
                    (radio_idle: listening), D2S radio transmit + receive (d2s_tx +
                    d2s_rx), D2S radio idle (d2s_idle), compute, and the total of every
                    row; the energy axis is "Energy, cumulative, summed over all
                    devices [J]" (traces.ALL_DEVICES). A group no run spent energy in
                    (fedavg's D2D radio, which is off) has no panel: a note and a line
                    under the figure name it; with no energy at all, no figure (a note)

If no run has rows of the metric and the metric is `accuracy`, `loss` is plotted instead
(with a note; e.g. a regression dataset).  A run without node -1 rows of the metric is
plotted as the mean over its devices (with a note).  A short per-run summary (rounds, final
metric, total simulated time, total energy by component group) is printed to stdout.

A missing rounds.csv or energy.csv gives a one-line error on stderr and exit code 2,
before any output is produced; a header-only trace makes the affected plots be skipped with
a note.  Figures are written atomically (temporary file in the output folder, then
os.replace); figures of these names older than the traces and not written now (a rerun
folder) are removed.

Only Debian's python3 with its pandas and matplotlib packages is needed.
"""

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

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.reader import load_rounds, read_run_json  # noqa: E402
from d2dlearn_analysis.traces import (  # noqa: E402
    ALL_DEVICES,
    add_format_argument,
    axis_label,
    draw_band,
    column_info,
    legend,
    load_energy,
    make_out_dir,
    note,
    remove_stale_figures,
    save_figure,
    series_style,
    set_domain_limits,
)

#: Component groups of the energy panels and of the summary, in this order.
#: Each names the radio and its state: an idle radio (listening, no traffic) is not
#: communication.
ENERGY_GROUPS = [
    ("D2D radio, transmit + receive", ["radio_tx", "radio_rx"]),
    ("D2D radio, idle", ["radio_idle"]),
    ("D2S radio, transmit + receive", ["d2s_tx", "d2s_rx"]),
    ("D2S radio, idle", ["d2s_idle"]),
    ("compute", ["compute"]),
]
#: Panels per row of the energy figure.
ENERGY_COLUMNS = 3
KNOWN_COMPONENTS = {c for _, comps in ENERGY_GROUPS for c in comps}

# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def load_run_json(run_dir):
    """Return (parameters dict, simulated_time_s or None); both empty if no usable run.json."""
    if not os.path.isfile(os.path.join(run_dir, "run.json")):
        return {}, None
    try:
        doc = read_run_json(run_dir)
    except AnalysisError as exc:
        note("%s; ignored" % exc)
        return {}, None
    params = doc.get("parameters", {})
    sim = doc.get("simulated_time_s")
    return (params if isinstance(params, dict) else {},
            float(sim) if isinstance(sim, (int, float)) else None)


# --------------------------------------------------------------------------
# Computation
# --------------------------------------------------------------------------

def cumulative_energy(energy, times, components):
    """Energy [J] spent up to each time: sum of energy_j over all nodes' rows whose
    component is in `components` and whose sim_time_s <= t, for each t in `times`.

    Returns a numpy array of floats, one per entry of `times`.
    """
    times = np.asarray(times, dtype=float)
    if energy.empty:
        return np.zeros(len(times))
    rows = energy[energy["component"].isin(list(components))]
    rows = rows[rows["sim_time_s"].notna() & rows["energy_j"].notna()]
    if rows.empty:
        return np.zeros(len(times))
    order = np.argsort(rows["sim_time_s"].to_numpy(dtype=float), kind="stable")
    t_sorted = rows["sim_time_s"].to_numpy(dtype=float)[order]
    csum = np.concatenate(([0.0], np.cumsum(rows["energy_j"].to_numpy(dtype=float)[order])))
    return csum[np.searchsorted(t_sorted, times, side="right")]


def round_energy(rounds, curve, components):
    """Energy [J] of all nodes at each point of `curve` from rounds.csv's own energy rows
    (node -1; metric `energy_j` if components is None, else the sum of `energy_j.C` over
    the components C): per round, the row of that round at the latest sim_time_s not after
    the curve point's time. Returns a numpy array, or None if the run has no such rows."""
    if rounds.empty:
        return None
    names = ["energy_j"] if components is None else ["energy_j." + c for c in components]
    rows = rounds[rounds["metric"].isin(names) & (rounds["node"] == -1)
                  & rounds["round"].notna() & rounds["value"].notna()]
    if rows.empty or not (rounds["metric"] == "energy_j").any():
        return None
    per_point = rows.groupby(["round", "sim_time_s"], sort=True)["value"].sum()
    out = []
    for rnd, t in zip(curve.index, curve["time_s"]):
        try:
            at_round = per_point.loc[rnd]
        except KeyError:
            at_round = None
        if at_round is None or at_round.empty:
            out.append(np.nan)
            continue
        before = at_round[at_round.index <= t + 1e-12]
        out.append(float(before.iloc[-1]) if not before.empty else np.nan)
    return np.asarray(out, dtype=float)


def metric_curve(rounds, metric):
    """Per-round curve of one metric: DataFrame indexed by round with columns
    time_s (the round's sim_time_s), value (node -1, else mean over devices),
    lo, hi (min/max over devices, NaN where there are none) and `from_mean`
    (True if the run has no node -1 rows, so value is the mean over devices).
    Returns None if the run has no rows of the metric."""
    if rounds.empty:
        return None
    rows = rounds[(rounds["metric"] == metric) & rounds["round"].notna()
                  & rounds["value"].notna()]
    if rows.empty:
        return None
    glob = rows[rows["node"] < 0].sort_values(["round", "sim_time_s"], kind="stable")
    dev = rows[rows["node"] >= 0]
    dev_grp = dev.groupby("round")
    band = pd.DataFrame({"lo": dev_grp["value"].min(), "hi": dev_grp["value"].max(),
                         "dev_mean": dev_grp["value"].mean(),
                         "dev_time": dev_grp["sim_time_s"].max()})
    from_mean = glob.empty
    if from_mean:
        curve = pd.DataFrame({"time_s": band["dev_time"], "value": band["dev_mean"]})
    else:
        last = glob.groupby("round").last()  # a round written twice: its last row counts
        curve = pd.DataFrame({"time_s": last["sim_time_s"], "value": last["value"]})
    curve = curve.join(band[["lo", "hi"]], how="left")
    curve = curve.sort_index()
    curve.attrs["from_mean"] = from_mean
    return curve


def pick_metric(runs, wanted):
    """The metric to plot: `wanted` if any run has it, else loss for accuracy, else None."""
    def present(m):
        return any(not r["rounds"].empty and (r["rounds"]["metric"] == m).any() for r in runs)
    if present(wanted):
        return wanted
    if wanted == "accuracy" and present("loss"):
        note("no run has accuracy rows (e.g. a regression task); plotting loss instead")
        return "loss"
    return None


def run_labels(run_dirs, params, labels_arg):
    if labels_arg is not None:
        labels = [s.strip() for s in labels_arg.split(",")]
        if len(labels) != len(run_dirs):
            raise AnalysisError("--labels: %d label(s) for %d run folder(s); give one per folder"
                             % (len(labels), len(run_dirs)))
        return labels
    labels = []
    for d, p in zip(run_dirs, params):
        name = os.path.basename(os.path.normpath(d)) or d
        parts = [str(p[k]) for k in ("algorithm", "partition") if k in p and str(p[k]) != ""]
        labels.append(", ".join(parts) if parts else name)
    # Runs with the same parameters (e.g. two seeds or alphas): every one of them gets its
    # folder name, and its path if the folder names coincide too.
    original = list(labels)
    for i, lab in enumerate(original):
        if original.count(lab) > 1:
            base = os.path.basename(os.path.normpath(run_dirs[i]))
            labels[i] = "%s (%s)" % (lab, base) if lab != base else lab
    renamed = list(labels)
    for i, lab in enumerate(renamed):
        if renamed.count(lab) > 1:
            labels[i] = "%s (%s)" % (original[i], os.path.normpath(run_dirs[i]))
    return labels


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def fmt(value):
    return "n/a" if value is None or (isinstance(value, float) and np.isnan(value)) \
        else "%.6g" % value


def summarize(run):
    print("run %s (%s):" % (run["label"], run["dir"]))
    rounds, energy, curve = run["rounds"], run["energy"], run["curve"]
    print("  rounds.csv: %d rows, energy.csv: %d rows" % (len(rounds), len(energy)))
    if curve is not None:
        last = curve.index[-1]
        print("  rounds: %d (last round %s)" % (len(curve), fmt(float(last))))
        print("  final %s: %s%s" % (run["metric"], fmt(float(curve["value"].iloc[-1])),
                                    " (mean over devices)" if curve.attrs["from_mean"] else ""))
    elif rounds.empty:
        print("  rounds: 0")
    # run.json's simulated_time_s, else the last time stamp of the traces.
    sim = run["sim_time_json"]
    source = "run.json"
    if sim is None:
        stamps = [float(t) for t in (rounds["sim_time_s"].max() if not rounds.empty else None,
                                     energy["sim_time_s"].max() if not energy.empty else None)
                  if t is not None and not np.isnan(t)]
        sim = max(stamps) if stamps else None
        source = "last trace time stamp"
    print("  total simulated time: %s s (%s)" % (fmt(sim), source))
    total = 0.0
    for group, comps in ENERGY_GROUPS:
        e = float(energy.loc[energy["component"].isin(comps), "energy_j"].sum()) \
            if not energy.empty else 0.0
        total += e
        print("  total energy %s (%s): %.6g J" % (group, "+".join(comps), e))
    if not energy.empty:
        other = energy[~energy["component"].isin(KNOWN_COMPONENTS)]
        if not other.empty:
            note("%s: unexpected energy component(s) %s (%.6g J) left out of the groups"
                 % (run["dir"], ",".join(sorted(set(other["component"]))),
                    float(other["energy_j"].sum())))
    print("  total energy all groups: %.6g J" % total)


def draw_curve(ax, x, curve, run, metric):
    """The run's curve in its own colour, marker and dash (coinciding runs stay visible),
    with the devices' min..max band clipped to the metric's domain."""
    ax.plot(x, curve["value"].to_numpy(dtype=float), color=run["colour"],
            label=run["label"], clip_on=False, **run.get("style", series_style(0)))
    has_band = curve["lo"].notna()
    if has_band.any():
        bx = np.asarray(x, dtype=float)[has_band.to_numpy()]
        draw_band(ax, bx, curve.loc[has_band, "lo"].to_numpy(dtype=float),
                  curve.loc[has_band, "hi"].to_numpy(dtype=float), metric,
                  color=run["colour"], alpha=0.15, linewidth=0)


def metric_label(metric, runs):
    if any(r["curve"] is not None and r["curve"].attrs["from_mean"] for r in runs):
        return axis_label(metric, "node -1, else device mean")
    return axis_label(metric)


def metric_name(metric):
    """The metric's name in traces.py's table (the axis label without its unit): a title
    says "Test accuracy", "Test loss (cross-entropy)", not the rounds.csv metric."""
    return column_info(metric)[0]


def band_note(runs):
    if any(r["curve"] is not None and r["curve"]["lo"].notna().any() for r in runs):
        return "; band: min..max over devices"
    return ""


def plot_vs_round(runs, metric, out_dir, name):
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for r in runs:
        draw_curve(ax, r["curve"].index.to_numpy(dtype=float), r["curve"], r, metric)
    ax.set_xlabel(axis_label("round"))
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_ylabel(metric_label(metric, runs))
    set_domain_limits(ax, metric)
    ax.set_title("%s per round%s" % (metric_name(metric), band_note(runs)), fontsize=10)
    ax.grid(True, alpha=0.3)
    legend(ax)
    return save_figure(fig, out_dir, name)


def plot_vs_time(runs, metric, out_dir, name):
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for r in runs:
        draw_curve(ax, r["curve"]["time_s"].to_numpy(dtype=float), r["curve"], r, metric)
    ax.set_xlabel(axis_label("sim_time_s"))
    ax.set_ylabel(metric_label(metric, runs))
    set_domain_limits(ax, metric)
    ax.set_title("%s against simulated time%s" % (metric_name(metric), band_note(runs)),
                 fontsize=10)
    ax.grid(True, alpha=0.3)
    legend(ax)
    return save_figure(fig, out_dir, name)


def energy_curves(runs, comps):
    """(x, run) of each run that spent energy of the component group `comps` (None: every
    component), x its cumulative energy at each point of its curve (rounds.csv's own
    energy rows, else energy.csv's up to each round's time), and how many runs spent none
    (their curves would be vertical lines at 0 J)."""
    curves, idle = [], 0
    for r in runs:
        x = round_energy(r["rounds"], r["curve"], comps)
        if x is None:
            wanted = comps if comps is not None else sorted(set(r["energy"]["component"]))
            x = cumulative_energy(r["energy"], r["curve"]["time_s"].to_numpy(dtype=float),
                                  wanted)
        if not np.isfinite(x).any() or float(np.nanmax(x)) == 0.0:
            idle += 1
            continue
        curves.append((x, r))
    return curves, idle


def plot_vs_energy(runs, metric, out_dir, name):
    """The metric against the cumulative energy of all devices, one panel per component
    group that some run spent energy in, and the total. A group no run spent energy in
    has no panel (a note, and a line under the figure, name it); with no energy at all,
    no figure (a note says why)."""
    with_energy = [r for r in runs if not r["energy"].empty]
    for r in runs:
        if r["energy"].empty:
            note("%s left out of %s: energy.csv has no rows" % (r["label"], name))
    if not with_energy:
        note("%s skipped: no plotted run has energy.csv rows" % name)
        return None
    coarse = [r["label"] for r in with_energy
              if round_energy(r["rounds"], r["curve"], None) is None]
    if coarse:
        note("%s: rounds.csv has no energy_j rows (traces of an older d2dlearn): energy from "
             "energy.csv rows up to each round's time, per simulated second at "
             "--traces=standard" % ", ".join(coarse))
    panels, empty = [], []
    for group, comps in ENERGY_GROUPS + [("total", None)]:
        curves, idle = energy_curves(with_energy, comps)
        if curves:
            panels.append((group, comps, curves, idle))
        else:
            empty.append(group)
    if not panels:
        note("%s skipped: no plotted run spent energy (every energy row is 0 J)" % name)
        return None
    if empty:
        note("%s: no panel of %s: no run spent energy there" % (name, "; ".join(empty)))
    cols = 2 if len(panels) == 4 else min(ENERGY_COLUMNS, len(panels))
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.6 * rows), squeeze=False)
    fig.subplots_adjust(hspace=0.45, wspace=0.3)  # two-line x labels clear the next row
    axes = list(axes.flat)
    for ax in axes[len(panels):]:
        ax.remove()
    for ax, (group, comps, curves, idle) in zip(axes, panels):
        for x, r in curves:
            draw_curve(ax, x, r["curve"], r, metric)
        if idle:
            ax.text(0.02, 0.02, "%d run(s) without %s energy: not drawn" % (idle, group),
                    transform=ax.transAxes, fontsize=7, color="dimgrey")
        ax.set_xlabel(axis_label("energy_j", "cumulative,\n" + ALL_DEVICES))
        ax.set_ylabel(metric_label(metric, runs))
        set_domain_limits(ax, "energy_j", "x")
        set_domain_limits(ax, metric)
        ax.set_title(group, fontsize=10)
        ax.grid(True, alpha=0.3)
    legend(axes[len(panels) - 1])
    fig.suptitle("%s against energy spent%s" % (metric_name(metric), band_note(runs)),
                 fontsize=10)
    if empty:
        # Under the figure, in its own line (not in a panel's frame).
        fig.text(0.5, 0.01, "No panel: %s (no run spent energy there)" % "; ".join(empty),
                 ha="center", va="top", fontsize=8, color="dimgrey")
    return save_figure(fig, out_dir, name)


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv=None):
    parser = ArgumentParser(
        description="Plot learning runs (rounds.csv, energy.csv), one curve per run.")
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+",
                        help="run folders holding rounds.csv and energy.csv (run.json optional)")
    parser.add_argument("--out", metavar="PLOT_DIR", default=None,
                        help="output folder for the figures (default: first RUN_DIR/plots)")
    parser.add_argument("--labels", metavar="a,b,...", default=None,
                        help="comma-separated curve labels, one per RUN_DIR")
    parser.add_argument("--metric", default="accuracy",
                        help="rounds.csv metric to plot (default accuracy; falls back to "
                             "loss when no run has accuracy rows)")
    add_format_argument(parser)
    args = parser.parse_args(argv)

    out_dir = args.out if args.out is not None else os.path.join(args.runs[0], "plots")
    try:
        # Check every required file and the labels before producing any output.
        for d in args.runs:
            for name in ("rounds.csv", "energy.csv"):
                path = os.path.join(d, name)
                if not os.path.isfile(path):
                    raise AnalysisError("missing trace file: %s" % path)
        if args.labels is not None:
            run_labels(args.runs, [{}] * len(args.runs), args.labels)
        metric_arg = args.metric.strip()
        if metric_arg == "":
            raise AnalysisError("--metric: empty; give a metric name of rounds.csv, e.g. accuracy")

        runs = []
        params = []
        for d in args.runs:
            rounds = load_rounds(os.path.join(d, "rounds.csv"))
            energy = load_energy(os.path.join(d, "energy.csv"))
            p, sim = load_run_json(d)
            params.append(p)
            runs.append({"dir": d, "rounds": rounds, "energy": energy, "sim_time_json": sim})
        labels = run_labels(args.runs, params, args.labels)
        colours = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        for i, (r, lab) in enumerate(zip(runs, labels)):
            r["label"] = lab
            r["colour"] = colours[i % len(colours)]
            r["style"] = series_style(i)

        metric = pick_metric(runs, metric_arg)
        for r in runs:
            r["metric"] = metric if metric is not None else metric_arg
            r["curve"] = metric_curve(r["rounds"], metric) if metric is not None else None
            if r["rounds"].empty:
                note("%s: rounds.csv has no rows" % r["dir"])
            elif r["curve"] is None:
                note("%s: rounds.csv has no %s rows" % (r["dir"], r["metric"]))
            elif r["curve"].attrs["from_mean"]:
                note("%s: no node -1 %s rows; plotting the mean over devices"
                     % (r["dir"], metric))

        make_out_dir(out_dir)

        for r in runs:
            summarize(r)

        bases = ["%s_vs_%s" % (metric_arg, x) for x in ("round", "time", "energy")]
        names = ["%s.%s" % (b, args.format) for b in bases]
        traces = [os.path.join(d, f) for d in args.runs for f in ("rounds.csv", "energy.csv")]
        plotted = [r for r in runs if r["curve"] is not None]
        if not plotted:
            why = "no run has %s rows" % (metric_arg if metric_arg != "accuracy"
                                           else "accuracy or loss")
            for name in names:
                note("%s skipped: %s" % (name, why))
            remove_stale_figures(out_dir, bases, traces, [])
            return 0
        for r in runs:
            if r["curve"] is None:
                note("%s left out of the plots" % r["label"])
        written = [plot_vs_round(plotted, metric, out_dir, names[0]),
                   plot_vs_time(plotted, metric, out_dir, names[1]),
                   plot_vs_energy(plotted, metric, out_dir, names[2])]
        remove_stale_figures(out_dir, bases, traces, [w for w in written if w])
    except AnalysisError as exc:
        return report("plot_rounds.py", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
