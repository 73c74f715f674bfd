#!/usr/bin/python3
"""Tutorial 1 lists the Debian packages that setup.sh installs, the same two lists.

    test_setup_packages.py

setup.sh's RUN_PACKAGES (what `--run` installs) and TEST_PACKAGES (what `--test` adds), read
from the script, comments dropped; doc/tutorial/first-run.md's two code spans of package
names (the first the `--run` list, the second the `--test` one). Exit status 1 and one line
per package that one names and the other does not.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETUP = os.path.join(TOP, "setup.sh")
TUTORIAL = os.path.join(TOP, "doc", "tutorial", "first-run.md")
# a Debian package name (Debian Policy 5.6.1), at least five to a list
PACKAGE = r"[a-z0-9][a-z0-9+.\-]+"


def setup_lists():
    """setup.sh's two arrays, each read line by line up to the ")" that closes it outside a
    comment (comments hold parentheses too)."""
    lines = open(SETUP, encoding="utf-8").read().splitlines()
    lists = {}
    for name in ("RUN_PACKAGES", "TEST_PACKAGES"):
        start = [i for i, line in enumerate(lines) if line.startswith(name + "=(")]
        if not start:
            sys.exit("test_setup_packages: setup.sh has no %s=(...)" % name)
        words = []
        for k in range(start[0], len(lines)):
            code = lines[k].split("#")[0]
            if k == start[0]:
                code = code[len(name) + 2:]  # after "NAME=("
            words += code.split(")")[0].split()
            if ")" in code:
                break
        lists[name] = words
    return lists["RUN_PACKAGES"], lists["TEST_PACKAGES"]


def tutorial_lists():
    text = open(TUTORIAL, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)  # command blocks
    spans = [s.split() for s in re.findall(r"`([^`]+)`", text, re.S)]
    lists = [s for s in spans if len(s) >= 5 and all(re.fullmatch(PACKAGE, w) for w in s)]
    if len(lists) != 2:
        sys.exit("test_setup_packages: %s has %d code spans of package names, not 2"
                 % (os.path.relpath(TUTORIAL, TOP), len(lists)))
    return lists


def main():
    errors = []
    for what, want, got in zip(("--run", "--test"), setup_lists(), tutorial_lists()):
        for p in want:
            if p not in got:
                errors.append("setup.sh %s installs %s, which Tutorial 1 does not list" % (what, p))
        for p in got:
            if p not in want:
                errors.append("Tutorial 1 lists %s under %s, which setup.sh does not install"
                              % (p, what))
        print("test_setup_packages: %s: %d packages in setup.sh, %d in Tutorial 1"
              % (what, len(want), len(got)))
    for e in errors:
        print("test_setup_packages: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
