#!/usr/bin/env bash
# Bad input to the cmfl scenario: each case must stop the program before simulating with a
# non-zero exit status, exactly one line on stderr naming the parameter, nothing on stdout
# and nothing in --outDir (see lib-bad-input.sh). Covers every flag the scenario checks
# itself (algorithm, the committee / aggregation / activation / malicious shares, the
# attack and its scaling, the robust rules' trimFraction and krumF, the CCP timers and
# attempts, the upload mode, gossipfl's segments and replicas, the deadlines), a committee
# too small for the active clients, gossipfl segments beyond the model's parameters,
# malformed numbers, empty values (--name=, which ns-3's CommandLine answers with its whole
# help) of a text, a number, an ns-3 attribute and an ns-3 global, an unknown flag, one
# learning flag and one network flag; the shares' former percent flags and attributes
# (--committeePercent, --ns3::D2dCmfl::CommitteePercent, ...), each refused with its new
# name. Then a few edge values that are accepted: tiny runs that must exit 0 and write
# run.json.
#
# Usage: bash cmfl-bad-input.sh PATH/TO/cmfl
set -euo pipefail

BIN=${1:?usage: bash cmfl-bad-input.sh PATH/TO/cmfl}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cmfl-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

# The scenario's own flags.
expect_reject unknownFlag --unknownFlag=3
expect_reject algorithm --algorithm=cmfl-3
expect_reject algorithm --algorithm=
expect_reject attack --attack=
expect_reject rounds --rounds=
expect_reject outDir --outDir=
expect_reject UploadRetries --ns3::D2dCmfl::UploadRetries=
expect_reject SchedulerType --SchedulerType=
expect_reject "--committeeFraction=0 is out of range (accepted: 0.01 to 0.5)" --committeeFraction=0
expect_reject committeeFraction --committeeFraction=0.51
expect_reject committeeFraction --committeeFraction=0.4o
# A percent where a share is due: out of range, the range says [0, 1]-like.
expect_reject "accepted: 0.01 to 0.5" --committeeFraction=30
expect_reject aggregationFraction --aggregationFraction=0
expect_reject aggregationFraction --aggregationFraction=1.01
expect_reject activationFraction --activationFraction=0
expect_reject activationFraction --activationFraction=1.01
expect_reject maliciousFraction --maliciousFraction=-0.01
expect_reject maliciousFraction --maliciousFraction=1.01
# The former percent names: one line naming the new one and the value as a share.
expect_reject "--committeePercent: renamed; use --committeeFraction, a share in [0, 1] (30 percent is 0.3)" \
    --committeePercent=30
expect_reject "--activationPercent: renamed; use --activationFraction, a share in [0, 1] (50 percent is 0.5)" \
    --activationPercent=50
expect_reject "--aggregationPercent: renamed; use --aggregationFraction, a share in [0, 1] (40 percent is 0.4)" \
    --aggregationPercent=40
expect_reject "--maliciousPercent: renamed; use --maliciousFraction, a share in [0, 1] (10 percent is 0.1)" \
    --maliciousPercent=10
expect_reject "--trimPercent: renamed; use --trimFraction, a share in [0, 1] (20 percent is 0.2)" \
    --algorithm=trimmed-mean --trimPercent=20
expect_reject "--ns3::D2dCmfl::CommitteePercent: renamed; use --ns3::D2dCmfl::CommitteeFraction, a share in [0, 1] (30 percent is 0.3)" \
    --ns3::D2dCmfl::CommitteePercent=30
expect_reject "--ns3::D2dCmfl::AggregationPercent: renamed; use --ns3::D2dCmfl::AggregationFraction" \
    --ns3::D2dCmfl::AggregationPercent=40
expect_reject "--ns3::D2dCmfl::ActivationPercent: renamed; use --ns3::D2dCmfl::ActivationFraction" \
    --ns3::D2dCmfl::ActivationPercent=10
expect_reject "--ns3::D2dKrumAggregation::ByzantinePercent: renamed; use --ns3::D2dKrumAggregation::ByzantineFraction" \
    --ns3::D2dKrumAggregation::ByzantinePercent=10
expect_reject "--ns3::D2dMultiKrumAggregation::SelectPercent: renamed; use --ns3::D2dMultiKrumAggregation::SelectFraction" \
    --ns3::D2dMultiKrumAggregation::SelectPercent=40
expect_reject "--ns3::D2dTrimmedMeanAggregation::TrimPercent: renamed; use --ns3::D2dTrimmedMeanAggregation::TrimFraction" \
    --ns3::D2dTrimmedMeanAggregation::TrimPercent=20
expect_reject attack --attack=poison
expect_reject scalingLow --attack=gradient-scaling --scalingLow=1
expect_reject scalingLow --attack=gradient-scaling --scalingLow=-0.1
expect_reject trimFraction --algorithm=trimmed-mean --trimFraction=0.5
expect_reject trimFraction --algorithm=trimmed-mean --trimFraction=-0.01
expect_reject krumF --algorithm=krum --krumF=-2
expect_reject krumF --algorithm=krum --krumF=1.5
# f above the round's participants: 0.5 of 20 devices take part.
expect_reject "accepted: -1 to 10" --algorithm=krum --nDevices=20 --activationFraction=0.5 --krumF=11
expect_reject globalLearningRate --globalLearningRate=-0.5
expect_reject phaseTimeout --phaseTimeout=0s
expect_reject phaseTimeout --phaseTimeout=5sec
expect_reject requestTimeout --requestTimeout=-1s
expect_reject maxAttempts --maxAttempts=-1
expect_reject maxAttempts --maxAttempts=2000000
expect_reject gradientUpload --gradientUpload=multicast
expect_reject quorum --quorum=all
expect_reject failedVote --failedVote=retry
expect_reject maliciousCommittee --maliciousCommittee=honest
expect_reject attackSpace --attackSpace=model
expect_reject aggregationBase --aggregationBase=all
expect_reject multiKrumWeights --multiKrumWeights=median
expect_reject ns3::D2dCmfl::GradientUpload --ns3::D2dCmfl::GradientUpload=multicast
expect_reject algorithm --algorithm=median --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation
expect_reject trimFraction --ns3::D2dTrimmedMeanAggregation::TrimFraction=0.2
expect_reject krumF --ns3::D2dKrumAggregation::ByzantineCount=1
# Multi-Krum is a Krum: its f is the parent's attribute, and the message names it.
expect_reject D2dKrumAggregation::ByzantineCount --ns3::D2dMultiKrumAggregation::ByzantineCount=1
expect_reject maliciousFraction --ns3::D2dKrumAggregation::ByzantineFraction=0.1
expect_reject ns3::D2dCmfl::Aggregation --ns3::D2dCmfl::Aggregation=ns3::D2dCmfl
expect_reject segments --algorithm=gossipfl --segments=0
expect_reject segments --algorithm=gossipfl --segments=1.5
expect_reject replicas --algorithm=gossipfl --replicas=0
expect_reject roundDeadline --algorithm=fedavg --roundDeadline=-1s
expect_reject maxSimTime --maxSimTime=0s
expect_reject evaluateDevices --evaluateDevices=maybe
# 0.2 of 10 devices are active: a committee of round(0.4 x 2) = 1 < 3 members.
expect_reject committeeFraction --nDevices=10 --activationFraction=0.2
# 0.5 of 4 active clients: 2 members, below the 3 the consensus protocol needs.
expect_reject committeeFraction --nDevices=20 --activationFraction=0.2 --committeeFraction=0.5
# The attribute behind a flag is set by the flag.
expect_reject "set by --committeeFraction" --ns3::D2dCmfl::CommitteeFraction=0.3
# gossipfl splits the model into segments of at least one parameter: the logistic model
# of the 2-D, 4-class Gaussian mixture has 2 x 4 + 4 = 12 parameters, so 13 segments
# cannot be made (it used to abort mid-run with temporary files left in outDir).
expect_reject segments --algorithm=gossipfl --dataset=gaussian-mixture --model=logistic \
    --dataFraction=0.02 --nDevices=20 --segments=13

# Shared learning and network flags (one each is enough here: fedavg-bad-input.sh and
# bad-input.sh cover them).
expect_reject model --model=mlp,logistic
expect_reject maxRetransmissions --maxRetransmissions=1001

# Accepted edge values: tiny runs that must finish, exit 0 and write run.json.
TINY=(--nDevices=20 --activationFraction=0.5 --rounds=1 --dataFraction=0.02 --model=logistic
    --quiet)
expect_accept() {
    ncase=$((ncase + 1))
    local out="$TMP/out$ncase"
    echo "check: $* -> accepted"
    local rc=0
    timeout 120 "$BIN" "${TINY[@]}" "$@" --outDir="$out" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "exit status $rc: $(head -n 3 "$TMP/stderr")"
    elif [ ! -s "$out/run.json" ] || [ ! -s "$out/rounds.csv" ]; then
        fail "no run.json or rounds.csv in $out"
    fi
}
expect_accept --algorithm=fedavg --roundDeadline=0s
expect_accept --algorithm=cmfl-1 --maliciousFraction=0
expect_accept --algorithm=cmfl-2 --attack=none --maliciousFraction=0.1
# 0.5 of 10 active clients: 5 members (the largest committee), 5 training clients.
expect_accept --algorithm=cmfl-1 --committeeFraction=0.5 --aggregationFraction=1
expect_accept --algorithm=trimmed-mean --trimFraction=0
expect_accept --algorithm=multi-krum --krumF=0
# The largest f: every participant of a round (10 of the 20 devices).
expect_accept --algorithm=krum --krumF=10
# The same boundary accepted: 12 segments of one parameter, replicas capped at the peers.
# (GossipFL has no share of active clients: TINY's --activationFraction again at its default.)
expect_accept --algorithm=gossipfl --dataset=gaussian-mixture --segments=12 --replicas=100 \
    --activationFraction=0.1

run_rejects
if [ "$failures" -ne 0 ]; then
    echo "cmfl-bad-input: $failures of $ncase case(s) failed"
    exit 1
fi
echo "cmfl-bad-input: all $ncase cases behaved (rejected or accepted) as expected"
