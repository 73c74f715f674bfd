#!/usr/bin/env python3
"""graph-discovery, semi-supervised paradigm (Wagle, Das, Love and Brinton, "Multi-Agent
Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
sec. V-A1): 10 devices of Fashion-MNIST (3 labels at 70/20/10 %), 15 % of each device's points
labelled, distributed PCA with d = 50, label propagation with k = 7.
- gd_labelling.csv: one row per device; labelled = max(round(0.15 n), labels present) is
  checked against n; the mean accuracy on the unlabelled points is at least 0.70 (the issue's
  acceptance bar) and run.json's gdLabellingMeanUnlabelledAccuracy is that mean.
- messages.csv: each device sent one pca_sketch to the server (index N) of
  min(t, n_i, 784) x 784 x 4 bytes (t = d = 50), the server one pca_subspace to every device
  of 50 x 784 x 4 = 156800 bytes, all complete; graph discovery's first message is sent
  after the last subspace arrived.
- Lossy D2S (P_D 0.01 per fragment, no retransmission: a 42-fragment sketch is lost with
  probability 1 - 0.99^42 = 0.34; every pca_sketch row has that P_D to 1e-9; 0.5 was
  named here while the D2S links' noise made it 0.0177, and at a true 0.5 every sketch
  is lost): the run survives; gdPcaSketchesReceived is the
  number of complete pca_sketch rows, and a device labels on the common subspace exactly when
  a complete pca_subspace reached it (gd_labelling.csv's subspace column), on its own
  top-d subspace otherwise.
- --labeller=mlp (App. D-D: a local MLP, one hidden layer of 64 ReLU units, Adam 1e-3, 100
  epochs in batches of 32, on each device's labelled raw features) on the same shards: no
  PCA message at all; every row's subspace is "raw" and its iterations are the optimizer
  steps 100 x ceil(labelled / 32); the labelled points keep their labels (the accuracy
  identity above); the mean accuracy on the unlabelled points is at least 0.80 (measured
  0.93 for seed 1, propagation 0.925); a second run with the same seed gives the same bytes
  (gd_labelling.csv, gd_links.csv, messages.csv).

Usage: graph-discovery-labelling.py PATH/TO/graph-discovery
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
N, D, DIMS = 10, 784, 50
failures = []


def check(ok, what):
    print(("  ok: " if ok else "  FAIL: ") + what)
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "semi")
    cmd = [BIN, f"--nDevices={N}", "--dataFraction=0.05", "--paradigm=semi-supervised",
           f"--pcaDims={DIMS}", "--knn=7", "--labelledFraction=0.15", "--graph=uniform",
           "--downstream=none", "--iterations=1", "--threads=0", "--quiet", "--seed=1",
           f"--outDir={out}"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: {res.stderr.strip()[-300:]}")
    rows = list(csv.DictReader(open(os.path.join(out, "gd_labelling.csv"))))
    check(len(rows) == N, f"gd_labelling.csv has {len(rows)} rows, one per device")
    sizes = {}
    for r in rows:
        n, labelled = int(r["points"]), int(r["labelled"])
        sizes[int(r["device"])] = n
        # At most 3 labels per device: max(round(0.15 n), labels present) <= max(.., 3).
        want = round(0.15 * n)
        check(labelled == want or (want < 3 and labelled <= 3),
              f"device {r['device']}: {labelled} of {n} points labelled (round(0.15 n) = {want})")
        acc, unl = float(r["accuracy"]), float(r["unlabelled_accuracy"])
        # All points = labelled (right) + unlabelled: acc n = labelled + unl (n - labelled).
        check(abs(acc * n - (labelled + unl * (n - labelled))) < 1e-6,
              f"device {r['device']}: accuracy {acc:.4f} agrees with unlabelled {unl:.4f}")
    mean_unl = sum(float(r["unlabelled_accuracy"]) for r in rows) / N
    print(f"  mean accuracy on the unlabelled points: {mean_unl:.4f}")
    check(mean_unl >= 0.70, f"mean unlabelled accuracy {mean_unl:.4f} >= 0.70")
    run = json.load(open(os.path.join(out, "run.json")))["summary"]["results"]
    check(abs(float(run["gdLabellingMeanUnlabelledAccuracy"]) - mean_unl) < 1e-6,
          "run.json's gdLabellingMeanUnlabelledAccuracy is the mean of the rows")

    msgs = list(csv.DictReader(open(os.path.join(out, "messages.csv"))))
    sketches = [m for m in msgs if m["kind"] == "pca_sketch"]
    subspace = [m for m in msgs if m["kind"] == "pca_subspace"]
    check(sorted(int(m["src"]) for m in sketches) == list(range(N))
          and all(int(m["dst"]) == N for m in sketches), "one pca_sketch per device to the server")
    for m in sketches:
        want = min(DIMS, sizes[int(m["src"])], D) * D * 4
        check(int(m["bytes"]) == want and m["complete"] == "1",
              f"pca_sketch of device {m['src']}: {m['bytes']} bytes, want {want}, complete")
    check(sorted(int(m["dst"]) for m in subspace) == list(range(N))
          and all(int(m["src"]) == N and int(m["bytes"]) == DIMS * D * 4
                  and m["complete"] == "1" for m in subspace),
          f"one pca_subspace of {DIMS * D * 4} bytes reached every device")
    last = max(float(m["t_recv_s"]) for m in subspace)
    gd = [float(m["t_send_s"]) for m in msgs if m["kind"].startswith("gd_")]
    check(bool(gd) and min(gd) >= last,
          f"discovery's first message ({min(gd) if gd else None} s) after the subspace ({last} s)")

    lossy = os.path.join(tmp, "lossy")
    cmd = [BIN, f"--nDevices={N}", "--dataFraction=0.05", "--paradigm=semi-supervised",
           "--pcaDims=20", "--graph=uniform", "--downstream=none", "--iterations=1",
           "--threads=0", "--quiet", "--seed=2", "--d2sDropProbability=0.01",
           "--maxRetransmissions=0", f"--outDir={lossy}"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: {res.stderr.strip()[-300:]}")
    msgs = list(csv.DictReader(open(os.path.join(lossy, "messages.csv"))))
    sketches = [m for m in msgs if m["kind"] == "pca_sketch"]
    check(bool(sketches) and all(abs(float(m["p_drop"]) - 0.01) <= 1e-9 for m in sketches),
          "lossy: every pca_sketch row has p_drop = --d2sDropProbability = 0.01")
    arrived = sum(1 for m in msgs if m["kind"] == "pca_sketch" and m["complete"] == "1")
    reached = {int(m["dst"]) for m in msgs if m["kind"] == "pca_subspace" and m["complete"] == "1"}
    run = json.load(open(os.path.join(lossy, "run.json")))["summary"]["results"]
    check(int(run["gdPcaSketchesReceived"]) == arrived,
          f"lossy: {run['gdPcaSketchesReceived']} sketches counted, {arrived} complete rows")
    check(0 < arrived < N, f"lossy: some but not all sketches lost ({arrived} of {N} arrived)")
    rows = list(csv.DictReader(open(os.path.join(lossy, "gd_labelling.csv"))))
    subspaces = {int(r["device"]): r["subspace"] for r in rows}
    check(all(subspaces[i] == ("common" if i in reached else "local") for i in range(N)),
          f"lossy: common subspace exactly at the devices F reached ({sorted(reached)})")
    check(any(v == "local" for v in subspaces.values()),
          "lossy: some device fell back on its own subspace")

    def mlp_run(name):
        out = os.path.join(tmp, name)
        cmd = [BIN, f"--nDevices={N}", "--dataFraction=0.05", "--paradigm=semi-supervised",
               "--labeller=mlp", "--labelledFraction=0.15", "--graph=uniform",
               "--downstream=none", "--iterations=1", "--threads=0", "--quiet", "--seed=1",
               f"--outDir={out}"]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if res.returncode != 0:
            sys.exit(f"FAIL: {' '.join(cmd)}: {res.stderr.strip()[-300:]}")
        return out

    mlp = mlp_run("mlp")
    rows = list(csv.DictReader(open(os.path.join(mlp, "gd_labelling.csv"))))
    check(len(rows) == N, f"mlp: gd_labelling.csv has {len(rows)} rows, one per device")
    for r in rows:
        n, labelled = int(r["points"]), int(r["labelled"])
        want = 100 * ((labelled + 31) // 32)
        check(r["subspace"] == "raw" and int(r["iterations"]) == want,
              f"mlp: device {r['device']}: subspace {r['subspace']}, {r['iterations']} steps "
              f"(100 x ceil({labelled} / 32) = {want})")
        acc, unl = float(r["accuracy"]), float(r["unlabelled_accuracy"])
        check(abs(acc * n - (labelled + unl * (n - labelled))) < 1e-6,
              f"mlp: device {r['device']}: accuracy {acc:.4f} agrees with unlabelled {unl:.4f}")
    mean_mlp = sum(float(r["unlabelled_accuracy"]) for r in rows) / N
    print(f"  mlp: mean accuracy on the unlabelled points: {mean_mlp:.4f} "
          f"(propagation {mean_unl:.4f})")
    check(mean_mlp >= 0.80, f"mlp: mean unlabelled accuracy {mean_mlp:.4f} >= 0.80")
    run = json.load(open(os.path.join(mlp, "run.json")))["summary"]["results"]
    check(abs(float(run["gdLabellingMeanUnlabelledAccuracy"]) - mean_mlp) < 1e-6,
          "mlp: run.json's gdLabellingMeanUnlabelledAccuracy is the mean of the rows")
    check("gdPcaBytes" not in run, "mlp: run.json records no PCA")
    msgs = list(csv.DictReader(open(os.path.join(mlp, "messages.csv"))))
    check(not any(m["kind"].startswith("pca_") for m in msgs), "mlp: no PCA message")
    check(any(m["kind"].startswith("gd_") for m in msgs), "mlp: discovery ran")
    again = mlp_run("mlp-again")
    for f in ("gd_labelling.csv", "gd_links.csv", "messages.csv"):
        check(open(os.path.join(mlp, f), "rb").read() == open(os.path.join(again, f), "rb").read(),
              f"mlp: same seed, same bytes of {f}")

if failures:
    sys.exit(f"graph-discovery-labelling: {len(failures)} failure(s)")
print("graph-discovery-labelling: all checks passed")
