#!/usr/bin/env bash
# The README's main job (`bash setup.sh --run`) in a temporary folder: fedavg on its
# defaults (FedAvg, 10 devices, Fashion-MNIST), then analysis/plot_rounds.py on its
# traces. Checks the trace files and headers, that the global model learns (accuracy
# rises by more than 0.15 and ends above 0.75), that every round is in rounds.csv, that
# models crossed the D2S link, that run.json names the BLAS and the CPU, and the three
# plots.
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

finish "the main job learns and its plots are written"
