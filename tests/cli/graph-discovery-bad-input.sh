#!/usr/bin/env bash
# Bad input to the graph-discovery scenario: each case must stop the program before
# simulating with a non-zero exit status, exactly one line on stderr naming the parameter,
# nothing on stdout and nothing in --outDir (see lib-bad-input.sh): thresholds and densities
# outside [0, 1], zero iterations, unknown modes, a trust file of the wrong shape or with a
# value other than 0/1, a malformed --targets, a bad --evaluate instance, the semi-supervised
# paradigm's flags out of range (an unknown paradigm, a labelled fraction of 0 or above 1,
# k = 0, d = 0 or above the 784 features, an unknown labeller, the mlp labeller with another
# paradigm), the unsupervised paradigm's (K = 0 or above a
# device's points, Q = 0, a retained share above 1, unknown exchange, agreement mix or scale,
# a supervised downstream model (only the triplet encoder), d above the features, the GCN graph), the GCN baseline's
# flags out of range (0 epochs or systems, a subset size outside [2, 8] or above the system
# size), --partitions on classification data or above the 50 points a polynomial device
# holds, regression data with the semi-supervised paradigm or a classifier.
#
# Usage: bash graph-discovery-bad-input.sh PATH/TO/graph-discovery
set -euo pipefail

BIN=${1:?usage: bash graph-discovery-bad-input.sh PATH/TO/graph-discovery}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gd-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

SMALL=(--nDevices=4 --dataFraction=0.02 --iterations=2 --downstream=none)
expect_reject unknownFlag --unknownFlag=3
expect_reject thresholdFraction "${SMALL[@]}" --thresholdFraction=1.5
expect_reject thresholdFraction "${SMALL[@]}" --thresholdFraction=-0.1
expect_reject trustDensity "${SMALL[@]}" --trustDensity=1.01
expect_reject trustDensity "${SMALL[@]}" --trustDensity=-1
expect_reject reliabilityThreshold "${SMALL[@]}" --reliabilityThreshold=2
expect_reject delta "${SMALL[@]}" --delta=1.5
expect_reject iterations "${SMALL[@]}" --iterations=0
expect_reject edges "${SMALL[@]}" --edges=0
# Values that cannot take effect are refused, not clamped in silence: 4 devices have 3
# possible transmitters each, the data 10 labels.
expect_reject edges "${SMALL[@]}" --edges=100
expect_reject minLabels "${SMALL[@]}" --minLabels=11
expect_reject bufferSize "${SMALL[@]}" --bufferSize=0
expect_reject graph "${SMALL[@]}" --graph=gnn
expect_reject gcnEpochs "${SMALL[@]}" --graph=gcn --gcnEpochs=0
expect_reject gcnSystems "${SMALL[@]}" --graph=gcn --gcnSystems=0
expect_reject gcnSubsetSize "${SMALL[@]}" --graph=gcn --gcnSubsetSize=1
expect_reject gcnSubsetSize "${SMALL[@]}" --graph=gcn --gcnSubsetSize=9
expect_reject gcnSubsetSize "${SMALL[@]}" --graph=gcn --gcnSystemDevices=3 --gcnSubsetSize=4
expect_reject gcnSystemDevices "${SMALL[@]}" --graph=gcn --gcnSystemDevices=1
expect_reject partitions "${SMALL[@]}" --partitions=3
expect_reject partitions "${SMALL[@]}" --dataset=polynomial --partitions=51
expect_reject partitions "${SMALL[@]}" --dataset=polynomial --partitions=-1
expect_reject paradigm "${SMALL[@]}" --dataset=polynomial --paradigm=semi-supervised
# (Checked where a model trains: --downstream=none trains none, so --model cannot act.)
expect_reject model "${SMALL[@]}" --dataset=polynomial --model=mlp --downstream=fedavg
expect_reject bufferMode "${SMALL[@]}" --bufferMode=global
expect_reject betaMode "${SMALL[@]}" --betaMode=sign
expect_reject thresholdOn "${SMALL[@]}" --thresholdOn=received
expect_reject stateMode "${SMALL[@]}" --stateMode=full
expect_reject trust "${SMALL[@]}" --trust=diagonal
expect_reject diversity "${SMALL[@]}" --diversity=kl
expect_reject downstream "${SMALL[@]}" --downstream=gossip
expect_reject targets "${SMALL[@]}" --targets=0.6,x
expect_reject targets "${SMALL[@]}" --targets=1.2
expect_reject trustFile "${SMALL[@]}" --trust=file
# N = 4 devices and L = 10 labels: 16 lines of 10 values. Wrong shapes and values:
printf '1,0,1\n' >"$TMP/short.csv"
expect_reject trustFile "${SMALL[@]}" --trustFile="$TMP/short.csv"
for k in $(seq 16); do echo "0,1,0,1,0,1,0,1,0,1"; done >"$TMP/ok.csv"
head -n 15 "$TMP/ok.csv" >"$TMP/rows.csv"
expect_reject trustFile "${SMALL[@]}" --trustFile="$TMP/rows.csv"
sed '3s/.*/0,1,0,1,0,1,0,1,0,2/' "$TMP/ok.csv" >"$TMP/value.csv"
expect_reject trustFile "${SMALL[@]}" --trustFile="$TMP/value.csv"
expect_reject trustFile "${SMALL[@]}" --trustFile="$TMP/missing.csv"
# A path with spaces is taken whole: ns-3's StringValue parser aborted on it (exit 134); now
# the file's content, or its absence, is what is refused.
mkdir -p "$TMP/sp dir"
cp "$TMP/short.csv" "$TMP/sp dir/short  trust.csv"
expect_reject trustFile "${SMALL[@]}" --trust=file "--trustFile=$TMP/sp dir/short  trust.csv"
expect_reject trustFile "${SMALL[@]}" --trust=file "--trustFile=$TMP/sp dir/missing.csv"
expect_reject paradigm "${SMALL[@]}" --paradigm=reinforcement
U=("${SMALL[@]}" --paradigm=unsupervised --pcaDims=8)
expect_reject clusters "${U[@]}" --clusters=0
expect_reject clusters "${U[@]}" --clusters=999
expect_reject requestPoints "${U[@]}" --requestPoints=0
expect_reject retainFraction "${U[@]}" --retainFraction=1.5
expect_reject exchangeMode "${U[@]}" --exchangeMode=copied
expect_reject agreementMix "${U[@]}" --agreementMix=mixed
expect_reject agreementScale "${U[@]}" --agreementScale=max
expect_reject model "${U[@]}" --downstream=fedavg
expect_reject pcaDims "${U[@]}" --pcaDims=785
expect_reject graph "${U[@]}" --graph=gcn
expect_reject labelledFraction "${SMALL[@]}" --paradigm=semi-supervised --labelledFraction=0
expect_reject labelledFraction "${SMALL[@]}" --paradigm=semi-supervised --labelledFraction=1.5
expect_reject knn "${SMALL[@]}" --paradigm=semi-supervised --knn=0
expect_reject pcaDims "${SMALL[@]}" --paradigm=semi-supervised --pcaDims=0
expect_reject pcaDims "${SMALL[@]}" --paradigm=semi-supervised --pcaDims=785
expect_reject pcaLocalRank "${SMALL[@]}" --paradigm=semi-supervised --pcaLocalRank=-1
expect_reject labeller "${SMALL[@]}" --paradigm=semi-supervised --labeller=knn
expect_reject labeller "${SMALL[@]}" --labeller=mlp
expect_reject labeller "${U[@]}" --labeller=mlp
echo '{"counts": [[1, 2]], "thresholds": 1}' >"$TMP/bad.json"
expect_reject evaluate --evaluate="$TMP/bad.json"
echo 'not json' >"$TMP/notjson.json"
expect_reject evaluate --evaluate="$TMP/notjson.json"
# Hostile instances: a FIFO (never opened: it would block), nesting that overflowed the
# parser's stack (2,000,000 '[' gave SIGSEGV; 500,000 stay under the size bound), a file
# past the size bound, every field out of its range, an unknown key and a key twice.
mkfifo "$TMP/fifo.json"
expect_reject evaluate --evaluate="$TMP/fifo.json"
head -c 500000 /dev/zero | tr '\0' '[' >"$TMP/deep.json"
expect_reject evaluate --evaluate="$TMP/deep.json"
{
    printf '{"counts": ['
    for k in $(seq 200000); do printf '[1,2],'; done
    printf '[1,2]]}'
} >"$TMP/huge.json"
expect_reject evaluate --evaluate="$TMP/huge.json"
appA() { # appA KEY VALUE: Appendix A's instance with KEY set to VALUE (JSON)
    "$PYTHON" - "$1" "$2" <<'PY'
import json, sys
inst = {"counts": [[20, 0, 0, 0, 20], [20, 20, 20, 20, 20], [0, 20, 0, 20, 0]],
        "thresholds": 10, "minLabels": 3, "pDrop": 0.2, "selection": [1, -1, 1],
        "trust": [[[0] * 5] * 3, [[1, 0, 1, 1, 0], [0] * 5, [1, 1, 1, 0, 0]], [[0] * 5] * 3]}
inst[sys.argv[1]] = json.loads(sys.argv[2])
print(json.dumps(inst))
PY
}
PYTHON=/usr/bin/python3
case_no=0
for kv in 'pDrop 2' 'pDrop -1' 'thresholds -3' 'counts [[20,0,0,0,-1],[1,1,1,1,1],[0,0,0,0,0]]' \
    'selection [1,-1,1e300]' 'selection [1.5,-1,1]' 'selection [3,-1,1]' 'minLabels 6' \
    'minLabels -1' 'gamma -2' 'alpha1 "x"' 'budget -5' 'reliabilityThreshold 1.5' \
    'extraKey 1'; do
    case_no=$((case_no + 1))
    appA ${kv% *} "${kv#* }" >"$TMP/range$case_no.json"
    expect_reject evaluate --evaluate="$TMP/range$case_no.json"
done
printf '{"counts": [[1,2],[3,4]], "counts": [[1,2],[3,4]], "thresholds": 1, "minLabels": 1,
 "trust": [[[0,0],[0,0]],[[0,0],[0,0]]], "selection": [-1,-1], "pDrop": 0}' >"$TMP/twice.json"
expect_reject evaluate --evaluate="$TMP/twice.json"

# The well-formed trust file is accepted: a tiny run exits 0 and writes run.json; so it is
# in a folder with spaces, into an --outDir with spaces, and run.json names it whole.
echo "check: a 16-line trust file of 10 values is accepted"
if ! timeout 120 "$BIN" "${SMALL[@]}" --trustFile="$TMP/ok.csv" --quiet --outDir="$TMP/okrun" \
    >"$TMP/log" 2>&1 || [ ! -s "$TMP/okrun/run.json" ]; then
    fail "the run with a good trust file failed: $(tail -n 3 "$TMP/log")"
fi
echo "check: the same trust file at a path with spaces is accepted and recorded whole"
cp "$TMP/ok.csv" "$TMP/sp dir/ok  trust.csv"
if ! timeout 120 "$BIN" "${SMALL[@]}" --trust=file "--trustFile=$TMP/sp dir/ok  trust.csv" \
    --quiet "--outDir=$TMP/ok run" >"$TMP/log" 2>&1 || [ ! -s "$TMP/ok run/run.json" ]; then
    fail "the run with a trust file at a path with spaces failed: $(tail -n 3 "$TMP/log")"
elif ! grep -qF "\"$TMP/sp dir/ok  trust.csv\"" "$TMP/ok run/run.json"; then
    fail "run.json does not name the trust file whole"
fi
finish graph-discovery-bad-input
