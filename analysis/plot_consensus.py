#!/usr/bin/python3
"""Plots and the accuracy table of consensus runs (Fan, Mendler-Dünner, Jaggi 2023:
collaborative learning via prediction consensus, and its baselines).

Usage:
    /usr/bin/python3 analysis/plot_consensus.py RUN_DIR [RUN_DIR ...] [--out PLOT_DIR]
                                                [--round R] [--format png|pdf|svg]
    /usr/bin/python3 analysis/plot_consensus.py RUN_DIR [RUN_DIR ...] --table FILE

Each RUN_DIR is an --outDir of build/bin/consensus: rounds.csv
(`round,sim_time_s,node,metric,value`), run.json (parameters algorithm, trust,
flippedDevices) and, for --algorithm=consensus, trust.csv
(`round,sim_time_s,node,peer,w,received`).  Writes into PLOT_DIR (default: the first
RUN_DIR), in --format (default png):

  trust.png      the paper's Fig. 4: per consensus run, the trust matrix of round R (default:
                 the middle collaboration round) with the diagonal masked, and its column
                 sums without the diagonal in the bar beneath; flipped agents marked with *
  xstar.png      mean X* accuracy of the regular agents per round, one line per run
  bytes.png      bytes handed to the radios per round (node -1 bytes_sent), one line per run
  polynomial.png the paper's Fig. 1, per --dataset=polynomial run (samples.csv,
                 coefficients.csv): (a) the agents' local data and the true f, (b) each
                 agent's polynomial after the first round (local fit), (c) after the last
                 round on the range of X*, (d) the same on [-8, 8], where the agents may
                 disagree; polynomial_fits.csv holds the data behind it:
                 run,round,node,c0..cD,mse_truth,disagreement (mse_truth: the mean squared
                 error against the noise-free f on X*; disagreement: (1/(N n*)) sum_i sum_x
                 (p_i(x) - mean_j p_j(x))^2 on X*, the same for every node of a round)
  boundary.png   the paper's Fig. 2, per run with boundary.csv (2-D data): each agent's
                 predicted class on the grid, after the warm-up (top) and at the end
                 (bottom); boundary_summary.csv: run,round,node,bayes_agreement,class0..
                 (the share of grid points where the agent predicts the class of the
                 nearest of the four means of sec. 5.1, (-2,2), (2,2), (-2,-2), (2,-2), the
                 Bayes rule of that mixture; the share of points given to each class)

A table in the form of the paper's Table 1 is printed to stdout: per run its folder,
algorithm (consensus runs: algorithm/trust), the flipped agents, and the final test and X*
accuracy of the regular agents (mean over the agents not flipped; FedAvg/FedProx: the global
model's test accuracy, X* not measured).

--table FILE writes Table 1 itself as CSV to FILE and draws no figures: one row per group of
runs that differ only in their seed, settings in the order regular (no flipped agents),
then low quality (by the flipped agents), algorithms in the order fedavg, fedprox, local,
consensus (trust naive, static, dynamic); a fedprox row per mu. Columns:

  setting, flipped agents   "regular" or "low quality", and run.json's flippedDevices
  algorithm, trust          trust only for consensus ("fedprox mu=M" for fedprox)
  seeds, runs               the seeds ("1-3") and the number of runs of the row
  test accuracy             mean over the row's runs of the regular agents' final test
                            accuracy (as in the table above; 4 decimals)
  test seed S               that seed's run's value (a column per seed of any row; empty
                            where the row has no run of that seed)
  X* accuracy, X* seed S    the same for X* accuracy (empty where not measured: fedavg,
                            fedprox, local)

Runs of one row that differ in another flag of run.json's commandLine than those that do not
distinguish runs (d2dlearn_analysis/run_flags.py: the seed, --RngRun, outDir, quiet, threads,
traces, ...), hold a seed twice or have no accuracy rows are an error.

Bad input (a missing folder or file, a missing column, a non-numeric value) gives a
one-line error on stderr and exit code 2 before anything is written.
"""

import csv
import io
import os
import sys

# first: with a python3 that lacks matplotlib (pandas, SciPy), one line naming its Debian
# package and exit status 2, not a traceback (d2dlearn_analysis/requirements.py)
import d2dlearn_analysis  # noqa: F401
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from matplotlib.patches import Patch  # noqa: E402
from d2dlearn_analysis.atomic import atomic_open  # noqa: E402
from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report  # noqa: E402
from d2dlearn_analysis.protocols import for_program  # noqa: E402
from d2dlearn_analysis.reader import load_rounds, read_run_json  # noqa: E402
from d2dlearn_analysis.run_flags import distinguishing_flags  # noqa: E402
from d2dlearn_analysis.traces import (add_format_argument, axis_label, legend,  # noqa: E402
                      make_out_dir, note, read_trace, save_figure, series_style,
                      set_domain_limits, text_colour_on, to_numeric)

PROG = "plot_consensus.py"
TRUST_COLUMNS = ["round", "sim_time_s", "node", "peer", "w", "received"]
SAMPLES_COLUMNS = ["set", "node", "x", "y"]
COEFFICIENTS_COLUMNS = ["round", "sim_time_s", "node", "power", "coefficient"]
BOUNDARY_COLUMNS = ["round", "node", "x1", "x2", "class"]
# Sec. 5.1 of the paper: the four class means of the 2-D toy (unit covariance).
GAUSSIAN_MEANS = np.array([[-2.0, 2.0], [2.0, 2.0], [-2.0, -2.0], [2.0, -2.0]])
#: Table 1's order of algorithms (the consensus scenario's protocols, in the registry's
#: order: d2dlearn_analysis.protocols) and trust modes.
TABLE_ALGORITHMS = for_program("consensus")
TABLE_TRUST = ["naive", "static", "dynamic"]


def load_run(folder):
    meta = read_run_json(folder)
    params = meta.get("parameters", {})
    rounds_path = os.path.join(folder, "rounds.csv")
    rounds = load_rounds(rounds_path)
    trust = None
    trust_path = os.path.join(folder, "trust.csv")
    if os.path.isfile(trust_path):
        trust = read_trace(trust_path, TRUST_COLUMNS)
        to_numeric(trust, ["round", "node", "peer", "w"], trust_path)
    extra = {}
    for name, columns, numeric in (
            ("samples", SAMPLES_COLUMNS, ["node", "x", "y"]),
            ("coefficients", COEFFICIENTS_COLUMNS, ["round", "node", "power", "coefficient"]),
            ("boundary", BOUNDARY_COLUMNS, ["round", "node", "x1", "x2", "class"])):
        path = os.path.join(folder, name + ".csv")
        extra[name] = None
        if os.path.isfile(path):
            extra[name] = read_trace(path, columns)
            to_numeric(extra[name], numeric, path)
    if (extra["samples"] is None) != (extra["coefficients"] is None):
        raise AnalysisError("%s: samples.csv and coefficients.csv go together" % folder)
    if extra["samples"] is not None and not (extra["samples"]["set"] == "xstar").any():
        raise AnalysisError("%s: samples.csv has no xstar rows" % folder)
    flipped = params.get("flippedDevices", []) or []
    algorithm = str(params.get("algorithm", "?"))
    label = algorithm + ("/" + str(params.get("trust")) if algorithm == "consensus" else "")
    flags = distinguishing_flags(params)
    return {"folder": folder, "params": params, "rounds": rounds, "trust": trust,
            "seed": meta.get("seed", params.get("seed")), "flags": flags,
            "flipped": [int(v) for v in flipped], "algorithm": algorithm, "label": label,
            "samples": extra["samples"], "coefficients": extra["coefficients"],
            "boundary": extra["boundary"]}


def write_text(out, name, text):
    """Write out/name atomically (temporary file, then rename)."""
    with atomic_open(os.path.join(out, name), "w") as fh:
        fh.write(text)


def run_name(run):
    return os.path.basename(os.path.normpath(run["folder"]))


def polynomials(run, rnd):
    """{node: coefficients c0..cD} of a round of coefficients.csv."""
    c = run["coefficients"]
    c = c[c["round"] == rnd]
    out = {}
    for node, g in c.groupby("node"):
        g = g.sort_values("power")
        out[int(node)] = g["coefficient"].to_numpy(dtype=float)
    return out


def evaluate(coefficients, x):
    """p(x) = sum_e c_e x^e."""
    return np.polyval(np.asarray(coefficients, dtype=float)[::-1], np.asarray(x, dtype=float))


def polynomial_rows(run):
    """Rows of polynomial_fits.csv: per round and node the coefficients, the mean squared
    error against the noise-free f on X* (samples.csv's xstar rows) and the round's
    disagreement on X*."""
    xstar = run["samples"][run["samples"]["set"] == "xstar"].sort_values("x")
    if xstar.empty:
        raise AnalysisError("%s: samples.csv has no xstar rows" % run["folder"])
    x = xstar["x"].to_numpy(dtype=float)
    truth = xstar["y"].to_numpy(dtype=float)
    rows = []
    for rnd in sorted(run["coefficients"]["round"].unique()):
        polys = polynomials(run, rnd)
        values = np.array([evaluate(c, x) for c in polys.values()])
        dis = float(((values - values.mean(axis=0)) ** 2).sum() / values.size)
        for (node, c), v in zip(polys.items(), values):
            rows.append([int(rnd), node] + list(c) + [float(((v - truth) ** 2).mean()), dis])
    return rows


def plot_polynomial(runs, out, fmt):
    runs = [r for r in runs if r["coefficients"] is not None]
    if not runs:
        return None
    degree = max(int(r["coefficients"]["power"].max()) for r in runs)
    text = "run,round,node,%s,mse_truth,disagreement\n" % ",".join(
        "c%d" % e for e in range(degree + 1))
    for run in runs:
        for row in polynomial_rows(run):
            cs = row[2:-2] + [0.0] * (degree + 1 - len(row[2:-2]))
            text += "%s,%d,%d,%s,%.9g,%.9g\n" % (run_name(run), row[0], row[1],
                                                ",".join("%.9g" % v for v in cs),
                                                row[-2], row[-1])
    write_text(out, "polynomial_fits.csv", text)
    fig, axes = plt.subplots(len(runs), 4, figsize=(16, 3.6 * len(runs)), squeeze=False)
    for k, run in enumerate(runs):
        samples = run["samples"]
        train = samples[samples["set"] == "train"]
        xstar = samples[samples["set"] == "xstar"].sort_values("x")
        rounds = sorted(run["coefficients"]["round"].unique())
        lo, hi = float(xstar["x"].min()), float(xstar["x"].max())
        fine = np.linspace(lo, hi, 200)
        wide = np.linspace(2 * lo, 2 * hi, 200)
        # The truth: the cubic through X*'s noise-free targets (f is a cubic, App. A.1).
        truth = np.polyfit(xstar["x"], xstar["y"], 3)
        ax = axes[k][0]
        for node, g in train.groupby("node"):
            ax.scatter(g["x"], g["y"], s=8, label="agent %d" % node)
        ax.plot(fine, np.polyval(truth, fine), "k--", label="truth")
        ax.set_title("%s: local data" % run_name(run), fontsize=9)
        legend(ax, fontsize=7)
        panels = [(axes[k][1], rounds[0], fine, "round %d (local fit)" % rounds[0]),
                  (axes[k][2], rounds[-1], fine, "round %d, on X*'s range" % rounds[-1]),
                  (axes[k][3], rounds[-1], wide, "round %d, wider range" % rounds[-1])]
        axes[k][0].set_xlabel("x")
        axes[k][0].set_ylabel("y")
        for ax, rnd, x, title in panels:
            for node, c in polynomials(run, rnd).items():
                ax.plot(x, evaluate(c, x), label="agent %d" % node)
            ax.plot(x, np.polyval(truth, x), "k--", label="truth")
            if ax is not axes[k][3]:
                ax.scatter(xstar["x"], np.full(len(xstar), ax.get_ylim()[0]), marker="|",
                           color="grey", s=20, label="X*")
            ax.set_title(title, fontsize=9)
            ax.set_xlabel("x")
            ax.set_ylabel("p_i(x)")
            legend(ax, fontsize=7)
    return save_figure(fig, out, "polynomial." + fmt, fmt)


def boundary_rows(run):
    """Rows of boundary_summary.csv: per round and node the share of grid points where the
    agent predicts the nearest mean's class (sec. 5.1's Bayes rule), then the share of each
    class."""
    b = run["boundary"]
    classes = int(max(b["class"].max() + 1, len(GAUSSIAN_MEANS)))
    pts = b[["x1", "x2"]].to_numpy(dtype=float)
    d = ((pts[:, None, :] - GAUSSIAN_MEANS[None, :, :]) ** 2).sum(axis=2)
    bayes = d.argmin(axis=1)
    b = b.assign(bayes=bayes)
    rows = []
    for (rnd, node), g in b.groupby(["round", "node"]):
        shares = [float((g["class"] == c).mean()) for c in range(classes)]
        rows.append([int(rnd), int(node), float((g["class"] == g["bayes"]).mean())] + shares)
    return rows, classes


def plot_boundary(runs, out, fmt):
    runs = [r for r in runs if r["boundary"] is not None and not r["boundary"].empty]
    if not runs:
        return None
    summaries = [(run,) + boundary_rows(run) for run in runs]
    classes = max(s[2] for s in summaries)
    text = "run,round,node,bayes_agreement,%s\n" % ",".join(
        "class%d" % c for c in range(classes))
    for run, rows, _ in summaries:
        for row in rows:
            shares = row[3:] + [0.0] * (classes - len(row[3:]))
            text += "%s,%d,%d,%.9g,%s\n" % (run_name(run), row[0], row[1], row[2],
                                            ",".join("%.9g" % v for v in shares))
    write_text(out, "boundary_summary.csv", text)
    panels = []
    for run in runs:
        b = run["boundary"]
        for rnd in sorted(b["round"].unique()):
            panels.append((run, rnd, sorted(b[b["round"] == rnd]["node"].unique())))
    ncols = max(len(p[2]) for p in panels)
    fig, axes = plt.subplots(len(panels), ncols, figsize=(3.2 * ncols, 3.2 * len(panels)),
                             squeeze=False)
    for k, (run, rnd, nodes) in enumerate(panels):
        b = run["boundary"]
        for j in range(ncols):
            ax = axes[k][j]
            if j >= len(nodes):
                ax.axis("off")
                continue
            g = b[(b["round"] == rnd) & (b["node"] == nodes[j])]
            grid = g.pivot(index="x2", columns="x1", values="class").sort_index()
            ax.imshow(grid.to_numpy(), origin="lower", cmap="tab10", vmin=0, vmax=9,
                      extent=[grid.columns.min(), grid.columns.max(), grid.index.min(),
                              grid.index.max()], interpolation="nearest")
            ax.scatter(GAUSSIAN_MEANS[:, 0], GAUSSIAN_MEANS[:, 1], c="k", marker="x", s=20)
            mark = "*" if nodes[j] in run["flipped"] else ""
            ax.set_title("%s r%d agent %d%s" % (run["label"], rnd, nodes[j], mark),
                         fontsize=8)
            ax.set_xlabel("x1")
            ax.set_ylabel("x2")
    # The classes on the grids (tab10 colours, as drawn) and the marks of the means.
    cmap = plt.get_cmap("tab10")
    handles = [Patch(color=cmap(c), label="class %d" % c) for c in range(min(classes, 7))]
    handles.append(plt.Line2D([], [], color="k", marker="x", linestyle="none",
                              label="class means (sec. 5.1)"))
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=8,
               bbox_to_anchor=(0.5, 1.0), frameon=False,
               title="predicted class (* = flipped agent)", title_fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.94 if len(panels) > 1 else 0.88))
    return save_figure(fig, out, "boundary." + fmt, fmt)


def regular_mean(run, metric):
    """Final-round mean of metric over the regular agents (per-node rows), or the node -1
    value where there are no per-node rows (FedAvg's global model)."""
    df = run["rounds"]
    df = df[df["metric"] == metric]
    if df.empty:
        return float("nan")
    last = df["round"].max()
    df = df[df["round"] == last]
    nodes = df[(df["node"] >= 0) & (~df["node"].isin(run["flipped"]))]
    if not nodes.empty:
        return float(nodes.groupby("node")["value"].last().mean())
    glob = df[df["node"] == -1]
    return float(glob["value"].iloc[-1]) if not glob.empty else float("nan")


def _order(values, value):
    return (values.index(value) if value in values else len(values), value)


def _seed_text(seeds):
    """'1-3' for three or more consecutive integers, else '1, 3'."""
    seeds = sorted(seeds, key=lambda v: (str(type(v)), v))
    if (len(seeds) > 2 and all(isinstance(v, int) for v in seeds)
            and seeds == list(range(seeds[0], seeds[0] + len(seeds)))):
        return "%d-%d" % (seeds[0], seeds[-1])
    return ", ".join(str(v) for v in seeds)


def table1(runs):
    """(columns, rows) of Table 1 (--table): per setting and algorithm (and trust mode) the
    regular agents' final test and X* accuracy, mean over the seeds and each seed's."""
    groups = {}
    for run in runs:
        alg = run["algorithm"]
        trust = str(run["params"].get("trust")) if alg == "consensus" else ""
        mu = run["params"].get("mu") if alg == "fedprox" else None
        key = (tuple(sorted(run["flipped"])), alg, trust, mu)
        groups.setdefault(key, []).append(run)
    for members in groups.values():
        first = members[0]
        for run in members[1:]:
            names = sorted(set(first["flags"]) | set(run["flags"]))
            differ = [n for n in names if first["flags"].get(n) != run["flags"].get(n)]
            if differ:
                n = differ[0]
                raise AnalysisError("%s and %s: one row of the table, but --%s differs (%s "
                                 "against %s): only runs that differ in their seed are "
                                 "averaged" % (first["folder"], run["folder"], n,
                                               first["flags"].get(n, "(not given)"),
                                               run["flags"].get(n, "(not given)")))
        seeds = [r["seed"] for r in members]
        twice = sorted({str(s) for s in seeds if seeds.count(s) > 1})
        if twice:
            raise AnalysisError("%s: seed %s twice in one row of the table"
                             % (first["folder"], twice[0]))
    values = {}
    for run in runs:
        test = regular_mean(run, "accuracy")
        if not np.isfinite(test):
            raise AnalysisError("%s: rounds.csv has no accuracy rows" % run["folder"])
        values[id(run)] = (test, regular_mean(run, "xstar_accuracy"))
    seeds = sorted({r["seed"] for r in runs}, key=lambda v: (str(type(v)), v))
    columns = (["setting", "flipped agents", "algorithm", "trust", "seeds", "runs",
                "test accuracy"] + ["test seed %s" % s for s in seeds]
               + ["X* accuracy"] + ["X* seed %s" % s for s in seeds])
    rows = []
    for key in sorted(groups, key=lambda k: (len(k[0]) > 0, k[0], _order(TABLE_ALGORITHMS,
                                                                         k[1]),
                                             _order(TABLE_TRUST, k[2]), str(k[3]))):
        flipped, alg, trust, mu = key
        members = groups[key]
        row = {"setting": "low quality" if flipped else "regular",
               "flipped agents": " ".join(str(i) for i in flipped),
               "algorithm": alg + (" mu=%s" % mu if mu is not None else ""),
               "trust": trust, "seeds": _seed_text([r["seed"] for r in members]),
               "runs": len(members)}
        for j, name in enumerate(["test", "X*"]):
            got = [values[id(r)][j] for r in members]
            head = "test accuracy" if j == 0 else "X* accuracy"
            row[head] = "%.4f" % float(np.mean(got)) if all(np.isfinite(got)) else ""
            for s in seeds:
                hit = [values[id(r)][j] for r in members if r["seed"] == s]
                row["%s seed %s" % (name, s)] = ("%.4f" % hit[0]
                                                 if hit and np.isfinite(hit[0]) else "")
        rows.append(row)
    return columns, rows


def write_table(path, columns, rows):
    """Table 1 as CSV to path (atomically: a temporary file, then rename)."""
    text = io.StringIO()
    w = csv.DictWriter(text, columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    with atomic_open(path, "w", newline="") as fh:
        fh.write(text.getvalue())


def plot_trust(runs, round_choice, out, fmt):
    with_trust = [r for r in runs if r["trust"] is not None and not r["trust"].empty]
    if not with_trust:
        note("no trust.csv: trust figure skipped")
        return None
    fig, axes = plt.subplots(2, len(with_trust), figsize=(4.2 * len(with_trust), 5.2),
                             gridspec_kw={"height_ratios": [8, 1]}, squeeze=False)
    for k, run in enumerate(with_trust):
        t = run["trust"]
        rounds = sorted(t["round"].unique())
        r = round_choice if round_choice is not None else rounds[len(rounds) // 2]
        if r not in rounds:
            raise AnalysisError("%s: trust.csv has no round %d" % (run["folder"], r))
        sel = t[t["round"] == r]
        n = int(max(sel["node"].max(), sel["peer"].max())) + 1
        w = np.full((n, n), np.nan)
        for row in sel.itertuples():
            w[int(row.node), int(row.peer)] = row.w
        masked = w.copy()
        np.fill_diagonal(masked, np.nan)
        ax = axes[0][k]
        im = ax.imshow(masked, cmap="viridis", vmin=0.0, vmax=max(1e-12, np.nanmax(masked)
                                                                  if np.isfinite(masked).any()
                                                                  else 1.0))
        names = [("%d*" % i) if i in run["flipped"] else str(i) for i in range(n)]
        ax.set_xticks(range(n), names)
        ax.set_yticks(range(n), names)
        ax.set_xlabel("peer j (trusted; * = flipped labels)")
        ax.set_ylabel("agent i (who trusts)")
        ax.set_title("%s, round %d (diagonal masked)" % (run["label"], r), fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046).set_label(axis_label("trust_w"))
        sums = np.nansum(masked, axis=0)
        bar = axes[1][k]
        strip = bar.imshow(sums[np.newaxis, :], cmap="magma", aspect="auto")
        for j, v in enumerate(sums):
            colour = text_colour_on(strip.cmap(strip.norm(v)))
            bar.text(j, 0, "%.2f" % v, ha="center", va="center", fontsize=7, color=colour)
        bar.set_yticks([])
        bar.set_xticks(range(n), names)
        bar.set_xlabel("peer j")
        bar.set_ylabel("\u03a3_i w_ij", rotation=0, ha="right", va="center")
        bar.set_title("trust received: column sums without the diagonal", fontsize=8)
    fig.tight_layout()
    return save_figure(fig, out, "trust." + fmt, fmt)


def plot_metric(runs, metric, detail, name, out, fmt):
    """One line per run of the node -1 rows of a metric, each with its own marker and dash
    (identical series stay visible; a run at 0, such as local's bytes, is drawn on the
    axis, not under it), every run in the legend."""
    fig, ax = plt.subplots(figsize=(6.4, 4))
    drawn = 0
    for run in runs:
        df = run["rounds"]
        df = df[(df["metric"] == metric) & (df["node"] == -1)]
        if df.empty:
            continue
        df = df.groupby("round")["value"].last()
        label = "%s (%s)" % (run["label"], os.path.basename(os.path.normpath(run["folder"])))
        if (df == 0).all():
            label += ": 0 throughout"
        ax.plot(df.index, df.values, label=label, clip_on=False, zorder=3 + drawn,
                **series_style(drawn))
        drawn += 1
    if not drawn:
        plt.close(fig)
        note("no %s rows: %s skipped" % (metric, name))
        return None
    ax.set_xlabel(axis_label("round"))
    ax.set_ylabel(axis_label(metric, detail))
    set_domain_limits(ax, metric)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.grid(True, alpha=0.3)
    legend(ax, outside=drawn > 3)
    fig.tight_layout()
    return save_figure(fig, out, name + "." + fmt, fmt)


def main(argv):
    parser = ArgumentParser(description=__doc__)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="consensus run folders (each its --outDir)")
    parser.add_argument("--out", metavar="PLOT_DIR",
                        help="folder for the figures (default: the first RUN_DIR)")
    parser.add_argument("--round", type=int, metavar="N",
                        help="round of the trust matrix drawn (default: the middle round "
                             "of trust.csv)")
    parser.add_argument("--table", metavar="FILE",
                        help="write Table 1 (mean over seeds) as CSV to FILE, no figures")
    add_format_argument(parser)
    args = parser.parse_args(argv)
    if args.table is not None:
        try:
            columns, rows = table1([load_run(f) for f in args.runs])
            if not os.path.isdir(os.path.dirname(os.path.abspath(args.table))):
                raise AnalysisError("no folder for --table: %s" % args.table)
        except AnalysisError as exc:
            return report(PROG, exc)
        write_table(args.table, columns, rows)
        print("wrote %s (%d rows)" % (args.table, len(rows)))
        return 0
    try:
        runs = [load_run(f) for f in args.runs]
        out = make_out_dir(args.out or args.runs[0])
    except AnalysisError as exc:
        return report(PROG, exc)
    print("run,algorithm,flipped,test_accuracy_regular,xstar_accuracy_regular")
    for run in runs:
        print("%s,%s,%s,%.4f,%.4f" % (os.path.basename(os.path.normpath(run["folder"])),
                                      run["label"], " ".join(map(str, run["flipped"])),
                                      regular_mean(run, "accuracy"),
                                      regular_mean(run, "xstar_accuracy")))
    try:
        plot_trust(runs, args.round, out, args.format)
    except AnalysisError as exc:
        return report(PROG, exc)
    plot_metric(runs, "xstar_accuracy", "regular agents", "xstar", out, args.format)
    plot_metric(runs, "bytes_sent", "handed to all radios", "bytes", out, args.format)
    try:
        plot_polynomial(runs, out, args.format)
        plot_boundary(runs, out, args.format)
    except AnalysisError as exc:
        return report(PROG, exc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
