#!/usr/bin/python3
"""The ns-3 compatibility table of the README and the manual, from the recorded results.

    compat-table.py [--records DIR] [--write] [--check]

DIR (default doc/data/ns3-releases) holds one JSON file per tested combination, written by
in-tree.py (the whole in-tree path on a release), prefix.py (standalone against the release
installed into a prefix) and compile-check.py --record (every source compiled against a
release). The table is printed; --write replaces it between the markers
<!-- ns3-compat:begin --> and <!-- ns3-compat:end --> in README.md and doc/howto/install.md,
and the Wi-Fi base point's measures per build between <!-- ns3-wifi:begin --> and
<!-- ns3-wifi:end --> in doc/explanation/validation.md; --check exits 1 if a page's table
differs from the records (a CTest test runs it).
"""

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", REPO / "doc" / "howto" / "install.md"]
BEGIN, END = "<!-- ns3-compat:begin -->", "<!-- ns3-compat:end -->"
VALIDATION = REPO / "doc" / "explanation" / "validation.md"
WIFI_BEGIN, WIFI_END = "<!-- ns3-wifi:begin -->", "<!-- ns3-wifi:end -->"
# What CI builds and tests on every change, by definition of the project: the standalone build
# (the README's two commands) and the release tests (tests/CMakeLists.txt, label release).
CONTINUOUS = [("3.37", "standalone, Debian 12 package", "17",
               "CI on every change: `bash .ci/run` (the README's test command: build, every test)"),
              ("3.48", "standalone, ns-3 installed into a prefix outside the clone (built once "
               "per machine)", "23",
               "CI on every change: `.ci/run`'s tests labelled `release`: every ns-3 TestSuite, "
               "both GoogleTest programs, the command-line tests and the examples of that build")]


def how(r):
    if r["mode"] == "in-tree":
        suites = r.get("test_py", [])
        progs = r.get("programs", [])
        comp = r.get("comparison", {})
        same = comp.get("scenarios", [])
        build = r.get("build", {})
        steps = (f", {build['steps']} build steps" if "steps" in build else "")
        parts = [f"the tree built ({build.get('seconds', '?')} s{steps})",
                 f"`./test.py`: {sum(s['ok'] for s in suites)} of {len(suites)} d2dlearn suites",
                 f"`./ns3 run`: {sum(p['ok'] for p in progs)} of {len(progs)} programs"]
        if same:
            n_same = sum(c["identical"] for c in same)
            text = (f"traces identical to the standalone build's: {n_same} of {len(same)} "
                    f"scenarios")
            explained = [c for c in same if not c["identical"] and c.get("explained")]
            if explained:
                worst = max(float(re.search(r"at most ([0-9.e+-]+) relative", d["what"]).group(1))
                            for c in explained for d in c["differences"])
                cols = sorted({d["file"] for c in explained for d in c["differences"]})
                text += (f"; {len(explained)} differ only in {', '.join(cols)}, by at most "
                         f"{worst:.0e} relative, for a cause checked in the tree (validation "
                         f"page)")
            parts.append(text)
        wifi = r.get("wifi_base_point", {}).get("runs", [])
        if wifi:
            n_same = sum(bool(w.get("identical")) for w in wifi)
            parts.append(f"Wi-Fi base point: {n_same} of {len(wifi)} seeds identical"
                         + ("" if n_same == len(wifi) else " (the measures of both builds are "
                            f"in ns-{r['release']}-in-tree.json)"))
        return "; ".join(parts)
    if r["mode"] == "prefix":
        ct = r.get("ctest", {})
        return (f"ns-3's `./ns3 install` into a prefix, d2dlearn built against it with "
                f"`-DCMAKE_PREFIX_PATH`; "
                f"CTest, the whole suite but the in-tree compile tests: {ct.get('passed', 0)} "
                f"passed, {len(ct.get('failed', []))} failed, {ct.get('skipped', 0)} skipped")
    return (f"every source compiled (`-fsyntax-only`, ns-3's debug flags, `-Werror`): "
            f"{r['sources'] - len(r['failed'])} of {r['sources']}")


def table(records):
    rows = ["| d2dlearn commit | ns-3 | build mode | C++ | tested how | result | date |",
            "|---|---|---|---|---|---|---|"]
    for v, mode, std, tested in CONTINUOUS:
        rows.append(f"| every commit | {v} | {mode} | {std} | {tested} | CI | continuous |")
    key = lambda r: (int(r["release"].split(".")[1]), r["mode"])
    for r in sorted(records, key=key):
        mode = {"in-tree": f"in an ns-3 source tree ({r.get('profile', '?')} profile)",
                "compile-check": "in an ns-3 source tree, compile only",
                "prefix": f"standalone, ns-3 installed into a prefix ({r.get('profile', '?')} "
                          f"profile)"}[r["mode"]]
        rows.append(f"| {r['commit']} | {r['release']} | {mode} | {r.get('cxx_standard', '?')} | "
                    f"{how(r)} | {'passed' if r['ok'] else 'FAILED'} | {r['date']} |")
    return "\n".join(rows) + "\n"


# The Wi-Fi base point's measures (in-tree.py's WIFI_MEASURES), with their units
# (analysis/backend_tables.py).
WIFI_ROWS = [("fragment_loss", "fragment loss", "share"), ("message_loss", "message loss", "share"),
             ("unfinished", "unfinished", "share of messages"),
             ("latency", "latency", "s"), ("energy", "radio energy", "J per device"),
             ("idle", "idle energy", "J per device")]


def wifi_table(records):
    """validation.md's table: the Wi-Fi base point in each in-tree release and in the
    standalone build, per seed, and the difference."""
    rows = ["| ns-3 (in-tree) | seed | measure | unit | in-tree | standalone (3.37) | "
            "difference |", "|---|---|---|---|---|---|---|"]
    for r in sorted(records, key=lambda r: int(r["release"].split(".")[1])):
        for run in r.get("wifi_base_point", {}).get("runs", []):
            if not run.get("ok"):
                rows.append(f"| {r['release']} | {run['seed']} | (a run failed) | | | | |")
                continue
            for key, name, unit in WIFI_ROWS:
                a, b = run["in-tree"][key], run["standalone"][key]
                rel = "" if a == b else (f" ({(a - b) / b:+.2%})" if b else "")
                rows.append(f"| {r['release']} | {run['seed']} | {name} | {unit} | {a:.6g} | "
                            f"{b:.6g} | {a - b:+.3g}{rel} |")
    return "\n".join(rows) + "\n"


def replace_between(content, begin, end, text):
    """content with text between the markers (None if they are missing)."""
    if begin not in content or end not in content:
        return None
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{text}{end}{tail}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=Path, default=REPO / "doc" / "data" / "ns3-releases")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    records = [json.loads(p.read_text()) for p in sorted(args.records.glob("ns-*.json"))]
    text = table(records)
    stale = []
    jobs = [(page, BEGIN, END, text) for page in PAGES]
    jobs.append((VALIDATION, WIFI_BEGIN, WIFI_END,
                 wifi_table([r for r in records if r["mode"] == "in-tree"])))
    for page, begin, end, body in jobs:
        content = page.read_text()
        new = replace_between(content, begin, end, body)
        if new is None:
            stale.append(f"{page.relative_to(REPO)}: no {begin} ... {end} markers")
            continue
        if new != content:
            if args.write:
                page.write_text(new)
            else:
                stale.append(f"{page.relative_to(REPO)}: the table differs from {args.records}")
    if not args.check:
        print(text, end="")
    if args.check and stale:
        print("compat-table: " + "; ".join(stale) + " (run tests/ns3-releases/compat-table.py "
              "--write)")
        return 1
    if args.check:
        print(f"compat-table: README.md, doc/howto/install.md and validation.md's Wi-Fi table "
              f"match {len(records)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
