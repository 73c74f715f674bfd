#!/usr/bin/python3
"""Test of analysis/plot_consensus.py --table (the manual's Table 1, mean over seeds and each
seed's value) on hand-made consensus run folders (run.json with its commandLine, rounds.csv
at rounds 1 and 2; only round 2, the last, counts), against a table worked out by hand:

  regular fedavg, seeds 1, 2: the global model (node -1) 0.80, 0.90 (round 1: 0.10):
    test 0.8500; no X* rows: X* empty.
  regular fedprox mu=0.01, seed 1: node -1 0.75: test 0.7500, seed 2 empty.
  regular consensus naive, seed 2 only: agents 0.4, 0.6, 0.8: test 0.6000; X* (agents
    0.5, 0.7, 0.9) 0.7000; the seed 1 columns empty.
  regular consensus dynamic, seeds 1, 2: seed 1 agents 0.6, 0.7, 0.8 -> 0.7000, seed 2
    0.5, 0.5, 0.8 -> 0.6000: test 0.6500; X* (each agent + 0.1) 0.8000, 0.7000: 0.7500.
  low quality (agent 1 flipped) consensus static, seed 1: agents 0.6, 0.1, 0.8: agent 1
    left out, test (0.6 + 0.8) / 2 = 0.7000; X* 0.8000.

Rows in Table 1's order: regular before low quality, then fedavg, fedprox, local,
consensus naive, static, dynamic (given to the script in another order). Then bad input:
two runs of one row that differ in --lambda, a seed twice in a row, a run without
accuracy rows and a missing folder each exit 2 with one stderr line and leave the table
unwritten.

Run it directly: /usr/bin/python3 tests/analysis/test_consensus_table.py"""

import csv
import json
import os
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "plot_consensus.py")
PY = "/usr/bin/python3"
HEADER = ["round", "sim_time_s", "node", "metric", "value"]


def make_run(path, algorithm, seed, final, trust="naive", flipped=(), mu=0, xstar=True,
             extra=""):
    """A run folder: final is {node: accuracy at round 2} (node -1: the global model);
    round 1 has 0.10 everywhere, X* accuracy (not for node -1) is accuracy + 0.1."""
    os.makedirs(path)
    flip = ("--flipList=%s" % ",".join(str(i) for i in flipped)) if flipped else ""
    line = ("--algorithm=%s --trust=%s --mu=%s --seed=%d --outDir=%s --quiet=true %s %s"
            % (algorithm, trust, mu, seed, path, flip, extra))
    params = {"commandLine": line, "algorithm": algorithm, "trust": trust, "mu": mu,
              "flippedDevices": list(flipped)}
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params}, fh)
    with open(os.path.join(path, "rounds.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        for rnd in (1, 2):
            for node, value in sorted(final.items()):
                v = value if rnd == 2 else 0.10
                w.writerow([rnd, "%.1f" % rnd, node, "accuracy", v])
                if xstar and node >= 0:
                    w.writerow([rnd, "%.1f" % rnd, node, "xstar_accuracy", v + 0.1])
    return path


def table(runs, out):
    """(the process, the rows of the table) of plot_consensus.py RUNS --table OUT."""
    proc = subprocess.run([PY, SCRIPT] + runs + ["--table", out], capture_output=True,
                          text=True)
    rows = []
    if proc.returncode == 0:
        with open(out) as fh:
            rows = list(csv.DictReader(fh))
    return proc, rows


class ConsensusTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name
        t = self.tmp
        self.runs = [
            make_run(os.path.join(t, "lowq-static-1"), "consensus", 1,
                     {0: 0.6, 1: 0.1, 2: 0.8}, trust="static", flipped=[1]),
            make_run(os.path.join(t, "dynamic-2"), "consensus", 2, {0: 0.5, 1: 0.5, 2: 0.8},
                     trust="dynamic"),
            make_run(os.path.join(t, "naive-2"), "consensus", 2, {0: 0.4, 1: 0.6, 2: 0.8}),
            make_run(os.path.join(t, "fedavg-2"), "fedavg", 2, {-1: 0.90}, xstar=False),
            make_run(os.path.join(t, "dynamic-1"), "consensus", 1, {0: 0.6, 1: 0.7, 2: 0.8},
                     trust="dynamic"),
            make_run(os.path.join(t, "fedprox-1"), "fedprox", 1, {-1: 0.75}, mu=0.01,
                     xstar=False),
            make_run(os.path.join(t, "fedavg-1"), "fedavg", 1, {-1: 0.80}, xstar=False),
        ]
        self.out = os.path.join(t, "table.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_table_worked_by_hand(self):
        proc, rows = table(self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("wrote %s (5 rows)" % self.out, proc.stdout)
        with open(self.out) as fh:
            header = next(csv.reader(fh))
        self.assertEqual(header, ["setting", "flipped agents", "algorithm", "trust", "seeds",
                                  "runs", "test accuracy", "test seed 1", "test seed 2",
                                  "X* accuracy", "X* seed 1", "X* seed 2"])
        got = [[r[c] for c in header] for r in rows]
        self.assertEqual(got, [
            ["regular", "", "fedavg", "", "1, 2", "2", "0.8500", "0.8000", "0.9000",
             "", "", ""],
            ["regular", "", "fedprox mu=0.01", "", "1", "1", "0.7500", "0.7500", "",
             "", "", ""],
            ["regular", "", "consensus", "naive", "2", "1", "0.6000", "", "0.6000",
             "0.7000", "", "0.7000"],
            ["regular", "", "consensus", "dynamic", "1, 2", "2", "0.6500", "0.7000",
             "0.6000", "0.7500", "0.8000", "0.7000"],
            ["low quality", "1", "consensus", "static", "1", "1", "0.7000", "0.7000", "",
             "0.8000", "0.8000", ""],
        ])
        # Three consecutive seeds are written as a range.
        make_run(os.path.join(self.tmp, "fedavg-3"), "fedavg", 3, {-1: 0.70}, xstar=False)
        proc, rows = table(self.runs + [os.path.join(self.tmp, "fedavg-3")], self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual((rows[0]["seeds"], rows[0]["runs"], rows[0]["test accuracy"]),
                         ("1-3", "3", "0.8000"))

    def assert_refused(self, runs, words):
        proc, _ = table(runs, self.out)
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        for w in words:
            self.assertIn(w, proc.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input(self):
        t = self.tmp
        other = make_run(os.path.join(t, "dynamic-3-lambda"), "consensus", 3,
                         {0: 0.5, 1: 0.5, 2: 0.5}, trust="dynamic", extra="--lambda=0.2")
        self.assert_refused(self.runs + [other], ["--lambda differs", "only runs that differ"])
        twice = make_run(os.path.join(t, "dynamic-1-again"), "consensus", 1,
                         {0: 0.5, 1: 0.5, 2: 0.5}, trust="dynamic")
        self.assert_refused(self.runs + [twice], ["seed 1 twice"])
        empty = os.path.join(t, "empty")
        os.makedirs(empty)
        with open(os.path.join(empty, "run.json"), "w") as fh:
            json.dump({"seed": 1, "parameters": {"algorithm": "local",
                                                 "commandLine": "--algorithm=local"}}, fh)
        with open(os.path.join(empty, "rounds.csv"), "w") as fh:
            fh.write(",".join(HEADER) + "\n1,1.0,0,loss,0.5\n")
        self.assert_refused(self.runs + [empty], ["no accuracy rows", "empty"])
        self.assert_refused(self.runs + [os.path.join(t, "nowhere")], ["nowhere"])


if __name__ == "__main__":
    unittest.main()
