#!/usr/bin/python3
"""Round time against the number of devices that upload: fedavg and a fan-in protocol
(cmfl's BrainTorrent) over the D2D channel with a finite spectrum (the learning scenarios'
default, a shared band of K sub-channels), over the channel's unlimited band (the literal
reading, every link the whole band at once) and over ns-3's 802.11 (the manual's "How to
choose a channel"; analysis/plot_round_times.py draws the same numbers).

Usage:
    /usr/bin/python3 analysis/round_time_tables.py round-time-vs-devices RUN_DIR [RUN_DIR ...]
                                                   [--out FILE]

Each RUN_DIR is an --outDir of build/bin/fedavg or build/bin/cmfl: run.json (parameters
algorithm, backend, nDevices, subChannels, d2sSubChannelsInForce) and rounds.csv. Every
number is recomputed from rounds.csv (not from run.json's summary), over the rows of node -1
of the rounds from 1 on (BrainTorrent's round 0 is every device's initial training, not a
round of the protocol):

  round time        the metric round_time_s (the simulated time from a round's start to its
                    end), its mean over the rounds of a run that ended before the
                    protocol's round deadline (run.json roundDeadline_s, 0: none), s
  at the deadline   the rounds whose round_time_s reached that deadline, left out of the
                    round time: such a round ended because the deadline did, not because
                    its uploads were in (over Wi-Fi: a device whose global model never
                    arrived, so it never uploads and the server waits for it), and its time
                    is the deadline's whatever the number of devices
  models per round  the mean of the metric participants (fedavg: the clients that train and
                    upload) or models_received (BrainTorrent: the models the round's
                    aggregator merged) over the rounds of the round time: how many uploads
                    a round carried

A run without a round_time_s row of a round >= 1 is an error (its round time is unknown); a
run whose every round reached the deadline has no round time (its point averages the
others; empty cells if none has one).

The protocol is "fedavg --algorithm=A" (a run with parameters.clientFraction) or
"cmfl --algorithm=A" (a run with parameters.committeeFraction). The setting is the backend
(backend_tables.backend_label: "wifi", with its rate control and the ns-3 attributes set)
and, for the channel, the spectrum the uploads used: the server's cell (run.json
d2sSubChannelsInForce) where the protocol has a server, else the D2D band (subChannels):
"channel, K=4 sub-channels" or "channel, unlimited band (K=0)". A point is (protocol,
setting, devices); its runs (seeds) each weigh the same: the mean of their round times, the
sample standard deviation over them (empty with one run), the least and the largest.

Columns: protocol, setting, devices, runs, rounds (the rounds of the round time, all runs
together), rounds at the deadline (all runs together), round time s, round time sd s, round
time min s, round time max s (rounded to the microsecond, then 4 significant digits: the
channel's seeds differ by nanoseconds of propagation delay), models per round (1 decimal;
empty if rounds.csv records neither metric). Rows in the order protocol
(fedavg's first), setting (the channel's finite spectra by K, its unlimited band, then
Wi-Fi), devices.

The runs of one protocol and setting must have been given the same flags
(parameters.commandLine) but for --nDevices and the flags that do not distinguish runs
(d2dlearn_analysis/run_flags.py: the seed, --RngRun and how the run is executed or traced:
outDir, quiet, threads, traces, ...). Bad input (a missing folder or file, an
unparsable run.json, a run of another program, a missing column or non-numeric value, no
round time, runs that differ otherwise) gives a one-line error on stderr and exit code 2,
and nothing is written.
"""

import math
import os
import statistics
import sys

from backend_tables import backend_label, fmt, mean, read_rows, same_flags
from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.reader import read_run_json
from d2dlearn_analysis.run_flags import distinguishing_flags
from d2dlearn_analysis.run_json import table_main

#: the rounds.csv metric that counts a round's uploads, per program
MODELS = {"fedavg": "participants", "cmfl": "models_received"}
COLUMNS = ["protocol", "setting", "devices", "runs", "rounds", "rounds at the deadline",
           "round time s", "round time sd s", "round time min s", "round time max s",
           "models per round"]


def spectrum_k(params):
    """The K of the band the uploads use: the server's cell in force where there is one,
    else the D2D band's --subChannels (0: unlimited)."""
    for key in ("d2sSubChannelsInForce", "subChannels"):
        if key in params:
            try:
                return int(params[key])
            except (TypeError, ValueError):
                raise AnalysisError("parameters.%s is %r" % (key, params[key]))
    return 0  # a run from before the finite spectrum: the unlimited band


def setting_of(params):
    backend = backend_label(params)
    if params.get("backend") != "channel":
        return backend
    k = spectrum_k(params)
    band = "unlimited band (K=0)" if k == 0 else "K=%d sub-channels" % k
    return "%s, %s" % (backend, band)


def setting_order(setting):
    """Channel with a finite spectrum (by K), the channel's unlimited band, then the rest
    (Wi-Fi) by name."""
    if setting.startswith("channel") and "unlimited" not in setting:
        digits = setting.split("K=", 1)[-1].split(" ", 1)[0]
        return (0, int(digits) if digits.isdigit() else 0, setting)
    if setting.startswith("channel"):
        return (1, 0, setting)
    return (2, 0, setting)


def protocol_order(protocol):
    """fedavg's protocols first (the server's fan-in), then cmfl's, each by name."""
    return (not protocol.startswith("fedavg "), protocol)


def load_run(run_dir):
    """The round times and uploads of one run folder (see the module's docstring)."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "backend" not in params or "nDevices" not in params \
            or "algorithm" not in params:
        raise AnalysisError("%s: not a run of fedavg or cmfl (no parameters.backend, nDevices "
                         "and algorithm)" % path)
    if "committeeFraction" in params:
        program = "cmfl"
    elif "clientFraction" in params:
        program = "fedavg"
    else:
        raise AnalysisError("%s: not a run of fedavg or cmfl" % path)
    try:
        n = int(params["nDevices"])
    except (TypeError, ValueError):
        raise AnalysisError("%s: parameters.nDevices is %r" % (path, params["nDevices"]))
    try:
        deadline = float(params.get("roundDeadline_s") or 0)
    except (TypeError, ValueError):
        raise AnalysisError("%s: parameters.roundDeadline_s is %r"
                         % (path, params["roundDeadline_s"]))
    rows = [r for r in read_rows(run_dir, "rounds.csv", ["round", "node", "value"],
                                 ["metric"])
            if r["node"] == -1 and r["round"] >= 1]
    times = {r["round"]: r["value"] for r in rows if r["metric"] == "round_time_s"}
    if not times:
        raise AnalysisError("%s: no round_time_s row of node -1 from round 1 on"
                         % os.path.join(run_dir, "rounds.csv"))
    late = {k for k, t in times.items() if deadline > 0 and t >= deadline - 1e-9}
    kept = [t for k, t in times.items() if k not in late]
    models = [r["value"] for r in rows
              if r["metric"] == MODELS[program] and r["round"] in times
              and r["round"] not in late]
    return {"dir": run_dir, "path": path,
            "protocol": "%s --algorithm=%s" % (program, params["algorithm"]),
            "setting": setting_of(params), "devices": n,
            "flags": distinguishing_flags(params, {"nDevices"}),
            "rounds": len(kept), "late": len(late), "round_time": mean(kept),
            "models": mean(models)}


def points(runs):
    """[{protocol, setting, devices, runs: [run...], rounds, late, round_time (mean over
    the runs that have one), sd, min, max, models}] in the table's order."""
    same_flags(runs, lambda run: (run["protocol"], run["setting"]))
    groups = {}
    for run in runs:
        groups.setdefault((run["protocol"], run["setting"], run["devices"]), []).append(run)
    out = []
    for (protocol, setting, devices), group in groups.items():
        times = [r["round_time"] for r in group if not math.isnan(r["round_time"])]
        out.append({"protocol": protocol, "setting": setting, "devices": devices,
                    "runs": group, "rounds": sum(r["rounds"] for r in group),
                    "late": sum(r["late"] for r in group),
                    "round_time": statistics.fmean(times) if times else math.nan,
                    "sd": statistics.stdev(times) if len(times) > 1 else math.nan,
                    "min": min(times) if times else math.nan,
                    "max": max(times) if times else math.nan,
                    "models": mean(r["models"] for r in group)})
    out.sort(key=lambda p: (protocol_order(p["protocol"]), setting_order(p["setting"]),
                            p["devices"]))
    return out


def seconds(value):
    """A time rounded to the microsecond, 4 significant digits ("" for NaN)."""
    return fmt(value if math.isnan(value) else round(value, 6) + 0.0, "%.4g")


def round_time_vs_devices_table(runs):
    rows = []
    for p in points(runs):
        rows.append({"protocol": p["protocol"], "setting": p["setting"],
                     "devices": p["devices"], "runs": len(p["runs"]), "rounds": p["rounds"],
                     "rounds at the deadline": p["late"],
                     "round time s": seconds(p["round_time"]),
                     "round time sd s": seconds(p["sd"]),
                     "round time min s": seconds(p["min"]),
                     "round time max s": seconds(p["max"]),
                     "models per round": fmt(p["models"], "%.1f")})
    return COLUMNS, rows


TABLES = {"round-time-vs-devices": round_time_vs_devices_table}


def main(argv):
    return table_main(argv, "round_time_tables.py", __doc__,
                      TABLES, load_run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
