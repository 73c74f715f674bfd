#!/usr/bin/env bash
# graph-discovery: same seed, same parameters -> byte-identical traces (gd_*.csv,
# messages.csv, energy.csv, rounds.csv); another seed gives other links. Small runs: 8
# devices on 2 % of Fashion-MNIST, 40 RL iterations, 2 edges, then one FedAvg round of a
# logistic model; and a baseline graph with unreliable control messages. Then the calculator
# (--evaluate) on the paper's Appendix A example: Q, U and D-hat as the paper gives them.
# And the semi-supervised paradigm (distributed PCA, label propagation): same seed, same
# bytes, gd_labelling.csv included. And the unsupervised paradigm (distributed PCA with
# d = 8, K-means with K = 7, two edges, real points and sampled ones): same seed, same bytes,
# and the same bytes whatever --threads (0, 1, 2).
#
# Usage: bash graph-discovery-determinism.sh PATH/TO/graph-discovery
set -euo pipefail

BIN=${1:?usage: bash graph-discovery-determinism.sh PATH/TO/graph-discovery}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" graph-discovery-determinism
PYTHON=/usr/bin/python3

SMALL=(--nDevices=8 --dataFraction=0.02 --iterations=40 --bufferSize=16 --traceEvery=1
    --threads=0 --quiet)
# The downstream learning's (with --downstream=none nothing trains: refused there).
TRAIN=(--rounds=1 --model=logistic)
run() { # run DIR ARGS...
    local dir=$1
    shift
    if ! timeout 300 "$BIN" "${SMALL[@]}" "$@" --outDir="$dir" >"$TMP/log" 2>&1; then
        fail "run $* failed: $(tail -n 3 "$TMP/log")"
        return 1
    fi
}
FILES=(gd_iterations.csv gd_policy.csv gd_links.csv gd_diversity.csv gd_nodes.csv gd_energy.csv
    gd_labelling.csv messages.csv energy.csv rounds.csv)
compare() { # compare A B
    for f in "${FILES[@]}"; do
        [ -f "$1/$f" ] || continue
        if ! cmp -s "$1/$f" "$2/$f"; then
            fail "$f differs between $1 and $2"
        fi
    done
}

# Each pair: a run of a process of its own (run) and one forked by a single start of the
# program (queue, run_queued in lib-checks.sh): the same flags, another address layout.
queue() { # queue DIR ARGS...
    local dir=$1
    shift
    queue_run "$dir" "${SMALL[@]}" "$@"
}
U=(--paradigm=unsupervised --pcaDims=8 --clusters=7 --edges=2 --requestPoints=20
    --downstream=none)
run "$TMP/a" "${TRAIN[@]}" --edges=2 --seed=5 || true
queue "$TMP/b" "${TRAIN[@]}" --edges=2 --seed=5
queue "$TMP/c" "${TRAIN[@]}" --edges=2 --seed=6
run "$TMP/d" --graph=uniform --controlReliable=false --downstream=none --seed=2 || true
queue "$TMP/e" --graph=uniform --controlReliable=false --downstream=none --seed=2
run "$TMP/f" "${TRAIN[@]}" --paradigm=semi-supervised --pcaDims=10 --seed=3 || true
queue "$TMP/g" "${TRAIN[@]}" --paradigm=semi-supervised --pcaDims=10 --seed=3
run "$TMP/h" "${U[@]}" --seed=4 || true
queue "$TMP/i" "${U[@]}" --seed=4
run "$TMP/j" "${U[@]}" --exchangeMode=sampled --graph=uniform --seed=4 || true
# The same unsupervised run on the worker pool: --threads 1 and 2 (SMALL has 0, inline).
run "$TMP/m" "${U[@]}" --seed=4 --threads=1 || true
run "$TMP/n" "${U[@]}" --seed=4 --threads=2 || true
queue "$TMP/k" "${U[@]}" --exchangeMode=sampled --graph=uniform --seed=4
run_queued "$BIN" 300
ran() { # ran DIR...: every one has its run.json (a failed run was reported already)
    local d
    for d in "$@"; do
        [ -f "$d/run.json" ] || return 1
    done
}

echo "check: rl, 2 edges, fedavg: same seed, same bytes"
ran "$TMP/a" "$TMP/b" && compare "$TMP/a" "$TMP/b"
for f in gd_iterations.csv gd_links.csv rounds.csv; do
    [ -s "$TMP/a/$f" ] || fail "$f missing or empty"
done
echo "check: another seed gives other links"
if ran "$TMP/a" "$TMP/c" && cmp -s "$TMP/a/gd_links.csv" "$TMP/c/gd_links.csv"; then
    fail "seeds 5 and 6 gave the same gd_links.csv"
fi
echo "check: uniform graph, unreliable control: same seed, same bytes"
ran "$TMP/d" "$TMP/e" && compare "$TMP/d" "$TMP/e"

echo "check: semi-supervised (d = 10, k = 7), rl, fedavg: same seed, same bytes"
ran "$TMP/f" "$TMP/g" && compare "$TMP/f" "$TMP/g"
[ -s "$TMP/f/gd_labelling.csv" ] || fail "gd_labelling.csv missing or empty"

echo "check: unsupervised (d = 8, K = 7, 2 edges), rl, real points: same seed, same bytes"
ran "$TMP/h" "$TMP/i" && compare "$TMP/h" "$TMP/i"
[ -s "$TMP/h/gd_links.csv" ] || fail "unsupervised gd_links.csv missing or empty"
"$PYTHON" - "$TMP/h/run.json" "$TMP/i/run.json" <<'PY' || fail "W1 per edge differs or missing"
import json, sys
a, b = (json.load(open(f))["summary"]["results"]["gdMeanW1ToUniformPerEdge"] for f in sys.argv[1:])
sys.exit(0 if a == b and len(a) == 3 and a[2] < a[0] else 1)
PY
echo "check: unsupervised, sampled points, uniform graph: same seed, same bytes"
ran "$TMP/j" "$TMP/k" && compare "$TMP/j" "$TMP/k"
echo "check: unsupervised at --threads 0, 1 and 2 (eq. (17)'s blocks, the draws): same bytes"
ran "$TMP/h" "$TMP/m" "$TMP/n" && compare "$TMP/h" "$TMP/m" && compare "$TMP/h" "$TMP/n"

echo "check: unsupervised without --edges discovers two edges (Remark 2)"
if run "$TMP/l" --paradigm=unsupervised --pcaDims=8 --graph=closest --downstream=none --seed=4; then
    [ "$(cut -d, -f1 "$TMP/l/gd_links.csv" | tail -n +2 | sort -u | tr '\n' ' ')" = "0 1 " ] ||
        fail "gd_links.csv of the unsupervised default has edges $(cut -d, -f1 "$TMP/l/gd_links.csv" | tail -n +2 | sort -u | tr '\n' ' ')"
fi

echo "check: --evaluate on Appendix A (L = 5, b = 10, no loss, then P_D = 0.2)"
for p in 0 0.2; do
    cat >"$TMP/appA.json" <<JSON
{"counts": [[20,0,0,0,20],[20,20,20,20,20],[0,20,0,20,0]],
 "thresholds": 10, "minLabels": 3,
 "trust": [[[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]],
           [[1,0,1,1,0],[0,0,0,0,0],[1,1,1,0,0]],
           [[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]],
 "selection": [1,-1,1], "pDrop": $p}
JSON
    if ! "$BIN" --evaluate="$TMP/appA.json" >"$TMP/appA.out" 2>"$TMP/appA.err"; then
        fail "--evaluate failed: $(cat "$TMP/appA.err")"
        continue
    fi
    "$PYTHON" - "$TMP/appA.out" "$p" <<'PY' || failures=$((failures + 1))
import json, sys
out = json.load(open(sys.argv[1]))
p = float(sys.argv[2])
want = {"Q": [[0, 0, 10, 10, 0], [0] * 5, [10, 0, 10, 0, 0]],
        "U": [[0, 0, 5, 10, 0], [0] * 5, [10, 0, 5, 0, 0]]}
if p == 0:
    want["Dhat"] = [[20, 0, 5, 10, 20], [10, 20, 10, 10, 20], [10, 20, 5, 20, 0]]
else:
    want["Dhat"] = [[20, 0, 4, 8, 20], [10, 20, 10, 10, 20], [8, 20, 4, 20, 0]]
bad = [k for k, v in want.items()
       if any(abs(a - b) > 1e-9 for ra, rb in zip(out[k], v) for a, b in zip(ra, rb))]
if bad:
    print("  FAIL: P_D=%s: %s differ: %s" % (p, bad, {k: out[k] for k in bad}))
    sys.exit(1)
# g of i: W1([20,0,0,0,20], D-hat_i) on the loss-free check: 25/55 (no loss), 20/52 (0.2).
g = 25 / 55 if p == 0 else 20 / 52
if abs(out["gain"][0] - g) > 1e-6 or abs(out["localReward"][0] - (g - p)) > 1e-6:
    print("  FAIL: P_D=%s: gain %s, local reward %s" % (p, out["gain"][0], out["localReward"][0]))
    sys.exit(1)
print("  ok: P_D=%s: Q, U, D-hat and g as the paper's example" % p)
PY
done

finish "all checks passed"
