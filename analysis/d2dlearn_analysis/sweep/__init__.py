"""d2dlearn_analysis.sweep: campaigns of d2dlearn runs (analysis/sweep.py is its command
line; its docstring and doc/howto/sweep.md describe what the commands do).

Modules, each one job:
    common    what the others share: SweepError and Stopped (one line; exit 2 or 130),
              notes, the analysis folder, JSON files written atomically, process groups
    campaign  the campaign file (TOML) parsed and checked; its runs, made one at a time
    programs  finding a campaign's program, its flags (--PrintHelp), --validate before a run
    helpers   helper processes (--PrintHelp, --validate) that die with sweep.py
    state     run folders and their state; starting a run and recording how it ended
    local     the local process pool, the progress bar, --dry-run
    slurm     job arrays (sbatch), squeue, one array task
    collect   results.csv: one row per finished run, run.json's summary flattened
    plot      a summary metric against a swept parameter or another metric, with intervals
              in the metric's domain (d2dlearn_analysis.stats)
    cli       the command line: run, status, collect, plot, _task
"""
