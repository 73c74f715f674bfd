#!/usr/bin/env bash
# The README's main job (`bash setup.sh --run`) in a temporary folder: fedavg on its
# defaults (FedAvg, 10 devices, Fashion-MNIST), then analysis/plot_rounds.py on its
# traces. Checks the trace files and headers, that the global model learns (accuracy
# rises by more than 0.15 and ends above 0.75), that every round is in rounds.csv, that
# models crossed the D2S link, that run.json names the BLAS and the CPU, and the three
# plots; in the accuracy-against-energy figure, read from the figure's own data, the
# total energy rises strictly from round to round (rounds.csv's exact energy_j rows at the
# default trace level, not energy.csv's per-second sums).
#
# Usage: bash fedavg-main-job.sh PATH/TO/fedavg PATH/TO/analysis/plot_rounds.py
set -euo pipefail

BIN=${1:?usage: bash fedavg-main-job.sh PATH/TO/fedavg PATH/TO/plot_rounds.py}
PLOT=${2:?usage: bash fedavg-main-job.sh PATH/TO/fedavg PATH/TO/plot_rounds.py}
PYTHON=/usr/bin/python3
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" fedavg-main-job

out="$TMP/fedavg"
echo "check: fedavg on its defaults"
if ! timeout 600 "$BIN" --outDir="$out" >"$TMP/log" 2>&1; then
    sed 's/^/    | /' "$TMP/log"
    fail "fedavg on its defaults failed"
fi
tail -n 3 "$TMP/log"
for f in rounds.csv messages.csv energy.csv run.json; do
    [ -s "$out/$f" ] || fail "$out/$f missing or empty"
done
[ "$(head -n 1 "$out/rounds.csv")" = "round,sim_time_s,node,metric,value" ] ||
    fail "rounds.csv header: $(head -n 1 "$out/rounds.csv")"
"$PYTHON" - "$out" <<'PY' || fail "the run does not show learning"
import json, sys
import pandas as pd
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
rounds = run["parameters"]["rounds"]
r = pd.read_csv(d + "/rounds.csv")
acc = r[(r.node == -1) & (r.metric == "accuracy")].sort_values("round")
assert list(acc["round"]) == list(range(0, rounds + 1)), list(acc["round"])
first, last = acc.value.iloc[0], acc.value.iloc[-1]
print(f"  accuracy: round 0 {first:.4f} -> round {rounds} {last:.4f}")
assert last > first + 0.15, (first, last)
assert last > 0.75, last
assert acc["sim_time_s"].is_monotonic_increasing
m = pd.read_csv(d + "/messages.csv")
kinds = set(m.kind)
assert {"global_model", "update"} <= kinds, kinds
assert m.delivered.sum() > 0
e = pd.read_csv(d + "/energy.csv")
comps = set(e.component)
assert {"compute", "d2s_tx", "d2s_rx"} <= comps, comps
print(f"  {len(m)} message rows, {len(e)} energy rows, components {sorted(comps)}")
PY
"$PYTHON" - "$out" <<'PY' || fail "run.json does not name the BLAS and the CPU that ran"
# The BLAS that LibTorch called: a library that exports sgemm_ (checked independently with
# ctypes), described by itself when it is OpenBLAS; the CPU as /proc/cpuinfo names it.
import ctypes, json, os, sys
p = json.load(open(sys.argv[1] + "/run.json"))["parameters"]
lib, config, cpu = p["blasLibrary"], p["blasConfig"], p["cpu"]
print(f"  BLAS {lib} ({config}), CPU {cpu}")
assert os.path.isfile(lib) and lib == os.path.realpath(lib), lib
assert hasattr(ctypes.CDLL(lib), "sgemm_"), lib
assert ("openblas" in lib.lower()) == config.startswith("OpenBLAS"), (lib, config)
names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
assert cpu == (names[0] if names else "unknown"), (cpu, names[:1])
PY

echo "check: analysis/plot_rounds.py writes the plots"
if ! timeout 300 "$PYTHON" "$PLOT" "$out" >"$TMP/plot.log" 2>&1; then
    sed 's/^/    | /' "$TMP/plot.log"
    fail "plot_rounds.py failed"
fi
for png in accuracy_vs_round.png accuracy_vs_time.png accuracy_vs_energy.png; do
    f="$out/plots/$png"
    if [ -s "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = "PNG" ]; then
        echo "  $png: $(stat -c %s "$f") bytes"
    else
        fail "$f missing or not a PNG"
    fi
done


echo "check: accuracy against energy: the energy of each round above the last's"
"$PYTHON" - "$out" "$TMP/figure" "$(dirname "$0")/../analysis" <<'PY' || fail "energy does not rise with the round in accuracy_vs_energy"
import sys
import numpy as np
sys.path.insert(0, sys.argv[3])
import figure_checks  # renders a script's figures here and keeps them (traces.DRAWN)
status, out, figs = figure_checks.render("plot_rounds", [sys.argv[1], "--out", sys.argv[2]])
assert status == 0, out
fig = dict(figs)["accuracy_vs_energy.png"]
total = [ax for ax in fig.axes if ax.get_title() == "total"]
assert len(total) == 1, [ax.get_title() for ax in fig.axes]
lines = [l for l in total[0].lines if len(l.get_xdata()) > 1]
assert lines, "no curve in the total panel"
x = np.asarray(lines[0].get_xdata(), dtype=float)
print("  total energy at rounds 0..%d: %s J" % (len(x) - 1, " ".join("%.4g" % v for v in x)))
assert np.all(np.isfinite(x)) and np.all(np.diff(x) > 0), x
# ... and they are rounds.csv's exact energy at each round's end (the join with energy.csv's
# per-second rows that the figure used before gave 0, 10.7, 46.0 J where these are 0,
# 49.7, 99.3 J: a staircase below the truth)
import pandas as pd
r = pd.read_csv(sys.argv[1] + "/rounds.csv")
e = r[(r.node == -1) & (r.metric == "energy_j")].groupby("round").last()["value"]
assert len(e) == len(x) and np.allclose(x, e.to_numpy(), rtol=1e-12, atol=0), (x, e)
for ax in fig.axes:  # every panel: never less energy at a later round
    for line in ax.lines:
        xs = np.asarray(line.get_xdata(), dtype=float)
        if len(xs) > 1:
            assert np.all(np.diff(xs[np.isfinite(xs)]) >= 0), (ax.get_title(), xs)
PY

finish "the main job learns, its plots are written, energy rises with the round"
