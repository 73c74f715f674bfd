#!/usr/bin/env python3
"""The knobs users sweep directly, on the fedavg scenario:

- --printLinks prints the P_D of every link of the configuration without simulating, and
  those are the P_D values that messages.csv of the real run records (D2S on fedavg's
  defaults, D2D with --algorithm=decentralized), with the model's size and fragments;
- --dropProbability / --d2sDropProbability give every link that P_D (through eq. 18) and
  the losses of a run follow it (binomial, 4 standard deviations);
- --RngRun replicates the network alone: same data shards, initial weights and protocol
  draws (identical local training, identical round-0 rows, the same messages between the
  same devices), other positions and losses; --RngRun=1 is the run without it.

Usage: fedavg-links.py PATH/TO/fedavg
"""

import csv
import io
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

import case_batch

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: fedavg-links.py PATH/TO/fedavg")
TMP = tempfile.mkdtemp(prefix="fedavg-links.")
FAST = ["--rounds=1", "--dataFraction=0.02"]  # neither changes a link or the model's size
failures = 0


def fail(message):
    global failures
    failures += 1
    print("  FAIL: " + message)


LOSSY = ["--algorithm=decentralized", "--reliable=false", "--areaSideM=150"]
# Every run the checks below read (name: its arguments besides FAST), and every --printLinks
# (its arguments): all forked by one start of the program (case_batch), before the checks.
RUNS = {"defaults": [],
        "decentralized": ["--algorithm=decentralized"],
        "uniform": ["--algorithm=decentralized", "--dropProbability=0.3", "--reliable=false"],
        "uniform-d2s": ["--d2sDropProbability=0.2", "--rounds=3"],
        "local-1": ["--algorithm=local", "--rounds=2", "--RngRun=1"],
        "local-2": ["--algorithm=local", "--rounds=2", "--RngRun=2"],
        "lossy-default": LOSSY,
        "lossy-1": LOSSY + ["--RngRun=1"],
        "lossy-2": LOSSY + ["--RngRun=2"]}
LINKS = [(), ("--algorithm=decentralized",), ("--algorithm=decentralized", "--dropProbability=0.3"),
         tuple(LOSSY + ["--RngRun=1"]), tuple(LOSSY + ["--RngRun=2"])]
NEVER = os.path.join(TMP, "never-written")  # --printLinks's outDir


def start_all():
    """{name or --printLinks arguments: case_batch.Result} of RUNS and LINKS."""
    keys = list(RUNS) + LINKS
    argvs = [FAST + RUNS[name] + ["--quiet", "--outDir=" + os.path.join(TMP, name)]
             for name in RUNS]
    argvs += [FAST + list(args) + ["--printLinks", "--outDir=" + NEVER] for args in LINKS]
    return dict(zip(keys, case_batch.run(BIN, argvs, timeout=300)))


def run(name):
    """The folder of RUNS[name], run into TMP/name."""
    p = RESULTS[name]
    if p.returncode != 0:
        sys.exit("run failed (%d): %s\n%s" % (p.returncode, " ".join(p.args), p.stderr))
    return os.path.join(TMP, name)


def links(*args):
    """--printLinks with args (one of LINKS): (summary lines, rows as dicts); checks that no
    output folder appears."""
    p = RESULTS[args]
    if p.returncode != 0:
        sys.exit("--printLinks failed (%d): %s\n%s" % (p.returncode, " ".join(p.args), p.stderr))
    if os.path.exists(NEVER):
        fail("--printLinks created its outDir")
    lines = p.stdout.splitlines()
    summary = [l for l in lines if l.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))
    return summary, rows


def messages(folder):
    with open(os.path.join(folder, "messages.csv"), newline="") as f:
        return list(csv.DictReader(f))


def read(folder, name):
    with open(os.path.join(folder, name), "rb") as f:
        return f.read()


def check_printed_match_run(summary, rows, msgs, what):
    """Every message row's P_D is the printed P_D of its link (as written, digit for digit)."""
    printed = {(r["rx"], r["tx"]): r["p_drop"] for r in rows}
    rows_checked = 0
    for m in msgs:
        key = (m["dst"], m["src"])
        if key not in printed:
            fail("%s: link rx %s tx %s of messages.csv is not printed" % (what, *key))
            return
        if printed[key] != m["p_drop"]:
            fail("%s: link rx %s tx %s: printed p_drop %s, messages.csv %s"
                 % (what, key[0], key[1], printed[key], m["p_drop"]))
            return
        rows_checked += 1
    if rows_checked == 0:
        fail("%s: the run sent no messages" % what)
    print("  %d message rows over %d links: P_D as printed" % (
        rows_checked, len({(m["dst"], m["src"]) for m in msgs})))


def model_line(summary, link):
    """(bytes, fragments) of the '# LINK model ...' line."""
    for line in summary:
        if line.startswith("# %s model " % link):
            words = line.split()
            return int(words[words.index("bytes:") - 1]), int(words[words.index("fragments,") - 1])
    sys.exit("no '# %s model' line in:\n%s" % (link, "\n".join(summary)))


try:
    RESULTS = start_all()
    print("check: --printLinks on the fedavg defaults = the P_D of messages.csv (D2S links)")
    summary, rows = links()
    d2s = [r for r in rows if r["link"] == "d2s"]
    d2d = [r for r in rows if r["link"] == "d2d"]
    if len(d2s) != 20 or len(d2d) != 90:
        fail("10 devices: expected 20 D2S and 90 D2D rows, got %d and %d" % (len(d2s), len(d2d)))
    # The summary's distribution, recomputed from the rows (type-7 quantiles, as printed).
    line = next(l for l in summary if l.startswith("# d2d: "))
    stated = dict((k, float(v)) for k, v in re.findall(r"(min|p5|p25|median|p75|p95|max|mean) "
                                                       r"([-+0-9.e]+)", line))
    p = sorted(float(r["p_drop"]) for r in d2d)
    q20 = statistics.quantiles(p, n=20, method="inclusive")
    q4 = statistics.quantiles(p, n=4, method="inclusive")
    expect = {"min": p[0], "p5": q20[0], "p25": q4[0], "median": q4[1], "p75": q4[2],
              "p95": q20[18], "max": p[-1], "mean": statistics.fmean(p)}
    for k, v in expect.items():
        if k not in stated or abs(stated[k] - v) > 5e-6 * abs(v):
            fail("d2d summary %s: printed %s, recomputed %.9g" % (k, stated.get(k), v))
    print("  D2D P_D summary recomputed from the 90 rows: median %.6g, p95 %.6g" % (
        expect["median"], expect["p95"]))
    msgs = messages(run("defaults"))
    check_printed_match_run(summary, d2s, msgs, "fedavg")
    size, fragments = model_line(summary, "d2s")
    model_rows = [m for m in msgs if m["kind"] == "global_model"]
    if not model_rows or any(int(m["bytes"]) != size or int(m["fragments"]) != fragments
                             for m in model_rows):
        fail("model size: printed %d bytes in %d fragments, messages.csv %s" % (
            size, fragments, sorted({(m["bytes"], m["fragments"]) for m in model_rows})))
    else:
        print("  model: %d bytes, %d fragments, as printed" % (size, fragments))

    print("check: --printLinks --algorithm=decentralized = the P_D of messages.csv (D2D links)")
    summary, rows = links("--algorithm=decentralized")
    check_printed_match_run(summary, [r for r in rows if r["link"] == "d2d"],
                            messages(run("decentralized")),
                            "decentralized")

    print("check: --dropProbability=0.3: every D2D link 0.3, losses binomial around it")
    summary, rows = links("--algorithm=decentralized", "--dropProbability=0.3")
    worst = max(abs(float(r["p_drop"]) - 0.3) for r in rows if r["link"] == "d2d")
    if worst > 1e-15:
        fail("printed D2D P_D off 0.3 by %g" % worst)
    msgs = messages(run("uniform"))
    worst = max(abs(float(m["p_drop"]) - 0.3) for m in msgs)
    sent = sum(int(m["fragments"]) for m in msgs)
    lost = sum(int(m["fragments_lost"]) for m in msgs)
    sd = math.sqrt(0.3 * 0.7 / sent)
    print("  %d fragments, %d lost: %.4f (0.3 +- %.4f at 4 sd); P_D off by at most %g"
          % (sent, lost, lost / sent, 4 * sd, worst))
    if worst > 1e-15:
        fail("messages.csv P_D off 0.3 by %g" % worst)
    if abs(lost / sent - 0.3) > 4 * sd:
        fail("loss rate %.4f is not 0.3 within 4 sd (%.4f)" % (lost / sent, 4 * sd))

    print("check: --d2sDropProbability=0.2: every D2S link 0.2; ARQ retransmits p/(1-p) of "
          "the uploads' fragments")
    msgs = messages(run("uniform-d2s"))
    worst = max(abs(float(m["p_drop"]) - 0.2) for m in msgs)
    up = [m for m in msgs if m["dst"] == "10"]  # unicast uploads to the server (index N)
    sent = sum(int(m["fragments"]) for m in up)
    retx = sum(int(m["retransmissions"]) for m in up)
    # Retransmissions of one fragment: geometric, mean p/(1-p) = 0.25, variance p/(1-p)^2.
    sd = math.sqrt(0.2 / 0.8 ** 2 / sent)
    print("  %d upload fragments, %d retransmissions: %.4f per fragment (0.25 +- %.4f at 4 sd)"
          % (sent, retx, retx / sent, 4 * sd))
    if worst > 1e-15:
        fail("messages.csv D2S P_D off 0.2 by %g" % worst)
    if not up or abs(retx / sent - 0.25) > 4 * sd:
        fail("retransmissions per upload fragment are not 0.25 within 4 sd")

    print("check: --RngRun=2 keeps data, shards and initial weights: local training identical")
    a = run("local-1")
    b = run("local-2")
    for f in ("rounds.csv", "energy.csv"):
        if read(a, f) != read(b, f):
            fail("--algorithm=local: %s differs between --RngRun=1 and 2" % f)
    with open(os.path.join(b, "run.json")) as f:
        if json.load(f)["parameters"].get("RngRun") != 2:
            fail("run.json does not record RngRun 2")

    print("check: --RngRun=2 over lossy D2D links: same start and protocol draws, other losses")
    a = run("lossy-default")
    a1 = run("lossy-1")
    b = run("lossy-2")
    if read(a, "messages.csv") != read(a1, "messages.csv"):
        fail("--RngRun=1 differs from giving no --RngRun")
    r0 = lambda d: [l for l in read(d, "rounds.csv").splitlines() if l.startswith(b"0,")]
    if not r0(a) or r0(a) != r0(b):
        fail("round-0 rows (initial weights on the shards) differ between --RngRun=1 and 2")
    ma, mb = messages(a), messages(b)
    # Rows are written as transmissions end, which the losses move: compare as sets.
    who = lambda ms: sorted((m["kind"], m["src"], m["dst"], m["bytes"]) for m in ms)
    if who(ma) != who(mb):
        fail("the protocol's messages (kind, src, dst, bytes) differ between --RngRun=1 and 2")
    link = lambda ms: {(m["src"], m["dst"]): m["p_drop"] for m in ms}
    changed = sum(link(ma)[k] != link(mb)[k] for k in link(ma))
    print("  %d messages, same senders and receivers; P_D differs on %d of %d links"
          % (len(ma), changed, len(link(ma))))
    if changed == 0:
        fail("--RngRun=2 left every P_D as in run 1 (positions did not change)")
    la = links(*LOSSY, "--RngRun=1")[1]
    lb = links(*LOSSY, "--RngRun=2")[1]
    if [r["distance_m"] for r in la] == [r["distance_m"] for r in lb]:
        fail("--printLinks: same distances for --RngRun=1 and 2")
finally:
    subprocess.run(["rm", "-rf", TMP])

if failures:
    print("fedavg-links: %d failure(s)" % failures)
    sys.exit(1)
print("fedavg-links: all checks passed")
