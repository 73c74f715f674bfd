#!/usr/bin/python3
"""Inputs that used to crash or hang a run, or pass silently, each ended in one line:

1. a LEAF JSON file whose x is nested 200,000 deep (SIGSEGV before: nlohmann's dump()
   recursed), refused before parsing;
2. a TorchScript module whose forward never returns (it hung for ever): stopped by the
   job's wall-time budget (D2dJobWatchdog: 5 s by default for the load-time check), in
   fedavg and consensus; one that loops only on a training batch, stopped at its first job
   past --jobWallLimit;
3. a FIFO given as --model=torchscript:PATH and as --mobilityTrace (their open blocked for
   ever), /dev/zero as --mobilityTrace (it grew the process to 6 GB): refused before opening;

each within 10 s, exit status 2, exactly one line on stderr naming the input, nothing on
stdout, and no output folder (the run's folder, made before the hang, is removed). And:

4. an error a TorchScript module raises is said in its own words, in one line; a forward
   written for one sample (it gave LibTorch's 19-line traceback) says that batches of any
   size are needed;
5. one label byte of 255 in a set with MNIST's file names is refused with its sample's
   number (it used to make a 256-class model silently);
6. --validate with an --outDir that is a regular file gives the run's own refusal (it said
   "valid" before).

Needs Debian's python3-torch (exit 77, skipped, without it).

Usage: hostile-inputs.py BIN_DIR
"""

import gzip
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import torch
except ImportError as e:
    print(f"hostile-inputs: SKIP: {e} (install python3-torch)")
    sys.exit(77)

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: hostile-inputs.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="hostile-inputs.")
failures = 0

MODELS = '''
import sys
from typing import List
import torch
from torch import nn


class Linear(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self):
        super().__init__()
        self.input_shape = [3, 32, 32]
        self.num_classes = 10
        self.fc = nn.Linear(3072, 10)


class Loops(Linear):
    def forward(self, x):
        y = self.fc(torch.flatten(x, 1))
        while bool(y.sum() > -1.0e30):  # inf stays above: never ends
            y = y + 1
        return y


class LoopsOnABatch(Linear):
    def forward(self, x):
        y = self.fc(torch.flatten(x, 1))
        while x.size(0) > 2 and bool(y.sum() > -1.0e30):  # the probe's 1 and 2 pass
            y = y + 1
        return y


class Raises(Linear):
    def forward(self, x):
        if x.size(0) > 0:
            raise RuntimeError("this model refuses its input")
        return self.fc(torch.flatten(x, 1))


class BatchOfOne(Linear):
    def forward(self, x):
        return self.fc(x.view(1, 3072))  # one sample only


for name, cls in (("loops", Loops), ("loops-on-a-batch", LoopsOnABatch), ("raises", Raises),
                  ("batch-of-one", BatchOfOne)):
    torch.jit.script(cls()).save(sys.argv[1] + "/" + name + ".pt")
'''


def fail(message):
    global failures
    print("  FAIL: " + message)
    failures += 1


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def refused(name, program, args, want, limit_s=10.0):
    """The run must end within limit_s: exit 2, one stderr line holding `want`, nothing on
    stdout, no output folder."""
    out = os.path.join(TMP, "out-" + name)
    cmd = [os.path.join(BIN, program)] + args + ["--outDir=" + out]
    print(f"check: {name}: {program} {' '.join(args)}")
    start = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit_s + 20)
    except subprocess.TimeoutExpired:
        fail(f"{name}: still running after {limit_s + 20} s")
        return
    took = time.monotonic() - start
    lines = r.stderr.splitlines()
    print(f"  exit {r.returncode} after {took:.1f} s: {r.stderr.strip()[:300]}")
    if r.returncode != 2:
        fail(f"{name}: exit status {r.returncode} (expected 2)")
    if took > limit_s:
        fail(f"{name}: took {took:.1f} s (limit {limit_s} s)")
    if len(lines) != 1 or want not in lines[0]:
        fail(f"{name}: expected one stderr line with '{want}', got {lines[:3]}")
    if r.stdout:
        fail(f"{name}: stdout is not empty: {r.stdout[:200]}")
    if os.path.exists(out):
        fail(f"{name}: the output folder was left behind: {os.listdir(out)}")


def main():
    script = os.path.join(TMP, "models.py")  # torch.jit.script reads the classes' source
    with open(script, "w") as f:
        f.write(MODELS)
    subprocess.run(["/usr/bin/python3", script, TMP], check=True)
    rng = np.random.default_rng(5)
    cifar = os.path.join(TMP, "cifar")
    for k in range(1, 6):
        write(os.path.join(cifar, f"data_batch_{k}.bin"),
              b"".join(bytes([i % 10]) + rng.integers(0, 256, 3072, dtype=np.uint8).tobytes()
                       for i in range(20)))
    write(os.path.join(cifar, "test_batch.bin"),
          b"".join(bytes([i % 10]) + rng.integers(0, 256, 3072, dtype=np.uint8).tobytes()
                   for i in range(20)))
    fifo = os.path.join(TMP, "fifo")
    os.mkfifo(fifo)
    deep = os.path.join(TMP, "leaf-deep")
    x = "[" * 200000 + "1" + "]" * 200000
    text = ('{"users": ["a"], "num_samples": [1], "hierarchies": [], "user_data": {"a": '
            '{"x": %s, "y": [1]}}}' % x).encode()
    write(os.path.join(deep, "train", "a.json"), text)
    write(os.path.join(deep, "test", "a.json"), text)
    mnist = os.path.join(TMP, "mnist")
    for split, n in (("train", 40), ("t10k", 10)):
        images = struct.pack(">IIII", 0x803, n, 28, 28) + bytes(n * 784)
        labels = bytearray(struct.pack(">II", 0x801, n) + bytes(i % 10 for i in range(n)))
        if split == "train":
            labels[8 + 5] = 255
        write(os.path.join(mnist, f"{split}-images-idx3-ubyte.gz"), gzip.compress(images))
        write(os.path.join(mnist, f"{split}-labels-idx1-ubyte.gz"), gzip.compress(bytes(labels)))
    small = ["--nDevices=2", "--rounds=1", "--quiet"]
    model = lambda name: [f"--model=torchscript:{os.path.join(TMP, name)}.pt",
                          "--dataset=cifar10", f"--dataDir={cifar}"]

    refused("leaf-deep", "fedavg", small + ["--dataset=leaf", f"--dataDir={deep}"],
            "nested more than 8 levels deep")
    refused("forward-loops", "fedavg", small + model("loops"),
            "the load-time check (forwards of one and two samples) ran longer than its "
            "wall-time budget of 5 s")
    refused("forward-loops-consensus", "consensus",
            small + ["--rounds=2", "--warmupRounds=1"] + model("loops"),
            "ran longer than its wall-time budget of 5 s")
    refused("forward-loops-on-a-batch", "fedavg",
            small + model("loops-on-a-batch") + ["--jobWallLimit=2s"],
            "ran longer than its wall-time budget of 2 s (--jobWallLimit=2s)")
    refused("fifo-model", "fedavg", small + [f"--model=torchscript:{fifo}", "--dataset=cifar10",
                                             f"--dataDir={cifar}"],
            f"--model=torchscript:{fifo}: a FIFO, not a regular file")
    refused("fifo-trace", "d2d-exchange", ["--mobility=ns2", f"--mobilityTrace={fifo}",
                                           "--nDevices=3", "--duration=1s"],
            f"--mobilityTrace={fifo}: a FIFO, not a regular file")
    refused("dev-zero-trace", "d2d-exchange", ["--mobility=ns2", "--mobilityTrace=/dev/zero",
                                               "--nDevices=3", "--duration=1s"],
            "--mobilityTrace=/dev/zero: a character device, not a regular file")
    refused("forward-raises", "fedavg", small + model("raises"),
            "RuntimeError: this model refuses its input")
    refused("forward-batch-of-one", "fedavg", small + model("batch-of-one"),
            "forward fails on a batch of 2 samples of 3 x 32 x 32 (RuntimeError: shape "
            "'[1, 3072]' is invalid for input of size 6144; accepted: a forward that takes "
            "batches of any size")
    refused("mnist-label-255", "fedavg", small + ["--dataset=mnist", f"--dataDir={mnist}"],
            "train-labels-idx1-ubyte.gz: label 255 of sample 5 outside 0..9")

    print("check: --validate with an --outDir that is a regular file: the run's refusal")
    afile = os.path.join(TMP, "a-file")
    write(afile, b"x")
    runs = [subprocess.run([os.path.join(BIN, "d2d-exchange"), "--duration=1s",
                            f"--outDir={afile}"] + extra, capture_output=True, text=True,
                           timeout=60) for extra in ([], ["--validate"])]
    if (runs[0].returncode != 2 or runs[1].returncode != 2
            or runs[0].stderr != runs[1].stderr or "outDir" not in runs[1].stderr):
        fail("--validate: exit %d '%s', the run: exit %d '%s'"
             % (runs[1].returncode, runs[1].stderr.strip(), runs[0].returncode,
                runs[0].stderr.strip()))
    else:
        print("  both: " + runs[1].stderr.strip())

    shutil.rmtree(TMP)
    if failures:
        print(f"hostile-inputs: {failures} failure(s)")
        sys.exit(1)
    print("hostile-inputs: every input refused in one line, in time, with nothing written")


main()
