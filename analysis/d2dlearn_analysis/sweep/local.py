"""Running a campaign on this machine: a pool of -j processes with a progress bar and ETA,
stop signals and the [local] time limit (run_local), runs left over by a runner that died
(wait_for_orphans), and --dry-run.
"""

import os
import signal
import sys
import time

from d2dlearn_analysis.sweep.common import PROG, catch_stop_signals, note, signal_group
from d2dlearn_analysis.sweep.state import finish_run, read_failure, run_state, start_run


KILL_GRACE = 5.0
ORPHAN_WAIT = 10.0


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
