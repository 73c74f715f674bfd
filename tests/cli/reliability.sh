#!/usr/bin/env bash
# Hostile input and faults, each case a defect found by a probe, checked on the
# built programs:
#  1. text flags keep their whole value: --outDir="a b" writes into "a b" (ns-3 3.37's
#     CommandLine used to cut it at the space: into "a"); --rssFile="my matrix.csv" reads
#     that file, not "my".
#  2. LibTorch errors are one-line errors naming the input, before any output: test images
#     of another size than the training images, --model=cnn on 3 x 3 images, a model too
#     big for the memory (mlp:100000x100000).
#  5. publication: a run into a folder used by another scenario leaves none of that run's
#     files beside the new run.json (with or without the manifest .run-files); files that
#     are not a run's stay; a failure between two renames leaves no run.json (the earlier
#     one goes first, the new one comes last); the verdict is shown to reject the folder
#     the publication before the fix left (a control that must fail).
#  6. a loss that becomes NaN (FedProx diverging) stops the run with one line naming the
#     device or the global model and the round; variational beliefs that diverge likewise
#     (device and step); no traces.
# 10. SIGINT after the first round / SIGTERM: exit 130 / 143, the folder holds the complete
#     earlier run (byte for byte) or nothing, no temporary file; a write error (file size
#     limit) stops the run when it happens, one line, no run.json.
#
#  3. bayes-consensus keeps W dense: --nDevices=100000 (80 GB) is refused up front.
#  8. d2d-exchange --meanInterval=1ns (unbounded queues) is refused up front; a reliable
#     Wi-Fi broadcast (which passed validation, then aborted) runs.
#  9. a FIFO or /dev/zero as --rssFile / --wFile is refused at once (no blocking, no
#     endless read); 12. a 1 x 1 W names --wFile, not --nDevices; 26. devices at 1e5 m/s (the
#     highest accepted speed) in a 10 m square: 1 s simulated ends, on both backends; 27. an
#     address-space limit too small for LibTorch's BLAS: refused in one line, not a hang.
#
# Usage: bash reliability.sh PATH/TO/d2d-exchange PATH/TO/fedavg PATH/TO/bayes-consensus
set -euo pipefail

USAGE="usage: bash reliability.sh PATH/TO/d2d-exchange PATH/TO/fedavg PATH/TO/bayes-consensus"
EXCHANGE=${1:?$USAGE}
FEDAVG=${2:?$USAGE}
BAYES=${3:?$USAGE}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" reliability

check() { # check DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then
        echo "  ok: $what"
    else
        fail "$what"
    fi
}
one_line() { # one_line FILE WORD: exactly one line, containing WORD
    [ "$(awk 'END { print NR }' "$1")" -eq 1 ] && grep -qF -- "$2" "$1"
}
no_tmp() { # no_tmp DIR: no temporary file left
    [ -z "$(find "$1" -name '.*.tmp' -print -quit 2>/dev/null)" ]
}

SMALL=(--nDevices=4 --dataFraction=0.02 --model=mlp:16 --quiet)

echo "1: text flags with spaces"
printf '0,1e-12\n1e-12,0\n' >"$TMP/my"
printf '0,1e-12,2e-12\n1e-12,0,3e-12\n2e-12,3e-12,0\n' >"$TMP/my matrix.csv"
rc=0
"$EXCHANGE" --rssFile="$TMP/my matrix.csv" --duration=1s --quiet --outDir="$TMP/a b" \
    >/dev/null 2>"$TMP/err" || rc=$?
check "exit 0 (got $rc: $(head -c 300 "$TMP/err"))" [ "$rc" -eq 0 ]
check "run.json in '$TMP/a b'" [ -f "$TMP/a b/run.json" ]
check "nothing written into '$TMP/a'" [ ! -e "$TMP/a" ]
check "the 3 x 3 matrix was read (nDevices 3)" grep -q '"nDevices": 3' "$TMP/a b/run.json"
check "run.json records the whole path" grep -qF "\"rssFile\": \"$TMP/my matrix.csv\"" \
    "$TMP/a b/run.json"

# 12: a path that is not UTF-8 leaves run.json valid JSON.
bad=$(printf 'bad-\xff\xfe-utf8')
"$EXCHANGE" --duration=1s --quiet --outDir="$TMP/$bad" >/dev/null 2>&1
check "run.json of an outDir that is not UTF-8 is valid JSON" /usr/bin/python3 -c \
    'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/$bad/run.json"

echo "2: LibTorch errors become one-line errors naming the input"
# idx files: N images of R x C pixels and N labels (0..9), gzip'ed.
make_idx() { # make_idx DIR PREFIX N ROWS COLS
    /usr/bin/python3 - "$@" <<'EOF'
import gzip, struct, sys
d, prefix, n, r, c = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
with gzip.open("%s/%s-images-idx3-ubyte.gz" % (d, prefix), "wb") as f:
    f.write(struct.pack(">IIII", 0x803, n, r, c) + bytes((i * 37) % 256 for i in range(n * r * c)))
with gzip.open("%s/%s-labels-idx1-ubyte.gz" % (d, prefix), "wb") as f:
    f.write(struct.pack(">II", 0x801, n) + bytes(i % 10 for i in range(n)))
EOF
}
mkdir -p "$TMP/sizes" "$TMP/tiny"
make_idx "$TMP/sizes" train 200 28 28
make_idx "$TMP/sizes" t10k 50 14 14
make_idx "$TMP/tiny" train 200 3 3
make_idx "$TMP/tiny" t10k 50 3 3
run_rejected() { # run_rejected WORD ARGS...: one line naming WORD, exit 2, empty outDir
    local word=$1
    shift
    rm -rf "$TMP/out"
    rc=0
    timeout 300 "$FEDAVG" "$@" --outDir="$TMP/out" >/dev/null 2>"$TMP/err" || rc=$?
    check "$* -> exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "one line naming '$word': $(head -c 300 "$TMP/err")" one_line "$TMP/err" "$word"
    check "no output" [ -z "$(find "$TMP/out" -mindepth 1 -print -quit 2>/dev/null)" ]
}
run_rejected "dataDir" --dataDir="$TMP/sizes" --nDevices=4 --rounds=1 --quiet
run_rejected "model=cnn" --dataDir="$TMP/tiny" --model=cnn --nDevices=4 --rounds=1 --quiet
run_rejected "model=mlp:100000x100000" --model=mlp:100000x100000 --nDevices=2 --rounds=1 \
    --dataFraction=0.01 --quiet

echo "3, 8, 9, 12: refused up front, one line, at once"
refused() { # refused BIN WORD ARGS...: exit 2 within 20 s, one line naming WORD, no output
    local bin=$1 word=$2
    shift 2
    rm -rf "$TMP/out"
    rc=0
    timeout 20 "$bin" "$@" --outDir="$TMP/out" >/dev/null 2>"$TMP/err" || rc=$?
    check "$(basename "$bin") $* -> exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "one line naming '$word': $(head -c 300 "$TMP/err")" one_line "$TMP/err" "$word"
    check "no output" [ -z "$(find "$TMP/out" -mindepth 1 -print -quit 2>/dev/null)" ]
}
refused "$BAYES" "nDevices=100000" --nDevices=100000 --graph=ring --quiet
refused "$EXCHANGE" "meanInterval" --meanInterval=1ns
# 8: a reliable Wi-Fi broadcast passed validation and then aborted; now it runs.
rc=0
timeout 120 "$EXCHANGE" --backend=wifi --reliable=true --broadcast=true --nDevices=4 \
    --duration=1s --quiet --outDir="$TMP/wifi-bc" >/dev/null 2>"$TMP/err" || rc=$?
check "wifi reliable broadcast runs: exit 0 (got $rc: $(head -c 300 "$TMP/err"))" [ "$rc" -eq 0 ]
check "wifi reliable broadcast: run.json and reliable rows" \
    grep -q ',reliable,' "$TMP/wifi-bc/messages.csv"
# 26: devices at the highest accepted speed, 1e5 m/s, in a 10 m square: ns-3's
# RandomWalk2dMobilityModel never ended 1 s (rebounds at a corner repeating at one instant);
# D2dRandomWalkMobilityModel's reflections take no event. Both backends, within 30 s.
for backend in channel wifi; do
    rc=0
    timeout 30 "$EXCHANGE" --backend=$backend --speedMps=1e5 --nDevices=4 --areaSideM=10 \
        --duration=1s --quiet --outDir="$TMP/fast-$backend" >/dev/null 2>"$TMP/err" || rc=$?
    check "$backend, 1e5 m/s in 10 m: ends with exit 0 (got $rc: $(head -c 300 "$TMP/err"))" \
        [ "$rc" -eq 0 ]
done
# 27: under an address-space limit too small for LibTorch's BLAS buffers (prlimit --as,
# ulimit -v) a run hung in OpenBLAS, which retries its 128 MiB allocation for ever; now the
# memory check counts the limit: refused in one line naming it. (Below about 700 MB LibTorch
# itself fails while loading, before any of d2dlearn's code runs: not tested.)
if command -v prlimit >/dev/null; then
    refused_under_limit() {
        rm -rf "$TMP/out"
        rc=0
        # The default model (a small one's products may not need the buffers; this one's hung).
        timeout 60 prlimit --as=$((1000 * 1024 * 1024)) "$FEDAVG" --rounds=1 --dataFraction=0.02 \
            --quiet --outDir="$TMP/out" >/dev/null 2>"$TMP/err" || rc=$?
        check "fedavg under a 1000 MB address-space limit -> exit 2 (got $rc)" [ "$rc" -eq 2 ]
        check "one line naming the limit: $(head -c 300 "$TMP/err")" \
            one_line "$TMP/err" "address-space limit (ulimit -v)"
        check "no output" [ -z "$(find "$TMP/out" -mindepth 1 -print -quit 2>/dev/null)" ]
    }
    refused_under_limit
else
    echo "  skipped 27: no prlimit (util-linux) on this machine"
fi
mkfifo "$TMP/fifo"
refused "$EXCHANGE" "rssFile" --rssFile="$TMP/fifo"
refused "$EXCHANGE" "rssFile" --rssFile=/dev/zero
refused "$BAYES" "wFile" --graph=file --wFile="$TMP/fifo"
refused "$BAYES" "wFile" --graph=file --wFile=/dev/zero
printf '1\n' >"$TMP/w1.csv"
refused "$BAYES" "wFile" --graph=file --wFile="$TMP/w1.csv"
printf '0.5,0.5,\n0.5,0.5\n' >"$TMP/comma.csv"
refused "$BAYES" "wFile" --graph=file --wFile="$TMP/comma.csv"

echo "5: a used folder: the earlier run's other files go, the user's stay"
"$FEDAVG" "${SMALL[@]}" --rounds=1 --outDir="$TMP/used" 2>/dev/null
check "fedavg wrote rounds.csv" [ -f "$TMP/used/rounds.csv" ]
echo "mine" >"$TMP/used/notes.txt"
"$EXCHANGE" --nDevices=3 --duration=1s --quiet --outDir="$TMP/used" 2>/dev/null
check "rounds.csv of the fedavg run is gone" [ ! -e "$TMP/used/rounds.csv" ]
check "run.json is the new run's" grep -q '"duration_s": 1' "$TMP/used/run.json"
check "notes.txt stays" [ -f "$TMP/used/notes.txt" ]
check "the manifest names the run's files" \
    [ "$(sort "$TMP/used/.run-files" | tr '\n' ' ')" = "energy.csv messages.csv positions.csv run.json " ]
# A folder of an earlier version: run.json, no manifest.
mkdir "$TMP/legacy"
printf '{}\n' >"$TMP/legacy/run.json"
printf 'round\n' >"$TMP/legacy/rounds.csv"
printf 'x\n' >"$TMP/legacy/committee.csv"
printf 'x\n' >"$TMP/legacy/mine.csv"
"$EXCHANGE" --nDevices=3 --duration=1s --quiet --outDir="$TMP/legacy" 2>/dev/null
check "legacy rounds.csv and committee.csv removed" \
    test ! -e "$TMP/legacy/rounds.csv" -a ! -e "$TMP/legacy/committee.csv"
check "legacy: mine.csv stays" [ -f "$TMP/legacy/mine.csv" ]

# A failure between the renames (here energy.csv cannot be replaced: a folder of that name)
# used to leave a complete-looking mix, the new messages.csv beside the earlier run.json.
# no_mix DIR is the verdict: no run.json (the folder does not look complete), none of the
# earlier run's other traces, no temporary file.
no_mix() {
    [ ! -e "$1/run.json" ] && [ ! -e "$1/rounds.csv" ] && no_tmp "$1"
}
"$FEDAVG" "${SMALL[@]}" --rounds=1 --outDir="$TMP/midway" 2>/dev/null
# The failing-before control: the folder as the publication before the fix left it
# (renames one at a time in the order messages.csv, energy.csv, run.json, nothing removed
# first: the new messages.csv published, then the rename of energy.csv failing, so the
# earlier run.json, energy.csv and rounds.csv stay) must be judged a mix.
cp -r "$TMP/midway" "$TMP/before-fix"
"$EXCHANGE" --nDevices=3 --duration=1s --quiet --outDir="$TMP/fresh-messages" 2>/dev/null
cp "$TMP/fresh-messages/messages.csv" "$TMP/before-fix/messages.csv"
if no_mix "$TMP/before-fix"; then
    fail "control: no_mix accepts the pre-fix outcome, so it could not catch the defect"
else
    echo "  ok: control: no_mix rejects the pre-fix outcome"
fi
rm "$TMP/midway/energy.csv"
mkdir -p "$TMP/midway/energy.csv/x"
rc=0
"$EXCHANGE" --nDevices=3 --duration=1s --quiet --outDir="$TMP/midway" >/dev/null \
    2>"$TMP/err" || rc=$?
check "a rename fails mid-publication: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "one line naming energy.csv: $(head -c 300 "$TMP/err")" one_line "$TMP/err" "energy.csv"
check "the new messages.csv was published before the failing rename" \
    cmp -s "$TMP/midway/messages.csv" "$TMP/fresh-messages/messages.csv"
check "no run.json beside the partly published files" [ ! -e "$TMP/midway/run.json" ]
check "the earlier run's rounds.csv is gone too" [ ! -e "$TMP/midway/rounds.csv" ]
check "no temporary file left" no_tmp "$TMP/midway"
check "no_mix accepts the folder the fixed publication left" no_mix "$TMP/midway"

echo "6: NaN stops the run"
rm -rf "$TMP/nan"
rc=0
# FedProx with learningRate x mu = 10 > 2: the proximal step overshoots more every step.
timeout 300 "$FEDAVG" --nDevices=4 --dataFraction=0.02 --model=mlp:32 --algorithm=fedprox \
    --mu=10 --learningRate=1 --localEpochs=2 --rounds=3 --quiet --outDir="$TMP/nan" \
    >/dev/null 2>"$TMP/err" || rc=$?
check "exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "one line naming the round: $(head -c 300 "$TMP/err")" one_line "$TMP/err" "round "
check "it names the device or the global model" grep -qE "device [0-9]+|global model" "$TMP/err"
check "no traces" [ -z "$(find "$TMP/nan" -mindepth 1 -print -quit 2>/dev/null)" ]
# Variational beliefs diverging (learning rate 1000): one line naming device and step.
rm -rf "$TMP/vnan"
rc=0
timeout 300 "$BAYES" --mode=variational --learningRate=1000 --nDevices=4 --steps=3 \
    --dataFraction=0.02 --quiet --outDir="$TMP/vnan" >/dev/null 2>"$TMP/err" || rc=$?
check "variational: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "variational: one line naming the step: $(head -c 300 "$TMP/err")" one_line "$TMP/err" \
    "step "
check "variational: it names the device and NaN" grep -qE "device [0-9]+.*NaN" "$TMP/err"
check "variational: no traces" [ -z "$(find "$TMP/vnan" -mindepth 1 -print -quit 2>/dev/null)" ]

echo "10: SIGINT after the first round, SIGTERM, a write error"
# A complete earlier run in the folder, then an interrupted one.
"$FEDAVG" "${SMALL[@]}" --rounds=1 --outDir="$TMP/int" 2>/dev/null
(cd "$TMP/int" && sha256sum run.json ./*.csv $(ls .run-files 2>/dev/null)) >"$TMP/before"
set -m # the background job below must not start with SIGINT ignored
for sig in INT TERM; do
    "$FEDAVG" --nDevices=4 --dataFraction=0.05 --model=mlp:64 --rounds=1000 --seed=2 \
        --outDir="$TMP/int" >/dev/null 2>"$TMP/progress" &
    pid=$!
    for _ in $(seq 1 600); do
        grep -q "round 1/" "$TMP/progress" 2>/dev/null && break
        sleep 0.1
    done
    check "SIG$sig: round 1 completed before the signal" grep -q "round 1/" "$TMP/progress"
    kill -"$sig" "$pid"
    rc=0
    wait "$pid" || rc=$?
    want=$([ "$sig" = INT ] && echo 130 || echo 143)
    check "SIG$sig: exit $want (got $rc)" [ "$rc" -eq "$want" ]
    check "SIG$sig: no temporary file left" no_tmp "$TMP/int"
    check "SIG$sig: the earlier run is there, byte for byte" \
        bash -c "cd '$TMP/int' && sha256sum -c --quiet '$TMP/before'"
    check "SIG$sig: nothing else in the folder" \
        [ "$(find "$TMP/int" -mindepth 1 | wc -l)" -eq "$(wc -l <"$TMP/before")" ]
done
set +m
# A fresh folder interrupted: nothing at all. A run that cannot end within the test (Wi-Fi,
# 40000 s: minutes), stopped once it writes (its temporary files exist): a channel run of
# 10000 s, stopped after a fixed 2 s, sometimes ended first on a quiet machine.
"$EXCHANGE" --backend=wifi --nDevices=20 --duration=40000s --outDir="$TMP/fresh" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    no_tmp "$TMP/fresh" || break
    sleep 0.1
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
check "fresh folder, SIGTERM: exit 143 (got $rc)" [ "$rc" -eq 143 ]
check "fresh folder: no file" [ -z "$(find "$TMP/fresh" -mindepth 1 -print -quit 2>/dev/null)" ]
# A write error: the file size limit (100 kB) is reached after a few simulated seconds of
# a 10000 s run; it must stop there, not at the end.
rc=0
(
    ulimit -f 100
    trap '' XFSZ
    exec timeout 300 "$EXCHANGE" --nDevices=20 --duration=10000s --quiet --outDir="$TMP/full"
) >/dev/null 2>"$TMP/err" || rc=$?
check "write error: exit non-zero, not a crash (got $rc)" test "$rc" -ne 0 -a "$rc" -lt 124
check "write error: one line naming the file: $(head -c 300 "$TMP/err")" one_line "$TMP/err" \
    "error writing"
check "write error: found when it happened (simulated time < 10000 s)" \
    grep -qE "at simulated [0-9]{1,4}\.[0-9]+ s" "$TMP/err"
check "write error: no run.json" [ ! -e "$TMP/full/run.json" ]
check "write error: no temporary file" no_tmp "$TMP/full"
# A run killed by SIGKILL cannot delete its temporary files: the next run into the folder
# deletes those of processes that no longer exist, and leaves a live process's.
mkdir -p "$TMP/dead"
sleep 0 &
dead=$!
wait "$dead"
sleep 300 &
live=$!
head -c 40000 /dev/zero >"$TMP/dead/.messages.csv.$dead.tmp"
: >"$TMP/dead/.rounds.csv.$dead.tmp"
: >"$TMP/dead/.energy.csv.$live.tmp"
rc=0
"$EXCHANGE" --nDevices=4 --duration=1s --quiet --outDir="$TMP/dead" >/dev/null 2>&1 || rc=$?
check "rerun into a folder with a dead run's temporary files: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "the dead run's temporary files are deleted" \
    test ! -e "$TMP/dead/.messages.csv.$dead.tmp" -a ! -e "$TMP/dead/.rounds.csv.$dead.tmp"
check "a live process's temporary file stays" [ -e "$TMP/dead/.energy.csv.$live.tmp" ]
kill "$live" 2>/dev/null || true
wait "$live" 2>/dev/null || true
# The same limit without the shell ignoring SIGXFSZ for them: the programs ignore it
# themselves (it killed them with exit 153 and their .tmp files left), and report the write
# error with its cause.
for prog in "$EXCHANGE" "$FEDAVG"; do
    name=$(basename "$prog")
    args=(--nDevices=20 --duration=100s --quiet)
    [ "$prog" = "$FEDAVG" ] && args=("${SMALL[@]}" --rounds=2)
    rc=0
    (
        ulimit -f 4
        exec timeout 300 "$prog" "${args[@]}" --outDir="$TMP/xfsz-$name"
    ) >/dev/null 2>"$TMP/err" || rc=$?
    check "$name past ulimit -f 4: exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "$name past ulimit -f 4: one line naming the cause: $(head -c 300 "$TMP/err")" \
        one_line "$TMP/err" "File too large"
    check "$name past ulimit -f 4: no run.json" [ ! -e "$TMP/xfsz-$name/run.json" ]
    check "$name past ulimit -f 4: no temporary file" no_tmp "$TMP/xfsz-$name"
done

finish "all checks passed"
