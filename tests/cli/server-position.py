#!/usr/bin/env python3
"""The server has a place (--serverPosition, --d2sLinks), on the fedavg scenario:

- --d2sLinks=distance (fedavg's default): each device's D2S link is its own distance to the
  server; --printLinks's D2S rows are eq. 18 at the log-distance RSS of their distance_m
  (recomputed here), messages.csv's D2S rows have those P_D, and the server at two places
  (centre, a corner) gives two messages.csv whose D2S p_drop differ; the corner's distances
  are those of a device in the square from (0, 0);
- ns-3's x:y:z form is the same place as x,y,z (same bytes); the same seed gives the same
  bytes;
- devices that move (--speedMps=20) give another messages.csv than static ones under
  --d2sLinks=distance; under --d2sLinks=equal (every D2S link one length) server FedAvg's
  --speedMps cannot change the run and is refused (D2dFlagScope);
- --d2sLinks=equal: every D2S link --d2sDistanceFactor x the mean D2D distance (the mean
  recomputed from --printLinks's D2D rows), as before the server had a place;
- run.json records the place and the mode in force;
- the refusals, one line each, nothing written: --d2sDistanceFactor away from its default
  under distance, --serverPosition away from the centre under equal (and with --rssFile,
  which implies equal), --d2sLinks=distance with --rssFile, --d2sLinks=equal over Wi-Fi,
  malformed places; graph-discovery defaults to equal links.

Usage: server-position.py BINDIR (holding fedavg and graph-discovery)
"""

import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

import case_batch

BINDIR = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: server-position.py BINDIR")
FEDAVG = os.path.join(BINDIR, "fedavg")
GD = os.path.join(BINDIR, "graph-discovery")
TMP = tempfile.mkdtemp(prefix="server-position.")
BASE = ["--rounds=2", "--nDevices=5", "--dataFraction=0.05"]
N = 5
SIDE = 50.0  # fedavg's --areaSideM
failures = 0


def fail(message):
    global failures
    failures += 1
    print("  FAIL: " + message)


RUNS = {"centre": [],
        "centre-again": [],
        "corner": ["--serverPosition=0,0"],
        "corner-ns3": ["--serverPosition=0:0:0"],
        "walk": ["--speedMps=20"],
        "equal": ["--d2sLinks=equal"]}
LINKS = {"centre": [], "corner": ["--serverPosition=0,0"], "equal": ["--d2sLinks=equal"],
         "far": ["--serverPosition=0,0,300"]}
RSS_FILE = os.path.join(TMP, "w.csv")
# (arguments, what the one line must hold); each must exit non-zero and write nothing.
REFUSED = [
    (["--d2sDistanceFactor=2"], "--d2sDistanceFactor=2 cannot change this run: it acts with "
                                "--d2sLinks=equal"),
    (["--d2sLinks=equal", "--serverPosition=1,2"], "--serverPosition=1,2 cannot change this "
                                                     "run: it places the server"),
    (["--d2sLinks=equal", "--speedMps=20"], "--speedMps=20 cannot change this run"),
    (["--rssFile=" + RSS_FILE, "--serverPosition=1,2"], "--rssFile implies --d2sLinks=equal"),
    (["--rssFile=" + RSS_FILE, "--d2sLinks=distance"], "--d2sLinks=distance cannot be combined "
                                                       "with --rssFile"),
    (["--backend=wifi", "--d2sLinks=equal"], "--d2sLinks=equal cannot change this run: it acts "
                                             "with --backend=channel"),
]
for bad in ["abc", "1", "1,2,3,4", "1,,2", "1e8,0", "nan,0", "1:2,3", " 1,2", "1,2x"]:
    REFUSED.append((["--serverPosition=" + bad],
                    "--serverPosition=%s is not accepted (x,y or x,y,z in m" % bad))
REFUSED.append((["--serverPosition="], "--serverPosition= has an empty value"))
# Accepted (--validate: checked as a run would, nothing written).
ACCEPTED = [["--d2sDistanceFactor=3"], ["--d2sLinks=equal", "--serverPosition=centre"],
            ["--d2sLinks=equal", "--d2sDistanceFactor=2"], ["--serverPosition=-10,60.5,2"],
            ["--backend=wifi", "--serverPosition=0,0"], ["--rssFile=" + RSS_FILE]]


def out_dir(name):
    return os.path.join(TMP, name)


def start_all():
    with open(RSS_FILE, "w") as f:
        for i in range(N):
            f.write(",".join("0" if i == j else "1e-10" for j in range(N)) + "\n")
    argvs = [BASE + args + ["--quiet", "--outDir=" + out_dir(name)] for name, args in RUNS.items()]
    argvs += [BASE + args + ["--printLinks", "--outDir=" + out_dir("never")]
              for args in LINKS.values()]
    argvs += [BASE + args + ["--quiet", "--outDir=" + out_dir("refused")] for args, _ in REFUSED]
    argvs += [BASE + args + ["--validate", "--outDir=" + out_dir("never")] for args in ACCEPTED]
    results = case_batch.run(FEDAVG, argvs, timeout=300)
    runs = dict(zip(RUNS, results[:len(RUNS)]))
    links = dict(zip(LINKS, results[len(RUNS):len(RUNS) + len(LINKS)]))
    rest = results[len(RUNS) + len(LINKS):]
    return runs, links, rest[:len(REFUSED)], rest[len(REFUSED):]


def read(name, file):
    with open(os.path.join(out_dir(name), file), "rb") as f:
        return f.read()


def messages(name):
    return list(csv.DictReader(io.StringIO(read(name, "messages.csv").decode())))


def d2s_p_drop(name):
    """{(src, dst): p_drop as written} of the run's D2S rows."""
    return {(m["src"], m["dst"]): m["p_drop"] for m in messages(name)
            if str(N) in (m["src"], m["dst"])}


def printed(result):
    lines = result.stdout.splitlines()
    return [l for l in lines if l.startswith("#")], list(csv.DictReader(
        io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))


def eq18_log_distance(distance_m, tx_dbm=30.0, r=2.0, noise_w=1e-13):
    """Eq. 18 at ns-3's default log-distance loss (exponent 3, 46.6777 dB at 1 m)."""
    loss_db = 46.6777 + 30.0 * math.log10(max(distance_m, 1.0))
    rss_w = 10.0 ** ((tx_dbm - loss_db - 30.0) / 10.0)
    return 1.0 - math.exp(-(2.0 ** r - 1.0) * noise_w / rss_w)


try:
    RUN, LINK, REFUSALS, ACCEPTS = start_all()
    for name, result in list(RUN.items()) + list(LINK.items()):
        if result.returncode != 0:
            sys.exit("run %s failed (%d): %s\n%s" % (name, result.returncode,
                                                     " ".join(result.args), result.stderr))

    print("check: --printLinks, D2S rows by distance: eq. 18 of the log-distance RSS at distance_m")
    distances = {}
    for name in ("centre", "corner", "far"):
        summary, rows = printed(LINK[name])
        d2s = [r for r in rows if r["link"] == "d2s"]
        if len(d2s) != 2 * N:
            fail("%s: %d D2S rows, expected %d" % (name, len(d2s), 2 * N))
        if not any(l.startswith("# d2s links: distance") for l in summary):
            fail("%s: no '# d2s links: distance' line" % name)
        for r in d2s:
            d, p = float(r["distance_m"]), float(r["p_drop"])
            want = eq18_log_distance(d)
            if abs(p - want) > 1e-9 * want:
                fail("%s: D2S rx %s tx %s at %s m: p_drop %r, eq. 18 gives %r"
                     % (name, r["rx"], r["tx"], r["distance_m"], p, want))
        distances[name] = {(r["rx"], r["tx"]): float(r["distance_m"]) for r in d2s}
        print("  %s: distances %s m" % (name, ", ".join(
            "%.2f" % distances[name][(str(N), str(i))] for i in range(N))))
    # A device in the square [0, 50]^2 is at most 50 sqrt(2) m from the corner, at most
    # 25 sqrt(2) from the centre; 300 m above the corner it is 300 to 304.1 m away.
    for name, lo, hi in (("centre", 0, 25 * math.sqrt(2)), ("corner", 0, 50 * math.sqrt(2)),
                         ("far", 300, math.sqrt(300 ** 2 + 2 * 50 ** 2))):
        out = [d for d in distances[name].values() if not lo <= d <= hi + 1e-9]
        if out:
            fail("%s: D2S distances %s outside %g to %g m" % (name, out, lo, hi))
    if len(set(distances["centre"].values())) < 2:
        fail("the devices' D2S links all have one length under --d2sLinks=distance")
    if distances["centre"] == distances["corner"]:
        fail("--serverPosition=0,0 gives the centre's distances")

    print("check: messages.csv's D2S p_drop as printed; two server places, two messages.csv")
    for name in ("centre", "corner"):
        want = {(r["tx"], r["rx"]): r["p_drop"] for r in printed(LINK[name])[1]
                if r["link"] == "d2s"}
        got = d2s_p_drop(name)
        if not got or any(want.get(k) != v for k, v in got.items()):
            fail("%s: messages.csv D2S p_drop differ from --printLinks" % name)
    a, b = d2s_p_drop("centre"), d2s_p_drop("corner")
    changed = sum(a[k] != b.get(k) for k in a)
    print("  %d D2S links, p_drop differs on %d between the centre and (0, 0)" % (len(a), changed))
    if changed == 0 or read("centre", "messages.csv") == read("corner", "messages.csv"):
        fail("the server at the centre and at (0, 0) gives the same D2S p_drop")

    print("check: x:y:z is x,y; the same seed gives the same bytes")
    for f in ("messages.csv", "energy.csv", "rounds.csv"):
        if read("corner", f) != read("corner-ns3", f):
            fail("--serverPosition=0:0:0 and 0,0 differ in %s" % f)
        if read("centre", f) != read("centre-again", f):
            fail("two runs of one seed differ in %s" % f)

    print("check: --speedMps=20 changes messages.csv by distance, not with equal links")
    if read("walk", "messages.csv") == read("centre", "messages.csv"):
        fail("--speedMps=20 gives the static run's messages.csv under --d2sLinks=distance")
    walk = {}
    for m in messages("walk"):
        if str(N) in (m["src"], m["dst"]):
            walk.setdefault(m["dst"] if m["src"] == str(N) else m["src"], set()).add(m["p_drop"])
    moved = sum(len(v) > 1 for v in walk.values())
    print("  %d of %d moving devices' D2S links changed p_drop during the run" % (moved, len(walk)))
    if moved == 0:
        fail("no moving device's D2S p_drop changed")

    print("check: --d2sLinks=equal: every D2S link --d2sDistanceFactor x the mean D2D distance")
    summary, rows = printed(LINK["equal"])
    d2d = [float(r["distance_m"]) for r in rows if r["link"] == "d2d"]
    d2s = [r for r in rows if r["link"] == "d2s"]
    if len(d2d) != N * (N - 1):
        fail("equal: %d D2D rows, expected every ordered pair (%d)" % (len(d2d), N * (N - 1)))
    mean = sum(d2d) / len(d2d)
    lengths = {float(r["distance_m"]) for r in d2s}
    p_drops = {r["p_drop"] for r in d2s}
    print("  mean D2D distance %.4f m; D2S lengths %s; p_drop %s" % (mean, sorted(lengths),
                                                                     sorted(p_drops)))
    if len(p_drops) != 1 or any(abs(l - 3 * mean) > 1e-9 * mean for l in lengths):
        fail("equal links: D2S lengths %s, expected 3 x %.6g" % (sorted(lengths), mean))
    elif abs(float(next(iter(p_drops))) - eq18_log_distance(3 * mean)) > 1e-9:
        fail("equal links: p_drop is not eq. 18 at 3 x the mean D2D distance")
    if set(d2s_p_drop("equal").values()) != p_drops:
        fail("equal: messages.csv's D2S p_drop %s, printed %s"
             % (set(d2s_p_drop("equal").values()), p_drops))

    print("check: run.json records the place and the mode in force")
    for name, place, mode in (("centre", "25,25,0", "distance"), ("corner", "0,0,0", "distance"),
                              ("equal", "25,25,0", "equal")):
        with open(os.path.join(out_dir(name), "run.json")) as f:
            p = json.load(f)["parameters"]
        if p.get("serverPosition") != place or p.get("d2sLinks") != mode:
            fail("%s: run.json serverPosition %r d2sLinks %r, expected %r %r"
                 % (name, p.get("serverPosition"), p.get("d2sLinks"), place, mode))

    print("check: refusals, one line each, nothing written")
    for (args, text), result in zip(REFUSED, REFUSALS):
        err = result.stderr.strip()
        if result.returncode == 0 or text not in err or "\n" in err:
            fail("%s: exit %d, stderr %r (expected one line with %r)"
                 % (" ".join(args), result.returncode, err[-300:], text))
    if os.path.exists(out_dir("refused")) or os.path.exists(out_dir("never")):
        fail("a refused run or --printLinks/--validate wrote its outDir")
    for args, result in zip(ACCEPTED, ACCEPTS):
        if result.returncode != 0:
            fail("%s: refused (%d): %s" % (" ".join(args), result.returncode, result.stderr))
    print("  %d refused, %d accepted" % (len(REFUSED), len(ACCEPTED)))

    print("check: graph-discovery defaults to equal links (its paper numbers use them)")
    gd = case_batch.run(GD, [["--serverPosition=1,2", "--validate"],
                             ["--d2sLinks=distance", "--serverPosition=1,2", "--validate"]],
                        timeout=300)
    if gd[0].returncode == 0 or "it places the server" not in gd[0].stderr:
        fail("graph-discovery --serverPosition=1,2: exit %d, %r"
             % (gd[0].returncode, gd[0].stderr[-300:]))
    if gd[1].returncode != 0:
        fail("graph-discovery --d2sLinks=distance --serverPosition=1,2 refused: %s"
             % gd[1].stderr[-300:])
finally:
    subprocess.run(["rm", "-rf", TMP])

if failures:
    print("server-position: %d failure(s)" % failures)
    sys.exit(1)
print("server-position: all checks passed")
