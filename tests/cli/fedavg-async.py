#!/usr/bin/env python3
"""FedAsync and FedBuff (fedavg --algorithm=fedasync, fedbuff) end to end, on both backends.

- each protocol over the D2D channel model and over 802.11 (--backend=wifi), 6 devices of
  log-normal speeds (--computeSpread=0.9), --concurrency=3: it makes its --rounds versions,
  each of exactly 1 update (fedasync) or --bufferSize=2 (fedbuff), some of them stale
  (staleness_max > 0 in some version), with `accuracy` rows for every version; audit.py
  passes;
- the same seed gives the same traces (the channel backend);
- refusals, one line each, exit 2: --bufferSize with fedasync, --mixingAlpha with fedbuff,
  --stalenessB without --staleness=hinge, --clientFraction with fedasync.

Usage: fedavg-async.py BIN_DIR ANALYSIS_DIR
"""

import os
import sys
import tempfile

import cli_checks
from cli_checks import audited, check, network_rows

if len(sys.argv) < 3:
    sys.exit("usage: fedavg-async.py BIN_DIR ANALYSIS_DIR")
cli_checks.configure(sys.argv[1], sys.argv[2])
TMP = tempfile.mkdtemp(prefix="fedavg-async.")
BASE = ["--nDevices=6", "--rounds=5", "--concurrency=3", "--computeSpread=0.9",
        "--model=logistic", "--dataFraction=0.05", "--localSteps=5", "--quiet"]


def run(args, name):
    """fedavg BASE + ARGS in TMP/NAME, checked to run: the folder, None if it failed."""
    out = os.path.join(TMP, name)
    return out if cli_checks.run_ok(BASE + args, out, name) else None


def protocols():
    for algorithm, extra, per in (("fedasync", [], 1), ("fedbuff", ["--bufferSize=2"], 2)):
        for backend in ("channel", "wifi"):
            name = "%s-%s" % (algorithm, backend)
            run_dir = run(["--algorithm=" + algorithm, "--backend=" + backend] + extra, name)
            if not run_dir:
                continue
            rows = network_rows(run_dir)
            versions = [r for r in sorted(rows) if r > 0]
            check(versions == [1, 2, 3, 4, 5], "%s: versions 1 to 5 (%s)" % (name, versions))
            check(all(rows[r].get("updates") == per for r in versions),
                  "%s: %d update(s) a version" % (name, per))
            check(any(rows[r].get("staleness_max", 0) > 0 for r in versions),
                  "%s: some update was stale" % name)
            check(all("accuracy" in rows[r] for r in [0] + versions),
                  "%s: the global model's accuracy at every version" % name)
            audited(run_dir)


def determinism():
    a = run(["--algorithm=fedbuff", "--bufferSize=2"], "det-a")
    b = run(["--algorithm=fedbuff", "--bufferSize=2"], "det-b")
    if a and b:
        for name in ("messages.csv", "rounds.csv", "energy.csv"):
            with open(os.path.join(a, name), "rb") as f1, open(os.path.join(b, name), "rb") as f2:
                check(f1.read() == f2.read(), "same seed, same %s" % name)


def refusals():
    cases = [(["--algorithm=fedasync", "--bufferSize=3"], "--bufferSize"),
             (["--algorithm=fedbuff", "--mixingAlpha=0.5"], "--mixingAlpha"),
             (["--algorithm=fedbuff", "--stalenessB=2"], "--stalenessB"),
             (["--algorithm=fedasync", "--clientFraction=0.5"], "--clientFraction")]
    cli_checks.refused(cases, os.path.join(TMP, "refused"), BASE,
                       words_also="cannot change this run")


def main():
    protocols()
    determinism()
    refusals()
    if cli_checks.failures:
        sys.exit("fedavg-async: %d failure(s) (runs in %s)" % (cli_checks.failures, TMP))
    print("fedavg-async: ok")


if __name__ == "__main__":
    main()
