#!/usr/bin/python3
"""analysis/ as an importable package: d2dlearn_analysis and every module of it import in a
fresh interpreter from any folder with analysis/ on PYTHONPATH (as a researcher's script
does; installed: PREFIX/share/d2dlearn/analysis), and no file of analysis/ edits sys.path
(the scripts find the package beside them because Python puts a script's folder first).

Run:  /usr/bin/python3 tests/analysis/test_package.py [ANALYSIS_DIR]
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANALYSIS = os.path.join(TOP, "analysis")
PYTHON = "/usr/bin/python3"


def python_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                yield os.path.join(folder, f)


class PackageTest(unittest.TestCase):
    def test_no_sys_path_edits(self):
        found = []
        for path in python_files(ANALYSIS):
            with open(path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if re.search(r"\bsys\.path\.(insert|append|extend)\b|\bsite\.addsitedir\b",
                                 line):
                        found.append("%s:%d: %s" % (os.path.relpath(path, TOP), n,
                                                    line.strip()))
        self.assertEqual(found, [])

    def test_every_module_imports_from_anywhere(self):
        package = os.path.join(ANALYSIS, "d2dlearn_analysis")
        modules = sorted(
            "d2dlearn_analysis." + os.path.relpath(p, package)[:-3].replace(os.sep, ".")
            for p in python_files(package) if not p.endswith("__init__.py"))
        self.assertIn("d2dlearn_analysis.stats", modules)
        self.assertIn("d2dlearn_analysis.sweep.cli", modules)
        code = ("import importlib, sys\n"
                "for m in sys.argv[1:]:\n"
                "    importlib.import_module(m)\n"
                "from d2dlearn_analysis import stats\n"
                "print('%.4f' % stats.t975(35))\n")
        with tempfile.TemporaryDirectory() as cwd:
            env = dict(os.environ, PYTHONPATH=ANALYSIS, MPLBACKEND="Agg")
            proc = subprocess.run([PYTHON, "-c", code] + modules, cwd=cwd, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        self.assertEqual(proc.stdout.strip(), "2.0301")  # t(0.975, 35), SciPy's


if __name__ == "__main__":
    if len(sys.argv) > 1:
        ANALYSIS = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
