#!/usr/bin/env bash
# The self-supervised triplet encoder (--model=triplet: Wagle, Das, Love, Brinton 2025,
# eq. 4; FaceNet's triplet loss, Schroff et al. 2015) trained by FedAvg on Fashion-MNIST:
#  - same seed, same bytes (rounds.csv, messages.csv, energy.csv): a run on 2 worker threads
#    and one training inline (two runs, so both determinism and thread independence; a
#    third run, a second one on 2 threads, took another 13 s and could fail only where
#    these two already differ or where thread timing leaks into a trace, which the
#    comparison with inline shows);
#  - the linear-evaluation accuracy (rounds.csv, node -1) of the last round beats chance
#    (0.1, ten classes) by at least 0.25 and beats round 0 (the untrained encoder, whose
#    random features already score above chance) by at least 0.03;
#  - training takes simulated time: the rounds' sim_time_s grow.
#
# Usage: bash fedavg-triplet.sh PATH/TO/fedavg
set -euo pipefail

BIN=${1:?usage: bash fedavg-triplet.sh PATH/TO/fedavg}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" fedavg-triplet

SMALL=(--algorithm=fedavg --model=triplet --nDevices=4 --rounds=4 --dataFraction=0.05
    --learningRate=0.001 --optimizer=adam --batchSize=32 --quiet)
run() { # run DIR ARGS...
    local dir=$1
    shift
    if ! timeout 300 "$BIN" "${SMALL[@]}" "$@" --outDir="$dir" >"$TMP/log" 2>&1; then
        sed 's/^/    | /' "$TMP/log"
        fail "run failed: $*"
    fi
}

echo "check: --model=triplet twice with --seed=3 (2 worker threads, inline) -> identical traces"
run "$TMP/a" --seed=3 --threads=2
run "$TMP/inline" --seed=3 --threads=0
for f in rounds.csv messages.csv energy.csv; do
    cmp -s "$TMP/a/$f" "$TMP/inline/$f" || fail "$f differs between --threads=2 and 0"
done

echo "check: linear-evaluation accuracy rises over the rounds and beats chance"
if [ -f "$TMP/a/rounds.csv" ]; then
    /usr/bin/python3 - "$TMP/a/rounds.csv" <<'PY' || fail "accuracy check"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["node"] == "-1"]
acc = {int(r["round"]): float(r["value"]) for r in rows if r["metric"] == "accuracy"}
time = {int(r["round"]): float(r["sim_time_s"]) for r in rows if r["metric"] == "accuracy"}
last = max(acc)
print("  linear-evaluation accuracy per round:",
      ", ".join(f"{k}: {acc[k]:.4f}" for k in sorted(acc)))
ok = True
if last != 4:
    print(f"  expected 4 rounds, got {last}"); ok = False
if not acc[last] >= 0.1 + 0.25:
    print(f"  last accuracy {acc[last]:.4f} < 0.35 (chance 0.1 + 0.25)"); ok = False
if not acc[last] >= acc[0] + 0.03:
    print(f"  last accuracy {acc[last]:.4f} < round 0's {acc[0]:.4f} + 0.03"); ok = False
if not all(time[k + 1] > time[k] for k in range(last)):
    print("  simulated time does not grow over the rounds"); ok = False
sys.exit(0 if ok else 1)
PY
fi

finish "deterministic, and linear evaluation beats chance and the untrained encoder"
