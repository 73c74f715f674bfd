#!/usr/bin/python3
"""Test of analysis/d2dlearn_analysis/run_flags.py, the one table of the flags that do not
distinguish runs:

- every flag of it has its reason, and distinguishing_flags leaves out exactly those and the
  script's own keys;
- no other file of analysis/ keeps a set of its own (no "quiet", "traceEvery" or
  "positionEvery" literal outside run_flags.py);
- cmfl_tables.py and discovery_tables.py average two runs that differ only in the seed,
  --RngRun, --traceEvery, --positionEvery, --threads, --deferTraining and --inertFlags,
  and refuse two that differ in --nDevices;
- with BIN_DIR (the built programs): every flag of the table is a flag of some program's
  --PrintHelp; each execution flag, at another value than its default, leaves the run's
  results as they were (run.json's summary but wall_time_s, its floats within 1e-9 relative
  as --traces=full sums the energy over other rows, and every CSV file but the one the flag
  samples: d2d-exchange, graph-discovery, fedavg on small settings), the flags
  that exit without simulating write no run.json, and a replicate flag (--RngRun) does
  change the draws.

Run it: /usr/bin/python3 tests/analysis/test_run_flags.py [BIN_DIR]   (about 6 s)
"""

import contextlib
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.join(HERE, "..", "..", "analysis")
sys.path.insert(0, ANALYSIS)

from d2dlearn_analysis import run_flags  # noqa: E402

BIN = None
PROGRAMS = ["fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery", "d2d-exchange"]
#: Each execution flag: (program, base flags, the flag at another value than its default,
#: CSV files the flag may change (what it samples or leaves out), compare CSVs at all).
SMALL = {
    "d2d-exchange": ["--duration=5s", "--speedMps=2"],
    "graph-discovery": ["--nDevices=6", "--iterations=200", "--downstream=none"],
    "fedavg": ["--nDevices=4", "--rounds=2", "--dataFraction=0.01"],
}
VARIANTS = {
    "quiet": ("d2d-exchange", "--quiet=false", set()),
    "positionEvery": ("d2d-exchange", "--positionEvery=0.5s", {"positions.csv"}),
    "inertFlags": ("d2d-exchange", "--inertFlags=record", set()),
    "traces": ("d2d-exchange", "--traces=full", None),  # what is recorded: the summary only
    "traceEvery": ("graph-discovery", "--traceEvery=10", {"gd_iterations.csv"}),
    "threads": ("graph-discovery", "--threads=0", set()),
    "deferTraining": ("fedavg", "--deferTraining=false", set()),
}
#: Flags that exit without writing a run folder.
NO_RUN = {"validate": "--validate", "printLinks": "--printLinks", "printScope": "--printScope"}


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ANALYSIS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(module, argv):
    """(exit status, stdout, stderr) of module.main(argv) in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = module.main(argv)
        except SystemExit as exc:
            rc = exc.code
    return rc, out.getvalue(), err.getvalue()


def close(a, b, path="summary"):
    """The first place where a and b differ beyond 1e-9 relative (a float summed in another
    order, as energy over --traces=full's rows, is the same number), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return "%s.%s" % (path, key)
            where = close(a[key], b[key], "%s.%s" % (path, key))
            if where:
                return where
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path
        for k, (x, y) in enumerate(zip(a, b)):
            where = close(x, y, "%s[%d]" % (path, k))
            if where:
                return where
        return None
    if isinstance(a, float) or isinstance(b, float):
        ok = isinstance(a, (int, float)) and isinstance(b, (int, float)) and (
            a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)))
        return None if ok else "%s: %r against %r" % (path, a, b)
    return None if a == b else "%s: %r against %r" % (path, a, b)


def write_run(path, doc):
    os.makedirs(path)
    with open(os.path.join(path, "run.json"), "w") as fh:
        json.dump(doc, fh)
    return path


class RunFlagsTable(unittest.TestCase):
    def test_reasons(self):
        self.assertEqual(set(run_flags.REPLICATE) & set(run_flags.EXECUTION), set())
        self.assertEqual(run_flags.NOT_DISTINGUISHING,
                         set(run_flags.REPLICATE) | set(run_flags.EXECUTION))
        for flag in run_flags.NOT_DISTINGUISHING:
            self.assertGreater(len(run_flags.REASONS[flag]), 10, flag)
        # The two that the scripts disagreed on: a replicate and a trace sampling.
        self.assertIn("RngRun", run_flags.REPLICATE)
        self.assertIn("traceEvery", run_flags.EXECUTION)
        # Flags that change a run's draws or results are not in it.
        for flag in ("nDevices", "fastPath", "dataDir", "evaluateDevices", "backend"):
            self.assertNotIn(flag, run_flags.NOT_DISTINGUISHING)

    def test_distinguishing_flags(self):
        params = {"commandLine": "--seed=3 --RngRun=2 --nDevices=10 --traceEvery=5 --quiet "
                                 "--outDir=/x --algorithm=rl --threads=0 --backend=wifi"}
        self.assertEqual(run_flags.distinguishing_flags(params, {"algorithm"}),
                         {"nDevices": "10", "backend": "wifi"})
        self.assertEqual(run_flags.distinguishing_flags(params)["algorithm"], "rl")
        self.assertEqual(run_flags.distinguishing_flags({}), {})

    def test_no_other_set(self):
        own = os.path.join("d2dlearn_analysis", "run_flags.py")
        names = [n for n in os.listdir(ANALYSIS) if n.endswith(".py")]
        names += [os.path.join("d2dlearn_analysis", n)
                  for n in os.listdir(os.path.join(ANALYSIS, "d2dlearn_analysis"))
                  if n.endswith(".py")]
        found = []
        for name in sorted(set(names) - {own}):
            with open(os.path.join(ANALYSIS, name)) as fh:
                for k, line in enumerate(fh, 1):
                    if re.search(r"[\"'](quiet|traceEvery|positionEvery)[\"']", line):
                        found.append("%s:%d: %s" % (name, k, line.strip()))
        self.assertEqual(found, [], "a set of flags beside run_flags.NOT_DISTINGUISHING")


class TablesUseIt(unittest.TestCase):
    EXTRA = ("--RngRun=3 --traceEvery=10 --positionEvery=1s --threads=0 "
             "--deferTraining=false --inertFlags=record")

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def cmfl_run(self, name, seed, extra=""):
        line = "--nDevices=100 --attack=none --algorithm=fedavg --seed=%d --outDir=%s %s" % (
            seed, name, extra)
        return write_run(os.path.join(self.tmp, name), {
            "seed": seed, "parameters": {"commandLine": line, "algorithm": "fedavg",
                                         "attack": "none", "nDevices": 100},
            "summary": {"final_accuracy": 0.5 + seed / 10}})

    def edge_run(self, name, seed, extra=""):
        line = "--paradigm=unsupervised --graph=rl --requestPoints=100 --seed=%d %s" % (
            seed, extra)
        return write_run(os.path.join(self.tmp, name), {
            "seed": seed, "parameters": {"commandLine": line, "paradigm": "unsupervised",
                                         "graph": "rl", "requestPoints": 100},
            "summary": {"results": {"gdMeanW1ToUniformPerEdge": [2.0, 1.0 + seed / 10]}}})

    def test_replicates_averaged_unlike_refused(self):
        for script, kind, make, mean in (
                ("cmfl_tables", "robustness", self.cmfl_run, "0.650 (0.600/0.700)"),
                ("discovery_tables", "edges", self.edge_run, "1.150")):
            module = load(script)
            a = make(script + "-a", 1)
            b = make(script + "-b", 2, self.EXTRA)
            rc, out, err = call(module, [kind, a, b])
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(out.strip().splitlines()), 2, out)  # header and one row
            self.assertIn(mean, out)
            c = make(script + "-c", 3, "--nDevices=20")
            rc, out, err = call(module, [kind, a, c])
            self.assertEqual(rc, 2, out)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn("--nDevices differs", err)
            self.assertTrue(err.startswith(script + ".py: error: "), err)


@unittest.skipIf(len(sys.argv) < 2 and BIN is None, "no BIN_DIR given")
class Programs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.tmp = cls.dir.name
        cls.n = 0

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_program(self, program, args, writes=True):
        type(self).n += 1
        out = os.path.join(self.tmp, "%s-%d" % (program, self.n))
        proc = subprocess.run([os.path.join(BIN, program)] + args + ["--outDir=" + out],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout[-1500:])
        if writes:
            self.assertTrue(os.path.isfile(os.path.join(out, "run.json")), proc.stdout[-500:])
        return out

    def results(self, folder):
        with open(os.path.join(folder, "run.json")) as fh:
            summary = json.load(fh)["summary"]
        summary.pop("wall_time_s", None)
        files = {}
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv"):
                with open(os.path.join(folder, name), "rb") as fh:
                    files[name] = fh.read()
        return summary, files

    def test_flags_exist(self):
        given = set()
        for program in PROGRAMS:
            proc = subprocess.run([os.path.join(BIN, program), "--PrintHelp"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=60)
            given |= set(re.findall(r"^\s+--(\w+):", proc.stdout, re.M))
        self.assertIn("nDevices", given)
        self.assertEqual(sorted(run_flags.NOT_DISTINGUISHING - given), [],
                         "flags of run_flags that no program takes")

    def test_execution_flags_change_nothing(self):
        self.assertEqual(sorted(set(run_flags.EXECUTION) - set(VARIANTS) - set(NO_RUN)
                                - {"outDir"}), [],
                         "an execution flag without a measurement here")
        base = {p: self.results(self.run_program(p, SMALL[p] + ["--quiet=true"]))
                for p in sorted({p for p, _, _ in VARIANTS.values()})}
        for flag, (program, arg, sampled) in sorted(VARIANTS.items()):
            with self.subTest(flag=flag):
                summary, files = self.results(self.run_program(
                    program, SMALL[program] + ["--quiet=true", arg]))
                self.assertIsNone(close(summary, base[program][0]))
                if sampled is not None:
                    keep = set(files) | set(base[program][1])
                    differ = sorted(n for n in keep - sampled
                                    if files.get(n) != base[program][1].get(n))
                    self.assertEqual(differ, [])
                    if sampled:  # the flag does act on what it samples
                        self.assertTrue(any(files.get(n) != base[program][1].get(n)
                                            for n in sampled), flag)

    def test_no_run_flags_write_nothing(self):
        for flag, arg in sorted(NO_RUN.items()):
            with self.subTest(flag=flag):
                out = self.run_program("d2d-exchange", SMALL["d2d-exchange"] + [arg],
                                       writes=False)
                self.assertFalse(os.path.exists(os.path.join(out, "run.json")), flag)

    def test_replicate_changes_draws(self):
        a = self.results(self.run_program("d2d-exchange", SMALL["d2d-exchange"]))
        b = self.results(self.run_program("d2d-exchange", SMALL["d2d-exchange"]
                                          + ["--RngRun=2"]))
        self.assertNotEqual(a[1]["positions.csv"], b[1]["positions.csv"])


if __name__ == "__main__":
    if len(sys.argv) > 1:
        BIN = sys.argv.pop(1)
    unittest.main()
