#!/usr/bin/python3
"""Tests for analysis/plot_rounds.py on small synthetic run folders.

Run:  /usr/bin/python3 tests/analysis/test_plot_rounds.py
(exits non-zero if a test fails).  The script is run as a program (exit codes, stdout,
PNGs) and also imported, to check its cumulative-energy and per-round curve functions
against hand sums; both need Debian's pandas and matplotlib.
"""

import csv
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import figure_checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "plot_rounds.py")
# the scripts import the d2dlearn_analysis package beside them
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNGS = ["accuracy_vs_round.png", "accuracy_vs_time.png", "accuracy_vs_energy.png"]
ROUND_HEADER = ["round", "sim_time_s", "node", "metric", "value"]
ENERGY_HEADER = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                 "duration_s", "power_w", "periods"]

# Run A (fedavg, iid): global model only, rounds 1..4 at t = 10, 20, 30, 40 s.
A_TIMES = [10.0, 20.0, 30.0, 40.0]
A_ACC = [0.5, 0.625, 0.75, 0.875]
# Energy events, deliberately not in time order; powers of two so sums are exact.
A_ENERGY = [
    # t,        node, component,   energy_j
    (25.0,        0, "compute",    3.0),
    (0.0,         0, "compute",    1.0),
    (5.0,         0, "radio_tx",   0.5),
    (20.000001,   1, "radio_rx",   8.0),   # just after round 2: not in round 2's sum
    (5.0,         1, "radio_rx",   0.25),
    (10.0,        1, "d2s_tx",     2.0),   # exactly at round 1: counted (<=)
    (12.0,        2, "radio_idle", 0.125),
    (15.0,        0, "d2s_rx",     4.0),
    (20.0,        2, "radio_tx",   0.0625),  # exactly at round 2: counted
    (35.0,        1, "compute",    0.5),
    (50.0,        2, "radio_tx",   16.0),  # after the last round
    (30.0,        1, "d2s_idle",   1.0),   # the D2S radio listening: a panel of its own
]
D2D = ["radio_tx", "radio_rx", "radio_idle"]
D2S = ["d2s_tx", "d2s_rx"]
# Hand sums of the rows with sim_time_s <= the round's time (summed over nodes).
A_CUM = {
    "d2d": [0.5 + 0.25, 0.5 + 0.25 + 0.125 + 0.0625, 8.9375, 8.9375],
    "d2s": [2.0, 2.0 + 4.0, 6.0, 6.0],
    "compute": [1.0, 1.0, 1.0 + 3.0, 4.5],
}
# Per radio and state: D2D tx + rx 0.5 + 0.0625 + 16 + 8 + 0.25, D2D idle 0.125, D2S tx + rx
# 2 + 4, D2S idle 1, compute 1 + 3 + 0.5.
A_TOTAL = {"D2D radio, transmit + receive": 24.8125, "D2D radio, idle": 0.125,
           "D2S radio, transmit + receive": 6.0, "D2S radio, idle": 1.0, "compute": 4.5}

# Run B (decentralized, dirichlet): node -1 plus three devices, rounds 1..3 at 7, 14, 21 s.
B_TIMES = [7.0, 14.0, 21.0]
B_GLOBAL = [0.3, 0.45, 0.6]
B_DEVICES = {0: [0.2, 0.4, 0.55], 1: [0.35, 0.5, 0.7], 2: [0.25, 0.3, 0.65]}


def write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def write_run_json(folder, params, sim_time):
    with open(os.path.join(folder, "run.json"), "w") as fh:
        json.dump({"version": "0.1.0", "seed": 1, "simulated_time_s": sim_time,
                   "parameters": params}, fh)


def energy_rows(events):
    remaining = {}
    rows = []
    for t, node, comp, e in events:
        remaining[node] = remaining.get(node, 100.0) - e
        rows.append([repr(t), node, comp, repr(e), repr(remaining[node])] + period(t, e))
    return rows


def period(t, e):
    """energy.csv's start_s, duration_s, power_w and periods of a row of energy e stamped t:
    one period of up to 1 s ending at t."""
    d = min(t, 1.0)
    return ["%.9f" % (t - d), "%.9f" % d, repr(e / d if d > 0 else 0.0), 1]


def make_run_a(folder):
    os.makedirs(folder)
    rows = []
    for k, (t, acc) in enumerate(zip(A_TIMES, A_ACC), start=1):
        rows.append([k, repr(t), -1, "accuracy", repr(acc)])
        rows.append([k, repr(t), -1, "loss", repr(2.0 - acc)])
        rows.append([k, repr(t), -1, "round_time_s", "10"])
        rows.append([k, repr(t), -1, "participants", "3"])
    write_csv(os.path.join(folder, "rounds.csv"), ROUND_HEADER, rows)
    write_csv(os.path.join(folder, "energy.csv"), ENERGY_HEADER, energy_rows(A_ENERGY))
    write_run_json(folder, {"algorithm": "fedavg", "partition": "iid", "rounds": 4}, 45.0)


def make_run_b(folder, with_global=True, with_json=True):
    os.makedirs(folder)
    rows = []
    for k, t in enumerate(B_TIMES, start=1):
        for node, accs in B_DEVICES.items():
            rows.append([k, repr(t), node, "accuracy", repr(accs[k - 1])])
            rows.append([k, repr(t), node, "loss", "1.5"])
        if with_global:
            rows.append([k, repr(t), -1, "accuracy", repr(B_GLOBAL[k - 1])])
        rows.append([k, repr(t), -1, "consensus_distance", "0.01"])
    write_csv(os.path.join(folder, "rounds.csv"), ROUND_HEADER, rows)
    write_csv(os.path.join(folder, "energy.csv"), ENERGY_HEADER,
              energy_rows([(3.0, 0, "radio_tx", 0.5), (9.0, 1, "compute", 2.0)]))
    if with_json:
        write_run_json(folder, {"algorithm": "decentralized", "partition": "dirichlet"}, 21.0)


def run_script(*args):
    """plot_rounds.py with args, its main() in this process (figure_checks.run_main): exit
    status, stdout, stderr, as its command line gives them."""
    return figure_checks.run_main("plot_rounds", list(args))


def run_process(*args):
    """plot_rounds.py with args in a process of its own: exit status, stdout, stderr."""
    proc = subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def import_script():
    spec = importlib.util.spec_from_file_location("plot_rounds", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pngs_ok(testcase, out_dir, names):
    for name in names:
        path = os.path.join(out_dir, name)
        testcase.assertTrue(os.path.isfile(path), "missing %s" % path)
        testcase.assertGreater(os.path.getsize(path), 1000, "%s too small" % path)
        with open(path, "rb") as fh:
            testcase.assertEqual(fh.read(8), PNG_SIGNATURE, "%s is not a PNG" % path)
    leftovers = [f for f in os.listdir(out_dir) if not f.endswith(".png")]
    testcase.assertEqual(leftovers, [], "temporary files left in %s" % out_dir)


def run_block(out, label):
    """The summary lines of the run labelled `label`."""
    m = re.search(r"^run %s \(.*?\):\n((?:  .*\n)+)" % re.escape(label), out, re.M)
    if m is None:
        raise AssertionError("no summary block for run %r in:\n%s" % (label, out))
    return m.group(1)


def number(pattern, text):
    m = re.search(pattern, text)
    if m is None:
        raise AssertionError("pattern %r not found in:\n%s" % (pattern, text))
    return float(m.group(1))


class PlotRoundsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test_plot_rounds_")
        cls.mod = import_script()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_cumulative_energy_equals_hand_sums(self):
        d = self.path("cum")
        make_run_a(d)
        energy = self.mod.load_energy(os.path.join(d, "energy.csv"))
        for key, comps in (("d2d", D2D), ("d2s", D2S), ("compute", ["compute"])):
            got = self.mod.cumulative_energy(energy, A_TIMES, comps)
            self.assertEqual(len(got), 4)
            for k in range(4):
                self.assertAlmostEqual(got[k], A_CUM[key][k], places=12,
                                       msg="%s at round %d" % (key, k + 1))
        # Before any event and after all of them.
        self.assertEqual(list(self.mod.cumulative_energy(energy, [-1.0], D2D)), [0.0])
        self.assertAlmostEqual(self.mod.cumulative_energy(energy, [1e9], D2D)[0], 24.9375)
        # Group with no rows, and an empty energy table.
        self.assertEqual(list(self.mod.cumulative_energy(energy, [40.0], ["none"])), [0.0])
        self.assertEqual(list(self.mod.cumulative_energy(energy.iloc[0:0], [1.0, 2.0], D2D)),
                         [0.0, 0.0])

    def test_curve_and_device_band(self):
        d = self.path("curve")
        make_run_b(d)
        rounds = self.mod.load_rounds(os.path.join(d, "rounds.csv"))
        curve = self.mod.metric_curve(rounds, "accuracy")
        self.assertEqual(list(curve.index), [1, 2, 3])
        self.assertEqual(list(curve["time_s"]), B_TIMES)
        self.assertEqual(list(curve["value"]), B_GLOBAL)  # node -1, not the device mean
        for k in range(3):
            accs = [v[k] for v in B_DEVICES.values()]
            self.assertEqual(curve["lo"].iloc[k], min(accs))
            self.assertEqual(curve["hi"].iloc[k], max(accs))
        self.assertFalse(curve.attrs["from_mean"])
        self.assertIsNone(self.mod.metric_curve(rounds, "nonexistent"))

    def test_two_runs_plots_and_summary(self):
        a, b = self.path("two_a"), self.path("two_b")
        make_run_a(a)
        make_run_b(b)
        out_dir = self.path("two_plots")
        rc, out, err = run_process(a, b, "--out", out_dir)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertEqual(err.strip(), "")
        pngs_ok(self, out_dir, PNGS)
        self.assertFalse(os.path.exists(os.path.join(a, "plots")))

        block = run_block(out, "fedavg, iid")  # label from run.json algorithm + partition
        self.assertIn("rounds: 4 (last round 4)", block)
        self.assertEqual(number(r"final accuracy: ([0-9.eE+-]+)", block), 0.875)
        self.assertEqual(number(r"total simulated time: ([0-9.eE+-]+) s \(run\.json\)", block),
                         45.0)
        for group, total in A_TOTAL.items():
            got = number(r"total energy %s \([a-z0-9_+]+\): ([0-9.eE+-]+) J" % re.escape(group),
                         block)
            self.assertAlmostEqual(got, total, places=4)
        self.assertAlmostEqual(number(r"total energy all groups: ([0-9.eE+-]+) J", block),
                               sum(A_TOTAL.values()), places=4)

        block = run_block(out, "decentralized, dirichlet")
        self.assertIn("rounds: 3 (last round 3)", block)
        self.assertEqual(number(r"final accuracy: ([0-9.eE+-]+)", block), 0.6)
        self.assertEqual(number(r"total energy D2S radio, transmit \+ receive "
                                r"\(d2s_tx\+d2s_rx\): ([0-9.eE+-]+) J", block), 0.0)
        self.assertEqual(number(r"total energy D2S radio, idle \(d2s_idle\): "
                                r"([0-9.eE+-]+) J", block), 0.0)

    def test_labels_default_out_and_mean_fallback(self):
        a, b = self.path("lab_a"), self.path("lab_b")
        make_run_a(a)
        make_run_b(b, with_global=False, with_json=False)
        rc, out, err = run_script(a, b, "--labels", "FedAvg IID,local")
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        pngs_ok(self, os.path.join(a, "plots"), PNGS)  # default: first RUN_DIR/plots
        run_block(out, "FedAvg IID")
        block = run_block(out, "local")
        # No node -1 accuracy: the curve is the mean over the three devices.
        self.assertIn("plotting the mean over devices", out)
        self.assertAlmostEqual(number(r"final accuracy: ([0-9.eE+-]+) \(mean over devices\)",
                                      block), (0.55 + 0.7 + 0.65) / 3, places=5)
        # No run.json: simulated time from the last trace time stamp.
        self.assertEqual(number(r"total simulated time: ([0-9.eE+-]+) s \(last trace", block),
                         21.0)

        # Without --labels and without run.json the label is the folder name.
        rc, out, err = run_script(b, "--out", self.path("lab_b_plots"))
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        run_block(out, "lab_b")

    def test_duplicate_labels_all_get_their_folder(self):
        # Three seeds of one configuration: no curve keeps the bare label.
        dirs = [self.path("dup/s%d" % k) for k in (1, 2, 3)]
        for d in dirs:
            make_run_a(d)
        params = [{"algorithm": "fedavg", "partition": "iid"}] * 3
        self.assertEqual(self.mod.run_labels(dirs, params, None),
                         ["fedavg, iid (s1)", "fedavg, iid (s2)", "fedavg, iid (s3)"])
        # Same folder names in two places, without run.json: the paths tell them apart.
        same = [self.path("x/run"), self.path("y/run"), self.path("z/other")]
        labels = self.mod.run_labels(same, [{}, {}, {}], None)
        self.assertEqual(labels, ["run (%s)" % same[0], "run (%s)" % same[1], "other"])
        rc, out, err = run_script(*dirs, "--out", self.path("dup_plots"))
        self.assertEqual(rc, 0, err)
        for k in (1, 2, 3):
            run_block(out, "fedavg, iid (s%d)" % k)

    def test_total_energy_panel(self):
        # The last panel: energy of every row up to each round, the sum of the groups:
        # 0.75 + 2 + 1, 0.9375 + 6 + 1, 8.9375 + 6 + 1 + 4, 8.9375 + 6 + 1 + 4.5 (the D2S
        # idle row at 30 s counts from round 3 on).
        d = self.path("total")
        make_run_a(d)
        mod = import_script()
        figures = []
        mod.save_figure = lambda fig, out_dir, name: figures.append(fig) or name
        run = {"dir": d, "rounds": mod.load_rounds(os.path.join(d, "rounds.csv")),
               "energy": mod.load_energy(os.path.join(d, "energy.csv")), "label": "a",
               "colour": "C0"}
        run["curve"] = mod.metric_curve(run["rounds"], "accuracy")
        mod.plot_vs_energy([run], "accuracy", d, "x.png")
        axes = figures[0].axes
        self.assertEqual([ax.get_title() for ax in axes],
                         ["D2D radio, transmit + receive", "D2D radio, idle",
                          "D2S radio, transmit + receive", "D2S radio, idle", "compute",
                          "total"])
        x = list(axes[5].get_lines()[0].get_xdata())
        self.assertEqual(x, [3.75, 7.9375, 19.9375, 20.4375])
        self.assertEqual(list(axes[5].get_lines()[0].get_ydata()), A_ACC)

    def test_figures_labelled_in_domain_and_no_empty_d2s_panel(self):
        # Items 1, 2, 4, 5, 7: labels with units, rates in [0, 1], energies >= 0; run B has
        # no D2S rows and run A is left without them too: no D2S panel (no vertical lines
        # at 0 J, no empty panel), and a line under the figure says why; --out is created
        # with its parents.
        a, b = self.path("chk/a"), self.path("chk/b")
        make_run_a(a)
        make_run_b(b)
        write_csv(os.path.join(a, "energy.csv"), ENERGY_HEADER,
                  energy_rows([e for e in A_ENERGY if not e[2].startswith("d2s")]))
        out = self.path("chk/new/plots")
        rc, _, figs = figure_checks.render("plot_rounds", [a, b, "--out", out])
        self.assertEqual(rc, 0)
        self.assertTrue(os.path.isdir(out))
        self.assertEqual(figure_checks.all_problems(figs), [])
        energy = figure_checks.figure(figs, "accuracy_vs_energy")
        self.assertEqual(figure_checks.no_data_texts(energy), [])
        self.assertEqual([ax.get_title() for ax in energy.axes],
                         ["D2D radio, transmit + receive", "D2D radio, idle", "compute",
                          "total"])
        self.assertTrue(all(ax.lines for ax in energy.axes))
        self.assertIn("No panel: D2S radio, transmit + receive; D2S radio, idle (no run "
                      "spent energy there)", [t.get_text() for t in energy.texts])
        self.assertTrue(all("[J]" in ax.get_xlabel() for ax in energy.axes))
        time_fig = figure_checks.figure(figs, "accuracy_vs_time")
        self.assertIn("[s]", time_fig.axes[0].get_xlabel())
        self.assertEqual(time_fig.axes[0].get_ylabel(), "Test accuracy")
        self.assertEqual(tuple(time_fig.axes[0].get_ylim()), (0.0, 1.0))

    def test_coinciding_curves_stay_visible(self):
        # Item 5 (paper-fedavg): fedavg and fedprox with the same numbers: both lines are
        # drawn, each with its own marker and dash, and the legend lists both.
        a, b = self.path("same/fedavg"), self.path("same/fedprox")
        make_run_a(a)
        make_run_a(b)
        write_run_json(b, {"algorithm": "fedprox", "partition": "iid"}, 45.0)
        rc, _, figs = figure_checks.render("plot_rounds", [a, b, "--out", self.path("same/p")])
        self.assertEqual(rc, 0)
        ax = figure_checks.figure(figs, "accuracy_vs_round").axes[0]
        l1, l2 = ax.lines
        self.assertEqual(list(l1.get_ydata()), list(l2.get_ydata()))
        self.assertNotEqual(l1.get_marker(), l2.get_marker())
        self.assertNotEqual(l1.get_linestyle(), l2.get_linestyle())
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()],
                         ["fedavg, iid", "fedprox, iid"])

    def test_bands_and_error_bars_clipped_to_domain(self):
        # Item 2: the trace_io helpers every script draws bands and error bars with.
        tio = figure_checks.trace_io()
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        tio.draw_band(ax, [0, 1, 2], [-0.2, 0.1, 0.5], [0.4, 1.3, 0.9], "accuracy")
        tio.error_bars(ax, [0, 1], [0.95, 0.02], [0.1, 0.1], "delivery_rate")
        tio.draw_band(ax, [0, 1], [-3.0, 1.0], [2.0, 4.0], "energy_j")
        tio.error_bars(ax, [0, 1], [1.0, 5.0], [2.0, 1.0], "latency_s")
        (y0,), (y1,), (e0,), (e1,) = [[v for v in figure_checks.points(c)[1:]]
                                      for c in ax.collections]
        self.assertTrue(0.0 <= y0.min() and y0.max() <= 1.0, y0)
        self.assertTrue(0.0 <= y1.min() and y1.max() <= 1.0, y1)
        self.assertGreaterEqual(e0.min(), 0.0)
        self.assertGreaterEqual(e1.min(), 0.0)
        self.assertAlmostEqual(y1.max(), 1.0)
        plt.close(fig)

    def test_format_and_stale_figures(self):
        d = self.path("fmt")
        make_run_a(d)
        out_dir = os.path.join(d, "plots")
        os.makedirs(out_dir)
        old = time.time() - 3600
        stale = os.path.join(out_dir, "accuracy_vs_round.png")  # of an earlier run here
        with open(stale, "wb") as fh:
            fh.write(b"x")
        os.utime(stale, (old, old))
        rc, out, err = run_script(d, "--format", "pdf")
        self.assertEqual(rc, 0, err)
        for name in ("accuracy_vs_round.pdf", "accuracy_vs_time.pdf", "accuracy_vs_energy.pdf"):
            with open(os.path.join(out_dir, name), "rb") as fh:
                self.assertEqual(fh.read(5), b"%PDF-", name)
        self.assertFalse(os.path.exists(stale))
        self.assertIn("removed %s" % stale, out)

    def test_loss_fallback(self):
        d = self.path("lossonly")
        os.makedirs(d)
        write_csv(os.path.join(d, "rounds.csv"), ROUND_HEADER,
                  [[1, "5.0", -1, "loss", "0.9"], [2, "10.0", -1, "loss", "0.4"]])
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER,
                  energy_rows([(1.0, 0, "compute", 1.0)]))
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertIn("plotting loss instead", out)
        self.assertEqual(number(r"final loss: ([0-9.eE+-]+)", out), 0.4)
        pngs_ok(self, os.path.join(d, "plots"), PNGS)

    def test_missing_rounds_csv_exits_2(self):
        a, b = self.path("miss_a"), self.path("miss_b")
        make_run_a(a)
        make_run_b(b)
        os.remove(os.path.join(b, "rounds.csv"))
        rc, out, err = run_process(a, b)
        self.assertEqual(rc, 2, "stdout:\n%s\nstderr:\n%s" % (out, err))
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, "stderr should be one line:\n%s" % err)
        self.assertTrue(lines[0].startswith("plot_rounds.py: error: "), lines[0])
        self.assertIn(os.path.join(b, "rounds.csv"), lines[0])
        self.assertNotIn("Traceback", err)
        self.assertFalse(os.path.exists(os.path.join(a, "plots")))  # nothing written

    def test_wrong_label_count_exits_2(self):
        a = self.path("badlab")
        make_run_a(a)
        rc, out, err = run_script(a, "--labels", "x,y")
        self.assertEqual(rc, 2, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("--labels", err)
        self.assertFalse(os.path.exists(os.path.join(a, "plots")))

    def test_header_only_rounds_csv_skips_plots(self):
        d = self.path("empty")
        os.makedirs(d)
        write_csv(os.path.join(d, "rounds.csv"), ROUND_HEADER, [])
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, [])
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertEqual(err.strip(), "")
        self.assertIn("rounds.csv has no rows", out)
        self.assertIn("rounds: 0", out)
        out_dir = os.path.join(d, "plots")
        for name in PNGS:
            self.assertIn("%s skipped" % name, out)
            self.assertFalse(os.path.exists(os.path.join(out_dir, name)), name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
