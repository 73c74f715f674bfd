#!/usr/bin/python3
"""Test of analysis/discovery_tables.py on hand-made graph-discovery run folders (run.json
only), against tables worked out by hand:

edges: Q = 100, rl and closest on seeds 1 and 2, and Q = 200, rl on seed 1.
  rl      seed 1 W1 [2.0, 1.8, 1.6], seed 2 [2.2, 1.98, 1.76]
  closest seed 1 W1 [2.0, 1.9, 1.7], seed 2 [2.2, 1.87, 1.87]
  W1 before (2.0 + 2.2) / 2 = 2.100 for both; after edge 1: rl (1.8 + 1.98) / 2 = 1.890,
  closest (1.9 + 1.87) / 2 = 1.885; after edge 2: rl 1.680, closest 1.785.
  Falls in % of before: rl edge 1 (10 + 10) / 2 = 10.0, edge 2 (10 + 10) / 2 = 10.0;
  closest edge 1 (5 + 15) / 2 = 10.0, edge 2 (10 + 0) / 2 = 5.0.
  rl below closest after edge 1: seed 1 (1.8 < 1.9) yes, seed 2 (1.98 < 1.87) no: 1 of 2;
  after edge 2: 1.6 < 1.7, 1.76 < 1.87: 2 of 2.
labelling: propagation d = 5 (seeds 1, 2: 0.90, 0.80; 1000 PCA bytes each), d = 50
  (seeds 1, 2: 0.95, 0.93; 10000 and 12000 bytes), mlp (seeds 1, 2: 0.96, 0.90; no
  gdPcaBytes; given d = 50): rows d = 5, 50, then mlp with an empty d; means 0.8500,
  0.9400, 0.9300; PCA bytes 1000, 11000, 0.
downstream (labeller, graph, seed: labelling accuracy, W1 after, final accuracy):
  propagation rl 1: 0.90, 1.8, 0.72; rl 2: 0.90, 2.0, 0.74; none 1: 0.90, 2.4, 0.71;
  none 2: 0.90, 2.4, 0.75; mlp rl 1: 0.92, 1.7, 0.73; rl 2: 0.94, 1.9, 0.77; mlp closest
  1: 0.91, 2.3, 0.70. Rows propagation rl, none, then mlp rl, closest: labelling 0.9000,
  0.9000, 0.9300, 0.9100; W1 1.900, 2.400, 1.800, 2.300; final 0.730, 0.730, 0.750, 0.700;
  highest of its labeller on seeds: propagation rl seed 1 only (1 of 2), none seed 2 only
  (1 of 2), mlp rl both (2 of 2), closest none (0 of 1). Supervised runs (no paradigm
  given): rl seeds 1, 2: W1 1.8, 1.6, final 0.72, 0.74; none: 2.4, 2.2, 0.70, 0.75: labeller
  "-", labelling accuracy empty, W1 1.700 and 2.300, final 0.730 and 0.725, 1 of 2 each;
  mixed with the semi-supervised runs: refused.
downstream-ci (supervised; graph, seed: W1 after, final accuracy): rl 1, 2, 3: W1 1.7,
  1.8, 1.9, final 0.72, 0.74, 0.76; none 1, 2, 3: W1 2.3, final 0.70, 0.71, 0.75; closest 1:
  W1 2.0, final 0.73. rl: W1 1.800, mean 0.740, sd 0.02, half-width t(0.975, 2) = 4.303 x
  0.02 / sqrt 3 = 0.0497: 0.690 to 0.790. none: W1 2.300, mean 0.720, sd sqrt(0.0014 / 2) =
  0.02646, half-width 0.0657: 0.654 to 0.786; rl minus none (points) 2, 3, 1: +2.00, sd 1,
  half-width 4.303 / sqrt 3 = 2.484: -0.48 to +4.48, rl above 3 of 3. closest: one run, no
  interval; rl minus it 0.72 - 0.73: -1.00, no interval (one shared seed), 0 of 1. The
  quantile table: df 35 takes df 30's 2.042, df 200 1.960; with scipy, each tabulated
  quantile within 0.0005 of scipy's. A semi-supervised run is refused.
regression (--dataset=polynomial; seed: W1 before, after, points moved, final test MSE):
  rl 1: 0.8, 0.70, 16, 0.13; rl 2: 0.75, 0.72, 17, 2.5; none 1: 0.8, 0.80, 0, 0.15;
  none 2: 0.75, 0.68, 0, 1.9 (below rl): rows rl, none; W1 after 0.710 and 0.740; least
  on seeds 1 of 2 each; per-seed columns 0.80/0.75, 0.700/0.720, 16/17, 0.130/2.500 and
  0.80/0.75, 0.800/0.680, 0/0, 0.150/1.900. A run of another data set is refused.
scaling (rewardSharing, N, areaSideM: RL energy, P_D): cluster-head 10, 63: 0.02, 0.1;
  cluster-head 20, 89: 0.05, 0.2; multicast 10, 63: 0.04, 0.3; multicast 20, 89: 0.06,
  0.4 (sides differ: constant density, allowed): rows cluster-head, multicast; energies
  0.02000/0.05000 and 0.04000/0.06000, ratios 2.50 and 1.50.
targets (graph, seed: targetsReached 0.6 and 0.7 as (round, energyJ); RL + exchange D2D
  energy; D2S tx + rx): rl 1: (7, 81.2), (15, 173.4); 0.2 + 0.3; 180 + 20: rows give
  rounds 7 and 15, energies 81 and 173, discovery 0.500 J, 0.25 %; none 1: (8, 90.0), not
  reached; no discovery energy; 150 + 50: 8, 90, "not reached", "", 0.000, 0.00. A run
  without targetsReached is refused.

Then bad input: a missing folder, a folder without run.json, an unparsable run.json, a run
of the other paradigm, two runs in one row that differ in another flag, a seed twice in one
row and a run without the per-edge W1 each exit 2 with one stderr line and leave --out
unwritten. Run it directly: /usr/bin/python3 tests/analysis/test_discovery_tables.py"""

import csv
import json
import os
import sys
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "discovery_tables.py")
# the scripts import the d2dlearn_analysis package beside them
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
PY = "/usr/bin/python3"


def make_run(path, seed, params, results, flags=""):
    os.makedirs(path)
    line = " ".join("--%s=%s" % (k, v) for k, v in params.items())
    params = dict(params, commandLine="%s --seed=%d --outDir=%s --quiet=true %s"
                  % (line, seed, path, flags))
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params, "summary": {"results": results}}, fh)
    return path


def edge_run(tmp, graph, q, seed, w, flags=""):
    return make_run(os.path.join(tmp, "%s-q%d-s%d" % (graph, q, seed)), seed,
                    {"paradigm": "unsupervised", "graph": graph, "requestPoints": q},
                    {"gdMeanW1ToUniformPerEdge": w}, flags)


def label_run(tmp, labeller, d, seed, unl, acc, pca=None):
    results = {"gdLabellingMeanUnlabelledAccuracy": unl, "gdLabellingMeanAccuracy": acc}
    if pca is not None:
        results["gdPcaBytes"] = pca
    return make_run(os.path.join(tmp, "%s-d%d-s%d" % (labeller, d, seed)), seed,
                    {"paradigm": "semi-supervised", "graph": "none", "labeller": labeller,
                     "pcaDims": d}, results)


def table(kind, runs, out=None):
    """(the process, the rows of --out) of discovery_tables.py KIND RUNS [--out OUT]."""
    proc = subprocess.run([PY, SCRIPT, kind] + runs + (["--out", out] if out else []),
                          capture_output=True, text=True)
    rows = []
    if proc.returncode == 0 and out:
        with open(out) as fh:
            rows = list(csv.DictReader(fh))
    return proc, rows


class DiscoveryTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name
        e = os.path.join(self.tmp, "edges")
        self.runs = [edge_run(e, "closest", 100, 1, [2.0, 1.9, 1.7]),
                     edge_run(e, "rl", 200, 1, [2.0, 1.5, 1.4]),
                     edge_run(e, "rl", 100, 2, [2.2, 1.98, 1.76]),
                     edge_run(e, "closest", 100, 2, [2.2, 1.87, 1.87]),
                     edge_run(e, "rl", 100, 1, [2.0, 1.8, 1.6])]
        s = os.path.join(self.tmp, "semi")
        self.lruns = [label_run(s, "mlp", 50, 2, 0.90, 0.91),
                      label_run(s, "propagation", 50, 1, 0.95, 0.96, 10000),
                      label_run(s, "propagation", 5, 2, 0.80, 0.85, 1000),
                      label_run(s, "mlp", 50, 1, 0.96, 0.97),
                      label_run(s, "propagation", 50, 2, 0.93, 0.94, 12000),
                      label_run(s, "propagation", 5, 1, 0.90, 0.91, 1000)]

    def tearDown(self):
        self.dir.cleanup()

    def test_edges(self):
        out = os.path.join(self.tmp, "edges.csv")
        proc, rows = table("edges", self.runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(out) as fh:
            header = fh.readline().strip()
        self.assertEqual(header, "Q,graph,seeds,runs,W1 before,W1 after edge 1,"
                         "W1 after edge 2,fall edge 1 (% of before),fall edge 2 (% of before),"
                         "rl below it after edge 1,rl below it after edge 2")
        got = [list(r.values()) for r in rows]
        self.assertEqual(got, [
            ["100", "rl", "1, 2", "2", "2.100", "1.890", "1.680", "10.0", "10.0", "", ""],
            ["100", "closest", "1, 2", "2", "2.100", "1.885", "1.785", "10.0", "5.0",
             "1 of 2", "2 of 2"],
            ["200", "rl", "1", "1", "2.000", "1.500", "1.400", "25.0", "5.0", "", ""]])

    def test_edges_to_stdout_and_seed_range(self):
        proc, _ = table("edges", [self.runs[2], self.runs[4]])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('100,rl,"1, 2",2,2.100,1.890,1.680,10.0,10.0,,', proc.stdout)
        seq = [edge_run(os.path.join(self.tmp, "seq"), "rl", 100, k, [2.0, 1.0, 0.5])
               for k in (1, 2, 3)]
        proc, _ = table("edges", seq)
        self.assertIn("100,rl,1-3,3,2.000,1.000,0.500,50.0,25.0,,", proc.stdout)

    def test_labelling(self):
        out = os.path.join(self.tmp, "labelling.csv")
        proc, rows = table("labelling", self.lruns, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["labeller", "d", "seeds", "runs", "seed 1", "seed 2",
                                         "mean unlabelled accuracy", "mean accuracy",
                                         "PCA bytes"])
        self.assertEqual([list(r.values()) for r in rows], [
            ["propagation", "5", "1, 2", "2", "0.9000", "0.8000", "0.8500", "0.8800", "1000"],
            ["propagation", "50", "1, 2", "2", "0.9500", "0.9300", "0.9400", "0.9500",
             "11000"],
            ["mlp", "", "1, 2", "2", "0.9600", "0.9000", "0.9300", "0.9400", "0"]])

    def test_downstream(self):
        d = os.path.join(self.tmp, "down")

        def run(labeller, graph, seed, lab, w1, acc):
            return make_run(os.path.join(d, "%s-%s-s%d" % (labeller, graph, seed)), seed,
                            {"paradigm": "semi-supervised", "graph": graph,
                             "labeller": labeller},
                            {"gdLabellingMeanUnlabelledAccuracy": lab,
                             "gdMeanW1ToUniformAfter": w1, "finalAccuracy": acc})

        runs = [run("mlp", "closest", 1, 0.91, 2.3, 0.70),
                run("propagation", "none", 2, 0.90, 2.4, 0.75),
                run("mlp", "rl", 2, 0.94, 1.9, 0.77),
                run("propagation", "rl", 1, 0.90, 1.8, 0.72),
                run("propagation", "none", 1, 0.90, 2.4, 0.71),
                run("mlp", "rl", 1, 0.92, 1.7, 0.73),
                run("propagation", "rl", 2, 0.90, 2.0, 0.74)]
        out = os.path.join(self.tmp, "downstream.csv")
        proc, rows = table("downstream", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["labeller", "graph", "seeds", "runs",
                                         "labelling accuracy", "W1 after", "final accuracy",
                                         "final accuracy per seed", "highest on seeds"])
        self.assertEqual([list(r.values()) for r in rows], [
            ["propagation", "rl", "1, 2", "2", "0.9000", "1.900", "0.730", "0.720/0.740",
             "1 of 2"],
            ["propagation", "none", "1, 2", "2", "0.9000", "2.400", "0.730", "0.710/0.750",
             "1 of 2"],
            ["mlp", "rl", "1, 2", "2", "0.9300", "1.800", "0.750", "0.730/0.770", "2 of 2"],
            ["mlp", "closest", "1", "1", "0.9100", "2.300", "0.700", "0.700", "0 of 1"]])
        bare = make_run(os.path.join(d, "bare"), 3,
                        {"paradigm": "semi-supervised", "graph": "rl", "labeller": "mlp"},
                        {"gdLabellingMeanUnlabelledAccuracy": 0.9,
                         "gdMeanW1ToUniformAfter": 2.0})
        self.refused("downstream", runs + [bare], "finalAccuracy is missing")
        self.refused("downstream", runs + self.runs[:1], "paradigm is unsupervised")
        sup = [make_run(os.path.join(d, "sup-%s-%d" % (g, k)), k,
                        {"graph": g}, {"gdMeanW1ToUniformAfter": w, "finalAccuracy": a})
               for g, k, w, a in (("none", 1, 2.4, 0.70), ("rl", 1, 1.8, 0.72),
                                  ("rl", 2, 1.6, 0.74), ("none", 2, 2.2, 0.75))]
        proc, rows = table("downstream", sup, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([list(r.values()) for r in rows], [
            ["-", "rl", "1, 2", "2", "", "1.700", "0.730", "0.720/0.740", "1 of 2"],
            ["-", "none", "1, 2", "2", "", "2.300", "0.725", "0.700/0.750", "1 of 2"]])
        self.refused("downstream", runs + sup, "one table holds one paradigm")

    def test_downstream_ci(self):
        d = os.path.join(self.tmp, "ci")

        def run(graph, seed, w1, acc):
            return make_run(os.path.join(d, "%s-s%d" % (graph, seed)), seed, {"graph": graph},
                            {"gdMeanW1ToUniformAfter": w1, "finalAccuracy": acc})

        runs = [run("none", 2, 2.3, 0.71), run("rl", 3, 1.9, 0.76), run("closest", 1, 2.0, 0.73),
                run("rl", 1, 1.7, 0.72), run("none", 1, 2.3, 0.70), run("none", 3, 2.3, 0.75),
                run("rl", 2, 1.8, 0.74)]
        out = os.path.join(self.tmp, "ci.csv")
        proc, rows = table("downstream-ci", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["setting", "graph", "seeds", "runs", "W1 after",
                                         "final accuracy", "final accuracy 95 % CI",
                                         "rl minus it (points)", "rl minus it 95 % CI (points)",
                                         "rl above on seeds"])
        expected = [
            ["", "rl", "1-3", "3", "1.800", "0.740", "0.690 to 0.790", "", "", ""],
            ["", "closest", "1", "1", "2.000", "0.730", "", "-1.00", "", "0 of 1"],
            ["", "none", "1-3", "3", "2.300", "0.720", "0.654 to 0.786", "+2.00",
             "-0.48 to +4.48", "3 of 3"]]
        self.assertEqual([list(r.values()) for r in rows], expected)
        # A second setting (--rounds=60 on rl and none, seeds 1 and 2: 0.80/0.82 against
        # 0.79/0.80; the others do not give --rounds): its own rows, paired within it. rl
        # 0.810, sd 0.01414, half-width t(0.975, 1) = 12.706 x 0.01414 / sqrt 2 = 0.127:
        # 0.683 to 0.937; none 0.795, 0.731 to 0.859; rl minus none 1 and 2 points: +1.50,
        # 12.706 x 0.7071 / sqrt 2 = 6.353: -4.85 to +7.85.
        d = os.path.join(self.tmp, "ci60")
        more = [make_run(os.path.join(d, "%s-s%d" % (g, k)), k, {"graph": g, "rounds": 60},
                         {"gdMeanW1ToUniformAfter": 2.0, "finalAccuracy": a})
                for g, k, a in (("rl", 1, 0.80), ("rl", 2, 0.82), ("none", 1, 0.79),
                                ("none", 2, 0.80))]
        proc, rows = table("downstream-ci", runs + more, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([list(r.values()) for r in rows], expected + [
            ["--rounds=60", "rl", "1, 2", "2", "2.000", "0.810", "0.683 to 0.937", "", "",
             ""],
            ["--rounds=60", "none", "1, 2", "2", "2.000", "0.795", "0.731 to 0.859", "+1.50",
             "-4.85 to +7.85", "2 of 2"]])
        semi = make_run(os.path.join(d, "semi"), 4, {"paradigm": "semi-supervised",
                                                     "graph": "rl"},
                        {"gdMeanW1ToUniformAfter": 1.0, "finalAccuracy": 0.7})
        self.refused("downstream-ci", runs + [semi], "this table is of supervised runs")

    def test_t_quantiles(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location("discovery_tables", SCRIPT)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        # The one implementation (analysis/stats.py): the exact quantiles (as t tables give them),
        # where the former table gave 2.042 at 35 and 1.960 at 200.
        self.assertAlmostEqual(mod.t975(35), 2.030107928, places=8)
        self.assertAlmostEqual(mod.t975(200), 1.971896224, places=8)
        self.assertAlmostEqual(mod.t975(9), 2.262157163, places=8)

    def test_unsupervised_downstream(self):
        d = os.path.join(self.tmp, "unsup")

        def run(opt, lr, rounds, graph, seed, w1, acc):
            return make_run(os.path.join(d, "%s-%s-s%d" % (opt, graph, seed)), seed,
                            {"paradigm": "unsupervised", "graph": graph, "optimizer": opt,
                             "learningRate": lr, "rounds": rounds},
                            {"gdMeanW1ToUniformAfter": w1, "finalAccuracy": acc})

        runs = [run("sgd", "0.05", 5, "rl", 2, 1.7, 0.678),
                run("adam", "0.001", 10, "none", 1, 2.56, 0.674),
                run("adam", "0.001", 10, "rl", 1, 2.08, 0.689),
                run("sgd", "0.05", 5, "none", 1, 2.56, 0.689),
                run("adam", "0.001", 10, "rl", 2, 1.72, 0.697),
                run("sgd", "0.05", 5, "rl", 1, 2.08, 0.658),
                run("adam", "0.001", 10, "none", 2, 2.02, 0.686),
                run("sgd", "0.05", 5, "none", 2, 2.02, 0.675)]
        out = os.path.join(self.tmp, "unsup.csv")
        proc, rows = table("unsupervised-downstream", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Gains by hand: adam (0.689 - 0.674 + 0.697 - 0.686) / 2 = +0.013 -> +1.3 points;
        # sgd (0.658 - 0.689 + 0.678 - 0.675) / 2 = -0.014 -> -1.4.
        self.assertEqual([list(r.values()) for r in rows], [
            ["adam", "0.001", "10", "rl", "1, 2", "2", "2.080/1.720", "1.900", "0.689/0.697",
             "0.693", "2 of 2", "+1.3"],
            ["adam", "0.001", "10", "none", "1, 2", "2", "2.560/2.020", "2.290",
             "0.674/0.686", "0.680", "", ""],
            ["sgd", "0.05", "5", "rl", "1, 2", "2", "2.080/1.700", "1.890", "0.658/0.678",
             "0.668", "1 of 2", "-1.4"],
            ["sgd", "0.05", "5", "none", "1, 2", "2", "2.560/2.020", "2.290", "0.689/0.675",
             "0.682", "", ""]])
        self.refused("unsupervised-downstream", runs + self.lruns[:1], "paradigm is")
        bare = make_run(os.path.join(d, "bare"), 3,
                        {"paradigm": "unsupervised", "graph": "rl", "optimizer": "sgd",
                         "learningRate": "0.05", "rounds": 5},
                        {"gdMeanW1ToUniformAfter": 2.0})
        self.refused("unsupervised-downstream", runs + [bare], "finalAccuracy is missing")

    def test_regression(self):
        d = os.path.join(self.tmp, "reg")

        def run(graph, seed, before, after, moved, mse):
            return make_run(os.path.join(d, "%s-s%d" % (graph, seed)), seed,
                            {"dataset": "polynomial", "graph": graph},
                            {"gdMeanW1ToUniformBefore": before,
                             "gdMeanW1ToUniformAfter": after, "gdPointsMoved": moved,
                             "finalTestMse": mse})

        runs = [run("none", 2, 0.75, 0.68, 0, 1.9), run("rl", 1, 0.8, 0.70, 16, 0.13),
                run("none", 1, 0.8, 0.80, 0, 0.15), run("rl", 2, 0.75, 0.72, 17, 2.5)]
        out = os.path.join(self.tmp, "regression.csv")
        proc, rows = table("regression", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["graph", "seeds", "runs", "W1 before per seed",
                                         "W1 after per seed", "W1 after",
                                         "least W1 after on seeds", "points moved per seed",
                                         "final test MSE per seed"])
        self.assertEqual([list(r.values()) for r in rows], [
            ["rl", "1, 2", "2", "0.80/0.75", "0.700/0.720", "0.710", "1 of 2", "16/17",
             "0.130/2.500"],
            ["none", "1, 2", "2", "0.80/0.75", "0.800/0.680", "0.740", "1 of 2", "0/0",
             "0.150/1.900"]])
        self.refused("regression", runs + self.runs[:1], "parameters.dataset is None")

    def test_scaling(self):
        d = os.path.join(self.tmp, "scaling")
        runs = [make_run(os.path.join(d, "%s-%d" % (share, n)), 1,
                         {"graph": "rl", "rewardSharing": share, "nDevices": n,
                          "areaSideM": side}, {"gdRlEnergyJ": e, "gdMeanLinkPDrop": pd})
                for share, n, side, e, pd in (("multicast", 20, 89, 0.06, 0.4),
                                              ("cluster-head", 10, 63, 0.02, 0.1),
                                              ("multicast", 10, 63, 0.04, 0.3),
                                              ("cluster-head", 20, 89, 0.05, 0.2))]
        out = os.path.join(self.tmp, "scaling.csv")
        proc, rows = table("scaling", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["rewardSharing", "seeds", "RL energy N=10 (J)",
                                         "RL energy N=20 (J)", "N=20 / N=10", "mean P_D N=10",
                                         "mean P_D N=20"])
        self.assertEqual([list(r.values()) for r in rows], [
            ["cluster-head", "1", "0.02000", "0.05000", "2.50", "0.100", "0.200"],
            ["multicast", "1", "0.04000", "0.06000", "1.50", "0.300", "0.400"]])

    def test_targets(self):
        d = os.path.join(self.tmp, "targets")

        def run(graph, reached, rl, d2s):
            path = make_run(os.path.join(d, graph), 1, {"graph": graph},
                            dict({"targetsReached": [
                                {"target": t, "round": r, "energyJ": e}
                                for t, r, e in reached]}, **rl))
            with open(os.path.join(path, "run.json")) as fh:
                doc = json.load(fh)
            doc["summary"]["energy_j"] = {"d2s_tx": d2s[0], "d2s_rx": d2s[1]}
            with open(os.path.join(path, "run.json"), "w") as fh:
                json.dump(doc, fh)
            return path

        runs = [run("none", [(0.6, 8, 90.0), (0.7, None, None)], {}, (150, 50)),
                run("rl", [(0.6, 7, 81.2), (0.7, 15, 173.4)],
                    {"gdRlEnergyJ": 0.2, "gdExchangeEnergyJ": 0.3}, (180, 20))]
        out = os.path.join(self.tmp, "targets.csv")
        proc, rows = table("targets", runs, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(rows[0]), ["graph", "seed", "round to 60 %",
                                         "energy to 60 % (J)", "round to 70 %",
                                         "energy to 70 % (J)", "discovery energy (J)",
                                         "discovery share of D2S energy (%)"])
        self.assertEqual([list(r.values()) for r in rows], [
            ["rl", "1", "7", "81", "15", "173", "0.500", "0.25"],
            ["none", "1", "8", "90", "not reached", "", "0.000", "0.00"]])
        self.refused("targets", runs + self.runs[:1], "targetsReached is missing")

    def refused(self, kind, runs, words):
        out = os.path.join(self.tmp, "bad.csv")
        proc, _ = table(kind, runs, out)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn(words, proc.stderr)
        self.assertFalse(os.path.exists(out))

    def test_bad_input(self):
        self.refused("edges", self.runs + [os.path.join(self.tmp, "nope")],
                     "run folder not found")
        os.makedirs(os.path.join(self.tmp, "empty"))
        self.refused("edges", [os.path.join(self.tmp, "empty")], "missing run.json")
        self.refused("edges", self.runs + self.lruns[:1], "paradigm is semi-supervised")
        other = edge_run(os.path.join(self.tmp, "other"), "rl", 100, 3, [2.0, 1.9, 1.8],
                         flags="--clusters=5")
        self.refused("edges", self.runs + [other], "--clusters differs")
        twice = edge_run(os.path.join(self.tmp, "twice"), "rl", 100, 1, [2.0, 1.9, 1.8])
        self.refused("edges", self.runs + [twice], "seed 1 twice")
        no_w = make_run(os.path.join(self.tmp, "now"), 1,
                        {"paradigm": "unsupervised", "graph": "rl", "requestPoints": 100}, {})
        self.refused("edges", [no_w], "gdMeanW1ToUniformPerEdge is missing")
        self.refused("labelling", [no_w], "paradigm is unsupervised")
        with open(os.path.join(self.lruns[0], "run.json"), "w") as fh:
            fh.write("{not json")
        self.refused("labelling", self.lruns, "cannot parse")


if __name__ == "__main__":
    unittest.main()
