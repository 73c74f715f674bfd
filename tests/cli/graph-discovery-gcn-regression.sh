#!/usr/bin/env bash
# graph-discovery: the GCN baseline and the regression extension of Wagle, Das, Love and
# Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
# Learning", 2025 (App. C, sec. VI-C4), through the scenario, small (seconds).
#  - --graph=gcn, 10 devices: the GCN trains (run.json: loss after < loss before), every
#    receiver gets one transmitter (gdEdgesFound = 10; gd_links.csv: distinct receivers),
#    FedAvg runs on the exchanged shards (rounds.csv), same seed same bytes.
#  - --dataset=polynomial (regression, --partitions=3): the discovery runs on the gap
#    partitions, the downstream FedAvg of the polynomial learner writes the test loss (the
#    mean squared error against the noise-free polynomial) of every round to rounds.csv,
#    finite and non-negative; same seed same bytes; the GCN and the closest graph run on it too.
#
# Usage: bash graph-discovery-gcn-regression.sh PATH/TO/graph-discovery
set -euo pipefail

BIN=${1:?usage: bash graph-discovery-gcn-regression.sh PATH/TO/graph-discovery}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" graph-discovery-gcn-regression
PYTHON=/usr/bin/python3
run() { # run DIR ARGS...
    local dir=$1
    shift
    if ! timeout 300 "$BIN" --threads=0 --quiet "$@" --outDir="$dir" >"$TMP/log" 2>&1; then
        fail "run $* failed: $(tail -n 3 "$TMP/log")"
        return 1
    fi
}
compare() { # compare A B FILES...
    local a=$1 b=$2
    shift 2
    for f in "$@"; do
        if [ ! -s "$a/$f" ]; then
            fail "$f missing or empty in $a"
        elif ! cmp -s "$a/$f" "$b/$f"; then
            fail "$f differs between $a and $b"
        fi
    done
}

GCN=(--nDevices=10 --dataFraction=0.02 --graph=gcn --rounds=1 --model=logistic --seed=3)
echo "check: --graph=gcn trains, picks one transmitter per receiver, runs FedAvg; same bytes"
if run "$TMP/g1" "${GCN[@]}" && run "$TMP/g2" "${GCN[@]}"; then
    compare "$TMP/g1" "$TMP/g2" gd_links.csv gd_nodes.csv messages.csv rounds.csv
    "$PYTHON" - "$TMP/g1" <<'PY' || fail "gcn run: see above"
import csv, json, math, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
p = run["summary"]["results"]
def get(k):
    for scope in (run, p):
        if isinstance(scope, dict) and k in scope:
            return scope[k]
    raise SystemExit("run.json lacks " + k)
before, after = get("gdGcnLossBefore"), get("gdGcnLossAfter")
print(f"  GCN loss {before:.4f} -> {after:.4f}, systems {get('gdGcnSystems')}")
if not (math.isfinite(after) and after < before):
    raise SystemExit(f"GCN loss did not fall: {before} -> {after}")
if get("gdEdgesFound") != 10:
    raise SystemExit(f"gdEdgesFound {get('gdEdgesFound')}, expected one edge per receiver")
# gd_links.csv: the exchanges whose demand reached the transmitter, one per receiver at most.
links = list(csv.DictReader(open(d + "/gd_links.csv")))
receivers = [int(r["receiver"]) for r in links]
if len(set(receivers)) != len(receivers) or not links:
    raise SystemExit(f"gd_links.csv: receivers {receivers}, expected distinct ones")
if any(r["receiver"] == r["transmitter"] for r in links):
    raise SystemExit("a device took itself as transmitter")
rounds = [r for r in csv.DictReader(open(d + "/rounds.csv")) if r["metric"] == "accuracy"]
if [int(r["round"]) for r in rounds] != [0, 1]:
    raise SystemExit("rounds.csv: expected accuracy at rounds 0 and 1")
PY
fi

REG=(--dataset=polynomial --model=poly:3 --nDevices=6 --partitions=3 --iterations=50
    --bufferSize=16 --rounds=3 --seed=4)
echo "check: regression (gap partitions): test MSE per round in rounds.csv; same bytes"
if run "$TMP/r1" "${REG[@]}" && run "$TMP/r2" "${REG[@]}"; then
    compare "$TMP/r1" "$TMP/r2" gd_iterations.csv gd_links.csv gd_diversity.csv messages.csv \
        rounds.csv
    "$PYTHON" - "$TMP/r1" <<'PY' || fail "regression run: see above"
import csv, json, math, sys
d = sys.argv[1]
rows = [r for r in csv.DictReader(open(d + "/rounds.csv")) if r["metric"] == "loss"]
mse = {int(r["round"]): float(r["value"]) for r in rows}
print("  test MSE by round:", {k: round(v, 4) for k, v in sorted(mse.items())})
if sorted(mse) != [0, 1, 2, 3]:
    raise SystemExit(f"rounds.csv: test MSE at rounds {sorted(mse)}, expected 0..3")
if not all(math.isfinite(v) and v >= 0 for v in mse.values()):
    raise SystemExit("a test MSE is negative or not finite")
if not mse[3] < mse[0]:
    raise SystemExit("the test MSE did not fall from the untrained model's")
if any(r["metric"] == "accuracy" for r in csv.DictReader(open(d + "/rounds.csv"))):
    raise SystemExit("rounds.csv: an accuracy row on regression data")
run = json.dumps(json.load(open(d + "/run.json")))
if '"gdRegressionPartitions": 3' not in run:
    raise SystemExit("run.json lacks gdRegressionPartitions = 3")
PY
fi
echo "check: regression with --graph=gcn and --graph=closest completes"
run "$TMP/r3" "${REG[@]}" --graph=gcn && [ -s "$TMP/r3/rounds.csv" ] || fail "regression gcn"
run "$TMP/r4" "${REG[@]}" --graph=closest && [ -s "$TMP/r4/rounds.csv" ] || fail "regression closest"

finish "all checks passed"
