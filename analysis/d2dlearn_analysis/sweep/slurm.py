"""The Slurm backend of sweep.py: job arrays of at most ARRAY_CHUNK runs (sbatch), which of
their tasks Slurm still holds (squeue), --wait, and one array task (`sweep.py _task`),
which runs its run exactly as a local run.
"""

import json
import os
import shutil
import subprocess
import time

from d2dlearn_analysis.sweep.campaign import Run
from d2dlearn_analysis.sweep.common import (
    PROG, PYTHON, SCRIPT, SweepError, note, write_json_atomic)
from d2dlearn_analysis.sweep.local import Progress
from d2dlearn_analysis.sweep.programs import threads_per_run
from d2dlearn_analysis.sweep.state import STATE_DIR, execute_run, read_failure, run_state


ARRAY_CHUNK = 1000


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
                     % (PYTHON, SCRIPT,
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
              % (PROG, os.path.relpath(SCRIPT), args.file,
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
