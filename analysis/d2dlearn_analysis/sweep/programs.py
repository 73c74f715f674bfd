"""The programs a campaign runs: where sweep.py finds one (find_program), the flags it has
(its --PrintHelp and --PrintGlobals, parsed once per program file), and validation: each
distinct command called with --validate before anything runs (validate_runs).
"""

import os
import re
import shutil
import subprocess

from d2dlearn_analysis.sweep.common import ANALYSIS, SweepError, note
from d2dlearn_analysis.sweep.helpers import helper_folder, run_child
from d2dlearn_analysis.sweep.state import error_in


VALIDATE_TIMEOUT = 120


# Up to this many runs to check, `run` validates every command (2000 d2d-exchange
# commands: 5 s on 2 cores, forked from one start per -j); above it, each value of each
# swept parameter once (axis_representatives).
VALIDATE_ALL = 2000


def find_program(campaign, bin_dir):
    """Absolute path of the campaign's program: its `program = PATH` (relative to the
    campaign file's folder), else its scenario's program looked up in the bin folders."""
    name = campaign.scenario
    if campaign.program is not None:
        path = os.path.join(os.path.dirname(campaign.path),
                            os.path.expanduser(campaign.program))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise SweepError("%s: program %s: not an executable file"
                             % (os.path.basename(campaign.path), campaign.program))
        path = os.path.abspath(path)
        note("scenario %s runs %s (program = in %s)"
             % (name, path, os.path.basename(campaign.path)))
        return path
    candidates = []
    if bin_dir:
        candidates.append(os.path.join(bin_dir, name))
    if os.environ.get("D2DLEARN_BIN"):
        candidates.append(os.path.join(os.environ["D2DLEARN_BIN"], name))
    repo = os.path.dirname(ANALYSIS)
    candidates.append(os.path.join(repo, "build", "bin", name))  # source tree
    # Installed: P/share/d2dlearn/analysis/sweep.py and P/bin.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(repo)), "bin", name))
    found = shutil.which(name)
    if found:
        candidates.append(found)
    if bin_dir:
        candidates = candidates[:1]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise SweepError("scenario %s: no such program (looked in %s); build it first "
                     "(cmake --build build) or give --bin DIR"
                     % (name, ", ".join(os.path.dirname(c) or "." for c in candidates)))


_OPTIONS = {}  # (program's real path, mtime_ns, size): its program_options()


def program_options(program):
    """{flag: default text} of an ns-3 program (--PrintHelp), or None if it has none. Asked
    once per program file (about a second of LibTorch start-up each), again if it changes."""
    try:
        st = os.stat(program)
        key = (os.path.realpath(program), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    if key is not None and key in _OPTIONS:
        cached = _OPTIONS[key]
        return dict(cached) if cached is not None else None
    options = _program_options(program)
    if key is not None:
        _OPTIONS[key] = dict(options) if options is not None else None
    return options


def _help_texts(program):
    """(--PrintHelp's output, --PrintGlobals' output or None) of a program: both from one
    start of it where it has the batch mode (D2DLEARN_CASES, scenario/d2d-case-batch.h:
    one forked child per command line), else from two. None if it does not start."""
    tmp = helper_folder("help")
    cases = os.path.join(tmp, "cases")
    try:
        with open(cases, "w") as f:
            f.write("--PrintHelp\n--PrintGlobals\n")
        env = dict(os.environ, D2DLEARN_CASES=cases,
                   D2DLEARN_CASE_TIMEOUT=str(VALIDATE_TIMEOUT))
        try:
            # Without the batch mode the program prints its help: its own arguments.
            _, own_help, _ = run_child([program, "--PrintHelp"], 120, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, universal_newlines=True,
                                       env=env, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return None
        batched = os.path.exists(cases + ".1.rc")
        texts = []
        for i in (1, 2):
            try:
                with open("%s.%d.rc" % (cases, i)) as f:
                    if int(f.read().strip()) != 0:
                        break
                with open("%s.%d.out" % (cases, i), errors="replace") as f:
                    texts.append(f.read())
            except (OSError, ValueError):
                break
        if len(texts) == 2:
            return texts[0], texts[1]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def output(flag):
        """What `program flag` prints, in a start of its own; None if it does not start."""
        try:
            return run_child([program, flag], 120, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True,
                             stdin=subprocess.DEVNULL)[1]
        except (OSError, subprocess.TimeoutExpired):
            return None

    # Batched but a case failed: the parent printed nothing; each in a start of its own.
    help_text = output("--PrintHelp") if batched else own_help
    return (help_text, output("--PrintGlobals")) if help_text is not None else None


def _program_options(program):
    """program_options() without the cache."""
    texts = _help_texts(program)
    if texts is None:
        return None
    help_text, globals_text = texts
    options = {}
    section = None
    for line in help_text.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            section = line.strip()
            continue
        m = re.match(r"^\s+--([A-Za-z0-9_]+):\s*(.*?)(?:\s\[(.*)\])?$", line)
        if m and section == "Program Options:":
            options[m.group(1)] = m.group(3)
    if not options:
        return None
    for m in re.finditer(r"^\s+--([A-Za-z0-9_]+)=", globals_text or "", re.M):
        options.setdefault(m.group(1), None)
    return options


def check_parameters(campaign, program):
    """Stop before running if a parameter is not one of the program's flags."""
    options = program_options(program)
    if options is None:
        note("%s does not list its flags (--PrintHelp); parameters not checked" % program)
        return {}
    for name in campaign.parameter_names():
        if "::" in name:
            continue  # ns-3 attributes: the program checks them
        if name not in options:
            close = [o for o in options if o.lower() == name.lower()]
            raise SweepError("%s: parameter %s is not a flag of %s%s"
                             % (os.path.basename(campaign.path), name,
                                os.path.basename(program),
                                " (did you mean %s?)" % close[0] if close else
                                " (see %s --PrintHelp)" % os.path.basename(program)))
    return options


def threads_per_run(campaign, options):
    if campaign.threads_per_run:
        return campaign.threads_per_run
    value = campaign.fixed.get("threads")
    if value is None and options:
        value = options.get("threads")
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return 1


def axis_representatives(campaign):
    """One run per value of each axis, the other axes at their first value, in campaign
    order: sum of the axes' lengths minus (axes - 1) runs, every swept value in one."""
    indices = set()
    sizes = campaign.runs.sizes
    for a, size in enumerate(sizes):
        for i in range(size):
            indices.add(tuple(i if b == a else 0 for b in range(len(sizes))))
    return [campaign.runs.at(ix) for ix in sorted(indices)]


def validate_runs(campaign, program, runs, jobs, options, count=None):
    """Call each distinct command of the `count` runs (default: len) of `runs` once with
    --validate (the program parses and checks every flag as the run would, and simulates
    and writes nothing), from the campaign's folder and with --outDir in a temporary
    folder (removed after): in `jobs` batches, each one start of the program that forks a
    child per command (D2DLEARN_CASES), or, for a program without that mode, one process
    per command, `jobs` at a time. Above VALIDATE_ALL runs, each value of each swept
    parameter once instead (axis_representatives: the combinations are checked by each
    run at its start). SweepError naming the first refused run in campaign order and the
    program's one-line error; nothing is run or written then."""
    if options is not None and "validate" not in options:
        note("%s has no --validate (an older build?): the runs' values are not checked "
             "before they start" % os.path.basename(program))
        return
    if count is None:
        count = len(runs)
    if count > VALIDATE_ALL:
        runs = axis_representatives(campaign)
        note("%d runs to check, more than %d: each value of each swept parameter is "
             "validated once (%d commands, the other parameters at their first value); "
             "a combination the program refuses fails its run at its start, with its "
             "one-line error" % (count, VALIDATE_ALL, len(runs)))
    distinct = {}
    for r in runs:
        distinct.setdefault(tuple(r.command()), r)
    if not distinct:
        return
    import concurrent.futures
    cwd = os.path.dirname(campaign.path)
    tmp = helper_folder("validate")

    def verdict(code, stderr):
        """None if accepted, else the refusal (exit status code, what was on stderr)."""
        if code == 0:
            return None
        error = error_in(stderr) if stderr.strip() else "(no error message)"
        if code == 124:
            return "no answer to --validate within %d s" % VALIDATE_TIMEOUT
        return error if code < 128 else "%s (killed by signal %d)" % (error, code - 128)

    def validate_batch(b, batch):
        """The runs of batch (k, run) in one start of the program (D2DLEARN_CASES: one
        forked child per command line, scenario/d2d-case-batch.h); None if the program has no
        batch mode (its own arguments, --validate, then checked nothing else)."""
        cases = os.path.join(tmp, "cases-%d" % b)
        lines = []
        for k, run in batch:
            argv = run.argv(program, os.path.join(tmp, str(k)))[1:] + ["--validate"]
            if any("\t" in a or "\n" in a for a in argv):
                return None  # not expressible as a case line: one process per run
            lines.append("\t".join(argv))
        with open(cases, "w") as f:
            f.write("\n".join(lines) + "\n")
        env = dict(os.environ, D2DLEARN_CASES=cases,
                   D2DLEARN_CASE_TIMEOUT=str(VALIDATE_TIMEOUT))
        try:
            # Its own arguments validate the defaults into a folder of its own: a program
            # without the batch mode does only that, and writes no case's status.
            own = os.path.join(tmp, "own-%d" % b)
            run_child([program, "--validate", "--outDir=%s" % own],
                      VALIDATE_TIMEOUT * (len(batch) + 1), stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
        except (OSError, subprocess.TimeoutExpired):
            return None
        out = {}
        for i, (k, _) in enumerate(batch, 1):
            try:
                with open("%s.%d.rc" % (cases, i)) as f:
                    code = int(f.read().strip())
                with open("%s.%d.err" % (cases, i), errors="replace") as f:
                    stderr = f.read()
            except (OSError, ValueError):
                return None
            out[k] = verdict(code, stderr)
        return out

    def validate(k, run):
        argv = run.argv(program, os.path.join(tmp, str(k))) + ["--validate"]
        try:
            code, _, stderr = run_child(argv, VALIDATE_TIMEOUT, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                        cwd=cwd, universal_newlines=True, errors="replace")
        except subprocess.TimeoutExpired:
            return "no answer to --validate within %d s" % VALIDATE_TIMEOUT
        except OSError as exc:
            return "cannot start %s: %s" % (program, exc.strerror or exc)
        return verdict(code if code >= 0 else 128 - code, stderr)

    # Batches first: `jobs` program starts, each checking a contiguous share of the runs.
    items = list(enumerate(distinct.values()))
    if len(items) > 1:
        size = -(-len(items) // max(1, min(jobs, len(items))))
        batches = [items[i:i + size] for i in range(0, len(items), size)]
        try:
            with concurrent.futures.ThreadPoolExecutor(max_workers=len(batches)) as pool:
                results = list(pool.map(lambda a: validate_batch(*a), enumerate(batches)))
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        if all(r is not None for r in results):
            shutil.rmtree(tmp, ignore_errors=True)
            refused = {k: e for r in results for k, e in r.items() if e is not None}
            if refused:
                first = min(refused)
                raise SweepError("run %s refused by %s --validate: %s (nothing run)"
                                 % (items[first][1].folder, os.path.basename(program),
                                    refused[first]))
            return

    refused = {}
    try:
        # Submitted in campaign order and cancelled at the first refusal: every run before
        # a refused one has been checked, so the one reported is the first refused.
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(validate, k, r): k for k, r in enumerate(distinct.values())}
            for future in concurrent.futures.as_completed(futures):
                if future.cancelled():
                    continue
                error = future.result()
                if error is not None:
                    refused[futures[future]] = error
                    for f in futures:
                        f.cancel()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if refused:
        first = min(refused)
        run = list(distinct.values())[first]
        raise SweepError("run %s refused by %s --validate: %s (nothing run)"
                         % (run.folder, os.path.basename(program), refused[first]))
