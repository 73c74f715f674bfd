/*
 * d2dlearn scenario: federated and decentralized learning over D2D and D2S links.
 *
 * N devices, each with a LibTorch learner and a shard of Fashion-MNIST (or a Gaussian
 * mixture), learn together with one of:
 *   fedavg, fedprox, fedsgd    a server over the device-to-server link (Che et al. 2022 Background;
 *                              Wagle et al. 2025 VI-D)
 *   decentralized              devices average models with random D2D neighbours (002 VI-E),
 *                              or with those in range (--graph=range --rangeM=40)
 *   semi-decentralized         groups average over D2D, a server aggregates one device per
 *                              group over D2S and broadcasts (Wagle et al. 2025 VI-E)
 *   local                      no collaboration (the floor)
 * The FedAvg family's server aggregates with --aggregation: mean (McMahan et al. 2017),
 * median or trimmed-mean (Yin et al. 2018), krum or multi-krum (Blanchard et al. 2017);
 * --flipDevices devices train on flipped labels (the Byzantine clients of the robust rules).
 * Training takes simulated time and energy on each device's compute model; every model
 * crosses the simulated channel with its true size. Writes rounds.csv, messages.csv,
 * energy.csv and run.json into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-availability-options.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-krum-aggregation.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-protocol-choice.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-semi-decentralized-fl.h"
#include "ns3/d2dlearn-module.h"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FedAvgScenario");

namespace
{

/** --nDevices=0: this many devices. */
constexpr uint32_t DEFAULT_DEVICES = 10;

/** The program's own flags (those every learning scenario shares: D2dLearningOptions and
 *  D2dNetworkOptions), on their defaults. */
struct FedAvgFlags
{
    std::string algorithm = "fedavg"; // the protocol
    uint32_t flipDevices = 0;         // devices whose labels are flipped (low quality)
    std::string aggregation = "mean"; // FedAvg family: the server's rule
    uint32_t stragglers = 0;          // devices slowed down by stragglerSlowdown
    double stragglerSlowdown = 10.0;  // compute slow-down factor of a straggler
    std::string graph = "random";     // decentralized: random (any device) or range
    uint32_t neighbours = 0;          // decentralized: in-neighbours per round (0: 7 or all)
    Time maxSimTime = Seconds(1e7);   // safety stop of the simulation
};

/**
 * \brief Declare every flag once: a flag bound to an attribute takes its help, default and
 * range from it (Range() narrows) and sets it for every object of the class.
 */
void
AddFlags(D2dScenarioFlags& flags,
         const D2dProtocolChoice& protocols,
         FedAvgFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net,
         D2dAvailabilityOptions& availability)
{
    flags.Add("algorithm", "The protocol", f.algorithm).Choices(protocols.GetNames());
    protocols.AddChoices(flags); // which classes each makes: where their flags act
    D2dProtocolChoice::AddAggregationChoices(flags, "aggregation");
    learning.AddFlags(flags);
    flags.Add("flipDevices", "Devices with flipped labels (low quality)", f.flipDevices)
        .Sets("ns3::D2dKrumAggregation::ByzantineFraction")
        .Range(0, 1e5);
    flags.Add("aggregation", "fedavg, fedprox, fedsgd: the server's rule", f.aggregation)
        .Choices(D2dProtocolRegistry::GetAggregationNames())
        .Configures("ns3::D2dFedAvg");
    flags.Bind("trimFraction", "ns3::D2dTrimmedMeanAggregation::TrimFraction");
    flags.Bind("krumF",
               "ns3::D2dKrumAggregation::ByzantineCount",
               "krum, multi-krum: Byzantine count f (-1: flipDevices / nDevices x "
               "participants)");
    flags.Bind("aggregationFraction", "ns3::D2dMultiKrumAggregation::SelectFraction")
        .Range(0.01, 1);
    flags.Bind("clientFraction", "ns3::D2dFedAvg::ClientFraction").Range(1e-9, 1);
    flags.Bind("mu", "ns3::D2dFedAvg::ProximalMu").Range(0, 1e6);
    flags.Bind("waitForFailed",
               "ns3::D2dFedAvg::WaitForFailed",
               "Wait until --roundDeadline for a sampled device that cannot answer: its "
               "global model did not reach it (--reliable) or it is still training an "
               "earlier round's (false: it says busy; the round closes without it)");
    flags
        .Bind("overSelection",
              "ns3::D2dFedAvg::OverSelection",
              "Sample overSelection x m devices (at most nDevices), m = max(1, "
              "round(clientFraction x nDevices)), and close the round at the first m answers "
              "(Bonawitz et al. 2019: 1.3)")
        .Range(1, 100);
    flags
        .Bind("deferTraining",
              "ns3::D2dFedAvg::DeferTraining",
              "Run the devices' LibTorch work when its result is read (fedavg, fedprox, "
              "fedsgd: by the server; decentralized: at the round's end, in a locality "
              "order): the same traces, fewer models in memory")
        .Also("ns3::D2dDecentralizedFl::DeferTraining");
    flags
        .Bind("globalLearningRate",
              "ns3::D2dFedAvg::GlobalLearningRate",
              "Server step eta (fedsgd: 0 means learningRate)")
        .Range(0, 1e6);
    flags
        .Bind("roundDeadline",
              "ns3::D2dFlProtocol::RoundDeadline",
              "Round (phase) deadline (0: none)")
        .Default("60s");
    flags.Add("stragglers", "Devices slowed down by stragglerSlowdown", f.stragglers).Range(0, 1e5);
    flags.Add("stragglerSlowdown", "Compute slow-down of a straggler", f.stragglerSlowdown)
        .Sets("ns3::D2dComputeModel::SlowdownFactor")
        .Range(1, 1e9);
    flags
        .Add("graph",
             "decentralized: who may be an in-neighbour (random: any device; range: the "
             "devices it hears, --rangeM)",
             f.graph)
        .Choices({"random", "range"})
        .Configures("ns3::D2dDecentralizedFl");
    flags
        .Add("neighbours",
             "decentralized: in-neighbours drawn per round (0: 7 with --graph=random, every "
             "neighbour with --graph=range)",
             f.neighbours)
        .Sets("ns3::D2dDecentralizedFl::Neighbours")
        .Configures("ns3::D2dDecentralizedFl")
        .Range(0, 1e5);
    flags.Bind("concurrency", "ns3::D2dAsyncFl::Concurrency").Range(0, 1e6);
    flags.Bind("staleness", "ns3::D2dAsyncFl::Staleness");
    flags.Bind("stalenessA", "ns3::D2dAsyncFl::StalenessA");
    flags.Bind("stalenessB", "ns3::D2dAsyncFl::StalenessB");
    flags.Bind("mixingAlpha", "ns3::D2dFedAsync::MixingAlpha");
    flags.Bind("proximalRho", "ns3::D2dFedAsync::ProximalRho");
    flags.Bind("bufferSize", "ns3::D2dFedBuff::BufferSize").Range(1, 1e6);
    flags.Bind("serverLearningRate", "ns3::D2dFedBuff::ServerLearningRate");
    flags.Bind("groupSize", "ns3::D2dSemiDecentralizedFl::GroupSize").Range(1, 1e5);
    flags.Bind("stepsPerExchange", "ns3::D2dSemiDecentralizedFl::StepsPerExchange").Range(1, 1e6);
    flags.Bind("exchangesPerRound", "ns3::D2dSemiDecentralizedFl::ExchangesPerRound").Range(1, 1e6);
    flags.Bind("evaluateDevices", "ns3::D2dFlProtocol::EvaluateDevices");
    flags.Add("maxSimTime", "Stop the simulation at this time at the latest", f.maxSimTime)
        .Positive(9e9);
    availability.AddFlags(flags);
    net.AddFlags(flags);
    flags.Find("nDevices").ShownDefault(std::to_string(DEFAULT_DEVICES));
}

/**
 * \brief What involves several flags: one line naming them, before simulating (which flag
 * acts with which --algorithm is D2dFlagScope's table: net.Validate()).
 */
void
Validate(const D2dScenarioSupport& support,
         const D2dScenarioFlags& flags,
         const D2dProtocolChoice& protocols,
         FedAvgFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net,
         D2dAvailabilityOptions& availability)
{
    // --ns3::D2dFedAvg::Aggregation=CLASS picks the strategy by class name instead.
    if (flags.HasArgument("--ns3::D2dFedAvg::Aggregation=") && flags.Given("aggregation"))
    {
        support.Fail("--ns3::D2dFedAvg::Aggregation and --aggregation both choose the server's "
                     "rule; use one of them");
    }
    learning.Validate(support, true);
    const D2dProtocolTraits traits = protocols.GetTraits(f.algorithm); // not its name
    if (learning.GetSpecs().size() > 1 && traits.averagesModels)
    {
        support.Fail("--model=" + learning.training.model + ": several architectures (assigned " +
                     "round-robin) need " +
                     protocols.Having([](const auto& t) { return !t.averagesModels; }) +
                     ": the other algorithms average models");
    }
    if (f.neighbours == 0)
    {
        f.neighbours = f.graph == "range" ? 100000 : 7; // 100000: the --neighbours maximum
    }
    // The classes the run makes: the protocol, and its rule by --aggregation (or by
    // --ns3::D2dFedAvg::Aggregation=CLASS, the attribute's default in force).
    const bool byAttribute = flags.HasArgument("--ns3::D2dFedAvg::Aggregation=");
    net.SetTraffic(protocols.GetTraffic(f.algorithm, byAttribute ? "" : f.aggregation));
    net.energy.protocolSleeps = learning.training.sleepWhileTraining; // --sleepWhileTraining
    net.Validate(support, DEFAULT_DEVICES, traits.minDevices);
    if (f.graph == "range" && !net.messaging.IsWifi() && net.links.rangeM <= 0)
    {
        // Over Wi-Fi the in-neighbours are who hears whom (D2dNetwork::InNeighbours()).
        support.Fail("--graph=range needs --rangeM > 0 on the channel backend (the hearing "
                     "range, m; over --backend=wifi the neighbours are the devices a device's "
                     "802.11 PHY hears)");
    }
    const uint32_t nDevices = net.links.nDevices;
    availability.Validate(support, flags, nDevices);
    support.CheckRange("stragglers", f.stragglers, 0, nDevices);
    support.CheckRange("flipDevices", f.flipDevices, 0, nDevices);
    if (const int64_t krumF = flags.Get<IntegerValue>("krumF"); krumF > int64_t(nDevices))
    {
        // f Byzantine devices among at most nDevices participants.
        support.Fail(fmt::format("--krumF={} is above the {} devices (accepted: -1 to {})",
                                 krumF,
                                 nDevices,
                                 nDevices));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    FedAvgFlags f; // --algorithm, --aggregation, ...: the program's own flags
    // Model, optimizer, data set and partition, rounds, local work, compression, threads:
    // the flags every learning scenario shares, on their defaults.
    D2dLearningOptions learning;
    D2dNetworkOptions net("results/fedavg");
    net.links.reliable = true;      // models are useless with a missing fragment: retransmit
    net.placement.areaSideM = 50.0; // a room-sized cluster of devices, m
    net.links.d2sTxPowerDbm = 30.0; // the device-to-server uplink/downlink, dBm
    net.links.access = "scheduled"; // an ideal MAC: the protocols do not schedule radios themselves
    net.spectrum.subChannels = D2dNetworkOptions::SHARED_BAND_SUB_CHANNELS; // uploads share a band

    D2dScenarioSupport support("fedavg");
    D2dScenarioFlags flags(support);
    static const D2dProtocolChoice protocols("algorithm", "fedavg"); // D2dProtocolRegistry
    D2dAvailabilityOptions availability;                             // devices that come and go
    AddFlags(flags, protocols, f, learning, net, availability);
    flags.Parse(argc, argv);
    Validate(support, flags, protocols, f, learning, net, availability);
    const bool fedAvgFamily = protocols.IsA(f.algorithm, D2dFedAvg::GetTypeId());
    // --ns3::D2dFedAvg::Aggregation=CLASS picks the strategy by class name instead.
    const bool aggregationAttribute = flags.HasArgument("--ns3::D2dFedAvg::Aggregation=");
    const uint32_t nDevices = net.links.nDevices;
    support.SetQuiet(net.run.quiet);

    // Data: loaded and split before any output exists (a corrupt file is bad input). The
    // FedAvg family's clients hold a model only while sampled (the memory check).
    learning.holdingFraction = fedAvgFamily ? std::min(1.0,
                                                       flags.Get<DoubleValue>("clientFraction") *
                                                           flags.Get<DoubleValue>("overSelection"))
                                            : 1.0;
    const D2dProtocolTraits traits = protocols.GetTraits(f.algorithm);
    learning.gradientsBy = traits.sendsGradients ? "--algorithm=" + f.algorithm : "";
    learning.LoadData(support, nDevices, net.run.seed);

    D2dLearningHelper helper;
    helper.SetProtocol(f.algorithm); // its class and presets (fedprox: Variant=fedprox)
    // The flags bound to attributes are the classes' defaults already; what follows from
    // several of them:
    const double globalLearningRate = flags.Get<DoubleValue>("globalLearningRate");
    if (traits.sendsGradients && globalLearningRate == 0) // FedSGD: eta defaults to the rate
    {
        Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate",
                           DoubleValue(learning.training.learningRate));
    }
    Config::SetDefault("ns3::D2dDecentralizedFl::Neighbours",
                       UintegerValue(std::min(f.neighbours, nDevices - 1)));
    // Krum's f with --krumF=-1: the flipped share of the devices x the round's participants
    // (the cmfl scenario's epsilon x participants).
    Config::SetDefault("ns3::D2dKrumAggregation::ByzantineFraction",
                       DoubleValue(static_cast<double>(f.flipDevices) / nDevices));

    if (net.run.printLinks)
    {
        net.PrintLinks(std::cout, helper.ProtocolUsesD2s(), learning.ModelMessages());
        return 0;
    }
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, helper.ProtocolUsesD2s());
    availability.Install(network, net.run.seed, *traces);
    int64_t stream = network.nextStream;
    auto pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(stream++);
    const auto flipped = D2dFlProtocol::PickDevices(nDevices, f.flipDevices, pick);
    if (!flipped.empty())
    {
        D2dPartitioner::FlipLabels(learning.shards,
                                   flipped,
                                   learning.train->numClasses,
                                   net.run.seed);
    }
    const auto slow = D2dFlProtocol::PickDevices(nDevices, f.stragglers, pick);
    for (auto i : slow)
    {
        D2dHelper::GetComputeModel(network.devices.Get(i))
            ->SetAttribute("SlowdownFactor", DoubleValue(f.stragglerSlowdown));
    }

    // The protocol, by TypeId; its attributes are the flags' (they apply to the class that
    // has them). Learners: one per device, seeded from the run seed and the device id.
    if (fedAvgFamily && !aggregationAttribute)
    {
        helper.SetProtocolAttribute(
            "Aggregation",
            PointerValue(D2dProtocolRegistry::CreateAggregation(f.aggregation)));
    }
    learning.Configure(helper, net.run.seed); // after the label flips: it takes the shards
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    Ptr<D2dAggregationStrategy> strategy; // the FedAvg family's server rule
    if (fedAvgFamily)
    {
        PointerValue chosen;
        protocol->GetAttribute("Aggregation", chosen);
        strategy = chosen.Get<D2dAggregationStrategy>();
        if (aggregationAttribute && DynamicCast<D2dKrumAggregation>(strategy))
        {
            // Made while the arguments were parsed, before nDevices was known.
            strategy->SetAttribute("ByzantineFraction",
                                   DoubleValue(static_cast<double>(f.flipDevices) / nDevices));
        }
    }
    if (f.graph == "range" && net.mobility.Moves())
    {
        // Who hears whom at each round's start, where the devices are then.
        DynamicCast<D2dDecentralizedFl>(protocol)->SetGraphSource(
            Callback<std::vector<std::vector<uint32_t>>>(
                [&network]() { return network.InNeighbours(); }));
    }
    else if (f.graph == "range")
    {
        DynamicCast<D2dDecentralizedFl>(protocol)->SetGraph(network.InNeighbours());
    }
    stream += helper.AssignStreams(protocol, stream);
    protocol->SetTestSet(learning.test);
    protocol->SetLowQuality(flipped); // node -1: the regular devices (decentralized, local)
    traces->ConnectRounds(protocol);

    // run.json: the command line, every parameter and the attributes in force.
    if (aggregationAttribute && strategy)
    {
        f.aggregation = strategy->GetInstanceTypeId().GetName(); // the class chosen instead
    }
    flags.Record(*traces);
    traces->AddParameterArray("flippedDevices", flipped);
    if (strategy)
    {
        traces->AddParameter("aggregationStrategy", strategy->GetInstanceTypeId().GetName());
    }
    traces->AddParameterArray("stragglerDevices", slow);
    net.Record(*traces, network);
    if (strategy)
    {
        traces->AddAttributes(strategy);
    }

    learning.Run(support, traces, protocol, f.algorithm, net.run.seed, f.maxSimTime, net.run.quiet);
    return 0;
}
