#!/usr/bin/python3
"""Tests of analysis/sweep.py run locally (the Slurm backend: test_sweep_slurm.py).

Run:  /usr/bin/python3 tests/analysis/test_sweep.py BIN_DIR
BIN_DIR holds the built d2d-exchange. Campaigns of a few runs of a few tenths of a second:
the issue's minimal campaign (run, status, collect against run.json), an interrupted
campaign that resumes (only the missing runs run again; the table is complete), failed
runs (listed with exit code and error, rerun only with --retry-failed), bad campaigns
(one-line errors, nothing written), zipped lists and folder names, and plot's mean and
95 % interval against a hand calculation. Then what users do to campaigns: a second runner
of the same folder (refused), the runner killed by SIGKILL and resumed at once (its runs
die with it; every run completes once), runs stopped by signals (interrupted, run again),
a changed parameter (stale runs rerun), a time limit (timed out, failed), the default
campaign folder, and hostile campaign files (not UTF-8, binary, nested deeply, a FIFO, an
astronomical grid, 2 and 2.0). Commands refused by the program's --validate stop `run`
(local, --dry-run) before anything runs; the plot's matplotlib figure is checked with
figure_checks.py (bands in the metric's domain, every --band, units, legends); summary
values not finite (NaN, inf) drawn as missing with a note, and no finished run or no finite
value left refused in one line with no figure written.
Reliability: a crashed run left out of collect unless --include-failed (then marked); the
same value in two spellings ("1s", "1000ms") refused; scenario limited to the project's
programs unless program = PATH; a campaign of 10^6 runs through --dry-run (streamed,
bounded memory, each axis value validated once); SIGINT, SIGTERM, SIGHUP and SIGKILL
while validating (no helper process or temporary folder left).
"""

import csv
import importlib.util
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import figure_checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "sweep.py")
# the scripts import the d2dlearn_analysis package beside them
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
BIN = None

spec = importlib.util.spec_from_file_location("sweep", SCRIPT)
sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sweep)

MINIMAL = """\
scenario = "d2d-exchange"        # a program in build/bin
[parameters]                     # fixed flags, as on the command line
duration = "5s"
[grid]                           # Cartesian product; seed is a flag like any other
spectralEfficiency = [0.5, 2]
seed = [1, 2]
"""

# Runs of about a second and a half each; %s: the list of seeds.
SLOW = """\
scenario = "d2d-exchange"
[parameters]
nDevices = 50
duration = "40s"
meanInterval = "200ms"
broadcast = true
quiet = true
[grid]
seed = [%s]
"""


def process_alive(pid):
    """Whether a process runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as fh:
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def read_table(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sweep-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def campaign(self, text, name="c.toml"):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as fh:
            fh.write(text)
        return path

    def program_campaign(self, program, seeds):
        """A campaign of 1 s d2d-exchange runs, one per seed, through program = PATH."""
        return self.campaign("""\
scenario = "d2d-exchange"
program = "%s"
[parameters]
duration = "1s"
quiet = true
[grid]
seed = %s
""" % (program, seeds))

    def sweep(self, *args, check=None, cwd=None):
        proc = subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300,
                              env=dict(os.environ, D2DLEARN_BIN=BIN), cwd=cwd)
        if check is not None:
            self.assertEqual(proc.returncode, check, proc.stdout + proc.stderr)
        return proc

    def test_minimal_campaign(self):
        path = self.campaign(MINIMAL)
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, "-j", "2", check=0)
        self.assertIn("4 runs: 4 ran (4 finished, 0 failed), 0 finished before", proc.stdout)
        folders = ["spectralEfficiency=0.5_seed=1", "spectralEfficiency=0.5_seed=2",
                   "spectralEfficiency=2_seed=1", "spectralEfficiency=2_seed=2"]
        self.assertEqual(sorted(f for f in os.listdir(out) if not f.startswith(".")),
                         folders)
        # Each run got its flags: run.json records them.
        with open(os.path.join(out, folders[1], "run.json")) as fh:
            doc = json.load(fh)
        self.assertEqual(doc["seed"], 2)
        self.assertEqual(doc["parameters"]["spectralEfficiency"], 0.5)
        self.assertEqual(doc["parameters"]["duration_s"], 5)
        # A second run does nothing.
        proc = self.sweep("run", path, "--out", out, check=0)
        self.assertIn("4 runs: 0 ran (0 finished, 0 failed), 4 finished before", proc.stdout)
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 4, failed 0, running 0, queued 0, not started 0", proc.stdout)
        proc = self.sweep("collect", path, "--out", out, check=0)
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([r["run"] for r in rows], folders)
        for r in rows:
            with open(os.path.join(out, r["run"], "run.json")) as fh:
                s = json.load(fh)["summary"]
            self.assertEqual(r["duration"], "5s")
            self.assertAlmostEqual(float(r["energy_j.total"]), s["energy_j"]["total"],
                                   places=12)
            self.assertEqual(int(r["bytes_sent"]), s["bytes_sent"])
            self.assertEqual(float(r["complete_delivery_rate"]), s["complete_delivery_rate"])
            self.assertEqual(float(r["kinds.data.latency_p95_s"]),
                             s["kinds"]["data"]["latency_p95_s"])
        # The seeds differ, and a higher rate loses more (eq. 18): the table is real.
        self.assertNotEqual(rows[0]["messages"], rows[1]["messages"])
        # Every number of every run, recomputed from its traces by the independent auditor.
        audit = subprocess.run([PYTHON, os.path.join(REPO, "analysis", "audit.py")]
                               + [os.path.join(out, f) for f in folders],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=300)
        self.assertEqual(audit.returncode, 0, audit.stdout[-2000:] + audit.stderr)
        self.assertIn("audit: 4 runs,", audit.stdout)

    def test_interrupted_campaign_resumes(self):
        # Six runs of about 0.5 s, one at a time; interrupted after two have finished.
        path = self.campaign("""\
scenario = "d2d-exchange"
[parameters]
nDevices = 50
duration = "10s"
meanInterval = "200ms"
broadcast = true
quiet = true
[grid]
seed = [1, 2, 3, 4, 5, 6]
""")
        out = os.path.join(self.tmp, "out")
        proc = subprocess.Popen([PYTHON, SCRIPT, "run", path, "--out", out, "-j", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True,
                                env=dict(os.environ, D2DLEARN_BIN=BIN))

        def finished():
            return [d for d in sorted(os.listdir(out)) if os.path.isfile(
                os.path.join(out, d, "run.json"))] if os.path.isdir(out) else []

        deadline = time.monotonic() + 120
        while len(finished()) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, stdout + stderr)
        self.assertIn("interrupted", stdout)
        # Finished as sweep.py judges it: a run stopped after it wrote run.json but before
        # its process exited is interrupted (its exit status decides) and runs again.
        first = [d for d in finished()
                 if not os.path.exists(os.path.join(out, d, sweep.INTERRUPTED_FILE))]
        self.assertGreaterEqual(len(first), 1)
        self.assertLess(len(first), 6, "the campaign ended before the interruption")
        # The run stopped midway is not a failure: no failure record anywhere.
        for d in os.listdir(out):
            self.assertFalse(os.path.exists(os.path.join(out, d, sweep.FAILED_FILE)), d)
        stamps = {d: os.stat(os.path.join(out, d, "run.json")).st_mtime_ns for d in first}
        print("\ninterrupted after %d of 6 runs had finished" % len(first), file=sys.stderr)
        proc = self.sweep("run", path, "--out", out, "-j", "2", check=0)
        left = 6 - len(first)
        self.assertIn("6 runs: %d ran (%d finished, 0 failed), %d finished before"
                      % (left, left, len(first)), proc.stdout)
        # The runs finished before were not run again.
        for d, stamp in stamps.items():
            self.assertEqual(os.stat(os.path.join(out, d, "run.json")).st_mtime_ns, stamp, d)
        self.sweep("collect", path, "--out", out, check=0)
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([r["seed"] for r in rows], [str(s) for s in range(1, 7)])
        self.assertTrue(all(r["messages"] not in ("", "0") for r in rows))
        # A resumed run's traces are those of an uninterrupted run.
        resumed = [d for d in finished() if d not in first][0]
        seed = resumed.split("=")[1]
        ref = os.path.join(self.tmp, "ref")
        subprocess.run([os.path.join(BIN, "d2d-exchange"), "--nDevices=50", "--duration=10s",
                        "--meanInterval=200ms", "--broadcast=true", "--quiet",
                        "--seed=" + seed, "--outDir=" + ref], check=True, timeout=120)
        for f in ("messages.csv", "energy.csv"):
            with open(os.path.join(ref, f), "rb") as a, \
                    open(os.path.join(out, resumed, f), "rb") as b:
                self.assertTrue(a.read() == b.read(), f)

    def start_sweep(self, *args):
        """`sweep.py ARGS` in the background (its stdout and stderr piped)."""
        return subprocess.Popen([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, universal_newlines=True,
                                env=dict(os.environ, D2DLEARN_BIN=BIN))

    def wait_for(self, condition, what, timeout=120):
        deadline = time.monotonic() + timeout
        while not condition():
            self.assertLess(time.monotonic(), deadline, "timed out waiting for " + what)
            time.sleep(0.02)

    def test_one_runner_per_folder(self):
        # A second `run` of a campaign folder while the first runs is refused with one line
        # naming the first's pid and host; the first goes on undisturbed.
        path = self.campaign(SLOW % "1, 2, 3")
        out = os.path.join(self.tmp, "out")
        first = self.start_sweep("run", path, "--out", out, "-j", "1")
        lock = os.path.join(out, ".sweep", "lock")
        self.wait_for(lambda: os.path.isfile(lock) and os.path.getsize(lock) > 0, "the lock")
        proc = self.sweep("run", path, "--out", out, check=2)
        self.assertEqual(proc.stderr, "sweep.py: error: %s is in use by another sweep.py run "
                         "(pid %d on host %s): wait for it or stop it\n"
                         % (out, first.pid, socket.gethostname()))
        stdout, stderr = first.communicate(timeout=120)
        self.assertEqual(first.returncode, 0, stdout + stderr)
        self.assertIn("3 ran (3 finished, 0 failed)", stdout)
        # Once it has ended, the folder is free again.
        proc = self.sweep("run", path, "--out", out, check=0)
        self.assertIn("0 ran", proc.stdout)

    def record(self, out, folder):
        """The run record (argv, host, pid) of a run folder, or None."""
        try:
            with open(os.path.join(out, folder, sweep.RECORD_FILE)) as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def started(self, out, folder):
        """The pid of a run once started, else None."""
        record = self.record(out, folder)
        return record and record.get("pid")

    def test_runner_killed_and_resumed_at_once(self):
        # SIGKILL of sweep.py mid-campaign: its runs die with it (SIGTERM from the kernel),
        # and a resume at once completes every run exactly once.
        path = self.campaign(SLOW % "1, 2, 3, 4, 5, 6, 7, 8")
        out = os.path.join(self.tmp, "out")
        runner = self.start_sweep("run", path, "--out", out, "-j", "2")
        # Killed just after seed=5 started: it has about a second and a half left to run.
        self.wait_for(lambda: self.started(out, "seed=5"), "seed=5 to start")
        runner.kill()
        runner.communicate(timeout=60)
        killed = self.started(out, "seed=5")
        self.wait_for(lambda: not process_alive(killed), "seed=5 to die", timeout=1.0)
        finished = {d: os.stat(os.path.join(out, d, "run.json")).st_mtime_ns
                    for d in os.listdir(out) if os.path.isfile(os.path.join(out, d, "run.json"))}
        self.assertNotIn("seed=5", finished)
        self.assertGreaterEqual(len(finished), 2)
        proc = self.sweep("run", path, "--out", out, "-j", "2", check=0)
        m = re.search(r"8 runs: (\d+) ran \((\d+) finished, 0 failed\), (\d+) finished "
                      r"before", proc.stdout)
        self.assertTrue(m, proc.stdout + proc.stderr)
        self.assertEqual(int(m.group(1)), int(m.group(2)))
        self.assertEqual(int(m.group(1)) + int(m.group(3)), 8)
        # Every run once: its run.json and traces, no other attempt's files or records;
        # those finished before the kill untouched; no run process left.
        for seed in range(1, 9):
            d = os.path.join(out, "seed=%d" % seed)
            self.assertEqual(sorted(os.listdir(d)),
                             [".run-files", "energy.csv", "messages.csv", "positions.csv",
                              "run.json", sweep.RECORD_FILE, sweep.LOG_FILE], d)
            with open(os.path.join(d, "run.json")) as fh:
                self.assertEqual(json.load(fh)["seed"], seed)
            self.assertFalse(process_alive(self.started(out, "seed=%d" % seed)), d)
        for d, stamp in finished.items():
            self.assertEqual(os.stat(os.path.join(out, d, "run.json")).st_mtime_ns, stamp, d)
        self.sweep("collect", path, "--out", out, check=0)
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([r["seed"] for r in rows], [str(s) for s in range(1, 9)])

    def test_interrupted_is_not_failed(self):
        # Runs stopped by a signal (SIGTERM: the program's handler exits 143; SIGKILL;
        # then SIGHUP to sweep.py, which stops its run) are interrupted, not failed: status
        # counts them, and a plain `run` runs them again.
        path = self.campaign(SLOW % "1, 2, 3")
        out = os.path.join(self.tmp, "out")
        runner = self.start_sweep("run", path, "--out", out, "-j", "1")
        for seed, signum in ((1, signal.SIGTERM), (2, signal.SIGKILL)):
            self.wait_for(lambda: self.started(out, "seed=%d" % seed), "seed=%d" % seed)
            os.kill(self.started(out, "seed=%d" % seed), signum)
        self.wait_for(lambda: self.started(out, "seed=3"), "seed=3 to start")
        runner.send_signal(signal.SIGHUP)
        stdout, stderr = runner.communicate(timeout=60)
        self.assertEqual(runner.returncode, 130, stdout + stderr)
        self.assertIn("interrupted; 3 run(s) not finished", stdout)
        self.assertFalse(process_alive(self.started(out, "seed=3")))
        # SIGTERM: exit 143 from the program's handler, or -15 before it is installed.
        for seed, codes in ((1, (143, -15)), (2, (-9,)), (3, (143, -15))):
            d = os.path.join(out, "seed=%d" % seed)
            self.assertFalse(os.path.exists(os.path.join(d, sweep.FAILED_FILE)), d)
            with open(os.path.join(d, sweep.INTERRUPTED_FILE)) as fh:
                self.assertIn(json.load(fh)["exit_code"], codes, d)
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 0, failed 0, running 0, queued 0, not started 0, "
                      "interrupted 3, stale 0", proc.stdout)
        proc = self.sweep("run", path, "--out", out, check=0)
        self.assertIn("3 runs: 3 ran (3 finished, 0 failed), 0 finished before", proc.stdout)

    def test_stale_runs(self):
        # A changed [parameters] value makes the finished runs stale: status lists them,
        # collect leaves them out, run --keep-stale keeps them, run reruns them.
        text = ("scenario = 'd2d-exchange'\n[parameters]\nquiet = true\nduration = '%s'\n"
                "[grid]\nseed = [1, 2]\n")
        path = self.campaign(text % "200ms")
        out = os.path.join(self.tmp, "out")
        self.sweep("run", path, "--out", out, check=0)
        self.campaign(text % "300ms")
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 0, failed 0, running 0, queued 0, not started 0, "
                      "interrupted 0, stale 2", proc.stdout)
        self.assertIn("  stale: seed=2: ran with other parameters than the campaign's now",
                      proc.stdout)
        proc = self.sweep("collect", path, "--out", out, check=0)
        self.assertEqual(proc.stderr, "sweep.py: warning: 2 stale run(s) left out (seed=1, "
                         "seed=2): they ran with other parameters than the campaign's now; "
                         "`run` reruns them\n")
        self.assertEqual(read_table(os.path.join(out, "results.csv")), [])
        proc = self.sweep("run", path, "--out", out, "--keep-stale", check=0)
        self.assertIn("2 runs: 0 ran", proc.stdout)
        self.assertIn("2 stale run(s) (run with other parameters than the campaign's now) "
                      "kept (--keep-stale)", proc.stderr)
        proc = self.sweep("run", path, "--out", out, check=0)
        self.assertIn("2 runs: 2 ran (2 finished, 0 failed), 0 finished before", proc.stdout)
        proc = self.sweep("collect", path, "--out", out, check=0)
        self.assertEqual(proc.stderr, "")
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([(r["seed"], r["duration"]) for r in rows],
                         [("1", "300ms"), ("2", "300ms")])
        with open(os.path.join(out, "seed=1", "run.json")) as fh:
            self.assertEqual(json.load(fh)["parameters"]["duration_s"], 0.3)
        # The order of the lines is not the command: reordered, nothing is stale.
        self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '300ms'\n"
                      "quiet = true\n[grid]\nseed = [1, 2]\n")
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 2, failed 0, running 0, queued 0, not started 0, "
                      "interrupted 0, stale 0", proc.stdout)

    def test_time_limit(self):
        # A local run past [local] time_limit (1 s, in Slurm's --time syntax) is stopped
        # and failed, reason "timed out"; only --retry-failed runs it again.
        path = self.campaign((SLOW % "1").replace('"40s"', '"600s"')
                             + "[local]\ntime_limit = \"0:01\"\n")
        out = os.path.join(self.tmp, "out")
        t0 = time.monotonic()
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertLess(time.monotonic() - t0, 1 + sweep.KILL_GRACE + 5)
        self.assertIn("1 ran (0 finished, 1 failed)", proc.stdout)
        self.assertRegex(proc.stdout, r"failed: seed=1: exit (143|-15): timed out: stopped "
                         r"after 0:01 \(\[local\] time_limit\)")
        with open(os.path.join(out, "seed=1", sweep.FAILED_FILE)) as fh:
            self.assertEqual(json.load(fh)["reason"], "timed out")
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 0, failed 1", proc.stdout)
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("0 ran", proc.stdout)
        proc = self.sweep("run", path, "--out", out, "--retry-failed", check=1)
        self.assertIn("1 ran (0 finished, 1 failed)", proc.stdout)
        self.assertEqual([sweep.check_time("c", "t", t) for t in
                          ("5", "1:30", "1:00:00", "2-3", "2-3:04", "2-3:04:05")],
                         [300, 90, 3600, 183600, 183840, 183845])

    def wrapper(self, validate_ok=False, abort_after=False):
        """A program in the temporary folder that logs each call's arguments to calls.log
        (a batch of command lines, D2DLEARN_CASES: each of its lines, as a call of its own)
        and runs d2d-exchange; with validate_ok, it answers --validate with `valid` itself
        (a failure no check can foresee: a file gone between the check and the run), and so
        has no batch mode; with abort_after, it ends by SIGABRT after d2d-exchange finished
        (a crash after run.json was written)."""
        path = os.path.join(self.tmp, "d2d-exchange-wrapper")
        log = os.path.join(self.tmp, "calls.log")
        with open(path, "w") as fh:
            if validate_ok:
                fh.write('#!/bin/sh\necho "$*" >> %s\n' % log)
            else:
                fh.write('#!/bin/sh\nif [ -n "$D2DLEARN_CASES" ]; then tr "\\t" " " < '
                         '"$D2DLEARN_CASES" >> %s; else echo "$*" >> %s; fi\n' % (log, log))
            if validate_ok:
                fh.write('for a; do [ "$a" = --validate ] && echo "d2d-exchange: valid" '
                         '&& exit 0; done\n')
            if abort_after:
                fh.write('%s "$@" && kill -ABRT $$\n' % os.path.join(BIN, "d2d-exchange"))
            else:
                fh.write('exec %s "$@"\n' % os.path.join(BIN, "d2d-exchange"))
        os.chmod(path, 0o755)
        return path

    def calls(self):
        try:
            with open(os.path.join(self.tmp, "calls.log")) as fh:
                return fh.read().splitlines()
        except OSError:
            return []

    def test_values_validated_before_any_run(self):
        # A typo in a value passes the flag-name check (--algorithm is a flag) and would fail
        # every run after start-up: every command is checked with --validate first, and
        # the campaign is refused with the program's own error, nothing run or written.
        path = self.campaign("scenario = 'fedavg'\n[parameters]\nrounds = 1\n[grid]\n"
                             "algorithm = ['fedavg', 'decentralised']\nseed = [1, 2]\n")
        line = self.assert_refused(path, "run algorithm=decentralised_seed=1 refused by "
                                   "fedavg --validate: fedavg: error: "
                                   "--algorithm=decentralised is not accepted (fedavg, ")
        self.assertTrue(line.endswith(" (nothing run)\n"), line)
        # Each way of running a campaign checks first (with d2d-exchange: its start-up
        # loads no LibTorch, about a second less per sweep.py call than fedavg's).
        path = self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '1s'\n"
                             "[grid]\nbackend = ['channel', 'wify']\nseed = [1, 2]\n")
        for options in ((), ("--dry-run",), ("-j", "1")):
            line = self.assert_refused(path, "run backend=wify_seed=1 refused by d2d-exchange "
                                       "--validate: d2d-exchange: error: --backend=wify is "
                                       "not accepted (channel or wifi)", *options)
            self.assertTrue(line.endswith(" (nothing run)\n"), line)
        # The same for a value out of range, and for a file that a run would read (relative
        # to the campaign's folder): missing.
        self.assert_refused(self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                                          "spectralEfficiency = [1, -3]\n"),
                            "run spectralEfficiency=-3 refused by d2d-exchange --validate: "
                            "d2d-exchange: error: --spectralEfficiency=-3 is out of range")
        self.assert_refused(self.campaign("scenario = 'd2d-exchange'\n[parameters]\n"
                                          "rssFile = 'W.csv'\n[grid]\nseed = [1, 2]\n"),
                            "run seed=1 refused by d2d-exchange --validate: d2d-exchange: "
                            "error: rssFile: 'W.csv': cannot read the file")

    def test_validation_calls(self):
        # Each distinct command is validated once, with --validate appended and --outDir in
        # a temporary folder (not the run's folder), removed afterwards; then a valid
        # campaign runs as before, and a second `run` validates nothing (all finished).
        program = self.wrapper()
        path = self.campaign("scenario = 'd2d-exchange'\nprogram = '%s'\n[parameters]\n"
                             "duration = '200ms'\n[grid]\n"
                             "spectralEfficiency = [1, 2]\nseed = [1, 2, 3]\n" % program)
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, "-j", "2", check=0)
        self.assertIn("6 runs: 6 ran (6 finished, 0 failed)", proc.stdout)
        # program = PATH runs that executable, and a note says so.
        self.assertIn("note: scenario d2d-exchange runs %s (program = in c.toml)" % program,
                      proc.stderr)
        calls = [c for c in self.calls() if "--outDir=" in c]  # not --PrintHelp
        validations = [c for c in calls if c.endswith(" --validate")]
        runs = [c for c in calls if "--validate" not in c]
        self.assertEqual(len(validations), 6, calls)
        self.assertEqual(len(runs), 6, calls)
        self.assertEqual(sorted(c[:-len(" --validate")].rsplit(" --outDir=", 1)[0]
                                for c in validations),
                         sorted(c.rsplit(" --outDir=", 1)[0] for c in runs))
        for c in validations:
            folder = c[:-len(" --validate")].rsplit(" --outDir=", 1)[1]
            self.assertFalse(folder.startswith(out), c)
            self.assertFalse(os.path.exists(folder), c)
            self.assertFalse(os.path.exists(os.path.dirname(folder)), c)
        proc = self.sweep("run", path, "--out", out, check=0)
        self.assertIn("6 runs: 0 ran", proc.stdout)
        self.assertEqual(len([c for c in self.calls() if "--validate" in c]), 6)

    def test_crash_after_run_json_is_failed(self):
        # A run that wrote run.json and then crashed is failed everywhere: the exit status
        # decides (status, collect, run and --retry-failed agree).
        path = self.program_campaign(self.wrapper(validate_ok=True, abort_after=True), [1])
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("1 ran (0 finished, 1 failed)", proc.stdout)
        self.assertTrue(os.path.isfile(os.path.join(out, "seed=1", "run.json")))
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 0, failed 1", proc.stdout)
        self.assertIn("killed by SIGABRT", proc.stdout)
        self.sweep("collect", path, "--out", out, check=0)
        self.assertEqual(read_table(os.path.join(out, "results.csv")), [])
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("0 ran", proc.stdout)
        proc = self.sweep("run", path, "--out", out, "--retry-failed", check=1)
        self.assertIn("1 ran (0 finished, 1 failed)", proc.stdout)

    def test_failed_run_collected_only_when_asked(self):
        # One run of two crashes after writing run.json (SIGABRT): status lists it as
        # failed, collect leaves it out and says so, collect --include-failed adds its row
        # marked (state, exit_code, error), and run --retry-failed runs it again.
        program = self.wrapper(validate_ok=True)
        with open(program) as fh:  # it execs d2d-exchange; seed 2 aborts after it
            text = fh.read()
        text = text.replace('exec %s "$@"' % os.path.join(BIN, "d2d-exchange"),
                            '%s "$@" || exit $?\ncase "$*" in *--seed=2*) kill -ABRT $$;; '
                            'esac' % os.path.join(BIN, "d2d-exchange"))
        with open(program, "w") as fh:
            fh.write(text)
        path = self.program_campaign(program, [1, 2])
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("2 ran (1 finished, 1 failed)", proc.stdout)
        self.assertTrue(os.path.isfile(os.path.join(out, "seed=2", "run.json")))
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 1, failed 1", proc.stdout)
        self.assertIn("failed: seed=2: exit -6: killed by SIGABRT", proc.stdout)
        proc = self.sweep("collect", path, "--out", out, check=0)
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([r["run"] for r in rows], ["seed=1"])
        self.assertNotIn("state", rows[0])
        self.assertIn("1 failed run(s) left out (--include-failed adds them, marked in "
                      "column state)", proc.stderr)
        proc = self.sweep("collect", path, "--out", out, "--include-failed", check=0)
        self.assertIn("1 of them not finished, marked in column state", proc.stdout)
        self.assertNotIn("left out", proc.stderr)
        rows = read_table(os.path.join(out, "results.csv"))
        self.assertEqual([(r["run"], r["state"], r["exit_code"], r["error"]) for r in rows],
                         [("seed=1", "finished", "0", ""),
                          ("seed=2", "failed", "-6", "killed by SIGABRT")])
        self.assertEqual(list(rows[0])[:4], ["run", "state", "exit_code", "error"])
        self.assertNotEqual(rows[1]["messages"], "")  # its run.json's summary, marked
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("0 ran", proc.stdout)
        proc = self.sweep("run", path, "--out", out, "--retry-failed", check=1)
        self.assertIn("1 ran (0 finished, 1 failed)", proc.stdout)
        self.assertIn("1 finished before", proc.stdout)

    def test_failed_runs(self):
        # --rssFile names a file relative to the campaign's folder, missing at first; the
        # program's --validate is bypassed (it would refuse the campaign up front) to fail
        # the runs themselves.
        path = self.campaign("""\
scenario = "d2d-exchange"
program = "%s"
[parameters]
duration = "2s"
rssFile = "W.csv"
[grid]
seed = [1, 2]
""" % self.wrapper(validate_ok=True))
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("2 ran (0 finished, 2 failed)", proc.stdout)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("failed: ")]
        self.assertEqual(len(lines), 2, proc.stdout)
        self.assertRegex(lines[0], r"^failed: seed=1: exit 2: d2d-exchange: error: .*rssFile")
        self.assertIn("sweep.py: 2 failed run(s) left: rerun them with --retry-failed",
                      proc.stdout)
        proc = self.sweep("status", path, "--out", out, check=0)
        self.assertIn("finished 0, failed 2", proc.stdout)
        self.assertIn("failed: seed=2: exit 2: ", proc.stdout)
        # Not rerun unless asked; `run` fails while they are left.
        proc = self.sweep("run", path, "--out", out, check=1)
        self.assertIn("0 ran", proc.stdout)
        self.assertIn("rerun with --retry-failed", proc.stderr)
        self.assertIn("sweep.py: 2 failed run(s) left: rerun them with --retry-failed",
                      proc.stdout)
        with open(os.path.join(self.tmp, "W.csv"), "w") as fh:
            fh.write("0,2e-12,1e-12\n2e-12,0,5e-13\n1e-12,5e-13,0\n")
        proc = self.sweep("run", path, "--out", out, "--retry-failed", check=0)
        self.assertIn("2 ran (2 finished, 0 failed)", proc.stdout)
        for d in ("seed=1", "seed=2"):
            self.assertFalse(os.path.exists(os.path.join(out, d, sweep.FAILED_FILE)))
            with open(os.path.join(out, d, "run.json")) as fh:
                self.assertEqual(json.load(fh)["parameters"]["nDevices"], 3)

    def test_bad_campaigns(self):
        cases = [
            ("scenario = 'd2d-exchange'\nfoo = 1\n", "unknown key foo"),
            ("[grid]\nseed = [1]\n", "scenario must name a program"),
            ("scenario = 'd2d-exchange'\n[grid]\nseed = []\n", "[grid] seed is an empty list"),
            ("scenario = 'd2d-exchange'\n[grid]\nseed = [1, 1]\n", "holds 1 twice"),
            ("scenario = 'd2d-exchange'\n[parameters]\noutDir = 'x'\n", "outDir is set by"),
            ("scenario = 'd2d-exchange'\n[parameters]\nseed = 1\n[grid]\nseed = [2]\n",
             "seed is given twice"),
            ("scenario = 'd2d-exchange'\n[[zip]]\nseed = [1, 2]\nnDevices = [5]\n",
             "lists of different lengths (seed 2, nDevices 1)"),
            ("scenario = 'd2d-exchange'\n[parameters]\nspectralefficiency = 2\n",
             "spectralefficiency is not a flag of d2d-exchange (did you mean "
             "spectralEfficiency?)"),
            ("scenario = 'no-such-program'\n", "scenario='no-such-program' is not one of the "
             "project's programs (accepted: fedavg, cmfl, consensus, bayes-consensus, "
             "graph-discovery, d2d-exchange; another executable: give program = \"PATH\")"),
            ("scenario = '/bin/echo'\n", "scenario='/bin/echo' is not one of the project's"),
            ("scenario = 'echo'\n", "scenario='echo' is not one of the project's"),
            ("scenario = 'd2d-exchange'\nprogram = 'no-such-file'\n",
             "program no-such-file: not an executable file"),
            ("scenario = 'd2d-exchange'\nthreads_per_run = 0\n", "threads_per_run=0"),
            ("scenario = 'd2d-exchange'\n[slurm]\nmemory = '1G'\n", "[slurm] unknown key"),
            ("scenario = 'd2d-exchange'\n[grid\n", "not valid TOML"),
            ("scenario = 'd2d-exchange'\n[local]\ntime_limit = '90 minutes'\n",
             "[local] time_limit='90 minutes' is not a time of 1 s or more"),
            ("scenario = 'd2d-exchange'\n[slurm]\ntime = '1h'\n", "[slurm] time='1h'"),
        ]
        for text, expected in cases:
            self.assert_refused(self.campaign(text), expected)

    def assert_refused(self, path, expected, *options):
        """`run FILE` stops with one line holding `expected`, exit 2, no output folder."""
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, *options, check=2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn(expected, proc.stderr)
        self.assertTrue(proc.stderr.startswith("sweep.py: error: "), proc.stderr)
        self.assertFalse(os.path.exists(out), path)
        return proc.stderr

    def assert_file_refused(self, path, expected, *options):
        """As assert_refused, and the line names the campaign file first."""
        line = self.assert_refused(path, expected, *options)
        self.assertRegex(line, r"^sweep\.py: error: (.*/)?%s: " % os.path.basename(path))

    def binary_campaign(self, data):
        path = os.path.join(self.tmp, "c.toml")
        with open(path, "wb") as fh:
            fh.write(data)
        return path

    def test_campaign_not_utf8(self):
        self.assert_file_refused(self.binary_campaign(b"scenario = 'd2d-\xe9xchange'\n"),
                            "not UTF-8 text (byte 0xe9 at offset 16)")

    def test_campaign_binary(self):
        with open(PYTHON, "rb") as fh:  # an executable
            self.assert_file_refused(self.binary_campaign(fh.read(4096)), "a binary file")

    def test_campaign_nested_deeply(self):
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\nx = %s%s\n"
                                          % ("[" * 100000, "]" * 100000)),
                            "nested too deeply")

    def test_campaign_fifo(self):
        path = os.path.join(self.tmp, "c.toml")
        os.mkfifo(path)
        self.assert_file_refused(path, "not a regular file")
        self.assert_file_refused(path, "not a regular file", "--dry-run")

    def test_campaign_grid_too_large(self):
        axes = "".join("p%d = [%s]\n" % (i, ", ".join(map(str, range(100))))
                       for i in range(40))
        # 100^40 = 1e80 runs: refused by counting, before anything is expanded.
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\n[grid]\n" + axes),
                            "the grid has about 10^80 runs; accepted: up to 1000000",
                            "--dry-run")
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                                          "a = [%s]\nb = [%s]\n"
                                          % (", ".join(map(str, range(1001))),
                                             ", ".join(map(str, range(1000))))),
                            "the grid has 1001000 runs")

    def test_million_runs_dry_run(self):
        # A campaign of 10^6 runs, the accepted maximum (6 axes of 10 values): the runs are
        # made one at a time, each value of each axis validated once (55 commands, not 10^6),
        # and --dry-run prints as it goes: its first lines within seconds, and the whole of
        # it in bounded memory. Nothing is simulated (no campaign folder, no run.json).
        axes = {"nDevices": range(2, 12), "spectralEfficiency": [0.5 * k for k in
                                                                 range(1, 11)],
                "txPowerDbm": range(10, 20), "areaSideM": range(100, 1100, 100),
                "messageBytes": range(1000, 11000, 1000), "seed": range(1, 11)}
        path = self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '1s'\n"
                             "quiet = true\n[grid]\n" + "".join(
                                 "%s = [%s]\n" % (k, ", ".join(str(v) for v in vs))
                                 for k, vs in axes.items()))
        out = os.path.join(self.tmp, "out")
        start = time.monotonic()
        proc = subprocess.Popen([PYTHON, SCRIPT, "run", path, "--out", out, "--dry-run"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, D2DLEARN_BIN=BIN))
        header = proc.stdout.readline()
        first = proc.stdout.readline()
        first_at = time.monotonic() - start
        lines, last = 2, b""
        for chunk in iter(lambda: proc.stdout.read(1 << 20), b""):
            lines += chunk.count(b"\n")
            last = (last + chunk)[-400:]
        stderr = proc.stderr.read().decode()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        proc.stderr.close()
        total = time.monotonic() - start
        print("\n10^6-run --dry-run: first command after %.1f s, all after %.1f s, peak RSS "
              "%.0f MB" % (first_at, total, usage.ru_maxrss / 1024), file=sys.stderr)
        self.assertEqual(proc.returncode, 0, stderr)
        self.assertEqual(header.decode().split(" (cwd")[0], "# 1000000 runs, 1000000 to run")
        self.assertTrue(first.decode().endswith(" --outDir=%s\n" % os.path.join(
            out, "nDevices=2_spectralEfficiency=0.5_txPowerDbm=10_areaSideM=100_"
            "messageBytes=1000_seed=1")), first)
        self.assertTrue(last.decode().endswith("nDevices=11_spectralEfficiency=5.0_"
                                               "txPowerDbm=19_areaSideM=1000_"
                                               "messageBytes=10000_seed=10\n"), last[-200:])
        self.assertEqual(lines, 1000001)
        self.assertIn("note: 1000000 runs to check, more than 2000: each value of each swept "
                      "parameter is validated once (55 commands, the other parameters at "
                      "their first value)", stderr)
        self.assertLess(first_at, 10)
        self.assertLess(usage.ru_maxrss / 1024, 300)
        self.assertFalse(os.path.exists(out))
        # runs[i] is the i-th run of the iteration (mixed radix, the last axis fastest).
        c = sweep.Campaign(path)
        self.assertEqual(len(c.runs), 10 ** 6)
        for i in (0, 1, 9, 10, 123456, 999999):
            self.assertEqual(c.runs[i].folder,
                             next(itertools.islice(iter(c.runs), i, None)).folder)

    def validate_markers(self, pid):
        """The processes whose command line holds sweep.py `pid`'s validation folder (its
        --validate batch and the cases it forks)."""
        marker = ("sweep-validate-%d-" % pid).encode()
        found = []
        for d in os.listdir("/proc"):
            try:
                with open("/proc/%s/cmdline" % d, "rb") as fh:
                    if marker in fh.read() and process_alive(int(d)):
                        found.append(int(d))
            except (OSError, ValueError):
                continue
        return found

    def test_signals_during_validation(self):
        # 2000 runs, every command validated, one batch at a time (a few seconds): SIGINT,
        # SIGTERM and SIGHUP end sweep.py at once, in one line, exit status 130 (as an
        # interrupted `run`), its --validate processes killed and its temporary folder
        # removed; with SIGKILL its processes die with it (PR_SET_PDEATHSIG), and the folder
        # it could not remove goes at the next start of sweep.py.
        path = self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '1s'\n"
                             "[grid]\nseed = [%s]\nnDevices = [%s]\n"
                             % (", ".join(map(str, range(1, 101))),
                                ", ".join(map(str, range(2, 22)))))
        out = os.path.join(self.tmp, "out")
        tmpdir = os.path.join(self.tmp, "tmpdir")
        os.mkdir(tmpdir)
        env = dict(os.environ, D2DLEARN_BIN=BIN, TMPDIR=tmpdir)

        def start():
            proc = subprocess.Popen([PYTHON, SCRIPT, "run", path, "--out", out, "-j", "1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    universal_newlines=True, env=env)
            self.wait_for(lambda: self.validate_markers(proc.pid) or proc.poll() is not None,
                          "a --validate batch")
            self.assertIsNone(proc.poll(), "validation ended before the signal")
            time.sleep(0.3)
            return proc

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            proc = start()
            sent = time.monotonic()
            proc.send_signal(signum)
            stdout, stderr = proc.communicate(timeout=30)
            self.assertLess(time.monotonic() - sent, 5)
            self.assertEqual(proc.returncode, 130, stdout + stderr)
            self.assertEqual(stderr, "sweep.py: stopped by %s before any run started: nothing "
                             "run\n" % signal.Signals(signum).name)
            self.assertEqual(self.validate_markers(proc.pid), [])
            self.assertEqual(os.listdir(tmpdir), [])
            self.assertFalse(os.path.exists(out))
        proc = start()
        proc.kill()
        proc.communicate(timeout=30)
        self.wait_for(lambda: not self.validate_markers(proc.pid),
                      "the validation processes to die with sweep.py", timeout=10)
        left = os.listdir(tmpdir)
        self.assertEqual([n.startswith("sweep-validate-%d-" % proc.pid) for n in left], [True])
        small = self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '1s'\n",
                              "small.toml")
        subprocess.run([PYTHON, SCRIPT, "run", small, "--out", out, "--dry-run"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=120)
        self.assertEqual(os.listdir(tmpdir), [])

    def test_grid_same_number_twice(self):
        # 2 and 2.0 are the same number: two folders would run the same command.
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                                          "seed = [1, 2, 2.0]\n"),
                            "[grid] seed holds 2 and 2.0, the same value twice; keep one")

    def test_grid_same_value_after_units(self):
        # The same value in two spellings would run the same command into two folders:
        # times compare in seconds (exact: "0.1s" is 100 ms), numbers given as text by value.
        for values, first, second in (('"1s", "1000ms"', "1s", "1000ms"),
                                      ('"1e3", 1000', "1e3", "1000"),
                                      ('"0.5", 0.5', "0.5", "0.5"),
                                      ('"2min", "100ms", "120s"', "2min", "120s"),
                                      ('"0.1s", "100ms"', "0.1s", "100ms"),
                                      ('1e-1, "0.1"', "0.1", "0.1")):
            text = "scenario = 'd2d-exchange'\n[grid]\nduration = [%s]\n" % values
            expected = ("[grid] duration holds %s twice" % first if first == second else
                        "[grid] duration holds %s and %s, the same value twice; keep one"
                        % (first, second))
            self.assert_file_refused(self.campaign(text), expected, "--dry-run")
        # Distinct values stay distinct (1 us is not 1 ms; 1.5 s is not 1 s).
        c = sweep.Campaign(self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                                         "duration = ['1ms', '1us', '1.5s', '1s', 2]\n"))
        self.assertEqual(len(c.runs), 5)
        # The rows of a [[zip]] too.
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\n[[zip]]\n"
                                               "duration = ['1s', '2s', '1000ms']\n"
                                               "nDevices = [5, 6, '5']\n"),
                                 "[[zip]] #1: rows 1 and 3 are the same (duration=1000ms, "
                                 "nDevices=5): the same runs twice; keep one")

    def test_zip_value_repeated_in_one_list(self):
        # A value may repeat in one zipped list (Table 1 of the consensus paper: three runs of
        # algorithm consensus, one per trust mode); the same row twice is refused.
        c = sweep.Campaign(self.campaign("scenario = 'd2d-exchange'\n[[zip]]\n"
                                         "reliable = [false, true, true]\n"
                                         "nDevices = [5, 5, 10]\n"))
        self.assertEqual([r.parameters for r in c.runs],
                         [{"reliable": False, "nDevices": 5}, {"reliable": True, "nDevices": 5},
                          {"reliable": True, "nDevices": 10}])
        self.assert_file_refused(self.campaign("scenario = 'd2d-exchange'\n[[zip]]\n"
                                               "reliable = [true, false, true]\n"
                                               "nDevices = [5, 5, 5.0]\n"),
                                 "[[zip]] #1: rows 1 and 3 are the same (reliable=true, "
                                 "nDevices=5.0): the same runs twice; keep one")

    def test_zip_grid_and_folder_names(self):
        path = self.campaign("""\
scenario = "d2d-exchange"
seeds = [1, 2]
[parameters]
reliable = true
[grid]
noisePowerW = [1e-13, 1e-11]
[[zip]]
nDevices = [5, 10, 20]
areaSideM = [50.0, 100.0, 200.0]
""")
        c = sweep.Campaign(path)
        self.assertEqual(len(c.runs), 2 * 2 * 3)
        self.assertEqual(c.swept, ["noisePowerW", "seed", "nDevices", "areaSideM"])
        self.assertEqual(c.runs[0].folder, "noisePowerW=1e-13_seed=1_nDevices=5_areaSideM=50.0")
        self.assertEqual(c.runs[5].parameters, {"reliable": True, "noisePowerW": 1e-13,
                                                "seed": 2, "nDevices": 20, "areaSideM": 200.0})
        self.assertEqual(c.runs[5].argv("P", "/o")[1:],
                         ["--reliable=true", "--noisePowerW=1e-13", "--seed=2",
                          "--nDevices=20", "--areaSideM=200.0", "--outDir=/o"])
        # Characters other than letters, digits and ._+-= (or a long name) add a hash.
        name = sweep.folder_name([("ns3::D2dChannel::MaxRetransmissions", 3)])
        self.assertRegex(name, r"^ns3--D2dChannel--MaxRetransmissions=3-[0-9a-f]{8}$")
        self.assertEqual(name, sweep.folder_name([("ns3::D2dChannel::MaxRetransmissions", 3)]))
        long = sweep.folder_name([("x%d" % i, "v" * 20) for i in range(8)])
        self.assertLessEqual(len(long), sweep.MAX_FOLDER)
        self.assertNotEqual(long, sweep.folder_name([("x%d" % i, "v" * 20) for i in range(7)]
                                                    + [("x7", "w" * 20)]))
        # --dry-run prints the commands and runs nothing.
        out = os.path.join(self.tmp, "out")
        proc = self.sweep("run", path, "--out", out, "--dry-run", check=0)
        commands = [ln for ln in proc.stdout.splitlines() if not ln.startswith("#")]
        self.assertEqual(len(commands), 12)
        self.assertTrue(commands[0].endswith(
            "d2d-exchange --reliable=true --noisePowerW=1e-13 --seed=1 --nDevices=5 "
            "--areaSideM=50.0 --outDir=%s" % os.path.join(out, c.runs[0].folder)))
        self.assertFalse(os.path.exists(out))

    def test_default_output_folder(self):
        # Without --out the runs go to results/<name> next to the campaign file, whatever
        # the current folder; an explicit relative --out is relative to the current folder.
        os.makedirs(os.path.join(self.tmp, "campaigns"))
        os.makedirs(os.path.join(self.tmp, "elsewhere"))
        path = self.campaign("scenario = 'd2d-exchange'\n[parameters]\nduration = '200ms'\n"
                             "[grid]\nseed = [1, 2]\n", name="campaigns/small.toml")
        self.sweep("run", path, cwd=os.path.join(self.tmp, "elsewhere"), check=0)
        default = os.path.join(self.tmp, "campaigns", "results", "small")
        for seed in (1, 2):
            self.assertTrue(os.path.isfile(os.path.join(default, "seed=%d" % seed, "run.json")))
        self.assertEqual(os.listdir(os.path.join(self.tmp, "elsewhere")), [])
        proc = self.sweep("status", os.path.join("campaigns", "small.toml"), cwd=self.tmp,
                          check=0)
        self.assertIn("finished 2, failed 0", proc.stdout)
        self.assertIn(default, proc.stdout)
        proc = self.sweep("run", "../campaigns/small.toml", "--out", "mine",
                          cwd=os.path.join(self.tmp, "elsewhere"), check=0)
        self.assertIn("2 ran (2 finished, 0 failed)", proc.stdout)
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "elsewhere", "mine", "seed=1",
                                                    "run.json")))

    def fake_campaign(self, values):
        """A campaign folder with finished runs whose summaries hold `values`:
        {(hue, x, seed): metric}."""
        path = self.campaign("""\
scenario = "d2d-exchange"
[grid]
noisePowerW = [1e-13, 1e-11]
spectralEfficiency = [1, 2]
seed = [1, 2, 3]
""")
        out = os.path.join(self.tmp, "out")
        for run in sweep.Campaign(path).runs:
            p = run.parameters
            d = os.path.join(out, run.folder)
            os.makedirs(d)
            key = (p["noisePowerW"], p["spectralEfficiency"], p["seed"])
            with open(os.path.join(d, "run.json"), "w") as fh:
                json.dump({"seed": p["seed"], "summary": {"m": values[key],
                                                          "energy_j": {"total": 1.0}}}, fh)
        return path, out

    def test_plot_mean_and_interval(self):
        # Values 1, 2, 3 over seeds: mean 2, s = 1, half-width t_{0.975,2} / sqrt(3)
        # = 4.302652730 / 1.732050808 = 2.484137709 (m is unbounded: the t interval, t95).
        values = {}
        for seed, v in zip((1, 2, 3), (1.0, 2.0, 3.0)):
            values[(1e-13, 1, seed)] = v
            values[(1e-13, 2, seed)] = 10 * v
            values[(1e-11, 1, seed)] = 5.0
            values[(1e-11, 2, seed)] = v + 1
        path, out = self.fake_campaign(values)
        proc = self.sweep("plot", path, "--out", out, "--metric", "m",
                          "--x", "spectralEfficiency", "--hue", "noisePowerW", "--format",
                          "pdf", check=0)
        table = {(r[0], r[1]): r[2:] for r in csv.reader(proc.stdout.splitlines()[1:5])}
        n, mean, lo, hi, interval = table[("1e-13", "1")]
        self.assertEqual((n, float(mean), interval), ("3", 2.0, "t95"))
        self.assertAlmostEqual(float(hi) - 2.0, 2.484137709, places=8)
        self.assertAlmostEqual(2.0 - float(lo), 2.484137709, places=8)
        n, mean, lo, hi, _ = table[("1e-13", "2")]
        self.assertAlmostEqual(float(hi) - 20.0, 24.84137709, places=7)
        self.assertEqual(table[("1e-11", "1")][1:], ["5.0", "5.0", "5.0", "t95"])  # no spread
        pdf = os.path.join(out, "plots", "m_vs_spectralEfficiency_by_noisePowerW.pdf")
        with open(pdf, "rb") as fh:
            self.assertEqual(fh.read(5), b"%PDF-")
        # Without --hue, noisePowerW is a second swept parameter: pick one or give --hue.
        proc = self.sweep("plot", path, "--out", out, "--metric", "m",
                          "--x", "spectralEfficiency", check=2)
        self.assertIn("parameter noisePowerW takes 2 values", proc.stderr)
        proc = self.sweep("plot", path, "--out", out, "--metric", "m", "--x",
                          "spectralEfficiency", "--where", "noisePowerW=1e-11", "--format",
                          "svg", check=0)
        self.assertEqual(proc.stdout.splitlines()[1], "1,3,5.0,5.0,5.0,t95")
        self.assertTrue(os.path.isfile(os.path.join(out, "plots",
                                                    "m_vs_spectralEfficiency.svg")))
        proc = self.sweep("plot", path, "--out", out, "--metric", "nope", "--x",
                          "spectralEfficiency", check=2)
        self.assertIn("not a summary column (columns: m, energy_j.total)", proc.stderr)

    def test_example_campaigns(self):
        # Every campaign in analysis/campaigns parses, names only flags its program has
        # (checked against --PrintHelp), and every value of every swept parameter is
        # accepted by the program's --validate: checked on as many runs as the longest list
        # (run k takes the k-th value of each list, or its last), not on all ~1060 runs,
        # which `run` validates (about a second each: the programs' start-up), and a run
        # only if it has a value not validated yet for its program. One
        # campaign goes through --dry-run, which prints the commands and runs nothing.
        folder = os.path.join(REPO, "analysis", "campaigns")
        counts = {"wireless.toml": 16, "cmfl-robustness.toml": 63, "paper-fedavg.toml": 6,
                  "paper-cmfl.toml": 7, "paper-bayes.toml": 3, "paper-d2d-exchange.toml": 12,
                  "drop-probability.toml": 12,
                  "cmfl-robustness-clean.toml": 14, "cmfl-robustness-weights.toml": 56,
                  "cmfl-robustness-update.toml": 28, "cmfl-robustness-large.toml": 28,
                  "cmfl-robustness-large-clean.toml": 14,
                  "cmfl-robustness-paper-scale.toml": 84,
                  "cmfl-robustness-paper-scale-clean.toml": 21,
                  "cmfl-robustness-paper-scale-update.toml": 84,
                  "cmfl-update-causes.toml": 16, "cmfl-update-heterogeneity.toml": 16,
                  "cmfl-attack-gain.toml": 32, "cmfl-attack-gain-control.toml": 16,
                  "cmfl-clean-causes.toml": 64,
                  "paper-graph-discovery.toml": 27, "paper-consensus.toml": 18,
                  "paper-graph-discovery-unsupervised.toml": 39,
                  "paper-graph-discovery-semi.toml": 15,
                  "paper-consensus-low-quality.toml": 18,
                  "cmfl-former-rules.toml": 28, "cmfl-former-rules-lr.toml": 2,
                  "paper-bayes-variational.toml": 4, "paper-consensus-gaussian.toml": 2,
                  "paper-consensus-hetero.toml": 9, "paper-consensus-longer.toml": 3,
                  "paper-consensus-longer-low-quality.toml": 3,
                  "paper-consensus-polynomial.toml": 1,
                  "paper-graph-discovery-downstream.toml": 8,
                  "paper-graph-discovery-gcn.toml": 3,
                  "paper-graph-discovery-labeller-downstream.toml": 24,
                  "paper-graph-discovery-regression.toml": 18,
                  "paper-graph-discovery-scaling.toml": 6,
                  "paper-graph-discovery-scaling-density.toml": 3,
                  "paper-graph-discovery-scaling-equal.toml": 6,
                  "paper-graph-discovery-unsupervised-downstream.toml": 12,
                  "paper-graph-discovery-downstream-ci.toml": 50,
                  "paper-graph-discovery-fig5a-ceiling.toml": 8,
                  "paper-graph-discovery-fig5a-points.toml": 20,
                  "paper-graph-discovery-fig5a-skew.toml": 20,
                  "paper-graph-discovery-fig5a-drift.toml": 20,
                  "paper-graph-discovery-fig5a-lossy.toml": 20,
                  "channel-vs-wifi-exchange-channel.toml": 16,
                  "channel-vs-wifi-exchange-wifi.toml": 16,
                  "channel-vs-wifi-exchange-wifi-ideal.toml": 16,
                  "channel-vs-wifi-fedavg-channel.toml": 12,
                  "channel-vs-wifi-fedavg-wifi.toml": 12,
                  "channel-vs-wifi-fedavg-wifi-reassembly.toml": 12,
                  "wireless-effects-server.toml": 18, "wireless-effects-drop.toml": 12,
                  "wireless-effects-speed.toml": 24, "wireless-effects-speed-wifi.toml": 12,
                  "round-time-vs-devices-fedavg-channel.toml": 8,
                  "round-time-vs-devices-fedavg-literal.toml": 8,
                  "round-time-vs-devices-fedavg-wifi.toml": 8,
                  "round-time-vs-devices-braintorrent-channel.toml": 8,
                  "round-time-vs-devices-braintorrent-literal.toml": 8,
                  "round-time-vs-devices-braintorrent-wifi.toml": 8,
                  "sleep-effects-fedavg.toml": 12, "sleep-effects-decentralized.toml": 12,
                  "async-fl.toml": 48,
                  "propagation-links-channel.toml": 18, "propagation-links-wifi.toml": 18,
                  "propagation-fedavg.toml": 9}
        self.assertEqual(sorted(f for f in os.listdir(folder) if f.endswith(".toml")),
                         sorted(counts))
        validated = set()  # (program, parameter, value) checked by --validate so far
        # Per program: a campaign (they share one folder, the commands' working folder), its
        # options, the runs to validate and the campaigns they come from; validated in one
        # call per program (two starts of it), not one per campaign.
        by_program = {}
        for name, runs in counts.items():
            campaign = sweep.Campaign(os.path.join(folder, name))
            self.assertEqual(len(campaign.runs), runs, name)
            program = sweep.find_program(campaign, BIN)
            options = sweep.check_parameters(campaign, program)
            longest = max(len(values) for _, values in campaign.axes)
            chosen = set()
            for k in range(longest):
                chosen.add(tuple(values[min(k, len(values) - 1)]
                                 for _, values in campaign.axes))
            covering = [r for r in campaign.runs
                        if tuple(tuple(v for _, v in r.swept[i:i + len(names)])
                                 for i, names in self.axis_offsets(campaign)) in chosen]
            self.assertEqual(len(covering), len(chosen), name)
            # The campaign's first run (its fixed parameters), then a run only if one of its
            # swept values was not validated yet for this program: each value is checked once.
            fresh = []
            for r in covering:
                values = {(program, n, str(v)) for n, v in r.swept}
                if not fresh or values - validated:
                    fresh.append(r)
                    validated.update(values)
            entry = by_program.setdefault(program, (campaign, options, [], []))
            entry[2].extend(fresh)
            entry[3].append(name)
        self.assertTrue(all(os.path.dirname(c.path) == folder for c, _, _, _ in
                            by_program.values()))
        for program, (campaign, options, fresh, names) in by_program.items():
            try:
                sweep.validate_runs(campaign, program, fresh, 2, options)
            except sweep.SweepError as exc:
                self.fail("%s (one of %s): %s" % (os.path.basename(program),
                                                   ", ".join(names), exc))
        out = os.path.join(self.tmp, "bayes")
        proc = self.sweep("run", os.path.join(folder, "paper-bayes.toml"), "--out", out,
                          "--dry-run", check=0)
        self.assertTrue(proc.stdout.startswith("# 3 runs, 3 to run"), proc.stdout[:200])
        self.assertEqual(len(proc.stdout.splitlines()), 4)
        self.assertFalse(os.path.exists(out))

    @staticmethod
    def axis_offsets(campaign):
        """(offset in Run.swept, names) of each axis of a campaign."""
        offsets, i = [], 0
        for names, _ in campaign.axes:
            offsets.append((i, names))
            i += len(names)
        return offsets

    def plot(self, path, out, *options):
        """`sweep.py plot` run here (figure_checks.render): (exit status, stdout, the one
        figure written), after checking the figure with figure_checks.problems."""
        rc, stdout, drawn = figure_checks.render("sweep", ["plot", path, "--out", out]
                                                 + list(options))
        self.assertEqual(rc, 0, stdout)
        self.assertEqual(len(drawn), 1)
        self.assertEqual(figure_checks.all_problems(drawn), [])
        return stdout, drawn[0][1]

    def rate_campaign(self, values):
        """A campaign folder of finished runs: spectralEfficiency x seed (1, 2), whose
        complete_delivery_rate is values[(r, seed)] and energy total 10 * it."""
        path = self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                             "spectralEfficiency = [0.5, 1, 2]\nseed = [1, 2]\n")
        out = os.path.join(self.tmp, "out")
        for run in sweep.Campaign(path).runs:
            p = run.parameters
            v = values[(p["spectralEfficiency"], p["seed"])]
            os.makedirs(os.path.join(out, run.folder))
            with open(os.path.join(out, run.folder, "run.json"), "w") as fh:
                json.dump({"seed": p["seed"], "summary": {
                    "complete_delivery_rate": v, "energy_j": {"total": 10 * v}}}, fh)
        return path, out

    def test_plot_band_in_domain(self):
        # Two seeds whose t interval (t_{0.975,1} = 12.706) leaves [0, 1] on both sides
        # (0.1 and 0.9: 0.5 +- 12.706 * 0.566 / 1.414 = -4.58 to 5.58): a rate of 2 seeds
        # gets that interval cut at [0, 1] (t95_cut), printed and drawn in [0, 1]; at
        # r = 0.5 (0.95, 0.99: 0.97 +- 0.254) it is cut above only, at r = 2 (0.0, 0.04:
        # 0.02 +- 0.254) below only. Every per-seed point and the axis stay in [0, 1]; the
        # energy's band stays >= 0; the axes name the quantity with its unit.
        values = {(0.5, 1): 0.95, (0.5, 2): 0.99, (1, 1): 0.1, (1, 2): 0.9,
                  (2, 1): 0.0, (2, 2): 0.04}
        path, out = self.rate_campaign(values)
        stdout, fig = self.plot(path, out, "--metric", "complete_delivery_rate",
                                "--x", "spectralEfficiency", "--logx")
        rows = list(csv.DictReader(stdout.splitlines()[:4]))
        self.assertEqual([float(rows[1]["ci95_low"]), float(rows[1]["ci95_high"])],
                         [0.0, 1.0])
        half = 12.706204736 * 0.02  # t s / sqrt(2), s = 0.04 / sqrt(2)
        self.assertAlmostEqual(float(rows[0]["ci95_low"]), 0.97 - half, places=8)
        self.assertEqual(float(rows[0]["ci95_high"]), 1.0)
        self.assertEqual(float(rows[2]["ci95_low"]), 0.0)
        self.assertAlmostEqual(float(rows[2]["ci95_high"]), 0.02 + half, places=8)
        self.assertEqual({r["interval"] for r in rows}, {"t95_cut"})
        ax = fig.axes[0]
        bands = [c for c in ax.collections if type(c).__name__ in ("PolyCollection",
                                                                   "FillBetweenPolyCollection")]
        self.assertEqual(len(bands), 1)
        _, ys = figure_checks.points(bands[0])
        self.assertAlmostEqual(min(ys), 0.0)
        self.assertAlmostEqual(max(ys), 1.0)
        dots = [c for c in ax.collections if type(c).__name__ == "PathCollection"]
        self.assertEqual(len(dots), 1)
        self.assertEqual(len(dots[0].get_offsets()), 6)
        self.assertEqual(ax.get_ylim(), (0.0, 1.0))
        self.assertEqual(ax.get_xlabel(), "Spectral efficiency r [bit/s/Hz]")
        self.assertEqual(ax.get_ylabel(), "Complete delivery rate (models arrived whole)")
        self.assertIn("95 % CI (Student t, cut at the domain) over 2 seed values",
                      ax.get_title())
        self.assertNotIn("band cut", ax.get_title())  # (the note of --band sd's cut)
        _, fig = self.plot(path, out, "--metric", "energy_j.total",
                           "--x", "spectralEfficiency")
        ax = fig.axes[0]
        self.assertEqual(ax.get_ylabel(), "Energy, summed over all devices [J]")
        _, ys = figure_checks.points(ax.collections[0])
        self.assertAlmostEqual(min(ys), 0.0)

    def test_plot_bands(self):
        # Every --band draws what it says (sd: mean +- s; minmax: the extremes; none: no
        # band); --no-points drops the per-seed dots; --band=bogus is refused in one line.
        values = {(0.5, 1): 0.2, (0.5, 2): 0.4, (1, 1): 0.1, (1, 2): 0.5,
                  (2, 1): 0.3, (2, 2): 0.3}
        path, out = self.rate_campaign(values)
        common = ["--metric", "complete_delivery_rate", "--x", "spectralEfficiency"]
        s = 0.08 ** 0.5  # the sd of 0.1 and 0.5 (at r = 1)
        expected = {"sd": (0.3 - s, 0.3 + s), "minmax": (0.1, 0.5)}
        columns = {"ci": ",ci95_low,ci95_high,interval", "sd": ",sd_low,sd_high,interval",
                   "minmax": ",min_max_low,min_max_high,interval", "none": ""}
        for band in ("ci", "sd", "minmax", "none"):
            stdout, fig = self.plot(path, out, *common, "--band", band)
            ax = fig.axes[0]
            polys = [c for c in ax.collections if type(c).__name__ != "PathCollection"]
            self.assertEqual(len(polys), 0 if band == "none" else 1, band)
            self.assertEqual(stdout.splitlines()[0], "spectralEfficiency,n,mean"
                             + columns[band])
            if band in expected:
                at_1 = sorted(set(round(y, 9) for x, y in zip(*figure_checks.points(polys[0]))
                                  if abs(x - 1) < 1e-9))
                self.assertEqual(len(at_1), 2, (band, at_1))
                self.assertAlmostEqual(at_1[0], expected[band][0], places=9)
                self.assertAlmostEqual(at_1[1], expected[band][1], places=9)
        _, fig = self.plot(path, out, *common, "--no-points")
        self.assertEqual([c for c in fig.axes[0].collections
                          if type(c).__name__ == "PathCollection"], [])
        proc = self.sweep("plot", path, "--out", out, *common, "--band=bogus", check=2)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("--band: invalid choice: 'bogus' (choose from", proc.stderr)

    def test_plot_no_finished_run_and_legend(self):
        # A campaign with no finished run (no campaign folder, or an empty one): plot says
        # so in one line, exit 2, and writes nothing, also with --x a summary metric (not
        # "not a summary column": the column may well be one); collect writes the header
        # only and says so. A hue of 10 values: a legend of at most 8 entries; hue labels
        # carry the unit.
        path = self.campaign("scenario = 'd2d-exchange'\n[grid]\n"
                             "noisePowerW = [%s]\nspectralEfficiency = [1, 2]\n"
                             % ", ".join("%de-13" % k for k in range(1, 11)))
        out = os.path.join(self.tmp, "out")
        common = ["--metric", "complete_delivery_rate", "--x", "spectralEfficiency",
                  "--hue", "noisePowerW"]
        said = ("no finished run in %s (0 of 20 runs): run `sweep.py run %s` first"
                % (out, path))
        for made in (False, True):
            if made:
                os.makedirs(out)
            for options in (common, ["--y", "complete_delivery_rate", "--x",
                                     "energy_j.total"]):
                proc = self.sweep("plot", path, "--out", out, *options, check=2)
                self.assertEqual(proc.stderr, "sweep.py: error: %s\n" % said)
                self.assertEqual(proc.stdout, "")
                self.assertEqual(os.listdir(out) if made else os.path.exists(out),
                                 [] if made else False)
        proc = self.sweep("collect", path, "--out", out, check=0)
        self.assertEqual(proc.stdout, "wrote %s (the header only, 3 columns): %s\n"
                         % (os.path.join(out, "results.csv"), said))
        self.assertEqual(proc.stderr, "")
        self.assertEqual(read_table(os.path.join(out, "results.csv")), [])
        for run in sweep.Campaign(path).runs:
            os.makedirs(os.path.join(out, run.folder))
            with open(os.path.join(out, run.folder, "run.json"), "w") as fh:
                json.dump({"summary": {"complete_delivery_rate": 0.5}}, fh)
        _, fig = self.plot(path, out, *common)
        texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        self.assertEqual(len(texts), 8)
        self.assertEqual(texts[0], "Noise power \u03c3\u00b2 = 1e-13 W")
        self.assertEqual(texts[-1], "... and 3 more")

    def test_plot_not_finite_values(self):
        # Summary values that are not finite (NaN, Infinity, -Infinity: Python's json
        # writes and reads them; the programs write null) are drawn as missing, with one
        # note naming the metric, how many and the runs; collect writes them as nan, inf
        # and -inf with a note. With no finite value left: one line naming the metric,
        # exit 2, no figure. Never a traceback.
        values = {}
        for noise in (1e-13, 1e-11):
            for r in (1, 2):
                for seed in (1, 2, 3):
                    values[(noise, r, seed)] = float(r * seed)
        nan, inf = float("nan"), float("inf")
        values[(1e-13, 1, 1)] = nan
        values[(1e-11, 2, 3)] = inf
        values[(1e-11, 1, 2)] = -inf
        path, out = self.fake_campaign(values)
        folder = "noisePowerW=%s_spectralEfficiency=%d_seed=%d"
        with open(os.path.join(out, folder % ("1e-13", 1, 1), "run.json")) as fh:
            self.assertIn('"m": NaN', fh.read())  # as Python's json writes it
        where = ("NaN in %s; inf in %s; -inf in %s" % (folder % ("1e-13", 1, 1),
                                                       folder % ("1e-11", 2, 3),
                                                       folder % ("1e-11", 1, 2)))
        proc = self.sweep("plot", path, "--out", out, "--metric", "m", "--x",
                          "spectralEfficiency", "--hue", "noisePowerW", check=0)
        self.assertEqual(proc.stderr, "note: --metric m: 3 of 12 value(s) not finite, "
                         "drawn as missing (%s)\n" % where)
        table = {(r[0], r[1]): r[2:] for r in csv.reader(proc.stdout.splitlines()[1:5])}
        self.assertEqual(table[("1e-13", "1")][:2], ["2", "2.5"])  # seeds 2 and 3
        self.assertEqual(table[("1e-11", "2")][:2], ["2", "3.0"])  # seeds 1 and 2
        self.assertTrue(os.path.isfile(os.path.join(
            out, "plots", "m_vs_spectralEfficiency_by_noisePowerW.png")))
        stdout, fig = self.plot(path, out, "--metric", "m", "--x", "spectralEfficiency",
                                "--hue", "noisePowerW")
        dots = [c for c in fig.axes[0].collections if type(c).__name__ == "PathCollection"]
        self.assertEqual(sum(len(d.get_offsets()) for d in dots), 9)
        # One metric against another: the runs with a value not finite are left out.
        proc = self.sweep("plot", path, "--out", out, "--x", "m", "--y", "energy_j.total",
                          check=0)
        self.assertEqual(proc.stderr, "note: --x m: 3 of 12 value(s) not finite, drawn as "
                         "missing (%s)\n" % where)
        self.assertEqual(sorted(int(r["n"]) for r in csv.DictReader(
            proc.stdout.splitlines()[:5])), [2, 2, 2, 3])
        self.assertTrue(os.path.isfile(os.path.join(out, "plots",
                                                    "energy_j.total_vs_m.png")))
        proc = self.sweep("collect", path, "--out", out, check=0)
        self.assertEqual(proc.stderr, "note: 3 summary value(s) not finite, written as nan, "
                         "inf or -inf: m (%s)\n" % where)
        cells = {r["run"]: r["m"] for r in read_table(os.path.join(out, "results.csv"))}
        self.assertEqual([cells[folder % k] for k in (("1e-13", 1, 1), ("1e-11", 2, 3),
                                                      ("1e-11", 1, 2), ("1e-11", 2, 2))],
                         ["nan", "inf", "-inf", "4.0"])
        # A rate whose count of trials is not finite has no Wilson interval (no crash).
        from d2dlearn_analysis.sweep.plot import counts_of
        for trials in (nan, inf):
            self.assertIsNone(counts_of({"complete_delivery_rate": 0.5,
                                         "message_rows": trials}, "complete_delivery_rate"))
        # No finite value left: one line naming the metric, exit 2, no figure.
        shutil.rmtree(out)
        path, out = self.fake_campaign({k: (nan if k[2] == 1 else inf if k[2] == 2 else -inf)
                                        for k in values})
        for options, option in ((["--metric", "m", "--x", "spectralEfficiency", "--hue",
                                  "noisePowerW"], "--metric"),
                                (["--x", "m", "--y", "energy_j.total"], "--x")):
            proc = self.sweep("plot", path, "--out", out, *options, check=2)
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
            self.assertTrue(proc.stderr.startswith(
                "sweep.py: error: %s m: no finite value to draw (12 of 12 finished run(s) "
                "not finite: NaN in %s, %s, %s, ...; inf in " % (
                    option, folder % ("1e-13", 1, 1), folder % ("1e-13", 2, 1),
                    folder % ("1e-11", 1, 1))), proc.stderr)
            self.assertEqual(proc.stdout, "")
            self.assertFalse(os.path.exists(os.path.join(out, "plots")))
        proc = self.sweep("collect", path, "--out", out, check=0)
        self.assertIn("12 summary value(s) not finite", proc.stderr)

    def test_where_values(self):
        # --where compares with the value as the command line writes it, or as a number.
        self.assertTrue(sweep.same_value(True, "true"))
        self.assertFalse(sweep.same_value(True, "1"))
        self.assertTrue(sweep.same_value(1e-11, "1.0e-11"))
        self.assertTrue(sweep.same_value(2, "2.0"))
        self.assertTrue(sweep.same_value("back-gradient", "back-gradient"))
        self.assertFalse(sweep.same_value("back-gradient", "same-value"))

    def test_t_quantiles(self):
        # t_{0.975,40} = 2.021075390, t_{0.975,120} = 1.979930405 (as t tables give them); sweep.py and
        # discovery_tables.py share stats.py's, so they agree at every df (at 35 and 130 their
        # former tables gave 2.030 / 2.042 and 1.978 / 1.960).
        import discovery_tables
        for df in (1, 2, 9, 30, 35, 130, 1000):
            self.assertEqual(sweep.t975(df), discovery_tables.t975(df), msg=df)
        self.assertAlmostEqual(sweep.t975(40), 2.021075390, places=5)
        self.assertAlmostEqual(sweep.t975(120), 1.979930405, places=6)
        self.assertAlmostEqual(sweep.t975(2), 4.302652730, places=9)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_sweep.py BIN_DIR")
    BIN = os.path.abspath(sys.argv[1])
    unittest.main(argv=sys.argv[:1] + sys.argv[2:])
