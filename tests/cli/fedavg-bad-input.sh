#!/usr/bin/env bash
# Bad input to the fedavg scenario: each case must stop the program before simulating
# with a non-zero exit status, exactly one line on stderr naming the parameter, nothing
# on stdout and nothing in --outDir (see lib-bad-input.sh). Covers the learning
# parameters, the data set (missing and corrupt files), the partitions, the server's
# aggregation rule and its parameters (--aggregation, or a class name through
# --ns3::D2dFedAvg::Aggregation, not both), the shares' former percent flags and
# attributes (each refused with its new name) and the network parameters it shares with
# the other scenarios.
#
# Usage: bash fedavg-bad-input.sh PATH/TO/fedavg
set -euo pipefail

BIN=${1:?usage: bash fedavg-bad-input.sh PATH/TO/fedavg}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fedavg-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

expect_reject unknownFlag --unknownFlag=3
# A misspelt flag names the nearest one; ns-3 aborted (exit 134) on an unknown class or group.
expect_reject "did you mean --nDevices?" --ndevices=3
expect_reject "did you mean --rounds?" --round=3
expect_reject "PrintAttributes=ns3::Foo: unknown ns-3 class" --PrintAttributes=ns3::Foo
expect_reject "PrintGroup=Nope: unknown group" --PrintGroup=Nope
expect_reject algorithm --algorithm=fedbest
expect_reject rounds --rounds=0
expect_reject localEpochs --localEpochs=0
expect_reject batchSize --batchSize=0
expect_reject learningRate --learningRate=-0.1
expect_reject optimizer --optimizer=rmsprop
expect_reject model --model=rnn
expect_reject model --model=mlp:0
expect_reject model --model=cnn:16
expect_reject model --model=mlp,cnn --algorithm=fedavg
expect_reject model --model=cnn --dataset=gaussian-mixture
expect_reject model --model=triplet:0
expect_reject model --model=triplet:5
expect_reject model --model=triplet:x
expect_reject model --model=triplet --dataset=gaussian-mixture
expect_reject model --model=triplet,mlp --algorithm=local
expect_reject dataset --dataset=imagenet
expect_reject dataFraction --dataFraction=0
expect_reject dataFraction --dataFraction=1.5
expect_reject partition --partition=zipf
expect_reject alpha --partition=dirichlet --alpha=0
expect_reject labelsPerDevice --partition=labels --labelsPerDevice=11
expect_reject labelProportions --partition=labels --labelProportions=0.5,x,0.2
expect_reject labelProportions --partition=labels --labelProportions=0.5,0.6,0.2
expect_reject labelProportions --partition=labels --labelsPerDevice=2 --labelProportions=0.5,0.3,0.2
# A time bound of 0 reads "0 s" (it read "at least -0 s").
expect_reject "at least 0 s" --roundDeadline=-1s
# A share that is not a number is called so (it was called "a negative share").
expect_reject "not a number" --partition=labels --labelsPerDevice=2 --labelProportions=nan,1
expect_reject clientFraction --clientFraction=0
expect_reject clientFraction --clientFraction=1.5
expect_reject mu --algorithm=fedprox --mu=-1
expect_reject graph --algorithm=decentralized --graph=ring
expect_reject graph --algorithm=fedavg --graph=range --rangeM=40
expect_reject graph --algorithm=decentralized --graph=range
expect_reject roundDeadline --roundDeadline=-1s
expect_reject roundDeadline --roundDeadline=abc
expect_reject compression --compression=int8
expect_reject stragglers --stragglers=11
expect_reject stragglerSlowdown --stragglerSlowdown=0.5
expect_reject flipDevices --flipDevices=11
expect_reject aggregation --aggregation=mode
expect_reject aggregation --aggregation=
expect_reject aggregation --algorithm=decentralized --aggregation=median
expect_reject aggregation --algorithm=local --aggregation=krum
expect_reject aggregation --aggregation=median --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation
expect_reject ns3::D2dFedAvg::Aggregation --ns3::D2dFedAvg::Aggregation=ns3::D2dNoSuchAggregation
expect_reject ns3::D2dFedAvg::Aggregation --ns3::D2dFedAvg::Aggregation=ns3::D2dFedAvg
expect_reject ns3::D2dFedAvg::Variant --ns3::D2dFedAvg::Variant=fedbest
expect_reject ns3::D2dFedAvg::Downlink --ns3::D2dFedAvg::Downlink=multicast
expect_reject "--trimFraction=0.5 is out of range (accepted: at least 0, below 0.5)" \
    --aggregation=trimmed-mean --trimFraction=0.5
expect_reject trimFraction --aggregation=trimmed-mean --trimFraction=-0.01
expect_reject trimFraction --aggregation=trimmed-mean --trimFraction=20
expect_reject krumF --aggregation=krum --krumF=-2
expect_reject krumF --aggregation=krum --krumF=1.5
# f above the number of devices (accepted before).
expect_reject krumF --aggregation=krum --nDevices=5 --krumF=6
expect_reject aggregationFraction --aggregation=multi-krum --aggregationFraction=0
expect_reject aggregationFraction --aggregation=multi-krum --aggregationFraction=1.01
expect_reject trimFraction --ns3::D2dTrimmedMeanAggregation::TrimFraction=0.2
# The former percent names: one line naming the new one and the value as a share.
expect_reject "--trimPercent: renamed; use --trimFraction, a share in [0, 1] (20 percent is 0.2)" \
    --aggregation=trimmed-mean --trimPercent=20
expect_reject "--aggregationPercent: renamed; use --aggregationFraction, a share in [0, 1] (60 percent is 0.6)" \
    --aggregation=multi-krum --aggregationPercent=60
expect_reject "--ns3::D2dTrimmedMeanAggregation::TrimPercent: renamed; use --ns3::D2dTrimmedMeanAggregation::TrimFraction, a share in [0, 1] (30 percent is 0.3)" \
    --ns3::D2dTrimmedMeanAggregation::TrimPercent=abc
expect_reject "--ns3::D2dMultiKrumAggregation::SelectPercent: renamed; use --ns3::D2dMultiKrumAggregation::SelectFraction, a share in [0, 1] (40 percent is 0.4)" \
    --ns3::D2dMultiKrumAggregation::SelectPercent=40
expect_reject "--ns3::D2dKrumAggregation::ByzantinePercent: renamed; use --ns3::D2dKrumAggregation::ByzantineFraction, a share in [0, 1] (25 percent is 0.25)" \
    --ns3::D2dKrumAggregation::ByzantinePercent=25
# A program without the flag's new name: an unknown parameter, as any other.
expect_reject "unknown parameter --committeePercent" --committeePercent=30
expect_reject krumF --ns3::D2dKrumAggregation::ByzantineCount=1
expect_reject threads --threads=1000
expect_reject nDevices --nDevices=1
expect_reject nDevices --nDevices=1000001
expect_reject "out of range for --backend=wifi" --backend=wifi --nDevices=70000
expect_reject dataFraction --nDevices=5000 --dataFraction=0.01
# A synthetic set too small for the devices names --syntheticSamples (it was blamed on
# --dataFraction, even at --dataFraction=1) and the least value that gives each a sample.
expect_reject "syntheticSamples=1 with --dataFraction=0.25 leaves 1 training samples for 10 devices (accepted: at least one sample per device, --syntheticSamples=40 or more)" \
    --dataset=gaussian-mixture --syntheticSamples=1 --dataFraction=0.25
expect_reject "syntheticSamples=5 leaves 5 training samples for 10 devices (accepted: at least one sample per device, --syntheticSamples=10 or more)" \
    --dataset=gaussian-mixture --syntheticSamples=5 --dataFraction=1
expect_reject noisePowerW --noisePowerW=-1
expect_reject seed --seed=0
expect_reject ns3::D2dLearner::LearningRate --ns3::D2dLearner::LearningRate=0.1
expect_reject dataDir --dataDir="$TMP/does-not-exist"
mkdir -p "$TMP/corrupt"
for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte \
    t10k-labels-idx1-ubyte; do
    printf 'not a gzip file' >"$TMP/corrupt/$f.gz"
done
expect_reject dataDir --dataDir="$TMP/corrupt"
# A data folder whose training set holds no image (the real test set beside it): named as
# such (a shape comparison once blamed the test set).
mkdir -p "$TMP/empty-train"
printf '\x00\x00\x08\x03\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x1c' |
    gzip >"$TMP/empty-train/train-images-idx3-ubyte.gz"
printf '\x00\x00\x08\x01\x00\x00\x00\x00' | gzip >"$TMP/empty-train/train-labels-idx1-ubyte.gz"
for f in t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
    ln -s "/usr/share/datasets/fashion-mnist/$f.gz" "$TMP/empty-train/$f.gz"
done
expect_reject "training set holds no sample" --dataDir="$TMP/empty-train"

finish fedavg-bad-input
