"""`sweep.py plot`: a summary metric against a swept parameter (the mean over the
replicates with a band) or against another summary metric (one marker per point of the
swept grid, error bars in both directions), drawn with units and in each metric's domain.

Titles and axis labels name each metric as traces.py's table does (COLUMNS,
SUMMARY_COLUMNS, RESULT_COLUMNS, TOTALS: "Final test accuracy", "Energy, summed over all
devices [J]"), never by its results.csv column (final_accuracy, energy_j.total). A metric's
axis spans what is drawn (means, bands, error bars, dots) with a margin of
traces.DATA_MARGIN of its range on either side, cut at the metric's domain (no limit
outside it: a rate's axis stays within [0, 1] but is not stretched to it).

The intervals (--band ci), per metric (doc/howto/sweep.md has the table):

    rate with counts in run.json, one run   wilson95     complete_delivery_rate,
                                                         delivered_rate (of message_rows),
                                                         kinds.K.complete_rate (of
                                                         kinds.K.rows)
    bounded: [0, 1] or >= 0, n >= 2         t95_cut      rates, accuracies, shares,
                                                         energies, times, sizes, counts
    unbounded, n >= 2                       t95          a column of unknown domain
                                                         (traces.domain: None, None)

t95_cut is Student's t interval of the mean cut at the metric's domain (the true mean is
in the domain, so the cut removes only impossible values). --band bootstrap draws the
percentile bootstrap of the mean instead (bootstrap95, also in the domain), which holds the
mean less often than its 95 % says (stats.BOOTSTRAP_COVERAGE: of two runs at most their
range).

The printed table names each row's interval (column `interval`); its limits, like the
figure's, are inside the metric's domain (traces.domain with summary=True).

A summary value that is not finite (NaN, Infinity in run.json) is drawn as missing, and a
note on stderr says how many of the metric's values were not and in which runs; if no
finite value is left to draw (nor a value at all: null), or the campaign has no finished
run, a one-line error (exit status 2) and no figure.
"""

import math
import os
import statistics

from d2dlearn_analysis import stats as analysis_stats

from d2dlearn_analysis.sweep.campaign import Campaign, FOLDER_SAFE
from d2dlearn_analysis.sweep.collect import (
    collect, csv_text, no_finished_run, not_finite, where_not_finite)
from d2dlearn_analysis.sweep.common import SweepError, note
from d2dlearn_analysis.sweep.state import output_dir


def t975(df):
    """t_{0.975, df}, from the one implementation (stats.py: SciPy's Student t)."""
    return analysis_stats.t975(df)


#: --band: what the band around the mean shows (title text, CSV column prefix); the
#: interval of ci depends on the metric (band_limits, INTERVAL_TITLES).
BANDS = {"ci": ("95 % CI", "ci95"), "bootstrap": ("nominal 95 % interval", "boot95"),
         "sd": ("\u00b1 1 sd", "sd"),
         "minmax": ("min to max", "min_max"), "none": (None, None)}
#: The interval names of the printed tables (column `interval`), as the figures' titles
#: name them.
INTERVAL_TITLES = {"t95": "Student t", "t95_cut": "Student t, cut at the domain",
                   "bootstrap95": "percentile bootstrap",
                   "wilson95": "Wilson, from the counts", "sd": "\u00b1 1 sd",
                   "sd_cut": "\u00b1 1 sd", "minmax": "min to max"}


def metric_domain(metric):
    """The domain (low, high; None = unbounded) of a summary metric or parameter
    (d2dlearn_analysis.traces: COLUMNS, SUMMARY_COLUMNS, RESULT_COLUMNS)."""
    from d2dlearn_analysis import traces as trace_io
    return trace_io.domain(metric, summary=True) if metric else (None, None)


def trials_column(metric):
    """The summary column that counts the trials of a rate metric, if run.json has one:
    complete_delivery_rate and delivered_rate are shares of message_rows, a kind's
    complete_rate (kinds.K.complete_rate) a share of its rows (kinds.K.rows); None for
    any other metric (its counts are not known)."""
    if metric in ("complete_delivery_rate", "delivered_rate"):
        return "message_rows"
    prefix, dot, last = (metric or "").rpartition(".")
    if dot and prefix.startswith("kinds.") and last == "complete_rate":
        return prefix + ".rows"
    return None


def counts_of(row, metric):
    """(successes, trials) of a run's rate metric where run.json gives its trials, else
    None (also for a rate outside [0, 1], which no count makes)."""
    column = trials_column(metric)
    trials = row.get(column) if column else None
    value = row.get(metric)
    if (isinstance(trials, bool) or not isinstance(trials, (int, float))
            or not math.isfinite(trials) or trials <= 0
            or isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value)):
        return None
    successes = int(round(value * trials))
    return (successes, int(trials)) if 0 <= successes <= trials else None


def band_limits(values, band, metric=None, counts=None):
    """(n, mean, low, high, interval) of the replicates `values` of `metric` for --band:
    ci, the 95 % interval of the mean in the metric's domain (stats.mean_interval:
    t95_cut for a bounded metric, t95 for an unbounded one; wilson95 for one run whose
    counts are known, `counts` one (successes, trials) or None per value); bootstrap, the
    percentile bootstrap of the mean (bootstrap95, short of its level: see
    stats.BOOTSTRAP_COVERAGE); sd, mean +- 1
    standard deviation, cut at the metric's domain ("sd_cut" if it was); minmax, the
    extremes. low = high = NaN and interval "" where the band is undefined (n < 2 and no
    counts, or band none). Every low and high is in the metric's domain."""
    domain = metric_domain(metric)
    n = len(values)
    mean = sum(values) / n
    nan = float("nan")
    if band == "ci":
        return analysis_stats.mean_interval(values, domain, counts)
    if band == "bootstrap" and n > 1:
        low, high = analysis_stats.bootstrap_interval(values)
        return n, mean, low, high, analysis_stats.INTERVALS["bootstrap"]
    if band == "sd" and n > 1:
        sd = statistics.stdev(values)
        lo, hi = domain
        low = mean - sd if lo is None else max(lo, mean - sd)
        high = mean + sd if hi is None else min(hi, mean + sd)
        cut = (low, high) != (mean - sd, mean + sd)
        return n, mean, low, high, "sd_cut" if cut else "sd"
    if band == "minmax" and n > 1:
        return n, mean, min(values), max(values), "minmax"
    return n, mean, nan, nan, ""


def scale_axis(ax, metric, axis, log):
    """A log scale, or limits that show the summary metric truthfully: over the range of
    what is drawn (means, bands, error bars, dots) with a margin, cut at the metric's
    domain (traces.data_limits: a rate of 0.95..0.99 is not squeezed into [0, 1], and no
    limit leaves the domain; a constant from 0), and whole numbers on an axis of rounds."""
    from d2dlearn_analysis import traces as trace_io
    if log:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
        return
    trace_io.data_limits(ax, metric, axis=axis, summary=True)
    label = ax.get_ylabel() if axis == "y" else ax.get_xlabel()
    if label in trace_io.INTEGER_LABELS:
        trace_io.integer_ticks(ax, axis)


def metric_name(metric, lower=False):
    """A summary metric's or parameter's name as the figures say it: its label in
    traces.py's table (COLUMNS, SUMMARY_COLUMNS, RESULT_COLUMNS, TOTALS), without the unit
    (the axis label has it), never the results.csv column name; `lower`: its first letter
    in lower case where the second is too (in a title's "against ...": "energy, summed
    over all devices", but "P_D", "X*" kept)."""
    from d2dlearn_analysis import traces as trace_io
    name = trace_io.column_info(metric, summary=True)[0]
    if lower and len(name) > 1 and name[0].isupper() and name[1].islower():
        name = name[0].lower() + name[1:]
    return name


#: Characters of a title line at most (9 pt over the 6.4 in wide figure's axes).
TITLE_WIDTH = 80


def title_line(campaign, y, x):
    """The title's first line(s): "CAMPAIGN: Y against X" with the metrics' names
    (metric_name), broken between words to lines of at most TITLE_WIDTH characters so
    that it stays over the axes."""
    import textwrap
    return textwrap.fill("%s: %s against %s" % (campaign.name, metric_name(y),
                                                metric_name(x, lower=True)),
                         TITLE_WIDTH, break_long_words=False, break_on_hyphens=False)


def same_value(value, text):
    """Whether a campaign value equals a --where value given as text (1e-11 = 1.0e-11)."""
    if csv_text(value) == text.strip():
        return True
    if isinstance(value, bool):
        return False
    try:
        return float(value) == float(text)
    except (TypeError, ValueError):
        return False


def number(value):
    """A summary value as a float, None if it has none (missing, empty, null); NaN and
    infinities as they are (Values leaves them out)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(value)
    return float(value)


class Values:
    """A metric's values in the rows plotted: the finite ones are drawn; the others are
    counted (null or missing) or named with their runs (NaN, inf, -inf), for the note that
    they are drawn as missing and the error when nothing is left."""

    def __init__(self, option, metric):
        self.option, self.metric = option, metric
        self.finite, self.none, self.bad = 0, 0, []

    def take(self, row):
        """The row's value of the metric as a float, or None if it is not drawn."""
        value = row.get(self.metric)
        try:
            value = number(value)
        except ValueError:
            raise SweepError("%s %s: %r is not a number" % (self.option, self.metric, value))
        kind = not_finite(value)
        if kind:
            self.bad.append((row["run"], kind))
            return None
        if value is None:
            self.none += 1
        else:
            self.finite += 1
        return value

    def note(self):
        """The note on stderr that values not finite are drawn as missing (if there were)."""
        if self.bad:
            note("%s %s: %d of %d value(s) not finite, drawn as missing (%s)"
                 % (self.option, self.metric, len(self.bad),
                    self.finite + self.none + len(self.bad), where_not_finite(self.bad)))

    def nothing_left(self, runs):
        """The error of a metric with no finite value in the `runs` rows plotted."""
        if self.bad:
            return SweepError("%s %s: no finite value to draw (%d of %d finished run(s) "
                              "not finite: %s%s)"
                              % (self.option, self.metric, len(self.bad), runs,
                                 where_not_finite(self.bad),
                                 "; %d null or missing" % self.none if self.none else ""))
        return SweepError("%s %s: no finished run has a value of it (%d run(s): null or "
                          "missing in run.json's summary)" % (self.option, self.metric, runs))


def csv_number(value):
    return "" if math.isnan(value) else csv_text(value)


def plot_axes(args):
    """The y metric of --metric (or --y, its other name: cli.OneName refuses both with
    different values)."""
    if args.metric is None:
        raise SweepError("give the metric of the y axis: --y METRIC (or --metric METRIC), "
                         "a results.csv summary column")
    return args.metric


def cmd_plot(args):
    plot_axes(args)
    campaign = Campaign(args.file)
    out = output_dir(args, campaign)
    columns, rows, missing, failed = collect(campaign, out)
    if not rows:
        # Nothing to draw, and the metric cannot be checked: say so, write nothing.
        raise SweepError(no_finished_run(out, args.file, len(campaign.runs), len(failed)))
    if missing:
        note("%d of %d runs not finished are left out" % (len(missing), len(campaign.runs)))
    params = campaign.parameter_names()
    metrics = [c for c in columns if c not in params and c != "run"]
    # --x: a swept parameter (the metric's mean at each of its values), or a summary
    # metric (one marker per point of the swept grid, the replicates averaged).
    x_metric = args.x not in campaign.swept and args.x in metrics
    if not x_metric and args.x not in campaign.swept:
        raise SweepError("--x %s: not a swept parameter (swept: %s) nor a summary column "
                         "(columns: %s)" % (args.x, ", ".join(campaign.swept) or "none",
                                            ", ".join(metrics)))
    if args.hue is not None and args.hue not in campaign.swept:
        raise SweepError("--hue %s: not a swept parameter (swept: %s)"
                         % (args.hue, ", ".join(campaign.swept) or "none"))
    if x_metric and args.hue is not None:
        raise SweepError("--hue %s: with --x a summary metric, each point of the swept grid "
                         "is a marker of its own already (--where P=V keeps some)" % args.hue)
    if args.metric not in metrics:
        raise SweepError("--metric %s: not a summary column (columns: %s)"
                         % (args.metric, ", ".join(metrics)))
    for cond in args.where:
        name, _, value = cond.partition("=")
        if name not in params or not _:
            raise SweepError("--where %s: give PARAMETER=VALUE with a campaign parameter"
                             % cond)
        rows = [r for r in rows if same_value(r.get(name), value)]
        if not rows:
            raise SweepError("--where %s: no finished run has this value" % cond)
    if x_metric:
        return plot_metrics(args, campaign, out, rows)
    rep = args.replicate
    fixed_by_where = {c.partition("=")[0] for c in args.where}
    for name in campaign.swept:
        if name in (args.x, args.hue, rep) or name in fixed_by_where:
            continue
        values = {csv_text(r.get(name)) for r in rows}
        if len(values) > 1:
            raise SweepError("parameter %s takes %d values (%s): give --hue %s or --where "
                             "%s=VALUE" % (name, len(values), ", ".join(sorted(values)),
                                           name, name))
    groups = {}
    counts = {}
    values = Values("--metric", args.metric)
    for r in rows:
        value = values.take(r)
        if value is None:
            continue
        hue = r.get(args.hue) if args.hue else None
        groups.setdefault((hue, r[args.x]), []).append(value)
        counts.setdefault((hue, r[args.x]), []).append(counts_of(r, args.metric))
    if not groups:
        raise values.nothing_left(len(rows))
    values.note()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    from d2dlearn_analysis import traces as trace_io

    def order(values):
        return sorted(set(values), key=lambda v: (isinstance(v, str), v))

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.set_xlabel(trace_io.axis_label(args.x))
    ax.set_ylabel(trace_io.axis_label(args.metric, summary=True))
    band_text, prefix = BANDS[args.band]
    hues = order(h for h, _ in groups) if args.hue else [None]
    hue_label, hue_unit, _ = trace_io.column_info(args.hue) if args.hue else (None, "", None)
    print("%s%s,n,mean%s" % ("%s," % args.hue if args.hue else "", args.x,
                             ",%s_low,%s_high,interval" % (prefix, prefix) if prefix else ""))
    numeric_x = all(isinstance(x, (int, float)) and not isinstance(x, bool)
                    for _, x in groups)
    xs_all = order(x for _, x in groups)
    position = {x: (x if numeric_x else k) for k, x in enumerate(xs_all)}
    used = []
    for hue in hues:
        xs = order(x for h, x in groups if h == hue)
        stats = [band_limits(groups[(hue, x)], args.band, args.metric, counts[(hue, x)])
                 for x in xs]
        for x, (n, m, lo, hi, name) in zip(xs, stats):
            print("%s%s,%d,%s%s" % ("%s," % csv_text(hue) if args.hue else "", csv_text(x),
                                     n, csv_text(m),
                                     ",%s,%s,%s" % (csv_number(lo), csv_number(hi), name)
                                     if prefix else ""))
            if name and name not in used:
                used.append(name)
        px = [position[x] for x in xs]
        label = None
        if args.hue:
            label = "%s = %s%s" % (hue_label, csv_text(hue), " " + hue_unit if hue_unit else "")
        line, = ax.plot(px, trace_io.clip_to_domain([m for _, m, _, _, _ in stats],
                                                    args.metric, summary=True),
                        marker="o", markersize=4, label=label, zorder=3, clip_on=False)
        colour = line.get_color()
        if prefix and any(not math.isnan(lo) for _, _, lo, _, _ in stats):
            # A point without a band (one replicate, counts unknown): the band narrows to
            # its mean. Every limit is in the metric's domain (band_limits).
            lo = [m if math.isnan(b) else b for _, m, b, _, _ in stats]
            hi = [m if math.isnan(b) else b for _, m, _, b, _ in stats]
            ax.fill_between(px, lo, hi, color=colour, alpha=0.2, linewidth=0, zorder=1)
        if args.points:
            pts = [(position[x], v) for x in xs for v in groups[(hue, x)]]
            ax.scatter([p for p, _ in pts],
                       trace_io.clip_to_domain([v for _, v in pts], args.metric,
                                               summary=True),
                       s=10, color=colour, alpha=0.45, linewidths=0, zorder=2)
    if args.logx:
        ax.set_xscale("log")
    # The swept values themselves as ticks (a log axis would label 6x10^-1).
    ax.set_xticks([position[x] for x in xs_all])
    ax.set_xticklabels([csv_text(x) for x in xs_all])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    scale_axis(ax, args.metric, "y", args.logy)
    nrep = max(len(v) for v in groups.values())
    ax.set_title("%s\n%s" % (title_line(campaign, args.metric, args.x),
                             shown_text(args, nrep, used, [args.metric])), fontsize=9)
    ax.grid(True, alpha=0.3)
    if args.hue:
        trace_io.legend(ax)
    return save_plot(args, out, fig)


def shown_text(args, nrep, used, metrics):
    """The title's second line: what the markers, the band and the dots show."""
    from d2dlearn_analysis import traces as trace_io
    rep = args.replicate
    shown = "mean"
    if used:
        shown += " and %s (%s)" % (BANDS[args.band][0], "; ".join(
            dict.fromkeys(INTERVAL_TITLES[u] for u in used)))
    if nrep > 1:
        shown += " over %d %s values" % (nrep, rep)
        if args.points:
            shown += "; dots: each %s" % rep
    if "sd_cut" in used:
        cuts = []
        for metric in metrics:
            lo, hi = trace_io.domain(metric, summary=True)
            cuts.append("[%g, %g]" % (lo, hi) if lo is not None and hi is not None
                        else "%g" % lo if lo is not None else "%g" % hi)
        shown += "; band cut at %s" % " and ".join(dict.fromkeys(cuts))
    return shown


def value_label(trace_io, name, value):
    """`Label = value unit` of a swept parameter's value (a legend entry)."""
    label, unit, _ = trace_io.column_info(name)
    return "%s = %s%s" % (label, csv_text(value), " " + unit if unit else "")


def err(stat):
    """Error bar lengths [[below], [above]] the mean of a band_limits result (0 where the
    band is undefined)."""
    _, m, lo, hi, _ = stat
    return [[0.0 if math.isnan(lo) else max(m - lo, 0.0)],
            [0.0 if math.isnan(hi) else max(hi - m, 0.0)]]


def plot_metrics(args, campaign, out, rows):
    """`plot --x METRIC --y METRIC`: one marker per point of the swept grid (the swept
    parameters but --replicate), at the means of the two metrics over its replicates,
    with error bars of --band in both directions, each in its metric's domain."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from d2dlearn_analysis import traces as trace_io

    rep = args.replicate
    keys = [n for n in campaign.swept if n != rep]
    points = {}  # grid point -> [(x, y, x counts, y counts)], in campaign order
    xs, ys = Values("--x", args.x), Values("--y", args.metric)
    for r in rows:
        pair = [xs.take(r), ys.take(r)]
        if None in pair:
            continue
        point = tuple(r.get(n) for n in keys)
        points.setdefault(point, []).append(
            (pair[0], pair[1], counts_of(r, args.x), counts_of(r, args.metric)))
    if not points:
        for values in (xs, ys):
            if not values.finite:
                raise values.nothing_left(len(rows))
        raise SweepError("--x %s / --y %s: no finished run has finite values of both (%s "
                         "finite in %d of %d run(s), %s in %d)"
                         % (args.x, args.metric, args.x, xs.finite, len(rows), args.metric,
                            ys.finite))
    xs.note()
    ys.note()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.set_xlabel(trace_io.axis_label(args.x, summary=True))
    ax.set_ylabel(trace_io.axis_label(args.metric, summary=True))
    # The parameters that tell the markers apart: those with more than one value here.
    varying = [k for i, k in enumerate(keys) if len({csv_text(p[i]) for p in points}) > 1]
    _, prefix = BANDS[args.band]
    head = varying + ["n"]
    for m in (args.x, args.metric):
        head += ["%s_mean" % m] + (["%s_%s_low" % (m, prefix), "%s_%s_high" % (m, prefix),
                                    "%s_interval" % m] if prefix else [])
    print(",".join(head))
    used = []
    for i, (point, runs) in enumerate(points.items()):
        sx = band_limits([x for x, _, _, _ in runs], args.band, args.x,
                         [c for _, _, c, _ in runs])
        sy = band_limits([y for _, y, _, _ in runs], args.band, args.metric,
                         [c for _, _, _, c in runs])
        cells = [csv_text(point[keys.index(k)]) for k in varying] + [str(len(runs))]
        for n, m, lo, hi, name in (sx, sy):
            cells += [csv_text(m)] + ([csv_number(lo), csv_number(hi), name] if prefix else [])
            if name and name not in used:
                used.append(name)
        print(",".join(cells))
        label = ", ".join(value_label(trace_io, k, point[keys.index(k)])
                          for k in varying) or None
        style = trace_io.series_style(i)
        colour = "C%d" % (i % 10)
        ax.errorbar([sx[1]], [sy[1]], xerr=err(sx) if prefix else None,
                    yerr=err(sy) if prefix else None, fmt=style["marker"], color=colour,
                    markerfacecolor=style["markerfacecolor"], markersize=6, capsize=3,
                    elinewidth=1, label=label, zorder=3, clip_on=False)
        if args.points:
            ax.scatter(trace_io.clip_to_domain([x for x, _, _, _ in runs], args.x,
                                               summary=True),
                       trace_io.clip_to_domain([y for _, y, _, _ in runs], args.metric,
                                               summary=True),
                       s=10, color=colour, alpha=0.45, linewidths=0, zorder=2)
    scale_axis(ax, args.x, "x", args.logx)
    scale_axis(ax, args.metric, "y", args.logy)
    nrep = max(len(v) for v in points.values())
    ax.set_title("%s\n%s" % (title_line(campaign, args.metric, args.x),
                             shown_text(args, nrep, used, [args.x, args.metric])),
                 fontsize=9)
    ax.grid(True, alpha=0.3)
    if varying:
        trace_io.legend(ax, outside=len(points) > 4)
    return save_plot(args, out, fig)


def save_plot(args, out, fig):
    from d2dlearn_analysis.traces import save_figure
    plots = args.plots or os.path.join(out, "plots")
    os.makedirs(plots, exist_ok=True)
    name = args.name or "%s_vs_%s%s" % (args.metric, args.x,
                                        "_by_" + args.hue if args.hue else "")
    save_figure(fig, plots, "%s.%s" % (FOLDER_SAFE.sub("-", name), args.format),
                fmt=args.format)
    return 0
