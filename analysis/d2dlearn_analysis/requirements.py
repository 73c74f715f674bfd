"""The Debian packages of the analysis tools' third-party modules, and the one line that
names the missing one.

A script imports d2dlearn_analysis before matplotlib, pandas, NumPy or SciPy; the package
then installs report_missing() as sys.excepthook. Run by a python3 that lacks one of those
modules (a pyenv or virtual-environment python3 instead of Debian's /usr/bin/python3, which
the scripts' #! line names), a script prints one line and exits with status 2, as for any
AnalysisError, instead of a traceback:

    plot_rounds.py: error: needs matplotlib: apt-get install python3-matplotlib (or run it with /usr/bin/python3)

Only a module import that nothing caught ends this way: an optional import that a library
tries and catches is not reported.
"""
import os
import sys

# module -> Debian package (the ones setup.sh installs)
PACKAGES = {
    "matplotlib": "python3-matplotlib",
    "numpy": "python3-numpy",
    "pandas": "python3-pandas",
    "scipy": "python3-scipy",
}
DEBIAN_PYTHON = "/usr/bin/python3"

_previous = None


def message(prog, module):
    """The one line for a missing module."""
    line = "%s: error: needs %s: apt-get install %s" % (prog, module, PACKAGES[module])
    if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON):
        line += " (or run it with %s)" % DEBIAN_PYTHON
    elif sys.flags.no_site:  # Debian's python3 run with -S: its packages are not on sys.path
        line += " (or run it without -S)"
    return line


def report_missing(kind, value, tb):
    """sys.excepthook: a missing module of PACKAGES is one line and exit status 2; anything
    else goes to the hook that was there before."""
    module = (getattr(value, "name", None) or "").split(".")[0]
    if isinstance(value, ModuleNotFoundError) and module in PACKAGES:
        sys.stderr.write(message(os.path.basename(sys.argv[0] or "python3"), module) + "\n")
        sys.stderr.flush()
        raise SystemExit(2)
    (_previous or sys.__excepthook__)(kind, value, tb)


def install():
    """Make report_missing() the interpreter's excepthook (once)."""
    global _previous
    if sys.excepthook is not report_missing:
        _previous = sys.excepthook
        sys.excepthook = report_missing
