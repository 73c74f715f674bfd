"""Reading a run folder: its CSV traces (pandas) and its run.json, with one-line errors.

Every analysis script reads a d2dlearn trace through read_trace (or read_columns, load_energy)
and run.json through read_run_json (run_json.py, standard library only, re-exported here);
a problem is an AnalysisError of one line naming the file, and where it is a cell, its line
and column. This module needs pandas, not matplotlib (the table scripts import it alone),
and imports pandas when a trace is first read: a script that reads only run.json
(discovery_tables.py, audit.py) does not pay its 0.7 s.

    read_trace(path, required)      DataFrame of a CSV trace with the required columns
    read_columns(path, numeric, text, counts)
                                    the same with numeric columns as numbers, counts
                                    checked as integers >= 0, text columns stripped strings
    to_numeric, check_counts        those checks on a DataFrame read_trace gave
    load_energy(path)               energy.csv
    read_run_json(run_dir)          run.json
"""

import os

from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.run_json import read_run_json  # noqa: F401  (re-exported)

ENERGY_COLUMNS = ["sim_time_s", "node", "component", "energy_j", "remaining_j"]
ROUND_COLUMNS = ["round", "sim_time_s", "node", "metric", "value"]

#: The analysis tools' one error type (errors.AnalysisError), under the name the plot
#: scripts have always raised.
TraceError = AnalysisError


def read_trace(path, required):
    """Read a CSV trace; returns a DataFrame (possibly empty) or raises AnalysisError, one line:
    the file missing or unreadable ("cannot read PATH: ..."), not CSV ("cannot parse"), or
    without a required column. The analysis scripts read every trace through it."""
    import pandas as pd  # here, not at the top: see the module's docstring
    if not os.path.isfile(path):
        raise AnalysisError("cannot read %s: missing trace file" % path)
    try:
        df = pd.read_csv(path, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=required)  # zero-byte file: like header-only
    except OSError as exc:
        raise AnalysisError("cannot read %s: %s" % (path, exc.strerror or exc))
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        msg = " ".join(str(exc).split())
        raise AnalysisError("cannot parse %s: %s" % (path, msg))
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise AnalysisError("%s lacks required column(s): %s" % (path, ",".join(missing)))
    return df


def line_of(df, mask):
    """The file line of the first row of df where mask holds (header = line 1): df's index
    is read_trace's row number, kept through filtering (exact for the programs' traces, which
    have no blank line and no line break inside a field)."""
    import numpy as np
    return int(df.index[np.flatnonzero(np.asarray(mask))[0]]) + 2


def to_numeric(df, columns, path):
    """The columns as numbers (an empty cell: NaN), or AnalysisError naming the line, the value
    and the column of the first cell that is not a number."""
    import pandas as pd
    for col in columns:
        converted = pd.to_numeric(df[col], errors="coerce")
        bad = converted.isna() & df[col].notna() & (df[col].astype(str).str.strip() != "")
        if bad.any():
            first = df.loc[bad, col].iloc[0]
            raise AnalysisError("%s: line %d: non-numeric value %r in column %s"
                             % (path, line_of(df, bad), first, col))
        df[col] = converted


def check_counts(df, column, path):
    """The column as numbers, or AnalysisError unless every cell is a count: an integer >= 0,
    not empty."""
    import numpy as np
    import pandas as pd
    raw = df[column]
    values = pd.to_numeric(raw, errors="coerce")
    bad = values.isna() | (values < 0) | (values != np.floor(values))
    if bad.any():
        first = raw[bad].iloc[0]
        raise AnalysisError("%s: line %d: column %s must be a count (integer >= 0), got %s"
                         % (path, line_of(df, bad), column,
                            "empty" if pd.isna(first) else repr(first)))
    df[column] = values


def read_columns(path, numeric=(), text=(), counts=()):
    """read_trace(path) with the numeric columns as numbers (an empty cell: NaN), the counts
    (numeric columns too) integers >= 0, and the text columns stripped strings ("" for an
    empty cell)."""
    numeric = list(numeric) + [c for c in counts if c not in numeric]
    df = read_trace(path, numeric + [c for c in text if c not in numeric])
    to_numeric(df, [c for c in numeric if c not in counts], path)
    for col in counts:
        check_counts(df, col, path)
    for col in text:
        df[col] = df[col].fillna("").astype(str).str.strip()
    return df


def load_energy(path):
    """energy.csv: ENERGY_COLUMNS, the numbers as numbers, component a stripped string."""
    return read_columns(path, ["sim_time_s", "node", "energy_j", "remaining_j"], ["component"])


def load_rounds(path):
    """rounds.csv: ROUND_COLUMNS, the numbers as numbers, metric a stripped string (node -1:
    the global or mean model, and the energy of all devices at the round's end, metric
    energy_j and energy_j.COMPONENT)."""
    return read_columns(path, ["round", "sim_time_s", "node", "value"], ["metric"])


def last_global_accuracy(run_dir):
    """The last round's accuracy row of node -1 (the global or mean model) in RUN_DIR's
    rounds.csv (the last of that round's rows): round, sim_time_s and value; an
    AnalysisError naming the file if it has none."""
    path = os.path.join(run_dir, "rounds.csv")
    rounds = load_rounds(path)
    acc = rounds[(rounds["node"] == -1) & (rounds["metric"] == "accuracy")]
    if acc.empty:
        raise AnalysisError("%s: no accuracy row of node -1" % path)
    return acc[acc["round"] == acc["round"].max()].iloc[-1]
