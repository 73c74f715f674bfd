#!/usr/bin/python3
"""What sleep costs and saves in federated learning: the radios' energy per device against
the mean message latency of fedavg runs without sleep, with DRX cycles (D2dDrx, the shape
of 3GPP TS 38.321 sec. 5.7 and of Release 17's sidelink DRX) and with sleep while
training, for server FedAvg and decentralized FL (the manual's energy page; the campaigns
analysis/campaigns/sleep-effects-*.toml).

Usage:
    /usr/bin/python3 analysis/sleep_effects.py RUN_DIR [RUN_DIR ...]
                     [--table FILE] [--figure DIR]

Each RUN_DIR is an --outDir of build/bin/fedavg: run.json (parameters algorithm, nDevices,
drx, d2sDrx, sleepWhileTraining), rounds.csv, energy.csv and messages.csv. Every number is
recomputed from the traces:

  radio energy  the energy.csv rows of the radios' states (components radio_* and d2s_*:
                transmit, receive, idle, sleep, transition), summed, over the devices, J
  latency       messages.csv, the delivered rows: t_recv_s - t_send_s, their mean, s
  sleep wait    messages.csv, the delivered rows: sleep_wait_s (the part of the latency
                spent waiting for a sleeping radio), their mean, s
  accuracy      rounds.csv, node -1, metric accuracy, at the last round
  time          rounds.csv, the simulated time of the last round's row, s

A run's setting is its sleep: "none", "DRX CYCLE/ON/INACTIVITY" (--drx for the D2D links
of decentralized FL, --d2sDrx for the devices' D2S radios of server FedAvg), and
"+ sleep while training" (--sleepWhileTraining). A series is the algorithm; the runs of a
point (algorithm, setting: the seeds) give its mean and standard deviation.

--table FILE writes the points (algorithm,setting,runs,radio_energy_j,radio_energy_sd,
latency_s,latency_sd,sleep_wait_s,accuracy,time_s), --figure DIR the figure
sleep_effects.png: a panel per algorithm, radio energy per device [J] against mean
message latency [ms], one marker per setting (the same colour and shape in every panel),
labelled, with the seeds' standard deviations as error bars; a panel of an algorithm
without two settings says so. Bad input (a missing
folder or file, an unparsable run.json, a missing column, a run without delivered
messages) gives a one-line error and exit code 2, and nothing is written.
"""
import csv
import os
import statistics
import sys

from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError  # noqa: E402
from d2dlearn_analysis.reader import last_global_accuracy, read_run_json  # noqa: E402
from d2dlearn_analysis.run_json import table_figure_main  # noqa: E402
from d2dlearn_analysis.traces import (make_out_dir, no_data, plt, read_trace,  # noqa: E402
                                      save_figure, to_numeric)

#: the radio-state components of energy.csv (compute is the other one)
RADIO_PREFIXES = ("radio_", "d2s_")
FIELDS = ["algorithm", "setting", "runs", "radio_energy_j", "radio_energy_sd", "latency_s",
          "latency_sd", "sleep_wait_s", "accuracy", "time_s"]


def setting(params):
    """The run's sleep, as the table and the figure name it."""
    parts = []
    for flag in ("drx", "d2sDrx"):
        value = str(params.get(flag, "") or "")
        if value and value != "none":
            parts.append("DRX " + value.replace(",", "/"))
    if params.get("sleepWhileTraining") is True:
        parts.append("sleep while training")
    return " + ".join(parts) if parts else "none"


def measure(run):
    """(algorithm, setting, {radio_energy_j, latency_s, sleep_wait_s, accuracy, time_s})."""
    params = read_run_json(run).get("parameters")
    if not isinstance(params, dict):
        raise AnalysisError("%s: no run.json parameters" % run)
    path = os.path.join(run, "energy.csv")
    energy = read_trace(path, ["node", "component", "energy_j"])
    to_numeric(energy, ["energy_j"], path)
    radio = energy[energy["component"].astype(str).str.startswith(RADIO_PREFIXES)]
    devices = int(params.get("nDevices", 0)) or 1
    path = os.path.join(run, "messages.csv")
    msgs = read_trace(path, ["t_send_s", "t_recv_s", "delivered", "sleep_wait_s"])
    msgs = msgs[msgs["delivered"].astype(str) == "1"].copy()
    if msgs.empty:
        raise AnalysisError("%s: no delivered message (no latency)" % path)
    to_numeric(msgs, ["t_send_s", "t_recv_s", "sleep_wait_s"], path)
    last = last_global_accuracy(run)
    return (str(params.get("algorithm", "fedavg")), setting(params),
            {"radio_energy_j": float(radio["energy_j"].sum()) / devices,
             "latency_s": float((msgs["t_recv_s"] - msgs["t_send_s"]).mean()),
             "sleep_wait_s": float(msgs["sleep_wait_s"].mean()),
             "accuracy": float(last["value"]),
             "time_s": float(last["sim_time_s"])})


def points(runs):
    """{(algorithm, setting): [measures of each run]}."""
    out = {}
    for run in runs:
        algorithm, name, values = measure(run)
        out.setdefault((algorithm, name), []).append(values)
    return out


def summarise(values, key):
    v = [r[key] for r in values]
    return statistics.fmean(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


def order(pts):
    """The points by algorithm, then "none" first and the others by their energy."""
    return sorted(pts, key=lambda k: (k[0], k[1] != "none",
                                      summarise(pts[k], "radio_energy_j")[0]))


def write_table(pts, path):
    rows = []
    for key in order(pts):
        values = pts[key]
        e, e_sd = summarise(values, "radio_energy_j")
        lat, lat_sd = summarise(values, "latency_s")
        rows.append({"algorithm": key[0], "setting": key[1], "runs": len(values),
                     "radio_energy_j": "%.6g" % e, "radio_energy_sd": "%.6g" % e_sd,
                     "latency_s": "%.6g" % lat, "latency_sd": "%.6g" % lat_sd,
                     "sleep_wait_s": "%.6g" % summarise(values, "sleep_wait_s")[0],
                     "accuracy": "%.4f" % summarise(values, "accuracy")[0],
                     "time_s": "%.6g" % summarise(values, "time_s")[0]})
    with atomic_open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    print("wrote %s" % path)


MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def draw(pts, out_dir):
    make_out_dir(out_dir)
    algorithms = sorted({a for a, _ in pts})
    # One colour and marker per setting, the same in every panel.
    settings = sorted({name for _, name in pts}, key=lambda n: (n != "none", n))
    style = {name: dict(color="C%d" % (i % 10), marker=MARKERS[i % len(MARKERS)])
             for i, name in enumerate(settings)}
    fig, axes = plt.subplots(1, len(algorithms), figsize=(1.0 + 5.0 * len(algorithms), 4.4),
                             squeeze=False)
    for col, algorithm in enumerate(algorithms):
        ax = axes[0][col]
        keys = [k for k in order(pts) if k[0] == algorithm]
        ax.set_title("--algorithm=%s" % algorithm)
        if len(keys) < 2:
            no_data(ax, "one setting only: nothing to compare")
            continue
        for key in keys:
            e, e_sd = summarise(pts[key], "radio_energy_j")
            lat, lat_sd = summarise(pts[key], "latency_s")
            ax.errorbar([lat * 1e3], [e], xerr=[lat_sd * 1e3], yerr=[e_sd], linestyle="none",
                        capsize=3, markersize=7, markerfacecolor="none", label=key[1],
                        **style[key[1]])
        ax.set_xlabel("mean message latency [ms]")
        ax.set_ylabel("radio energy per device [J]")
        ax.margins(0.15)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle("fedavg: radio energy against latency, by sleep setting (mean and standard "
                 "deviation over the seeds)", fontsize=9)
    fig.tight_layout()
    save_figure(fig, out_dir, "sleep_effects.png")


def main(argv):
    return table_figure_main(argv, "sleep_effects.py", __doc__, "sleep_effects.png", points, write_table, draw)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
