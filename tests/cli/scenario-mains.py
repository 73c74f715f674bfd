#!/usr/bin/python3
"""Scenario programs read like ns-3 examples: every scenario's main() is at most 150 lines,
graph-discovery's sets no attribute itself; every flag of every scenario is declared once (its --help lists
each name once) and, in graph-discovery, every flag that names an attribute is bound to it
(--help shows the attribute beside the flag).

Usage: scenario-mains.py SOURCE_DIR BIN_DIR
"""
import os
import re
import subprocess
import sys

SRC, BIN = sys.argv[1], sys.argv[2]
SCENARIOS = ["fedavg", "cmfl", "consensus", "graph-discovery", "bayes-consensus", "d2d-exchange"]
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def main_body(path):
    """The lines of main() in a scenario source: from 'main(' to the closing brace in column 0."""
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("main("))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return lines[start - 1:end + 1]  # the return type's line too


for name in SCENARIOS:
    lines = len(main_body(os.path.join(SRC, f"scenarios/{name}/{name}.cc")))
    check(lines <= 150, f"{name} main() is {lines} lines (at most 150)")
body = main_body(os.path.join(SRC, "scenarios/graph-discovery/graph-discovery.cc"))
setters = [line.strip() for line in body if "SetAttribute(" in line]
check(not setters, f"graph-discovery main() sets no attribute itself ({setters[:2]})")

for name in SCENARIOS:
    res = subprocess.run([os.path.join(BIN, name), "--help"], capture_output=True, text=True,
                         timeout=60)
    names = re.findall(r"^    --(\w+):", res.stdout, flags=re.M)
    dup = sorted({n for n in names if names.count(n) > 1})
    check(res.returncode == 0 and len(names) > 5 and not dup,
          f"{name} --help lists {len(names)} flags, each once (twice: {dup})")

# graph-discovery: the flags that set the discovery's, paradigms' or GCN's attributes are
# bound to them (the help shows the attribute), so each is written once.
res = subprocess.run([os.path.join(BIN, "graph-discovery"), "--help"], capture_output=True,
                     text=True, timeout=60)
bound = dict(re.findall(r"^    --(\w+):.*\((ns3::D2d\w+::\w+)\)", res.stdout, flags=re.M))
for flag in ["gamma", "delta", "alpha1", "alpha2", "alpha3", "iterations", "bufferSize",
             "graph", "edges", "budget", "pcaDims", "clusters", "labeller", "exchangeMode",
             "thresholdOn", "diversity", "trust", "trustFile", "minLabels", "gcnEpochs",
             "rewardSharing", "controlReliable", "stateMode", "betaMode", "bufferMode"]:
    check(flag in bound, f"graph-discovery --{flag} is bound to an attribute "
          f"({bound.get(flag, 'not bound')})")

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("all checks passed")
