#!/usr/bin/python3
"""The auditor misses nothing it is given: every trace file of every scenario, mutated.

Run:  /usr/bin/python3 tests/analysis/test_audit_mutations.py BIN_DIR
BIN_DIR holds the built scenario programs. Each of the six scenarios runs once on a small
setting (d2d-exchange also with a finite spectrum: messages.csv's four spectrum columns) and
analysis/audit.py must pass on it. Then, for every CSV trace file of that run and
on a fresh copy of the run each time, three mutations:

  drop-last-row   the file's last line removed (a run cut before its last row);
  cut-mid-row     the last line cut in its middle, without its newline (a file cut while
                  written);
  change-value    one value of the last row changed (a digit moved by one, or a character
                  added to a text), the file otherwise intact;

(a file with a header only gets cut-mid-row, on its header). Each mutated copy must make the
audit exit 1 with a violation line naming that file, within one line each and without a
Python traceback (exit status 2, "Traceback").

Then energy.csv's periods (EnergyPeriodMutationTest): d2d-exchange with a server at
--traces=full and at --traces=standard, each audited clean, and on a fresh copy each time:

  power-changed   full: one radio_idle row's power_w and energy_j both times 1.5 (the row
                  stays consistent, energy_j = power_w x duration_s): check power;
  period-missing  full: one radio_idle row deleted (a gap in its radio's periods): check
                  partition;
  period-overlap  full: one row's start_s moved back into the period before it on the same
                  radio, its duration_s and energy_j made consistent: check partition;
  row-missing     standard: one radio_idle row deleted (its radio's states no longer add up
                  to the run): check partition;
  sleep-power     full: one radio_idle row renamed radio_sleep, its idle power kept (not
                  the sleep power SleepPowerW): check power;
  sleep-unknown   full: the same with ns3::D2dRadioEnergyModel::SleepPowerW taken out of
                  run.json (no sleep row may appear then): check power.

Each must make the audit exit 1 with a violation of that check.
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from test_audit import PYTHON, SCRIPT  # audit.py and the interpreter, as test_audit runs them

BIN = None

# The quick runs of test/examples-to-run.py, a little smaller where that is quicker.
RUNS = {
    "fedavg": ["--rounds=2", "--nDevices=6", "--dataFraction=0.02", "--model=mlp:16"],
    "cmfl": ["--rounds=1", "--dataFraction=0.02"],
    "consensus": ["--rounds=2", "--warmupRounds=1", "--dataFraction=0.02"],
    "bayes-consensus": ["--steps=5"],
    "graph-discovery": ["--iterations=10", "--rounds=1", "--dataFraction=0.02"],
    "d2d-exchange": ["--nDevices=10", "--duration=5s"],
    # A finite spectrum: messages.csv with t_start_s, airtime_s, sub_channel, interference_w
    # (immediate access: co-channel interference, rx_busy; the D2S cell too).
    "d2d-exchange-spectrum": ["--nDevices=10", "--duration=5s", "--subChannels=2",
                              "--access=immediate", "--d2sFraction=0.3"],
}
# The program of a RUNS entry that is a variant of a scenario.
PROGRAM = {"d2d-exchange-spectrum": "d2d-exchange"}


def mutations(data):
    """(name, mutated bytes) of one trace file's bytes."""
    lines = data.splitlines(keepends=True)
    if len(lines) < 2:  # a header only
        return [("cut-mid-row", data[:max(len(data) // 2, 1) - 1] if data else b"x")]
    last = lines[-1].rstrip(b"\n")
    cut = b"".join(lines[:-1]) + last[:max(len(last) // 2, 1)]
    fields = last.split(b",")
    k = max((i for i, f in enumerate(fields) if f), default=0)
    field = fields[k]
    digits = [i for i, c in enumerate(field) if 48 <= c <= 57]
    if digits:
        i = digits[-1]
        field = field[:i] + bytes([48 + (field[i] - 48 + 1) % 10]) + field[i + 1:]
    else:
        field = field + b"x"
    fields[k] = field
    changed = b"".join(lines[:-1]) + b",".join(fields) + b"\n"
    return [("drop-last-row", b"".join(lines[:-1])), ("cut-mid-row", cut),
            ("change-value", changed)]


class AuditedRuns(unittest.TestCase):
    """A temporary folder of runs (cls.tmp, made by setUpClass) and their audit."""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def audit(self, folder):
        proc = subprocess.run([PYTHON, SCRIPT, folder], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr


class AuditMutationTest(AuditedRuns):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="audit-mutations-")

    def check_scenario(self, program):
        run = os.path.join(self.tmp, program)
        proc = subprocess.run([os.path.join(BIN, PROGRAM.get(program, program))] + RUNS[program]
                              + ["--quiet=true", "--outDir=" + run],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])
        rc, out, err = self.audit(run)
        self.assertEqual(rc, 0, "the unmutated run: " + out[-2000:] + err)
        files = sorted(n for n in os.listdir(run) if n.endswith(".csv"))
        self.assertIn("messages.csv", files)
        self.assertIn("energy.csv", files)
        tried = 0
        for name in files:
            with open(os.path.join(run, name), "rb") as fh:
                data = fh.read()
            for kind, mutated in mutations(data):
                with self.subTest(program=program, file=name, mutation=kind):
                    copy = os.path.join(self.tmp, "%s-%s-%s" % (program, name, kind))
                    shutil.copytree(run, copy)
                    with open(os.path.join(copy, name), "wb") as fh:
                        fh.write(mutated)
                    rc, out, err = self.audit(copy)
                    self.assertNotIn("Traceback", out + err)
                    self.assertEqual(rc, 1, "not flagged:\n" + out[-1500:] + err)
                    flagged = [ln for ln in out.splitlines()
                               if ln.startswith(copy + ": " + name)]
                    self.assertTrue(flagged, "no violation names %s:\n%s" % (name, out[-1500:]))
                    shutil.rmtree(copy)
                    tried += 1
        print("%s: %d files, %d mutations, each flagged" % (program, len(files), tried))

    def test_fedavg(self):
        self.check_scenario("fedavg")

    def test_cmfl(self):
        self.check_scenario("cmfl")

    def test_consensus(self):
        self.check_scenario("consensus")

    def test_bayes_consensus(self):
        self.check_scenario("bayes-consensus")

    def test_graph_discovery(self):
        self.check_scenario("graph-discovery")

    def test_d2d_exchange(self):
        self.check_scenario("d2d-exchange")

    def test_d2d_exchange_spectrum(self):
        self.check_scenario("d2d-exchange-spectrum")


def ns_text(ns):
    """A time in ns as energy.csv prints it (9 decimals)."""
    return "%d.%09d" % divmod(ns, 1000000000)


def text_ns(text):
    whole, _, frac = text.partition(".")
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


class EnergyPeriodMutationTest(AuditedRuns):
    """energy.csv's start_s, duration_s and power_w: checks power and partition."""

    ARGS = ["--nDevices=6", "--duration=3s", "--d2sFraction=0.3"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="audit-periods-")
        cls.runs = {}
        for level in ("full", "standard"):
            run = os.path.join(cls.tmp, level)
            proc = subprocess.run([os.path.join(BIN, "d2d-exchange")] + cls.ARGS
                                  + ["--traces=" + level, "--quiet=true", "--outDir=" + run],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True, timeout=600)
            assert proc.returncode == 0, proc.stdout[-2000:]
            cls.runs[level] = run

    def mutate(self, level, name, change, change_run=None):
        """A copy of the run at level with energy.csv's rows changed (and its run.json by
        change_run, if given); its audit's output."""
        copy = os.path.join(self.tmp, "%s-%s" % (level, name))
        shutil.copytree(self.runs[level], copy)
        if change_run:
            with open(os.path.join(copy, "run.json")) as fh:
                run = json.load(fh)
            change_run(run)
            with open(os.path.join(copy, "run.json"), "w") as fh:
                json.dump(run, fh, indent=1)
        path = os.path.join(copy, "energy.csv")
        with open(path, newline="") as fh:
            reader = csv.DictReader(fh)
            header, rows = reader.fieldnames, list(reader)
        rows = change(rows)
        with open(path, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        rc, out, err = self.audit(copy)
        self.assertNotIn("Traceback", out + err)
        self.assertEqual(rc, 1, "not flagged:\n" + out[-1500:] + err)
        return out

    def assertCheck(self, out, check):
        lines = [ln for ln in out.splitlines() if ": energy.csv:" in ln
                 and ": %s: " % check in ln]
        self.assertTrue(lines, "no '%s' violation in:\n%s" % (check, out[-2000:]))

    @staticmethod
    def middle_idle(rows):
        """The index of a radio_idle row with rows of the same radio before and after it."""
        idle = [i for i, r in enumerate(rows) if r["component"] == "radio_idle"]
        return idle[len(idle) // 2]

    def test_unmutated_runs_pass(self):
        for level, run in sorted(self.runs.items()):
            with self.subTest(level=level):
                rc, out, err = self.audit(run)
                self.assertEqual(rc, 0, out[-2000:] + err)
                self.assertRegex(out, r"^audit: 1 runs, \d+ checks, 0 violations\n$")

    def test_power_changed(self):
        def change(rows):
            r = rows[self.middle_idle(rows)]
            r["power_w"] = repr(float(r["power_w"]) * 1.5)
            r["energy_j"] = repr(float(r["energy_j"]) * 1.5)
            return rows
        self.assertCheck(self.mutate("full", "power-changed", change), "power")

    def test_period_missing(self):
        def change(rows):
            del rows[self.middle_idle(rows)]
            return rows
        self.assertCheck(self.mutate("full", "period-missing", change), "partition")

    def test_period_overlap(self):
        def change(rows):
            i = self.middle_idle(rows)
            r = rows[i]
            radio = r["component"].split("_")[0] + "_"
            before = [q for q in rows[:i] if q["node"] == r["node"]
                      and q["component"].startswith(radio)
                      and q["sim_time_s"] == r["start_s"]][-1]
            start = text_ns(r["start_s"]) - text_ns(before["duration_s"]) // 2
            duration = text_ns(r["sim_time_s"]) - start
            r["start_s"], r["duration_s"] = ns_text(start), ns_text(duration)
            r["energy_j"] = repr(float(r["power_w"]) * duration / 1e9)
            return rows
        self.assertCheck(self.mutate("full", "period-overlap", change), "partition")

    def test_sleep_row_at_the_idle_power(self):
        # A period of listening written as sleep: the sleep state's power is SleepPowerW
        # (0.099 W with ns3-wifi), not the idle 0.819 W the row keeps.
        def change(rows):
            rows[self.middle_idle(rows)]["component"] = "radio_sleep"
            return rows
        self.assertCheck(self.mutate("full", "sleep-power", change), "power")

    def test_sleep_row_without_its_attribute(self):
        def change(rows):
            rows[self.middle_idle(rows)]["component"] = "radio_sleep"
            return rows

        def forget(run):
            run["parameters"].pop("ns3::D2dRadioEnergyModel::SleepPowerW", None)
        self.assertCheck(self.mutate("full", "sleep-unknown", change, forget), "power")

    def test_standard_row_missing(self):
        def change(rows):
            del rows[self.middle_idle(rows)]
            return rows
        self.assertCheck(self.mutate("standard", "row-missing", change), "partition")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_audit_mutations.py BIN_DIR")
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
