#!/usr/bin/env bash
# The consensus scenario twice with the same seed: byte-identical trace files (rounds.csv,
# trust.csv, consensus.csv, messages.csv, energy.csv, boundary.csv), with 2 LibTorch workers
# and inline; another seed gives a different trust.csv. Small runs of the Gaussian-mixture
# toy, and of the polynomial toy (also samples.csv and coefficients.csv).
#
# Usage: bash consensus-determinism.sh PATH/TO/consensus
set -euo pipefail

BIN=${1:?usage: bash consensus-determinism.sh PATH/TO/consensus}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/consensus-determinism.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
ARGS=(--dataset=gaussian-mixture --dataFraction=0.05 --nDevices=4 --rounds=4 --warmupRounds=1
      --model=mlp:8 --flipList=3 --quiet)
"$BIN" "${ARGS[@]}" --seed=3 --threads=2 --outDir="$TMP/a"
"$BIN" "${ARGS[@]}" --seed=3 --threads=0 --outDir="$TMP/b"
"$BIN" "${ARGS[@]}" --seed=4 --threads=2 --outDir="$TMP/c"
status=0
for f in rounds.csv trust.csv consensus.csv messages.csv energy.csv boundary.csv; do
    if cmp -s "$TMP/a/$f" "$TMP/b/$f"; then
        echo "same seed: $f identical ($(wc -l <"$TMP/a/$f") lines)"
    else
        echo "FAIL: same seed, $f differs"
        status=1
    fi
done
if cmp -s "$TMP/a/trust.csv" "$TMP/c/trust.csv"; then
    echo "FAIL: another seed gives the same trust.csv"
    status=1
fi
# The polynomial toy (closed-form learner): same seed, same bytes; another seed, other data.
"$BIN" --dataset=polynomial --rounds=6 --quiet --seed=3 --outDir="$TMP/p"
"$BIN" --dataset=polynomial --rounds=6 --quiet --seed=3 --threads=0 --outDir="$TMP/q"
"$BIN" --dataset=polynomial --rounds=6 --quiet --seed=4 --outDir="$TMP/r"
for f in rounds.csv trust.csv consensus.csv messages.csv samples.csv coefficients.csv; do
    if cmp -s "$TMP/p/$f" "$TMP/q/$f"; then
        echo "polynomial, same seed: $f identical ($(wc -l <"$TMP/p/$f") lines)"
    else
        echo "FAIL: polynomial, same seed, $f differs"
        status=1
    fi
done
if cmp -s "$TMP/p/samples.csv" "$TMP/r/samples.csv"; then
    echo "FAIL: polynomial, another seed gives the same samples.csv"
    status=1
fi
# FedAvg on the 2-D mixture: its clients release their weights between rounds, so the
# decision-boundary trace draws no device of it (it aborted on the first client before).
if "$BIN" --dataset=gaussian-mixture --dataFraction=0.05 --nDevices=4 --rounds=2 --model=mlp:8 \
    --algorithm=fedavg --quiet --outDir="$TMP/f" && [ -s "$TMP/f/rounds.csv" ] &&
    [ "$(wc -l <"$TMP/f/boundary.csv")" -eq 1 ]; then
    echo "fedavg on 2-D data: runs; boundary.csv holds its header alone"
else
    echo "FAIL: consensus --algorithm=fedavg on the 2-D mixture did not run, or drew a client"
    status=1
fi
exit $status
