#!/usr/bin/python3
"""Campaigns of d2dlearn runs: a parameter sweep described in a TOML file, run locally on a
process pool or as a Slurm job array, collected into one table and plotted.

Usage:
    /usr/bin/python3 analysis/sweep.py run FILE [--out DIR] [-j N] [--retry-failed]
                                             [--keep-stale] [--slurm [--wait]]
                                             [--bin DIR] [--dry-run]
    /usr/bin/python3 analysis/sweep.py status FILE [--out DIR] [--list]
    /usr/bin/python3 analysis/sweep.py collect FILE [--out DIR] [--include-failed]
    /usr/bin/python3 analysis/sweep.py plot FILE [--out DIR] --metric M --x P [--hue P]
                                             [--where P=V ...] [--format png|pdf|svg]
                                             [--band ci|sd|minmax|none] [--no-points]

The campaign file (FILE, TOML):

    scenario = "d2d-exchange"        # a program in build/bin (or the installed bin folder)
    [parameters]                     # fixed flags, as on the command line (--duration=5s)
    duration = "5s"
    [grid]                           # Cartesian product; seed is a flag like any other
    spectralEfficiency = [0.5, 2]
    seed = [1, 2]
    [[zip]]                          # optional: lists of equal length that vary together
    nDevices = [10, 20]
    areaSideM = [100, 200]
    [slurm]                          # optional: resources of one run (one array task)
    time = "0:10:00"
    mem = "1G"
    [local]                          # optional: the wall time limit of one local run
    time_limit = "0:10:00"

`scenario` is one of the project's programs (fedavg, cmfl, consensus, bayes-consensus,
graph-discovery, d2d-exchange), looked up in the bin folders; any other name or a path is
refused, unless the top-level key `program = "PATH"` names the executable to run (relative
to the campaign file's folder; a note says so): a campaign file never makes sweep.py run
a program by accident.
Optional top-level keys: `seeds = [1, 2]` (the same as a grid entry `seed`),
`threads_per_run` (the cores one run uses: the default -j is the number of cores over it;
by default the `threads` parameter, else the program's --threads default, else 1) and
`description`. [slurm] keys: time (default "1:00:00"), mem ("2G"), max_parallel (the array's
concurrency limit, 32), cpus_per_task (threads_per_run), partition, account, extra_args
(a list of further sbatch arguments). [local] key: time_limit (default none), the wall
time of one local run, in the syntax of Slurm's --time (MM, MM:SS, HH:MM:SS, D-HH,
D-HH:MM, D-HH:MM:SS): a run past it gets SIGTERM, SIGKILL 5 s later, and is failed with
reason "timed out" (Slurm runs have [slurm] time instead: past it Slurm stops them, and
they are interrupted).

The campaign folder DIR is --out DIR (relative to the current folder) or, by default,
results/NAME next to the campaign file (NAME: the file's name without .toml), so every
command finds it from any current folder. Every run is the program called with
--name=value for each parameter (fixed and swept; booleans as true/false) and
--outDir=DIR/FOLDER, from the campaign file's folder (relative paths in parameters are
relative to it). FOLDER names the swept parameters (`spectralEfficiency=0.5_seed=1`);
names longer than 100 characters or with characters other than letters, digits and
._+-= end in a hash of the values. The program's stdout and stderr go to
FOLDER/sweep.log; FOLDER/sweep-run.json records, before it starts, its command line,
host and pid. The state of a run, from its folder:

    finished     FOLDER/run.json (the scenarios write it last) and the program exited 0:
                 skipped by `run`.
    failed       FOLDER/sweep-failed.json (exit code, one-line error, reason): the program
                 exited non-zero by itself or crashed (reason "error"; also after it wrote
                 run.json: the exit status decides, not the file), or a local run
                 ran past [local] time_limit (reason "timed out"); rerun only with
                 --retry-failed.
    interrupted  FOLDER/sweep-interrupted.json, or a record whose process is gone: stopped
                 by SIGINT, SIGTERM, SIGHUP or SIGKILL (killed by it, or exit status 128 +
                 it from the program's own handler: 130, 143), as by Ctrl-C, scancel, a
                 Slurm time limit, preemption, the OOM killer or sweep.py being stopped;
                 a plain `run` (local or --slurm) runs it again.
    stale        finished (or failed) with another command than the campaign gives it now:
                 the record's hash of the program's name and sorted flags differs (so
                 moving the folders or rebuilding the program does not make runs stale;
                 runs without a record, from an older sweep.py, are taken as current).
                 `run` runs it again, unless --keep-stale (it says how many it keeps);
                 `collect` and `plot` leave it out with a one-line warning, as they leave
                 out the runs not finished: never a row labelled with values it did not
                 run with, and a table of the current campaign while it reruns.
    running      a record whose process is alive on this host (or, for status, a task
                 that squeue lists: running or queued).
    not started  no record.

A run that starts again starts in an emptied folder, never emptied while its process is
alive. Local runs do not outlive sweep.py: a SIGINT, SIGTERM or SIGHUP to it stops them
(SIGTERM, SIGKILL 5 s later; a signal ignored when sweep.py starts, as nohup's SIGHUP,
stays ignored), and if sweep.py dies otherwise (SIGKILL) the kernel sends them SIGTERM
(prctl PR_SET_PDEATHSIG, Linux); a `run` right after waits up to 10 s for them to end and
leaves alone any still alive.

`run --slurm` submits the runs that are neither finished, failed nor queued as one job
array per 1000 runs (`sbatch --array=0-N%max_parallel`); every task calls this script
(`_task`), which runs its run exactly as a local run. `status` counts the runs in each
state and lists the failed ones; `collect` writes DIR/results.csv, one row per finished
run: `run` (the folder), every campaign parameter, `seed` (from run.json if the campaign
does not set it) and every key of run.json's summary (nested keys joined by dots:
`energy_j.total`, `kinds.model.latency_mean_s`); the failed runs are left out (a note
says how many) unless --include-failed, which adds them and the interrupted runs that
wrote a run.json, marked in columns `state` (finished, failed, interrupted), `exit_code`
and `error` after `run`. `plot` draws a summary metric against a
swept parameter, one line per value of --hue (a legend of at most 8 entries), the mean
over the values of --replicate (default seed) with a band (--band: ci, the 95 %
confidence interval of the mean, Student t, the default; sd, mean +- 1 standard
deviation; minmax; none) and each replicate's value as a dot (unless --no-points). Band,
dots and axis stay in the metric's domain (rates and accuracies in [0, 1]; energies,
times and bytes >= 0: trace_io.COLUMNS); the axes are labelled with the quantity and its
unit (trace_io.axis_label). The table printed (CSV) has the band's limits as computed,
unclipped. A campaign with no finished run gives a figure that says so.

Bad input (a campaign that does not parse, an unknown key, an empty list, the same value
twice in a list (compared by meaning: 2, 2.0 and "2" are one number, "1s" and "1000ms"
one time, in exact seconds: refused, not merged), the same row twice in
a [[zip]] (a value may repeat in one zipped list: the rows must differ), zipped lists of
different lengths, a parameter that the program does not have, a missing program, a
scenario not one of the project's programs without program = PATH) stops
with a one-line error and exit status 2 before anything runs. Then `run` (local, --slurm,
--dry-run) calls each distinct command of the runs it would run (those not finished) once
with --validate appended and --outDir in a temporary folder (sweep-validate-PID-*,
removed after), in -j batches
of one program start each (the program forks a child per command: D2DLEARN_CASES; an older
build without that mode: one process per command, -j at a time), from the campaign file's
folder: the program checks every flag's value as the run would
and simulates and writes nothing; if it refuses one, `run` stops with one line naming the
run's folder and the program's error (exit status 2), and nothing is run, submitted or
written. Above VALIDATE_ALL (2000) runs to check, each value of each swept parameter is
validated once (the other parameters at their first value) and a note says so: a
combination the program refuses then fails its run at its start. The runs are made one
at a time from the axes (never all in memory), and --dry-run prints them as they are made.
A SIGINT, SIGTERM or SIGHUP before the runs start (reading the flags, validating) ends
sweep.py at once with one line and exit status 130, the helper processes' groups killed
and their temporary folder removed; they die with sweep.py if it is killed
(PR_SET_PDEATHSIG), and the folder it then leaves is removed by the next sweep.py.
A program without --validate (an older build) is noted and not checked so. So does a campaign file
that is not a regular file (a FIFO is never opened for reading), is larger than 1 MiB,
binary or not UTF-8, nests arrays or tables too deeply to parse, or whose grid has more
than 1,000,000 runs (counted before the runs are listed, also for --dry-run). So does a
second `run` of a campaign folder while one runs: DIR/.sweep/lock, held (flock) until the
first ends however it ends, names its pid and host. `run` exits 130 if interrupted
(sweep.py stopped, or a run stopped by a signal: run the same command to resume), else
1 while failed runs are left (one line says how many; --retry-failed reruns them).

Only Debian's python3 (tomllib) with its pandas and matplotlib packages is needed.
"""

import argparse
import ctypes
import fractions
import fcntl
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

PROG = "sweep.py"
HERE = os.path.dirname(os.path.abspath(__file__))
from d2dlearn_analysis import stats as analysis_stats  # noqa: E402  (stats.py: the one t quantile)

TOP_KEYS = {"scenario", "program", "parameters", "grid", "zip", "seeds", "threads_per_run",
            "slurm", "local", "description"}
# The project's scenario programs: the only names `scenario` takes (else `program = PATH`).
SCENARIOS = ("fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery",
             "d2d-exchange")
SLURM_KEYS = {"time": str, "mem": str, "max_parallel": int, "cpus_per_task": int,
              "partition": str, "account": str, "extra_args": list}
LOCAL_KEYS = {"time_limit": str}
TIME_RE = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$")
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(::[A-Za-z][A-Za-z0-9_]*)*$")
FOLDER_SAFE = re.compile(r"[^A-Za-z0-9._+=-]")
NUMBER_RE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$")
# ns-3 Time strings (nstime.h): a number and one of these units, in seconds.
TIME_UNITS = {"y": 365 * 86400, "d": 86400, "h": 3600, "min": 60, "s": 1,
              "ms": fractions.Fraction(1, 10 ** 3), "us": fractions.Fraction(1, 10 ** 6),
              "ns": fractions.Fraction(1, 10 ** 9), "ps": fractions.Fraction(1, 10 ** 12),
              "fs": fractions.Fraction(1, 10 ** 15)}
TIME_VALUE_RE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(%s)\s*$"
                           % "|".join(sorted(TIME_UNITS, key=len, reverse=True)))
MAX_FOLDER = 100
ARRAY_CHUNK = 1000
MAX_RUNS = 1000000
MAX_CAMPAIGN_BYTES = 1 << 20
RESERVED = {"outDir"}
STATE_DIR = ".sweep"
LOCK_FILE = "lock"
FAILED_FILE = "sweep-failed.json"
INTERRUPTED_FILE = "sweep-interrupted.json"
RECORD_FILE = "sweep-run.json"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
KILL_GRACE = 5.0
ORPHAN_WAIT = 10.0
PR_SET_PDEATHSIG = 1
LOG_FILE = "sweep.log"
VALIDATE_TIMEOUT = 120
# Up to this many runs to check, `run` validates every command (2000 d2d-exchange
# commands: 5 s on 2 cores, forked from one start per -j); above it, each value of each
# swept parameter once (axis_representatives).
VALIDATE_ALL = 2000
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class SweepError(Exception):
    """Bad input: reported as one line, exit status 2."""


class Stopped(Exception):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) before any run started: its helper processes
    killed, its temporary folder removed; reported as one line, exit status 130."""

    def __init__(self, signum):
        Exception.__init__(self, signum)
        self.signum = signum


def note(text):
    print("note: " + text, file=sys.stderr)


# --------------------------------------------------------------------------
# The campaign
# --------------------------------------------------------------------------

def flag_text(value):
    """A TOML value as on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError("not a finite number")
        return repr(value)
    return str(value)


def check_time(where, label, text, unlimited=False):
    """Seconds of a time in Slurm's --time syntax (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM,
    D-HH:MM:SS); with `unlimited`, also 0, UNLIMITED or INFINITE (None: no limit)."""
    if unlimited and text.strip().upper() in ("0", "UNLIMITED", "INFINITE"):
        return None
    m = TIME_RE.match(text.strip())
    if m:
        days, first, second, third = (int(g) if g else 0 for g in m.groups())
        if m.group(1) is not None:  # D-HH[:MM[:SS]]
            seconds = ((days * 24 + first) * 60 + second) * 60 + third
        elif m.group(4) is not None:  # HH:MM:SS
            seconds = (first * 60 + second) * 60 + third
        else:  # MM or MM:SS
            seconds = first * 60 + second
        if seconds >= 1:
            return seconds
    raise SweepError("%s: %s=%r is not a time of 1 s or more (accepted: as Slurm's --time: "
                     "MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS%s)"
                     % (where, label, text, "; or UNLIMITED" if unlimited else ""))


def value_key(value):
    """What a value means as a flag, to find the same value spelt twice: a number (given as
    a number or as text: 2, 2.0, "2", "2e0") as its exact decimal value, an ns-3 Time
    string ("1s", "1000ms", "0.5min") as its exact number of seconds (the same number:
    a Time given without unit is in seconds), anything else as its flag text."""
    if not isinstance(value, bool):
        text = flag_text(value)
        m = NUMBER_RE.match(text)
        if m:
            return ("number", fractions.Fraction(m.group(1)))
        m = TIME_VALUE_RE.match(text)
        if m:
            return ("number", fractions.Fraction(m.group(1)) * TIME_UNITS[m.group(2)])
    return ("text", flag_text(value))


def check_value(where, value):
    if isinstance(value, (bool, int, float, str)):
        try:
            flag_text(value)
        except ValueError as exc:
            raise SweepError("%s: %r is %s" % (where, value, exc))
        return
    raise SweepError("%s: %r is not a number, string or boolean" % (where, value))


def read_campaign_text(path):
    """The text of a campaign file, refused (SweepError) unless it is a small regular file
    of UTF-8 text. A FIFO or device is never opened for reading (it could block)."""
    def check_regular(st):
        if not stat.S_ISREG(st.st_mode):
            raise SweepError("%s: not a regular file (a campaign is a TOML text file)" % path)
    try:
        check_regular(os.stat(path))
        # O_NONBLOCK: should the file become a FIFO after the stat, open does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            check_regular(os.fstat(fd))
            data = fh.read(MAX_CAMPAIGN_BYTES + 1)
    except OSError as exc:
        raise SweepError("cannot read campaign %s: %s" % (path, exc.strerror or exc))
    if len(data) > MAX_CAMPAIGN_BYTES:
        raise SweepError("%s: larger than %d bytes (accepted for a campaign: up to %d)"
                         % (path, MAX_CAMPAIGN_BYTES, MAX_CAMPAIGN_BYTES))
    if b"\0" in data:
        raise SweepError("%s: a binary file (it holds NUL bytes), not a TOML campaign" % path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SweepError("%s: not UTF-8 text (byte 0x%02x at offset %d); TOML files are UTF-8"
                         % (path, data[exc.start], exc.start))


class Campaign:
    """A parsed campaign file: scenario, fixed parameters, swept axes, resources."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.splitext(os.path.basename(path))[0]
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            raise SweepError("tomllib is missing: use Debian 12's /usr/bin/python3 (3.11)")
        text = read_campaign_text(path)
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SweepError("%s: not valid TOML: %s" % (path, " ".join(str(exc).split())))
        except RecursionError:
            raise SweepError("%s: not valid TOML: arrays or tables nested too deeply" % path)
        where = os.path.basename(path)
        unknown = sorted(set(doc) - TOP_KEYS)
        if unknown:
            raise SweepError("%s: unknown key %s (accepted: %s)"
                             % (where, unknown[0], ", ".join(sorted(TOP_KEYS))))
        self.scenario = doc.get("scenario")
        if not isinstance(self.scenario, str) or not self.scenario.strip():
            raise SweepError("%s: scenario must name a program, e.g. scenario = \"fedavg\""
                             % where)
        # An explicit program = PATH runs that executable (relative to the campaign's
        # folder); without it, scenario names one of the project's programs, never a path
        # or a command that a campaign file (shared, downloaded) would make sweep.py run.
        self.program = doc.get("program")
        if self.program is not None:
            if not isinstance(self.program, str) or not self.program.strip():
                raise SweepError("%s: program must be the path of an executable, e.g. "
                                 "program = \"build/bin/d2d-exchange\"" % where)
            if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$", self.scenario):
                raise SweepError("%s: scenario=%r is not a name (with program = PATH, "
                                 "scenario names what it runs: letters, digits, - and _)"
                                 % (where, self.scenario))
        elif self.scenario not in SCENARIOS:
            raise SweepError("%s: scenario=%r is not one of the project's programs "
                             "(accepted: %s; another executable: give program = \"PATH\")"
                             % (where, self.scenario, ", ".join(SCENARIOS)))
        self.description = doc.get("description", "")
        self.fixed = {}
        params = doc.get("parameters", {})
        if not isinstance(params, dict):
            raise SweepError("%s: [parameters] must be a table of name = value" % where)
        for name, value in params.items():
            self.check_name(where, "[parameters]", name)
            check_value("%s: [parameters] %s" % (where, name), value)
            self.fixed[name] = value
        # Axes: each is (names, list of value tuples); the product of the axes is the runs.
        self.axes = []
        grid = doc.get("grid", {})
        if not isinstance(grid, dict):
            raise SweepError("%s: [grid] must be a table of name = [values]" % where)
        seeds = doc.get("seeds")
        if seeds is not None:
            if "seed" in grid:
                raise SweepError("%s: seeds and [grid] seed both given; keep one" % where)
            grid = dict(grid)
            grid["seed"] = seeds
        for name, values in grid.items():
            label = "[grid] " + name if name != "seed" or seeds is None else "seeds"
            self.check_name(where, label, name)
            self.axes.append(([name], [(v,) for v in self.check_list(where, label, values)]))
        zips = doc.get("zip", [])
        if isinstance(zips, dict):
            zips = [zips]
        if not isinstance(zips, list):
            raise SweepError("%s: zip must be [[zip]] tables of name = [values]" % where)
        for k, table in enumerate(zips):
            label = "[[zip]] #%d" % (k + 1)
            if not isinstance(table, dict) or not table:
                raise SweepError("%s: %s must be a non-empty table of name = [values]"
                                 % (where, label))
            names, lists = [], []
            for name, values in table.items():
                self.check_name(where, label, name)
                names.append(name)
                # A value may repeat in one zipped list (algorithm = ["consensus",
                # "consensus"] with trust = ["static", "dynamic"]): rows must differ.
                lists.append(self.check_list(where, "%s %s" % (label, name), values,
                                             distinct=False))
            lengths = {len(v) for v in lists}
            if len(lengths) > 1:
                raise SweepError("%s: %s: lists of different lengths (%s) cannot be zipped"
                                 % (where, label, ", ".join("%s %d" % (n, len(v))
                                                            for n, v in zip(names, lists))))
            seen = {}
            for row, values in enumerate(zip(*lists), start=1):
                # Numbers compare by value (2, 2.0 and "2"), times in seconds ("1s" and
                # "1000ms"), other values by their flag text.
                key = tuple(value_key(v) for v in values)
                if key in seen:
                    same = ", ".join("%s=%s" % (n, flag_text(v)) for n, v in zip(names, values))
                    raise SweepError("%s: %s: rows %d and %d are the same (%s): the same runs "
                                     "twice; keep one" % (where, label, seen[key], row, same))
                seen[key] = row
            self.axes.append((names, list(zip(*lists))))
        self.swept = [n for names, _ in self.axes for n in names]
        threads = doc.get("threads_per_run")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 1):
            raise SweepError("%s: threads_per_run=%r is out of range (accepted: 1 or more)"
                             % (where, threads))
        self.threads_per_run = threads
        self.slurm = self.check_table(where, doc, "slurm", SLURM_KEYS)
        if "time" in self.slurm:
            check_time(where, "[slurm] time", self.slurm["time"], unlimited=True)
        local = self.check_table(where, doc, "local", LOCAL_KEYS)
        self.time_limit = None
        if "time_limit" in local:
            self.time_limit = check_time(where, "[local] time_limit", local["time_limit"])
        # Counted before expanding: a few short lines can make an astronomical product.
        count = math.prod(len(values) for _, values in self.axes)
        if count > MAX_RUNS:
            size = (str(count) if count < 10 ** 15
                    else "about 10^%d" % int(math.log10(count)))
            raise SweepError("%s: the grid has %s runs; accepted: up to %d"
                             % (where, size, MAX_RUNS))
        self.runs = Runs(self)
        self.check_folders(where)

    @staticmethod
    def check_table(where, doc, table, keys):
        """The campaign's [table] ({} if absent), its keys and their types checked."""
        values = doc.get(table, {})
        if not isinstance(values, dict):
            raise SweepError("%s: [%s] must be a table" % (where, table))
        for key, value in values.items():
            if key not in keys:
                raise SweepError("%s: [%s] unknown key %s (accepted: %s)"
                                 % (where, table, key, ", ".join(sorted(keys))))
            kind = keys[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise SweepError("%s: [%s] %s must be a %s"
                                 % (where, table, key, kind.__name__))
            if kind is int and value < 1:
                raise SweepError("%s: [%s] %s=%d is out of range (accepted: 1 or more)"
                                 % (where, table, key, value))
            if kind is list and not all(isinstance(a, str) for a in value):
                raise SweepError("%s: [%s] %s must be a list of strings" % (where, table, key))
        return values

    def check_name(self, where, label, name):
        if not NAME_RE.match(name):
            raise SweepError("%s: %s: %r is not a flag name (letters, digits, _, or "
                             "ns3::Class::Attribute)" % (where, label, name))
        if name in RESERVED:
            raise SweepError("%s: %s: %s is set by sweep.py (one folder per run under --out)"
                             % (where, label, name))
        seen = set(self.fixed) | {n for names, _ in getattr(self, "axes", []) for n in names}
        if name in seen:
            raise SweepError("%s: %s: %s is given twice" % (where, label, name))

    @staticmethod
    def check_list(where, label, values, distinct=True):
        if not isinstance(values, list):
            raise SweepError("%s: %s must be a list of values, e.g. [1, 2]" % (where, label))
        if not values:
            raise SweepError("%s: %s is an empty list" % (where, label))
        for v in values:
            check_value("%s: %s" % (where, label), v)
        if not distinct:
            return values
        # The same value twice would run the same command twice (into two folders): 2 and
        # 2.0 or "2" (numbers compare by value), "1s" and "1000ms" (times, in seconds).
        seen = {}
        for v in values:
            key = value_key(v)
            first = seen.get(key)
            if first is not None:
                if flag_text(first) == flag_text(v):
                    raise SweepError("%s: %s holds %s twice" % (where, label, flag_text(v)))
                raise SweepError("%s: %s holds %s and %s, the same value twice; keep one"
                                 % (where, label, flag_text(first), flag_text(v)))
            seen[key] = v
        return values

    def folders_distinct(self):
        """Whether every run's folder is its plain name=value_... text, distinct by
        construction: no value's flag text holds "_" (a value then ends at the first "_"
        after its "name=", so two runs with different values, which they have, cannot
        spell the same name) or a character the folder name replaces, and the longest
        combination stays within MAX_FOLDER (no hash, which could collide)."""
        longest = -1
        for names, rows in self.axes:
            for i, name in enumerate(names):
                texts = [flag_text(row[i]) for row in rows]
                if any("_" in t or FOLDER_SAFE.search(t) for t in texts):
                    return False
                longest += len(name) + 2 + max(len(t) for t in texts)
        return longest <= MAX_FOLDER

    def check_folders(self, where):
        """SweepError if two runs map to one folder. Distinct by construction in most
        campaigns (folders_distinct: checked on the values, not the runs); otherwise every
        folder name is computed once and an 8-byte digest of each kept (about 60 MB for
        10^6 runs, not the names), a digest seen twice confirmed on the names."""
        if self.folders_distinct():
            return
        seen = set()
        clash = None
        for r in self.runs:
            key = hashlib.blake2b(r.folder.encode(), digest_size=8).digest()
            if key in seen:
                clash = r
                break
            seen.add(key)
        if clash is None:
            return
        del seen
        for r in self.runs:
            if r.folder == clash.folder:
                if r.swept != clash.swept:
                    raise SweepError("%s: two runs map to folder %s (%s and %s)"
                                     % (where, r.folder, dict(r.swept), dict(clash.swept)))
                break
        # A digest collision of two different names: check by the names themselves.
        names = set()
        for r in self.runs:
            if r.folder in names:
                first = next(o for o in self.runs if o.folder == r.folder)
                raise SweepError("%s: two runs map to folder %s (%s and %s)"
                                 % (where, r.folder, dict(first.swept), dict(r.swept)))
            names.add(r.folder)

    def parameter_names(self):
        return list(self.fixed) + self.swept


class Runs:
    """The runs of a campaign, in order (the last axis varies fastest), made one at a time
    when asked for: the axes are kept, not the runs (a campaign of 10^6 runs is a few
    lists of values). A sequence: len(), iteration, runs[i] (mixed radix over the axes)."""

    def __init__(self, campaign):
        self.campaign = campaign
        self.sizes = [len(values) for _, values in campaign.axes]
        self.count = math.prod(self.sizes)

    def __len__(self):
        return self.count

    def make(self, combo):
        swept = []
        for (names, _), values in zip(self.campaign.axes, combo):
            swept.extend(zip(names, values))
        return Run(self.campaign, swept)

    def __iter__(self):
        for combo in itertools.product(*[values for _, values in self.campaign.axes]):
            yield self.make(combo)

    def at(self, indices):
        """The run with value number indices[a] of each axis a."""
        return self.make([values[i] for (_, values), i in zip(self.campaign.axes, indices)])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError("run %d of %d" % (index, self.count))
        indices = []
        for size in reversed(self.sizes):
            index, i = divmod(index, size)
            indices.append(i)
        return self.at(indices[::-1])


class Run:
    """One run: the campaign's fixed parameters plus one value of every swept axis."""

    def __init__(self, campaign, swept):
        self.swept = swept
        self.parameters = dict(campaign.fixed)
        self.parameters.update(swept)
        self.folder = folder_name(swept)
        self.program_name = os.path.basename(campaign.scenario)

    @classmethod
    def from_manifest(cls, entry, program, scenario=None):
        """The run of a Slurm manifest entry ({"folder", "parameters"}); `scenario`, the
        campaign's (its command's name, also when program = PATH runs another file)."""
        run = cls.__new__(cls)
        run.swept = None
        run.parameters = entry["parameters"]
        run.folder = entry["folder"]
        run.program_name = os.path.basename(scenario or program)
        return run

    def flags(self):
        return ["--%s=%s" % (k, flag_text(v)) for k, v in self.parameters.items()]

    def argv(self, program, run_dir):
        return [program] + self.flags() + ["--outDir=%s" % run_dir]

    def command(self):
        """What makes the run's results: the program's name and its flags, sorted (not
        its folder, nor where the program or the campaign folder are)."""
        return [self.program_name] + sorted(self.flags())

    def command_hash(self):
        return hashlib.sha256(json.dumps(self.command()).encode()).hexdigest()


def folder_name(swept):
    """Stable, readable folder name of a run: name=value of the swept parameters."""
    if not swept:
        return "run"
    raw = "_".join("%s=%s" % (k, flag_text(v)) for k, v in swept)
    safe = FOLDER_SAFE.sub("-", raw)
    if safe == raw and len(raw) <= MAX_FOLDER:
        return raw
    digest = hashlib.sha1(json.dumps([[k, flag_text(v)] for k, v in swept]).encode())
    return "%s-%s" % (safe[:MAX_FOLDER - 9].rstrip("-_"), digest.hexdigest()[:8])


# --------------------------------------------------------------------------
# Programs
# --------------------------------------------------------------------------

def find_program(campaign, bin_dir):
    """Absolute path of the campaign's program: its `program = PATH` (relative to the
    campaign file's folder), else its scenario's program looked up in the bin folders."""
    name = campaign.scenario
    if campaign.program is not None:
        path = os.path.join(os.path.dirname(campaign.path),
                            os.path.expanduser(campaign.program))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise SweepError("%s: program %s: not an executable file"
                             % (os.path.basename(campaign.path), campaign.program))
        path = os.path.abspath(path)
        note("scenario %s runs %s (program = in %s)"
             % (name, path, os.path.basename(campaign.path)))
        return path
    candidates = []
    if bin_dir:
        candidates.append(os.path.join(bin_dir, name))
    if os.environ.get("D2DLEARN_BIN"):
        candidates.append(os.path.join(os.environ["D2DLEARN_BIN"], name))
    repo = os.path.dirname(HERE)
    candidates.append(os.path.join(repo, "build", "bin", name))  # source tree
    # Installed: P/share/d2dlearn/analysis/sweep.py and P/bin.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(repo)), "bin", name))
    found = shutil.which(name)
    if found:
        candidates.append(found)
    if bin_dir:
        candidates = candidates[:1]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise SweepError("scenario %s: no such program (looked in %s); build it first "
                     "(cmake --build build) or give --bin DIR"
                     % (name, ", ".join(os.path.dirname(c) or "." for c in candidates)))


_OPTIONS = {}  # (program's real path, mtime_ns, size): its program_options()


def program_options(program):
    """{flag: default text} of an ns-3 program (--PrintHelp), or None if it has none. Asked
    once per program file (about a second of LibTorch start-up each), again if it changes."""
    try:
        st = os.stat(program)
        key = (os.path.realpath(program), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    if key is not None and key in _OPTIONS:
        cached = _OPTIONS[key]
        return dict(cached) if cached is not None else None
    options = _program_options(program)
    if key is not None:
        _OPTIONS[key] = dict(options) if options is not None else None
    return options


def _help_texts(program):
    """(--PrintHelp's output, --PrintGlobals' output or None) of a program: both from one
    start of it where it has the batch mode (D2DLEARN_CASES, core/helper/d2d-case-batch.h:
    one forked child per command line), else from two. None if it does not start."""
    tmp = helper_folder("help")
    cases = os.path.join(tmp, "cases")
    try:
        with open(cases, "w") as f:
            f.write("--PrintHelp\n--PrintGlobals\n")
        env = dict(os.environ, D2DLEARN_CASES=cases,
                   D2DLEARN_CASE_TIMEOUT=str(VALIDATE_TIMEOUT))
        try:
            # Without the batch mode the program prints its help: its own arguments.
            _, own_help, _ = run_child([program, "--PrintHelp"], 120, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, universal_newlines=True,
                                       env=env, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return None
        batched = os.path.exists(cases + ".1.rc")
        texts = []
        for i in (1, 2):
            try:
                with open("%s.%d.rc" % (cases, i)) as f:
                    if int(f.read().strip()) != 0:
                        break
                with open("%s.%d.out" % (cases, i), errors="replace") as f:
                    texts.append(f.read())
            except (OSError, ValueError):
                break
        if len(texts) == 2:
            return texts[0], texts[1]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def output(flag):
        """What `program flag` prints, in a start of its own; None if it does not start."""
        try:
            return run_child([program, flag], 120, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True,
                             stdin=subprocess.DEVNULL)[1]
        except (OSError, subprocess.TimeoutExpired):
            return None

    # Batched but a case failed: the parent printed nothing; each in a start of its own.
    help_text = output("--PrintHelp") if batched else own_help
    return (help_text, output("--PrintGlobals")) if help_text is not None else None


def _program_options(program):
    """program_options() without the cache."""
    texts = _help_texts(program)
    if texts is None:
        return None
    help_text, globals_text = texts
    options = {}
    section = None
    for line in help_text.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            section = line.strip()
            continue
        m = re.match(r"^\s+--([A-Za-z0-9_]+):\s*(.*?)(?:\s\[(.*)\])?$", line)
        if m and section == "Program Options:":
            options[m.group(1)] = m.group(3)
    if not options:
        return None
    for m in re.finditer(r"^\s+--([A-Za-z0-9_]+)=", globals_text or "", re.M):
        options.setdefault(m.group(1), None)
    return options


def check_parameters(campaign, program):
    """Stop before running if a parameter is not one of the program's flags."""
    options = program_options(program)
    if options is None:
        note("%s does not list its flags (--PrintHelp); parameters not checked" % program)
        return {}
    for name in campaign.parameter_names():
        if "::" in name:
            continue  # ns-3 attributes: the program checks them
        if name not in options:
            close = [o for o in options if o.lower() == name.lower()]
            raise SweepError("%s: parameter %s is not a flag of %s%s"
                             % (os.path.basename(campaign.path), name,
                                os.path.basename(program),
                                " (did you mean %s?)" % close[0] if close else
                                " (see %s --PrintHelp)" % os.path.basename(program)))
    return options


def threads_per_run(campaign, options):
    if campaign.threads_per_run:
        return campaign.threads_per_run
    value = campaign.fixed.get("threads")
    if value is None and options:
        value = options.get("threads")
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return 1


# --------------------------------------------------------------------------
# Run folders
# --------------------------------------------------------------------------

def run_dir(out, run):
    return os.path.join(out, run.folder)


def read_json(path):
    """A JSON object from a file, or None if it is missing or unreadable."""
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def run_state(out, run):
    """The state of a run from its folder: 'done', 'stale' (finished or failed with
    another command than the campaign's now), 'failed', 'interrupted', 'running' (its
    process is alive on this host) or 'missing'."""
    d = run_dir(out, run)
    record = read_json(os.path.join(d, RECORD_FILE))
    # The exit status decides, not run.json: a run that wrote run.json and then crashed
    # (SIGABRT, exit -6) has its FAILED_FILE beside it and is failed.
    for name, state in ((FAILED_FILE, "failed"), ("run.json", "done")):
        if os.path.isfile(os.path.join(d, name)):
            # No record: finished by a sweep.py that kept none; taken as current.
            current = record is None or record.get("command_hash") == run.command_hash()
            if state == "done" and os.path.isfile(os.path.join(d, INTERRUPTED_FILE)):
                return "interrupted" if current else "stale"
            return state if current else "stale"
    if os.path.isfile(os.path.join(d, INTERRUPTED_FILE)):
        return "interrupted"
    if record is None:
        return "missing"
    # Started but no outcome: still running, or its runner died with it (SIGKILL).
    return "running" if run_is_alive(record) else "interrupted"


def run_is_alive(record):
    """Whether a run record's process still runs here: its pid, on this host, is alive (not
    a zombie) with the recorded command line (so a reused pid does not count)."""
    pid = record.get("pid")
    if not isinstance(pid, int) or record.get("host") != socket.gethostname():
        return False
    try:
        with open("/proc/%d/stat" % pid) as fh:
            state = fh.read().rpartition(")")[2].split()[0]
        with open("/proc/%d/cmdline" % pid, "rb") as fh:
            cmdline = fh.read().split(b"\0")[:-1]
    except (OSError, IndexError):
        return False
    return state != "Z" and cmdline == [os.fsencode(a) for a in record.get("argv", [])]


def read_failure(out, run):
    doc = read_json(os.path.join(run_dir(out, run), FAILED_FILE)) or {}
    try:
        return int(doc["exit_code"]), str(doc.get("error", ""))
    except (KeyError, ValueError, TypeError):
        return -1, "(unreadable %s)" % FAILED_FILE


def write_json_atomic(path, doc):
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def error_line(log_path):
    """The one-line error of a failed run: its last line naming an error, else its last."""
    try:
        with open(log_path, errors="replace") as fh:
            return error_in(fh.read())
    except OSError:
        return "(no log)"


def error_in(text):
    """The one-line error in a program's output: its last line naming an error, else its
    last line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "error" in ln.lower():
            return ln
    return lines[-1] if lines else "(no output)"


def prepare_folder(d):
    """An unfinished folder starts empty: traces of an interrupted attempt are removed,
    unless its run is still alive (then SweepError: it would go on writing into it)."""
    record = read_json(os.path.join(d, RECORD_FILE))
    if record is not None and run_is_alive(record):
        raise SweepError("%s: its run (pid %d) is still alive; not emptied" % (d, record["pid"]))
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)


_libc = []


def die_with_runner(runner):
    """In a run's process before exec: SIGTERM when the runner (pid `runner`) dies, however
    it dies (prctl PR_SET_PDEATHSIG), so no run outlives it."""
    if _libc:
        _libc[0].prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != runner:  # the runner died before prctl
        os._exit(128 + signal.SIGTERM)


def start_run(run, program, out, cwd):
    """Start a run in its emptied folder, its command recorded (RECORD_FILE) first."""
    d = run_dir(out, run)
    prepare_folder(d)
    record = {"argv": run.argv(program, os.path.abspath(d)), "cwd": cwd,
              "command": run.command(), "command_hash": run.command_hash(),
              "host": socket.gethostname(), "pid": None}
    record_path = os.path.join(d, RECORD_FILE)
    write_json_atomic(record_path, record)
    if not _libc:
        try:
            _libc.append(ctypes.CDLL(None, use_errno=True))
        except OSError:
            pass  # not Linux: runs may outlive a runner killed by SIGKILL
    runner = os.getpid()
    log = open(os.path.join(d, LOG_FILE), "wb")
    try:
        proc = subprocess.Popen(record["argv"], stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=cwd, start_new_session=True,
                                preexec_fn=lambda: die_with_runner(runner))
    finally:
        log.close()
    record["pid"] = proc.pid
    write_json_atomic(record_path, record)
    return proc


def interrupting_signal(returncode):
    """The signal that stopped a run, if one of STOP_SIGNALS or SIGKILL stopped it: killed by
    it, or exit status 128 + it (the d2dlearn programs' SIGINT/SIGTERM handler exits so,
    d2d-trace-helper.cc); else None."""
    for s in STOP_SIGNALS + (signal.SIGKILL,):
        if returncode in (-s, 128 + s):
            return s
    return None


def finish_run(run, out, returncode, cause=None, error=None):
    """Record the outcome of a run that has ended: 'done', 'failed' (FAILED_FILE) or
    'interrupted' (INTERRUPTED_FILE). `cause` is why sweep.py stopped it, if it did:
    'interrupted', or 'timed out' (a failure, `error` its text)."""
    d = run_dir(out, run)
    if returncode == 0 and os.path.isfile(os.path.join(d, "run.json")):
        return "done"
    stopped_by = interrupting_signal(returncode)
    if cause != "timed out" and (cause == "interrupted" or stopped_by):
        write_json_atomic(os.path.join(d, INTERRUPTED_FILE),
                          {"exit_code": returncode, "folder": run.folder,
                           "signal": signal.Signals(stopped_by).name if stopped_by else None})
        return "interrupted"
    if cause != "timed out":
        error = exit_error(returncode, os.path.join(d, LOG_FILE))
    write_json_atomic(os.path.join(d, FAILED_FILE),
                      {"exit_code": returncode, "error": error, "folder": run.folder,
                       "reason": cause or "error"})
    return "failed"


def exit_error(returncode, log_path):
    """The one-line error of a run that failed by itself."""
    if returncode == 0:
        return "exited 0 but wrote no run.json"
    if returncode < 0:
        try:
            return "killed by %s" % signal.Signals(-returncode).name
        except ValueError:
            return "killed by signal %d" % -returncode
    return error_line(log_path)


def catch_stop_signals(handler):
    """Install `handler` for STOP_SIGNALS (those not ignored: nohup's SIGHUP stays ignored);
    the previous handlers, to restore."""
    return {s: signal.signal(s, handler) for s in STOP_SIGNALS
            if signal.getsignal(s) != signal.SIG_IGN}


def execute_run(run, program, out, cwd):
    """Run one run to its end in the foreground (a Slurm task); its exit status."""
    proc = start_run(run, program, out, cwd)
    catch_stop_signals(lambda signum, frame: proc.send_signal(signum))
    rc = proc.wait()
    return 0 if finish_run(run, out, rc) == "done" else (rc if rc > 0 else 1)


# --------------------------------------------------------------------------
# Helper processes (--PrintHelp, --validate): they die with sweep.py
# --------------------------------------------------------------------------

_children = []        # the helper processes alive (Popen), each leading its process group
_children_lock = threading.Lock()
_stopping = []        # the stop signal received, once one was


def libc():
    if not _libc:
        try:
            _libc.append(ctypes.CDLL(None, use_errno=True))
        except OSError:
            pass  # not Linux: helpers may outlive a sweep.py killed by SIGKILL
    return _libc[0] if _libc else None


def die_with_sweep(parent):
    """In a helper process before exec: SIGKILL when sweep.py (pid `parent`) dies, however
    it dies (prctl PR_SET_PDEATHSIG); a batch program then forks no further case."""
    if _libc:
        _libc[0].prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # sweep.py died before prctl
        os._exit(128 + signal.SIGKILL)


def run_child(argv, timeout, **kwargs):
    """subprocess.run for a helper process: (exit status, stdout, stderr). It leads a
    process group of its own (with the cases a batch program forks), killed whole on a
    timeout (subprocess.TimeoutExpired) or a stop signal (stop_children), and dies with
    sweep.py (die_with_sweep)."""
    libc()
    parent = os.getpid()
    with _children_lock:
        if _stopping:
            raise Stopped(_stopping[0])
        proc = subprocess.Popen(argv, start_new_session=True,
                                preexec_fn=lambda: die_with_sweep(parent), **kwargs)
        _children.append(proc)
    try:
        if _stopping:  # the signal came while it started
            signal_group(proc, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=timeout)
        except BaseException:
            signal_group(proc, signal.SIGKILL)
            proc.communicate()
            raise
    finally:
        with _children_lock:
            _children.remove(proc)
    return proc.returncode, out, err


def stop_children(signum, frame):
    """Handler of the stop signals while no run has started: the helper processes are
    killed (their process groups) and Stopped raised, once."""
    first = not _stopping
    _stopping.append(signum)
    for proc in list(_children):
        signal_group(proc, signal.SIGKILL)
    if first:
        raise Stopped(signum)


def helper_folder(kind):
    """A temporary folder for helper processes, named with sweep.py's pid
    (sweep-KIND-PID-XXXX), after removing those of sweep.py processes that are gone (killed
    by SIGKILL, they could not remove their own)."""
    top = tempfile.gettempdir()
    try:
        names = os.listdir(top)
    except OSError:
        names = []
    for name in names:
        m = re.match(r"^sweep-(?:validate|help)-(\d+)-", name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        path = os.path.join(top, name)
        try:
            if os.lstat(path).st_uid != os.getuid():
                continue
            os.kill(int(m.group(1)), 0)
            continue  # its sweep.py is alive
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue
    return tempfile.mkdtemp(prefix="sweep-%s-%d-" % (kind, os.getpid()))


# --------------------------------------------------------------------------
# Validation: every command checked by its program before any run starts
# --------------------------------------------------------------------------

def axis_representatives(campaign):
    """One run per value of each axis, the other axes at their first value, in campaign
    order: sum of the axes' lengths minus (axes - 1) runs, every swept value in one."""
    indices = set()
    sizes = campaign.runs.sizes
    for a, size in enumerate(sizes):
        for i in range(size):
            indices.add(tuple(i if b == a else 0 for b in range(len(sizes))))
    return [campaign.runs.at(ix) for ix in sorted(indices)]


def validate_runs(campaign, program, runs, jobs, options, count=None):
    """Call each distinct command of the `count` runs (default: len) of `runs` once with
    --validate (the program parses and checks every flag as the run would, and simulates
    and writes nothing), from the campaign's folder and with --outDir in a temporary
    folder (removed after): in `jobs` batches, each one start of the program that forks a
    child per command (D2DLEARN_CASES), or, for a program without that mode, one process
    per command, `jobs` at a time. Above VALIDATE_ALL runs, each value of each swept
    parameter once instead (axis_representatives: the combinations are checked by each
    run at its start). SweepError naming the first refused run in campaign order and the
    program's one-line error; nothing is run or written then."""
    if options is not None and "validate" not in options:
        note("%s has no --validate (an older build?): the runs' values are not checked "
             "before they start" % os.path.basename(program))
        return
    if count is None:
        count = len(runs)
    if count > VALIDATE_ALL:
        runs = axis_representatives(campaign)
        note("%d runs to check, more than %d: each value of each swept parameter is "
             "validated once (%d commands, the other parameters at their first value); "
             "a combination the program refuses fails its run at its start, with its "
             "one-line error" % (count, VALIDATE_ALL, len(runs)))
    distinct = {}
    for r in runs:
        distinct.setdefault(tuple(r.command()), r)
    if not distinct:
        return
    import concurrent.futures
    cwd = os.path.dirname(campaign.path)
    tmp = helper_folder("validate")

    def verdict(code, stderr):
        """None if accepted, else the refusal (exit status code, what was on stderr)."""
        if code == 0:
            return None
        error = error_in(stderr) if stderr.strip() else "(no error message)"
        if code == 124:
            return "no answer to --validate within %d s" % VALIDATE_TIMEOUT
        return error if code < 128 else "%s (killed by signal %d)" % (error, code - 128)

    def validate_batch(b, batch):
        """The runs of batch (k, run) in one start of the program (D2DLEARN_CASES: one
        forked child per command line, core/helper/d2d-case-batch.h); None if the program has no
        batch mode (its own arguments, --validate, then checked nothing else)."""
        cases = os.path.join(tmp, "cases-%d" % b)
        lines = []
        for k, run in batch:
            argv = run.argv(program, os.path.join(tmp, str(k)))[1:] + ["--validate"]
            if any("\t" in a or "\n" in a for a in argv):
                return None  # not expressible as a case line: one process per run
            lines.append("\t".join(argv))
        with open(cases, "w") as f:
            f.write("\n".join(lines) + "\n")
        env = dict(os.environ, D2DLEARN_CASES=cases,
                   D2DLEARN_CASE_TIMEOUT=str(VALIDATE_TIMEOUT))
        try:
            # Its own arguments validate the defaults into a folder of its own: a program
            # without the batch mode does only that, and writes no case's status.
            own = os.path.join(tmp, "own-%d" % b)
            run_child([program, "--validate", "--outDir=%s" % own],
                      VALIDATE_TIMEOUT * (len(batch) + 1), stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
        except (OSError, subprocess.TimeoutExpired):
            return None
        out = {}
        for i, (k, _) in enumerate(batch, 1):
            try:
                with open("%s.%d.rc" % (cases, i)) as f:
                    code = int(f.read().strip())
                with open("%s.%d.err" % (cases, i), errors="replace") as f:
                    stderr = f.read()
            except (OSError, ValueError):
                return None
            out[k] = verdict(code, stderr)
        return out

    def validate(k, run):
        argv = run.argv(program, os.path.join(tmp, str(k))) + ["--validate"]
        try:
            code, _, stderr = run_child(argv, VALIDATE_TIMEOUT, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                        cwd=cwd, universal_newlines=True, errors="replace")
        except subprocess.TimeoutExpired:
            return "no answer to --validate within %d s" % VALIDATE_TIMEOUT
        except OSError as exc:
            return "cannot start %s: %s" % (program, exc.strerror or exc)
        return verdict(code if code >= 0 else 128 - code, stderr)

    # Batches first: `jobs` program starts, each checking a contiguous share of the runs.
    items = list(enumerate(distinct.values()))
    if len(items) > 1:
        size = -(-len(items) // max(1, min(jobs, len(items))))
        batches = [items[i:i + size] for i in range(0, len(items), size)]
        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=len(batches)) as pool:
                results = list(pool.map(lambda a: validate_batch(*a), enumerate(batches)))
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        if all(r is not None for r in results):
            shutil.rmtree(tmp, ignore_errors=True)
            refused = {k: e for r in results for k, e in r.items() if e is not None}
            if refused:
                first = min(refused)
                raise SweepError("run %s refused by %s --validate: %s (nothing run)"
                                 % (items[first][1].folder, os.path.basename(program),
                                    refused[first]))
            return

    refused = {}
    try:
        # Submitted in campaign order and cancelled at the first refusal: every run before
        # a refused one has been checked, so the one reported is the first refused.
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(validate, k, r): k for k, r in enumerate(distinct.values())}
            for future in concurrent.futures.as_completed(futures):
                if future.cancelled():
                    continue
                error = future.result()
                if error is not None:
                    refused[futures[future]] = error
                    for f in futures:
                        f.cancel()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if refused:
        first = min(refused)
        run = list(distinct.values())[first]
        raise SweepError("run %s refused by %s --validate: %s (nothing run)"
                         % (run.folder, os.path.basename(program), refused[first]))


# --------------------------------------------------------------------------
# run (local)
# --------------------------------------------------------------------------

def clock(seconds):
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return "%d:%02d:%02d" % (h, m, s) if h else "%d:%02d" % (m, s)


class Progress:
    """A progress bar with ETA over the campaign on stderr (one line per event if not a
    terminal)."""

    def __init__(self, total, already):
        self.total = total
        self.done = already
        self.failed = 0
        self.ran = 0
        self.start = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def line(self, running):
        elapsed = time.monotonic() - self.start
        finished = self.done + self.failed
        width = 30
        filled = int(width * finished / self.total) if self.total else width
        eta = "?"
        remaining = self.total - finished
        if self.ran:
            eta = clock(elapsed / self.ran * remaining)
        return "[%s%s] %d/%d done, %d failed, %d running, elapsed %s, ETA %s" % (
            "#" * filled, "." * (width - filled), self.done, self.total, self.failed,
            running, clock(elapsed), eta if remaining else "0:00")

    def update(self, running, event=None):
        if self.tty:
            now = time.monotonic()
            if event or now - self.last > 0.5:
                sys.stderr.write("\r" + self.line(running) + "\033[K")
                sys.stderr.flush()
                self.last = now
        elif event:
            sys.stderr.write("sweep: %s %s\n" % (self.line(running), event))
            sys.stderr.flush()

    def close(self):
        if self.tty:
            sys.stderr.write("\n")


def signal_group(proc, signum):
    """Send a signal to a run's process group (it leads its own session)."""
    try:
        os.killpg(proc.pid, signum)
    except OSError:
        pass


class Slot:
    """A run in progress on the pool: its process, start time, and why sweep.py stops it
    (None, 'interrupted' or 'timed out'): SIGTERM, then SIGKILL after KILL_GRACE s."""

    def __init__(self, run, proc):
        self.run = run
        self.proc = proc
        self.start = time.monotonic()
        self.cause = None
        self.error = None
        self.kill_at = None

    def stop(self, cause, error=None):
        """Called on every turn of the pool while the run should stop: SIGTERM the first
        time (`cause` and `error` kept for finish_run), SIGKILL once KILL_GRACE s passed."""
        if self.cause is None:
            self.cause, self.error = cause, error
            self.kill_at = time.monotonic() + KILL_GRACE
            signal_group(self.proc, signal.SIGTERM)
        elif self.kill_at is not None and time.monotonic() > self.kill_at:
            signal_group(self.proc, signal.SIGKILL)
            self.kill_at = None


def run_local(campaign, program, out, todo, jobs, already):
    """Run `todo` on a pool of `jobs` processes; returns (done, failed, interrupted runs,
    whether sweep.py was stopped). A SIGINT, SIGTERM or SIGHUP stops the runs in progress
    (recorded interrupted); a run past the campaign's time limit is stopped (failed)."""
    cwd = os.path.dirname(campaign.path)
    limit = campaign.time_limit
    progress = Progress(len(campaign.runs), already)
    queue = iter(todo)  # made one at a time (a campaign of 10^6 runs holds -j of them)
    left = len(todo)
    running = []
    stopping = []
    old = catch_stop_signals(lambda signum, frame: stopping.append(signum))
    done, failed, interrupted = [], [], []
    try:
        progress.update(0, "start: %d to run, %d finished before" % (len(todo), already))
        while (left and not stopping) or running:
            while left and not stopping and len(running) < jobs:
                run = next(queue)
                left -= 1
                running.append(Slot(run, start_run(run, program, out, cwd)))
            time.sleep(0.05)
            for slot in running:
                if stopping:
                    slot.stop("interrupted")
                elif limit and time.monotonic() - slot.start > limit:
                    slot.stop("timed out", "timed out: stopped after %s ([local] time_limit)"
                              % clock(limit))
            for slot in [s for s in running if s.proc.poll() is not None]:
                running.remove(slot)
                state = finish_run(slot.run, out, slot.proc.returncode, slot.cause,
                                   slot.error)
                if state == "interrupted":
                    interrupted.append(slot.run)  # it will run again
                    continue
                progress.ran += 1
                if state == "done":
                    done.append(slot.run)
                    progress.done += 1
                    progress.update(len(running), "finished %s (%.1f s)"
                                    % (slot.run.folder, time.monotonic() - slot.start))
                else:
                    failed.append(slot.run)
                    progress.failed += 1
                    progress.update(len(running), "FAILED %s" % slot.run.folder)
            progress.update(len(running))
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        progress.close()
    return done, failed, interrupted, bool(stopping)


_held_locks = []


def lock_campaign(out):
    """Hold DIR/.sweep/lock (flock) until this process ends: one `run` per campaign folder.
    The kernel releases it however the process ends (even SIGKILL); the file names the
    holder's pid and host for the refusal of a second `run`."""
    folder = os.path.join(out, STATE_DIR)
    os.makedirs(folder, exist_ok=True)
    fh = open(os.path.join(folder, LOCK_FILE), "a+")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.seek(0)
        holder = fh.read().split()
        fh.close()
        raise SweepError("%s is in use by another sweep.py run (%s): wait for it or stop it"
                         % (out, "pid %s on host %s" % tuple(holder[:2]) if len(holder) >= 2
                            else "its pid not written yet"))
    fh.seek(0)
    fh.truncate()
    fh.write("%d %s\n" % (os.getpid(), socket.gethostname()))
    fh.flush()
    _held_locks.append(fh)


def wait_for_orphans(campaign, out, states, queued):
    """Runs alive from a runner that died (they got SIGTERM with it, and end): wait up to
    ORPHAN_WAIT s for them, then update `states`; a run still alive is left alone."""
    if "running" not in states.values():
        return
    alive = [r for r in campaign.runs
             if states.get(r.folder) == "running" and r.folder not in queued]
    deadline = time.monotonic() + ORPHAN_WAIT
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [r for r in alive if run_state(out, r) == "running"]
    for r in campaign.runs:
        if r.folder in states:
            states[r.folder] = run_state(out, r)
    for r in alive:
        note("%s: its process from an earlier run is still alive: left alone" % r.folder)


class Subset:
    """Some runs of a campaign by their index (all of them if `indices` is None), made one
    at a time when asked for (Runs)."""

    def __init__(self, runs, indices=None):
        self.runs = runs
        self.indices = indices

    def __len__(self):
        return len(self.runs) if self.indices is None else len(self.indices)

    def __iter__(self):
        if self.indices is None:
            return iter(self.runs)
        return (self.runs[i] for i in self.indices)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.runs[i] for i in range(len(self.runs))[index]] \
                if self.indices is None else [self.runs[i] for i in self.indices[index]]
        return self.runs[index if self.indices is None else self.indices[index]]


def folder_entries(out):
    """The names in the campaign folder but its dot files (no run has begun in a folder
    not listed: it is 'missing' without a look at it)."""
    try:
        return {e for e in os.listdir(out) if not e.startswith(".")}
    except OSError:
        return set()


def pending_runs(campaign, out, wanted, queued):
    """(count, iterable) of the runs in a state of `wanted` and not queued on Slurm; the
    campaign folder listed once, so a new campaign of 10^6 runs costs no file look-up."""
    existing = folder_entries(out)
    if not existing and not queued and "missing" in wanted:
        return len(campaign.runs), campaign.runs

    class Pending:
        def __iter__(self):
            for r in campaign.runs:
                if r.folder not in queued and (run_state(out, r) if r.folder in existing
                                               else "missing") in wanted:
                    yield r
    return sum(1 for _ in Pending()), Pending()


def print_dry_run(campaign, program, out, todo):
    """--dry-run: the commands, printed as they are made (flushed every 1000 lines and at
    the end), so that a campaign of 10^6 runs starts printing at once and holds none."""
    cwd = os.path.dirname(campaign.path)
    try:
        print("# %d runs, %d to run (cwd %s)" % (len(campaign.runs), len(todo), cwd),
              flush=True)
        absout = os.path.abspath(out)
        for k, r in enumerate(todo, 1):
            sys.stdout.write(" ".join(r.argv(program, os.path.join(absout, r.folder))) + "\n")
            if k % 1000 == 0:
                sys.stdout.flush()
        sys.stdout.flush()
    except BrokenPipeError:  # | head: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def cmd_run(args):
    # Until a run starts, a stop signal kills the helper processes and ends sweep.py at
    # once (Stopped), its temporary folders removed.
    old = catch_stop_signals(stop_children)
    try:
        campaign = Campaign(args.file)
        out = output_dir(args, campaign)
        program = find_program(campaign, args.bin)
        options = check_parameters(campaign, program)
        jobs = args.jobs or max(1, (os.cpu_count() or 1)
                                // threads_per_run(campaign, options))
        again = ({"missing", "interrupted"} | ({"failed"} if args.retry_failed else set())
                 | (set() if args.keep_stale else {"stale"}))
        # Every command that may run (a "running" one may be an orphan about to end) is
        # checked by its program before the campaign folder is touched.
        queued = slurm_queued(out) if os.path.isdir(os.path.join(out, STATE_DIR)) else {}
        count, pending = pending_runs(campaign, out, again | {"running"}, queued)
        validate_runs(campaign, program, pending, jobs, options, count)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if not args.dry_run:
        os.makedirs(out, exist_ok=True)
        lock_campaign(out)
        queued = slurm_queued(out) if os.path.isdir(os.path.join(out, STATE_DIR)) else {}
    # The state of each run whose folder exists (the others are missing): a campaign
    # folder of a new campaign holds nothing to look at.
    existing = folder_entries(out)
    states = {}
    if existing:
        states = {r.folder: run_state(out, r) for r in campaign.runs if r.folder in existing}
    if not args.dry_run:
        wait_for_orphans(campaign, out, states, queued)
    if not states and not queued:
        todo = Subset(campaign.runs)  # every run, none made yet
    else:
        todo = Subset(campaign.runs, [i for i, r in enumerate(campaign.runs)
                                      if states.get(r.folder, "missing") in again
                                      and r.folder not in queued])
    already = sum(1 for s in states.values() if s == "done")
    old_failed = [] if args.retry_failed or "failed" not in states.values() else \
        [r for r in campaign.runs if states.get(r.folder) == "failed"]
    if args.dry_run:
        return print_dry_run(campaign, program, out, todo)
    if queued:
        note("%d run(s) queued or running on Slurm are left to it" % len(queued))
    stale = sum(1 for s in states.values() if s == "stale")
    if stale:
        note("%d stale run(s) (run with other parameters than the campaign's now) %s"
             % (stale, "kept (--keep-stale); collect leaves them out" if args.keep_stale
                else "run again"))
    for r in old_failed:
        code, error = read_failure(out, r)
        note("%s failed before (exit %d: %s); rerun with --retry-failed"
             % (r.folder, code, error))
    if args.slurm:
        status = submit_slurm(campaign, program, out, todo, options, args)
        if not args.wait:
            queued = set(queued) | {r.folder for r in todo}
    else:
        status = run_and_report(campaign, program, out, todo, jobs, already, len(old_failed))
    if status != 130:
        failed = [r for r in campaign.runs
                  if r.folder not in queued and run_state(out, r) == "failed"]
        if failed:
            print("%s: %d failed run(s) left: rerun them with --retry-failed"
                  % (PROG, len(failed)))
            status = status or 1
    return status


def run_and_report(campaign, program, out, todo, jobs, already, failed_before):
    """Run `todo` locally and print the outcome; the exit status (130 if interrupted)."""
    done, failed, interrupted, stopped = run_local(campaign, program, out, todo, jobs,
                                                   already)
    print("%s: %d runs: %d ran (%d finished, %d failed), %d finished before%s"
          % (PROG, len(campaign.runs), len(done) + len(failed), len(done), len(failed),
             already, ", %d failed before" % failed_before if failed_before else ""))
    order = {r.folder: i for i, r in enumerate(campaign.runs)} if failed else {}
    for r in sorted(failed, key=lambda r: order[r.folder]):
        code, error = read_failure(out, r)
        print("failed: %s: exit %d: %s" % (r.folder, code, error))
    if stopped or interrupted:
        left = sum(1 for r in campaign.runs if run_state(out, r) != "done")
        print("%s: %s; %d run(s) not finished: run the same command to resume"
              % (PROG, "interrupted" if stopped else "%d run(s) stopped by a signal"
                 % len(interrupted), left))
        return 130
    return 1 if failed else 0


# --------------------------------------------------------------------------
# Slurm
# --------------------------------------------------------------------------

def slurm_dir(out):
    return os.path.join(out, STATE_DIR, "slurm")


def slurm_submissions(out):
    """The recorded submissions: list of {"job_id", "folders", ...}."""
    d = slurm_dir(out)
    subs = []
    if not os.path.isdir(d):
        return subs
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name, "job.json")
        try:
            with open(path) as fh:
                subs.append(json.load(fh))
        except (OSError, ValueError):
            continue
    return subs


def squeue_tasks(job_ids):
    """{(job_id, array index): state} of the array tasks still queued or running, or None
    if squeue cannot be asked."""
    if not job_ids:
        return {}
    if not shutil.which("squeue"):
        return None
    proc = subprocess.run(["squeue", "-h", "-r", "-j", ",".join(job_ids), "-o", "%F %K %T"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.returncode != 0:
        if "Invalid job id" in proc.stderr:
            return {}  # every job has left the queue
        return None
    tasks = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit():
            tasks[(parts[0], int(parts[1]))] = parts[2]
    return tasks


def slurm_queued(out):
    """{folder: state} of the runs of recorded submissions that Slurm has not finished."""
    subs = slurm_submissions(out)
    tasks = squeue_tasks([s["job_id"] for s in subs])
    if tasks is None:
        if subs:
            note("squeue unavailable: cannot tell which submitted runs are still queued")
        return {}
    queued = {}
    for s in subs:
        for index, folder in enumerate(s["folders"]):
            state = tasks.get((s["job_id"], index))
            if state:
                queued[folder] = state
    return queued


def submit_slurm(campaign, program, out, todo, options, args):
    if not todo:
        print("%s: nothing to submit: every run is finished, failed or queued" % PROG)
        return 0
    if not shutil.which("sbatch"):
        raise SweepError("--slurm: sbatch not found (install Slurm's client, slurm-client)")
    conf = campaign.slurm
    cpus = conf.get("cpus_per_task", threads_per_run(campaign, options))
    submitted = []
    for start in range(0, len(todo), ARRAY_CHUNK):
        chunk = todo[start:start + ARRAY_CHUNK]
        stamp = time.strftime("%Y%m%d-%H%M%S") + "-%d-%d" % (os.getpid(), start)
        d = os.path.join(slurm_dir(out), stamp)
        os.makedirs(d)
        manifest = {
            "campaign": campaign.path, "program": program, "scenario": campaign.scenario,
            "out": os.path.abspath(out),
            "cwd": os.path.dirname(campaign.path),
            "runs": [{"folder": r.folder, "parameters": r.parameters} for r in chunk],
        }
        write_json_atomic(os.path.join(d, "manifest.json"), manifest)
        lines = [
            "#!/bin/sh",
            "#SBATCH --job-name=%s" % campaign.name,
            "#SBATCH --array=0-%d%%%d" % (len(chunk) - 1, conf.get("max_parallel", 32)),
            "#SBATCH --ntasks=1",
            "#SBATCH --cpus-per-task=%d" % cpus,
            "#SBATCH --time=%s" % conf.get("time", "1:00:00"),
            "#SBATCH --mem=%s" % conf.get("mem", "2G"),
            "#SBATCH --output=%s" % os.path.join(os.path.abspath(d), "task-%a.out"),
        ]
        for key in ("partition", "account"):
            if key in conf:
                lines.append("#SBATCH --%s=%s" % (key, conf[key]))
        for extra in conf.get("extra_args", []) + (args.sbatch_arg or []):
            lines.append("#SBATCH %s" % extra)
        lines.append('exec %s %s _task %s "$SLURM_ARRAY_TASK_ID"'
                     % (PYTHON, os.path.abspath(__file__),
                        os.path.join(os.path.abspath(d), "manifest.json")))
        script = os.path.join(d, "job.sh")
        with open(script, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        proc = subprocess.run(["sbatch", "--parsable", script], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        if proc.returncode != 0:
            shutil.rmtree(d)
            msg = " ".join(proc.stderr.split()) or "exit %d" % proc.returncode
            raise SweepError("--slurm: sbatch refused the job array: %s" % msg)
        job_id = proc.stdout.strip().split(";")[0]
        write_json_atomic(os.path.join(d, "job.json"),
                          {"job_id": job_id, "folders": [r.folder for r in chunk],
                           "script": script})
        submitted.append(job_id)
        print("%s: submitted %d run(s) as job array %s (%s)"
              % (PROG, len(chunk), job_id, script))
    if not args.wait:
        print("%s: follow with: %s status %s%s"
              % (PROG, os.path.relpath(os.path.abspath(__file__)), args.file,
                 " --out " + args.out if args.out else ""))
        return 0
    return wait_slurm(campaign, out, submitted)


def wait_slurm(campaign, out, job_ids):
    already = sum(1 for r in campaign.runs if run_state(out, r) == "done")
    progress = Progress(len(campaign.runs), already)
    progress.ran = 0
    try:
        while True:
            tasks = squeue_tasks(job_ids)
            if tasks is None:
                raise SweepError("--wait: squeue failed; the jobs may still run")
            states = [run_state(out, r) for r in campaign.runs]
            done = sum(1 for s in states if s == "done")
            if done > progress.done:
                progress.ran += done - progress.done
            progress.done = done
            progress.failed = sum(1 for s in states if s == "failed")
            running = sum(1 for s in tasks.values() if s == "RUNNING")
            if not tasks:
                progress.update(running, "jobs %s left the queue" % ",".join(job_ids))
                break
            progress.update(running)
            time.sleep(1.0)
    except KeyboardInterrupt:
        progress.close()
        print("%s: stopped waiting; the jobs go on (scancel %s to stop them)"
              % (PROG, " ".join(job_ids)))
        return 130
    progress.close()
    states = {r.folder: run_state(out, r) for r in campaign.runs}
    failed = [r for r in campaign.runs if states[r.folder] == "failed"]
    missing = sum(1 for s in states.values() if s == "missing")
    interrupted = sum(1 for s in states.values() if s == "interrupted")
    print("%s: %d runs: %d finished, %d failed, %d missing, %d interrupted"
          % (PROG, len(campaign.runs), progress.done, len(failed), missing, interrupted))
    for r in failed:
        code, error = read_failure(out, r)
        print("failed: %s: exit %d: %s" % (r.folder, code, error))
    return 1 if failed or missing or interrupted else 0


def cmd_task(args):
    """One Slurm array task: the manifest's run number INDEX, exactly as a local run."""
    with open(args.manifest) as fh:
        manifest = json.load(fh)
    run = Run.from_manifest(manifest["runs"][args.index], manifest["program"],
                            manifest.get("scenario"))
    if run_state(manifest["out"], run) == "done":
        return 0  # finished meanwhile (e.g. by a local run)
    return execute_run(run, manifest["program"], manifest["out"], manifest["cwd"])


# --------------------------------------------------------------------------
# status
# --------------------------------------------------------------------------

def cmd_status(args):
    campaign = Campaign(args.file)
    out = output_dir(args, campaign)
    queued = slurm_queued(out) if os.path.isdir(os.path.join(out, STATE_DIR)) else {}
    counts = {"done": 0, "failed": 0, "queued": 0, "running": 0, "missing": 0,
              "interrupted": 0, "stale": 0}
    rows = []
    for r in campaign.runs:
        state = run_state(out, r)
        if state != "done" and r.folder in queued:
            state = "running" if queued[r.folder] == "RUNNING" else "queued"
        counts[state] += 1
        if state in ("failed", "stale") or args.list:
            rows.append((r, state))  # only the lines printed: 10^6 runs are not kept
    print("campaign %s (%s): %d runs in %s" % (campaign.name, campaign.scenario,
                                               len(campaign.runs), out))
    print("  finished %d, failed %d, running %d, queued %d, not started %d, interrupted %d, "
          "stale %d" % (counts["done"], counts["failed"], counts["running"], counts["queued"],
                        counts["missing"], counts["interrupted"], counts["stale"]))
    for r, state in rows:
        if state == "failed":
            code, error = read_failure(out, r)
            print("  failed: %s: exit %d: %s" % (r.folder, code, error))
        elif state == "stale":
            print("  stale: %s: ran with other parameters than the campaign's now" % r.folder)
        elif args.list:
            print("  %s: %s" % (state, r.folder))
    return 0


# --------------------------------------------------------------------------
# collect
# --------------------------------------------------------------------------

def flatten(prefix, value, into):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten("%s.%s" % (prefix, k) if prefix else k, v, into)
    else:
        into[prefix] = value


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
                with open(path) as fh:
                    doc = json.load(fh)
            except (OSError, ValueError) as exc:
                if mark is not None:
                    doc = {}  # a failed run's half-written run.json: not a summary
                else:
                    raise SweepError("%s: unreadable (%s)"
                                     % (path, " ".join(str(exc).split())))
            if not isinstance(doc, dict):
                doc = {}
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
    fd, tmp = tempfile.mkstemp(prefix=".results.csv.", dir=out)
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(columns)
            for row in rows:
                w.writerow([csv_text(row.get(c)) for c in columns])
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    marked = sum(1 for row in rows if row.get("state") not in (None, "finished"))
    print("wrote %s (%d rows, %d columns%s)"
          % (path, len(rows), len(columns),
             "; %d of them not finished, marked in column state" % marked if marked else ""))
    if failed:
        note("%d failed run(s) left out (--include-failed adds them, marked in column "
             "state)" % len(failed))
    others = len(missing) - len(failed) - marked
    if others:
        note("%d of %d runs not finished are left out (%s status %s)"
             % (others, len(campaign.runs), PROG, args.file))
    return 0


# --------------------------------------------------------------------------
# plot
# --------------------------------------------------------------------------

def t975(df):
    """t_{0.975, df}, from the one implementation (stats.py: SciPy's Student t)."""
    return analysis_stats.t975(df)


def mean_ci(values):
    """(n, mean, half-width of the 95 % confidence interval of the mean; NaN if n < 2)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return n, mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return n, mean, t975(n - 1) * math.sqrt(var / n)


#: --band: what the band around the mean shows (title text, CSV column prefix).
BANDS = {"ci": ("95 % CI (Student t)", "ci95"), "sd": ("\u00b1 1 sd", "sd"),
         "minmax": ("min to max", "min_max"), "none": (None, None)}


def band_limits(values, band):
    """(n, mean, low, high) of the replicates `values` for --band (low = high = NaN where
    the band is undefined: n < 2, or band none)."""
    n, mean, half = mean_ci(values)
    nan = float("nan")
    if band == "ci":
        return n, mean, mean - half, mean + half
    if band == "sd" and n > 1:
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        return n, mean, mean - sd, mean + sd
    if band == "minmax" and n > 1:
        return n, mean, min(values), max(values)
    return n, mean, nan, nan


def same_value(value, text):
    """Whether a campaign value equals a --where value given as text (1e-11 = 1.0e-11)."""
    if csv_text(value) == text.strip():
        return True
    if isinstance(value, bool):
        return False
    try:
        return float(value) == float(text)
    except (TypeError, ValueError):
        return False


def cmd_plot(args):
    campaign = Campaign(args.file)
    out = output_dir(args, campaign)
    columns, rows, missing, _ = collect(campaign, out)
    if missing:
        note("%d of %d runs not finished are left out" % (len(missing), len(campaign.runs)))
    params = campaign.parameter_names()
    for flag, name in (("--x", args.x), ("--hue", args.hue)):
        if name is not None and name not in campaign.swept:
            raise SweepError("%s %s: not a swept parameter (swept: %s)"
                             % (flag, name, ", ".join(campaign.swept) or "none"))
    if rows and (args.metric not in columns or args.metric in params
                 or args.metric == "run"):
        metrics = [c for c in columns if c not in params and c != "run"]
        raise SweepError("--metric %s: not a summary column (columns: %s)"
                         % (args.metric, ", ".join(metrics)))
    for cond in args.where:
        name, _, value = cond.partition("=")
        if name not in params or not _:
            raise SweepError("--where %s: give PARAMETER=VALUE with a campaign parameter"
                             % cond)
        if rows:
            rows = [r for r in rows if same_value(r.get(name), value)]
            if not rows:
                raise SweepError("--where %s: no finished run has this value" % cond)
    rep = args.replicate
    fixed_by_where = {c.partition("=")[0] for c in args.where}
    for name in campaign.swept:
        if name in (args.x, args.hue, rep) or name in fixed_by_where:
            continue
        values = {csv_text(r.get(name)) for r in rows}
        if len(values) > 1:
            raise SweepError("parameter %s takes %d values (%s): give --hue %s or --where "
                             "%s=VALUE" % (name, len(values), ", ".join(sorted(values)),
                                           name, name))
    groups = {}
    for r in rows:
        value = r.get(args.metric)
        if value is None or value == "":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SweepError("--metric %s: %r is not a number" % (args.metric, value))
        hue = r.get(args.hue) if args.hue else None
        groups.setdefault((hue, r[args.x]), []).append(float(value))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    from d2dlearn_analysis import traces as trace_io

    def order(values):
        return sorted(set(values), key=lambda v: (isinstance(v, str), v))

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.set_xlabel(trace_io.axis_label(args.x))
    ax.set_ylabel(trace_io.axis_label(args.metric, summary=True))
    band_text, prefix = BANDS[args.band]
    if not groups:
        # A figure that says why it is empty rather than an empty axis (the campaign has
        # not finished a run yet, or no finished run has the metric).
        why = ("no finished run yet (0 of %d runs)" % len(campaign.runs) if not rows
               else "no finished run has a value of %s" % args.metric)
        note("%s: %s; the figure says so" % (campaign.name, why))
        trace_io.no_data(ax, why)
        ax.set_title("%s: %s" % (campaign.name, args.metric), fontsize=10)
        return save_plot(args, out, fig)
    hues = order(h for h, _ in groups) if args.hue else [None]
    hue_label, hue_unit, _ = trace_io.column_info(args.hue) if args.hue else (None, "", None)
    print("%s%s,n,mean%s" % ("%s," % args.hue if args.hue else "", args.x,
                             ",%s_low,%s_high" % (prefix, prefix) if prefix else ""))
    numeric_x = all(isinstance(x, (int, float)) and not isinstance(x, bool)
                    for _, x in groups)
    xs_all = order(x for _, x in groups)
    position = {x: (x if numeric_x else k) for k, x in enumerate(xs_all)}
    clipped = False
    for hue in hues:
        xs = order(x for h, x in groups if h == hue)
        stats = [band_limits(groups[(hue, x)], args.band) for x in xs]
        for x, (n, m, lo, hi) in zip(xs, stats):
            print("%s%s,%d,%s%s" % ("%s," % csv_text(hue) if args.hue else "", csv_text(x),
                                     n, csv_text(m),
                                     ",%s,%s" % ("" if math.isnan(lo) else csv_text(lo),
                                                 "" if math.isnan(hi) else csv_text(hi))
                                     if prefix else ""))
        px = [position[x] for x in xs]
        label = None
        if args.hue:
            label = "%s = %s%s" % (hue_label, csv_text(hue), " " + hue_unit if hue_unit else "")
        line, = ax.plot(px, trace_io.clip_to_domain([m for _, m, _, _ in stats],
                                                    args.metric),
                        marker="o", markersize=4, label=label, zorder=3)
        colour = line.get_color()
        if prefix and any(not math.isnan(lo) for _, _, lo, _ in stats):
            # A replicate's point alone (n = 1) has no band: the band narrows to its mean.
            lo = [m if math.isnan(b) else b for _, m, b, _ in stats]
            hi = [m if math.isnan(b) else b for _, m, _, b in stats]
            trace_io.draw_band(ax, px, lo, hi, args.metric, color=colour, alpha=0.2,
                               linewidth=0, zorder=1)
            clipped |= bool((trace_io.clip_to_domain(lo, args.metric) != lo).any()
                            or (trace_io.clip_to_domain(hi, args.metric) != hi).any())
        if args.points:
            pts = [(position[x], v) for x in xs for v in groups[(hue, x)]]
            ax.scatter([p for p, _ in pts],
                       trace_io.clip_to_domain([v for _, v in pts], args.metric),
                       s=10, color=colour, alpha=0.45, linewidths=0, zorder=2)
    if args.logx:
        ax.set_xscale("log")
    # The swept values themselves as ticks (a log axis would label 6x10^-1).
    ax.set_xticks([position[x] for x in xs_all])
    ax.set_xticklabels([csv_text(x) for x in xs_all])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    if args.logy:
        ax.set_yscale("log")
    else:
        trace_io.set_domain_limits(ax, args.metric)
    nrep = max(len(v) for v in groups.values())
    shown = "mean"
    if nrep > 1 and band_text:
        shown += " and %s" % band_text
    if nrep > 1:
        shown += " over %d %s values" % (nrep, rep)
        if args.points:
            shown += "; dots: each %s" % rep
    if clipped:
        lo, hi = trace_io.domain(args.metric)
        shown += "; band cut at %s" % ("[%g, %g]" % (lo, hi) if hi is not None
                                       else "%g" % lo if lo is not None else "%g" % hi)
    ax.set_title("%s: %s\n%s" % (campaign.name, args.metric, shown), fontsize=9)
    ax.grid(True, alpha=0.3)
    if args.hue:
        trace_io.legend(ax)
    return save_plot(args, out, fig)


def save_plot(args, out, fig):
    from d2dlearn_analysis.traces import save_figure
    plots = args.plots or os.path.join(out, "plots")
    os.makedirs(plots, exist_ok=True)
    name = args.name or "%s_vs_%s%s" % (args.metric, args.x,
                                        "_by_" + args.hue if args.hue else "")
    save_figure(fig, plots, "%s.%s" % (FOLDER_SAFE.sub("-", name), args.format),
                fmt=args.format)
    return 0


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def output_dir(args, campaign):
    """--out as given (relative to the current folder), else results/<name> next to the
    campaign file, wherever the command is run from."""
    if args.out:
        return args.out
    return os.path.join(os.path.dirname(campaign.path), "results", campaign.name)


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "%s: error: %s\n" % (PROG, message))


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an integer" % text)
    if value < 1:
        raise argparse.ArgumentTypeError("%d is out of range (accepted: 1 or more)" % value)
    return value


def main(argv=None):
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(p):
        p.add_argument("file", metavar="FILE", help="campaign file (TOML)")
        p.add_argument("--out", metavar="DIR", default=None,
                       help="campaign folder (default results/<campaign name> in the "
                       "campaign file's folder)")

    p = sub.add_parser("run", help="run the runs that are not finished")
    common(p)
    p.add_argument("-j", "--jobs", type=positive_int, default=None,
                   help="runs at a time (default: cores / threads per run)")
    p.add_argument("--retry-failed", action="store_true", help="rerun the failed runs too")
    p.add_argument("--keep-stale", action="store_true",
                   help="leave the stale runs (the campaign changed since) as they are")
    p.add_argument("--bin", metavar="DIR", default=None, help="folder of the program")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--slurm", action="store_true", help="submit a Slurm job array instead")
    p.add_argument("--wait", action="store_true", help="--slurm: wait until the array ends")
    p.add_argument("--sbatch-arg", action="append", metavar="ARG",
                   help="--slurm: a further sbatch argument (repeatable)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("status", help="finished, failed, queued and missing runs")
    common(p)
    p.add_argument("--list", action="store_true", help="list every run and its state")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("collect", help="write DIR/results.csv")
    common(p)
    p.add_argument("--include-failed", action="store_true",
                   help="add rows for the failed runs (and the interrupted ones that wrote "
                   "run.json), marked in columns state, exit_code and error")
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("plot", help="a summary metric against a swept parameter")
    common(p)
    p.add_argument("--metric", required=True, help="a results.csv summary column")
    p.add_argument("--x", required=True, help="the swept parameter on the x axis")
    p.add_argument("--hue", default=None, help="one line per value of this parameter")
    p.add_argument("--replicate", default="seed",
                   help="parameter whose values are replicates (default seed)")
    p.add_argument("--where", action="append", default=[], metavar="P=V",
                   help="keep only the runs with this parameter value (repeatable)")
    p.add_argument("--format", choices=["png", "pdf", "svg"], default="png")
    p.add_argument("--plots", metavar="DIR", default=None,
                   help="output folder (default DIR/plots)")
    p.add_argument("--name", default=None, help="file name without extension")
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--band", choices=sorted(BANDS), default="ci",
                   help="band around the mean: ci (95 %% Student t interval, default), sd "
                   "(mean +- 1 standard deviation), minmax, none")
    p.add_argument("--no-points", dest="points", action="store_false",
                   help="do not draw each replicate's value as a dot")
    p.set_defaults(func=cmd_plot)

    p = sub.add_parser("_task", help="(internal) one Slurm array task")
    p.add_argument("manifest")
    p.add_argument("index", type=int)
    p.set_defaults(func=cmd_task)

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SweepError as exc:
        sys.stdout.flush()
        sys.stderr.write("%s: error: %s\n" % (PROG, exc))
        return 2
    except Stopped as exc:
        sys.stdout.flush()
        sys.stderr.write("%s: stopped by %s before any run started: nothing run\n"
                         % (PROG, signal.Signals(exc.signum).name))
        return 130


if __name__ == "__main__":
    sys.exit(main())
