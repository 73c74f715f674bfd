#!/usr/bin/env bash
# Bad input to the consensus scenario (prediction consensus, Fan et al. 2023): each case must
# stop the program before simulating with a non-zero exit status, exactly one line on
# stderr naming the parameter, nothing on stdout and nothing in --outDir (lib-bad-input.sh):
# lambda < 0, warm-up >= rounds, a flip index >= N (or not a number), X* empty or larger than
# the pool, an unknown trust, confidence, loss rule or flip mode, several models with
# FedAvg, an unknown algorithm; regression data (--dataset=polynomial) with a classifier, the
# polynomial learner on classification data, and an entropy confidence or label flips on
# regression data (static and dynamic trust are accepted there, with --confidence=none).
#
# Usage: bash consensus-bad-input.sh PATH/TO/consensus
set -euo pipefail

BIN=${1:?usage: bash consensus-bad-input.sh PATH/TO/consensus}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/consensus-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

SMALL=(--dataset=gaussian-mixture --dataFraction=0.02 --nDevices=4 --rounds=3 --warmupRounds=1)
expect_reject algorithm "${SMALL[@]}" --algorithm=scaffold
expect_reject lambda "${SMALL[@]}" --lambda=-0.5
expect_reject warmupRounds "${SMALL[@]}" --warmupRounds=3
expect_reject warmupRounds "${SMALL[@]}" --warmupRounds=7
expect_reject flipList "${SMALL[@]}" --flipList=4
expect_reject flipList "${SMALL[@]}" --flipList=1,x
expect_reject flipList "${SMALL[@]}" --flipList=-1
expect_reject xstarFraction "${SMALL[@]}" --xstarFraction=0
expect_reject xstarFraction "${SMALL[@]}" --xstarFraction=1e-6
expect_reject xstarFraction "${SMALL[@]}" --xstarFraction=1
expect_reject xstarFraction "${SMALL[@]}" --xstarFraction=0.9999
expect_reject trust "${SMALL[@]}" --trust=blind
expect_reject confidence "${SMALL[@]}" --confidence=cosine
expect_reject lossRule "${SMALL[@]}" --lossRule=drop
expect_reject flipMode "${SMALL[@]}" --flipMode=swap
expect_reject trustEvery "${SMALL[@]}" --trustEvery=0
expect_reject model "${SMALL[@]}" --algorithm=fedavg --model=mlp:8,logistic
expect_reject model "${SMALL[@]}" --model=linear
expect_reject modelAssignment "${SMALL[@]}" --modelAssignment=random
# Regression data with a classifier, a classifier data set with the polynomial learner, and
# what the polynomial toy cannot take (the entropy confidence of class probabilities, label
# flips).
POLY=(--dataset=polynomial --rounds=3)
expect_reject model "${POLY[@]}" --model=mlp:8
expect_reject model "${POLY[@]}" --model=logistic
expect_reject model "${POLY[@]}" --model=poly:21
expect_reject model "${SMALL[@]}" --model=poly:4
expect_reject model --dataset=fashion-mnist --dataFraction=0.01 --rounds=3 --model=poly
expect_reject confidence "${POLY[@]}" --trust=dynamic --confidence=entropy
expect_reject confidence "${POLY[@]}" --trust=static --confidence=entropy-plus-one
expect_reject flipList "${POLY[@]}" --flipList=1
expect_reject warmupRounds "${POLY[@]}" --warmupRounds=3
finish consensus-bad-input
