"""Helper processes of sweep.py (the program's --PrintHelp and --validate): each leads a
process group of its own, killed whole on a timeout or a stop signal, and dies with
sweep.py (prctl PR_SET_PDEATHSIG); their temporary folders are removed, also those left by
a sweep.py killed by SIGKILL.
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading

from d2dlearn_analysis.sweep.common import PR_SET_PDEATHSIG, Stopped, _libc, libc, signal_group


_children = []        # the helper processes alive (Popen), each leading its process group
_children_lock = threading.Lock()
_stopping = []        # the stop signal received, once one was


def die_with_sweep(parent):
    """In a helper process before exec: SIGKILL when sweep.py (pid `parent`) dies, however
    it dies (prctl PR_SET_PDEATHSIG); a batch program then forks no further case."""
    if _libc:
        _libc[0].prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # sweep.py died before prctl
        os._exit(128 + signal.SIGKILL)


def run_child(argv, timeout, **kwargs):
    """subprocess.run for a helper process: (exit status, stdout, stderr). It leads a
    process group of its own (with the cases a batch program forks), killed whole on a
    timeout (subprocess.TimeoutExpired) or a stop signal (stop_children), and dies with
    sweep.py (die_with_sweep)."""
    libc()
    parent = os.getpid()
    with _children_lock:
        if _stopping:
            raise Stopped(_stopping[0])
        proc = subprocess.Popen(argv, start_new_session=True,
                                preexec_fn=lambda: die_with_sweep(parent), **kwargs)
        _children.append(proc)
    try:
        if _stopping:  # the signal came while it started
            signal_group(proc, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=timeout)
        except BaseException:
            signal_group(proc, signal.SIGKILL)
            proc.communicate()
            raise
    finally:
        with _children_lock:
            _children.remove(proc)
    return proc.returncode, out, err


def stop_children(signum, frame):
    """Handler of the stop signals while no run has started: the helper processes are
    killed (their process groups) and Stopped raised, once."""
    first = not _stopping
    _stopping.append(signum)
    for proc in list(_children):
        signal_group(proc, signal.SIGKILL)
    if first:
        raise Stopped(signum)


def helper_folder(kind):
    """A temporary folder for helper processes, named with sweep.py's pid
    (sweep-KIND-PID-XXXX), after removing those of sweep.py processes that are gone (killed
    by SIGKILL, they could not remove their own)."""
    top = tempfile.gettempdir()
    try:
        names = os.listdir(top)
    except OSError:
        names = []
    for name in names:
        m = re.match(r"^sweep-(?:validate|help)-(\d+)-", name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        path = os.path.join(top, name)
        try:
            if os.lstat(path).st_uid != os.getuid():
                continue
            os.kill(int(m.group(1)), 0)
            continue  # its sweep.py is alive
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue
    return tempfile.mkdtemp(prefix="sweep-%s-%d-" % (kind, os.getpid()))
