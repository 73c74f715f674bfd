#!/usr/bin/python3
"""What asynchronous federated learning buys when the devices compute at different speeds:
the simulated time and the energy of all devices until the global model first reaches a
target accuracy, and the accuracy against time and against energy, of fedavg runs with
FedAvg (with and without over-selection), FedAsync and FedBuff at each spread of the
devices' speeds (--computeSpread) and each share of the time the devices are there
(--meanOnTime, --meanOffTime).

Usage:
    /usr/bin/python3 analysis/async_effects.py RUN_DIR [RUN_DIR ...]
                     [--table FILE] [--figure DIR] [--target ACCURACY]

Each RUN_DIR is an --outDir of build/bin/fedavg: run.json (parameters algorithm,
overSelection, computeSpread, meanOnTime_s, meanOffTime_s, availabilityFile, seed) and
rounds.csv. The runs stop at a common simulated-time limit, so a run's last round comes
when it comes. Every number is recomputed from rounds.csv's rows of node -1, joined by
round:

  accuracy          metric accuracy: the global model's test accuracy (round 0 at 0 s)
  energy            metric energy_j: the energy all devices have drawn up to the round's
                    time, cumulative, J (the row of the accuracy's time, else the round's
                    last)
  time to target    the simulated time of the first round whose accuracy is at least the
                    target (--target, default 0.7, in (0, 1]), s; none if no round reaches it
  energy to target  the energy at that round, J
  final accuracy    the accuracy of the last round; time and energy: that round's

A run's protocol is "FedAvg" (algorithm fedavg, overSelection at most 1 or not given),
"FedAvg, over-selection S" (fedavg with overSelection S > 1), "FedAsync" (fedasync),
"FedBuff" (fedbuff) (the registry's labels of the fedavg program's asynchronous protocols:
d2dlearn_analysis.protocols), or the algorithm's name; its spread is computeSpread (the
sigma of the devices' log-normal speeds; 0 if not given); its availability
(available_share) is the share of the time a device is there, T_on / (T_on + T_off) of
meanOnTime_s and meanOffTime_s (both > 0), 1 when both are 0 or absent (every device there
all run). The runs of a point (spread, availability, protocol: the seeds) give its mean and
standard deviation; those of time and energy to target are over the runs that reached it
(reached), empty cells if none did.

--table FILE writes the points (spread,available_share,protocol,runs,reached,
time_to_target_s,time_to_target_sd,energy_to_target_j,energy_to_target_sd,final_accuracy,
final_accuracy_sd,time_s,energy_j; rows by spread, then availability from the highest,
then FedAvg, its over-selections, FedAsync, FedBuff and the others by name), --figure DIR
the figure async_effects.png: a column per (spread, availability) pair in that order,
titled "spread S, always there" or "spread S, there P % of the time", the accuracy against
simulated time (top) and against the energy of all devices (bottom), one colour per
protocol in every panel (one legend, right of the top row): the mean over the seeds of
their step curves (a round's accuracy holds until the next) from 0 to the smallest last
time or energy of the seeds, with a band from their minimum to their maximum, and the
target as a dashed line.
The table needs pandas, the figure matplotlib too. Bad input (a missing folder or file, an
unparsable run.json or one without parameters, a meanOnTime_s or meanOffTime_s that is
negative or not a number, one of them 0 and the other not, an availabilityFile (a trace:
its share is not worked out here), rounds.csv without node -1 accuracy or energy_j rows, a
time or energy that decreases, a target outside (0, 1]) gives a one-line error and exit
code 2, and nothing is written.
"""
import csv
import math
import os
import statistics
import sys

from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError  # noqa: E402
from d2dlearn_analysis.protocols import for_program, labelled  # noqa: E402
from d2dlearn_analysis.reader import load_rounds, read_run_json  # noqa: E402
from d2dlearn_analysis.run_json import table_figure_main  # noqa: E402

DEFAULT_TARGET = 0.7
FIELDS = ["spread", "available_share", "protocol", "runs", "reached", "time_to_target_s",
          "time_to_target_sd", "energy_to_target_j", "energy_to_target_sd", "final_accuracy",
          "final_accuracy_sd", "time_s", "energy_j"]
OVER_SELECTION = "FedAvg, over-selection "
#: The asynchronous protocols of the fedavg program and their labels, in the registry's order
#: (the table's and the legend's): those with D2dAsyncFl's trace source Update, the server's
#: record of each update it applies (fedasync: FedAsync, fedbuff: FedBuff).
ASYNCHRONOUS = labelled(for_program("fedavg", lambda p: "Update" in p["traceSources"]))
NAMES = dict(ASYNCHRONOUS)
#: the script's own option (table_figure_main's options)
OPTIONS = [("--target", dict(type=float, default=DEFAULT_TARGET, metavar="ACCURACY",
                             help="the test accuracy the time and energy to target are "
                                  "measured at: above 0, at most 1 (default %g)"
                                  % DEFAULT_TARGET))]


class Points(dict):
    """{(spread, available share, protocol): [measures of each run]}, and the target they
    were measured at."""

    def __init__(self, target):
        super().__init__()
        self.target = target


def number(params, key, default, run):
    """A numeric run.json parameter (default if absent or null)."""
    value = params.get(key)
    if value is None:
        return default
    try:
        if isinstance(value, bool):
            raise ValueError
        out = float(value)
    except (TypeError, ValueError):
        out = math.nan
    if not math.isfinite(out):
        raise AnalysisError("%s: run.json parameter %s is not a number: %r" % (run, key, value))
    return out


def protocol(params, run):
    """The run's protocol, as the table and the figure name it."""
    algorithm = str(params.get("algorithm", "fedavg"))
    if algorithm == "fedavg":
        over = number(params, "overSelection", 1.0, run)
        return "FedAvg" if over <= 1 else OVER_SELECTION + "%g" % over
    return NAMES.get(algorithm, algorithm)


def available_share(params, run):
    """The share of the time a device is there: T_on / (T_on + T_off), 1 when both are 0 or
    absent (every device there all run)."""
    trace = params.get("availabilityFile")
    if trace not in (None, ""):
        raise AnalysisError("%s: run.json parameter availabilityFile %r: the share of a trace "
                            "is not worked out (give runs of --meanOnTime/--meanOffTime)"
                            % (run, trace))
    on = number(params, "meanOnTime_s", 0.0, run)
    off = number(params, "meanOffTime_s", 0.0, run)
    if on < 0 or off < 0:
        raise AnalysisError("%s: run.json parameters meanOnTime_s %g and meanOffTime_s %g: "
                            "a negative time" % (run, on, off))
    if on == 0 and off == 0:
        return 1.0
    if on == 0 or off == 0:
        raise AnalysisError("%s: run.json parameters meanOnTime_s %g and meanOffTime_s %g: "
                            "both > 0 (devices that come and go) or both 0" % (run, on, off))
    return on / (on + off)


def availability_text(share):
    """"always there" (share 1) or "there P % of the time"."""
    return "always there" if share >= 1 else "there %.0f %% of the time" % (100 * share)


def protocol_order(name):
    """FedAvg, its over-selections by S, the asynchronous protocols (FedAsync, FedBuff: in
    ASYNCHRONOUS' order), the others by name."""
    if name == "FedAvg":
        return (0, 0.0, "")
    if name.startswith(OVER_SELECTION):
        try:
            return (1, float(name[len(OVER_SELECTION):]), "")
        except ValueError:
            pass
    labels = [label for _, label in ASYNCHRONOUS]
    if name in labels:
        return (2 + labels.index(name), 0.0, "")
    return (2 + len(labels), 0.0, name)


def curve(run):
    """[(sim_time_s, energy_j, accuracy)] of the run's rounds, in round order."""
    path = os.path.join(run, "rounds.csv")
    rounds = load_rounds(path)
    rows = rounds[(rounds["node"] == -1)].dropna(subset=["round", "sim_time_s", "value"])
    acc = rows[rows["metric"] == "accuracy"]
    if acc.empty:
        raise AnalysisError("%s: no node -1 accuracy rows" % path)
    energy = rows[rows["metric"] == "energy_j"]
    if energy.empty:
        raise AnalysisError("%s: no node -1 energy_j rows (needs the round energy rows of the "
                            "learning programs)" % path)
    accuracy = {}  # round -> (time, accuracy): the round's last row
    for r, t, v in zip(acc["round"], acc["sim_time_s"], acc["value"]):
        accuracy[int(r)] = (float(t), float(v))
    drawn = {}  # round -> {time: energy}, and the round's last energy under None
    for r, t, v in zip(energy["round"], energy["sim_time_s"], energy["value"]):
        drawn.setdefault(int(r), {})[float(t)] = float(v)
        drawn[int(r)][None] = float(v)
    out = []
    for r in sorted(accuracy):
        if r in drawn:
            t, a = accuracy[r]
            out.append((t, drawn[r].get(t, drawn[r][None]), a))
    if not out:
        raise AnalysisError("%s: no round has both a node -1 accuracy and an energy_j row"
                            % path)
    for i in range(1, len(out)):
        for k, name in ((0, "sim_time_s"), (1, "energy_j")):
            if out[i][k] < out[i - 1][k] - 1e-9 * max(1.0, abs(out[i - 1][k])):
                raise AnalysisError("%s: node -1 %s decreases from %g to %g (not cumulative)"
                                    % (path, "time" if k == 0 else "energy_j",
                                       out[i - 1][k], out[i][k]))
    return out


def measure(run, target):
    """(spread, available share, protocol, {curve, time_to_target_s, energy_to_target_j,
    final_accuracy, time_s, energy_j})."""
    params = read_run_json(run).get("parameters")
    if not isinstance(params, dict):
        raise AnalysisError("%s: no run.json parameters" % run)
    name = protocol(params, run)
    spread = number(params, "computeSpread", 0.0, run)
    share = available_share(params, run)
    points = curve(run)
    reached = next((p for p in points if p[2] >= target), None)
    last = points[-1]
    return spread, share, name, {"curve": points,
                                 "time_to_target_s": reached[0] if reached else None,
                                 "energy_to_target_j": reached[1] if reached else None,
                                 "final_accuracy": last[2], "time_s": last[0],
                                 "energy_j": last[1]}


def points(runs, target=DEFAULT_TARGET):
    """Points: {(spread, available share, protocol): [measures of each run]}, measured at
    target."""
    if not 0 < target <= 1:
        raise AnalysisError("--target %g: a test accuracy in (0, 1]" % target)
    out = Points(target)
    for run in runs:
        spread, share, name, values = measure(run, target)
        out.setdefault((spread, share, name), []).append(values)
    return out


def summarise(values, key):
    """(mean, sd) of the runs' values of key that are not None (sd 0 for one run; None, None
    for none)."""
    v = [r[key] for r in values if r[key] is not None]
    if not v:
        return None, None
    return statistics.fmean(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


def order(pts):
    """The points by spread, then by availability from the highest, then by protocol
    (protocol_order)."""
    return sorted(pts, key=lambda k: (k[0], -k[1], protocol_order(k[2])))


def cell(value, fmt="%.6g"):
    return "" if value is None else fmt % value


def write_table(pts, path):
    rows = []
    for key in order(pts):
        values = pts[key]
        t, t_sd = summarise(values, "time_to_target_s")
        e, e_sd = summarise(values, "energy_to_target_j")
        acc, acc_sd = summarise(values, "final_accuracy")
        rows.append({"spread": "%.6g" % key[0], "available_share": "%.6g" % key[1],
                     "protocol": key[2], "runs": len(values),
                     "reached": sum(r["time_to_target_s"] is not None for r in values),
                     "time_to_target_s": cell(t), "time_to_target_sd": cell(t_sd),
                     "energy_to_target_j": cell(e), "energy_to_target_sd": cell(e_sd),
                     "final_accuracy": cell(acc, "%.4f"),
                     "final_accuracy_sd": cell(acc_sd, "%.4f"),
                     "time_s": cell(summarise(values, "time_s")[0]),
                     "energy_j": cell(summarise(values, "energy_j")[0])})
    with atomic_open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    print("wrote %s (target accuracy %g)" % (path, pts.target))


def mean_curve(curves, axis):
    """(x, mean, min, max) of the runs' accuracy against their time (axis 0) or energy (1):
    each run's curve a step (a round's accuracy holds until the next; before its first
    round, the first) on the union of their x from 0 to the smallest last x."""
    import numpy as np
    xs = [np.maximum.accumulate(np.array([p[axis] for p in c], dtype=float)) for c in curves]
    ys = [np.array([p[2] for p in c], dtype=float) for c in curves]
    end = max(0.0, min(float(x[-1]) for x in xs))
    grid = np.unique(np.concatenate([[0.0, end]] + [x[(x >= 0) & (x <= end)] for x in xs]))
    values = np.array([y[np.clip(np.searchsorted(x, grid, side="right") - 1, 0, None)]
                       for x, y in zip(xs, ys)])
    values = np.clip(values, 0.0, 1.0)  # an accuracy, whatever the trace says
    return grid, values.mean(axis=0), values.min(axis=0), values.max(axis=0)


TARGET_STYLE = dict(color="dimgrey", linestyle="--", linewidth=1.0)


def draw(pts, out_dir):
    from d2dlearn_analysis.traces import (axis_label, draw_band, legend, make_out_dir,
                                          matplotlib, no_data, plt, save_figure)
    make_out_dir(out_dir)
    # A column per (spread, availability) pair, by spread, then availability from the highest.
    columns = sorted({k[:2] for k in pts}, key=lambda c: (c[0], -c[1]))
    # One colour per protocol, the same in every panel.
    protocols = sorted({k[2] for k in pts}, key=protocol_order)
    colour = {name: "C%d" % (i % 10) for i, name in enumerate(protocols)}
    xlabels = [axis_label("sim_time_s"),
               axis_label("energy_j", detail="cumulative, summed over all devices")]
    ylabel = axis_label("accuracy")
    fig, axes = plt.subplots(2, len(columns), figsize=(1.0 + 4.6 * len(columns), 8.4),
                             squeeze=False)
    for col, (spread, share) in enumerate(columns):
        keys = [k for k in order(pts) if k[:2] == (spread, share)]
        for row in range(2):
            ax = axes[row][col]
            ax.set_title("spread %g, %s" % (spread, availability_text(share)))
            if not keys:
                no_data(ax, "no run at this spread and availability")
                continue
            for key in keys:
                curves = [r["curve"] for r in pts[key]]
                x, mean, lo, hi = mean_curve(curves, row)
                if len(x) == 1:
                    ax.plot(x, mean, marker="o", linestyle="none", color=colour[key[2]],
                            label=key[2])
                    continue
                ax.plot(x, mean, drawstyle="steps-post", color=colour[key[2]], linewidth=1.8,
                        label=key[2])
                if len(curves) > 1:
                    draw_band(ax, x, lo, hi, "accuracy", step="post", color=colour[key[2]],
                              alpha=0.18, linewidth=0)
            ax.axhline(pts.target, **TARGET_STYLE)
            ax.set_xlim(left=0)
            ax.set_ylim(0.0, 1.0)
            ax.set_xlabel(xlabels[row])
            ax.set_ylabel(ylabel)
    # One legend for every panel, right of the top row (it hides no curve).
    handles = [matplotlib.lines.Line2D([], [], color=colour[name], linewidth=1.8)
               for name in protocols]
    handles.append(matplotlib.lines.Line2D([], [], **TARGET_STYLE))
    legend(axes[0][-1], handles, protocols + ["target accuracy %g" % pts.target], outside=True)
    fig.suptitle("fedavg: the global model's test accuracy against simulated time (top) and "
                 "against the energy of all devices (bottom), by protocol, spread of the "
                 "devices' speeds and share of the time they are there\n(mean over the seeds "
                 "up to the shortest; band: their minimum to maximum)", fontsize=9)
    fig.tight_layout()
    save_figure(fig, out_dir, "async_effects.png")


def main(argv):
    return table_figure_main(argv, "async_effects.py", __doc__, "async_effects.png", points,
                             write_table, draw, options=OPTIONS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
