#!/usr/bin/env bash
# Determinism of the d2d-exchange scenario (the README: "same seed, same parameters:
# byte-identical trace files"). For the fast path, the per-fragment path, reliable delivery
# (both paths), reliable broadcast, a Li-ion battery, dynamic RSS (with losses) and an RSS
# matrix file: two runs with the same --seed give byte-identical messages.csv and energy.csv
# and the same run.json apart from wall_time_s, outDir and commandLine (which names outDir);
# another seed gives a different messages.csv. Then the same for --backend=wifi.
#
# Usage: bash determinism.sh PATH/TO/d2d-exchange
set -euo pipefail

BIN=${1:?usage: bash determinism.sh PATH/TO/d2d-exchange}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" determinism

# 20 devices, device-to-server traffic and idle draw: every trace path is exercised.
N=20
BASE=(--nDevices=$N --duration=5s --d2sFraction=0.2
      --radioProfile=custom --ns3::D2dRadioEnergyModel::IdlePowerW=0.01 --quiet)

run() { # run OUTDIR ARGS...
    local out=$1
    shift
    if ! timeout 60 "$BIN" "${BASE[@]}" "$@" --outDir="$out" >"$TMP/log" 2>&1; then
        fail "run $* failed:"
        sed 's/^/    | /' "$TMP/log"
        return 1
    fi
    local f
    for f in messages.csv energy.csv run.json; do
        if [ ! -f "$out/$f" ]; then
            fail "run $* wrote no $f"
            return 1
        fi
    done
}

data_rows() { # data_rows FILE: rows after the header
    awk 'END { print NR - 1 }' "$1"
}

# An N x N RSS matrix for --rssFile: W_ij from 1e-12 to 1e-11 W (noise 1e-13 W).
awk -v n=$N 'BEGIN {
    for (i = 0; i < n; ++i) {
        row = ""
        for (j = 0; j < n; ++j) row = row (j ? "," : "") ((i * 7 + j * 3) % 10 + 1) "e-12"
        print row
    }
}' >"$TMP/w$N.csv"

# The ns-3 battery model this ns-3 has (D2DLEARN_NS3_LIION_SOURCE from CMake: LiIonEnergySource,
# else GenericBatteryModel, its successor).
battery=liion
[ "${D2DLEARN_NS3_LIION_SOURCE:-1}" -eq 1 ] || battery=generic
variant=0
for extra in "" "--fastPath=false" "--reliable=true" "--fastPath=false --reliable=true" \
    "--reliable=true --broadcast=true" "--speedMps=20" "--energySource=$battery" "--energySource=basic" \
    "--dynamicRssLevels=4 --noisePowerW=0.05" "--rssFile=$TMP/w$N.csv"; do
    variant=$((variant + 1))
    read -r -a args <<<"$extra"
    label=${extra:-"(fast path, unreliable)"}
    echo "check: $label: --seed=7 twice -> identical traces; --seed=8 -> different messages.csv"
    a="$TMP/v$variant-a" b="$TMP/v$variant-b" c="$TMP/v$variant-c"
    run "$a" "${args[@]}" --seed=7 || continue
    run "$b" "${args[@]}" --seed=7 || continue
    run "$c" "${args[@]}" --seed=8 || continue
    for f in messages.csv energy.csv; do
        if cmp -s "$a/$f" "$b/$f"; then
            echo "  $f identical ($(data_rows "$a/$f") rows)"
        else
            fail "$f differs between two runs with --seed=7:"
            diff "$a/$f" "$b/$f" | head -n 6 | sed 's/^/    | /' || true
        fi
    done
    if diff <(grep -v -e '"wall_time_s"' -e '"outDir"' -e '"commandLine"' "$a/run.json") \
            <(grep -v -e '"wall_time_s"' -e '"outDir"' -e '"commandLine"' "$b/run.json") >/dev/null; then
        echo "  run.json identical apart from wall_time_s, outDir and commandLine (which names outDir)"
    else
        fail "run.json differs beyond wall_time_s and outDir"
    fi
    if cmp -s "$a/messages.csv" "$c/messages.csv"; then
        fail "messages.csv is the same with --seed=7 and --seed=8"
    else
        echo "  --seed=8 gives a different messages.csv"
    fi
    # The comparison means something only if the traces hold traffic of every kind.
    [ "$(data_rows "$a/messages.csv")" -gt 10 ] || fail "messages.csv has too few rows"
    [ "$(data_rows "$a/energy.csv")" -gt 10 ] || fail "energy.csv has too few rows"
    awk -F, -v n=$N 'NR > 1 && $4 == n { found = 1 } END { exit !found }' "$a/messages.csv" ||
        fail "no message to the server (dst=$N) although --d2sFraction=0.2"
    case $extra in
        *dynamicRssLevels*)
            awk -F, 'NR > 1 && $9 > 0 { found = 1 } END { exit !found }' "$a/messages.csv" ||
                fail "no fragment lost although the noise is 1/6 of the mean dynamic RSS"
            ;;
    esac
    mode=unreliable
    case $extra in *reliable=true*) mode=reliable ;; esac
    awk -F, -v m=$mode 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "mode") c = i; next }
                        c && $c == m { found = 1 } END { exit !found }' "$a/messages.csv" ||
        fail "no row with mode=$mode"
done

echo "check: --backend=wifi: --seed=7 twice -> identical messages.csv; --seed=8 -> different"
WIFI=(--backend=wifi --nDevices=10 --areaSideM=80 --messageBytes=20000 --duration=5s
      --broadcast=true --quiet)
for run_seed in 7a 7b 8; do
    timeout 60 "$BIN" "${WIFI[@]}" --seed="${run_seed%[ab]}" --outDir="$TMP/wifi-$run_seed" \
        >"$TMP/log" 2>&1 || { fail "wifi run --seed=${run_seed%[ab]} failed"; sed 's/^/    | /' "$TMP/log"; }
done
if cmp -s "$TMP/wifi-7a/messages.csv" "$TMP/wifi-7b/messages.csv"; then
    echo "  messages.csv identical ($(data_rows "$TMP/wifi-7a/messages.csv") rows)"
else
    fail "wifi messages.csv differs between two runs with --seed=7"
fi
cmp -s "$TMP/wifi-7a/messages.csv" "$TMP/wifi-8/messages.csv" &&
    fail "wifi messages.csv is the same with --seed=7 and --seed=8"
[ "$(data_rows "$TMP/wifi-7a/messages.csv")" -gt 10 ] || fail "wifi messages.csv has too few rows"
variant=$((variant + 1))

finish "all $variant variants deterministic and seed-dependent"
