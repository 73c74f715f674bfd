/*
 * d2dlearn scenario: D2D graph discovery by multi-agent reinforcement learning, the data
 * exchange over the graph found, and federated learning on the new shards (Wagle, Das, Love
 * and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025; the supervised and semi-supervised paradigms).
 *
 * N devices with Fashion-MNIST shards of a few labels each (70/20/10 % by default) learn
 * which transmitter to take datapoints from (--graph=rl), or take a baseline graph (closest,
 * most-trusted, uniform) or none; the chosen transmitters send real datapoints over the
 * simulated D2D channel; then --downstream (fedavg, fedprox, fedsgd, decentralized,
 * semi-decentralized, or none) trains on the shards as they are after the exchange.
 * --paradigm=semi-supervised (sec. V-A1) first labels the shards: a fraction of each device's
 * points keeps its label, distributed PCA runs over the device-to-server link (the sketches up,
 * the subspace F down, messages of their true size) and label propagation on the projections
 * labels the rest; the propagated labels are the partitions from there on.
 * --paradigm=unsupervised (sec. V-B, Alg. 2) runs the same distributed PCA, then K-means
 * (--clusters) on each device's projections gives the partitions; the messages are the
 * request with the receiver's centroids and the transmitter's per-cluster {mean, covariance,
 * count}, the rewards those of eqs. (16)-(17); the final exchange moves real points
 * (--exchangeMode=real, the default) or lets the receivers draw from the Gaussians (sampled).
 * The labels only measure the mean W1 to uniform after each edge (run.json); downstream, the
 * devices train the self-supervised triplet encoder (--model=triplet), scored by linear
 * evaluation, or nothing (--downstream=none).
 * --graph=gcn is the GCN baseline (App. C): a graph convolutional network trained at the
 * server on the best links of small sub-systems scores every link, each receiver takes its
 * best-scored transmitter, then the same message passing and exchange as every baseline.
 * --dataset=polynomial is the regression extension (sec. VI-C4): each device cuts its sorted
 * targets at the --partitions - 1 largest gaps, the runs are the partitions the discovery
 * and the exchange use, and the downstream learner (--model=poly) reports the test MSE.
 * Writes the gd_*.csv traces, gd_energy.csv, rounds.csv, messages.csv, energy.csv and
 * run.json into --outDir.
 *
 * The work is the module's: each paradigm prepares itself (D2dDiscoveryParadigm::Prepare:
 * the distributed PCA, labelling, K-means), D2dGraphDiscovery runs over the network's
 * transports, D2dGcnGraphScorer scores the links for --graph=gcn, and
 * D2dGraphDiscoveryHelper declares the flags (each bound to the attribute it sets), checks
 * them against the data, assembles, runs and records; main() is the sequence of calls.
 *
 * --evaluate=INSTANCE.json runs one message-passing step (eqs. (9)-(12), the rewards of
 * eqs. (13)-(14)) on a hand-written instance and prints the result as JSON, without
 * simulating (README: "graph-discovery calculator").
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/d2d-discovery-calculator.h"
#include "ns3/d2d-graph-discovery-helper.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-network-options.h"

#include <algorithm>
#include <iostream>
#include <string>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GraphDiscoveryScenario");

namespace
{

/**
 * \brief --evaluate=PATH: the calculator's result on standard output (D2dDiscoveryCalculator),
 * or one line naming the file and what is wrong with it.
 * \param support errors
 * \param path the instance
 */
void
PrintCalculation(const D2dScenarioSupport& support, const std::string& path)
{
    std::string instance;
    try
    {
        instance = D2dDiscoveryCalculator::ReadInstance(path);
    }
    catch (const std::exception& e)
    {
        support.Fail("--evaluate=" + path + ": cannot read the JSON instance (" +
                     D2dScenarioSupport::FirstLine(e.what()) + ")");
    }
    try
    {
        std::cout << D2dDiscoveryCalculator::Evaluate(instance);
    }
    catch (const std::exception& e)
    {
        support.Fail("--evaluate=" + path + ": " + e.what());
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string evaluate;
    Time maxSimTime = Seconds(1e7);
    D2dGraphDiscoveryHelper discovery;
    D2dLearningOptions learning;
    learning.data.partition = "labels";             // App. C: 3 labels per device at 70/20/10 %
    learning.data.datasets.push_back("polynomial"); // sec. VI-C4: regression
    D2dNetworkOptions net("results/graph-discovery");
    net.placement.areaSideM = 100.0; // App. C-like: P_D ~0.003 at 10 m, 0.3 at 50 m, 0.94 at 100 m
    net.links.noisePowerW = 2e-12;   // sigma^2 of eq. (18), W
    net.rss.d2sNoisePowerW = 1e-13;  // the server's receiver: fedavg's noise floor
    net.links.reliable = true;       // the downstream models: retransmit lost fragments
    net.links.d2sTxPowerDbm = 30.0;  // device-to-server link, dBm
    net.links.access = "scheduled";  // an ideal MAC with spatial reuse
    // Sec. VI-G: "the D2S distance is 3x the average D2D distance" on every link; the D2S
    // energy of the reproduced figures (Fig. 6e) depends on it.
    net.placement.d2sLinks = "equal";

    D2dScenarioSupport support("graph-discovery");
    D2dScenarioFlags flags(support);
    flags.Add("evaluate",
              "Calculator: one message-passing step on a JSON instance, no simulation",
              evaluate);
    discovery.AddFlags(flags);
    flags.Add("maxSimTime", "Stop the simulation at this time at the latest", maxSimTime)
        .Positive(9e9);
    flags
        .Add("d2sNoisePowerW",
             "sigma^2 of eq. 18 on the device-to-server link, W (--noisePowerW is the D2D "
             "links')",
             net.rss.d2sNoisePowerW)
        .Positive(1);
    flags
        .Bind("roundDeadline",
              "ns3::D2dFlProtocol::RoundDeadline",
              "Downstream FL: round (phase) deadline (0: none)")
        .Default("60s");
    flags.Bind("sleepBetweenIterations",
               "ns3::D2dGraphDiscovery::SleepBetweenIterations",
               "With --dynamicRssLevels > 0 (an RL iteration at each --rssStep): the radios "
               "sleep from the end of each iteration to the next step");
    learning.AddFlags(flags);
    const uint32_t defaultDevices = 25; // --nDevices=0
    net.AddFlags(flags);
    discovery.ScopeTrainingFlags(flags); // they act with a downstream protocol alone
    flags.Find("nDevices").ShownDefault(std::to_string(defaultDevices));
    flags.Parse(argc, argv);
    if (!evaluate.empty())
    {
        PrintCalculation(support, evaluate);
        return 0;
    }
    learning.trainsModels = discovery.HasDownstream(); // none: the data alone
    learning.Validate(support, false);
    net.DeferScope(); // the paradigm, made by Configure(), says if it has a server
    net.energy.protocolSleeps = flags.Get<BooleanValue>("sleepBetweenIterations");
    net.Validate(support, defaultDevices, 2);
    discovery.Validate(support, flags, learning, net.links.nDevices);
    support.SetQuiet(net.run.quiet);
    learning.checkModelMemory = false; // counted by discovery.CheckMemory
    learning.gradientsBy =
        discovery.DownstreamSendsGradients() ? "--downstream=" + discovery.downstream : "";
    learning.LoadData(support, net.links.nDevices, net.run.seed);
    discovery.CheckMemory(support, flags, learning, net.links.nDevices); // before Configure's trust
    discovery.Configure(support, learning, net.run.seed);
    {
        // (Known once Configure() made the paradigm.) The discovery's link tests and the
        // decentralized downstream learning are D2D messages; the distributed PCA and a server's
        // downstream learning D2S ones.
        D2dTraffic traffic;
        traffic.chosen = "--paradigm=" + flags.GetParsedText("paradigm") +
                         " --downstream=" + discovery.downstream;
        traffic.d2d = true;
        traffic.d2s = discovery.UsesServer();
        discovery.SetChosenTypes(traffic);
        traffic.d2dUsers = "every --paradigm";
        traffic.d2sUsers = "--paradigm=unsupervised, semi-supervised with --labeller=propagation, "
                           "or a --downstream other than none and decentralized";
        net.SetTraffic(traffic);
    }
    net.CheckScope(support);
    if (net.run.printLinks)
    {
        // The links of the discovery (D2S for the distributed PCA) and of the downstream
        // learning, with its model's size.
        net.PrintLinks(std::cout,
                       discovery.UsesServer(),
                       discovery.HasDownstream() ? learning.ModelMessages()
                                                 : std::vector<std::pair<std::string, uint64_t>>{});
        return 0;
    }
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, discovery.UsesServer());
    int64_t stream = network.nextStream;
    discovery.Install(network, *traces, net);
    stream += discovery.AssignStreams(stream);
    if (!discovery.Run(support, learning, maxSimTime))
    {
        support.FinishTraces(traces, net.run.seed, nullptr); // reports the write error, exits
    }
    discovery.ApplyExchange(support, learning);
    auto record = [&]() {
        flags.Record(*traces);
        net.Record(*traces, network);
        discovery.Record(*traces);
    };
    if (!discovery.HasDownstream())
    {
        support.FinishTraces(traces, net.run.seed, record);
        Simulator::Destroy();
        return 0;
    }

    // Downstream FL on the shards as the exchange left them.
    D2dLearningHelper helper;
    helper.SetProtocol(discovery.downstream); // D2dProtocolRegistry: class and presets
    if (discovery.DownstreamSendsGradients())
    {
        // The server steps along the averaged gradient with the devices' learning rate.
        Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate",
                           DoubleValue(learning.training.learningRate));
    }
    Config::SetDefault("ns3::D2dDecentralizedFl::Neighbours",
                       UintegerValue(std::min(7u, net.links.nDevices - 1)));
    learning.Configure(helper, net.run.seed);
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    stream += helper.AssignStreams(protocol, stream);
    protocol->SetTestSet(learning.test);
    traces->ConnectRounds(protocol);
    discovery.ConnectRounds(protocol);
    learning.Run(support,
                 traces,
                 protocol,
                 discovery.GetGraphName() + "+" + discovery.downstream,
                 net.run.seed,
                 maxSimTime,
                 net.run.quiet,
                 record);
    return 0;
}
