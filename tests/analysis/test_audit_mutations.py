#!/usr/bin/python3
"""The auditor misses nothing it is given: every trace file of every scenario, mutated.

Run:  /usr/bin/python3 tests/analysis/test_audit_mutations.py BIN_DIR
BIN_DIR holds the built scenario programs. Each of the six scenarios runs once on a small
setting (d2d-exchange also with a finite spectrum: messages.csv's spectrum columns with
interference; and under 3GPP UMi with thermal noise: rss_w and sinr not recomputable from the
positions, tied to p_drop and sigma^2; fedavg also with devices that come and go, at both
trace levels: availability.csv, rounds.csv's `available` rows, radios silent while away) and
analysis/audit.py must pass on it. Then, for every CSV trace file of that run and
on a fresh copy of the run each time, three mutations:

  drop-last-row   the file's last line removed (a run cut before its last row);
  cut-mid-row     the last line cut in its middle, without its newline (a file cut while
                  written);
  change-value    one value of the last row changed (its last non-empty field: the
                  mantissa's 6th significant digit moved by one, or its last digit if it
                  has fewer; a character added to a text), the file otherwise intact;

(a file with a header only gets cut-mid-row, on its header). Each mutated copy must make the
audit exit 1 with a violation line naming that file, within one line each and without a
Python traceback (exit status 2, "Traceback").

Each mutation again with run.json refitted (what a buggy writer or a hand edit that also
fixed run.json would leave): trace_files' rows and CRC-32 of the file (and message_rows or
energy_rows for messages.csv and energy.csv) those of the mutated file, so that the
integrity check passes. The audit must still exit 1 with a violation naming that file (a
line of that file, or one whose text names it: a summary recomputed from it), from the
semantic checks alone. A mutation no semantic rule can see is listed in UNDETECTABLE with
its reason (and must then pass: the list stays true). The counts flagged / total of both
variants are printed. Then the probe's cases (ProbeTest), refitted too: messages.csv's
interference_w doubled and emptied on a row with interference (the finite-spectrum run, and
the UMi run: its interference recomputed from the rss_w of the senders' links); rss_w and
sinr each 0.1% off and emptied on a row (both runs);
one of rounds.csv's node -1 energy rows duplicated and deleted (every run with such rows);
fedavg's round 1 with one participant fewer and one straggler more (check fl-round);
availability.csv with one of a device's away intervals deleted, and with a return 1 us
earlier (both fedavg runs with devices that come and go: check partition).

Non-UTF-8 bytes, a NUL byte or an unbalanced quote in each trace file, and bytes that are
not UTF-8 in run.json (EncodingTest): a violation naming the file, exit status 1, never a
traceback nor a codec error (a run.json that is UTF-8 but no JSON stays a one-line error,
exit status 2, as for every analysis script).

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
                  run.json (no sleep row may appear then): check power;
  idle-periods    standard: one radio_idle row's periods made 2 more than its radio's
                  other periods of the flush (its idle periods cannot alternate with
                  them): check periods.

Each must make the audit exit 1 with a violation of that check.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zlib

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
    # Another radio environment: 3GPP UMi (random LOS state, shadowing: the RSS is not
    # recomputed from the positions, rss_w and sinr tied to p_drop and sigma^2 instead) with
    # thermal noise over m / K of the band.
    "d2d-exchange-umi": ["--nDevices=10", "--duration=5s", "--subChannels=2",
                         "--access=immediate", "--d2sFraction=0.3", "--propagation=3gpp-umi",
                         "--noise=thermal"],
    # Devices that come and go: availability.csv, rounds.csv's `available` rows, radios
    # silent while their device is away (at both trace levels).
    "fedavg-availability": ["--rounds=4", "--nDevices=10", "--dataFraction=0.03",
                            "--model=mlp:32", "--meanOnTime=1s", "--meanOffTime=1s"],
    "fedavg-availability-full": ["--rounds=4", "--nDevices=10", "--dataFraction=0.03",
                                 "--model=mlp:32", "--meanOnTime=1s", "--meanOffTime=1s",
                                 "--traces=full"],
}
# The program of a RUNS entry that is a variant of a scenario.
PROGRAM = {"d2d-exchange-spectrum": "d2d-exchange", "d2d-exchange-umi": "d2d-exchange",
           "fedavg-availability": "fedavg", "fedavg-availability-full": "fedavg"}


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
    # The digit that matters: the mantissa's 6th significant digit (a relative change of
    # 1e-5 or more, far above the 9 or 17 significant digits the files print, so no
    # recomputation's rounding can hide it), or its last digit if it has fewer (a count, a
    # flag, an id: moved by one). Never a digit of an exponent (1e-13 -> 2e-13, not 1e-14).
    mantissa = re.split(rb"[eE]", field, maxsplit=1)[0]
    digits = [i for i, c in enumerate(mantissa) if 48 <= c <= 57]
    significant = [i for k, i in enumerate(digits)
                   if any(mantissa[j] != 48 for j in digits[:k + 1])]
    if digits:
        i = significant[5] if len(significant) > 5 else digits[-1]
        field = field[:i] + bytes([48 + (field[i] - 48 + 1) % 10]) + field[i + 1:]
    else:
        field = field + b"x"
    fields[k] = field
    changed = b"".join(lines[:-1]) + b",".join(fields) + b"\n"
    return [("drop-last-row", b"".join(lines[:-1])), ("cut-mid-row", cut),
            ("change-value", changed)]


# Mutations with run.json refitted that no semantic rule can detect: (program, file,
# mutation) -> why. Each must pass the audit (else it is detected: take it off the list).
# (None since change-value moves a digit that matters, the 6th significant: the two listed
# before moved gd_graph.csv's p_drop in its 17th digit, the same double, and gd_stages.csv's
# d2d_j by a few ulps, below any tolerance of its recomputation.)
UNDETECTABLE = {}
# Mutations with run.json refitted that a semantic rule could detect but the audit does not
# check yet (each must pass the audit too; take it off the list once a check finds it).
# (None since gd_links.csv's shareable, its change-value, is recomputed from its trust row
# and gd_diversity.csv's "before" counts: check discovery. energy.csv's change-value, the
# periods of its last row, an idle row in every run, is flagged by check periods: at most
# the radio's other periods of that flush less the instants on record where two of its
# transmissions or receptions meet, +1 per end of the flush that is idle, -1.)
NOT_CHECKED = {}


def refit(folder, name, data):
    """run.json's record of name made that of data: trace_files' rows and CRC-32, and the
    row count message_rows / energy_rows of messages.csv / energy.csv."""
    path = os.path.join(folder, "run.json")
    with open(path) as fh:
        run = json.load(fh)
    rows = max(data.count(b"\n") - 1, 0)
    run["trace_files"][name] = {"rows": rows, "crc32": "%08x" % zlib.crc32(data)}
    key = {"messages.csv": "message_rows", "energy.csv": "energy_rows"}.get(name)
    if key in run:
        run[key] = rows
    with open(path, "w") as fh:
        json.dump(run, fh, indent=1)


def run_program(program, out):
    proc = subprocess.run([os.path.join(BIN, PROGRAM.get(program, program))] + RUNS[program]
                          + ["--quiet=true", "--outDir=" + out],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:]
    return out


class AuditedRuns(unittest.TestCase):
    """A temporary folder of runs (cls.tmp, made by setUpClass) and their audit."""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def audit(self, folder):
        proc = subprocess.run([PYTHON, SCRIPT, folder], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr

    def mutated(self, run, label, name, data, refitted):
        """The audit of a fresh copy of run with name's bytes data (run.json refitted to
        them if refitted): (rc, stdout, stderr, the violation lines naming name)."""
        copy = os.path.join(self.tmp, label)
        shutil.copytree(run, copy)
        with open(os.path.join(copy, name), "wb") as fh:
            fh.write(data)
        if refitted:
            refit(copy, name, data)
        rc, out, err = self.audit(copy)
        shutil.rmtree(copy)
        mine = [ln for ln in out.splitlines() if ln.startswith(copy + ": ")]
        if refitted:  # a line of that file, or a recomputation from it that names it
            named = [ln for ln in mine if re.search(r"(^|[\s:'(])%s\b" % re.escape(name),
                                                     ln[len(copy) + 2:])]
        else:
            named = [ln for ln in mine if ln.startswith(copy + ": " + name)]
        return rc, out, err, named

    def assertFlagged(self, result, name):
        rc, out, err, named = result
        self.assertNotIn("Traceback", out + err)
        self.assertEqual(rc, 1, "not flagged:\n" + out[-1500:] + err)
        self.assertTrue(named, "no violation names %s:\n%s" % (name, out[-1500:]))


class AuditMutationTest(AuditedRuns):
    runs = {}
    counts = {}  # variant -> [flagged, total]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="audit-mutations-")

    @classmethod
    def tearDownClass(cls):
        for variant, (flagged, total) in sorted(cls.counts.items()):
            print("all scenarios, %s: %d of %d mutations flagged" % (variant, flagged, total))
        super().tearDownClass()

    @classmethod
    def run_of(cls, program):
        """The run of a RUNS entry, made once (the probe's cases reuse it)."""
        if program not in cls.runs:
            cls.runs[program] = run_program(program, os.path.join(cls.tmp, program))
        return cls.runs[program]

    def count(self, variant, flagged):
        c = self.counts.setdefault(variant, [0, 0])
        c[0] += bool(flagged)
        c[1] += 1

    def check_scenario(self, program):
        run = self.run_of(program)
        rc, out, err = self.audit(run)
        self.assertEqual(rc, 0, "the unmutated run: " + out[-2000:] + err)
        files = sorted(n for n in os.listdir(run) if n.endswith(".csv"))
        self.assertIn("messages.csv", files)
        self.assertIn("energy.csv", files)
        tally = {"plain": [0, 0], "refitted": [0, 0]}
        listed = 0
        for name in files:
            with open(os.path.join(run, name), "rb") as fh:
                data = fh.read()
            for kind, mutated in mutations(data):
                for variant in ("plain", "refitted"):
                    refitted = variant == "refitted"
                    with self.subTest(program=program, file=name, mutation=kind,
                                      variant=variant):
                        result = self.mutated(run, "%s-%s-%s-%s" % (program, name, kind,
                                                                    variant),
                                              name, mutated, refitted)
                        rc, out, err, named = result
                        flagged = rc == 1 and bool(named) and "Traceback" not in out + err
                        tally[variant][0] += flagged
                        tally[variant][1] += 1
                        self.count(variant, flagged)
                        key = (program, name, kind)
                        why = (UNDETECTABLE.get(key) or NOT_CHECKED.get(key)) if refitted \
                            else None
                        if why is not None:
                            listed += 1
                            self.assertFalse(flagged, "listed as not detected (%s) but "
                                             "flagged: take it off the list" % why)
                            continue
                        self.assertFlagged(result, name)
        print("%s: %d files, %d of %d mutations flagged; run.json refitted: %d of %d "
              "flagged (%d listed as not detected)"
              % (program, len(files), tally["plain"][0], tally["plain"][1],
                 tally["refitted"][0], tally["refitted"][1], listed))

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

    def test_d2d_exchange_umi(self):
        self.check_scenario("d2d-exchange-umi")

    def test_fedavg_availability(self):
        self.check_scenario("fedavg-availability")

    def test_fedavg_availability_full(self):
        self.check_scenario("fedavg-availability-full")

    # -- the probe's cases (run.json refitted) -------------------------------------------
    def probe(self, program, name, label, change):
        """change(lines) -> the file's new lines (header first); the audit of that copy,
        run.json refitted, must flag the file."""
        run = self.run_of(program)
        with open(os.path.join(run, name), "rb") as fh:
            lines = fh.read().splitlines(keepends=True)
        data = b"".join(change(lines))
        result = self.mutated(run, "probe-%s-%s" % (program, label), name, data, True)
        self.count("probe (refitted)", result[0] == 1 and result[3])
        self.assertFlagged(result, name)

    def test_probe_interference_w(self):
        def at_interference(scale):
            def change(lines):
                header = lines[0].rstrip(b"\n").split(b",")
                col = header.index(b"interference_w")
                for i, line in enumerate(lines[1:], 1):
                    fields = line.rstrip(b"\n").split(b",")
                    if fields[col] and float(fields[col]) > 0:
                        fields[col] = (repr(2 * float(fields[col])).encode() if scale
                                       else b"")
                        lines[i] = b",".join(fields) + b"\n"
                        return lines
                self.fail("no row with interference_w > 0")
            return change
        for program in ("d2d-exchange-spectrum", "d2d-exchange-umi"):
            for label, scale in (("doubled", True), ("emptied", False)):
                with self.subTest(program=program, interference_w=label):
                    self.probe(program, "messages.csv", "interference-" + label,
                               at_interference(scale))

    def test_probe_rss_w_and_sinr(self):
        # One row's rss_w or sinr 0.1% off (or emptied), run.json refitted: sinr is no longer
        # rss_w / (sigma^2 + interference_w), nor p_drop eq. 18 of it (every environment).
        def at(column, scale):
            def change(lines):
                header = lines[0].rstrip(b"\n").split(b",")
                col = header.index(column)
                for i, line in enumerate(lines[1:], 1):
                    fields = line.rstrip(b"\n").split(b",")
                    if fields[col]:
                        fields[col] = (repr(1.001 * float(fields[col])).encode() if scale
                                       else b"")
                        lines[i] = b",".join(fields) + b"\n"
                        return lines
                self.fail("no row with %s" % column.decode())
            return change
        for program in ("d2d-exchange-spectrum", "d2d-exchange-umi"):
            for column in (b"rss_w", b"sinr"):
                for label, scale in (("changed", True), ("emptied", False)):
                    with self.subTest(program=program, column=column, change=label):
                        self.probe(program, "messages.csv", "%s-%s" % (column.decode(), label),
                                   at(column, scale))

    def test_probe_round_energy_rows(self):
        for program in ("fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery"):
            run = self.run_of(program)
            with open(os.path.join(run, "rounds.csv"), "rb") as fh:
                lines = fh.read().splitlines(keepends=True)
            energy = [i for i, ln in enumerate(lines)
                      if re.match(rb"[^,]*,[^,]*,-1,energy_j", ln)]
            self.assertTrue(energy, program)
            for where, i in (("middle", energy[len(energy) // 2]), ("last", energy[-1])):
                for label, change in (
                        ("duplicated", lambda ls, i=i: ls[:i + 1] + [ls[i]] + ls[i + 1:]),
                        ("deleted", lambda ls, i=i: ls[:i] + ls[i + 1:])):
                    with self.subTest(program=program, row=where, change=label):
                        self.probe(program, "rounds.csv", "energy-%s-%s" % (where, label),
                                   change)

    def test_probe_fl_round(self):
        # fedavg: round 1's participants one fewer and its stragglers one more (their sum,
        # the devices sampled, kept), run.json refitted: a round that ended before the
        # deadline with a device neither answering nor known to have failed (check fl-round).
        def change(lines):
            out = list(lines)
            done = set()
            for i, line in enumerate(out):
                m = re.match(rb"(1,[^,]*,-1,(participants|stragglers),)([0-9]+)\n", line)
                if m:
                    step = -1 if m.group(2) == b"participants" else 1
                    out[i] = m.group(1) + b"%d\n" % (int(m.group(3)) + step)
                    done.add(m.group(2))
            self.assertEqual(done, {b"participants", b"stragglers"})
            return out
        self.probe("fedavg", "rounds.csv", "fl-round", change)

    def test_probe_availability(self):
        # availability.csv, run.json refitted: one of a device's away intervals deleted (its
        # leave and its return, alternation kept), or a return 1 us earlier: the radio's
        # periods (partition) no longer leave out its away time exactly.
        def interval_deleted(lines):
            rows = [ln.split(b",") for ln in lines[1:]]
            for i, (t, device, value) in enumerate(rows):
                back = next((k for k in range(i + 1, len(rows)) if rows[k][1] == device), None)
                if value == b"0\n" and float(t) > 0 and back is not None:
                    return [ln for k, ln in enumerate(lines) if k not in (i + 1, back + 1)]
            self.fail("no away interval between two rows")

        def back_earlier(lines):
            out = list(lines)
            for i, line in enumerate(out[2:], 2):
                t, device, value = line.split(b",")
                if value == b"1\n" and float(t) - float(out[i - 1].split(b",")[0]) > 2e-6:
                    out[i] = b"%.9f,%s,%s" % (float(t) - 1e-6, device, value)
                    return out
            self.fail("no return 2 us after the row before it")
        for program in ("fedavg-availability", "fedavg-availability-full"):
            for label, change in (("interval-deleted", interval_deleted),
                                  ("back-earlier", back_earlier)):
                with self.subTest(program=program, change=label):
                    self.probe(program, "availability.csv", label, change)

    # -- bytes that are not text (EncodingTest's cases, on the runs above) ---------------
    def test_encoding_trace_files(self):
        # Each trace file of two runs with a byte that is not UTF-8, a NUL byte, or an
        # unbalanced quote in its last row (run.json refitted): a violation naming the
        # file, exit status 1, no traceback and no codec error.
        for program in ("fedavg", "d2d-exchange-spectrum"):
            run = self.run_of(program)
            for name in sorted(n for n in os.listdir(run) if n.endswith(".csv")):
                with open(os.path.join(run, name), "rb") as fh:
                    data = fh.read()
                head, _, last = data.rstrip(b"\n").rpartition(b"\n")
                if not head:
                    continue  # a header only
                for label, bad in (("latin-1", b"\xe9"), ("invalid", b"\xff\xfe"),
                                   ("nul", b"\x00"), ("quote", b'"')):
                    with self.subTest(program=program, file=name, bytes=label):
                        mutated = head + b"\n" + last[:1] + bad + last[1:] + b"\n"
                        result = self.mutated(run, "enc-%s-%s-%s" % (program, name, label),
                                              name, mutated, True)
                        self.assertNotIn("codec", result[2])
                        self.assertFlagged(result, name)
                        self.count("bytes (refitted)", True)

    def test_encoding_run_json(self):
        run = self.run_of("d2d-exchange")
        with open(os.path.join(run, "run.json"), "rb") as fh:
            data = fh.read()
        cases = {
            # a byte that is not UTF-8 in a string (commandLine): the rest still audited
            "in-a-string": data.replace(b'"commandLine": "', b'"commandLine": "\xff', 1),
            # Latin-1 text all through, and one in the JSON's structure
            "latin-1": data.replace(b'"seed"', b'"s\xe9ed"', 1),
            "structure": data.replace(b"{", b"{\xff", 1),
        }
        for label, mutated in cases.items():
            with self.subTest(run_json=label):
                self.assertNotEqual(mutated, data)
                result = self.mutated(run, "enc-run-json-" + label, "run.json", mutated, False)
                rc, out, err, _ = result
                self.assertNotIn("Traceback", out + err)
                self.assertNotIn("codec", err)
                self.assertEqual(rc, 1, out[-1500:] + err)
                self.assertTrue([ln for ln in out.splitlines() if ": run.json" in ln
                                 and ": format: " in ln], out[-1500:])
        # UTF-8 but not JSON: the analysis scripts' one-line error, exit status 2.
        rc, out, err, _ = self.mutated(run, "enc-run-json-cut", "run.json", data[:50], False)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertIn("run.json", err)
        self.assertNotIn("Traceback", err)


def ns_text(ns):
    """A time in ns as energy.csv prints it (9 decimals)."""
    return "%d.%09d" % divmod(ns, 1000000000)


def text_ns(text):
    whole, _, frac = text.partition(".")
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


class EnergyPeriodMutationTest(AuditedRuns):
    """energy.csv's start_s, duration_s, power_w and periods: checks power, partition and
    periods."""

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

    def test_standard_idle_periods(self):
        def change(rows):
            r = rows[self.middle_idle(rows)]
            radio = r["component"].split("_")[0] + "_"
            others = sum(int(q["periods"]) for q in rows
                         if q["node"] == r["node"] and q["sim_time_s"] == r["sim_time_s"]
                         and q["component"].startswith(radio) and q is not r)
            r["periods"] = str(others + 2)
            return rows
        self.assertCheck(self.mutate("standard", "idle-periods", change), "periods")

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
