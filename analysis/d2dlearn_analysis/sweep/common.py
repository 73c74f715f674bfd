"""What every part of sweep.py shares: its name in messages, its one-line errors (SweepError,
Stopped), notes, the analysis folder it runs from, signals to process groups, JSON files
read leniently and written atomically.
"""

import ctypes
import json
import os
import signal
import sys

from d2dlearn_analysis.atomic import atomic_open
from d2dlearn_analysis.errors import AnalysisError


PROG = "sweep.py"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
PR_SET_PDEATHSIG = 1
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
# The analysis folder, which holds sweep.py (the command line a Slurm task calls) beside
# this package: the source tree's analysis/, or P/share/d2dlearn/analysis installed.
ANALYSIS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ANALYSIS, "sweep.py")


class SweepError(AnalysisError):
    """Bad input: reported as one line, exit status 2 (the analysis tools' one error type,
    d2dlearn_analysis.errors.AnalysisError)."""


class Stopped(Exception):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) before any run started: its helper processes
    killed, its temporary folder removed; reported as one line, exit status 130."""

    def __init__(self, signum):
        Exception.__init__(self, signum)
        self.signum = signum


def note(text):
    print("note: " + text, file=sys.stderr)


def read_json(path):
    """A JSON object from a file, or None if it is missing or unreadable."""
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def write_json_atomic(path, doc):
    with atomic_open(path, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


_libc = []


def catch_stop_signals(handler):
    """Install `handler` for STOP_SIGNALS (those not ignored: nohup's SIGHUP stays ignored);
    the previous handlers, to restore."""
    return {s: signal.signal(s, handler) for s in STOP_SIGNALS
            if signal.getsignal(s) != signal.SIG_IGN}


def libc():
    if not _libc:
        try:
            _libc.append(ctypes.CDLL(None, use_errno=True))
        except OSError:
            pass  # not Linux: helpers may outlive a sweep.py killed by SIGKILL
    return _libc[0] if _libc else None


def signal_group(proc, signum):
    """Send a signal to a run's process group (it leads its own session)."""
    try:
        os.killpg(proc.pid, signum)
    except OSError:
        pass
