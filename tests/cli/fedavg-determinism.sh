#!/usr/bin/env bash
# Same seed, same parameters -> byte-identical traces (rounds.csv, messages.csv,
# energy.csv) for every algorithm of the fedavg scenario; training on 2 worker threads
# gives the same bytes as training inline (results do not depend on thread timing);
# another seed gives other traces.
#
# Usage: bash fedavg-determinism.sh PATH/TO/fedavg
set -euo pipefail

BIN=${1:?usage: bash fedavg-determinism.sh PATH/TO/fedavg}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" fedavg-determinism

SMALL=(--nDevices=6 --rounds=2 --dataFraction=0.03 --model=mlp:32 --quiet)
run() { # run DIR ARGS...
    local dir=$1
    shift
    if ! timeout 120 "$BIN" "${SMALL[@]}" "$@" --outDir="$dir" >"$TMP/log" 2>&1; then
        sed 's/^/    | /' "$TMP/log"
        fail "run failed: $*"
    fi
}
same() { # same DIR1 DIR2 WHAT
    local f
    for f in rounds.csv messages.csv energy.csv; do
        if ! cmp -s "$1/$f" "$2/$f"; then
            fail "$3: $f differs"
        fi
    done
}

queue() { # queue DIR ARGS...: a run forked by the one start below (run_queued, lib-checks.sh)
    local dir=$1
    shift
    queue_run "$dir" "${SMALL[@]}" "$@"
}
# Each comparison is between a run of a process of its own (run) and a run forked by one
# start of the program (queue): the runs compared differ in threads, in deferral or in
# nothing, and always in address layout.
STRAG=(--seed=5 --stragglers=2 --stragglerSlowdown=10 --roundDeadline=0.07s --rounds=3
    --compression=float16)
LOSSY=(--seed=5 --reliable=false --compression=float16 --areaSideM=150)
HET=(--algorithm=local --model=mlp:16,cnn:4x8 --seed=6)
for alg in fedavg fedprox fedsgd decentralized semi-decentralized local; do
    run "$TMP/$alg-a" --algorithm=$alg --seed=3 --threads=2
    queue "$TMP/$alg-b" --algorithm=$alg --seed=3 --threads=2
done
queue "$TMP/fedavg-inline" --algorithm=fedavg --seed=3 --threads=0
for alg in fedavg fedprox fedsgd decentralized; do
    queue "$TMP/$alg-eager" --algorithm=$alg --seed=3 --threads=2 --deferTraining=false
done
run "$TMP/strag-deferred" "${STRAG[@]}"
queue "$TMP/strag-eager" "${STRAG[@]}" --deferTraining=false
run "$TMP/lossy-a" "${LOSSY[@]}"
queue "$TMP/lossy-b" "${LOSSY[@]}"
run "$TMP/het-a" "${HET[@]}"
queue "$TMP/het-b" "${HET[@]}"
queue "$TMP/fedavg-seed4" --algorithm=fedavg --seed=4 --threads=2
run_queued "$BIN" 120

for alg in fedavg fedprox fedsgd decentralized semi-decentralized local; do
    echo "check: --algorithm=$alg twice with --seed=3 -> identical traces"
    same "$TMP/$alg-a" "$TMP/$alg-b" "$alg"
    echo "  rounds.csv: $(($(wc -l <"$TMP/$alg-a/rounds.csv") - 1)) rows," \
        "messages.csv: $(($(wc -l <"$TMP/$alg-a/messages.csv") - 1)) rows"
done

echo "check: --threads=0 (inline) gives the bytes of --threads=2"
same "$TMP/fedavg-a" "$TMP/fedavg-inline" "threads"

for alg in fedavg fedprox fedsgd decentralized; do
    echo "check: --algorithm=$alg --deferTraining=false (eager) gives the bytes of the default"
    same "$TMP/$alg-a" "$TMP/$alg-eager" "$alg deferred vs eager"
done
echo "check: deferred vs eager with stragglers past the deadline (late updates), float16"
same "$TMP/strag-deferred" "$TMP/strag-eager" "stragglers deferred vs eager"
if ! grep -q ",stragglers,[1-9]" "$TMP/strag-eager/rounds.csv"; then
    fail "the straggler check had no straggler (rounds.csv has no stragglers > 0)"
fi

echo "check: lossy unreliable links and float16 models -> still identical"
same "$TMP/lossy-a" "$TMP/lossy-b" "lossy"

echo "check: heterogeneous architectures (local, MLP and CNN devices) -> identical traces"
same "$TMP/het-a" "$TMP/het-b" "heterogeneous"

echo "check: --seed=4 gives other traces"
if cmp -s "$TMP/fedavg-a/rounds.csv" "$TMP/fedavg-seed4/rounds.csv"; then
    fail "rounds.csv is the same for seeds 3 and 4"
fi

finish "identical traces for identical seeds"
