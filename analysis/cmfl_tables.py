#!/usr/bin/python3
"""Tables of cmfl runs (Che et al. 2022: committee mechanism based FL) that the manual shows:
the robustness table of doc/reproductions/cmfl.md, final accuracy per attack and algorithm,
and the committee table beside it, how many attackers the CMFL runs let in.

Usage:
    /usr/bin/python3 analysis/cmfl_tables.py robustness RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/cmfl_tables.py committee RUN_DIR [RUN_DIR ...] [--out FILE]
    /usr/bin/python3 analysis/cmfl_tables.py screening RUN_DIR [RUN_DIR ...] [--out FILE]

Each RUN_DIR is an --outDir of build/bin/cmfl; robustness reads its run.json, committee
also its committee.csv. The table is written as CSV to FILE (default: stdout).

robustness: a row per attack setting, a column per algorithm. The row is (parameters.attack,
parameters.maliciousFraction, parameters.attackSpace); runs without attack (attack none) make
one row whatever their attack space (it changes nothing without attackers), with epsilon 0
and space "-". Rows in the order: no attack, back-gradient, gradient-scaling, then the other
attacks by name; epsilon ascending; space weights before update. Columns:

  attack, epsilon (%), space    the row's setting
  seeds                         the seeds of the row's runs ("1, 2", or "1-8" for a range)
  one column per algorithm      mean over the seeds of summary.final_accuracy (the global
                                model's test accuracy after the last round; 3 decimals),
                                then, with more than one seed in the row, each seed's value
                                in brackets in the order of the seeds column, "/" between
                                them ("0.536 (0.488/0.585)"; "-" for a seed the cell has
                                no run of); empty if the row has no run of the algorithm

Algorithms in the order CMFL-I (cmfl-1), CMFL-II (cmfl-2), FedAvg, Median, Trimmed Mean,
Krum, Multi-Krum, then any other by its --algorithm name.

committee: a row per CMFL run (cmfl-1, cmfl-2: the registry's protocols of class D2dCmfl)
under attack (attack not none; the other runs are left out, so it takes the same run folders
as robustness), in the robustness table's order of algorithm, attack, epsilon and space,
then seed. From committee.csv (a row per round: the numbers of training, committee and
aggregated clients and of malicious ones among them, n1, n2, n3):

  algorithm, attack, epsilon (%), space, seed
  rounds                            rows of committee.csv
  training, committee               the sizes (min-max over the rounds where they vary)
  malicious training max            the most malicious training clients in a round (max n1)
  malicious committee               malicious committee members: min-max over the rounds
                                    (n2), and the mean (1 decimal) in brackets
  rounds with a malicious majority  rounds whose committee held more than half malicious
                                    members (2 n2 > committee)
  rounds with an attacker aggregated rounds with n3 > 0

screening: the runs of a campaign that varies other flags too (the cause campaigns of
doc/reproductions/cmfl.md, "Why": cmfl-update-causes.toml, cmfl-attack-gain.toml,
cmfl-clean-causes.toml), a row per setting, that is per set of runs given the same flags but
for the seed (and how the run is executed); rows in the order of their flags' values. Columns:

  one per flag that differs among the runs (in name order; "-" where a run was not given
  it), then
  seeds                             the seeds of the row's runs
  final accuracy                    the mean over the seeds, each seed's value in brackets
                                    with more than one seed (as robustness)
  attackers training (%)            CMFL runs: 100 sum n1 / sum training over the rounds
                                    and seeds of committee.csv (1 decimal); empty for the
                                    other algorithms
  attackers aggregated (%)          CMFL runs: 100 sum n3 / sum aggregation (the share of
                                    the aggregated updates that were attackers')
  rounds with an attacker aggregated  CMFL runs: per seed, the rounds with n3 > 0,
                                    "/" between the seeds
  honest accepted (%)               CMFL runs: of the honest clients' turns as training
                                    clients, the share aggregated: 100 sum aggregated /
                                    sum training over the devices of aggregation.csv with
                                    malicious 0 (how selective strategy I or II was among
                                    the honest clients)

A CMFL run without a readable committee.csv or aggregation.csv is refused, as is a seed
twice in one row.

robustness and committee: all runs of one table must have been given the same flags (parameters.commandLine) but for
the row's and column's keys (algorithm, attack, maliciousFraction, attackSpace) and the flags
that do not distinguish runs (d2dlearn_analysis/run_flags.py: the seed, --RngRun and how
the run is executed or traced: outDir, quiet, threads, traces, ...): a table
never mixes, say, 100 and 200 devices. A seed twice in one cell is refused too.

Bad input (a missing folder or run.json, an unparsable run.json, a run that is not cmfl's or
has no final accuracy, a CMFL run under attack without a readable committee.csv, runs that
the table cannot hold together) gives a one-line error on
stderr and exit code 2, and nothing is written.
"""

import math
import os
import sys

from d2dlearn_analysis.errors import AnalysisError
from d2dlearn_analysis.protocols import for_program, labelled
from d2dlearn_analysis.reader import read_columns, read_run_json
from d2dlearn_analysis.run_json import as_percent
from d2dlearn_analysis.run_flags import distinguishing_flags
from d2dlearn_analysis.run_json import table_main


def is_cmfl(entry):
    """A registry entry is CMFL's (class D2dCmfl: the runs cmfl.cc writes committee.csv and
    aggregation.csv for)."""
    return entry["class"] == "ns3::D2dCmfl"


#: The CMFL protocols' --algorithm names (cmfl-1, cmfl-2), from the library's registry.
CMFL = for_program("cmfl", is_cmfl)
#: --algorithm names in the table's column order, with the paper's names: the cmfl
#: scenario's protocols of the robustness table, CMFL and those with a server (not the
#: serverless efficiency baselines), from the library's registry.
ALGORITHMS = labelled(for_program("cmfl", lambda p: p["usesD2s"] or is_cmfl(p)))
ATTACKS = ["none", "back-gradient", "gradient-scaling"]
SPACES = ["weights", "update"]
#: The table's own keys: the row's and the column's.
OWN = {"algorithm", "attack", "maliciousFraction", "attackSpace"}


def load_run(run_dir):
    """{dir, path, seed, algorithm, attack, epsilon, space, accuracy, flags} of a run folder."""
    path = os.path.join(run_dir, "run.json")
    doc = read_run_json(run_dir)
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "algorithm" not in params or "attack" not in params:
        raise AnalysisError("%s: not a cmfl run (no parameters.algorithm and attack)" % path)
    acc = (doc.get("summary") or {}).get("final_accuracy")
    if isinstance(acc, bool) or not isinstance(acc, (int, float)) or not math.isfinite(acc):
        raise AnalysisError("%s: summary.final_accuracy is %s, not a number"
                         % (path, "missing" if acc is None else repr(acc)))
    seed = doc.get("seed", params.get("seed"))
    if seed is None:
        raise AnalysisError("%s: no seed" % path)
    attack = str(params["attack"])
    none = attack == "none"
    return {"dir": run_dir, "path": path, "seed": seed, "algorithm": str(params["algorithm"]),
            "attack": attack, "epsilon": 0 if none else as_percent(params.get("maliciousFraction", 0)),
            "space": "-" if none else str(params.get("attackSpace", "")),
            "accuracy": float(acc), "flags": distinguishing_flags(params, OWN),
            "all_flags": distinguishing_flags(params)}


def check_alike(runs):
    """Refuses runs that differ in a flag other than the table's own keys and the seed."""
    first = runs[0]
    for run in runs[1:]:
        names = sorted(set(first["flags"]) | set(run["flags"]))
        differ = [n for n in names if first["flags"].get(n) != run["flags"].get(n)]
        if differ:
            n = differ[0]
            raise AnalysisError("%s and %s: one table, but --%s differs (%s against %s): a table "
                             "holds runs that differ only in their seed, algorithm and attack"
                             % (first["dir"], run["dir"], n,
                                first["flags"].get(n, "(not given)"),
                                run["flags"].get(n, "(not given)")))


def seed_key(s):
    return (not isinstance(s, int), s if isinstance(s, int) else 0, str(s))


def seed_text(seeds):
    """'1-8' for a run of three or more consecutive integers, else '1, 3, 4'."""
    seeds = sorted(seeds, key=seed_key)
    if (len(seeds) > 2 and all(isinstance(s, int) for s in seeds)
            and seeds == list(range(seeds[0], seeds[0] + len(seeds)))):
        return "%d-%d" % (seeds[0], seeds[-1])
    return ", ".join(str(s) for s in seeds)


def rank(order, value):
    return (order.index(value) if value in order else len(order), value)


def robustness_table(runs):
    """(columns, rows) of the robustness table."""
    check_alike(runs)
    cells = {}
    for run in runs:
        key = (run["attack"], run["epsilon"], run["space"], run["algorithm"])
        cell = cells.setdefault(key, {})
        if run["seed"] in cell:
            raise AnalysisError("%s and %s: seed %s twice in one cell (%s, epsilon %s, space %s, "
                             "%s)" % (cell[run["seed"]]["dir"], run["dir"], run["seed"], *key))
        cell[run["seed"]] = run
    known = [a for a, _ in ALGORITHMS]
    algorithms = known + sorted({k[3] for k in cells} - set(known))
    names = dict(ALGORITHMS)
    columns = (["attack", "epsilon (%)", "space", "seeds"]
               + [names.get(a, a) for a in algorithms])
    rows = []
    settings = sorted({k[:3] for k in cells},
                      key=lambda k: (rank(ATTACKS, k[0]), k[1], rank(SPACES, k[2])))
    for attack, epsilon, space in settings:
        seeds = sorted({s for k, cell in cells.items() if k[:3] == (attack, epsilon, space)
                        for s in cell}, key=seed_key)
        row = {"attack": attack, "epsilon (%)": epsilon, "space": space,
               "seeds": seed_text(seeds)}
        for a in algorithms:
            cell = cells.get((attack, epsilon, space, a))
            text = ""
            if cell:
                values = [cell[s]["accuracy"] for s in sorted(cell, key=seed_key)]
                text = "%.3f" % (sum(values) / len(values))
                if len(seeds) > 1:
                    text += " (%s)" % "/".join(
                        "%.3f" % cell[s]["accuracy"] if s in cell else "-" for s in seeds)
            row[names.get(a, a)] = text
        rows.append(row)
    return columns, rows


COMMITTEE_COLUMNS = ["round", "training", "committee", "aggregation", "n1", "n2", "n3"]


def read_committee(run):
    """[{column: int}] of the rows of a run's committee.csv (the columns the table needs)."""
    path = os.path.join(run["dir"], "committee.csv")
    df = read_columns(path, COMMITTEE_COLUMNS, counts=COMMITTEE_COLUMNS)
    if df.empty:
        raise AnalysisError("%s: no rounds" % path)
    return df[COMMITTEE_COLUMNS].astype(int).to_dict("records")


def span(values):
    lo, hi = min(values), max(values)
    return "%d" % lo if lo == hi else "%d-%d" % (lo, hi)


def committee_table(runs):
    """(columns, rows) of the committee table."""
    check_alike(runs)
    cmfl = [r for r in runs if r["algorithm"] in CMFL and r["attack"] != "none"]
    seen = {}
    for run in cmfl:
        key = (run["algorithm"], run["attack"], run["epsilon"], run["space"], run["seed"])
        if key in seen:
            raise AnalysisError("%s and %s: seed %s twice in one setting (%s, %s, epsilon %s, "
                             "space %s)" % (seen[key]["dir"], run["dir"], run["seed"], *key[:4]))
        seen[key] = run
    names = dict(ALGORITHMS)
    columns = ["algorithm", "attack", "epsilon (%)", "space", "seed", "rounds", "training",
               "committee", "malicious training max", "malicious committee",
               "rounds with a malicious majority", "rounds with an attacker aggregated"]
    rows = []
    order = [a for a, _ in ALGORITHMS]
    for run in sorted(cmfl, key=lambda r: (rank(order, r["algorithm"]), rank(ATTACKS, r["attack"]),
                                           r["epsilon"], rank(SPACES, r["space"]),
                                           seed_key(r["seed"]))):
        c = read_committee(run)
        n2 = [r["n2"] for r in c]
        rows.append({
            "algorithm": names[run["algorithm"]], "attack": run["attack"],
            "epsilon (%)": run["epsilon"], "space": run["space"], "seed": run["seed"],
            "rounds": len(c), "training": span([r["training"] for r in c]),
            "committee": span([r["committee"] for r in c]),
            "malicious training max": max(r["n1"] for r in c),
            "malicious committee": "%s (%.1f)" % (span(n2), sum(n2) / len(n2)),
            "rounds with a malicious majority": sum(1 for r in c if 2 * r["n2"] > r["committee"]),
            "rounds with an attacker aggregated": sum(1 for r in c if r["n3"] > 0)})
    return columns, rows


def read_aggregation(run):
    """(sum of aggregated, sum of training) over the honest devices of aggregation.csv."""
    need = ["malicious", "training", "aggregated"]
    df = read_columns(os.path.join(run["dir"], "aggregation.csv"), need, counts=need)
    honest = df[df["malicious"] == 0]
    return int(honest["aggregated"].sum()), int(honest["training"].sum())


def value_key(text):
    """Numbers in numeric order before other values, those by name."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def screening_table(runs):
    """(columns, rows) of the screening table."""
    settings = {}
    names = sorted({n for run in runs for n in run["all_flags"]})
    varied = [n for n in names
              if len({run["all_flags"].get(n, "-") for run in runs}) > 1]
    for run in runs:
        key = tuple(run["all_flags"].get(n, "-") for n in varied)
        cell = settings.setdefault(key, {})
        if run["seed"] in cell:
            raise AnalysisError("%s and %s: seed %s twice in one setting"
                             % (cell[run["seed"]]["dir"], run["dir"], run["seed"]))
        cell[run["seed"]] = run
    columns = varied + ["seeds", "final accuracy", "attackers training (%)",
                        "attackers aggregated (%)", "rounds with an attacker aggregated",
                        "honest accepted (%)"]
    rows = []
    for key in sorted(settings, key=lambda k: [value_key(v) for v in k]):
        cell = settings[key]
        seeds = sorted(cell, key=seed_key)
        values = [cell[s]["accuracy"] for s in seeds]
        accuracy = "%.3f" % (sum(values) / len(values))
        if len(seeds) > 1:
            accuracy += " (%s)" % "/".join("%.3f" % v for v in values)
        row = dict(zip(varied, key))
        row.update({"seeds": seed_text(seeds), "final accuracy": accuracy,
                    "attackers training (%)": "", "attackers aggregated (%)": "",
                    "rounds with an attacker aggregated": "", "honest accepted (%)": ""})
        if all(cell[s]["algorithm"] in CMFL for s in seeds):
            n1 = training = n3 = aggregation = accepted = turns = 0
            rounds_in = []
            for s in seeds:
                c = read_committee(cell[s])
                for r in c:
                    n1 += r["n1"]
                    training += r["training"]
                    n3 += r["n3"]
                    aggregation += r["aggregation"]
                rounds_in.append(str(sum(1 for r in c if r["n3"] > 0)))
                a, t = read_aggregation(cell[s])
                accepted += a
                turns += t
            row.update({
                "attackers training (%)": "%.1f" % (100.0 * n1 / training) if training else "",
                "attackers aggregated (%)":
                    "%.1f" % (100.0 * n3 / aggregation) if aggregation else "",
                "rounds with an attacker aggregated": "/".join(rounds_in),
                "honest accepted (%)": "%.1f" % (100.0 * accepted / turns) if turns else ""})
        rows.append(row)
    return columns, rows


TABLES = {"robustness": robustness_table, "committee": committee_table,
          "screening": screening_table}


def main(argv):
    return table_main(argv, "cmfl_tables.py", __doc__, TABLES, load_run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
