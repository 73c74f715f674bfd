"""What the analysis scripts share: reading d2dlearn CSV traces with one-line errors
(reader's functions, re-exported here so that a plot script imports one module), writing
figures atomically, and drawing them truthfully: axis labels with units
(COLUMNS, axis_label), bands clipped to a quantity's domain, a text instead of an empty
panel, legends of at most MAX_LEGEND_ENTRIES entries, series styles that keep coinciding
curves visible, integer ticks on axes of rounds (integer_ticks), empirical CDFs drawn up to
1 (draw_cdf), a constant shown as a constant (limits_from_zero), an axis over the data's
range within its quantity's domain (data_limits), and network totals that say what they
are summed over (TOTALS, ALL_DEVICES).

Imported by the plot scripts and sweep.py as d2dlearn_analysis.traces.
"""

import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError  # noqa: E402
from d2dlearn_analysis.reader import (  # noqa: E402,F401  (re-exported)
    ENERGY_COLUMNS, TraceError, check_counts, line_of, load_energy, read_columns, read_trace,
    to_numeric)



def note(text):
    print("note: " + text)


FORMATS = ("png", "pdf", "svg")


def add_format_argument(parser):
    """The --format option every analysis script takes."""
    parser.add_argument("--format", choices=FORMATS, default="png",
                        help="figure file format (default png)")


#: (file name, Figure) of every figure save_figure wrote in this process, in order: the tests
#: inspect the matplotlib objects (a closed Figure keeps its axes and artists).
DRAWN = []


def save_figure(fig, out_dir, name, fmt=None):
    """Save atomically: temporary file in out_dir, then os.replace. The format is fmt, else
    the name's extension."""
    fmt = fmt or os.path.splitext(name)[1].lstrip(".") or "png"
    final = os.path.join(out_dir, name)
    try:
        with atomic_open(final, "wb") as fh:
            # No creation date in PDF and SVG metadata: same figure, same bytes.
            meta = {"png": {}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}[fmt]
            fig.savefig(fh, format=fmt, dpi=120, bbox_inches="tight", metadata=meta)
    finally:
        plt.close(fig)
    DRAWN.append((name, fig))
    print("wrote %s" % final)
    return final


def make_out_dir(out_dir):
    """Create the output folder (and its parents) if it does not exist; AnalysisError if it
    cannot be."""
    if out_dir == "":
        raise AnalysisError("--out: empty; give a folder for the figures")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise AnalysisError("cannot create output folder %s: %s"
                            % (out_dir, exc.strerror or exc))
    return out_dir


def newest_mtime(paths):
    """The latest modification time (ns) of the files that exist, or None."""
    stamps = [os.stat(p).st_mtime_ns for p in paths if os.path.isfile(p)]
    return max(stamps) if stamps else None


def remove_stale_figures(out_dir, bases, traces, written):
    """Delete the figures a script makes (base names `bases`, in any of FORMATS) that it did
    not write now and that are older than the newest of `traces`: in a folder whose run was
    redone, a figure of the old traces that this run no longer draws would mislead.

    Returns the paths removed."""
    newest = newest_mtime(traces)
    if newest is None or not os.path.isdir(out_dir):
        return []
    keep = {os.path.abspath(p) for p in written}
    removed = []
    for base in bases:
        for fmt in FORMATS:
            path = os.path.join(out_dir, "%s.%s" % (base, fmt))
            if os.path.abspath(path) in keep or not os.path.isfile(path):
                continue
            if os.stat(path).st_mtime_ns < newest:
                os.unlink(path)
                removed.append(path)
                note("removed %s: older than the traces it would show" % path)
    return removed


# --------------------------------------------------------------------------
# Drawing: labels with units, domains, empty panels, legends, series styles
# --------------------------------------------------------------------------

OPEN = (None, None)
RATE = (0.0, 1.0)
NON_NEGATIVE = (0.0, None)

#: Known trace and summary columns (and a few derived quantities the scripts plot):
#: column -> (human label, unit ("" if none), domain (low, high), None = unbounded).
COLUMNS = {
    # rounds.csv metrics
    "accuracy": ("Test accuracy", "", RATE),
    "mean_model_accuracy": ("Test accuracy of the devices' mean model", "", RATE),
    "xstar_accuracy": ("X* accuracy", "", RATE),
    "loss": ("Test loss (cross-entropy)", "", NON_NEGATIVE),
    "mean_model_loss": ("Test loss of the devices' mean model", "", NON_NEGATIVE),
    "error": ("Error rate (nodes whose estimate is not \u03b8*)", "", RATE),
    "belief_true": ("Belief of the true parameter \u03b8*", "", RATE),
    "mse": ("Test MSE", "", NON_NEGATIVE),
    "consensus_distance": ("Consensus distance (mean squared)", "", NON_NEGATIVE),
    "bytes_sent": ("Bytes sent per round", "B", NON_NEGATIVE),
    "round_time_s": ("Round time (simulated)", "s", NON_NEGATIVE),
    "participants": ("Participants", "", NON_NEGATIVE),
    "stragglers": ("Stragglers", "", NON_NEGATIVE),
    "upload_retries": ("Upload retries", "", NON_NEGATIVE),
    # messages.csv, energy.csv and their derived quantities
    "bytes": ("Message size", "B", NON_NEGATIVE),
    "latency_s": ("Latency t_recv_s \u2212 t_send_s", "s", NON_NEGATIVE),
    "p_drop": ("Model drop probability P_D (eq. 18)", "", RATE),
    "p_drop_odds": ("P_D / (1 \u2212 P_D), P_D of eq. 18", "", NON_NEGATIVE),
    "loss_rate": ("Observed fragment loss rate", "", RATE),
    "retransmissions_per_fragment": ("Retransmissions per fragment", "", NON_NEGATIVE),
    "delivery_rate": ("Delivered fraction", "", RATE),
    "complete_rate": ("Complete fraction (1 \u2212 loss)", "", RATE),
    "message_loss": ("Message loss (1 \u2212 complete)", "", RATE),
    "radio_energy_j": ("Radio energy per device", "J", NON_NEGATIVE),
    "cdf": ("Empirical CDF", "", RATE),
    "energy_j": ("Energy", "J", NON_NEGATIVE),
    "remaining_j": ("Remaining battery", "J", NON_NEGATIVE),
    "sim_time_s": ("Simulated time", "s", NON_NEGATIVE),
    "wall_time_s": ("Wall-clock time", "s", NON_NEGATIVE),
    # indices and counts
    "round": ("Round", "", NON_NEGATIVE),
    "step": ("Step", "", NON_NEGATIVE),
    "node": ("Node", "", OPEN),
    "clients": ("Clients", "", NON_NEGATIVE),
    "aggregated": ("Times aggregated", "", NON_NEGATIVE),
    "attempts": ("CCP attempts", "", NON_NEGATIVE),
    # algorithm-specific
    "trust_w": ("Trust weight w_ij", "", RATE),
    "x_m": ("x", "m", OPEN),
    "y_m": ("y", "m", OPEN),
    "labels_per_device": ("Labels per device", "", NON_NEGATIVE),
    "accuracy_gain": ("Final accuracy, rl / none", "", NON_NEGATIVE),
    # run.json summary keys (what sweep.py collects and plots)
    "complete_delivery_rate": ("Complete delivery rate (models arrived whole)", "", RATE),
    "delivered_rate": ("Delivered rate (something arrived)", "", RATE),
    "messages": ("Messages", "", NON_NEGATIVE),
    "message_rows": ("Message rows", "", NON_NEGATIVE),
    "fragments": ("Fragments", "", NON_NEGATIVE),
    "retransmissions": ("Retransmissions", "", NON_NEGATIVE),
    "rounds_completed": ("Rounds completed", "", NON_NEGATIVE),
    "final_accuracy": ("Final test accuracy", "", RATE),
    "best_accuracy": ("Best test accuracy", "", RATE),
    "final_mse": ("Final test MSE", "", NON_NEGATIVE),
    "best_mse": ("Best test MSE", "", NON_NEGATIVE),
    "final_error": ("Final error rate", "", RATE),
    "best_error": ("Best error rate", "", RATE),
    "best_accuracy_round": ("Round of the best accuracy", "", NON_NEGATIVE),
    "best_mse_round": ("Round of the best MSE", "", NON_NEGATIVE),
    "best_error_round": ("Round of the best error rate", "", NON_NEGATIVE),
    "latency_n": ("Delivered rows", "", NON_NEGATIVE),
    "latency_mean_s": ("Mean latency", "s", NON_NEGATIVE),
    "latency_p95_s": ("95th percentile latency", "s", NON_NEGATIVE),
    "rows": ("Rows", "", NON_NEGATIVE),
    # scenario parameters that campaigns sweep (analysis/campaigns, README's Sweeps)
    "spectralEfficiency": ("Spectral efficiency r", "bit/s/Hz", NON_NEGATIVE),
    "noisePowerW": ("Noise power \u03c3\u00b2", "W", NON_NEGATIVE),
    "areaSideM": ("Area side", "m", NON_NEGATIVE),
    "nDevices": ("Devices", "", NON_NEGATIVE),
    "dropProbability": ("Fixed drop probability P_D", "", RATE),
    "d2sFraction": ("Share of messages to the server", "", RATE),
    "dataFraction": ("Share of the training data", "", RATE),
    "maliciousFraction": ("Share of malicious devices", "", RATE),
    "messageBytes": ("Message size", "B", NON_NEGATIVE),
    "rounds": ("Rounds", "", NON_NEGATIVE),
    "seed": ("Seed", "", OPEN),
    "RngRun": ("Network replication (RngRun)", "", OPEN),
    "algorithm": ("Algorithm", "", OPEN),
    "attack": ("Attack", "", OPEN),
}
#: Summary keys of run.json whose meaning differs from the trace column of the same name.
SUMMARY_COLUMNS = {
    "bytes_sent": ("Bytes sent (each message once)", "B", NON_NEGATIVE),
    "simulated_time_s": ("Simulated time at the end", "s", NON_NEGATIVE),
}
#: run.json's summary "results" (a scenario's headline results, AddResult in the
#: scenarios): key -> (label, unit, domain); sweep.py collects them as results.KEY.
RESULT_COLUMNS = {
    "finalAccuracy": ("Final test accuracy", "", RATE),
    "finalTestMse": ("Final test MSE", "", NON_NEGATIVE),
    "roundsCompleted": ("Rounds completed", "", NON_NEGATIVE),
    "bytesSent": ("Bytes sent", "B", NON_NEGATIVE),
    "consensusVotes": ("Consensus votes", "", NON_NEGATIVE),
    "ccpAttempts": ("CCP attempts", "", NON_NEGATIVE),
    "missedLocalUpdates": ("Missed local updates", "", NON_NEGATIVE),
    "gdMeanW1ToUniformBefore": ("Mean W1 to uniform, before discovery", "", NON_NEGATIVE),
    "gdMeanW1ToUniformAfter": ("Mean W1 to uniform, after discovery", "", NON_NEGATIVE),
    "gdMeanLinkPDrop": ("Mean P_D of the links found", "", RATE),
    "gdEdgesFound": ("Links found", "", NON_NEGATIVE),
    "gdPointsSent": ("Points sent", "", NON_NEGATIVE),
    "gdPointsReceived": ("Points received", "", NON_NEGATIVE),
    "gdPointsMoved": ("Points moved", "", NON_NEGATIVE),
    "gdDeliveredFraction": ("Delivered fraction of the points", "", RATE),
    "gdRlEnergyJ": ("Energy of the RL phase", "J", NON_NEGATIVE),
    "gdExchangeEnergyJ": ("Energy of the exchange phase", "J", NON_NEGATIVE),
    "gdDiscoveryEndS": ("End of discovery (simulated)", "s", NON_NEGATIVE),
    "gdPcaBytes": ("PCA exchange bytes", "B", NON_NEGATIVE),
    "gdPcaEndS": ("End of the PCA exchange (simulated)", "s", NON_NEGATIVE),
    "gdPcaD2sEnergyJ": ("Energy of the PCA exchange to the server", "J", NON_NEGATIVE),
    "gdPcaSketchesReceived": ("PCA sketches received", "", NON_NEGATIVE),
    "gdPcaSubspaceMissed": ("Devices that missed the PCA subspace", "", NON_NEGATIVE),
    "gdDevicesTakingPart": ("Devices taking part", "", NON_NEGATIVE),
    "gdGcnSystems": ("GCN training systems", "", NON_NEGATIVE),
    "gdGcnLossBefore": ("GCN loss before training", "", NON_NEGATIVE),
    "gdGcnLossAfter": ("GCN loss after training", "", NON_NEGATIVE),
    "gdGcnBestLinkAgreement": ("Share of receivers whose top score is the best link", "",
                               RATE),
    "gdLabellingEndS": ("End of labelling (simulated)", "s", NON_NEGATIVE),
    "gdLabellingMeanAccuracy": ("Mean labelling accuracy", "", RATE),
    "gdLabellingMeanUnlabelledAccuracy": ("Mean labelling accuracy, unlabelled points", "",
                                          RATE),
}
#: What a network total is summed over: run.json's summary `energy_j.*` and rounds.csv's
#: node -1 `energy_j` rows add up energy.csv's rows of every device (doc/reference/traces.md).
ALL_DEVICES = "summed over all devices"
#: Energy components (energy.csv's `component`; the parts of the totals energy_j.COMPONENT):
#: component -> what drew the energy ("total": every component).
ENERGY_COMPONENTS = {
    "radio_tx": "the D2D radio transmitting",
    "radio_rx": "the D2D radio receiving",
    "radio_idle": "the D2D radio idle (listening)",
    "radio_sleep": "the D2D radio asleep",
    "radio_transition": "the D2D radio's sleep transitions",
    "d2s_tx": "the D2S radio transmitting",
    "d2s_rx": "the D2S radio receiving",
    "d2s_idle": "the D2S radio idle (listening)",
    "d2s_sleep": "the D2S radio asleep",
    "d2s_transition": "the D2S radio's sleep transitions",
    "compute": "computing",
}
#: Columns whose dotted parts are network totals: base -> (label of the total (part
#: `total`), label of a part with "%s" for what it is of, what the total is summed over).
#: `energy_j.total` is "Energy, summed over all devices" [J], `energy_j.d2s_tx` "Energy of
#: the D2S radio transmitting, summed over all devices" [J].
TOTALS = {"energy_j": ("Energy", "Energy of %s", ALL_DEVICES)}
#: Dotted summary keys of one kind of message (run.json's summary kinds.K.*): the kind's
#: name follows the metric's label ("Mean latency, update messages").
KIND_PREFIX = "kinds."
#: Unit of a column not in COLUMNS, from its name's suffix (longest first).
SUFFIX_UNITS = [("_bytes", "B", NON_NEGATIVE), ("_s", "s", NON_NEGATIVE),
                ("_j", "J", NON_NEGATIVE), ("_w", "W", NON_NEGATIVE), ("_m", "m", OPEN)]
#: Every label axis_label made -> the domain of its quantity (what the tests check against).
LABEL_DOMAINS = {}
#: Columns whose values are whole numbers of rounds or steps: an axis of one gets integer
#: ticks (integer_ticks), never "2.5" rounds.
INTEGER_COLUMNS = {"round", "rounds", "step", "rounds_completed", "roundsCompleted",
                   "best_accuracy_round", "best_mse_round", "best_error_round"}
#: Every label axis_label made of an INTEGER_COLUMNS column (what the tests check).
INTEGER_LABELS = set()
NO_DATA_GID = "no-data"
#: gid of the line of an empirical CDF (draw_cdf): the tests check that it ends at 1.
CDF_GID = "ecdf"
MAX_LEGEND_ENTRIES = 8
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
DASHES = ["-", "--", "-.", ":"]


def column_info(column, summary=False):
    """(label, unit, domain) of a column (`summary`: a run.json summary key, SUMMARY_COLUMNS
    first, results.KEY from RESULT_COLUMNS); a network total (TOTALS: `energy_j.total`,
    `energy_j.COMPONENT`) says what it is of (ENERGY_COMPONENTS) and what it is summed over
    (ALL_DEVICES); a kind's metric (`kinds.K.latency_mean_s`) is the metric's label with
    "K messages" after a comma; any other dotted name is its base column's with the
    statistic after a comma, or its last part's with the rest in parentheses; an unknown
    column is its own label, with the unit of its suffix (_bytes, _s, _j, _w, _m)."""
    if summary and column in SUMMARY_COLUMNS:
        return SUMMARY_COLUMNS[column]
    if summary and column.startswith("results.") and column[8:] in RESULT_COLUMNS:
        return RESULT_COLUMNS[column[8:]]
    if column in COLUMNS:
        return COLUMNS[column]
    base, dot, detail = column.partition(".")
    if dot and base in TOTALS and "." not in detail:
        total, part, over = TOTALS[base]
        unit, dom = COLUMNS[base][1:]
        if detail == "total":
            return "%s, %s" % (total, over), unit, dom
        return "%s, %s" % (part % ENERGY_COMPONENTS.get(detail, detail), over), unit, dom
    prefix, _, last = column.rpartition(".")
    kind = prefix[len(KIND_PREFIX):]
    if prefix.startswith(KIND_PREFIX) and kind and "." not in kind and last in COLUMNS:
        label, unit, dom = COLUMNS[last]
        return "%s, %s messages" % (label, kind.replace("_", " ")), unit, dom
    if dot and base in COLUMNS:
        label, unit, dom = COLUMNS[base]
        return "%s, %s" % (label, detail), unit, dom
    prefix, dot, last = column.rpartition(".")
    if dot and last in COLUMNS:
        label, unit, dom = COLUMNS[last]
        return "%s (%s)" % (label, prefix), unit, dom
    for suffix, unit, dom in SUFFIX_UNITS:
        for part in (base, last):
            if part.endswith(suffix) and len(part) > len(suffix):
                return column, unit, dom
    return column, "", OPEN


def domain(column, summary=False):
    return column_info(column, summary)[2]


def axis_label(column, detail=None, unit=None, summary=False):
    """Axis label of a column: its human label (with `detail` after a comma) and its unit
    in brackets (`unit` overrides the column's, e.g. a scaled "MB"; `summary`: a run.json
    summary key)."""
    label, col_unit, dom = column_info(column, summary)
    if detail:
        label = "%s, %s" % (label, detail)
    unit = col_unit if unit is None else unit
    text = "%s [%s]" % (label, unit) if unit else label
    LABEL_DOMAINS[text] = dom
    if column.rsplit(".", 1)[-1] in INTEGER_COLUMNS:  # results.roundsCompleted too
        INTEGER_LABELS.add(text)
    return text


def integer_ticks(ax, axis="x"):
    """Ticks at whole numbers only on an axis of rounds or steps (no "0.5" round); an axis
    spanning less than one unit is widened to the whole numbers around it, where the
    locator would otherwise fall back to fractions."""
    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    if hi - lo < 1:
        lo, hi = math.floor(lo), max(math.ceil(hi), math.floor(lo) + 1)
        (ax.set_ylim if axis == "y" else ax.set_xlim)(lo, hi)
    getattr(ax, axis + "axis").set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))


def limits_from_zero(ax, values, axis="y", margin=0.1):
    """Limits from 0 to a margin above the largest |value| (below, for negative values):
    a count or a quantity >= 0 that may be constant is then drawn as a constant, not
    zoomed into a window 1.9..2.1 with offset ticks; [0, 1] when every value is 0."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    hi = float(values.max()) if len(values) else 0.0
    lo = float(values.min()) if len(values) else 0.0
    setter = ax.set_ylim if axis == "y" else ax.set_xlim
    if hi <= 0 and lo < 0:
        setter((1 + margin) * lo, 0)
    else:
        setter(0, (1 + margin) * hi if hi > 0 else 1.0)


def clip_to_domain(values, column, summary=False):
    """The values clipped to the column's domain (NaN stays NaN; `summary`: a run.json
    summary key)."""
    lo, hi = domain(column, summary)
    return np.clip(np.asarray(values, dtype=float), -math.inf if lo is None else lo,
                   math.inf if hi is None else hi)


def draw_band(ax, x, lo, hi, column, **kwargs):
    """A band lo..hi (confidence interval, sd, min..max) clipped to the column's domain."""
    return ax.fill_between(x, clip_to_domain(lo, column), clip_to_domain(hi, column),
                           **kwargs)


def error_bars(ax, x, y, err, column, **kwargs):
    """Symmetric error bars y +- err drawn clipped to the column's domain."""
    y = np.asarray(y, dtype=float)
    err = np.nan_to_num(np.asarray(err, dtype=float))
    lo, hi = clip_to_domain(y - err, column), clip_to_domain(y + err, column)
    kwargs.setdefault("fmt", "none")
    kwargs.setdefault("ecolor", "black")
    kwargs.setdefault("capsize", 3)
    return ax.errorbar(x, y, yerr=[np.maximum(y - lo, 0), np.maximum(hi - y, 0)], **kwargs)


def constant_from_zero(ax, axis="y"):
    """If everything drawn on ax is one value c != 0 along the axis (a spread of at most
    1e-6 of its size: ax.dataLim), limits from 0 past c (limits_from_zero), so that a
    constant is drawn as a constant and not zoomed into a window around it."""
    lo, hi = ax.dataLim.intervaly if axis == "y" else ax.dataLim.intervalx
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return
    size = max(abs(lo), abs(hi))
    if size > 0 and hi - lo <= 1e-6 * size:
        limits_from_zero(ax, [lo, hi], axis)


def set_domain_limits(ax, column, axis="y", summary=False):
    """Axis limits within the column's domain: [0, 1] for a rate, from 0 for an energy,
    a time or a byte count (the other end automatic; `summary`: a run.json summary key)."""
    lo, hi = domain(column, summary)
    setter = ax.set_ylim if axis == "y" else ax.set_xlim
    if lo is not None and hi is not None:
        setter(lo, hi)
    elif lo is not None:
        setter(bottom=lo) if axis == "y" else setter(left=lo)


#: The margin data_limits leaves on either side of the data: this fraction of its range.
DATA_MARGIN = 0.05


def data_limits(ax, column, axis="y", summary=False, margin=DATA_MARGIN):
    """Limits over what is drawn along the axis (ax.dataLim: lines, bands, error bars,
    dots) with `margin` times its range on either side, cut at the column's domain
    (`summary`: a run.json summary key): a rate between 0.95 and 0.99 is drawn over
    0.948..0.992, not over the whole of [0, 1], and no limit is ever outside the domain
    (a rate up to 1 stops at 1). Data all one value (a spread of at most 1e-6 of its size)
    is drawn from 0 past it (limits_from_zero), so that a constant is seen as one; nothing
    drawn: the domain's limits (set_domain_limits)."""
    lo, hi = ax.dataLim.intervaly if axis == "y" else ax.dataLim.intervalx
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo > hi:
        set_domain_limits(ax, column, axis, summary)
        return
    size = max(abs(lo), abs(hi))
    if hi - lo <= 1e-6 * size or size == 0:
        limits_from_zero(ax, [lo, hi], axis)
        lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    else:
        pad = margin * (hi - lo)
        lo, hi = lo - pad, hi + pad
    dom_lo, dom_hi = domain(column, summary)
    if dom_lo is not None:
        lo, hi = max(lo, dom_lo), max(hi, dom_lo)
    if dom_hi is not None:
        lo, hi = min(lo, dom_hi), min(hi, dom_hi)
    if hi <= lo:  # data all at a bound (a constant 0 of a domain [0, 0]: not a real case)
        hi = lo + 1.0
    (ax.set_ylim if axis == "y" else ax.set_xlim)(lo, hi)


def draw_cdf(ax, values, **kwargs):
    """The empirical CDF of values on ax: a step from 0 at the smallest value up to 1 at the
    largest, continued at 1 a little to the right (so that the curve is seen to reach 1,
    not to stop on the last step below it), drawn over the axes' frame (an axis of [0, 1]
    puts y = 1 on the top spine). The line has gid CDF_GID. Returns the Line2D, or None
    if there is no finite value."""
    x = np.sort(np.asarray(values, dtype=float))
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return None
    span = x[-1] - x[0]
    pad = 0.05 * span if span > 0 else (0.05 * abs(x[-1]) or 1.0)
    y = np.arange(1, n + 1) / n
    xs = np.concatenate(([x[0]], x, [x[-1] + pad]))
    ys = np.concatenate(([0.0], y, [1.0]))
    kwargs.setdefault("clip_on", False)
    kwargs.setdefault("zorder", 3)
    line, = ax.plot(xs, ys, drawstyle="steps-post", gid=CDF_GID, **kwargs)
    return line


def no_data(ax, text):
    """Say in the panel that it has no data (instead of a degenerate line or axis)."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=9,
            color="dimgrey", gid=NO_DATA_GID, wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])


def legend(ax, handles=None, labels=None, outside=False, **kwargs):
    """A legend where it hides no data (loc="best", or right of the axes with `outside`)
    with at most MAX_LEGEND_ENTRIES entries: beyond that the last says how many more there
    are (group or facet the series instead where that can be done)."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    handles, labels = list(handles), list(labels)
    if len(handles) > MAX_LEGEND_ENTRIES:
        more = len(handles) - MAX_LEGEND_ENTRIES + 1
        handles = handles[:MAX_LEGEND_ENTRIES - 1] + [
            matplotlib.lines.Line2D([], [], linestyle="none")]
        labels = labels[:MAX_LEGEND_ENTRIES - 1] + ["... and %d more" % more]
    kwargs.setdefault("fontsize", 8)
    if outside:
        kwargs.setdefault("loc", "upper left")
        kwargs.setdefault("bbox_to_anchor", (1.02, 1.0))
        kwargs.setdefault("borderaxespad", 0.0)
    else:
        kwargs.setdefault("loc", "best")
        kwargs.setdefault("framealpha", 0.8)
    return ax.legend(handles, labels, **kwargs)


def series_style(i):
    """Line keywords of the i-th series: a marker and a dash pattern of their own, hollow
    markers every other series, and thinner lines and smaller markers for later series
    (drawn on top), so that coinciding series stay visible."""
    k = i % len(DASHES)
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": DASHES[k],
            "linewidth": 2.4 - 0.5 * k, "markersize": 7.0 - 1.3 * k,
            "markerfacecolor": "none" if i % 2 else None}


def text_colour_on(rgba):
    """Black or white, whichever reads on a cell of colour rgba (relative luminance)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
               for c in matplotlib.colors.to_rgb(rgba))
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"
