"""The command line of audit.py (analysis/audit.py is its entry point, and its docstring, which
lists every check, is the --help): every run.json read first (a missing folder, a run.json
that is no JSON object: one line, exit status 2), then each run audited; one line per
violation, exit status 1 if any, else 0 with the line "audit: N runs, M checks, 0
violations".
"""

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report
from d2dlearn_analysis.audit.checks import audit
from d2dlearn_analysis.audit.run_json import load_run_json


def main(argv, description):
    """audit.py's command line (argv: its arguments), description its --help text (the
    entry point's docstring, which lists the checks); the exit status."""
    parser = ArgumentParser(
        prog="audit.py", description=description,
        epilog="Each violation is one line (RUN_DIR: FILE:ROW: CHECK: what, expected X got Y); "
               "exit status 1 if any, else 0 with one line \"audit: N runs, M checks, 0 "
               "violations\". The checks are listed at the top of analysis/audit.py.")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="a run's folder (its --outDir), holding run.json and the traces")
    parser.add_argument("--skipped", action="store_true",
                        help="also print, before the last line, one line per check left out "
                             "on purpose (RUN_DIR: skipped: FILE: CHECK: why)")
    args = parser.parse_args(argv)
    docs = []
    for run_dir in args.runs:  # every run.json read before any run is audited
        try:
            docs.append(load_run_json(run_dir))
        except AnalysisError as e:
            return report(parser.prog, "RUN_DIR: %s" % e)
    checks = 0
    violations = []
    skipped = []
    for run_dir, (doc, problems) in zip(args.runs, docs):
        if doc is None:  # a run.json that is not UTF-8 nor JSON once its bytes are replaced
            violations += problems
            continue
        try:
            a = audit(run_dir, doc)
        except OSError as e:  # an unreadable file (permissions): the folder, not its numbers
            return report(parser.prog, "RUN_DIR: '%s': %s" % (run_dir, e))
        except Exception as e:  # noqa: BLE001 - a trace the checks did not foresee
            # One line, never a traceback: the run cannot be audited, which is a violation.
            violations.append("%s: (audit): could not be audited: %s: %s"
                              % (run_dir, type(e).__name__, " ".join(str(e).split())))
            continue
        checks += a.checks + len(problems)
        violations += problems + a.violations
        skipped += ["%s: skipped: %s: %s: %s" % (run_dir, where, check, why)
                    for where, check, why in a.skipped]
    for line in violations:
        print(line)
    if args.skipped:
        for line in skipped:
            print(line)
    print("audit: %d runs, %d checks, %d violations" % (len(args.runs), checks, len(violations)))
    return 1 if violations else 0
