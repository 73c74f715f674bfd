#!/usr/bin/python3
"""Draw a picture of a run's network: the devices' trajectories and, at one instant, the
devices and the D2D links that exist then.

Usage:
    /usr/bin/python3 analysis/plot_network.py RUN_DIR [--time T] [--rangeM R]
        [--out PLOT_DIR] [--format png|pdf|svg]

Reads RUN_DIR/positions.csv (sim_time_s,node,x_m,y_m,z_m: the positions the run sampled,
every --positionEvery, or at time 0 only) and RUN_DIR/run.json (nDevices, areaSideM, rangeM,
backend) and writes PLOT_DIR/network.<format> (default RUN_DIR/plots/network.png):

  - the square of side areaSideM (metres on both axes, equal scales);
  - each device's trajectory over the whole trace (when the trace has several samples);
  - the devices at the sample at time T (default: the first sample; a T between two samples
    takes the latest sample at or before it, and the title says which), the server (node N,
    when the trace has it) as a square;
  - the D2D links at that sample: every pair of devices closer than the range, the range
    being --rangeM, else run.json's rangeM (the channel's --rangeM: a link exists exactly
    when the devices are closer). A range of 0 on the channel means no distance limit: every
    pair is a link (P_D from eq. 18 then says how good). Over Wi-Fi (--backend=wifi) who hears
    whom is the PHY's: give --rangeM to draw the pairs within a distance.

The number of links drawn is printed ("links at T s: K within R m"). A missing
positions.csv or run.json, or a T outside the trace's times, is refused with a one-line error
on stderr and exit code 2. Above 2,000 devices the links are not drawn (a note says so) and
at most 500 trajectories are.

Only Debian's python3 with numpy and matplotlib is needed (and the d2dlearn_analysis package beside it).
"""

import bisect
import os
import sys

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.reader import line_of, read_columns, read_run_json  # noqa: E402
from d2dlearn_analysis.traces import (  # noqa: E402
    add_format_argument,
    make_out_dir,
    save_figure,
)

MAX_LINK_DEVICES = 2000
MAX_TRAJECTORIES = 500


def read_positions(path):
    """{time s: {node: (x, y)}} in time order, from positions.csv."""
    if not os.path.isfile(path):
        raise AnalysisError("no positions.csv in %s (a run with --rssFile has no positions)"
                         % os.path.dirname(path))
    df = read_columns(path, ["sim_time_s", "x_m", "y_m"], counts=["node"])
    if df.empty:
        raise AnalysisError("%s: no positions (header only)" % path)
    bad = df[["sim_time_s", "x_m", "y_m"]].isna().any(axis=1)
    if bad.any():
        raise AnalysisError("%s: line %d: an empty cell in a position row" % (path, line_of(df, bad)))
    samples = {}
    for t, x, y, node in zip(df["sim_time_s"].tolist(), df["x_m"].tolist(), df["y_m"].tolist(),
                             df["node"].astype(int).tolist()):
        samples.setdefault(t, {})[node] = (x, y)
    return dict(sorted(samples.items()))


def read_run(run_dir):
    """run.json's parameters (reader.read_run_json)."""
    params = read_run_json(run_dir).get("parameters", {})
    return params if isinstance(params, dict) else {}


def links_at(xy, range_m):
    """Index pairs (i < j) closer than range_m (None: every pair)."""
    n = len(xy)
    if n < 2:
        return np.empty((0, 2), dtype=int)
    i, j = np.triu_indices(n, k=1)
    if range_m is None:
        return np.stack([i, j], axis=1)
    d = np.hypot(xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1])
    keep = d < range_m
    return np.stack([i[keep], j[keep]], axis=1)


def plot(run_dir, samples, params, when, range_arg, out_dir, fmt):
    times = list(samples)
    if when is None:
        when = times[0]
    if not times[0] <= when <= times[-1]:
        raise AnalysisError("--time %g s is outside the trace (positions.csv: %g to %g s)"
                         % (when, times[0], times[-1]))
    at = times[bisect.bisect_right(times, when + 1e-12) - 1]
    n = params.get("nDevices")
    nodes = sorted(samples[at])
    if not isinstance(n, int):
        n = len(nodes)
    devices = [k for k in nodes if k < n]
    server = [k for k in nodes if k >= n]
    side = params.get("areaSideM")
    xy = np.array([samples[at][k] for k in devices], dtype=float).reshape(-1, 2)

    backend = params.get("backend", "channel")
    if range_arg is not None:
        range_m, how = range_arg, "within --rangeM=%g m" % range_arg
    elif isinstance(params.get("rangeM"), (int, float)) and params["rangeM"] > 0 \
            and backend == "channel":
        range_m, how = float(params["rangeM"]), "within rangeM = %g m" % params["rangeM"]
    elif backend == "channel":
        range_m, how = None, "every pair (rangeM = 0: no distance limit)"
    else:
        range_m, how = -1.0, "none drawn (Wi-Fi: give --rangeM)"

    fig, ax = plt.subplots(figsize=(7, 7))
    if isinstance(side, (int, float)):
        ax.plot([0, side, side, 0, 0], [0, 0, side, side, 0], color="0.3", lw=1.2,
                label="area (%g m square)" % side)
    if len(times) > 1:
        paths = []
        for k in devices[:MAX_TRAJECTORIES]:
            pts = [samples[t][k] for t in times if k in samples[t]]
            paths.append(pts)
        ax.add_collection(LineCollection(paths, colors="tab:blue", linewidths=0.8, alpha=0.35,
                                         label="trajectories (%g to %g s)"
                                         % (times[0], times[-1])))
    links = np.empty((0, 2), dtype=int)
    if range_m is not None and range_m < 0:
        pass
    elif len(devices) > MAX_LINK_DEVICES:
        how = "not drawn above %d devices" % MAX_LINK_DEVICES
    else:
        links = links_at(xy, range_m)
        if len(links):
            ax.add_collection(LineCollection([(xy[i], xy[j]) for i, j in links],
                                             colors="tab:orange", linewidths=0.9,
                                             label="D2D links at %g s (%d)" % (at, len(links))))
    ax.scatter(xy[:, 0], xy[:, 1], s=22, color="tab:blue", zorder=3,
               label="devices at %g s (%d)" % (at, len(devices)))
    if len(devices) <= 30:
        for k, (x, y) in zip(devices, xy):
            ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    for k in server:
        x, y = samples[at][k]
        ax.scatter([x], [y], marker="s", s=60, color="tab:red", zorder=4,
                   label="server (node %d)" % k)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_aspect("equal")
    ax.autoscale_view()
    if isinstance(side, (int, float)):
        pad = 0.03 * side
        ax.set_xlim(-pad, side + pad)
        ax.set_ylim(-pad, side + pad)
    title = "Network at t = %g s" % at
    if at != when:
        title += " (the sample at or before --time %g s)" % when
    ax.set_title(title + "\nD2D links: " + how, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    print("links at %g s: %d %s" % (at, len(links), how))
    return save_figure(fig, out_dir, "network." + fmt, fmt)


def main(argv=None):
    parser = ArgumentParser(
        description="Draw a run's devices, trajectories and D2D links (positions.csv).")
    parser.add_argument("run_dir", metavar="RUN_DIR", help="folder holding positions.csv")
    parser.add_argument("--time", type=float, default=None, metavar="T",
                        help="instant of the devices and links drawn, s (default: the first "
                             "sample)")
    parser.add_argument("--rangeM", type=float, default=None, metavar="R",
                        help="draw the pairs closer than R m (default: run.json's rangeM)")
    parser.add_argument("--out", metavar="PLOT_DIR", default=None,
                        help="output folder (default RUN_DIR/plots)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    out_dir = args.out if args.out is not None else os.path.join(args.run_dir, "plots")
    try:
        if args.rangeM is not None and not args.rangeM > 0:
            raise AnalysisError("--rangeM %g is not accepted (a distance > 0, m)" % args.rangeM)
        params = read_run(args.run_dir)
        samples = read_positions(os.path.join(args.run_dir, "positions.csv"))
        # Checked before the output folder exists: a refused --time writes nothing.
        times = list(samples)
        if args.time is not None and not times[0] <= args.time <= times[-1]:
            raise AnalysisError("--time %g s is outside the trace (positions.csv: %g to %g s)"
                             % (args.time, times[0], times[-1]))
        make_out_dir(out_dir)
        plot(args.run_dir, samples, params, args.time, args.rangeM, out_dir,
             args.format or "png")
    except AnalysisError as exc:
        return report("plot_network.py", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
