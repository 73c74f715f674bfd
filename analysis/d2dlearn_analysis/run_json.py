"""Reading a run folder's run.json, shared by the analysis scripts (standard library only).

read_run_json(run_dir, error) returns the parsed document of RUN_DIR/run.json, or raises
error (an Exception class) with one line: the folder or the file missing ("the run did not
finish?"), or the JSON that cannot be parsed.

table_main(argv, prog, description, tables, load_run, error) is the command line shared by the
table scripts (discovery_tables, cmfl_tables, consensus_tables): TABLE RUN_DIR... [--out FILE],
the CSV written atomically through a uniquely named temporary file in FILE's folder.

command_flags(params, exclude) returns {flag: value} of parameters.commandLine, the flags a run
was given, without those named in exclude; a flag given without "=" has the value "".
"""
import argparse
import csv
import io
import json
import os
import sys
import tempfile


def read_run_json(run_dir, error):
    """The parsed run.json of run_dir; one-line error(...) when it is missing or malformed."""
    if not os.path.isdir(run_dir):
        raise error("run folder not found: %s" % run_dir)
    path = os.path.join(run_dir, "run.json")
    if not os.path.isfile(path):
        raise error("missing run.json: %s (the run did not finish?)" % path)
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError) as exc:
        raise error("cannot parse %s: %s" % (path, " ".join(str(exc).split())))


def command_flags(params, exclude=()):
    """{flag: value} of params["commandLine"] (run.json), without the flags in exclude."""
    flags = {}
    for arg in str(params.get("commandLine") or "").split():
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            if name not in exclude:
                flags[name] = value
    return flags


def table_main(argv, prog, description, tables, load_run, error):
    """TABLE RUN_DIR... [--out FILE]: tables[TABLE](runs) -> (columns, rows) as CSV; exit 2 with
    one line on error(...). FILE is written through a temporary file of a unique name
    (O_EXCL, never one already there) in its folder, then renamed."""
    # description: the script's docstring; its first paragraph, whole, so that --help never
    # stops mid-sentence
    parser = argparse.ArgumentParser(
        prog=prog, description=" ".join(description.split("\n\n")[0].split()))
    parser.add_argument("table", choices=sorted(tables), help="the table to write")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="run folders (each a program's --outDir)")
    parser.add_argument("--out", default=None, metavar="FILE", help="CSV file (default stdout)")
    args = parser.parse_args(argv)
    try:
        columns, rows = tables[args.table]([load_run(d) for d in args.runs])
        if args.out is not None and not os.path.isdir(
                os.path.dirname(os.path.abspath(args.out))):
            raise error("no folder for --out: %s" % args.out)
    except error as exc:
        print("%s: error: %s" % (prog, exc), file=sys.stderr)
        return 2
    text = io.StringIO()
    w = csv.DictWriter(text, columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if args.out is None:
        sys.stdout.write(text.getvalue())
        return 0
    out = os.path.abspath(args.out)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(out) + ".", suffix=".tmp",
                               dir=os.path.dirname(out))
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            fh.write(text.getvalue())
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    print("wrote %s (%d rows)" % (args.out, len(rows)))
    return 0
