#!/usr/bin/python3
"""Round time against the number of devices in one figure: fedavg and a fan-in protocol
(cmfl's BrainTorrent) over the D2D channel's shared band, its unlimited band and ns-3's
802.11.

Usage:
    /usr/bin/python3 analysis/plot_round_times.py RUN_DIR [RUN_DIR ...] --out PLOT_DIR
                                                  [--format png|pdf|svg]

The runs and the numbers are those of `analysis/round_time_tables.py round-time-vs-devices`
(its points, each the mean over the runs of a protocol, setting and number of devices of
their mean round_time_s of rounds.csv). Writes PLOT_DIR/round_time_vs_devices.png (in
--format): a panel per protocol (fedavg's first), the devices on a log x axis (ticks at the
numbers run: 10 to 100 evenly spread), the simulated round time in s on the y axis, a line
per setting (one colour and marker per setting, the same in every panel) through its
points, and a band from the least to the largest run of each point (the spread over the
seeds). The y axis is logarithmic where a panel's points span a factor of 10 or more (the
unlimited band beside a shared one; a round time that grows linearly with the devices then
bends to a slope of one decade per decade), else linear from 0. A setting needs two numbers
of devices for a line; a panel without any line says so.
Bad input gives round_time_tables.py's one-line error on stderr and exit code 2, and nothing
is written.
"""

import math
import sys

import round_time_tables  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.traces import (add_format_argument, axis_label, draw_band,  # noqa: E402
                      legend, make_out_dir, no_data, plt, save_figure, series_style,
                      set_domain_limits)

PROG = "plot_round_times.py"


def figure(points):
    protocols = sorted({p["protocol"] for p in points}, key=round_time_tables.protocol_order)
    settings = sorted({p["setting"] for p in points}, key=round_time_tables.setting_order)
    fig, axes = plt.subplots(1, len(protocols), figsize=(5.6 * len(protocols), 4.4),
                             squeeze=False)
    for col, protocol in enumerate(protocols):
        ax = axes[0][col]
        panel = []
        for i, setting in enumerate(settings):
            pts = sorted((p for p in points
                          if p["protocol"] == protocol and p["setting"] == setting
                          and not math.isnan(p["round_time"])),
                         key=lambda p: p["devices"])
            if len({p["devices"] for p in pts}) < 2:
                continue
            xs = [p["devices"] for p in pts]
            style = dict(series_style(i), color="C%d" % i)
            ax.plot(xs, [p["round_time"] for p in pts], label=setting, clip_on=False,
                    **style)
            draw_band(ax, xs, [p["min"] for p in pts], [p["max"] for p in pts],
                      "round_time_s", color=style["color"], alpha=0.2, linewidth=0)
            panel += [p["round_time"] for p in pts if p["round_time"] > 0]
        ax.set_title(protocol, fontsize=10)
        if not ax.lines:
            no_data(ax, "no setting with two numbers of devices")
            continue
        ax.set_xlabel(axis_label("nDevices"))
        ax.set_ylabel(axis_label("round_time_s"))
        ax.set_xscale("log")  # 10 to 100 devices: the numbers run evenly spread
        ax.set_xticks(sorted({x for ln in ax.lines for x in ln.get_xdata()}))
        ax.set_xticklabels(["%d" % x for x in ax.get_xticks()])
        ax.xaxis.set_minor_formatter(NullFormatter())
        if panel and max(panel) >= 10 * min(panel):
            ax.set_yscale("log")
        else:
            set_domain_limits(ax, "round_time_s")
        ax.grid(True, alpha=0.3)
        legend(ax)
    fig.suptitle("Round time against devices (mean over the seeds; band: least to largest)",
                 fontsize=10)
    fig.tight_layout()
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
        pts = round_time_tables.points(
            [round_time_tables.load_run(d) for d in args.runs])
        fig = figure(pts)
        make_out_dir(args.out)
    except AnalysisError as exc:
        return report(PROG, exc)
    save_figure(fig, args.out, "round_time_vs_devices.%s" % args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
