#!/usr/bin/python3
"""Structure test of the sources: no long function, no god class (Universal Ctags).

Measured with Universal Ctags (Debian's universal-ctags, as the review that set the limits
measured them), from the sources alone:

  function  every function of contrib/d2dlearn/ (library and tests), scenarios/, bench/,
            examples/ and utils/ is at most MAX_LINES lines, its signature's first line to
            its closing brace; every program's main() included;
  members   every class or struct of those folders has at most MAX_MEMBERS data members
            (static ones included), counted in its own scope (a nested struct is its own).
            Not yet counted: inherited data members, and a class's state kept in a type
            defined in a .cc file (its Impl) counts as that type's own.

Violations listed in KNOWN (each with the move that removes it) are printed but pass; any
other fails, and so does a KNOWN entry that no longer occurs or is now within its limit:
the list can only shrink (a ratchet, as tests/layering.py's). Exit 0 clean, 1 otherwise.

  tests/structure.py [--root DIR]   check the tree at DIR (default: this repository)
  tests/structure.py --self-test    check that the checker fails an injected long function
                                    and an injected class of too many members, and a stale
                                    KNOWN entry
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_LINES = 150
MAX_MEMBERS = 35
FOLDERS = [os.path.join("contrib", "d2dlearn"), "scenarios", "bench", "examples", "utils"]
CTAGS = ["ctags", "-R", "--languages=C++", "--langmap=C++:+.h", "--kinds-C++=+m-p",
         "--fields=+neKZs", "--extras=-F", "-x", "--_xformat=%K|%N|%s|%n|%e|%F"]

# Known violations, removed as they are fixed: (kind, file, name) -> the move that removes
# it. kind: "function" (name: scope::function) or "members" (name: the class).
KNOWN = {}

ANON = re.compile(r"__anon\w+(::)?")


def measure(root):
    """({(file, scope::function): lines}, {(file, class): members}) of the tree at root."""
    out = subprocess.run(CTAGS + FOLDERS, cwd=root, check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    lengths = {}
    members = {}
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) != 6:
            continue
        kind, name, scope, start, end, path = parts
        scope = ANON.sub("", scope)
        if scope.startswith("ns3::"):
            scope = scope[len("ns3::"):]
        if kind == "function" and end:
            key = (path, scope + "::" + name if scope else name)
            lengths[key] = max(lengths.get(key, 0), int(end) - int(start) + 1)
        elif kind == "member" and scope:
            members[(path, scope)] = members.get((path, scope), 0) + 1
    return lengths, members


def check(root, known):
    """Print the report of the tree at root; return the number of failures."""
    lengths, members = measure(root)
    found = {}
    for (path, name), n in lengths.items():
        if n > MAX_LINES:
            found[("function", path, name)] = "%d lines (at most %d)" % (n, MAX_LINES)
    for (path, name), n in members.items():
        if n > MAX_MEMBERS:
            found[("members", path, name)] = "%d data members (at most %d)" % (n, MAX_MEMBERS)
    failures = 0
    for key in sorted(found):
        kind, path, name = key
        if key in known:
            print("known  %s: %s %s: %s; to do: %s" % (path, kind, name, found[key], known[key]))
        else:
            print("FAIL   %s: %s %s: %s" % (path, kind, name, found[key]))
            failures += 1
    for key in sorted(set(known) - set(found)):
        print("FAIL   %s: %s %s is within its limit now: remove it from KNOWN" % (key[1], key[0],
                                                                                  key[2]))
        failures += 1
    mains = {p: n for (p, name), n in lengths.items() if name == "main" and
             p.startswith("scenarios")}
    print("structure: %d functions, %d classes measured; the longest function %d lines; the "
          "largest class %d data members; scenario mains: %s" %
          (len(lengths), len(members), max(lengths.values()), max(members.values()),
           ", ".join("%s %d" % (os.path.basename(p)[:-3], n) for p, n in sorted(mains.items()))))
    print("structure: %d violations, %d known, %d failures" % (len(found), len(set(found) &
                                                                             set(known)),
                                                               failures))
    return failures


def self_test():
    """The checker passes a copy of the tree and fails it once a violation is injected."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for folder in FOLDERS:
            shutil.copytree(os.path.join(here, folder), os.path.join(tmp, folder))
        ok &= check(tmp, KNOWN) == 0
        print("self-test: the copy passes: %s" % ok)
        long_fn = os.path.join(tmp, "contrib", "d2dlearn", "core", "model", "d2d-injected.cc")
        with open(long_fn, "w", encoding="utf-8") as f:
            f.write("namespace ns3\n{\nint\nInjected(int x)\n{\n" +
                    "    x += 1;\n" * MAX_LINES + "    return x;\n}\n} // namespace ns3\n")
        failed = check(tmp, KNOWN)
        print("self-test: a function of %d lines fails: %s" % (MAX_LINES + 4, failed == 1))
        ok &= failed == 1
        os.remove(long_fn)
        long_bench = os.path.join(tmp, "bench", "bench-injected.cc")
        with open(long_bench, "w", encoding="utf-8") as f:
            f.write("int\nmain()\n{\n    int x = 0;\n" + "    x += 1;\n" * MAX_LINES +
                    "    return x;\n}\n")
        failed = check(tmp, KNOWN)
        print("self-test: a main() of %d lines in bench/ fails: %s" % (MAX_LINES + 5,
                                                                       failed == 1))
        ok &= failed == 1
        os.remove(long_bench)
        big = os.path.join(tmp, "contrib", "d2dlearn", "core", "model", "d2d-injected.h")
        with open(big, "w", encoding="utf-8") as f:
            f.write("namespace ns3\n{\nclass D2dInjected\n{\n  private:\n" +
                    "".join("    int m_v%d;\n" % i for i in range(MAX_MEMBERS + 1)) +
                    "};\n} // namespace ns3\n")
        failed = check(tmp, KNOWN)
        print("self-test: a class of %d members fails: %s" % (MAX_MEMBERS + 1, failed == 1))
        ok &= failed == 1
        os.remove(big)
        stale = dict(KNOWN)
        stale[("function", "scenarios/fedavg/fedavg.cc", "NoSuchFunction")] = "stale"
        failed = check(tmp, stale)
        print("self-test: a stale KNOWN entry fails: %s" % (failed == 1))
        ok &= failed == 1
    print("self-test: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if shutil.which("ctags") is None:
        sys.exit("structure.py: ctags not found (Debian: universal-ctags; setup.sh installs it)")
    if args.self_test:
        return self_test()
    failures = check(args.root, KNOWN)
    print("structure: %s" % ("PASS" if failures == 0 else "FAIL"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
