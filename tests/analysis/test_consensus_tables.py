#!/usr/bin/python3
"""Test of analysis/consensus_tables.py (the manual's heterogeneous-model tables of the
consensus page, sec. 5.2) on hand-made consensus run folders: 4 agents,
--model=mlp:8,logistic --modelAssignment=blocks (agents 0, 1 the MLP, 2, 3 logistic);
rounds.csv at rounds 1 and 2 (only round 2, the last, counts), against tables worked out by
hand:

  hetero, final test accuracy (agents 0, 1, 2, 3):
    local seed 1: 0.60 0.70 0.50 0.40: all 0.55, mlp 0.65, logistic 0.45
    local seed 2: 0.80 0.70 0.60 0.42: all 0.63, mlp 0.75, logistic 0.51
      -> local: all 0.590 (0.550/0.630), mlp 0.700 (0.650/0.750), logistic 0.480
    dynamic seed 1: 0.72 0.76 0.66 0.62: all 0.69, mlp 0.74, logistic 0.64
    dynamic seed 2: 0.80 0.76 0.70 0.66: all 0.73, mlp 0.78, logistic 0.68
      -> dynamic: all 0.710, mlp 0.760, logistic 0.660
  rows all, then mlp:8 (agents 0-1), logistic (2-3); columns local before dynamic (given in
  another order).

  hetero-trust, dynamic runs only (local has no trust), trust.csv rounds 4-7: the middle
  round is 5 (the earlier of 5 and 6); in round 5 (w of node to peer):
    0->0 0.4 (left out), 0->1 0.3, 0->2 0.2, 0->3 0.1; 1->0 0.25, 1->2 0.15, 1->3 0.2;
    2->0 0.1, 2->1 0.1, 2->3 0.5; 3->0 0.2, 3->1 0.2, 3->2 0.3; every other round 0.9:
    mlp to mlp (0.3 + 0.25) / 2 = 0.2750, mlp to logistic 0.65 / 4 = 0.1625,
    logistic to mlp 0.6 / 4 = 0.1500, logistic to logistic (0.5 + 0.3) / 2 = 0.4000.

polynomial (App. A.1's toy), one run of 2 agents, X* at x = -1, 0, 1 with f = 0 there;
coefficients.csv rounds 1, 2, 3 (only the first and last count):
  round 1: agent 0 p = 1, agent 1 p = x: values [1, 1, 1] and [-1, 0, 1]; MSE to f 1 and
    2/3 (mean 5/6: 0.8333); mean prediction [0, 0.5, 1], disagreement (1 + 0.25 + 1 +
    0.25) / 6 = 0.4167.
  round 3: both p = 0.1: MSE 0.01 each, disagreement 0.

boundary (sec. 5.1's toy), one run of 3 agents, agent 2 flipped (left out), a grid of the
four class means (nearest-mean classes 0, 1, 2, 3): round 5 agent 0 predicts 0, 1, 2, 3
(100.0 %), agent 1 0, 1, 0, 0 (50.0 %); round 20: agent 0 0, 1, 2, 0 (75.0 %), agent 1 0, 1,
2, 3 (100.0 %); test accuracy (rounds.csv) 0.8, 0.6 at round 5 and 0.9, 0.7 at round 20:
mean rows 75.0 % and 0.700, 87.5 % and 0.800.

trust-columns, a dynamic run of 3 agents, agent 1 flipped, consensus.csv rounds 4, 5, 6
(middle 5): column sums without the diagonal in round 5 0.9, 0.3, 0.8: flipped "1: 0.300",
lowest "1", others 0.800-0.900; tr(W) 2.5 in round 4, 1.25 in round 6; product delta 0.5
and 2e-05; disagreement 0.3 and 0.1; a local run beside it (no consensus.csv) is left out.

bytes (node -1's bytes_sent per round; round 0 left out): fedavg seed 1 rounds 1, 2: 500,
700 (round 0: 9999, ignored); dynamic seed 1 rounds 1-3: 0, 120, 100: rows fedavg (2
rounds, 0 silent, last 700, most 700), then dynamic (3, 1, 100, 120); a local run (no
bytes_sent rows, rounds 1, 2) between them: 2, 2, 0, 0.

Then bad input: a run with another --rounds, a seed twice for one method, a run with one
model, a run without rounds.csv and a missing folder each exit 2 with one stderr line and
leave the table unwritten.

Run it directly: /usr/bin/python3 tests/analysis/test_consensus_tables.py"""

import csv
import json
import os
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "consensus_tables.py")
PY = "/usr/bin/python3"
MIDDLE = {(0, 0): 0.4, (0, 1): 0.3, (0, 2): 0.2, (0, 3): 0.1, (1, 0): 0.25, (1, 1): 0.4,
          (1, 2): 0.15, (1, 3): 0.2, (2, 0): 0.1, (2, 1): 0.1, (2, 2): 0.2, (2, 3): 0.5,
          (3, 0): 0.2, (3, 1): 0.2, (3, 2): 0.3, (3, 3): 0.3}


def make_run(path, method, seed, final, model="mlp:8,logistic", extra="", rounds=True):
    """A consensus run folder: final is [accuracy of agent 0..3 at round 2]; consensus runs
    (method not local) get trust.csv with MIDDLE in round 5, 0.9 in rounds 4, 6, 7."""
    os.makedirs(path)
    algorithm = "local" if method == "local" else "consensus"
    line = ("--dataFraction=0.1 --rounds=2 --model=%s --modelAssignment=blocks --nDevices=4 "
            "--threads=1 --quiet=true %s--algorithm=%s --trust=%s --seed=%d --outDir=%s"
            % (model, extra + " " if extra else "", algorithm,
               "naive" if method == "local" else method, seed, path))
    params = {"commandLine": line, "algorithm": algorithm,
              "trust": "naive" if method == "local" else method, "model": model,
              "modelAssignment": "blocks", "nDevices": 4, "flippedDevices": []}
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params}, fh)
    if rounds:
        with open(os.path.join(path, "rounds.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["round", "sim_time_s", "node", "metric", "value"])
            for rnd in (1, 2):
                for node, value in enumerate(final):
                    w.writerow([rnd, "%.1f" % rnd, node, "accuracy",
                                value if rnd == 2 else 0.1])
                    w.writerow([rnd, "%.1f" % rnd, node, "loss", 1.0])
                w.writerow([rnd, "%.1f" % rnd, -1, "bytes_sent", 1000])
    if method != "local":
        with open(os.path.join(path, "trust.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["round", "sim_time_s", "node", "peer", "w", "received"])
            for rnd in (4, 5, 6, 7):
                for (node, peer), weight in sorted(MIDDLE.items()):
                    w.writerow([rnd, "%.1f" % rnd, node, peer, weight if rnd == 5 else 0.9,
                                "fresh"])
    return path


def table(kind, runs, out):
    """(the process, the rows of the table) of consensus_tables.py KIND RUNS --out OUT."""
    proc = subprocess.run([PY, SCRIPT, kind] + runs + ["--out", out], capture_output=True,
                          text=True)
    rows = []
    if proc.returncode == 0:
        with open(out) as fh:
            rows = list(csv.reader(fh))
    return proc, rows


def write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def make_toy(path, model, n, flipped=(), trust="naive"):
    os.makedirs(path)
    line = ("--model=%s --nDevices=%d --trust=%s --seed=1 --outDir=%s"
            % (model, n, trust, path))
    params = {"commandLine": line, "algorithm": "consensus", "trust": trust, "model": model,
              "nDevices": n, "flippedDevices": list(flipped)}
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": 1, "parameters": params}, fh)
    return path


class ToyTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name
        self.out = os.path.join(self.tmp, "table.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_polynomial_worked_by_hand(self):
        run = make_toy(os.path.join(self.tmp, "poly"), "poly:1", 2)
        write_csv(os.path.join(run, "samples.csv"), ["set", "node", "x", "y"],
                  [["train", 0, -2, 5], ["xstar", -1, -1, 0], ["xstar", -1, 0, 0],
                   ["xstar", -1, 1, 0]])
        coef = {1: {0: (1, 0), 1: (0, 1)}, 2: {0: (7, 7), 1: (7, 7)},
                3: {0: (0.1, 0), 1: (0.1, 0)}}
        write_csv(os.path.join(run, "coefficients.csv"),
                  ["round", "sim_time_s", "node", "power", "coefficient"],
                  [[rnd, rnd, node, e, c[e]] for rnd in coef for node, c in coef[rnd].items()
                   for e in (0, 1)])
        proc, rows = table("polynomial", [run], self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(rows, [
            ["method", "seed", "round", "agent", "c0", "c1", "MSE to f on X*",
             "disagreement on X*"],
            ["naive", "1", "1", "0", "1", "0", "1", "0.4167"],
            ["naive", "1", "1", "1", "0", "1", "0.6667", "0.4167"],
            ["naive", "1", "1", "mean", "", "", "0.8333", "0.4167"],
            ["naive", "1", "3", "0", "0.1", "0", "0.01", "0"],
            ["naive", "1", "3", "1", "0.1", "0", "0.01", "0"],
            ["naive", "1", "3", "mean", "", "", "0.01", "0"]])

    def test_boundary_worked_by_hand(self):
        run = make_toy(os.path.join(self.tmp, "gm"), "mlp:5x10", 3, flipped=[2],
                       trust="dynamic")
        grid = [(-2, 2), (2, 2), (-2, -2), (2, -2)]
        classes = {(5, 0): [0, 1, 2, 3], (5, 1): [0, 1, 0, 0], (5, 2): [3, 3, 3, 3],
                   (20, 0): [0, 1, 2, 0], (20, 1): [0, 1, 2, 3], (20, 2): [1, 1, 1, 1]}
        write_csv(os.path.join(run, "boundary.csv"), ["round", "node", "x1", "x2", "class"],
                  [[rnd, node, x1, x2, c] for (rnd, node), cs in sorted(classes.items())
                   for (x1, x2), c in zip(grid, cs)])
        acc = {(5, 0): 0.8, (5, 1): 0.6, (5, 2): 0.1, (20, 0): 0.9, (20, 1): 0.7,
               (20, 2): 0.1}
        write_csv(os.path.join(run, "rounds.csv"), ["round", "sim_time_s", "node", "metric",
                                                    "value"],
                  [[rnd, rnd, node, "accuracy", a] for (rnd, node), a in sorted(acc.items())]
                  + [[20, 20, -1, "accuracy", 0.5]])
        proc, rows = table("boundary", [run], self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(rows, [
            ["method", "seed", "round", "agent", "nearest-mean agreement (% of grid)",
             "test accuracy"],
            ["dynamic", "1", "5", "0", "100.0", "0.800"],
            ["dynamic", "1", "5", "1", "50.0", "0.600"],
            ["dynamic", "1", "5", "mean", "75.0", "0.700"],
            ["dynamic", "1", "20", "0", "75.0", "0.900"],
            ["dynamic", "1", "20", "1", "100.0", "0.700"],
            ["dynamic", "1", "20", "mean", "87.5", "0.800"]])
        os.remove(os.path.join(run, "boundary.csv"))
        proc, _ = table("boundary", [run], self.out)
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertIn("boundary.csv", proc.stderr)


class TrustColumns(unittest.TestCase):
    def test_worked_by_hand(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = make_toy(os.path.join(tmp, "dyn"), "mlp:8", 3, flipped=[1], trust="dynamic")
            local = make_toy(os.path.join(tmp, "local"), "mlp:8", 3, flipped=[1],
                             trust="naive")
            with open(os.path.join(local, "run.json")) as fh:
                doc = json.load(fh)
            doc["parameters"]["algorithm"] = "local"
            doc["parameters"]["commandLine"] += " --algorithm=local"
            with open(os.path.join(local, "run.json"), "w") as fh:
                json.dump(doc, fh)
            # (--algorithm and --trust are the method: the two runs may differ in them)
            header = ["round", "sim_time_s", "node", "column_sum_offdiag", "trace",
                      "product_delta", "disagreement"]
            per_round = {4: (2.5, 0.5, 0.3), 5: (2.0, 0.01, 0.2), 6: (1.25, 2e-05, 0.1)}
            sums = {4: [0.5, 0.5, 0.5], 5: [0.9, 0.3, 0.8], 6: [0.7, 0.1, 0.7]}
            write_csv(os.path.join(run, "consensus.csv"), header,
                      [[rnd, rnd, node, sums[rnd][node]] + list(per_round[rnd])
                       for rnd in (4, 5, 6) for node in range(3)])
            out = os.path.join(tmp, "t.csv")
            proc, rows = table("trust-columns", [local, run], out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(rows[1:], [
                ["dynamic", "1", "1", "5", "1: 0.300", "1", "0.800-0.900", "4", "6", "2.500",
                 "1.250", "0.5", "2e-05", "0.300", "0.100"]])


class BytesTable(unittest.TestCase):
    def test_worked_by_hand(self):
        with tempfile.TemporaryDirectory() as tmp:
            dyn = make_toy(os.path.join(tmp, "dyn"), "mlp:8", 3, trust="dynamic")
            fed = make_toy(os.path.join(tmp, "fed"), "mlp:8", 3)
            with open(os.path.join(fed, "run.json")) as fh:
                doc = json.load(fh)
            doc["parameters"]["algorithm"] = "fedavg"
            with open(os.path.join(fed, "run.json"), "w") as fh:
                json.dump(doc, fh)
            header = ["round", "sim_time_s", "node", "metric", "value"]
            write_csv(os.path.join(fed, "rounds.csv"), header,
                      [[0, 0, 0, "accuracy", 0.1], [0, 0, -1, "bytes_sent", 9999],
                       [1, 1, -1, "bytes_sent", 500], [1, 1, 0, "accuracy", 0.5],
                       [2, 2, -1, "bytes_sent", 700]])
            write_csv(os.path.join(dyn, "rounds.csv"), header,
                      [[1, 1, -1, "bytes_sent", 0], [2, 2, -1, "bytes_sent", 120],
                       [2, 2, 1, "bytes_sent", 999], [3, 3, -1, "bytes_sent", 100]])
            loc = make_toy(os.path.join(tmp, "loc"), "mlp:8", 3)
            with open(os.path.join(loc, "run.json")) as fh:
                doc = json.load(fh)
            doc["parameters"]["algorithm"] = "local"
            with open(os.path.join(loc, "run.json"), "w") as fh:
                json.dump(doc, fh)
            write_csv(os.path.join(loc, "rounds.csv"), header,
                      [[1, 1, 0, "accuracy", 0.5], [2, 2, 0, "accuracy", 0.6]])
            out = os.path.join(tmp, "b.csv")
            proc, rows = table("bytes", [dyn, loc, fed], out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(rows, [
                ["method", "seeds", "rounds", "rounds that sent nothing",
                 "bytes in the last round", "bytes per round, most"],
                ["fedavg", "1", "2", "0", "700", "700"],
                ["local", "1", "2", "2", "0", "0"],
                ["dynamic", "1", "3", "1", "100", "120"]])


class HeteroTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        t = self.tmp = self.dir.name
        self.runs = [
            make_run(os.path.join(t, "dynamic-2"), "dynamic", 2, [0.80, 0.76, 0.70, 0.66]),
            make_run(os.path.join(t, "local-1"), "local", 1, [0.60, 0.70, 0.50, 0.40]),
            make_run(os.path.join(t, "dynamic-1"), "dynamic", 1, [0.72, 0.76, 0.66, 0.62]),
            make_run(os.path.join(t, "local-2"), "local", 2, [0.80, 0.70, 0.60, 0.42]),
        ]
        self.out = os.path.join(t, "table.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_hetero_worked_by_hand(self):
        proc, rows = table("hetero", self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("wrote %s (3 rows)" % self.out, proc.stdout)
        self.assertEqual(rows, [
            ["agents", "model", "seeds", "local", "dynamic", "local per seed",
             "dynamic per seed"],
            ["all", "", "1, 2", "0.590", "0.710", "0.550/0.630", "0.690/0.730"],
            ["0-1", "mlp:8", "1, 2", "0.700", "0.760", "0.650/0.750", "0.740/0.780"],
            ["2-3", "logistic", "1, 2", "0.480", "0.660", "0.450/0.510", "0.640/0.680"],
        ])

    def test_hetero_trust_worked_by_hand(self):
        proc, rows = table("hetero-trust", self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        expect = [["method", "seed", "round", "from", "to", "mean weight", "pairs"]]
        for seed in ("1", "2"):
            expect += [["dynamic", seed, "5", "mlp:8", "mlp:8", "0.2750", "2"],
                       ["dynamic", seed, "5", "mlp:8", "logistic", "0.1625", "4"],
                       ["dynamic", seed, "5", "logistic", "mlp:8", "0.1500", "4"],
                       ["dynamic", seed, "5", "logistic", "logistic", "0.4000", "2"]]
        self.assertEqual(rows, expect)

    def assert_refused(self, kind, runs, words):
        proc, _ = table(kind, runs, self.out)
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        for w in words:
            self.assertIn(w, proc.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input(self):
        t = self.tmp
        other = make_run(os.path.join(t, "naive-1-rounds"), "naive", 1, [0.5] * 4,
                         extra="--rounds=3")
        self.assert_refused("hetero", self.runs + [other], ["--rounds differs"])
        twice = make_run(os.path.join(t, "local-1-again"), "local", 1, [0.5] * 4)
        self.assert_refused("hetero", self.runs + [twice], ["seed 1 twice for local"])
        single = make_run(os.path.join(t, "single"), "naive", 3, [0.5] * 4, model="mlp:8")
        self.assert_refused("hetero", self.runs + [single], ["one model"])
        bare = make_run(os.path.join(t, "naive-3"), "naive", 3, [0.5] * 4, rounds=False)
        self.assert_refused("hetero", self.runs + [bare], ["cannot read", "rounds.csv"])
        self.assert_refused("hetero", self.runs + [os.path.join(t, "nowhere")], ["nowhere"])
        locals_only = [r for r in self.runs if "local" in r]
        self.assert_refused("hetero-trust", locals_only, ["no consensus run"])


if __name__ == "__main__":
    unittest.main()
