/*
 * d2dlearn scenario: federated and decentralized learning over D2D and D2S links.
 *
 * N devices, each with a LibTorch learner and a shard of Fashion-MNIST (or a Gaussian
 * mixture), learn together with one of:
 *   fedavg, fedprox, fedsgd    a server over the device-to-server link (seed 001 Background;
 *                              seed 002 VI-D)
 *   decentralized              devices average models with random D2D neighbours (002 VI-E)
 *   semi-decentralized         groups average over D2D, a server aggregates one device per
 *                              group over D2S and broadcasts (seed 002 VI-E)
 *   local                      no collaboration (the floor)
 * Training takes simulated time and energy on each device's compute model; every model
 * crosses the simulated channel with its true size. Writes rounds.csv, messages.csv,
 * energy.csv and run.json into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-local-training.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-semi-decentralized-fl.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2dlearn-module.h"

#include <cmath>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FedAvgScenario");

namespace
{
/** \return comma-separated numbers */
std::vector<double>
ParseList(const std::string& text)
{
    std::vector<double> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        std::size_t used = 0;
        out.push_back(std::stod(item, &used));
        if (used != item.size())
        {
            throw std::invalid_argument(item);
        }
    }
    return out;
}

/** \return k distinct device indices drawn with the run's seed (ascending) */
std::vector<uint32_t>
PickDevices(uint32_t n, uint32_t k, Ptr<UniformRandomVariable> rng)
{
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    D2dFlProtocol::PartialShuffle(order, k, rng);
    order.resize(k);
    std::sort(order.begin(), order.end());
    return order;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string algorithm = "fedavg";      // fedavg | fedprox | fedsgd | decentralized |
                                           // semi-decentralized | local
    uint32_t rounds = 20;                  // communication rounds
    uint32_t localEpochs = 1;              // epochs over the shard per local job
    uint64_t localSteps = 0;               // > 0: mini-batch steps per local job instead
    uint32_t batchSize = 32;               // samples per mini-batch
    double learningRate = 0.05;            // local learning rate
    std::string optimizer = "sgd";         // sgd | adam
    std::string model = "mlp";             // linear | logistic | mlp[:WxW] | cnn[:C1xC2]
    std::string dataset = "fashion-mnist"; // fashion-mnist | gaussian-mixture
    std::string dataDir = D2dFashionMnist::DefaultDir(); // Fashion-MNIST idx .gz files
    double dataFraction = 0.25;                          // fraction of the train and test sets used
    std::string partition = "iid";                       // iid | dirichlet | labels | quantity
    double alpha = 0.5;                                  // Dirichlet concentration
    uint32_t labelsPerDevice = 3;                        // labels partition: classes per device
    std::string labelProportions = "0.7,0.2,0.1";        // labels partition (seed 002 App. C)
    double quantitySkew = 1.0;                           // quantity partition: skew of the size law
    uint32_t flipDevices = 0;            // devices whose labels are flipped (low quality)
    double clientFraction = 1.0;         // FedAvg family: fraction C sampled per round
    double mu = 0.01;                    // FedProx proximal coefficient
    double globalLearningRate = 1.0;     // server step eta (FedSGD: 0 = use learningRate)
    Time roundDeadline = Seconds(60);    // round (phase) deadline; 0 = wait for everything
    std::string compression = "float32"; // model values on the air: float32 | float16
    uint32_t stragglers = 0;             // devices slowed down by stragglerSlowdown
    double stragglerSlowdown = 10.0;     // compute slow-down factor of a straggler
    uint32_t neighbours = 7;             // decentralized: in-neighbours per round
    uint32_t groupSize = 5;              // semi-decentralized: devices per group
    uint32_t stepsPerExchange = 2;       // semi-decentralized: local steps between exchanges
    uint32_t exchangesPerRound = 4;      // semi-decentralized: group exchanges per global round
    bool evaluateDevices = true;         // decentralized/local: each device's accuracy per round
    uint32_t threads = 2;                // LibTorch worker threads (0: train inline)
    Time maxSimTime = Seconds(1e7);      // safety stop of the simulation

    D2dNetworkOptions net("results/fedavg");
    net.reliable = true;      // models are useless with a missing fragment: retransmit
    net.areaSideM = 50.0;     // a room-sized cluster of devices, m
    net.d2sTxPowerDbm = 30.0; // the device-to-server uplink/downlink, dBm

    D2dScenarioSupport support("fedavg");
    std::vector<D2dScenarioSupport::Param> params{
        {"algorithm", 's'},
        {"rounds", 'u', {"ns3::D2dFlProtocol::Rounds"}},
        {"localEpochs", 'u', {"ns3::D2dFlProtocol::LocalEpochs"}},
        {"localSteps", 'U', {"ns3::D2dFlProtocol::LocalSteps"}},
        {"batchSize", 'u', {"ns3::D2dLearner::BatchSize"}},
        {"learningRate", 'd', {"ns3::D2dLearner::LearningRate"}},
        {"optimizer", 's', {"ns3::D2dLearner::Optimizer"}},
        {"model", 's'},
        {"dataset", 's'},
        {"dataDir", 's'},
        {"dataFraction", 'd'},
        {"partition", 's'},
        {"alpha", 'd'},
        {"labelsPerDevice", 'u'},
        {"labelProportions", 's'},
        {"quantitySkew", 'd'},
        {"flipDevices", 'u'},
        {"clientFraction", 'd', {"ns3::D2dFedAvg::ClientFraction"}},
        {"mu", 'd', {"ns3::D2dFedAvg::ProximalMu"}},
        {"globalLearningRate", 'd', {"ns3::D2dFedAvg::GlobalLearningRate"}},
        {"roundDeadline", 't', {"ns3::D2dFlProtocol::RoundDeadline"}},
        {"compression", 's', {"ns3::D2dFlProtocol::Compression"}},
        {"stragglers", 'u'},
        {"stragglerSlowdown", 'd'},
        {"neighbours", 'u', {"ns3::D2dDecentralizedFl::Neighbours"}},
        {"groupSize", 'u', {"ns3::D2dSemiDecentralizedFl::GroupSize"}},
        {"stepsPerExchange", 'u', {"ns3::D2dSemiDecentralizedFl::StepsPerExchange"}},
        {"exchangesPerRound", 'u', {"ns3::D2dSemiDecentralizedFl::ExchangesPerRound"}},
        {"evaluateDevices", 'b', {"ns3::D2dFlProtocol::EvaluateDevices"}},
        {"threads", 'u'},
        {"maxSimTime", 't'}};
    for (auto& p : net.GetParams())
    {
        params.push_back(p);
    }
    support.CheckArguments(argc, argv, params);

    CommandLine cmd(__FILE__);
    cmd.AddValue("algorithm",
                 "fedavg, fedprox, fedsgd, decentralized, semi-decentralized or local",
                 algorithm);
    cmd.AddValue("rounds", "Communication rounds", rounds);
    cmd.AddValue("localEpochs", "Local epochs per round", localEpochs);
    cmd.AddValue("localSteps", "Local mini-batch steps per round (0: localEpochs)", localSteps);
    cmd.AddValue("batchSize", "Mini-batch size, samples", batchSize);
    cmd.AddValue("learningRate", "Local learning rate", learningRate);
    cmd.AddValue("optimizer", "Local optimizer: sgd or adam", optimizer);
    cmd.AddValue("model", "linear, logistic, mlp[:WxW..], cnn[:C1xC2]", model);
    cmd.AddValue("dataset", "fashion-mnist or gaussian-mixture", dataset);
    cmd.AddValue("dataDir", "Folder of the Fashion-MNIST idx .gz files", dataDir);
    cmd.AddValue("dataFraction", "Fraction of the train and test sets used", dataFraction);
    cmd.AddValue("partition", "iid, dirichlet, labels or quantity", partition);
    cmd.AddValue("alpha", "Dirichlet concentration", alpha);
    cmd.AddValue("labelsPerDevice", "labels partition: classes per device", labelsPerDevice);
    cmd.AddValue("labelProportions",
                 "labels partition: shares of a device's classes, comma-separated "
                 "(empty: equal)",
                 labelProportions);
    cmd.AddValue("quantitySkew", "quantity partition: skew of the shard sizes", quantitySkew);
    cmd.AddValue("flipDevices", "Devices with flipped labels (low quality)", flipDevices);
    cmd.AddValue("clientFraction", "FedAvg family: fraction of devices per round", clientFraction);
    cmd.AddValue("mu", "FedProx proximal coefficient", mu);
    cmd.AddValue("globalLearningRate",
                 "Server step eta (fedsgd: 0 means learningRate)",
                 globalLearningRate);
    cmd.AddValue("roundDeadline", "Round (phase) deadline (0: none)", roundDeadline);
    cmd.AddValue("compression", "Model values on the air: float32 or float16", compression);
    cmd.AddValue("stragglers", "Devices slowed down by stragglerSlowdown", stragglers);
    cmd.AddValue("stragglerSlowdown", "Compute slow-down of a straggler", stragglerSlowdown);
    cmd.AddValue("neighbours", "decentralized: neighbours per round", neighbours);
    cmd.AddValue("groupSize", "semi-decentralized: devices per group", groupSize);
    cmd.AddValue("stepsPerExchange",
                 "semi-decentralized: local steps between group exchanges",
                 stepsPerExchange);
    cmd.AddValue("exchangesPerRound",
                 "semi-decentralized: group exchanges per global aggregation",
                 exchangesPerRound);
    cmd.AddValue("evaluateDevices",
                 "decentralized/local: every device's test accuracy per round",
                 evaluateDevices);
    cmd.AddValue("threads", "LibTorch worker threads (0: inline)", threads);
    cmd.AddValue("maxSimTime", "Stop the simulation at this time at the latest", maxSimTime);
    net.AddValues(cmd);
    cmd.Parse(argc, argv);

    // Validation: one line naming the parameter and the accepted range, before simulating.
    const std::vector<std::string> algorithms{"fedavg",
                                              "fedprox",
                                              "fedsgd",
                                              "decentralized",
                                              "semi-decentralized",
                                              "local"};
    if (std::find(algorithms.begin(), algorithms.end(), algorithm) == algorithms.end())
    {
        support.Fail("--algorithm=" + algorithm +
                     " is not accepted (fedavg, fedprox, fedsgd, decentralized, "
                     "semi-decentralized or local)");
    }
    const bool server = algorithm == "fedavg" || algorithm == "fedprox" || algorithm == "fedsgd" ||
                        algorithm == "semi-decentralized";
    support.CheckRange("rounds", rounds, 1, 1e6);
    support.CheckRange("localEpochs", localEpochs, 1, 1e4);
    support.CheckRange("localSteps", static_cast<double>(localSteps), 0, 1e9);
    support.CheckRange("batchSize", batchSize, 1, 1e6);
    support.CheckRange("learningRate", learningRate, 0, 1e3);
    if (optimizer != "sgd" && optimizer != "adam")
    {
        support.Fail("--optimizer=" + optimizer + " is not accepted (sgd or adam)");
    }
    std::vector<D2dModelSpec> specs;
    {
        std::stringstream in(model);
        std::string item;
        while (std::getline(in, item, ','))
        {
            try
            {
                specs.push_back(D2dModelSpec::Parse(item));
            }
            catch (const std::exception& e)
            {
                support.Fail(std::string("--") + e.what());
            }
        }
        if (specs.empty())
        {
            support.Fail("--model is empty (linear, logistic, mlp[:WxW..], cnn[:C1xC2])");
        }
        if (specs.size() > 1 && algorithm != "local")
        {
            support.Fail("--model=" + model +
                         ": several architectures (assigned round-robin) need "
                         "--algorithm=local: the other algorithms average models");
        }
    }
    if (dataset != "fashion-mnist" && dataset != "gaussian-mixture")
    {
        support.Fail("--dataset=" + dataset +
                     " is not accepted (fashion-mnist or "
                     "gaussian-mixture)");
    }
    for (const auto& s : specs)
    {
        if (s.arch == "linear")
        {
            support.Fail("--model=linear is a regression model; the data sets here are "
                         "classification (logistic, mlp, cnn)");
        }
        if (s.arch == "cnn" && dataset != "fashion-mnist")
        {
            support.Fail("--model=cnn needs --dataset=fashion-mnist (images)");
        }
    }
    support.CheckRange("dataFraction", dataFraction, 1e-6, 1);
    const std::vector<std::string> partitions{"iid", "dirichlet", "labels", "quantity"};
    if (std::find(partitions.begin(), partitions.end(), partition) == partitions.end())
    {
        support.Fail("--partition=" + partition +
                     " is not accepted (iid, dirichlet, labels or quantity)");
    }
    support.CheckRange("alpha", alpha, 1e-6, 1e6);
    support.CheckRange("labelsPerDevice", labelsPerDevice, 1, 10);
    std::vector<double> proportions;
    try
    {
        proportions =
            labelProportions.empty() ? std::vector<double>{} : ParseList(labelProportions);
    }
    catch (const std::exception&)
    {
        support.Fail("--labelProportions=" + labelProportions +
                     " is not a comma-separated list of numbers");
    }
    if (partition == "labels" && !proportions.empty() && proportions.size() != labelsPerDevice)
    {
        if (labelProportions == "0.7,0.2,0.1")
        {
            proportions.clear(); // the default belongs to 3 labels: other counts share equally
        }
        else
        {
            support.Fail(fmt::format("--labelProportions has {} values for "
                                     "--labelsPerDevice={} (accepted: {} values summing to 1, "
                                     "or empty for equal shares)",
                                     proportions.size(),
                                     labelsPerDevice,
                                     labelsPerDevice));
        }
    }
    if (!proportions.empty())
    {
        double sum = 0;
        for (auto x : proportions)
        {
            sum += x;
            if (!(x >= 0))
            {
                support.Fail("--labelProportions=" + labelProportions +
                             " has a negative share (accepted: shares >= 0 summing to 1)");
            }
        }
        if (std::fabs(sum - 1) > 1e-6)
        {
            support.Fail(fmt::format("--labelProportions={} sums to {} (accepted: shares >= 0 "
                                     "summing to 1)",
                                     labelProportions,
                                     sum));
        }
    }
    support.CheckRange("quantitySkew", quantitySkew, 0, 100);
    support.CheckRange("clientFraction", clientFraction, 1e-9, 1);
    support.CheckRange("mu", mu, 0, 1e6);
    support.CheckRange("globalLearningRate", globalLearningRate, 0, 1e6);
    if (roundDeadline.IsNegative())
    {
        support.Fail("--roundDeadline=" + std::to_string(roundDeadline.GetSeconds()) +
                     "s is negative (accepted: 0 = none, or a positive time)");
    }
    if (compression != "float32" && compression != "float16")
    {
        support.Fail("--compression=" + compression + " is not accepted (float32 or float16)");
    }
    support.CheckRange("stragglerSlowdown", stragglerSlowdown, 1, 1e9);
    support.CheckRange("neighbours", neighbours, 1, 1e5);
    support.CheckRange("groupSize", groupSize, 1, 1e5);
    support.CheckRange("stepsPerExchange", stepsPerExchange, 1, 1e6);
    support.CheckRange("exchangesPerRound", exchangesPerRound, 1, 1e6);
    support.CheckRange("threads", threads, 0, 256);
    support.CheckPositiveTime("maxSimTime", maxSimTime, Seconds(1e12));
    net.Validate(support, 10, algorithm == "local" ? 1 : 2);
    const uint32_t nDevices = net.nDevices;
    support.CheckRange("stragglers", stragglers, 0, nDevices);
    support.CheckRange("flipDevices", flipDevices, 0, nDevices);
    support.SetQuiet(net.quiet);

    // Data: loaded and split before any output exists (a corrupt file is bad input).
    std::shared_ptr<D2dDataset> train;
    std::shared_ptr<D2dDataset> test;
    std::vector<D2dShard> shards;
    try
    {
        if (dataset == "fashion-mnist")
        {
            train = D2dFashionMnist::Load(dataDir, "train", dataFraction, net.seed);
            test = D2dFashionMnist::Load(dataDir, "test", dataFraction, net.seed + 1);
        }
        else
        {
            // Seed 000 sec. 5.1: four classes in 2-D, unit variance.
            const auto n = static_cast<std::size_t>(std::max(1.0, 20000 * dataFraction));
            const auto means = D2dSyntheticData::PaperGaussianMeans();
            train = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n, net.seed);
            test = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n / 4 + 1, net.seed + 1);
        }
        if (train->Size() < nDevices)
        {
            support.Fail(fmt::format("--dataFraction={} leaves {} training samples for {} "
                                     "devices (accepted: at least one sample per device)",
                                     dataFraction,
                                     train->Size(),
                                     nDevices));
        }
        if (partition == "iid")
        {
            shards = D2dPartitioner::Iid(*train, nDevices, net.seed);
        }
        else if (partition == "dirichlet")
        {
            shards = D2dPartitioner::Dirichlet(*train, nDevices, alpha, net.seed);
        }
        else if (partition == "labels")
        {
            shards = D2dPartitioner::LabelsPerDevice(*train,
                                                     nDevices,
                                                     labelsPerDevice,
                                                     proportions,
                                                     net.seed);
        }
        else
        {
            shards = D2dPartitioner::QuantitySkew(*train, nDevices, quantitySkew, net.seed);
        }
    }
    catch (const std::exception& e)
    {
        support.Fail(std::string("--") + e.what());
    }

    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, server);
    int64_t stream = network.nextStream;
    auto pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(stream++);
    const auto flipped = PickDevices(nDevices, flipDevices, pick);
    if (!flipped.empty())
    {
        D2dPartitioner::FlipLabels(shards, flipped, train->numClasses, net.seed);
    }
    const auto slow = PickDevices(nDevices, stragglers, pick);
    for (auto i : slow)
    {
        D2dHelper::GetComputeModel(network.devices.Get(i))
            ->SetAttribute("SlowdownFactor", DoubleValue(stragglerSlowdown));
    }

    // Learners: one per device, seeded from the run seed and the device id.
    D2dTorchRuntime::SetWorkers(threads);
    D2dTorchRuntime::Seed(net.seed);
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        auto learner = CreateObject<D2dLearner>();
        learner->SetAttribute("LearningRate", DoubleValue(learningRate));
        learner->SetAttribute("BatchSize", UintegerValue(batchSize));
        learner->SetAttribute("Optimizer", StringValue(optimizer));
        learner->Setup(i, specs[i % specs.size()], train, shards[i], net.seed);
        learner->SetComputeModel(D2dHelper::GetComputeModel(network.devices.Get(i)));
        learners.push_back(learner);
    }

    // The protocol.
    Ptr<D2dFlProtocol> protocol;
    if (algorithm == "fedavg" || algorithm == "fedprox" || algorithm == "fedsgd")
    {
        auto fl = CreateObjectWithAttributes<D2dFedAvg>(
            "Variant",
            StringValue(algorithm),
            "ClientFraction",
            DoubleValue(clientFraction),
            "ProximalMu",
            DoubleValue(mu),
            "GlobalLearningRate",
            DoubleValue(algorithm == "fedsgd" && globalLearningRate == 0 ? learningRate
                                                                         : globalLearningRate),
            "Compression",
            StringValue(compression));
        fl->SetLearners(learners);
        fl->SetD2sChannel(network.d2s, network.mode);
        stream += fl->AssignStreams(stream);
        protocol = fl;
    }
    else if (algorithm == "decentralized")
    {
        auto fl = CreateObjectWithAttributes<D2dDecentralizedFl>(
            "Neighbours",
            UintegerValue(std::min(neighbours, nDevices - 1)),
            "Compression",
            StringValue(compression));
        fl->SetLearners(learners);
        fl->SetChannel(network.channel, network.mode);
        stream += fl->AssignStreams(stream);
        protocol = fl;
    }
    else if (algorithm == "semi-decentralized")
    {
        auto fl =
            CreateObjectWithAttributes<D2dSemiDecentralizedFl>("GroupSize",
                                                               UintegerValue(groupSize),
                                                               "StepsPerExchange",
                                                               UintegerValue(stepsPerExchange),
                                                               "ExchangesPerRound",
                                                               UintegerValue(exchangesPerRound),
                                                               "Compression",
                                                               StringValue(compression));
        fl->SetLearners(learners);
        fl->SetChannel(network.channel, network.mode);
        fl->SetD2sChannel(network.d2s, network.mode);
        stream += fl->AssignStreams(stream);
        protocol = fl;
    }
    else
    {
        auto fl = CreateObject<D2dLocalTraining>();
        fl->SetLearners(learners);
        protocol = fl;
    }
    protocol->SetAttribute("Rounds", UintegerValue(rounds));
    protocol->SetAttribute("LocalEpochs", UintegerValue(localEpochs));
    protocol->SetAttribute("LocalSteps", UintegerValue(localSteps));
    protocol->SetAttribute("RoundDeadline", TimeValue(roundDeadline));
    protocol->SetAttribute("EvaluateDevices", BooleanValue(evaluateDevices));
    protocol->SetTestSet(test);
    protocol->SetTraces(traces.get());
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    const bool quiet = net.quiet;
    protocol->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>(
            [&support, quiet, rounds](uint32_t round, double accuracy, double loss) {
                if (!quiet)
                {
                    std::fprintf(stderr,
                                 "fedavg: round %u/%u  sim %.3f s  accuracy %.4f  loss %.4f  "
                                 "wall %.1f s\n",
                                 round,
                                 rounds,
                                 Simulator::Now().GetSeconds(),
                                 accuracy,
                                 loss,
                                 support.WallSeconds());
                }
            }));

    // run.json: the command line, every parameter and the attributes in force.
    std::string commandLine;
    for (int i = 1; i < argc; ++i)
    {
        commandLine += (i > 1 ? " " : "") + std::string(argv[i]);
    }
    traces->AddParameter("commandLine", commandLine);
    traces->AddParameter("algorithm", algorithm);
    traces->AddParameter("rounds", rounds);
    traces->AddParameter("localEpochs", localEpochs);
    traces->AddParameter("localSteps", localSteps);
    traces->AddParameter("batchSize", batchSize);
    traces->AddParameter("learningRate", learningRate);
    traces->AddParameter("optimizer", optimizer);
    traces->AddParameter("model", model);
    traces->AddParameter("dataset", dataset);
    traces->AddParameter("dataDir", dataDir);
    traces->AddParameter("dataFraction", dataFraction);
    traces->AddParameter("trainSamples", static_cast<uint64_t>(train->Size()));
    traces->AddParameter("testSamples", static_cast<uint64_t>(test->Size()));
    traces->AddParameter("partition", partition);
    traces->AddParameter("alpha", alpha);
    traces->AddParameter("labelsPerDevice", labelsPerDevice);
    traces->AddParameter("labelProportions", labelProportions);
    traces->AddParameter("quantitySkew", quantitySkew);
    traces->AddParameter("flipDevices", flipDevices);
    traces->AddParameterArray("flippedDevices", flipped);
    traces->AddParameter("clientFraction", clientFraction);
    traces->AddParameter("mu", mu);
    traces->AddParameter("globalLearningRate", globalLearningRate);
    traces->AddParameter("roundDeadline_s", roundDeadline.GetSeconds());
    traces->AddParameter("compression", compression);
    traces->AddParameter("stragglers", stragglers);
    traces->AddParameterArray("stragglerDevices", slow);
    traces->AddParameter("stragglerSlowdown", stragglerSlowdown);
    traces->AddParameter("neighbours", neighbours);
    traces->AddParameter("groupSize", groupSize);
    traces->AddParameter("stepsPerExchange", stepsPerExchange);
    traces->AddParameter("exchangesPerRound", exchangesPerRound);
    traces->AddParameter("evaluateDevices", evaluateDevices);
    traces->AddParameter("threads", threads);
    traces->AddParameter("maxSimTime_s", maxSimTime.GetSeconds());
    traces->AddParameter("modelParameters", learners[0]->GetNParameters());
    traces->AddParameter("trainingFlopsPerSample", learners[0]->GetTrainingFlopsPerSample());
    net.Record(*traces, network);
    traces->AddAttributes(learners[0]);
    traces->AddAttributes(protocol);

    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Stop(maxSimTime);
    Simulator::Run();
    const uint32_t done = protocol->GetRoundsDone();
    try
    {
        traces->AddParameter("roundsCompleted", done);
        traces->AddParameter("finalAccuracy", protocol->GetLastAccuracy());
        traces->Finish(net.seed, support.WallSeconds());
    }
    catch (const std::exception& e)
    {
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        support.Fail(e.what());
    }
    if (!net.quiet)
    {
        std::fprintf(stderr,
                     "fedavg: %u rounds, final accuracy %.4f, %.3f s simulated, %.1f s wall; "
                     "traces in %s\n",
                     done,
                     protocol->GetLastAccuracy(),
                     Simulator::Now().GetSeconds(),
                     support.WallSeconds(),
                     net.outDir.c_str());
    }
    Simulator::Destroy();
    return 0;
}
