#!/usr/bin/python3
"""Plot d2dlearn trace files (messages.csv, energy.csv) into figures.

Usage:
    /usr/bin/python3 analysis/plot_traces.py TRACE_DIR [--out PLOT_DIR] [--format png|pdf|svg]

Reads TRACE_DIR/messages.csv and TRACE_DIR/energy.csv (and, if present and
needed, TRACE_DIR/links.csv and TRACE_DIR/run.json) and writes into PLOT_DIR
(default TRACE_DIR/plots), in --format (default png):

  latency_cdf          empirical CDF of t_recv_s - t_send_s of delivered rows,
                       one curve per message kind (column `kind`), one panel per
                       delivery mode when the trace has several (column `mode`)
  link_loss            unreliable rows (all rows of traces without a mode
                       column): observed per-link fragment loss rate against the
                       model drop probability P_D (eq. 18), with the y = x line
  link_retransmissions reliable unicast rows: per link, retransmissions per
                       fragment against P_D / (1 - P_D), the mean number of
                       retransmissions of a fragment under selective-repeat ARQ
                       without a retry limit (y = x), and, if run.json gives
                       ns3::D2dChannel::MaxRetransmissions m, the limited mean
                       sum_{t=1..m} P_D^t; the post-ARQ loss of a reliable link is
                       0 and says nothing about the link
  Over the Wi-Fi backend (run.json parameters.backend wifi) messages.csv has no P_D per
  link (p_drop is written 0; frames are lost in the 802.11 PHY and MAC, whose own retries
  are not traced), and its retransmissions are whole messages resent after an ACK timeout:
  link_loss and link_retransmissions are then one panel that says so (their totals are
  printed), not every link at P_D = 0.
  energy_per_node      stacked bar of total energy per node by component

A short text summary is printed to stdout.  A missing trace file gives a
one-line error on stderr and exit code 2; an empty trace (header only) makes
the corresponding plots be skipped with a note.  Figures are written atomically
(temporary file in the output folder, then os.replace); figures of these names
older than the traces and not written now (a rerun folder) are removed.

Only Debian's python3 with its pandas and matplotlib packages is needed.
"""

import os
import sys
import textwrap

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.reader import read_run_json  # noqa: E402
from d2dlearn_analysis.traces import (  # noqa: E402
    add_format_argument,
    axis_label,
    draw_cdf,
    legend,
    no_data,
    load_energy,
    make_out_dir,
    note,
    read_trace,
    remove_stale_figures,
    save_figure,
    series_style,
    set_domain_limits,
    to_numeric,
)

MESSAGE_COLUMNS = [
    "msg_id", "kind", "src", "dst", "bytes", "t_send_s", "t_recv_s",
    "fragments", "fragments_lost", "retransmissions", "delivered",
]
LINK_COLUMNS = ["rx", "tx", "p_drop"]
COMPONENT_ORDER = ["radio_tx", "radio_rx", "radio_idle", "compute", "d2s_tx", "d2s_rx", "d2s_idle"]
MODE_ORDER = ["unreliable", "reliable", "all"]
MAX_BAR_NODES = 60
FIGURES = ["latency_cdf", "link_loss", "link_retransmissions", "energy_per_node"]
#: Figure file format (--format).
FORMAT = "png"

_TRUE = {"1", "true", "t", "yes", "y", "1.0"}
_FALSE = {"0", "false", "f", "no", "n", "0.0", "", "nan"}


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def parse_bool(series, path):
    def conv(value):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise AnalysisError("%s: cannot read %r as delivered flag" % (path, value))
    return series.map(conv).astype(bool)


def load_messages(path):
    df = read_trace(path, MESSAGE_COLUMNS)
    if df.empty:
        return df
    to_numeric(df, ["src", "dst", "bytes", "t_send_s", "t_recv_s", "fragments",
                    "fragments_lost", "retransmissions"], path)
    if "p_drop" in df.columns:
        to_numeric(df, ["p_drop"], path)
    df["delivered"] = parse_bool(df["delivered"], path)
    # complete: every fragment arrived. Traces written before the column existed: derive it.
    if "complete" in df.columns:
        df["complete"] = parse_bool(df["complete"], path)
    else:
        df["complete"] = df["delivered"] & (df["fragments_lost"] == 0)
    if "mode" in df.columns:
        df["mode"] = df["mode"].fillna("").astype(str).str.strip()
        df.loc[df["mode"] == "", "mode"] = "unspecified"
    else:
        df["mode"] = "all"
    return df


def mode_order(modes):
    modes = list(dict.fromkeys(modes))
    known = [m for m in MODE_ORDER if m in modes]
    return known + sorted(m for m in modes if m not in MODE_ORDER)


def node_label(value):
    try:
        f = float(value)
        if f.is_integer():
            return str(int(f))
    except (TypeError, ValueError):
        pass
    return str(value)


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def latency_frame(msgs):
    ok = msgs[msgs["delivered"] & msgs["t_recv_s"].notna() & msgs["t_send_s"].notna()]
    return ok.assign(latency_s=ok["t_recv_s"] - ok["t_send_s"])


def summarize_messages(msgs, path):
    print("%s: %d rows" % (path, len(msgs)))
    if msgs.empty:
        return
    n = len(msgs)
    # Loss is 1 - complete: an unreliable message with a missing fragment is delivered
    # (something arrived) but not complete (a model with a hole is no model).
    c = int(msgs["complete"].sum())
    d = int(msgs["delivered"].sum())
    print("complete fraction: %.6f (%d/%d); delivered (at least one fragment): %.6f (%d/%d)"
          % (c / n, c, n, d / n, d, n))
    lat = latency_frame(msgs)
    for mode in mode_order(msgs["mode"]):
        sub = msgs[msgs["mode"] == mode]
        cm = int(sub["complete"].sum())
        dm = int(sub["delivered"].sum())
        lm = lat.loc[lat["mode"] == mode, "latency_s"]
        line = "mode %s: rows %d, complete fraction %.6f (%d/%d), delivered %d" % (
            mode, len(sub), cm / len(sub), cm, len(sub), dm)
        if len(lm):
            line += ", mean latency %.6g s (n=%d)" % (lm.mean(), len(lm))
        else:
            line += ", mean latency n/a"
        print(line)
    no_time = int((msgs["delivered"] & msgs["t_recv_s"].isna()).sum())
    if no_time:
        note("%d delivered row(s) have no t_recv_s; left out of latency" % no_time)


def figure(base):
    return "%s.%s" % (base, FORMAT)


def plot_latency_cdf(msgs, out_dir):
    if msgs.empty:
        note(figure("latency_cdf") + " skipped: messages.csv has no rows")
        return
    lat = latency_frame(msgs)
    if lat.empty:
        note(figure("latency_cdf") + " skipped: no delivered rows with t_recv_s")
        return
    lat = lat.assign(kind=lat["kind"].fillna("").astype(str).str.strip().replace("", "(none)"))
    kinds = sorted(lat["kind"].unique())
    modes = mode_order(lat["mode"])
    fig, axes = plt.subplots(1, len(modes), figsize=(5.6 * len(modes), 4.4), squeeze=False,
                             sharey=True)
    for ax, mode in zip(axes[0], modes):
        sub = lat[lat["mode"] == mode]
        for i, kind in enumerate(kinds):
            x = sub.loc[sub["kind"] == kind, "latency_s"].to_numpy(dtype=float)
            if len(x) == 0:
                continue
            style = dict(series_style(i), marker=None)
            draw_cdf(ax, x, color="C%d" % (i % 10), label="%s (n=%d)" % (kind, len(x)),
                     **style)
        ax.set_xlabel(axis_label("latency_s"))
        ax.set_ylabel(axis_label("cdf"))
        set_domain_limits(ax, "cdf")
        ax.set_title("mode %s" % mode if len(modes) > 1 or mode != "all" else "all rows",
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        legend(ax, title="message kind", title_fontsize=8)
    fig.suptitle("Message latency per message kind (delivered rows)", fontsize=11)
    fig.tight_layout()
    return save_figure(fig, out_dir, figure("latency_cdf"))


def link_p_drop(msgs, trace_dir):
    """Return (Series of P_D indexed by (src, dst), source description) or (None, reason)."""
    if "p_drop" in msgs.columns and msgs["p_drop"].notna().any():
        sub = msgs[msgs["p_drop"].notna()]
        # Fragment-weighted mean per link (P_D may vary if the RSS is dynamic).
        w = sub["fragments"].clip(lower=0).fillna(0)
        w = w.where(w > 0, 1.0)
        num = (sub["p_drop"] * w).groupby([sub["src"], sub["dst"]]).sum()
        den = w.groupby([sub["src"], sub["dst"]]).sum()
        return num / den, "messages.csv column p_drop"
    links_path = os.path.join(trace_dir, "links.csv")
    if not os.path.isfile(links_path):
        return None, "no p_drop column in messages.csv and no links.csv"
    links = read_trace(links_path, LINK_COLUMNS)
    if links.empty:
        return None, "links.csv has no rows"
    to_numeric(links, ["rx", "tx", "p_drop"], links_path)
    links = links[links["p_drop"].notna()]
    if links.empty:
        return None, "links.csv has no p_drop values"
    # Row (rx, tx) is the link tx -> rx, i.e. (src, dst) = (tx, rx).
    pd_series = links.groupby([links["tx"], links["rx"]])["p_drop"].mean()
    pd_series.index.names = ["src", "dst"]
    return pd_series, "links.csv"


def plot_link_loss(msgs, trace_dir, out_dir):
    if msgs.empty:
        note(figure("link_loss") + " skipped: messages.csv has no rows")
        return
    if run_backend(trace_dir) == "wifi":
        rows = msgs[msgs["fragments"].notna() & (msgs["fragments"] > 0)]
        rows = rows[rows["mode"] != "reliable"]
        if rows.empty:
            note(figure("link_loss") + " skipped: no unreliable rows")
            return None
        lost, frags = rows["fragments_lost"].sum(), rows["fragments"].sum()
        print("link loss (Wi-Fi, unreliable rows): %d link(s), %d fragments, observed loss "
              "%.6f, no P_D" % (len(rows.groupby(["src", "dst"])), int(frags), lost / frags))
        return nothing_to_show(out_dir, "link_loss", "Per-link fragment loss against P_D",
                               WIFI_NO_PD + ": the observed loss has nothing to be "
                               "compared with")
    p_drop, source = link_p_drop(msgs, trace_dir)
    if p_drop is None:
        note(figure("link_loss") + " skipped: no P_D available (%s)" % source)
        return
    if (msgs["mode"] == "all").all():
        rows, which = msgs, "all rows"  # traces without a mode column
    else:
        rows, which = msgs[msgs["mode"] == "unreliable"], "unreliable rows"
        if rows.empty:
            note(figure("link_loss") + " skipped: no unreliable rows (reliable links lose nothing "
                 "after ARQ: see link_retransmissions)")
            return None
    rows = rows[rows["fragments"].notna() & (rows["fragments"] > 0)]
    if "reason" in rows.columns:
        # Only channel losses compare with P_D: half-duplex collisions and dead devices
        # lose whole messages for other reasons.
        reason = rows["reason"].fillna("").astype(str)
        rows = rows[reason.isin(["", "loss", "retry_limit"])]
    if rows.empty:
        note(figure("link_loss") + " skipped: no rows with fragments > 0")
        return None
    grp = rows.groupby([rows["src"], rows["dst"]])
    per_link = pd.DataFrame({
        "fragments": grp["fragments"].sum(),
        "lost": grp["fragments_lost"].sum(),
    })
    per_link.index.names = ["src", "dst"]
    per_link["loss"] = per_link["lost"] / per_link["fragments"]
    per_link = per_link.join(p_drop.rename("p_drop"), how="left")
    no_pd = int(per_link["p_drop"].isna().sum())
    per_link = per_link[per_link["p_drop"].notna()]
    if per_link.empty:
        note(figure("link_loss") + " skipped: no link with both fragments and P_D")
        return
    frag_total = per_link["fragments"].sum()
    overall = per_link["lost"].sum() / frag_total
    mean_pd = (per_link["p_drop"] * per_link["fragments"]).sum() / frag_total
    print("link loss (%s, P_D from %s): %d link(s), %d fragments, observed loss %.6f, "
          "fragment-weighted mean P_D %.6f, max |loss - P_D| %.6f" % (
              which, source, len(per_link), int(frag_total), overall, mean_pd,
              (per_link["loss"] - per_link["p_drop"]).abs().max()))
    if no_pd:
        note("%d link(s) without P_D left out of %s" % (no_pd, figure("link_loss")))

    fmax = per_link["fragments"].max()
    sizes = 15 + 185 * np.sqrt(per_link["fragments"] / fmax)
    fig, ax = plt.subplots(figsize=(5.6, 5.2))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="y = x")
    ax.scatter(per_link["p_drop"], per_link["loss"], s=sizes, alpha=0.6,
               edgecolors="black", linewidths=0.5, clip_on=False,
               label="link src->dst (size ~ sqrt(fragments))")
    if len(per_link) <= 12:
        for (src, dst), r in per_link.iterrows():
            ax.annotate("%s->%s" % (node_label(src), node_label(dst)),
                        (r["p_drop"], r["loss"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
    set_domain_limits(ax, "p_drop", "x")
    set_domain_limits(ax, "loss_rate", "y")
    ax.set_xlabel(axis_label("p_drop"))
    ax.set_ylabel(axis_label("loss_rate"))
    ax.set_title("Per-link fragment loss (%s, %d fragments)" % (which, int(frag_total)))
    ax.grid(True, alpha=0.3)
    legend(ax)
    return save_figure(fig, out_dir, figure("link_loss"))


def max_retransmissions(trace_dir):
    """ns3::D2dChannel::MaxRetransmissions of run.json's parameters, or None."""
    try:
        value = read_run_json(trace_dir)["parameters"]["ns3::D2dChannel::MaxRetransmissions"]
        return int(value) if int(value) == value and value >= 0 else None
    except (AnalysisError, ValueError, KeyError, TypeError):
        return None


def run_backend(trace_dir):
    """parameters.backend of run.json ("channel", "wifi"), or None (no run.json, or none
    given)."""
    try:
        value = read_run_json(trace_dir)["parameters"]["backend"]
        return str(value).strip().lower() or None
    except (AnalysisError, KeyError, TypeError):
        return None


#: Why the link figures have nothing to show over the Wi-Fi backend (run.json backend wifi):
#: its messages.csv writes p_drop 0 (there is no eq. 18 loss model; frames are lost in the
#: 802.11 PHY and MAC, whose own retries are not traced), so every link would stand at
#: P_D = 0.
WIFI_NO_PD = ("Wi-Fi backend: no P_D per link (messages.csv writes p_drop 0; frames are "
              "lost in ns-3's 802.11 PHY and MAC, whose retries are not traced)")


def nothing_to_show(out_dir, base, title, why):
    """A figure of one panel that says why it has nothing to show (instead of every link
    at x = 0)."""
    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    no_data(ax, textwrap.fill("no data: " + why, 60))
    ax.set_title(title, fontsize=10)
    note("%s: %s" % (figure(base), why))
    return save_figure(fig, out_dir, figure(base))


def link_retransmissions(msgs):
    """Per link (src, dst) of reliable unicast rows whose outcome is the channel's (reason
    empty or retry_limit): fragments, retransmissions, their ratio, mean P_D and
    x = P_D / (1 - P_D). A message with one row is a unicast: a broadcast's retransmissions
    serve its worst receiver, so they are left out. Returns a DataFrame (maybe empty)."""
    rel = msgs[msgs["mode"] == "reliable"]
    if rel.empty or "p_drop" not in rel.columns:
        return pd.DataFrame()
    rows_per_msg = msgs.groupby("msg_id")["msg_id"].transform("size")
    rel = rel[(rows_per_msg.loc[rel.index] == 1) & rel["fragments"].notna()
              & (rel["fragments"] > 0) & rel["p_drop"].notna()]
    if "reason" in rel.columns:
        rel = rel[rel["reason"].fillna("").astype(str).isin(["", "retry_limit"])]
    if rel.empty:
        return pd.DataFrame()
    grp = rel.groupby([rel["src"], rel["dst"]])
    w = rel["fragments"]
    per_link = pd.DataFrame({
        "fragments": grp["fragments"].sum(),
        "retransmissions": grp["retransmissions"].sum(),
        "p_drop": (rel["p_drop"] * w).groupby([rel["src"], rel["dst"]]).sum()
        / grp["fragments"].sum(),
    })
    per_link["per_fragment"] = per_link["retransmissions"] / per_link["fragments"]
    per_link["x"] = per_link["p_drop"] / (1.0 - per_link["p_drop"])
    return per_link[per_link["p_drop"] < 1.0]


def plot_link_retransmissions(msgs, trace_dir, out_dir):
    name = figure("link_retransmissions")
    if msgs.empty or not (msgs["mode"] == "reliable").any():
        return None
    per_link = link_retransmissions(msgs)
    if per_link.empty:
        note("%s skipped: no reliable unicast rows with P_D < 1 (broadcasts left out)" % name)
        return None
    frags = per_link["fragments"].sum()
    title = "Per-link retransmissions against P_D"
    if run_backend(trace_dir) == "wifi":
        print("link retransmissions (Wi-Fi, reliable unicast rows): %d link(s), %d fragments, "
              "whole-message retransmissions per fragment %.6f, no P_D"
              % (len(per_link), int(frags), per_link["retransmissions"].sum() / frags))
        return nothing_to_show(out_dir, "link_retransmissions", title, WIFI_NO_PD
                               + "; its retransmissions are whole messages resent after an "
                               "ACK timeout, not the ARQ of a fragment")

    print("link retransmissions (reliable unicast rows): %d link(s), %d fragments, "
          "retransmissions per fragment %.6f, fragment-weighted mean P_D/(1-P_D) %.6f"
          % (len(per_link), int(frags), per_link["retransmissions"].sum() / frags,
             (per_link["x"] * per_link["fragments"]).sum() / frags))
    m = max_retransmissions(trace_dir)
    fmax = per_link["fragments"].max()
    sizes = 15 + 185 * np.sqrt(per_link["fragments"] / fmax)
    fig, ax = plt.subplots(figsize=(5.6, 5.2))
    xmax = float(per_link["x"].max())
    ytop = float(max(per_link["per_fragment"].max(), min(xmax, 1.0))) * 1.1 or 1.0
    wide = xmax > 20  # links close to P_D = 1: a log x axis (symlog, so that 0 shows)
    if wide:
        grid = np.concatenate(([0.0], np.logspace(-3, np.log10(xmax * 1.5), 300)))
    else:
        grid = np.linspace(0, max(xmax, ytop) * 1.05, 200)
    ax.plot(grid, grid, color="grey", linestyle="--", linewidth=1,
            label="P_D/(1-P_D): ARQ without a retry limit")
    if m is not None:
        p = grid / (1 + grid)
        ax.plot(grid, sum(p ** t for t in range(1, m + 1)), color="black", linewidth=1,
                label="sum_{t=1..%d} P_D^t: MaxRetransmissions %d" % (m, m))
    ax.scatter(per_link["x"], per_link["per_fragment"], s=sizes, alpha=0.6,
               edgecolors="black", linewidths=0.5,
               label="link src->dst (size ~ sqrt(fragments))")
    if len(per_link) <= 12:
        for (src, dst), r in per_link.iterrows():
            ax.annotate("%s->%s" % (node_label(src), node_label(dst)),
                        (r["x"], r["per_fragment"]), fontsize=7, xytext=(3, 3),
                        textcoords="offset points")
    if wide:
        ax.set_xscale("symlog", linthresh=1e-3)
        decades = np.log10(grid[-1]) + 3
        ax.xaxis.set_major_locator(matplotlib.ticker.SymmetricalLogLocator(
            linthresh=1e-3, base=10 ** max(1, int(np.ceil(decades / 8)))))
        ax.set_xlim(0, grid[-1])
    else:
        ax.set_xlim(0, grid[-1])
    ax.set_ylim(0, ytop)
    ax.set_xlabel(axis_label("p_drop_odds"))
    ax.set_ylabel(axis_label("retransmissions_per_fragment", "observed"))
    ax.set_title("Per-link retransmissions (reliable unicasts, %d fragments)" % int(frags))
    ax.grid(True, alpha=0.3)
    legend(ax)
    return save_figure(fig, out_dir, name)


def energy_table(energy):
    table = energy.pivot_table(index="node", columns="component", values="energy_j",
                               aggfunc="sum", fill_value=0.0)
    comps = [c for c in COMPONENT_ORDER if c in table.columns]
    comps += sorted(c for c in table.columns if c not in COMPONENT_ORDER)
    return table[comps].sort_index()


def summarize_energy(energy, path):
    print("%s: %d rows" % (path, len(energy)))
    if energy.empty:
        return
    unknown = sorted(set(energy["component"]) - set(COMPONENT_ORDER))
    if unknown:
        note("unexpected energy component(s): %s" % ",".join(unknown))
    totals = energy.groupby("component")["energy_j"].sum()
    order = [c for c in COMPONENT_ORDER if c in totals.index]
    order += sorted(c for c in totals.index if c not in COMPONENT_ORDER)
    for comp in order:
        print("total energy %s: %.6g J" % (comp, totals[comp]))
    print("total energy all: %.6g J over %d node(s)" % (totals.sum(), energy["node"].nunique()))


def plot_energy(energy, out_dir):
    if energy.empty:
        note(figure("energy_per_node") + " skipped: energy.csv has no rows")
        return
    table = energy_table(energy)
    n_nodes = len(table)
    title = "Total energy per node by component"
    if n_nodes > MAX_BAR_NODES:
        table = table.iloc[:MAX_BAR_NODES]
        title += "\n(first %d of %d nodes shown)" % (MAX_BAR_NODES, n_nodes)
        note(figure("energy_per_node") + " shows the first %d of %d nodes" % (MAX_BAR_NODES, n_nodes))
    width = min(16.0, max(6.4, 0.25 * len(table) + 2.5))
    fig, ax = plt.subplots(figsize=(width, 4.6))
    x = np.arange(len(table))
    bottom = np.zeros(len(table))
    for comp in table.columns:
        vals = table[comp].to_numpy(dtype=float)
        ax.bar(x, vals, bottom=bottom, label=comp, width=0.8)
        bottom += vals
    ax.set_xticks(x)
    ax.set_xticklabels([node_label(v) for v in table.index],
                       rotation=90 if len(table) > 20 else 0, fontsize=7 if len(table) > 20 else 9)
    ax.set_xlabel(axis_label("node"))
    ax.set_ylabel(axis_label("energy_j", "total per node"))
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    legend(ax, outside=True, title="component", title_fontsize=8)
    return save_figure(fig, out_dir, figure("energy_per_node"))


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv=None):
    parser = ArgumentParser(
        description="Plot d2dlearn traces (messages.csv, energy.csv) into figures.")
    parser.add_argument("trace_dir", metavar="TRACE_DIR",
                        help="folder holding messages.csv and energy.csv")
    parser.add_argument("--out", metavar="PLOT_DIR", default=None,
                        help="output folder for the figures (default TRACE_DIR/plots)")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    global FORMAT
    FORMAT = args.format

    trace_dir = args.trace_dir
    out_dir = args.out if args.out is not None else os.path.join(trace_dir, "plots")
    msg_path = os.path.join(trace_dir, "messages.csv")
    energy_path = os.path.join(trace_dir, "energy.csv")

    try:
        # Check both required files before producing any output.
        for path in (msg_path, energy_path):
            if not os.path.isfile(path):
                raise AnalysisError("missing trace file: %s" % path)
        msgs = load_messages(msg_path)
        energy = load_energy(energy_path)
        make_out_dir(out_dir)

        summarize_messages(msgs, msg_path)
        summarize_energy(energy, energy_path)
        written = [plot_latency_cdf(msgs, out_dir), plot_link_loss(msgs, trace_dir, out_dir),
                   plot_link_retransmissions(msgs, trace_dir, out_dir),
                   plot_energy(energy, out_dir)]
        remove_stale_figures(out_dir, FIGURES, [msg_path, energy_path],
                             [w for w in written if w])
    except AnalysisError as exc:
        return report("plot_traces.py", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
