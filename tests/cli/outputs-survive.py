#!/usr/bin/env python3
"""Output folders that survive what users do to them, and --validate, on every program.

- --validate: every program checks its flags as a run would, prints one line
  "PROGRAM: valid ...", exits 0 and writes nothing (no --outDir); with a bad value it exits
  non-zero with the run's one-line error, also writing nothing.
- Stop signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGPIPE (its output closed, as
  `... | head -3`) stop a run with exit status 128 + the signal, one line on stderr, and no
  temporary file left in --outDir.
- One run per folder: a folder whose lock (.run-lock, flock) another process holds is
  refused by every program in one line naming that process's pid, exit status 2, with
  nothing written into the folder; a real second run beside a running one likewise; once
  the holder is gone (even by SIGKILL) the next run goes ahead.
- Case batches (D2DLEARN_CASES, what sweep.py validates with): a forked case dies with
  the batch process when that is killed by SIGKILL (PR_SET_PDEATHSIG), not left running.
- Temporary names: a symbolic link, a FIFO and a stale file at the temporary names a run
  of an older version used (.messages.csv.tmp, ...) are neither followed nor opened: the
  run succeeds, the link's target is untouched and the published traces are regular files.

Usage: outputs-survive.py BIN_DIR
"""

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: outputs-survive.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="outputs-survive.")
failures = 0

# program -> (a small valid setting, a bad flag and the parameter its error must name)
PROGRAMS = {
    "d2d-exchange": (["--nDevices=4", "--duration=1s"], "--spectralEfficiency=-3",
                     "spectralEfficiency"),
    "fedavg": (["--nDevices=3", "--rounds=1", "--dataFraction=0.02"],
               "--algorithm=decentralised", "algorithm"),
    "cmfl": (["--nDevices=20", "--activationFraction=0.5", "--rounds=1", "--dataFraction=0.02"], "--rounds=0", "rounds"),
    "consensus": (["--nDevices=4", "--rounds=2", "--warmupRounds=1", "--dataFraction=0.02"],
                  "--flipList=99", "flipList"),
    "bayes-consensus": (["--nDevices=6", "--steps=5"], "--nDevices=1", "nDevices"),
    "graph-discovery": (["--nDevices=6", "--dataFraction=0.02", "--iterations=10"],
                        "--edges=-1", "edges"),
}


def fail(message):
    global failures
    failures += 1
    print("  FAIL: " + message)


def program(name):
    return os.path.join(BIN, name)


def check_validate():
    for name, (good, bad, parameter) in PROGRAMS.items():
        out = os.path.join(TMP, name + "-validate")
        p = subprocess.run([program(name), *good, "--validate", "--outDir=" + out],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0 or not p.stdout.startswith(name + ": valid"):
            fail("%s --validate: exit %d, stdout %r, stderr %r"
                 % (name, p.returncode, p.stdout[:200], p.stderr[-300:]))
        if os.path.exists(out):
            fail("%s --validate wrote its --outDir" % name)
        p = subprocess.run([program(name), *good, bad, "--validate", "--outDir=" + out],
                           capture_output=True, text=True, timeout=300)
        lines = p.stderr.strip().splitlines()
        if p.returncode == 0 or len(lines) != 1 or parameter not in lines[0]:
            fail("%s %s --validate: exit %d, stderr %r (expected one line naming %s)"
                 % (name, bad, p.returncode, p.stderr[-300:], parameter))
        if os.path.exists(out):
            fail("%s %s --validate wrote its --outDir" % (name, bad))
    print("  --validate: %d programs, valid and bad settings" % len(PROGRAMS))


def leftovers(out):
    return sorted(os.path.basename(f) for f in glob.glob(os.path.join(out, ".*.tmp")))


def check_signals():
    # d2d-exchange with a long simulated time: stopped while it writes its traces.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
                signal.SIGPIPE):
        out = os.path.join(TMP, "signal-%d" % sig)
        proc = subprocess.Popen([program("d2d-exchange"), "--nDevices=20", "--duration=40000s",
                                 "--quiet", "--outDir=" + out],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not leftovers(out) and time.monotonic() < deadline:
            time.sleep(0.05)  # until its temporary traces exist
        time.sleep(0.2)
        proc.send_signal(sig)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("%s: the run did not stop" % signal.Signals(sig).name)
            continue
        name = signal.Signals(sig).name
        if proc.returncode != 128 + sig:
            fail("%s: exit status %d, expected %d" % (name, proc.returncode, 128 + sig))
        if len(err.strip().splitlines()) != 1 or name not in err:
            fail("%s: stderr %r, expected one line naming it" % (name, err[-300:]))
        if leftovers(out):
            fail("%s: temporary files left: %s" % (name, leftovers(out)))
    print("  stop signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGPIPE")


def check_temporary_names():
    out = os.path.join(TMP, "hostile")
    os.makedirs(out)
    target = os.path.join(TMP, "precious.txt")
    with open(target, "w") as fh:
        fh.write("keep me\n")
    os.symlink(target, os.path.join(out, ".messages.csv.tmp"))
    os.mkfifo(os.path.join(out, ".energy.csv.tmp"))
    with open(os.path.join(out, ".run.json.tmp"), "w") as fh:
        fh.write("stale\n")
    try:
        p = subprocess.run([program("d2d-exchange"), "--nDevices=4", "--duration=1s", "--quiet",
                            "--outDir=" + out], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        fail("a FIFO at a temporary name blocked the run")
        return
    if p.returncode != 0:
        fail("hostile temporary names: exit %d: %s" % (p.returncode, p.stderr[-300:]))
    with open(target) as fh:
        if fh.read() != "keep me\n":
            fail("the symbolic link's target was overwritten")
    for f in ("messages.csv", "energy.csv", "run.json"):
        path = os.path.join(out, f)
        if os.path.islink(path) or not os.path.isfile(path):
            fail("%s is not a regular file" % f)
    print("  symbolic link, FIFO and stale file at the old temporary names: left alone")


def check_folder_lock():
    import fcntl
    # A process holding the lock as a run does: flock on .run-lock, "PID HOST" in it.
    out = os.path.join(TMP, "locked")
    os.makedirs(out)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, socket, sys, time\n"
         "f = open(os.path.join(sys.argv[1], '.run-lock'), 'a+')\n"
         "fcntl.flock(f, fcntl.LOCK_EX)\n"
         "f.seek(0); f.truncate(); f.write('%d %s\\n' % (os.getpid(), socket.gethostname()))\n"
         "f.flush(); print('held', flush=True); time.sleep(600)\n", out],
        stdout=subprocess.PIPE, text=True)
    try:
        if holder.stdout.readline().strip() != "held":
            fail("the lock holder did not start")
            return
        before = sorted(os.listdir(out))
        for name, (good, _, _) in PROGRAMS.items():
            p = subprocess.run([program(name), *good, "--outDir=" + out], capture_output=True,
                               text=True, timeout=300)
            lines = p.stderr.strip().splitlines()
            expected = "is in use by another run (pid %d on host" % holder.pid
            if p.returncode != 2 or len(lines) != 1 or expected not in lines[0]:
                fail("%s into a locked folder: exit %d, stderr %r (expected exit 2 and one "
                     "line: %s)" % (name, p.returncode, p.stderr[-300:], expected))
            if sorted(os.listdir(out)) != before:
                fail("%s into a locked folder wrote %s" % (name, sorted(os.listdir(out))))
    finally:
        holder.kill()  # SIGKILL: the kernel releases the lock
        holder.wait()
    p = subprocess.run([program("d2d-exchange"), "--nDevices=4", "--duration=1s", "--quiet",
                        "--outDir=" + out], capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or not os.path.isfile(os.path.join(out, "run.json")):
        fail("the folder stayed locked after its holder was killed: exit %d, %s"
             % (p.returncode, p.stderr[-300:]))
    # Two real runs: the second, started while the first writes, is refused.
    out = os.path.join(TMP, "two-runs")
    first = subprocess.Popen([program("d2d-exchange"), "--nDevices=20", "--duration=40000s",
                              "--quiet", "--outDir=" + out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not leftovers(out) and time.monotonic() < deadline:
            time.sleep(0.05)  # until it writes
        p = subprocess.run([program("fedavg"), *PROGRAMS["fedavg"][0], "--outDir=" + out],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 2 or "in use by another run (pid %d" % first.pid not in p.stderr:
            fail("a second run beside a running one: exit %d, %r"
                 % (p.returncode, p.stderr[-300:]))
    finally:
        first.terminate()
        first.wait()
    print("  one run per folder: %d programs refused a locked folder; a second run refused; "
          "a killed holder's lock released" % len(PROGRAMS))


def check_case_batch_dies():
    tmp = os.path.join(TMP, "batch")
    os.makedirs(tmp)
    cases = os.path.join(tmp, "cases")
    with open(cases, "w") as fh:
        fh.write("\t".join(["--backend=wifi", "--nDevices=20", "--duration=40000s", "--quiet",
                            "--outDir=" + os.path.join(tmp, "out")]) + "\n")
    batch = subprocess.Popen([program("d2d-exchange")],
                             env=dict(os.environ, D2DLEARN_CASES=cases),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = None
    try:
        deadline = time.monotonic() + 30
        while child is None and time.monotonic() < deadline:
            try:
                with open("/proc/%d/task/%d/children" % (batch.pid, batch.pid)) as fh:
                    pids = fh.read().split()
                child = int(pids[0]) if pids else None
            except OSError:
                break
            time.sleep(0.05)
        if child is None:
            fail("case batch: no forked case seen")
            return
        batch.kill()
        batch.wait()
        deadline = time.monotonic() + 10
        while os.path.exists("/proc/%d" % child) and time.monotonic() < deadline:
            with open("/proc/%d/stat" % child) as fh:
                if fh.read().split(")")[-1].split()[0] == "Z":
                    break  # dead, waiting for init to reap it
            time.sleep(0.05)
        alive = os.path.exists("/proc/%d" % child)
        if alive:
            with open("/proc/%d/stat" % child) as fh:
                alive = fh.read().split(")")[-1].split()[0] != "Z"
        if alive:
            os.kill(child, signal.SIGKILL)
            fail("case batch: the forked case %d outlived its batch killed by SIGKILL" % child)
            return
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    print("  case batch: a forked case dies with its batch (SIGKILL)")


print("check: --validate")
check_validate()
print("check: stop signals")
check_signals()
print("check: one run per folder")
check_folder_lock()
print("check: case batch")
check_case_batch_dies()
print("check: temporary names")
check_temporary_names()
subprocess.run(["rm", "-rf", TMP])
if failures:
    print("outputs-survive: %d failure(s)" % failures)
    sys.exit(1)
print("outputs-survive: --validate writes nothing; every stop signal leaves the folder clean; "
      "nothing at a temporary name is followed")
