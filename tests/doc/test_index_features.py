#!/usr/bin/python3
"""The manual's index names, under "What exists today", every data set, model family and
messaging backend that the scenario programs accept.

    test_index_features.py BINDIR [PROGRAM ...]

Reads the accepted values from each program's own `--PrintHelp` (BINDIR/PROGRAM; default:
the six scenario programs), nothing hard-coded here:

- `--dataset` and `--backend`: the list that ends the flag's help ("...: a, b or c");
- `--model`: each item of its help (linear, mlp[:WxW..], torchscript:PATH (...)), named by
  its family, the word before its "[" or ":" (mlp, torchscript).

Each must be a code span of the section "## What exists today" of doc/index.md: the value
itself (`cifar10`, `mlp`), the flag with it (`--dataset=cifar10`), or the family with its
parameters (`mlp:64`). Exit status 1 and one line per value the index does not name, with
the programs that accept it.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INDEX = os.path.join(TOP, "doc", "index.md")
PROGRAMS = ["fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery",
            "d2d-exchange"]
FLAGS = ("dataset", "model", "backend")


def top_level(text, sep):
    """text split at each sep outside brackets and parentheses."""
    parts, depth, at, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[at:i])
            at = i + len(sep)
            i = at
            continue
        i += 1
    return parts + [text[at:]]


def values(help_line):
    """The values a flag's --PrintHelp line lists, each by its family (before [ or :)."""
    text = re.sub(r"\s*\[[^\[\]]*\]$", "", help_line.strip())   # the default
    text = re.sub(r"\s*\(acts with: [^()]*\)$", "", text)       # D2dFlagScope's conditions
    text = top_level(text, ": ")[-1]  # "Data set: a, b or c": the list after the last ": "
    items = []
    for part in top_level(text, ", "):
        items += top_level(part, " or ")
    out = []
    for item in items:
        m = re.match(r"\s*([A-Za-z0-9][\w\-]*)", item)
        if m:
            out.append(m.group(1))
    return out


def accepted(bindir, programs):
    """{flag: {value: [programs]}} from each program's --PrintHelp."""
    def helptext(program):
        return subprocess.run([os.path.join(bindir, program), "--PrintHelp"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              check=True, timeout=120).stdout
    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = dict(zip(programs, pool.map(helptext, programs)))
    found = {f: {} for f in FLAGS}
    for program, text in texts.items():
        for line in text.splitlines():
            m = re.match(r"^\s+--(%s):\s*(.*)$" % "|".join(FLAGS), line)
            if m:
                for v in values(m.group(2)):
                    found[m.group(1)].setdefault(v, []).append(program)
    return found


def index_code_spans():
    text = open(INDEX, encoding="utf-8").read()
    m = re.search(r"^## What exists today\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        sys.exit("test_index_features: doc/index.md has no section '## What exists today'")
    return set(re.findall(r"`([^`]+)`", m.group(1)))


def named(flag, value, spans):
    for span in spans:
        span = re.sub(r"^--%s=" % flag, "", span)
        if span == value or re.match(re.escape(value) + r"[:\[]", span):
            return True
    return False


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    bindir, programs = argv[1], argv[2:] or PROGRAMS
    found = accepted(bindir, programs)
    spans = index_code_spans()
    errors = []
    for flag in FLAGS:
        if not found[flag]:
            errors.append("no program's --PrintHelp lists --%s (%s)" % (flag, ", ".join(programs)))
        for value, where in sorted(found[flag].items()):
            if not named(flag, value, spans):
                errors.append("--%s=%s (%s) is not named under 'What exists today' in "
                              "doc/index.md" % (flag, value, ", ".join(where)))
        print("test_index_features: --%s: %s" % (flag, ", ".join(sorted(found[flag]))))
    for e in errors:
        print("test_index_features: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
