/*
 * d2dlearn scenario: collaborative learning via prediction consensus (Fan, Mendler-Dünner,
 * Jaggi, "Collaborative Learning via Prediction Consensus", NeurIPS 2023) over D2D links,
 * against FedAvg, FedProx and local training on identical data, X* and seeds.
 *
 * N agents, each with a LibTorch learner and a shard of Fashion-MNIST (or the 4-Gaussian
 * toy of the paper's sec. 5.1); xstarFraction of the training set is held out first,
 * class-balanced, as the shared unlabeled set X*, and the rest is split among the agents
 * (Dirichlet(alpha = 1) by default). --algorithm:
 *   consensus   agents broadcast their predictions on X*, weigh them by trust (eq. 6,
 *               --trust naive|static|dynamic, --confidence), train on their data plus
 *               lambda x cross-entropy to the pseudo-labels (eqs. 1-3)
 *   fedavg      the server averages models over the device-to-server link (McMahan et al.)
 *   fedprox     ... with the proximal term --mu (Li et al. 2020)
 *   local       no collaboration
 * --flipList agents train on completely flipped labels (--flipMode random-shift: y ->
 * (y + k_i) mod C, k_i drawn once per agent, as the authors' code). --model=A,B with
 * --modelAssignment=blocks gives the first half of the agents A and the second half B.
 * Writes rounds.csv (accuracy and loss per agent on the test set, xstar_accuracy on X*, node
 * -1 the mean of the regular agents), trust.csv, consensus.csv, messages.csv, energy.csv and
 * run.json into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-aggregation-strategy.h"
#include "ns3/d2d-consensus-trace-writer.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-list-flag.h"
#include "ns3/d2d-memory-budget.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-prediction-consensus.h"
#include "ns3/d2d-protocol-choice.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2dlearn-module.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("ConsensusScenario");

namespace
{

/** --nDevices=0: this many devices, or the polynomial toy's three agents. */
constexpr uint32_t DEFAULT_DEVICES = 10;
constexpr uint32_t POLYNOMIAL_DEVICES = 3; //!< the polynomial toy's agents (App. A.1)

/** The program's own flags (those every learning scenario shares: D2dLearningOptions and
 *  D2dNetworkOptions), on their defaults. */
struct ConsensusFlags
{
    std::string algorithm = "consensus";
    double xstarFraction = 0.05;           // X*: 5 % of the data (App. G.1)
    std::string flipList;                  // low-quality agents, comma-separated
    std::string flipMode = "random-shift"; // how their labels are flipped
    std::string modelAssignment = "blocks";
    Time maxSimTime = Seconds(1e7);
};

/**
 * \brief Declare every flag once: a flag bound to an attribute takes its help, default and
 * range from it (Range() narrows) and sets it for every object of the class.
 */
void
AddFlags(D2dScenarioFlags& flags,
         const D2dProtocolChoice& protocols,
         ConsensusFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net)
{
    flags.Add("algorithm", "The protocol", f.algorithm).Choices(protocols.GetNames());
    protocols.AddChoices(flags); // which classes each makes: where their flags act
    learning.AddFlags(flags);
    flags.Bind("trust", "ns3::D2dPredictionConsensus::Trust");
    flags.Bind("confidence", "ns3::D2dPredictionConsensus::Confidence");
    flags.Bind("lambda", "ns3::D2dPredictionConsensus::Lambda");
    flags.Bind("warmupRounds", "ns3::D2dPredictionConsensus::WarmupRounds");
    flags.Bind("trustEvery", "ns3::D2dPredictionConsensus::TrustEvery");
    flags.Bind("lossRule", "ns3::D2dPredictionConsensus::LossRule");
    flags.Bind("distillBatch", "ns3::D2dPredictionConsensus::DistillBatch");
    flags.Bind("keepOptimizerState", "ns3::D2dLearner::KeepOptimizerState").Default("true");
    flags.Add("xstarFraction", "Share of the training set held out as X*", f.xstarFraction)
        .Range(1e-9, 0.999999);
    flags.Add("flipList",
              "Low-quality agents (labels flipped), separated by commas or spaces",
              f.flipList);
    flags.Add("flipMode", "How their labels are flipped", f.flipMode)
        .Choices({"random-shift", "shift", "derangement"});
    flags
        .Add("modelAssignment",
             "With --model=A,B: blocks (first agents A, then B) or round-robin",
             f.modelAssignment)
        .Choices({"blocks", "round-robin"});
    flags.Bind("mu", "ns3::D2dFedAvg::ProximalMu").Range(0, 1e6);
    flags
        .Bind("roundDeadline",
              "ns3::D2dFlProtocol::RoundDeadline",
              "Phase deadline: prediction exchange, then training (0: none)")
        .Default("600s");
    flags.Add("maxSimTime", "Stop the simulation at this time at the latest", f.maxSimTime)
        .Positive(9e9);
    net.AddFlags(flags);
    flags.Find("nDevices")
        .ShownDefault(
            fmt::format("{} ({} with --dataset=polynomial)", DEFAULT_DEVICES, POLYNOMIAL_DEVICES));
}

/**
 * \brief What involves several flags: one line naming them, before simulating.
 * \return the low-quality agents (--flipList), ascending, each once
 */
std::vector<uint32_t>
Validate(const D2dScenarioSupport& support,
         D2dScenarioFlags& flags,
         const D2dProtocolChoice& protocols,
         const ConsensusFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net)
{
    // The polynomial toy of App. A.1: three agents, degree-4 polynomials fitted in closed
    // form, uniform trust 1/3 and lambda = 1, one round of local fitting first.
    const bool polynomial = learning.data.dataset == "polynomial";
    if (polynomial)
    {
        if (!flags.Given("model"))
        {
            learning.training.model = "poly:4";
        }
        flags.DefaultAfterParse("lambda", "1");
        flags.DefaultAfterParse("trust", "naive");
        flags.DefaultAfterParse("warmupRounds", "1");
        // Static and dynamic trust on regression: eq. 6's cosine over the X* vectors
        // (D2dTrustRules::RegressionTrustRow; dynamic trust is App. A.2's). The entropy
        // confidence needs class probabilities (naive trust does not use it: runs with
        // naive trust record the flag's default, as before).
        const auto trust = static_cast<D2dPredictionConsensus::TrustMode>(
            flags.Get<D2dEnumValue<D2dPredictionConsensus::TrustMode>>("trust"));
        if (trust != D2dPredictionConsensus::NAIVE)
        {
            flags.DefaultAfterParse("confidence", "none");
        }
        const auto confidence =
            static_cast<D2dConfidence>(flags.Get<D2dEnumValue<int>>("confidence"));
        if (trust != D2dPredictionConsensus::NAIVE && confidence != D2dConfidence::NONE)
        {
            support.Fail("--confidence=" + D2dTrustRules::ToString(confidence) +
                         " weighs by the entropy of class probabilities; --dataset=polynomial "
                         "is regression (accepted: none)");
        }
        if (!f.flipList.empty())
        {
            support.Fail("--flipList=" + f.flipList +
                         " flips class labels; --dataset=polynomial is regression (accepted: "
                         "empty)");
        }
    }

    learning.Validate(support, true);
    if (learning.GetSpecs().size() > 1 && protocols.IsA(f.algorithm, D2dFedAvg::GetTypeId()))
    {
        support.Fail("--model=" + learning.training.model +
                     ": several architectures need --algorithm="
                     "consensus or local (FedAvg and FedProx average models)");
    }
    net.SetTraffic(protocols.GetTraffic(f.algorithm));
    net.energy.protocolSleeps = learning.training.sleepWhileTraining; // --sleepWhileTraining
    net.Validate(support,
                 polynomial ? POLYNOMIAL_DEVICES : DEFAULT_DEVICES,
                 protocols.GetTraits(f.algorithm).minDevices);
    const uint32_t nDevices = net.links.nDevices;
    const uint32_t warmup = flags.Get<UintegerValue>("warmupRounds");
    if (protocols.IsA(f.algorithm, D2dPredictionConsensus::GetTypeId()) &&
        warmup >= learning.training.rounds)
    {
        support.Fail(fmt::format("--warmupRounds={} leaves no collaboration round of --rounds={} "
                                 "(accepted: 0 to {})",
                                 warmup,
                                 learning.training.rounds,
                                 learning.training.rounds - 1));
    }
    std::vector<uint32_t> flipped;
    {
        std::vector<uint64_t> agents;
        try
        {
            agents = D2dListFlag::Whole(f.flipList, nDevices - 1);
        }
        catch (const std::invalid_argument& e)
        {
            support.Fail(fmt::format("--flipList: '{}' is not an agent index (accepted: "
                                     "integers 0 to {}, separated by commas or spaces)",
                                     e.what(),
                                     nDevices - 1));
        }
        for (uint64_t v : agents)
        {
            if (std::find(flipped.begin(), flipped.end(), uint32_t(v)) == flipped.end())
            {
                flipped.push_back(static_cast<uint32_t>(v));
            }
        }
        std::sort(flipped.begin(), flipped.end());
    }
    return flipped;
}

} // namespace

int
main(int argc, char* argv[])
{
    ConsensusFlags f; // --algorithm, --xstarFraction, ...: the program's own flags
    // The paper's training set-up (App. G.1), at a reduced scale by default: Adam, lr 5e-3,
    // batch 64, Dirichlet(1) over 10 agents, 5 local epochs; rounds and data reduced.
    D2dLearningOptions learning;
    learning.training.rounds = 20;
    learning.training.localEpochs = 5;
    learning.training.batchSize = 64;
    learning.training.learningRate = 5e-3;
    learning.training.optimizer = "adam";
    learning.data.partition = "dirichlet";
    learning.data.alpha = 1.0;
    learning.training.model = "mlp:64";
    learning.data.dataFraction = 0.1;
    D2dNetworkOptions net("results/consensus");
    net.links.reliable = true;
    net.placement.areaSideM = 50.0;
    net.links.d2sTxPowerDbm = 30.0;
    net.links.access = "scheduled";
    net.spectrum.subChannels = D2dNetworkOptions::SHARED_BAND_SUB_CHANNELS; // uploads share a band

    D2dScenarioSupport support("consensus");
    D2dScenarioFlags flags(support);
    learning.data.datasets.push_back("polynomial"); // App. A.1, with the closed-form learner
    static const D2dProtocolChoice protocols("algorithm", "consensus"); // D2dProtocolRegistry
    AddFlags(flags, protocols, f, learning, net);
    flags.Parse(argc, argv);
    const std::vector<uint32_t> flipped = Validate(support, flags, protocols, f, learning, net);
    const bool polynomial = learning.data.dataset == "polynomial";
    const uint32_t nDevices = net.links.nDevices;
    const uint32_t warmup = flags.Get<UintegerValue>("warmupRounds");
    support.SetQuiet(net.run.quiet);

    // Data: X* held out (class-balanced) before the partition, all before any output.
    learning.holdOutFraction = f.xstarFraction;
    learning.checkModelMemory = false; // counted in the memory budget below
    learning.LoadData(support, nDevices, net.run.seed);
    if (!flipped.empty())
    {
        D2dPartitioner::FlipLabels(learning.shards,
                                   flipped,
                                   learning.train->numClasses,
                                   net.run.seed,
                                   f.flipMode == "shift"         ? D2dFlipMode::SHIFT
                                   : f.flipMode == "derangement" ? D2dFlipMode::DERANGEMENT
                                                                 : D2dFlipMode::RANDOM_SHIFT);
    }

    D2dLearningHelper helper;
    helper.SetProtocol(f.algorithm); // its class and presets (fedprox: Variant=fedprox)
    if (protocols.IsA(f.algorithm, D2dFedAvg::GetTypeId()))
    {
        helper.SetProtocolAttribute("Aggregation",
                                    PointerValue(D2dProtocolRegistry::CreateAggregation("mean")));
    }
    learning.Configure(helper, net.run.seed); // after the label flips: it takes the shards
    const auto& specs = learning.GetSpecs();
    if (specs.size() > 1 && f.modelAssignment == "blocks")
    {
        // Agent i gets specs[i k / N]: the first N/k agents the first model, and so on.
        std::vector<D2dModelSpec> perDevice;
        for (uint32_t i = 0; i < nDevices; ++i)
        {
            perDevice.push_back(specs[static_cast<std::size_t>(i) * specs.size() / nDevices]);
        }
        helper.SetModels(perDevice);
    }

    if (net.run.printLinks)
    {
        net.PrintLinks(std::cout, helper.ProtocolUsesD2s(), learning.ModelMessages());
        return 0;
    }
    {
        // What the run holds for N devices (D2dMemoryBudget): every device's objects and
        // model; prediction consensus keeps, per pair of agents, the last and the fresh
        // prediction received (two shared pointers, 32 bytes) and five dense N x N matrices of
        // doubles (kept rows, W^(t) as built and as kept, the product W^(t)...W^(1) and its
        // next value: 40 bytes), and per agent its own, fresh and last predictions on X*
        // (|X*| x classes floats each; at most two of each sender's live at once).
        const double perHolder = learning.ModelBytesPerHolder();
        const double dataBytes = learning.DataBytes();
        const bool pairwise = protocols.IsA(f.algorithm, D2dPredictionConsensus::GetTypeId());
        const double predictionBytes =
            4.0 * static_cast<double>(learning.heldOut ? learning.heldOut->Size() : 0) *
            std::max<uint32_t>(1, learning.train->numClasses);
        D2dMemoryBudget([=](uint64_t n) {
            const double nn = static_cast<double>(n);
            return D2dMemoryBudget::Terms{
                {"devices", D2dMemoryBudget::DeviceBytes * nn},
                {"data", dataBytes},
                {"models", perHolder * (nn + 1)},
                {"pairwise trust state", pairwise ? 72.0 * nn * nn : 0.0},
                {"predictions on X*", pairwise ? 3 * predictionBytes * nn : 0.0}};
        }).Check(support, "consensus", nDevices);
    }
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, helper.ProtocolUsesD2s());
    int64_t stream = network.nextStream;
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    stream += helper.AssignStreams(protocol, stream);
    protocol->SetTestSet(learning.test);
    protocol->SetLowQuality(flipped); // node -1: the regular agents, for every algorithm
    auto consensus = DynamicCast<D2dPredictionConsensus>(protocol);
    // trust.csv, consensus.csv; polynomial data: samples.csv and coefficients.csv (Fig. 1);
    // 2-D data: boundary.csv after the warm-up and at the end (Fig. 2).
    auto writer = std::make_unique<D2dConsensusTraceWriter>(*traces);
    if (consensus)
    {
        consensus->SetSharedSet(learning.heldOut);
        writer->Connect(consensus);
    }
    if (polynomial)
    {
        writer->ConnectPolynomial(protocol, *learning.train, learning.shards, *learning.heldOut);
    }
    else if (learning.train->featureShape == std::vector<int64_t>{2})
    {
        std::set<uint32_t> drawn{learning.training.rounds};
        if (consensus && warmup > 0)
        {
            drawn.insert(warmup);
        }
        writer->ConnectBoundary(protocol, learning.train->numClasses, drawn, -6.0, 6.0, 61);
    }
    traces->ConnectRounds(protocol);

    flags.Record(*traces);
    traces->AddParameterArray("flippedDevices", flipped);
    traces->AddParameter("xstarSamples", static_cast<uint64_t>(learning.heldOut->Size()));
    if (consensus)
    {
        traces->AddParameter("predictionMessageBytes", consensus->PredictionMessageBytes());
    }
    net.Record(*traces, network);

    learning.Run(support, traces, protocol, f.algorithm, net.run.seed, f.maxSimTime, net.run.quiet);
    return 0;
}
