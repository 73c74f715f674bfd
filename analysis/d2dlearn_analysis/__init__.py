"""d2dlearn_analysis: the library under d2dlearn's analysis scripts.

The scripts in the folder above (plot_*.py, *_tables.py, sweep.py, audit.py) are its command
lines; a researcher's own script imports the same pieces, with that folder on PYTHONPATH
(installed: PREFIX/share/d2dlearn/analysis):

    PYTHONPATH=analysis python3 -c 'from d2dlearn_analysis import stats; print(stats.t975(9))'

Modules:
    errors     AnalysisError, the one error type (one line ``PROG: error: TEXT``, exit status
               2); report(prog, exc); ArgumentParser, argparse with one-line errors
    reader     reading CSV traces (pandas) and run.json, with one-line errors (no matplotlib)
    traces     drawing figures truthfully: axis labels with units, bands clipped to a
               quantity's domain, atomic writes (and the reader's functions, re-exported)
    run_json   reading a run folder's run.json (standard library only); the table scripts'
               command line
    atomic     atomic_open: every output written to a temporary file, then renamed
    pickle_data  read_pickle: a pickle of plain data (FedScale's traces) read without
               running its code
    run_flags  the flags that do not distinguish runs (replicates, how a run is executed),
               with the reason for each
    stats      Student t (SciPy), the intervals of a mean and of a rate that stay in the
               quantity's domain: t, percentile bootstrap, Wilson
    sweep      sweep.py's campaigns, one module per job (campaign, programs, helpers,
               state, local, slurm, collect, plot, cli)
    audit      audit.py's checks, one module per trace file or family of files (messages,
               spectrum, rss, energy, power, partition, periods, rounds, positions,
               availability, consensus, committee, discovery, ...), core (the violations,
               reading CSV files) and checks (the registry of the checks, in their order)
    requirements  the Debian package of each third-party module: importing this package
               first makes a missing matplotlib, pandas, NumPy or SciPy one line naming its
               package (exit status 2) instead of a traceback
"""
from d2dlearn_analysis import requirements as _requirements

_requirements.install()
