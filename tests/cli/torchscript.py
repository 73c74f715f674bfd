#!/usr/bin/python3
"""--model=torchscript:PATH end to end, on files this test writes:

1. A model none of the repository's code knows (a small CNN with BatchNorm, defined in a
   Python file written here), exported with torch.jit.script, trained by fedavg on
   CIFAR-10-format files ("binary version": 1 label byte + 3072 pixel bytes per record)
   holding separable synthetic images (class k: a bright 8 x 8 block at place k):
   the last round's accuracy beats chance (0.1) by at least 0.4; two runs on 2 worker
   threads and one on 1 give identical rounds.csv, messages.csv and energy.csv; run.json's
   forwardFlopsPerSample equals the hand count (2 x multiply-adds) and
   trainingFlopsPerSample 3 x that; --modelFlops overrides both and lengthens the round as
   it says (the compute time is FLOPs / rate).
2. The four exported architectures of examples/models (ResNet-20, AlexNet for 32x32, LEAF's
   FEMNIST CNN and Shakespeare LSTM) each load and train one step (--localSteps=1) on
   stand-in data of their shape (CIFAR-10 files; NumPy tensors of [1, 28, 28] with 62
   classes and [80] character indices with 80), and the C++ count of their forward FLOPs
   equals the Python count of examples/models/flops.py (forward hooks) exactly.
3. A model on data of another shape is refused in one line naming the model's declared input
   and the data's, exit 2, and no output folder.

Usage: torchscript.py BUILD_BIN_DIR REPOSITORY_ROOT
"""

import importlib
import json
import os
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
except ImportError as e:  # Debian's python3-torch and python3-numpy (setup.sh installs them)
    print(f"torchscript: SKIP: {e} (install python3-torch)")
    sys.exit(77)

BIN = sys.argv[1]
ROOT = sys.argv[2]
FAILURES = []

UNKNOWN_MODEL = '''
import sys
from typing import List
import torch
from torch import nn


class SmallBnCnn(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self):
        super().__init__()
        self.input_shape = [3, 32, 32]
        self.num_classes = 10
        self.conv = nn.Conv2d(3, 6, 5, padding=2)
        self.bn = nn.BatchNorm2d(6)
        self.fc = nn.Linear(6 * 8 * 8, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.bn(self.conv(x))), 4)
        return self.fc(torch.flatten(x, 1))


torch.manual_seed(0)
torch.jit.script(SmallBnCnn()).save(sys.argv[1])
'''
# conv: 6 x 32 x 32 outputs x (3 x 5 x 5); fc: 10 outputs x 384 inputs
UNKNOWN_MACS = 6 * 32 * 32 * 75 + 10 * 384


def fail(message):
    print("  FAIL: " + message)
    FAILURES.append(message)


def cifar_records(rng, count):
    """count CIFAR-10 records of separable images: class k has a bright 8 x 8 block at
    place k of a 4 x 4 grid, over noise."""
    records = bytearray()
    for i in range(count):
        label = i % 10
        image = rng.integers(0, 60, size=(3, 32, 32), dtype=np.uint8)
        r, c = divmod(label, 4)
        image[:, r * 8:(r + 1) * 8, c * 8:(c + 1) * 8] = 220
        records += bytes([label]) + image.tobytes()
    return bytes(records)


def write_cifar10(folder, per_batch, test_count):
    os.makedirs(folder)
    rng = np.random.default_rng(7)
    for b in range(1, 6):
        with open(os.path.join(folder, f"data_batch_{b}.bin"), "wb") as f:
            f.write(cifar_records(rng, per_batch))
    with open(os.path.join(folder, "test_batch.bin"), "wb") as f:
        f.write(cifar_records(rng, test_count))


def write_tensors(folder, shape, classes, count, integers_below=None):
    os.makedirs(folder)
    rng = np.random.default_rng(3)
    for split, n in (("train", count), ("test", count // 2)):
        if integers_below:
            x = rng.integers(0, integers_below, size=(n, *shape)).astype(np.float32)
        else:
            x = rng.random(size=(n, *shape), dtype=np.float32)
        y = (np.arange(n) % classes).astype(np.int64)  # every class present
        np.save(os.path.join(folder, f"{split}_x.npy"), x)
        np.save(os.path.join(folder, f"{split}_y.npy"), y)


def run(args, out_dir, expect_ok=True):
    cmd = [os.path.join(BIN, "fedavg"), *args, f"--outDir={out_dir}", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if expect_ok and p.returncode != 0:
        fail(f"exit {p.returncode}: {' '.join(cmd)}\n    {p.stderr.strip()}")
    return p


def read(path):
    with open(path, "rb") as f:
        return f.read()


def parameters(out_dir):
    with open(os.path.join(out_dir, "run.json")) as f:
        return json.load(f)["parameters"]


def last_accuracy(out_dir):
    rows = [line.split(",") for line in read(os.path.join(out_dir, "rounds.csv")).decode().splitlines()[1:]]
    acc = [(int(r[0]), float(r[4])) for r in rows if r[2] == "-1" and r[3] == "accuracy"]
    return max(acc)[1] if acc else float("nan")


def main():
    tmp = tempfile.mkdtemp(prefix="torchscript-")
    cifar = os.path.join(tmp, "cifar")
    write_cifar10(cifar, per_batch=80, test_count=200)

    print("check: a Python-defined CNN with BatchNorm trains in fedavg on CIFAR-10 files")
    model = os.path.join(tmp, "unknown.pt")
    script = os.path.join(tmp, "unknown_model.py")
    with open(script, "w") as f:
        f.write(UNKNOWN_MODEL)
    subprocess.run(["/usr/bin/python3", script, model], check=True)
    common = [
        f"--model=torchscript:{model}", "--dataset=cifar10", f"--dataDir={cifar}",
        "--dataFraction=1", "--nDevices=4", "--rounds=4", "--learningRate=0.05",
        "--batchSize=16", "--seed=5",
    ]
    runs = {}
    for name, threads in (("a", 2), ("b", 2), ("one", 1)):
        runs[name] = os.path.join(tmp, name)
        run(common + [f"--threads={threads}"], runs[name])
    if not FAILURES:
        for f in ("rounds.csv", "messages.csv", "energy.csv"):
            if read(os.path.join(runs["a"], f)) != read(os.path.join(runs["b"], f)):
                fail(f"{f} differs between two runs with --seed=5")
            if read(os.path.join(runs["a"], f)) != read(os.path.join(runs["one"], f)):
                fail(f"{f} differs between --threads=2 and --threads=1")
        acc = last_accuracy(runs["a"])
        print(f"  last-round accuracy {acc:.3f} (chance 0.1)")
        if not acc >= 0.5:
            fail(f"last-round accuracy {acc:.3f} < 0.5 (chance 0.1 + 0.4)")
        p = parameters(runs["a"])
        if p.get("forwardFlopsPerSample") != 2 * UNKNOWN_MACS:
            fail(f"forwardFlopsPerSample {p.get('forwardFlopsPerSample')} != hand count {2 * UNKNOWN_MACS}")
        if p.get("trainingFlopsPerSample") != 6 * UNKNOWN_MACS:
            fail(f"trainingFlopsPerSample {p.get('trainingFlopsPerSample')} != 3 x {2 * UNKNOWN_MACS}")
        if p.get("modelBufferValues") != 12:
            fail(f"modelBufferValues {p.get('modelBufferValues')} != 12 (BatchNorm's mean and var of 6)")

    print("check: --modelFlops overrides the count and acts on the compute time")
    flops_dir = os.path.join(tmp, "flops")
    run(common + ["--threads=2", f"--modelFlops={20 * UNKNOWN_MACS}"], flops_dir)
    if os.path.isdir(flops_dir):
        p = parameters(flops_dir)
        if p.get("forwardFlopsPerSample") != 20 * UNKNOWN_MACS:
            fail(f"--modelFlops: forwardFlopsPerSample {p.get('forwardFlopsPerSample')}")
        base = read(os.path.join(runs["a"], "energy.csv"))
        if read(os.path.join(flops_dir, "energy.csv")) == base:
            fail("--modelFlops=10 x the count left energy.csv unchanged")

    print("check: the four architectures of examples/models train one step on stand-in data")
    femnist = os.path.join(tmp, "femnist")
    write_tensors(femnist, (1, 28, 28), 62, 124)
    text = os.path.join(tmp, "text")
    write_tensors(text, (80,), 80, 160, integers_below=80)
    sys.path.insert(0, os.path.join(ROOT, "examples", "models"))
    import flops  # examples/models/flops.py: the independent count (forward hooks)

    cases = (
        ("resnet20", "cifar10", cifar, (3, 32, 32)),
        ("alexnet_cifar", "cifar10", cifar, (3, 32, 32)),
        ("leaf_femnist_cnn", "tensors", femnist, (1, 28, 28)),
        ("leaf_shakespeare_lstm", "tensors", text, (80,)),
    )
    for name, dataset, folder, shape in cases:
        pt = os.path.join(tmp, name + ".pt")
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "examples", "models", name + ".py"), pt],
                       check=True, capture_output=True)
        out = os.path.join(tmp, "step-" + name)
        run([f"--model=torchscript:{pt}", f"--dataset={dataset}", f"--dataDir={folder}",
             "--dataFraction=1", "--nDevices=2", "--rounds=1", "--localSteps=1", "--batchSize=4",
             "--threads=2"], out)
        if not os.path.isdir(out):
            continue
        counted = parameters(out).get("forwardFlopsPerSample")
        module = importlib.import_module(name).build()
        python = 2 * flops.multiply_adds(module, shape)
        print(f"  {name}: C++ forward FLOPs {counted:.0f}, Python (hooks) {python:.0f}")
        if counted != python:
            fail(f"{name}: C++ counts {counted} forward FLOPs, Python {python}")
        # Trained parameters and floating-point buffers, as PyTorch counts them.
        want = (sum(p.numel() for p in module.parameters()),
                sum(b.numel() for b in module.buffers() if b.is_floating_point()))
        got = (parameters(out).get("modelParameters"), parameters(out).get("modelBufferValues"))
        print(f"  {name}: run.json parameters, buffer values {got}, PyTorch {want}")
        if got != want:
            fail(f"{name}: run.json modelParameters, modelBufferValues {got}, PyTorch {want}")
        if name == "resnet20" and got[0] != 269722:
            fail(f"resnet20: modelParameters {got[0]} (ResNet-20 has 269,722 parameters)")

    print("check: a model on data of another shape: one line, exit 2, no output folder")
    femnist_pt = os.path.join(tmp, "leaf_femnist_cnn.pt")
    bad_out = os.path.join(tmp, "bad")
    p = run([f"--model=torchscript:{femnist_pt}", "--dataset=cifar10", f"--dataDir={cifar}",
             "--dataFraction=1", "--nDevices=2", "--rounds=1"], bad_out, expect_ok=False)
    want = (f"fedavg: error: --model=torchscript:{femnist_pt}: the model expects samples of "
            "1 x 28 x 28 and 62 classes; the data's samples are 3 x 32 x 32 with 10 classes")
    if p.returncode != 2 or p.stderr.strip() != want or os.path.exists(bad_out):
        fail(f"mis-shaped data: exit {p.returncode}, stderr {p.stderr.strip()!r}, "
             f"output folder {'exists' if os.path.exists(bad_out) else 'absent'}; wanted {want!r}")

    subprocess.run(["rm", "-rf", tmp])
    if FAILURES:
        print(f"torchscript: {len(FAILURES)} failure(s)")
        sys.exit(1)
    print("torchscript: a Python-defined model trains, deterministically; the four architectures train a step")


if __name__ == "__main__":
    main()
