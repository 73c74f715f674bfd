"""Helpers the Python CLI tests of fedavg share: checks counted in this module, runs of the
fedavg program, its traces read back, audit.py on a run.

A test script sets the programs once, then checks:

    import cli_checks
    from cli_checks import audited, check, read_csv, run

    cli_checks.configure(sys.argv[1], sys.argv[2])  # BIN_DIR, ANALYSIS_DIR
    check(cond, text)          # prints "ok: TEXT" or "FAIL: TEXT"; a FAIL counts
    ...
    if cli_checks.failures:    # the number of FAIL lines so far
        sys.exit(...)

The script's own folder is on sys.path when it is run as `python3 tests/cli/X.py`, which is
how `import cli_checks` finds this file.
"""

import csv
import os
import subprocess
import sys

FEDAVG = None  # BIN_DIR/fedavg, set by configure()
AUDIT = None  # ANALYSIS_DIR/audit.py, set by configure()
failures = 0


def configure(bin_dir, analysis_dir):
    """The fedavg program of bin_dir and the audit.py of analysis_dir, for run and audited."""
    global FEDAVG, AUDIT
    FEDAVG = os.path.join(bin_dir, "fedavg")
    AUDIT = os.path.join(analysis_dir, "audit.py")


def check(cond, text):
    """Prints "ok: TEXT" if cond holds, else "FAIL: TEXT" and counts a failure."""
    global failures
    print("%s: %s" % ("ok" if cond else "FAIL", text))
    failures += not cond


def run(args, out, timeout=600):
    """fedavg ARGS --outDir=OUT, its output captured (subprocess.CompletedProcess)."""
    return subprocess.run([FEDAVG] + args + ["--outDir=" + out], capture_output=True,
                          text=True, timeout=timeout)


def run_ok(args, out, label):
    """run(args, out), checked to exit 0 ("LABEL runs: <the end of its stderr>"); True if
    it did."""
    p = run(args, out)
    check(p.returncode == 0, "%s runs: %s" % (label, p.stderr.strip()[-300:]))
    return p.returncode == 0


def refused(cases, out, base=(), timeout=120, words_also=""):
    """Each (args, words) of cases: fedavg BASE + ARGS refuses in one line on stderr that
    holds words (and words_also), exit status 2, nothing written at out."""
    for args, words in cases:
        p = run(list(base) + args, out, timeout=timeout)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and words in lines[0]
              and words_also in lines[0] and not os.path.exists(out),
              "%s: exit %d, %r" % (" ".join(args), p.returncode, lines))


def read_csv(path):
    """The rows of the CSV file at path, as dicts of its header's columns."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def audited(run_dir):
    """Checks that analysis/audit.py passes on run_dir (exit 0)."""
    p = subprocess.run([sys.executable, AUDIT, run_dir], capture_output=True, text=True)
    check(p.returncode == 0, "audit.py %s: %s" % (os.path.basename(run_dir),
                                                  (p.stdout + p.stderr).strip()[-300:]))


def _network_csv_rows(run_dir):
    """rounds.csv's rows of node -1 (the network's, not a device's)."""
    return [r for r in read_csv(os.path.join(run_dir, "rounds.csv")) if r["node"] == "-1"]


def network_rows(run_dir):
    """{round: {metric: value}} of rounds.csv's node -1 rows; "end" the round_time_s row's
    sim_time_s, as written."""
    rows = {}
    for r in _network_csv_rows(run_dir):
        rows.setdefault(int(r["round"]), {})[r["metric"]] = float(r["value"])
        if r["metric"] == "round_time_s":
            rows[int(r["round"])]["end"] = r["sim_time_s"]
    return rows


def network_rows_timed(run_dir):
    """{round: {metric: (value, sim_time_s)}} of rounds.csv's node -1 rows, both floats."""
    rows = {}
    for r in _network_csv_rows(run_dir):
        rows.setdefault(int(r["round"]), {})[r["metric"]] = (float(r["value"]),
                                                             float(r["sim_time_s"]))
    return rows
