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
"""

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


class AuditMutationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="audit-mutations-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def audit(self, folder):
        proc = subprocess.run([PYTHON, SCRIPT, folder], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr

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


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_audit_mutations.py BIN_DIR")
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
