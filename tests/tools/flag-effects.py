#!/usr/bin/env python3
"""Flags that are accepted and change nothing: an audit of "a flag that is accepted must act"
(run by hand, like compare-builds.py; not a CTest test: thousands of runs).

For each scenario program and each configuration of tests/cli/flag-scope.py's PROGRAMS (its
choices that decide the links, on the channel backend, with the program's small setting),
--printScope lists the flags that act. Each of them is given at another value than its
default (flag-scope.py's VALUES if it has one, else one derived from --PrintHelp: a
boolean flipped, another of its choices, a number doubled or a time doubled) and the run is
compared with the run without it: a flag whose every CSV trace and run.json summary are the
same bytes is reported as SILENT. What a flag may change outside the traces (the console,
the worker threads, the output folder, the checks) is in OUTSIDE_TRACES, and skipped.

A SILENT line is a lead, not a verdict: the small setting may not reach the flag's effect
(a retransmission limit without a loss). Each one is read and either declared where it acts
(D2dScenarioFlags::Flag::Configures, D2dFlProtocol::GetUnreadAttributes, a flag-scope row)
or explained.

  tests/tools/flag-effects.py BIN_DIR [PROGRAM ...]   (default: every program)
"""

import importlib.util
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import case_batch  # noqa: E402

if len(sys.argv) < 2:
    sys.exit(__doc__)
BIN = sys.argv[1]
ONLY = set(sys.argv[2:])

# flag-scope.py's tables (it reads its BIN_DIR at import).
_argv = sys.argv
sys.argv = [_argv[0], BIN]
_spec = importlib.util.spec_from_file_location("flag_scope",
                                               os.path.join(HERE, "..", "cli", "flag-scope.py"))
scope_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scope_test)
sys.argv = _argv

#: Settings of this audit's own where flag-scope.py's small one sends too little to see an
#: effect (its 1 s of d2d-exchange has hardly a message).
SMALL = {"d2d-exchange": ["--nDevices=6", "--duration=30s"]}

#: Flags whose effect is outside the traces, or that end the program before a run.
OUTSIDE_TRACES = {"quiet", "threads", "outDir", "validate", "printScope", "printLinks",
                  "inertFlags", "evaluate", "maxSimTime", "jobWallLimit", "traces",
                  "traceEvery", "positionEvery", "pcap", "netanim", "flowMonitor", "seed",
                  "RngRun", "deferTraining", "dataDir", "fastPath"}


def derived_value(default, help_text):
    """Another value than default, from the flag's help: None if none can be told."""
    choices = re.search(r": ([\w:+.\-]+(?:, [\w:+.\-]+)*(?: or [\w:+.\-]+)?)(?: \(acts with[^)]*\))?$",
                        help_text)
    if default in ("true", "false"):
        return "false" if default == "true" else "true"
    if choices:
        values = re.split(r", | or ", choices.group(1))
        others = [v for v in values if v != default]
        if len(values) > 1 and others:
            return others[0]
    m = re.fullmatch(r"(-?[\d.]+(?:e[+-]?\d+)?)(ns|us|ms|s|min|h)?", default or "")
    if not m:
        return None
    number, unit = m.group(1), m.group(2) or ""
    try:
        value = float(number)
    except ValueError:
        return None
    if re.fullmatch(r"-?\d+", number):
        new = str(int(value) * 2 if value > 0 else 1)
    else:
        new = repr(value * 2 if value > 0 else 0.5)
    return new + unit


def help_lines(program):
    """{flag: (default, help)} from --PrintHelp."""
    out = case_batch.run(os.path.join(BIN, program), [["--PrintHelp"]])[0].stdout
    result = {}
    for line in out.splitlines():
        m = re.match(r"^\s+--([^:\s]+):\s*(.*?)\s*$", line)
        if m:
            d = re.search(r"\[([^\[\]]*)\]$", m.group(2))
            text = m.group(2)[:d.start()].strip() if d else m.group(2)
            result[m.group(1)] = (d.group(1) if d else None, text)
    return result


def fingerprint(folder):
    """{file: bytes} of the CSV traces, and run.json's summary (its parameters record the
    flags themselves)."""
    prints = {}
    if not os.path.isdir(folder):
        return None
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".csv"):
            with open(path, "rb") as f:
                prints[name] = f.read()
        elif name == "run.json":
            with open(path) as f:
                doc = json.load(f)
            summary = doc.get("summary", {})
            summary.pop("wall_time_s", None)
            prints["run.json summary"] = json.dumps(summary, sort_keys=True)
    return prints


def audit(program, configurations, setting, tmp):
    binary = os.path.join(BIN, program)
    helps = help_lines(program)
    silent = []
    for config in configurations:
        config = config + ["--backend=channel"]
        table = scope_test.scope(case_batch.run(binary, [config + setting + ["--printScope"]])[0])
        # The small setting's flags that cannot act here are left out (cmfl's
        # --activationFraction with the serverless baselines).
        small = [a for a in setting if table.get(a[2:].split("=")[0], (True,))[0]]
        runs, flags = [config + small + ["--outDir=" + os.path.join(tmp, "base")]], []
        for flag, (acts, _) in sorted(table.items()):
            given = any(a.startswith("--%s=" % flag) for a in config + small)
            if not acts or given or flag in OUTSIDE_TRACES or flag not in helps:
                continue
            default, text = helps[flag]
            value = scope_test.pick(flag, default, program) or derived_value(default, text)
            if value is None or value == default:
                continue
            flags.append((flag, value))
            runs.append(config + small + ["--%s=%s" % (flag, value),
                                          "--outDir=" + os.path.join(tmp, flag)])
        results = case_batch.run(binary, [r + ["--quiet"] for r in runs], timeout=300)
        base = fingerprint(os.path.join(tmp, "base")) if results[0].returncode == 0 else None
        if base is None:
            print("  %s %s: the base run failed: %s" % (program, " ".join(config),
                                                      results[0].stderr.strip()[-200:]))
            continue
        n_refused = n_changed = 0
        for (flag, value), result in zip(flags, results[1:]):
            if result.returncode != 0:
                n_refused += 1
                continue
            if fingerprint(os.path.join(tmp, flag)) == base:
                silent.append((program, " ".join(config), flag, value))
                print("SILENT %s %s --%s=%s" % (program, " ".join(config), flag, value))
            else:
                n_changed += 1
        print("  %s %s: %d flags act: %d changed a trace, %d refused at the value tried, "
              "%d silent" % (program, " ".join(config), len(flags), n_changed, n_refused,
                             len(flags) - n_changed - n_refused))
        for name in os.listdir(tmp):
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
    return silent


def main():
    tmp = os.path.join(scope_test.TMP, "effects")
    os.makedirs(tmp, exist_ok=True)
    with open(scope_test.RSS_FILE, "w") as f:
        f.write("0,1e-9,1e-9,1e-9\n1e-9,0,1e-9,1e-9\n1e-9,1e-9,0,1e-9\n1e-9,1e-9,1e-9,0\n")
    silent = []
    for program, (configurations, small) in scope_test.PROGRAMS.items():
        if ONLY and program not in ONLY:
            continue
        print("program %s" % program)
        silent += audit(program, configurations, SMALL.get(program, small), tmp)
    print("flag-effects: %d silent (program, configuration, flag)" % len(silent))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(scope_test.TMP, ignore_errors=True)
