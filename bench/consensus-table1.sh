#!/usr/bin/env bash
# The paper's Table 1 (Fan, Mendler-Dünner, Jaggi, "Collaborative Learning via Prediction
# Consensus", NeurIPS 2023) at a reduced scale on Fashion-MNIST, and its heterogeneous-model
# experiment (sec. 5.2): runs build/bin/consensus for every setting, method and seed, then
# prints per run and per (setting, method) the mean over seeds of the regular agents' final
# test and X* accuracy (analysis/plot_consensus.py's table), and each run's wall time.
#
# The manual's Table 1 (regular and low quality, seeds 1-3) is not typed from this script's
# output: it is the campaigns analysis/campaigns/paper-consensus.toml and
# paper-consensus-low-quality.toml (the same cells), tabulated by
# analysis/plot_consensus.py --table and written into doc/data/ by
# bench/doc-numbers.py --campaign paper-consensus --campaign paper-consensus-low-quality.
# Nor is the heterogeneous-model table (ONLY=hetero, the same cells): it is the campaign
# analysis/campaigns/paper-consensus-hetero.toml, tabulated by analysis/consensus_tables.py
# and written by bench/doc-numbers.py --campaign paper-consensus-hetero.
#
# Usage: bash bench/consensus-table1.sh PATH/TO/consensus OUT_DIR [SEED ...]
#   JOBS=2 runs two programs at a time (each with --threads=1); SCALE overrides the
#   reduced-scale flags (default below); ONLY=table|hetero runs one part.
# Runs already complete in OUT_DIR (run.json present) are kept, so an interrupted
# campaign resumes.
set -euo pipefail

BIN=${1:?usage: bash bench/consensus-table1.sh PATH/TO/consensus OUT_DIR [SEED ...]}
OUT=${2:?usage: bash bench/consensus-table1.sh PATH/TO/consensus OUT_DIR [SEED ...]}
shift 2
SEEDS=("$@")
[ ${#SEEDS[@]} -gt 0 ] || SEEDS=(1 2)
JOBS=${JOBS:-2}
ONLY=${ONLY:-all}
HERE=$(cd "$(dirname "$0")/.." && pwd)
read -r -a SCALE_FLAGS <<<"${SCALE:---dataFraction=0.1 --rounds=10 --localEpochs=2 --warmupRounds=3}"
mkdir -p "$OUT"

declare -a NAMES=() ARGS=()
add() { NAMES+=("$1"); ARGS+=("$2"); }
for seed in "${SEEDS[@]}"; do
    if [ "$ONLY" != hetero ]; then
        for setting in regular lowq; do
            flip=""
            [ "$setting" = lowq ] && flip="--flipList=2,9"
            add "$setting-fedavg-s$seed" "--algorithm=fedavg $flip --seed=$seed"
            add "$setting-fedprox-s$seed" "--algorithm=fedprox --mu=0.01 $flip --seed=$seed"
            add "$setting-local-s$seed" "--algorithm=local $flip --seed=$seed"
            for trust in naive static dynamic; do
                add "$setting-$trust-s$seed" "--algorithm=consensus --trust=$trust $flip --seed=$seed"
            done
        done
    fi
    if [ "$ONLY" != table ]; then
        # Sec. 5.2: the first half of the agents a stronger model, the second half a linear
        # one (blocks).
        for m in local naive dynamic; do
            alg="--algorithm=consensus --trust=$m"
            [ "$m" = local ] && alg="--algorithm=local"
            add "hetero-$m-s$seed" "$alg --model=mlp:64,logistic --modelAssignment=blocks --seed=$seed"
        done
    fi
done

run_one() {
    local name=$1 args=$2
    if [ -f "$OUT/$name/run.json" ]; then
        return 0
    fi
    local start end
    start=$(date +%s)
    # shellcheck disable=SC2086
    # (--inertFlags=record: the scale's --warmupRounds cannot change FedAvg, FedProx or
    # local training; run.json lists it for them instead of the program refusing it.)
    "$BIN" "${SCALE_FLAGS[@]}" $args --inertFlags=record --threads=1 --quiet --outDir="$OUT/$name"
    end=$(date +%s)
    echo "$name $((end - start))" >>"$OUT/wall-seconds.txt"
    echo "done: $name ($((end - start)) s wall)" >&2
}

i=0
for k in "${!NAMES[@]}"; do
    run_one "${NAMES[$k]}" "${ARGS[$k]}" &
    i=$((i + 1))
    if [ $((i % JOBS)) -eq 0 ]; then
        wait
    fi
done
wait

folders=()
for name in "${NAMES[@]}"; do
    folders+=("$OUT/$name")
done
/usr/bin/python3 "$HERE/analysis/plot_consensus.py" "${folders[@]}" --out "$OUT" >"$OUT/table.csv"
/usr/bin/python3 - "$OUT" <<'EOF'
import csv
import os
import sys
from collections import defaultdict

out = sys.argv[1]
# plot_consensus.py's table (its "wrote FILE" lines left out).
lines = [l for l in open(os.path.join(out, "table.csv")) if not l.startswith("wrote ")]
rows = list(csv.DictReader(lines))
walls = {}
if os.path.exists(os.path.join(out, "wall-seconds.txt")):
    for line in open(os.path.join(out, "wall-seconds.txt")):
        name, secs = line.split()
        walls[name] = int(secs)
groups = defaultdict(list)
print("run,test_accuracy_regular,xstar_accuracy_regular,wall_s")
for r in rows:
    print("%s,%s,%s,%s" % (r["run"], r["test_accuracy_regular"], r["xstar_accuracy_regular"],
                           walls.get(r["run"], "")))
    groups[r["run"].rsplit("-s", 1)[0]].append(r)
print()
print("setting-method,seeds,test_mean,test_per_seed,xstar_mean")
for key, rs in groups.items():
    t = [float(r["test_accuracy_regular"]) for r in rs]
    x = [float(r["xstar_accuracy_regular"]) for r in rs]
    print("%s,%d,%.4f,%s,%.4f" % (key, len(rs), sum(t) / len(t),
                                  " ".join("%.4f" % v for v in t), sum(x) / len(x)))
EOF
