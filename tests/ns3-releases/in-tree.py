#!/usr/bin/python3
"""d2dlearn inside one ns-3 release's source tree, the whole way a user goes, recorded.

    in-tree.py --release 3.48 [--sources DIR] [--work DIR] [--standalone BUILD] [--jobs N]
               [--profile default] [--record DIR]

1. The release (ns-3.XX.tar.gz or ns-3.XX/ in DIR; default D2DLEARN_NS3_SOURCES, else
   ../shared/ns-3) is unpacked into the work folder (reused), this repository linked as its
   contrib/d2dlearn, then `./ns3 configure -d PROFILE --enable-examples --enable-tests
   --enable-modules=d2dlearn` and `cmake --build cmake-cache -j N` (the first build of a tree compiles ns-3's
   modules too: tens of minutes on 2 cores).
2. `./test.py --no-build -s SUITE` for every d2dlearn TestSuite (the d2d-* suites of the test
   runner).
3. Each scenario program and example once through `./ns3 run --no-build "PROGRAM ARGS"`, the
   scenario programs with the README's quick settings, each writing into its own folder, and
   analysis/audit.py on every scenario's traces; also the runs of choices only some releases
   have (RELEASE_ONLY: --energySource=generic from 3.40), audited but not compared.
4. The same scenario commands with the standalone build's programs (BUILD/bin, default
   build/ of this repository; skipped if absent), and every trace file compared byte for byte
   (run.json: its summary and parameters, without the wall times, versions and paths; a CSV
   that differs: column by column, with the largest relative difference of each); and
   the Wi-Fi base point of the channel-vs-wifi campaigns, where ns-3's 802.11 models may
   differ between releases: compared the same way, with its loss, latency and energy
   (analysis/backend_tables.py's measures) from each build.
5. The result (release, profile, C++ standard, what passed, times, the comparison, machine,
   date, commit) into RECORD/ns-3.XX-in-tree.json (default doc/data/ns3-releases), which
   compat-table.py turns into the README's compatibility table.

Exit 0 if everything passed and the traces are identical or differ only where a known cause,
checked in the release's tree, explains it (known_cause: a column of a CSV trace, by how much),
1 otherwise (the record is written either way).
"""

import argparse
import csv
import json
import math
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ns3_tree  # noqa: E402

REPO = ns3_tree.REPO
# The README's quick example per scenario (its runnable block), --quiet.
SCENARIOS = {
    "fedavg": "--rounds=3 --dataFraction=0.05",
    "cmfl": "--rounds=3 --dataFraction=0.05 --attack=back-gradient",
    "consensus": "--rounds=3 --warmupRounds=1 --dataFraction=0.05",
    "bayes-consensus": "--steps=20",
    "graph-discovery": "--iterations=50 --rounds=2 --dataFraction=0.05",
    "d2d-exchange": "--nDevices=50 --reliable=true",
}
# The examples, as tests/examples runs them in the standalone build (no arguments but these).
EXAMPLES = {
    "send-message": "",
    "energy-trace": "",
    "wifi-backend": "",
    "range-graph": "",
    "gossip-averaging": "--nDevices=6 --rounds=2 --dataFraction=0.02",
}
# Runs of choices that exist only in some releases (audited, not compared with the
# standalone build, whose ns-3.37 lacks them): name -> (program, flags, first release).
RELEASE_ONLY = {
    "d2d-exchange-generic-battery": ("d2d-exchange",
                                     "--nDevices=50 --reliable=true --energySource=generic "
                                     "--initialEnergyJ=2000", 340),
}
# The Wi-Fi base point of the channel-vs-wifi campaigns
# (analysis/campaigns/channel-vs-wifi-exchange-wifi.toml: 10 devices in a 40 m square, 20 kB
# messages, 1400-byte packets), both seeds: ns-3's 802.11 models change between releases, so
# these runs may differ; the measures of analysis/backend_tables.py say by how much.
WIFI_BASE = "--backend=wifi --mtuBytes=1400 --areaSideM=40 --nDevices=10 --messageBytes=20000"
WIFI_SEEDS = (1, 2)
WIFI_MEASURES = ("fragment_loss", "message_loss", "unfinished", "latency", "energy", "idle")
# run.json keys that differ between any two runs or builds by nature, and trace_files (each
# trace's rows and CRC-32: the traces themselves are compared, column by column).
RUN_JSON_VOLATILE = {"wall_time_s", "commandLine", "outDir", "trace_files"}
# The largest relative difference of a trace value that rounding in the last bits of a
# double explains: a few units in the last place (2.2e-16 each) carried through log10 and pow.
RSS_ROUNDING = 1e-12


def timed(cmd, cwd, log, env=None):
    t0 = time.monotonic()
    rc = ns3_tree.run(cmd, cwd, log, env)
    return rc, round(time.monotonic() - t0, 1)


def normalise_run_json(path):
    """run.json without what differs by nature (wall times, versions, paths)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in RUN_JSON_VOLATILE}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    data = json.loads(Path(path).read_text())
    return strip(data)


def compare_csv(a, b):
    """Two CSV traces of the same shape, column by column: {column: {"rows": rows that differ,
    "max_rel": their largest relative difference (None if a value is not a number)}}, and the
    number of rows; None if the shapes (header, rows, fields) differ."""
    with open(a, newline="") as fa, open(b, newline="") as fb:
        ra, rb = list(csv.reader(fa)), list(csv.reader(fb))
    if not ra or len(ra) != len(rb) or ra[0] != rb[0] or any(
            len(x) != len(y) for x, y in zip(ra, rb)):
        return None
    header, columns = ra[0], {}
    for x, y in zip(ra[1:], rb[1:]):
        for name, u, v in zip(header, x, y):
            if u == v:
                continue
            c = columns.setdefault(name, {"rows": 0, "max_rel": 0.0})
            c["rows"] += 1
            try:
                fu, fv = float(u), float(v)
            except ValueError:
                c["max_rel"] = None
                continue
            if not (math.isfinite(fu) and math.isfinite(fv)):
                c["max_rel"] = None  # a NaN or an infinity against another text
            elif c["max_rel"] is not None and fu != fv:  # "0" and "0.0" are equal
                c["max_rel"] = max(c["max_rel"], abs(fu - fv) / max(abs(fu), abs(fv)))
    return columns, len(ra) - 1


def known_cause(tree, file, column, info):
    """The cause of a CSV column's difference, if it is one this script knows and checks in
    the release's tree; None otherwise (an unexplained difference)."""
    vector_cc = Path(tree) / "src" / "core" / "model" / "vector.cc"
    hypot = vector_cc.is_file() and "std::hypot" in vector_cc.read_text(errors="replace")
    # Eq. (18)'s drop probability from the RSS of the log-distance model, whose distance is
    # ns-3's Vector3D::GetLength: std::hypot in this release (sqrt(x*x + y*y + z*z) in 3.37 to
    # 3.44), which rounds differently in the last bits. Only such rounding is accepted.
    if (Path(file).name == "messages.csv" and column == "p_drop" and hypot
            and info["max_rel"] is not None and info["max_rel"] <= RSS_ROUNDING):
        return ("ns-3's Vector3D::GetLength is std::hypot in this release (3.37's is "
                "sqrt(x*x + y*y + z*z)): the distances of the log-distance RSS, hence p_drop, "
                "differ in the last bits")
    return None


def compare_dirs(a, b, tree=None):
    """Differences between two runs' folders: [(file, what, cause or None)]."""
    diffs = []
    files_a = {p.relative_to(a) for p in Path(a).rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in Path(b).rglob("*") if p.is_file()}
    for f in sorted(files_a ^ files_b):
        diffs.append((str(f), "only in " + ("in-tree" if f in files_a else "standalone"), None))
    for f in sorted(files_a & files_b):
        if f.suffix in (".png", ".pdf", ".svg") or "plots" in f.parts:
            continue
        if f.name == "run.json":
            ra, rb = normalise_run_json(Path(a) / f), normalise_run_json(Path(b) / f)
            for part in sorted(set(ra) | set(rb)):
                pa, pb = ra.get(part), rb.get(part)
                if pa == pb:
                    continue
                if isinstance(pa, dict) and isinstance(pb, dict):
                    keys = sorted(k for k in set(pa) | set(pb) if pa.get(k) != pb.get(k))
                    diffs.append((f"{f}:{part}", "differs in " + ", ".join(keys[:10])
                                  + (f" (+{len(keys) - 10} more)" if len(keys) > 10 else ""),
                                  None))
                else:
                    diffs.append((f"{f}:{part}", f"{pa!r} vs {pb!r}", None))
            continue
        ta, tb = (Path(a) / f).read_bytes(), (Path(b) / f).read_bytes()
        if ta == tb:
            continue
        by_column = compare_csv(Path(a) / f, Path(b) / f) if f.suffix == ".csv" else None
        if by_column:
            columns, rows = by_column
            for name, info in columns.items():
                size = ("not numbers" if info["max_rel"] is None
                        else f"at most {info['max_rel']:.1e} relative")
                only = "; every other column is identical" if len(columns) == 1 else ""
                diffs.append((f"{f}:{name}", f"{info['rows']} of {rows} rows differ ({size}){only}",
                              known_cause(tree, f, name, info) if tree else None))
            continue
        la, lb = ta.splitlines(), tb.splitlines()
        line = next((i + 1 for i, (x, y) in enumerate(zip(la, lb)) if x != y),
                    min(len(la), len(lb)) + 1)
        diffs.append((str(f), f"first difference at line {line} ({len(la)} vs {len(lb)} "
                              f"lines)", None))
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ns3_tree.add_release_arguments(ap)
    ap.add_argument("--standalone", type=Path, default=REPO / "build")
    args = ap.parse_args()

    tree, work = ns3_tree.release_tree(args, "in-tree")
    if tree is None:
        return 2
    ns3_tree.link_module(tree)
    log = work / f"in-tree-{args.release}.log"
    log.write_text("")
    out = work / f"runs-{args.release}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    py = sys.executable
    record = {"release": args.release, "mode": "in-tree", "profile": args.profile,
              **ns3_tree.stamp(), "log": str(log)}
    ok = True

    rc, secs = timed([py, "ns3", "configure", "-d", args.profile, "--enable-examples",
                      "--enable-tests", "--enable-modules=d2dlearn",
                      "--filter-module-examples-and-tests=d2dlearn"], tree, log)
    record["configure"] = {"ok": rc == 0, "seconds": secs}
    record["cxx_standard"] = ns3_tree.tree_cxx_standard(tree)
    if rc != 0:
        print(ns3_tree.log_tail(log))
        record["ok"] = False
        return finish(record, args.record)
    # ns-3's own `./ns3 build -j N` runs at most one job fewer than the cores (one job on
    # 2), as prefix.py found: its CMake build folder is built directly instead.
    rc, secs = timed(["cmake", "--build", str(Path(tree) / "cmake-cache"), "-j", str(args.jobs)],
                     tree, log)
    # The build steps ninja ran ("[k/N]"): N is the whole tree on a first build (about 750 to
    # 800), a few after an edit; the seconds mean nothing without it.
    steps = [int(n) for n in re.findall(r"^\[\d+/(\d+)\]", log.read_text(errors="replace"),
                                        re.M)]
    record["build"] = {"ok": rc == 0, "seconds": secs, "steps": max(steps, default=0)}
    print(f"in-tree {args.release}: configure {record['configure']['seconds']} s, build {secs} s,"
          f" {'ok' if rc == 0 else 'FAILED'}", flush=True)
    if rc != 0:
        print(ns3_tree.log_tail(log))
        record["ok"] = False
        return finish(record, args.record)

    # 2. The TestSuites.
    listing = subprocess.run([py, "test.py", "--no-build", "--list"], cwd=tree,
                             capture_output=True, text=True).stdout
    # "unit  d2d-channel" lines (the type, then the suite); "example  d2d-exchange ..." lines
    # are the examples-to-run.py entries, not suites.
    suites = sorted(set(re.findall(r"^(?!example\b)\w+\s+(d2d-[a-z0-9-]+)\s*$", listing,
                                   re.M)))
    record["test_py"] = []
    for suite in suites:
        rc, secs = timed([py, "test.py", "--no-build", "--nocolor", "-s", suite], tree, log)
        # test.py colours its PASS (an escape between PASS and ": TestSuite"): --nocolor (every
        # release has it), and any escape left is removed before the match.
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", ns3_tree.log_tail(log, 15))
        passed = rc == 0 and f"PASS: TestSuite {suite}" in text
        record["test_py"].append({"suite": suite, "ok": passed, "seconds": secs})
        ok &= passed
        print(f"  test.py -s {suite}: {'PASS' if passed else 'FAIL'} ({secs} s)", flush=True)
    if not suites:
        ok = False
        record["test_py_error"] = "test.py --list shows no d2d-* suite"

    # 3. The programs through ./ns3 run, and the audit of the scenarios' traces.
    record["programs"] = []
    runs = [(name, name, flags, True) for name, flags in SCENARIOS.items()]
    runs += [(name, name, flags, False) for name, flags in EXAMPLES.items()]
    major, minor = (int(x) for x in args.release.split(".")[:2])
    runs += [(name, program, flags, True) for name, (program, flags, first)
             in RELEASE_ONLY.items() if 100 * major + minor >= first]
    for name, program, flags, scenario in runs:
        cmdline = f"{program} {flags}" + (f" --quiet=true --outDir={out / 'in-tree' / name}"
                                          if scenario else "")
        rc, secs = timed([py, "ns3", "run", "--no-build", cmdline.strip()], tree, log)
        entry = {"program": name, "ok": rc == 0, "seconds": secs}
        if program != name:
            entry["command"] = cmdline.split(" --outDir=")[0]
        if scenario and rc == 0:
            arc = subprocess.run(["/usr/bin/python3", str(REPO / "analysis" / "audit.py"),
                                  str(out / "in-tree" / name)], capture_output=True, text=True)
            entry["audit"] = (arc.stdout.strip().splitlines() or [""])[-1]
            entry["ok"] = arc.returncode == 0
        record["programs"].append(entry)
        ok &= entry["ok"]
        print(f"  ./ns3 run {name}: {'ok' if entry['ok'] else 'FAILED'} ({secs} s)"
              + (f"; {entry['audit']}" if "audit" in entry else ""), flush=True)

    # 4. Standalone, the same commands, and the traces compared.
    bindir = args.standalone / "bin"
    comparison = []
    if not (bindir / "fedavg").is_file():
        record["comparison"] = {"skipped": f"no standalone build in {args.standalone}"}
    else:
        for name, flags in SCENARIOS.items():
            dest = out / "standalone" / name
            rc, _ = timed([str(bindir / name), *shlex.split(flags), "--quiet=true",
                           f"--outDir={dest}"], REPO, log)
            if rc != 0:
                comparison.append({"scenario": name, "identical": False, "explained": False,
                                   "differences": [{"file": "(run)",
                                                    "what": f"standalone exit {rc}",
                                                    "cause": None}]})
                ok = False
                continue
            diffs = compare_dirs(out / "in-tree" / name, dest, tree)
            comparison.append({"scenario": name, "identical": not diffs,
                               "explained": all(c for _, _, c in diffs),
                               "differences": [{"file": f, "what": w, "cause": c}
                                               for f, w, c in diffs]})
            print(f"  traces {name}: " + ("identical" if not diffs else "; ".join(
                f"{f}: {w}" + (" [explained]" if c else " [UNEXPLAINED]")
                for f, w, c in diffs[:4])), flush=True)
        record["wifi_base_point"] = compare_wifi(tree, bindir, out, log)
        ok &= all(r["ok"] for r in record["wifi_base_point"]["runs"])
        record["comparison"] = {"against": f"standalone build {args.standalone} (ns-3 "
                                           f"{standalone_ns3(args.standalone)})",
                                "scenarios": comparison}
        # Identical, or every difference listed with a cause checked in the tree.
        ok &= all(c["identical"] or c.get("explained") for c in comparison)
    record["ok"] = ok
    return finish(record, args.record)


def compare_wifi(tree, bindir, out, log):
    """The Wi-Fi base point in both builds: identical traces, or the measures of each."""
    sys.path.insert(0, str(REPO / "analysis"))
    import backend_tables  # noqa: E402
    result = {"flags": WIFI_BASE, "seeds": list(WIFI_SEEDS), "runs": []}
    for seed in WIFI_SEEDS:
        dirs = {"in-tree": out / "in-tree" / f"wifi-base-{seed}",
                "standalone": out / "standalone" / f"wifi-base-{seed}"}
        flags = f"{WIFI_BASE} --seed={seed} --quiet=true"
        rc_a, _ = timed([sys.executable, "ns3", "run", "--no-build",
                         f"d2d-exchange {flags} --outDir={dirs['in-tree']}"], tree, log)
        rc_b, _ = timed([str(bindir / "d2d-exchange"), *shlex.split(flags),
                         f"--outDir={dirs['standalone']}"], REPO, log)
        entry = {"seed": seed, "ok": rc_a == 0 and rc_b == 0}
        if entry["ok"]:
            diffs = compare_dirs(dirs["in-tree"], dirs["standalone"], tree)
            entry["identical"] = not diffs
            entry["differences"] = [{"file": f, "what": w, "cause": c} for f, w, c in diffs]
            for build, folder in dirs.items():
                m = backend_tables.load_run(str(folder))
                entry[build] = {k: m[k] for k in WIFI_MEASURES}
        result["runs"].append(entry)
        print(f"  wifi base point, seed {seed}: "
              + ("identical" if entry.get("identical") else
                 json.dumps({b: entry.get(b) for b in dirs}) if entry["ok"] else "FAILED"),
              flush=True)
    return result


def standalone_ns3(build):
    cache = Path(build) / "CMakeCache.txt"
    if not cache.is_file():
        return "?"
    m = re.search(r"^ns3_DIR:PATH=(.*)$", cache.read_text(), re.M)
    version = "?"
    if m:
        vf = Path(m.group(1)) / "ns3ConfigVersion.cmake"
        if vf.is_file():
            v = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', vf.read_text())
            version = v.group(1) if v else "?"
    return version


def finish(record, folder):
    path = ns3_tree.write_record(folder, record)
    print(f"in-tree {record['release']}: {'PASSED' if record['ok'] else 'FAILED'}; "
          f"recorded in {path}")
    return 0 if record["ok"] else 1

if __name__ == "__main__":
    sys.exit(main())
