/*
 * d2dlearn scenario: Committee Mechanism based Federated Learning (Che et al. 2022) and its
 * baselines over D2D links, with Byzantine clients.
 *
 * K devices, each with a LibTorch learner and a shard of Fashion-MNIST; epsilon% of them
 * are malicious. Algorithms:
 *   cmfl-1, cmfl-2          serverless CMFL, selection strategy I or II: committee, scoring,
 *                           selection, aggregation and election agreed by the committee
 *                           consensus protocol, every message on the D2D channel
 *   fedavg                  typical FL: a server over the device-to-server link, mean
 *   median, trimmed-mean,   the same server with a Byzantine-robust rule (Yin et al.;
 *   krum, multi-krum        Blanchard et al.)
 *   braintorrent, gossipfl  decentralized peers (efficiency baselines of the paper)
 * Writes rounds.csv, messages.csv, energy.csv, run.json, and for CMFL ccp.csv,
 * committee.csv and aggregation.csv into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-byzantine-attack.h"
#include "ns3/d2d-cmfl-trace-writer.h"
#include "ns3/d2d-cmfl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2dlearn-module.h"

#include <fmt/format.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CmflScenario");

int
main(int argc, char* argv[])
{
    std::string algorithm = "cmfl-1";       // cmfl-1 | cmfl-2 | fedavg | median | trimmed-mean |
                                            // krum | multi-krum | braintorrent | gossipfl
    double committeePercent = 40.0;         // omega: % of the active clients on the committee
    double aggregationPercent = 40.0;       // alpha: % of the training clients aggregated
    double activationPercent = 10.0;        // % of all clients active per round
    double maliciousPercent = 0.0;          // epsilon: % of all clients that are malicious
    std::string attack = "back-gradient";   // none | gradient-scaling | same-value |
                                            // back-gradient | label-flipping
    double scalingLow = 0.5;                // gradient scaling: lambda in [scalingLow, 1)
    double trimPercent = 10.0;              // trimmed mean: beta, % trimmed at each end
    int64_t krumF = -1;                     // Krum's f (-1: epsilon x participants)
    double globalLearningRate = 1.0;        // eta_t of the global update
    Time phaseTimeout = Seconds(60);        // CMFL: scoring deadline after a round began
    Time requestTimeout = Seconds(2);       // CCP: a primary's wait for replies
    uint32_t maxAttempts = 0;               // CCP: primaries tried per vote (0: committee size)
    std::string gradientUpload = "unicast"; // CMFL: unicast | broadcast to the committee
    uint32_t segments = 10;                 // gossipfl: model segments
    uint32_t replicas = 3;                  // gossipfl: peers per segment
    Time roundDeadline = Seconds(120);      // baselines: round deadline (0: none)
    bool evaluateDevices = false;           // peers: every device's accuracy (else 16)
    Time maxSimTime = Seconds(1e7);         // safety stop of the simulation

    D2dLearningOptions learning;
    learning.rounds = 20;
    learning.dataFraction = 0.25;
    learning.model = "mlp:64";
    D2dNetworkOptions net("results/cmfl");
    net.reliable = true;      // gradients and models are useless with a missing fragment
    net.areaSideM = 50.0;     // a room-sized cluster of devices, m
    net.d2sTxPowerDbm = 30.0; // the FL baselines' device-to-server link, dBm
    net.access = "scheduled"; // CMFL and the CCP leave half-duplex scheduling to the channel

    D2dScenarioSupport support("cmfl");
    std::vector<D2dScenarioSupport::Param> params{
        {"algorithm", 's', {"ns3::D2dFedAvg::Aggregation"}},
        {"committeePercent", 'd', {"ns3::D2dCmfl::CommitteePercent"}},
        {"aggregationPercent",
         'd',
         {"ns3::D2dCmfl::AggregationPercent", "ns3::D2dMultiKrumAggregation::SelectPercent"}},
        {"activationPercent", 'd', {"ns3::D2dCmfl::ActivationPercent"}},
        {"maliciousPercent", 'd', {"ns3::D2dKrumAggregation::ByzantinePercent"}},
        {"attack", 's'},
        {"scalingLow", 'd'},
        {"trimPercent", 'd', {"ns3::D2dTrimmedMeanAggregation::TrimPercent"}},
        {"krumF", 'I', {"ns3::D2dKrumAggregation::ByzantineCount"}},
        {"globalLearningRate", 'd', {"ns3::D2dCmfl::GlobalLearningRate"}},
        {"phaseTimeout", 't', {"ns3::D2dCmfl::PhaseTimeout"}},
        {"requestTimeout", 't', {"ns3::D2dCommitteeConsensus::RequestTimeout"}},
        {"maxAttempts", 'u', {"ns3::D2dCommitteeConsensus::MaxAttempts"}},
        {"gradientUpload", 's', {"ns3::D2dCmfl::GradientUpload"}},
        {"segments", 'u'},
        {"replicas", 'u'},
        {"roundDeadline", 't', {"ns3::D2dFlProtocol::RoundDeadline"}},
        {"evaluateDevices", 'b', {"ns3::D2dFlProtocol::EvaluateDevices"}},
        {"maxSimTime", 't'}};
    for (auto& p : learning.GetParams())
    {
        params.push_back(p);
    }
    for (auto& p : net.GetParams())
    {
        params.push_back(p);
    }
    support.CheckArguments(argc, argv, params);

    CommandLine cmd(__FILE__);
    cmd.AddValue("algorithm",
                 "cmfl-1, cmfl-2, fedavg, median, trimmed-mean, krum, multi-krum, "
                 "braintorrent or gossipfl",
                 algorithm);
    cmd.AddValue("committeePercent",
                 "omega: % of the active clients on the committee",
                 committeePercent);
    cmd.AddValue("aggregationPercent",
                 "alpha: % of the training clients aggregated (also Multi-Krum)",
                 aggregationPercent);
    cmd.AddValue("activationPercent", "% of all clients active per round", activationPercent);
    cmd.AddValue("maliciousPercent",
                 "epsilon: % of all clients that are malicious",
                 maliciousPercent);
    cmd.AddValue("attack",
                 "none, gradient-scaling, same-value, back-gradient or label-flipping",
                 attack);
    cmd.AddValue("scalingLow", "gradient-scaling: lambda drawn in [scalingLow, 1)", scalingLow);
    cmd.AddValue("trimPercent", "trimmed-mean: beta, % trimmed at each end", trimPercent);
    cmd.AddValue("krumF",
                 "krum, multi-krum: Byzantine count f (-1: epsilon x participants)",
                 krumF);
    cmd.AddValue("globalLearningRate", "eta of w <- w - eta g", globalLearningRate);
    cmd.AddValue("phaseTimeout", "CMFL: scoring deadline after a round began", phaseTimeout);
    cmd.AddValue("requestTimeout", "CCP: a primary's wait for replies", requestTimeout);
    cmd.AddValue("maxAttempts", "CCP: primaries tried per vote (0: committee size)", maxAttempts);
    cmd.AddValue("gradientUpload", "CMFL: unicast or broadcast to the committee", gradientUpload);
    cmd.AddValue("segments", "gossipfl: model segments", segments);
    cmd.AddValue("replicas", "gossipfl: peers pulled per segment", replicas);
    cmd.AddValue("roundDeadline", "Baselines: round deadline (0: none)", roundDeadline);
    cmd.AddValue("evaluateDevices",
                 "braintorrent, gossipfl: evaluate every device each round (else an evenly "
                 "spread sample of 16)",
                 evaluateDevices);
    cmd.AddValue("maxSimTime", "Stop the simulation at this time at the latest", maxSimTime);
    learning.AddValues(cmd);
    net.AddValues(cmd);
    cmd.Parse(argc, argv);

    // Validation: one line naming the parameter and the accepted range, before simulating.
    support.CheckChoice("algorithm",
                        algorithm,
                        {"cmfl-1",
                         "cmfl-2",
                         "fedavg",
                         "median",
                         "trimmed-mean",
                         "krum",
                         "multi-krum",
                         "braintorrent",
                         "gossipfl"});
    const bool cmfl = algorithm == "cmfl-1" || algorithm == "cmfl-2";
    const bool peers = algorithm == "braintorrent" || algorithm == "gossipfl";
    const bool server = !cmfl && !peers;
    support.CheckRange("committeePercent", committeePercent, 1, 50);
    support.CheckRange("aggregationPercent", aggregationPercent, 1, 100);
    support.CheckRange("activationPercent", activationPercent, 1, 100);
    support.CheckRange("maliciousPercent", maliciousPercent, 0, 100);
    D2dAttackType attackType = D2dAttackType::NONE;
    try
    {
        attackType = D2dByzantineAttack::Parse(attack);
    }
    catch (const std::exception& e)
    {
        support.Fail(std::string("--") + e.what());
    }
    support.CheckRange("scalingLow", scalingLow, 0, 0.999999);
    support.CheckRange("trimPercent", trimPercent, 0, 49.999999);
    support.CheckRange("krumF", static_cast<double>(krumF), -1, 1e6);
    support.CheckRange("globalLearningRate", globalLearningRate, 0, 1e6);
    support.CheckPositiveTime("phaseTimeout", phaseTimeout, Seconds(1e9));
    support.CheckPositiveTime("requestTimeout", requestTimeout, Seconds(1e9));
    support.CheckRange("maxAttempts", maxAttempts, 0, 1e6);
    support.CheckChoice("gradientUpload", gradientUpload, {"unicast", "broadcast"});
    support.CheckRange("segments", segments, 1, 1e6);
    support.CheckRange("replicas", replicas, 1, 1e5);
    if (roundDeadline.IsStrictlyNegative())
    {
        support.Fail("--roundDeadline=" + std::to_string(roundDeadline.GetSeconds()) +
                     "s is negative (accepted: 0 = none, or a positive time)");
    }
    support.CheckPositiveTime("maxSimTime", maxSimTime, Seconds(1e12));
    learning.Validate(support, false);
    net.Validate(support, 200, 2);
    const uint32_t nDevices = net.nDevices;
    const auto active = static_cast<uint32_t>(
        std::min<double>(nDevices, std::round(activationPercent / 100.0 * nDevices)));
    const auto committee = static_cast<uint32_t>(std::round(committeePercent / 100.0 * active));
    if (cmfl && (committee < 3 || active <= committee))
    {
        support.Fail(fmt::format("--committeePercent={} of --activationPercent={} of "
                                 "--nDevices={} gives {} committee members and {} training "
                                 "clients (accepted: at least 3 members and 1 training client)",
                                 committeePercent,
                                 activationPercent,
                                 nDevices,
                                 committee,
                                 active > committee ? active - committee : 0));
    }
    if (peers && nDevices < 2)
    {
        support.Fail("--nDevices must be at least 2 for " + algorithm);
    }
    support.SetQuiet(net.quiet);
    learning.LoadData(support, nDevices, net.seed);

    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, server);
    int64_t stream = network.nextStream;
    // The malicious clients: epsilon% of K, drawn with the run's seed.
    auto pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(stream++);
    const auto nMalicious = static_cast<uint32_t>(std::round(maliciousPercent / 100.0 * nDevices));
    std::vector<uint32_t> malicious(nDevices);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        malicious[i] = i;
    }
    D2dFlProtocol::PartialShuffle(malicious, nMalicious, pick);
    malicious.resize(nMalicious);
    std::sort(malicious.begin(), malicious.end());
    if (attackType == D2dAttackType::LABEL_FLIPPING && !malicious.empty())
    {
        D2dPartitioner::FlipLabels(learning.shards,
                                   malicious,
                                   learning.train->numClasses,
                                   net.seed);
    }
    std::vector<bool> isMalicious(nDevices, false);
    for (auto m : malicious)
    {
        isMalicious[m] = true;
    }
    // The protocol by TypeId, its attributes the flags' (each applies to the class that has
    // it); learners: one per device, seeded from the run seed and the device id.
    D2dLearningHelper helper;
    helper.SetProtocolType(cmfl                          ? "ns3::D2dCmfl"
                           : algorithm == "braintorrent" ? "ns3::D2dBrainTorrent"
                           : algorithm == "gossipfl"     ? "ns3::D2dSegmentedGossip"
                                                         : "ns3::D2dFedAvg");
    learning.Configure(helper, net.seed); // after the label flips: it takes the shards
    const auto learners = helper.InstallLearners(network.devices);
    if (algorithm == "gossipfl" && segments > learners[0]->GetNParameters())
    {
        // D2dSegmentedGossip would abort at Start: a segment holds at least one parameter.
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        support.Fail(fmt::format("--segments={} exceeds the {} parameters of --model={} "
                                 "(accepted: 1 to {})",
                                 segments,
                                 learners[0]->GetNParameters(),
                                 learning.model,
                                 learners[0]->GetNParameters()));
    }

    auto attackRng = CreateObject<UniformRandomVariable>();
    attackRng->SetStream(stream++);
    Config::SetDefault("ns3::D2dCmfl::CommitteePercent", DoubleValue(committeePercent));
    Config::SetDefault("ns3::D2dCmfl::AggregationPercent", DoubleValue(aggregationPercent));
    Config::SetDefault("ns3::D2dCmfl::ActivationPercent", DoubleValue(activationPercent));
    Config::SetDefault("ns3::D2dCmfl::Strategy", UintegerValue(algorithm == "cmfl-2" ? 2 : 1));
    Config::SetDefault("ns3::D2dCmfl::GlobalLearningRate", DoubleValue(globalLearningRate));
    Config::SetDefault("ns3::D2dCmfl::PhaseTimeout", TimeValue(phaseTimeout));
    Config::SetDefault("ns3::D2dCmfl::GradientUpload", StringValue(gradientUpload));
    Config::SetDefault("ns3::D2dCommitteeConsensus::RequestTimeout", TimeValue(requestTimeout));
    Config::SetDefault("ns3::D2dCommitteeConsensus::MaxAttempts", UintegerValue(maxAttempts));
    Config::SetDefault("ns3::D2dFedAvg::ClientFraction", DoubleValue(activationPercent / 100.0));
    Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate", DoubleValue(globalLearningRate));
    Config::SetDefault("ns3::D2dSegmentedGossip::Segments", UintegerValue(segments));
    Config::SetDefault("ns3::D2dSegmentedGossip::Replicas", UintegerValue(replicas));
    // The robust baselines: an aggregation strategy in place of the mean. Krum's f with
    // --krumF=-1 is epsilon x the round's participants, computed by the strategy when it
    // aggregates; Multi-Krum averages alpha% of the participants.
    Config::SetDefault("ns3::D2dTrimmedMeanAggregation::TrimPercent", DoubleValue(trimPercent));
    Config::SetDefault("ns3::D2dKrumAggregation::ByzantineCount", IntegerValue(krumF));
    Config::SetDefault("ns3::D2dKrumAggregation::ByzantinePercent", DoubleValue(maliciousPercent));
    Config::SetDefault("ns3::D2dMultiKrumAggregation::SelectPercent",
                       DoubleValue(aggregationPercent));
    // median, trimmed-mean, krum, multi-krum: the server's rule (fedavg: the default mean).
    Ptr<D2dAggregationStrategy> robustRule = D2dAggregationStrategy::CreateByName(algorithm);
    if (robustRule)
    {
        helper.SetProtocolAttribute("Aggregation", PointerValue(robustRule));
    }
    helper.SetProtocolAttribute("RoundDeadline", TimeValue(cmfl ? Seconds(0) : roundDeadline));
    helper.SetProtocolAttribute("EvaluateDevices", BooleanValue(evaluateDevices));
    Ptr<D2dFlProtocol> protocol =
        helper.Install(learners,
                       network.channel->GetTransports(),
                       server ? network.d2s->GetTransports() : std::vector<Ptr<D2dTransport>>{},
                       network.mode);
    stream += helper.AssignStreams(protocol, stream);
    Ptr<D2dCmfl> cmflProtocol = DynamicCast<D2dCmfl>(protocol);
    if (cmflProtocol)
    {
        cmflProtocol->SetMalicious(malicious, attackType, scalingLow);
    }
    auto fedAvg = DynamicCast<D2dFedAvg>(protocol);
    if (fedAvg && !malicious.empty())
    {
        fedAvg->SetUpdateTamper(D2dFedAvg::UpdateTamper(
            [isMalicious, attackType, attackRng, scalingLow](uint32_t device,
                                                             std::vector<float>& g) {
                if (isMalicious[device])
                {
                    D2dByzantineAttack::Apply(attackType, g, attackRng, scalingLow);
                }
            }));
    }
    traces->ConnectRounds(protocol);
    std::unique_ptr<D2dCmflTraceWriter> cmflTraces; // committee.csv, ccp.csv, aggregation.csv
    if (cmflProtocol)
    {
        cmflTraces = std::make_unique<D2dCmflTraceWriter>(*traces);
        cmflTraces->Connect(cmflProtocol);
    }
    std::vector<Ptr<D2dTransport>> radios;
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        radios.push_back((server ? network.d2s : network.channel)->GetRadio(i));
    }
    if (server)
    {
        radios.push_back(network.d2s->GetRadio(nDevices));
    }
    protocol->CountBytesSent(radios);
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    const uint32_t rounds = learning.rounds;
    protocol->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>(
            [&support, rounds](uint32_t round, double accuracy, double loss) {
                support.RoundProgress(round, rounds, accuracy, loss);
            }));

    // run.json: the command line, every parameter and the attributes in force.
    traces->AddCommandLine(argc, argv);
    traces->AddParameter("algorithm", algorithm);
    traces->AddParameter("committeePercent", committeePercent);
    traces->AddParameter("aggregationPercent", aggregationPercent);
    traces->AddParameter("activationPercent", activationPercent);
    traces->AddParameter("maliciousPercent", maliciousPercent);
    traces->AddParameter("attack", attack);
    traces->AddParameterArray("maliciousDevices", malicious);
    traces->AddParameter("scalingLow", scalingLow);
    traces->AddParameter("trimPercent", trimPercent);
    traces->AddParameter("krumF", krumF);
    traces->AddParameter("globalLearningRate", globalLearningRate);
    traces->AddParameter("phaseTimeout_s", phaseTimeout.GetSeconds());
    traces->AddParameter("requestTimeout_s", requestTimeout.GetSeconds());
    traces->AddParameter("maxAttempts", maxAttempts);
    traces->AddParameter("gradientUpload", gradientUpload);
    traces->AddParameter("segments", segments);
    traces->AddParameter("replicas", replicas);
    traces->AddParameter("roundDeadline_s", roundDeadline.GetSeconds());
    traces->AddParameter("evaluateDevices", evaluateDevices);
    traces->AddParameter("maxSimTime_s", maxSimTime.GetSeconds());
    learning.Record(*traces, learners[0]);
    net.Record(*traces, network);
    traces->AddAttributes(learners[0]);
    traces->AddAttributes(protocol);
    if (cmflProtocol)
    {
        traces->AddAttributes(cmflProtocol->GetConsensus());
    }
    if (robustRule)
    {
        traces->AddAttributes(robustRule);
    }

    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Stop(maxSimTime);
    Simulator::Run();
    const uint32_t done = protocol->GetRoundsDone();
    support.FinishTraces(traces, net.seed, [&]() {
        if (cmflProtocol)
        {
            cmflTraces->WriteClientCounts();
            traces->AddParameter("consensusVotes", cmflProtocol->GetConsensusVotes());
            traces->AddParameter("ccpAttempts", cmflProtocol->GetCcpAttempts());
        }
        traces->AddParameter("roundsCompleted", done);
        traces->AddParameter("finalAccuracy", protocol->GetLastAccuracy());
        traces->AddParameter("bytesSent", protocol->GetBytesSent());
    });
    if (!net.quiet)
    {
        std::fprintf(stderr,
                     "cmfl: %s, %u rounds, final accuracy %.4f, %.3f s simulated, %.1f s "
                     "wall; traces in %s\n",
                     algorithm.c_str(),
                     done,
                     protocol->GetLastAccuracy(),
                     Simulator::Now().GetSeconds(),
                     support.WallSeconds(),
                     net.outDir.c_str());
    }
    Simulator::Destroy();
    return 0;
}
