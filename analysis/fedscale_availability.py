#!/usr/bin/python3
"""Convert FedScale's availability trace into a d2dlearn availability file (--availabilityFile).

    analysis/fedscale_availability.py TRACE --devices N --out FILE [--duration S]
                                      [--time-scale X] [--seed SEED]

FedScale (Lai, Dai, Singapuram, Liu, Zhu, Madhyastha, Chowdhury, "FedScale: Benchmarking
Model and System Performance of Federated Learning at Scale", ICML 2022) ships
`client_behave_trace` (benchmark/dataset/data/device_info/, fetched by its download.sh;
Apache-2.0; its format: benchmark/dataset/data/device_info/README.md, "Device Trace File
Formats"): a pickled dictionary, client id -> {'duration': int, 'inactive': [int],
'finish_time': int, 'active': [int], 'model': str}, times in seconds. FedScale's simulator
(fedscale/cloud/internal/client_metadata.py, ClientMetadata.is_active) reads a client's
entry as periodic: at time t it takes norm_time = t % finish_time and tests
active[i] <= norm_time <= inactive[i] for an index i that it advances past each inactive[i]
as time goes on (one step per call). This script takes the set that walk traces: the client
is active at t when t % finish_time lies in some [active[i], inactive[i]) (half-open: the
simulator here needs start < end, and an end point is an instant), the part of an interval
beyond finish_time never being reached. Only 'active', 'inactive' and 'finish_time' are
read.

The script draws N clients without replacement (Python's random.Random(SEED), default 1,
among the eligible clients in ascending id order) and writes, for device i, client i's
intervals unrolled over [0, S) (S = --duration, 86400 s by default): the period repeated
every finish_time and clipped at S, each time multiplied by X (--time-scale, 1 by default;
0.01 plays a day in 864 s of simulated time), intervals that touch or overlap merged, rows
by device then start. Times are written exactly: integers as integers, other numbers as
Python's repr (the shortest text that reads back as the same double). A device whose
client is active over the whole of [0, S) gets no row, which --availabilityFile reads as
"always available". A client never active in [0, S) cannot be written (no row means
always, and an interval cannot be empty), so it is not eligible: the draw is among the
clients active at some moment of [0, S), and --devices above their number is refused. The
file says nothing past S x X: there a device with rows is away and one without is there,
so choose S x X at least as long as the run.

The pickle is read with an unpickler that builds only dictionaries, lists, numbers and
strings (d2dlearn_analysis.pickle_data): a file that asks for anything else (a class, a
function) is refused, so a hostile file runs no code. A malformed trace (not a dictionary
of clients; a client without 'active', 'inactive' or a positive 'finish_time'; lists of
other lengths, negative, not numbers or not ascending, active[0] <= inactive[0] <=
active[1] <= ...) is refused. Errors are one line, exit status 2, and FILE is written
atomically (nothing is written on an error).
"""

import math
import random
import sys

from d2dlearn_analysis.atomic import atomic_open
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report
from d2dlearn_analysis.pickle_data import read_pickle

MAX_S = 1e9  # fedavg's largest time in --availabilityFile
MAX_ROWS = 10_000_000  # a few hundred MB of CSV


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def read_trace(path):
    """{client id: (finish_time, [(start, end)] within [0, finish_time), non-empty,
    ascending)} of FedScale's availability trace at path."""
    data = read_pickle(path, "a client availability trace")
    if not isinstance(data, dict) or not data:
        raise AnalysisError("%s: not a dictionary of clients (FedScale's client_behave_trace)"
                            % path)
    out = {}
    for client, entry in data.items():
        def bad(text):
            return AnalysisError("%s: client %r: %s" % (path, client, text))
        if not isinstance(entry, dict):
            raise bad("not a dictionary ('active', 'inactive', 'finish_time')")
        for key in ("active", "inactive", "finish_time"):
            if key not in entry:
                raise bad("no '%s'" % key)
        finish = entry["finish_time"]
        if not is_number(finish) or finish <= 0:
            raise bad("'finish_time' must be a positive number of seconds, got %r" % (finish,))
        active, inactive = entry["active"], entry["inactive"]
        for key, values in (("active", active), ("inactive", inactive)):
            if not isinstance(values, (list, tuple)):
                raise bad("'%s' must be a list of times, got %s" % (key, type(values).__name__))
            for v in values:
                if not is_number(v) or v < 0:
                    raise bad("'%s' holds %r (accepted: numbers of seconds >= 0)" % (key, v))
        if len(active) != len(inactive):
            raise bad("'active' and 'inactive' differ in length (%d and %d)"
                      % (len(active), len(inactive)))
        times = [t for pair in zip(active, inactive) for t in pair]
        for k in range(1, len(times)):
            if times[k] < times[k - 1]:
                raise bad("its times are not ascending (active[0] <= inactive[0] <= "
                          "active[1] <= ...): %s[%d] = %r after %s[%d] = %r"
                          % (("active", "inactive")[k % 2], k // 2, times[k],
                             ("active", "inactive")[(k - 1) % 2], (k - 1) // 2, times[k - 1]))
        period = [(a, min(b, finish)) for a, b in zip(active, inactive) if a < min(b, finish)]
        out[client] = (finish, period)
    return out


def unrolled(finish, period, duration):
    """The client's intervals over [0, duration), trace seconds, ascending (touching at
    the period's seam)."""
    k = 0
    while k * finish < duration:
        offset = k * finish
        for a, b in period:
            if offset + a >= duration:
                return
            yield offset + a, min(offset + b, duration)
        k += 1


def scaler(x):
    """t -> t x x, integers staying integers when x is a whole number."""
    if x == 1:
        return lambda t: t
    if x.is_integer():
        n = int(x)
        return lambda t: t * n
    return lambda t: t * x


def intervals(finish, period, duration, scale):
    """The client's intervals over [0, duration), scaled, merged where they touch or overlap."""
    current = None
    for start, end in unrolled(finish, period, duration):
        start, end = scale(start), scale(end)
        if current is not None and start <= current[1]:
            current[1] = max(current[1], end)
            continue
        if current is not None:
            yield tuple(current)
        current = [start, end]
    if current is not None:
        yield tuple(current)


def number(v):
    """v exactly: an integer as one, any other number as Python's repr."""
    if isinstance(v, int) or v.is_integer():
        return "%d" % v
    return repr(v)


def draw(trace, devices, duration, seed):
    """The clients of devices 0..N-1: drawn without replacement among those active at some
    moment of [0, duration)."""
    eligible = sorted((c for c, (_, period) in trace.items()
                       if period and period[0][0] < duration),
                      key=lambda c: (str(type(c)), c))
    if devices > len(eligible):
        raise AnalysisError("--devices=%d: the trace has %d clients active in [0, %s s) "
                            "(of %d; accepted: 1 to %d)"
                            % (devices, len(eligible), number(duration), len(trace),
                               len(eligible)))
    return random.Random(seed).sample(eligible, devices)


def write(fh, trace, chosen, duration, scale):
    """Write the rows; return (rows, devices always available)."""
    end = scale(duration)
    rows = always = 0
    fh.write("device,start_s,end_s\n")
    for device, client in enumerate(chosen):
        finish, period = trace[client]
        listed = list(intervals(finish, period, duration, scale)) \
            if len(period) * math.ceil(duration / finish) <= MAX_ROWS else None
        if listed is None or rows + len(listed) > MAX_ROWS:
            raise AnalysisError("more than %d intervals: choose a shorter --duration or fewer "
                                "--devices" % MAX_ROWS)
        if not listed:  # shorter than a double's spacing once scaled
            raise AnalysisError("client %r: its intervals vanish at --time-scale=%r"
                                % (client, scale(1.0)))
        if listed == [(0, end)]:
            always += 1
            continue
        for start, stop in listed:
            fh.write("%d,%s,%s\n" % (device, number(start), number(stop)))
        rows += len(listed)
    return rows, always


def main(argv):
    p = ArgumentParser(prog="fedscale_availability.py", description=__doc__)
    p.add_argument("trace", help="FedScale's client_behave_trace file (a pickle).")
    p.add_argument("--devices", type=int, required=True,
                   help="Devices of the run (--nDevices): clients drawn, 1 or more.")
    p.add_argument("--out", required=True, help="The availability CSV file to write.")
    p.add_argument("--duration", type=float, default=86400.0,
                   help="Trace seconds unrolled from 0 (default 86400, a day).")
    p.add_argument("--time-scale", type=float, default=1.0,
                   help="Simulated seconds per trace second (default 1).")
    p.add_argument("--seed", type=int, default=1, help="Which clients are drawn (default 1).")
    args = p.parse_args(argv)
    try:
        if args.devices < 1:
            raise AnalysisError("--devices=%d is out of range (accepted: 1 or more)"
                                % args.devices)
        if not (math.isfinite(args.duration) and args.duration > 0):
            raise AnalysisError("--duration=%r is out of range (accepted: > 0 s)"
                                % args.duration)
        if not (math.isfinite(args.time_scale) and args.time_scale > 0):
            raise AnalysisError("--time-scale=%r is out of range (accepted: > 0)"
                                % args.time_scale)
        duration = int(args.duration) if args.duration.is_integer() else args.duration
        scale = scaler(args.time_scale)
        if not scale(duration) <= MAX_S:
            raise AnalysisError("--duration x --time-scale = %s s is beyond fedavg's %d s"
                                % (number(scale(duration)), MAX_S))
        trace = read_trace(args.trace)
        chosen = draw(trace, args.devices, duration, args.seed)
        with atomic_open(args.out, newline="") as fh:
            rows, always = write(fh, trace, chosen, duration, scale)
    except AnalysisError as e:
        return report(p.prog, e)
    except OSError as e:
        return report(p.prog, "--out=%s: %s" % (args.out, e.strerror))
    print("fedscale_availability.py: %d devices (%d always available), %d intervals over "
          "[0, %s) s of simulated time -> %s"
          % (len(chosen), always, rows, number(scale(duration)), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
