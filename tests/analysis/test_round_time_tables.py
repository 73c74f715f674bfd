#!/usr/bin/python3
"""Test of analysis/round_time_tables.py round-time-vs-devices (the manual's table of round
time against the devices that upload, per protocol and channel) and of
analysis/plot_round_times.py (its figure) on hand-made run folders, against a table worked
out by hand.

rounds.csv rows of node -1 from round 1 on count; a node 0 row (round_time_s 99) and
BrainTorrent's round 0 (the initial training, round_time_s 0.001) are left out, and so is a
round that reached the round deadline (run.json roundDeadline_s: fedavg 60 s, cmfl 120 s).

fedavg --algorithm=fedavg (run.json has clientFraction):
  F1 channel, server's cell K=4 (d2sSubChannelsInForce 4), 10 devices, seed 1: round times
     0.5 and 0.7 s, participants 10 and 10 -> 0.6 s
  F2 the same, seed 2: 0.8 and 1.0 s -> 0.9 s
     -> point: runs 2, mean 0.75, sd stdev(0.6, 0.9) = 0.2121, min 0.6, max 0.9, models
        10.0
  F3 K=4, 20 devices, seed 1: 1.2 and 1.2 s, participants 20 and 18 -> 1.2 s (sd empty:
     one run), models 19.0
  F4, F5 --d2sSubChannels=0 (in force 0): "channel, unlimited band (K=0)", 10 and 20
     devices, 0.1 s each, participants 10 and 20
  F4b the same as F4, seed 2, 20 ns longer rounds: sd 1.4e-8 s, rounded to the microsecond
     "0"; the point: runs 2, rounds 4, 0.1 s
  F6 wifi, 10 devices: 0.4 s, participants 10
  F7 wifi, 20 devices: round 1 1.6 s (participants 20), round 2 at the 60 s deadline
     (participants 19): left out -> 1.6 s, models 20.0
  F8 the same, seed 2: its one round at the deadline: no round time of its own
     -> point: runs 2, rounds 1, at the deadline 2, 1.6 s, sd empty
cmfl --algorithm=braintorrent (run.json has committeeFraction, B2's that of an older cmfl
committeePercent; no server: the D2D band's subChannels decides):
  B1 channel, subChannels 4, 10 devices: round 0 0.001 s (left out), rounds 1 and 2 0.3
     and 0.5 s -> 0.4 s, models_received 9 and 9 -> 9.0
  B2 the same, 20 devices: 0.9 and 0.9 s, models 19 and 17 -> 18.0
  B3 wifi, 10 devices: 2.0 and 2.0 s, no models_received row -> models empty

Rows (rounds counted over a point's runs): fedavg (K=4 at 10, 20; unlimited at 10, 20;
wifi at 10, 20), then cmfl (K=4 at 10,
20; wifi at 10). The figure (figure_checks: labelled axes, times >= 0): a panel per
protocol, fedavg's with three lines on a log y axis (0.1 to 1.6 s: a factor 16), cmfl's
with one line (wifi has one number of devices) on a linear axis from 0; without B1 and B2
the cmfl panel says it has no line.

Then bad input: runs of one protocol and setting with different flags, a run without
round_time_s rows, a run.json of another program, a non-numeric cell and a missing folder
each exit 2 with one stderr line and leave the table unwritten.

Run it directly: /usr/bin/python3 tests/analysis/test_round_time_tables.py"""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import figure_checks  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "analysis", "round_time_tables.py")
PY = "/usr/bin/python3"


def make_run(path, program, backend, n, times, models=None, seed=1, k=4, extra="",
             round0=None):
    """A run folder of program (fedavg or cmfl, BrainTorrent) over backend: n devices,
    times {round: round_time_s} of node -1, models {round: participants or
    models_received}, k the spectrum in force (channel), extra further flags."""
    os.makedirs(path)
    algorithm = "fedavg" if program == "fedavg" else "braintorrent"
    flags = "--backend=%s --nDevices=%d --seed=%d --algorithm=%s --rounds=2 %s--outDir=%s" \
            " --quiet" % (backend, n, seed, algorithm, extra + " " if extra else "", path)
    params = {"commandLine": flags, "algorithm": algorithm, "backend": backend,
              "nDevices": n, "subChannels": 4,
              "roundDeadline_s": 60 if program == "fedavg" else 120}
    if program == "fedavg":
        params["clientFraction"] = 1
        if backend == "channel":
            params["d2sSubChannelsInForce"] = k
    else:
        if n == 20:
            params["committeePercent"] = 40  # an older cmfl's run.json: the share in percent
        else:
            params["committeeFraction"] = 0.4
        params["subChannels"] = k
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params}, fh)
    metric = "participants" if program == "fedavg" else "models_received"
    with open(os.path.join(path, "rounds.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["round", "sim_time_s", "node", "metric", "value"])
        w.writerow([0, 0, -1, "accuracy", 0.1])
        if round0 is not None:
            w.writerow([0, round0, -1, "round_time_s", round0])
        t = 0.0
        for rnd, rt in sorted(times.items()):
            t += rt
            w.writerow([rnd, t, -1, "accuracy", 0.5])
            w.writerow([rnd, t, -1, "round_time_s", rt])
            w.writerow([rnd, t, 0, "round_time_s", 99])
            if models and rnd in models:
                w.writerow([rnd, t, -1, metric, models[rnd]])
    return path


def table(runs, out):
    proc = subprocess.run([PY, SCRIPT, "round-time-vs-devices"] + runs + ["--out", out],
                          capture_output=True, text=True)
    rows = []
    if proc.returncode == 0:
        with open(out) as fh:
            rows = list(csv.DictReader(fh))
    return proc, rows


class RoundTimeTableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_round_time_tables.")
        self.addCleanup(self.tmp.cleanup)
        t = lambda name: os.path.join(self.tmp.name, name)  # noqa: E731
        self.fedavg = [
            make_run(t("F1"), "fedavg", "channel", 10, {1: 0.5, 2: 0.7}, {1: 10, 2: 10}),
            make_run(t("F2"), "fedavg", "channel", 10, {1: 0.8, 2: 1.0}, {1: 10, 2: 10},
                     seed=2),
            make_run(t("F3"), "fedavg", "channel", 20, {1: 1.2, 2: 1.2}, {1: 20, 2: 18}),
            make_run(t("F4"), "fedavg", "channel", 10, {1: 0.1, 2: 0.1}, {1: 10, 2: 10},
                     k=0, extra="--d2sSubChannels=0"),
            make_run(t("F4b"), "fedavg", "channel", 10, {1: 0.10000002, 2: 0.10000002},
                     {1: 10, 2: 10}, seed=2, k=0, extra="--d2sSubChannels=0"),
            make_run(t("F5"), "fedavg", "channel", 20, {1: 0.1, 2: 0.1}, {1: 20, 2: 20},
                     k=0, extra="--d2sSubChannels=0"),
            make_run(t("F6"), "fedavg", "wifi", 10, {1: 0.4, 2: 0.4}, {1: 10, 2: 10}),
            make_run(t("F7"), "fedavg", "wifi", 20, {1: 1.6, 2: 60.0}, {1: 20, 2: 19}),
            make_run(t("F8"), "fedavg", "wifi", 20, {1: 60.0}, {1: 19}, seed=2),
        ]
        self.cmfl_channel = [
            make_run(t("B1"), "cmfl", "channel", 10, {1: 0.3, 2: 0.5}, {1: 9, 2: 9},
                     round0=0.001),
            make_run(t("B2"), "cmfl", "channel", 20, {1: 0.9, 2: 0.9}, {1: 19, 2: 17},
                     round0=0.001),
        ]
        self.cmfl_wifi = [make_run(t("B3"), "cmfl", "wifi", 10, {1: 2.0, 2: 2.0},
                                   round0=0.001)]
        self.runs = self.fedavg + self.cmfl_channel + self.cmfl_wifi
        self.out = t("table.csv")

    def test_table(self):
        proc, rows = table(self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        got = [[r[c] for c in ("protocol", "setting", "devices", "runs", "rounds",
                               "rounds at the deadline", "round time s", "round time sd s",
                               "round time min s", "round time max s", "models per round")]
               for r in rows]
        fed, bt = "fedavg --algorithm=fedavg", "cmfl --algorithm=braintorrent"
        k4, k0 = "channel, K=4 sub-channels", "channel, unlimited band (K=0)"
        self.assertEqual(got, [
            [fed, k4, "10", "2", "4", "0", "0.75", "0.2121", "0.6", "0.9", "10.0"],
            [fed, k4, "20", "1", "2", "0", "1.2", "", "1.2", "1.2", "19.0"],
            [fed, k0, "10", "2", "4", "0", "0.1", "0", "0.1", "0.1", "10.0"],
            [fed, k0, "20", "1", "2", "0", "0.1", "", "0.1", "0.1", "20.0"],
            [fed, "wifi", "10", "1", "2", "0", "0.4", "", "0.4", "0.4", "10.0"],
            [fed, "wifi", "20", "2", "1", "2", "1.6", "", "1.6", "1.6", "20.0"],
            [bt, k4, "10", "1", "2", "0", "0.4", "", "0.4", "0.4", "9.0"],
            [bt, k4, "20", "1", "2", "0", "0.9", "", "0.9", "0.9", "18.0"],
            [bt, "wifi", "10", "1", "2", "0", "2", "", "2", "2", ""]])

    def test_figure(self):
        rc, _, figs = figure_checks.render("plot_round_times", self.runs + [
            "--out", os.path.join(self.tmp.name, "plots")])
        self.assertEqual(rc, 0)
        self.assertEqual([name for name, _ in figs], ["round_time_vs_devices.png"])
        self.assertEqual(figure_checks.all_problems(figs), [])
        fig = figs[0][1]
        axes = [ax for ax in fig.axes if ax.get_title()]
        self.assertEqual([ax.get_title() for ax in axes],
                         ["fedavg --algorithm=fedavg", "cmfl --algorithm=braintorrent"])
        self.assertEqual([len(ax.lines) for ax in axes], [3, 1])
        self.assertEqual([ax.get_yscale() for ax in axes], ["log", "linear"])
        self.assertEqual(axes[1].get_ylim()[0], 0.0)
        self.assertEqual(figure_checks.no_data_texts(fig), [])
        labels = figure_checks.labels(fig)
        self.assertIn("Devices", labels)
        self.assertIn("Round time (simulated) [s]", labels)
        # Without BrainTorrent's channel runs its panel has no line and says so.
        rc, _, figs = figure_checks.render("plot_round_times", self.fedavg + self.cmfl_wifi + [
            "--out", os.path.join(self.tmp.name, "plots2")])
        self.assertEqual(rc, 0)
        self.assertEqual(figure_checks.all_problems(figs), [])
        self.assertEqual(len(figure_checks.no_data_texts(figs[0][1])), 1)

    def bad(self, runs, needle):
        proc, _ = table(runs, self.out)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn(needle, proc.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input(self):
        t = self.tmp.name
        other = make_run(os.path.join(t, "G"), "fedavg", "channel", 50, {1: 2.0}, seed=3,
                         extra="--model=mlp")
        self.bad(self.runs + [other], "differ in --model")
        none = make_run(os.path.join(t, "H"), "fedavg", "wifi", 50, {})
        self.bad(self.runs + [none], "no round_time_s row")
        os.makedirs(os.path.join(t, "I"))
        with open(os.path.join(t, "I", "run.json"), "w") as fh:
            json.dump({"parameters": {"backend": "channel", "nDevices": 2,
                                      "messageBytes": 3000}}, fh)
        self.bad([self.runs[0], os.path.join(t, "I")], "not a run of fedavg or cmfl")
        with open(os.path.join(self.runs[0], "rounds.csv"), "a") as fh:
            fh.write("3,9,-1,round_time_s,x\n")
        self.bad([self.runs[0]], "non-numeric value 'x' in column value")
        self.bad([os.path.join(t, "missing")], "run folder not found")


if __name__ == "__main__":
    unittest.main()
