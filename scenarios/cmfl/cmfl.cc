/*
 * d2dlearn scenario: Committee Mechanism based Federated Learning (Che et al. 2022) and its
 * baselines over D2D links, with Byzantine clients.
 *
 * K devices, each with a LibTorch learner and a shard of Fashion-MNIST; a share epsilon of them
 * are malicious. Algorithms:
 *   cmfl-1, cmfl-2          serverless CMFL, selection strategy I or II: committee, scoring,
 *                           selection, aggregation and election agreed by the committee
 *                           consensus protocol, every message on the D2D channel
 *   fedavg                  typical FL: a server over the device-to-server link, mean
 *   median, trimmed-mean,   the same server with a Byzantine-robust rule (Yin et al.;
 *   krum, multi-krum        Blanchard et al.)
 *   braintorrent, gossipfl  decentralized peers (efficiency baselines of the paper)
 * What the paper leaves open or its authors' code does otherwise is a flag, the paper's
 * reading by default unless noted: --quorum (majority | replicas), --failedVote (step-down |
 * keep-committee), --maliciousCommittee (attacked-reference, the code | adversarial),
 * --attackSpace (update | weights, the code's runs), --aggregationBase (training | active,
 * the code), --multiKrumWeights (samples, the code | uniform); the data are non-IID
 * (Dirichlet 0.5) by default, as the paper's data sets are.
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
#include "ns3/d2d-memory-budget.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-protocol-choice.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-segmented-gossip.h"
#include "ns3/d2d-share.h"
#include "ns3/d2dlearn-module.h"

#include <fmt/format.h>
#include <iostream>
#include <limits>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CmflScenario");

namespace
{

/** --nDevices=0: this many devices. */
constexpr uint32_t DEFAULT_DEVICES = 200;

/** The program's own flags (those every learning scenario shares: D2dLearningOptions and
 *  D2dNetworkOptions), on their defaults. */
struct CmflFlags
{
    std::string algorithm = "cmfl-1";     // the protocol and, for a server, its rule
    std::string attack = "back-gradient"; // what the malicious clients do
    double scalingLow = 0.5;              // gradient scaling: lambda in [scalingLow, 1)
    Time maxSimTime = Seconds(1e7);       // safety stop of the simulation
};

/**
 * \brief Declare every flag once: a flag bound to an attribute takes its help, default and
 * range from it (Range() narrows) and sets it for every object of the class.
 */
void
AddFlags(D2dScenarioFlags& flags,
         const D2dProtocolChoice& protocols,
         CmflFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net)
{
    flags.Add("algorithm", "The protocol, and a server's aggregation rule", f.algorithm)
        .Sets("ns3::D2dFedAvg::Aggregation")
        .Choices(protocols.GetNames());
    protocols.AddChoices(flags); // which classes each makes: where their flags act
    flags.Bind("committeeFraction", "ns3::D2dCmfl::CommitteeFraction").Range(0.01, 0.5);
    flags
        .Bind("aggregationFraction",
              "ns3::D2dCmfl::AggregationFraction",
              "alpha: the training clients aggregated, a share in [0, 1] (also Multi-Krum's "
              "share)")
        .Also("ns3::D2dMultiKrumAggregation::SelectFraction")
        .Range(0.01, 1);
    flags.Bind("activationFraction", "ns3::D2dCmfl::ActivationFraction")
        .Also("ns3::D2dFedAvg::ClientFraction") // the server baselines' share of clients
        .Range(0.01, 1);
    flags
        .Bind("maliciousFraction",
              "ns3::D2dKrumAggregation::ByzantineFraction",
              "epsilon: all clients that are malicious, a share in [0, 1] (also Krum's f with "
              "--krumF=-1)")
        .Configures("ns3::D2dFlProtocol"); // the malicious clients attack any protocol
    flags.Add("attack",
              "none, gradient-scaling, same-value, back-gradient or label-flipping",
              f.attack);
    flags.Add("scalingLow", "gradient-scaling: lambda drawn in [scalingLow, 1)", f.scalingLow)
        .Range(0, 0.999999);
    flags.Bind("trimFraction", "ns3::D2dTrimmedMeanAggregation::TrimFraction");
    flags.Bind("krumF", "ns3::D2dKrumAggregation::ByzantineCount");
    flags.Bind("globalLearningRate", "ns3::D2dCmfl::GlobalLearningRate")
        .Also("ns3::D2dFedAvg::GlobalLearningRate")
        .Range(0, 1e6);
    flags.Bind("phaseTimeout", "ns3::D2dCmfl::PhaseTimeout").Positive(1e9);
    flags.Bind("requestTimeout", "ns3::D2dCommitteeConsensus::RequestTimeout").Positive(1e9);
    flags.Bind("maxAttempts", "ns3::D2dCommitteeConsensus::MaxAttempts").Range(0, 1e6);
    flags.Bind("gradientUpload", "ns3::D2dCmfl::GradientUpload");
    flags.Bind("quorum", "ns3::D2dCommitteeConsensus::Quorum");
    flags.Bind("failedVote", "ns3::D2dCmfl::FailedVote");
    flags.Bind("maliciousCommittee", "ns3::D2dCmfl::MaliciousCommittee");
    flags
        .Bind("attackSpace",
              "ns3::D2dCmfl::AttackSpace",
              "What a malicious client's attack changes, for every algorithm: update "
              "(g_k = w^t - w_k, the paper's text) or weights (the uploaded w_k, as the "
              "authors' runs)")
        .Configures("ns3::D2dFlProtocol"); // the program arms every protocol's attack
    flags.Bind("aggregationBase", "ns3::D2dCmfl::AggregationBase");
    flags.Bind("multiKrumWeights", "ns3::D2dMultiKrumAggregation::Weights");
    flags.Bind("segments", "ns3::D2dSegmentedGossip::Segments").Range(1, 1e6);
    flags.Bind("replicas", "ns3::D2dSegmentedGossip::Replicas").Range(1, 1e5);
    flags
        .Bind("roundDeadline",
              "ns3::D2dFlProtocol::RoundDeadline",
              "Baselines: round deadline (0: none)")
        .Default("120s");
    flags.Bind("evaluateDevices", "ns3::D2dFlProtocol::EvaluateDevices").Default("false");
    flags.Add("maxSimTime", "Stop the simulation at this time at the latest", f.maxSimTime)
        .Positive(9e9);
    learning.AddFlags(flags);
    net.AddFlags(flags);
    flags.Find("nDevices").ShownDefault(std::to_string(DEFAULT_DEVICES));
}

/**
 * \brief What involves several flags: one line naming them, before simulating.
 * \param cmfl the protocol is CMFL (a committee)
 * \param traffic the links of the protocol
 * \return the attack of the malicious clients (--attack)
 */
D2dAttackType
Validate(const D2dScenarioSupport& support,
         const D2dScenarioFlags& flags,
         const CmflFlags& f,
         bool cmfl,
         const D2dTraffic& traffic,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net)
{
    D2dAttackType attackType = D2dAttackType::NONE;
    try
    {
        attackType = D2dByzantineAttack::Parse(f.attack);
    }
    catch (const std::exception& e)
    {
        support.Fail(std::string("--") + e.what());
    }
    learning.Validate(support, false);
    net.SetTraffic(traffic);
    net.energy.protocolSleeps = learning.training.sleepWhileTraining; // --sleepWhileTraining
    net.Validate(support, DEFAULT_DEVICES, 2);
    const uint32_t nDevices = net.links.nDevices;
    const double activation = flags.Get<DoubleValue>("activationFraction");
    const double omega = flags.Get<DoubleValue>("committeeFraction");
    const uint32_t active = D2dCommitteeRules::ActiveCount(nDevices, activation);
    const uint32_t committee = D2dCommitteeRules::CommitteeSize(active, omega);
    if (cmfl && (committee < 3 || active <= committee))
    {
        support.Fail(fmt::format("--committeeFraction={} of --activationFraction={} of "
                                 "--nDevices={} gives {} committee members and {} training "
                                 "clients (accepted: at least 3 members and 1 training client)",
                                 omega,
                                 activation,
                                 nDevices,
                                 committee,
                                 active > committee ? active - committee : 0));
    }
    if (const int64_t krumF = flags.Get<IntegerValue>("krumF"); krumF > int64_t(active))
    {
        // f Byzantine clients among the round's participants: more than take part cannot be
        // tolerated; Krum used to clamp it silently.
        support.Fail(fmt::format("--krumF={} is above the {} participants of a round "
                                 "(--activationFraction={} of --nDevices={}; accepted: -1 to {})",
                                 krumF,
                                 active,
                                 activation,
                                 nDevices,
                                 active));
    }
    return attackType;
}

/**
 * \brief What the run holds for N devices (D2dMemoryBudget): every device's objects and, as the
 * rounds activate them all, its model; a round's uploads, T training clients to C members (each
 * send's transport, channel-access and retry state, measured about 260 bytes); the members' score
 * views (C^2 shared vectors, 64 bytes a map entry) and the gradients each member holds by client (C
 * x T entries of 64 bytes, the scores 16 bytes each).
 */
void
CheckMemory(const D2dScenarioSupport& support,
            const D2dLearningOptions& learning,
            bool cmfl,
            double activation,
            double omega,
            uint32_t nDevices)
{
    const double perHolder = learning.ModelBytesPerHolder();
    const double dataBytes = learning.DataBytes();
    D2dMemoryBudget([=](uint64_t n) {
        const uint32_t active = D2dCommitteeRules::ActiveCount(
            static_cast<uint32_t>(std::min<uint64_t>(n, std::numeric_limits<uint32_t>::max())),
            activation);
        const double a = active;
        const double c = cmfl ? D2dCommitteeRules::CommitteeSize(active, omega) : 0;
        const double t = a - c;
        return D2dMemoryBudget::Terms{
            {"devices", D2dMemoryBudget::DeviceBytes * n},
            {"data", dataBytes},
            {"models", perHolder * (n + 1.0)},
            {"a round's uploads", 260.0 * std::max(t * std::max(c, 1.0), a)},
            {"committee views", 64.0 * c * c + 80.0 * c * t}};
    }).Check(support, "cmfl", nDevices);
}

/**
 * \brief The malicious clients' attack: CMFL's clients tamper themselves; a FedAvg server's
 * answers are tampered on arrival. In the weights space the tamper needs w^t, the server's
 * model of the round (the answers of devices that trained from an older one are late and
 * ignored).
 */
void
ArmAttack(Ptr<D2dFlProtocol> protocol,
          const std::vector<uint32_t>& malicious,
          D2dAttackType attackType,
          Ptr<UniformRandomVariable> attackRng,
          double scalingLow,
          D2dAttackSpace space)
{
    if (auto cmflProtocol = DynamicCast<D2dCmfl>(protocol))
    {
        cmflProtocol->SetMalicious(malicious, attackType, scalingLow);
    }
    auto fedAvg = DynamicCast<D2dFedAvg>(protocol);
    if (fedAvg && !malicious.empty())
    {
        const D2dFedAvg* server = PeekPointer(fedAvg);
        fedAvg->SetUpdateTamper(
            D2dByzantineAttack::MakeUpdateTamper(malicious,
                                                 attackType,
                                                 attackRng,
                                                 scalingLow,
                                                 space,
                                                 [server]() { return server->GetGlobalModel(); }));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    CmflFlags f; // --algorithm, --attack, ...: the program's own flags
    D2dLearningOptions learning;
    learning.training.rounds = 20;
    learning.data.dataFraction = 0.25;
    learning.training.model = "mlp:64";
    // Non-IID by default, as the paper's data sets (FEMNIST, Sentiment140, Shakespeare) are
    // by nature: a Dirichlet(0.5) split of the labels (--partition=iid for the former default).
    learning.data.partition = "dirichlet";
    learning.data.alpha = 0.5;
    D2dNetworkOptions net("results/cmfl");
    net.links.reliable = true;      // gradients and models are useless with a missing fragment
    net.placement.areaSideM = 50.0; // a room-sized cluster of devices, m
    net.links.d2sTxPowerDbm = 30.0; // the FL baselines' device-to-server link, dBm
    net.links.access = "scheduled"; // CMFL and the CCP leave half-duplex scheduling to the channel
    net.spectrum.subChannels = D2dNetworkOptions::SHARED_BAND_SUB_CHANNELS; // uploads share a band

    // Each flag once: a flag bound to an attribute takes its help, default and range from it
    // (Range() narrows) and sets it for every object of the class.
    D2dScenarioSupport support("cmfl");
    D2dScenarioFlags flags(support);
    // The protocols of --algorithm (D2dProtocolRegistry; median, trimmed-mean, krum and
    // multi-krum are D2dFedAvg with that aggregation rule).
    static const D2dProtocolChoice protocols("algorithm", "cmfl");
    AddFlags(flags, protocols, f, learning, net);
    flags.Parse(argc, argv);
    const bool cmfl = protocols.IsA(f.algorithm, D2dCmfl::GetTypeId());
    const D2dTraffic traffic = protocols.GetTraffic(f.algorithm);
    const bool server = traffic.d2s; // the FedAvg family's
    const D2dAttackType attackType = Validate(support, flags, f, cmfl, traffic, learning, net);
    const uint32_t nDevices = net.links.nDevices;
    const double activation = flags.Get<DoubleValue>("activationFraction");
    const double omega = flags.Get<DoubleValue>("committeeFraction");
    support.SetQuiet(net.run.quiet);
    learning.checkModelMemory = false; // counted in the memory budget below
    learning.LoadData(support, nDevices, net.run.seed);

    if (net.run.printLinks)
    {
        net.PrintLinks(std::cout, server, learning.ModelMessages());
        return 0;
    }
    CheckMemory(support, learning, cmfl, activation, omega, nDevices);
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, server);
    int64_t stream = network.nextStream;
    // The malicious clients: epsilon x K, drawn with the run's seed.
    auto pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(stream++);
    const auto malicious =
        D2dFlProtocol::PickDevices(nDevices,
                                   D2dShare::Count(nDevices,
                                                   flags.Get<DoubleValue>("maliciousFraction"),
                                                   D2dShare::Rounding::NEAREST),
                                   pick);
    if (attackType == D2dAttackType::LABEL_FLIPPING && !malicious.empty())
    {
        D2dPartitioner::FlipLabels(learning.shards,
                                   malicious,
                                   learning.train->numClasses,
                                   net.run.seed);
    }
    // The protocol by TypeId, its attributes the flags' (each applies to the class that has
    // it); learners: one per device, seeded from the run seed and the device id.
    D2dLearningHelper helper;
    helper.SetProtocol(f.algorithm); // its class and presets (cmfl-2: Strategy=2; krum: its rule)
    learning.Configure(helper, net.run.seed); // after the label flips: it takes the shards
    const auto learners = helper.InstallLearners(network.devices);
    const uint64_t segments = flags.Get<UintegerValue>("segments");
    if (protocols.IsA(f.algorithm, D2dSegmentedGossip::GetTypeId()) &&
        segments > learners[0]->GetNParameters())
    {
        // D2dSegmentedGossip would abort at Start: a segment holds at least one parameter.
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        support.Fail(fmt::format("--segments={} exceeds the {} parameters of --model={} "
                                 "(accepted: 1 to {})",
                                 segments,
                                 learners[0]->GetNParameters(),
                                 learning.training.model,
                                 learners[0]->GetNParameters()));
    }

    auto attackRng = CreateObject<UniformRandomVariable>();
    attackRng->SetStream(stream++);
    // The flags bound to attributes are the classes' defaults already; what follows from
    // several of them:
    if (cmfl)
    {
        helper.SetProtocolAttribute("RoundDeadline", TimeValue(Seconds(0))); // the CCP's timers
    }
    Ptr<D2dFlProtocol> protocol =
        helper.Install(learners, network.d2dTransports, network.d2sTransports, network.mode);
    stream += helper.AssignStreams(protocol, stream);
    Ptr<D2dCmfl> cmflProtocol = DynamicCast<D2dCmfl>(protocol);
    // median, trimmed-mean, krum, multi-krum: the server's rule, a preset of the protocol
    // (fedavg: the default mean, not recorded). Krum's f with --krumF=-1 is epsilon x the
    // round's participants.
    Ptr<D2dAggregationStrategy> robustRule;
    if (const auto& rule = D2dProtocolRegistry::GetProtocol(f.algorithm).aggregation; !rule.empty())
    {
        PointerValue chosen;
        protocol->GetAttribute("Aggregation", chosen);
        robustRule = chosen.Get<D2dAggregationStrategy>();
    }
    ArmAttack(protocol,
              malicious,
              attackType,
              attackRng,
              f.scalingLow,
              static_cast<D2dAttackSpace>(flags.Get<D2dEnumValue<int>>("attackSpace")));
    traces->ConnectRounds(protocol);
    std::unique_ptr<D2dCmflTraceWriter> cmflTraces; // committee.csv, ccp.csv, aggregation.csv
    if (cmflProtocol)
    {
        cmflTraces = std::make_unique<D2dCmflTraceWriter>(*traces);
        cmflTraces->Connect(cmflProtocol);
    }

    // run.json: the command line, every parameter and the attributes in force.
    flags.Record(*traces);
    traces->AddParameterArray("maliciousDevices", malicious);
    net.Record(*traces, network);
    if (cmflProtocol)
    {
        traces->AddAttributes(cmflProtocol->GetConsensus());
    }
    if (robustRule)
    {
        traces->AddAttributes(robustRule);
    }

    learning.Run(support,
                 traces,
                 protocol,
                 f.algorithm,
                 net.run.seed,
                 f.maxSimTime,
                 net.run.quiet,
                 [&]() {
                     if (cmflProtocol)
                     {
                         cmflTraces->WriteClientCounts();
                         traces->AddResult("consensusVotes", cmflProtocol->GetConsensusVotes());
                         traces->AddResult("ccpAttempts", cmflProtocol->GetCcpAttempts());
                     }
                 });
    return 0;
}
