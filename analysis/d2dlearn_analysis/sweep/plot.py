"""`sweep.py plot`: a summary metric against a swept parameter (mean over the replicates with
a band), drawn in the metric's domain with units.
"""

import math
import os

from d2dlearn_analysis import stats as analysis_stats

from d2dlearn_analysis.sweep.campaign import Campaign, FOLDER_SAFE
from d2dlearn_analysis.sweep.collect import collect, csv_text
from d2dlearn_analysis.sweep.common import SweepError, note
from d2dlearn_analysis.sweep.state import output_dir


def t975(df):
    """t_{0.975, df}, from the one implementation (stats.py: SciPy's Student t)."""
    return analysis_stats.t975(df)


def mean_ci(values):
    """(n, mean, half-width of the 95 % confidence interval of the mean; NaN if n < 2)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return n, mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return n, mean, t975(n - 1) * math.sqrt(var / n)


#: --band: what the band around the mean shows (title text, CSV column prefix).
BANDS = {"ci": ("95 % CI (Student t)", "ci95"), "sd": ("\u00b1 1 sd", "sd"),
         "minmax": ("min to max", "min_max"), "none": (None, None)}


def band_limits(values, band):
    """(n, mean, low, high) of the replicates `values` for --band (low = high = NaN where
    the band is undefined: n < 2, or band none)."""
    n, mean, half = mean_ci(values)
    nan = float("nan")
    if band == "ci":
        return n, mean, mean - half, mean + half
    if band == "sd" and n > 1:
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        return n, mean, mean - sd, mean + sd
    if band == "minmax" and n > 1:
        return n, mean, min(values), max(values)
    return n, mean, nan, nan


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


def cmd_plot(args):
    campaign = Campaign(args.file)
    out = output_dir(args, campaign)
    columns, rows, missing, _ = collect(campaign, out)
    if missing:
        note("%d of %d runs not finished are left out" % (len(missing), len(campaign.runs)))
    params = campaign.parameter_names()
    for flag, name in (("--x", args.x), ("--hue", args.hue)):
        if name is not None and name not in campaign.swept:
            raise SweepError("%s %s: not a swept parameter (swept: %s)"
                             % (flag, name, ", ".join(campaign.swept) or "none"))
    if rows and (args.metric not in columns or args.metric in params
                 or args.metric == "run"):
        metrics = [c for c in columns if c not in params and c != "run"]
        raise SweepError("--metric %s: not a summary column (columns: %s)"
                         % (args.metric, ", ".join(metrics)))
    for cond in args.where:
        name, _, value = cond.partition("=")
        if name not in params or not _:
            raise SweepError("--where %s: give PARAMETER=VALUE with a campaign parameter"
                             % cond)
        if rows:
            rows = [r for r in rows if same_value(r.get(name), value)]
            if not rows:
                raise SweepError("--where %s: no finished run has this value" % cond)
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
    for r in rows:
        value = r.get(args.metric)
        if value is None or value == "":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SweepError("--metric %s: %r is not a number" % (args.metric, value))
        hue = r.get(args.hue) if args.hue else None
        groups.setdefault((hue, r[args.x]), []).append(float(value))

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
    if not groups:
        # A figure that says why it is empty rather than an empty axis (the campaign has
        # not finished a run yet, or no finished run has the metric).
        why = ("no finished run yet (0 of %d runs)" % len(campaign.runs) if not rows
               else "no finished run has a value of %s" % args.metric)
        note("%s: %s; the figure says so" % (campaign.name, why))
        trace_io.no_data(ax, why)
        ax.set_title("%s: %s" % (campaign.name, args.metric), fontsize=10)
        return save_plot(args, out, fig)
    hues = order(h for h, _ in groups) if args.hue else [None]
    hue_label, hue_unit, _ = trace_io.column_info(args.hue) if args.hue else (None, "", None)
    print("%s%s,n,mean%s" % ("%s," % args.hue if args.hue else "", args.x,
                             ",%s_low,%s_high" % (prefix, prefix) if prefix else ""))
    numeric_x = all(isinstance(x, (int, float)) and not isinstance(x, bool)
                    for _, x in groups)
    xs_all = order(x for _, x in groups)
    position = {x: (x if numeric_x else k) for k, x in enumerate(xs_all)}
    clipped = False
    for hue in hues:
        xs = order(x for h, x in groups if h == hue)
        stats = [band_limits(groups[(hue, x)], args.band) for x in xs]
        for x, (n, m, lo, hi) in zip(xs, stats):
            print("%s%s,%d,%s%s" % ("%s," % csv_text(hue) if args.hue else "", csv_text(x),
                                     n, csv_text(m),
                                     ",%s,%s" % ("" if math.isnan(lo) else csv_text(lo),
                                                 "" if math.isnan(hi) else csv_text(hi))
                                     if prefix else ""))
        px = [position[x] for x in xs]
        label = None
        if args.hue:
            label = "%s = %s%s" % (hue_label, csv_text(hue), " " + hue_unit if hue_unit else "")
        line, = ax.plot(px, trace_io.clip_to_domain([m for _, m, _, _ in stats],
                                                    args.metric),
                        marker="o", markersize=4, label=label, zorder=3)
        colour = line.get_color()
        if prefix and any(not math.isnan(lo) for _, _, lo, _ in stats):
            # A replicate's point alone (n = 1) has no band: the band narrows to its mean.
            lo = [m if math.isnan(b) else b for _, m, b, _ in stats]
            hi = [m if math.isnan(b) else b for _, m, _, b in stats]
            trace_io.draw_band(ax, px, lo, hi, args.metric, color=colour, alpha=0.2,
                               linewidth=0, zorder=1)
            clipped |= bool((trace_io.clip_to_domain(lo, args.metric) != lo).any()
                            or (trace_io.clip_to_domain(hi, args.metric) != hi).any())
        if args.points:
            pts = [(position[x], v) for x in xs for v in groups[(hue, x)]]
            ax.scatter([p for p, _ in pts],
                       trace_io.clip_to_domain([v for _, v in pts], args.metric),
                       s=10, color=colour, alpha=0.45, linewidths=0, zorder=2)
    if args.logx:
        ax.set_xscale("log")
    # The swept values themselves as ticks (a log axis would label 6x10^-1).
    ax.set_xticks([position[x] for x in xs_all])
    ax.set_xticklabels([csv_text(x) for x in xs_all])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    if args.logy:
        ax.set_yscale("log")
    else:
        trace_io.set_domain_limits(ax, args.metric)
    nrep = max(len(v) for v in groups.values())
    shown = "mean"
    if nrep > 1 and band_text:
        shown += " and %s" % band_text
    if nrep > 1:
        shown += " over %d %s values" % (nrep, rep)
        if args.points:
            shown += "; dots: each %s" % rep
    if clipped:
        lo, hi = trace_io.domain(args.metric)
        shown += "; band cut at %s" % ("[%g, %g]" % (lo, hi) if hi is not None
                                       else "%g" % lo if lo is not None else "%g" % hi)
    ax.set_title("%s: %s\n%s" % (campaign.name, args.metric, shown), fontsize=9)
    ax.grid(True, alpha=0.3)
    if args.hue:
        trace_io.legend(ax)
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
