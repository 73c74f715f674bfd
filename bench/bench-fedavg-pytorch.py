#!/usr/bin/python3
# d2dlearn benchmark helper: the plain PyTorch loop that bench-fedavg compares against.
# SPDX-License-Identifier: GPL-2.0-only
#
# The same FedAvg training as bench-fedavg's plain LibTorch loop, in Python with Debian's
# python3-torch (the same LibTorch 1.13 build and the same libblas.so.3): Fashion-MNIST read
# from its gzip files, a stratified fraction of it, an IID partition into --nDevices shards,
# per round every device loads the global model and trains --localEpochs epochs of SGD at
# batch 32 over its shard, one device after the other (the plain loop a user writes; torch
# held to one thread, as a second one adds nothing for a model this small), the weights are
# averaged by sample count and the global model is evaluated on the test set.
#
# One BLAS thread (OPENBLAS_NUM_THREADS=1 unless set) and --threads torch threads (1).
# Prints one line of key=value figures (wall times in seconds) that bench-fedavg parses:
#   pytorch total=... setup=... rounds=... accuracy=... samples_per_s=... blas=...
# Run by hand: /usr/bin/python3 bench/bench-fedavg-pytorch.py --nDevices=10 --rounds=5

import argparse
import gzip
import os
import sys
import time

START = time.monotonic()
# One BLAS thread, as d2dlearn's programs hold OpenBLAS to (torch.set_num_threads below does
# not reach OpenBLAS's own threads); read when the library loads, so set before the import.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

DATA = "/usr/share/datasets/fashion-mnist"


def read_idx(path, header):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=header)


def load(split, fraction, rng):
    prefix = "train" if split == "train" else "t10k"
    x = read_idx(f"{DATA}/{prefix}-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28)
    y = read_idx(f"{DATA}/{prefix}-labels-idx1-ubyte.gz", 8).astype(np.int64)
    if fraction < 1:
        keep = []
        for c in range(10):
            idx = np.flatnonzero(y == c)
            keep.append(rng.permutation(idx)[: int(round(fraction * len(idx)))])
        keep = np.sort(np.concatenate(keep))
        x, y = x[keep], y[keep]
    return torch.from_numpy(x.astype(np.float32) / 255.0), torch.from_numpy(y)


def blas_library():
    with open("/proc/self/maps") as maps:
        libs = {line.split()[-1] for line in maps if "blas" in line.split()[-1]}
    real = sorted({os.path.realpath(lib) for lib in libs})
    return ",".join(real) if real else "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--nDevices", type=int, default=10)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--localEpochs", type=int, default=1)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--learningRate", type=float, default=0.05)
    p.add_argument("--dataFraction", type=float, default=0.2)
    p.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    a = p.parse_args()
    for name, v in (("nDevices", a.nDevices), ("rounds", a.rounds), ("threads", a.threads)):
        if v < 1:
            sys.exit(f"bench-fedavg-pytorch: {name}: {v} is outside the accepted range [1, inf)")
    if not 0 < a.dataFraction <= 1:
        sys.exit(f"bench-fedavg-pytorch: dataFraction: {a.dataFraction} is outside (0, 1]")
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    x, y = load("train", a.dataFraction, rng)
    xt, yt = load("test", a.dataFraction, rng)
    shards = [torch.from_numpy(np.sort(s)) for s in np.array_split(rng.permutation(len(y)), a.nDevices)]

    def make_net():
        return torch.nn.Sequential(
            torch.nn.Flatten(),
            torch.nn.Linear(784, a.hidden),
            torch.nn.ReLU(),
            torch.nn.Linear(a.hidden, 10),
        )

    nets = [make_net() for _ in range(a.nDevices)]
    gens = [torch.Generator().manual_seed(i + 1) for i in range(a.nDevices)]
    flat = torch.nn.utils.parameters_to_vector
    glob = flat(nets[0].parameters()).detach().clone()
    setup = time.monotonic() - START
    samples = 0
    accuracy = 0.0
    for _ in range(a.rounds):
        trained = []
        for net, shard, gen in zip(nets, shards, gens):
            # A copy: vector_to_parameters makes the parameters views of the vector it gets.
            torch.nn.utils.vector_to_parameters(glob.clone(), net.parameters())
            opt = torch.optim.SGD(net.parameters(), lr=a.learningRate)
            n = len(shard)
            for _ in range(a.localEpochs):
                perm = torch.randperm(n, generator=gen)
                for s in range(0, n, 32):
                    sel = shard[perm[s : s + 32]]
                    opt.zero_grad()
                    loss = torch.nn.functional.cross_entropy(net(x[sel]), y[sel])
                    loss.backward()
                    opt.step()
                samples += n
            trained.append(flat(net.parameters()).detach())
        glob = sum(w * (len(s) / len(y)) for w, s in zip(trained, shards))
        with torch.no_grad():
            torch.nn.utils.vector_to_parameters(glob.clone(), nets[0].parameters())
            accuracy = (nets[0](xt).argmax(1) == yt).double().mean().item()
    total = time.monotonic() - START
    rounds = total - setup
    print(
        f"pytorch total={total:.4f} setup={setup:.4f} rounds={rounds:.4f} "
        f"accuracy={accuracy:.4f} samples_per_s={samples / rounds:.0f} blas={blas_library()}"
    )


if __name__ == "__main__":
    main()
