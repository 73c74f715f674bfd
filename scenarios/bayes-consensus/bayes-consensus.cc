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
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-variational-learner.h"
#include "ns3/d2dlearn-module.h"

#include <cmath>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("BayesConsensus");

namespace
{

/** Parse "2,1,2" into levels; false if malformed. */
bool
ParseLevels(const std::string& text, std::vector<uint32_t>& out)
{
    out.clear();
    std::stringstream ss(text);
    std::string cell;
    while (std::getline(ss, cell, ','))
    {
        if (cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos ||
            cell.size() > 6)
        {
            return false;
        }
        out.push_back(static_cast<uint32_t>(std::stoul(cell)));
    }
    return !out.empty();
}

/** \return true if argv sets --name (as --name=value or --name value) */
bool
Given(int argc, char* argv[], const std::string& name)
{
    const std::string flag = "--" + name;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (a == flag || a.rfind(flag + "=", 0) == 0)
        {
            return true;
        }
    }
    return false;
}

} // namespace

int
main(int argc, char* argv[])
{
    D2dNetworkOptions net("results/bayes-consensus");
    // Every device sends its belief in the same instant (step 3 of the algorithm): the
    // channel's scheduled access keeps half-duplex radios from losing them. Set before the
    // flags are parsed, so that --access=immediate still chooses the raw radios.
    net.access = "scheduled";
    std::string mode = "discrete";         // discrete | gaussian-linear | variational
    std::string cooperation = "network";   // network | isolated | central
    uint32_t steps = 100;                  // steps (samples per device)
    Time stepInterval = MilliSeconds(100); // time between steps (the step deadline)
    std::string lossRule = "reuse";        // reuse | renormalize
    std::string graph = "";                // ring | complete | range | file | example1
    std::string wFile;                     // CSV file with W (--graph=file)
    std::string weights = "uniform";       // uniform | metropolis
    bool broadcast = true;                 // one broadcast per belief (else unicasts)
    uint32_t levels = 3;                   // discrete: grid levels G per coordinate
    std::string thetaTrue = "2,1,2";       // discrete: theta* as levels, one per coordinate
    double coinEps = 0.1;                  // discrete: eps of p(t) = eps + (1 - 2 eps) t
    double delta = 0.1;                    // Theorem 1 confidence delta
    uint32_t nTest = 1000;                 // gaussian-linear: test-set size
    // variational (defaults of --steps and --stepInterval: 20 and 1 s in this mode)
    std::string model = "logistic";                      // logistic | mlp[:WxW] | cnn[:C1xC2]
    std::string dataDir = D2dFashionMnist::DefaultDir(); // Fashion-MNIST idx .gz files
    double dataFraction = 0.1;                           // fraction of the train and test sets used
    uint32_t classesPerDevice = 2; // classes each device sees (labels partition)
    uint32_t localSteps = 50;      // Adam steps (mini-batches) per local update
    uint32_t batchSize = 32;       // samples per mini-batch
    uint32_t mcSamples = 1;        // weight draws per mini-batch
    double learningRate = 0.01;    // Adam step size
    double priorVariance = 0.01;   // prior N(0, priorVariance) per weight
    double initialSigma = 0.0;     // sigma of q at the first update (0: the prior's)
    uint32_t threads = 2;          // LibTorch worker threads (0: train inline)

    D2dScenarioSupport support("bayes-consensus");
    std::vector<D2dScenarioSupport::Param> params = net.GetParams();
    params.insert(params.end(),
                  {{"mode", 's'},
                   {"cooperation", 's', {"ns3::D2dBeliefConsensus::Cooperation"}},
                   {"steps", 'u', {"ns3::D2dBeliefConsensus::Steps"}},
                   {"stepInterval", 't', {"ns3::D2dBeliefConsensus::StepInterval"}},
                   {"lossRule", 's', {"ns3::D2dBeliefConsensus::LossRule"}},
                   {"graph", 's'},
                   {"wFile", 's'},
                   {"weights", 's'},
                   {"broadcast", 'b', {"ns3::D2dBeliefConsensus::Broadcast"}},
                   {"levels", 'u'},
                   {"thetaTrue", 's'},
                   {"coinEps", 'd'},
                   {"delta", 'd'},
                   {"nTest", 'u'},
                   {"model", 's'},
                   {"dataDir", 's'},
                   {"dataFraction", 'd'},
                   {"classesPerDevice", 'u'},
                   {"localSteps", 'u'},
                   {"batchSize", 'u'},
                   {"mcSamples", 'u'},
                   {"learningRate", 'd'},
                   {"priorVariance", 'd'},
                   {"initialSigma", 'd'},
                   {"threads", 'u'}});
    for (auto& p : params)
    {
        if (p.name == "reliable")
        {
            p.attributes.emplace_back("ns3::D2dBeliefConsensus::Reliable");
        }
    }
    support.CheckArguments(argc, argv, params);

    CommandLine cmd(__FILE__);
    net.AddValues(cmd);
    cmd.AddValue("mode", "Beliefs: discrete, gaussian-linear or variational", mode);
    cmd.AddValue("cooperation", "network, isolated or central", cooperation);
    cmd.AddValue("steps", "Number of steps (samples per device; variational default 20)", steps);
    cmd.AddValue("stepInterval",
                 "Time between steps; beliefs must arrive within it (variational default 1s)",
                 stepInterval);
    cmd.AddValue("lossRule", "Missing neighbour belief: reuse or renormalize", lossRule);
    cmd.AddValue("graph",
                 "W from: ring, complete, range (devices within --rangeM), file (--wFile), "
                 "example1 (Lalitha et al.'s 2-user W); default ring (discrete, variational), "
                 "example1 (gaussian-linear)",
                 graph);
    cmd.AddValue("wFile", "CSV file with the N x N stochastic matrix W (--graph=file)", wFile);
    cmd.AddValue("weights", "Weights of a graph: uniform or metropolis", weights);
    cmd.AddValue("broadcast",
                 "Send a belief as one broadcast (else one unicast per neighbour)",
                 broadcast);
    cmd.AddValue("levels", "discrete: grid levels G per coordinate", levels);
    cmd.AddValue("thetaTrue",
                 "discrete: theta* as comma-separated levels (D coordinates)",
                 thetaTrue);
    cmd.AddValue("coinEps", "discrete: coin probability p(t) = eps + (1 - 2 eps) t", coinEps);
    cmd.AddValue("delta", "Theorem 1: confidence delta", delta);
    cmd.AddValue("nTest", "gaussian-linear: test-set size", nTest);
    cmd.AddValue("model", "variational: logistic, mlp[:WxW..] or cnn[:C1xC2]", model);
    cmd.AddValue("dataDir", "variational: folder of the Fashion-MNIST idx .gz files", dataDir);
    cmd.AddValue("dataFraction",
                 "variational: fraction of the Fashion-MNIST train and test sets used",
                 dataFraction);
    cmd.AddValue("classesPerDevice", "variational: classes each device sees", classesPerDevice);
    cmd.AddValue("localSteps",
                 "variational: Adam steps (mini-batches) per local update",
                 localSteps);
    cmd.AddValue("batchSize", "variational: samples per mini-batch", batchSize);
    cmd.AddValue("mcSamples", "variational: weight draws per mini-batch", mcSamples);
    cmd.AddValue("learningRate", "variational: Adam step size", learningRate);
    cmd.AddValue("priorVariance", "variational: prior variance per weight", priorVariance);
    cmd.AddValue("initialSigma",
                 "variational: sigma of q at the first update (0: the prior's)",
                 initialSigma);
    cmd.AddValue("threads", "variational: LibTorch worker threads (0: train inline)", threads);
    cmd.Parse(argc, argv);

    // Validation: one line naming the parameter and the accepted range, before simulating.
    support.CheckChoice("mode", mode, {"discrete", "gaussian-linear", "variational"});
    const bool variational = mode == "variational";
    if (variational && !Given(argc, argv, "steps"))
    {
        steps = 20;
    }
    if (variational && !Given(argc, argv, "stepInterval"))
    {
        stepInterval = Seconds(1);
    }
    support.CheckChoice("cooperation", cooperation, {"network", "isolated", "central"});
    support.CheckChoice("lossRule", lossRule, {"reuse", "renormalize"});
    support.CheckChoice("weights", weights, {"uniform", "metropolis"});
    const bool discrete = mode == "discrete";
    if (graph.empty())
    {
        graph = discrete || variational ? "ring" : "example1";
    }
    support.CheckChoice("graph", graph, {"ring", "complete", "range", "file", "example1"});
    if (graph == "file" && wFile.empty())
    {
        support.Fail("--graph=file needs --wFile (a CSV file with the N x N matrix W)");
    }
    if (graph != "file" && !wFile.empty())
    {
        support.Fail("--wFile is only read with --graph=file (got --graph=" + graph + ")");
    }
    if (graph == "range" && !net.rssFile.empty())
    {
        support.Fail("--graph=range needs device positions, which --rssFile replaces (accepted "
                     "with --rssFile: ring, complete, file or example1)");
    }
    support.CheckRange("steps", steps, 1, 1e7);
    support.CheckPositiveTime("stepInterval", stepInterval, Seconds(1e6));
    // --rangeM is the network's hearing range; --graph=range links the devices within it
    // (100 m unless given), so that W's edges are the links that hear.
    if (graph == "range" && net.rangeM == 0)
    {
        net.rangeM = 100.0;
    }
    const double rangeM = net.rangeM;
    support.CheckRange("levels", levels, 2, 1000);
    support.CheckRange("coinEps", coinEps, 1e-9, 0.499999);
    support.CheckRange("delta", delta, 1e-12, 0.999999);
    support.CheckRange("nTest", nTest, 1, 1e7);
    D2dModelSpec spec;
    try
    {
        spec = D2dModelSpec::Parse(model);
    }
    catch (const std::exception& e)
    {
        support.Fail(std::string("--") + e.what());
    }
    if (spec.arch == "linear")
    {
        support.Fail("--model=linear is a regression model; variational classifies "
                     "Fashion-MNIST (accepted: logistic, mlp[:WxW..], cnn[:C1xC2])");
    }
    support.CheckRange("dataFraction", dataFraction, 1e-6, 1);
    support.CheckRange("classesPerDevice", classesPerDevice, 1, 10);
    support.CheckRange("localSteps", localSteps, 1, 1e7);
    support.CheckRange("batchSize", batchSize, 1, 1e6);
    support.CheckRange("mcSamples", mcSamples, 1, 1000);
    support.CheckRange("learningRate", learningRate, 1e-12, 1e3);
    support.CheckRange("priorVariance", priorVariance, 1e-12, 1e6);
    support.CheckRange("initialSigma", initialSigma, 0, 1e3);
    support.CheckRange("threads", threads, 0, 256);
    std::vector<uint32_t> thetaLevels;
    if (!ParseLevels(thetaTrue, thetaLevels))
    {
        support.Fail("--thetaTrue=" + thetaTrue +
                     " is not accepted (comma-separated levels, e.g. 2,1,2)");
    }
    for (uint32_t l : thetaLevels)
    {
        if (l >= levels)
        {
            support.Fail(fmt::format("--thetaTrue={} has level {} (accepted: 0 .. levels - 1 = {})",
                                     thetaTrue,
                                     l,
                                     levels - 1));
        }
    }
    if (discrete && std::pow(double(levels), double(thetaLevels.size())) > 1e6)
    {
        support.Fail(fmt::format("--levels={} with {} coordinates in --thetaTrue makes M = "
                                 "levels^D above 1e6 (accepted: M <= 1e6)",
                                 levels,
                                 thetaLevels.size()));
    }

    // W from a file or the example: its N sets the number of devices when --nDevices=0.
    D2dBeliefConsensusMatrix w;
    if (graph == "file")
    {
        try
        {
            w = D2dBeliefConsensusMatrix::FromCsv(wFile);
            w.Check();
        }
        catch (const std::exception& e)
        {
            support.Fail(std::string(e.what()).rfind("--wFile", 0) == 0
                             ? e.what()
                             : "--wFile=" + wFile + ": " + e.what());
        }
    }
    else if (graph == "example1")
    {
        w = D2dBeliefConsensusMatrix({{0.9, 0.1}, {0.6, 0.4}});
    }
    const uint32_t fixedN = (graph == "file" || graph == "example1") ? w.GetN() : 0;
    if (fixedN > 0 && net.nDevices == 0 && net.rssFile.empty())
    {
        net.nDevices = fixedN;
    }
    if (variational && !Given(argc, argv, "reliable"))
    {
        net.reliable = true; // a belief of tens of fragments rarely arrives whole otherwise
    }
    net.Validate(support, discrete ? 9 : (variational ? 5 : 2), 2);
    if (fixedN > 0 && net.nDevices != fixedN)
    {
        support.Fail(fmt::format("--nDevices={} does not match --graph={}, whose W is {} x {} "
                                 "(accepted: {} devices)",
                                 net.nDevices,
                                 graph,
                                 fixedN,
                                 fixedN,
                                 fixedN));
    }
    const uint32_t n = net.nDevices;
    if (discrete && n < thetaLevels.size())
    {
        support.Fail(fmt::format("--nDevices={} is below the {} coordinates of --thetaTrue: "
                                 "some coordinate would be observed by no device (accepted: "
                                 "nDevices >= {})",
                                 n,
                                 thetaLevels.size(),
                                 thetaLevels.size()));
    }
    if (graph == "ring" || graph == "complete")
    {
        std::vector<std::vector<bool>> a(n, std::vector<bool>(n, graph == "complete"));
        for (uint32_t i = 0; graph == "ring" && i < n; ++i)
        {
            a[i][(i + 1) % n] = a[(i + 1) % n][i] = true;
        }
        w = D2dBeliefConsensusMatrix::FromGraph(a, weights);
    }
    if (graph != "range")
    {
        try
        {
            w.Check();
        }
        catch (const std::exception& e)
        {
            support.Fail("--graph=" + graph + ": " + e.what());
        }
    }
    // variational: Fashion-MNIST loaded and split before any output exists (a missing or
    // corrupt file is bad input).
    Ptr<D2dVariationalLearner> vlearner;
    if (variational)
    {
        std::shared_ptr<D2dDataset> train;
        std::shared_ptr<D2dDataset> test;
        std::vector<D2dShard> shards;
        try
        {
            train = D2dFashionMnist::Load(dataDir, "train", dataFraction, net.seed);
            test = D2dFashionMnist::Load(dataDir, "test", dataFraction, net.seed + 1);
            if (train->Size() < 10 * n)
            {
                support.Fail(fmt::format("--dataFraction={} leaves {} training samples for "
                                         "{} devices (accepted: at least 10 per device)",
                                         dataFraction,
                                         train->Size(),
                                         n));
            }
            shards = D2dPartitioner::LabelsPerDevice(*train, n, classesPerDevice, {}, net.seed);
        }
        catch (const std::exception& e)
        {
            support.Fail(std::string("--") + e.what());
        }
        if (shards.empty() || shards[0].indices.empty())
        {
            support.Fail(fmt::format("--dataFraction={} with --classesPerDevice={} leaves no "
                                     "samples per device (accepted: a larger dataFraction)",
                                     dataFraction,
                                     classesPerDevice));
        }
        D2dTorchRuntime::SetWorkers(threads);
        D2dTorchRuntime::Seed(net.seed);
        D2dVariationalConfig config;
        config.spec = spec;
        config.localSteps = localSteps;
        config.batchSize = batchSize;
        config.mcSamples = mcSamples;
        config.learningRate = learningRate;
        config.priorVariance = priorVariance;
        config.initialSigma = initialSigma;
        vlearner = Create<D2dVariationalLearner>(config, train, shards, test, net.seed);
    }
    support.SetQuiet(net.quiet);
    std::unique_ptr<D2dTraceHelper> traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, false);
    if (graph == "range")
    {
        // Devices within rangeM of each other are neighbours (positions at the start).
        std::vector<std::vector<bool>> a(n, std::vector<bool>(n, false));
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                a[i][j] = i != j && network.channel->GetDistanceM(i, j) <= rangeM;
            }
        }
        w = D2dBeliefConsensusMatrix::FromGraph(a, weights);
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
    }
    net.Record(*traces, network);

    // The learner and the protocol.
    Ptr<D2dBeliefLearner> learner;
    Ptr<D2dCoordinateBeliefLearner> coordinate;
    if (discrete)
    {
        coordinate = Create<D2dCoordinateBeliefLearner>(n, levels, thetaLevels, coinEps);
        learner = coordinate;
    }
    else if (variational)
    {
        std::vector<Ptr<D2dComputeModel>> compute;
        Time longest;
        for (uint32_t i = 0; i < n; ++i)
        {
            compute.push_back(D2dHelper::GetComputeModel(network.devices.Get(i)));
            longest =
                std::max(longest, compute.back()->GetJobDuration(vlearner->GetLocalUpdateFlops(i)));
        }
        if (longest >= stepInterval)
        {
            traces.reset(); // deletes the temporary files (Fail exits without unwinding)
            Simulator::Destroy();
            support.Fail(fmt::format("--stepInterval={}s is not longer than a local update's "
                                     "modelled training time, {}s (accepted: stepInterval > "
                                     "{}s, or fewer --localSteps / a smaller --model)",
                                     stepInterval.GetSeconds(),
                                     longest.GetSeconds(),
                                     longest.GetSeconds()));
        }
        vlearner->SetComputeModels(compute);
        learner = vlearner;
    }
    else
    {
        learner = Create<D2dGaussianLinearLearner>(n, nTest);
    }
    int64_t stream = network.nextStream;
    stream += learner->AssignStreams(stream);

    const std::vector<Ptr<D2dTransport>> transports = network.channel->GetTransports();
    auto protocol = CreateObject<D2dBeliefConsensus>();
    protocol->SetAttribute("Steps", UintegerValue(steps));
    protocol->SetAttribute("StepInterval", TimeValue(stepInterval));
    protocol->SetAttribute("LossRule",
                           EnumValue(lossRule == "reuse" ? D2dBeliefConsensus::REUSE
                                                         : D2dBeliefConsensus::RENORMALIZE));
    protocol->SetAttribute("Cooperation",
                           EnumValue(cooperation == "network"    ? D2dBeliefConsensus::NETWORK
                                     : cooperation == "isolated" ? D2dBeliefConsensus::ISOLATED
                                                                 : D2dBeliefConsensus::CENTRAL));
    protocol->SetAttribute("Broadcast", BooleanValue(broadcast));
    protocol->SetAttribute("Reliable", BooleanValue(network.mode == D2dDeliveryMode::RELIABLE));
    protocol->SetLearner(learner);
    protocol->SetMatrix(w);
    protocol->SetTransports(transports);

    // Traces: beliefs.csv and rounds.csv after every step (variational: with node -1 means),
    // consensus.csv per (step, node).
    D2dBeliefTraceWriter beliefTraces(*traces);
    beliefTraces.Connect(protocol, learner, transports, variational);

    // run.json: this scenario's parameters and the quantities of Theorem 1.
    traces->AddCommandLine(argc, argv);
    traces->AddParameter("mode", mode);
    traces->AddParameter("cooperation", cooperation);
    traces->AddParameter("steps", steps);
    traces->AddParameter("stepInterval_s", stepInterval.GetSeconds());
    traces->AddParameter("lossRule", lossRule);
    traces->AddParameter("graph", graph);
    traces->AddParameter("wFile", wFile);
    traces->AddParameter("weights", weights);
    traces->AddParameter("broadcast", broadcast);
    traces->AddParameter("beliefBytes",
                         uint64_t(learner->GetNValues()) * learner->GetBytesPerValue());
    traces->AddParameterJson("W", w.ToJson());
    const double lambdaMax = w.LambdaMax();
    const auto v = w.StationaryDistribution();
    traces->AddParameter("lambda_max", lambdaMax);
    traces->AddParameterArray("stationary_distribution", v);
    if (discrete)
    {
        traces->AddParameter("levels", levels);
        traces->AddParameter("thetaTrue", thetaTrue);
        traces->AddParameter("thetaTrueIndex", coordinate->GetTrueIndex());
        traces->AddParameter("M", coordinate->GetM());
        traces->AddParameter("coinEps", coinEps);
        traces->AddParameter("delta", delta);
        const double k = coordinate->ComputeK(v);
        traces->AddParameter("theorem1_K", k);
        traces->AddParameter("theorem1_C", coordinate->GetC());
        traces->AddParameter("theorem1_bound",
                             D2dBeliefConsensusMatrix::Theorem1Bound(n,
                                                                     coordinate->GetM(),
                                                                     lambdaMax,
                                                                     k,
                                                                     coordinate->GetC(),
                                                                     delta));
    }
    else if (variational)
    {
        traces->AddParameter("model", spec.ToString());
        traces->AddParameter("dataDir", dataDir);
        traces->AddParameter("dataFraction", dataFraction);
        traces->AddParameter("classesPerDevice", classesPerDevice);
        traces->AddParameter("localSteps", localSteps);
        traces->AddParameter("batchSize", batchSize);
        traces->AddParameter("mcSamples", mcSamples);
        traces->AddParameter("learningRate", learningRate);
        traces->AddParameter("priorVariance", priorVariance);
        traces->AddParameter("initialSigma", initialSigma);
        traces->AddParameter("threads", threads);
        traces->AddParameter("parameters", vlearner->GetNParameters());
        traces->AddParameter("localUpdateFlops", vlearner->GetLocalUpdateFlops(0));
        // Gaussian posteriors over a network's weights: Theorem 1 does not apply.
        traces->AddParameterJson("theorem1_bound", "null");
    }
    else
    {
        traces->AddParameter("nTest", nTest);
        // Gaussian likelihoods are unbounded (Remark 2): Theorem 1 does not apply.
        traces->AddParameterJson("theorem1_bound", "null");
    }
    traces->AddAttributes(protocol);

    protocol->Start();
    const Time duration = protocol->GetDuration();
    support.StartProgress(duration / 10, duration);
    Simulator::Stop(duration + NanoSeconds(1));
    Simulator::Run();
    traces->AddParameter("missedLocalUpdates", protocol->GetMissedUpdates());
    support.FinishTraces(traces, net.seed);
    if (!net.quiet)
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
                     net.outDir.c_str());
    }
    protocol->Dispose();
    Simulator::Destroy();
    return 0;
}
