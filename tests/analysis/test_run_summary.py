#!/usr/bin/python3
"""run.json's "summary" against an independent calculation from the trace files.

Run:  /usr/bin/python3 tests/analysis/test_run_summary.py D2D_EXCHANGE FEDAVG BAYES_CONSENSUS [CMFL]

Small runs of the scenario programs (a few seconds each); for each, every summary number
is recomputed here from messages.csv, energy.csv and rounds.csv with the csv module and
plain Python (no code shared with the C++ writer): the learning metric's final and best
values, rounds completed, energy per component and total, per message kind the rows,
complete rate and the mean and 95th percentile (linear interpolation, numpy's default) of
t_recv_s - t_send_s over delivered rows, the complete-delivery and delivered rates,
fragments, retransmissions (per message the largest value of its rows), bytes (per message
once). Also: run.json keeps its other keys (version, seed, times, row counts, parameters),
and the summary agrees with the counts fedavg and cmfl keep themselves (roundsCompleted,
finalAccuracy, and cmfl's bytesSent, which counts every Send of the transports).
"""

import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARIES = {}
# Every summary lists these (the radios' sleep states too, 0 without DRX).
COMPONENTS = ["radio_tx", "radio_rx", "radio_idle", "radio_sleep", "radio_transition", "compute",
              "d2s_tx", "d2s_rx", "d2s_idle", "d2s_sleep", "d2s_transition"]


def percentile(values, q):
    """Hyndman-Fan type 7, written out."""
    x = sorted(values)
    h = (len(x) - 1) * q
    lo = int(math.floor(h))
    if lo + 1 >= len(x):
        return x[-1]
    return x[lo] + (h - lo) * (x[lo + 1] - x[lo])


def read_csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def expected_messages(folder):
    rows = read_csv(os.path.join(folder, "messages.csv"))
    out = {"message_rows": len(rows)}
    n = len(rows)
    complete = sum(1 for r in rows if r["complete"] == "1")
    delivered = sum(1 for r in rows if r["delivered"] == "1")
    out["complete_delivery_rate"] = complete / n if n else None
    out["delivered_rate"] = delivered / n if n else None
    per_msg = {}
    for r in rows:
        m = per_msg.setdefault(r["msg_id"], {"bytes": int(r["bytes"]),
                                             "fragments": int(r["fragments"]), "retx": 0})
        m["retx"] = max(m["retx"], int(r["retransmissions"]))
    out["messages"] = len(per_msg)
    out["fragments"] = sum(m["fragments"] for m in per_msg.values())
    out["retransmissions"] = sum(m["retx"] for m in per_msg.values())
    out["retransmissions_per_fragment"] = (out["retransmissions"] / out["fragments"]
                                           if out["fragments"] else None)
    out["bytes_sent"] = sum(m["bytes"] for m in per_msg.values())
    kinds = {}
    for r in rows:
        k = kinds.setdefault(r["kind"], {"rows": 0, "complete": 0, "lat": []})
        k["rows"] += 1
        k["complete"] += r["complete"] == "1"
        if r["delivered"] == "1":
            k["lat"].append(float(r["t_recv_s"]) - float(r["t_send_s"]))
    out["kinds"] = {
        name: {"rows": k["rows"], "complete_rate": k["complete"] / k["rows"],
               "latency_n": len(k["lat"]),
               "latency_mean_s": sum(k["lat"]) / len(k["lat"]) if k["lat"] else None,
               "latency_p95_s": percentile(k["lat"], 0.95) if k["lat"] else None}
        for name, k in kinds.items()}
    return out


def expected_energy(folder):
    rows = read_csv(os.path.join(folder, "energy.csv"))
    by = {c: [] for c in COMPONENTS}
    for r in rows:
        by.setdefault(r["component"], []).append(float(r["energy_j"]))
    out = {c: math.fsum(v) for c, v in by.items()}
    out["total"] = math.fsum(float(r["energy_j"]) for r in rows)
    return out


def expected_rounds(folder):
    rows = read_csv(os.path.join(folder, "rounds.csv"))
    for metric, higher in (("accuracy", True), ("mse", False), ("error", False)):
        glob = [(int(r["round"]), float(r["value"])) for r in rows
                if r["metric"] == metric and r["node"] == "-1"]
        if glob:
            curve, source = {}, "node -1"
            for k, v in glob:
                curve[k] = v  # a round written twice: its last row
            values = [v for _, v in glob]
            best = max(values) if higher else min(values)
            best_round = min(k for k, v in glob if v == best)
            break
    else:
        for metric, higher in (("accuracy", True), ("mse", False), ("error", False)):
            dev = {}
            for r in rows:
                if r["metric"] == metric and int(r["node"]) >= 0:
                    dev.setdefault(int(r["round"]), []).append(float(r["value"]))
            if dev:
                curve = {k: sum(v) / len(v) for k, v in dev.items()}
                source = "device mean"
                best = max(curve.values()) if higher else min(curve.values())
                best_round = min(k for k, v in curve.items() if v == best)
                break
        else:
            return {"rounds_completed": max((int(r["round"]) for r in rows), default=0)}
    last = max(curve)
    return {"metric": metric, "metric_from": source, "final_" + metric: curve[last],
            "best_" + metric: best, "best_%s_round" % metric: best_round,
            "rounds_completed": last}


class SummaryTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="run-summary-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_program(self, name, *args):
        folder = os.path.join(self.tmp, "%s-%d" % (name, len(os.listdir(self.tmp))))
        proc = subprocess.run([BINARIES[name], "--quiet", "--outDir=" + folder] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        with open(os.path.join(folder, "run.json")) as fh:
            doc = json.load(fh)
        for key in ("version", "seed", "simulated_time_s", "wall_time_s", "message_rows",
                    "energy_rows", "parameters", "summary"):
            self.assertIn(key, doc)
        return folder, doc

    def close(self, got, want, what, rel=1e-9, abs_=1e-12):
        if want is None:
            self.assertIsNone(got, what)
            return
        self.assertIsNotNone(got, what)
        self.assertTrue(math.isclose(got, want, rel_tol=rel, abs_tol=abs_),
                        "%s: summary %r, traces %r" % (what, got, want))

    def check(self, folder, doc, learning):
        s = doc["summary"]
        msgs = expected_messages(folder)
        self.assertEqual(doc["message_rows"], msgs["message_rows"])
        for key in ("message_rows", "messages", "fragments", "retransmissions", "bytes_sent"):
            self.assertEqual(s[key], msgs[key], key)
        for key in ("complete_delivery_rate", "delivered_rate",
                    "retransmissions_per_fragment"):
            self.close(s[key], msgs[key], key)
        self.assertEqual(sorted(s["kinds"]), sorted(msgs["kinds"]))
        for kind, want in msgs["kinds"].items():
            got = s["kinds"][kind]
            self.assertEqual(got["rows"], want["rows"])
            self.assertEqual(got["latency_n"], want["latency_n"])
            self.close(got["complete_rate"], want["complete_rate"], kind + " complete_rate")
            # The CSV holds times to the nanosecond; the summary subtracts exact times.
            self.close(got["latency_mean_s"], want["latency_mean_s"], kind + " mean",
                       abs_=1e-9)
            self.close(got["latency_p95_s"], want["latency_p95_s"], kind + " p95", abs_=1e-9)
        energy = expected_energy(folder)
        self.assertEqual(sorted(s["energy_j"]), sorted(energy))
        for comp, want in energy.items():
            self.close(s["energy_j"][comp], want, "energy " + comp)
        self.assertEqual(s["simulated_time_s"], doc["simulated_time_s"])
        self.assertEqual(s["wall_time_s"], doc["wall_time_s"])
        if not learning:
            self.assertNotIn("metric", s)
            self.assertNotIn("rounds_completed", s)
            return s
        rounds = expected_rounds(folder)
        for key, want in rounds.items():
            self.assertIn(key, s)
            if isinstance(want, str) or isinstance(want, int):
                self.assertEqual(s[key], want, key)
            else:
                self.close(s[key], want, key)
        return s

    def test_d2d_exchange_unreliable_lossy(self):
        # Noise that loses fragments: delivered rows that are not complete.
        folder, doc = self.run_program("d2d-exchange", "--duration=3s", "--nDevices=8",
                                       "--noisePowerW=1e-11", "--d2sFraction=0.2")
        s = self.check(folder, doc, learning=False)
        self.assertLess(s["complete_delivery_rate"], s["delivered_rate"])
        self.assertEqual(s["retransmissions"], 0)

    def test_d2d_exchange_reliable_broadcast(self):
        # A reliable broadcast: the rows of one message may carry different retransmission
        # counts (the sender's count when each receiver's outcome is known).
        folder, doc = self.run_program("d2d-exchange", "--duration=3s", "--nDevices=6",
                                       "--reliable=true", "--broadcast=true",
                                       "--noisePowerW=1e-12", "--fastPath=false")
        s = self.check(folder, doc, learning=False)
        self.assertGreater(s["retransmissions"], 0)
        self.assertGreater(s["message_rows"], s["messages"])

    def test_fedavg_decentralized(self):
        folder, doc = self.run_program("fedavg", "--algorithm=decentralized", "--rounds=3",
                                       "--nDevices=5", "--dataFraction=0.02", "--threads=1")
        s = self.check(folder, doc, learning=True)
        self.assertEqual(s["metric"], "accuracy")
        self.assertGreater(s["energy_j"]["compute"], 0)
        # The scenario's own counts agree.
        self.assertEqual(s["rounds_completed"], s["results"]["roundsCompleted"])
        self.assertEqual(s["rounds_completed"], 3)

    def test_fedavg_server(self):
        folder, doc = self.run_program("fedavg", "--rounds=2", "--nDevices=4",
                                       "--dataFraction=0.02", "--threads=1")
        s = self.check(folder, doc, learning=True)
        self.assertEqual(s["rounds_completed"], s["results"]["roundsCompleted"])
        self.close(s["final_accuracy"], s["results"]["finalAccuracy"], "finalAccuracy",
                   abs_=1e-9)
        self.assertIn("global_model", s["kinds"])

    def test_bayes_gaussian_linear(self):
        # No node -1 rows: the metric is the device mean of mse.
        folder, doc = self.run_program("bayes-consensus", "--mode=gaussian-linear",
                                       "--steps=20")
        s = self.check(folder, doc, learning=True)
        self.assertEqual(s["metric"], "mse")
        self.assertEqual(s["metric_from"], "device mean")
        self.assertEqual(s["rounds_completed"], 20)

    def test_bayes_central(self):
        # The central learner writes node -1 rows.
        folder, doc = self.run_program("bayes-consensus", "--mode=gaussian-linear",
                                       "--steps=10", "--cooperation=central")
        s = self.check(folder, doc, learning=True)
        self.assertEqual(s["metric_from"], "node -1")

    def test_cmfl(self):
        if "cmfl" not in BINARIES:
            self.skipTest("no cmfl program given")
        folder, doc = self.run_program("cmfl", "--nDevices=20", "--activationFraction=0.5",
                                       "--rounds=2", "--dataFraction=0.02", "--threads=1",
                                       "--maliciousFraction=0.1")
        s = self.check(folder, doc, learning=True)
        p = s["results"]
        self.assertNotIn("roundsCompleted", doc["parameters"])  # results are not inputs
        self.assertEqual(s["rounds_completed"], p["roundsCompleted"])
        self.close(s["final_accuracy"], p["finalAccuracy"], "finalAccuracy", abs_=1e-9)
        self.assertEqual(s["bytes_sent"], p["bytesSent"])

    def test_bayes_discrete(self):
        folder, doc = self.run_program("bayes-consensus", "--steps=15")
        s = self.check(folder, doc, learning=True)
        self.assertEqual(s["metric"], "error")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit("usage: test_run_summary.py D2D_EXCHANGE FEDAVG BAYES_CONSENSUS")
    args = sys.argv[1:]
    for name in ("d2d-exchange", "fedavg", "bayes-consensus", "cmfl"):
        if args and not args[0].startswith("-"):
            BINARIES[name] = args.pop(0)
    unittest.main(argv=sys.argv[:1] + args)
