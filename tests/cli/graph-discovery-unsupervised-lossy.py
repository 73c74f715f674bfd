#!/usr/bin/env python3
"""graph-discovery, unsupervised paradigm (Wagle, Das, Love and Brinton, "Multi-Agent
Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
sec. V-B) over a lossy device-to-server link: distributed PCA's messages may be lost
(P_D 0.02 per fragment, no retransmission: a 17-fragment subspace message is lost with
probability 1 - 0.98^17 = 0.29), so the common subspace F misses some devices. Such a device
cannot compare its clusters with the others' (eqs. 15, 17) and sits the discovery out; the
others go on. Checked on 10 devices x 300 Fashion-MNIST images, d = 8, K = 7, two edges:
- the run completes (exit 0), and every pca_sketch / pca_subspace row of messages.csv has
  p_drop = the --d2sDropProbability given (0.02, to 1e-9);
- gd_subspace.csv: a device's subspace is "common" exactly when a complete pca_subspace
  reached it (messages.csv), "none" otherwise; some of each;
- a device that sits out sends and receives no gd_* message, is in no gd_links.csv row,
  picks no transmitter in gd_iterations.csv (-1, rewards 0), keeps its points (points_after =
  points_before, label_w1_after = label_w1_before) and ran no K-means (0 iterations);
- run.json: gdPcaSubspaceMissed counts the "none" rows, gdDevicesTakingPart the "common"
  ones; gdMeanW1ToUniformBefore/After and the first and last gdMeanW1ToUniformPerEdge are
  the means of label_w1_before/after over the devices that took part (not over all: the
  two differ on this run);
- same seed, same bytes (gd_subspace.csv, gd_links.csv, gd_iterations.csv, messages.csv).

Usage: graph-discovery-unsupervised-lossy.py PATH/TO/graph-discovery
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
N = 10
P_D2S = 0.02
failures = []


def check(ok, what):
    print(("  ok: " if ok else "  FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(out):
    cmd = [BIN, f"--nDevices={N}", "--dataFraction=0.05", "--paradigm=unsupervised",
           "--pcaDims=8", "--clusters=7", "--edges=2", "--iterations=50", "--downstream=none",
           "--threads=0", "--quiet", "--seed=1", f"--d2sDropProbability={P_D2S}",
           "--maxRetransmissions=0", f"--outDir={out}"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(res.returncode == 0, f"the run completes ({res.stderr.strip()[-200:]})")
    if res.returncode != 0:
        sys.exit("graph-discovery-unsupervised-lossy: the run failed")


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "a")
    run(out)
    msgs = list(csv.DictReader(open(os.path.join(out, "messages.csv"))))
    pca = [m for m in msgs if m["kind"] in ("pca_sketch", "pca_subspace")]
    check(bool(pca) and all(abs(float(m["p_drop"]) - P_D2S) <= 1e-9 for m in pca),
          f"every PCA row has p_drop = --d2sDropProbability = {P_D2S} ({len(pca)} rows)")
    reached = {int(m["dst"]) for m in msgs if m["kind"] == "pca_subspace" and m["complete"] == "1"}
    rows = {int(r["device"]): r for r in csv.DictReader(open(os.path.join(out, "gd_subspace.csv")))}
    check(sorted(rows) == list(range(N)), "gd_subspace.csv: one row per device")
    out_set = {i for i, r in rows.items() if r["subspace"] == "none"}
    check(all(rows[i]["subspace"] == ("common" if i in reached else "none") for i in range(N)),
          f"common exactly at the devices F reached ({sorted(reached)})")
    check(0 < len(out_set) < N, f"some but not all devices sit out ({sorted(out_set)})")

    def ids(field):
        return {int(x) for x in re.findall(r"\d+", field)}

    gd_msgs = [m for m in msgs if m["kind"].startswith("gd_")]
    check(bool(gd_msgs), "the others ran the discovery")
    touching = [m for m in gd_msgs if int(m["src"]) in out_set or ids(m["dst"]) & out_set]
    check(not touching, f"no discovery message from or to a device that sits out "
          f"({len(touching)} found)")
    links = list(csv.DictReader(open(os.path.join(out, "gd_links.csv"))))
    check(bool(links) and not any(int(l["receiver"]) in out_set or int(l["transmitter"]) in out_set
                                  for l in links),
          "no gd_links.csv row with a device that sits out")
    its = list(csv.DictReader(open(os.path.join(out, "gd_iterations.csv"))))
    mine = [r for r in its if int(r["node"]) in out_set]
    check(bool(mine) and all(r["transmitter"] == "-1" and float(r["reward"]) == 0
                             and float(r["global_reward"]) == 0 for r in mine),
          "a device that sits out picks no transmitter and scores 0")
    for i in sorted(out_set):
        r = rows[i]
        check(r["points_after"] == r["points_before"] and
              r["label_w1_after"] == r["label_w1_before"] and r["kmeans_iterations"] == "0",
              f"device {i} kept its {r['points_before']} points and ran no K-means")
    took = [rows[i] for i in range(N) if i not in out_set]
    before = sum(float(r["label_w1_before"]) for r in took) / len(took)
    after = sum(float(r["label_w1_after"]) for r in took) / len(took)
    before_all = sum(float(r["label_w1_before"]) for r in rows.values()) / N
    p = json.load(open(os.path.join(out, "run.json")))["summary"]["results"]
    check(int(p["gdPcaSubspaceMissed"]) == len(out_set)
          and int(p["gdDevicesTakingPart"]) == N - len(out_set),
          f"run.json: {p['gdPcaSubspaceMissed']} missed F, {p['gdDevicesTakingPart']} took part")
    per_edge = p["gdMeanW1ToUniformPerEdge"]
    check(abs(float(p["gdMeanW1ToUniformBefore"]) - before) < 1e-6
          and abs(float(per_edge[0]) - before) < 1e-6,
          f"W1 before {p['gdMeanW1ToUniformBefore']:.6f} = mean over the {len(took)} that took "
          f"part {before:.6f}")
    check(abs(float(p["gdMeanW1ToUniformAfter"]) - after) < 1e-6
          and abs(float(per_edge[-1]) - after) < 1e-6 and len(per_edge) == 3,
          f"W1 after {p['gdMeanW1ToUniformAfter']:.6f} = mean over those {after:.6f}")
    check(abs(before - before_all) > 1e-3,
          f"the rule matters here: mean over all devices {before_all:.6f}")

    again = os.path.join(tmp, "b")
    run(again)
    for f in ("gd_subspace.csv", "gd_links.csv", "gd_iterations.csv", "messages.csv"):
        check(open(os.path.join(out, f), "rb").read() == open(os.path.join(again, f), "rb").read(),
              f"same seed, same bytes of {f}")

if failures:
    sys.exit(f"graph-discovery-unsupervised-lossy: {len(failures)} failure(s)")
print("graph-discovery-unsupervised-lossy: all checks passed")
