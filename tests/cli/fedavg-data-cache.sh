#!/usr/bin/env bash
# The decoded Fashion-MNIST cache changes nothing but speed: fedavg's traces are the same
# bytes with the cache off (D2DLEARN_CACHE_DIR=off), cold (an empty directory: the run
# decodes and writes the entries) and warm (the next run maps them); the cold run leaves one
# entry per split in the directory; a corrupt entry is rebuilt (same traces, entry restored);
# an unwritable cache directory is not an error; the cache stays within its size bound
# (D2DLEARN_CACHE_MAX_MB: the least recently written entry goes; an entry larger than the
# bound is not written), with the same traces.
#
# Usage: bash fedavg-data-cache.sh PATH/TO/fedavg
set -euo pipefail

BIN=${1:?usage: bash fedavg-data-cache.sh PATH/TO/fedavg}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" fedavg-data-cache

ARGS=(--nDevices=4 --rounds=2 --dataFraction=0.02 --model=mlp:16 --seed=4 --quiet)
run() { # run CACHE_DIR OUT_DIR
    if ! D2DLEARN_CACHE_DIR=$1 timeout 300 "$BIN" "${ARGS[@]}" --outDir="$2" >"$TMP/log" 2>&1; then
        sed 's/^/    | /' "$TMP/log"
        fail "run failed with D2DLEARN_CACHE_DIR=$1"
    fi
}
same() { # same DIR1 DIR2 WHAT
    local f
    for f in rounds.csv messages.csv energy.csv; do
        if ! cmp -s "$1/$f" "$2/$f"; then
            fail "$3: $f differs"
        fi
    done
}

echo "check: cache off, cold and warm -> identical traces"
run off "$TMP/off"
run "$TMP/cache" "$TMP/cold"
entries=$(find "$TMP/cache" -name '*.d2didx' | wc -l)
[ "$entries" -eq 2 ] || fail "cold run left $entries cache entries, expected 2 (train, test)"
find "$TMP/cache" -name '*.tmp.*' | grep -q . && fail "temporary files left in the cache"
run "$TMP/cache" "$TMP/warm"
same "$TMP/off" "$TMP/cold" "off vs cold"
same "$TMP/off" "$TMP/warm" "off vs warm"

echo "check: a corrupt entry (a flipped byte in every image, a truncated file) is rebuilt"
entry=$(find "$TMP/cache" -name 'train-images*.d2didx')
cp "$entry" "$TMP/entry.good"
size=$(stat -c %s "$entry")
# The pixels end the file, 784 bytes per image: one byte of each of the 60,000 images, so
# that whichever images the run keeps, one of them fails its CRC-32.
/usr/bin/python3 -c '
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
for k in range(60000):
    data[len(data) - 1 - 784 * k] ^= 0x5A
open(path, "wb").write(data)
' "$entry"
cmp -s "$entry" "$TMP/entry.good" && fail "the test did not change the entry"
run "$TMP/cache" "$TMP/flipped"
same "$TMP/off" "$TMP/flipped" "flipped bytes"
cmp -s "$entry" "$TMP/entry.good" || fail "flipped bytes: the entry was not rebuilt"
truncate -s $((size / 2)) "$entry"
run "$TMP/cache" "$TMP/truncated"
same "$TMP/off" "$TMP/truncated" "truncated entry"
cmp -s "$entry" "$TMP/entry.good" || fail "truncated: the entry was not rebuilt"

echo "check: an unwritable cache directory (below a regular file) -> same traces"
touch "$TMP/file"
run "$TMP/file/cache" "$TMP/unwritable"
same "$TMP/off" "$TMP/unwritable" "unwritable"

echo "check: the size bound (D2DLEARN_CACHE_MAX_MB) holds; the traces do not change"
# Training images 47 MB, test images 8 MB (entries of 47.1 and 7.9 MB): a 50 MB bound keeps
# one of them, a 1 MB bound none; a warm cache of two entries under the default bound is kept.
mkdir -p "$TMP/bounded" "$TMP/tiny"
D2DLEARN_CACHE_MAX_MB=50 run "$TMP/bounded" "$TMP/bounded-run"
same "$TMP/off" "$TMP/bounded-run" "50 MB bound"
total=$(find "$TMP/bounded" -name '*.d2didx' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
[ "$total" -le $((50 * 1024 * 1024)) ] || fail "50 MB bound: the cache holds $total bytes"
[ "$total" -gt 0 ] || fail "50 MB bound: no entry kept"
D2DLEARN_CACHE_MAX_MB=1 run "$TMP/tiny" "$TMP/tiny-run"
same "$TMP/off" "$TMP/tiny-run" "1 MB bound"
[ -z "$(find "$TMP/tiny" -name '*.d2didx')" ] || fail "1 MB bound: an entry was written"
entries=$(find "$TMP/cache" -name '*.d2didx' | wc -l)
[ "$entries" -eq 2 ] || fail "default bound: $entries entries, expected 2"

finish "all checks passed"
