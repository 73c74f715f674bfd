"""The command line of sweep.py (analysis/sweep.py is its entry point): run, status, collect,
plot and the internal _task.
"""

import argparse
import os
import signal
import sys

from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.sweep.campaign import Campaign
from d2dlearn_analysis.sweep.collect import cmd_collect
from d2dlearn_analysis.sweep.common import PROG, Stopped, catch_stop_signals, note
from d2dlearn_analysis.sweep.helpers import stop_children
from d2dlearn_analysis.sweep.local import print_dry_run, run_and_report, wait_for_orphans
from d2dlearn_analysis.sweep.plot import BANDS, cmd_plot
from d2dlearn_analysis.sweep.programs import (
    check_parameters, find_program, threads_per_run, validate_runs)
from d2dlearn_analysis.sweep.slurm import cmd_task, slurm_queued, submit_slurm
from d2dlearn_analysis.sweep.state import (
    STATE_DIR, Subset, folder_entries, lock_campaign, output_dir, pending_runs, read_failure,
    run_state)


#: What `sweep.py --help` says last.
EPILOG = ("Each command has its --help (sweep.py plot --help). The campaign file, the states "
          "of a run and the outputs: analysis/sweep.py's docstring and doc/howto/sweep.md.")
#: What `sweep.py --help` says first (the first paragraph of analysis/sweep.py's docstring).
DESCRIPTION = ("Campaigns of d2dlearn runs: a parameter sweep described in a TOML file, run "
               "locally on a process pool or as a Slurm job array, collected into one table "
               "and plotted.")


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


class OneName(argparse.Action):
    """--metric and --y, one option under two names: given twice with different values,
    refused in one line."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, self.dest, None)
        if given is not None and given != values:
            parser.error("--metric/--y given twice, %s and %s: --y is --metric's other "
                         "name; give one" % (given, values))
        setattr(namespace, self.dest, values)


PLOT_DESCRIPTION = (
    "Draw a summary metric (--metric, or --y) against a swept parameter or another summary "
    "metric (--x), the mean over the replicates (--replicate, default seed) with a band or "
    "error bars (--band), and print the points as CSV: each interval named (column "
    "interval) and inside the metric's domain, as drawn.")


def main(argv=None):
    parser = OneLineParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(p):
        p.add_argument("file", metavar="FILE", help="campaign file (TOML)")
        p.add_argument("--out", metavar="DIR", default=None,
                       help="campaign folder (default results/<campaign name> in the "
                       "campaign file's folder)")

    p = sub.add_parser("run", help="run the runs that are not finished",
                       description="Run the campaign's runs that are not finished (not "
                       "started, interrupted, stale; failed ones with --retry-failed) on a "
                       "local pool of -j processes or as a Slurm job array (--slurm), each "
                       "in its folder under DIR, after the program checked every command "
                       "(--validate). Exit status 0, 1 while failed runs are left, 2 on bad "
                       "input, 130 if interrupted.")
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

    p = sub.add_parser("status", help="finished, failed, queued and missing runs",
                       description="Count the campaign's runs in each state (finished, "
                       "failed, running, queued on Slurm, not started, interrupted, stale) "
                       "and list the failed ones with their exit status and error.")
    common(p)
    p.add_argument("--list", action="store_true", help="list every run and its state")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("collect", help="write DIR/results.csv",
                       description="Write DIR/results.csv: one row per finished run, its "
                       "folder, every campaign parameter and every key of run.json's "
                       "summary (nested keys joined by dots: energy_j.total).")
    common(p)
    p.add_argument("--include-failed", action="store_true",
                   help="add rows for the failed runs (and the interrupted ones that wrote "
                   "run.json), marked in columns state, exit_code and error")
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("plot", help="a summary metric against a swept parameter or another "
                       "metric", description=PLOT_DESCRIPTION)
    common(p)
    p.add_argument("--metric", "--y", dest="metric", metavar="METRIC", action=OneName,
                   default=None, help="the y axis: a results.csv summary column "
                   "(complete_delivery_rate, energy_j.total, final_accuracy, ...); --y is "
                   "its other name")
    p.add_argument("--x", required=True, metavar="X",
                   help="the x axis: a swept parameter (the metric's mean at each of its "
                   "values), or a summary column (one marker per point of the swept grid, "
                   "with error bars in both directions)")
    p.add_argument("--hue", default=None, metavar="P",
                   help="one line per value of this swept parameter (--x a parameter only)")
    p.add_argument("--replicate", default="seed", metavar="P",
                   help="parameter whose values are replicates (default seed)")
    p.add_argument("--where", action="append", default=[], metavar="P=V",
                   help="keep only the runs with this parameter value (repeatable)")
    p.add_argument("--format", choices=["png", "pdf", "svg"], default="png",
                   help="figure file format (default png)")
    p.add_argument("--plots", metavar="DIR", default=None,
                   help="output folder (default DIR/plots)")
    p.add_argument("--name", default=None,
                   help="file name without extension (default METRIC_vs_X[_by_HUE])")
    p.add_argument("--logx", action="store_true", help="a logarithmic x axis")
    p.add_argument("--logy", action="store_true", help="a logarithmic y axis")
    p.add_argument("--band", choices=sorted(BANDS), default="ci",
                   help="band (error bars) around the mean: ci (default), its 95 %% "
                   "interval in the metric's domain (for a bounded metric t95_cut, "
                   "Student's t cut at the domain; t95 for an unbounded one; wilson95 for "
                   "one run of a rate with known counts); bootstrap, the percentile "
                   "bootstrap of the mean (bootstrap95: in the domain, but it holds the "
                   "mean less often than 95 %%: of two runs, at most their range); sd, "
                   "mean +- 1 standard deviation cut at the domain; minmax, the extremes; "
                   "none")
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
    except AnalysisError as exc:  # SweepError, and the shared readers' errors
        sys.stdout.flush()
        sys.stderr.write("%s: error: %s\n" % (PROG, exc))
        return 2
    except Stopped as exc:
        sys.stdout.flush()
        sys.stderr.write("%s: stopped by %s before any run started: nothing run\n"
                         % (PROG, signal.Signals(exc.signum).name))
        return 130
