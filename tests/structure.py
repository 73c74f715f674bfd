#!/usr/bin/python3
"""Structure test of the sources: no long function, no god class (Universal Ctags).

Measured with Universal Ctags (Debian's universal-ctags, as the review that set the limits
measured them), from the sources alone:

  function  every function of contrib/d2dlearn/ (library and tests), scenarios/, bench/,
            examples/ and utils/ is at most MAX_LINES lines, its signature's first line to
            its closing brace; every program's main() included;
  members   every class or struct of those folders holds at most MAX_MEMBERS data members
            (static ones included): its own, and those of what it holds, counted whole:
            - its base classes of these folders (inherited members, through every level);
            - a type nested in it and defined in a .cc file that it holds one of (its Impl,
              by value or through a pointer);
            - a plain struct (no member function of its own) that it holds one of, by value
              or through an owning pointer (a bag of fields is still the holder's state).
            A type with functions of its own held as a part (D2dFlProtocol's
            D2dRoundRecorder), a container's elements (one record per message) and an
            object shared through a pointer to const are measured as their own classes.
            Types defined in .cc files (Impls, test cases, a program's classes) and the
            functions of anonymous namespaces are measured like the others (Ctags' tags of
            file scope are kept).

Violations listed in KNOWN (each with the move that removes it) are printed but pass; any
other fails, and so does a KNOWN entry that no longer occurs or is now within its limit:
the list can only shrink (a ratchet, as tests/layering.py's). Exit 0 clean, 1 otherwise.

  tests/structure.py [--root DIR]   check the tree at DIR (default: this repository)
  tests/structure.py --self-test    check that the checker fails an injected long function
                                    and an injected class of too many members, and a stale
                                    KNOWN entry
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_LINES = 150
MAX_MEMBERS = 35
FOLDERS = [os.path.join("contrib", "d2dlearn"), "scenarios", "bench", "examples", "utils"]
# No --extras=-F: tags of file scope (functions of anonymous namespaces, classes and test
# cases defined in a .cc file, a .cc-defined Impl's members) are measured like the others.
# Prototypes (p) tell a class with functions of its own from a plain struct.
CTAGS = ["ctags", "-R", "--languages=C++", "--langmap=C++:+.h", "--kinds-C++=+mp",
         "--fields=+neKZsit", "-x", "--_xformat=%K|%N|%s|%n|%e|%F|%{inherits}|%t"]

# Known violations, removed as they are fixed: (kind, file, name) -> the move that removes
# it. kind: "function" (name: scope::function) or "members" (name: the class).
KNOWN = {}

ANON = re.compile(r"__anon\w+(::)?")
# A member holding one object of a type, by value or through an owning pointer: its type's
# name. A pointer to const (std::shared_ptr<const X>, Ptr<const X>) is a view of an object
# shared with others (the learners' interned architecture), not held: it does not match.
SINGLE = re.compile(r"^typename:(?:const )?(?:(?:std::unique_ptr|std::shared_ptr|Ptr|"
                    r"std::optional)<(?!const )([\w:]+)>|([\w:]+))$")


class Tree:
    """The tags of a tree: functions' lengths and classes' members, bases and functions."""

    def __init__(self, root):
        out = subprocess.run(CTAGS + FOLDERS, cwd=root, check=True, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        self.lengths = {}  # (file, scope::function) -> lines
        self.where = {}  # class -> the file defining it (or its first member)
        self.own = collections.defaultdict(list)  # class -> its own data members' types
        self.bases = {}  # class -> its base classes as written
        self.behaves = set()  # classes with member functions of their own
        self.cc = set()  # classes whose members are defined in a .cc file
        for line in out.splitlines():
            parts = line.split("|")
            if len(parts) != 8:
                continue
            kind, name, scope, start, end, path, inherits, typeref = parts
            scope = ANON.sub("", scope)
            scope = scope[len("ns3::"):] if scope.startswith("ns3::") else (
                "" if scope == "ns3" else scope)
            full = scope + "::" + name if scope else name
            if kind in ("function", "prototype") and scope:
                self.behaves.add(scope)
            if kind == "function" and end:
                key = (path, full)
                self.lengths[key] = max(self.lengths.get(key, 0), int(end) - int(start) + 1)
            elif kind in ("class", "struct"):
                self.where.setdefault(full, path)
                self.bases[full] = [] if inherits == "-" else inherits.split(",")
            elif kind == "member" and scope:
                self.own[scope].append(typeref)
                self.where.setdefault(scope, path)
                if path.endswith(".cc"):
                    self.cc.add(scope)

    def Resolve(self, name, within):
        """The class of ours that name (a base or a member's type, written in within)
        names, or None."""
        name = re.sub(r"^\s*(public|protected|private|virtual)\s+", "", name).strip()
        name = re.sub(r"<.*", "", name.replace("ns3::", ""))
        scopes = within.split("::")
        for i in range(len(scopes), -1, -1):
            candidate = "::".join(scopes[:i] + [name])
            if candidate in self.where:
                return candidate
        return None

    def Held(self, cls):
        """The classes whose members count as cls's: its bases (inherited members), a nested
        type defined in a .cc file that it holds one of (its Impl), and a plain struct (no
        member function) that it holds one of by value or pointer; recursively."""
        held = []
        for base in self.bases.get(cls, []):
            found = self.Resolve(base, cls)
            if found:
                held.append(found)
        for typeref in self.own.get(cls, []):
            match = SINGLE.match(typeref)
            found = match and self.Resolve(match.group(1) or match.group(2), cls)
            if not found or found == cls:
                continue
            impl = found.startswith(cls + "::") and found in self.cc
            if impl or found not in self.behaves:
                held.append(found)
        return held

    def Members(self, cls, seen=()):
        """cls's data members: its own and those of the classes it holds (Held)."""
        n = len(self.own.get(cls, []))
        for other in self.Held(cls):
            if other not in seen:
                n += self.Members(other, seen + (cls,))
        return n


def measure(root):
    """({(file, scope::function): lines}, {(file, class): members}) of the tree at root."""
    tree = Tree(root)
    classes = set(tree.own) | set(tree.bases)
    members = {(tree.where[c], c): tree.Members(c) for c in classes}
    return tree.lengths, members


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


def Ints(prefix, n):
    """n int data members, named prefix0..."""
    return "".join("    int %s%d;\n" % (prefix, i) for i in range(n))


def Class(name, body, head="class", bases=""):
    """A class definition in namespace ns3."""
    return "namespace ns3\n{\n%s %s%s\n{\n  public:\n%s};\n} // namespace ns3\n" % (
        head, name, bases, body)


MODEL = os.path.join("contrib", "d2dlearn", "core", "model")
# The self-test's injections: (what, {file: text}, the failures expected).
INJECTIONS = [
    ("a function of %d lines" % (MAX_LINES + 4),
     {os.path.join(MODEL, "d2d-injected.cc"): "namespace ns3\n{\nint\nInjected(int x)\n{\n" +
      "    x += 1;\n" * MAX_LINES + "    return x;\n}\n} // namespace ns3\n"}, 1),
    ("a main() of %d lines in bench/" % (MAX_LINES + 5),
     {os.path.join("bench", "bench-injected.cc"): "int\nmain()\n{\n    int x = 0;\n" +
      "    x += 1;\n" * MAX_LINES + "    return x;\n}\n"}, 1),
    ("a long function of an anonymous namespace in a .cc file",
     {os.path.join(MODEL, "d2d-injected.cc"): "namespace ns3\n{\nnamespace\n{\nint\nHidden("
      "int x)\n{\n" + "    x += 1;\n" * MAX_LINES + "    return x;\n}\n}\n} // namespace ns3\n"},
     1),
    ("a class of %d members" % (MAX_MEMBERS + 1),
     {os.path.join(MODEL, "d2d-injected.h"): Class("D2dInjected", Ints("m_v", MAX_MEMBERS + 1))},
     1),
    ("a class of %d members defined in a .cc file" % (MAX_MEMBERS + 1),
     {os.path.join(MODEL, "d2d-injected.cc"): Class("D2dInjected", Ints("m_v", MAX_MEMBERS + 1))},
     1),
    ("a class of 16 members over a base of 20 (inherited)",
     {os.path.join(MODEL, "d2d-injected.h"): Class("D2dInjectedBase", Ints("m_b", 20)) +
      Class("D2dInjected", Ints("m_v", 16), bases=" : public D2dInjectedBase")}, 1),
    ("a class of 10 members and an Impl of 26 defined in the .cc file",
     {os.path.join(MODEL, "d2d-injected.h"): Class("D2dInjected", Ints("m_v", 9) +
                                                    "    struct Impl;\n"
                                                    "    std::unique_ptr<Impl> m_impl;\n"),
      os.path.join(MODEL, "d2d-injected.cc"): "namespace ns3\n{\nstruct D2dInjected::Impl\n{\n" +
      Ints("m_i", 26) + "};\n} // namespace ns3\n"}, 1),
    ("a class of 6 members holding a plain struct of 30",
     {os.path.join(MODEL, "d2d-injected.h"): Class("D2dInjectedBag", Ints("field", 30),
                                                    head="struct") +
      Class("D2dInjected", Ints("m_v", 5) + "    D2dInjectedBag m_bag;\n")}, 1),
    ("(passes) a class of 6 members holding a part of 30 with a function of its own, and a "
     "vector of plain structs of 30",
     {os.path.join(MODEL, "d2d-injected.h"):
      Class("D2dInjectedPart", "    int Get() const;\n" + Ints("m_p", 30)) +
      Class("D2dInjectedBag", Ints("field", 30), head="struct") +
      Class("D2dInjected", Ints("m_v", 4) + "    D2dInjectedPart m_part;\n"
            "    std::vector<D2dInjectedBag> m_bags;\n")}, 0),
]


def self_test():
    """The checker passes a copy of the tree and fails it once a violation is injected."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for folder in FOLDERS:
            shutil.copytree(os.path.join(here, folder), os.path.join(tmp, folder))
        ok &= check(tmp, KNOWN) == 0
        print("self-test: the copy passes: %s" % ok)
        for what, files, expected in INJECTIONS:
            for path, text in files.items():
                with open(os.path.join(tmp, path), "w", encoding="utf-8") as f:
                    f.write(text)
            failed = check(tmp, KNOWN)
            print("self-test: %s: %d failures (expected %d): %s" % (what, failed, expected,
                                                                    failed == expected))
            ok &= failed == expected
            for path in files:
                os.remove(os.path.join(tmp, path))
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
