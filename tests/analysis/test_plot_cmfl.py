#!/usr/bin/python3
"""Tests for analysis/plot_cmfl.py on small synthetic cmfl run folders.

Run:  /usr/bin/python3 tests/analysis/test_plot_cmfl.py
(exits non-zero if a test fails).  The folders follow the trace formats of the CMFL plan
(rounds.csv, run.json, committee.csv, ccp.csv, aggregation.csv).  The script is run as a
program (exit codes, stdout table, PNGs, notes) and imported, to check what its figures
plot (per-round series, aggregation counts, CCP attempts and outcomes, communication bars)
against hand counts; both need Debian's pandas and matplotlib.
"""

import csv
import importlib.util
import json
import math
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
SCRIPT = os.path.join(REPO, "analysis", "plot_cmfl.py")
# the scripts import the d2dlearn_analysis package beside them
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNGS = ["accuracy.png", "malicious.png", "aggregation.png", "communication.png", "ccp.png"]
ROUND_HEADER = ["round", "sim_time_s", "node", "metric", "value"]
COMMITTEE_HEADER = ["round", "sim_time_s", "training", "committee", "aggregation",
                    "n1", "n2", "n3"]
CCP_HEADER = ["round", "step", "attempt", "primary", "replies", "quorum", "outcome",
              "sim_time_s"]
AGGREGATION_HEADER = ["device", "malicious", "training", "committee", "aggregated"]

# Run A: CMFL-I under back-gradient attack at 1 Mbit/s, rounds 1..4.
A = {
    "params": {"algorithm": "cmfl-1", "attack": "back-gradient", "maliciousFraction": 0.1,
               "committeeFraction": 0.4, "aggregationFraction": 0.4,
               "activationFraction": 0.1, "linkRateBps": 1e6, "maliciousDevices": [2, 5]},
    "wall": 12.5,
    "accuracy": [0.25, 0.5, 0.625, 0.75],
    "loss": [2.0, 1.5, 1.25, 1.0],
    "round_time_s": [2.0, 3.0, 2.5, 4.5],      # mean 3.0
    "bytes_sent": [1000, 2000, 3000, 4000],    # mean 2500
    # round: (training, committee, aggregation, n1, n2, n3)
    "committee": {1: (6, 4, 2, 1, 0, 0), 2: (6, 4, 2, 2, 1, 1), 3: (6, 4, 2, 0, 2, 0),
                  4: (6, 4, 2, 1, 1, 1)},
    # aggregated per device: 0 x4, 1 x3, 3 x2, 5 x1 (2 and 4 never)
    "aggregated": [0, 0, 3, 1, 0, 5, 1, 1, 3, 0],
}
A_AGG_COUNTS = [4, 3, 0, 2, 0, 1]  # clients aggregated 0, 1, ..., 5 times
# ccp.csv of run A: (round, step, attempt, outcome)
A_CCP = [
    (1, "scores", 0, "exchanged"), (1, "aggregation", 1, "consensus"),
    (1, "election", 1, "consensus"),
    (2, "scores", 0, "exchanged"), (2, "aggregation", 1, "timeout"),
    (2, "aggregation", 2, "consensus"), (2, "election", 1, "consensus"),
    (3, "scores", 0, "exchanged"),                        # no vote in round 3
    (4, "scores", 0, "exchanged"), (4, "aggregation", 1, "timeout"),
    (4, "aggregation", 2, "timeout"), (4, "aggregation", 3, "failed"),
    (4, "election", 1, "timeout"), (4, "election", 2, "consensus"),
]
A_ATTEMPTS = {1: 2, 2: 3, 3: 0, 4: 5}
A_OUTCOMES = {"aggregation": {"consensus": 2, "timeout": 3, "failed": 1},
              "election": {"consensus": 3, "timeout": 1, "failed": 0}}

# Run B and B2: FedAvg under back-gradient attack at 1 Mbit/s (two seeds).
B = {"params": {"algorithm": "fedavg", "attack": "back-gradient", "maliciousFraction": 0.1,
                "linkRateBps": 1e6},
     "wall": 3.0, "accuracy": [0.3, 0.4, 0.45], "loss": [2.1, 1.9, 1.8],
     "round_time_s": [1.0, 1.0, 2.5], "bytes_sent": [500, 500, 800]}   # 1.5 s, 600 B
B2 = {"params": B["params"], "wall": 5.0, "accuracy": [0.35, 0.375], "loss": [2.0, 1.95],
      "round_time_s": [0.5, 1.5], "bytes_sent": [400, 400]}            # 1.0 s, 400 B

# Run C: CMFL-II without attack at 10 Mbit/s, header-only ccp.csv.
C = {"params": {"algorithm": "cmfl-2", "attack": "none", "maliciousFraction": 0,
                "linkRateBps": 1e7},
     "wall": 8.0, "accuracy": [0.5, 0.8], "loss": [1.0, 0.5],
     "round_time_s": [0.25, 0.75], "bytes_sent": [100, 300],            # 0.5 s, 200 B
     "committee": {1: (3, 2, 1, 0, 0, 0), 2: (3, 2, 1, 0, 0, 0)},
     "aggregated": [2, 2, 0], "ccp": []}
C_AGG_COUNTS = [1, 0, 2]

# Run D: Median under same-value attack at 100 Mbit/s; no round_time_s / bytes_sent rows.
# Its run.json is an older cmfl's (the share in percent: maliciousPercent 10 is 0.1).
D = {"params": {"algorithm": "median", "attack": "same-value", "maliciousPercent": 10,
                "linkRateBps": 1e8},
     "wall": 2.0, "accuracy": [0.2, 0.4, 0.6], "loss": [2.5, 2.0, 1.5]}


def write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")  # as D2dTraceHelper writes
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def make_run(folder, spec, extra_round_rows=()):
    """Write a run folder like build/bin/cmfl does."""
    os.makedirs(folder)
    rows = []
    n = len(spec["accuracy"])
    for k in range(1, n + 1):
        t = repr(10.0 * k)
        for metric in ("accuracy", "loss", "round_time_s", "bytes_sent"):
            if metric in spec:
                rows.append([k, t, -1, metric, repr(spec[metric][k - 1])])
        if "committee" in spec:
            rows.append([k, t, -1, "training_clients", "6"])
            rows.append([k, t, -1, "ccp_attempts", "2"])
            rows.append([k, t, -1, "consensus", "1"])
        rows.append([k, t, 3, "accuracy", "0.99"])  # a device row: never the global value
    rows.extend(extra_round_rows)
    write_csv(os.path.join(folder, "rounds.csv"), ROUND_HEADER, rows)
    if "committee" in spec:
        write_csv(os.path.join(folder, "committee.csv"), COMMITTEE_HEADER,
                  [[k, repr(10.0 * k)] + list(v) for k, v in sorted(spec["committee"].items())])
    if "aggregated" in spec:
        write_csv(os.path.join(folder, "aggregation.csv"), AGGREGATION_HEADER,
                  [[d, int(d in spec["params"].get("maliciousDevices", [])), 3, 1, a]
                   for d, a in enumerate(spec["aggregated"])])
    if "ccp" in spec:
        write_csv(os.path.join(folder, "ccp.csv"), CCP_HEADER,
                  [[k, step, att, -1 if step == "scores" else att % 4,
                    8 if step == "scores" else 3, 3, out, repr(10.0 * k - 1 + 0.1 * att)]
                   for k, step, att, out in spec["ccp"]])
    with open(os.path.join(folder, "run.json"), "w") as fh:
        json.dump({"version": "0.1.0", "seed": 1, "simulated_time_s": 10.0 * n,
                   "wall_time_s": spec["wall"], "message_rows": 0, "energy_rows": 0,
                   "parameters": spec["params"]}, fh, indent=2)


def run_script(*args):
    """plot_cmfl.py with args, its main() in this process (figure_checks.run_main): exit
    status, stdout, stderr, as its command line gives them."""
    return figure_checks.run_main("plot_cmfl", list(args))


def run_process(*args):
    """plot_cmfl.py with args in a process of its own: exit status, stdout, stderr."""
    proc = subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def import_script():
    spec = importlib.util.spec_from_file_location("plot_cmfl", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_table(out):
    """The stdout table: {run folder name: {column: text}}."""
    lines = out.splitlines()
    start = [i for i, line in enumerate(lines) if line.split()[:3] == ["run", "algorithm",
                                                                       "attack"]]
    if len(start) != 1:
        raise AssertionError("no table header in:\n%s" % out)
    header = lines[start[0]].split()
    table = {}
    for line in lines[start[0] + 1:]:
        if line.startswith(("note:", "wrote ")) or not line.strip():
            break
        cells = line.split()
        if len(cells) != len(header):
            raise AssertionError("table line %r has %d cells, header %d"
                                 % (line, len(cells), len(header)))
        table[cells[0]] = dict(zip(header, cells))
    return table


def pngs_ok(testcase, out_dir, names):
    for name in names:
        path = os.path.join(out_dir, name)
        testcase.assertTrue(os.path.isfile(path), "missing %s" % path)
        testcase.assertGreater(os.path.getsize(path), 1000, "%s too small" % path)
        with open(path, "rb") as fh:
            testcase.assertEqual(fh.read(8), PNG_SIGNATURE, "%s is not a PNG" % path)
    leftovers = [f for f in os.listdir(out_dir) if f.startswith(".") or f.endswith(".tmp")]
    testcase.assertEqual(leftovers, [], "temporary files left in %s" % out_dir)


class PlotCmflTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test_plot_cmfl_")
        cls.mod = import_script()
        A["ccp"] = A_CCP
        # Run A's round 4 accuracy is written twice, 0.5 then 0.75: the last row counts.
        cls.a = cls.path_of("cmfl1_bg")
        make_run(cls.a, dict(A, accuracy=A["accuracy"][:3] + [0.5]),
                 extra_round_rows=[[4, "40.0", -1, "accuracy", "0.75"]])
        cls.b = cls.path_of("fedavg_bg")
        make_run(cls.b, B)
        cls.b2 = cls.path_of("fedavg_bg_seed2")
        make_run(cls.b2, B2)
        cls.c = cls.path_of("cmfl2_none")
        make_run(cls.c, C)
        cls.d = cls.path_of("median_sv")
        make_run(cls.d, D)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def path_of(cls, name):
        return os.path.join(cls.tmp, name)

    def load(self, *dirs):
        return [self.mod.load_run(d) for d in dirs]

    # ---------------------------------------------------------------- computations

    def test_global_series_uses_node_minus_one_and_last_row(self):
        (a,) = self.load(self.a)
        self.assertEqual(list(a["accuracy"].index), [1, 2, 3, 4])
        self.assertEqual(list(a["accuracy"]), A["accuracy"])  # not 0.99 (node 3), not 0.5
        self.assertEqual(list(a["round_time_s"]), A["round_time_s"])
        s = self.mod.run_summary(a)
        self.assertEqual(s["rounds"], 4)
        self.assertEqual(s["final_accuracy"], 0.75)
        self.assertEqual(s["mean_round_time_s"], 3.0)
        self.assertEqual(s["mean_bytes_per_round"], 2500.0)
        (d,) = self.load(self.d)
        s = self.mod.run_summary(d)
        self.assertTrue(math.isnan(s["mean_round_time_s"]))
        self.assertTrue(math.isnan(s["mean_bytes_per_round"]))

    def test_aggregation_counts(self):
        a, c = self.load(self.a, self.c)
        got = self.mod.aggregation_counts(a["aggregation"])
        self.assertEqual(list(got.index), list(range(6)))
        self.assertEqual(list(got), A_AGG_COUNTS)
        self.assertEqual(sum(got), len(A["aggregated"]))
        self.assertEqual(list(self.mod.aggregation_counts(c["aggregation"])), C_AGG_COUNTS)

    def test_ccp_attempts_and_outcomes(self):
        (a,) = self.load(self.a)
        attempts, counts, unknown = self.mod.ccp_summary(a["ccp"])
        self.assertEqual(dict(attempts), A_ATTEMPTS)
        self.assertEqual(counts, A_OUTCOMES)
        self.assertEqual(unknown, {})
        # An unknown outcome is reported, not counted.
        ccp = a["ccp"].copy()
        ccp.loc[1, "outcome"] = "maybe"
        attempts, counts, unknown = self.mod.ccp_summary(ccp)
        self.assertEqual(unknown, {("aggregation", "maybe"): 1})
        self.assertEqual(counts["aggregation"]["consensus"], 1)
        self.assertEqual(attempts[1], 2)

    def test_communication_bars(self):
        runs = self.load(self.a, self.b, self.b2, self.c, self.d)
        table = self.mod.communication_table(runs)
        rows = [(r["label"], r["rate_bps"], r["runs"]) for _, r in table.iterrows()]
        # Sorted by link rate, then the paper's algorithm order; two FedAvg runs merged.
        self.assertEqual(rows, [("CMFL-I", 1e6, 1), ("FedAvg", 1e6, 2),
                                ("CMFL-II", 1e7, 1), ("Median", 1e8, 1)])
        fed = table.iloc[1]
        self.assertEqual(fed["round_time_s"], (1.5 + 1.0) / 2)
        self.assertEqual(fed["bytes_per_round"], (600.0 + 400.0) / 2)
        self.assertEqual(fed["wall_time_s"], (3.0 + 5.0) / 2)
        med = table.iloc[3]
        self.assertTrue(math.isnan(med["round_time_s"]))
        self.assertEqual(med["wall_time_s"], 2.0)
        self.assertEqual(self.mod.rate_text(1e6), "1 Mbit/s")
        self.assertEqual(self.mod.rate_text(1e7), "10 Mbit/s")
        self.assertEqual(self.mod.rate_text(1e8), "100 Mbit/s")
        self.assertEqual(self.mod.rate_text(None), "link rate n/a")

    def test_figure_contents(self):
        plt = self.mod.plt
        runs = self.load(self.a, self.b, self.b2, self.c, self.d)
        fig = self.mod.figure_accuracy(runs)
        axes = fig.axes
        # Columns: no attack, same-value, back-gradient (the paper's order); loss on top.
        titles = [ax.get_title() for ax in axes[:3]]
        self.assertEqual(titles, ["No attack", "Same-value attack (\u03b5 = 10%)",
                                  "Back-gradient attack (\u03b5 = 10%)"])
        bottom_bg = axes[5]
        lines = {ln.get_label(): list(ln.get_ydata()) for ln in bottom_bg.lines}
        self.assertEqual(set(lines), {"CMFL-I", "FedAvg [fedavg_bg]",
                                      "FedAvg [fedavg_bg_seed2]"})
        self.assertEqual(lines["CMFL-I"], A["accuracy"])
        self.assertEqual(lines["FedAvg [fedavg_bg]"], B["accuracy"])
        top_bg = {ln.get_label(): list(ln.get_ydata()) for ln in axes[2].lines}
        self.assertEqual(top_bg["CMFL-I"], A["loss"])
        plt.close(fig)

        fig = self.mod.figure_malicious(runs)
        panels = [ax for ax in fig.axes if ax.lines]
        self.assertEqual(len(panels), 2)  # runs A and C have committee.csv
        self.assertIn("CMFL-I, back-gradient, \u03b5 = 10%", panels[0].get_title())
        for i, key in enumerate(("n1", "n2", "n3")):
            self.assertEqual(list(panels[0].lines[i].get_ydata()),
                             [A["committee"][k][3 + i] for k in (1, 2, 3, 4)], key)
        plt.close(fig)

        fig = self.mod.figure_aggregation(runs)
        # A histogram: bars (item 5: not points joined by lines).
        self.assertEqual(len(fig.axes[0].lines), 0)
        bars = {c.get_label(): [p.get_height() for p in c] for c in fig.axes[0].containers}
        self.assertEqual(bars, {"CMFL-I": A_AGG_COUNTS, "CMFL-II": C_AGG_COUNTS})
        plt.close(fig)

        fig = self.mod.figure_ccp(runs)  # run C's ccp.csv is header-only: left out
        self.assertEqual([list(ln.get_ydata()) for ln in fig.axes[0].lines],
                         [[A_ATTEMPTS[k] for k in (1, 2, 3, 4)]])
        heights = sorted(p.get_height() for p in fig.axes[1].patches)
        want = sorted(A_OUTCOMES[s][o] for s in ("aggregation", "election")
                      for o in ("consensus", "timeout", "failed"))
        self.assertEqual(heights, want)
        plt.close(fig)

    def test_figures_labelled_in_domain(self):
        # Items 1, 2, 5, 7: every figure drawn in process: labelled axes with units, rates
        # in [0, 1], legends of at most 8 entries; --out created with its parents.
        out_dir = self.path_of("new/plots")
        rc, _, figs = figure_checks.render(
            "plot_cmfl", [self.a, self.b, self.b2, self.c, self.d, "--out", out_dir])
        self.assertEqual(rc, 0)
        self.assertEqual(len(figs), len(PNGS))
        self.assertEqual(figure_checks.all_problems(figs), [])
        comm = figure_checks.labels(figure_checks.figure(figs, "communication"))
        self.assertTrue(any(lab.endswith("[s]") for lab in comm))
        self.assertTrue(any(lab.endswith("B]") for lab in comm))
        acc = figure_checks.figure(figs, "accuracy")
        rate_axes = [ax for ax in acc.axes if ax.get_ylabel().startswith("Test accuracy")]
        self.assertTrue(rate_axes)
        self.assertTrue(all(ax.get_ylim() == (0.0, 1.0) for ax in rate_axes))

    def test_constant_attempts_drawn_as_constant(self):
        # Two votes (aggregation, election) each round: ccp.png's attempts are a constant
        # 2, on an axis from 0 (not 1.9..2.1 with offset ticks), rounds at whole numbers.
        folder = self.path_of("cmfl1_constant")
        make_run(folder, dict(A, ccp=[(k, step, 1, "consensus") for k in (1, 2, 3, 4)
                                      for step in ("aggregation", "election")]))
        rc, _, figs = figure_checks.render("plot_cmfl", [folder, "--out",
                                                         self.path_of("constant_plots")])
        self.assertEqual(rc, 0)
        self.assertEqual(figure_checks.all_problems(figs), [])
        ax = figure_checks.figure(figs, "ccp").axes[0]
        self.assertEqual(list(ax.lines[0].get_ydata()), [2, 2, 2, 2])
        self.assertEqual(ax.get_ylim(), (0.0, 2.2))
        self.assertEqual([t for t in ax.get_xticks() if 1 <= t <= 4], [1, 2, 3, 4])

    # ---------------------------------------------------------------- the program

    def test_all_figures_and_table(self):
        out_dir = self.path_of("plots_all")
        rc, out, err = run_process(self.a, self.b, self.b2, self.c, self.d, "--out", out_dir)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertEqual(err.strip(), "")
        pngs_ok(self, out_dir, PNGS)
        self.assertEqual(sorted(os.listdir(out_dir)), sorted(PNGS))
        table = parse_table(out)
        self.assertEqual(set(table), {"cmfl1_bg", "fedavg_bg", "fedavg_bg_seed2",
                                      "cmfl2_none", "median_sv"})
        want = {
            "cmfl1_bg": ("cmfl-1", "back-gradient", 4, 0.75, 3.0, 2500.0),
            "fedavg_bg": ("fedavg", "back-gradient", 3, 0.45, 1.5, 600.0),
            "fedavg_bg_seed2": ("fedavg", "back-gradient", 2, 0.375, 1.0, 400.0),
            "cmfl2_none": ("cmfl-2", "none", 2, 0.8, 0.5, 200.0),
            "median_sv": ("median", "same-value", 3, 0.6, None, None),
        }
        for name, (alg, attack, rounds, acc, rt, by) in want.items():
            row = table[name]
            self.assertEqual(row["algorithm"], alg)
            self.assertEqual(row["attack"], attack)
            self.assertEqual(int(row["rounds"]), rounds)
            self.assertAlmostEqual(float(row["final_accuracy"]), acc, places=9)
            for col, value in (("mean_round_time_s", rt), ("mean_bytes_per_round", by)):
                if value is None:
                    self.assertEqual(row[col], "n/a", name)
                else:
                    self.assertAlmostEqual(float(row[col]), value, places=9, msg=name)
        self.assertIn("note: communication.png: 2 runs of FedAvg at 1 Mbit/s averaged", out)
        self.assertIn("left out of ccp.png: ccp.csv has no rows", out)

    def test_default_out_and_skipped_figures(self):
        rc, out, err = run_script(self.b, self.d)  # no CMFL traces
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        pngs_ok(self, self.b, ["accuracy.png", "communication.png"])  # first RUN_DIR
        for name, why in (("malicious.png", "committee.csv"),
                          ("aggregation.png", "aggregation.csv"), ("ccp.png", "ccp.csv")):
            self.assertIn("note: %s skipped: no run has %s" % (name, why), out)
            self.assertFalse(os.path.exists(os.path.join(self.b, name)))
        self.assertEqual(set(parse_table(out)), {"fedavg_bg", "median_sv"})
        for name in ("accuracy.png", "communication.png"):
            os.remove(os.path.join(self.b, name))

    def test_format_and_stale_figures(self):
        # malicious.png from an earlier CMFL run in this folder, older than the traces: the
        # runs plotted now have no committee.csv, so it would be left showing old data.
        out_dir = self.path_of("plots_fmt")
        os.makedirs(out_dir)
        stale = os.path.join(out_dir, "malicious.png")
        with open(stale, "wb") as fh:
            fh.write(b"x")
        old = time.time() - 3600
        os.utime(stale, (old, old))
        rc, out, err = run_script(self.b, self.d, "--out", out_dir, "--format", "pdf")
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertEqual(sorted(os.listdir(out_dir)), ["accuracy.pdf", "communication.pdf"])
        with open(os.path.join(out_dir, "accuracy.pdf"), "rb") as fh:
            self.assertEqual(fh.read(5), b"%PDF-")
        self.assertIn("note: malicious.pdf skipped", out)

    def test_bad_input_one_line_exit_2_nothing_written(self):
        def broken(name, edit):
            folder = self.path_of("bad_" + name)
            make_run(folder, dict(A, ccp=A_CCP))
            edit(folder)
            return folder

        def rewrite(folder, file, old, new):
            path = os.path.join(folder, file)
            with open(path) as fh:
                text = fh.read()
            self.assertIn(old, text)
            with open(path, "w") as fh:
                fh.write(text.replace(old, new, 1))

        f_rounds = broken("rounds", lambda f: os.remove(os.path.join(f, "rounds.csv")))
        f_json = broken("json", lambda f: rewrite(f, "run.json", "{", "[", ))
        f_nojson = broken("nojson", lambda f: os.remove(os.path.join(f, "run.json")))
        f_ccpcol = broken("ccpcol", lambda f: rewrite(f, "ccp.csv", ",outcome,", ",result,"))
        f_comm = broken("comm", lambda f: rewrite(f, "committee.csv", "\n2,20.0,6,4,2,2,1,1",
                                                  "\n2,20.0,6,4,2,2,x,1"))
        f_agg = broken("agg", lambda f: rewrite(f, "aggregation.csv", ",5\n", ",2.5\n"))
        f_wall = broken("wall", lambda f: rewrite(f, "run.json", '"wall_time_s": 12.5',
                                                  '"wall_time_s": "slow"'))
        a_file = os.path.join(self.tmp, "a_file")
        with open(a_file, "w") as fh:
            fh.write("x")
        cases = [
            ([f_rounds], os.path.join(f_rounds, "rounds.csv")),
            ([f_json], "cannot parse %s" % os.path.join(f_json, "run.json")),
            ([f_nojson], "missing run.json: %s" % os.path.join(f_nojson, "run.json")),
            ([f_ccpcol], "ccp.csv lacks required column(s): outcome"),
            ([f_comm], "non-numeric value 'x' in column n2"),
            ([f_agg], "aggregation.csv: line 7: column aggregated must be a count"),
            ([f_wall], "wall_time_s is 'slow'"),
            ([self.path_of("no_such_run")], "run folder not found"),
            (["--out", a_file], "--out: %s is not a folder" % a_file),
            ([], "the following arguments are required: RUN_DIR"),
        ]
        out_dir = self.path_of("plots_bad")
        sentinel = os.path.join(out_dir, "accuracy.png")
        for bad_args, expected in cases:
            with self.subTest(expected=expected):
                # Each case from the same state: PLOT_DIR holds one older figure.
                shutil.rmtree(out_dir, ignore_errors=True)
                os.makedirs(out_dir)
                with open(sentinel, "wb") as fh:
                    fh.write(b"previous figure")
                # A good run first: its figures would be fine, but nothing may be written.
                if not bad_args:
                    args = []
                elif bad_args[0] == "--out":
                    args = [self.a] + bad_args
                else:
                    args = [self.a] + bad_args + ["--out", out_dir]
                # Two cases as processes of their own (the command line's exit status
                # and stderr), the others in this process (figure_checks.run_main).
                run = run_process if bad_args in ([], [f_json]) else run_script
                rc, out, err = run(*args)
                self.assertEqual(rc, 2, "stdout:\n%s\nstderr:\n%s" % (out, err))
                lines = err.strip().splitlines()
                self.assertEqual(len(lines), 1, "stderr should be one line:\n%s" % err)
                self.assertTrue(lines[0].startswith("plot_cmfl.py: error: "), lines[0])
                self.assertIn(expected, lines[0])
                self.assertNotIn("Traceback", err)
                self.assertEqual(out.strip(), "", "no table on bad input")
                self.assertEqual(os.listdir(out_dir), ["accuracy.png"])
                with open(sentinel, "rb") as fh:
                    self.assertEqual(fh.read(), b"previous figure")
                self.assertFalse(any(n.endswith(".png") for n in os.listdir(self.a)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
