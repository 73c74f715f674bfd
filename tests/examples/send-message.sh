#!/usr/bin/env bash
# CTest: examples/send-message.cc. At 150 m spacing and the default noise the links are
# nearly lossless: device 1 gets the 101,770-weight model by reference, complete (reliable),
# and device 0 is told it is done.
#   bash send-message.sh BINARY
set -euo pipefail
BIN=$1
out=$("$BIN")
echo "$out"
fail=0
for re in ' device 1 got model_update #1 from 0: 272/272 fragments, 101770 weights by reference$' \
          ' device 0: message #1 done$' \
          '^P_D\(1, 0\) = [0-9.e-]+ \(eq. 18\), link rate 20 Mbit/s$'; do
    if grep -Eq "$re" <<<"$out"; then echo "ok: $re"; else echo "FAIL: no line matches: $re"; fail=1; fi
done
[ "$fail" -eq 0 ] && echo "send-message: PASS"
exit "$fail"
