#!/usr/bin/python3
"""analysis/sweep.py's Slurm backend on a private single-node Slurm cluster.

Run (as root):  /usr/bin/python3 tests/analysis/test_sweep_slurm.py BIN_DIR

Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm packages) in a temporary
folder with analysis/slurm-local.sh (a generated key and configuration: the node is this
host as `slurmd -C` describes it, reached on 127.0.0.1 at two free ports, with private
state, spool, log and pid files, proctrack/linuxproc and task/none (no cgroups), no
accounting), checking the line it prints and its status (every daemon running). Refuses a campaign
with a value d2d-exchange's --validate rejects (nothing submitted). Runs a 4-run
campaign of d2d-exchange with `run --slurm --wait` and the same campaign locally, then
checks that the collected tables are identical (every column but the wall times) and that
every trace file is identical byte for byte; then cancels (scancel) a running run and
checks that it is interrupted, not failed, and that a plain `run --slurm` runs it again;
a run that crashes after writing run.json is failed as locally (status, collect and its
--include-failed, --retry-failed). A daemon slow to start (setsid taking 0.3 s before it
execs) is waited for, not taken for one that exited.
The daemons are stopped by their process ids afterwards (the script's stop), whatever
happens, and its status then says none runs.

Exits 77 (CTest's SKIP_RETURN_CODE) only if a cluster cannot be started here: not root
(slurmd and munged run as root) or the Slurm and munge programs are missing (installed by
setup.sh).
"""

import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "sweep.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SKIP = 77
CLUSTER_SCRIPT = os.path.join(REPO, "analysis", "slurm-local.sh")
PROGRAMS = ["munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo",
            "scancel"]
BIN = None

CAMPAIGN = """\
scenario = "d2d-exchange"
[parameters]
duration = "3s"
reliable = true
d2sFraction = 0.2
quiet = true
[grid]
spectralEfficiency = [0.5, 2]
seed = [1, 2]
[slurm]
time = "0:05:00"
mem = "200M"
max_parallel = 2
"""


def which(name):
    for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/sbin", "/sbin"]:
        path = os.path.join(d, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


class Cluster:
    """A private cluster started and stopped by analysis/slurm-local.sh in a folder."""

    def __init__(self, root):
        self.root = root
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM")}
        self.env["SLURM_CONF"] = os.path.join(root, "slurm.conf")

    def script(self, command):
        return subprocess.run(["bash", CLUSTER_SCRIPT, command, self.root], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)

    def start(self):
        proc = self.script("start")
        if proc.returncode != 0:
            raise RuntimeError("slurm-local.sh start failed (exit %d):\n%s"
                               % (proc.returncode, proc.stderr))
        # The one line on stdout is what the user evaluates.
        if proc.stdout != "export SLURM_CONF=%s\n" % self.env["SLURM_CONF"]:
            raise RuntimeError("slurm-local.sh start printed %r" % proc.stdout)
        self.pids = self.status()
        if sorted(self.pids) != ["munged", "slurmctld", "slurmd"]:
            raise RuntimeError("status after start: %r" % self.pids)

    def status(self):
        """{daemon: pid} of the daemons that `slurm-local.sh status` says run."""
        proc = self.script("status")
        running = dict(re.findall(r"^(\w+): running \(pid (\d+)\)$", proc.stdout, re.M))
        if (proc.returncode == 0) != (len(running) == 3):
            raise RuntimeError("status: exit %d with %r" % (proc.returncode, proc.stdout))
        return {k: int(v) for k, v in running.items()}

    def logs(self):
        text = []
        d = os.path.join(self.root, "log")
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, f), errors="replace") as fh:
                lines = fh.read().splitlines()[-15:]
            text.append("--- %s\n%s" % (f, "\n".join(lines)))
        return "\n".join(text)

    def stop(self):
        """slurmd, slurmctld, munged stopped by their pids (the script's stop); then none
        of the pids started runs, and status says so."""
        proc = self.script("stop")
        if proc.returncode != 0:
            raise RuntimeError("slurm-local.sh stop failed: %s" % proc.stderr)
        left = self.status()
        if left:
            raise RuntimeError("still running after stop: %r" % left)


class SlurmTest(unittest.TestCase):
    def test_slow_exec_is_not_an_exit(self):
        # A daemon that is still starting (here `setsid` takes 0.3 s before it execs, as on a
        # loaded machine) is not "exited": slurm-local.sh said "munged exited" of one that
        # was not yet called munged (a CI run).
        tmp = tempfile.mkdtemp(prefix="sweep-slurm-slow-")
        shim = os.path.join(tmp, "bin")
        os.makedirs(shim)
        with open(os.path.join(shim, "setsid"), "w") as fh:
            fh.write("#!/bin/sh\nsleep 0.3\nexec %s \"$@\"\n" % which("setsid"))
        os.chmod(os.path.join(shim, "setsid"), 0o755)
        cluster = Cluster(os.path.join(tmp, "cluster"))
        cluster.env["PATH"] = shim + os.pathsep + cluster.env.get("PATH", "")
        os.makedirs(cluster.root)
        try:
            cluster.start()
        finally:
            try:
                cluster.stop()
            finally:
                shutil.rmtree(tmp)

    def check_scancel_interrupts(self, tmp, cluster, sweep):
        """A job array cancelled (scancel) mid-campaign, one run running and one pending:
        the running run is interrupted, not failed; a plain `run --slurm` completes the
        campaign, no run lost or run twice, with the traces of a local run."""
        path = os.path.join(tmp, "cancelled.toml")
        with open(path, "w") as fh:
            # About 2 s of wall time a run on an idle machine (150 s of 50 devices
            # broadcasting; the scancel below comes a few tenths of a second after the task
            # starts, and a plain 100 s of d2d-exchange, 0.1 s, raced its end; 600 s, 7 s a
            # run, made this the suite's second-longest test: the two runs again through
            # Slurm one at a time, then locally); one task at a time, so the second is pending.
            fh.write(CAMPAIGN.replace('duration = "3s"', 'duration = "150s"\nnDevices = 50\n'
                                      'meanInterval = "200ms"\nbroadcast = true')
                     .replace("spectralEfficiency = [0.5, 2]", "spectralEfficiency = [2]")
                     .replace("max_parallel = 2", "max_parallel = 1"))
        out = os.path.join(tmp, "cancelled")
        proc = sweep("run", path, "--out", out, "--slurm")
        job = re.search(r"as job array (\d+)", proc.stdout).group(1)
        record = os.path.join(out, "spectralEfficiency=2_seed=1", "sweep-run.json")
        deadline = time.monotonic() + 60
        while not os.path.isfile(record):
            self.assertLess(time.monotonic(), deadline, "the task did not start")
            time.sleep(0.1)
        subprocess.run([which("scancel"), job], env=cluster.env, check=True)
        while subprocess.run([which("squeue"), "-h", "-j", job], env=cluster.env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout.strip():
            self.assertLess(time.monotonic(), deadline + 60, "the job did not end")
            time.sleep(0.2)
        proc = sweep("status", path, "--out", out)
        self.assertIn("finished 0, failed 0, running 0, queued 0, not started 1, "
                      "interrupted 1", proc.stdout)
        proc = sweep("run", path, "--out", out, "--slurm", "--wait")
        self.assertIn("submitted 2 run(s) as job array", proc.stdout)
        self.assertIn("2 runs: 2 finished, 0 failed, 0 missing, 0 interrupted", proc.stdout)
        local = os.path.join(tmp, "cancelled-local")
        sweep("run", path, "--out", local, "-j", "2")
        runs = sorted(r for r in os.listdir(local) if not r.startswith("."))
        self.assertEqual(runs, sorted(r for r in os.listdir(out) if not r.startswith(".")))
        self.assertEqual(len(runs), 2)
        for run in runs:
            for f in ("messages.csv", "energy.csv"):
                with open(os.path.join(local, run, f), "rb") as a, \
                        open(os.path.join(out, run, f), "rb") as b:
                    self.assertTrue(a.read() == b.read(), "cancelled and rerun: %s/%s "
                                    "differs from the local run" % (run, f))

    def check_crash_is_failed(self, tmp, env):
        """A run that crashes through Slurm after writing run.json (SIGABRT) is failed as
        locally: the exit status decides; status lists it, collect leaves it out (and
        --include-failed adds it, marked), a plain `run --slurm` does not submit it again,
        `run --slurm --retry-failed` does."""
        program = os.path.join(tmp, "d2d-exchange-crash")
        with open(program, "w") as fh:
            fh.write('#!/bin/sh\nfor a; do [ "$a" = --validate ] && exit 0; done\n'
                     '%s "$@" || exit $?\ncase "$*" in *--seed=2*) kill -ABRT $$;; esac\n'
                     % os.path.join(BIN, "d2d-exchange"))
        os.chmod(program, 0o755)
        path = os.path.join(tmp, "crash.toml")
        with open(path, "w") as fh:
            fh.write(CAMPAIGN.replace('scenario = "d2d-exchange"\n',
                                      'scenario = "d2d-exchange"\nprogram = "%s"\n' % program)
                     .replace("spectralEfficiency = [0.5, 2]", "spectralEfficiency = [2]"))
        out = os.path.join(tmp, "crash")

        def sweep(*args, check=0):
            proc = subprocess.run([PYTHON, SCRIPT] + list(args) + ["--out", out], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=600)
            self.assertEqual(proc.returncode, check, proc.stdout + proc.stderr)
            return proc

        proc = sweep("run", path, "--slurm", "--wait", check=1)
        self.assertIn("2 runs: 1 finished, 1 failed, 0 missing, 0 interrupted", proc.stdout)
        self.assertIn("failed: spectralEfficiency=2_seed=2: exit -6: killed by SIGABRT",
                      proc.stdout)
        self.assertTrue(os.path.isfile(os.path.join(out, "spectralEfficiency=2_seed=2",
                                                    "run.json")))
        proc = sweep("status", path)
        self.assertIn("finished 1, failed 1,", proc.stdout)
        proc = sweep("collect", path)
        self.assertIn("1 failed run(s) left out (--include-failed adds them", proc.stderr)
        with open(os.path.join(out, "results.csv"), newline="") as fh:
            self.assertEqual(len(list(csv.reader(fh))), 2)
        sweep("collect", path, "--include-failed")
        with open(os.path.join(out, "results.csv"), newline="") as fh:
            rows = list(csv.DictReader(fh))
        self.assertEqual([(r["state"], r["exit_code"]) for r in rows],
                         [("finished", "0"), ("failed", "-6")])
        proc = sweep("run", path, "--slurm", check=1)
        self.assertIn("nothing to submit", proc.stdout)
        proc = sweep("run", path, "--slurm", "--retry-failed", "--wait", check=1)
        self.assertIn("submitted 1 run(s) as job array", proc.stdout)

    def check_invalid_not_submitted(self, tmp, cluster, env):
        """A campaign with a value the program refuses (--validate) is refused before
        anything is submitted: one line with the program's error, no job, no folder."""
        path = os.path.join(tmp, "invalid.toml")
        with open(path, "w") as fh:
            fh.write(CAMPAIGN.replace("spectralEfficiency = [0.5, 2]",
                                      "spectralEfficiency = [0.5, -3]"))
        out = os.path.join(tmp, "invalid")
        proc = subprocess.run([PYTHON, SCRIPT, "run", path, "--out", out, "--slurm"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=600)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertRegex(proc.stderr, r"^sweep\.py: error: run spectralEfficiency=-3_seed=1 "
                         r"refused by d2d-exchange --validate: d2d-exchange: error: "
                         r"--spectralEfficiency=-3 is out of range [^\n]*\n$")
        self.assertFalse(os.path.exists(out))
        queue = subprocess.run([which("squeue"), "-h"], env=cluster.env, check=True,
                               stdout=subprocess.PIPE, universal_newlines=True).stdout
        self.assertEqual(queue.strip(), "")

    def test_slurm_campaign_same_as_local(self):
        tmp = tempfile.mkdtemp(prefix="sweep-slurm-")
        cluster = Cluster(os.path.join(tmp, "cluster"))
        os.makedirs(cluster.root)
        try:
            t0 = time.monotonic()
            cluster.start()
            started = time.monotonic() - t0
            path = os.path.join(tmp, "wireless.toml")
            with open(path, "w") as fh:
                fh.write(CAMPAIGN)
            env = dict(cluster.env, D2DLEARN_BIN=BIN)

            def sweep(*args):
                proc = subprocess.run([PYTHON, SCRIPT] + list(args), env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      universal_newlines=True, timeout=600)
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr + "\n"
                                 + cluster.logs())
                return proc

            self.check_invalid_not_submitted(tmp, cluster, env)
            self.check_crash_is_failed(tmp, env)
            slurm, local = os.path.join(tmp, "slurm"), os.path.join(tmp, "local")
            t1 = time.monotonic()
            proc = sweep("run", path, "--out", slurm, "--slurm", "--wait")
            ran = time.monotonic() - t1
            self.assertIn("submitted 4 run(s) as job array", proc.stdout)
            self.assertIn("4 runs: 4 finished, 0 failed, 0 missing, 0 interrupted",
                          proc.stdout)
            proc = sweep("status", path, "--out", slurm)
            self.assertIn("finished 4, failed 0, running 0, queued 0, not started 0, "
                          "interrupted 0, stale 0", proc.stdout)
            # Nothing left to submit.
            proc = sweep("run", path, "--out", slurm, "--slurm")
            self.assertIn("nothing to submit", proc.stdout)
            sweep("run", path, "--out", local, "-j", "2")
            for out in (slurm, local):
                sweep("collect", path, "--out", out)
            tables = []
            for out in (slurm, local):
                with open(os.path.join(out, "results.csv"), newline="") as fh:
                    rows = list(csv.reader(fh))
                keep = [i for i, c in enumerate(rows[0]) if not c.endswith("wall_time_s")]
                self.assertEqual(len(keep), len(rows[0]) - 1)
                tables.append([[row[i] for i in keep] for row in rows])
            self.assertEqual(len(tables[0]), 5)
            self.assertEqual(tables[0], tables[1])
            compared = 0
            for run in sorted(os.listdir(local)):
                if run.startswith(".") or not os.path.isdir(os.path.join(local, run)):
                    continue
                for f in sorted(os.listdir(os.path.join(local, run))):
                    if not f.endswith(".csv"):
                        continue
                    with open(os.path.join(local, run, f), "rb") as a, \
                            open(os.path.join(slurm, run, f), "rb") as b:
                        self.assertTrue(a.read() == b.read(), "%s/%s differs" % (run, f))
                    compared += 1
            self.assertEqual(compared, 12)  # messages, energy and positions.csv of 4 runs
            self.check_scancel_interrupts(tmp, cluster, sweep)
            print("\ncluster up in %.1f s; 4-run campaign through Slurm in %.1f s"
                  % (started, ran), file=sys.stderr)
        finally:
            try:
                cluster.stop()
            finally:
                shutil.rmtree(tmp)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_sweep_slurm.py BIN_DIR")
    BIN = os.path.abspath(sys.argv[1])
    if os.geteuid() != 0:
        print("SKIP: a private Slurm cluster needs root (slurmd, munged)")
        sys.exit(SKIP)
    missing = [p for p in PROGRAMS if not which(p)]
    if missing:
        print("SKIP: missing %s (Debian packages slurm-wlm munge: sudo bash setup.sh --test)"
              % ", ".join(missing))
        sys.exit(SKIP)
    unittest.main(argv=sys.argv[:1] + sys.argv[2:])
