#!/usr/bin/python3
"""Tests for analysis/plot_consensus.py on small hand-made consensus run folders: the
Table 1 rows (means over the regular agents), the data behind Fig. 1 (polynomial fits:
coefficients, error against the truth on X*, disagreement on X*) and Fig. 2 (decision
boundaries: agreement with the nearest-mean rule of sec. 5.1, class shares), each against
numbers worked out by hand below; bad input gives one line and exit 2. The figures are
also drawn in this process and checked on their matplotlib objects (figure_checks.py):
labelled axes and colour bars, rates in [0, 1], legends, the trust strip's text colour, the
zero-byte run kept in bytes.png, the boundary's class legend, --out created.

Run:  /usr/bin/python3 tests/analysis/test_plot_consensus.py
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import figure_checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "plot_consensus.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
F = [4.0, -5.0, 0.3, 0.5, 0.0]  # f(x) = 0.5x^3 + 0.3x^2 - 5x + 4, c0..c4


def f(x):
    return sum(c * x ** e for e, c in enumerate(F))


def write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def write_run(folder, algorithm, accuracy, flipped=(), trust="dynamic"):
    """rounds.csv with per-node accuracy and xstar_accuracy at rounds 1 and 2:
    accuracy: node -> (round 1, round 2)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "run.json"), "w") as fh:
        json.dump({"parameters": {"algorithm": algorithm, "trust": trust,
                                  "flippedDevices": list(flipped)}}, fh)
    rows = []
    for rnd in (1, 2):
        for node, values in accuracy.items():
            rows.append([rnd, rnd * 1.0, node, "accuracy", values[rnd - 1]])
            rows.append([rnd, rnd * 1.0, node, "xstar_accuracy", values[rnd - 1] + 0.1])
    write_csv(os.path.join(folder, "rounds.csv"),
              ["round", "sim_time_s", "node", "metric", "value"], rows)


def run_script(*args):
    """plot_consensus.py with args, its main() in this process (figure_checks.run_main), as
    its command line runs it: returncode, stdout, stderr."""
    rc, out, err = figure_checks.run_main("plot_consensus", list(args))
    return subprocess.CompletedProcess([SCRIPT] + list(args), rc, out, err)


def run_process(*args):
    """plot_consensus.py with args in a process of its own: returncode, stdout, stderr."""
    return subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)


def read_rows(path):
    with open(path) as fh:
        return list(csv.DictReader(fh))


class PlotConsensusTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="plot-consensus-")
        self.out = os.path.join(self.tmp, "plots")
        os.makedirs(self.out)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_table_means_over_regular_agents(self):
        # Round 2 accuracy: agents 0, 2 regular (0.8, 0.6: mean 0.7), agent 1 flipped (0.1,
        # left out); local: 0.5 and 0.7 and 0.3 -> 0.5; X* is accuracy + 0.1.
        c = os.path.join(self.tmp, "cons")
        l = os.path.join(self.tmp, "loc")
        write_run(c, "consensus", {0: (0.5, 0.8), 1: (0.2, 0.1), 2: (0.4, 0.6)}, flipped=[1])
        write_run(l, "local", {0: (0.4, 0.5), 1: (0.6, 0.7), 2: (0.2, 0.3)})
        proc = run_process(c, l, "--out", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        table = {r["run"]: r for r in csv.DictReader(io.StringIO(proc.stdout))}
        self.assertEqual(table["cons"]["algorithm"], "consensus/dynamic")
        self.assertEqual(table["cons"]["flipped"], "1")
        self.assertAlmostEqual(float(table["cons"]["test_accuracy_regular"]), 0.7, places=4)
        self.assertAlmostEqual(float(table["cons"]["xstar_accuracy_regular"]), 0.8, places=4)
        self.assertAlmostEqual(float(table["loc"]["test_accuracy_regular"]), 0.5, places=4)
        # No polynomial or 2-D traces: no Fig. 1 or Fig. 2.
        self.assertFalse(os.path.exists(os.path.join(self.out, "polynomial.png")))
        self.assertFalse(os.path.exists(os.path.join(self.out, "boundary.png")))

    def write_polynomial(self, folder):
        write_run(folder, "consensus", {0: (0, 0), 1: (0, 0), 2: (0, 0)}, trust="naive")
        xs = [-2.0, -1.0, 0.0, 1.0, 2.0]
        samples = [["train", i, x + i, f(x + i) + 0.5] for i in range(3) for x in xs]
        samples += [["xstar", -1, x, f(x)] for x in xs]
        write_csv(os.path.join(folder, "samples.csv"), ["set", "node", "x", "y"], samples)
        # Round 1: agent 0 = f, agent 1 = f + 1, agent 2 = f - 1 (c0 moved).
        # Round 2: agents 0 and 2 = f, agent 1 = f + 0.3.
        shifts = {1: [0.0, 1.0, -1.0], 2: [0.0, 0.3, 0.0]}
        rows = []
        for rnd, by_node in shifts.items():
            for node, shift in enumerate(by_node):
                for e, c in enumerate(F):
                    rows.append([rnd, rnd * 1.0, node, e, c + (shift if e == 0 else 0.0)])
        write_csv(os.path.join(folder, "coefficients.csv"),
                  ["round", "sim_time_s", "node", "power", "coefficient"], rows)

    def test_polynomial_fits(self):
        p = os.path.join(self.tmp, "poly")
        self.write_polynomial(p)
        proc = run_script(p, "--out", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(self.out, "polynomial.png"), "rb") as fh:
            self.assertEqual(fh.read(8), PNG_SIGNATURE)
        rows = {(int(r["round"]), int(r["node"])): r
                for r in read_rows(os.path.join(self.out, "polynomial_fits.csv"))}
        self.assertEqual(len(rows), 6)
        # Coefficients as written.
        self.assertAlmostEqual(float(rows[(1, 1)]["c0"]), 5.0, places=9)
        self.assertAlmostEqual(float(rows[(2, 1)]["c3"]), 0.5, places=9)
        # MSE against f on X*: the squared shift of c0.
        for (rnd, node), mse in {(1, 0): 0.0, (1, 1): 1.0, (1, 2): 1.0, (2, 0): 0.0,
                                 (2, 1): 0.09, (2, 2): 0.0}.items():
            self.assertAlmostEqual(float(rows[(rnd, node)]["mse_truth"]), mse, places=9)
        # Disagreement: round 1 deviations 0, +1, -1 from the mean -> (0 + 1 + 1) / 3;
        # round 2 mean f + 0.1, deviations -0.1, 0.2, -0.1 -> (0.01 + 0.04 + 0.01) / 3.
        for node in range(3):
            self.assertAlmostEqual(float(rows[(1, node)]["disagreement"]), 2 / 3, places=9)
            self.assertAlmostEqual(float(rows[(2, node)]["disagreement"]), 0.02, places=9)

    def test_boundary_summary(self):
        b = os.path.join(self.tmp, "gm")
        write_run(b, "consensus", {0: (0.9, 0.9), 1: (0.3, 0.3)}, flipped=[1])
        rows = []
        grid = [-3.0, -1.0, 1.0, 3.0]
        for rnd in (1, 3):
            for x1 in grid:
                for x2 in grid:
                    # Nearest of (-2,2)=0, (2,2)=1, (-2,-2)=2, (2,-2)=3: the quadrant.
                    bayes = (1 if x1 > 0 else 0) + (2 if x2 < 0 else 0)
                    rows.append([rnd, 0, x1, x2, bayes])
                    # Agent 1 says class 0 everywhere in round 1, class 3 where x1 > 0 and
                    # class 0 elsewhere in round 3.
                    rows.append([rnd, 1, x1, x2, 0 if rnd == 1 or x1 < 0 else 3])
        write_csv(os.path.join(b, "boundary.csv"), ["round", "node", "x1", "x2", "class"], rows)
        proc = run_script(b, "--out", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(self.out, "boundary.png"), "rb") as fh:
            self.assertEqual(fh.read(8), PNG_SIGNATURE)
        s = {(int(r["round"]), int(r["node"])): r
             for r in read_rows(os.path.join(self.out, "boundary_summary.csv"))}
        self.assertEqual(len(s), 4)
        for rnd in (1, 3):
            self.assertAlmostEqual(float(s[(rnd, 0)]["bayes_agreement"]), 1.0, places=9)
            for c in range(4):
                self.assertAlmostEqual(float(s[(rnd, 0)]["class%d" % c]), 0.25, places=9)
        # Round 1, agent 1: class 0 is right in 4 of 16 points.
        self.assertAlmostEqual(float(s[(1, 1)]["bayes_agreement"]), 0.25, places=9)
        self.assertAlmostEqual(float(s[(1, 1)]["class0"]), 1.0, places=9)
        # Round 3: class 0 on x1 < 0 is right for x2 > 0 (4 points), class 3 on x1 > 0 for
        # x2 < 0 (4 points): 8 of 16.
        self.assertAlmostEqual(float(s[(3, 1)]["bayes_agreement"]), 0.5, places=9)
        self.assertAlmostEqual(float(s[(3, 1)]["class3"]), 0.5, places=9)

    def write_trust(self, folder, n=3):
        rows = []
        for rnd in (1, 2, 3):
            for i in range(n):
                for j in range(n):
                    w = 0.8 if i == j else (0.02 if j == 1 else 0.18)
                    rows.append([rnd, rnd * 1.0, i, j, w, 1])
        write_csv(os.path.join(folder, "trust.csv"),
                  ["round", "sim_time_s", "node", "peer", "w", "received"], rows)

    def write_bytes(self, folder, per_round):
        with open(os.path.join(folder, "rounds.csv"), "a", newline="") as fh:
            for rnd in (1, 2):
                csv.writer(fh).writerow([rnd, rnd * 1.0, -1, "bytes_sent", per_round])

    def test_figures_labelled_legends_and_zero_byte_run(self):
        # Items 1, 2, 5, 7: a consensus run with trust.csv, a FedAvg and a FedProx run that
        # sent the same bytes, a local run that sent none; --out does not exist yet.
        c, a, p, l = (os.path.join(self.tmp, n) for n in ("cons", "fedavg", "fedprox", "loc"))
        write_run(c, "consensus", {0: (0.5, 0.8), 1: (0.2, 0.1), 2: (0.4, 0.6)}, flipped=[1])
        self.write_trust(c)
        for folder, alg, per_round in ((a, "fedavg", 4096), (p, "fedprox", 4096),
                                       (l, "local", 0), (c, None, 1024)):
            if alg:
                write_run(folder, alg, {0: (0.5, 0.6)})
            self.write_bytes(folder, per_round)
        out = os.path.join(self.tmp, "new", "plots")
        rc, _, figs = figure_checks.render("plot_consensus", [c, a, p, l, "--out", out])
        self.assertEqual(rc, 0)
        self.assertTrue(os.path.isdir(out))
        self.assertEqual(figure_checks.all_problems(figs), [])
        trust = figure_checks.figure(figs, "trust")
        heat, strip, cbar = trust.axes
        self.assertTrue(heat.get_xlabel() and heat.get_ylabel())
        self.assertIn("Trust weight", cbar.get_ylabel())
        # Column sums 0.36, 0.04, 0.36: the text on each cell is the colour that reads on it.
        tio = figure_checks.trace_io()
        image = strip.images[0]
        for text, value in zip(strip.texts, [0.36, 0.04, 0.36]):
            self.assertEqual(text.get_color(),
                             tio.text_colour_on(image.cmap(image.norm(value))))
        self.assertEqual({t.get_color() for t in strip.texts}, {"black", "white"})
        ax = figure_checks.figure(figs, "bytes").axes[0]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual(len(labels), 4)
        self.assertTrue(any(lab.startswith("local") and "0 throughout" in lab
                            for lab in labels))
        self.assertIn("[B]", ax.get_ylabel())
        self.assertEqual(ax.get_ylim()[0], 0.0)
        styles = {(ln.get_marker(), ln.get_linestyle()) for ln in ax.lines}
        self.assertEqual(len(styles), 4)
        xstar = figure_checks.figure(figs, "xstar")
        self.assertIsNone(xstar)  # no node -1 xstar rows in these runs

    def test_boundary_has_class_legend_and_axis_labels(self):
        b = os.path.join(self.tmp, "gm")
        write_run(b, "consensus", {0: (0.9, 0.9)})
        rows = [[rnd, 0, x1, x2, (1 if x1 > 0 else 0) + (2 if x2 < 0 else 0)]
                for rnd in (1, 3) for x1 in (-1.0, 1.0) for x2 in (-1.0, 1.0)]
        write_csv(os.path.join(b, "boundary.csv"), ["round", "node", "x1", "x2", "class"], rows)
        rc, _, figs = figure_checks.render("plot_consensus", [b, "--out", self.out])
        self.assertEqual(rc, 0)
        fig = figure_checks.figure(figs, "boundary")
        self.assertEqual(figure_checks.all_problems(figs), [])
        entries = [t.get_text() for t in fig.legends[0].get_texts()]
        self.assertEqual(entries[:4], ["class 0", "class 1", "class 2", "class 3"])
        self.assertEqual({(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes if ax.axison},
                         {("x1", "x2")})

    def test_bad_input_one_line_nothing_written(self):
        p = os.path.join(self.tmp, "poly")
        self.write_polynomial(p)
        os.remove(os.path.join(p, "coefficients.csv"))
        proc = run_process(p, "--out", self.out)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("coefficients.csv", proc.stderr)
        self.assertEqual(os.listdir(self.out), [])
        # A boundary.csv with a non-numeric class.
        b = os.path.join(self.tmp, "gm")
        write_run(b, "consensus", {0: (0.9, 0.9)})
        write_csv(os.path.join(b, "boundary.csv"), ["round", "node", "x1", "x2", "class"],
                  [[1, 0, 0.5, 0.5, "red"]])
        proc = run_script(b, "--out", self.out)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("boundary.csv", proc.stderr)
        self.assertEqual(os.listdir(self.out), [])


if __name__ == "__main__":
    unittest.main()
