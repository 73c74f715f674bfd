#!/usr/bin/env bash
# Determinism of the bayes-consensus scenario (same seed, byte-identical traces):
# for the discrete and gaussian-linear modes, both loss rules and the three cooperation
# modes, two runs with one --seed give byte-identical beliefs.csv, consensus.csv,
# rounds.csv, messages.csv and energy.csv; another seed gives a different beliefs.csv.
# Also: the cooperative discrete run ends with every device at error 0, the isolated one
# with every device at error 1 (the problem no single device can identify); the channel
# access defaults to scheduled (run.json, no half_duplex row although every device sends
# in the same instant), --access=immediate still selects the raw radios (half_duplex rows),
# and run.json has no SendWindowFraction (the protocol no longer schedules radios).
#
# Usage: bash bayes-consensus-determinism.sh PATH/TO/bayes-consensus
set -euo pipefail

BIN=${1:?usage: bash bayes-consensus-determinism.sh PATH/TO/bayes-consensus}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" bayes-consensus-determinism

run() { # run OUTDIR ARGS...
    local out=$1
    shift
    if ! timeout 60 "$BIN" "$@" --quiet --outDir="$out" >"$TMP/log" 2>&1; then
        fail "run $* failed:"
        sed 's/^/    | /' "$TMP/log"
        return 1
    fi
}

FILES="beliefs.csv consensus.csv rounds.csv messages.csv energy.csv"
VARIANTS=("" "--lossRule=renormalize" "--cooperation=isolated" "--cooperation=central"
    "--mode=gaussian-linear" "--mode=gaussian-linear --lossRule=renormalize --steps=50"
    "--graph=range --rangeM=120 --weights=metropolis" "--noisePowerW=1e-10"
    "--mode=variational --steps=3 --localSteps=10 --dataFraction=0.05")
# Run a of each variant in a process of its own; runs b (the same seed) and c (another) forked
# by one start of the program (run_queued, lib-checks.sh).
variant=0
for extra in "${VARIANTS[@]}"; do
    variant=$((variant + 1))
    read -r -a args <<<"$extra"
    run "$TMP/a$variant" --seed=3 "${args[@]}" || true
    queue_run "$TMP/b$variant" --seed=3 "${args[@]}" --quiet
    queue_run "$TMP/c$variant" --seed=4 "${args[@]}" --quiet
done
run_queued "$BIN" 60
variant=0
for extra in "${VARIANTS[@]}"; do
    variant=$((variant + 1))
    echo "check: $extra: same seed -> identical traces (a process, a forked run), other seed -> different beliefs"
    for d in a b c; do
        [ -f "$TMP/$d$variant/run.json" ] || continue 2
    done
    for f in $FILES; do
        if [ ! -f "$TMP/a$variant/$f" ]; then
            fail "no $f"
        elif ! cmp -s "$TMP/a$variant/$f" "$TMP/b$variant/$f"; then
            fail "$f differs between two runs with seed 3"
        fi
    done
    if cmp -s "$TMP/a$variant/beliefs.csv" "$TMP/c$variant/beliefs.csv"; then
        fail "beliefs.csv is the same for seeds 3 and 4"
    fi
done

echo "check: cooperative discrete run ends at error 0 everywhere, isolated at error 1"
last_errors() { # last_errors DIR: the error column of the last step's rows
    awk -F, 'NR > 1 { step = $1; rows[step] = rows[step] " " $6 } END { print rows[step] }' \
        "$1/beliefs.csv"
}
coop=$(last_errors "$TMP/a1")
alone=$(last_errors "$TMP/a3")
[ "$(echo $coop | tr ' ' '\n' | sort -u | tr -d '\n')" = "0" ] || fail "cooperative errors: $coop"
[ "$(echo $alone | tr ' ' '\n' | sort -u | tr -d '\n')" = "1" ] || fail "isolated errors: $alone"

echo "check: default access scheduled, no half_duplex rows; --access=immediate has them"
json_access() { # json_access DIR: the "access" parameter of run.json
    /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["parameters"]["access"])' \
        "$1/run.json"
}
half_duplex_rows() { # half_duplex_rows DIR: messages.csv rows with reason half_duplex
    # the column named reason (the spectrum columns follow it on the channel backend)
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "reason") r = i; next }
             $r == "half_duplex"' "$1/messages.csv" | wc -l
}
[ "$(json_access "$TMP/a1")" = "scheduled" ] || fail "default access: $(json_access "$TMP/a1")"
for v in $(seq 1 "$variant"); do
    [ "$(half_duplex_rows "$TMP/a$v")" -eq 0 ] || fail "variant $v: half_duplex rows"
done
if grep -q SendWindowFraction "$TMP/a1/run.json"; then
    fail "run.json still has SendWindowFraction"
fi
if run "$TMP/immediate" --seed=3 --steps=5 --access=immediate; then
    [ "$(json_access "$TMP/immediate")" = "immediate" ] ||
        fail "--access=immediate: $(json_access "$TMP/immediate")"
    [ "$(half_duplex_rows "$TMP/immediate")" -gt 0 ] ||
        fail "--access=immediate: no half_duplex row although every device sends at once"
fi

finish "$variant variants, identical traces for identical seeds"
