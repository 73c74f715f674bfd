#!/usr/bin/env bash
# Prediction consensus on Fashion-MNIST at a reduced scale (Fan et al. 2023, sec. 5.2: 10
# agents, Dirichlet(1), X* = 5 % of the data, two agents with completely flipped labels,
# dynamic trust): for each of three seeds, in the trust matrix of the middle collaboration
# round the two flipped agents have the two lowest column sums (diagonal excluded, the
# paper's Fig. 4), and the regular agents' mean test accuracy at the end is higher with
# consensus than with local training (same data, X* and seeds). Then the plots are drawn.
#
# Usage: bash consensus-integration.sh PATH/TO/consensus PATH/TO/plot_consensus.py
set -euo pipefail

BIN=${1:?usage: bash consensus-integration.sh PATH/TO/consensus PATH/TO/plot_consensus.py}
PLOT=${2:?usage: bash consensus-integration.sh PATH/TO/consensus PATH/TO/plot_consensus.py}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" consensus-integration
COMMON=(--dataFraction=0.1 --rounds=8 --warmupRounds=3 --localEpochs=2 --flipList=2,9
        --quiet)
# The six runs forked by one start of the program (run_queued), then checked.
for seed in 1 2 3; do
    queue_run "$TMP/consensus-$seed" "${COMMON[@]}" --seed=$seed
    # (--warmupRounds cannot change local training: recorded as inert, as a sweep does.)
    queue_run "$TMP/local-$seed" "${COMMON[@]}" --seed=$seed --algorithm=local \
        --inertFlags=record
done
run_queued "$BIN" 300
status=$((failures > 0))
for seed in 1 2 3; do
    /usr/bin/python3 - "$TMP/consensus-$seed" "$TMP/local-$seed" <<'PY' || status=1
import csv, sys
cons, local = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(cons + "/trust.csv")))
rounds = sorted({int(r["round"]) for r in rows})
mid = rounds[len(rounds) // 2]
sums = {}
for r in rows:
    if int(r["round"]) == mid and r["node"] != r["peer"]:
        sums[int(r["peer"])] = sums.get(int(r["peer"]), 0.0) + float(r["w"])
lowest = sorted(sums, key=sums.get)[:2]
print("%s: round %d column sums %s; lowest %s" % (cons, mid,
      ", ".join("%d:%.3f" % (j, sums[j]) for j in sorted(sums)), lowest))
ok = sorted(lowest) == [2, 9]
def regular(folder):
    acc = {}
    last = 0
    for r in csv.DictReader(open(folder + "/rounds.csv")):
        if r["metric"] == "accuracy" and int(r["node"]) >= 0:
            acc.setdefault(int(r["round"]), {})[int(r["node"])] = float(r["value"])
    last = max(acc)
    vals = [v for n, v in acc[last].items() if n not in (2, 9)]
    return sum(vals) / len(vals)
c, l = regular(cons), regular(local)
print("regular agents' final test accuracy: consensus %.4f, local %.4f" % (c, l))
if not ok:
    print("FAIL: the flipped agents 2 and 9 do not have the two lowest column sums")
if not c > l:
    print("FAIL: consensus does not beat local training")
sys.exit(0 if ok and c > l else 1)
PY
done
/usr/bin/python3 "$PLOT" "$TMP"/consensus-1 "$TMP"/local-1 --out "$TMP" >/dev/null
for f in trust.png xstar.png bytes.png; do
    [ -s "$TMP/$f" ] || { echo "FAIL: $f not drawn"; status=1; }
done
exit $status
