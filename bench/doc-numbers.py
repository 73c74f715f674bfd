#!/usr/bin/python3
"""Measure the figures that the manual's pages show, and write them where pages include them.

    bench/doc-numbers.py [--bin DIR] [--repeat N] [--campaign NAME ...] [--table NAME ...]
                         [--perf NAME ...] [--jobs N] [--source DIR] [--out DIR]
                         [--no-main-job] [--note TEXT]

Runs the main job (fedavg on its defaults, the command of `bash setup.sh --run`) --repeat
times (3) and writes doc/data/main-job.csv and doc/data/main-job.md (its wall time, the
accuracy after round 1 and at the end) and doc/data/main-job-accuracy.png (its accuracy
against round, drawn by analysis/plot_rounds.py: the figure of README.md). With --campaign NAME (a file of
analysis/campaigns/, without .toml; repeatable) also runs those campaigns with
analysis/sweep.py into a temporary folder and updates their rows of
doc/data/campaign-times.csv (runs, wall time of `sweep.py run` including validation); for
the campaigns that a reproduction page shows (FIGURES below) it also draws their figures
and keeps a table of their results in doc/data/NAME/ (figures, results.csv, stamp.md).
With --table NAME (repeatable; TABLES below) runs the campaigns whose runs make one table
of a page together (cmfl-robustness: no attack, attacks on the weights and on the update;
channel-vs-wifi: two scenarios over two backends; round-time-vs-devices: two protocols
over three channels) and writes its tables into doc/data/NAME/ (results.csv, for cmfl also
committee.csv, for channel-vs-wifi and round-time-vs-devices their figures,
and stamp.md naming the campaigns, their runs and wall times), updating their rows of
doc/data/campaign-times.csv too.
With --energy runs each scenario program on its defaults with the present and the former
radio powers and writes doc/data/energy-by-component/ (bench/energy_numbers.py).
With --perf NAME (repeatable, or "all"; bench/perf_numbers.py's NAMES) runs the benchmark
programs of doc/performance.md (build/bin/bench-*, bench/*.py) at settings of about two
minutes each (ci: `bash .ci/run` on a clean clone of the committed tree, about 18 minutes)
and writes doc/data/perf/NAME.csv (the page's table), NAME.md (its stamp, with the load
average at the start and the end, and --note TEXT if given: what else ran on the machine)
and NAME.out.json (what they printed).
--jobs N runs N campaign runs at once (default: sweep.py's, one per core). Every row names
the machine (CPU, cores), the date and the git commit measured (that of --source DIR, the
tree the programs of --bin were built from: default this one; "+changes" if its sources
differ from that commit), so a page shows when and where its numbers were measured.
Nothing in the manual's prose types a measured number by hand: re-running this script
updates the pages.
"""
import argparse
import csv
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_numbers  # noqa: E402  (bench/perf_numbers.py: the benchmarks of performance.md)
import energy_numbers  # noqa: E402  (bench/energy_numbers.py: energy by component)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores" % (cpu, os.cpu_count() or 1)


def commit(top=TOP):
    try:
        rev = subprocess.run(["git", "-C", top, "rev-parse", "--short=12", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             check=True).stdout.strip()
        # changes to what the programs are built from (not the manual's own pages)
        # (--no-optional-locks: the tree may be another's, being worked on)
        dirty = subprocess.run(["git", "--no-optional-locks", "-C", top, "status",
                                "--porcelain", "--untracked-files=no",
                                "--", "contrib", "scenarios", "CMakeLists.txt", "cmake"],
                               stdout=subprocess.PIPE, text=True).stdout.strip()
        return rev + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main_job(bindir, repeat, outdir, stamp):
    rows = []
    for i in range(repeat):
        with tempfile.TemporaryDirectory(prefix="d2dlearn-doc-numbers.") as tmp:
            t0 = time.monotonic()
            subprocess.run([os.path.join(bindir, "fedavg"), "--outDir=" + tmp, "--quiet"],
                           check=True)
            wall = time.monotonic() - t0
            with open(os.path.join(tmp, "run.json")) as f:
                run = json.load(f)
            acc = {}
            with open(os.path.join(tmp, "rounds.csv")) as f:
                for r in csv.DictReader(f):
                    if r["node"] == "-1" and r["metric"] == "accuracy":
                        acc[int(r["round"])] = float(r["value"])
            first = min(k for k in acc if k >= 1)
            if i == 0:  # the figure of README.md and the first tutorial
                subprocess.run([PYTHON, os.path.join(TOP, "analysis", "plot_rounds.py"), tmp,
                                "--out", os.path.join(tmp, "plots"), "--labels", "FedAvg"],
                               check=True, stdout=subprocess.DEVNULL)
                shutil.copyfile(os.path.join(tmp, "plots", "accuracy_vs_round.png"),
                                os.path.join(outdir, "main-job-accuracy.png"))
            rows.append(dict(stamp, repeat=i + 1, wall_s="%.2f" % wall,
                             rounds=run["summary"]["rounds_completed"],
                             accuracy_round1="%.3f" % acc[first],
                             final_accuracy="%.3f" % run["summary"]["final_accuracy"],
                             simulated_time_s="%.1f" % run["simulated_time_s"],
                             blas=run["parameters"].get("blasLibrary", "")))
            print("doc-numbers: main job %d/%d: %.2f s" % (i + 1, repeat, wall), flush=True)
    fields = list(rows[0])
    with open(os.path.join(outdir, "main-job.csv.tmp"), "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    os.replace(os.path.join(outdir, "main-job.csv"+".tmp"), os.path.join(outdir, "main-job.csv"))
    walls = [float(r["wall_s"]) for r in rows]
    md = ("<!-- Written by bench/doc-numbers.py; do not edit: re-run it. -->\n"
          "The main job took %.1f to %.1f s of wall time (%d runs; median %.1f s), simulated "
          "%s s, and the global model's test accuracy went from %s after round 1 to %s after "
          "round %s (measured on %s with a 1-minute load average of %s before the runs, "
          "%s, commit %s; BLAS %s).\n"
          % (min(walls), max(walls), len(walls), statistics.median(walls),
             rows[0]["simulated_time_s"], rows[0]["accuracy_round1"],
             rows[0]["final_accuracy"], rows[0]["rounds"], stamp["machine"], stamp["load"],
             stamp["date"],
             stamp["commit"], rows[0]["blas"] or "unknown"))
    write_atomic(os.path.join(outdir, "main-job.md"), md)


# What a campaign's figures and table are, for the reproduction pages: per campaign, the
# plot commands (run in the campaign folder DIR; {runs} the run folders), the figures to
# keep, and the columns of sweep.py collect's results.csv to keep; or, where the page shows
# a table over the runs rather than one row per run, the command that writes it ("table":
# {out} the CSV file it writes, kept as results.csv), further tables ("tables": {file: its
# command}) and what the stamp says made it ("by").
FIGURES = {
    "paper-bayes": dict(
        plots=[[PYTHON, "analysis/plot_bayes.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["mse.png"],
        columns=["cooperation", "seed", "final_mse", "rounds_completed", "bytes_sent"]),
    # Sec. 3.1, variational beliefs: final test accuracy per cooperation and graph.
    "paper-bayes-variational": dict(
        columns=["cooperation", "graph", "seed", "final_accuracy", "rounds_completed",
                 "bytes_sent"],
        by="`analysis/sweep.py collect` (the columns of its results.csv kept here)"),
    # The sweep how-to's example campaign: delivery, accuracy and latency per run.
    "wireless": dict(
        plots=[[PYTHON, "analysis/sweep.py", "plot", "{toml}", "--out", "{dir}", "--metric",
                "complete_delivery_rate", "--x", "spectralEfficiency", "--hue", "noisePowerW",
                "--logx"]],
        keep=["complete_delivery_rate_vs_spectralEfficiency_by_noisePowerW.png"],
        columns=["spectralEfficiency", "noisePowerW", "seed", "complete_delivery_rate",
                 "delivered_rate", "final_accuracy", "kinds.model.latency_mean_s"]),
    "paper-d2d-exchange": dict(
        plots=[[PYTHON, "analysis/sweep.py", "plot", "{toml}", "--out", "{dir}", "--metric",
                "complete_delivery_rate", "--x", "spectralEfficiency", "--hue", "reliable",
                "--logx"],
               [PYTHON, "analysis/sweep.py", "plot", "{toml}", "--out", "{dir}", "--metric",
                "retransmissions_per_fragment", "--x", "spectralEfficiency", "--where",
                "reliable=true", "--logx"]],
        keep=["complete_delivery_rate_vs_spectralEfficiency_by_reliable.png",
              "retransmissions_per_fragment_vs_spectralEfficiency.png"],
        columns=["spectralEfficiency", "reliable", "complete_delivery_rate",
                 "retransmissions_per_fragment", "kinds.data.latency_mean_s"]),
    "paper-graph-discovery": dict(
        plots=[[PYTHON, "analysis/plot_discovery.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["delivered.png"],
        columns=["graph", "bufferMode", "thresholdOn", "rewardSharing", "seed",
                 "results.gdMeanW1ToUniformAfter", "results.gdMeanLinkPDrop",
                 "results.gdDeliveredFraction", "results.gdPointsSent"]),
    "paper-cmfl": dict(
        plots=[[PYTHON, "analysis/plot_cmfl.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["accuracy.png"],
        columns=["algorithm", "seed", "final_accuracy", "best_accuracy", "bytes_sent"]),
    # Mean W1 to uniform before and after each edge, per (Q, graph): sec. VI-O, Fig. 8d.
    "paper-graph-discovery-unsupervised": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "edges", "{runs}", "--out", "{out}"],
        by="`analysis/discovery_tables.py edges` over its runs"),
    # Downstream FedAvg accuracy, supervised, rl against none: Fig. 5a, 6a.
    "paper-graph-discovery-downstream": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "downstream", "{runs}", "--out",
               "{out}"],
        tables={"targets.csv": [PYTHON, "analysis/discovery_tables.py", "targets", "{runs}",
                                "--out", "{out}"]},
        by="`analysis/discovery_tables.py downstream` (results.csv) and `targets` "
           "(targets.csv, Fig. 6e) over its runs"),
    # Downstream FedAvg accuracy, supervised, every graph over 10 seeds with 95 %
    # t-intervals (Fig. 5a).
    "paper-graph-discovery-downstream-ci": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "downstream-ci", "{runs}", "--out",
               "{out}"],
        by="`analysis/discovery_tables.py downstream-ci` over its runs"),
    # The GCN baseline alone (App. C): bias, links, training loss, best-link agreement.
    "paper-graph-discovery-gcn": dict(
        columns=["seed", "results.gdMeanW1ToUniformBefore", "results.gdMeanW1ToUniformAfter",
                 "results.gdMeanLinkPDrop", "results.gdGcnLossBefore",
                 "results.gdGcnLossAfter", "results.gdGcnBestLinkAgreement"],
        by="`analysis/sweep.py collect` (the columns of its results.csv kept here)"),
    # Sec. VI-J: the RL phase's D2D energy against N, fixed area and constant density.
    "paper-graph-discovery-scaling": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "scaling", "{runs}", "--out", "{out}"],
        by="`analysis/discovery_tables.py scaling` over its runs"),
    "paper-graph-discovery-scaling-density": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "scaling", "{runs}", "--out", "{out}"],
        by="`analysis/discovery_tables.py scaling` over its runs"),
    "paper-graph-discovery-scaling-equal": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "scaling", "{runs}", "--out", "{out}"],
        by="`analysis/discovery_tables.py scaling` over its runs"),
    # Unsupervised paradigm, FedAvg of the triplet encoder after the exchange: sec. VI-O.
    "paper-graph-discovery-unsupervised-downstream": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "unsupervised-downstream", "{runs}",
               "--out", "{out}"],
        by="`analysis/discovery_tables.py unsupervised-downstream` over its runs"),
    # Regression on the polynomial toy's gap partitions: sec. VI-C4.
    "paper-graph-discovery-regression": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "regression", "{runs}", "--out",
               "{out}"],
        by="`analysis/discovery_tables.py regression` over its runs"),
    # Downstream FedAvg accuracy per labeller and graph: App. D-D, Fig. 14b.
    "paper-graph-discovery-labeller-downstream": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "downstream", "{runs}", "--out",
               "{out}"],
        by="`analysis/discovery_tables.py downstream` over its runs"),
    # Labelling accuracy per labeller and PCA dimension d: Fig. 8a, App. D-D.
    "paper-graph-discovery-semi": dict(
        table=[PYTHON, "analysis/discovery_tables.py", "labelling", "{runs}", "--out",
               "{out}"],
        by="`analysis/discovery_tables.py labelling` over its runs"),
    # Consensus, the paper's Table 1 at a reduced scale: the regular agents' final test and
    # X* accuracy per algorithm and trust mode, mean over seeds and each seed's; one
    # campaign per setting (regular; agents 2 and 9 flipped), one table each.
    "paper-consensus": dict(
        table=[PYTHON, "analysis/plot_consensus.py", "{runs}", "--table", "{out}"],
        tables={"bytes.csv": [PYTHON, "analysis/consensus_tables.py", "bytes", "{runs}",
                              "--out", "{out}"]},
        by="`analysis/plot_consensus.py --table` (results.csv) and "
           "`analysis/consensus_tables.py bytes` (bytes.csv) over its runs"),
    "paper-consensus-low-quality": dict(
        table=[PYTHON, "analysis/plot_consensus.py", "{runs}", "--table", "{out}"],
        tables={"trust.csv": [PYTHON, "analysis/consensus_tables.py", "trust-columns",
                              "{runs}", "--out", "{out}"]},
        by="`analysis/plot_consensus.py --table` (results.csv) and "
           "`analysis/consensus_tables.py trust-columns` (trust.csv) over its runs"),
    # The toys: App. A.1's polynomials (Fig. 1) and sec. 5.1's Gaussian mixture (Fig. 2).
    "paper-consensus-polynomial": dict(
        plots=[[PYTHON, "analysis/plot_consensus.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["polynomial.png"],
        table=[PYTHON, "analysis/consensus_tables.py", "polynomial", "{runs}", "--out",
               "{out}"],
        by="`analysis/plot_consensus.py` (the figure) and `analysis/consensus_tables.py "
           "polynomial` (results.csv) over its runs"),
    "paper-consensus-gaussian": dict(
        plots=[[PYTHON, "analysis/plot_consensus.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["boundary.png"],
        table=[PYTHON, "analysis/consensus_tables.py", "boundary", "{runs}", "--out",
               "{out}"],
        by="`analysis/plot_consensus.py` (the figure) and `analysis/consensus_tables.py "
           "boundary` (results.csv) over its runs"),
    # Sec. 5.2, heterogeneous models: accuracy per architecture (results.csv) and the
    # trust between the architectures in the middle collaboration round (trust.csv).
    "paper-consensus-hetero": dict(
        table=[PYTHON, "analysis/consensus_tables.py", "hetero", "{runs}", "--out", "{out}"],
        tables={"trust.csv": [PYTHON, "analysis/consensus_tables.py", "hetero-trust",
                              "{runs}", "--out", "{out}"]},
        by="`analysis/consensus_tables.py hetero` (results.csv) and `hetero-trust` "
           "(trust.csv) over its runs"),
}


def expand(cmd, runs, **names):
    """A command of FIGURES: {runs} the run folders, other {name}s filled in."""
    argv = []
    for a in cmd:
        if a == "{runs}":
            argv += runs
        else:
            argv.append(a.format(**names))
    return argv


def spectrum_of(runs):
    """One sentence: the spectrum the runs used, from their run.json (the channel's
    --subChannels and the server's cell in force; Wi-Fi runs have 802.11's own medium)."""
    seen = set()
    for run in runs:
        with open(os.path.join(run, "run.json")) as f:
            p = json.load(f).get("parameters", {})
        if p.get("backend") == "wifi":
            seen.add("802.11 (--backend=wifi)")
            continue
        k = int(p.get("subChannels", 0))
        d2s = p.get("d2sSubChannelsInForce")
        text = ("the unlimited band (every link the whole band at once, --subChannels=0)"
                if k == 0 else "a D2D band of %d sub-channels" % k)
        if d2s is not None and int(d2s) != k:
            text += (", the server's cell unlimited" if int(d2s) == 0
                     else ", the server's cell %d sub-channels" % int(d2s))
        seen.add(text)
    return "Spectrum: " + "; ".join(sorted(seen)) + "." if seen else ""


def figures(name, toml, camp, outdir, stamp):
    """The campaign's figures and table into outdir/NAME/, with a stamp.md naming the run."""
    spec = FIGURES[name]
    subprocess.run([PYTHON, os.path.join(TOP, "analysis", "sweep.py"), "collect", toml,
                    "--out", camp], check=True, stdout=subprocess.DEVNULL, cwd=TOP)
    runs = sorted(os.path.join(camp, d) for d in os.listdir(camp)
                  if os.path.exists(os.path.join(camp, d, "run.json")))
    for cmd in spec.get("plots", []):
        subprocess.run(expand(cmd, runs, dir=camp, toml=toml), check=True,
                       stdout=subprocess.DEVNULL, cwd=TOP)
    dest = os.path.join(outdir, name)
    os.makedirs(dest, exist_ok=True)
    for f in spec.get("keep", []):
        shutil.copyfile(os.path.join(camp, "plots", f), os.path.join(dest, f))
    for f, cmd in spec.get("tables", {}).items():  # further tables beside results.csv
        subprocess.run(expand(cmd, runs, dir=camp, toml=toml, out=os.path.join(camp, f)),
                       check=True, stdout=subprocess.DEVNULL, cwd=TOP)
        shutil.copyfile(os.path.join(camp, f), os.path.join(dest, f + ".tmp"))
        os.replace(os.path.join(dest, f + ".tmp"), os.path.join(dest, f))
    if "table" in spec:
        table = os.path.join(camp, "table.csv")
        subprocess.run(expand(spec["table"], runs, dir=camp, toml=toml, out=table),
                       check=True, stdout=subprocess.DEVNULL, cwd=TOP)
        shutil.copyfile(table, os.path.join(dest, "results.csv.tmp"))
    else:
        with open(os.path.join(camp, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        cols = [c for c in spec["columns"] if rows and c in rows[0]]
        with open(os.path.join(dest, "results.csv.tmp"), "w", newline="") as f:
            w = csv.DictWriter(f, cols, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    os.replace(os.path.join(dest, "results.csv.tmp"), os.path.join(dest, "results.csv"))
    write_atomic(os.path.join(dest, "stamp.md"),
                 "<!-- Written by bench/doc-numbers.py; do not edit: re-run it. -->\n"
                 "Measured by `bench/doc-numbers.py --campaign %s` (`analysis/sweep.py run` of "
                 "`analysis/campaigns/%s.toml`, %d runs, then %s) on %s, with a 1-minute "
                 "load average of %s before the campaign, %s, commit %s. %s\n"
                 % (name, name, len(runs), spec.get("by", "the plots above"), stamp["machine"],
                    stamp["load"], stamp["date"], stamp["commit"], spectrum_of(runs)))


# Tables over several campaigns: a page's table whose rows come from more than one campaign
# file (no attack, attacks on the weights, on the update). --table NAME runs each campaign
# (timed, its row of campaign-times.csv updated, as --campaign does) and writes the table
# over all their runs into doc/data/NAME/ (stamp.md and the CSV files of "tables": {file:
# the command that writes it}, {runs} the run folders of all the campaigns, {out} the file)
# and, with "plots" and "keep", the figures those commands draw into {dir}/plots/.
CMFL_TABLES = {
    "results.csv": [PYTHON, "analysis/cmfl_tables.py", "robustness", "{runs}", "--out", "{out}"],
    "committee.csv": [PYTHON, "analysis/cmfl_tables.py", "committee", "{runs}", "--out",
                      "{out}"]}
CMFL_BY = ("`analysis/cmfl_tables.py robustness` (results.csv) and `committee` "
           "(committee.csv) over their runs")
CMFL_SCREENING = {"results.csv": [PYTHON, "analysis/cmfl_tables.py", "screening", "{runs}",
                                  "--out", "{out}"]}
CMFL_SCREENING_BY = "`analysis/cmfl_tables.py screening` over their runs"
TABLES = {
    # cmfl robustness, reduced (100 devices, C = 4): doc/reproductions/cmfl.md.
    "cmfl-robustness": dict(
        campaigns=["cmfl-robustness-clean", "cmfl-robustness-weights",
                   "cmfl-robustness-update"], tables=CMFL_TABLES, by=CMFL_BY),
    # The same with 200 devices (C = 8), weights-space attacks at 30 %.
    "cmfl-robustness-large": dict(
        campaigns=["cmfl-robustness-large-clean", "cmfl-robustness-large"],
        tables=CMFL_TABLES, by=CMFL_BY),
    # At the authors' active-set size (650 devices, 65 active), both attack spaces.
    "cmfl-robustness-paper-scale": dict(
        campaigns=["cmfl-robustness-paper-scale-clean", "cmfl-robustness-paper-scale",
                   "cmfl-robustness-paper-scale-update"],
        tables=CMFL_TABLES, by=CMFL_BY),
    # The runs that decide the causes (doc/reproductions/cmfl.md, "Why"): update-space attackers
    # against local steps and data split, and against the Dirichlet concentration; CMFL-I's
    # gain under attack and its control; no attack, FedAvg with 65 and 16 clients a round.
    "cmfl-update-causes": dict(
        campaigns=["cmfl-update-causes"], tables=CMFL_SCREENING, by=CMFL_SCREENING_BY),
    "cmfl-update-heterogeneity": dict(
        campaigns=["cmfl-update-heterogeneity"], tables=CMFL_SCREENING,
        by=CMFL_SCREENING_BY),
    "cmfl-attack-gain": dict(
        campaigns=["cmfl-attack-gain", "cmfl-attack-gain-control"], tables=CMFL_SCREENING,
        by=CMFL_SCREENING_BY),
    "cmfl-clean-causes": dict(
        campaigns=["cmfl-clean-causes"], tables=CMFL_SCREENING, by=CMFL_SCREENING_BY),
    # Graph discovery, Fig. 5a: the candidate causes of the missing 8 %, one
    # campaign each, one table (a row per setting and graph, with 95 % t-intervals).
    "paper-graph-discovery-fig5a": dict(
        campaigns=["paper-graph-discovery-fig5a-ceiling", "paper-graph-discovery-fig5a-points",
                   "paper-graph-discovery-fig5a-skew", "paper-graph-discovery-fig5a-drift",
                   "paper-graph-discovery-fig5a-lossy"],
        tables={"results.csv": [PYTHON, "analysis/discovery_tables.py", "downstream-ci",
                                "{runs}", "--out", "{out}"]},
        by="`analysis/discovery_tables.py downstream-ci` over their runs"),
    # Consensus, Table 1's cells at 15 rounds x 3 epochs: regular and low quality, one table.
    "paper-consensus-longer": dict(
        campaigns=["paper-consensus-longer", "paper-consensus-longer-low-quality"],
        tables={"results.csv": [PYTHON, "analysis/plot_consensus.py", "{runs}", "--table",
                                "{out}"]},
        by="`analysis/plot_consensus.py --table` over their runs"),
    # The two messaging backends side by side (doc/howto/choose-channel.md): d2d-exchange
    # and decentralized FL over the D2D channel and over 802.11 (d2d-exchange also with
    # ns-3's ideal rate control, FL also with a 2 s reassembly timeout), one campaign per
    # scenario and backend (each backend refuses the other's flags); a table and a figure.
    "channel-vs-wifi": dict(
        campaigns=["channel-vs-wifi-exchange-channel", "channel-vs-wifi-exchange-wifi",
                   "channel-vs-wifi-exchange-wifi-ideal", "channel-vs-wifi-fedavg-channel",
                   "channel-vs-wifi-fedavg-wifi", "channel-vs-wifi-fedavg-wifi-reassembly"],
        tables={"results.csv": [PYTHON, "analysis/backend_tables.py", "channel-vs-wifi",
                                "{runs}", "--out", "{out}"]},
        plots=[[PYTHON, "analysis/plot_backends.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["channel_vs_wifi.png"],
        by="`analysis/backend_tables.py channel-vs-wifi` (results.csv) and "
           "`analysis/plot_backends.py` (the figure) over their runs"),
    # Round time against the devices that upload (doc/howto/choose-channel.md): fedavg and
    # cmfl's BrainTorrent (a fan-in over D2D) over the channel's default shared band, its
    # unlimited band (the literal reading) and 802.11, one campaign per protocol and
    # setting; a table and a figure.
    "round-time-vs-devices": dict(
        campaigns=["round-time-vs-devices-fedavg-channel",
                   "round-time-vs-devices-fedavg-literal", "round-time-vs-devices-fedavg-wifi",
                   "round-time-vs-devices-braintorrent-channel",
                   "round-time-vs-devices-braintorrent-literal",
                   "round-time-vs-devices-braintorrent-wifi"],
        tables={"results.csv": [PYTHON, "analysis/round_time_tables.py",
                                "round-time-vs-devices", "{runs}", "--out", "{out}"]},
        plots=[[PYTHON, "analysis/plot_round_times.py", "{runs}", "--out", "{dir}/plots"]],
        keep=["round_time_vs_devices.png"],
        by="`analysis/round_time_tables.py round-time-vs-devices` (results.csv) and "
           "`analysis/plot_round_times.py` (the figure) over their runs"),
    # What the wireless parameters do (issue: every wireless parameter acts): fedavg's
    # accuracy, round time and energy against the server's place, P_D and speed.
    "wireless-effects": dict(
        campaigns=["wireless-effects-server", "wireless-effects-drop", "wireless-effects-speed",
                   "wireless-effects-speed-wifi"],
        tables={"results.csv": [PYTHON, "analysis/wireless_effects.py", "{runs}", "--table",
                                "{out}"]},
        plots=[[PYTHON, "analysis/wireless_effects.py", "{runs}", "--figure", "{dir}/plots"]],
        keep=["wireless_effects.png"],
        by="`analysis/wireless_effects.py` (results.csv and the figure) over their runs"),
    # Sleep (doc/explanation/energy-model.md): server FedAvg and decentralized FL without
    # sleep, with DRX cycles and with sleep while training; radio energy against latency.
    "sleep-effects": dict(
        campaigns=["sleep-effects-fedavg", "sleep-effects-decentralized"],
        tables={"results.csv": [PYTHON, "analysis/sleep_effects.py", "{runs}", "--table",
                                "{out}"]},
        plots=[[PYTHON, "analysis/sleep_effects.py", "{runs}", "--figure", "{dir}/plots"]],
        keep=["sleep_effects.png"],
        by="`analysis/sleep_effects.py` (results.csv and the figure) over their runs"),
    # Devices of different speeds (doc/explanation/fedavg.md): synchronous FedAvg,
    # over-selection, FedAsync and FedBuff; accuracy against simulated time and energy.
    "async-effects": dict(
        campaigns=["async-fl"],
        tables={"results.csv": [PYTHON, "analysis/async_effects.py", "{runs}", "--table",
                                "{out}"]},
        plots=[[PYTHON, "analysis/async_effects.py", "{runs}", "--figure", "{dir}/plots"]],
        keep=["async_effects.png"],
        by="`analysis/async_effects.py` (results.csv and the figure) over their runs"),
    # Choosing a propagation model (doc/explanation/propagation.md): d2d-exchange's links
    # under every --propagation preset on the channel and over Wi-Fi (P_D, messages lost and
    # RSS against the link's length), and server FedAvg under three presets.
    "propagation-effects": dict(
        campaigns=["propagation-links-channel", "propagation-links-wifi", "propagation-fedavg"],
        tables={"results.csv": [PYTHON, "analysis/propagation_effects.py", "{runs}", "--table",
                                "{out}"]},
        plots=[[PYTHON, "analysis/propagation_effects.py", "{runs}", "--figure",
                "{dir}/plots"]],
        keep=["propagation_effects.png"],
        by="`analysis/propagation_effects.py` (results.csv and the figure) over their runs"),
    # The former rules (IID, replicas quorum, ...), one campaign, four attacks at 10 %.
    "cmfl-former-rules": dict(
        campaigns=["cmfl-former-rules"], tables={"results.csv": CMFL_TABLES["results.csv"]},
        by="`analysis/cmfl_tables.py robustness` over its runs"),
    # The same at learning rate 0.05, 15 rounds: FedAvg and CMFL-I, back gradient.
    "cmfl-former-rules-lr": dict(
        campaigns=["cmfl-former-rules-lr"], tables={"results.csv": CMFL_TABLES["results.csv"]},
        by="`analysis/cmfl_tables.py robustness` over its runs"),
}


def run_campaign(bindir, name, camp, stamp, jobs=None):
    """sweep.py run of analysis/campaigns/NAME.toml into the folder camp: its row of
    campaign-times.csv."""
    toml = os.path.join(TOP, "analysis", "campaigns", name + ".toml")
    t0 = time.monotonic()
    subprocess.run([PYTHON, os.path.join(TOP, "analysis", "sweep.py"), "run", toml,
                    "--out", camp, "--bin", bindir]
                   + (["--jobs", str(jobs)] if jobs else []), check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    runs = sum(1 for _, _, files in os.walk(camp) if "run.json" in files)
    m, s = divmod(int(round(wall)), 60)
    print("doc-numbers: campaign %s: %d runs, %.1f s" % (name, runs, wall), flush=True)
    return dict(stamp, campaign=name + ".toml", runs=runs, wall_s="%.1f" % wall,
                wall=("%d min %d s" % (m, s)) if m else "%d s" % s,
                jobs=jobs or min(2, os.cpu_count() or 1))


def table_over(name, camps, outdir, stamp, times, work):
    """TABLES[name] over the runs of the campaign folders camps ({campaign: folder}) into
    outdir/NAME/ (its tables, its figures ("plots", run with {dir} the folder work, and
    the files of work/plots/ named in "keep"), stamp.md); times: the campaigns' rows of
    campaign-times.csv."""
    spec = TABLES[name]
    runs = sorted(os.path.join(camp, d) for camp in camps.values() for d in os.listdir(camp)
                  if os.path.exists(os.path.join(camp, d, "run.json")))
    dest = os.path.join(outdir, name)
    os.makedirs(dest, exist_ok=True)
    for cmd in spec.get("plots", []):
        subprocess.run(expand(cmd, runs, dir=work), check=True, stdout=subprocess.DEVNULL,
                       cwd=TOP)
    for f in spec.get("keep", []):
        shutil.copyfile(os.path.join(work, "plots", f), os.path.join(dest, f + ".tmp"))
        os.replace(os.path.join(dest, f + ".tmp"), os.path.join(dest, f))
    for f, cmd in spec["tables"].items():
        table = os.path.join(dest, f + ".tmp")
        subprocess.run(expand(cmd, runs, out=table), check=True, stdout=subprocess.DEVNULL,
                       cwd=TOP)
        os.replace(table, os.path.join(dest, f))
    ran = ", ".join("`analysis/campaigns/%s.toml` (%s runs, %s)"
                    % (c, times[c]["runs"], times[c]["wall"]) for c in spec["campaigns"])
    write_atomic(os.path.join(dest, "stamp.md"),
                 "<!-- Written by bench/doc-numbers.py; do not edit: re-run it. -->\n"
                 "Measured by `bench/doc-numbers.py --table %s` (`analysis/sweep.py run "
                 "--jobs %s` of %s; %d runs, then %s) on %s, with a 1-minute load average of "
                 "%s before the campaigns, %s, commit %s. %s\n"
                 % (name, times[spec["campaigns"][0]]["jobs"], ran, len(runs), spec["by"],
                    stamp["machine"], stamp["load"], stamp["date"], stamp["commit"],
                    spectrum_of(runs)))


def campaigns(bindir, names, outdir, stamp, jobs=None, tables=()):
    path = os.path.join(outdir, "campaign-times.csv")
    fields = ["campaign", "runs", "wall_s", "wall", "jobs", "machine", "load", "date", "commit"]
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            old = {r["campaign"][:-len(".toml")]: r for r in csv.DictReader(f)}
    for name in names:
        toml = os.path.join(TOP, "analysis", "campaigns", name + ".toml")
        with tempfile.TemporaryDirectory(prefix="d2dlearn-doc-numbers.") as tmp:
            old[name] = run_campaign(bindir, name, tmp, stamp, jobs)
            if name in FIGURES:
                figures(name, toml, tmp, outdir, stamp)
    for name in tables:
        with tempfile.TemporaryDirectory(prefix="d2dlearn-doc-numbers.") as tmp:
            camps = {c: os.path.join(tmp, c) for c in TABLES[name]["campaigns"]}
            for c, camp in camps.items():
                old[c] = run_campaign(bindir, c, camp, stamp, jobs)
            table_over(name, camps, outdir, stamp, old, tmp)
    rows = sorted(old.values(), key=lambda r: r["campaign"])
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(TOP, "build", "bin"))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--campaign", action="append", default=[])
    p.add_argument("--table", action="append", default=[], choices=sorted(TABLES),
                   help="a table over several campaigns (TABLES): runs them, writes it")
    p.add_argument("--perf", action="append", default=[],
                   choices=perf_numbers.NAMES + ["all"],
                   help="a benchmark of doc/performance.md: runs it, writes doc/data/perf/")
    p.add_argument("--no-main-job", action="store_true")
    p.add_argument("--energy", action="store_true",
                   help="each scenario's default run, energy by component with the former and "
                        "the present radio powers: writes doc/data/energy-by-component/")
    p.add_argument("--note", default="",
                   help="--perf: what the stamp says of the conditions of the runs (e.g. that "
                        "a build ran beside them), kept with the output")
    p.add_argument("--jobs", type=int, default=None,
                   help="campaign runs at once (sweep.py run --jobs; default: one per core)")
    p.add_argument("--source", default=TOP,
                   help="the git tree the programs of --bin were built from (the stamp's "
                        "commit; default: this one)")
    p.add_argument("--out", default=os.path.join(TOP, "doc", "data"))
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    stamp = dict(machine=machine(), date=datetime.date.today().isoformat(),
                 commit=commit(a.source),
                 load="%.1f" % os.getloadavg()[0])  # other work slows wall times: say how much
    if not a.no_main_job:
        main_job(a.bin, a.repeat, a.out, stamp)
    if a.campaign or a.table:
        campaigns(a.bin, [c[:-5] if c.endswith(".toml") else c for c in a.campaign], a.out,
                  stamp, a.jobs, a.table)
    if a.energy:
        energy_numbers.write(energy_numbers.measure(a.bin), a.out, stamp)
    for name in perf_numbers.NAMES if "all" in a.perf else a.perf:
        perf_numbers.run(name, a.bin, os.path.join(a.out, "perf"), stamp, a.note)


if __name__ == "__main__":
    main()
