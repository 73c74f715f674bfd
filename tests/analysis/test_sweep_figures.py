#!/usr/bin/python3
"""Figures a researcher would not have to retitle.

Run:  /usr/bin/python3 tests/analysis/test_sweep_figures.py
(no build needed: campaign folders of hand-written run.json files, run folders of
hand-written traces; exits non-zero if a test fails).

- `sweep.py plot` titles and labels each metric with its name and unit from traces.py's
  table (COLUMNS, SUMMARY_COLUMNS, RESULT_COLUMNS, TOTALS), never with its results.csv
  column name (final_accuracy, energy_j.total, kinds.K.*), with --metric against a swept
  parameter and with --x/--y two metrics.
- Its metric axes span what is drawn (means, bands, error bars, dots) with a margin of
  traces.DATA_MARGIN of the range on either side, cut at the metric's domain: every limit
  within the data's range plus the margin and within the domain, the data inside them
  (a rate of 0.95..0.99 is not drawn over [0, 1]; one that reaches 1 stops at 1).
- A network total says what it is summed over (traces.ALL_DEVICES): run.json's
  energy_j.total and energy_j.COMPONENT on sweep plots, and the energy axis of
  plot_rounds.py's accuracy-against-energy figure.
- No empty panel: the main job's accuracy-against-energy figure (fedavg: its D2D radio is
  off, so the D2D panels had nothing but a "no energy" text wider than the panel) has
  panels only for the groups some run spent energy in, says under the figure and in a
  note which it left out, and is not drawn at all when no run spent energy.

Every figure also passes figure_checks.problems.
"""

import csv
import json
import os
import shutil
import sys
import tempfile
import unittest

import figure_checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ANALYSIS = os.path.join(REPO, "analysis")
if ANALYSIS not in sys.path:
    sys.path.insert(0, ANALYSIS)

from d2dlearn_analysis import traces  # noqa: E402
from d2dlearn_analysis.sweep.campaign import Campaign  # noqa: E402

CAMPAIGN = "scenario = 'd2d-exchange'\n[grid]\nspectralEfficiency = [0.5, 1, 2]\nseed = [1, 2]\n"
#: final_accuracy of each (spectralEfficiency, seed): between 0.95 and 0.99.
NARROW = {(0.5, 1): 0.95, (0.5, 2): 0.96, (1, 1): 0.97, (1, 2): 0.975,
          (2, 1): 0.98, (2, 2): 0.99}
#: What a network total is summed over, as the figures say it (traces.ALL_DEVICES).
ALL_DEVICES = "summed over all devices"
#: The margin on either side of the data (traces.DATA_MARGIN; 5 %, matplotlib's own).
MARGIN = getattr(traces, "DATA_MARGIN", 0.05)
#: The raw names a title must not show.
RAW = ("final_accuracy", "energy_j", "complete_delivery_rate", "kinds.", "spectralEfficiency",
       "results.")


def headline(ax):
    """The title but its last line (what the band shows), its lines joined by spaces."""
    return " ".join(ax.get_title().splitlines()[:-1])


def data_range(ax, axis):
    """(min, max) of every data coordinate drawn along `axis` (lines, bands, error bars,
    dots: figure_checks.points)."""
    import numpy as np
    values = []
    for art in figure_checks.data_artists(ax):
        if not figure_checks.data_axes(art, ax)[0 if axis == "x" else 1]:
            continue
        xs, ys = figure_checks.points(art)
        v = np.asarray(xs if axis == "x" else ys, dtype=float)
        values.append(v[np.isfinite(v)])
    v = np.concatenate(values)
    return float(v.min()), float(v.max())


class SweepFigures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sweep-figures-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def campaign(self, accuracy=NARROW, name="rate"):
        """Finished runs of spectralEfficiency x seed with final_accuracy accuracy[(r,
        seed)], energy_j.total 100 + 50 r + seed and energy_j.d2s_tx half of it, and
        kinds.update.latency_mean_s 0.1 r + 0.01 seed."""
        path = os.path.join(self.tmp, name + ".toml")
        with open(path, "w") as fh:
            fh.write(CAMPAIGN)
        out = os.path.join(self.tmp, name + "-out")
        for run in Campaign(path).runs:
            r, seed = run.parameters["spectralEfficiency"], run.parameters["seed"]
            total = 100.0 + 50.0 * r + seed
            os.makedirs(os.path.join(out, run.folder))
            with open(os.path.join(out, run.folder, "run.json"), "w") as fh:
                json.dump({"seed": seed, "summary": {
                    "final_accuracy": accuracy[(r, seed)],
                    "energy_j": {"total": total, "d2s_tx": total / 2},
                    "kinds": {"update": {"latency_mean_s": 0.1 * r + 0.01 * seed}}}}, fh)
        return path, out

    def plot(self, path, out, *options):
        rc, stdout, drawn = figure_checks.render("sweep", ["plot", path, "--out", out]
                                                 + list(options))
        self.assertEqual(rc, 0, stdout)
        self.assertEqual(len(drawn), 1)
        self.assertEqual(figure_checks.all_problems(drawn), [])
        return drawn[0][1].axes[0]

    def check_limits(self, ax, axis, metric):
        """The axis' limits within the data's range plus the margin and within the
        metric's domain, and the data within them."""
        lo, hi = data_range(ax, axis)
        pad = MARGIN * (hi - lo)
        dom_lo, dom_hi = traces.domain(metric, summary=True)
        allowed_lo = lo - pad if dom_lo is None else max(lo - pad, dom_lo)
        allowed_hi = hi + pad if dom_hi is None else min(hi + pad, dom_hi)
        low, high = ax.get_ylim() if axis == "y" else ax.get_xlim()
        where = "%s axis of %s: limits %g..%g, data %g..%g" % (axis, metric, low, high, lo, hi)
        eps = 1e-12 * max(1.0, abs(hi))
        self.assertGreaterEqual(low, allowed_lo - eps, where)
        self.assertLessEqual(high, allowed_hi + eps, where)
        self.assertLessEqual(low, lo + eps, where)
        self.assertGreaterEqual(high, hi - eps, where)
        if dom_lo is not None:
            self.assertGreaterEqual(low, dom_lo, where)
        if dom_hi is not None:
            self.assertLessEqual(high, dom_hi, where)
        return low, high

    def test_titles_and_labels_from_the_table(self):
        path, out = self.campaign()
        # --x/--y: "rate: final_accuracy against energy_j.total" before.
        ax = self.plot(path, out, "--x", "energy_j.total", "--y", "final_accuracy")
        self.assertEqual(headline(ax), "rate: Final test accuracy against energy, %s"
                         % ALL_DEVICES)
        for raw in RAW:
            self.assertNotIn(raw, ax.get_title())
        self.assertEqual(ax.get_xlabel(), traces.axis_label("energy_j.total", summary=True))
        self.assertEqual(ax.get_ylabel(), traces.axis_label("final_accuracy", summary=True))
        self.assertEqual(ax.get_ylabel(), "Final test accuracy")
        # --metric against a swept parameter.
        ax = self.plot(path, out, "--metric", "final_accuracy", "--x", "spectralEfficiency")
        self.assertEqual(headline(ax), "rate: Final test accuracy against spectral efficiency r")
        self.assertEqual(ax.get_xlabel(), "Spectral efficiency r [bit/s/Hz]")
        # A kind's metric: the kind by its name, not kinds.update.
        ax = self.plot(path, out, "--metric", "kinds.update.latency_mean_s",
                       "--x", "spectralEfficiency")
        self.assertEqual(ax.get_ylabel(), "Mean latency, update messages [s]")
        self.assertEqual(headline(ax), "rate: Mean latency, update messages against spectral "
                                       "efficiency r")
        for raw in RAW:
            self.assertNotIn(raw, ax.get_title())

    def test_axis_over_the_data_within_the_domain(self):
        path, out = self.campaign()
        # A rate of 0.95..0.99 (its band, cut at 1, up to 1): not the whole of [0, 1].
        for band in ("ci", "sd", "minmax", "none"):
            ax = self.plot(path, out, "--metric", "final_accuracy", "--x",
                           "spectralEfficiency", "--band", band)
            low, high = self.check_limits(ax, "y", "final_accuracy")
            self.assertGreater(low, 0.5, band)
        # Two metrics: both axes over their data, the energy's above 0 J.
        ax = self.plot(path, out, "--x", "energy_j.total", "--y", "final_accuracy")
        self.check_limits(ax, "y", "final_accuracy")
        low, _ = self.check_limits(ax, "x", "energy_j.total")
        self.assertGreater(low, 100.0)
        ax = self.plot(path, out, "--metric", "energy_j.total", "--x", "spectralEfficiency")
        self.check_limits(ax, "y", "energy_j.total")
        # A rate that reaches 1: the axis stops at 1 (never 1.002).
        path, out = self.campaign({k: min(1.0, v + 0.02) for k, v in NARROW.items()},
                                  name="high")
        ax = self.plot(path, out, "--metric", "final_accuracy", "--x", "spectralEfficiency")
        _, high = self.check_limits(ax, "y", "final_accuracy")
        self.assertEqual(high, 1.0)

    def test_totals_say_what_they_are_summed_over(self):
        path, out = self.campaign()
        ax = self.plot(path, out, "--metric", "energy_j.total", "--x", "spectralEfficiency")
        self.assertEqual(ax.get_ylabel(), "Energy, summed over all devices [J]")
        self.assertIn(ALL_DEVICES, ax.get_title())
        ax = self.plot(path, out, "--metric", "energy_j.d2s_tx", "--x", "spectralEfficiency")
        self.assertEqual(ax.get_ylabel(), "Energy of the D2S radio transmitting, summed over "
                                          "all devices [J]")
        self.assertEqual(traces.ALL_DEVICES, ALL_DEVICES)
        for component in traces.ENERGY_COMPONENTS:
            self.assertIn(ALL_DEVICES,
                          traces.axis_label("energy_j." + component, summary=True))


ROUND_HEADER = ["round", "sim_time_s", "node", "metric", "value"]
ENERGY_HEADER = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                 "duration_s", "power_w", "periods"]
COMPONENTS = ["radio_tx", "radio_rx", "radio_idle", "radio_sleep", "radio_transition",
              "compute", "d2s_tx", "d2s_rx", "d2s_idle", "d2s_sleep", "d2s_transition"]


def main_job_like(folder, spent):
    """A run folder as fedavg's main job writes it: rounds 0..4, accuracy and rounds.csv's
    node -1 energy rows (energy_j and every energy_j.COMPONENT, 0 for the D2D radio, which
    is off), and energy.csv rows of the components in `spent` (J per device per round)."""
    os.makedirs(folder)
    rounds, energy = [], []
    for k in range(5):
        t = 2.5 * k
        rounds.append([k, t, -1, "accuracy", 0.1 + 0.15 * k])
        per = {c: 2 * k * spent.get(c, 0.0) for c in COMPONENTS}  # 2 devices
        rounds.append([k, t, -1, "energy_j", sum(per.values())])
        rounds += [[k, t, -1, "energy_j." + c, per[c]] for c in COMPONENTS]
        if k:
            for node in (0, 1):
                for c, e in spent.items():
                    energy.append([t, node, c, e, 100 - k * e, t - 2.5, 2.5, e / 2.5, 1])
    for name, header, rows in (("rounds.csv", ROUND_HEADER, rounds),
                               ("energy.csv", ENERGY_HEADER, energy)):
        with open(os.path.join(folder, name), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)


class EnergyFigure(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="energy-figure-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_no_empty_panel(self):
        run = os.path.join(self.tmp, "main-job")
        main_job_like(run, {"d2s_tx": 10.0, "d2s_rx": 1.0, "d2s_idle": 2.0, "compute": 0.5})
        rc, stdout, figs = figure_checks.render(
            "plot_rounds", [run, "--out", os.path.join(self.tmp, "plots"), "--labels",
                            "FedAvg"])
        self.assertEqual(rc, 0, stdout)
        self.assertEqual(figure_checks.all_problems(figs), [])
        fig = figure_checks.figure(figs, "accuracy_vs_energy")
        self.assertEqual(figure_checks.no_data_texts(fig), [])
        axes = [ax for ax in fig.axes if ax.axison]
        self.assertEqual([ax.get_title() for ax in axes],
                         ["D2S radio, transmit + receive", "D2S radio, idle", "compute",
                          "total"])
        for ax in axes:
            self.assertTrue(ax.lines, ax.get_title())
            self.assertEqual(ax.get_xlabel(), "Energy, cumulative,\n%s [J]"
                             % ALL_DEVICES)
        left_out = "D2D radio, transmit + receive; D2D radio, idle"
        self.assertIn("note: accuracy_vs_energy.png: no panel of %s: no run spent energy "
                      "there" % left_out, stdout)
        self.assertEqual([t.get_text() for t in fig.texts],
                         ["Test accuracy against energy spent",  # the suptitle
                          "No panel: %s (no run spent energy there)" % left_out])

    def test_no_energy_no_figure(self):
        # Every energy row 0 J: nothing to draw against, so no figure (and a note why).
        run = os.path.join(self.tmp, "idle")
        main_job_like(run, {"compute": 0.0})
        plots = os.path.join(self.tmp, "plots")
        rc, stdout, figs = figure_checks.render("plot_rounds", [run, "--out", plots])
        self.assertEqual(rc, 0, stdout)
        self.assertEqual([name for name, _ in figs],
                         ["accuracy_vs_round.png", "accuracy_vs_time.png"])
        self.assertEqual(figure_checks.all_problems(figs), [])
        self.assertIn("note: accuracy_vs_energy.png skipped: no plotted run spent energy",
                      stdout)
        self.assertFalse(os.path.exists(os.path.join(plots, "accuracy_vs_energy.png")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
