#!/usr/bin/python3
"""Tables of graph-discovery runs (Wagle, Das, Love and Brinton 2025) that the manual shows:
the unsupervised paradigm's label bias per edge (Fig. 8d), the semi-supervised paradigm's
labelling accuracy (Fig. 8a, App. D-D) and its downstream accuracy per labeller and graph
(App. D-D, Fig. 14b).

Usage:
    /usr/bin/python3 analysis/discovery_tables.py edges RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py labelling RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py downstream RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py downstream-ci RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py regression RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py scaling RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py targets RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/discovery_tables.py unsupervised-downstream RUN_DIR [...] [--out FILE]

Each RUN_DIR is an --outDir of build/bin/graph-discovery; only its run.json is read. The
table is written as CSV to FILE (default: stdout), one row per group of runs that differ
only in their seed (or in another flag that does not distinguish runs:
d2dlearn_analysis/run_flags.py, --RngRun, --traceEvery, how the run is executed); runs that
differ in any other flag of run.json's commandLine than the table's own keys are never
averaged together (an error).

edges (--paradigm=unsupervised): a row per (parameters.requestPoints, parameters.graph), Q
ascending, then graph in the order rl, closest, most-trusted, uniform, gcn, none. From
summary.results.gdMeanW1ToUniformPerEdge (mean W1 of the devices' label histograms to the
uniform one: before, after edge 1, after edge 2, ...):

  Q, graph, seeds, runs
  W1 before, W1 after edge k     mean over the runs (3 decimals)
  fall edge 1 (% of before)      mean over the runs of 100 (w0 - w1) / w0 (1 decimal)
  fall edge k (% of before)      for k >= 2 the further fall, 100 (w[k-1] - w[k]) / w0
  rl below it after edge k       for a baseline: in how many of the seeds it shares with
                                 the rl row of the same Q rl's W1 after edge k is lower
                                 ("6 of 8"); empty for rl itself

labelling (--paradigm=semi-supervised): a row per labeller, and per parameters.pcaDims (d)
for propagation (d ascending; the mlp labeller sends no PCA message, so its d is empty):

  labeller, d, seeds, runs
  seed S                         summary.results.gdLabellingMeanUnlabelledAccuracy of
                                 that seed's run (mean over devices of the accuracy on
                                 their unlabelled points; 4 decimals)
  mean unlabelled accuracy       mean of the seed columns
  mean accuracy                  mean over the runs of gdLabellingMeanAccuracy (all points)
  PCA bytes                      mean over the runs of gdPcaBytes (0 where absent: mlp)

downstream (--paradigm=semi-supervised or supervised, one of them, with a graph and
FedAvg after it; Fig. 5a, 6a and App. D-D, Fig. 14b): a row per labeller (propagation, then
mlp, then others by name; "-" for supervised runs) and graph (in the order above):

  labeller, graph, seeds, runs
  labelling accuracy             mean over the runs of gdLabellingMeanUnlabelledAccuracy
                                 (4 decimals; empty for supervised runs)
  W1 after                       mean over the runs of gdMeanW1ToUniformAfter (the assigned
                                 labels' histograms after the exchange; 3 decimals)
  final accuracy                 mean over the runs of finalAccuracy (FedAvg's global model
                                 after the last round; 3 decimals)
  final accuracy per seed        each seed's, "/" between them, seeds ascending
  highest on seeds               on how many of the row's seeds its final accuracy is the
                                 highest of its labeller's graphs run on that seed
                                 ("3 of 3"; a tie counts for each)

regression (--dataset=polynomial: the gap partitions of sec. VI-C4, FedAvg of the
polynomial learner after the discovery): a row per graph (in the order above); per seed
(seeds ascending, "/" between them) gdMeanW1ToUniformBefore (2 decimals), ...After (3
decimals), gdPointsMoved and finalTestMse (3 decimals); the mean W1 after; on how many of
its seeds the graph's W1 after is the least of all the graphs run on that seed ("3 of 3";
a tie counts for each).

scaling (sec. VI-J: the RL phase's D2D energy against N): a row per rewardSharing
(cluster-head, then multicast); per N (parameters.nDevices, ascending) the mean over the
row's runs of gdRlEnergyJ (5 decimals) and of gdMeanLinkPDrop (the chosen links; 3
decimals), and each N's energy over the smallest N's (2 decimals). The runs may differ in
nDevices and areaSideM (constant density) besides the seed and rewardSharing.

targets (Fig. 6e: energy to reach the accuracy targets, FedAvg after the discovery): a
row per run, graphs in the order above, then seed: per target of
summary.results.targetsReached the round it was reached in ("not reached") and the energy
spent by then (energyJ, J, no decimals); the discovery's D2D energy (gdRlEnergyJ +
gdExchangeEnergyJ, 3 decimals; 0 for none) and its share of the run's D2S energy
(summary.energy_j d2s_tx + d2s_rx; %, 2 decimals).

downstream-ci (supervised runs with FedAvg after the graph; Fig. 5a): a row per
setting and graph (in the order above), each with the uncertainty of the seeds. The runs
may differ in other flags than the seed and graph (campaigns of several settings, one
table): a run's setting is the flags whose value differs from the one most of the runs have
("--thresholdFraction=0.3"; "(not given)" for a flag the run does not give; empty where it
has the most common value of every flag); settings in that order, the empty one first:

  setting, graph, seeds, runs
  W1 after                       mean over the runs of gdMeanW1ToUniformAfter (3 decimals)
  final accuracy                 mean over the runs of finalAccuracy (3 decimals)
  final accuracy 95 % CI         the 95 % t-interval of that mean, mean +- t(0.975, n - 1)
                                 sd / sqrt(n) with sd the sample standard deviation of the
                                 n runs ("0.712 to 0.731"; empty for one run)
  rl minus it (points)           for a graph other than rl: the mean over the seeds it
                                 shares with the rl row of its setting of 100 (rl's final
                                 accuracy - its)
                                 (2 decimals, signed); empty for rl itself
  rl minus it 95 % CI (points)   the paired 95 % t-interval of that mean difference
                                 ("-0.31 to +0.81"; empty for fewer than two shared seeds)
  rl above on seeds              on how many of those seeds rl's final accuracy is higher
                                 ("7 of 10")
The t quantiles are SciPy's (d2dlearn_analysis/stats.py, the one implementation sweep.py
uses too).

unsupervised-downstream (--paradigm=unsupervised with FedAvg of the triplet encoder after
the exchange; sec. V-B, VI-O): a row per (optimizer, learningRate, rounds) and graph (in
the order above; parameters.optimizer and .learningRate as run.json records them, the
scenario's defaults sgd and 0.05 where absent):

  optimizer, learning rate, rounds, graph, seeds, runs
  W1 after per seed              gdMeanW1ToUniformAfter of each seed's run ("/" between
                                 them, seeds ascending; 3 decimals)
  W1 after                       their mean (3 decimals)
  final accuracy per seed        finalAccuracy (the linear evaluation of FedAvg's encoder
                                 after the last round) of each seed's run (3 decimals)
  final accuracy                 their mean (3 decimals)
  above none on seeds            for a graph other than none: on how many of the seeds it
                                 shares with the none row of the same optimizer, learning
                                 rate and rounds its final accuracy is higher ("3 of 3")
  mean gain over none (points)   the mean over those seeds of 100 (its final accuracy -
                                 none's) (1 decimal); both empty for none itself

Bad input (a missing folder or run.json, an unparsable run.json, a run of another paradigm
or without the results the table needs, unlike runs in one row) gives a one-line error on
stderr and exit code 2, and nothing is written.
"""

import math
import os
import statistics
import sys

from d2dlearn_analysis import stats as analysis_stats
from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.reader import read_run_json
from d2dlearn_analysis.run_flags import distinguishing_flags
from d2dlearn_analysis.run_json import table_main

METHODS = ["rl", "closest", "most-trusted", "uniform", "gcn", "none"]


def load_run(run_dir):
    """{dir, seed, params, results, flags} of a run folder."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "graph" not in params:
        raise AnalysisError("%s: not a graph-discovery run (no parameters.graph)" % path)
    results = (doc.get("summary") or {}).get("results")
    flags = distinguishing_flags(params)
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    return {"dir": run_dir, "path": path, "seed": doc.get("seed", params.get("seed")),
            "params": params, "results": results if isinstance(results, dict) else {},
            "energy": summary.get("energy_j") if isinstance(summary.get("energy_j"), dict)
            else {}, "flags": flags}


def number(run, key):
    """summary.results[key] of a run as a finite float, or a AnalysisError."""
    value = run["results"].get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value):
        raise AnalysisError("%s: summary.results.%s is %s, not a number"
                         % (run["path"], key, "missing" if value is None else repr(value)))
    return float(value)


def check_paradigm(runs, paradigm):
    for run in runs:
        got = str(run["params"].get("paradigm") or "supervised")
        if got != paradigm:
            raise AnalysisError("%s: parameters.paradigm is %s; this table is of %s runs"
                             % (run["path"], got, paradigm))


def group(runs, key, own):
    """{key(run): [runs]}; refuses a group whose runs differ in a flag other than the seed and
    the table's own keys (own: flag names) or that holds a seed twice."""
    groups = {}
    for run in runs:
        groups.setdefault(key(run), []).append(run)
    for k, members in groups.items():
        first = members[0]
        for run in members[1:]:
            names = sorted((set(first["flags"]) | set(run["flags"])) - set(own))
            differ = [n for n in names if first["flags"].get(n) != run["flags"].get(n)]
            if differ:
                n = differ[0]
                raise AnalysisError("%s and %s: one row, but --%s differs (%s against %s): only "
                                 "runs that differ in their seed are averaged"
                                 % (first["dir"], run["dir"], n,
                                    first["flags"].get(n, "(not given)"),
                                    run["flags"].get(n, "(not given)")))
        seeds = [r["seed"] for r in members]
        twice = sorted({s for s in seeds if seeds.count(s) > 1}, key=str)
        if twice:
            raise AnalysisError("%s: seed %s twice in one row" % (members[0]["dir"], twice[0]))
    return groups


def seed_text(seeds):
    """'1-8' for a run of consecutive integers, else '1, 3, 4'."""
    seeds = sorted(seeds, key=lambda s: (not isinstance(s, int), s if isinstance(s, int) else 0,
                                         str(s)))
    if (len(seeds) > 2 and all(isinstance(s, int) for s in seeds)
            and seeds == list(range(seeds[0], seeds[0] + len(seeds)))):
        return "%d-%d" % (seeds[0], seeds[-1])
    return ", ".join(str(s) for s in seeds)


def mean(values):
    return sum(values) / len(values)


def rank(order, value):
    return (order.index(value) if value in order else len(order), value)


def edges_table(runs):
    """(columns, rows) of the edges table."""
    check_paradigm(runs, "unsupervised")
    per_edge = {}
    for run in runs:
        w = run["results"].get("gdMeanW1ToUniformPerEdge")
        if (not isinstance(w, list) or len(w) < 2 or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)
                for v in w)):
            raise AnalysisError("%s: summary.results.gdMeanW1ToUniformPerEdge is %s, not a list "
                             "of numbers before and after each edge"
                             % (run["path"], "missing" if w is None else repr(w)))
        if w[0] <= 0:
            raise AnalysisError("%s: W1 before is %r: no fall can be given as a share of it"
                             % (run["path"], w[0]))
        per_edge[id(run)] = [float(v) for v in w]
    lengths = {len(w) for w in per_edge.values()}
    if len(lengths) > 1:
        raise AnalysisError("the runs have different numbers of edges (%s): one table holds one"
                         % ", ".join(str(n - 1) for n in sorted(lengths)))
    edges = lengths.pop() - 1
    groups = group(runs, lambda r: (r["params"].get("requestPoints"), str(r["params"]["graph"])),
                   ["requestPoints", "graph"])
    columns = (["Q", "graph", "seeds", "runs", "W1 before"]
               + ["W1 after edge %d" % k for k in range(1, edges + 1)]
               + ["fall edge %d (%% of before)" % k for k in range(1, edges + 1)]
               + ["rl below it after edge %d" % k for k in range(1, edges + 1)])
    rows = []
    for q, graph in sorted(groups, key=lambda k: (k[0] is None, k[0] or 0,
                                                  rank(METHODS, k[1]))):
        members = sorted(groups[(q, graph)], key=lambda r: str(r["seed"]))
        ws = [per_edge[id(r)] for r in members]
        row = {"Q": "" if q is None else q, "graph": graph,
               "seeds": seed_text([r["seed"] for r in members]), "runs": len(members),
               "W1 before": "%.3f" % mean([w[0] for w in ws])}
        rl = {r["seed"]: per_edge[id(r)] for r in groups.get((q, "rl"), [])}
        for k in range(1, edges + 1):
            row["W1 after edge %d" % k] = "%.3f" % mean([w[k] for w in ws])
            row["fall edge %d (%% of before)" % k] = "%.1f" % mean(
                [100 * (w[k - 1] - w[k]) / w[0] for w in ws])
            shared = [(rl[r["seed"]], per_edge[id(r)]) for r in members if r["seed"] in rl]
            row["rl below it after edge %d" % k] = (
                "" if graph == "rl" or not shared else
                "%d of %d" % (sum(1 for a, b in shared if a[k] < b[k]), len(shared)))
        rows.append(row)
    return columns, rows


def labelling_table(runs):
    """(columns, rows) of the labelling table."""
    check_paradigm(runs, "semi-supervised")

    def key(run):
        labeller = str(run["params"].get("labeller") or "propagation")
        return (labeller, run["params"].get("pcaDims") if labeller == "propagation" else None)

    for run in runs:
        number(run, "gdLabellingMeanUnlabelledAccuracy")
        number(run, "gdLabellingMeanAccuracy")
        if key(run)[0] == "propagation":
            number(run, "gdPcaBytes")
    # mlp ignores --pcaDims: its runs are one row whatever d they were given.
    groups = group(runs, key, ["labeller", "pcaDims"])
    seeds = sorted({r["seed"] for r in runs}, key=lambda s: (str(type(s)), s))
    columns = (["labeller", "d", "seeds", "runs"] + ["seed %s" % s for s in seeds]
               + ["mean unlabelled accuracy", "mean accuracy", "PCA bytes"])
    rows = []
    for labeller, d in sorted(groups, key=lambda k: (k[0] != "propagation", k[0],
                                                     k[1] is None, k[1] or 0)):
        members = groups[(labeller, d)]
        row = {"labeller": labeller, "d": "" if d is None else d,
               "seeds": seed_text([r["seed"] for r in members]), "runs": len(members)}
        for s in seeds:
            hit = [r for r in members if r["seed"] == s]
            row["seed %s" % s] = ("%.4f" % number(hit[0], "gdLabellingMeanUnlabelledAccuracy")
                                  if hit else "")
        row["mean unlabelled accuracy"] = "%.4f" % mean(
            [number(r, "gdLabellingMeanUnlabelledAccuracy") for r in members])
        row["mean accuracy"] = "%.4f" % mean([number(r, "gdLabellingMeanAccuracy")
                                              for r in members])
        pca = mean([number(r, "gdPcaBytes") if "gdPcaBytes" in r["results"] else 0.0
                    for r in members])
        row["PCA bytes"] = "%d" % round(pca)
        rows.append(row)
    return columns, rows


LABELLERS = ["propagation", "mlp"]


def downstream_table(runs):
    """(columns, rows) of the downstream table."""
    def paradigm(run):
        return str(run["params"].get("paradigm") or "supervised")

    for run in runs:
        if paradigm(run) not in ("supervised", "semi-supervised"):
            raise AnalysisError("%s: parameters.paradigm is %s; this table is of supervised or "
                             "semi-supervised runs" % (run["path"], paradigm(run)))
    if len({paradigm(r) for r in runs}) > 1:
        raise AnalysisError("supervised and semi-supervised runs: one table holds one paradigm")
    semi = paradigm(runs[0]) == "semi-supervised"
    for run in runs:
        for key in ("gdMeanW1ToUniformAfter", "finalAccuracy"):
            number(run, key)
        if semi:
            number(run, "gdLabellingMeanUnlabelledAccuracy")

    def labeller(run):
        return str(run["params"].get("labeller") or "propagation") if semi else "-"

    groups = group(runs, lambda r: (labeller(r), str(r["params"]["graph"])),
                   ["labeller", "graph"])
    best = {}  # (labeller, seed): the highest final accuracy of that labeller's runs
    for run in runs:
        k = (labeller(run), run["seed"])
        best[k] = max(best.get(k, -math.inf), number(run, "finalAccuracy"))
    columns = ["labeller", "graph", "seeds", "runs", "labelling accuracy", "W1 after",
               "final accuracy", "final accuracy per seed", "highest on seeds"]
    rows = []
    for lab, graph in sorted(groups, key=lambda k: (rank(LABELLERS, k[0]),
                                                     rank(METHODS, k[1]))):
        members = sorted(groups[(lab, graph)], key=lambda r: (str(type(r["seed"])), r["seed"]))
        acc = [number(r, "finalAccuracy") for r in members]
        rows.append({
            "labeller": lab, "graph": graph,
            "seeds": seed_text([r["seed"] for r in members]), "runs": len(members),
            "labelling accuracy": "%.4f" % mean(
                [number(r, "gdLabellingMeanUnlabelledAccuracy") for r in members])
            if semi else "",
            "W1 after": "%.3f" % mean([number(r, "gdMeanW1ToUniformAfter") for r in members]),
            "final accuracy": "%.3f" % mean(acc),
            "final accuracy per seed": "/".join("%.3f" % a for a in acc),
            "highest on seeds": "%d of %d" % (
                sum(1 for r, a in zip(members, acc) if a >= best[(lab, r["seed"])]),
                len(members))})
    return columns, rows


def t975(df):
    """t(0.975, df), from the one implementation (stats.py: SciPy's Student t)."""
    return analysis_stats.t975(df)


def t_interval(values):
    """(low, high) of the 95 % t-interval of the mean of values (at least two)."""
    m = mean(values)
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return m - half, m + half


def downstream_ci_table(runs):
    """(columns, rows) of the downstream-ci table."""
    check_paradigm(runs, "supervised")
    for run in runs:
        for key in ("gdMeanW1ToUniformAfter", "finalAccuracy"):
            number(run, key)
    names = sorted({n for r in runs for n in r["flags"]} - {"graph"})
    common = {}  # flag: the value most runs have (None: not given); a tie takes the smaller
    for n in names:
        counts = {}
        for r in runs:
            v = r["flags"].get(n)
            counts[v] = counts.get(v, 0) + 1
        common[n] = min(counts, key=lambda v: (-counts[v], v is not None, str(v)))

    def setting(run):
        return ", ".join("--%s=%s" % (n, run["flags"].get(n, "(not given)")) for n in names
                         if run["flags"].get(n) != common[n])

    groups = group(runs, lambda r: (setting(r), str(r["params"]["graph"])), ["graph"])
    columns = ["setting", "graph", "seeds", "runs", "W1 after", "final accuracy",
               "final accuracy 95 % CI", "rl minus it (points)",
               "rl minus it 95 % CI (points)", "rl above on seeds"]
    rows = []
    for key in sorted(groups, key=lambda k: (k[0] != "", k[0], rank(METHODS, k[1]))):
        graph = key[1]
        rl = {r["seed"]: number(r, "finalAccuracy") for r in groups.get((key[0], "rl"), [])}
        members = sorted(groups[key], key=lambda r: (str(type(r["seed"])), r["seed"]))
        acc = [number(r, "finalAccuracy") for r in members]
        row = {"setting": key[0], "graph": graph,
               "seeds": seed_text([r["seed"] for r in members]),
               "runs": len(members),
               "W1 after": "%.3f" % mean([number(r, "gdMeanW1ToUniformAfter") for r in members]),
               "final accuracy": "%.3f" % mean(acc),
               "final accuracy 95 % CI": "%.3f to %.3f" % t_interval(acc) if len(acc) > 1
               else "", "rl minus it (points)": "", "rl minus it 95 % CI (points)": "",
               "rl above on seeds": ""}
        diff = [100 * (rl[r["seed"]] - a) for r, a in zip(members, acc) if r["seed"] in rl]
        if graph != "rl" and diff:
            row["rl minus it (points)"] = "%+.2f" % mean(diff)
            if len(diff) > 1:
                row["rl minus it 95 % CI (points)"] = "%+.2f to %+.2f" % t_interval(diff)
            row["rl above on seeds"] = "%d of %d" % (sum(1 for v in diff if v > 0), len(diff))
        rows.append(row)
    return columns, rows


def regression_table(runs):
    """(columns, rows) of the regression table."""
    for run in runs:
        if str(run["params"].get("dataset") or "") != "polynomial":
            raise AnalysisError("%s: parameters.dataset is %s; this table is of polynomial "
                             "(regression) runs" % (run["path"], run["params"].get("dataset")))
        for key in ("gdMeanW1ToUniformBefore", "gdMeanW1ToUniformAfter", "gdPointsMoved",
                    "finalTestMse"):
            number(run, key)
    groups = group(runs, lambda r: str(r["params"]["graph"]), ["graph"])
    least = {}  # seed: the least W1 after of the runs of that seed
    for run in runs:
        least[run["seed"]] = min(least.get(run["seed"], math.inf),
                                 number(run, "gdMeanW1ToUniformAfter"))
    columns = ["graph", "seeds", "runs", "W1 before per seed", "W1 after per seed",
               "W1 after", "least W1 after on seeds", "points moved per seed",
               "final test MSE per seed"]
    rows = []
    for graph in sorted(groups, key=lambda g: rank(METHODS, g)):
        members = sorted(groups[graph], key=lambda r: (str(type(r["seed"])), r["seed"]))
        after = [number(r, "gdMeanW1ToUniformAfter") for r in members]
        rows.append({
            "graph": graph, "seeds": seed_text([r["seed"] for r in members]),
            "runs": len(members),
            "W1 before per seed": "/".join("%.2f" % number(r, "gdMeanW1ToUniformBefore")
                                           for r in members),
            "W1 after per seed": "/".join("%.3f" % a for a in after),
            "W1 after": "%.3f" % mean(after),
            "least W1 after on seeds": "%d of %d" % (
                sum(1 for r, a in zip(members, after) if a <= least[r["seed"]]),
                len(members)),
            "points moved per seed": "/".join("%d" % round(number(r, "gdPointsMoved"))
                                              for r in members),
            "final test MSE per seed": "/".join("%.3f" % number(r, "finalTestMse")
                                                for r in members)})
    return columns, rows


def scaling_table(runs):
    """(columns, rows) of the scaling table."""
    for run in runs:
        number(run, "gdRlEnergyJ")
        number(run, "gdMeanLinkPDrop")
        if number(run, "gdRlEnergyJ") <= 0:
            raise AnalysisError("%s: summary.results.gdRlEnergyJ is %r: no ratio to it"
                             % (run["path"], number(run, "gdRlEnergyJ")))

    def n(run):
        try:
            return int(run["params"]["nDevices"])
        except (KeyError, TypeError, ValueError):
            raise AnalysisError("%s: no parameters.nDevices" % run["path"])

    sizes = sorted({n(r) for r in runs})
    groups = group(runs, lambda r: (str(r["params"].get("rewardSharing") or "cluster-head"),
                                    n(r)), ["rewardSharing", "nDevices", "areaSideM"])
    sharing = sorted({k[0] for k in groups}, key=lambda v: rank(["cluster-head", "multicast"], v))
    columns = (["rewardSharing", "seeds"] + ["RL energy N=%d (J)" % k for k in sizes]
               + ["N=%d / N=%d" % (k, sizes[0]) for k in sizes[1:]]
               + ["mean P_D N=%d" % k for k in sizes])
    rows = []
    for share in sharing:
        energy = {}
        pd = {}
        seeds = set()
        for k in sizes:
            members = groups.get((share, k), [])
            if members:
                energy[k] = mean([number(r, "gdRlEnergyJ") for r in members])
                pd[k] = mean([number(r, "gdMeanLinkPDrop") for r in members])
                seeds |= {r["seed"] for r in members}
        row = {"rewardSharing": share, "seeds": seed_text(list(seeds))}
        for k in sizes:
            row["RL energy N=%d (J)" % k] = "%.5f" % energy[k] if k in energy else ""
            row["mean P_D N=%d" % k] = "%.3f" % pd[k] if k in pd else ""
        for k in sizes[1:]:
            row["N=%d / N=%d" % (k, sizes[0])] = (
                "%.2f" % (energy[k] / energy[sizes[0]]) if k in energy and sizes[0] in energy
                else "")
        rows.append(row)
    return columns, rows


def targets_table(runs):
    """(columns, rows) of the targets table."""
    targets = set()
    for run in runs:
        t = run["results"].get("targetsReached")
        if not isinstance(t, list) or not all(isinstance(e, dict) and "target" in e for e in t):
            raise AnalysisError("%s: summary.results.targetsReached is %s, not a list of targets"
                             % (run["path"], "missing" if t is None else repr(t)))
        targets |= {float(e["target"]) for e in t}
        for key in ("gdRlEnergyJ", "gdExchangeEnergyJ"):
            if key in run["results"]:
                number(run, key)
        for key in ("d2s_tx", "d2s_rx"):
            v = run["energy"].get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise AnalysisError("%s: summary.energy_j.%s is %s, not a number"
                                 % (run["path"], key, "missing" if v is None else repr(v)))
    targets = sorted(targets)
    group(runs, lambda r: str(r["params"]["graph"]), ["graph"])
    columns = (["graph", "seed"]
               + [c % round(100 * t) for t in targets
                  for c in ("round to %d %%", "energy to %d %% (J)")]
               + ["discovery energy (J)", "discovery share of D2S energy (%)"])
    rows = []
    for run in sorted(runs, key=lambda r: (rank(METHODS, str(r["params"]["graph"])),
                                           str(type(r["seed"])), r["seed"])):
        row = {"graph": str(run["params"]["graph"]), "seed": run["seed"]}
        reached = {float(e["target"]): e for e in run["results"]["targetsReached"]}
        for t in targets:
            e = reached.get(t, {})
            hit = e.get("round") is not None
            row["round to %d %%" % round(100 * t)] = "%d" % e["round"] if hit else "not reached"
            row["energy to %d %% (J)" % round(100 * t)] = (
                "%.0f" % float(e["energyJ"]) if hit and e.get("energyJ") is not None else "")
        disc = sum(number(run, k) for k in ("gdRlEnergyJ", "gdExchangeEnergyJ")
                   if k in run["results"])
        d2s = float(run["energy"]["d2s_tx"]) + float(run["energy"]["d2s_rx"])
        row["discovery energy (J)"] = "%.3f" % disc
        row["discovery share of D2S energy (%)"] = "%.2f" % (100 * disc / d2s) if d2s > 0 else ""
        rows.append(row)
    return columns, rows


def unsupervised_downstream_table(runs):
    """(columns, rows) of the unsupervised-downstream table."""
    check_paradigm(runs, "unsupervised")
    for run in runs:
        for key in ("gdMeanW1ToUniformAfter", "finalAccuracy"):
            number(run, key)

    def setting(run):
        p = run["params"]
        return (str(p.get("optimizer") or "sgd"), str(p.get("learningRate") or "0.05"),
                str(p.get("rounds") or ""))

    groups = group(runs, lambda r: setting(r) + (str(r["params"]["graph"]),),
                   ["optimizer", "learningRate", "rounds", "graph"])
    none = {}  # (setting, seed): final accuracy of the none run
    for run in runs:
        if str(run["params"]["graph"]) == "none":
            none[(setting(run), run["seed"])] = number(run, "finalAccuracy")
    columns = ["optimizer", "learning rate", "rounds", "graph", "seeds", "runs",
               "W1 after per seed", "W1 after", "final accuracy per seed", "final accuracy",
               "above none on seeds", "mean gain over none (points)"]
    rows = []
    for key in sorted(groups, key=lambda k: (k[:3], rank(METHODS, k[3]))):
        members = sorted(groups[key], key=lambda r: (str(type(r["seed"])), r["seed"]))
        w1 = [number(r, "gdMeanW1ToUniformAfter") for r in members]
        acc = [number(r, "finalAccuracy") for r in members]
        paired = [(a, none[(key[:3], r["seed"])]) for r, a in zip(members, acc)
                  if key[3] != "none" and (key[:3], r["seed"]) in none]
        rows.append({
            "optimizer": key[0], "learning rate": key[1], "rounds": key[2], "graph": key[3],
            "seeds": seed_text([r["seed"] for r in members]), "runs": len(members),
            "W1 after per seed": "/".join("%.3f" % v for v in w1),
            "W1 after": "%.3f" % mean(w1),
            "final accuracy per seed": "/".join("%.3f" % a for a in acc),
            "final accuracy": "%.3f" % mean(acc),
            "above none on seeds": "%d of %d" % (sum(1 for a, b in paired if a > b),
                                                  len(paired)) if paired else "",
            "mean gain over none (points)": "%+.1f" % (100 * mean([a - b for a, b in paired]))
            if paired else ""})
    return columns, rows


TABLES = {"edges": edges_table, "labelling": labelling_table, "downstream": downstream_table,
          "downstream-ci": downstream_ci_table,
          "regression": regression_table, "scaling": scaling_table, "targets": targets_table,
          "unsupervised-downstream": unsupervised_downstream_table}


def main(argv):
    return table_main(argv, "discovery_tables.py", __doc__, TABLES, load_run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
