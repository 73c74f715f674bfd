#!/usr/bin/python3
"""Tests for analysis/plot_traces.py on small synthetic trace folders.

Run:  /usr/bin/python3 tests/analysis/test_plot_traces.py
(exits non-zero if a test fails).  Only the Python standard library is used
here; the script under test needs Debian's pandas and matplotlib.
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
SCRIPT = os.path.join(REPO, "analysis", "plot_traces.py")
# the scripts import the d2dlearn_analysis package beside them
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNGS = ["latency_cdf.png", "link_loss.png", "energy_per_node.png"]
MSG_HEADER = ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "t_recv_s",
              "fragments", "fragments_lost", "retransmissions", "delivered"]
ENERGY_HEADER = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                 "duration_s", "power_w", "periods"]


def write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def run_script(*args):
    """plot_traces.py with args, its main() in this process (figure_checks.run_main): exit
    status, stdout, stderr, as its command line gives them."""
    return figure_checks.run_main("plot_traces", list(args))


def run_process(*args):
    """plot_traces.py with args in a process of its own: exit status, stdout, stderr."""
    proc = subprocess.run([PYTHON, SCRIPT] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def make_messages(with_mode=True, with_pdrop=True, bool_words=False):
    """Synthetic messages with known statistics.

    Returns (rows, header, expected) where expected holds hand-computed values.
      link 0->1 unreliable, P_D 0.2: 100 msgs x 10 fragments = 1000 fragments,
                20 msgs lose all 10 -> exactly 200 lost, 80 delivered.
      link 1->0 unreliable, P_D 0.5: 10 msgs x 4 fragments = 40, 5 lose all 4
                -> 20 lost, 5 delivered.
      link 0->2 reliable,   P_D 0.3: 10 msgs x 5 fragments, 0 lost, 2 retx each,
                all delivered.
    """
    rows = []
    lat = {"unreliable": [], "reliable": []}
    delivered = 0
    mid = 0

    def flag(b):
        if bool_words:
            return "true" if b else "false"
        return 1 if b else 0

    def add(src, dst, mode, pdrop, frags, lost, retx, t_send, latency):
        nonlocal mid, delivered
        ok = latency is not None
        t_recv = "" if not ok else repr(t_send + latency)
        row = [mid, "model", src, dst, 1000 * frags, repr(t_send), t_recv,
               frags, lost, retx, flag(ok)]
        if with_mode:
            row.append(mode)
        if with_pdrop:
            row.append(pdrop)
        rows.append(row)
        if ok:
            delivered += 1
            # Same float arithmetic as the script: t_recv - t_send.
            lat[mode].append(float(t_recv) - t_send)
        mid += 1

    for i in range(100):
        t = 1.0 + 0.1 * i
        if i < 20:
            add(0, 1, "unreliable", 0.2, 10, 10, 0, t, None)
        else:
            add(0, 1, "unreliable", 0.2, 10, 0, 0, t, 0.001 * (i % 7 + 1))
    for i in range(10):
        t = 20.0 + 0.5 * i
        if i % 2 == 0:
            add(1, 0, "unreliable", 0.5, 4, 4, 0, t, None)
        else:
            add(1, 0, "unreliable", 0.5, 4, 0, 0, t, 0.002 * i)
    for i in range(10):
        t = 30.0 + 0.5 * i
        add(0, 2, "reliable", 0.3, 5, 0, 2, t, 0.05 + 0.01 * i)

    header = list(MSG_HEADER)
    if with_mode:
        header.append("mode")
    if with_pdrop:
        header.append("p_drop")
    expected = {
        "rows": len(rows),
        "delivered": delivered,
        "delivered_fraction": delivered / len(rows),
        "mean_latency": {m: sum(v) / len(v) for m, v in lat.items()},
        "mean_latency_all": sum(lat["unreliable"] + lat["reliable"])
        / len(lat["unreliable"] + lat["reliable"]),
        "n_latency": {m: len(v) for m, v in lat.items()},
        "observed_loss_unreliable": (200 + 20) / (1000 + 40),
        "observed_loss_all": (200 + 20) / (1000 + 40 + 50),
    }
    return rows, header, expected


def make_energy(n_nodes=3):
    """Energy events with known per-component totals."""
    comps = ["radio_tx", "radio_rx", "radio_idle", "compute", "d2s_tx", "d2s_rx"]
    rows = []
    totals = {c: 0.0 for c in comps}
    for node in range(n_nodes):
        remaining = 100.0
        for k, comp in enumerate(comps):
            for rep in range(3):
                e = 0.01 * (k + 1) * (node + 1) + 0.001 * rep
                remaining -= e
                t = 0.1 * rep + k
                d = min(t, 0.1)  # one period of up to 0.1 s ending at t
                rows.append([t, node, comp, repr(e), repr(remaining), "%.9f" % (t - d),
                             "%.9f" % d, repr(e / d if d > 0 else 0.0), 1])
                totals[comp] += e
    return rows, totals


def pngs_ok(testcase, out_dir, names):
    for name in names:
        path = os.path.join(out_dir, name)
        testcase.assertTrue(os.path.isfile(path), "missing %s" % path)
        testcase.assertGreater(os.path.getsize(path), 100, "%s too small" % path)
        with open(path, "rb") as fh:
            testcase.assertEqual(fh.read(8), PNG_SIGNATURE, "%s is not a PNG" % path)


def no_temp_files(testcase, out_dir):
    if os.path.isdir(out_dir):
        leftovers = [f for f in os.listdir(out_dir) if not f.endswith(".png")]
        testcase.assertEqual(leftovers, [], "temporary files left in %s" % out_dir)


def number_after(pattern, text):
    m = re.search(pattern, text)
    if m is None:
        raise AssertionError("pattern %r not found in output:\n%s" % (pattern, text))
    return m


class PlotTracesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test_plot_traces_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def folder(self, name):
        path = os.path.join(self.tmp, name)
        os.makedirs(path)
        return path

    def test_full_traces_with_mode_and_pdrop(self):
        d = self.folder("full")
        rows, header, exp = make_messages(with_mode=True, with_pdrop=True)
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, totals = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)

        rc, out, err = run_process(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        out_dir = os.path.join(d, "plots")  # default output folder
        pngs_ok(self, out_dir, PNGS)
        no_temp_files(self, out_dir)

        self.assertIn("%d rows" % exp["rows"], out)
        # No partial delivery in these rows: complete (derived, no column) = delivered.
        m = number_after(r"complete fraction: ([0-9.]+) \((\d+)/(\d+)\)", out)
        self.assertAlmostEqual(float(m.group(1)), exp["delivered_fraction"], places=6)
        self.assertEqual((int(m.group(2)), int(m.group(3))), (exp["delivered"], exp["rows"]))
        m = number_after(r"delivered \(at least one fragment\): ([0-9.]+) \((\d+)/(\d+)\)", out)
        self.assertAlmostEqual(float(m.group(1)), exp["delivered_fraction"], places=6)
        self.assertEqual((int(m.group(2)), int(m.group(3))), (exp["delivered"], exp["rows"]))
        self.assertEqual((exp["delivered"], exp["rows"]), (95, 120))

        for mode in ("unreliable", "reliable"):
            m = number_after(r"mode %s: .*mean latency ([0-9.eE+-]+) s \(n=(\d+)\)" % mode, out)
            self.assertEqual(int(m.group(2)), exp["n_latency"][mode])
            self.assertAlmostEqual(float(m.group(1)) / exp["mean_latency"][mode], 1.0, places=5)

        # Observed loss on unreliable rows only; per-link loss equals P_D exactly.
        m = number_after(r"link loss \(unreliable rows, P_D from messages\.csv column p_drop\): "
                         r"(\d+) link\(s\), (\d+) fragments, observed loss ([0-9.]+), "
                         r"fragment-weighted mean P_D ([0-9.]+), max \|loss - P_D\| ([0-9.]+)", out)
        self.assertEqual(int(m.group(1)), 2)
        self.assertEqual(int(m.group(2)), 1040)
        self.assertAlmostEqual(float(m.group(3)), exp["observed_loss_unreliable"], places=6)
        self.assertAlmostEqual(float(m.group(4)), (0.2 * 1000 + 0.5 * 40) / 1040, places=6)
        self.assertAlmostEqual(float(m.group(5)), 0.0, places=6)

        # The reliable link 0->2: 10 unicasts x 5 fragments x 2 retransmissions each,
        # 20/50 = 0.4 per fragment, against P_D/(1-P_D) = 0.3/0.7.
        m = number_after(r"link retransmissions \(reliable unicast rows\): (\d+) link\(s\), "
                         r"(\d+) fragments, retransmissions per fragment ([0-9.]+), "
                         r"fragment-weighted mean P_D/\(1-P_D\) ([0-9.]+)", out)
        self.assertEqual((m.group(1), m.group(2)), ("1", "50"))
        self.assertAlmostEqual(float(m.group(3)), 0.4, places=6)
        self.assertAlmostEqual(float(m.group(4)), 0.3 / 0.7, places=6)
        pngs_ok(self, out_dir, ["link_retransmissions.png"])

        for comp, total in totals.items():
            m = number_after(r"total energy %s: ([0-9.eE+-]+) J" % comp, out)
            self.assertAlmostEqual(float(m.group(1)) / total, 1.0, places=5)
        self.assertEqual(err.strip(), "")

    def reliable_run(self, name):
        """A reliable run: link 0->1 (P_D 0.5) 20 unicasts of 10 fragments with 10
        retransmissions each, link 1->0 (P_D 0.2) 10 unicasts of 4 fragments with 2 each,
        and a broadcast (msg 99, two rows) whose 100 retransmissions serve its worst
        receiver and are left out."""
        d = self.folder(name)
        header = MSG_HEADER + ["complete", "mode", "p_drop", "reason"]
        rows = []
        for i in range(20):
            rows.append([i, "model", 0, 1, 10000, "1.0", "1.5", 10, 0, 10, 1, 1, "reliable",
                         0.5, ""])
        for i in range(10):
            rows.append([20 + i, "model", 1, 0, 4000, "2.0", "2.1", 4, 0, 2, 1, 1,
                         "reliable", 0.2, ""])
        for dst in (0, 1):
            rows.append([99, "model", 2, dst, 10000, "3.0", "3.5", 10, 0, 100, 1, 1,
                         "reliable", 0.9, ""])
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        with open(os.path.join(d, "run.json"), "w") as fh:
            json.dump({"parameters": {"ns3::D2dChannel::MaxRetransmissions": 7}}, fh)
        return d

    def test_reliable_run_plots_retransmissions_not_loss(self):
        d = self.reliable_run("reliable")
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        out_dir = os.path.join(d, "plots")
        # Per fragment (200 + 20) / (200 + 40); P_D/(1-P_D) 1 and 0.25, weighted
        # (1 x 200 + 0.25 x 40) / 240 = 0.875.
        m = number_after(r"link retransmissions \(reliable unicast rows\): (\d+) link\(s\), "
                         r"(\d+) fragments, retransmissions per fragment ([0-9.]+), "
                         r"fragment-weighted mean P_D/\(1-P_D\) ([0-9.]+)", out)
        self.assertEqual((m.group(1), m.group(2)), ("2", "240"))
        self.assertAlmostEqual(float(m.group(3)), 220 / 240, places=6)
        self.assertAlmostEqual(float(m.group(4)), 0.875, places=6)
        pngs_ok(self, out_dir, ["latency_cdf.png", "link_retransmissions.png",
                                "energy_per_node.png"])
        self.assertFalse(os.path.exists(os.path.join(out_dir, "link_loss.png")))
        self.assertIn("link_loss.png skipped: no unreliable rows", out)
        # The per-link table the figure shows.
        spec = importlib.util.spec_from_file_location("plot_traces", SCRIPT)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        per_link = mod.link_retransmissions(mod.load_messages(os.path.join(d, "messages.csv")))
        self.assertEqual(sorted(per_link.index), [(0, 1), (1, 0)])
        self.assertAlmostEqual(per_link.loc[(0, 1), "per_fragment"], 1.0)
        self.assertAlmostEqual(per_link.loc[(1, 0), "per_fragment"], 0.5)
        self.assertAlmostEqual(per_link.loc[(1, 0), "x"], 0.25)

    def test_format_and_stale_figures(self):
        d = self.reliable_run("rerun")
        out_dir = os.path.join(d, "plots")
        os.makedirs(out_dir)
        # A link_loss.png of an earlier (unreliable) run in this folder, older than the
        # traces; a link_loss.pdf made after them; a file of the user's.
        old = time.time() - 3600
        for f in ("link_loss.png", "link_loss.pdf", "notes.png"):
            with open(os.path.join(out_dir, f), "wb") as fh:
                fh.write(b"x")
        os.utime(os.path.join(out_dir, "link_loss.png"), (old, old))
        os.utime(os.path.join(out_dir, "notes.png"), (old, old))
        for f in ("messages.csv", "energy.csv"):
            os.utime(os.path.join(d, f), (old + 60, old + 60))
        os.utime(os.path.join(out_dir, "link_loss.pdf"), (old + 120, old + 120))
        rc, out, err = run_script(d, "--format", "svg")
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        for name in ("latency_cdf.svg", "link_retransmissions.svg", "energy_per_node.svg"):
            with open(os.path.join(out_dir, name), "rb") as fh:
                self.assertIn(b"<svg", fh.read(400), name)
        self.assertFalse(os.path.exists(os.path.join(out_dir, "link_loss.png")))
        self.assertIn("removed %s" % os.path.join(out_dir, "link_loss.png"), out)
        self.assertTrue(os.path.exists(os.path.join(out_dir, "link_loss.pdf")))
        self.assertTrue(os.path.exists(os.path.join(out_dir, "notes.png")))
        rc, out, err = run_script(d, "--format", "jpg")
        self.assertEqual(rc, 2)

    def test_links_csv_no_mode_bool_words_many_nodes_out_option(self):
        d = self.folder("links")
        rows, header, exp = make_messages(with_mode=False, with_pdrop=False, bool_words=True)
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        # links.csv: row (rx, tx) is link tx -> rx.  Only links 0->1, 1->0 and 0->2.
        write_csv(os.path.join(d, "links.csv"), ["rx", "tx", "rss_w", "p_drop"],
                  [[1, 0, 1e-9, 0.2], [0, 1, 1e-10, 0.5], [2, 0, 5e-10, 0.3]])
        erows, _ = make_energy(70)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        out_dir = os.path.join(self.tmp, "links_plots_custom")

        rc, out, err = run_script(d, "--out", out_dir)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        pngs_ok(self, out_dir, PNGS)
        no_temp_files(self, out_dir)
        self.assertFalse(os.path.exists(os.path.join(d, "plots")))

        m = number_after(r"mode all: .*complete fraction ([0-9.]+) \((\d+)/(\d+)\).*"
                         r"mean latency ([0-9.eE+-]+) s", out)
        self.assertAlmostEqual(float(m.group(1)), 95 / 120, places=6)
        self.assertAlmostEqual(float(m.group(4)) / exp["mean_latency_all"], 1.0, places=5)

        # No mode column: all rows count, including the reliable link 0->2.
        m = number_after(r"link loss \(all rows, P_D from links\.csv\): (\d+) link\(s\), "
                         r"(\d+) fragments, observed loss ([0-9.]+)", out)
        self.assertEqual(int(m.group(1)), 3)
        self.assertEqual(int(m.group(2)), 1090)
        self.assertAlmostEqual(float(m.group(3)), exp["observed_loss_all"], places=6)
        self.assertIn("first 60 of 70 nodes", out)

    def test_complete_column_counts_partial_deliveries_as_loss(self):
        # Four rows: two complete, one delivered with 2 of 4 fragments missing (a partial
        # unreliable message: delivered 1, complete 0), one lost.
        d = self.folder("complete")
        header = list(MSG_HEADER) + ["complete", "mode"]
        rows = [[0, "model", 0, 1, 4000, "1.0", "1.1", 4, 0, 0, 1, 1, "unreliable"],
                [1, "model", 0, 2, 4000, "1.0", "1.1", 4, 2, 0, 1, 0, "unreliable"],
                [2, "model", 1, 0, 4000, "2.0", "2.1", 4, 0, 0, 1, 1, "unreliable"],
                [3, "model", 1, 2, 4000, "2.0", "", 4, 4, 0, 0, 0, "unreliable"]]
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        self.assertIn("complete fraction: 0.500000 (2/4); "
                      "delivered (at least one fragment): 0.750000 (3/4)", out)
        self.assertIn("mode unreliable: rows 4, complete fraction 0.500000 (2/4), "
                      "delivered 3", out)

    def test_no_pdrop_skips_link_plot(self):
        d = self.folder("nopd")
        rows, header, _ = make_messages(with_mode=True, with_pdrop=False)
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        out_dir = os.path.join(d, "plots")
        pngs_ok(self, out_dir, ["latency_cdf.png", "energy_per_node.png"])
        self.assertFalse(os.path.exists(os.path.join(out_dir, "link_loss.png")))
        self.assertRegex(out, r"link_loss\.png skipped: no P_D available")
        no_temp_files(self, out_dir)

    def test_header_only_files_skip_plots(self):
        d = self.folder("empty")
        write_csv(os.path.join(d, "messages.csv"), MSG_HEADER + ["mode", "p_drop"], [])
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, [])
        rc, out, err = run_script(d)
        self.assertEqual(rc, 0, "stdout:\n%s\nstderr:\n%s" % (out, err))
        out_dir = os.path.join(d, "plots")
        for name in PNGS:
            self.assertFalse(os.path.exists(os.path.join(out_dir, name)), name)
            self.assertIn("%s skipped" % name, out)
        no_temp_files(self, out_dir)

    def figures(self, name, with_mode=True):
        """Render a folder whose messages have two kinds (model, data) in process; returns
        the figures written."""
        d = self.folder(name)
        rows, header, _ = make_messages(with_mode=with_mode, with_pdrop=True)
        for r in rows:
            r[1] = "model" if r[0] % 2 else "data"
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        rc, _, figs = figure_checks.render("plot_traces", [d])
        self.assertEqual(rc, 0)
        return figs

    def test_figures_labelled_with_units_in_domain_small_legends(self):
        # Items 1, 2 and 5: every axis with data labelled (units where there are), rates
        # within [0, 1], energies >= 0, no legend over 8 entries.
        figs = self.figures("checked")
        self.assertEqual(sorted(n for n, _ in figs),
                         ["energy_per_node.png", "latency_cdf.png", "link_loss.png",
                          "link_retransmissions.png"])
        self.assertEqual(figure_checks.all_problems(figs), [])
        labels = {n: figure_checks.labels(f) for n, f in figs}
        self.assertTrue(any("[J]" in lab for lab in labels["energy_per_node.png"]))
        self.assertTrue(any("[s]" in lab for lab in labels["latency_cdf.png"]))
        self.assertTrue(any("P_D" in lab for lab in labels["link_loss.png"]))
        loss_ax = figure_checks.figure(figs, "link_loss").axes[0]
        self.assertEqual(tuple(loss_ax.get_ylim()), (0.0, 1.0))

    def test_latency_cdf_per_kind_faceted_by_mode(self):
        # Item 3: one curve per message kind; a panel per mode when there are several.
        fig = figure_checks.figure(self.figures("kinds"), "latency_cdf")
        self.assertEqual([ax.get_title() for ax in fig.axes],
                         ["mode unreliable", "mode reliable"])
        for ax in fig.axes:
            entries = [t.get_text().split(" ")[0] for t in ax.get_legend().get_texts()]
            self.assertEqual(entries, ["data", "model"])
        fig = figure_checks.figure(self.figures("kinds-one-mode", with_mode=False),
                                   "latency_cdf")
        self.assertEqual(len(fig.axes), 1)
        entries = [t.get_text().split(" ")[0] for t in fig.axes[0].get_legend().get_texts()]
        self.assertEqual(entries, ["data", "model"])

    def test_latency_cdf_reaches_one(self):
        # Each curve rises from 0 at its least latency to exactly 1 at its largest, and
        # goes on at 1 beyond it (not stopping on the step below 1).
        figs = self.figures("cdf")
        fig = figure_checks.figure(figs, "latency_cdf")
        for ax in fig.axes:
            for ln in ax.lines:
                x, y = list(ln.get_xdata()), list(ln.get_ydata())
                n = int(ln.get_label().split("n=")[1].rstrip(")"))
                self.assertEqual(len(y), n + 2)
                self.assertEqual((y[0], y[-2], y[-1]), (0.0, 1.0, 1.0))
                self.assertGreater(x[-1], x[-2])
                self.assertEqual(ln.get_drawstyle(), "steps-post")

    def test_wifi_link_figures_say_why_they_are_empty(self):
        # A --backend=wifi run: p_drop 0 on every row (no eq. 18 model), retransmissions of
        # whole messages. The link figures say so instead of every link at P_D = 0; the
        # totals are printed.
        d = self.folder("wifi")
        header = MSG_HEADER + ["complete", "mode", "p_drop", "reason"]
        rows = []
        for i in range(6):
            rows.append([i, "model", i % 3, (i + 1) % 3, 4000, "1.0", "1.2", 4, 0,
                         4 if i == 0 else 0, 1, 1, "reliable", 0, ""])
        for i in range(4):
            rows.append([10 + i, "data", 0, 1, 4000, "2.0", "" if i == 0 else "2.1", 4,
                         4 if i == 0 else 0, 0, int(i != 0), int(i != 0), "unreliable", 0,
                         "loss" if i == 0 else ""])
        write_csv(os.path.join(d, "messages.csv"), header, rows)
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        with open(os.path.join(d, "run.json"), "w") as fh:
            json.dump({"parameters": {"backend": "wifi"}}, fh)
        rc, out, figs = figure_checks.render("plot_traces", [d])
        self.assertEqual(rc, 0, out)
        self.assertEqual(figure_checks.all_problems(figs), [])
        for name in ("link_loss", "link_retransmissions"):
            fig = figure_checks.figure(figs, name)
            self.assertEqual(len(fig.axes), 1, name)
            self.assertEqual(figure_checks.data_artists(fig.axes[0]), [], name)
            texts = figure_checks.no_data_texts(fig)
            self.assertEqual(len(texts), 1, name)
            self.assertIn("Wi-Fi backend: no P_D per link", " ".join(texts[0].split()))
        self.assertIn("link retransmissions (Wi-Fi, reliable unicast rows): 3 link(s), 24 "
                      "fragments, whole-message retransmissions per fragment 0.166667, "
                      "no P_D", out)
        self.assertIn("link loss (Wi-Fi, unreliable rows): 1 link(s), 16 fragments, "
                      "observed loss 0.250000, no P_D", out)

    def test_missing_messages_csv_exits_2(self):
        d = self.folder("missing")
        erows, _ = make_energy(3)
        write_csv(os.path.join(d, "energy.csv"), ENERGY_HEADER, erows)
        rc, out, err = run_process(d)
        self.assertEqual(rc, 2, "stdout:\n%s\nstderr:\n%s" % (out, err))
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, "stderr should be one line:\n%s" % err)
        self.assertIn("messages.csv", lines[0])
        self.assertNotIn("Traceback", err)
        self.assertFalse(os.path.exists(os.path.join(d, "plots")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
