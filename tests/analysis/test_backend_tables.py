#!/usr/bin/python3
"""Test of analysis/backend_tables.py channel-vs-wifi (the manual's table of the two
messaging backends side by side) and of analysis/plot_backends.py (its figure) on hand-made
run folders, against a table worked out by hand.

d2d-exchange, 2 devices, 3,000-byte messages of 3 fragments unless said:

  A channel, 40 m, seed 1. messages.csv:
      complete, latency 0.010 s, p_drop 0.1
      1 of 3 fragments lost (delivered, not complete), p_drop 0.3
      3 of 3 lost (reason loss), p_drop 0.2
      3 of 3 lost, reason unfinished, p_drop 0.9 (no outcome: only in "unfinished")
    known rows 3: fragment loss 4/9, message loss 2/3, unfinished 1/4, P_D 0.6/3 = 0.2,
    latency 0.010; energy.csv radio_tx 0.3 + radio_rx 0.1 (+ compute 5, not radio):
    0.4 J / 2 devices = 0.2 J, idle 0.
  B channel, 40 m, seed 2: two complete rows, latencies 0.030 and 0.050 s, p_drop 0;
    radio_tx 0.6 J: 0.3 J per device.
    -> point (channel, 40 m): runs 2, fragment loss (4/9 + 0) / 2 = 0.2222, message loss
       (2/3 + 0) / 2 = 0.3333, unfinished 0.1250, P_D 0.1000, latency 0.025 s (the mean of
       the runs' means 0.010 and 0.040), energy 0.25 J, idle 0.
  C wifi, 40 m, seed 1: complete (latency 0.1 s) and 3 of 3 lost (loss); p_drop 0 (Wi-Fi
    writes 0: the table leaves P_D empty); radio_tx 1, radio_rx 2, radio_idle 3 J (two rows
    of 1.5): 3 J per device, idle 1.5 J.
    -> fragment loss 0.5000, message loss 0.5000, unfinished 0, latency 0.1 s.
  C2 wifi with --wifiRateManager=ideal, 40 m, seed 1: another backend, "wifi (ideal)":
    one complete row (0.05 s); radio_idle 0.5 J: 0.25 J per device, idle 0.25.
  D channel, 80 m, seed 1: 3 of 3 lost (loss), p_drop 0.5: fragment and message loss 1,
    no latency (no complete row: empty), P_D 0.5; radio_tx 0.2 J: 0.1 J per device.
  E channel, 40 m, 6,000 bytes (5 fragments), seed 1: 1 of 5 lost (delivered), p_drop
    0.05: fragment loss 0.2, message loss 1, latency empty; radio_tx 0.1 J: 0.05 J.
  The base: area 40 (4 of 5 points), devices 2, size 3000 (4 of 5): A+B, C and C2 are
  "base", D varies the area side, E the message size.

fedavg --algorithm=decentralized, 3 devices, 40 m: messages of 31,432 bytes (model, twice)
and one of 100 bytes (the most frequent size is the message size); a cancelled row (no
outcome) is left out.
  F channel seed 1: rows complete 0.2 s and complete 0.4 s (the 100-byte one complete 0.0
    s): fragment loss 0, message loss 0, latency (0.2 + 0.4 + 0.0) / 3 = 0.2 s, P_D 0;
    rounds.csv node -1 accuracy 0.1, 0.5, 0.7 at rounds 0, 1, 2 (node 0's 0.9 ignored):
    0.700; radio_rx 0.9 J: 0.3 J per device.
  G wifi seed 1: one complete (1.0 s), one 23 of 23 lost (loss), the 100-byte complete
    (0.0 s): fragments 23 + 23 + 1, lost 23: 0.4894; message loss 1/3; latency 0.5 s;
    accuracy 0.6 at round 2; radio_idle 3 J: 1 J per device, idle 1.
  G2 wifi with --ns3::D2dWifiTransport::ReassemblyTimeout=2s: another backend, "wifi
    (ReassemblyTimeout=2s)": one complete model (2.0 s), accuracy 0.65, radio_idle 6 J.

Rows: d2d-exchange (channel base, wifi base, wifi (ideal) base, channel area side 80,
channel message size 6000), then fedavg (channel, wifi, wifi (ReassemblyTimeout=2s)). The
figure of the same runs (figure_checks: labelled axes, rates in [0, 1]): lines only where
two points of a series vary one parameter, so "no data" in the devices column (nothing
varies them), for the accuracy (fedavg varies nothing) and for the latency (D and E have no
complete message).

Then bad input: runs of one scenario and backend with different flags, a run without
messages.csv, a run.json of another program and a non-numeric cell each exit 2 with one
stderr line and leave the table unwritten.

Run it directly: /usr/bin/python3 tests/analysis/test_backend_tables.py"""

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

SCRIPT = os.path.join(HERE, "..", "..", "analysis", "backend_tables.py")
PY = "/usr/bin/python3"
HEADER = ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "t_recv_s", "fragments",
          "fragments_lost", "retransmissions", "delivered", "complete", "mode", "p_drop",
          "reason"]


def msg(bytes_, frags, lost, latency=None, p_drop=0.0, reason="", kind="data"):
    """A messages.csv row sent at t = 1 s; latency None: not received."""
    complete = 1 if lost == 0 and not reason else 0
    delivered = 1 if latency is not None else 0
    return [0, kind, 0, 1, bytes_, "1.000000000",
            "" if latency is None else "%.9f" % (1 + latency), frags, lost, 0, delivered,
            complete, "unreliable", p_drop, reason]


def make_run(path, backend, area, n, rows, energy, size=3000, seed=1, fedavg=None,
             extra="", rate=None):
    """A run folder: rows of messages.csv, energy {component: [J, ...]}, fedavg None or
    {round: node -1 accuracy}, rate the Wi-Fi rate manager (None: not in run.json)."""
    os.makedirs(path)
    flags = "--backend=%s --areaSideM=%g --nDevices=%d --seed=%d %s--outDir=%s --quiet" % (
        backend, area, n, seed, extra + " " if extra else "", path)
    params = {"backend": backend, "areaSideM": area, "nDevices": n}
    if rate is not None:
        params["wifiRateManager"] = rate
    if fedavg is None:
        params["messageBytes"] = size
        flags += " --messageBytes=%d" % size
    else:
        params["algorithm"] = "decentralized"
        flags += " --algorithm=decentralized --rounds=2"
    params["commandLine"] = flags
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump({"seed": seed, "parameters": params}, fh)
    with open(os.path.join(path, "messages.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        for i, r in enumerate(rows):
            r[0] = i + 1
            w.writerow(r)
    with open(os.path.join(path, "energy.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                    "duration_s", "power_w", "periods"])
        for comp, values in energy.items():
            for v in values:
                w.writerow(["1.000000000", 0, comp, v, 100, "0.000000000", "1.000000000", v, 1])
    if fedavg is not None:
        with open(os.path.join(path, "rounds.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["round", "sim_time_s", "node", "metric", "value"])
            for rnd, acc in sorted(fedavg.items()):
                w.writerow([rnd, rnd, -1, "accuracy", acc])
                w.writerow([rnd, rnd, -1, "loss", 1.0])
                w.writerow([rnd, rnd, 0, "accuracy", 0.9])
    return path


def notes(fig):
    """The texts written on the figure itself (beneath the panels), on one line each."""
    return [" ".join(t.get_text().split()) for t in fig.texts]


def table(runs, out):
    proc = subprocess.run([PY, SCRIPT, "channel-vs-wifi"] + runs + ["--out", out],
                          capture_output=True, text=True)
    rows = []
    if proc.returncode == 0:
        with open(out) as fh:
            rows = list(csv.DictReader(fh))
    return proc, rows


class BackendTableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_backend_tables.")
        self.addCleanup(self.tmp.cleanup)
        t = self.tmp.name
        M = 31432
        self.runs = [
            make_run(os.path.join(t, "A"), "channel", 40, 2, [
                msg(3000, 3, 0, 0.010, 0.1), msg(3000, 3, 1, 0.020, 0.3),
                msg(3000, 3, 3, None, 0.2, "loss"), msg(3000, 3, 3, None, 0.9, "unfinished")],
                {"radio_tx": [0.3], "radio_rx": [0.1], "compute": [5]}),
            make_run(os.path.join(t, "B"), "channel", 40, 2, [
                msg(3000, 3, 0, 0.030), msg(3000, 3, 0, 0.050)], {"radio_tx": [0.6]},
                seed=2),
            make_run(os.path.join(t, "C"), "wifi", 40, 2, [
                msg(3000, 3, 0, 0.1), msg(3000, 3, 3, None, 0.0, "loss")],
                {"radio_tx": [1], "radio_rx": [2], "radio_idle": [1.5, 1.5]}),
            make_run(os.path.join(t, "C2"), "wifi", 40, 2, [msg(3000, 3, 0, 0.05)],
                     {"radio_idle": [0.5]}, extra="--wifiRateManager=ideal",
                     rate="ideal"),
            make_run(os.path.join(t, "D"), "channel", 80, 2, [
                msg(3000, 3, 3, None, 0.5, "loss")], {"radio_tx": [0.2]}),
            make_run(os.path.join(t, "E"), "channel", 40, 2, [
                msg(6000, 5, 1, 0.3, 0.05)], {"radio_tx": [0.1]}, size=6000),
            make_run(os.path.join(t, "F"), "channel", 40, 3, [
                msg(M, 23, 0, 0.2, kind="model"), msg(M, 23, 0, 0.4, kind="model"),
                msg(100, 1, 0, 0.0, kind="other"),
                msg(M, 23, 23, None, 0.0, "cancelled", kind="model")],
                {"radio_rx": [0.9], "compute": [2]}, fedavg={0: 0.1, 1: 0.5, 2: 0.7}),
            make_run(os.path.join(t, "G"), "wifi", 40, 3, [
                msg(M, 23, 0, 1.0, kind="model"), msg(M, 23, 23, None, 0.0, "loss", "model"),
                msg(100, 1, 0, 0.0, kind="other")],
                {"radio_idle": [3]}, fedavg={0: 0.1, 2: 0.6}),
            make_run(os.path.join(t, "G2"), "wifi", 40, 3, [msg(M, 23, 0, 2.0, kind="model")],
                     {"radio_idle": [6]}, fedavg={2: 0.65},
                     extra="--ns3::D2dWifiTransport::ReassemblyTimeout=2s"),
        ]
        self.out = os.path.join(t, "table.csv")

    def test_table(self):
        proc, rows = table(self.runs, self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        got = [[r[c] for c in ("scenario", "backend", "varies", "area side m", "devices",
                               "message bytes", "runs", "fragment loss", "message loss",
                               "unfinished", "eq. 18 P_D", "latency s",
                               "radio energy J per device", "idle energy J per device",
                               "final accuracy")] for r in rows]
        fed = "fedavg --algorithm=decentralized"
        self.assertEqual(got, [
            ["d2d-exchange", "channel", "base", "40", "2", "3000", "2", "0.2222", "0.3333",
             "0.1250", "0.1000", "0.025", "0.25", "0", ""],
            ["d2d-exchange", "wifi", "base", "40", "2", "3000", "1", "0.5000", "0.5000",
             "0.0000", "", "0.1", "3", "1.5", ""],
            ["d2d-exchange", "wifi (ideal)", "base", "40", "2", "3000", "1", "0.0000",
             "0.0000", "0.0000", "", "0.05", "0.25", "0.25", ""],
            ["d2d-exchange", "channel", "area side", "80", "2", "3000", "1", "1.0000",
             "1.0000", "0.0000", "0.5000", "", "0.1", "0", ""],
            ["d2d-exchange", "channel", "message size", "40", "2", "6000", "1", "0.2000",
             "1.0000", "0.0000", "0.0500", "", "0.05", "0", ""],
            [fed, "channel", "base", "40", "3", "31432", "1", "0.0000", "0.0000", "0.0000",
             "0.0000", "0.2", "0.3", "0", "0.700"],
            [fed, "wifi", "base", "40", "3", "31432", "1", "0.4894", "0.3333", "0.0000", "",
             "0.5", "1", "1", "0.600"],
            [fed, "wifi (ReassemblyTimeout=2s)", "base", "40", "3", "31432", "1", "0.0000",
             "0.0000", "0.0000", "", "2", "2", "2", "0.650"]])

    def test_figure(self):
        rc, _, figs = figure_checks.render("plot_backends", self.runs + [
            "--out", os.path.join(self.tmp.name, "plots")])
        self.assertEqual(rc, 0)
        self.assertEqual([name for name, _ in figs], ["channel_vs_wifi.png"])
        self.assertEqual(figure_checks.all_problems(figs), [])
        fig = figs[0][1]
        # Only d2d-exchange over the channel varies the side and the size: one line each
        # in those columns; nothing varies the devices, no run with accuracy varies
        # anything, and D and E have no complete message (no latency): the devices column
        # and the latency and accuracy rows are left out, and named once beneath.
        self.assertEqual(figure_checks.no_data_texts(fig), [])
        panels = [ax for ax in fig.axes if ax.axison]
        self.assertEqual(len(panels), 2 * 3)
        self.assertEqual(sorted({ax.get_xlabel() for ax in panels}),
                         ["Area side [m]", "Message size [B]"])
        self.assertEqual(notes(fig), ["Not shown: nothing varies the devices alone; no line "
                                      "of the latency, the accuracy."])
        labels = figure_checks.labels(fig)
        self.assertIn("Area side [m]", labels)
        self.assertIn("Observed fragment loss rate", labels)
        self.assertTrue(any(lab.startswith("Radio energy per device [J]") for lab in labels))

    def test_figure_of_fedavg_runs(self):
        # FedAvg over both backends at 40 and 80 m: a line per backend in the area column;
        # nothing varies the devices or the size (no empty panels: named once beneath).
        t = self.tmp.name
        M = 31432
        runs = self.runs[6:8] + [
            make_run(os.path.join(t, "F80"), "channel", 80, 3, [
                msg(M, 23, 0, 0.3, kind="model"), msg(M, 23, 23, None, 0.5, "loss", "model")],
                {"radio_rx": [0.6]}, fedavg={2: 0.5}),
            make_run(os.path.join(t, "G80"), "wifi", 80, 3, [
                msg(M, 23, 23, None, 0.0, "loss", "model")],
                {"radio_idle": [3]}, fedavg={2: 0.2})]
        rc, _, figs = figure_checks.render("plot_backends", runs + [
            "--out", os.path.join(t, "fedavg-plots")])
        self.assertEqual(rc, 0)
        self.assertEqual(figure_checks.all_problems(figs), [])
        fig = figs[0][1]
        panels = [ax for ax in fig.axes if ax.axison]
        self.assertEqual({ax.get_xlabel() for ax in panels}, {"Area side [m]"})
        # the latency: G80 has no complete message, the Wi-Fi line one point
        texts = figure_checks.no_data_texts(fig)
        self.assertEqual(len(panels), 5)
        self.assertEqual(texts, [])
        self.assertEqual(notes(fig), ["Not shown: nothing varies the devices or the message "
                                      "size alone."])
        self.assertEqual(len(panels[0].lines), 2)
        # Runs of which nothing varies anything: one panel that says so.
        rc, _, figs = figure_checks.render("plot_backends", self.runs[6:8] + [
            "--out", os.path.join(t, "fedavg-plots")])
        self.assertEqual(rc, 0)
        self.assertEqual(figure_checks.all_problems(figs), [])
        self.assertEqual(len(figs[0][1].axes), 1)
        self.assertEqual([s.replace("\n", " ") for s in figure_checks.no_data_texts(
            figs[0][1])], ["no data: nothing varies the area side or the devices or the "
                           "message size alone (a line needs two points of a scenario and "
                           "backend)"])

    def bad(self, runs, needle):
        proc, _ = table(runs, self.out)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn(needle, proc.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input(self):
        t = self.tmp.name
        other = make_run(os.path.join(t, "H"), "channel", 40, 2, [msg(3000, 3, 0, 0.1)],
                         {"radio_tx": [0.1]}, seed=3, extra="--duration=5s")
        self.bad(self.runs + [other], "differ in --duration")
        os.unlink(os.path.join(self.runs[1], "messages.csv"))
        self.bad(self.runs, "messages.csv")
        os.makedirs(os.path.join(t, "I"))
        with open(os.path.join(t, "I", "run.json"), "w") as fh:
            json.dump({"parameters": {"algorithm": "consensus"}}, fh)
        self.bad([self.runs[0], os.path.join(t, "I")], "not a run of d2d-exchange or fedavg")
        with open(os.path.join(self.runs[0], "messages.csv"), "a") as fh:
            fh.write("9,data,0,1,3000,x,,3,0,0,1,1,unreliable,0,\n")
        self.bad([self.runs[0]], "non-numeric value 'x' in column t_send_s")
        self.bad([os.path.join(t, "missing")], "run folder not found")


if __name__ == "__main__":
    unittest.main()
