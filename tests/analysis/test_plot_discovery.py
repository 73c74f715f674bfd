#!/usr/bin/python3
"""Test of analysis/plot_discovery.py on hand-made graph-discovery run folders: the figures
are written, the per-run table carries run.json's numbers, the label-gain figure pairs an rl
and a none run, and bad input (a missing folder, a run.json without parameters.graph, a
gd_links.csv without its columns) exits 2 with one stderr line and writes nothing.

The figures are also drawn in this process and checked on their matplotlib objects
(figure_checks.py): every axis with data labelled (units where the quantity has one), rates
in [0, 1], energies >= 0, no legend over 8 entries, empty panels saying so; runs grouped by
(paradigm, graph) with the runs each bar averages; graph none shown as no exchange, not 1.0;
a target no run reached says so; the graph figure has legends of its node and edge colours;
--out is created."""

import json
import math
import os
import subprocess
import sys
import tempfile

import figure_checks

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "plot_discovery.py")
PY = "/usr/bin/python3"
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def make_run(path, graph, seed, w1_after, final_acc, with_rounds=True, **extra):
    os.makedirs(path)
    params = {"graph": graph, "labelsPerDevice": 3}
    results = {"gdMeanW1ToUniformBefore": 2.0,
               "gdMeanW1ToUniformAfter": w1_after, "gdMeanLinkPDrop": 0.05,
               "gdDeliveredFraction": 0.9,
               "targetsReached": [{"target": 0.6, "round": 2, "energyJ": 3.0, "d2dJ": 1.0,
                                   "d2sJ": 1.5, "computeJ": 0.5}]}
    for k, v in extra.items():
        (params if k in ("paradigm", "commandLine") else results)[k] = v
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params, "summary": {"results": results}}, fh)
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

def bar_heights(ax):
    return [p.get_height() for p in ax.patches]


with tempfile.TemporaryDirectory() as tmp:
    # A semi-supervised and an unsupervised rl run (two methods, not one mean), a none run
    # that sent nothing, and a target (0.95) that no run reached.
    never = [{"target": 0.95, "round": None}]
    make_run(os.path.join(tmp, "semi"), "rl", 1, 1.5, 0.9116, paradigm="semi-supervised",
             gdPointsSent=100, gdDeliveredFraction=0.8, targetsReached=never)
    make_run(os.path.join(tmp, "unsup"), "rl", 1, 1.5, 0.8407, paradigm="unsupervised",
             gdPointsSent=100, gdDeliveredFraction=0.6, targetsReached=never)
    make_run(os.path.join(tmp, "none"), "none", 1, 2.0, 0.5, paradigm="unsupervised",
             gdPointsSent=0, gdDeliveredFraction=1.0, gdEdgesFound=0, targetsReached=never)
    out = os.path.join(tmp, "new", "plots")
    rc, _, figs = figure_checks.render("plot_discovery", [
        os.path.join(tmp, d) for d in ("semi", "unsup", "none")] + ["--out", out])
    check(rc == 0 and os.path.isdir(out), "item 7: exit 0, --out created with its parents")
    problems = figure_checks.all_problems(figs)
    check(problems == [], "items 1, 2, 5: labelled axes, domains, legends (%s)" % problems)
    delivered = figure_checks.figure(figs, "delivered")
    ticks = [t.get_text() for t in delivered.axes[0].get_xticklabels()]
    check(ticks == ["rl\nsemi-supervised\nn=1", "rl\nunsupervised\nn=1",
                    "none\nunsupervised\nn=0"],
          "item 6: a bar per (graph, paradigm), with its number of runs (%s)" % ticks)
    heights = bar_heights(delivered.axes[0])
    check(abs(heights[0] - 0.8) < 1e-9 and abs(heights[1] - 0.6) < 1e-9
          and math.isnan(heights[2]),
          "items 4, 6: delivered 0.8 and 0.6 kept apart, none not drawn as 1.0 (%s)" % heights)
    texts = [t.get_text() for t in delivered.axes[0].texts]
    check(any("no exchange" in t for t in texts), "item 4: none says no exchange")
    check(all(ax.get_ylim() == (0.0, 1.0) for ax in delivered.axes),
          "item 2: rate axes on [0, 1]")
    energy = figure_checks.figure(figs, "energy")
    nodata = figure_checks.no_data_texts(energy)
    check(len(nodata) == 1 and all("no runs reached the target" in t for t in nodata),
          "item 4: the panels of targets no run reached say so (%s)" % nodata)
    graph = figure_checks.figure(figs, "graph_semi")
    legends = [graph.axes[0].get_legend()] + list(graph.axes[0].artists)
    entries = [t.get_text() for lg in legends for t in lg.get_texts()]
    check(len(legends) == 2 and "4" in entries and "3-4" in entries,
          "item 5: graph figure has a node legend and an edge legend (%s)" % entries)
    check(all("[m]" in lab for lab in figure_checks.labels(graph)), "graph axes in metres")
    acc = figure_checks.figure(figs, "accuracy")
    check("Test accuracy" in acc.axes[0].get_ylabel(), "accuracy axis labelled")
    # label_gain: one rl/none pair: a bar with its point, axis labelled, the title says
    # what the point is.
    make_run(os.path.join(tmp, "rl2"), "rl", 1, 1.5, 0.72)
    make_run(os.path.join(tmp, "none2"), "none", 1, 2.0, 0.60)
    rc, _, figs = figure_checks.render("plot_discovery", [
        os.path.join(tmp, "rl2"), os.path.join(tmp, "none2"), "--out", out])
    gain = figure_checks.figure(figs, "label_gain")
    ax = gain.axes[0]
    check(rc == 0 and figure_checks.all_problems(figs) == [], "pair figures: no problems")
    check(len(ax.patches) == 1 and abs(ax.patches[0].get_height() - 1.2) < 1e-9
          and "Labels per device" in ax.get_xlabel() and "rl / none" in ax.get_ylabel()
          and "paired" in ax.get_title(),
          "item 5: label_gain a labelled bar of 0.72/0.60 = 1.2")

    # Runs that differ in a flag other than the seed are different methods (issue: an rl run
    # with --bufferMode=shared was averaged into "rl"); runs differing only in the seed are
    # averaged.
    for name, seed, line, delivered in (("a1", 1, "--graph=rl --seed=1", 0.9),
                                         ("a2", 2, "--graph=rl --seed=2", 0.7),
                                         ("b1", 1, "--graph=rl --bufferMode=shared --seed=1", 0.5)):
        make_run(os.path.join(tmp, name), "rl", seed, 1.5, 0.7, commandLine=line,
                 gdPointsSent=100, gdDeliveredFraction=delivered)
    rc, _, figs = figure_checks.render("plot_discovery", [
        os.path.join(tmp, d) for d in ("a1", "a2", "b1")] + ["--out", out])
    delivered = figure_checks.figure(figs, "delivered")
    ticks = [t.get_text() for t in delivered.axes[0].get_xticklabels()]
    heights = bar_heights(delivered.axes[0])
    check(rc == 0 and ticks == ["rl\nn=2", "rl\nbufferMode=shared\nn=1"]
          and abs(heights[0] - 0.8) < 1e-9 and abs(heights[1] - 0.5) < 1e-9,
          "item 7: a flag other than the seed makes another method, seeds are averaged "
          "(%s, %s)" % (ticks, heights))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("test_plot_discovery: all checks passed")
