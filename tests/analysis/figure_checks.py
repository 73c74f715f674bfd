"""What the test_plot_*.py tests check on the matplotlib objects of a plot script's figures
(shared by them, imported from this folder).

render(script, argv) runs a script's main() in this process and returns its exit status and
the (file name, Figure) pairs it wrote (analysis/d2dlearn_analysis/traces.py keeps them in DRAWN);
run_main(script, argv) runs it in this process as its command line would (exit status,
stdout, stderr); refusal_problem(path, args, out, needle) runs a script as a process on bad
input and says what, if anything, is wrong with its refusal; check(cond, text) counts a
failed expectation (printing "FAIL: text") and finish(name) ends a test script with exit
status 1 if any failed;
problems(name, fig) lists what is wrong with a figure:

- an axis that shows data without a label (x and y; a colour bar's label);
- a line, band, error bar, bar or point of a quantity outside the domain of its axis label
  (trace_io.LABEL_DOMAINS: a rate in [0, 1], an energy, a time or a byte count >= 0) and,
  for a rate, axis limits outside [0, 1];
- a panel whose lines all stand at one x (degenerate vertical lines);
- a panel with no data and no "no data" text (trace_io.NO_DATA_GID), or a "no data" panel
  that still draws data; the same "no data" text in several panels of a figure (a row or
  column of empty panels: leave them out, or say it once);
- a legend of more than trace_io.MAX_LEGEND_ENTRIES entries;
- an axis of rounds or steps (a label of trace_io.INTEGER_LABELS, or one that starts with
  "Round"/"Step", not "Round time") with a tick at a fraction;
- a line of an empirical CDF (gid trace_io.CDF_GID, or any line on an axis labelled
  "Empirical CDF") not drawn as a step that reaches exactly 1 and goes on at 1 (the last
  step drawn, not cut off by the axis limits);
- a constant shown as a varying quantity: the data on an axis all one value c != 0 (within
  CONSTANT_RELATIVE of it) and limits that span less than half of |c| (a 1.9..2.1 axis
  with offset ticks for a constant 2; on a log axis, less than a factor 2).
"""

import importlib.util
import io
import os
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "analysis")
EPS = 1e-9
#: Data on an axis whose spread is at most this fraction of its size is a constant.
CONSTANT_RELATIVE = 1e-6


if ANALYSIS not in sys.path:  # the scripts import the d2dlearn_analysis package beside them
    sys.path.insert(0, ANALYSIS)


#: expectations that failed so far (check)
failures = 0


def check(cond, text):
    """Count and print a failed expectation (a test script's checks, in this process)."""
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + text)


def finish(name):
    """End a test script: exit status 1 with the count if any check failed, else "NAME: ok"."""
    if failures:
        print("%s: %d failure(s)" % (name, failures))
        sys.exit(1)
    print("%s: ok" % name)


def load_script(name):
    """Import analysis/<name>.py as a module (its traces module is
    analysis/d2dlearn_analysis/traces.py)."""
    spec = importlib.util.spec_from_file_location(
        "under_test_" + name, os.path.join(ANALYSIS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trace_io():
    from d2dlearn_analysis import traces as module
    return module


def render(script, argv):
    """Run analysis/<script>.py's main(argv) here; returns (exit status, stdout,
    [(file name, Figure)] written)."""
    module = load_script(script)
    tio = trace_io()
    del tio.DRAWN[:]
    out = io.StringIO()
    with redirect_stdout(out):
        rc = module.main(argv)
    return rc, out.getvalue(), list(tio.DRAWN)


def refusal_problem(path, args, out, needle):
    """'' if `/usr/bin/python3 PATH ARGS` refuses its input as bad input must be refused (exit
    status 2, one line on stderr holding needle, the output file out not written); else what
    it did instead."""
    p = subprocess.run(["/usr/bin/python3", path] + args, capture_output=True, text=True)
    if (p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and needle in p.stderr
            and not os.path.exists(out)):
        return ""
    return "exit %d, %s written: %r" % (p.returncode, "out" if os.path.exists(out) else "nothing",
                                        p.stderr)


def run_main(script, argv):
    """analysis/<script>.py's main(argv) in this process, as its command line would run it
    (without the second or so a new Python process takes to import pandas and matplotlib):
    (exit status, stdout, stderr). An exit through SystemExit (argparse's errors and --help,
    sys.exit) gives its status, and a text status is written to stderr with status 1, as
    Python does; any other exception propagates (a process would print a traceback). The
    tests keep a few runs of each script as a process of its own (the command line itself)."""
    module = load_script(script)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            rc = module.main(argv)
        except SystemExit as e:
            rc = e.code
            if rc is not None and not isinstance(rc, int):
                print(rc, file=sys.stderr)
                rc = 1
    return rc or 0, out.getvalue(), err.getvalue()


def is_colorbar(ax):
    return getattr(ax, "_colorbar", None) is not None


def data_artists(ax):
    """The artists of an axes that show data (no legend, title or text)."""
    import matplotlib.patches as mpatches
    arts = [ln for ln in ax.lines if len(ln.get_xdata()) > 0]
    arts += [c for c in ax.collections]
    arts += [p for p in ax.patches if isinstance(p, mpatches.Rectangle)]
    arts += list(ax.images)
    return arts


def points(artist):
    """(x, y) arrays of an artist's data coordinates (empty if it has none we can read)."""
    import matplotlib.collections as mcoll
    import matplotlib.lines as mlines
    import matplotlib.patches as mpatches
    import numpy as np
    if isinstance(artist, mlines.Line2D):
        return (np.asarray(artist.get_xdata(), dtype=float),
                np.asarray(artist.get_ydata(), dtype=float))
    if isinstance(artist, mpatches.Rectangle):
        # A (vertical) bar: its x is a position (of a category, or offset in a group of
        # bars), its y extent the value.
        y, h = artist.get_y(), artist.get_height()
        return np.array([]), np.array([y, y + h])
    if isinstance(artist, mcoll.PathCollection):
        off = np.asarray(artist.get_offsets(), dtype=float).reshape(-1, 2)
        return off[:, 0], off[:, 1]
    if isinstance(artist, mcoll.Collection):
        verts = [p.vertices for p in artist.get_paths() if len(p.vertices)]
        if not verts:
            return np.array([]), np.array([])
        v = np.concatenate(verts)
        return v[:, 0], v[:, 1]
    return np.array([]), np.array([])


def outside(values, dom):
    import numpy as np
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    lo, hi = dom
    bad = np.zeros(len(values), dtype=bool)
    if lo is not None:
        bad |= values < lo - EPS
    if hi is not None:
        bad |= values > hi + EPS
    return values[bad]


def data_axes(artist, ax):
    """(x in data coordinates, y in data coordinates) of an artist: an axhline's x and an
    axvline's y are in axes coordinates, not data."""
    try:
        transform = artist.get_transform()
        import matplotlib.collections as mcoll
        if isinstance(artist, mcoll.PathCollection):
            transform = artist.get_offset_transform()
        x, y = transform.contains_branch_seperately(ax.transData)
        return bool(x), bool(y)
    except (AttributeError, ValueError):
        return True, True


def is_integer_axis(label):
    """An axis of rounds or steps: its label made from trace_io.INTEGER_COLUMNS, or one that
    starts with Round(s) or Step(s) (not "Round time")."""
    if label in trace_io().INTEGER_LABELS:
        return True
    name = label.strip().lower()
    return bool(re.match(r"(rounds?|steps?)\b", name)) and not name.startswith("round time")


def integer_tick_problems(where, ax, axis, label):
    """Ticks at fractions on an axis of rounds or steps."""
    import numpy as np
    if not is_integer_axis(label):
        return []
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    pad = 1e-9 * max(1.0, hi - lo)
    locs = np.asarray(getattr(ax, axis + "axis").get_majorticklocs(), dtype=float)
    locs = locs[(locs >= lo - pad) & (locs <= hi + pad)]
    bad = locs[np.abs(locs - np.round(locs)) > 1e-9]
    if len(bad):
        return ["%s: %s axis of %r has ticks at fractions: %s"
                % (where, axis, label, ", ".join("%g" % v for v in bad[:4]))]
    return []


def cdf_problems(where, ax):
    """CDF lines that do not reach 1 and go on at 1, or lines on a CDF axis not drawn by
    trace_io.draw_cdf."""
    import numpy as np
    tio = trace_io()
    cdf_label = tio.axis_label("cdf")
    found = []
    on_cdf_axis = ax.get_ylabel() == cdf_label
    for ln in ax.lines:
        if ln.get_gid() != tio.CDF_GID:
            if on_cdf_axis and len(ln.get_xdata()) > 1:
                found.append("%s: line %r on a CDF axis not drawn by traces.draw_cdf"
                             % (where, ln.get_label()))
            continue
        x = np.asarray(ln.get_xdata(), dtype=float)
        y = np.asarray(ln.get_ydata(), dtype=float)
        name = "%s: CDF %r" % (where, ln.get_label())
        if len(y) < 2 or y[-1] != 1.0:
            found.append("%s ends at %s, not at 1" % (name, y[-1] if len(y) else "nothing"))
            continue
        if ln.get_drawstyle() != "steps-post":
            found.append("%s drawn as %s, not as steps (steps-post)"
                         % (name, ln.get_drawstyle()))
        if np.any(np.diff(y) < 0) or y[0] != 0.0:
            found.append("%s does not rise from 0" % name)
        first = int(np.argmax(y == 1.0))
        if not x[-1] > x[first]:
            found.append("%s stops where it reaches 1 (no step drawn at 1)" % name)
        if max(ax.get_xlim()) < x[first] or max(ax.get_ylim()) < 1.0:
            found.append("%s reaches 1 outside the axis limits %s, %s"
                         % (name, ax.get_xlim(), ax.get_ylim()))
    return found


def constant_problems(where, ax, arts, axis, label):
    """The data on an axis all one value c != 0, shown in limits that span less than |c| / 2
    (a factor 2 on a log axis)."""
    import numpy as np
    values = []
    for art in arts:
        in_data = data_axes(art, ax)[0 if axis == "x" else 1]
        if not in_data:
            continue
        xs, ys = points(art)
        values.append(np.asarray(xs if axis == "x" else ys, dtype=float))
    values = np.concatenate(values) if values else np.array([])
    values = values[np.isfinite(values)]
    if not len(values):
        return []
    c = float(np.median(values))
    if c == 0.0 or np.ptp(values) > CONSTANT_RELATIVE * np.max(np.abs(values)):
        return []
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
    if scale == "log":
        narrow = lo <= 0 or hi / lo < 2.0
    else:
        narrow = hi - lo < 0.5 * abs(c)
    if narrow:
        return ["%s: %s axis of %r shows the constant %g in limits %g..%g (a constant "
                "drawn as if it varied)" % (where, axis, label, c, lo, hi)]
    return []


def problems(name, fig):
    import matplotlib.legend as mlegend
    import matplotlib.lines as mlines
    import numpy as np
    tio = trace_io()
    found = []
    said = {}  # "no data" text -> the panels that say it
    legends = list(fig.legends)
    for k, ax in enumerate(fig.axes):
        where = "%s axes %d (%r)" % (name, k, ax.get_title())
        if ax.get_legend() is not None:
            legends.append(ax.get_legend())
        legends += [a for a in ax.artists if isinstance(a, mlegend.Legend)]
        if is_colorbar(ax):
            if not (ax.get_ylabel() or ax.get_xlabel()):
                found.append("%s: colour bar without a label" % where)
            continue
        if not ax.axison:
            continue
        arts = data_artists(ax)
        nodata = [t for t in ax.texts if t.get_gid() == tio.NO_DATA_GID]
        if nodata:
            if arts:
                found.append("%s: says %r but draws %d artist(s)"
                             % (where, nodata[0].get_text(), len(arts)))
            said.setdefault(nodata[0].get_text(), []).append(k)
            continue
        if not arts:
            found.append("%s: an empty panel without a 'no data' text" % where)
            continue
        for axis, label in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())):
            if not label.strip():
                found.append("%s: no %s label" % (where, axis))
                continue
            found += integer_tick_problems(where, ax, axis, label)
            found += constant_problems(where, ax, arts, axis, label)
            dom = tio.LABEL_DOMAINS.get(label)
            if dom is None:
                continue
            for art in arts:
                xs, ys = points(art)
                bad = outside(xs if axis == "x" else ys, dom)
                if len(bad):
                    found.append("%s: %s of %r outside %s: %s"
                                 % (where, type(art).__name__, label, dom, bad[:3]))
            if dom == tio.RATE:
                lim = ax.get_xlim() if axis == "x" else ax.get_ylim()
                if len(outside(lim, dom)):
                    found.append("%s: %s limits %s of rate %r outside [0, 1]"
                                 % (where, axis, lim, label))
        found += cdf_problems(where, ax)
        xs = [np.asarray(ln.get_xdata(), dtype=float) for ln in ax.lines
              if isinstance(ln, mlines.Line2D) and len(ln.get_xdata()) > 1]
        if xs and len(arts) == len(ax.lines) and np.ptp(np.concatenate(xs)) == 0:
            found.append("%s: every line at x = %g (a degenerate panel)" % (where, xs[0][0]))
    for text, panels in said.items():
        if len(panels) > 1:
            found.append("%s: %d panels (axes %s) say %r: leave them out or say it once"
                         % (name, len(panels), ", ".join(map(str, panels)), text))
    for lg in legends:
        n = len(lg.get_texts())
        if n > tio.MAX_LEGEND_ENTRIES:
            found.append("%s: a legend of %d entries" % (name, n))
    return found


def all_problems(figures):
    out = []
    for name, fig in figures:
        out += problems(name, fig)
    return out


def figure(figures, prefix):
    """The Figure whose file name starts with prefix (None if not drawn)."""
    for name, fig in figures:
        if name.startswith(prefix):
            return fig
    return None


def no_data_texts(fig):
    tio = trace_io()
    return [t.get_text() for ax in fig.axes for t in ax.texts
            if t.get_gid() == tio.NO_DATA_GID]


def labels(fig):
    """All x and y labels (and colour-bar labels) of a figure."""
    return [lab for ax in fig.axes for lab in (ax.get_xlabel(), ax.get_ylabel()) if lab]
