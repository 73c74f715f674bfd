"""Run folders and their state (finished, failed, interrupted, stale, running, not started:
run_state), from the files a run leaves in its folder; starting a run in an emptied folder
with its command recorded first, and recording how it ended; the campaign folder's lock.
"""

import ctypes
import fcntl
import os
import shutil
import signal
import socket
import subprocess

from d2dlearn_analysis.sweep.common import (
    PR_SET_PDEATHSIG, STOP_SIGNALS, SweepError, _libc, catch_stop_signals, read_json,
    write_json_atomic)


STATE_DIR = ".sweep"
LOCK_FILE = "lock"
FAILED_FILE = "sweep-failed.json"
INTERRUPTED_FILE = "sweep-interrupted.json"
RECORD_FILE = "sweep-run.json"
LOG_FILE = "sweep.log"


def run_dir(out, run):
    return os.path.join(out, run.folder)


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


def execute_run(run, program, out, cwd):
    """Run one run to its end in the foreground (a Slurm task); its exit status."""
    proc = start_run(run, program, out, cwd)
    catch_stop_signals(lambda signum, frame: proc.send_signal(signum))
    rc = proc.wait()
    return 0 if finish_run(run, out, rc) == "done" else (rc if rc > 0 else 1)


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


def output_dir(args, campaign):
    """--out as given (relative to the current folder), else results/<name> next to the
    campaign file, wherever the command is run from."""
    if args.out:
        return args.out
    return os.path.join(os.path.dirname(campaign.path), "results", campaign.name)
