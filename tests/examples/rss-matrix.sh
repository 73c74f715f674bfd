#!/usr/bin/env bash
# CTest: examples/rss-matrix.cc. For every link the printed P_D of the channel equals eq.
# (18), P_D = 1 - exp(-(2^r - 1) sigma^2 / W_ij) (1 when W_ij = 0), recomputed here with
# awk from the printed W_ij, for two settings; hand-worked values: r = 2, sigma^2 = 1e-13,
# W_01 = 2e-12: 1 - exp(-0.15) = 0.139292023575; W_03 = 0: 1.
#   bash rss-matrix.sh BINARY
set -euo pipefail
BIN=$1
fail=0
run() { # r sigma2
    local out
    out=$("$BIN" --spectralEfficiency="$1" --noisePowerW="$2")
    echo "$out"
    awk -v r="$1" -v s="$2" '
    /^[0-9]+ [0-9]+ / {
        n++
        pd = ($3 > 0) ? 1 - exp(-(2 ^ r - 1) * s / $3) : 1
        d = $4 - pd; if (d < 0) d = -d
        if (d > 1e-9) { printf "FAIL: P_D(%s,%s) = %s, awk %.12f\n", $1, $2, $4, pd; bad = 1 }
        p[$1 " " $2] = $4
    }
    END {
        if (n != 12) { printf "FAIL: %d links, expected 12\n", n; bad = 1 }
        if (r == 2 && s == 1e-13) {
            d = p["0 1"] - 0.139292023575; if (d < 0) d = -d
            if (d > 1e-11) { printf "FAIL: P_D(0,1) = %s, hand value 0.139292023575\n", p["0 1"]; bad = 1 }
            if (p["0 3"] != 1) { printf "FAIL: P_D(0,3) = %s, expected 1 (no link)\n", p["0 3"]; bad = 1 }
        }
        if (!bad) printf "ok: %d links match eq. (18)\n", n
        exit bad
    }' <<<"$out" || fail=1
}
run 2 1e-13
run 1 2e-13
[ "$fail" -eq 0 ] && echo "rss-matrix: PASS"
exit "$fail"
