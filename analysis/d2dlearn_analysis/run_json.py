"""Reading a run folder's run.json, shared by the analysis scripts (standard library only):
every script reads run.json through read_run_json.

read_run_json(run_dir) returns the parsed document of RUN_DIR/run.json, or raises
AnalysisError with one line: the folder or the file missing ("the run did not finish?"),
or the JSON that cannot be parsed.

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
