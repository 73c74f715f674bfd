#!/usr/bin/python3
"""What the radio environment does to the links and to federated learning: the drop
probability P_D (eq. 18 of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning
for Graph Discovery in D2D-Enabled Federated Learning", 2025), the messages lost and the
received power against the link's length under each --propagation preset, on the D2D
channel and over Wi-Fi, and fedavg's round time and final accuracy by preset (the manual's
"Choosing a propagation model"; the campaigns analysis/campaigns/propagation-*.toml).

Usage:
    /usr/bin/python3 analysis/propagation_effects.py RUN_DIR [RUN_DIR ...]
                     [--table FILE] [--figure DIR]

Each RUN_DIR is an --outDir of build/bin/d2d-exchange (a link run: run.json without a
rounds parameter, messages.csv, positions.csv) or of build/bin/fedavg (a learning run:
run.json with rounds, rounds.csv, energy.csv). run.json's parameters propagation (the
preset, or an ns-3 TypeId) and backend name the series. Every number is recomputed from the
traces:

  link length   the 3-D distance between a messages.csv row's src and dst at their
                positions.csv rows of time 0 (the server, node nDevices, has its own row);
                the devices must be at rest (speedMps 0, mobility constant), m
  bin           the lengths in bins of 25 m: [0, 25), [25, 50), ...; a row of the table per
                (backend, preset, link d2d or d2s, bin)
  rows          the messages.csv rows of the bin, those still in flight at the run's end
                (reason unfinished) left out
  model P_D     the channel's rows: the mean of p_drop (eq. 18 at the row's SINR); empty
                over Wi-Fi, whose PHY decides the losses
  message loss  the share of the rows not complete (both backends); a message of one
                fragment (the link campaigns send 1000 bytes) is lost exactly when its
                fragment is, so over the channel it estimates P_D itself
  RSS           the channel's rows: the mean over the rows of rss_w (the W_ij of eq. 18)
                in dBm, 10 log10(rss_w / 1 mW), rows with rss_w > 0; empty over Wi-Fi, dBm
  round time    and final accuracy of a learning run: wireless_effects.measure (the last
                round's simulated time over its rounds, s; rounds.csv's node -1 accuracy at
                the last round); a point per (backend, preset), the mean over its runs
                (seeds) and their standard deviation

--table FILE writes both parts in one CSV (part links or fedavg; the columns of the other
part empty): part,backend,propagation,link,distance_from_m,distance_to_m,rows,p_drop_model,
message_loss,rss_dbm,runs,round_time_s,round_time_sd_s,accuracy,accuracy_sd. --figure DIR
draws propagation_effects.png: against the link's length (D2D links, bins of at least 10
rows) the channel's model P_D, the channel's and Wi-Fi's message loss and the channel's
mean RSS, one colour and marker per preset in every panel; fedavg's mean round time and
final accuracy by preset with the seeds' standard deviation as error bars. A panel without
a series of two points is left out and named beneath the others. Bad input (a missing
folder or file, an unparsable run.json, a missing column, a row whose node has no
position, moving devices) gives a one-line error and exit code 2, and nothing is written.
"""
import csv
import math
import os
import sys

import wireless_effects  # noqa: E402  (the learning runs' measures, shared)
from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError  # noqa: E402
from d2dlearn_analysis.reader import line_of, read_columns, read_run_json  # noqa: E402
from d2dlearn_analysis.run_json import table_figure_main  # noqa: E402
from d2dlearn_analysis.traces import (axis_label, error_bars, legend, make_out_dir,  # noqa: E402
                                      no_data, plt, save_figure, series_style)

#: The presets in the order of --propagation's help (d2d-propagation-helper.cc); another
#: model (an ns-3 TypeId) follows them by name.
PRESETS = ["log-distance", "friis", "3gpp-umi", "3gpp-uma", "3gpp-rma", "3gpp-indoor-office",
           "3gpp-v2v-urban", "3gpp-v2v-highway", "d2d-3gpp"]
BIN_M = 25.0
#: A bin is drawn when it holds at least this many rows (the table has every bin).
MIN_ROWS = 10
FIELDS = ["part", "backend", "propagation", "link", "distance_from_m", "distance_to_m", "rows",
          "p_drop_model", "message_loss", "rss_dbm", "runs", "round_time_s",
          "round_time_sd_s", "accuracy", "accuracy_sd"]


def preset_order(name):
    return (PRESETS.index(name), "") if name in PRESETS else (len(PRESETS), name)


def parameters(run):
    params = read_run_json(run).get("parameters")
    if not isinstance(params, dict):
        raise AnalysisError("%s: no run.json parameters" % run)
    return params


def positions_at_zero(run):
    """{node: (x, y, z)} of positions.csv's rows at time 0, m."""
    path = os.path.join(run, "positions.csv")
    df = read_columns(path, ["sim_time_s", "x_m", "y_m", "z_m"], counts=["node"])
    df = df[df["sim_time_s"] == 0]
    if df.empty:
        raise AnalysisError("%s: no positions at time 0" % path)
    bad = df[["x_m", "y_m", "z_m"]].isna().any(axis=1)
    if bad.any():
        raise AnalysisError("%s: line %d: an empty cell in a position row"
                            % (path, line_of(df, bad)))
    return {int(n): (x, y, z) for n, x, y, z in
            zip(df["node"], df["x_m"], df["y_m"], df["z_m"])}


def link_rows(run, params):
    """[(link, bin, p_drop or None, lost, rss_dbm or None)] of a link run's messages.csv."""
    speed = float(params.get("speedMps", 0) or 0)
    mobility = str(params.get("mobility", "constant") or "constant")
    if speed > 0 or mobility != "constant":
        raise AnalysisError("%s: the devices move (speedMps %g, mobility %s): the link "
                            "lengths of time 0 do not hold" % (run, speed, mobility))
    channel = str(params.get("backend", "channel")) == "channel"
    pos = positions_at_zero(run)
    path = os.path.join(run, "messages.csv")
    numeric = ["p_drop", "rss_w"] if channel else []
    msgs = read_columns(path, numeric, text=["reason"], counts=["src", "dst", "complete"])
    msgs = msgs[msgs["reason"] != "unfinished"]
    server = int(params.get("nDevices", 0) or 0)
    out = []
    for k, row in enumerate(msgs.itertuples(index=False)):
        src, dst = int(row.src), int(row.dst)
        for node in (src, dst):
            if node not in pos:
                raise AnalysisError("%s: line %d: node %d has no position at time 0 in "
                                    "positions.csv" % (path, int(msgs.index[k]) + 2, node))
        d = math.dist(pos[src], pos[dst])
        p = rss = None
        if channel:
            p = None if math.isnan(row.p_drop) else float(row.p_drop)
            w = row.rss_w
            rss = 10 * math.log10(w / 1e-3) if w > 0 else None  # NaN > 0 is False
        out.append(("d2s" if server in (src, dst) else "d2d", int(d // BIN_M), p,
                    int(row.complete) != 1, rss))
    return out


def points(runs):
    """{"links": {(backend, preset, link, bin): [n, lost, [p_drop], [rss_dbm]]},
        "fedavg": {(backend, preset): [wireless_effects.measure values of each run]}}."""
    links, fedavg = {}, {}
    for run in runs:
        params = parameters(run)
        series = (str(params.get("backend", "channel")),
                  str(params.get("propagation", "log-distance")))
        if "rounds" in params:
            fedavg.setdefault(series, []).append(wireless_effects.measure(run)[1])
            continue
        for link, b, p, lost, rss in link_rows(run, params):
            acc = links.setdefault(series + (link, b), [0, 0, [], []])
            acc[0] += 1
            acc[1] += int(lost)
            if p is not None:
                acc[2].append(p)
            if rss is not None:
                acc[3].append(rss)
    if not links and not fedavg:
        raise AnalysisError("no run: give link runs (d2d-exchange) or fedavg runs")
    return {"links": links, "fedavg": fedavg}


def mean(values):
    return sum(values) / len(values) if values else math.nan


def fmt(v):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.6g" % v


def link_key(k):
    backend, preset, link, b = k
    return (backend != "channel", backend, preset_order(preset), link, b)


def fedavg_key(k):
    return (k[0] != "channel", k[0], preset_order(k[1]))


def write_table(pts, path):
    rows = []
    for key in sorted(pts["links"], key=link_key):
        backend, preset, link, b = key
        n, lost, ps, rss = pts["links"][key]
        channel = backend == "channel"
        rows.append({"part": "links", "backend": backend, "propagation": preset, "link": link,
                     "distance_from_m": fmt(b * BIN_M), "distance_to_m": fmt((b + 1) * BIN_M),
                     "rows": n, "p_drop_model": fmt(mean(ps)) if channel else "",
                     "message_loss": fmt(lost / n),
                     "rss_dbm": fmt(mean(rss)) if channel else ""})
    for key in sorted(pts["fedavg"], key=fedavg_key):
        values = pts["fedavg"][key]
        t, t_sd = wireless_effects.summarise(values, "round_time_s")
        a, a_sd = wireless_effects.summarise(values, "accuracy")
        rows.append({"part": "fedavg", "backend": key[0], "propagation": key[1],
                     "runs": len(values), "round_time_s": fmt(t), "round_time_sd_s": fmt(t_sd),
                     "accuracy": fmt(a), "accuracy_sd": fmt(a_sd)})
    with atomic_open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    print("wrote %s" % path)


#: The panels against the link's length: (backend, measure, title).
DISTANCE_PANELS = [("channel", "p_drop", "D2D channel: model P_D (eq. 18)"),
                   ("channel", "message_loss", "D2D channel: messages lost"),
                   ("wifi", "message_loss", "Wi-Fi (802.11a): messages lost"),
                   ("channel", "rss_dbm", "D2D channel: received power")]
FEDAVG_PANELS = [("round_time_s", "fedavg: mean round time"),
                 ("accuracy", "fedavg: final accuracy")]


def curve(pts, backend, preset, measure):
    """(bin centres, values) of a preset's D2D bins of at least MIN_ROWS rows."""
    xs, ys = [], []
    for (b_, p_, link, b), (n, lost, ps, rss) in sorted(pts["links"].items(),
                                                          key=lambda kv: kv[0][3]):
        if (b_, p_, link) != (backend, preset, "d2d") or n < MIN_ROWS:
            continue
        y = {"p_drop": mean(ps), "message_loss": lost / n, "rss_dbm": mean(rss)}[measure]
        if not math.isnan(y):
            xs.append((b + 0.5) * BIN_M)
            ys.append(y)
    return xs, ys


def draw(pts, out_dir):
    make_out_dir(out_dir)
    presets = sorted({k[1] for k in pts["links"]} | {k[1] for k in pts["fedavg"]},
                     key=preset_order)
    style = {p: dict(series_style(i), color="C%d" % (i % 10)) for i, p in enumerate(presets)}
    panels, left_out = [], []
    for backend, measure, title in DISTANCE_PANELS:
        lines = {}
        for preset in presets:
            xs, ys = curve(pts, backend, preset, measure)
            if len(xs) >= 2:
                lines[preset] = (xs, ys)
        if lines:
            panels.append(("distance", backend, measure, title, lines))
        else:
            left_out.append(title)
    backends = sorted({k[0] for k in pts["fedavg"]}, key=lambda b: (b != "channel", b))
    fed_presets = sorted({k[1] for k in pts["fedavg"]}, key=preset_order)
    for measure, title in FEDAVG_PANELS:
        if len(fed_presets) >= 2:
            panels.append(("fedavg", None, measure, title, None))
        else:
            left_out.append(title)
    if not panels:
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        no_data(ax, "no data: no series of two points (%s)" % "; ".join(left_out))
        save_figure(fig, out_dir, "propagation_effects.png")
        return
    cols = min(3, len(panels))
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(1.0 + 4.6 * cols, 0.6 + 4.0 * nrows),
                             squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_axis_off()
    handles = {}
    for ax, (kind, backend, measure, title, lines) in zip(axes.flat, panels):
        ax.set_title(title, fontsize=10)
        if kind == "distance":
            for preset, (xs, ys) in lines.items():
                handles[preset], = ax.plot(xs, ys, label=preset, **style[preset])
            ax.set_xlabel("link length (3-D, at t = 0) [m]")
            ax.set_xlim(left=0)
            if measure == "rss_dbm":
                ax.set_ylabel("mean received power rss_w [dBm]")
            else:
                ax.set_ylabel(axis_label(measure))
                ax.set_ylim(0, 1)
            continue
        for j, backend in enumerate(backends):
            off = (j - (len(backends) - 1) / 2) * 0.15
            xs, ys, sds = [], [], []
            for i, preset in enumerate(fed_presets):
                values = pts["fedavg"].get((backend, preset))
                if values:
                    m, sd = wireless_effects.summarise(values, measure)
                    xs.append(i + off)
                    ys.append(m)
                    sds.append(sd)
            colour = "C%d" % (j % 10)
            ax.plot(xs, ys, linestyle="none", marker="os^D"[j % 4], markersize=7,
                    color=colour, label="--backend=%s" % backend)
            error_bars(ax, xs, ys, sds, "final_accuracy" if measure == "accuracy"
                       else "round_time_s", ecolor=colour)
        ax.set_xticks(range(len(fed_presets)))
        ax.set_xticklabels(fed_presets, rotation=20, ha="right")
        ax.set_xlim(-0.5, len(fed_presets) - 0.5)
        ax.set_xlabel("propagation preset (--propagation)")
        if measure == "accuracy":
            ax.set_ylabel(axis_label("final_accuracy"))
            ax.set_ylim(0, 1)
        else:
            ax.set_ylabel(axis_label("round_time_s", "mean over the rounds"))
            ax.set_ylim(bottom=0)
        if len(backends) > 1:
            legend(ax)
    bottom = 0.04
    if handles:
        # Every preset, once for all the distance panels, below them (a legend inside one
        # panel would hold at most MAX_LEGEND_ENTRIES and hide data).
        ncol = min(len(handles), 5)
        rows = (len(handles) + ncol - 1) // ncol
        height = fig.get_size_inches()[1]
        bottom += (0.25 * rows + 0.15) / height
        fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=ncol,
                   fontsize=8, frameon=False, bbox_to_anchor=(0.5, 0.03))
    notes = ["D2D links, bins of %g m holding at least %d messages; fedavg: mean and "
             "standard deviation over the seeds." % (BIN_M, MIN_ROWS)]
    if left_out:
        notes.append("Not shown (no series of two points): %s." % "; ".join(left_out))
    fig.text(0.5, 0.005, " ".join(notes), ha="center", va="bottom", fontsize=8,
             color="dimgrey", wrap=True)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    save_figure(fig, out_dir, "propagation_effects.png")


def main(argv):
    return table_figure_main(argv, "propagation_effects.py", __doc__, "propagation_effects.png",
                             points, write_table, draw)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
