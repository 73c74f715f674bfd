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
points; a panel without any says so; a column or row without any line is left out, and
named beneath the panels). Latency, energy and the message size are on log axes
(the backends differ by orders of magnitude); the losses from 0 to a little above the
largest (at most 1), the accuracy on [0, 1].
Bad input gives backend_tables.py's one-line error on stderr and exit code 2, and nothing
is written.
"""

import math
import sys
import textwrap

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator, NullFormatter  # noqa: E402

import backend_tables  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.traces import (add_format_argument, axis_label,  # noqa: E402
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


def panel_lines(lines, key, label, measure, axis):
    """[(name, scenario, backend, [(x, y)])] of one panel: the series with two or more x
    values among their base point and the points that vary `label` alone."""
    out = []
    for name, scenario, backend, pts in lines:
        sel = sorted((p[key], p[measure]) for p in pts
                     if p["varies"] in ("base", label)
                     and p[measure] is not None and not math.isnan(p[measure])
                     and (axis != "log" or p[measure] > 0))
        if len({x for x, _ in sel}) >= 2:
            out.append((name, scenario, backend, sel))
    return out


def figure(points):
    """The figure: the columns (varied parameters) and rows (measures) that have a line in
    some panel; those without are left out and named once beneath the panels (all of
    them: one panel that says so)."""
    lines = series(points)
    style = styles(lines)
    panels = {(col, row): panel_lines(lines, key, label, measure, axis)
              for col, (key, label, _) in enumerate(SWEEPS)
              for row, (measure, _, axis) in enumerate(MEASURES)}
    cols = [c for c in range(len(SWEEPS)) if any(panels[(c, r)] for r in range(len(MEASURES)))]
    rows = [r for r in range(len(MEASURES)) if any(panels[(c, r)] for c in cols)]
    left_out = []
    if len(cols) < len(SWEEPS):
        left_out.append("nothing varies the %s alone" % " or the ".join(
            SWEEPS[c][1] for c in range(len(SWEEPS)) if c not in cols))
    if cols and len(rows) < len(MEASURES):
        left_out.append("no line of the %s" % ", the ".join(
            MEASURES[r][0].replace("_", " ") for r in range(len(MEASURES)) if r not in rows))
    if not cols:
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        no_data(ax, "no data: %s (a line needs two points of a scenario and backend)"
                % left_out[0])
        ax.set_title("Channel against Wi-Fi", fontsize=10)
        return fig
    fig, axes = plt.subplots(len(rows), len(cols),
                             figsize=(4.2 * max(len(cols), 2), 2.9 * len(rows) + 0.4),
                             squeeze=False)
    for j, col in enumerate(cols):
        key, label, xcol = SWEEPS[col]
        for i, row in enumerate(rows):
            measure, ycol, axis = MEASURES[row]
            ax = axes[i][j]
            top = 0.0
            for name, scenario, backend, sel in panels[(col, row)]:
                ax.plot([x for x, _ in sel], [y for _, y in sel], label=name,
                        clip_on=False, **style[(scenario, backend)])
                top = max([top] + [y for _, y in sel])
            if not ax.lines:
                no_data(ax, "no line of the %s:\nnothing varies the %s alone"
                        % (measure.replace("_", " "), label))
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
    height = fig.get_figheight()
    bottom = 0.0
    if left_out:  # beneath the panels, a line of about 11 points each
        text = textwrap.fill("Not shown: " + "; ".join(left_out) + ".", 45 * len(cols))
        fig.text(0.5, 0.005, text, ha="center", va="bottom", fontsize=8, color="dimgrey")
        bottom = (0.16 * (text.count("\n") + 1) + 0.05) / height
    # above the panels: the legend, two entries a line
    top = 1.0 - (0.17 * math.ceil(len(handles) / 2) + 0.1) / height
    fig.tight_layout(rect=(0, bottom, 1, top))
    if handles:  # above the panels, where it hides no data
        fig.legend(handles, labels, loc="upper center", ncol=2, fontsize=8,
                   bbox_to_anchor=(0.5, 1.0))
    return fig


def main(argv=None):
    parser = ArgumentParser(prog=PROG, description=__doc__)
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
    except AnalysisError as exc:
        return report(PROG, exc)
    save_figure(fig, args.out, "channel_vs_wifi.%s" % args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
