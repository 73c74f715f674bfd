#!/usr/bin/python3
"""Tests of tests/analysis/figure_checks.py itself: each rule the plot tests rely on is fed a
figure that breaks it and must report it, and the same figure drawn with the helper of
analysis/d2dlearn_analysis/traces.py that fixes it must pass:

- an axis of rounds or steps with ticks at fractions (traces.integer_ticks fixes it), and
  not an axis of round *time*;
- an empirical CDF that ends below 1, stops where it reaches 1, is cut off by the axis
  limits or is not drawn by traces.draw_cdf (which draws it right);
- a constant drawn on a window around it (2 on 1.9..2.1; traces.limits_from_zero fixes it),
  on a linear and on a log axis;
- an empty panel without a "no data" text, and the same "no data" text in several panels.

Run: /usr/bin/python3 tests/analysis/test_figure_checks.py (no program needed, about 1 s).
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import figure_checks  # noqa: E402

tio = figure_checks.trace_io()
plt = tio.plt


def one_panel():
    fig, ax = plt.subplots()
    return fig, ax


class FigureChecksTest(unittest.TestCase):
    def tearDown(self):
        plt.close("all")

    def problems(self, fig):
        fig.canvas.draw()  # as save_figure does: ticks and limits final
        return figure_checks.problems("test.png", fig)

    def assertOneProblem(self, fig, needle):
        found = self.problems(fig)
        self.assertEqual(len(found), 1, found)
        self.assertIn(needle, found[0])

    # ------------------------------------------------------------ rounds: integer ticks

    def rounds_figure(self, fix, label="round"):
        fig, ax = one_panel()
        ax.plot([0, 1, 2], [0.1, 0.5, 0.7])
        ax.set_xlabel(tio.axis_label(label))
        ax.set_ylabel(tio.axis_label("accuracy"))
        tio.set_domain_limits(ax, "accuracy")
        if fix:
            tio.integer_ticks(ax)
        return fig

    def test_rounds_axis_ticks_at_fractions_fail(self):
        self.assertOneProblem(self.rounds_figure(False), "ticks at fractions: 0.25")
        self.assertEqual(self.problems(self.rounds_figure(True)), [])

    def test_steps_and_a_hand_made_round_label_are_rounds_axes(self):
        self.assertOneProblem(self.rounds_figure(False, "step"), "x axis of 'Step'")
        fig = self.rounds_figure(False)
        fig.axes[0].set_xlabel("Rounds, decentralized")
        self.assertOneProblem(fig, "ticks at fractions")

    def test_round_time_is_not_a_rounds_axis(self):
        self.assertEqual(self.problems(self.rounds_figure(False, "round_time_s")), [])

    # ------------------------------------------------------------ CDF ends at 1

    def cdf_figure(self):
        fig, ax = one_panel()
        ax.set_xlabel(tio.axis_label("latency_s"))
        ax.set_ylabel(tio.axis_label("cdf"))
        tio.set_domain_limits(ax, "cdf")
        return fig, ax

    def test_draw_cdf_passes(self):
        fig, ax = self.cdf_figure()
        line = tio.draw_cdf(ax, [0.3, 0.1, 0.2, 0.2], label="model")
        self.assertEqual(list(line.get_ydata()), [0.0, 0.25, 0.5, 0.75, 1.0, 1.0])
        self.assertEqual(self.problems(fig), [])
        fig, ax = self.cdf_figure()
        tio.draw_cdf(ax, [0.5], label="one value")
        self.assertEqual(self.problems(fig), [])

    def test_cdf_that_stops_where_it_reaches_one_fails(self):
        # The old plot_traces.py: ax.step(..., where="post") up to the largest value only.
        fig, ax = self.cdf_figure()
        x = [0.1, 0.1, 0.2, 0.3]
        ax.step(x, [0.0, 1 / 3, 2 / 3, 1.0], where="post", gid=tio.CDF_GID, label="model")
        self.assertOneProblem(fig, "stops where it reaches 1")

    def test_cdf_below_one_fails(self):
        fig, ax = self.cdf_figure()
        ax.plot([0.1, 0.1, 0.2, 0.3], [0.0, 0.49, 0.98, 0.98], drawstyle="steps-post",
                gid=tio.CDF_GID, label="model")
        self.assertOneProblem(fig, "ends at 0.98, not at 1")

    def test_cdf_cut_off_by_the_limits_fails(self):
        fig, ax = self.cdf_figure()
        tio.draw_cdf(ax, [0.1, 0.2, 0.3, 0.4], label="model")
        ax.set_xlim(0, 0.35)
        self.assertOneProblem(fig, "reaches 1 outside the axis limits")

    def test_cdf_not_as_steps_fails(self):
        fig, ax = self.cdf_figure()
        ax.plot([0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 1.0, 1.0], gid=tio.CDF_GID, label="model")
        self.assertOneProblem(fig, "not as steps")

    def test_line_on_a_cdf_axis_without_draw_cdf_fails(self):
        fig, ax = self.cdf_figure()
        ax.step([0.1, 0.2, 0.3], [1 / 3, 2 / 3, 1.0], where="post", label="model")
        self.assertOneProblem(fig, "not drawn by traces.draw_cdf")

    # ------------------------------------------------------------ a constant as a constant

    def constant_figure(self, fix, log=False):
        fig, ax = one_panel()
        attempts = [2, 2, 2, 2]
        ax.plot([1, 2, 3, 4], attempts)
        ax.set_xlabel(tio.axis_label("round"))
        ax.set_ylabel(tio.axis_label("attempts"))
        tio.integer_ticks(ax)
        if log:
            ax.set_yscale("log")
        if fix:
            tio.limits_from_zero(ax, attempts)
        return fig

    def test_constant_on_a_narrow_axis_fails(self):
        self.assertOneProblem(self.constant_figure(False), "shows the constant 2 in limits")
        self.assertEqual(self.problems(self.constant_figure(True)), [])

    def test_constant_with_float_noise_fails(self):
        fig, ax = one_panel()
        ax.plot([1, 2, 3], [1000.0, 1000.0 + 1e-7, 1000.0 - 1e-7])
        ax.set_xlabel(tio.axis_label("round"))
        ax.set_ylabel(tio.axis_label("energy_j"))
        tio.integer_ticks(ax)
        self.assertOneProblem(fig, "shows the constant 1000")

    def test_constant_on_a_log_axis(self):
        # matplotlib's log axis puts a constant in a decade either side: that passes; a
        # window set around it does not.
        self.assertEqual(self.problems(self.constant_figure(False, log=True)), [])
        fig = self.constant_figure(False, log=True)
        fig.axes[0].set_ylim(1.9, 2.1)
        self.assertOneProblem(fig, "shows the constant 2")

    def test_a_varying_quantity_and_zero_pass(self):
        fig, ax = one_panel()
        ax.plot([1, 2, 3], [1.9, 2.0, 2.1])
        ax.plot([1, 2, 3], [2.0, 2.0, 2.0])  # constant, but not all the axis shows
        ax.set_xlabel(tio.axis_label("round"))
        ax.set_ylabel(tio.axis_label("attempts"))
        tio.integer_ticks(ax)
        self.assertEqual(self.problems(fig), [])
        fig, ax = one_panel()
        ax.plot([1, 2, 3], [0.0, 0.0, 0.0])
        ax.set_xlabel(tio.axis_label("round"))
        ax.set_ylabel(tio.axis_label("attempts"))
        tio.integer_ticks(ax)
        self.assertEqual(self.problems(fig), [])

    def test_a_horizontal_reference_line_is_not_data_of_the_x_axis(self):
        # axhline's x is in axes coordinates (0..1): not a constant of the x axis.
        fig, ax = one_panel()
        ax.plot([0.2, 0.4, 0.6], [1.0, 2.0, 3.0])
        ax.axhline(2.5, color="grey")
        ax.set_xlabel(tio.axis_label("p_drop"))
        ax.set_ylabel(tio.axis_label("attempts"))
        self.assertEqual(self.problems(fig), [])

    # ------------------------------------------------------------ no empty panel

    def two_panels(self):
        fig, axes = plt.subplots(1, 2)
        axes[0].plot([0, 1, 2], [0.1, 0.5, 0.7])
        axes[0].set_xlabel(tio.axis_label("round"))
        axes[0].set_ylabel(tio.axis_label("accuracy"))
        tio.integer_ticks(axes[0])
        tio.set_domain_limits(axes[0], "accuracy")
        return fig, axes

    def test_empty_panel_fails(self):
        fig, axes = self.two_panels()
        self.assertOneProblem(fig, "an empty panel without a 'no data' text")
        fig, axes = self.two_panels()
        tio.no_data(axes[1], "no loss rows")
        self.assertEqual(self.problems(fig), [])

    def test_the_same_no_data_text_in_several_panels_fails(self):
        fig, axes = plt.subplots(1, 3)
        axes[0].plot([0, 1, 2], [0.1, 0.5, 0.7])
        axes[0].set_xlabel(tio.axis_label("round"))
        axes[0].set_ylabel(tio.axis_label("accuracy"))
        tio.integer_ticks(axes[0])
        tio.set_domain_limits(axes[0], "accuracy")
        for ax in axes[1:]:
            tio.no_data(ax, "no line: nothing varies\nthe message size alone")
        self.assertOneProblem(fig, "2 panels (axes 1, 2) say")

    def test_no_data_panel_that_draws_fails(self):
        fig, axes = self.two_panels()
        tio.no_data(axes[1], "no data")
        axes[1].plot([0, 1], [0, 1])
        self.assertOneProblem(fig, "says 'no data' but draws 1 artist(s)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
