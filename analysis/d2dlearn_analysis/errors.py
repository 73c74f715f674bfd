"""The one error type of the analysis tools, and how a script reports it.

Every script reports an AnalysisError as one line, ``PROG: error: TEXT``, and exits with
status 2: a missing or malformed trace or run.json, an argument out of its range, a table
whose runs do not fit together. Anything else that escapes is a bug in the tool.

report(prog, exc) prints that line and returns 2 (a script's main returns it);
ArgumentParser is argparse's parser whose errors are that one line too (argparse's own
prints the usage first).
"""

import argparse
import sys


class AnalysisError(Exception):
    """A problem with an input file or argument: one line, exit status 2."""


def report(prog, exc):
    """Print ``PROG: error: TEXT`` (TEXT: exc on one line) on stderr; return 2."""
    sys.stdout.flush()
    print("%s: error: %s" % (prog, " ".join(str(exc).split())), file=sys.stderr)
    return 2


class ArgumentParser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose errors are one line, ``PROG: error: TEXT``, exit 2; a
    description given as a script's docstring is its first paragraph, whole (--help never
    stops mid-sentence)."""

    def __init__(self, *args, description=None, **kwargs):
        if description:
            description = " ".join(description.strip().split("\n\n")[0].split())
        super().__init__(*args, description=description, **kwargs)

    def error(self, message):
        sys.exit(report(self.prog, message))
