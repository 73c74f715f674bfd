#!/usr/bin/python3
"""Tables of consensus runs (Fan, Mendler-Dünner and Jaggi 2023) that the manual shows beside
Table 1 (analysis/plot_consensus.py --table): the heterogeneous-model experiment of sec. 5.2,
its accuracy per architecture and the trust between the architectures, and the toys: the
polynomials of App. A.1 and the Gaussian mixture of sec. 5.1.

Usage:
    /usr/bin/python3 analysis/consensus_tables.py hetero RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/consensus_tables.py hetero-trust RUN_DIR [RUN_DIR ...]
                                                  [--out FILE]
    /usr/bin/python3 analysis/consensus_tables.py polynomial RUN_DIR [...] [--out FILE]
    /usr/bin/python3 analysis/consensus_tables.py boundary RUN_DIR [...] [--out FILE]
    /usr/bin/python3 analysis/consensus_tables.py trust-columns RUN_DIR [...] [--out FILE]
    /usr/bin/python3 analysis/consensus_tables.py bytes RUN_DIR [...] [--out FILE]

Each RUN_DIR is an --outDir of build/bin/consensus run with several models (--model=A,B
and --modelAssignment: blocks gives agent i of N model i k / N of the k, round-robin model
i mod k); hetero reads run.json and rounds.csv, hetero-trust run.json and trust.csv. The
toys' tables take any consensus run with their traces. The table is written as CSV to FILE
(default: stdout). Flipped agents (run.json's flippedDevices) are left out of every mean.

hetero: a row for all the agents, then one per model (in --model's order). Columns:

  agents                 "all" or the model's agents ("0-4")
  model                  the model ("" for all)
  seeds                  the seeds of the runs
  one column per method  mean over the runs of the method of the mean final test accuracy
                         (rounds.csv metric accuracy at the last round) of the row's agents
                         (3 decimals); in the order local; consensus naive, static, dynamic
                         (the consensus program's protocols that take several architectures,
                         in the registry's order: d2dlearn_analysis.protocols; consensus by
                         its trust modes), then any other method by name
  METHOD per seed        each seed's value, "/" between them, in the order of seeds

hetero-trust: per consensus run whose trust is not naive (naive trust weighs every peer
the same), a row per (seed, model of the agent, model of the peer), in the middle
collaboration round (the middle one of trust.csv's rounds; the earlier of two): the mean
trust weight w that agents of the first model give to peers of the second, the agent's
weight on itself left out. Columns: method, seed, round, from, to, mean weight (4 decimals),
pairs (how many weights were averaged).

polynomial (--dataset=polynomial; samples.csv, coefficients.csv): per run, at the first
and the last round of coefficients.csv, a row per agent and a row "mean": method, seed,
round, agent, its coefficients c0..cD, its mean squared error against f on X*
(samples.csv's xstar rows, whose y is f) and the round's disagreement on X*, (1/(N n*))
sum_i sum_x (p_i(x) - mean_j p_j(x))^2 (as plot_consensus.py's polynomial_fits.csv; 4
significant digits); the mean row has the agents' mean error.

boundary (2-D data; boundary.csv, rounds.csv): per run and round of boundary.csv (after
the warm-up, at the end), a row per regular agent and a row "mean": the share of the grid
points where the agent predicts the class of the nearest of sec. 5.1's four means
(-2,2), (2,2), (-2,-2), (2,-2) (the Bayes rule of the mixture; %, 1 decimal) and its test
accuracy at that round (rounds.csv; 3 decimals).

trust-columns (consensus.csv): per consensus run (local and the other algorithms left out,
and so not compared with the consensus runs' flags),
sorted by trust mode and seed: the flipped agents; the middle collaboration round (the
middle one of consensus.csv's rounds, the earlier of two) and there each flipped agent's
column sum of W without the diagonal (column_sum_offdiag: the trust the others give it),
the agents of the lowest sums (as many as are flipped, at least one; "all equal" where
every sum is the same, as with naive trust) and the range of the
other agents' sums (3 decimals); consensus.csv's first and last round and there tr(W)
(trace), the delta of the product of the trust matrices (product_delta; 2 significant
digits) and the disagreement on X* (3 decimals).

bytes (rounds.csv, node -1's bytes_sent: the bytes handed to the radios in a round; rounds
from 1, round 0 being the initial evaluation): a row per method (fedavg, fedprox, local,
naive, static, dynamic: the consensus program's protocols in the registry's order, consensus
by its trust modes; then any other by name), its seeds, its rounds, how many of them sent
nothing (the warm-up rounds of consensus), the mean over its runs of the bytes of the last
round, and the most of any round (0 in a round without a bytes_sent row: local training
sends nothing); runs of one method are compared (flags) with each other only.

All runs of one table must have been given the same flags (parameters.commandLine) but for
the method (algorithm, trust) and the flags that do not distinguish runs
(d2dlearn_analysis/run_flags.py: the seed, --RngRun and how the run is executed or traced:
outDir, quiet, threads, traces, ...). Bad input (a missing folder or file, an unparsable run.json, a
run with one model, a missing column or non-numeric value, a seed twice for one method,
runs that differ otherwise) gives a one-line error on stderr and exit code 2, and nothing
is written.
"""

import math
import os
import sys

from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.protocols import for_program
from d2dlearn_analysis.reader import line_of, read_columns, read_run_json
from d2dlearn_analysis.run_flags import distinguishing_flags
from d2dlearn_analysis.run_json import table_main

#: consensus's trust modes (--trust), by hand: the registry's export names protocols, not the
#: values of a protocol's attributes.
TRUST = ["naive", "static", "dynamic"]


def methods(names):
    """The methods of protocol names, in their order: a protocol's name, consensus by its trust
    modes (a run's method, as load_run gives it)."""
    return [m for n in names for m in (TRUST if n == "consensus" else [n])]


#: The heterogeneous-model tables' methods, in order: the consensus program's protocols that
#: take several architectures, from the registry (consensus.cc refuses --model=A,B with a
#: D2dFedAvg protocol, FedAvg and FedProx averaging one model): local, naive, static, dynamic.
METHODS = methods(for_program("consensus", lambda p: p["class"] != "ns3::D2dFedAvg"))
#: The method: the table's own key.
OWN = {"algorithm", "trust"}


def load_run(run_dir):
    """{dir, path, seed, method, models, model_of, flipped, flags} of a consensus run folder."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "algorithm" not in params or "model" not in params:
        raise AnalysisError("%s: not a consensus run (no parameters.algorithm and model)" % path)
    algorithm = str(params["algorithm"])
    method = str(params.get("trust")) if algorithm == "consensus" else algorithm
    models = [m for m in str(params["model"]).split(",") if m]
    try:
        n = int(params["nDevices"])
    except (KeyError, TypeError, ValueError):
        raise AnalysisError("%s: no parameters.nDevices" % path)
    blocks = str(params.get("modelAssignment", "blocks")) == "blocks"
    model_of = {i: models[i * len(models) // n] if blocks else models[i % len(models)]
                for i in range(n)}
    seed = doc.get("seed", params.get("seed"))
    return {"dir": run_dir, "path": path, "seed": seed, "method": method, "models": models,
            "model_of": model_of, "flipped": {int(v) for v in params.get("flippedDevices") or []},
            "flags": distinguishing_flags(params, OWN)}


def read_rows(run, name, columns, numeric):
    """The rows of RUN/name (a CSV trace, reader.read_columns) as dicts, the numeric columns
    as floats, which must be finite (an empty cell is not)."""
    path = os.path.join(run["dir"], name)
    df = read_columns(path, numeric, [c for c in columns if c not in numeric])
    values = df[list(numeric)].astype(float)
    bad = values.isna().any(axis=1) | (values.abs() == math.inf).any(axis=1)
    if bad.any():
        raise AnalysisError("%s: line %d: not a finite number in %s"
                            % (path, line_of(df, bad), ",".join(numeric)))
    return df[list(columns)].astype({c: float for c in numeric}).to_dict("records")


def final_accuracy(run):
    """{agent: test accuracy at the last round} of a run (rounds.csv, nodes >= 0)."""
    rows = [r for r in read_rows(run, "rounds.csv", ["round", "node", "metric", "value"],
                                 ["round", "node", "value"])
            if r["metric"] == "accuracy" and r["node"] >= 0]
    if not rows:
        raise AnalysisError("%s: rounds.csv has no accuracy rows of the agents" % run["dir"])
    last = max(r["round"] for r in rows)
    return {int(r["node"]): r["value"] for r in rows if r["round"] == last}


def check(runs):
    """Refuses runs that differ in other flags than seed and method, or a seed twice."""
    first = runs[0]
    seen = {}
    for run in runs:
        names = sorted(set(first["flags"]) | set(run["flags"]))
        differ = [n for n in names if first["flags"].get(n) != run["flags"].get(n)]
        if differ:
            n = differ[0]
            raise AnalysisError("%s and %s: one table, but --%s differs (%s against %s): a table "
                             "holds runs that differ only in their seed and method"
                             % (first["dir"], run["dir"], n,
                                first["flags"].get(n, "(not given)"),
                                run["flags"].get(n, "(not given)")))
        key = (run["method"], run["seed"])
        if key in seen:
            raise AnalysisError("%s and %s: seed %s twice for %s"
                             % (seen[key]["dir"], run["dir"], run["seed"], run["method"]))
        seen[key] = run


def seed_key(s):
    return (not isinstance(s, int), s if isinstance(s, int) else 0, str(s))


def rank(order, value):
    return (order.index(value) if value in order else len(order), value)


def agents_text(agents):
    """'0-4' for consecutive agents, else '0, 2, 4'."""
    agents = sorted(agents)
    if len(agents) > 1 and agents == list(range(agents[0], agents[-1] + 1)):
        return "%d-%d" % (agents[0], agents[-1])
    return ", ".join(str(a) for a in agents)


def check_heterogeneous(runs):
    for run in runs:
        if len(run["models"]) < 2:
            raise AnalysisError("%s: parameters.model is %s: one model, no heterogeneous table"
                             % (run["path"], ",".join(run["models"])))


def hetero_table(runs):
    """(columns, rows) of the hetero table."""
    check_heterogeneous(runs)
    check(runs)
    models = runs[0]["models"]
    regular = [i for i in sorted(runs[0]["model_of"]) if i not in runs[0]["flipped"]]
    groups = [("all", "", regular)] + [
        (agents_text([i for i in regular if runs[0]["model_of"][i] == m]), m,
         [i for i in regular if runs[0]["model_of"][i] == m]) for m in models]
    methods = sorted({r["method"] for r in runs}, key=lambda m: rank(METHODS, m))
    seeds = sorted({r["seed"] for r in runs}, key=seed_key)
    acc = {id(r): final_accuracy(r) for r in runs}
    columns = (["agents", "model", "seeds"] + methods
               + ["%s per seed" % m for m in methods])
    rows = []
    for label, model, agents in groups:
        row = {"agents": label, "model": model,
               "seeds": ", ".join(str(s) for s in seeds)}
        for m in methods:
            per_seed = {}
            for run in runs:
                if run["method"] != m:
                    continue
                missing = [i for i in agents if i not in acc[id(run)]]
                if missing:
                    raise AnalysisError("%s: rounds.csv has no accuracy of agent %d at the last "
                                     "round" % (run["dir"], missing[0]))
                per_seed[run["seed"]] = sum(acc[id(run)][i] for i in agents) / len(agents)
            values = list(per_seed.values())
            row[m] = "%.3f" % (sum(values) / len(values))
            row["%s per seed" % m] = "/".join(
                "%.3f" % per_seed[s] if s in per_seed else "-" for s in seeds)
        rows.append(row)
    return columns, rows


def hetero_trust_table(runs):
    """(columns, rows) of the hetero-trust table."""
    check_heterogeneous(runs)
    check(runs)
    columns = ["method", "seed", "round", "from", "to", "mean weight", "pairs"]
    rows = []
    trusting = [r for r in runs if r["method"] in TRUST and r["method"] != "naive"]
    if not trusting:
        raise AnalysisError("no consensus run with static or dynamic trust among the runs")
    for run in sorted(trusting, key=lambda r: (rank(METHODS, r["method"]), seed_key(r["seed"]))):
        trust = read_rows(run, "trust.csv", ["round", "node", "peer", "w"],
                          ["round", "node", "peer", "w"])
        rounds = sorted({r["round"] for r in trust})
        if not rounds:
            raise AnalysisError("%s: trust.csv has no rows" % run["dir"])
        middle = rounds[(len(rounds) - 1) // 2]
        sums = {}
        for r in trust:
            node, peer = int(r["node"]), int(r["peer"])
            if (r["round"] != middle or node == peer or node in run["flipped"]
                    or peer in run["flipped"]):
                continue
            key = (run["model_of"].get(node), run["model_of"].get(peer))
            s = sums.setdefault(key, [0.0, 0])
            s[0] += r["w"]
            s[1] += 1
        for a in run["models"]:
            for b in run["models"]:
                if (a, b) in sums:
                    total, count = sums[(a, b)]
                    rows.append({"method": run["method"], "seed": run["seed"],
                                 "round": "%d" % middle, "from": a, "to": b,
                                 "mean weight": "%.4f" % (total / count), "pairs": count})
    return columns, rows


def polynomial_table(runs):
    """(columns, rows) of the polynomial table."""
    check(runs)
    rows = []
    degree = 0
    for run in sorted(runs, key=lambda r: (rank(METHODS, r["method"]), seed_key(r["seed"]))):
        xstar = [r for r in read_rows(run, "samples.csv", ["set", "node", "x", "y"],
                                      ["node", "x", "y"]) if r["set"] == "xstar"]
        if not xstar:
            raise AnalysisError("%s: samples.csv has no xstar rows" % run["dir"])
        coef = read_rows(run, "coefficients.csv", ["round", "node", "power", "coefficient"],
                         ["round", "node", "power", "coefficient"])
        rounds = sorted({r["round"] for r in coef})
        if not rounds:
            raise AnalysisError("%s: coefficients.csv has no rows" % run["dir"])
        for rnd in (rounds[0], rounds[-1]) if len(rounds) > 1 else rounds[:1]:
            polys = {}
            for r in coef:
                if r["round"] == rnd:
                    polys.setdefault(int(r["node"]), {})[int(r["power"])] = r["coefficient"]
            values = {}
            for node, c in polys.items():
                degree = max(degree, max(c))
                values[node] = [sum(v * x["x"] ** e for e, v in c.items()) for x in xstar]
            n = len(xstar)
            mean_at = [sum(values[i][k] for i in values) / len(values) for k in range(n)]
            disagreement = sum((values[i][k] - mean_at[k]) ** 2 for i in values
                               for k in range(n)) / (len(values) * n)
            mses = {}
            for node in sorted(polys):
                mses[node] = sum((values[node][k] - xstar[k]["y"]) ** 2 for k in range(n)) / n
                rows.append({"method": run["method"], "seed": run["seed"],
                             "round": "%d" % rnd, "agent": node, "coefficients": polys[node],
                             "MSE to f on X*": "%.4g" % mses[node],
                             "disagreement on X*": "%.4g" % disagreement})
            rows.append({"method": run["method"], "seed": run["seed"], "round": "%d" % rnd,
                         "agent": "mean", "coefficients": {},
                         "MSE to f on X*": "%.4g" % (sum(mses.values()) / len(mses)),
                         "disagreement on X*": "%.4g" % disagreement})
    powers = ["c%d" % e for e in range(degree + 1)]
    for row in rows:
        c = row.pop("coefficients")
        for e in range(degree + 1):
            row["c%d" % e] = ("%.4g" % c[e]) if e in c else ""
    columns = ["method", "seed", "round", "agent"] + powers + ["MSE to f on X*",
                                                                "disagreement on X*"]
    return columns, rows


#: Sec. 5.1: the four class means of the 2-D toy (unit covariance), as analysis/plot_consensus.py.
GAUSSIAN_MEANS = [(-2.0, 2.0), (2.0, 2.0), (-2.0, -2.0), (2.0, -2.0)]


def boundary_table(runs):
    """(columns, rows) of the boundary table."""
    check(runs)
    rows = []
    for run in sorted(runs, key=lambda r: (rank(METHODS, r["method"]), seed_key(r["seed"]))):
        grid = read_rows(run, "boundary.csv", ["round", "node", "x1", "x2", "class"],
                         ["round", "node", "x1", "x2", "class"])
        if not grid:
            raise AnalysisError("%s: boundary.csv has no rows" % run["dir"])
        acc = {}
        for r in read_rows(run, "rounds.csv", ["round", "node", "metric", "value"],
                           ["round", "node", "value"]):
            if r["metric"] == "accuracy":
                acc[(int(r["round"]), int(r["node"]))] = r["value"]
        counts = {}
        for r in grid:
            node = int(r["node"])
            if node in run["flipped"]:
                continue
            d = [(r["x1"] - a) ** 2 + (r["x2"] - b) ** 2 for a, b in GAUSSIAN_MEANS]
            bayes = d.index(min(d))
            c = counts.setdefault((int(r["round"]), node), [0, 0])
            c[0] += int(r["class"]) == bayes
            c[1] += 1
        for rnd in sorted({k[0] for k in counts}):
            nodes = sorted(k[1] for k in counts if k[0] == rnd)
            shares, accs = [], []
            for node in nodes:
                hit, total = counts[(rnd, node)]
                shares.append(100.0 * hit / total)
                a = acc.get((rnd, node))
                accs.append(a)
                rows.append({"method": run["method"], "seed": run["seed"], "round": rnd,
                             "agent": node, "nearest-mean agreement (% of grid)":
                             "%.1f" % shares[-1],
                             "test accuracy": "" if a is None else "%.3f" % a})
            rows.append({"method": run["method"], "seed": run["seed"], "round": rnd,
                         "agent": "mean", "nearest-mean agreement (% of grid)":
                         "%.1f" % (sum(shares) / len(shares)),
                         "test accuracy": "" if None in accs else
                         "%.3f" % (sum(accs) / len(accs))})
    columns = ["method", "seed", "round", "agent", "nearest-mean agreement (% of grid)",
               "test accuracy"]
    return columns, rows


CONSENSUS_COLUMNS = ["round", "node", "column_sum_offdiag", "trace", "product_delta",
                     "disagreement"]


def trust_columns_table(runs):
    """(columns, rows) of the trust-columns table."""
    columns = ["method", "seed", "flipped agents", "middle round", "flipped agents' column sums",
               "lowest column sums", "other agents' column sums", "first round", "last round",
               "tr(W) first", "tr(W) last", "product delta first", "product delta last",
               "disagreement first", "disagreement last"]
    rows = []
    consensus = [r for r in runs if r["method"] in TRUST
                 and os.path.isfile(os.path.join(r["dir"], "consensus.csv"))]
    if not consensus:
        raise AnalysisError("no consensus run with a consensus.csv among the runs")
    check(consensus)
    for run in sorted(consensus, key=lambda r: (rank(METHODS, r["method"]),
                                                seed_key(r["seed"]))):
        c = read_rows(run, "consensus.csv", CONSENSUS_COLUMNS, CONSENSUS_COLUMNS)
        rounds = sorted({r["round"] for r in c})
        if not rounds:
            raise AnalysisError("%s: consensus.csv has no rows" % run["dir"])
        middle = rounds[(len(rounds) - 1) // 2]
        sums = {int(r["node"]): r["column_sum_offdiag"] for r in c if r["round"] == middle}
        flipped = sorted(run["flipped"])
        lowest = sorted(sums, key=lambda n: (sums[n], n))[:max(1, len(flipped))]
        others = [v for n, v in sums.items() if n not in run["flipped"]]

        def at(rnd, key):
            return [r[key] for r in c if r["round"] == rnd][0]

        rows.append({
            "method": run["method"], "seed": run["seed"],
            "flipped agents": " ".join(str(n) for n in flipped),
            "middle round": "%d" % middle,
            "flipped agents' column sums": ", ".join(
                "%d: %.3f" % (n, sums[n]) for n in flipped if n in sums),
            "lowest column sums": ("all equal" if min(sums.values()) == max(sums.values())
                                   else " ".join(str(n) for n in sorted(lowest))),
            "other agents' column sums": ("%.3f-%.3f" % (min(others), max(others))
                                          if others else ""),
            "first round": "%d" % rounds[0], "last round": "%d" % rounds[-1],
            "tr(W) first": "%.3f" % at(rounds[0], "trace"),
            "tr(W) last": "%.3f" % at(rounds[-1], "trace"),
            "product delta first": "%.2g" % at(rounds[0], "product_delta"),
            "product delta last": "%.2g" % at(rounds[-1], "product_delta"),
            "disagreement first": "%.3f" % at(rounds[0], "disagreement"),
            "disagreement last": "%.3f" % at(rounds[-1], "disagreement")})
    return columns, rows


#: The bytes table's order: the consensus program's protocols in the registry's order,
#: consensus by its trust modes (fedavg, fedprox, local, naive, static, dynamic).
ALGORITHM_ORDER = methods(for_program("consensus"))


def bytes_table(runs):
    """(columns, rows) of the bytes table."""
    groups = {}
    for run in runs:
        groups.setdefault(run["method"], []).append(run)
    columns = ["method", "seeds", "rounds", "rounds that sent nothing",
               "bytes in the last round", "bytes per round, most"]
    rows = []
    for method in sorted(groups, key=lambda m: rank(ALGORITHM_ORDER, m)):
        members = sorted(groups[method], key=lambda r: seed_key(r["seed"]))
        check(members)
        last, most, counts, silent = [], [], set(), set()
        for run in members:
            per = {}
            rounds = set()
            for r in read_rows(run, "rounds.csv", ["round", "node", "metric", "value"],
                               ["round", "node", "value"]):
                if r["round"] < 1:  # round 0: the initial evaluation, nothing sent
                    continue
                rounds.add(int(r["round"]))
                if r["metric"] == "bytes_sent" and r["node"] == -1:
                    per[int(r["round"])] = r["value"]
            if not rounds:
                raise AnalysisError("%s: rounds.csv has no rows of rounds >= 1" % run["dir"])
            # a round without a bytes_sent row sent nothing (local training writes none)
            per = {k: per.get(k, 0.0) for k in rounds}
            last.append(per[max(per)])
            most.append(max(per.values()))
            counts.add(len(per))
            silent.add(sum(1 for v in per.values() if v == 0))
        rows.append({"method": method,
                     "seeds": ", ".join(str(r["seed"]) for r in members),
                     "rounds": "/".join(str(c) for c in sorted(counts)),
                     "rounds that sent nothing": "/".join(str(c) for c in sorted(silent)),
                     "bytes in the last round": "%.0f" % (sum(last) / len(last)),
                     "bytes per round, most": "%.0f" % max(most)})
    return columns, rows


TABLES = {"hetero": hetero_table, "hetero-trust": hetero_trust_table,
          "polynomial": polynomial_table, "boundary": boundary_table,
          "trust-columns": trust_columns_table, "bytes": bytes_table}


def main(argv):
    return table_main(argv, "consensus_tables.py", __doc__, TABLES, load_run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
