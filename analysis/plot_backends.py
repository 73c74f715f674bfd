#!/usr/bin/python3
"""The messaging backends side by side in one figure: the D2D channel (`--backend=channel`,
eq. 18 of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph
Discovery in D2D-Enabled Federated Learning", 2025) against ns-3's 802.11
(`--backend=wifi`), over runs of d2d-exchange and fedavg.

Usage:
    /usr/bin/python3 analysis/plot_backends.py RUN_DIR [RUN_DIR ...] --out PLOT_DIR
                                               [--format png|pdf|svg]

The runs and the numbers are those of `analysis/backend_tables.py channel-vs-wifi` (its
points, each the mean over the runs of a scenario, backend, area side, devices and message
size; every number recomputed from messages.csv, energy.csv and rounds.csv). Writes
PLOT_DIR/channel_vs_wifi.png (in --format): a column per varied parameter (area side,
devices, message size), a row per measure (fragment loss, message loss, mean latency of
the complete messages, radio energy per device, final test accuracy), a line per scenario
and backend (a colour and a marker per backend, a line style per scenario) through the
scenario's base point and the points that vary that parameter alone (a line needs two
points; a panel without any says so). Latency, energy and the message size are on log axes
(the backends differ by orders of magnitude); the losses from 0 to a little above the
largest (at most 1), the accuracy on [0, 1].
Bad input gives backend_tables.py's one-line error on stderr and exit code 2, and nothing
is written.
"""

import argparse
import math
import os
import sys

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator, NullFormatter  # noqa: E402

import backend_tables  # noqa: E402
from d2dlearn_analysis.traces import (TraceError, add_format_argument, axis_label,  # noqa: E402
                      make_out_dir, no_data, save_figure, set_domain_limits)

PROG = "plot_backends.py"
#: (column of a point, trace_io column of its label, axis: "log", "rate" (0 to the data's
#: largest value, at most 1: the losses are small) or "domain" (the quantity's domain))
MEASURES = [("fragment_loss", "loss_rate", "rate"),
            ("message_loss", "message_loss", "rate"),
            ("latency", "latency_s", "log"),
            ("energy", "radio_energy_j", "log"),
            ("accuracy", "final_accuracy", "domain")]
#: (key of a point, label of the table's varies column, trace_io column of the x axis)
SWEEPS = [("area", "area side", "areaSideM"), ("devices", "devices", "nDevices"),
          ("size", "message size", "messageBytes")]
#: a colour and a marker per backend (channel first, then the Wi-Fi variants in name
#: order), a line style per scenario
COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
LINESTYLES = ["-", "--", ":", "-."]


def series(points):
    """[(label, scenario, backend, [points])] per scenario and backend, in the table's
    order."""
    out = {}
    for p in points:
        key = (p["scenario"], p["backend"])
        out.setdefault(key, []).append(p)
    return [("%s, %s" % key, key[0], key[1], pts) for key, pts in out.items()]


def styles(lines):
    """{(scenario, backend): line keywords}: the backend's colour and marker (hollow every
    other backend, so that coinciding lines stay visible), the scenario's line style."""
    backends = sorted({b for _, _, b, _ in lines}, key=lambda b: (b != "channel", b))
    scenarios = sorted({s for _, s, _, _ in lines})
    out = {}
    for _, scenario, backend, _ in lines:
        k = backends.index(backend)
        j = scenarios.index(scenario)
        out[(scenario, backend)] = {
            "color": COLOURS[k % len(COLOURS)], "marker": MARKERS[k % len(MARKERS)],
            "markerfacecolor": "none" if k % 2 else COLOURS[k % len(COLOURS)],
            "linestyle": LINESTYLES[j % len(LINESTYLES)], "linewidth": 2.0 - 0.4 * (k % 2),
            "markersize": 7.0 - 1.5 * (k % 2)}
    return out


def figure(points):
    lines = series(points)
    style = styles(lines)
    fig, axes = plt.subplots(len(MEASURES), len(SWEEPS),
                             figsize=(4.2 * len(SWEEPS), 2.9 * len(MEASURES)),
                             squeeze=False)
    for col, (key, label, xcol) in enumerate(SWEEPS):
        for row, (measure, ycol, axis) in enumerate(MEASURES):
            ax = axes[row][col]
            top = 0.0
            for name, scenario, backend, pts in lines:
                sel = sorted((p[key], p[measure]) for p in pts
                             if p["varies"] in ("base", label)
                             and p[measure] is not None and not math.isnan(p[measure])
                             and (axis != "log" or p[measure] > 0))
                if len({x for x, _ in sel}) < 2:
                    continue
                ax.plot([x for x, _ in sel], [y for _, y in sel], label=name,
                        clip_on=False, **style[(scenario, backend)])
                top = max([top] + [y for _, y in sel])
            if not ax.lines:
                no_data(ax, "no line: nothing varies\nthe %s alone" % label)
                continue
            ax.set_xlabel(axis_label(xcol))
            if key == "devices":
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if key == "size":  # log axis, ticks at the sizes run
                ax.set_xscale("log")
                sizes = sorted({x for ln in ax.lines for x in ln.get_xdata()})
                ax.set_xticks(sizes)
                ax.set_xticklabels(["%d" % x for x in sizes])
                ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_ylabel(axis_label(ycol))
            if axis == "log":
                ax.set_yscale("log")
            elif axis == "rate":
                ax.set_ylim(0, min(1.0, 1.1 * top) if top > 0 else 1.0)
            else:
                set_domain_limits(ax, ycol)
            ax.grid(True, alpha=0.3)
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    if handles:  # above the panels, where it hides no data
        fig.legend(handles, labels, loc="upper center", ncol=2, fontsize=8,
                   bbox_to_anchor=(0.5, 1.0))
    return fig


def main(argv=None):
    # the docstring's first paragraph, whole: --help never stops mid-sentence
    parser = argparse.ArgumentParser(prog=PROG, description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+",
                        help="run folders (each a program's --outDir)")
    parser.add_argument("--out", metavar="PLOT_DIR", required=True,
                        help="folder for the figures (made if missing)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    try:
        pts = backend_tables.points([backend_tables.load_run(d) for d in args.runs])
        fig = figure(pts)
        make_out_dir(args.out)
    except (backend_tables.TableError, TraceError) as exc:
        print("%s: error: %s" % (PROG, exc), file=sys.stderr)
        return 2
    save_figure(fig, args.out, "channel_vs_wifi.%s" % args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
