#!/usr/bin/env bash
# The main job of the README (`bash setup.sh --run`) in a temporary folder: d2d-exchange
# on its defaults, then analysis/plot_traces.py on its traces. Checks the trace files,
# their headers, run.json and the three plots; then a run with --rssFile (a 4 x 4 matrix)
# whose traces may only name devices 0..3; then a run with --outDir=+5, whose run.json must
# still be valid JSON.
#
# Usage: bash main-job.sh PATH/TO/d2d-exchange PATH/TO/analysis/plot_traces.py
set -euo pipefail

BIN=${1:?usage: bash main-job.sh PATH/TO/d2d-exchange PATH/TO/plot_traces.py}
PLOT=${2:?usage: bash main-job.sh PATH/TO/d2d-exchange PATH/TO/plot_traces.py}
PYTHON=/usr/bin/python3
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" main-job

MSG_HEADER=msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,fragments_lost,retransmissions,delivered
ENERGY_HEADER=sim_time_s,node,component,energy_j,remaining_j

data_rows() { # data_rows FILE: rows after the header
    awk 'END { print NR - 1 }' "$1"
}

check_traces() { # check_traces DIR: files, headers, run.json, no temporary files
    local dir=$1 f
    for f in messages.csv energy.csv run.json; do
        [ -s "$dir/$f" ] || fail "$dir/$f missing or empty"
    done
    [ -s "$dir/messages.csv" ] && [ -s "$dir/energy.csv" ] && [ -s "$dir/run.json" ] || return 0
    case $(head -n 1 "$dir/messages.csv") in
        "$MSG_HEADER" | "$MSG_HEADER",*) ;;
        *) fail "messages.csv header: $(head -n 1 "$dir/messages.csv")" ;;
    esac
    case $(head -n 1 "$dir/energy.csv") in
        "$ENERGY_HEADER" | "$ENERGY_HEADER",*) ;;
        *) fail "energy.csv header: $(head -n 1 "$dir/energy.csv")" ;;
    esac
    "$PYTHON" - "$dir/run.json" <<'PY' || fail "run.json is not valid or lacks a field"
import json, sys
run = json.load(open(sys.argv[1]))
for key in ("version", "seed", "simulated_time_s", "wall_time_s", "parameters"):
    assert key in run, "run.json lacks " + key
assert isinstance(run["parameters"], dict) and run["parameters"], "run.json: no parameters"
PY
    local left
    left=$(find "$dir" -maxdepth 1 -name '.*.tmp' -print)
    [ -z "$left" ] || fail "temporary files left in $dir: $left"
}

echo "check: d2d-exchange on its defaults writes messages.csv, energy.csv, run.json"
main="$TMP/d2d-exchange"
if ! timeout 60 "$BIN" --outDir="$main" >"$TMP/log" 2>&1; then
    sed 's/^/    | /' "$TMP/log"
    fail "d2d-exchange on its defaults failed"
fi
tail -n 1 "$TMP/log"
check_traces "$main"
if [ -f "$main/messages.csv" ]; then
    rows=$(data_rows "$main/messages.csv")
    echo "  messages.csv: $rows data rows; energy.csv: $(data_rows "$main/energy.csv") data rows"
    [ "$rows" -gt 1 ] || fail "messages.csv has $rows data rows (expected more than 1)"
fi

echo "check: analysis/plot_traces.py writes the three plots into plots/"
if ! timeout 120 "$PYTHON" "$PLOT" "$main" >"$TMP/plot.log" 2>&1; then
    sed 's/^/    | /' "$TMP/plot.log"
    fail "plot_traces.py failed"
fi
for png in latency_cdf.png link_loss.png energy_per_node.png; do
    f="$main/plots/$png"
    if [ -s "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = "PNG" ]; then
        echo "  $png: $(stat -c %s "$f") bytes"
    else
        fail "$f missing or not a PNG"
    fi
done

echo "check: --rssFile with a 4 x 4 matrix -> node ids 0..3 only, nDevices=4"
rss="$TMP/w4.csv"
cat >"$rss" <<'CSV'
0,2e-12,1e-12,5e-13
2e-12,0,3e-12,1e-12
1e-12,3e-12,0,2e-12
5e-13,1e-12,2e-12,0
CSV
small="$TMP/rss"
if ! timeout 60 "$BIN" --rssFile="$rss" --outDir="$small" --quiet >"$TMP/log" 2>&1; then
    sed 's/^/    | /' "$TMP/log"
    fail "d2d-exchange --rssFile failed"
fi
check_traces "$small"
if [ -f "$small/messages.csv" ] && [ -f "$small/energy.csv" ]; then
    [ "$(data_rows "$small/messages.csv")" -gt 1 ] || fail "--rssFile run: messages.csv nearly empty"
    bad=$(awk -F, 'NR > 1 && ($3 !~ /^[0-3]$/ || $4 !~ /^[0-3]$/)' "$small/messages.csv" | head -n 3)
    [ -z "$bad" ] || fail "messages.csv names a device outside 0..3: $bad"
    bad=$(awk -F, 'NR > 1 && $2 !~ /^[0-3]$/' "$small/energy.csv" | head -n 3)
    [ -z "$bad" ] || fail "energy.csv names a device outside 0..3: $bad"
    senders=$(awk -F, 'NR > 1 { print $3 }' "$small/messages.csv" | sort -u | tr '\n' ' ')
    [ "$senders" = "0 1 2 3 " ] || fail "senders are '$senders' (expected 0 1 2 3)"
    echo "  senders: $senders"
    grep -q '"nDevices": 4,' "$small/run.json" || fail "run.json does not record nDevices=4"
fi

echo "check: --outDir=+5 (a numeric-looking name) -> run.json is valid JSON with typed values"
bin_abs=$(readlink -f "$BIN")
if ! (cd "$TMP" && timeout 60 "$bin_abs" --nDevices=3 --duration=1s --outDir=+5 --quiet) \
    >"$TMP/log" 2>&1; then
    sed 's/^/    | /' "$TMP/log"
    fail "d2d-exchange --outDir=+5 failed"
elif ! "$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/+5/run.json"; then
    fail "run.json of --outDir=+5 is not valid JSON: $(grep '"outDir"' "$TMP/+5/run.json")"
else
    "$PYTHON" - "$TMP/+5/run.json" <<'PY' || fail "run.json values do not have their types"
import json, sys
p = json.load(open(sys.argv[1]))["parameters"]
assert p["outDir"] == "+5", p["outDir"]
assert p["nDevices"] == 3 and isinstance(p["nDevices"], int), p["nDevices"]
assert p["reliable"] is False, p["reliable"]
assert isinstance(p["noisePowerW"], float), p["noisePowerW"]
assert p["ns3::D2dRadio::HalfDuplex"] is True, p["ns3::D2dRadio::HalfDuplex"]
assert isinstance(p["ns3::D2dChannel::MaxRetransmissions"], int)
PY
    echo "  run.json parses; outDir is the string \"+5\""
fi

finish "traces and plots OK"
