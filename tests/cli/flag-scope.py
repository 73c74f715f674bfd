#!/usr/bin/env python3
"""No silent flags: D2dFlagScope's table, run against every scenario program.

For each of the six programs and each configuration that changes which links its messages
use (its --algorithm, --cooperation, --d2sFraction or paradigm, over both backends):
- `--printScope` lists every flag of the program once, each "yes" (it acts) or "no" with a
  reason;
- every flag it lists as "no" is given at a value other than its default (VALUES below,
  this test's own) with `--validate`: the program must refuse it with exit status 2, one
  line on stderr naming the flag and saying "cannot change this run", nothing on stdout;
- the same flag at its default value is accepted (a default never counts as given): all
  inert flags of a configuration at their defaults in one run, which a refusal would name.
Then it samples flags the table says act (SAMPLES below: D2D, D2S, Wi-Fi, per-algorithm and
per-mode flags in every program), checks that --printScope lists them as "yes", runs the
configuration with and without the flag on a small setting and expects the named trace to
differ. And a few reasons are checked word for word against what they must say (server
FedAvg sends no D2D messages, a Wi-Fi flag on the channel, ...), independently of the table.

A program's runs are forked by one start of it (case_batch.py, D2DLEARN_CASES).

Usage: flag-scope.py BIN_DIR
"""

import csv
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile

import case_batch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "analysis"))
from d2dlearn_analysis.protocols import for_program  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: flag-scope.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="flag-scope.")
failures = 0

# A value other than the default for every flag the table may find inert; two where the
# default may be one of them (the first that differs from the default is taken).
RSS_FILE = os.path.join(TMP, "w.csv")
VALUES = {
    # graph-discovery's paradigm flags (each acts with its paradigm: D2dScenarioFlags::AddChoice)
    "pcaDims": ["8", "10"],
    "pcaLocalRank": ["4", "5"],
    "labelledFraction": ["0.2", "0.3"],
    "knn": ["5", "6"],
    "labeller": ["mlp", "propagation"],
    "clusters": ["5", "7"],
    "requestPoints": ["50", "60"],
    "retainFraction": ["0.4", "0.6"],
    "exchangeMode": ["sampled", "real"],
    "normalDraws": ["box-muller", "ziggurat"],
    "agreementMix": ["printed", "post-exchange"],
    "agreementScale": ["sum", "mean"],
    "thresholdOn": ["expected", "allocated"],
    "thresholdFraction": ["0.3", "0.4"],
    "minLabels": ["2", "3"],
    "trust": ["block", "random"],
    "trustDensity": ["0.3", "0.4"],
    "trustFile": ["trust.csv"],
    "diversity": ["js", "w1"],
    "mtuBytes": ["1000", "1200"],
    "maxRetransmissions": ["3", "4"],
    "spectralEfficiency": ["3", "4"],
    "bandwidthHz": ["5e6", "2e7"],
    "noisePowerW": ["2e-13", "3e-13"],
    "noise": ["thermal", "constant"],
    "noiseFigureDb": ["7", "8"],
    "propagation": ["friis", "log-distance"],
    "frequencyHz": ["2e9", "3e9"],
    "deviceHeightM": ["2", "3"],
    "shadowing": ["log-normal", "preset"],
    "shadowingSigmaDb": ["6", "7"],
    "shadowingCorrelationM": ["20", "30"],
    "nakagamiM": ["1", "2"],
    "coherenceTime": ["10ms", "20ms"],
    "d2sNoisePowerW": ["2e-13", "3e-13"],
    "txPowerDbm": ["10", "12"],
    "d2sTxPowerDbm": ["10", "12"],
    "reliable": ["false", "true"],
    "fastPath": ["false", "true"],
    "rangeM": ["30", "40"],
    "access": ["immediate", "scheduled"],
    "subChannels": ["3", "5"],
    "d2sSubChannels": ["3", "5"],
    "d2sBandwidthHz": ["5e6", "2e7"],
    "subChannelsPerTransmission": ["2", "3"],
    "receiveChains": ["1", "2"],
    "interference": ["false", "true"],
    "spectrumReuse": ["hearing", "none"],
    "reuseDistanceM": ["30", "40"],
    "d2sDistanceFactor": ["2", "4"],
    "d2sLinks": ["equal", "distance"],
    "serverPosition": ["0,0", "1,1"],
    "areaSideM": ["70", "80"],
    "speedMps": ["5", "6"],
    "mobility": ["random-waypoint", "constant"],
    "waypointMinSpeedMps": ["2", "3"],
    "waypointMaxSpeedMps": ["6", "7"],
    "waypointPause": ["1s", "3s"],
    "gaussMarkovMeanSpeedMps": ["2", "3"],
    "gaussMarkovAlpha": ["0.5", "0.6"],
    "gaussMarkovTimeStep": ["2s", "3s"],
    "mobilityTrace": [RSS_FILE],
    "radioProfile": ["first-order", "ns3-wifi"],
    "allowUnorderedRadioPowers": ["true", "false"],
    "d2dRadio": ["on", "auto"],
    "drx": ["100ms,10ms,20ms", "50ms,5ms"],
    "d2sDrx": ["100ms,10ms,20ms", "50ms,5ms"],
    "sleepWhileTraining": ["true", "false"],
    "sleepBetweenIterations": ["true", "false"],
    "computeModel": ["cpu", "flops"],
    "jobWallLimit": ["60s", "120s"],
    "pcap": [os.path.join(TMP, "pcap")],
    "netanim": ["true"],
    "flowMonitor": ["true"],
    "cpuFrequencyHz": ["1e9", "3e9"],
    "cyclesPerFlop": ["0.5", "0.3"],
    "computeSpread": ["0.5", "0.6"],
    "deviceProfiles": [RSS_FILE],
    "switchedCapacitance": ["1e-28", "2e-28"],
    "dynamicRssLevels": ["4", "5"],
    "rssStep": ["2s", "3s"],
    "rssFile": [RSS_FILE],
    "dropProbability": ["0.3", "0.4"],
    "d2sDropProbability": ["0.3", "0.4"],
    "printLinks": ["true", "false"],
    "wifiStandard": ["80211g", "80211a"],
    "wifiRateManager": ["ideal", "constant"],
    "wifiDataMode": ["OfdmRate24Mbps"],
    "wifiLossExponent": ["3.5", "4"],
    # the data set
    "syntheticSamples": ["1000", "2000"],
    "cifarLabels": ["coarse"],
    # fedavg
    "aggregation": ["median", "mean"],
    "trimFraction": ["0.2", "0.3"],
    "krumF": ["1", "2"],
    "aggregationFraction": ["0.5", "0.6"],
    "clientFraction": ["0.5", "0.6"],
    "mu": ["0.1", "0.2"],
    "waitForFailed": ["true", "false"],
    "overSelection": ["1.3", "1.5"],
    "meanOnTime": ["20s", "30s"],
    "meanOffTime": ["10s", "15s"],
    "availabilityFile": [RSS_FILE],
    "concurrency": ["3", "4"],
    "staleness": ["hinge", "constant"],
    "stalenessA": ["0.7", "0.8"],
    "stalenessB": ["2", "3"],
    "mixingAlpha": ["0.5", "0.7"],
    "proximalRho": ["0.01", "0.1"],
    "bufferSize": ["3", "4"],
    "serverLearningRate": ["0.5", "0.7"],
    "globalLearningRate": ["0.5", "0.6"],
    "activationFraction": ["0.3", "0.4"],
    # bayes-consensus's kinds of belief: each one's flags act with its --mode; the learning
    # flags only with the variational learner, which alone reads them
    "levels": ["4", "5"],
    "thetaTrue": ["1,1", "2,2"],
    "coinEps": ["0.2", "0.3"],
    "delta": ["0.2", "0.3"],
    "nTest": ["500", "600"],
    "mcSamples": ["2", "3"],
    "priorVariance": ["0.1", "0.2"],
    "initialSigma": ["0.1", "0.2"],
    "localSteps": ["5", "6"],
    "batchSize": ["16", "64"],
    "learningRate": ["0.1", "0.2"],
    "model": ["mlp:8", "logistic"],
    "dataDir": [TMP],
    "dataFraction": ["0.2", "0.3"],
    "partition": ["iid", "dirichlet"],
    "alpha": ["0.3", "0.4"],
    "labelsPerDevice": ["3", "4"],
    "labelProportions": ["0.6,0.4"],
    "quantitySkew": ["2", "3"],
    "threads": ["1", "0"],
    # what only decentralized protocols read (the devices' own models evaluated), and
    # bayes-consensus's W weights and belief messages (network cooperation)
    "evaluateDevices": ["false", "true"],
    "flipMode": ["shift", "derangement"],
    "weights": ["metropolis", "uniform"],
    "broadcast": ["false", "true"],
    # graph-discovery's GCN baseline (--graph=gcn) and its budget weight (--budget > 0)
    "gcnSystems": ["2", "3"],
    "gcnSystemDevices": ["10", "12"],
    "gcnSubsetSize": ["3", "4"],
    "gcnEpochs": ["50", "60"],
    "alpha3": ["0.5", "1"],
    # graph-discovery with --downstream=none trains no model: the training flags
    "targets": ["0.5", "0.6"],
    "compression": ["float16", "float32"],
    "optimizer": ["adam", "sgd"],
    "modelFlops": ["1e6", "2e6"],
    "rounds": ["3", "4"],
    "localEpochs": ["2", "3"],
    # consensus's prediction-consensus flags (they act with --algorithm=consensus)
    "consensus:trust": ["static", "naive"],
    "confidence": ["entropy", "none"],
    "distillBatch": ["64", "128"],
    "lambda": ["0.3", "0.4"],
    "lossRule": ["reuse", "renormalize"],
    "trustEvery": ["2", "3"],
    "warmupRounds": ["2", "3"],
    "deferTraining": ["false", "true"],
    "stragglerSlowdown": ["5", "6"],
    "graph": ["range", "random"],
    "neighbours": ["3", "4"],
    "groupSize": ["3", "4"],
    "stepsPerExchange": ["3", "4"],
    "exchangesPerRound": ["2", "3"],
    # cmfl
    "committeeFraction": ["0.3", "0.35"],
    "phaseTimeout": ["30s", "40s"],
    "requestTimeout": ["1s", "3s"],
    "maxAttempts": ["2", "3"],
    "quorum": ["replicas", "majority"],
    "gradientUpload": ["broadcast", "unicast"],
    "failedVote": ["keep-committee", "step-down"],
    "maliciousCommittee": ["adversarial", "attacked-reference"],
    "aggregationBase": ["active", "training"],
    "multiKrumWeights": ["uniform", "samples"],
    "segments": ["5", "6"],
    "replicas": ["2", "4"],
    "roundDeadline": ["30s", "40s"],
    "scalingLow": ["0.3", "0.4"],
}


def algorithms(program, where=None):
    """--algorithm=NAME of each protocol the program offers, in the registry's order
    (analysis/d2dlearn_analysis/protocols.py: a protocol added to the registry is checked
    here without an edit); with where, only those whose registry entry it passes."""
    return [["--algorithm=" + a] for a in for_program(program, where)]


# program -> (the choices that decide its links, a small setting for the sampled runs).
# fedavg's asynchronous protocols (fedasync, fedbuff: those with D2dAsyncFl's trace source
# Update) are left out, as they were when this list was written by hand (it predates them):
# taking them is a change of what the test runs (four more configurations), not of where it
# reads the names from.
PROGRAMS = {
    "fedavg": (algorithms("fedavg", lambda p: "Update" not in p["traceSources"]),
               ["--nDevices=4", "--rounds=1", "--dataFraction=0.02", "--model=mlp:16"]),
    "cmfl": (algorithms("cmfl"),
             ["--nDevices=20", "--activationFraction=0.5", "--rounds=1", "--dataFraction=0.02",
              "--model=logistic"]),
    "consensus": (algorithms("consensus"),
                  ["--nDevices=4", "--rounds=2", "--warmupRounds=1", "--dataFraction=0.05",
                   "--dataset=gaussian-mixture", "--model=mlp:8"]),
    "bayes-consensus": ([["--cooperation=" + c] for c in ["network", "isolated", "central"]]
                        + [["--mode=" + m] for m in ["gaussian-linear", "variational"]],
                        ["--nDevices=6", "--steps=5"]),
    "d2d-exchange": ([["--d2sFraction=" + f] for f in ["0", "0.5", "1"]],
                     ["--nDevices=6", "--duration=1s"]),
    # (--dataFraction=0.05: graph-discovery reads its data before it can tell which flags
    # act, and which act does not depend on how much of the data it reads; 3,000 samples
    # instead of 60,000 make each of its 180 refusals about a third shorter, 84 ms -> 55 ms.)
    # Its configurations by hand: --downstream none or one of its protocols (decentralized),
    # each with a paradigm, a choice the registry's export has no field for.
    "graph-discovery": ([["--paradigm=supervised", "--downstream=none", "--dataFraction=0.05"],
                         ["--paradigm=supervised", "--downstream=decentralized",
                          "--dataFraction=0.05"],
                         ["--paradigm=unsupervised", "--downstream=none",
                          "--dataFraction=0.05", "--pcaDims=8", "--clusters=7"]],
                        ["--nDevices=10", "--dataFraction=0.05", "--edges=2",
                         "--iterations=50"]),
}
BACKENDS = [["--backend=channel"], ["--backend=wifi"]]

# (program, configuration, flag=value, the trace that must change): flags the table says act.
SAMPLES = [
    # server FedAvg's D2D radios are off unless asked: on, they idle (radio_idle rows)
    ("fedavg", ["--algorithm=fedavg"], "--d2dRadio=on", "energy.csv"),
    ("fedavg", ["--algorithm=decentralized"], "--radioProfile=first-order", "energy.csv"),
    ("fedavg", ["--computeModel=cpu"], "--cpuFrequencyHz=1e9", "energy.csv"),
    # DRX: the radios sleep between on-durations (radio_sleep, d2s_sleep rows)
    ("fedavg", ["--algorithm=decentralized"], "--drx=100ms,10ms,20ms", "energy.csv"),
    # a short cycle without inactivity timer (with 100ms,10ms,20ms the one round of 0.17 s
    # keeps the D2S radios awake throughout)
    ("fedavg", ["--algorithm=fedavg"], "--d2sDrx=20ms,1ms", "energy.csv"),
    ("fedavg", ["--algorithm=decentralized"], "--dropProbability=0.6", "messages.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--d2sDropProbability=0.3", "messages.csv"),
    ("fedavg", ["--algorithm=fedprox"], "--mu=5", "rounds.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--serverPosition=0,0", "messages.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--speedMps=20", "messages.csv"),
    ("fedavg", ["--algorithm=semi-decentralized"], "--groupSize=2", "messages.csv"),
    ("fedavg", ["--algorithm=decentralized", "--backend=wifi", "--areaSideM=30"],
     "--wifiLossExponent=4", "messages.csv"),
    # the range graph redrawn each round where the devices are (SetGraphSource)
    ("fedavg", ["--algorithm=decentralized", "--graph=range", "--rangeM=25"], "--speedMps=10",
     "messages.csv"),
    # the range graph over Wi-Fi: who hears whom (no --rangeM there)
    ("fedavg", ["--algorithm=decentralized", "--backend=wifi", "--areaSideM=300"],
     "--graph=range", "messages.csv"),
    # a finite spectrum: the D2D band, the D2S cell, co-channel interference
    ("fedavg", ["--algorithm=decentralized"], "--subChannels=2", "messages.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--d2sSubChannels=2", "messages.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--d2sBandwidthHz=5e6", "messages.csv"),
    ("fedavg", ["--algorithm=decentralized", "--access=immediate", "--subChannels=1"],
     "--interference=false", "messages.csv"),
    ("cmfl", ["--algorithm=cmfl-1"], "--gradientUpload=broadcast", "messages.csv"),
    ("cmfl", ["--algorithm=fedavg"], "--d2sDropProbability=0.3", "messages.csv"),
    ("consensus", ["--algorithm=consensus"], "--dropProbability=0.6", "messages.csv"),
    ("bayes-consensus", ["--cooperation=network"], "--mtuBytes=200", "messages.csv"),
    ("d2d-exchange", ["--d2sFraction=0.5"], "--d2sDropProbability=0.5", "messages.csv"),
    ("d2d-exchange", ["--mobility=random-waypoint", "--positionEvery=0.5s"],
     "--waypointPause=0.1s", "positions.csv"),
    ("graph-discovery", ["--paradigm=unsupervised", "--downstream=none"],
     "--d2sDropProbability=0.3", "messages.csv"),
    # the radio environment: the same positions, other RSS; sigma^2 from the bandwidth
    ("fedavg", ["--algorithm=decentralized"], "--propagation=3gpp-umi", "messages.csv"),
    ("fedavg", ["--algorithm=fedavg"], "--propagation=friis", "messages.csv"),
    ("fedavg", ["--algorithm=decentralized", "--backend=wifi", "--areaSideM=30"],
     "--propagation=3gpp-indoor-office", "messages.csv"),
    ("d2d-exchange", ["--propagation=friis"], "--frequencyHz=2e9", "messages.csv"),
    ("d2d-exchange", ["--propagation=3gpp-umi"], "--deviceHeightM=2", "positions.csv"),
    ("d2d-exchange", [], "--shadowing=log-normal", "messages.csv"),
    ("d2d-exchange", ["--shadowing=log-normal"], "--shadowingSigmaDb=3", "messages.csv"),
    ("d2d-exchange", ["--shadowing=log-normal", "--speedMps=5"], "--shadowingCorrelationM=5",
     "messages.csv"),
    ("d2d-exchange", [], "--nakagamiM=1", "messages.csv"),
    ("d2d-exchange", ["--nakagamiM=1"], "--coherenceTime=1s", "messages.csv"),
    ("d2d-exchange", [], "--noise=thermal", "messages.csv"),
    ("d2d-exchange", ["--noise=thermal"], "--noiseFigureDb=5", "messages.csv"),
]

# (program, configuration, flag=value, words the one line must hold): the reasons, checked
# against what the issue asks them to say rather than against the table.
REASONS = [
    ("fedavg", [], "--dropProbability=0.5", "--algorithm=fedavg sends no D2D messages"),
    ("fedavg", ["--algorithm=decentralized"], "--d2sDropProbability=0.1",
     "--algorithm=decentralized has no server"),
    ("fedavg", [], "--wifiStandard=80211g", "it acts with --backend=wifi"),
    ("fedavg", ["--d2sLinks=equal"], "--serverPosition=0,0",
     "links of this run all have one length"),
    ("fedavg", ["--algorithm=decentralized"], "--serverPosition=0,0",
     "--algorithm=decentralized has no server"),
    ("fedavg", ["--backend=wifi"], "--noisePowerW=1e-12", "it acts with --backend=channel"),
    ("fedavg", ["--algorithm=fedavg"], "--mu=0.5", "it acts with --algorithm=fedprox"),
    # What the protocols say they make and read (D2dFlProtocol::GetPartTypeIds,
    # GetUnreadAttributes), not a list of names: a rule chosen by its class; CMFL's phases;
    # the serverless baselines, which have no global learning rate (their traces are the same
    # bytes with and without it).
    ("fedavg", ["--ns3::D2dFedAvg::Aggregation=ns3::D2dKrumAggregation"], "--trimFraction=0.2",
     "it acts with --aggregation=trimmed-mean"),
    ("cmfl", ["--algorithm=cmfl-1"], "--roundDeadline=10s",
     "which this run leaves unread: it acts with --algorithm=fedavg, median"),
    ("bayes-consensus", ["--mode=discrete"], "--learningRate=0.1",
     "it acts on ns3::D2dVariationalLearner, of which this run makes none: it acts with "
     "--mode=variational (here --mode=discrete --cooperation=network)"),
    ("bayes-consensus", ["--mode=variational"], "--levels=4", "it acts with --mode=discrete"),
    ("graph-discovery", ["--downstream=none", "--dataFraction=0.05"], "--rounds=3",
     "it acts with --downstream=fedavg, fedprox, fedsgd, decentralized or semi-decentralized"),
    ("fedavg", ["--algorithm=fedavg"], "--evaluateDevices=false",
     "it sets ns3::D2dFlProtocol::EvaluateDevices, which this run leaves unread"),
    ("fedavg", ["--partition=iid"], "--alpha=0.3", "it acts with --partition=dirichlet"),
    # FedSGD's devices compute one gradient: no local epochs (nor, unless the server's rate is
    # 0, the learners' rate)
    ("fedavg", ["--algorithm=fedsgd"], "--localEpochs=2",
     "it sets ns3::D2dFlProtocol::LocalEpochs, which this run leaves unread"),
    ("fedavg", ["--algorithm=local"], "--compression=float16",
     "it sets ns3::D2dFlProtocol::Compression, which this run leaves unread"),
    ("bayes-consensus", ["--cooperation=isolated"], "--lossRule=renormalize",
     "sends no D2D messages"),
    ("consensus", ["--algorithm=local"], "--warmupRounds=2",
     "it acts on ns3::D2dPredictionConsensus, of which this run makes none: it acts with "
     "--algorithm=consensus (here --algorithm=local)"),
    ("cmfl", ["--algorithm=gossipfl"], "--globalLearningRate=2",
     "it acts with --algorithm=cmfl-1, cmfl-2, fedavg, median, trimmed-mean, krum or multi-krum"),
    ("d2d-exchange", ["--mobility=gauss-markov"], "--waypointPause=1s",
     "it acts with --mobility=random-waypoint (here --mobility=gauss-markov)"),
    ("d2d-exchange", ["--mobility=random-waypoint"], "--speedMps=3",
     "it acts with --mobility=random-walk"),
    ("cmfl", ["--algorithm=krum"], "--committeeFraction=0.3",
     "it acts with --algorithm=cmfl-1 or cmfl-2"),
    ("d2d-exchange", [], "--d2sTxPowerDbm=10", "--d2sFraction=0 has no server"),
    ("fedavg", ["--algorithm=decentralized", "--subChannels=2"], "--interference=false",
     "no two transmissions share a sub-channel"),
    ("fedavg", ["--algorithm=decentralized", "--subChannels=0"], "--receiveChains=1",
     "every link of this run has an unlimited one"),
    ("d2d-exchange", ["--noise=thermal"], "--noisePowerW=1e-12",
     "it acts with --noise=constant (here --noise=thermal)"),
    ("d2d-exchange", [], "--frequencyHz=2e9", "--propagation=log-distance has no carrier"),
    ("d2d-exchange", [], "--coherenceTime=1s", "it acts with --nakagamiM > 0"),
    ("fedavg", ["--algorithm=decentralized", "--backend=wifi"], "--noise=thermal",
     "it acts with --backend=channel"),
]


def fail(message):
    global failures
    failures += 1
    print("  FAIL: " + message)


def defaults(program):
    """{flag: default} from --PrintHelp (the last [...] of a flag's line)."""
    out = case_batch.run(os.path.join(BIN, program), [["--PrintHelp"]])[0].stdout
    result = {}
    section = None
    for line in out.splitlines():
        if line.strip().endswith(":") and not line.startswith(" "):
            section = line.strip()[:-1]
            continue
        if section != "Program Options":
            continue
        m = re.match(r"^\s+--([^:\s]+):\s*(.*?)\s*$", line)
        if m:
            d = re.search(r"\[([^\[\]]*)\]$", m.group(2))
            result[m.group(1)] = d.group(1) if d else None
    return result


def scope(result):
    """{flag: (acts, why)} of a --printScope output."""
    lines = [line for line in result.stdout.splitlines() if not line.startswith("#")]
    return {row["flag"]: (row["acts"] == "yes", row["why"])
            for row in csv.DictReader(io.StringIO("\n".join(lines)))}


def pick(flag, default, program=""):
    """A value of flag other than its default: the program's own (VALUES["program:flag"]),
    else the first of VALUES[flag] that differs."""
    for value in VALUES.get(program + ":" + flag, VALUES.get(flag, [])):
        if value != default:
            return value
    return None


def refused(result, flag):
    lines = result.stderr.strip().splitlines()
    return (result.returncode == 2 and len(lines) == 1 and "--" + flag + "=" in lines[0]
            and "cannot change this run" in lines[0] and not result.stdout.strip())


def check_program(program, configurations):
    """Every inert flag of every configuration refused, and accepted at its default."""
    binary = os.path.join(BIN, program)
    default = defaults(program)
    configs = [c + b for c in configurations for b in BACKENDS]
    scopes = case_batch.run(binary, [c + ["--printScope"] for c in configs])
    cases, meta = [], []
    inert_total = 0
    for config, result in zip(configs, scopes):
        at_default = []
        if result.returncode != 0:
            fail("%s %s --printScope exited %d: %s"
                 % (program, " ".join(config), result.returncode, result.stderr.strip()[:200]))
            continue
        table = scope(result)
        if set(table) != set(default):
            fail("%s %s --printScope lists other flags than --PrintHelp: %s"
                 % (program, " ".join(config), sorted(set(table) ^ set(default))))
        for flag, (acts, why) in table.items():
            if acts:
                continue
            inert_total += 1
            if not why:
                fail("%s %s: --%s inert without a reason" % (program, " ".join(config), flag))
            value = pick(flag, default.get(flag), program)
            if value is None:
                fail("%s: --%s is inert in %s, and this test has no value for it (add one to "
                     "VALUES)" % (program, flag, " ".join(config)))
                continue
            cases.append(config + ["--%s=%s" % (flag, value), "--validate"])
            meta.append((config, [flag], "refused"))
            # --mtuBytes over Wi-Fi: 1400 when not given (a fragment and its 60 header bytes
            # in a 1500-byte MTU), as its help says beside the printed default, the
            # channel's 1500, which is above Wi-Fi's 1440: refused as out of range, as any
            # value above 1440 is.
            wifi_mtu = flag == "mtuBytes" and "--backend=wifi" in config
            if default.get(flag) is not None and flag not in ("rssFile",) and not wifi_mtu:
                at_default.append("--%s=%s" % (flag, default[flag]))
        # Every inert flag of the configuration at its default, in one run: a refusal names
        # the flag it refuses, so one run checks them all.
        if at_default:
            cases.append(config + at_default + ["--validate"])
            meta.append((config, [a[2:].split("=")[0] for a in at_default], "accepted"))
    results = case_batch.run(binary, cases)
    n_refused = n_accepted = 0
    for (config, flags, want), result in zip(meta, results):
        where = "%s %s" % (program, " ".join(result.args[1:]))
        if want == "refused":
            if refused(result, flags[0]):
                n_refused += 1
            else:
                fail("%s: want a one-line refusal naming --%s, got exit %d: %s"
                     % (where, flags[0], result.returncode, result.stderr.strip()[:300]))
        else:
            if result.returncode != 0:
                fail("%s %s: its inert flags at their defaults: exit %d, want 0 (a default "
                     "never counts as given): %s" % (program, " ".join(config),
                                                     result.returncode,
                                                     result.stderr.strip()[:300]))
            else:
                n_accepted += len(flags)
    print("  %s: %d configurations, %d inert (flag, configuration) pairs: %d refused, "
          "%d accepted at their default" % (program, len(configs), inert_total, n_refused,
                                             n_accepted))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def check_samples():
    """Flags the table says act change a trace."""
    by_program = {}
    for sample in SAMPLES:
        by_program.setdefault(sample[0], []).append(sample)
    for program, samples in by_program.items():
        binary = os.path.join(BIN, program)
        small = PROGRAMS[program][1]
        scopes = case_batch.run(binary, [config + small + [flag, "--printScope"]
                                         for _, config, flag, _ in samples])
        runs, outs = [], []
        for k, ((_, config, flag, _), result) in enumerate(zip(samples, scopes)):
            name = flag[2:].split("=")[0]
            table = scope(result) if result.returncode == 0 else {}
            if not table.get(name, (False,))[0]:
                fail("%s %s: --printScope does not list --%s as acting: %s"
                     % (program, " ".join(config), name, result.stderr.strip()[:200]))
            # One worker thread where the configuration has any (bayes-consensus's discrete
            # beliefs run no LibTorch work: --threads cannot act there).
            threads = ["--threads=0"] if table.get("threads", (False,))[0] else []
            for variant, extra in (("base", []), ("flag", [flag])):
                out = os.path.join(TMP, "%s-%d-%s" % (program, k, variant))
                outs.append(out)
                runs.append(config + small + extra + threads + ["--quiet", "--outDir=" + out])
        results = case_batch.run(binary, runs, timeout=300)
        for k, (_, config, flag, trace) in enumerate(samples):
            base, with_flag = results[2 * k], results[2 * k + 1]
            if base.returncode != 0 or with_flag.returncode != 0:
                fail("%s %s %s: runs exited %d and %d: %s"
                     % (program, " ".join(config), flag, base.returncode, with_flag.returncode,
                        (base.stderr + with_flag.stderr).strip()[:300]))
                continue
            a = digest(os.path.join(outs[2 * k], trace))
            b = digest(os.path.join(outs[2 * k + 1], trace))
            if a == b:
                fail("%s %s %s: %s unchanged (md5 %s)" % (program, " ".join(config), flag,
                                                          trace, a))
            else:
                print("  %s %s %s: %s changed (md5 %s -> %s)"
                      % (program, " ".join(config), flag, trace, a[:8], b[:8]))


def check_reasons():
    for program, config, flag, words in REASONS:
        result = case_batch.run(os.path.join(BIN, program), [config + [flag, "--validate"]])[0]
        line = result.stderr.strip()
        if result.returncode != 2 or words not in line:
            fail("%s %s %s: want exit 2 and '%s', got exit %d: %s"
                 % (program, " ".join(config), flag, words, result.returncode, line[:300]))
        else:
            print("  %s %s %s: %s" % (program, " ".join(config), flag, line))


def check_record():
    """--inertFlags=record: the inert flag accepted and listed in run.json."""
    out = os.path.join(TMP, "record")
    result = case_batch.run(os.path.join(BIN, "fedavg"),
                            [PROGRAMS["fedavg"][1] + ["--dropProbability=0.5", "--mu=0.5",
                                                      "--inertFlags=record", "--threads=0",
                                                      "--quiet", "--outDir=" + out]])[0]
    if result.returncode != 0:
        fail("--inertFlags=record: exit %d: %s" % (result.returncode, result.stderr[:300]))
        return
    with open(os.path.join(out, "run.json")) as f:
        given = json.load(f)["parameters"].get("inertFlagsGiven")
    if given != "mu,dropProbability":
        fail("--inertFlags=record: run.json inertFlagsGiven %r, want 'mu,dropProbability'"
             % given)
    else:
        print("  --inertFlags=record: accepted, run.json inertFlagsGiven = %s" % given)


def main():
    with open(RSS_FILE, "w") as f:  # read only when --rssFile acts; 4 devices otherwise
        f.write("0,1e-9,1e-9,1e-9\n1e-9,0,1e-9,1e-9\n1e-9,1e-9,0,1e-9\n1e-9,1e-9,1e-9,0\n")
    print("check: the reasons")
    check_reasons()
    check_record()
    for program, (configurations, _) in PROGRAMS.items():
        print("check: every inert flag of %s" % program)
        check_program(program, configurations)
    print("check: sampled flags that act change a trace")
    check_samples()
    if failures:
        print("flag-scope: %d failure(s)" % failures)
        sys.exit(1)
    print("flag-scope: ok")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
