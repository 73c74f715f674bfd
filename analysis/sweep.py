#!/usr/bin/python3
"""Campaigns of d2dlearn runs: a parameter sweep described in a TOML file, run locally on a
process pool or as a Slurm job array, collected into one table and plotted.

Usage:
    /usr/bin/python3 analysis/sweep.py run FILE [--out DIR] [-j N] [--retry-failed]
                                             [--keep-stale] [--slurm [--wait]]
                                             [--bin DIR] [--dry-run]
    /usr/bin/python3 analysis/sweep.py status FILE [--out DIR] [--list]
    /usr/bin/python3 analysis/sweep.py collect FILE [--out DIR] [--include-failed]
    /usr/bin/python3 analysis/sweep.py plot FILE [--out DIR] --metric M --x P|METRIC
                                             [--hue P] [--where P=V ...]
                                             [--format png|pdf|svg]
                                             [--band ci|bootstrap|sd|minmax|none]
                                             [--no-points]

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
and `error` after `run`. `plot` draws a summary metric (--metric, or
--y: one option, two names) against a swept parameter (--x P), one line per value of
--hue (a legend of at most 8 entries), the mean over the values of --replicate (default
seed) with a band, and each replicate's value as a dot (unless --no-points); or against
another summary metric (--x METRIC), one marker per point of the swept grid (its swept
values but --replicate) at the two means, with error bars in both directions. The band
(--band): ci (default), the 95 % interval of the mean in the metric's domain
(d2dlearn_analysis/stats.py): for a bounded metric (a rate or accuracy in [0, 1]; an
energy, time, size or count >= 0) Student's t interval of the mean cut at the domain
(t95_cut), for an unbounded one Student's t, and for one run of a rate whose
counts run.json gives
(complete_delivery_rate, delivered_rate of message_rows; kinds.K.complete_rate of
kinds.K.rows) Wilson's interval of its counts; bootstrap, the percentile bootstrap of the
mean (bootstrap95: 9999 resamples, seeded, within the replicates' range, but short of its
nominal 95 %, of two replicates at most their range: stats.BOOTSTRAP_COVERAGE); sd, mean
+- 1 standard deviation cut at the domain; minmax; none. Band, error bars, dots, axes and
the printed limits stay in the metric's domain (traces.COLUMNS, SUMMARY_COLUMNS,
RESULT_COLUMNS); the axes are labelled with the quantity and its unit (traces.axis_label).
The table printed (CSV) names each row's interval in a column `interval` (t95, t95_cut,
bootstrap95, wilson95, sd, sd_cut, minmax).
A summary value that is not finite (NaN or Infinity in a run.json; the programs write
null) is written as nan, inf or -inf by `collect` and drawn as missing by `plot`, each with
a note naming the metric and the runs. With no finished run, `collect` writes the table's
header only and says so; `plot` stops with a one-line error (exit status 2) and writes no
figure, as it does when no finite value of the metric is left to draw.

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

Only Debian's python3 (tomllib) with its pandas, matplotlib and scipy packages is needed.
"""

import sys

# The implementation: the package beside this script (analysis/d2dlearn_analysis/sweep/:
# campaign, programs, helpers, state, local, slurm, collect, plot, cli).
from d2dlearn_analysis.sweep.cli import main
# The names researchers' scripts and the tests use, as before the package.
from d2dlearn_analysis.sweep.campaign import (
    Campaign, MAX_FOLDER, Run, check_time, flag_text, folder_name, value_key)
from d2dlearn_analysis.sweep.collect import collect, csv_text
from d2dlearn_analysis.sweep.common import PROG, Stopped, SweepError
from d2dlearn_analysis.sweep.local import KILL_GRACE
from d2dlearn_analysis.sweep.plot import BANDS, band_limits, same_value, t975
from d2dlearn_analysis.sweep.programs import (
    VALIDATE_ALL, check_parameters, find_program, program_options, validate_runs)
from d2dlearn_analysis.sweep.state import (
    FAILED_FILE, INTERRUPTED_FILE, LOG_FILE, RECORD_FILE, STATE_DIR, run_state)

__all__ = ["main", "Campaign", "MAX_FOLDER", "Run", "check_time", "flag_text", "folder_name",
           "value_key", "collect", "csv_text", "PROG", "Stopped", "SweepError", "KILL_GRACE",
           "BANDS", "band_limits", "same_value", "t975", "VALIDATE_ALL", "check_parameters",
           "find_program", "program_options", "validate_runs", "FAILED_FILE",
           "INTERRUPTED_FILE", "LOG_FILE", "RECORD_FILE", "STATE_DIR", "run_state"]


if __name__ == "__main__":
    sys.exit(main())
