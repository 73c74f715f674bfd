#!/usr/bin/python3
"""Test of analysis/cmfl_tables.py robustness (the manual's cmfl robustness table: final
accuracy per attack and algorithm, mean over seeds and each seed's value) on hand-made cmfl
run folders (run.json only, with its commandLine), against a table worked out by hand:

  none: cmfl-1 seeds 1, 2: 0.50, 0.60 -> 0.550 (0.500/0.600); fedavg seeds 1, 2: 0.62, 0.66
    -> 0.640 (0.620/0.660), its seed 2 run given --attackSpace=weights (no attack: one row
    whatever the space, epsilon 0, space "-").
  back-gradient 10 % weights: cmfl-1 seeds 1, 2: 0.40, 0.46 -> 0.430 (0.400/0.460); fedavg
    seed 1 only: 0.10 -> 0.100 (0.100/-).
  back-gradient 10 % update: cmfl-1 seed 1: 0.3333 -> 0.333 (one seed in the row: no
    brackets); no fedavg run: empty.
  gradient-scaling 30 % weights: krum seeds 1, 2, 3: 0.2, 0.3, 0.4 -> 0.300
    (0.200/0.300/0.400), seeds "1-3"; brain-torrent (not one of the paper's seven) seed 1:
    0.25 -> 0.250 (0.250/-/-), its column after Multi-Krum.

Rows in the order none, back-gradient (weights before update), gradient-scaling, given to
the script in another order. Then bad input: a run with another --nDevices, a seed twice
in one cell, a run without final accuracy, a run that is not cmfl's and a missing folder
each exit 2 with one stderr line and leave the table unwritten.

committee, on the same folders: only the CMFL runs under attack make rows (the clean cmfl-1
runs, fedavg, krum and brain-torrent are left out). committee.csv rows (training, committee,
aggregation, n1, n2, n3):

  back-gradient 10 % weights seed 1: (6,4,2,1,0,0) (6,4,2,3,3,1) (5,4,2,2,2,0): 3 rounds,
    training 5-6, committee 4, malicious training max 3, malicious committee 0-3 (mean
    5/3: 1.7), malicious majority (2 n2 > 4) in 1 round (n2 = 3), an attacker aggregated
    in 1.
  seed 2: (6,4,2,0,1,0) (6,4,2,2,1,1): 2 rounds, 6, 4, 2, "1 (1.0)", 0, 1.
  back-gradient 10 % update seed 1: (6,3,2,1,2,2): 1 round, 6, 3, 1, "2 (2.0)", 1 (2 x 2 >
    3), 1.

Bad input: a CMFL run under attack without committee.csv, or with a count that is not an
integer, exits 2 with one stderr line.

screening, on other folders (all --attack=back-gradient --maliciousFraction=0.3
--attackSpace=update; they differ in --algorithm and --partition, the table's first
columns, and in the seed). committee.csv rows as above, aggregation.csv rows (malicious,
training, aggregated) per device:

  cmfl-1 iid seed 1: 0.50; committee (6,4,2,2,1,0) (6,4,2,3,0,0); devices (0,2,1) (0,1,1)
    (1,2,0).
  cmfl-1 iid seed 2: 0.60; committee (6,4,2,1,0,1); devices (0,3,1) (1,1,1).
    -> seeds "1, 2", 0.550 (0.500/0.600); attackers training (2+3+1)/(6+6+6) = 33.3 %,
    aggregated (0+0+1)/(2+2+2) = 16.7 %, rounds with one aggregated "0/1"; honest
    accepted (1+1+1)/(2+1+3) = 50.0 %.
  cmfl-1 dirichlet seed 1: 0.40; committee (6,4,2,3,2,2); devices (0,1,0) (1,1,1)
    -> "1", 0.400, 50.0, 100.0, "1", 0.0.
  fedavg iid seed 1: 0.70 -> "1", 0.700 and the committee columns empty.

Rows in the order (cmfl-1, dirichlet), (cmfl-1, iid), (fedavg, iid). A CMFL run without
aggregation.csv exits 2.

Run it directly: /usr/bin/python3 tests/analysis/test_cmfl_tables.py"""

import csv
import json
import os
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "cmfl_tables.py")
PY = "/usr/bin/python3"


COMMITTEE_HEADER = ["round", "sim_time_s", "training", "committee", "aggregation", "n1", "n2",
                    "n3", "next_committee", "next_n2"]


def make_run(path, algorithm, seed, accuracy, attack="none", epsilon=0, space=None,
             extra="", summary=True, committee=None, devices=None, percent=False):
    """A cmfl run folder: run.json with the parameters and commandLine that cmfl writes (the
    attack space default "update" when not given; epsilon in percent, written as the share
    maliciousFraction, or with percent=True as an older cmfl wrote it: maliciousPercent and
    --activationPercent=10) and summary.final_accuracy; committee.csv with a row per
    (training, committee, aggregation, n1, n2, n3) of committee."""
    os.makedirs(path)
    shares = ("--activationPercent=10 --attack=%s --maliciousPercent=%g" % (attack, epsilon)
              if percent else "--activationFraction=0.1 --attack=%s --maliciousFraction=%g"
              % (attack, epsilon / 100))
    line = ("--nDevices=100 %s "
            "--rounds=20 --threads=1 --quiet=true %s%s--algorithm=%s --seed=%d --outDir=%s"
            % (shares, "--attackSpace=%s " % space if space else "",
               extra + " " if extra else "", algorithm, seed, path))
    params = {"commandLine": line, "algorithm": algorithm, "attack": attack,
              "attackSpace": space or "update", "nDevices": 100}
    if percent:
        params["maliciousPercent"] = epsilon
    else:
        params["maliciousFraction"] = epsilon / 100
    doc = {"seed": seed, "parameters": params}
    if summary:
        doc["summary"] = {"final_accuracy": accuracy, "rounds_completed": 20}
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump(doc, fh)
    if committee is not None:
        with open(os.path.join(path, "committee.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(COMMITTEE_HEADER)
            for k, row in enumerate(committee, 1):
                w.writerow([k, "%.1f" % k] + list(row) + ["elected", 0])
    if devices is not None:
        with open(os.path.join(path, "aggregation.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["device", "malicious", "training", "committee", "aggregated"])
            for k, (malicious, training, aggregated) in enumerate(devices):
                w.writerow([k, malicious, training, 0, aggregated])
    return path


def table(runs, out, kind="robustness"):
    """(the process, the rows of the table) of cmfl_tables.py KIND RUNS --out OUT."""
    proc = subprocess.run([PY, SCRIPT, kind] + runs + ["--out", out],
                          capture_output=True, text=True)
    rows = []
    if proc.returncode == 0:
        with open(out) as fh:
            rows = list(csv.reader(fh))
    return proc, rows


class RobustnessTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        t = self.tmp = self.dir.name

        def run(name, *args, **kw):
            return make_run(os.path.join(t, name), *args, **kw)

        self.runs = [
            # An older cmfl's run.json (shares in percent) reads as the current one's.
            run("gs30-krum-3", "krum", 3, 0.4, "gradient-scaling", 30, "weights",
                percent=True),
            run("bg10u-cmfl1-1", "cmfl-1", 1, 0.3333, "back-gradient", 10, "update",
                committee=[(6, 3, 2, 1, 2, 2)]),
            run("bg10w-fedavg-1", "fedavg", 1, 0.10, "back-gradient", 10, "weights"),
            run("clean-fedavg-2", "fedavg", 2, 0.66, space="weights"),
            run("gs30-bt-1", "brain-torrent", 1, 0.25, "gradient-scaling", 30, "weights"),
            run("bg10w-cmfl1-2", "cmfl-1", 2, 0.46, "back-gradient", 10, "weights",
                committee=[(6, 4, 2, 0, 1, 0), (6, 4, 2, 2, 1, 1)]),
            run("clean-cmfl1-1", "cmfl-1", 1, 0.50),
            run("gs30-krum-1", "krum", 1, 0.2, "gradient-scaling", 30, "weights"),
            run("bg10w-cmfl1-1", "cmfl-1", 1, 0.40, "back-gradient", 10, "weights",
                committee=[(6, 4, 2, 1, 0, 0), (6, 4, 2, 3, 3, 1), (5, 4, 2, 2, 2, 0)],
                percent=True),
            run("clean-fedavg-1", "fedavg", 1, 0.62),
            run("gs30-krum-2", "krum", 2, 0.3, "gradient-scaling", 30, "weights"),
            run("clean-cmfl1-2", "cmfl-1", 2, 0.60),
        ]
        self.out = os.path.join(t, "table.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_table_worked_by_hand(self):
        proc, rows = table(self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("wrote %s (4 rows)" % self.out, proc.stdout)
        self.assertEqual(rows[0], ["attack", "epsilon (%)", "space", "seeds", "CMFL-I",
                                   "CMFL-II", "FedAvg", "Median", "Trimmed Mean", "Krum",
                                   "Multi-Krum", "brain-torrent"])
        self.assertEqual(rows[1:], [
            ["none", "0", "-", "1, 2", "0.550 (0.500/0.600)", "", "0.640 (0.620/0.660)",
             "", "", "", "", ""],
            ["back-gradient", "10", "weights", "1, 2", "0.430 (0.400/0.460)", "",
             "0.100 (0.100/-)", "", "", "", "", ""],
            ["back-gradient", "10", "update", "1", "0.333", "", "", "", "", "", "", ""],
            ["gradient-scaling", "30", "weights", "1-3", "", "", "", "", "",
             "0.300 (0.200/0.300/0.400)", "", "0.250 (0.250/-/-)"],
        ])
        # Without --out the same table goes to stdout.
        proc = subprocess.run([PY, SCRIPT, "robustness"] + self.runs, capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.out) as fh:
            self.assertEqual(proc.stdout, fh.read())

    def test_committee_worked_by_hand(self):
        proc, rows = table(self.runs, self.out, "committee")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("wrote %s (3 rows)" % self.out, proc.stdout)
        self.assertEqual(rows[0], ["algorithm", "attack", "epsilon (%)", "space", "seed",
                                   "rounds", "training", "committee", "malicious training max",
                                   "malicious committee", "rounds with a malicious majority",
                                   "rounds with an attacker aggregated"])
        self.assertEqual(rows[1:], [
            ["CMFL-I", "back-gradient", "10", "weights", "1", "3", "5-6", "4", "3",
             "0-3 (1.7)", "1", "1"],
            ["CMFL-I", "back-gradient", "10", "weights", "2", "2", "6", "4", "2", "1 (1.0)",
             "0", "1"],
            ["CMFL-I", "back-gradient", "10", "update", "1", "1", "6", "3", "1", "2 (2.0)",
             "1", "1"],
        ])

    def test_committee_bad_input(self):
        bare = os.path.join(self.tmp, "bg30w-cmfl2-1")
        make_run(bare, "cmfl-2", 1, 0.1, "back-gradient", 30, "weights")
        self.assert_refused(self.runs + [bare], ["cannot read", "committee.csv"], "committee")
        with open(os.path.join(bare, "committee.csv"), "w") as fh:
            fh.write(",".join(COMMITTEE_HEADER) + "\n1,1.0,6,4,2,x,0,0,elected,0\n")
        self.assert_refused(self.runs + [bare],
                            ["committee.csv: line 2: column n1 must be a count", "'x'"],
                            "committee")

    def assert_refused(self, runs, words, kind="robustness"):
        proc, _ = table(runs, self.out, kind)
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        for w in words:
            self.assertIn(w, proc.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input(self):
        t = self.tmp
        other = make_run(os.path.join(t, "clean-median-200"), "median", 1, 0.5,
                         extra="--nDevices=200")
        # (the later --nDevices=200 is the one the run was given)
        self.assert_refused(self.runs + [other], ["--nDevices differs", "only in their seed"])
        twice = make_run(os.path.join(t, "clean-cmfl1-1-again"), "cmfl-1", 1, 0.5)
        self.assert_refused(self.runs + [twice], ["seed 1 twice", "clean-cmfl1-1-again"])
        nosum = make_run(os.path.join(t, "clean-krum-1"), "krum", 1, 0.5, summary=False)
        self.assert_refused(self.runs + [nosum], ["final_accuracy is missing", "clean-krum-1"])
        foreign = os.path.join(t, "consensus-run")
        os.makedirs(foreign)
        with open(os.path.join(foreign, "run.json"), "w") as fh:
            json.dump({"seed": 1, "parameters": {"trust": "naive"}}, fh)
        self.assert_refused(self.runs + [foreign], ["not a cmfl run"])
        self.assert_refused(self.runs + [os.path.join(t, "nowhere")], ["nowhere"])


class ScreeningTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        t = self.dir.name
        attack = dict(attack="back-gradient", epsilon=30, space="update")

        def run(name, algorithm, seed, accuracy, partition, **kw):
            return make_run(os.path.join(t, name), algorithm, seed, accuracy,
                            extra="--partition=%s" % partition, **attack, **kw)

        self.runs = [
            run("fedavg-iid-1", "fedavg", 1, 0.70, "iid"),
            run("cmfl1-iid-2", "cmfl-1", 2, 0.60, "iid", committee=[(6, 4, 2, 1, 0, 1)],
                devices=[(0, 3, 1), (1, 1, 1)]),
            run("cmfl1-dir-1", "cmfl-1", 1, 0.40, "dirichlet",
                committee=[(6, 4, 2, 3, 2, 2)], devices=[(0, 1, 0), (1, 1, 1)]),
            run("cmfl1-iid-1", "cmfl-1", 1, 0.50, "iid",
                committee=[(6, 4, 2, 2, 1, 0), (6, 4, 2, 3, 0, 0)],
                devices=[(0, 2, 1), (0, 1, 1), (1, 2, 0)]),
        ]
        self.out = os.path.join(t, "table.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_worked_by_hand(self):
        proc, rows = table(self.runs, self.out, "screening")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("wrote %s (3 rows)" % self.out, proc.stdout)
        self.assertEqual(rows[0], ["algorithm", "partition", "seeds", "final accuracy",
                                   "attackers training (%)", "attackers aggregated (%)",
                                   "rounds with an attacker aggregated",
                                   "honest accepted (%)"])
        self.assertEqual(rows[1:], [
            ["cmfl-1", "dirichlet", "1", "0.400", "50.0", "100.0", "1", "0.0"],
            ["cmfl-1", "iid", "1, 2", "0.550 (0.500/0.600)", "33.3", "16.7", "0/1", "50.0"],
            ["fedavg", "iid", "1", "0.700", "", "", "", ""],
        ])

    def test_bad_input(self):
        os.remove(os.path.join(self.dir.name, "cmfl1-iid-2", "aggregation.csv"))
        proc, _ = table(self.runs, self.out, "screening")
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("aggregation.csv", proc.stderr)
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
