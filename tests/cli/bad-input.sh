#!/usr/bin/env bash
# Bad input to the d2d-exchange scenario (the README: bad input stops the program before simulating): each case
# must stop the program before simulating with a non-zero exit status (not a crash), print
# exactly one line on stderr naming the parameter, print nothing on stdout, and leave no
# file in --outDir. Also: --PrintHelp exits 0.
#
# Usage: bash bad-input.sh PATH/TO/d2d-exchange
set -euo pipefail

BIN=${1:?usage: bash bad-input.sh PATH/TO/d2d-exchange}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/d2d-bad-input.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=lib-bad-input.sh
source "$(dirname "$0")/lib-bad-input.sh"

# RSS files.
printf '0,1e-12,2e-12\n1e-12,0,3e-12\n2e-12,3e-12,0\n' >"$TMP/w3.csv"
printf '0,1e-12,2e-12\n1e-12,0,abc\n2e-12,3e-12,0\n' >"$TMP/nan.csv"
printf '0,1e-12,2e-12\n1e-12,0,3e-12\n' >"$TMP/notsquare.csv"
printf '0,1e-12\n1e-12\n' >"$TMP/ragged.csv"
printf '0,-1e-12\n1e-12,0\n' >"$TMP/negative.csv"
mkdir "$TMP/a-directory"

expect_reject bogus --bogus=1
expect_reject bandwidthHz --bandwidthHz=-5
expect_reject spectralEfficiency --spectralEfficiency=0
expect_reject d2sFraction --d2sFraction=1.5
expect_reject d2sFraction --d2sFraction=-0.1
expect_reject messageBytes --messageBytes=0
expect_reject nDevices --nDevices=1
# A value given as the next argument gets the form to use.
expect_reject "use --nDevices=3" --nDevices 3
expect_reject rssFile --rssFile="$TMP/does-not-exist.csv"
expect_reject rssFile --rssFile="$TMP/a-directory"
if [ "$(id -u)" -ne 0 ]; then
    # Root reads a file whatever its mode: this case only means something for others.
    printf '0,1\n1,0\n' >"$TMP/noread.csv"
    chmod 000 "$TMP/noread.csv"
    expect_reject rssFile --rssFile="$TMP/noread.csv"
fi
expect_reject rssFile --rssFile="$TMP/nan.csv"
expect_reject rssFile --rssFile="$TMP/notsquare.csv"
expect_reject rssFile --rssFile="$TMP/ragged.csv"
expect_reject rssFile --rssFile="$TMP/negative.csv"
expect_reject nDevices --nDevices=5 --rssFile="$TMP/w3.csv"
expect_reject energyModel --energyModel=power
expect_reject radioProfile --radioProfile=bogus
expect_reject energySource --energySource=bogus
expect_reject backend --backend=bogus
expect_reject wifiStandard --wifiStandard=80211g
expect_reject wifiDataMode --backend=wifi --wifiDataMode=ErpOfdmRate6Mbps
expect_reject wifiDataMode --backend=wifi --wifiRateManager=ideal --wifiDataMode=OfdmRate24Mbps
expect_reject spectralEfficiency --backend=wifi --spectralEfficiency=3
expect_reject mtuBytes --backend=wifi --mtuBytes=1500
# Values of the wrong form, and ns-3 attributes (class, attribute, checker's range).
expect_reject bandwidthHz --bandwidthHz=abc
expect_reject duration --duration=abc
expect_reject messageBytes --messageBytes=-1
expect_reject quiet --quiet=maybe
expect_reject MaxQueuedPackets --ns3::D2dWifiTransport::MaxQueuedPackets=0
expect_reject Bogus --ns3::D2dChannel::Bogus=1
expect_reject ns3::Bogus --ns3::Bogus::X=1
expect_reject ReassemblyTimeout --ns3::D2dWifiTransport::ReassemblyTimeout=soon
# Numbers beyond the range of the parameter's type (ns-3 would print its whole help).
expect_reject nDevices --nDevices=5000000000
expect_reject messageBytes --messageBytes=18446744073709551616
expect_reject seed --seed=18446744073709551616
# Attribute values of the wrong form for the attribute's type (ns-3 would abort or crash).
expect_reject MaxRetransmissions --ns3::D2dChannel::MaxRetransmissions=abc
expect_reject Stream --ns3::RandomVariableStream::Stream=abc
expect_reject IdlePowerW --ns3::D2dRadioEnergyModel::IdlePowerW=1e400
expect_reject HalfDuplex --ns3::D2dRadio::HalfDuplex=maybe
expect_reject SynchronizationMode --ns3::RealtimeSimulatorImpl::SynchronizationMode=Bogus
expect_reject RssModel --ns3::D2dChannel::RssModel=abc
# An attribute of a parent class (ns-3 only sets those under the class that defines them).
expect_reject ns3::WifiPhy --ns3::YansWifiPhy::TxPowerStart=10
# Attributes the scenario sets from its parameters, and the seed: they would be overridden.
expect_reject "set by --mtuBytes" --ns3::D2dChannel::MtuBytes=0
expect_reject "set by --spectralEfficiency" --ns3::D2dChannel::SpectralEfficiency=3
expect_reject "set by --txPowerDbm" --ns3::D2dRadio::TxPowerDbm=10
# A radio profile sets the radios' state powers: their attributes act with the custom one
# only, and custom powers that break transmit >= receive >= idle run only when asked.
expect_reject "acts only with --radioProfile=custom" --ns3::D2dRadioEnergyModel::Model=FirstOrder
expect_reject "acts only with --radioProfile=custom" --ns3::D2dRadioEnergyModel::IdlePowerW=0.5
expect_reject "receive 0.1 W < idle 0.819" --radioProfile=custom \
    --ns3::D2dRadioEnergyModel::RxPowerW=0.1
expect_reject "allowUnorderedRadioPowers" --allowUnorderedRadioPowers=true
# Battery choices that exist only in some ns-3 releases (d2d-ns3-compat.h): refused, in one
# line, where the ns-3 in use lacks them (D2DLEARN_NS3_VERSION: 100 x major + minor;
# D2DLEARN_NS3_LIION_SOURCE: 1 if it has LiIonEnergySource; both from CMake).
ns3v=${D2DLEARN_NS3_VERSION:?D2DLEARN_NS3_VERSION (e.g. 337) must be set: CTest sets it}
liion=${D2DLEARN_NS3_LIION_SOURCE:?D2DLEARN_NS3_LIION_SOURCE (0 or 1) must be set: CTest sets it}
if [ "$ns3v" -lt 340 ]; then
    expect_reject GenericBatteryModel --energySource=generic
fi
if [ "$liion" -eq 1 ]; then
    expect_reject "set by --initialEnergyJ" --energySource=liion \
        --ns3::LiIonEnergySource::LiIonEnergySourceInitialEnergyJ=5
else
    expect_reject LiIonEnergySource --energySource=liion
fi
expect_reject "set by --rssStep" --ns3::DynamicRssModel::StepInterval=2s
expect_reject "set by --seed" --RngSeed=3
expect_reject RngRun --RngRun=0
# A uniform drop probability: P_D in [0, 1) (or -1: from the RSS), one RSS source, some noise.
expect_reject dropProbability --dropProbability=1
expect_reject dropProbability --dropProbability=-0.5
expect_reject d2sDropProbability --d2sDropProbability=1.5
expect_reject dropProbability --dropProbability=0.2 --rssFile="$TMP/w3.csv"
expect_reject dropProbability --dropProbability=0.2 --dynamicRssLevels=4
expect_reject noisePowerW --dropProbability=0.2 --noisePowerW=0
expect_reject dropProbability --backend=wifi --dropProbability=0.2
# a finite spectrum: K ranges, m within K, a fixed p_drop that interference would raise
expect_reject subChannels --subChannels=-1
expect_reject subChannelsPerTransmission --subChannels=2 --subChannelsPerTransmission=3
expect_reject d2sBandwidthHz --d2sFraction=0.5 --d2sBandwidthHz=0.5
expect_reject dropProbability --subChannels=2 --dropProbability=0.2
expect_reject printLinks --backend=wifi --printLinks
# Attribute combinations the model would abort on mid-simulation.
expect_reject MinW --dynamicRssLevels=4 --ns3::DynamicRssModel::MinW=1
# Times: strictly positive, at most 1e9 s, compared as times.
expect_reject duration --duration=0s
expect_reject duration --duration=2e9s
# Integer flags in exponent notation: only whole numbers that fit.
expect_reject nDevices --nDevices=1e10
expect_reject nDevices --nDevices=2.5e0
expect_reject messageBytes --messageBytes=1.2345e3
expect_reject MaxRetransmissions --ns3::D2dChannel::MaxRetransmissions=1e-1
expect_reject meanInterval --meanInterval=-1ms

# expect_accept ARGS... : run BIN ARGS --outDir=<fresh dir>; must succeed and write run.json.
expect_accept() {
    ncase=$((ncase + 1))
    local out="$TMP/out$ncase"
    echo "check: $* -> accepted"
    local rc=0
    timeout 20 "$BIN" "$@" --quiet --outDir="$out" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "exit status $rc: $(head -n 3 "$TMP/stderr")"
    elif [ ! -s "$out/run.json" ]; then
        fail "no run.json"
    fi
}

expect_accept --nDevices=2 --duration=1ns
expect_accept --nDevices=3 --duration=1s --subChannels=2 --dropProbability=0.2 \
    --interference=false
expect_accept --nDevices=3 --duration=1s --dropProbability=0 --noisePowerW=0
expect_accept --nDevices=3 --duration=1s --dropProbability=0.5 --d2sDropProbability=0.1 \
    --d2sFraction=0.5 --RngRun=7
expect_accept --nDevices=3 --duration=1s --ns3::D2dRadio::HalfDuplex=false \
    --ns3::D2dChannel::PropagationDelayModel=ns3::ConstantSpeedPropagationDelayModel

# The README writes ranges as 1e5: integer flags read it exactly (ns-3 alone reads 1e3 as 1).
# (FragmentHeaderBytes: an integer attribute no flag of d2d-exchange sets.)
expect_accept --nDevices=3e0 --duration=1s --messageBytes=1.5e3 \
    --ns3::D2dChannel::FragmentHeaderBytes=1.2e1
if ! grep -q '"nDevices": 3,' "$TMP/out$ncase/run.json" ||
    ! grep -q '"messageBytes": 1500,' "$TMP/out$ncase/run.json" ||
    ! grep -q '"ns3::D2dChannel::FragmentHeaderBytes": 12' "$TMP/out$ncase/run.json"; then
    fail "--nDevices=3e0 --messageBytes=1.5e3 --ns3::D2dChannel::FragmentHeaderBytes=1.2e1: run.json does not record 3, 1500 and 12"
fi

echo "check: a rejected run leaves an earlier run's traces in outDir untouched"
prev="$TMP/prev"
timeout 20 "$BIN" --nDevices=3 --duration=1s --quiet --outDir="$prev" >/dev/null 2>&1 ||
    fail "a valid run (--nDevices=3 --duration=1s) failed"
before=$(cd "$prev" && find . -type f | sort | xargs -r md5sum)
rc=0
timeout 20 "$BIN" --messageBytes=0 --outDir="$prev" >/dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "--messageBytes=0 into an existing outDir: exit status 0"
after=$(cd "$prev" && find . -type f | sort | xargs -r md5sum)
[ -n "$before" ] && [ "$before" = "$after" ] || fail "outDir of the earlier run changed"

echo "check: --PrintHelp exits 0, lists the parameters, writes nothing"
rc=0
timeout 20 "$BIN" --PrintHelp --outDir="$TMP/help" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
if [ "$rc" -ne 0 ]; then
    fail "--PrintHelp: exit status $rc (expected 0)"
fi
for p in --nDevices --messageBytes --rssFile --seed --outDir --quiet; do
    grep -q -- "$p" "$TMP/stdout" || fail "--PrintHelp does not list $p"
done
[ -e "$TMP/help" ] && fail "--PrintHelp created outDir"

run_rejects
if [ "$failures" -ne 0 ]; then
    echo "bad-input: $failures failure(s)"
    exit 1
fi
echo "bad-input: all $ncase bad inputs rejected correctly; --PrintHelp OK"
