"""The one error type of the analysis tools.

Every script reports an AnalysisError as one line, ``PROG: error: TEXT``, and exits with
status 2: a missing or malformed trace or run.json, an argument out of its range, a table
whose runs do not fit together. Anything else that escapes is a bug in the tool.
"""


class AnalysisError(Exception):
    """A problem with an input file or argument: one line, exit status 2."""
