#!/usr/bin/env bash
# CTest: examples/wifi-backend.cc. Three devices 20 m apart (within the ~51 m reach of the
# default Wi-Fi channel): the 20,000-byte model reaches device 1 complete in
# ceil(20000 / 1400) = 15 packets and its reliable send succeeds; the broadcast reaches
# devices 1 and 2 complete; device 0 sent at least the 15 + 1 packets.
#   bash wifi-backend.sh BINARY
set -euo pipefail
BIN=$1
out=$("$BIN" --distanceM=20 --modelBytes=20000 --mtuBytes=1400)
echo "$out"
fail=0
expect() {
    if grep -Eq "$1" <<<"$out"; then echo "ok: $1"; else echo "FAIL: no line matches: $1"; fail=1; fi
}
expect '^a 20000-byte model is 15 packets$'
expect ' device 1 got model #1 from 0: 15/15 packets, complete$'
expect ' device 0: message #1 done$'
expect ' device 1 got hello #2 from 0: 1/1 packets, complete$'
expect ' device 2 got hello #2 from 0: 1/1 packets, complete$'
sent=$(sed -n 's/^device 0 sent \([0-9]*\) packets.*/\1/p' <<<"$out")
if [ -z "$sent" ] || [ "$sent" -lt 16 ]; then echo "FAIL: device 0 sent '$sent' packets (< 16)"; fail=1; fi
if grep -q 'FAILED\|partial' <<<"$out"; then echo "FAIL: a failed or partial message"; fail=1; fi
[ "$fail" -eq 0 ] && echo "wifi-backend: PASS"
exit "$fail"
