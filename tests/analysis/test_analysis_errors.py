#!/usr/bin/python3
"""Test of the analysis tools' one error type and one reader:

- d2dlearn_analysis.reader: each failure of reading a trace (missing, unreadable, not CSV,
  a required column missing, a cell that is not a number or not a count, with its line also
  after filtering) and of reading run.json (no folder, no file, not JSON, not an object) is
  one AnalysisError of one line naming the file;
- errors.report and errors.ArgumentParser: one line "PROG: error: TEXT", status 2;
- every script of analysis/ (sweep.py aside: its own SweepError) given a missing run folder,
  and those that read run.json first given an unparsable one, and every one given an
  unknown option: status 2, one stderr line "SCRIPT: error: ..." naming the problem, nothing
  written (the scripts run in this process: about 3 s).

Run it: /usr/bin/python3 tests/analysis/test_analysis_errors.py
"""

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.join(HERE, "..", "..", "analysis")
sys.path.insert(0, ANALYSIS)

from d2dlearn_analysis import errors, reader  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError  # noqa: E402

#: script -> (arguments before RUN_DIR, arguments after it; "OUT" is replaced by a folder
#: that must not be created, reads run.json first)
SCRIPTS = {
    "audit": ([], [], True),
    "backend_tables": (["channel-vs-wifi"], ["--out", "OUT/t.csv"], True),
    "cmfl_tables": (["robustness"], ["--out", "OUT/t.csv"], True),
    "consensus_tables": (["hetero"], ["--out", "OUT/t.csv"], True),
    "discovery_tables": (["edges"], ["--out", "OUT/t.csv"], True),
    "round_time_tables": (["round-time-vs-devices"], ["--out", "OUT/t.csv"], True),
    "plot_backends": ([], ["--out", "OUT"], True),
    "plot_bayes": ([], ["--out", "OUT"], False),
    "plot_cmfl": ([], ["--out", "OUT"], True),
    "plot_consensus": ([], ["--out", "OUT"], True),
    "plot_discovery": ([], ["--out", "OUT"], True),
    "plot_network": ([], ["--out", "OUT"], True),
    "plot_round_times": ([], ["--out", "OUT"], True),
    "plot_rounds": ([], ["--out", "OUT"], False),
    "plot_traces": ([], ["--out", "OUT"], False),
    "wireless_effects": ([], ["--figure", "OUT"], True),
    "sleep_effects": ([], ["--figure", "OUT"], True),
    "async_effects": ([], ["--figure", "OUT"], True),
    "propagation_effects": ([], ["--figure", "OUT"], True),
    "fedscale_profiles": ([], ["--devices", "2", "--out", "OUT/p.csv"], False),
    "fedscale_availability": ([], ["--devices", "2", "--out", "OUT/a.csv"], False),
}


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ANALYSIS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(function, *args, prog=None):
    """(exit status, stdout, stderr) of function(*args) in this process (sys.argv[0]: prog,
    argparse's name of the program)."""
    out, err = io.StringIO(), io.StringIO()
    argv0 = sys.argv[0]
    sys.argv[0] = prog or argv0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = function(*args)
        except SystemExit as exc:
            rc = exc.code
        finally:
            sys.argv[0] = argv0
    return rc, out.getvalue(), err.getvalue()


class Reader(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def file(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as fh:
            fh.write(data)
        return path

    def refused(self, function, *args):
        with self.assertRaises(AnalysisError) as cm:
            function(*args)
        text = str(cm.exception)
        self.assertEqual(len(text.splitlines()), 1, text)
        return text

    def test_trace_errors(self):
        missing = os.path.join(self.tmp, "none.csv")
        self.assertEqual(self.refused(reader.read_trace, missing, ["a"]),
                         "cannot read %s: missing trace file" % missing)
        ragged = self.file("ragged.csv", b"a,b\n1,2\n3,4,5\n")
        self.assertTrue(self.refused(reader.read_trace, ragged, ["a"]).startswith(
            "cannot parse %s: " % ragged))
        binary = self.file("binary.csv", b"a,b\n\xff\xfe,1\n")
        self.assertTrue(self.refused(reader.read_trace, binary, ["a"]).startswith(
            "cannot parse %s: " % binary))
        ok = self.file("ok.csv", b"a, b ,c\n1,2,x\n2,,y\n3,x,z\n")
        self.assertEqual(self.refused(reader.read_trace, ok, ["a", "d", "e"]),
                         "%s lacks required column(s): d,e" % ok)
        df = reader.read_trace(ok, ["a", "b"])
        self.assertEqual(list(df.columns), ["a", "b", "c"])  # names stripped
        self.assertEqual(self.refused(reader.to_numeric, df, ["a", "b"], ok),
                         "%s: line 4: non-numeric value 'x' in column b" % ok)
        # The line is the file's, also in a filtered frame.
        df = reader.read_trace(ok, ["a", "b"])
        self.assertEqual(self.refused(reader.to_numeric, df[df["a"] > 2], ["b"], ok),
                         "%s: line 4: non-numeric value 'x' in column b" % ok)
        empty = self.file("empty.csv", b"")
        self.assertTrue(reader.read_trace(empty, ["a"]).empty)
        if os.geteuid() != 0:  # root reads a file of mode 000
            os.chmod(ok, 0)
            self.assertEqual(self.refused(reader.read_trace, ok, ["a"]),
                             "cannot read %s: Permission denied" % ok)

    def test_columns_and_counts(self):
        path = self.file("t.csv", b"n,v,s\n1,0.5, a \n2,,\n")
        df = reader.read_columns(path, ["v"], ["s"], counts=["n"])
        self.assertEqual(df["n"].tolist(), [1, 2])
        self.assertEqual(df["s"].tolist(), ["a", ""])
        self.assertTrue(df["v"].isna().tolist()[1])
        for cell, got in (("-1", "-1"), ("1.5", "1.5"), ("", "empty"), ("x", "'x'")):
            bad = self.file("bad.csv", ("n,v\n1,2\n%s,3\n" % cell).encode())
            text = self.refused(reader.read_columns, bad, ["v"], (), ["n"])
            self.assertTrue(text.startswith(
                "%s: line 3: column n must be a count (integer >= 0), got " % bad), text)
            self.assertIn(got, text)

    def test_run_json_errors(self):
        none = os.path.join(self.tmp, "none")
        self.assertEqual(self.refused(reader.read_run_json, none),
                         "run folder not found: %s" % none)
        run = os.path.join(self.tmp, "run")
        os.makedirs(run)
        path = os.path.join(run, "run.json")
        self.assertEqual(self.refused(reader.read_run_json, run),
                         "missing run.json: %s (the run did not finish?)" % path)
        with open(path, "w") as fh:
            fh.write('{"seed":\n  1,\n')
        self.assertTrue(self.refused(reader.read_run_json, run).startswith(
            "cannot parse %s: " % path))
        with open(path, "w") as fh:
            fh.write("[1, 2]")
        self.assertEqual(self.refused(reader.read_run_json, run),
                         "cannot parse %s: not a JSON object" % path)
        with open(path, "w") as fh:
            fh.write('{"seed": 1}')
        self.assertEqual(reader.read_run_json(run), {"seed": 1})


class Reporting(unittest.TestCase):
    def test_report(self):
        rc, out, err = call(errors.report, "x.py", AnalysisError("two\nlines"))
        self.assertEqual((rc, out, err), (2, "", "x.py: error: two lines\n"))

    def test_argument_parser(self):
        parser = errors.ArgumentParser(prog="x.py")
        parser.add_argument("runs", nargs="+", metavar="RUN_DIR")
        rc, out, err = call(parser.parse_args, [])
        self.assertEqual(rc, 2)
        self.assertEqual(err, "x.py: error: the following arguments are required: RUN_DIR\n")


class Scripts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.tmp = cls.dir.name
        cls.bad = os.path.join(cls.tmp, "bad")
        os.makedirs(cls.bad)
        with open(os.path.join(cls.bad, "run.json"), "w") as fh:
            fh.write('{"parameters": ')

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_one_line_exit_2(self):
        self.assertEqual(sorted(SCRIPTS), sorted(
            n[:-3] for n in os.listdir(ANALYSIS) if n.endswith(".py") and n != "sweep.py"))
        for name, (before, after, json_first) in sorted(SCRIPTS.items()):
            module = load(name)
            cases = [(os.path.join(self.tmp, "none"), "none")]
            if json_first:
                cases.append((self.bad, "cannot parse %s" % os.path.join(self.bad, "run.json")))
            for run_dir, needle in cases:
                with self.subTest(script=name, run=run_dir):
                    out = os.path.join(self.tmp, "out-" + name)
                    argv = before + [run_dir] + [a.replace("OUT", out) for a in after]
                    rc, _, err = call(module.main, argv, prog=name + ".py")
                    self.assertEqual(rc, 2, err)
                    self.assertEqual(len(err.splitlines()), 1, err)
                    self.assertTrue(err.startswith("%s.py: error: " % name), err)
                    self.assertIn(needle, err)
                    self.assertFalse(os.path.exists(out))


    def test_plot_consensus_table(self):
        """plot_consensus.py --table FILE: its other way out."""
        module = load("plot_consensus")
        table = os.path.join(self.tmp, "t.csv")
        for run_dir in (os.path.join(self.tmp, "none"), self.bad):
            rc, _, err = call(module.main, [run_dir, "--table", table], prog="plot_consensus.py")
            self.assertEqual(rc, 2, err)
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertTrue(err.startswith("plot_consensus.py: error: "), err)
            self.assertFalse(os.path.exists(table))

    def test_bad_argument_one_line(self):
        """argparse's errors too are one line (errors.ArgumentParser), not the usage."""
        for name, (before, after, _) in sorted(SCRIPTS.items()):
            with self.subTest(script=name):
                out = os.path.join(self.tmp, "out-" + name)
                argv = (before + [self.bad] + [a.replace("OUT", out) for a in after]
                        + ["--no-such-option"])
                rc, _, err = call(load(name).main, argv, prog=name + ".py")
                self.assertEqual(rc, 2, err)
                self.assertEqual(err, "%s.py: error: unrecognized arguments: --no-such-option\n"
                                 % name)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
