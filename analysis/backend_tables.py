#!/usr/bin/python3
"""The messaging backends side by side: the D2D channel (`--backend=channel`, eq. 18 of
Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
D2D-Enabled Federated Learning", 2025, on every fragment) against ns-3's 802.11
(`--backend=wifi`), over runs of d2d-exchange and of fedavg (the manual's "How to choose a
channel"; analysis/plot_backends.py draws the same numbers).

Usage:
    /usr/bin/python3 analysis/backend_tables.py channel-vs-wifi RUN_DIR [RUN_DIR ...]
                                                [--out FILE]

Each RUN_DIR is an --outDir of build/bin/d2d-exchange or build/bin/fedavg: run.json
(parameters backend, areaSideM, nDevices; fedavg's algorithm), messages.csv, energy.csv
and, for fedavg, rounds.csv. Every number is recomputed from the traces:

  fragment loss     sum of fragments_lost over the sum of fragments, over the rows whose
                    outcome is known (reason neither `unfinished` nor `cancelled`): the
                    observed drop probability of a fragment (a packet over Wi-Fi), failed
                    receptions (half_duplex, ...) counting every fragment lost
  message loss      1 - the mean of `complete` over those rows: the messages not usable
  unfinished        the share of all rows with reason `unfinished` (still queued or on the
                    air when the run stopped: a saturated network)
  eq. 18 P_D        the mean p_drop of those rows (channel runs; empty for Wi-Fi, which
                    has no eq. 18 and writes 0)
  latency           the mean of t_recv_s - t_send_s over the complete rows, s
  radio energy      the energy.csv rows of the radio components (radio_tx, radio_rx,
                    radio_idle, d2s_tx, d2s_rx, d2s_idle; compute left out) summed and
                    divided by the devices (run.json's nDevices), J per device over the run
  idle energy       the idle part of it (radio_idle + d2s_idle: both radios listening),
                    J per device
  final accuracy    rounds.csv, node -1, metric accuracy, at the last round (fedavg)

A point is (scenario, backend, area side, devices, message size). The backend is
parameters.backend followed in parentheses by, for Wi-Fi, a rate manager other than
constant and a data mode other than the default, and by the ns-3 attributes the command
line sets, as NAME=VALUE ("wifi (ideal)", "wifi (ReassemblyTimeout=2s)"); the scenario is
"d2d-exchange",
or "fedavg --algorithm=A" (runs with parameters.algorithm); the message size is the most
frequent `bytes` of messages.csv (d2d-exchange: --messageBytes; fedavg: the model on the
air). The runs of a point (seeds, --RngRun) are averaged, each run weighing the same (a
measure a run does not have, as the latency of a run without a complete message, is left
out of its mean). The table has a row per point, in the order scenario, varied parameter,
its value, backend (channel first). The base of a scenario is the most frequent value of
each of area side, devices and message size among its points (the smallest of equally
frequent ones); a point that differs from the base in one of them is that parameter's
sweep (`varies`: area side, devices, message size), the base itself "base", any other
point "several".

Columns: scenario, backend, varies, area side m, devices, message bytes, runs, fragment
loss, message loss, unfinished, eq. 18 P_D (4 decimals), latency s (4 significant digits),
radio energy J per device, idle energy J per device (4 significant digits), final accuracy
(3 decimals; empty for d2d-exchange).

The runs of one scenario and backend must have been given the same flags
(parameters.commandLine) but for --areaSideM, --nDevices, --messageBytes and the flags
that do not distinguish runs (d2dlearn_analysis/run_flags.py: the seed, --RngRun and how
the run is executed or traced: outDir, quiet, threads, traces, traceEvery, ...); the
backends may differ otherwise (each refuses the other's flags: the channel's
--spectralEfficiency, --noisePowerW, ...; Wi-Fi's --wifiDataMode, ...). Bad input (a
missing folder or file, an unparsable run.json, a run of another program, a missing column
or non-numeric value, a run without messages, runs that differ otherwise) gives a one-line
error on stderr and exit code 2, and nothing is written.
"""

import math
import os
import sys
from collections import Counter

from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.reader import read_columns, read_run_json
from d2dlearn_analysis.run_flags import distinguishing_flags
from d2dlearn_analysis.run_json import command_flags, table_main

RADIO = ("radio_tx", "radio_rx", "radio_idle", "d2s_tx", "d2s_rx", "d2s_idle")
IDLE = ("radio_idle", "d2s_idle")
NO_OUTCOME = ("unfinished", "cancelled")
POINT_FLAGS = {"backend", "areaSideM", "nDevices", "messageBytes"}
VARIES = [("area", "area side"), ("devices", "devices"), ("size", "message size")]
COLUMNS = ["scenario", "backend", "varies", "area side m", "devices", "message bytes",
           "runs", "fragment loss", "message loss", "unfinished", "eq. 18 P_D", "latency s",
           "radio energy J per device", "idle energy J per device", "final accuracy"]


def read_rows(run_dir, name, numeric, text=()):
    """The rows of RUN_DIR/name (reader.read_columns) as dicts, the numeric columns as floats
    (an empty cell: NaN), the text columns as stripped strings."""
    df = read_columns(os.path.join(run_dir, name), numeric, text)
    return df[list(numeric) + list(text)].astype({c: float for c in numeric}).to_dict("records")


def backend_label(params):
    """The backend of a run's run.json parameters as the table names it:
    parameters.backend followed in parentheses by, for Wi-Fi, a rate manager other than
    constant and a data mode other than the default, and by the ns-3 attributes the command
    line sets, as NAME=VALUE."""
    backend = str(params["backend"])
    notes = []  # what else is compared: the rate control, ns-3 attributes set
    if backend == "wifi":
        manager = str(params.get("wifiRateManager") or "constant")
        notes += [manager] if manager != "constant" else []
        notes += [str(params["wifiDataMode"])] if params.get("wifiDataMode") else []
    notes += ["%s=%s" % (name.rsplit("::", 1)[-1], value)
              for name, value in sorted(command_flags(params).items())
              if name.startswith("ns3::")]
    if notes:
        backend += " (%s)" % ", ".join(notes)
    return backend


def same_flags(runs, group_of):
    """AnalysisError unless the runs of each group (group_of(run): a tuple of names, e.g.
    scenario and backend) were given the same flags (run["flags"])."""
    first = {}
    for run in runs:
        key = group_of(run)
        other = first.setdefault(key, run)
        if run["flags"] != other["flags"]:
            diff = sorted(k for k in set(run["flags"]) | set(other["flags"])
                          if run["flags"].get(k) != other["flags"].get(k))
            raise AnalysisError("%s and %s: runs of %s differ in --%s"
                             % (other["dir"], run["dir"], " over ".join(key), diff[0]))


def load_run(run_dir):
    """The measures of one run folder (see the module's docstring)."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "backend" not in params or "nDevices" not in params:
        raise AnalysisError("%s: not a run of d2d-exchange or fedavg (no parameters.backend "
                         "and nDevices)" % path)
    if "algorithm" in params:
        scenario = "fedavg --algorithm=%s" % params["algorithm"]
    elif "messageBytes" in params:
        scenario = "d2d-exchange"
    else:
        raise AnalysisError("%s: not a run of d2d-exchange or fedavg" % path)
    try:
        n = int(params["nDevices"])
        area = float(params["areaSideM"])
    except (KeyError, TypeError, ValueError):
        raise AnalysisError("%s: no parameters.nDevices or areaSideM" % path)
    if n < 1:
        raise AnalysisError("%s: parameters.nDevices is %r" % (path, params["nDevices"]))
    msgs = read_rows(run_dir, "messages.csv",
                     ["bytes", "t_send_s", "t_recv_s", "fragments", "fragments_lost",
                      "complete", "p_drop"], ["reason"])
    if not msgs:
        raise AnalysisError("%s: messages.csv has no rows"
                         % os.path.join(run_dir, "messages.csv"))
    known = [m for m in msgs if m["reason"] not in NO_OUTCOME]
    frags = sum(m["fragments"] for m in known)
    complete = [m for m in known if m["complete"] == 1]
    latency = [m["t_recv_s"] - m["t_send_s"] for m in complete]
    energy = read_rows(run_dir, "energy.csv", ["energy_j"], ["component"])
    radio = sum(e["energy_j"] for e in energy if e["component"] in RADIO)
    idle = sum(e["energy_j"] for e in energy if e["component"] in IDLE)
    accuracy = None
    if scenario != "d2d-exchange":
        acc = [r for r in read_rows(run_dir, "rounds.csv", ["round", "node", "value"],
                                    ["metric"])
               if r["metric"] == "accuracy" and r["node"] == -1]
        if not acc:
            raise AnalysisError("%s: rounds.csv has no accuracy rows of node -1" % run_dir)
        accuracy = max(acc, key=lambda r: r["round"])["value"]
    sizes = Counter(m["bytes"] for m in msgs)
    size = min(s for s, c in sizes.items() if c == max(sizes.values()))
    backend = backend_label(params)
    return {"dir": run_dir, "path": path, "scenario": scenario, "backend": backend,
            "area": area, "devices": n, "size": size,
            "flags": distinguishing_flags(params, POINT_FLAGS),
            "fragment_loss": (sum(m["fragments_lost"] for m in known) / frags
                              if frags > 0 else math.nan),
            "message_loss": 1 - len(complete) / len(known) if known else math.nan,
            "unfinished": sum(1 for m in msgs if m["reason"] == "unfinished") / len(msgs),
            "p_drop": (sum(m["p_drop"] for m in known) / len(known)
                       if known and backend == "channel" else math.nan),
            "latency": sum(latency) / len(latency) if latency else math.nan,
            "energy": radio / n, "idle": idle / n, "accuracy": accuracy}


def mean(values):
    """Mean of the finite values (NaN if none)."""
    vals = [v for v in values if v is not None and not math.isnan(v)]
    return sum(vals) / len(vals) if vals else math.nan


def base_of(points):
    """{area, devices, size: the most frequent value among the points (the smallest of
    equally frequent ones)}."""
    base = {}
    for key, _ in VARIES:
        counts = Counter(p[key] for p in points)
        base[key] = min(v for v, c in counts.items() if c == max(counts.values()))
    return base


def varies(point, base):
    diff = [label for key, label in VARIES if point[key] != base[key]]
    return "base" if not diff else diff[0] if len(diff) == 1 else "several"


def points(runs):
    """[{scenario, backend, area, devices, size, varies, runs: [run...], and the means of
    the measures}], in the table's order."""
    by_scenario = {}
    for run in runs:
        by_scenario.setdefault(run["scenario"], []).append(run)
    out = []
    for scenario in sorted(by_scenario):
        members = by_scenario[scenario]
        same_flags(members, lambda run: (run["scenario"], run["backend"]))
        groups = {}
        for run in members:
            key = (run["backend"], run["area"], run["devices"], run["size"])
            groups.setdefault(key, []).append(run)
        pts = []
        for (backend, area, devices, size), group in groups.items():
            p = {"scenario": scenario, "backend": backend, "area": area, "devices": devices,
                 "size": size, "runs": group}
            for m in ("fragment_loss", "message_loss", "unfinished", "p_drop", "latency",
                      "energy", "idle", "accuracy"):
                p[m] = mean(r[m] for r in group)
            pts.append(p)
        base = base_of(pts)
        order = {label: i for i, (_, label) in enumerate([(None, "base")] + VARIES)}
        for p in pts:
            p["varies"] = varies(p, base)
            p["base"] = base
        keyed = {label: key for key, label in VARIES}
        pts.sort(key=lambda p: (order.get(p["varies"], len(order)),
                                p[keyed[p["varies"]]] if p["varies"] in keyed else 0,
                                p["backend"] != "channel", p["backend"]))
        out += pts
    return out


def fmt(value, spec):
    return "" if value is None or math.isnan(value) else spec % value


def number(value):
    return "%d" % value if float(value).is_integer() else "%g" % value


def channel_vs_wifi_table(runs):
    rows = []
    for p in points(runs):
        rows.append({"scenario": p["scenario"], "backend": p["backend"],
                     "varies": p["varies"], "area side m": number(p["area"]),
                     "devices": p["devices"], "message bytes": number(p["size"]),
                     "runs": len(p["runs"]),
                     "fragment loss": fmt(p["fragment_loss"], "%.4f"),
                     "message loss": fmt(p["message_loss"], "%.4f"),
                     "unfinished": fmt(p["unfinished"], "%.4f"),
                     "eq. 18 P_D": fmt(p["p_drop"], "%.4f"),
                     "latency s": fmt(p["latency"], "%.4g"),
                     "radio energy J per device": fmt(p["energy"], "%.4g"),
                     "idle energy J per device": fmt(p["idle"], "%.4g"),
                     "final accuracy": fmt(p["accuracy"], "%.3f")})
    return COLUMNS, rows


TABLES = {"channel-vs-wifi": channel_vs_wifi_table}


def main(argv):
    return table_main(argv, "backend_tables.py", __doc__,
                      TABLES, load_run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
