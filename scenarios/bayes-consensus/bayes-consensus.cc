/*
 * d2dlearn scenario: fully decentralized Bayesian learning by belief consensus
 * (Lalitha et al., "Fully Decentralized Federated Learning", NeurIPS 2018 workshop).
 *
 * Each step every device draws a local sample, updates its belief by eq. (2), sends its
 * public belief to its out-neighbours over the D2D channel, and at the step deadline
 * combines what arrived by eq. (3) (or by a loss rule, for what did not). Modes:
 * discrete (a parameter grid no single device can identify, see
 * D2dCoordinateBeliefLearner), gaussian-linear (Example 1: distributed Bayesian linear
 * regression) and variational (sec. 3.1: mean-field Gaussian posteriors over a LibTorch
 * classifier's weights on Fashion-MNIST, each device seeing only some classes; the local
 * update is a training job in simulated time, see D2dVariationalLearner).
 * --cooperation=isolated and central run the comparison learners with the same data.
 * The channel access defaults to --access=scheduled: devices send their beliefs when the
 * algorithm forms them, all in the same instant, and the channel serialises half-duplex
 * radios (--access=immediate gives the raw radios, which lose beliefs sent at once).
 * Writes beliefs.csv, consensus.csv, rounds.csv, messages.csv, energy.csv and run.json
 * (with lambda_max, the stationary distribution and the Theorem 1 bound) into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-belief-consensus-matrix.h"
#include "ns3/d2d-belief-consensus.h"
#include "ns3/d2d-belief-trace-writer.h"
#include "ns3/d2d-coordinate-belief-learner.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-gaussian-linear-learner.h"
#include "ns3/d2d-list-flag.h"
#include "ns3/d2d-memory-budget.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-type-choices.h"
#include "ns3/d2d-variational-learner.h"
#include "ns3/d2dlearn-module.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("BayesConsensus");

namespace
{

// --nDevices=0 without a W of fixed size: the number of devices of each mode.
constexpr uint32_t DISCRETE_DEVICES = 9;    //!< --mode=discrete
constexpr uint32_t VARIATIONAL_DEVICES = 5; //!< --mode=variational
constexpr uint32_t LINEAR_DEVICES = 2;      //!< --mode=gaussian-linear

/** The program's own flags (the network's: D2dNetworkOptions; variational's learning flags:
 *  D2dLearningOptions), on their defaults. */
struct BayesFlags
{
    std::string mode = "discrete";         // the beliefs
    std::string cooperation = "network";   // network | isolated | central
    uint32_t steps = 100;                  // steps (samples per device)
    Time stepInterval = MilliSeconds(100); // time between steps (the step deadline)
    std::string lossRule = "reuse";        // reuse | renormalize
    std::string graph = "";                // W from (default: by mode)
    std::string wFile;                     // CSV file with W (--graph=file)
    std::string weights = "uniform";       // uniform | metropolis
    bool broadcast = true;                 // one broadcast per belief (else unicasts)
    uint32_t levels = 3;                   // discrete: grid levels G per coordinate
    std::string thetaTrue = "2,1,2";       // discrete: theta* as levels, one per coordinate
    double coinEps = 0.1;                  // discrete: eps of p(t) = eps + (1 - 2 eps) t
    double delta = 0.1;                    // Theorem 1 confidence delta
    uint32_t nTest = 1000;                 // gaussian-linear: test-set size
    // variational: the posterior's flags
    uint32_t mcSamples = 1;      // weight draws per mini-batch
    double priorVariance = 0.01; // prior N(0, priorVariance) per weight
    double initialSigma = 0.0;   // sigma of q at the first update (0: the prior's)
};

/** \return --mode's values, each the class of the devices' beliefs it makes */
const D2dTypeChoice&
Modes()
{
    static const D2dTypeChoice modes(
        "mode",
        {{"discrete", D2dCoordinateBeliefLearner::GetTypeId().GetName()},
         {"gaussian-linear", D2dGaussianLinearLearner::GetTypeId().GetName()},
         {"variational", D2dVariationalLearner::GetTypeId().GetName()}});
    return modes;
}

/**
 * \param f the program's flags \param tid a D2dBeliefLearner class
 * \return whether --mode makes a learner of that class
 */
bool
Makes(const BayesFlags& f, TypeId tid)
{
    return Modes().GetTypeName(f.mode) == tid.GetName();
}

/**
 * \brief Declare every flag once (those that set an attribute of D2dBeliefConsensus say
 * which; those of one kind of belief, the learner class they act through).
 */
void
AddFlags(D2dScenarioFlags& flags,
         BayesFlags& f,
         D2dLearningOptions& learning,
         D2dNetworkOptions& net)
{
    net.AddFlags(flags);
    flags.Find("reliable").Sets("ns3::D2dBeliefConsensus::Reliable");
    flags.Add("mode", "Beliefs", f.mode).Choices(Modes().GetNames());
    Modes().AddChoices(flags); // a kind of belief's flags act only in its runs (D2dFlagScope)
    const std::string discrete = D2dCoordinateBeliefLearner::GetTypeId().GetName();
    const std::string linear = D2dGaussianLinearLearner::GetTypeId().GetName();
    const std::string variational = D2dVariationalLearner::GetTypeId().GetName();
    flags.Add("cooperation", "Who combines beliefs", f.cooperation)
        .Sets("ns3::D2dBeliefConsensus::Cooperation")
        .Choices({"network", "isolated", "central"});
    flags.Add("steps", "Number of steps (samples per device; variational default 20)", f.steps)
        .Sets("ns3::D2dBeliefConsensus::Steps")
        .Range(1, 1e7);
    flags
        .Add("stepInterval",
             "Time between steps; beliefs must arrive within it (variational default 1s)",
             f.stepInterval)
        .Sets("ns3::D2dBeliefConsensus::StepInterval")
        .Positive(1e6);
    flags.Add("lossRule", "Missing neighbour belief", f.lossRule)
        .Sets("ns3::D2dBeliefConsensus::LossRule")
        .Choices({"reuse", "renormalize"});
    flags
        .Add("graph",
             "W from (range: devices within --rangeM; file: --wFile; example1: Lalitha et "
             "al.'s 2-user W); default ring (discrete, variational), example1 "
             "(gaussian-linear)",
             f.graph)
        .Choices({"ring", "complete", "range", "file", "example1"});
    flags.Add("wFile", "CSV file with the N x N stochastic matrix W (--graph=file)", f.wFile);
    flags.Add("weights", "Weights of a graph", f.weights).Choices({"uniform", "metropolis"});
    flags
        .Add("broadcast",
             "Send a belief as one broadcast (else one unicast per neighbour)",
             f.broadcast)
        .Sets("ns3::D2dBeliefConsensus::Broadcast");
    flags.Add("levels", "discrete: grid levels G per coordinate", f.levels)
        .Range(2, 1000)
        .Configures(discrete);
    flags
        .Add("thetaTrue",
             "discrete: theta* as levels separated by commas or spaces (D coordinates)",
             f.thetaTrue)
        .Configures(discrete);
    flags.Add("coinEps", "discrete: coin probability p(t) = eps + (1 - 2 eps) t", f.coinEps)
        .Range(1e-9, 0.499999)
        .Configures(discrete);
    // (Theorem 1 bounds the discrete beliefs alone: Gaussian likelihoods are unbounded.)
    flags.Add("delta", "Theorem 1: confidence delta", f.delta)
        .Range(1e-12, 0.999999)
        .Configures(discrete);
    flags.Add("nTest", "gaussian-linear: test-set size", f.nTest).Range(1, 1e7).Configures(linear);
    // The learning flags, and the compute model's (the devices compute only to train it),
    // reach the run through the variational learner alone.
    const auto others = flags.GetNames();
    learning.AddFlags(flags, false);
    for (const auto& name : flags.GetNames())
    {
        if (std::find(others.begin(), others.end(), name) == others.end())
        {
            flags.Find(name).Configures(variational);
        }
    }
    for (const auto& name : D2dNetworkOptions::GetComputeFlags())
    {
        flags.Find(name).Configures(variational);
    }
    flags.Add("mcSamples", "variational: weight draws per mini-batch", f.mcSamples)
        .Range(1, 1000)
        .Configures(variational);
    flags.Add("priorVariance", "variational: prior variance per weight", f.priorVariance)
        .Range(1e-12, 1e6)
        .Configures(variational);
    flags
        .Add("initialSigma",
             "variational: sigma of q at the first update (0: the prior's)",
             f.initialSigma)
        .Range(0, 1e3)
        .Configures(variational);
    flags.Find("nDevices")
        .ShownDefault(fmt::format(
            "{} ({} with --mode=variational, {} with --mode=gaussian-linear; N of --graph=file "
            "or example1)",
            DISCRETE_DEVICES,
            VARIATIONAL_DEVICES,
            LINEAR_DEVICES));
}

/**
 * \brief What involves several flags, before W and the network: the mode's defaults, the
 * graph's file, the variational model, theta*.
 * \return theta* as levels, one per coordinate
 */
std::vector<uint32_t>
ValidateFlags(const D2dScenarioSupport& support,
              const D2dScenarioFlags& flags,
              BayesFlags& f,
              D2dLearningOptions& learning,
              D2dNetworkOptions& net)
{
    const bool variational = Makes(f, D2dVariationalLearner::GetTypeId());
    const bool discrete = Makes(f, D2dCoordinateBeliefLearner::GetTypeId());
    if (variational && !flags.Given("steps"))
    {
        f.steps = 20;
    }
    if (variational && !flags.Given("stepInterval"))
    {
        f.stepInterval = Seconds(1);
    }
    if (f.graph.empty())
    {
        f.graph = discrete || variational ? "ring" : "example1";
    }
    if (f.graph == "file" && f.wFile.empty())
    {
        support.Fail("--graph=file needs --wFile (a CSV file with the N x N matrix W)");
    }
    if (f.graph != "file" && !f.wFile.empty())
    {
        support.Fail("--wFile is only read with --graph=file (got --graph=" + f.graph + ")");
    }
    if (f.graph == "range" && !net.rss.rssFile.empty())
    {
        support.Fail("--graph=range needs device positions, which --rssFile replaces (accepted "
                     "with --rssFile: ring, complete, file or example1)");
    }
    // --rangeM is the network's hearing range; --graph=range links the devices within it
    // (100 m unless given), so that W's edges are the links that hear.
    if (f.graph == "range" && net.links.rangeM == 0)
    {
        net.links.rangeM = 100.0;
    }
    learning.Validate(support, false);
    if (variational && learning.GetSpecs()[0].arch == "torchscript")
    {
        // The variational posterior is a mean and a variance per weight of the built-in
        // layers (D2dVariationalLearner), which a TorchScript module does not expose.
        support.Fail("--model=" + learning.training.model +
                     ": the variational learner keeps a Gaussian per weight of its own layers "
                     "(accepted: logistic, mlp[:WxW..] or cnn[:C1xC2])");
    }
    if (variational && (learning.training.localSteps == 0 || learning.training.learningRate == 0))
    {
        support.Fail(learning.training.localSteps == 0
                         ? "--localSteps=0 is out of range for a variational update (accepted: "
                           "1 to 1e+09)"
                         : "--learningRate=0 is out of range for a variational update "
                           "(accepted: more than 0, at most 1000)");
    }
    std::vector<uint32_t> thetaLevels;
    try
    {
        for (uint64_t l : D2dListFlag::Whole(f.thetaTrue, 999999))
        {
            thetaLevels.push_back(static_cast<uint32_t>(l));
        }
    }
    catch (const std::invalid_argument&)
    {
        thetaLevels.clear();
    }
    if (thetaLevels.empty())
    {
        support.Fail("--thetaTrue=" + f.thetaTrue +
                     " is not accepted (levels separated by commas or spaces, e.g. 2,1,2)");
    }
    for (uint32_t l : thetaLevels)
    {
        if (l >= f.levels)
        {
            support.Fail(fmt::format("--thetaTrue={} has level {} (accepted: 0 .. levels - 1 = {})",
                                     f.thetaTrue,
                                     l,
                                     f.levels - 1));
        }
    }
    if (discrete && std::pow(double(f.levels), double(thetaLevels.size())) > 1e6)
    {
        support.Fail(fmt::format("--levels={} with {} coordinates in --thetaTrue makes M = "
                                 "levels^D above 1e6 (accepted: M <= 1e6)",
                                 f.levels,
                                 thetaLevels.size()));
    }
    return thetaLevels;
}

/**
 * \brief W (but --graph=range's, which needs the network), and the number of devices: W's
 * N for a W of fixed size; then the network's flags and the memory W takes.
 * \param thetaLevels theta* (discrete: a device per coordinate at least)
 * \return W (empty for --graph=range)
 */
D2dBeliefConsensusMatrix
MakeMatrix(const D2dScenarioSupport& support,
           const D2dScenarioFlags& flags,
           const BayesFlags& f,
           const std::vector<uint32_t>& thetaLevels,
           D2dNetworkOptions& net)
{
    const bool variational = Makes(f, D2dVariationalLearner::GetTypeId());
    const bool discrete = Makes(f, D2dCoordinateBeliefLearner::GetTypeId());
    // W from a file or the example: its N sets the number of devices when --nDevices=0.
    D2dBeliefConsensusMatrix w;
    if (f.graph == "file")
    {
        try
        {
            w = D2dBeliefConsensusMatrix::FromCsv(f.wFile);
            if (w.GetN() < 2) // else reported as --nDevices=1
            {
                support.Fail(fmt::format("--wFile={}: a {} x {} matrix (accepted: N x N with N "
                                         ">= 2 devices)",
                                         f.wFile,
                                         w.GetN(),
                                         w.GetN()));
            }
            w.Check();
        }
        catch (const std::exception& e)
        {
            support.Fail(std::string(e.what()).rfind("--wFile", 0) == 0
                             ? e.what()
                             : "--wFile=" + f.wFile + ": " + e.what());
        }
    }
    else if (f.graph == "example1")
    {
        w = D2dBeliefConsensusMatrix({{0.9, 0.1}, {0.6, 0.4}});
    }
    const uint32_t fixedN = (f.graph == "file" || f.graph == "example1") ? w.GetN() : 0;
    if (fixedN > 0 && net.links.nDevices == 0 && net.rss.rssFile.empty())
    {
        net.links.nDevices = fixedN;
    }
    if (variational && !flags.Given("reliable"))
    {
        net.links.reliable = true; // a belief of tens of fragments rarely arrives whole otherwise
    }
    {
        // Only devices that combine their beliefs over the network send (D2D broadcasts).
        D2dTraffic traffic;
        traffic.chosen = "--mode=" + f.mode + " --cooperation=" + f.cooperation;
        traffic.d2d = f.cooperation == "network";
        traffic.d2dUsers = "--cooperation=network";
        traffic.chosenTypes = {Modes().GetTypeName(f.mode)};
        net.SetTraffic(traffic);
    }
    net.Validate(support,
                 discrete ? DISCRETE_DEVICES : (variational ? VARIATIONAL_DEVICES : LINEAR_DEVICES),
                 2);
    if (fixedN > 0 && net.links.nDevices != fixedN)
    {
        support.Fail(fmt::format("--nDevices={} does not match --graph={}, whose W is {} x {} "
                                 "(accepted: {} devices)",
                                 net.links.nDevices,
                                 f.graph,
                                 fixedN,
                                 fixedN,
                                 fixedN));
    }
    const uint32_t n = net.links.nDevices;
    // W is dense (N x N doubles), and its spectrum (LambdaMax, StationaryDistribution: GSL
    // on a copy, with complex eigenvectors) takes about five more such matrices: refused up
    // front when that cannot fit, rather than growing until the memory ends.
    D2dMemoryBudget([](uint64_t m) {
        const double mm = static_cast<double>(m);
        return D2dMemoryBudget::Terms{{"devices", D2dMemoryBudget::DeviceBytes * mm},
                                      {"W and its spectrum", 48.0 * mm * mm}};
    }).Check(support, "bayes-consensus", n);
    if (discrete && n < thetaLevels.size())
    {
        support.Fail(fmt::format("--nDevices={} is below the {} coordinates of --thetaTrue: "
                                 "some coordinate would be observed by no device (accepted: "
                                 "nDevices >= {})",
                                 n,
                                 thetaLevels.size(),
                                 thetaLevels.size()));
    }
    if (f.graph == "ring" || f.graph == "complete")
    {
        std::vector<std::vector<bool>> a(n, std::vector<bool>(n, f.graph == "complete"));
        for (uint32_t i = 0; f.graph == "ring" && i < n; ++i)
        {
            a[i][(i + 1) % n] = a[(i + 1) % n][i] = true;
        }
        w = D2dBeliefConsensusMatrix::FromGraph(a, f.weights);
    }
    if (f.graph != "range")
    {
        try
        {
            w.Check();
        }
        catch (const std::exception& e)
        {
            support.Fail("--graph=" + f.graph + ": " + e.what());
        }
    }
    return w;
}

/**
 * \brief --mode=variational: Fashion-MNIST loaded and split before any output exists (a
 * missing or corrupt file is bad input), and the learner of every device.
 * \param n devices
 * \param seed the run's seed
 * \return the learner
 */
Ptr<D2dVariationalLearner>
MakeVariationalLearner(const D2dScenarioSupport& support,
                       const BayesFlags& f,
                       D2dLearningOptions& learning,
                       uint32_t n,
                       uint64_t seed)
{
    learning.LoadData(support, n, seed);
    if (learning.train->Size() < 10 * n)
    {
        support.Fail(fmt::format("--dataFraction={} leaves {} training samples for {} "
                                 "devices (accepted: at least 10 per device)",
                                 learning.data.dataFraction,
                                 learning.train->Size(),
                                 n));
    }
    for (const auto& shard : learning.shards)
    {
        if (shard.indices.empty())
        {
            support.Fail(fmt::format("--dataFraction={} with --partition={} leaves a device "
                                     "without samples (accepted: a larger dataFraction)",
                                     learning.data.dataFraction,
                                     learning.data.partition));
        }
    }
    D2dTorchRuntime::SetWorkers(learning.training.threads);
    D2dTorchRuntime::Seed(seed);
    D2dVariationalConfig config;
    config.spec = learning.GetSpecs()[0];
    config.localSteps = static_cast<uint32_t>(learning.training.localSteps);
    config.batchSize = learning.training.batchSize;
    config.mcSamples = f.mcSamples;
    config.learningRate = learning.training.learningRate;
    config.priorVariance = f.priorVariance;
    config.initialSigma = f.initialSigma;
    return CreateObject<D2dVariationalLearner>(config,
                                               learning.train,
                                               learning.shards,
                                               learning.test,
                                               seed);
}

/**
 * \brief --graph=range: W of the devices each device hears (positions at the start).
 * \param weights the graph's weights (--weights)
 * \param rangeM the hearing range, m (errors)
 * \param traces closed before an error (their temporary files deleted)
 * \return W
 */
D2dBeliefConsensusMatrix
RangeMatrix(const D2dScenarioSupport& support,
            const D2dNetwork& network,
            const std::string& weights,
            double rangeM,
            std::unique_ptr<D2dTraceHelper>& traces)
{
    const uint32_t n = network.devices.GetN();
    // i's neighbours are the devices it hears (positions at the start): the backend's one
    // definition of "in range" (D2dNetwork::Hears: on the channel closer than RangeM and
    // RSS above the receiver's sensitivity, the one its deliveries follow; over Wi-Fi the
    // received power above the PHYs' preamble detection threshold).
    std::vector<std::vector<bool>> a(n, std::vector<bool>(n, false));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            a[i][j] = i != j && network.Hears(i, j);
        }
    }
    D2dBeliefConsensusMatrix w = D2dBeliefConsensusMatrix::FromGraph(a, weights);
    try
    {
        w.Check();
    }
    catch (const std::exception& e)
    {
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        Simulator::Destroy();
        support.Fail(fmt::format("--graph=range --rangeM={}: {}", rangeM, e.what()));
    }
    return w;
}

/**
 * \brief The belief learner of the mode: discrete (D2dCoordinateBeliefLearner), variational
 * (given, on the devices' compute models: a local update must fit in a step) or
 * gaussian-linear (D2dGaussianLinearLearner).
 * \param traces closed before an error (their temporary files deleted)
 * \return the learner
 */
Ptr<D2dBeliefLearner>
MakeLearner(const D2dScenarioSupport& support,
            const BayesFlags& f,
            const D2dNetwork& network,
            const std::vector<uint32_t>& thetaLevels,
            Ptr<D2dVariationalLearner> vlearner,
            std::unique_ptr<D2dTraceHelper>& traces)
{
    const uint32_t n = network.devices.GetN();
    if (Makes(f, D2dCoordinateBeliefLearner::GetTypeId()))
    {
        return CreateObject<D2dCoordinateBeliefLearner>(n, f.levels, thetaLevels, f.coinEps);
    }
    if (Makes(f, D2dVariationalLearner::GetTypeId()))
    {
        std::vector<Ptr<D2dComputeModel>> compute;
        Time longest;
        for (uint32_t i = 0; i < n; ++i)
        {
            compute.push_back(D2dHelper::GetComputeModel(network.devices.Get(i)));
            longest =
                std::max(longest, compute.back()->GetJobDuration(vlearner->GetLocalUpdateFlops(i)));
        }
        if (longest >= f.stepInterval)
        {
            traces.reset(); // deletes the temporary files (Fail exits without unwinding)
            Simulator::Destroy();
            support.Fail(fmt::format("--stepInterval={}s is not longer than a local update's "
                                     "modelled training time, {}s (accepted: stepInterval > "
                                     "{}s, or fewer --localSteps / a smaller --model)",
                                     f.stepInterval.GetSeconds(),
                                     longest.GetSeconds(),
                                     longest.GetSeconds()));
        }
        vlearner->SetComputeModels(compute);
        return vlearner;
    }
    return CreateObject<D2dGaussianLinearLearner>(n, f.nTest);
}

/**
 * \brief run.json: W's spectrum and the quantities of Theorem 1 (discrete), or the
 * variational model's flags and size.
 * \param n devices
 */
void
RecordBeliefModel(D2dTraceHelper& traces,
                  const BayesFlags& f,
                  const D2dBeliefConsensusMatrix& w,
                  uint32_t n,
                  Ptr<D2dBeliefLearner> learner,
                  const D2dLearningOptions& learning,
                  Ptr<D2dVariationalLearner> vlearner)
{
    const double lambdaMax = w.LambdaMax();
    const auto v = w.StationaryDistribution();
    traces.AddParameter("lambda_max", lambdaMax);
    traces.AddParameterArray("stationary_distribution", v);
    if (auto coordinate = DynamicCast<D2dCoordinateBeliefLearner>(learner))
    {
        traces.AddParameter("thetaTrueIndex", coordinate->GetTrueIndex());
        traces.AddParameter("M", coordinate->GetM());
        const double k = coordinate->ComputeK(v);
        traces.AddParameter("theorem1_K", k);
        traces.AddParameter("theorem1_C", coordinate->GetC());
        traces.AddParameter("theorem1_bound",
                            D2dBeliefConsensusMatrix::Theorem1Bound(n,
                                                                    coordinate->GetM(),
                                                                    lambdaMax,
                                                                    k,
                                                                    coordinate->GetC(),
                                                                    f.delta));
    }
    else if (vlearner)
    {
        learning.Record(traces, nullptr);
        traces.AddParameter("parameters", vlearner->GetNParameters());
        traces.AddParameter("localUpdateFlops", vlearner->GetLocalUpdateFlops(0));
        // Gaussian posteriors over a network's weights: Theorem 1 does not apply.
        traces.AddParameterJson("theorem1_bound", "null");
    }
    else
    {
        // Gaussian likelihoods are unbounded (Remark 2): Theorem 1 does not apply.
        traces.AddParameterJson("theorem1_bound", "null");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    D2dNetworkOptions net("results/bayes-consensus");
    // Every device sends its belief in the same instant (step 3 of the algorithm): the
    // channel's scheduled access keeps half-duplex radios from losing them. Set before the
    // flags are parsed, so that --access=immediate still chooses the raw radios.
    net.links.access = "scheduled";
    BayesFlags f; // --mode, --cooperation, ...: the program's own flags
    // variational: the shared learning flags (model, data, partition, local steps, batch,
    // learning rate, threads) with this mode's defaults, and the variational posterior's.
    D2dLearningOptions learning;
    learning.training.model = "logistic";
    learning.data.dataFraction = 0.1;
    learning.data.partition = "labels"; // each device sees some classes
    learning.data.labelsPerDevice = 2;
    learning.data.labelProportions = "";   // equal shares
    learning.training.localSteps = 50;     // Adam steps (mini-batches) per local update
    learning.training.learningRate = 0.01; // Adam step size

    D2dScenarioSupport support("bayes-consensus");
    D2dScenarioFlags flags(support);
    AddFlags(flags, f, learning, net);
    flags.Parse(argc, argv);

    // What involves several flags: one line naming them, before simulating.
    const std::vector<uint32_t> thetaLevels = ValidateFlags(support, flags, f, learning, net);
    const double rangeM = net.links.rangeM;
    D2dBeliefConsensusMatrix w = MakeMatrix(support, flags, f, thetaLevels, net);
    const uint32_t n = net.links.nDevices;
    const bool variational = Makes(f, D2dVariationalLearner::GetTypeId());
    const Ptr<D2dVariationalLearner> vlearner =
        variational ? MakeVariationalLearner(support, f, learning, n, net.run.seed) : nullptr;
    support.SetQuiet(net.run.quiet);
    if (net.run.printLinks)
    {
        // The belief's size is known once the learner exists: rates and P_D only.
        net.PrintLinks(std::cout, false, {});
        return 0;
    }
    std::unique_ptr<D2dTraceHelper> traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, false);
    if (f.graph == "range")
    {
        w = RangeMatrix(support, network, f.weights, rangeM, traces);
    }
    net.Record(*traces, network);

    // The learner and the protocol.
    Ptr<D2dBeliefLearner> learner = MakeLearner(support, f, network, thetaLevels, vlearner, traces);
    int64_t stream = network.nextStream;
    stream += learner->AssignStreams(stream);

    const std::vector<Ptr<D2dTransport>> transports = network.d2dTransports;
    auto protocol = CreateObject<D2dBeliefConsensus>();
    protocol->SetAttribute("Steps", UintegerValue(f.steps));
    protocol->SetAttribute("StepInterval", TimeValue(f.stepInterval));
    protocol->SetAttribute("LossRule",
                           EnumValue(f.lossRule == "reuse" ? D2dBeliefConsensus::REUSE
                                                           : D2dBeliefConsensus::RENORMALIZE));
    protocol->SetAttribute("Cooperation",
                           EnumValue(f.cooperation == "network"    ? D2dBeliefConsensus::NETWORK
                                     : f.cooperation == "isolated" ? D2dBeliefConsensus::ISOLATED
                                                                   : D2dBeliefConsensus::CENTRAL));
    protocol->SetAttribute("Broadcast", BooleanValue(f.broadcast));
    protocol->SetAttribute("Reliable", BooleanValue(network.mode == D2dDeliveryMode::RELIABLE));
    protocol->SetLearner(learner);
    protocol->SetMatrix(w);
    // A device is live while its D2D transport is on (its battery not depleted). Where the
    // D2D radios are off from the start (--cooperation other than network sends nothing over
    // them, --d2dRadio=auto) that says nothing of the battery: the protocol gets no transports
    // and every device is live (it sends nothing; without radios only the variational
    // training draws energy, and a depleted device's jobs never complete).
    protocol->SetTransports(net.IsD2dRadioOff() ? std::vector<Ptr<D2dTransport>>{} : transports);

    // Traces: beliefs.csv and rounds.csv after every step (variational: with node -1 means),
    // consensus.csv per (step, node).
    D2dBeliefTraceWriter beliefTraces(*traces);
    beliefTraces.Connect(protocol, learner, variational);

    // run.json: this scenario's parameters and the quantities of Theorem 1.
    flags.Record(*traces);
    traces->AddParameter("beliefBytes",
                         uint64_t(learner->GetNValues()) * learner->GetBytesPerValue());
    traces->AddParameterJson("W", w.ToJson());
    RecordBeliefModel(*traces, f, w, n, learner, learning, vlearner);
    traces->AddAttributes(protocol);

    protocol->Start();
    const Time duration = protocol->GetDuration();
    support.StartProgress(duration / 10, duration);
    Simulator::Stop(duration + NanoSeconds(1));
    Simulator::Run();
    D2dTorchRuntime::Shutdown(); // local updates still queued did not happen (lifetime rule)
    if (!beliefTraces.GetNumericError().empty())
    {
        traces.reset(); // no traces of a diverged run
        support.Fail(beliefTraces.GetNumericError());
    }
    traces->AddResult("missedLocalUpdates", protocol->GetMissedUpdates());
    support.FinishTraces(traces, net.run.seed);
    if (!net.run.quiet)
    {
        const auto t = protocol->GetTotals();
        std::fprintf(stderr,
                     "bayes-consensus: %u steps; neighbour beliefs fresh %llu, reused %llu, "
                     "renormalized out %llu; local updates missed %llu; traces in %s\n",
                     protocol->GetCompletedSteps(),
                     static_cast<unsigned long long>(t[0]),
                     static_cast<unsigned long long>(t[1]),
                     static_cast<unsigned long long>(t[2]),
                     static_cast<unsigned long long>(protocol->GetMissedUpdates()),
                     net.run.outDir.c_str());
    }
    protocol->Dispose();
    Simulator::Destroy();
    return 0;
}
