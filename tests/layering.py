#!/usr/bin/python3
"""Layering test of the d2dlearn sources: which folder may include which; no tracker numbers.

The layers (doc/reference/layout.md, "Layers"): one folder per library, core/ (libd2dlearn,
torch-free) below learning/ (libd2dlearn-learning) below scenario/ (libd2dlearn-scenario).
core/: model (channel, radios, energy, compute, transports, messages) -> data -> bayes
(belief consensus) -> helper (assembly, trace writers). learning/: learner (the learners)
-> the protocols, one folder per paper or family (fl, cmfl, consensus, discovery) -> helper.
scenario/: the scenario layer (flags, their checks, network and learning options, memory
budget), on both libraries' helpers. Then tests, scenarios, examples, bench. A folder
includes only folders below it (and itself); no two folders include each other; nothing in
core/ includes learning/ or scenario/, nothing in learning/ includes scenario/.

From the sources alone (no build): every header of contrib/d2dlearn/ is mapped to its
folder; every `#include "ns3/X"` and `#include "X"` of a .h/.cc (comments stripped) whose X
is such a header gives a folder -> folder edge, with its file and line (ns-3's own headers
and the standard library are not in the map and are ignored). Checked:

  upward   an edge ALLOWED (below) does not list; if it lies in a strongly connected
           component of the folder graph (folders that include each other, directly or
           round a loop), the cycle it closes is printed with it. ALLOWED itself is
           acyclic (checked), so every cycle has an upward edge to cut: the one reported;
  rules    a file of PURE_RULES including a header other than core/model, core/data or another
           pure rule (pure rules sit below their folder's protocols: the gtest units test
           them without a simulator or a learner);
  torch    <torch/...>, <ATen/...> or <c10/...> included by a module file outside learning/,
           or by a header the module publishes as ns3/<name>.h (published(): the headers
           contrib/d2dlearn/d2dlearn-sources.cmake lists; the tests and bench/ may: they measure or
           test the learners);
  tracker  a line of contrib/d2dlearn, scenarios, examples, bench, analysis, tests or doc
           (not doc/data or doc/_generated: generated) matching TRACKER, a tracker issue
           by number: meaningless to a reader of the repository, who is told what it meant.

Violations listed in KNOWN (each with its reason and the move that removes it; empty now)
are printed but pass; any other fails, and so does a KNOWN entry that no longer occurs: the
list can only shrink (a ratchet). Exit 0 clean, 1 on a violation or a stale KNOWN entry.

  tests/layering.py [--root DIR]   check the tree at DIR (default: this repository)
  tests/layering.py --self-test    check that the checker passes a copy of the tree, fails it
                                   once an upward include (into the scenario layer too), a
                                   cycle, a torch include or an impure rule is injected, ignores commented-out includes,
                                   fails when a KNOWN violation is fixed but still listed,
                                   and fails a comment citing a tracker issue by number
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

# ----------------------------------------------------------------------------------------
# The table: which folder may include which (besides itself). Nothing else is allowed.
# contrib/d2dlearn has one folder per library: core/ is libd2dlearn (torch-free: the
# network, the data, belief consensus and their helpers), learning/ is libd2dlearn-learning
# (the LibTorch learners and the learning protocols), scenario/ is libd2dlearn-scenario (the
# scenario layer). The whole of learning/ sits above core/, and scenario/ above both; within
# each, the layers run model -> data -> learners -> protocols -> helper.
MODEL = "core/model"
DATA = "core/data"
BAYES = "core/bayes"
CORE_HELPER = "core/helper"
LEARNER = "learning/learner"
PROTOCOLS = ["learning/fl", "learning/cmfl", "learning/consensus", "learning/discovery",
             BAYES]
LEARNING_HELPER = "learning/helper"
SCENARIO = "scenario"
CORE = [MODEL, DATA, BAYES, CORE_HELPER]
LEARNING = [LEARNER] + [p for p in PROTOCOLS if p.startswith("learning/")] + [LEARNING_HELPER]
LIBRARY = CORE + LEARNING + [SCENARIO]

ALLOWED = {
    MODEL: set(),
    # Data sets and partitions; they need nothing of the model today, and may.
    DATA: {MODEL},
    # Belief consensus (Bayesian, torch-free learners of its own).
    BAYES: {MODEL, DATA},
    # The torch-free helpers: network assembly, traces, belief consensus's trace writer.
    CORE_HELPER: {MODEL, DATA, BAYES},
    # The learners train on data sets and charge the compute model; the variational learner
    # implements bayes's D2dBeliefLearner interface (the learning library sits above core/).
    LEARNER: {MODEL, DATA, BAYES},
    # Every learning protocol folder sits on the model, the data and the learners ...
    "learning/fl": {MODEL, DATA, LEARNER},
    "learning/discovery": {MODEL, DATA, LEARNER},
    # ... and on no other protocol folder, except these deliberate dependencies on fl/:
    # cmfl/: CMFL is an FL protocol (D2dCmfl derives from D2dFlProtocol); its robust
    # baselines are fl/'s aggregation strategies and its uploads fl/'s D2dUploadRetry.
    "learning/cmfl": {MODEL, DATA, LEARNER, "learning/fl"},
    # consensus/: D2dPredictionConsensus derives from D2dFlProtocol (the learners, the
    # rounds, the traces every learning protocol shares).
    "learning/consensus": {MODEL, DATA, LEARNER, "learning/fl"},
    # The learning helpers assemble all of the above (graph-discovery's downstream FL
    # included) on the core helpers.
    LEARNING_HELPER: set(CORE) | set(LEARNING) - {LEARNING_HELPER},
    # The scenario layer: flags, their checks and the options of a scenario program, on the
    # helpers (and what they take: channels, data sets, protocols, paradigms).
    SCENARIO: set(CORE) | set(LEARNING),
    # The ns-3 TestSuites and the GoogleTest units test everything.
    "test": set(LIBRARY),
    "test/gtest": set(LIBRARY) | {"test"},
    # Programs: the library, not the tests.
    "scenarios": set(LIBRARY),
    "examples": set(LIBRARY),
    "bench": set(LIBRARY),
    "utils": set(LIBRARY),
}

# Pure rules: functions of numbers (no simulator, no ns-3 object, no learner), tested by
# test/gtest on their own. They may include core/model, core/data and other pure rules
# only, never their folder's protocol classes. An entry must name an existing file (a moved
# rule is moved here too).
PURE_RULES = {
    "learning/fl/d2d-robust-aggregation",
    "learning/fl/d2d-locality-order",
    "learning/cmfl/d2d-committee-rules",
    "learning/consensus/d2d-trust-rules",
    "learning/discovery/d2d-trust-matrices",
    "learning/discovery/d2d-message-passing",
    "learning/discovery/d2d-diversity-rewards",
    "learning/discovery/d2d-link-policy",
    "learning/discovery/d2d-gap-partition",
    "learning/discovery/d2d-label-propagation",
    "learning/discovery/d2d-gaussian-clusters",
    "learning/discovery/d2d-agreement-cache",
    "learning/discovery/d2d-kl-blocks",
    "learning/discovery/d2d-squared-distance",
    "learning/discovery/d2d-blas",
}

# LibTorch: libd2dlearn-learning links it privately, so only the sources of learning/ may
# include it, and of those not a header the library publishes as ns3/<name>.h (a program
# that includes the published headers compiles without LibTorch's; published(), read from
# contrib/d2dlearn/d2dlearn-sources.cmake). Tests, benchmarks and programs may: they measure or
# test the learners.
TORCH_ALLOWED = set(LEARNING) | {"test", "test/gtest", "scenarios", "examples", "bench"}

# Known violations, removed as they are fixed: (kind, file, what it includes) -> reason.
# kind: "upward", "rules" or "torch" (an upward include that closes a cycle is "upward").
KNOWN = {}
# ----------------------------------------------------------------------------------------

MODULE = os.path.join("contrib", "d2dlearn")
PROGRAM_DIRS = ["scenarios", "examples", "bench", "utils"]
SOURCE_SUFFIXES = (".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TORCH = re.compile(r"^(torch|ATen|c10)/")

# A reference to the project's private tracker ("issue", then its number, in a comment or
# the docs): the number means nothing in the repository; say what it refers to instead.
# Checked in every text file of these folders but the generated ones (this file too: its
# own strings are written so that they do not match).
TRACKER = re.compile(r"[Ii]ssues? #?([0-9]+)")
TRACKER_DIRS = [MODULE] + PROGRAM_DIRS + ["analysis", "tests", "doc"]
TRACKER_SKIP = {os.path.join("doc", "data"), os.path.join("doc", "_generated")}
TRACKER_SKIP_NAMES = {"__pycache__", "_build", ".git"}


# A comment, or a literal that may hold comment-like text (kept as it is).
TOKEN = re.compile(r"""//[^\n]*|/\*.*?(?:\*/|\Z)"""
                   r"""|\bR"([^()\\\s]{0,16})\(.*?\)\1"""
                   r"""|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.S)


def strip_comments(text):
    """The text without // and /* */ comments (newlines kept, so line numbers hold);
    string, character and raw string literals are left alone."""
    def repl(m):
        tok = m.group(0)
        return "\n" * tok.count("\n") if tok.startswith(("//", "/*")) else tok
    return TOKEN.sub(repl, text)


def folder_of(rel):
    """The layering folder of a repository-relative path (None: not checked)."""
    parts = rel.split(os.sep)
    if parts[:2] == MODULE.split(os.sep) and len(parts) > 3:
        return "/".join(parts[2:-1])
    if parts[0] in PROGRAM_DIRS:
        return parts[0]
    return None


def sources(root):
    """Every .h/.cc under the module's folders and the programs' folders, sorted."""
    found = []
    for top in [MODULE] + PROGRAM_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    if folder_of(rel) is not None:
                        found.append(rel)
    return found


def includes(path):
    """(line, quoted, name) of every #include of a file, comments stripped (the angle
    form too: <ns3/X> names a module header as "ns3/X" does)."""
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    for lineno, line in enumerate(text.split("\n"), 1):
        m = INCLUDE.match(line)
        if m:
            yield lineno, m.group(1) == '"', m.group(2)


def tracker_files(root):
    """Every text file the tracker check reads (repository-relative), sorted."""
    found = []
    for top in TRACKER_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(dirpath, root)
            dirnames[:] = sorted(d for d in dirnames if d not in TRACKER_SKIP_NAMES
                                 and os.path.join(rel_dir, d) not in TRACKER_SKIP)
            for name in sorted(filenames):
                found.append(os.path.join(rel_dir, name))
    return found


def tracker_references(root):
    """(files read, [(file, line, issue number)]) of the tracker references under root;
    binary files (a NUL byte) are skipped."""
    files, found = 0, []
    for rel in tracker_files(root):
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        files += 1
        for lineno, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            for m in TRACKER.finditer(line):
                found.append((rel, lineno, m.group(1)))
    return files, found


def header_map(root, files):
    """Module header name -> its folder; a name defined twice is an error."""
    owner, errors = {}, []
    for rel in files:
        if rel.startswith(MODULE + os.sep) and rel.endswith(".h"):
            name = os.path.basename(rel)
            if name in owner:
                errors.append(f"{rel}: header name also in {owner[name][1]}")
            owner[name] = (folder_of(rel), rel)
    return {name: folder for name, (folder, _) in owner.items()}, errors


def components(nodes, edges):
    """Strongly connected components (Tarjan) of a graph given as node -> successors."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            result.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def path(graph, nodes, start, goal):
    """A shortest path start .. goal through nodes (breadth first), as a list."""
    previous, frontier = {start: None}, [start]
    while frontier and goal not in previous:
        nxt = []
        for v in frontier:
            for w in sorted(graph.get(v, ())):
                if w in nodes and w not in previous:
                    previous[w] = v
                    nxt.append(w)
        frontier = nxt
    result, v = [], goal
    while v is not None:
        result.append(v)
        v = previous[v]
    return result[::-1]


def check_table():
    """The table itself: every folder named, and acyclic (else no order could satisfy it)."""
    errors = []
    for folder, allowed in ALLOWED.items():
        for other in allowed:
            if other not in ALLOWED:
                errors.append(f"ALLOWED[{folder!r}] names unknown folder {other!r}")
    for comp in components(ALLOWED, ALLOWED):
        if len(comp) > 1:
            errors.append("ALLOWED has a cycle: " + " <-> ".join(sorted(comp)))
    for rule in PURE_RULES:
        if rule.rsplit("/", 1)[0] not in PROTOCOLS:
            errors.append(f"PURE_RULES entry {rule!r} is not in a protocol folder")
    return errors


def published(root):
    """The header names contrib/d2dlearn/d2dlearn-sources.cmake lists, which both builds
    publish as ns3/<name>.h (an internal header such as d2d-gcn-modules.h is not listed)."""
    with open(os.path.join(root, MODULE, "d2dlearn-sources.cmake"), encoding="utf-8") as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    return {os.path.basename(h) for h in re.findall(r"[\w./-]+\.h\b", text)}


def check(root, known=None):
    """(violations, stale KNOWN keys, errors, summary) of the tree at root.
    A violation: (kind, file, header) -> (line, from folder, to folder)."""
    known = KNOWN if known is None else known
    errors = check_table()
    files = sources(root)
    public = published(root)
    owner, dup = header_map(root, files)
    errors += dup
    stems = {os.path.splitext(rel[len(MODULE) + 1:])[0] for rel in files
             if rel.startswith(MODULE + os.sep)}
    for rule in sorted(PURE_RULES - stems):
        errors.append(f"PURE_RULES entry {rule!r}: no such .h or .cc in {MODULE}")
    edges = {}       # (from folder, to folder) -> [(file, line, header)]
    violations = {}  # (kind, file, header) -> (line, from, to)
    for rel in files:
        src = folder_of(rel)
        if src not in ALLOWED:
            errors.append(f"{rel}: folder {src} is not in the table ALLOWED")
            continue
        stem = os.path.splitext(rel[len(MODULE) + 1:])[0] if rel.startswith(MODULE) else None
        for line, quoted, name in includes(os.path.join(root, rel)):
            if not quoted and TORCH.match(name) and (
                    src not in TORCH_ALLOWED
                    or (src in LEARNING and os.path.basename(rel) in public)):
                violations[("torch", rel, name)] = (line, src, "torch")
            base = name[len("ns3/"):] if name.startswith("ns3/") else name
            dst = owner.get(base) if "/" not in base else None
            if dst is None:
                continue  # ns-3's own header, or a program's local one (bench-timing.h)
            if stem in PURE_RULES and dst not in (MODEL, DATA):
                target = f"{dst}/{os.path.splitext(base)[0]}"
                if target not in PURE_RULES:
                    violations[("rules", rel, base)] = (line, src, dst)
            if dst == src:
                continue
            edges.setdefault((src, dst), []).append((rel, line, base))
            if dst not in ALLOWED[src]:
                violations[("upward", rel, base)] = (line, src, dst)
    graph = {}
    for src, dst in edges:
        graph.setdefault(src, set()).add(dst)
    cycles = [comp for comp in components(set(ALLOWED), graph) if len(comp) > 1]
    closes = {}  # upward edge (src, dst) -> the folder cycle it closes
    for comp in cycles:
        for src, dst in edges:
            if src in comp and dst in comp and dst not in ALLOWED[src]:
                closes[(src, dst)] = [src] + path(graph, comp, dst, src)
    stale = sorted(key for key in known if key not in violations)
    summary = {
        "files": len(files),
        "headers": len(owner),
        "folders": sorted({folder_of(rel) for rel in files}),
        "edges": edges,
        "cycles": cycles,
        "closes": closes,
    }
    return violations, stale, errors, summary


def describe(kind, rel, name, line, src, dst, closes=None):
    if kind == "torch":
        return (f"{rel}:{line}: folder {src} includes LibTorch ({name}): only learning/'s "
                f"sources and unpublished headers may")
    if kind == "rules":
        return (f"{rel}:{line}: pure rule of folder {src} includes {dst}/{name}, which is "
                f"not core/model, core/data or a pure rule")
    text = f"{rel}:{line}: folder {src} includes folder {dst} ({name}): not allowed by the table"
    if closes:
        text += "; closes the cycle " + " -> ".join(closes)
    return text


def run(root, out=sys.stdout, known_table=None):
    """Check the tree at root, print the report; True if it passes (known_table: KNOWN
    unless given)."""
    known_table = KNOWN if known_table is None else known_table
    violations, stale, errors, summary = check(root, known_table)
    new = sorted(key for key in violations if key not in known_table)
    known = sorted(key for key in violations if key in known_table)
    for e in errors:
        print(f"error: {e}", file=out)
    closes = summary["closes"]

    def line(key):
        _, src, dst = violations[key]
        return describe(*key, *violations[key], closes=closes.get((src, dst)))

    for key in new:
        print("VIOLATION " + line(key), file=out)
    for key in known:
        print("known     " + line(key) + f" [{known_table[key]}]", file=out)
    for kind, rel, name in stale:
        print(f"STALE     KNOWN entry ({kind}, {rel}, {name}) no longer occurs: remove it "
              "from KNOWN in tests/layering.py", file=out)
    edges = summary["edges"]
    print(f"layering: {summary['files']} files, {summary['headers']} module headers, "
          f"{len(summary['folders'])} folders, {len(edges)} folder edges "
          f"({sum(len(w) for w in edges.values())} includes)", file=out)
    for (src, dst) in sorted(edges):
        print(f"  {src} -> {dst}: {len(edges[(src, dst)])}", file=out)
    for comp in summary["cycles"]:
        print("  cycle between folders: " + ", ".join(sorted(comp)), file=out)
    tracker_read, tracker = tracker_references(root)
    for rel, lineno, number in tracker:
        print(f"VIOLATION {rel}:{lineno}: cites the project's tracker (issue {number}): "
              "say what it refers to", file=out)
    print(f"layering: {tracker_read} text files read for tracker references, "
          f"{len(tracker)} found", file=out)
    print(f"layering: {len(new)} new violations, {len(known)} known violations left "
          f"(of {len(known_table)} KNOWN), {len(stale)} stale KNOWN entries, "
          f"{len(errors)} errors", file=out)
    ok = not new and not stale and not errors and not tracker
    print("layering: " + ("PASS" if ok else "FAIL"), file=out)
    return ok


# ----------------------------------------------------------------------------------------
# --self-test


def copy_tree(root, dest):
    for rel in sources(root) + [os.path.join(MODULE, "d2dlearn-sources.cmake")]:
        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(os.path.join(root, rel), os.path.join(dest, rel))


def edit(path, fn):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = fn(text)
    assert new != text, f"self-test: the edit of {path} changed nothing"
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def insert_after_first_include(line):
    return lambda text: re.sub(r"(#include [^\n]*\n)", r"\1" + line + "\n", text, count=1)


TRACKER_SAMPLE = 12  # the issue number the self-test cites


def self_test(root):
    import io

    model_cc = os.path.join(MODULE, "core", "model", "d2d-channel.cc")
    data_cc = os.path.join(MODULE, "core", "data", "d2d-dataset.cc")
    rules_cc = os.path.join(MODULE, "learning", "cmfl", "d2d-committee-rules.cc")
    fl_cc = os.path.join(MODULE, "learning", "fl", "d2d-fed-avg.cc")
    learner_cc = os.path.join(MODULE, "learning", "learner", "d2d-learner.cc")
    learner_h = os.path.join(MODULE, "learning", "learner", "d2d-learner.h")
    bayes_cc = os.path.join(MODULE, "core", "bayes", "d2d-belief-consensus.cc")
    helper_cc = os.path.join(MODULE, "learning", "helper", "d2d-learning-helper.cc")
    trace_cc = os.path.join(MODULE, "core", "helper", "d2d-trace-helper.cc")
    # A KNOWN entry for a violation that does not occur (as after its fix).
    fixed = {("upward", model_cc, "d2d-learner.h"): "fixed since"}
    cases = [
        # (name, edits, expected to pass, text the report must contain[, KNOWN table])
        ("clean copy", [], True, "layering: PASS"),
        ("commented-out includes are ignored",
         [(model_cc, insert_after_first_include(
             '// #include "ns3/d2d-learning-helper.h"\n'
             '/* #include "ns3/d2d-fl-protocol.h"\n   #include <torch/torch.h> */\n'
             'static const char* kNotAnInclude [[maybe_unused]] = "/* not a comment";'))],
         True, "layering: PASS"),
        ("upward include core/model -> learning/helper",
         [(model_cc, insert_after_first_include('#include "ns3/d2d-learning-helper.h"'))],
         False, f"{model_cc}:6: folder core/model includes folder learning/helper "
                "(d2d-learning-helper.h)"),
        ("upward include, same-folder form",
         [(data_cc, insert_after_first_include('#include "d2d-fed-avg.h"'))],
         False, "folder core/data includes folder learning/fl (d2d-fed-avg.h)"),
        ("the core library includes the learning library",
         [(bayes_cc, insert_after_first_include('#include "ns3/d2d-learner.h"'))],
         False, "folder core/bayes includes folder learning/learner (d2d-learner.h): not "
                "allowed by the table; closes the cycle core/bayes -> learning/learner -> "
                "core/bayes"),
        ("the learning helpers do not include the scenario layer",
         [(helper_cc, insert_after_first_include('#include "ns3/d2d-network-options.h"'))],
         False, "folder learning/helper includes folder scenario (d2d-network-options.h): not "
                "allowed by the table; closes the cycle learning/helper -> scenario -> "
                "learning/helper"),
        ("the core helpers do not include the scenario layer",
         [(trace_cc, insert_after_first_include('#include "ns3/d2d-scenario-flags.h"'))],
         False, "folder core/helper includes folder scenario (d2d-scenario-flags.h)"),
        ("protocols do not include each other",
         [(fl_cc, insert_after_first_include('#include "ns3/d2d-cmfl.h"'))],
         False, "folder learning/fl includes folder learning/cmfl (d2d-cmfl.h): not allowed "
                "by the table; closes the cycle learning/fl -> learning/cmfl -> learning/fl"),
        ("LibTorch outside learning/",
         [(model_cc, insert_after_first_include("#include <torch/torch.h>"))],
         False, "folder core/model includes LibTorch (torch/torch.h)"),
        ("LibTorch in a source of learning/",
         [(rules_cc, insert_after_first_include("#include <torch/torch.h>"))],
         True, "layering: PASS"),
        ("LibTorch in a published header of learning/",
         [(learner_h, insert_after_first_include("#include <torch/torch.h>"))],
         False, "folder learning/learner includes LibTorch (torch/torch.h): only "
                "learning/'s sources and unpublished headers may"),
        ("a pure rule includes its protocol",
         [(rules_cc, insert_after_first_include('#include "d2d-cmfl.h"'))],
         False, f"{rules_cc}:6: pure rule of folder learning/cmfl includes "
                "learning/cmfl/d2d-cmfl.h, which is not core/model, core/data or a pure rule"),
        ("a KNOWN violation fixed but still listed", [], False,
         f"STALE     KNOWN entry (upward, {model_cc}, d2d-learner.h)", fixed),
        ("a KNOWN violation still present passes",
         [(model_cc, insert_after_first_include('#include "ns3/d2d-learner.h"'))],
         True, "known     " + model_cc, fixed),
        # The number is spliced in so that this file's own text cites no tracker issue.
        ("a comment cites the tracker by number",
         [(model_cc, insert_after_first_include(f"// see issue {TRACKER_SAMPLE}"))],
         False, f"{model_cc}:6: cites the project's tracker (issue {TRACKER_SAMPLE}): "
                "say what it refers to"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="layering-") as tmp:
        copy_tree(root, tmp)
        for name, edits, expect_pass, expect_text, *known in cases:
            saved = {}
            for rel, fn in edits:
                with open(os.path.join(tmp, rel), encoding="utf-8") as f:
                    saved[rel] = f.read()
                edit(os.path.join(tmp, rel), fn)
            out = io.StringIO()
            ok = run(tmp, out, known[0] if known else None)
            report = out.getvalue()
            for rel, text in saved.items():
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            good = ok == expect_pass and expect_text in report
            print(f"self-test: {'ok  ' if good else 'FAIL'} {name}: checker "
                  f"{'passed' if ok else 'failed'} (expected {'pass' if expect_pass else 'fail'})")
            if not good:
                failures += 1
                print(f"  expected the report to contain: {expect_text}")
                print("  " + report.replace("\n", "\n  "))
    # The comment stripper on its own.
    sample = ('a // b\n/* c\nd */ e "f // g" \'/\' R"x(/* h)x" i\n')
    want = 'a \n\n e "f // g" \'/\' R"x(/* h)x" i\n'
    if strip_comments(sample) != want:
        failures += 1
        print(f"self-test: FAIL strip_comments: {strip_comments(sample)!r} != {want!r}")
    else:
        print("self-test: ok   strip_comments keeps strings, lines and raw strings")
    print(f"self-test: {'PASS' if not failures else f'FAIL ({failures} cases)'}")
    return failures == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="repository to check (default: this one)")
    parser.add_argument("--self-test", action="store_true",
                        help="test the checker on modified copies of the tree")
    args = parser.parse_args()
    ok = self_test(args.root) if args.self_test else run(args.root)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
