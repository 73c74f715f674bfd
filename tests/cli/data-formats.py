#!/usr/bin/env python3
"""The published data formats through fedavg: stand-in files of each
format (a few hundred samples, written here with NumPy, gzip and json in the formats as
distributed), each trained for one round with a small model; then bad files.

- --dataset=cifar10 (data_batch_1..5.bin, test_batch.bin), cifar100 (train.bin, test.bin in
  the archive's cifar-100-binary/ sub-folder, fine and coarse labels), mnist (one EMNIST-like
  set of four prefixed gzip idx files, 47 classes), tensors (.npy files saved by NumPy
  itself: float32 and float64 features, int64 and int32 labels) and leaf (FEMNIST-like
  images and Shakespeare-like text, with --partition=natural and more users than devices):
  exit status 0, the traces and run.json exist, run.json records the counts read and
  whether they are the published ones, the natural split's shard sizes are the users'.
- cmfl and consensus on tensors, graph-discovery on CIFAR-10 (its datapoints weigh 3073 bytes
  on the air).
- Bad files (truncated, mislabelled, ambiguous, big-endian, num_samples that disagree), a
  natural partition of a set without users, too few users, --cifarLabels without cifar100:
  a non-zero exit status, exactly one line on stderr naming what is wrong, nothing on
  stdout, and no output folder at all.

The runs are forked by one start of fedavg (case_batch.py).

Usage: data-formats.py BIN_DIR
"""

import gzip
import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np

import case_batch

# The decoded idx cache is not this test's subject: off, so nothing is left in $HOME.
os.environ["D2DLEARN_CACHE_DIR"] = "off"

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: data-formats.py BIN_DIR")
FEDAVG = os.path.join(BIN, "fedavg")
TMP = tempfile.mkdtemp(prefix="data-formats.")
failures = 0
rng = np.random.default_rng(52)
ALL_LETTERS = "\n !\"&'(),-.0123456789:;>?ABCDEFGHIJKLMNOPQRSTUVWXYZ[]abcdefghijklmnopqrstuvwxyz}"


def fail(message):
    global failures
    print("  FAIL: " + message)
    failures += 1


def folder(*parts):
    path = os.path.join(TMP, *parts)
    os.makedirs(path, exist_ok=True)
    return path


def cifar_bytes(n, cifar100):
    """n records: labels r % 10 (CIFAR-100: coarse r % 20, fine r % 100), random pixels."""
    labels = [np.arange(n) % 20, np.arange(n) % 100] if cifar100 else [np.arange(n) % 10]
    pixels = rng.integers(0, 256, size=(n, 3072))
    return np.column_stack(labels + [pixels]).astype(np.uint8).tobytes()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def idx_set(prefix, n_train, n_test, classes):
    for split, n in (("train", n_train), ("t10k", n_test)):
        images = struct.pack(">IIII", 0x803, n, 28, 28) + rng.integers(
            0, 256, size=(n, 28, 28)).astype(np.uint8).tobytes()
        labels = struct.pack(">II", 0x801, n) + (np.arange(n) % classes).astype(np.uint8).tobytes()
        write(prefix + split + "-images-idx3-ubyte.gz", gzip.compress(images))
        write(prefix + split + "-labels-idx1-ubyte.gz", gzip.compress(labels))


def leaf_file(path, users, counts, text):
    data = {}
    for user, n in zip(users, counts):
        if text:
            xs = ["".join(ALL_LETTERS[int(c)] for c in rng.integers(0, 80, 80)) for _ in range(n)]
            ys = [ALL_LETTERS[int(c)] for c in rng.integers(0, 80, n)]
        else:
            xs = [[float(v) for v in rng.random(784).round(3)] for _ in range(n)]
            ys = [int(c) for c in rng.integers(0, 62, n)]
        data[user] = {"x": xs, "y": ys}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"users": users, "num_samples": counts, "hierarchies": [], "user_data": data}, f)


# The stand-in folders.
cifar10 = folder("cifar10")
for b in range(1, 6):
    write(os.path.join(cifar10, "data_batch_%d.bin" % b), cifar_bytes(40, False))
write(os.path.join(cifar10, "test_batch.bin"), cifar_bytes(30, False))
cifar100 = folder("cifar100")  # the files in its cifar-100-binary/ sub-folder
write(os.path.join(cifar100, "cifar-100-binary", "train.bin"), cifar_bytes(200, True))
write(os.path.join(cifar100, "cifar-100-binary", "test.bin"), cifar_bytes(50, True))
mnist = folder("mnist")
idx_set(os.path.join(mnist, "emnist-balanced-"), 235, 47, 47)
tensors = folder("tensors")
np.save(os.path.join(tensors, "train_x.npy"), rng.random((200, 3, 8, 8), dtype=np.float32))
np.save(os.path.join(tensors, "train_y.npy"), (np.arange(200) % 5).astype(np.int64))
np.save(os.path.join(tensors, "test_x.npy"), rng.random((40, 3, 8, 8)))  # float64
np.save(os.path.join(tensors, "test_y.npy"), (np.arange(40) % 5).astype(np.int32))
femnist = folder("femnist")
FEMNIST_COUNTS = [12, 5, 9, 7, 3, 10]  # 6 writers in two files, 3 devices: 2 each
leaf_file(os.path.join(femnist, "train", "a.json"), ["f0", "f1", "f2"], FEMNIST_COUNTS[:3], False)
leaf_file(os.path.join(femnist, "train", "b.json"), ["f3", "f4", "f5"], FEMNIST_COUNTS[3:], False)
leaf_file(os.path.join(femnist, "test", "a.json"), ["f0", "f3"], [4, 4], False)
shakespeare = folder("shakespeare")
leaf_file(os.path.join(shakespeare, "train", "s.json"), ["KING", "FOOL", "LEAR"], [6, 4, 5], True)
leaf_file(os.path.join(shakespeare, "test", "s.json"), ["KING", "FOOL"], [3, 2], True)

BASE = ["--nDevices=3", "--rounds=1", "--model=logistic", "--dataFraction=1", "--quiet",
        "--seed=3"]
GOOD = [
    ("cifar10", ["--dataset=cifar10", "--dataDir=" + cifar10], 200, 30, False),
    ("cifar10-cnn", ["--dataset=cifar10", "--dataDir=" + cifar10, "--model=cnn:4x4",
                     "--dataFraction=0.5"], 200, 30, False),
    ("cifar100-fine", ["--dataset=cifar100", "--dataDir=" + cifar100], 200, 50, False),
    ("cifar100-coarse", ["--dataset=cifar100", "--dataDir=" + cifar100, "--cifarLabels=coarse"],
     200, 50, False),
    ("mnist", ["--dataset=mnist", "--dataDir=" + mnist, "--dataFraction=0.5"], 235, 47, False),
    ("tensors", ["--dataset=tensors", "--dataDir=" + tensors], 200, 40, None),
    ("femnist-natural", ["--dataset=leaf", "--dataDir=" + femnist, "--partition=natural"],
     46, 8, None),
    ("femnist-iid", ["--dataset=leaf", "--dataDir=" + femnist, "--partition=iid"], 46, 8, None),
    ("shakespeare-natural", ["--dataset=leaf", "--dataDir=" + shakespeare,
                             "--partition=natural"], 15, 5, None),
]
CLASSES = {
    "cifar10": (10, "published"), "cifar10-cnn": (10, "published"),
    "cifar100-fine": (100, "published"), "cifar100-coarse": (20, "published"),
    "mnist": (47, "published"),  # EMNIST balanced, by its files' names
    "tensors": (5, "labels"),
    "femnist-natural": (62, "published"), "femnist-iid": (62, "published"),
    "shakespeare-natural": (80, "published"),
}
results = case_batch.run(FEDAVG, [BASE + args + ["--outDir=" + os.path.join(TMP, "out", name)]
                                  for name, args, _, _, _ in GOOD], timeout=120)
for (name, args, n_train, n_test, published), r in zip(GOOD, results):
    out = os.path.join(TMP, "out", name)
    print("check: %s -> exit 0, traces, run.json's data counts" % name)
    if r.returncode != 0:
        fail("%s: exit status %d: %s" % (name, r.returncode, r.stderr.strip()[-400:]))
        continue
    for trace in ("rounds.csv", "messages.csv", "energy.csv", "run.json"):
        if not os.path.isfile(os.path.join(out, trace)):
            fail("%s: no %s" % (name, trace))
    with open(os.path.join(out, "run.json")) as f:
        params = json.load(f)["parameters"]
    if params.get("dataTrainSamplesRead") != n_train or params.get("dataTestSamplesRead") != n_test:
        fail("%s: run.json reads %s/%s samples, expected %d/%d" % (
            name, params.get("dataTrainSamplesRead"), params.get("dataTestSamplesRead"),
            n_train, n_test))
    if published is not None and params.get("dataMatchesPublished") is not published:
        fail("%s: dataMatchesPublished %r" % (name, params.get("dataMatchesPublished")))
    # The model's outputs: a published set's classes (checked), another's labels' range.
    want_classes = CLASSES[name]
    got_classes = (params.get("dataClasses"), params.get("dataClassesFrom"))
    if got_classes != want_classes:
        fail("%s: run.json dataClasses, dataClassesFrom %r, expected %r"
             % (name, got_classes, want_classes))
    if name == "femnist-natural" and (params.get("dataUsers") != 6
                                      or params.get("trainSamples") != 46):
        fail("%s: dataUsers %r, trainSamples %r" % (name, params.get("dataUsers"),
                                                    params.get("trainSamples")))

# The other training scenarios take the same sets: cmfl and consensus on tensors, and
# graph-discovery on CIFAR-10, whose exchanged datapoints then weigh 3072 pixel bytes and a
# label byte each (Fashion-MNIST's weigh 785).
OTHERS = [
    ("cmfl", ["--dataset=tensors", "--dataDir=" + tensors, "--nDevices=20",
              "--activationFraction=0.5", "--rounds=1", "--model=logistic", "--quiet"]),
    ("consensus", ["--dataset=tensors", "--dataDir=" + tensors, "--nDevices=4", "--rounds=2",
                   "--warmupRounds=1", "--model=logistic", "--quiet"]),
    ("graph-discovery", ["--dataset=cifar10", "--dataDir=" + cifar10, "--nDevices=6",
                         "--rounds=1", "--model=logistic", "--dataFraction=1", "--quiet"]),
]
for program, args in OTHERS:
    out = os.path.join(TMP, "out", program)
    print("check: %s %s -> exit 0, traces" % (program, args[0]))
    r = case_batch.run(os.path.join(BIN, program), [args + ["--outDir=" + out]], timeout=120)[0]
    if r.returncode != 0:
        fail("%s: exit status %d: %s" % (program, r.returncode, r.stderr.strip()[-400:]))
        continue
    if not os.path.isfile(os.path.join(out, "rounds.csv")):
        fail("%s: no rounds.csv" % program)
    if program == "graph-discovery":
        with open(os.path.join(out, "messages.csv")) as f:
            rows = [line.split(",") for line in f.read().splitlines()[1:]]
        sizes = {int(row[4]) % 3073 for row in rows if row[1] == "gd_data"}
        if not rows or sizes != {0}:
            fail("graph-discovery: gd_data sizes are not multiples of 3073 bytes: %s" % sizes)

BAD_DIRS = {}


def bad_copy(name, source):
    path = os.path.join(TMP, "bad", name)
    shutil.copytree(source, path)
    BAD_DIRS[name] = path
    return path


d = bad_copy("cifar10-truncated", cifar10)
with open(os.path.join(d, "data_batch_2.bin"), "r+b") as f:
    f.truncate(40 * 3073 - 5)
d = bad_copy("cifar100-label", cifar100)
train = bytearray(cifar_bytes(200, True))
train[7 * 3074 + 1] = 100
write(os.path.join(d, "cifar-100-binary", "train.bin"), bytes(train))
d = bad_copy("mnist-two-sets", mnist)
idx_set(os.path.join(d, "emnist-digits-"), 20, 10, 10)
d = bad_copy("tensors-big-endian", tensors)
np.save(os.path.join(d, "train_x.npy"), rng.random((200, 3, 8, 8)).astype(">f4"))
# MNIST's own file names (10 classes) with one label byte of 255 (sample 5 of the training
# set): refused with its number, where the labels' range would have made 256 classes.
d = os.path.join(TMP, "bad", "mnist-label-255")
idx_set(os.path.join(d, ""), 40, 10, 10)
labels = bytearray(gzip.decompress(open(os.path.join(d, "train-labels-idx1-ubyte.gz"), "rb").read()))
labels[8 + 5] = 255
write(os.path.join(d, "train-labels-idx1-ubyte.gz"), gzip.compress(bytes(labels)))
BAD_DIRS["mnist-label-255"] = d
# A NaN feature: refused with its sample's number (it used to train, give NaN, and be blamed
# on the learning rate).
d = bad_copy("tensors-nan", tensors)
x = rng.random((200, 3, 8, 8), dtype=np.float32)
x[17, 1, 2, 3] = np.nan
np.save(os.path.join(d, "train_x.npy"), x)
d = bad_copy("leaf-num-samples", femnist)
with open(os.path.join(d, "train", "b.json")) as f:
    doc = json.load(f)
doc["num_samples"][1] += 1
with open(os.path.join(d, "train", "b.json"), "w") as f:
    json.dump(doc, f)

BAD = [
    ("cifar10-truncated", ["--dataset=cifar10", "--dataDir=" + BAD_DIRS["cifar10-truncated"]],
     "data_batch_2.bin: 122915 bytes is not a whole number of 3073-byte records"),
    ("cifar100-label", ["--dataset=cifar100", "--dataDir=" + BAD_DIRS["cifar100-label"]],
     "train.bin: record 7 has coarse label 7 and fine label 100"),
    ("mnist-two-sets", ["--dataset=mnist", "--dataDir=" + BAD_DIRS["mnist-two-sets"]],
     "2 files end in train-images-idx3-ubyte.gz"),
    ("mnist-label-255", ["--dataset=mnist", "--dataDir=" + BAD_DIRS["mnist-label-255"]],
     "train-labels-idx1-ubyte.gz: label 255 of sample 5 outside 0..9"),
    ("tensors-big-endian", ["--dataset=tensors", "--dataDir=" + BAD_DIRS["tensors-big-endian"]],
     "train_x.npy: dtype '>f4' not supported"),
    ("tensors-nan", ["--dataset=tensors", "--dataDir=" + BAD_DIRS["tensors-nan"]],
     "train_x.npy: sample 17 holds nan (value 83 of the sample"),
    ("tensors-missing", ["--dataset=tensors", "--dataDir=" + os.path.join(TMP, "nowhere")],
     "train_x.npy: missing or unreadable"),
    ("leaf-num-samples", ["--dataset=leaf", "--dataDir=" + BAD_DIRS["leaf-num-samples"]],
     "b.json: user \"f4\": num_samples 4 but 3 x and 3 y"),
    ("natural-cifar", ["--dataset=cifar10", "--dataDir=" + cifar10, "--partition=natural"],
     "--partition=natural splits LEAF's data by its users"),
    ("natural-few-users", ["--dataset=leaf", "--dataDir=" + femnist, "--partition=natural",
                           "--nDevices=7"], "hold 6 users for 7 devices"),
    ("cifarLabels-cifar10", ["--dataset=cifar10", "--dataDir=" + cifar10,
                             "--cifarLabels=coarse"], "cifarLabels"),
]
results = case_batch.run(FEDAVG, [BASE + args + ["--outDir=" + os.path.join(TMP, "badout", name)]
                                  for name, args, _ in BAD], timeout=60)
for (name, args, want), r in zip(BAD, results):
    print("check: %s -> refused in one line naming '%s', no output folder" % (name, want))
    lines = r.stderr.splitlines()
    if r.returncode == 0 or r.returncode > 125:
        fail("%s: exit status %d" % (name, r.returncode))
    if len(lines) != 1:
        fail("%s: %d stderr lines: %s" % (name, len(lines), r.stderr[:500]))
    elif want not in lines[0]:
        fail("%s: stderr does not say '%s': %s" % (name, want, lines[0]))
    else:
        print("  stderr: " + lines[0])
    if r.stdout:
        fail("%s: stdout is not empty" % name)
    if os.path.exists(os.path.join(TMP, "badout", name)):
        fail("%s: the output folder exists" % name)

# A set with no published class count says how many classes its labels make, in one line
# (without --quiet), besides run.json.
print("check: tensors without --quiet -> one line stating the classes of the labels' range")
out = os.path.join(TMP, "out", "tensors-note")
r = case_batch.run(FEDAVG, [[a for a in BASE if a != "--quiet"]
                            + ["--dataset=tensors", "--dataDir=" + tensors, "--outDir=" + out]],
                   timeout=120)[0]
notes = [line for line in r.stderr.splitlines() if "classes, the range of the labels" in line]
want = "5 classes, the range of the labels (0 to 4): this set has no published class count"
if r.returncode != 0 or len(notes) != 1 or want not in notes[0]:
    fail("tensors: expected one line with '%s' (exit %d): %s" % (want, r.returncode,
                                                                 r.stderr[-500:]))
else:
    print("  stderr: " + notes[0])

shutil.rmtree(TMP)
if failures:
    print("data-formats: %d failure(s)" % failures)
    sys.exit(1)
print("data-formats: %d formats trained by fedavg, %d other scenarios, %d bad inputs refused"
      % (len(GOOD), len(OTHERS), len(BAD)))
