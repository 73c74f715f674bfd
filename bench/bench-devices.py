#!/usr/bin/python3
"""d2dlearn benchmark: devices x rounds, wall time and peak memory.

SPDX-License-Identifier: GPL-2.0-only

Run by hand; prints its figures. Each configuration runs the `fedavg` scenario in its own
process (so that its peak resident memory is its own, from the kernel's rusage of that child)
and the table gives, per number of devices:

  fedavg          FedAvg with client sampling (--clientFraction, default 0.01), --rounds
                  (default 5), the 784-128-10 MLP (407 KB) on all of Fashion-MNIST;
  decentralized   decentralized FL on a range graph (--graph=range), one round, devices
                  uniform at the density of 200 devices in a 500 m square with a 50 m range
                  (about 6 neighbours each), the MLP by default (--decModel), the mean
                  of 16 devices evaluated (--evaluateDevices=false); --extra=
                  --deferTraining=false gives the eager rounds;

Above 60,000 devices (Fashion-MNIST's training samples: each device needs one) the runs use
the 2-D Gaussian mixture with twice as many samples as devices (column data: gauss), so
the models are a few hundred parameters: those rows measure the simulator's per-device and
per-message costs, not model storage.

wall time, peak RSS, and peak RSS per device. For decentralized runs it also prints the
memory bound decentralized learning must meet: 1.2 x devices x parameters x 4 bytes + the data set.
The load of the machine (1-minute load average) is printed with each row: other processes
slow the wall times, not the memory.

  bench/bench-devices.py --sizes=1000,10000,100000
  bench/bench-devices.py --sizes=10000 --only=fedavg --clientFraction=1 --rounds=1
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
#: The two configurations, by hand (not read from the registry's export,
#: analysis/d2dlearn_analysis/protocols.py): a choice of two of the fedavg program's
#: protocols, each with its own flags below (fedavg's client sampling; decentralized's range
#: graph at a fixed density and its memory bound), which no field of the export gives.
ALGORITHMS = ["fedavg", "decentralized"]


def run(argv):
    """Run argv; return (exit code, wall seconds, peak RSS in bytes, stderr tail)."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        err.seek(0)
        tail = err.read().decode(errors="replace").strip().splitlines()[-1:]
    code = os.waitstatus_to_exitcode(status)
    return code, wall, usage.ru_maxrss * 1024, (tail[0] if tail else "")


def parameters(model, inputs=784, classes=10):
    """Parameters of mlp:WxW... or logistic on Fashion-MNIST (as D2dModelSpec counts them)."""
    if model == "logistic":
        return (inputs + 1) * classes
    widths = [int(w) for w in (model.split(":")[1] if ":" in model else "128").split("x")]
    count, n = 0, inputs
    for w in widths:
        count += (n + 1) * w
        n = w
    return count + (n + 1) * classes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin", "fedavg"))
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--only", choices=ALGORITHMS, default=None)
    ap.add_argument("--clientFraction", type=float, default=0.01)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--model", default="mlp")
    ap.add_argument("--decModel", default="mlp")
    ap.add_argument("--decRounds", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--extra", default="", help="more scenario flags, space separated")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    dataset = 70000 * 784 * 4  # Fashion-MNIST's 70,000 images as float32
    print("devices  algorithm       model     data    rounds  wall_s  peak_MB  KB/device  load  note")
    for algorithm in ALGORITHMS:
        if args.only and algorithm != args.only:
            continue
        for n in sizes:
            with tempfile.TemporaryDirectory(prefix="d2d-bench-devices-") as out:
                argv = [args.bin, f"--nDevices={n}", "--dataFraction=1", "--quiet",
                        f"--threads={args.threads}", f"--outDir={out}"]
                if algorithm == "fedavg":
                    model, rounds = args.model, args.rounds
                    argv += [f"--clientFraction={args.clientFraction}", f"--rounds={rounds}",
                             f"--model={model}"]
                else:
                    model, rounds = args.decModel, args.decRounds
                    side = 500.0 * math.sqrt(n / 200.0)
                    argv += ["--algorithm=decentralized", "--graph=range", "--rangeM=50",
                             f"--areaSideM={side:.0f}", f"--rounds={rounds}", f"--model={model}",
                             "--evaluateDevices=false"]
                data = "fmnist"
                if n > 60000:
                    # Every device needs a sample: beyond Fashion-MNIST's 60,000, the
                    # Gaussian mixture (2-D samples, so a model of a few hundred parameters).
                    data = "gauss"
                    argv += ["--dataset=gaussian-mixture", f"--syntheticSamples={2 * n}"]
                argv += [a for a in args.extra.split() if a]
                code, wall, peak, tail = run(argv)
                load = os.getloadavg()[0]
                note = "" if code == 0 else f"exit {code}: {tail}"
                if algorithm == "decentralized" and code == 0 and data == "fmnist":
                    bound = 1.2 * n * parameters(model) * 4 + dataset
                    note = f"bound 1.2 x N x P x 4 + data = {bound / 1e6:.0f} MB"
                print(f"{n:7d}  {algorithm:14s}  {model:8s}  {data:6s}  {rounds:6d}  {wall:6.1f}  "
                      f"{peak / 1e6:7.0f}  {peak / 1e3 / n:9.1f}  {load:4.1f}  {note}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
