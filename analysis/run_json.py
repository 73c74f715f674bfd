"""Reading a run folder's run.json, shared by the analysis scripts (standard library only).

read_run_json(run_dir, error) returns the parsed document of RUN_DIR/run.json, or raises
error (an Exception class) with one line: the folder or the file missing ("the run did not
finish?"), or the JSON that cannot be parsed.

command_flags(params, exclude) returns {flag: value} of parameters.commandLine, the flags a run
was given, without those named in exclude; a flag given without "=" has the value "".
"""
import json
import os


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
