"""d2dlearn_analysis: the library under d2dlearn's analysis scripts.

The scripts in the folder above (plot_*.py, *_tables.py, sweep.py, audit.py) are its command
lines; a researcher's own script imports the same pieces, with that folder on PYTHONPATH
(installed: PREFIX/share/d2dlearn/analysis):

    PYTHONPATH=analysis python3 -c 'from d2dlearn_analysis import stats; print(stats.t975(9))'

Modules:
    errors    AnalysisError, the one error type (one line, exit status 2)
    traces    reading CSV traces (pandas) with one-line errors; drawing figures truthfully:
              axis labels with units, bands clipped to a quantity's domain, atomic writes
    run_json  reading a run folder's run.json; the table scripts' command line
    stats     Student t (SciPy), the intervals of a mean and of a rate
    requirements  the Debian package of each third-party module: importing this package
              first makes a missing matplotlib, pandas, NumPy or SciPy one line naming its
              package (exit status 2) instead of a traceback
"""
from d2dlearn_analysis import requirements as _requirements

_requirements.install()
