#!/usr/bin/python3
# d2dlearn benchmark helper: one training step of a TorchScript model in plain PyTorch.
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python half of a comparison with d2dlearn's --model=torchscript:PATH: times the step a
# device takes, SGD on cross-entropy over one batch (default: ResNet-20, batch 32 of 3x32x32,
# the model of examples/models/resnet20.py at seed 0), in Debian's python3-torch (the same
# LibTorch 1.13 build and libblas.so.3 d2dlearn links), at --threads intra-op threads.
# A step is zero_grad, forward, cross_entropy, backward, optimizer step, timed alone with
# time.perf_counter; --warmup steps first (allocator, first-call costs), then the median of
# --steps steps is the steady state. The data is a fixed random stand-in batch (the step's
# cost does not depend on the values).
#
# --model PATH times that TorchScript file (the one d2dlearn loads, e.g. from
# examples/models/*.py); without it, ResNet-20 is built and scripted here (seed 0, the same
# module examples/models/resnet20.py saves). --eager times the unscripted module instead.
# One BLAS thread (OPENBLAS_NUM_THREADS=1 unless set, as d2dlearn's programs hold OpenBLAS to).
# --no-optimize runs TorchScript's graph executor unoptimised, as d2dlearn does (Python's
# default optimises: profiling runs, then a specialised plan); cpu_median_ms is the median of
# the steps' process CPU times (time.process_time), beside the wall times.
#
# Prints one JSON line (wall times in ms) for a C++ benchmark to parse:
#   {"bench": "torch-step", "model": ..., "threads": 1, "batch": 32, "median_ms": ..., ...}
# Run by hand: /usr/bin/python3 bench/torch-step.py --threads=1

import argparse
import json
import os
import statistics
import sys
import time

sys.dont_write_bytecode = True
# Read when the library loads, so set before the import (torch.set_num_threads does not reach
# OpenBLAS's own threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "examples", "models")


def blas_library():
    with open("/proc/self/maps") as maps:
        libs = {line.split()[-1] for line in maps if "blas" in line.split()[-1]}
    real = sorted({os.path.realpath(lib) for lib in libs})
    return ",".join(real) if real else "unknown"


def at_least(low, kind=int):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a {kind.__name__} "
                                             f"(accepted range [{low}, inf))")
        if v < low:
            raise argparse.ArgumentTypeError(f"{v} is outside the accepted range [{low}, inf)")
        return v
    return parse


def load_model(a):
    """(module, name, input_shape, classes)."""
    if a.model:
        m = torch.jit.load(a.model)
        return m, os.path.basename(a.model), list(m.input_shape), int(m.num_classes)
    sys.path.insert(0, MODELS)
    import resnet20
    eager = resnet20.build(seed=0)
    m = eager if a.eager else torch.jit.script(eager)
    return m, "resnet20", list(resnet20.INPUT_SHAPE), eager.num_classes


COUNTED = {"aten::conv2d", "aten::convolution", "aten::addmm", "aten::mm", "aten::bmm",
           "aten::matmul"}


def forward_flops(model, sample):
    """FLOPs of one sample's forward pass as LibTorch's profiler attributes them to the ops
    d2dlearn's C++ side counts (2 x multiply-adds; examples/models/README.md), in eval mode
    under no_grad (no BatchNorm statistic moves); the training flag is restored."""
    was = model.training
    model.eval()
    with torch.no_grad(), torch.autograd.profiler.profile(with_flops=True) as prof:
        model(sample)
    model.train(was)
    return sum(e.flops or 0 for e in prof.function_events if e.name in COUNTED)


def main(argv=None):
    p = argparse.ArgumentParser(prog="torch-step.py",
                                description="One training step of a TorchScript model in "
                                            "python3-torch: steady-state median (JSON line)")
    p.add_argument("--model", help="a TorchScript file (default: ResNet-20 built here)")
    p.add_argument("--eager", action="store_true", help="time the unscripted ResNet-20")
    p.add_argument("--threads", type=at_least(1), default=1, help="torch intra-op threads")
    p.add_argument("--batch", type=at_least(1), default=32)
    p.add_argument("--warmup", type=at_least(0), default=5, help="steps not timed")
    p.add_argument("--steps", type=at_least(1), default=20, help="timed steps")
    p.add_argument("--lr", type=at_least(0.0, float), default=0.1, help="SGD learning rate")
    p.add_argument("--no-optimize", action="store_true",
                   help="TorchScript's graph executor unoptimised (as d2dlearn runs it)")
    a = p.parse_args(argv)
    if a.model and not os.path.isfile(a.model):
        p.exit(2, f"torch-step.py: --model: {a.model} is not a file\n")
    torch.set_num_threads(a.threads)
    if a.no_optimize:
        torch._C._set_graph_executor_optimize(False)
    torch.manual_seed(0)
    if a.model and a.eager:
        p.exit(2, "torch-step.py: --eager: only for the built-in ResNet-20, not with --model\n")
    model, name, shape, classes = load_model(a)
    if len(shape) == 1:  # a text model: character indices in [0, classes)
        x = torch.randint(0, classes, [a.batch] + shape).float()
    else:
        x = torch.randn([a.batch] + shape)
    flops_per_sample = forward_flops(model, x[:1])
    y = torch.randint(0, classes, (a.batch,))
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    times = []
    cpu = []
    loss = None
    for i in range(a.warmup + a.steps):
        t0 = time.perf_counter()
        c0 = time.process_time()
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        dt = time.perf_counter() - t0
        dc = time.process_time() - c0
        if i >= a.warmup:
            times.append(dt * 1e3)
            cpu.append(dc * 1e3)
    median = statistics.median(times)
    row = {
        "bench": "torch-step", "model": name, "mode": "eager" if a.eager else "script",
        "threads": a.threads, "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
        "batch": a.batch, "input_shape": shape, "classes": classes,
        "parameters": sum(q.numel() for q in model.parameters()),
        "warmup": a.warmup, "steps": a.steps,
        "median_ms": round(median, 4), "min_ms": round(min(times), 4),
        "max_ms": round(max(times), 4),
        "cpu_median_ms": round(statistics.median(cpu), 4),
        "executor_optimized": torch._C._get_graph_executor_optimize(), "samples_per_s": round(a.batch / median * 1e3, 2),
        "forward_flops_per_sample": flops_per_sample,
        "loss": round(loss.item(), 6),
        "torch": torch.__version__, "blas": blas_library(),
    }
    print(json.dumps(row, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
