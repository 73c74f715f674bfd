#!/usr/bin/python3
"""Cost of graph discovery's RL iterations per paradigm: for each
paradigm (supervised, semi-supervised, unsupervised, regression) and device count it runs

    build/bin/graph-discovery --downstream=none --quiet=true --seed=1 --nDevices=N
        --iterations=I PARADIGM'S FLAGS

at two iteration counts I1 < I2 per edge (by default 1 and 2001, unsupervised 1 and
41: its iterations cost tens of times more) and prints the wall time of each run, the RL
iterations done, the wall time per RL iteration, the ratio to supervised at the same device
count, and the projected wall time of the default run (the default iterations per edge, read
off --PrintHelp, x the run's edges). Each run's line also gives its reward clusters
(gd_nodes.csv): how many, the largest, and the ordered pairs of devices inside them, which
the unsupervised paradigm's eq. (17) compares every iteration; the growth lines print the
pairs beside the growth of the cost. Run by hand; not a test (tests/analysis/
test_bench_discovery_paradigms.py tests its arithmetic and parsing on a fake program).

Paradigms and their flags: supervised --paradigm=supervised; semi-supervised
--paradigm=semi-supervised; unsupervised --paradigm=unsupervised (two incoming edges unless
--edges is given); regression --dataset=polynomial (the regression campaign's data,
supervised paradigm; --downstream=none trains no model, so its --model=poly:3 has no part). Everything else is the program's default (Fashion-MNIST
at --dataFraction 0.25, one edge, PCA d = 50 ...).

RL iterations done: run.json records no counter of its own; the script reads them from
gd_iterations.csv, which keeps iteration 0 and the last iteration of every edge whatever
--traceEvery is: per edge the largest iteration + 1, summed over the edges (and checked
against run.json's parameters.iterations x parameters.edges).

Phase timings: the program records none in wall time (run.json has the whole run's
wall_time_s; gd_stages.csv and gd_energy.csv give simulated times and energies only). So the
method is a two-point fit: per-iteration cost = (wall(I2) - wall(I1)) / (iterations done at
I2 - at I1), the slope; preparation (data, PCA, K-means, labelling, the exchange after each
edge, process start) = wall(I1) - slope x iterations done at I1, the intercept. The projected
default run = preparation + slope x default iterations per edge x edges. Wall times are the
script's own clock around each run (process start included); the 1-minute load average is
printed with the stamp (other work on the machine slows wall times). The fit assumes a
constant cost per iteration; checked once at 25 devices (2026-11-26, commit 66ec42d45ddc):
the default run measured 4.6 s supervised and 9.0 s semi-supervised against 5.6 s and 9.3 s
projected from 1 and 401 iterations. A slope at or below zero (start-up noise larger than the
iterations' cost) is printed with a warning: widen --iterations.

Whole runs (--whole 10,25): the default run (the default iterations per edge) of every
paradigm at those device counts, run whole and timed, with its ratio to supervised: the
measurement the projection stands in for.

The divergence kernel (when build/bin/bench-kl-blocks exists): eq. (17)'s blocks of KL
divergences (D2dKlBlocks) at the paradigm's default d = 50 and L = 7, the block of a 2- and
of a 4-device reward cluster (all its devices' clusters against all of them: 14 x 14 and
28 x 28, as D2dAgreementCache forms them), on both cores, against the machine's
double-precision dgemm rate measured by the same program on the same threads: GFLOP/s and the
ratio (bench-kl-blocks says how it counts).

Usage: /usr/bin/python3 bench/bench-discovery-paradigms.py [--bin DIR] [--devices 10,25,100]
       [--iterations I1,I2] [--paradigms supervised,semi-supervised,unsupervised,regression]
       [--whole 10,25] [--no-fit] [--out FILE.json]
"""

import argparse
import csv
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

PARADIGMS = {
    "supervised": ["--paradigm=supervised"],
    "semi-supervised": ["--paradigm=semi-supervised"],
    "unsupervised": ["--paradigm=unsupervised"],
    "regression": ["--dataset=polynomial"],
}
# I1,I2 per edge when --iterations is not given: a difference of a few tenths of a second of
# iterations at least (below that the slope is start-up noise), a few seconds at most.
# (401 left semi-supervised's slope at 10 devices inside its start-up noise of +-0.3 s.)
# Unsupervised's cost per iteration varies by tens of percent from one iteration to the next
# (the links chosen, the points drawn): 40 iterations at least average it.
DEFAULT_ITERATIONS = {"supervised": (1, 2001), "semi-supervised": (1, 2001),
                      "unsupervised": (1, 41), "regression": (1, 2001)}
COMMON = ["--downstream=none", "--quiet=true", "--seed=1"]
MAX_DEVICES = 1000
MAX_ITERATIONS = 100000


class BadInput(Exception):
    pass


def int_list(text, name, lo, hi):
    """'10,25' -> [10, 25]; every value an integer in [lo, hi], else BadInput naming the
    parameter and the range."""
    try:
        vals = [int(v) for v in text.split(",")]
    except ValueError:
        vals = None
    if not vals or any(not lo <= v <= hi for v in vals):
        raise BadInput(f"{name} {text!r}: integers {lo} to {hi}, separated by commas")
    return vals


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "bin"),
                    help="folder of graph-discovery [build/bin]")
    ap.add_argument("--devices", default="10,25,100")
    ap.add_argument("--iterations", help="I1,I2: RL iterations per edge, for every paradigm "
                    "[supervised, semi-supervised, regression 1,2001; unsupervised 1,6]")
    ap.add_argument("--paradigms", default=",".join(PARADIGMS))
    ap.add_argument("--whole", help="device counts whose default runs are run whole")
    ap.add_argument("--no-fit", action="store_true",
                    help="no two-point fit (only --whole's runs and the kernel)")
    ap.add_argument("--out", help="the figures as JSON")
    a = ap.parse_args(argv)
    a.devices = int_list(a.devices, "--devices", 2, MAX_DEVICES)
    a.whole = [] if a.whole is None else int_list(a.whole, "--whole", 2, MAX_DEVICES)
    if a.iterations is not None:
        its = int_list(a.iterations, "--iterations", 1, MAX_ITERATIONS)
        if len(its) != 2 or its[0] >= its[1]:
            raise BadInput(f"--iterations {a.iterations}: two counts I1,I2 "
                           f"with 1 <= I1 < I2 <= {MAX_ITERATIONS}")
        a.iterations = {p: tuple(its) for p in PARADIGMS}
    else:
        a.iterations = dict(DEFAULT_ITERATIONS)
    a.paradigms = a.paradigms.split(",")
    bad = [p for p in a.paradigms if p not in PARADIGMS]
    if bad or not a.paradigms:
        raise BadInput(f"--paradigms {bad[0] if bad else ''!r}: one or more of "
                       f"{', '.join(PARADIGMS)}, separated by commas")
    a.program = os.path.join(a.bin, "graph-discovery")
    if not os.access(a.program, os.X_OK):
        raise BadInput(f"--bin {a.bin!r}: a folder holding an executable graph-discovery")
    return a


def default_iterations(help_text):
    """The default of --iterations from --PrintHelp's text."""
    m = re.search(r"--iterations:.*\[(\d+)\]", help_text)
    if not m:
        raise ValueError("no default of --iterations in --PrintHelp")
    return int(m.group(1))


def iterations_done(outdir):
    """RL iterations done by the run in outdir and its edges: per edge of gd_iterations.csv
    the largest iteration + 1, summed; checked against run.json's parameters."""
    last = {}
    with open(os.path.join(outdir, "gd_iterations.csv")) as f:
        for row in csv.DictReader(f):
            e, i = int(row["edge"]), int(row["iteration"])
            last[e] = max(last.get(e, -1), i)
    done = sum(i + 1 for i in last.values())
    with open(os.path.join(outdir, "run.json")) as f:
        p = json.load(f)["parameters"]
    edges = int(p["edges"])
    if done != int(p["iterations"]) * edges:
        raise ValueError(f"{outdir}: {done} iterations in gd_iterations.csv, run.json says "
                         f"{p['iterations']} x {edges} edges")
    return done, edges


def reward_pairs(outdir):
    """The reward clusters of the run in outdir (gd_nodes.csv's cluster column): their count,
    the largest one's size, and the ordered pairs of distinct devices inside clusters,
    sum |C| (|C| - 1): the pairs whose statistics eq. (17)'s system agreement compares (L^2
    KL divergences each) in each RL iteration of the unsupervised paradigm."""
    sizes = {}
    with open(os.path.join(outdir, "gd_nodes.csv")) as f:
        for row in csv.DictReader(f):
            sizes[row["cluster"]] = sizes.get(row["cluster"], 0) + 1
    return len(sizes), max(sizes.values(), default=0), sum(m * (m - 1) for m in sizes.values())


def fit(n1, w1, n2, w2):
    """Two points (iterations done, wall s) -> (seconds per iteration, preparation s)."""
    slope = (w2 - w1) / (n2 - n1)
    return slope, w1 - slope * n1


def figures(runs, default_iters):
    """runs: {(paradigm, devices): [(iterations done, edges, wall s) at I1, at I2]} -> one row
    (dict) per (paradigm, devices) with the fit, the projection and the ratio of the
    per-iteration cost and of the projected default run to supervised at the same devices."""
    rows = []
    for (par, n), ((i1, edges, w1, *_), (i2, _, w2, *more)) in runs.items():
        slope, prep = fit(i1, w1, i2, w2)
        clusters, largest, pairs = more[0] if more else (None, None, None)
        rows.append(dict(paradigm=par, devices=n, edges=edges, iterations=[i1, i2],
                         reward_clusters=clusters, largest_cluster=largest, pairs=pairs,
                         wall_s=[w1, w2], s_per_iteration=slope, preparation_s=prep,
                         default_iterations=default_iters * edges,
                         projected_default_s=prep + slope * default_iters * edges))
    sup = {r["devices"]: r for r in rows if r["paradigm"] == "supervised"}
    for r in rows:
        s = sup.get(r["devices"])
        r["ratio_per_iteration"] = (r["s_per_iteration"] / s["s_per_iteration"]
                                    if s and s["s_per_iteration"] > 0 else None)
        r["ratio_default"] = (r["projected_default_s"] / s["projected_default_s"]
                              if s and s["projected_default_s"] > 0 else None)
    return rows


def growth(rows, par, a, b):
    """Per-iteration cost at b devices over that at a, or None."""
    by = {r["devices"]: r["s_per_iteration"] for r in rows if r["paradigm"] == par}
    return by[b] / by[a] if a in by and b in by and by[a] > 0 and by[b] > 0 else None


def fmt_ratio(x):
    return "-" if x is None else f"{x:.2f}"


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


def commit():
    try:
        return subprocess.run(["git", "-C", TOP, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run_one(program, par, n, iters, outdir):
    """One run of par at n devices, iters RL iterations per edge (None: the default) ->
    (iterations done, edges, wall s, reward_pairs)."""
    cmd = [program] + COMMON + PARADIGMS[par] + [f"--nDevices={n}", f"--outDir={outdir}"]
    if iters is not None:
        cmd.append(f"--iterations={iters}")
    t0 = time.monotonic()
    res = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if res.returncode != 0:
        err = (res.stderr.strip().splitlines() or ["exit %d" % res.returncode])[-1]
        sys.exit(f"{' '.join(cmd)}: {err}")
    done, edges = iterations_done(outdir)
    return done, edges, wall, reward_pairs(outdir)


def main(argv=None):
    try:
        a = parse_args(sys.argv[1:] if argv is None else argv)
    except BadInput as e:
        print(f"bench-discovery-paradigms: {e}", file=sys.stderr)
        return 2
    help_text = subprocess.run([a.program, "--PrintHelp"], capture_output=True,
                               text=True).stdout
    dflt = default_iterations(help_text)
    print(f"bench-discovery-paradigms: {' '.join(COMMON)}, iterations per edge "
          + ", ".join(f"{p} {a.iterations[p][0]} and {a.iterations[p][1]}" for p in a.paradigms)
          + f"; default {dflt}")
    print(f"machine {machine()}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
          f"UTC, commit {commit()}, load {os.getloadavg()[0]:.2f}")
    print("method: two-point fit; s/iter = slope of wall time over RL iterations done, "
          "prep = intercept (the program records no phase wall times)")
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in [] if a.no_fit else a.devices:
            for par in a.paradigms:
                pts = []
                for it in a.iterations[par]:
                    out = os.path.join(tmp, f"{par}-{n}-{it}")
                    pts.append(run_one(a.program, par, n, it, out))
                    k, m, pairs = pts[-1][3]
                    print(f"  run {par:16s} N={n:<4d} iterations/edge {it:<6d} "
                          f"done {pts[-1][0]:<6d} wall {pts[-1][2]:8.2f} s  reward clusters "
                          f"{k}, largest {m}, pairs {pairs}", flush=True)
                runs[(par, n)] = pts
    rows = figures(runs, dflt)
    print(f"{'paradigm':16s} {'N':>4s} {'E':>2s} {'wall_I1_s':>9s} {'wall_I2_s':>9s} "
          f"{'iters':>9s} {'ms/iter':>10s} {'prep_s':>8s} {'x_sup':>7s} "
          f"{'default_s':>10s} {'def_x_sup':>9s}")
    for r in sorted(rows, key=lambda r: (r["devices"], list(PARADIGMS).index(r["paradigm"]))):
        print(f"{r['paradigm']:16s} {r['devices']:4d} {r['edges']:2d} {r['wall_s'][0]:9.2f} "
              f"{r['wall_s'][1]:9.2f} {r['iterations'][0]:>4d},{r['iterations'][1]:<4d} "
              f"{r['s_per_iteration'] * 1e3:10.2f} {r['preparation_s']:8.2f} "
              f"{fmt_ratio(r['ratio_per_iteration']):>7s} {r['projected_default_s']:10.1f} "
              f"{fmt_ratio(r['ratio_default']):>9s}")
    for r in rows:
        if r["s_per_iteration"] <= 0:
            print(f"warning: {r['paradigm']} at {r['devices']} devices: the slope is not "
                  "above the noise; give --iterations a wider gap")
    for par in a.paradigms:
        for x, y in zip(a.devices, a.devices[1:]):
            g = growth(rows, par, x, y)
            if g is not None:
                pa = {r["devices"]: r["pairs"] for r in rows if r["paradigm"] == par}
                pg = (f"; ordered pairs in reward clusters {pa[x]} -> {pa[y]}"
                      if pa.get(x) and pa.get(y) else "")
                print(f"growth {par} {x} -> {y} devices: per-iteration cost x {g:.2f}{pg}")
    whole = whole_runs(a)
    kernel = kernel_roofline(a.bin)
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(machine=machine(), commit=commit(), default_iterations=dflt,
                           method="two-point fit", rows=rows, whole=whole, kernel=kernel),
                      f, indent=1)
    return 0


def whole_runs(a):
    """The default runs of --whole's device counts, run whole: one dict per run with its wall
    time and its ratio to supervised at the same devices (printed)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.whole:
            sup = None
            for par in ["supervised"] + [p for p in a.paradigms if p != "supervised"]:
                done, edges, wall, _ = run_one(a.program, par, n, None,
                                               os.path.join(tmp, f"{par}-{n}"))
                sup = wall if par == "supervised" else sup
                out.append(dict(paradigm=par, devices=n, iterations=done, wall_s=wall,
                                ratio=wall / sup))
                print(f"whole {par:16s} N={n:<4d} iterations {done:<6d} wall {wall:8.2f} s  "
                      f"x supervised {wall / sup:6.2f}", flush=True)
    return out


def parse_kernel(text):
    """bench-kl-blocks' output -> {gemm_gflops, kernel_gflops} (ValueError if absent)."""
    got = {}
    for key in ("gemm_gflops", "kernel_gflops", "prepare_gflops"):
        m = re.search(r"^%s ([0-9.]+)" % key, text, re.M)
        if not m:
            raise ValueError(f"bench-kl-blocks printed no {key}")
        got[key] = float(m.group(1))
    return got


def kernel_roofline(bindir):
    """eq. (17)'s divergence kernel against dgemm (bench-kl-blocks, if built): one dict per
    block shape (printed), or [] without the program."""
    program = os.path.join(bindir, "bench-kl-blocks")
    if not os.access(program, os.X_OK):
        print("kernel: no bench-kl-blocks in --bin; the roofline is not measured")
        return []
    out = []
    for members in (2, 4):
        rows = 7 * members
        res = subprocess.run([program, "--d=50", f"--rows={rows}", f"--cols={rows}",
                              "--threads=2"], capture_output=True, text=True, check=True)
        k = parse_kernel(res.stdout)
        k.update(rows=rows, cols=rows, d=50, ratio=k["kernel_gflops"] / k["gemm_gflops"])
        out.append(k)
        print(f"kernel d 50, block {rows} x {rows} ({members}-device reward cluster), 2 threads: "
              f"{k['kernel_gflops']:.1f} GFLOP/s, dgemm {k['gemm_gflops']:.1f} GFLOP/s, "
              f"ratio {k['ratio']:.2f}; preparation (dpotrf, dpotri) "
              f"{k['prepare_gflops']:.1f} GFLOP/s", flush=True)
    return out


if __name__ == "__main__":
    sys.exit(main())
