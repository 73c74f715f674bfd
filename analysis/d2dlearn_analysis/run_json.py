"""Reading a run folder's run.json, shared by the analysis scripts (standard library only):
every script reads run.json through read_run_json.

read_run_json(run_dir) returns the parsed document of RUN_DIR/run.json, or raises
AnalysisError with one line: the folder or the file missing ("the run did not finish?"),
or the JSON that cannot be parsed. Its parameters are those of the current programs: every share
is in [0, 1] (current_shares converts the percent keys of older runs, committeePercent 30 ->
committeeFraction 0.3); as_percent(share) gives a share back in percent for a label or table.

table_main(argv, prog, description, tables, load_run) is the command line shared by the
table scripts (discovery_tables, cmfl_tables, consensus_tables, backend_tables,
round_time_tables): TABLE RUN_DIR... [--out FILE], the CSV written atomically through a
uniquely named temporary file in FILE's folder; an AnalysisError is one line, exit 2.

command_flags(params, exclude) returns {flag: value} of parameters.commandLine, the flags a run
was given, without those named in exclude; a flag given without "=" has the value "".
(run_flags.distinguishing_flags leaves out the flags that do not distinguish runs.)
"""
import csv
import io
import json
import os
import sys

from d2dlearn_analysis.atomic import atomic_open
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report


#: The shares older programs took and recorded in percent (0 to 100), by their former name ->
#: the current one (a share in [0, 1]): flags, and attributes by their own name (of any class
#: path, ns3::D2dCmfl::CommitteePercent). The programs refuse the former names.
FORMER_PERCENT = {
    "activationPercent": "activationFraction",
    "aggregationPercent": "aggregationFraction",
    "committeePercent": "committeeFraction",
    "maliciousPercent": "maliciousFraction",
    "trimPercent": "trimFraction",
    "ActivationPercent": "ActivationFraction",
    "AggregationPercent": "AggregationFraction",
    "CommitteePercent": "CommitteeFraction",
    "ByzantinePercent": "ByzantineFraction",
    "SelectPercent": "SelectFraction",
    "TrimPercent": "TrimFraction",
}


def _current_name(name):
    """The current name of a parameter or flag name (itself if it was not renamed)."""
    head, sep, last = name.rpartition("::")
    if sep and name.startswith("ns3::"):
        return head + sep + FORMER_PERCENT[last] if last[:1].isupper() and last in \
            FORMER_PERCENT else name
    return FORMER_PERCENT[name] if name[:1].islower() and name in FORMER_PERCENT else name


def _share_text(text):
    """A percent's text ("30") as a share's ("0.3"); text that is not a number unchanged."""
    try:
        share = float(text) / 100
    except ValueError:
        return text
    out = repr(share)
    return out[:-2] if out.endswith(".0") else out


def current_shares(params):
    """params (run.json's) with every former percent key as its share: committeePercent 30 ->
    committeeFraction 0.3, in the keys and in parameters.commandLine
    (--committeePercent=30 -> --committeeFraction=0.3). A run of the current programs is
    returned unchanged: the one place old run.json files are read as new ones."""
    if not isinstance(params, dict):
        return params
    out = {}
    for key, value in params.items():
        name = _current_name(key)
        if name != key and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = value / 100
        out[name] = value
    line = params.get("commandLine")
    if isinstance(line, str):
        args = []
        for arg in line.split(" "):
            name, eq, value = arg[2:].partition("=")
            if arg.startswith("--") and _current_name(name) != name:
                arg = "--" + _current_name(name) + eq + (_share_text(value) if eq else "")
            args.append(arg)
        out["commandLine"] = " ".join(args)
    return out


def as_percent(share):
    """A share in [0, 1] in percent for a label or a table: 0.1 -> 10 (an int when whole, not
    10.000000000000002); None stays None."""
    if share is None or isinstance(share, bool) or not isinstance(share, (int, float)):
        return share
    percent = round(share * 100, 9)
    return int(percent) if percent == int(percent) else percent


def read_run_json(run_dir):
    """The parsed run.json of run_dir; a one-line AnalysisError when it is missing or
    malformed."""
    if not os.path.isdir(run_dir):
        raise AnalysisError("run folder not found: %s" % run_dir)
    path = os.path.join(run_dir, "run.json")
    if not os.path.isfile(path):
        raise AnalysisError("missing run.json: %s (the run did not finish?)" % path)
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as exc:
        raise AnalysisError("cannot parse %s: %s" % (path, " ".join(str(exc).split())))
    if not isinstance(doc, dict):
        raise AnalysisError("cannot parse %s: not a JSON object" % path)
    if isinstance(doc.get("parameters"), dict):
        doc["parameters"] = current_shares(doc["parameters"])
    return doc


def command_flags(params, exclude=()):
    """{flag: value} of params["commandLine"] (run.json), without the flags in exclude."""
    flags = {}
    for arg in str(params.get("commandLine") or "").split():
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            if name not in exclude:
                flags[name] = value
    return flags


def table_main(argv, prog, description, tables, load_run):
    """TABLE RUN_DIR... [--out FILE]: tables[TABLE](runs) -> (columns, rows) as CSV; exit 2 with
    one line on an AnalysisError (or a bad argument). FILE is written through a temporary file
    of a unique name (O_EXCL, never one already there) in its folder, then renamed.
    description: the script's docstring (its first paragraph is --help's description)."""
    parser = ArgumentParser(prog=prog, description=description)
    parser.add_argument("table", choices=sorted(tables), help="the table to write")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="run folders (each a program's --outDir)")
    parser.add_argument("--out", default=None, metavar="FILE", help="CSV file (default stdout)")
    args = parser.parse_args(argv)
    try:
        columns, rows = tables[args.table]([load_run(d) for d in args.runs])
        if args.out is not None and not os.path.isdir(
                os.path.dirname(os.path.abspath(args.out))):
            raise AnalysisError("no folder for --out: %s" % args.out)
    except AnalysisError as exc:
        return report(prog, exc)
    text = io.StringIO()
    w = csv.DictWriter(text, columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if args.out is None:
        sys.stdout.write(text.getvalue())
        return 0
    with atomic_open(args.out, "w", newline="") as fh:
        fh.write(text.getvalue())
    print("wrote %s (%d rows)" % (args.out, len(rows)))
    return 0


def table_figure_main(argv, prog, description, figure, points, write_table, draw, options=()):
    """RUN_DIR... [--table FILE] [--figure DIR] (one of them at least): points(runs), then
    write_table(points, FILE) and draw(points, DIR), which draws the figure named `figure`;
    exit 2 with one line on an AnalysisError (or a bad argument). description: the script's
    docstring (its first paragraph is --help's description). options: the script's own
    options, (flag, add_argument's keywords) pairs, whose values points gets as keywords by
    their dest (("--target", {...}): points(runs, target=VALUE))."""
    parser = ArgumentParser(prog=prog, description=description)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="run folders (each a program's --outDir)")
    parser.add_argument("--table", metavar="FILE", help="write the points as CSV here")
    parser.add_argument("--figure", metavar="DIR", help="draw %s into this folder" % figure)
    dests = [parser.add_argument(flag, **kwargs).dest for flag, kwargs in options]
    args = parser.parse_args(argv)
    if not args.table and not args.figure:
        parser.error("give --table FILE, --figure DIR or both")
    try:
        pts = points(args.runs, **{dest: getattr(args, dest) for dest in dests})
        if args.table:
            write_table(pts, args.table)
        if args.figure:
            draw(pts, args.figure)
    except AnalysisError as exc:
        return report(prog, exc)
    return 0
