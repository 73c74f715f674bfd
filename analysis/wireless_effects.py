#!/usr/bin/python3
"""What the wireless parameters do to federated learning: final accuracy, mean round time
and energy per device of fedavg runs against the server's place (the length of the
device-to-server links), the D2D drop probability P_D of eq. 18 of Wagle, Das, Love and
Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
Learning", 2025, and the devices' speed (the manual's "What the wireless parameters do";
the campaigns analysis/campaigns/wireless-effects-*.toml).

Usage:
    /usr/bin/python3 analysis/wireless_effects.py RUN_DIR [RUN_DIR ...]
                     [--table FILE] [--figure DIR]

Each RUN_DIR is an --outDir of build/bin/fedavg: run.json (parameters algorithm, backend,
serverPosition, areaSideM, dropProbability, speedMps, nDevices, rounds), rounds.csv and
energy.csv. Every number is recomputed from the traces:

  accuracy      rounds.csv, node -1, metric accuracy, at the last round
  round time    the simulated time of the last round's row over the rounds it ran (the
                rounds start at 0 s and follow one another), s
  energy        every energy.csv row (radios and computation) summed, over the devices, J

A run with a dropProbability (>= 0) belongs to that sweep; another run to the sweep of the
one parameter it moves from the base (server at the area's centre, speedMps 0; a run at the
base belongs to both): the server's distance from the centre of the area (m, from
serverPosition and areaSideM), speedMps. A series is (algorithm, backend); the runs of a
point (seeds) give its mean and its standard deviation (the error bar).

--table FILE writes the points (sweep,algorithm,backend,x,runs,accuracy,accuracy_sd,
round_time_s,round_time_sd,energy_j,energy_sd), --figure DIR the figure
wireless_effects.png: a column per sweep, a row per measure (time and energy on a log axis
where a panel's means span a factor of 10 or more: the channel beside Wi-Fi, else from 0), axes with units, one colour per series in
every panel; a panel without two points of a series says so instead of drawing a line, and
a sweep without any (a column of such panels) is left out and named beneath the panels.
"""
import csv
import math
import os
import statistics
import sys

from d2dlearn_analysis.errors import AnalysisError  # noqa: E402
from d2dlearn_analysis.reader import last_global_accuracy, read_run_json  # noqa: E402
from d2dlearn_analysis.run_json import table_figure_main  # noqa: E402
from d2dlearn_analysis.traces import (error_bars, legend, make_out_dir, no_data,  # noqa: E402
                      plt, read_trace, save_figure, series_style, to_numeric)

SWEEPS = [("server", "server's distance from the area's centre [m]"),
          ("dropProbability", "D2D drop probability P_D (eq. 18)"),
          ("speedMps", "devices' speed [m/s]")]
MEASURES = [("accuracy", "final accuracy", (0.0, 1.0)),
            ("round_time_s", "mean round time [s]", (0.0, None)),
            ("energy_j", "energy per device [J]", (0.0, None))]


def server_distance(params):
    """The server's distance from the centre of the square, m (serverPosition "x,y,z" or
    "centre", as run.json records it)."""
    side = float(params.get("areaSideM", 0))
    text = str(params.get("serverPosition", "centre"))
    if text == "centre":
        return 0.0
    parts = [float(v) for v in text.replace(":", ",").split(",")]
    x, y = parts[0], parts[1]
    z = parts[2] if len(parts) > 2 else 0.0
    return math.sqrt((x - side / 2) ** 2 + (y - side / 2) ** 2 + z ** 2)


def measure(run):
    """(params, {accuracy, round_time_s, energy_j}) of a run folder."""
    params = read_run_json(run).get("parameters")
    if not isinstance(params, dict):
        raise AnalysisError("%s: no run.json parameters" % run)
    last = last_global_accuracy(run)
    ran = int(last["round"])
    path = os.path.join(run, "energy.csv")
    energy = read_trace(path, ["sim_time_s", "node", "component", "energy_j"])
    to_numeric(energy, ["energy_j"], path)
    devices = int(params.get("nDevices", 0)) or 1
    return params, {"accuracy": float(last["value"]),
                    "round_time_s": float(last["sim_time_s"]) / ran if ran > 0 else math.nan,
                    "energy_j": float(energy["energy_j"].sum()) / devices}


def sweeps_of(params):
    """The sweeps a run belongs to, with its x in each: a run with a --dropProbability
    (>= 0) to that sweep alone; else a run that moves the server or the speed to that sweep,
    and a run at the base to both."""
    drop = float(params.get("dropProbability", -1))
    if drop >= 0:
        return [("dropProbability", drop)]
    x = {"server": server_distance(params), "speedMps": float(params.get("speedMps", 0))}
    moved = [name for name in x if x[name] != 0.0]
    if len(moved) > 1:
        return []  # moves two parameters at once: no sweep of one
    return [(n, x[n]) for n in (moved or list(x))]


def points(runs):
    """{(sweep, algorithm, backend, x): [measures of each run]}."""
    out = {}
    for run in runs:
        params, values = measure(run)
        series = (str(params.get("algorithm", "fedavg")), str(params.get("backend", "channel")))
        for sweep, x in sweeps_of(params):
            out.setdefault((sweep,) + series + (x,), []).append(values)
    return out


def summarise(values, key):
    v = [r[key] for r in values if not math.isnan(r[key])]
    if not v:
        return math.nan, math.nan
    return statistics.fmean(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


def write_table(pts, path):
    rows = []
    for (sweep, algorithm, backend, x), values in sorted(pts.items()):
        row = {"sweep": sweep, "algorithm": algorithm, "backend": backend, "x": "%.6g" % x,
               "runs": len(values)}
        for key, _, _ in MEASURES:
            mean, sd = summarise(values, key)
            short = key.replace("_s", "").replace("_j", "")
            row[key] = "%.6g" % mean
            row[short + "_sd"] = "%.6g" % sd
        rows.append(row)
    fields = ["sweep", "algorithm", "backend", "x", "runs", "accuracy", "accuracy_sd",
              "round_time_s", "round_time_sd", "energy_j", "energy_sd"]
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)
    print("wrote %s" % path)


def draw(pts, out_dir):
    make_out_dir(out_dir)
    series = sorted({(a, b) for (_, a, b, _) in pts})
    # A sweep none of whose series has two points would be a column of empty panels: it is
    # left out, and named once beneath the panels.
    sweeps = [(sweep, xlabel) for sweep, xlabel in SWEEPS
              if any(len({x for (s, a, b, x) in pts if s == sweep and (a, b) == ab}) >= 2
                     for ab in series)]
    left_out = [sweep for sweep, _ in SWEEPS if sweep not in dict(sweeps)]
    if not sweeps:
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        no_data(ax, "no data: no series has two points of a sweep (%s)" % ", ".join(left_out))
        save_figure(fig, out_dir, "wireless_effects.png")
        return
    fig, axes = plt.subplots(len(MEASURES), len(sweeps),
                             figsize=(1.0 + 4.0 * len(sweeps), 9.5), squeeze=False)
    for col, (sweep, xlabel) in enumerate(sweeps):
        for row, (key, ylabel, (lo, hi)) in enumerate(MEASURES):
            ax = axes[row][col]
            drawn = 0
            panel = []  # every mean drawn in the panel (the axis' scale)
            for i, (algorithm, backend) in enumerate(series):
                xs = sorted(x for (s, a, b, x) in pts
                            if s == sweep and a == algorithm and b == backend)
                if len(xs) < 2:
                    continue
                stats = [summarise(pts[(sweep, algorithm, backend, x)], key) for x in xs]
                ys = [m for m, _ in stats]
                panel += [y for y in ys if y > 0 and not math.isnan(y)]
                style = dict(series_style(i), color="C%d" % i)  # one colour per series
                ax.plot(xs, ys, label="%s, %s" % (algorithm, backend), **style)
                error_bars(ax, xs, ys, [sd for _, sd in stats], key,
                           ecolor=style.get("color", "black"))
                drawn += 1
            if not drawn:
                no_data(ax, "no series with two points of this sweep")
                continue
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            if hi is not None:
                ax.set_ylim(lo, hi)
            elif panel and max(panel) >= 10 * min(panel):
                # times and energies over orders of magnitude (the channel beside Wi-Fi)
                ax.set_yscale("log")
            else:
                ax.set_ylim(bottom=lo)
            if sweep == "dropProbability":
                ax.set_xscale("symlog", linthresh=1e-3)
            if row == 0:
                legend(ax)
    fig.suptitle("fedavg: mean and standard deviation over the seeds")
    if left_out:
        fig.text(0.5, 0.005, "Not shown: no series has two points of the sweep of %s."
                 % " or ".join(left_out), ha="center", va="bottom", fontsize=8,
                 color="dimgrey")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
    else:
        fig.tight_layout()
    save_figure(fig, out_dir, "wireless_effects.png")


def checked_points(runs):
    """points(runs), at least one."""
    pts = points(runs)
    if not pts:
        raise AnalysisError("no run moves one parameter from the base")
    return pts


def main(argv):
    return table_figure_main(argv, "wireless_effects.py", __doc__, "wireless_effects.png", checked_points, write_table,
                             draw)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
