#!/usr/bin/python3
"""--traces=standard against --traces=full: the same run, traces in proportion.

graph-discovery is the run whose traces were out of proportion (137 MB on its defaults, nearly
all of it the RL's control messages and one energy.csv row per period of draw). With one seed
the simulation is the same at both levels, so:

- graph-discovery on its defaults (the standard level) writes at most 10 MB in all;
- a small run at both levels: run.json's "traces" names the level; at standard messages.csv
  has no row of the kinds run.json's "untraced_message_rows" lists, and those counts equal
  the full run's rows of each kind; every other messages.csv row is the same at both levels;
- energy.csv has the same columns at both levels (sim_time_s, node, component, energy_j,
  remaining_j, start_s, duration_s, power_w, periods); at standard it sums to the same
  energy per device and component as at full (relative 1e-9) and to the same duration_s (to
  the nanosecond), its start_s is the full run's first start of that device and component
  in each of its rows' periods, its periods add up to the full run's rows, and its rows are
  in time order;
- run.json's summary.results are the same at both levels, and both folders pass
  analysis/audit.py (every summary number recomputed from the files written);
- --traces=verbose is refused with one line naming the flag and the accepted values.

Usage: trace-levels.py PATH/TO/graph-discovery
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
AUDIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                     "audit.py")
SMALL = ["--nDevices=8", "--dataFraction=0.02", "--iterations=60", "--bufferSize=16",
         "--rounds=1", "--model=logistic", "--threads=0", "--seed=4", "--quiet"]
failures = []


def check(ok, what):
    print(("  ok: " if ok else "  FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(out, *flags):
    res = subprocess.run([BIN, *flags, "--outDir=" + out], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("graph-discovery %s failed: %s" % (" ".join(flags), res.stderr.strip()))
    with open(os.path.join(out, "run.json")) as fh:
        return json.load(fh)


def rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def folder_bytes(out):
    return sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))


with tempfile.TemporaryDirectory() as tmp:
    default = os.path.join(tmp, "default")
    run(default, "--quiet")
    size = folder_bytes(default)
    check(size <= 10 * 1000 * 1000, "defaults, standard level: %d bytes (<= 10 MB)" % size)

    std, full = os.path.join(tmp, "standard"), os.path.join(tmp, "full")
    a = run(std, *SMALL)
    b = run(full, *SMALL, "--traces=full")
    check(a["traces"] == "standard" and b["traces"] == "full",
          "run.json traces: %s, %s" % (a["traces"], b["traces"]))
    untraced = a.get("untraced_message_rows", {})
    check(set(untraced) == {"gd_request", "gd_offer", "gd_demand", "gd_allocation",
                            "gd_reward", "gd_global"} and "untraced_message_rows" not in b,
          "the RL's control kinds are untraced at standard only: %s" % sorted(untraced))
    ms, mf = rows(os.path.join(std, "messages.csv")), rows(os.path.join(full, "messages.csv"))
    per_kind = {}
    for r in mf:
        per_kind[r["kind"]] = per_kind.get(r["kind"], 0) + 1
    check(all(untraced[k] == per_kind.get(k, 0) for k in untraced) and untraced,
          "untraced counts equal the full run's rows: %s" % untraced)
    kept = [r for r in mf if r["kind"] not in untraced]
    check(ms == kept and not any(r["kind"] in untraced for r in ms),
          "messages.csv at standard = the full run's rows of the other kinds (%d rows)"
          % len(ms))

    es, ef = rows(os.path.join(std, "energy.csv")), rows(os.path.join(full, "energy.csv"))
    header = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
              "duration_s", "power_w", "periods"]
    check(es and ef and list(es[0]) == header and list(ef[0]) == header,
          "energy.csv's columns at both levels: %s" % ",".join(header))
    ns = {}  # (node, component) -> [summed duration in ns at standard, at full]
    for i, level in enumerate((es, ef)):
        for r in level:
            whole, _, frac = r["duration_s"].partition(".")
            d = ns.setdefault((r["node"], r["component"]), [0, 0])
            d[i] += int(whole) * 1000000000 + int((frac + "000000000")[:9])
    check(all(s == f for s, f in ns.values()),
          "duration_s per device and component equal at both levels (to the ns): %d of %d"
          % (sum(s == f for s, f in ns.values()), len(ns)))
    starts = {}  # (node, component) -> the full run's starts, in order
    for r in ef:
        starts.setdefault((r["node"], r["component"]), []).append(r["start_s"])
    taken = {}
    first = True
    for r in es:
        key = (r["node"], r["component"])
        k, n = taken.get(key, 0), int(r["periods"])
        first = first and starts.get(key, [])[k:k + n][:1] == [r["start_s"]]
        taken[key] = k + n
    check(first, "start_s at standard = the full run's start of its first period")
    sums_s, sums_f = {}, {}
    for r in es:
        key = (r["node"], r["component"])
        sums_s[key] = sums_s.get(key, 0.0) + float(r["energy_j"])
    for r in ef:
        key = (r["node"], r["component"])
        sums_f[key] = sums_f.get(key, 0.0) + float(r["energy_j"])
    worst = max(abs(sums_s.get(k, 0.0) - v) / max(abs(v), 1e-300) for k, v in sums_f.items())
    check(set(sums_s) == set(sums_f) and worst <= 1e-9,
          "energy per device and component equal at both levels (worst relative %.2g)" % worst)
    periods = sum(int(r["periods"]) for r in es)
    check(periods == len(ef), "standard's periods add up to the full run's rows: %d = %d"
          % (periods, len(ef)))
    times = [float(r["sim_time_s"]) for r in es]
    check(times == sorted(times) and len(es) < len(ef) / 5,
          "energy.csv at standard: %d rows in time order (full: %d)" % (len(es), len(ef)))

    check(a["summary"]["results"] == b["summary"]["results"],
          "summary.results identical at both levels")
    res = subprocess.run(["/usr/bin/python3", AUDIT, std, full], capture_output=True, text=True)
    check(res.returncode == 0, "audit.py on both folders: " + res.stdout.strip()[-300:])

    res = subprocess.run([BIN, "--traces=verbose", "--outDir=" + os.path.join(tmp, "bad")],
                         capture_output=True, text=True)
    lines = res.stderr.strip().splitlines()
    check(res.returncode != 0 and len(lines) == 1 and "--traces" in lines[0]
          and "standard" in lines[0] and "full" in lines[0]
          and not os.path.exists(os.path.join(tmp, "bad")),
          "--traces=verbose refused in one line: %s" % res.stderr.strip())

if failures:
    sys.exit("trace-levels: %d failure(s)" % len(failures))
print("trace-levels: all checks passed")
