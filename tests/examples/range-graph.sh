#!/usr/bin/env bash
# CTest: examples/range-graph.cc. From the printed positions, awk recomputes who hears
# whom (closer than rangeM; the log-distance RSS is > 0 at any distance) and the lists
# must equal the printed GetNeighbours lists; the graph must have links and non-links
# (so that the range matters), and the directed link count must match the summary.
#   bash range-graph.sh BINARY
set -euo pipefail
BIN=$1
fail=0
run() { # nDevices areaSideM rangeM seed
    local out
    out=$("$BIN" --nDevices="$1" --areaSideM="$2" --rangeM="$3" --seed="$4")
    echo "$out"
    awk -v n="$1" -v range="$3" '
    /^device [0-9]+ at / {
        j = $2; gsub(/[(,)]/, "", $4); gsub(/[(,)]/, "", $5); x[j] = $4; y[j] = $5
        list[j] = ""; for (k = 8; k <= NF; ++k) list[j] = list[j] " " $k
        ++rows
    }
    /directed links/ { summary = $6 }
    END {
        if (rows != n) { printf "FAIL: %d devices printed, expected %d\n", rows, n; bad = 1 }
        for (j = 0; j < n; ++j) {
            want = ""
            for (i = 0; i < n; ++i)
                if (i != j && sqrt((x[i] - x[j]) ^ 2 + (y[i] - y[j]) ^ 2) < range) { want = want " " i; ++links }
            if (want != list[j]) { printf "FAIL: device %d heard by [%s], distances give [%s]\n", j, list[j], want; bad = 1 }
        }
        if (links == 0 || links == n * (n - 1)) { printf "FAIL: %d links: the range does not matter\n", links; bad = 1 }
        if (summary != links) { printf "FAIL: summary says %s links, counted %d\n", summary, links; bad = 1 }
        if (!bad) printf "ok: %d devices, %d directed links match the distances\n", n, links
        exit bad
    }' <<<"$out" || fail=1
}
run 12 100 40 1
run 30 200 50 7
[ "$fail" -eq 0 ] && echo "range-graph: PASS"
exit "$fail"
