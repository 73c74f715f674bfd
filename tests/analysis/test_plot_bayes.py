#!/usr/bin/python3
"""Tests for analysis/plot_bayes.py on small synthetic bayes-consensus folders.

Run:  /usr/bin/python3 tests/analysis/test_plot_bayes.py
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import figure_checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "plot_bayes.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def write_run(folder, mode, cooperation, rows_by_node, steps=5):
    """A run folder: beliefs.csv, rounds.csv and run.json. rows_by_node: node -> fn(step)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "run.json"), "w") as fh:
        json.dump({"parameters": {"mode": mode, "cooperation": cooperation,
                                  "lossRule": "reuse"}}, fh)
    metric = "mse" if mode == "gaussian-linear" else "error"
    with open(os.path.join(folder, "beliefs.csv"), "w", newline="") as b, \
            open(os.path.join(folder, "rounds.csv"), "w", newline="") as r:
        bw, rw = csv.writer(b), csv.writer(r)
        if mode == "discrete":
            bw.writerow(["step", "node", "estimate", "belief_true", "log_belief_true", "error"])
        elif mode == "variational":
            bw.writerow(["step", "node", "mean_l2", "sigma_mean", "sigma_min", "sigma_max",
                         "train_loss"])
        else:
            bw.writerow(["step", "node", "mean_0", "mean_1", "mean_2", "var_0", "var_1", "var_2"])
        rw.writerow(["round", "sim_time_s", "node", "metric", "value"])
        for k in range(1, steps + 1):
            for node, fn in rows_by_node.items():
                value = fn(k)
                if mode == "discrete":
                    bw.writerow([k, node, 0, value, 0, int(value < 0.5)])
                    rw.writerow([k, k * 0.1, node, "error", int(value < 0.5)])
                    rw.writerow([k, k * 0.1, node, "belief_true", value])
                elif mode == "variational":
                    bw.writerow([k, node, 1, 0.1, 0.05, 0.2, 0.7])
                    rw.writerow([k, k * 0.1, node, "accuracy", value])
                    rw.writerow([k, k * 0.1, node, "loss", 1 - value])
                else:
                    bw.writerow([k, node, 0, 0, 0, 1, 1, 1])
                    rw.writerow([k, k * 0.1, node, metric, value])
            if mode == "variational":  # the scenario's node -1 rows: mean over devices
                mean = sum(fn(k) for fn in rows_by_node.values()) / len(rows_by_node)
                rw.writerow([k, k * 0.1, -1, "accuracy", mean])


def run_script(*args):
    """plot_bayes.py with args, its main() in this process (figure_checks.run_main), as
    its command line runs it: returncode, stdout, stderr."""
    rc, out, err = figure_checks.run_main("plot_bayes", list(args))
    return subprocess.CompletedProcess([SCRIPT] + list(args), rc, out, err)


def run_process(*args):
    """plot_bayes.py with args in a process of its own: returncode, stdout, stderr."""
    return subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)


def read_summary(path):
    with open(path) as fh:
        return {os.path.basename(r["run"]): r for r in csv.DictReader(fh)}


class PlotBayesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="plot-bayes-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_nine_node_beliefs_no_big_legend_labelled_in_domain(self):
        # Items 1, 2, 5, 7: nine nodes' beliefs: coloured by node with a labelled colour bar,
        # not a legend of 9 entries; labelled axes, rates in [0, 1]; --out created.
        d = os.path.join(self.tmp, "nine")
        write_run(d, "discrete", "network", {n: (lambda k, n=n: min(1.0, 0.1 * k + 0.05 * n))
                                             for n in range(9)})
        v = os.path.join(self.tmp, "var")
        write_run(v, "variational", "network", {0: lambda k: 0.2 * k, 1: lambda k: 0.15 * k})
        out = os.path.join(self.tmp, "new", "plots")
        rc, _, figs = figure_checks.render("plot_bayes", [d, v, "--out", out])
        self.assertEqual(rc, 0)
        self.assertEqual(figure_checks.all_problems(figs), [])
        beliefs = figure_checks.figure(figs, "belief_true")
        ax, bar = beliefs.axes
        self.assertIsNone(ax.get_legend())
        self.assertEqual(len(ax.lines), 9)
        self.assertEqual(bar.get_ylabel(), "node")
        self.assertEqual(ax.get_ylim(), (0.0, 1.0))
        for name in ("error", "accuracy"):
            ax = figure_checks.figure(figs, name).axes[0]
            self.assertEqual(ax.get_ylim(), (0.0, 1.0))
            self.assertTrue(ax.get_xlabel() and ax.get_ylabel())

    def test_gaussian_three_learners(self):
        # Final MSE: central 0.6 (node -1), isolated mean (1.2 + 0.8) / 2 = 1.0, network 0.65.
        c = os.path.join(self.tmp, "central")
        i = os.path.join(self.tmp, "isolated")
        n = os.path.join(self.tmp, "network")
        write_run(c, "gaussian-linear", "central", {-1: lambda k: 0.6 + 1.0 / k - 0.2})
        write_run(i, "gaussian-linear", "isolated", {0: lambda k: 1.2, 1: lambda k: 0.8})
        write_run(n, "gaussian-linear", "network", {0: lambda k: 0.65, 1: lambda k: 0.65})
        out = os.path.join(self.tmp, "plots")
        proc = run_process(c, i, n, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "mse.png"), "rb") as fh:
            self.assertEqual(fh.read(8), PNG_SIGNATURE)
        self.assertFalse(os.path.exists(os.path.join(out, "belief_true.png")))
        s = read_summary(os.path.join(out, "summary.csv"))
        self.assertAlmostEqual(float(s["central"]["final_mean"]), 0.6, places=9)
        self.assertAlmostEqual(float(s["isolated"]["final_mean"]), 1.0, places=9)
        self.assertAlmostEqual(float(s["network"]["final_mean"]), 0.65, places=9)
        self.assertEqual(s["network"]["final_step"], "5")

    def test_discrete_belief_plot_and_error_rate(self):
        # Node 0's belief reaches 0.9 at step 5, node 1's stays 0.1: final error rate 0.5.
        d = os.path.join(self.tmp, "disc")
        write_run(d, "discrete", "network", {0: lambda k: 0.18 * k, 1: lambda k: 0.1})
        out = os.path.join(self.tmp, "plots")
        proc = run_script(d, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for png in ("belief_true.png", "error.png"):
            with open(os.path.join(out, png), "rb") as fh:
                self.assertEqual(fh.read(8), PNG_SIGNATURE, png)
        # An error rate is not an MSE: no mse figure.
        self.assertFalse(os.path.exists(os.path.join(out, "mse.png")))
        s = read_summary(os.path.join(out, "summary.csv"))
        self.assertEqual(s["disc"]["metric"], "error")
        self.assertAlmostEqual(float(s["disc"]["final_mean"]), 0.5, places=9)

    def test_variational_with_other_modes(self):
        # Variational: devices 0.5 and 0.7 at the last step (mean 0.6); each mode its own
        # figure, no axis shared by two metrics.
        v = os.path.join(self.tmp, "var")
        d = os.path.join(self.tmp, "disc")
        g = os.path.join(self.tmp, "gauss")
        write_run(v, "variational", "network", {0: lambda k: 0.1 * k, 1: lambda k: 0.14 * k})
        write_run(d, "discrete", "isolated", {0: lambda k: 0.9, 1: lambda k: 0.1})
        write_run(g, "gaussian-linear", "central", {-1: lambda k: 1.0 / k})
        out = os.path.join(self.tmp, "plots")
        proc = run_script(v, d, g, "--out", out, "--format", "svg")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in ("belief_true.svg", "error.svg", "mse.svg", "accuracy.svg"):
            with open(os.path.join(out, name), "rb") as fh:
                self.assertIn(b"<svg", fh.read(400), name)
        s = read_summary(os.path.join(out, "summary.csv"))
        self.assertEqual(s["var"]["metric"], "accuracy")
        self.assertAlmostEqual(float(s["var"]["final_mean"]), 0.6, places=9)
        self.assertAlmostEqual(float(s["disc"]["final_mean"]), 0.5, places=9)
        self.assertAlmostEqual(float(s["gauss"]["final_mean"]), 0.2, places=9)

    def test_failure_writes_nothing(self):
        # A discrete run, then one whose rounds.csv lacks its metric: one-line error and no
        # output folder at all (the old script had written belief_true.png first).
        d = os.path.join(self.tmp, "disc")
        bad = os.path.join(self.tmp, "bad")
        write_run(d, "discrete", "network", {0: lambda k: 0.9})
        write_run(bad, "gaussian-linear", "network", {0: lambda k: 1.0})
        with open(os.path.join(bad, "rounds.csv"), "w") as fh:
            fh.write("round,sim_time_s,node,metric,value\n1,0.1,0,excess_mse,0.5\n")
        out = os.path.join(self.tmp, "plots")
        proc = run_script(d, bad, "--out", out)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("no 'mse' rows", proc.stderr)
        self.assertFalse(os.path.exists(out))

    def test_stale_figures_removed(self):
        # mse.png of an earlier gaussian run in this folder, older than the new traces.
        d = os.path.join(self.tmp, "disc")
        write_run(d, "discrete", "network", {0: lambda k: 0.9})
        out = os.path.join(self.tmp, "plots")
        os.makedirs(out)
        stale = os.path.join(out, "mse.png")
        with open(stale, "wb") as fh:
            fh.write(b"x")
        old = time.time() - 3600
        os.utime(stale, (old, old))
        proc = run_script(d, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(os.path.join(out, "error.png")))

    def test_missing_trace_is_one_line_error(self):
        d = os.path.join(self.tmp, "broken")
        write_run(d, "discrete", "network", {0: lambda k: 0.5})
        os.remove(os.path.join(d, "beliefs.csv"))
        proc = run_process(d, "--out", os.path.join(self.tmp, "plots"))
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("beliefs.csv", proc.stderr)


if __name__ == "__main__":
    unittest.main()
