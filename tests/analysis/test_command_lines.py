#!/usr/bin/python3
"""The analysis scripts as command lines: runnable as the manual writes them, and their
--help whole.

    test_command_lines.py

For every command-line script of analysis/ (a *.py with a __main__ block):

- it is executable (the git index too: mode 100755) and its first line is
  #!/usr/bin/python3, so that `analysis/plot_rounds.py RUN_DIR` runs as written, with
  Debian's python3;
- run by a python3 that lacks the third-party modules (Debian's with -S, which leaves its
  dist-packages off sys.path; and the python3 found first on PATH when that is another one
  and lacks matplotlib, e.g. pyenv's), `SCRIPT --help` either works (a script of the
  standard library only) or prints ONE line, "SCRIPT: error: needs MODULE: apt-get install
  python3-MODULE ...", and exits with status 2: no traceback. Every plot_*.py needs
  matplotlib, so these must print that line;
- its --help (Debian's python3) exits 0 and is whole: the description is whole sentences
  (it ends with a full stop, its brackets and quotes are balanced), and every argument has a
  help text, whole too.
"""
import os
import re
import shutil
import subprocess
import sys
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANALYSIS = os.path.join(TOP, "analysis")
DEBIAN_PYTHON = "/usr/bin/python3"
# sweep.py's --help is rewritten on a branch of its own; back in this list once it is whole
HELP_LATER = {"sweep.py"}


def scripts():
    out = []
    for name in sorted(os.listdir(ANALYSIS)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(ANALYSIS, name), encoding="utf-8") as f:
            if "__name__ == \"__main__\"" in f.read():
                out.append(name)
    return out


def other_python():
    """The python3 first on PATH if it is not Debian's and lacks matplotlib, else None."""
    found = shutil.which("python3")
    if not found or os.path.realpath(found) == os.path.realpath(DEBIAN_PYTHON):
        return None
    works = subprocess.run([found, "-c", "import sys"], capture_output=True)
    proc = subprocess.run([found, "-c", "import matplotlib"], capture_output=True)
    return found if works.returncode == 0 and proc.returncode != 0 else None


def balanced(text):
    """'' or what is unbalanced: (), [], {}, double quotes, backticks."""
    depth = {"(": 0, "[": 0, "{": 0}
    close = {")": "(", "]": "[", "}": "{"}
    for c in text:
        if c in depth:
            depth[c] += 1
        elif c in close:
            depth[close[c]] -= 1
            if depth[close[c]] < 0:
                return "'%s' before its opening" % c
    for c, n in depth.items():
        if n:
            return "%d '%s' not closed" % (n, c)
    if text.count('"') % 2:
        return "an odd number of double quotes"
    if text.count("`") % 2:
        return "an odd number of backticks"
    return ""


def parse_help(text):
    """(description, [(argument, help)]) of argparse's --help output."""
    blocks = re.split(r"\n\s*\n", text.strip())
    description = ""
    if len(blocks) > 1 and not blocks[1].rstrip().endswith(":") and \
            not re.match(r"^\S.*:\n", blocks[1] + "\n"):
        description = " ".join(blocks[1].split())
    arguments = []
    section = False
    for line in text.split("\n"):
        if re.match(r"^\S.*:$", line):  # "positional arguments:", "options:"
            section = True
            continue
        if not section or not line.strip():
            continue
        m = re.match(r"^  (\S.*?)(?:\s{2,}(\S.*))?$", line)
        if m and not line.startswith("    "):
            arguments.append([m.group(1), m.group(2) or ""])
        elif arguments and line.startswith("    "):
            arguments[-1][1] = (arguments[-1][1] + " " + line.strip()).strip()
    return description, arguments


class Runnable(unittest.TestCase):
    def test_executable_with_debian_shebang(self):
        index = subprocess.run(["git", "ls-files", "-s", "analysis"], cwd=TOP,
                               capture_output=True, text=True)
        modes = {os.path.basename(l.split("\t")[1]): l.split()[0]
                 for l in index.stdout.splitlines() if "\t" in l}
        for name in scripts():
            with self.subTest(script=name):
                path = os.path.join(ANALYSIS, name)
                self.assertTrue(os.access(path, os.X_OK), "%s is not executable" % name)
                if modes:  # a git checkout: the mode a clone gets
                    self.assertEqual(modes.get(name), "100755", "%s: git mode" % name)
                with open(path) as f:
                    self.assertEqual(f.readline().rstrip("\n"), "#!" + DEBIAN_PYTHON)

    def test_as_written(self):
        """`analysis/SCRIPT --help` from the top of the repository, as a page writes it."""
        for name in scripts():
            with self.subTest(script=name):
                proc = subprocess.run([os.path.join("analysis", name), "--help"], cwd=TOP,
                                      capture_output=True, text=True, timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertTrue(proc.stdout.startswith("usage:"), proc.stdout[:200])

    def check_missing(self, python):
        needing = []
        for name in scripts():
            with self.subTest(script=name, python=" ".join(python)):
                proc = subprocess.run(python + [os.path.join(ANALYSIS, name), "--help"],
                                      capture_output=True, text=True, timeout=120)
                if proc.returncode == 0 and proc.stdout.startswith("usage:"):
                    self.assertFalse(name.startswith("plot_"),
                                     "%s ran without matplotlib" % name)
                    continue
                needing.append(name)
                lines = proc.stderr.splitlines()
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(len(lines), 1, "not one line:\n" + proc.stderr)
                m = re.match(r"^%s: error: needs (\w+): apt-get install python3-(\w+)( \(.*\))?$"
                             % re.escape(name), lines[0])
                self.assertTrue(m, lines[0])
                self.assertEqual(m.group(1), m.group(2), lines[0])
                self.assertEqual(proc.stdout, "")
        self.assertTrue([n for n in needing if n.startswith("plot_")], "no plot script "
                        "needed matplotlib: the python3 of this test has it")
        return needing

    def test_without_dist_packages(self):
        needing = self.check_missing([DEBIAN_PYTHON, "-S"])
        print("without dist-packages: %d of %d scripts name their missing package"
              % (len(needing), len(scripts())))

    def test_other_python3(self):
        python = other_python()
        if python is None:
            self.skipTest("the python3 on PATH is Debian's or has matplotlib")
        needing = self.check_missing([python])
        print("%s: %d of %d scripts name their missing package" % (python, len(needing),
                                                                    len(scripts())))


class HelpWhole(unittest.TestCase):
    def test_help_is_whole(self):
        env = dict(os.environ, COLUMNS="100")
        for name in scripts():
            if name in HELP_LATER:
                continue
            with self.subTest(script=name):
                proc = subprocess.run([DEBIAN_PYTHON, os.path.join(ANALYSIS, name), "--help"],
                                      capture_output=True, text=True, timeout=120, env=env)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                description, arguments = parse_help(proc.stdout)
                self.assertTrue(description, "no description:\n" + proc.stdout)
                self.assertRegex(description, r"[.!?][)\"']?$",
                                 "description cut mid-sentence: ..." + description[-80:])
                self.assertEqual(balanced(description), "", description)
                self.assertTrue(arguments, proc.stdout)
                for argument, text in arguments:
                    if argument.startswith("-h, --help"):
                        continue
                    if re.match(r"^\{.*\}$", argument) and not text:
                        continue  # a choice's list (choices shown in the usage)
                    self.assertTrue(text, "%s: no help text" % argument)
                    self.assertEqual(balanced(text), "", "%s: %s" % (argument, text))


if __name__ == "__main__":
    unittest.main(verbosity=1)
