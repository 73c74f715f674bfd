#!/usr/bin/python3
"""Convert FedScale's device-capacity trace into a d2dlearn device-profile file (--deviceProfiles).

    analysis/fedscale_profiles.py CAPACITY --devices N --out FILE [--median-flops F] [--seed S]

FedScale (Lai, Dai, Singapuram, Liu, Zhu, Madhyastha, Chowdhury, "FedScale: Benchmarking
Model and System Performance of Federated Learning at Scale", ICML 2022) ships
`client_device_capacity` (benchmark/dataset/data/device_info/, fetched by its download.sh;
Apache-2.0): a pickled dictionary, client id -> {'computation': milliseconds per training
sample, 'communication': kbit/s}, measured on real phones (its README:
benchmark/dataset/data/device_info/README.md). FedScale's simulator takes a client's
compute time as 3 x batch x steps x computation / 1000 s: the time per sample is the
inverse of the speed. This script draws N clients without replacement (Python's
random.Random(S), clients in ascending id order) and writes, for device i, flops_per_second
= F x median(computation) / computation_i: the clients' spread of speeds, with median F
FLOP/s (d2dlearn's default D2dComputeModel speed, 1e10, unless --median-flops). The
communication column is not converted: d2dlearn's links come from its channel model.

The pickle is read with an unpickler that builds only dictionaries, lists, numbers and
strings (d2dlearn_analysis.pickle_data): a file that asks for anything else (a class, a
function) is refused, so a hostile file runs no code. Errors are one line, exit status 2,
and FILE is written atomically (no half-written profile).
"""

import math
import random
import sys

from d2dlearn_analysis.atomic import atomic_open
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report
from d2dlearn_analysis.pickle_data import read_pickle


def read_capacity(path):
    """{client id: computation ms per sample} of FedScale's trace at path."""
    data = read_pickle(path, "a device-capacity trace")
    if not isinstance(data, dict) or not data:
        raise AnalysisError("%s: not a dictionary of clients (FedScale's client_device_capacity)"
                            % path)
    out = {}
    for client, entry in data.items():
        value = entry.get("computation") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value) or value <= 0:
            raise AnalysisError("%s: client %r has no positive 'computation' (ms per sample)"
                                % (path, client))
        out[client] = float(value)
    return out


def profiles(capacity, devices, median_flops, seed):
    """[flops_per_second] of N clients drawn without replacement."""
    if devices > len(capacity):
        raise AnalysisError("--devices=%d: the trace has %d clients (accepted: 1 to %d)"
                            % (devices, len(capacity), len(capacity)))
    clients = sorted(capacity, key=lambda c: (str(type(c)), c))
    chosen = random.Random(seed).sample(clients, devices)
    ms = [capacity[c] for c in chosen]
    ordered = sorted(ms)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return [median_flops * median / x for x in ms]


def main(argv):
    p = ArgumentParser(prog="fedscale_profiles.py", description=__doc__)
    p.add_argument("capacity", help="FedScale's client_device_capacity file (a pickle).")
    p.add_argument("--devices", type=int, required=True,
                   help="Devices of the run (--nDevices): clients drawn, 1 or more.")
    p.add_argument("--out", required=True, help="The device-profile CSV file to write.")
    p.add_argument("--median-flops", type=float, default=1e10,
                   help="The median speed, FLOP/s (default 1e10, D2dComputeModel's).")
    p.add_argument("--seed", type=int, default=1, help="Which clients are drawn (default 1).")
    args = p.parse_args(argv)
    try:
        if args.devices < 1:
            raise AnalysisError("--devices=%d is out of range (accepted: 1 or more)"
                                % args.devices)
        if not (math.isfinite(args.median_flops) and 1 <= args.median_flops <= 1e18):
            raise AnalysisError("--median-flops=%r is out of range (accepted: 1 to 1e18)"
                                % args.median_flops)
        speeds = profiles(read_capacity(args.capacity), args.devices, args.median_flops,
                          args.seed)
        with atomic_open(args.out, newline="") as fh:
            fh.write("device,flops_per_second\n")
            for i, v in enumerate(speeds):
                fh.write("%d,%r\n" % (i, v))
    except AnalysisError as e:
        return report(p.prog, e)
    except OSError as e:
        return report(p.prog, "--out=%s: %s" % (args.out, e.strerror))
    print("fedscale_profiles.py: %d devices, speeds %.3g to %.3g FLOP/s (median %.3g) -> %s"
          % (len(speeds), min(speeds), max(speeds), args.median_flops, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
