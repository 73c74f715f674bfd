"""Runs of one scenario program forked by a single start of it, for the Python CLI tests.

With D2DLEARN_CASES=FILE (scenario/d2d-case-batch.h), a scenario program reads one
command line per line of FILE (arguments separated by tabs), forks a child per line at its
flag parsing and writes each child's exit status, standard output and standard error to
FILE.K.rc, FILE.K.out and FILE.K.err (K from 1). Each child goes on as a fresh process of
those arguments would, with the libraries (LibTorch's 300 among them) loaded once by the
parent: a run costs a fork instead of about a second of start-up. The children run one
after the other. tests/cli/lib-checks.sh (queue_run, run_queued) is the same for the bash
tests.

run(program, argvs, timeout) -> [Result(returncode, stdout, stderr, args)], in the order of
argvs; argvs are the arguments after the program's name.
"""
import collections
import os
import subprocess
import tempfile

Result = collections.namedtuple("Result", "returncode stdout stderr args")


def run(program, argvs, timeout=600, cwd=None):
    """Each argument list of argvs run by one start of program (see the module's text); a
    child that does not end within timeout seconds is killed (status 124). Raises
    RuntimeError if the start itself fails (then no child's result is known)."""
    argvs = [list(a) for a in argvs]
    for args in argvs:
        for a in args:
            if "\t" in a or "\n" in a:
                raise ValueError("an argument holds a tab or a newline: %r" % a)
    if not argvs:
        return []
    with tempfile.TemporaryDirectory(prefix="case-batch-") as tmp:
        cases = os.path.join(tmp, "cases")
        with open(cases, "w") as f:
            f.write("".join("\t".join(a) + "\n" for a in argvs))
        env = dict(os.environ, D2DLEARN_CASES=cases, D2DLEARN_CASE_TIMEOUT=str(timeout))
        proc = subprocess.run([program], env=env, capture_output=True, text=True, cwd=cwd,
                              errors="replace", timeout=timeout * (len(argvs) + 1))
        if proc.returncode != 0:
            raise RuntimeError("the start of %s for %d runs exited %d: %s"
                               % (program, len(argvs), proc.returncode, proc.stderr[-300:]))
        results = []
        for k, args in enumerate(argvs, 1):
            base = "%s.%d" % (cases, k)
            with open(base + ".rc") as f:
                code = int(f.read().strip())
            texts = []
            for ext in (".out", ".err"):
                with open(base + ext, errors="replace") as f:
                    texts.append(f.read())
            results.append(Result(code, texts[0], texts[1], [program] + args))
        return results
