#!/usr/bin/env bash
# The fedavg scenario's --aggregation and the cmfl scenario's robust baselines use the same
# aggregation strategy objects (fl/: D2dMedianAggregation, D2dTrimmedMeanAggregation,
# D2dKrumAggregation, D2dMultiKrumAggregation), so a matching configuration gives the same
# numbers on the same seed:
#   fedavg --aggregation=RULE --flipDevices=4 --clientFraction=1
#   cmfl   --algorithm=RULE --attack=label-flipping --maliciousFraction=0.2 --activationFraction=1
# (20 devices, 2 rounds, logistic model on 2 % of Fashion-MNIST). Both scenarios draw the
# flipped (malicious) devices first from the same stream with the same partial shuffle and
# flip their labels with the run's seed; the learners are seeded from the run's seed and the
# device id. The server's client-sampling stream differs (cmfl draws an attack stream first),
# but with every device sampled (C = 1) the draws cannot matter: the round's set is all
# devices and the broadcast names no recipients. Label flipping changes the data only, so
# the update tamper leaves the uploads bit for bit. Checked: the same devices flipped
# (run.json), then rounds.csv's accuracy and loss rows identical for median, trimmed-mean,
# krum (f = 20 % of 20 = 4 in both) and multi-krum; the class-name route
# --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation gives the --aggregation=median
# bytes; and the median differs from the mean (the comparison can fail).
#
# Usage: bash robust-aggregation-equivalence.sh PATH/TO/fedavg PATH/TO/cmfl
set -euo pipefail

FEDAVG=${1:?usage: bash robust-aggregation-equivalence.sh PATH/TO/fedavg PATH/TO/cmfl}
CMFL=${2:?usage: bash robust-aggregation-equivalence.sh PATH/TO/fedavg PATH/TO/cmfl}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" robust-aggregation-equivalence
PYTHON=/usr/bin/python3

# The same (IID) shards for both: cmfl's default partition is Dirichlet.
COMMON=(--nDevices=20 --rounds=2 --dataFraction=0.02 --model=logistic --seed=3
    --roundDeadline=120s --partition=iid --quiet)
# The runs the checks below compare, forked by one start of each program (run_queued).
RULES=(median trimmed-mean krum multi-krum)
for rule in "${RULES[@]}"; do
    queue_run "$TMP/fedavg-$rule" "${COMMON[@]}" --algorithm=fedavg --aggregation=$rule \
        --flipDevices=4 --clientFraction=1
done
queue_run "$TMP/fedavg-class" "${COMMON[@]}" --algorithm=fedavg \
    --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation --flipDevices=4 --clientFraction=1
queue_run "$TMP/fedavg-mean" "${COMMON[@]}" --algorithm=fedavg --aggregation=mean \
    --flipDevices=4 --clientFraction=1
run_queued "$FEDAVG" 300
for rule in "${RULES[@]}"; do
    queue_run "$TMP/cmfl-$rule" "${COMMON[@]}" --algorithm=$rule --attack=label-flipping \
        --maliciousFraction=0.2 --activationFraction=1
done
run_queued "$CMFL" 300
# rows DIR: the accuracy and loss rows of rounds.csv
rows() {
    "$PYTHON" - "$1/rounds.csv" <<'PY'
import sys
import pandas as pd
r = pd.read_csv(sys.argv[1], dtype=str)
r = r[r["metric"].isin(["accuracy", "loss"])]
print(r.to_csv(index=False), end="")
PY
}
same_rows() { # same_rows DIR1 DIR2 WHAT
    if ! rows "$1" >"$TMP/a.csv" || ! rows "$2" >"$TMP/b.csv"; then
        fail "$3: rounds.csv unreadable"
        return
    fi
    local n
    n=$(($(wc -l <"$TMP/a.csv") - 1))
    if [ "$n" -ne 6 ]; then
        fail "$3: $n accuracy/loss rows (expected 6: rounds 0, 1, 2)"
    elif ! cmp -s "$TMP/a.csv" "$TMP/b.csv"; then
        fail "$3: accuracy/loss rows differ"
        diff "$TMP/a.csv" "$TMP/b.csv" | head -n 8 | sed 's/^/    | /'
    else
        echo "  identical: $(tail -n 2 "$TMP/a.csv" | tr '\n' ' ')"
    fi
}

for rule in "${RULES[@]}"; do
    echo "check: fedavg --aggregation=$rule --flipDevices=4 = cmfl --algorithm=$rule" \
        "--attack=label-flipping --maliciousFraction=0.2"
    same_rows "$TMP/fedavg-$rule" "$TMP/cmfl-$rule" "$rule"
done

echo "check: the same devices are flipped in both scenarios"
"$PYTHON" - "$TMP/fedavg-median/run.json" "$TMP/cmfl-median/run.json" <<'PY' ||
import json
import sys
f = json.load(open(sys.argv[1]))["parameters"]
c = json.load(open(sys.argv[2]))["parameters"]
assert len(f["flippedDevices"]) == 4, f["flippedDevices"]
assert f["flippedDevices"] == c["maliciousDevices"], (f["flippedDevices"], c["maliciousDevices"])
assert f["aggregationStrategy"] == "ns3::D2dMedianAggregation", f["aggregationStrategy"]
print("  flipped:", f["flippedDevices"])
PY
    fail "flipped devices differ or run.json lacks them"

echo "check: --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation = --aggregation=median"
if ! cmp -s "$TMP/fedavg-class/rounds.csv" "$TMP/fedavg-median/rounds.csv"; then
    fail "rounds.csv differs between the class name and --aggregation=median"
fi
grep -q '"aggregationStrategy": "ns3::D2dMedianAggregation"' "$TMP/fedavg-class/run.json" ||
    fail "run.json does not record the class chosen by name"
if grep -q '"aggregation": "mean"' "$TMP/fedavg-class/run.json"; then
    fail "run.json records the unused --aggregation default next to the class"
fi

echo "check: the median differs from the mean (the comparison above can fail)"
rows "$TMP/fedavg-mean" >"$TMP/mean.csv"
rows "$TMP/fedavg-median" >"$TMP/median.csv"
if cmp -s "$TMP/mean.csv" "$TMP/median.csv"; then
    fail "mean and median give the same rows"
fi

finish "fedavg and cmfl give the same numbers for every rule"
