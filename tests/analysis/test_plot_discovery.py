#!/usr/bin/python3
"""Test of analysis/plot_discovery.py on hand-made graph-discovery run folders: the figures
are written, the per-run table carries run.json's numbers, the label-gain figure pairs an rl
and a none run, and bad input (a missing folder, a run.json without parameters.graph, a
gd_links.csv without its columns) exits 2 with one stderr line and writes nothing."""

import json
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "plot_discovery.py")
PY = "/usr/bin/python3"
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def make_run(path, graph, seed, w1_after, final_acc, with_rounds=True):
    os.makedirs(path)
    params = {"graph": graph, "labelsPerDevice": 3, "gdMeanW1ToUniformBefore": 2.0,
              "gdMeanW1ToUniformAfter": w1_after, "gdMeanLinkPDrop": 0.05,
              "gdDeliveredFraction": 0.9,
              "targetsReached": [{"target": 0.6, "round": 2, "energyJ": 3.0, "d2dJ": 1.0,
                                  "d2sJ": 1.5, "computeJ": 0.5}]}
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params}, fh)
    with open(os.path.join(path, "gd_nodes.csv"), "w") as fh:
        fh.write("node,x_m,y_m,cluster,satisfied_before,satisfied_after,min_labels\n"
                 "0,0,0,0,3,4,4\n1,10,0,0,3,5,4\n2,50,50,1,3,3,4\n")
    with open(os.path.join(path, "gd_links.csv"), "w") as fh:
        fh.write("edge,receiver,transmitter,p_drop,requested,allocated,sent,received,shareable\n"
                 "0,0,1,0.01,60,60,60,59,5\n0,2,0,0.3,60,30,30,20,2\n")
    if with_rounds:
        with open(os.path.join(path, "rounds.csv"), "w") as fh:
            fh.write("round,sim_time_s,node,metric,value\n0,0,-1,accuracy,0.1\n"
                     "1,1,-1,accuracy,0.5\n2,2,-1,accuracy,%s\n" % final_acc)


with tempfile.TemporaryDirectory() as tmp:
    make_run(os.path.join(tmp, "rl"), "rl", 1, 1.5, 0.72)
    make_run(os.path.join(tmp, "none"), "none", 1, 2.0, 0.60)
    out = os.path.join(tmp, "plots")
    r = subprocess.run([PY, SCRIPT, os.path.join(tmp, "rl"), os.path.join(tmp, "none"),
                        "--out", out], capture_output=True, text=True)
    check(r.returncode == 0, "exit 0 (stderr: %s)" % r.stderr.strip())
    for name in ["graph_rl.png", "graph_none.png", "accuracy.png", "energy.png",
                 "delivered.png", "label_gain.png"]:
        check(os.path.isfile(os.path.join(out, name)), "wrote " + name)
    rows = [line for line in r.stdout.splitlines() if line.startswith(tmp)]
    check(any(",rl,1,2.0000,1.5000,0.0500,0.9000,0.7200" in line for line in rows),
          "table row of the rl run: W1 2 -> 1.5, P_D 0.05, delivered 0.9, final 0.72")
    # Bad input: nothing written, one line, exit 2.
    bad = os.path.join(tmp, "bad")
    make_run(bad, "rl", 2, 1.0, 0.5)
    with open(os.path.join(bad, "gd_links.csv"), "w") as fh:
        fh.write("edge,receiver\n0,1\n")
    for args, word in [([os.path.join(tmp, "missing")], "not found"),
                       ([bad], "gd_links.csv")]:
        out2 = os.path.join(tmp, "plots2")
        r = subprocess.run([PY, SCRIPT] + args + ["--out", out2], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and word in lines[0],
              "bad input %s: exit 2, one line naming %r (got %d: %s)"
              % (args, word, r.returncode, r.stderr.strip()))
        check(not os.path.exists(out2) or not os.listdir(out2), "nothing written")

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("test_plot_discovery: all checks passed")
