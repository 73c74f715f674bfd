"""`sweep.py collect`: one row per finished run (its folder, its parameters and run.json's
summary flattened, nested keys joined by dots: energy_j.total), written to DIR/results.csv.

A summary value that is not finite (NaN, Infinity, -Infinity: JSON has none, but Python's
json writes and reads them; the programs write null) is written as nan, inf or -inf, and a
note names its column and runs; `plot` draws it as missing (not_finite, where_not_finite).
With no finished run, the table is its header only (so no row of an older table stays) and
the line printed says so (no_finished_run); `plot` refuses to draw it.
"""

import math
import os
import sys

from d2dlearn_analysis.atomic import atomic_open
from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.run_json import read_run_json
from d2dlearn_analysis.sweep.campaign import Campaign
from d2dlearn_analysis.sweep.common import PROG, SweepError, note, read_json
from d2dlearn_analysis.sweep.state import (
    INTERRUPTED_FILE, output_dir, read_failure, run_dir, run_state)


def flatten(prefix, value, into):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten("%s.%s" % (prefix, k) if prefix else k, v, into)
    else:
        into[prefix] = value


#: The order in which where_not_finite lists the kinds of values that are not finite.
NOT_FINITE = ("NaN", "inf", "-inf")


def not_finite(value):
    """"NaN", "inf" or "-inf" for a float that is not finite (a run.json with NaN or
    Infinity, as Python's json writes them), else None (a finite number, a text, null)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "inf" if value > 0 else "-inf"
    return None


def where_not_finite(cells, shown=3):
    """`NaN in A, B; inf in C` of cells [(run folder, kind of not_finite)], at most `shown`
    folders of each kind (then `...`)."""
    kinds = {}
    for folder, kind in cells:
        kinds.setdefault(kind, []).append(folder)
    return "; ".join("%s in %s%s" % (kind, ", ".join(kinds[kind][:shown]),
                                     ", ..." if len(kinds[kind]) > shown else "")
                     for kind in NOT_FINITE if kind in kinds)


def no_finished_run(out, file, runs, failed=0):
    """The one line that says a campaign folder has no finished run (`plot`'s error,
    `collect`'s line): what to run first."""
    text = "no finished run in %s (0 of %d runs)" % (out, runs)
    if failed:
        return text + ("; %d failed: `%s status %s` lists them, `%s run %s --retry-failed` "
                       "reruns them" % (failed, PROG, file, PROG, file))
    return text + ": run `%s run %s` first" % (PROG, file)


def collect(campaign, out, include_failed=False):
    """(columns, rows, runs not finished, failed runs left out) of the finished runs, in
    campaign order. With `include_failed`, the failed runs (and the interrupted ones that
    left a run.json) have rows too, marked: columns `state` (finished, failed or
    interrupted), `exit_code` and `error` follow `run`, and such a row holds run.json's
    summary only if the run wrote one."""
    params = campaign.parameter_names()
    marks = ["state", "exit_code", "error"] if include_failed else []
    columns = ["run"] + marks + params
    rows, missing, stale, failed = [], [], [], []
    for r in campaign.runs:
        d = run_dir(out, r)
        path = os.path.join(d, "run.json")
        state = run_state(out, r)
        mark = None
        if state == "stale":
            stale.append(r)  # its row would show parameters it did not run with
            continue
        if state == "failed":
            failed.append(r)
            if include_failed:
                code, error = read_failure(out, r)
                mark = {"state": "failed", "exit_code": code, "error": error}
        elif state == "interrupted" and include_failed and os.path.isfile(path):
            doc = read_json(os.path.join(d, INTERRUPTED_FILE)) or {}
            mark = {"state": "interrupted", "exit_code": doc.get("exit_code"),
                    "error": "stopped by %s" % (doc.get("signal") or "a signal")}
        if state != "done":
            missing.append(r)
            if mark is None:
                continue
        row = {"run": r.folder}
        if include_failed:
            row.update(mark or {"state": "finished", "exit_code": 0, "error": ""})
        row.update(r.parameters)
        if mark is not None and not os.path.isfile(path):
            doc = {}  # failed before it wrote run.json: its parameters and failure only
        else:
            try:
                doc = read_run_json(d)  # the analysis tools' one reader of run.json
            except AnalysisError:
                if mark is None:
                    raise
                doc = {}  # a failed run's half-written run.json: not a summary
        if "seed" not in row and "seed" in doc:
            row["seed"] = doc["seed"]
        summary = doc.get("summary")
        if isinstance(summary, dict):
            flatten("", summary, row)
        elif mark is None:
            note("%s has no summary (a program older than run.json's summary?): its row "
                 "holds the parameters only" % path)
        for k in row:
            if k not in columns:
                columns.append(k)
        rows.append(row)
    if stale:
        sys.stderr.write("%s: warning: %d stale run(s) left out (%s%s): they ran with other "
                         "parameters than the campaign's now; `run` reruns them\n"
                         % (PROG, len(stale), ", ".join(r.folder for r in stale[:3]),
                            ", ..." if len(stale) > 3 else ""))
    return columns, rows, missing, ([] if include_failed else failed)


def csv_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def cmd_collect(args):
    import csv
    campaign = Campaign(args.file)
    out = output_dir(args, campaign)
    columns, rows, missing, failed = collect(campaign, out, args.include_failed)
    if not os.path.isdir(out):
        raise SweepError("no campaign folder %s: run the campaign first" % out)
    path = os.path.join(out, "results.csv")
    with atomic_open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(columns)
        for row in rows:
            w.writerow([csv_text(row.get(c)) for c in columns])
    marked = sum(1 for row in rows if row.get("state") not in (None, "finished"))
    if not rows:
        # The header only: no row of an older table stays, and the line says why.
        print("wrote %s (the header only, %d columns): %s"
              % (path, len(columns), no_finished_run(out, args.file, len(campaign.runs),
                                                     len(failed))))
        return 0
    print("wrote %s (%d rows, %d columns%s)"
          % (path, len(rows), len(columns),
             "; %d of them not finished, marked in column state" % marked if marked else ""))
    bad = {}
    for row in rows:
        for column, value in row.items():
            kind = not_finite(value)
            if kind:
                bad.setdefault(column, []).append((row["run"], kind))
    if bad:
        note("%d summary value(s) not finite, written as nan, inf or -inf: %s"
             % (sum(len(cells) for cells in bad.values()),
                ", ".join("%s (%s)" % (column, where_not_finite(cells))
                          for column, cells in bad.items())))
    if failed:
        note("%d failed run(s) left out (--include-failed adds them, marked in column "
             "state)" % len(failed))
    others = len(missing) - len(failed) - marked
    if others:
        note("%d of %d runs not finished are left out (%s status %s)"
             % (others, len(campaign.runs), PROG, args.file))
    return 0
