"""The flags that do not distinguish runs: one table for every analysis script.

A table or figure that averages runs, or refuses to put unlike runs side by side, compares
the flags each run was given (run.json's parameters.commandLine) but for these: the two
replicate flags (runs that differ only in them are draws of the same setting) and the flags
that change how a run is executed or what it records, not what it computes. A script with
keys of its own (a table's rows and columns, a figure's series) adds them on top:

    distinguishing_flags(params, also={"algorithm", "attack"})

Each flag's reason is in REASONS (what the programs' --PrintHelp says of it, and how that
was checked).
"""

from d2dlearn_analysis.run_json import command_flags

#: Replicates: runs that differ only in these are draws of the same setting.
REPLICATE = {
    "seed": "the seed of every random stream (data, partition, initial weights, the "
            "protocol's draws): another seed is another replicate of the setting",
    "RngRun": "ns-3's run number, the replication of the network's randomness (positions, "
              "mobility, losses, dynamic RSS): another replicate, as a seed",
}
#: How the run is executed or what it records, not what it computes.
EXECUTION = {
    "outDir": "where the traces go",
    "quiet": "progress output only",
    "threads": "worker threads (LibTorch jobs, graph discovery's unsupervised arithmetic): "
               "the same traces whatever their number (measured: graph-discovery --threads=0 "
               "against 2, every CSV the same bytes; tests/cli/torchscript.py, "
               "stopped-runs.sh, graph-discovery-determinism.sh at 0, 1 and 2)",
    "deferTraining": "when the devices' LibTorch work runs: the same traces (--PrintHelp)",
    "traces": "what the traces hold (standard leaves out high-volume control messages, "
              "counted in run.json), not what the run does (tests/cli/trace-levels.py)",
    "traceEvery": "graph-discovery: the sampling of gd_iterations.csv only (measured: 10 "
                  "against 50, every other CSV and run.json's summary the same)",
    "positionEvery": "the sampling of positions.csv only (measured: d2d-exchange 0 against "
                     "0.5 s, messages.csv and energy.csv the same bytes)",
    "inertFlags": "whether a flag that cannot change the run is refused or recorded",
    "validate": "checks and exits without writing: never in a finished run's command line",
    "printLinks": "prints the links and exits without writing: never in a finished run's",
    "printScope": "prints the flags' scope and exits without writing: never in a finished "
                  "run's",
}
REASONS = dict(REPLICATE, **EXECUTION)
#: Every flag that does not distinguish runs.
NOT_DISTINGUISHING = frozenset(REASONS)


def trace_every(params):
    """graph-discovery's --traceEvery in run.json's parameters (None if absent): which RL
    iterations gd_iterations.csv samples, for the auditor's check of that file. Read here,
    with the table, so that no other script names the flag."""
    return params.get("traceEvery")


def distinguishing_flags(params, also=()):
    """{flag: value} of run.json's parameters.commandLine without NOT_DISTINGUISHING and the
    flags in also (a script's own keys); a flag given without "=" has the value ""."""
    return command_flags(params, NOT_DISTINGUISHING | frozenset(also))
