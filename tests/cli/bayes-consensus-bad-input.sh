#!/usr/bin/env bash
# Bad input to the bayes-consensus scenario: each case must stop the program before
# simulating with a non-zero exit status (not a crash), exactly one line on stderr naming
# the parameter, nothing on stdout, and no file in --outDir. Covers W files that are not
# stochastic, not strongly connected, periodic or malformed, bad enums and ranges, and the
# flags of --mode=variational (model, data, training, a step shorter than the training).
#
# Usage: bash bayes-consensus-bad-input.sh PATH/TO/bayes-consensus
set -euo pipefail

BIN=${1:?usage: bash bayes-consensus-bad-input.sh PATH/TO/bayes-consensus}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bayes-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

printf '0.9,0.2,0\n0.3,0.4,0.3\n0,0.5,0.5\n' >"$TMP/notstochastic.csv"
printf '0.5,0.5,0\n0.5,0.5,0\n0,0,1\n' >"$TMP/disconnected.csv"
printf '1,0,0\n0.5,0.5,0\n0,0.5,0.5\n' >"$TMP/oneway.csv"
printf '0,1,0\n0,0,1\n1,0,0\n' >"$TMP/periodic.csv"
printf '0.5,0.5,0\n0.5,abc,0\n0,0.5,0.5\n' >"$TMP/nan.csv"
printf '0.5,0.5\n0.5,0.5,0\n' >"$TMP/ragged.csv"
printf '0.5,0.5,0\n0.25,0.5,0.25\n0,0.5,0.5\n' >"$TMP/valid3.csv"
printf '1.5,-0.5,0\n0.3,0.4,0.3\n0,0.5,0.5\n' >"$TMP/negative.csv"

expect_reject "not stochastic" --graph=file --wFile="$TMP/notstochastic.csv"
expect_reject "not stochastic" --graph=file --wFile="$TMP/negative.csv"
expect_reject "not strongly connected" --graph=file --wFile="$TMP/disconnected.csv"
expect_reject "not strongly connected" --graph=file --wFile="$TMP/oneway.csv"
expect_reject "periodic" --graph=file --wFile="$TMP/periodic.csv"
expect_reject wFile --graph=file --wFile="$TMP/nan.csv"
expect_reject wFile --graph=file --wFile="$TMP/ragged.csv"
expect_reject wFile --graph=file --wFile="$TMP/does-not-exist.csv"
expect_reject wFile --graph=file
expect_reject wFile --graph=ring --wFile="$TMP/periodic.csv"
expect_reject nDevices --graph=file --wFile="$TMP/valid3.csv" --nDevices=5
expect_reject mode --mode=bogus
expect_reject cooperation --cooperation=everyone
expect_reject lossRule --lossRule=ignore
expect_reject graph --graph=star
expect_reject weights --weights=random
expect_reject steps --steps=0
expect_reject stepInterval --stepInterval=-1s
expect_reject rangeM --graph=range --rangeM=-3
expect_reject "not strongly connected" --graph=range --rangeM=0.001
expect_reject coinEps --coinEps=0.5
expect_reject delta --delta=1
expect_reject levels --levels=1
expect_reject thetaTrue --thetaTrue=2,x,2
expect_reject thetaTrue --thetaTrue=2,3,2
expect_reject nDevices --nDevices=2
expect_reject nDevices --mode=gaussian-linear --nDevices=3
expect_reject bogus --bogus=1
expect_reject spectralEfficiency --spectralEfficiency=0
expect_reject access --access=csma
# The send windows are gone: channel access is the channel's, not the protocol's.
expect_reject SendWindowFraction --ns3::D2dBeliefConsensus::SendWindowFraction=0.5
expect_reject model --mode=variational --model=transformer
expect_reject model --mode=variational --model=linear
expect_reject model --mode=variational --model=mlp:0
expect_reject dataFraction --mode=variational --dataFraction=0
expect_reject dataFraction --mode=variational --dataFraction=1.5
expect_reject dataFraction --mode=variational --dataFraction=0.0001
expect_reject dataDir --mode=variational --dataDir="$TMP/no-such-dir"
expect_reject labelsPerDevice --mode=variational --labelsPerDevice=0
expect_reject labelsPerDevice --mode=variational --labelsPerDevice=11
expect_reject localSteps --mode=variational --localSteps=0
expect_reject batchSize --mode=variational --batchSize=0
expect_reject mcSamples --mode=variational --mcSamples=0
expect_reject learningRate --mode=variational --learningRate=-0.1
expect_reject priorVariance --mode=variational --priorVariance=0
expect_reject initialSigma --mode=variational --initialSigma=-1
expect_reject threads --mode=variational --threads=1000
expect_reject stepInterval --mode=variational --stepInterval=1ms

echo "check: --PrintHelp exits 0"
if ! "$BIN" --PrintHelp >/dev/null 2>&1; then
    fail "--PrintHelp failed"
fi

run_rejects
echo "$ncase cases, $failures failures"
[ "$failures" -eq 0 ]
