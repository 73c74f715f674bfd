#!/usr/bin/env bash
# CTest: examples/energy-trace.cc. Device 0 sends one unreliable message to device 1
# (P_D ~ 0 at 20 m), then computes. Checked against the energy model's formulas with the
# default attributes (the ns3-wifi radio profile), computed here from ns-3's energy models
# at 3 V: the radio draws LinearWifiTxCurrentModel's I = P / (V eta) + I_idle = 0.1 W /
# (3 V x 0.1) + 0.273333 A, times 3 V, while transmitting at 20 dBm and WifiRadioEnergyModel's
# RxCurrentA x V = 0.313 A x 3 V while receiving, for the airtime;
# the compute job draws BusyPowerW = 2 W for its duration;
# each battery lost the sum of its traced energies; the CSV rows add up to the same sums.
#   bash energy-trace.sh BINARY
set -euo pipefail
BIN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$BIN" --messageBytes=100000 --flops=1e9 --csv="$TMP/rows.csv" >"$TMP/out"
cat "$TMP/out"
awk -v csv="$TMP/rows.csv" '
function check(name, got, want, tol) {
    if (got == "" || (got - want > tol) || (want - got > tol)) {
        printf "FAIL: %s = %s, expected %.9f\n", name, got, want; bad = 1
    } else {
        printf "ok: %s = %.9f (expected %.9f)\n", name, got, want
    }
}
/^airtime of the message:/ { airtime = $5; job = $9 }
/^device [0-9]+ [a-z_]+ [0-9.e+-]+ J$/ && $2 != "" { e[$2 " " $3] = $4; sum[$2] += $4 }
/^device [0-9]+ battery lost/ { lost[$2] = $5 }
END {
    if (airtime != 0.04) { printf "FAIL: airtime %s, expected 0.04 s (100 kB at 20 Mbit/s)\n", airtime; bad = 1 }
    check("device 0 radio_tx", e["0 radio_tx"], (0.1 / (3 * 0.1) + 0.273333) * 3 * airtime, 1e-9)
    check("device 1 radio_rx", e["1 radio_rx"], 0.313 * 3 * airtime, 1e-9)
    check("device 0 compute", e["0 compute"], 2.0 * 1e9 / 1e10, 1e-9)
    if (job != 0.1) { printf "FAIL: compute job %s s, expected 1e9 / 1e10 = 0.1 s\n", job; bad = 1 }
    # ns-3 BasicEnergySource rounds each update to whole nJ.
    for (d = 0; d < 2; ++d) check("device " d " battery lost", lost[d], sum[d], 1e-7)
    rows = 0
    while ((getline line < csv) > 0) {
        if (line ~ /^sim_time_s/) continue
        split(line, f, ","); csvsum[f[2]] += f[4]; ++rows
    }
    if (rows < 3) { printf "FAIL: %d CSV rows, expected at least 3\n", rows; bad = 1 }
    for (d = 0; d < 2; ++d) check("device " d " CSV sum", csvsum[d], sum[d], 1e-9)
    exit bad
}' "$TMP/out"
echo "energy-trace: PASS"
