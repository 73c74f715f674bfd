/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-fl-decentralized": fully decentralized FL, semi-decentralized FL and
 * local training (fl/), with real LibTorch learners on the 4-class Gaussian mixture of
 * Fan et al. 2023, sec. 5.1 (and a Fashion-MNIST fraction), over a lossless channel
 * (NoisePowerW 1e-40: eq. 18's P_D ~ 0; reliable delivery).
 *
 * - averaging on a connected ring (LearningRate 0) follows the averaging matrix W exactly
 *   (independent computation) and the consensus distance shrinks at least as fast as
 *   lambda_2(W)^(2t);
 * - random 7-neighbour draws: 7 distinct neighbours each, sample-count weights, models as
 *   the independent computation of the averaging with the traced draws, the consensus
 *   distance shrinks by a stated factor;
 * - with learning, on one label per device, decentralized devices reach a stated accuracy
 *   while local training stays at the floor (a one-label model is right on 1/4 of the
 *   test set); decentralized FL on Fashion-MNIST reaches a stated accuracy;
 * - semi-decentralized: group members hold bit-identical group averages; after the
 *   global aggregation every device holds the same model, bit for bit, equal to the
 *   hand-computed N_g-weighted average of the chosen devices' models; message counts;
 * - local training: per-device rows, no message sent (messages.csv has only its header);
 * - a straggler (SlowdownFactor 1000) is left out at the deadline and every protocol
 *   completes all its rounds;
 * - the same seed gives identical rounds.csv and messages.csv.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-deferred-job.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-local-training.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-semi-decentralized-fl.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/enum.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** One run of one of the three protocols. */
struct Setup
{
    std::string protocol{"decentralized"}; //!< decentralized, semi, local
    uint32_t nDevices{8};
    uint32_t rounds{3};
    uint32_t localEpochs{1};
    double learningRate{0.1};
    bool commonInit{true};
    std::string weighting{"uniform"};
    uint32_t neighbours{7};
    std::vector<std::vector<uint32_t>> graph;
    /** decentralized: a graph per round through SetGraphSource() (the last one repeats) */
    std::vector<std::vector<std::vector<uint32_t>>> graphs;
    std::string partition{"iid"}; //!< iid, labels1, quantity
    bool fashion{false};
    std::string model{"mlp:16"};
    std::map<uint32_t, double> slowdown; //!< device -> SlowdownFactor
    std::map<uint32_t, double> energyJ;  //!< device -> initial battery energy, J
    Time deadline{Seconds(0)};
    double flopsPerSecond{1e10};
    double noiseW{1e-40}; //!< eq. 18's sigma^2 (1e-40: P_D ~ 0)
    D2dDeliveryMode mode{D2dDeliveryMode::RELIABLE};
    std::string outDir;       //!< traces (empty: none)
    bool deferTraining{true}; //!< decentralized: D2dDecentralizedFl::DeferTraining
    bool float16{false};      //!< models on the air as float16 (Compression)
};

/** What a run showed. */
struct DecentralizedOutcome
{
    std::vector<std::vector<float>> initial;             //!< per device, before Start
    std::vector<std::vector<std::vector<float>>> params; //!< [round-1][device] at RoundEnd
    std::vector<double> endTimes;                        //!< RoundEnd times, s
    std::vector<std::map<uint32_t, std::vector<uint32_t>>> contributors; //!< [round-1]
    std::vector<double> samples;                                         //!< n_k
    uint64_t d2dSends{0};
    uint64_t d2sSends{0};
    std::vector<double> deviceAccuracy; //!< final, per device (-1: still training)
    uint32_t roundsDone{0};
    std::vector<std::vector<float>> global;      //!< semi: w^t per round
    std::vector<std::vector<uint32_t>> selected; //!< semi: chosen per round
    /** semi: at the selection, every device's model */
    std::vector<std::vector<std::vector<float>>> atSelection;
    /** semi: at the selection, each device's model after its last local job */
    std::vector<std::map<uint32_t, std::vector<float>>> trainedAtSelection;
    std::vector<bool> trainingAtEnd;
    std::vector<bool> radioOffAtEnd;
    std::vector<std::vector<uint32_t>> groups;
    uint64_t peakResident{0}; //!< D2dDeferredJob::GetPeakResident over the run
    std::string rounds;       //!< rounds.csv (with outDir)
    std::string messages;     //!< messages.csv (with outDir)
};

/**
 * \brief The run's network: the D2D channel of devices 10 m apart (and, semi, the server's
 * D2S channel), the run's noise, compute and batteries.
 * \param s the run
 * \param nodes the devices' nodes
 * \param d2d the helper to install with
 * \param d2s set to the D2S channel (semi), left null otherwise
 * \return the D2D channel
 */
Ptr<D2dChannel>
InstallNetwork(const Setup& s, const NodeContainer& nodes, D2dHelper& d2d, Ptr<D2dChannel>& d2s)
{
    ConfigureTestProtocolHelper(d2d, s.noiseW, s.flopsPerSecond);
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    if (s.protocol == "semi")
    {
        d2s = d2d.InstallServer(CreateObject<Node>(), nodes, 3.0);
    }
    d2d.AssignStreams(10);
    SetTestBatteries(nodes, s.energyJ);
    return channel;
}

/**
 * \param s the run (its partition and devices)
 * \param train the training set
 * \return every device's shard
 */
std::vector<D2dShard>
MakeShards(const Setup& s, const D2dDataset& train)
{
    if (s.partition == "iid")
    {
        return D2dPartitioner::Iid(train, s.nDevices, 7);
    }
    if (s.partition == "labels1")
    {
        return D2dPartitioner::LabelsPerDevice(train, s.nDevices, 1, {}, 7);
    }
    return D2dPartitioner::QuantitySkew(train, s.nDevices, 1.0, 7);
}

/**
 * \brief Fully decentralized FL on the run's learners, its averages recorded.
 * \param s the run
 * \param learners the learners
 * \param channel the D2D channel
 * \param out the outcome whose contributors fill
 * \return the protocol
 */
Ptr<D2dDecentralizedFl>
MakeDecentralized(const Setup& s,
                  const std::vector<Ptr<D2dLearner>>& learners,
                  Ptr<D2dChannel> channel,
                  DecentralizedOutcome& out)
{
    auto dec = CreateObjectWithAttributes<D2dDecentralizedFl>("Neighbours",
                                                              UintegerValue(s.neighbours),
                                                              "Weighting",
                                                              StringValue(s.weighting),
                                                              "CommonInitialModel",
                                                              BooleanValue(s.commonInit),
                                                              "DeferTraining",
                                                              BooleanValue(s.deferTraining));
    dec->SetLearners(learners);
    dec->SetTransports(channel->GetTransports(), s.mode);
    if (!s.graph.empty())
    {
        dec->SetGraph(s.graph);
    }
    if (!s.graphs.empty())
    {
        auto asked = std::make_shared<uint32_t>(0);
        const auto graphs = s.graphs;
        dec->SetGraphSource(Callback<std::vector<std::vector<uint32_t>>>([asked, graphs]() {
            return graphs[std::min<std::size_t>((*asked)++, graphs.size() - 1)];
        }));
    }
    dec->AssignStreams(100);
    dec->TraceConnectWithoutContext(
        "Averaged",
        Callback<void, uint32_t, uint32_t, const std::vector<uint32_t>&>(
            [&out](uint32_t round, uint32_t device, const std::vector<uint32_t>& c) {
                if (out.contributors.size() < round)
                {
                    out.contributors.resize(round);
                }
                out.contributors[round - 1][device] = c;
            }));
    return dec;
}

/**
 * \brief Semi-decentralized FL on the run's learners, its selections recorded.
 * \param learners the learners (they must outlive the run)
 * \param channel the D2D channel
 * \param d2s the D2S channel
 * \param lastTrained device -> its model after its last local job (must outlive the run)
 * \param out the outcome whose selected, atSelection and trainedAtSelection fill
 * \return the protocol
 */
Ptr<D2dSemiDecentralizedFl>
MakeSemi(const std::vector<Ptr<D2dLearner>>& learners,
         Ptr<D2dChannel> channel,
         Ptr<D2dChannel> d2s,
         const std::map<uint32_t, std::vector<float>>& lastTrained,
         DecentralizedOutcome& out)
{
    auto semi = CreateObject<D2dSemiDecentralizedFl>();
    semi->SetLearners(learners);
    semi->SetTransports(channel->GetTransports(), D2dDeliveryMode::RELIABLE);
    semi->SetD2sTransports(d2s->GetTransports(), D2dDeliveryMode::RELIABLE);
    semi->AssignStreams(100);
    semi->TraceConnectWithoutContext(
        "Selected",
        Callback<void, uint32_t, const std::vector<uint32_t>&>(
            [&out, &learners, &lastTrained](uint32_t, const std::vector<uint32_t>& c) {
                out.selected.push_back(c);
                out.atSelection.push_back(TestModelsNow(learners));
                out.trainedAtSelection.push_back(lastTrained);
            }));
    return semi;
}

DecentralizedOutcome
RunProtocol(const Setup& s)
{
    // Fashion-MNIST, 10 % of each split, or the Gaussian mixture of Fan et al. 2023,
    // sec. 5.1 (4 classes in 2-D, sd 1).
    const D2dTestData& data =
        s.fashion ? FashionTestData(0.1) : GaussianTestData(11, 12, 2000, 1000);
    NodeContainer nodes = MakeTestNodesOnLine(s.nDevices, 10.0);
    D2dHelper d2d;
    Ptr<D2dChannel> d2s;
    Ptr<D2dChannel> channel = InstallNetwork(s, nodes, d2d, d2s);
    std::unique_ptr<D2dTraceHelper> traces;
    if (!s.outDir.empty())
    {
        traces = std::make_unique<D2dTraceHelper>(s.outDir);
        traces->ConnectChannel(channel);
    }

    const std::vector<D2dShard> shards = MakeShards(s, *data.train);
    const D2dModelSpec spec = D2dModelSpec::Parse(s.model);
    DecentralizedOutcome out;
    std::map<uint32_t, std::vector<float>> lastTrained;
    D2dTestLearners made =
        MakeTestLearners(nodes, spec, data.train, shards, 3, s.learningRate, s.slowdown);
    const std::vector<Ptr<D2dLearner>>& learners = made.learners;
    out.samples = made.samples;
    out.initial = made.initial;
    for (const auto& l : learners)
    {
        l->TraceConnectWithoutContext(
            "TrainingDone",
            Callback<void, uint32_t, Time, Time, const D2dTrainResult&>(
                [&lastTrained, l](uint32_t id, Time, Time, const D2dTrainResult&) {
                    lastTrained[id] = l->GetParameters();
                }));
    }
    auto countSends = [](uint64_t* counter) {
        return Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
            [counter](uint64_t, Ptr<const D2dMessage>, uint32_t) { ++*counter; });
    };
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        channel->GetRadio(i)->TraceConnectWithoutContext("Send", countSends(&out.d2dSends));
    }
    if (d2s)
    {
        for (uint32_t i = 0; i <= s.nDevices; ++i)
        {
            d2s->GetRadio(i)->TraceConnectWithoutContext("Send", countSends(&out.d2sSends));
        }
    }

    Ptr<D2dFlProtocol> fl;
    Ptr<D2dSemiDecentralizedFl> semi;
    if (s.protocol == "decentralized")
    {
        fl = MakeDecentralized(s, learners, channel, out);
    }
    else if (s.protocol == "semi")
    {
        semi = MakeSemi(learners, channel, d2s, lastTrained, out);
        fl = semi;
    }
    else
    {
        fl = CreateObjectWithAttributes<D2dLocalTraining>("CommonInitialModel",
                                                          BooleanValue(s.commonInit));
        fl->SetLearners(learners);
    }
    fl->SetAttribute("Rounds", UintegerValue(s.rounds));
    fl->SetAttribute("LocalEpochs", UintegerValue(s.localEpochs));
    fl->SetAttribute("RoundDeadline", TimeValue(s.deadline));
    if (s.float16)
    {
        fl->SetAttribute("Compression", EnumValue(D2dFlProtocol::FLOAT16));
    }
    fl->SetTestSet(data.test);
    if (traces)
    {
        traces->ConnectRounds(fl);
    }
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    fl->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&out, &learners, semi](uint32_t, double, double) {
            out.endTimes.push_back(Simulator::Now().GetSeconds());
            out.params.push_back(TestModelsNow(learners));
            if (semi)
            {
                out.global.push_back(semi->GetGlobalModel());
            }
        }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, fl);
    Simulator::Stop(Seconds(1e5)); // safety: the protocol stops the simulator itself
    D2dDeferredJob::ResetPeakResident();
    const uint64_t residentBefore = D2dDeferredJob::GetResident(); // earlier runs' stragglers
    Simulator::Run();
    out.peakResident = D2dDeferredJob::GetPeakResident() - residentBefore;
    out.roundsDone = fl->GetRoundsDone();
    for (auto& l : learners)
    {
        out.trainingAtEnd.push_back(l->IsTraining());
        out.radioOffAtEnd.push_back(channel->GetRadio(out.radioOffAtEnd.size())->IsOff());
        out.deviceAccuracy.push_back(l->IsTraining() ? -1.0 : l->Evaluate(*data.test).accuracy);
    }
    if (semi)
    {
        out.groups = semi->GetGroups();
    }
    if (traces)
    {
        traces->Finish(1, 0.0);
        out.rounds = ReadTextFile(s.outDir + "/rounds.csv");
        out.messages = ReadTextFile(s.outDir + "/messages.csv");
    }
    Simulator::Destroy();
    return out;
}

/** \return (1/K) sum_k ||x_k - mean||^2 over the non-empty models */
double
ConsensusDistance(const std::vector<std::vector<float>>& models)
{
    std::vector<double> mean;
    uint32_t n = 0;
    for (const auto& m : models)
    {
        if (m.empty())
        {
            continue;
        }
        mean.resize(m.size(), 0.0);
        for (std::size_t j = 0; j < m.size(); ++j)
        {
            mean[j] += m[j];
        }
        ++n;
    }
    for (auto& x : mean)
    {
        x /= n;
    }
    double d = 0;
    for (const auto& m : models)
    {
        for (std::size_t j = 0; j < m.size(); ++j)
        {
            d += (m[j] - mean[j]) * (m[j] - mean[j]);
        }
    }
    return d / n;
}

/**
 * \return max_i,j |x_ij - y_ij| / (1 + |y_ij|) between models (sizes must match)
 */
double
MaxRelError(const std::vector<std::vector<float>>& x, const std::vector<std::vector<double>>& y)
{
    double e = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        for (std::size_t j = 0; j < y[i].size(); ++j)
        {
            e = std::max(e, std::fabs(x[i][j] - y[i][j]) / (1.0 + std::fabs(y[i][j])));
        }
    }
    return e;
}

/** Pure averaging on a ring follows W; consensus distance bounded by lambda_2^(2t). */
class RingAveragingTestCase : public TestCase
{
  public:
    RingAveragingTestCase()
        : TestCase("Decentralized averaging on a ring (LearningRate 0) follows W and the "
                   "consensus distance shrinks as lambda_2(W)^(2t)")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 8;
        s.rounds = 10;
        s.learningRate = 0.0; // training leaves the weights as they are: pure averaging
        s.commonInit = false; // distinct initial models to average
        for (uint32_t i = 0; i < s.nDevices; ++i)
        {
            s.graph.push_back({(i + s.nDevices - 1) % s.nDevices, (i + 1) % s.nDevices});
        }
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, "every round completes");
        // Neighbours 7 is capped at the degree 2: every device averages i-1, i, i+1.
        bool neighboursOk = true;
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            for (uint32_t i = 0; i < s.nDevices; ++i)
            {
                std::vector<uint32_t> want{(i + 7) % 8, i, (i + 1) % 8};
                std::sort(want.begin(), want.end());
                neighboursOk = neighboursOk && o.contributors.at(r).count(i) &&
                               o.contributors.at(r).at(i) == want;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(neighboursOk, true, "contributors are the ring neighbours");
        // Independent computation: x^{t+1} = W x^t, W_ij = 1/3 on i-1, i, i+1.
        std::vector<std::vector<double>> x;
        for (const auto& m : o.initial)
        {
            x.emplace_back(m.begin(), m.end());
        }
        const double d0 = ConsensusDistance(o.initial);
        double worst = 0;
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            std::vector<std::vector<double>> next(x.size(), std::vector<double>(x[0].size()));
            for (uint32_t i = 0; i < s.nDevices; ++i)
            {
                const auto& a = x[(i + 7) % 8];
                const auto& b = x[i];
                const auto& c = x[(i + 1) % 8];
                for (std::size_t j = 0; j < b.size(); ++j)
                {
                    next[i][j] = (a[j] + b[j] + c[j]) / 3.0;
                }
            }
            x = next;
            worst = std::max(worst, MaxRelError(o.params.at(r), x));
        }
        NS_TEST_ASSERT_MSG_LT(worst, 1e-5, "the models follow x <- W x");
        // W is symmetric and doubly stochastic: its second eigenvalue 1/3 + 2/3 cos(2 pi/8)
        // bounds the contraction of the distance to the (preserved) mean.
        const double lambda2 = 1.0 / 3.0 + 2.0 / 3.0 * std::cos(2 * M_PI / 8);
        const double bound = std::pow(lambda2, 2.0 * s.rounds); // 0.0130
        const double ratio = ConsensusDistance(o.params.back()) / d0;
        std::printf("ring: consensus distance %.6g -> %.6g, ratio %.4g (bound %.4g)\n",
                    d0,
                    ConsensusDistance(o.params.back()),
                    ratio,
                    bound);
        NS_TEST_ASSERT_MSG_GT(d0, 0.0, "distinct initial models");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(ratio, bound * (1 + 1e-6), "lambda_2 bound");
        NS_TEST_ASSERT_MSG_LT(ratio, 0.02, "the distance shrinks by more than 50x in 10 rounds");
    }
};

/**
 * A graph asked for at each round's start (SetGraphSource(), as --graph=range does while the
 * devices move): round 1 averages over the left neighbour on a ring of 6, round 2 over the
 * right one, round 3 over both (the last graph repeats).
 */
class GraphSourceTestCase : public TestCase
{
  public:
    GraphSourceTestCase()
        : TestCase("A graph source gives each round its own in-neighbours")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 6;
        s.rounds = 3;
        s.learningRate = 0.0;
        std::vector<std::vector<uint32_t>> left(6);
        std::vector<std::vector<uint32_t>> right(6);
        std::vector<std::vector<uint32_t>> both(6);
        for (uint32_t i = 0; i < 6; ++i)
        {
            left[i] = {(i + 5) % 6};
            right[i] = {(i + 1) % 6};
            both[i] = {(i + 5) % 6, (i + 1) % 6};
        }
        s.graphs = {left, right, both};
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, "every round completes");
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            for (uint32_t i = 0; i < 6; ++i)
            {
                std::vector<uint32_t> want = s.graphs[r][i];
                want.push_back(i);
                std::sort(want.begin(), want.end());
                NS_TEST_ASSERT_MSG_EQ(
                    (o.contributors.at(r).count(i) && o.contributors.at(r).at(i) == want),
                    true,
                    "round " << r + 1 << ", device " << i
                             << ": the contributors are that round's graph");
            }
        }
    }
};

/** Random 7-neighbour draws with sample-count weights. */
class RandomNeighboursTestCase : public TestCase
{
  public:
    RandomNeighboursTestCase()
        : TestCase("Decentralized averaging with 7 random neighbours and sample-count "
                   "weights matches the independent averaging with the same draws")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 10;
        s.rounds = 3;
        s.learningRate = 0.0;
        s.commonInit = false;
        s.weighting = "samples";
        s.partition = "quantity"; // Zipf sizes: the weights matter
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, "every round completes");
        std::vector<std::vector<double>> x;
        for (const auto& m : o.initial)
        {
            x.emplace_back(m.begin(), m.end());
        }
        std::set<std::vector<uint32_t>> distinctSets;
        double worst = 0;
        bool drawsOk = true;
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            std::vector<std::vector<double>> next = x;
            for (uint32_t i = 0; i < s.nDevices; ++i)
            {
                const auto& c = o.contributors.at(r).at(i);
                const std::set<uint32_t> unique(c.begin(), c.end());
                drawsOk = drawsOk && c.size() == 8 && unique.size() == 8 && unique.count(i);
                distinctSets.insert(c);
                double total = 0;
                for (auto k : c)
                {
                    total += o.samples[k];
                }
                for (std::size_t j = 0; j < x[i].size(); ++j)
                {
                    double v = 0;
                    for (auto k : c)
                    {
                        v += o.samples[k] * x[k][j];
                    }
                    next[i][j] = v / total;
                }
            }
            x = next;
            worst = std::max(worst, MaxRelError(o.params.at(r), x));
        }
        NS_TEST_ASSERT_MSG_EQ(drawsOk, true, "7 distinct neighbours plus the device itself");
        NS_TEST_ASSERT_MSG_GT(distinctSets.size(), 10u, "the draws vary over devices and rounds");
        NS_TEST_ASSERT_MSG_LT(worst, 1e-5, "models = sample-weighted averages of the draws");
        const double d0 = ConsensusDistance(o.initial);
        double previous = d0;
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            const double d = ConsensusDistance(o.params.at(r));
            std::printf("random-7: round %u consensus distance %.6g (ratio to start %.3g)\n",
                        r + 1,
                        d,
                        d / d0);
            NS_TEST_ASSERT_MSG_LT(d, 0.2 * previous, "at least 5x closer every round");
            previous = d;
        }
        NS_TEST_ASSERT_MSG_LT(previous / d0, 1e-3, "1000x closer after 3 rounds");
    }
};

/** Learning: decentralized vs the local-training floor; Fashion-MNIST accuracy. */
class LearningTestCase : public TestCase
{
  public:
    LearningTestCase()
        : TestCase("Decentralized FL learns across one-label devices where local training "
                   "stays at the floor; it reaches a stated accuracy on Fashion-MNIST")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 8;
        s.rounds = 8;
        s.partition = "labels1"; // each device sees one of the 4 classes
        s.learningRate = 0.1;
        const DecentralizedOutcome dec = RunProtocol(s);
        s.protocol = "local";
        const DecentralizedOutcome loc = RunProtocol(s);
        double decMean = 0;
        double locMean = 0;
        double decMin = 1;
        double locMax = 0;
        for (uint32_t i = 0; i < s.nDevices; ++i)
        {
            decMean += dec.deviceAccuracy[i] / s.nDevices;
            locMean += loc.deviceAccuracy[i] / s.nDevices;
            decMin = std::min(decMin, dec.deviceAccuracy[i]);
            locMax = std::max(locMax, loc.deviceAccuracy[i]);
        }
        std::printf("one label per device: decentralized mean %.4f (min %.4f), local mean "
                    "%.4f (max %.4f)\n",
                    decMean,
                    decMin,
                    locMean,
                    locMax);
        NS_TEST_ASSERT_MSG_EQ(dec.roundsDone, s.rounds, "decentralized: all rounds");
        NS_TEST_ASSERT_MSG_EQ(loc.roundsDone, s.rounds, "local: all rounds");
        // Bayes accuracy of the mixture is Phi(2)^2 = 0.955; a model that predicts its one
        // class everywhere is right on a quarter of the (balanced) test set (a little more
        // where the common initial model still predicts other classes).
        NS_TEST_ASSERT_MSG_GT(decMin, 0.90, "every decentralized device learns all classes");
        NS_TEST_ASSERT_MSG_LT(locMax, 0.40, "local training: one class, the floor");

        Setup f;
        f.fashion = true;
        f.nDevices = 10;
        f.rounds = 6;
        f.localEpochs = 2;
        f.model = "mlp:32";
        f.learningRate = 0.1;
        const DecentralizedOutcome fm = RunProtocol(f);
        double fmMean = 0;
        for (auto a : fm.deviceAccuracy)
        {
            fmMean += a / f.nDevices;
        }
        std::printf(
            "Fashion-MNIST 10 %%, 10 devices IID, 6 rounds x 2 epochs: mean device accuracy %.4f\n",
            fmMean);
        NS_TEST_ASSERT_MSG_GT(fmMean, 0.70, "Fashion-MNIST: well above chance (0.10)");
    }
};

/** Semi-decentralized: group averages and the global model, bit for bit. */
class SemiDecentralizedTestCase : public TestCase
{
  public:
    SemiDecentralizedTestCase()
        : TestCase("Semi-decentralized: after a global aggregation every device holds the "
                   "N_g-weighted average of the chosen devices' models, bit for bit")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.protocol = "semi";
        s.nDevices = 10; // groups {0..4}, {5..9}
        s.rounds = 3;
        s.partition = "quantity";
        s.learningRate = 0.1;
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, "every round completes");
        NS_TEST_ASSERT_MSG_EQ(o.groups.size(), 2u, "two groups of 5");
        NS_TEST_ASSERT_MSG_EQ(o.selected.size(), s.rounds, "a selection per round");
        double worstGroup = 0;
        double worstGlobal = 0;
        for (uint32_t r = 0; r < s.rounds; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(o.selected[r].size(), 2u, "one device per group");
            const auto& snap = o.atSelection[r];
            const auto& trained = o.trainedAtSelection[r];
            std::vector<double> groupModel;
            double nTotal = 0;
            std::vector<double> global(snap[0].size(), 0.0);
            for (uint32_t g = 0; g < 2; ++g)
            {
                const uint32_t c = o.selected[r][g];
                NS_TEST_ASSERT_MSG_EQ(c / 5, g, "chosen device in group " << g);
                double ng = 0;
                for (uint32_t k = 5 * g; k < 5 * g + 5; ++k)
                {
                    ng += o.samples[k];
                    // Every member averaged the same models with the same weights.
                    NS_TEST_ASSERT_MSG_EQ((snap[k] == snap[c]), true, "identical group models");
                }
                // Group model = sum_k n_k w_k / sum_k n_k over the members' trained models.
                for (std::size_t j = 0; j < snap[c].size(); ++j)
                {
                    double v = 0;
                    for (uint32_t k = 5 * g; k < 5 * g + 5; ++k)
                    {
                        v += o.samples[k] * trained.at(k)[j];
                    }
                    v /= ng;
                    worstGroup =
                        std::max(worstGroup, std::fabs(v - snap[c][j]) / (1 + std::fabs(v)));
                    global[j] += ng * snap[c][j];
                }
                nTotal += ng;
            }
            for (auto& v : global)
            {
                v /= nTotal;
            }
            bool same = true;
            for (uint32_t k = 0; k < s.nDevices; ++k)
            {
                same = same && o.params[r][k] == o.global[r];
            }
            NS_TEST_ASSERT_MSG_EQ(same, true, "every device holds w^{t+1}, bit for bit");
            NS_TEST_ASSERT_MSG_EQ((o.global[r] != snap[o.selected[r][0]]),
                                  true,
                                  "w^{t+1} is not one group's model");
            worstGlobal = std::max(worstGlobal, MaxRelError({o.global[r]}, {global}));
        }
        NS_TEST_ASSERT_MSG_LT(worstGroup, 1e-6, "group average weighted by n_k");
        NS_TEST_ASSERT_MSG_LT(worstGlobal, 1e-6, "global average weighted by N_g");
        // Per round: 4 phases x 2 groups x 5 x 4 unicasts on D2D; 2 uploads + 1 broadcast.
        NS_TEST_ASSERT_MSG_EQ(o.d2dSends, 160u * s.rounds, "group exchange messages");
        NS_TEST_ASSERT_MSG_EQ(o.d2sSends, 3u * s.rounds, "D2S messages");
    }
};

/** Local training: rows per device, no message. */
class LocalTrainingTestCase : public TestCase
{
  public:
    LocalTrainingTestCase()
        : TestCase("Local training writes per-device rows and sends no message")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.protocol = "local";
        s.nDevices = 4;
        s.rounds = 2;
        s.outDir = TestTempDir("fl-dec-local");
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 2u, "two rounds");
        NS_TEST_ASSERT_MSG_EQ(o.d2dSends, 0u, "no Send");
        const std::string messages = ReadTextFile(s.outDir + "/messages.csv");
        NS_TEST_ASSERT_MSG_EQ(std::count(messages.begin(), messages.end(), '\n'),
                              1,
                              "messages.csv: the header only");
        // rounds.csv: accuracy of each device in rounds 0, 1, 2.
        const std::vector<std::string> lines = ReadTextLines(s.outDir + "/rounds.csv");
        NS_TEST_ASSERT_MSG_EQ((lines.empty() ? std::string() : lines[0]),
                              "round,sim_time_s,node,metric,value",
                              "header");
        std::set<std::pair<int, int>> deviceRows;
        for (std::size_t row = 1; row < lines.size(); ++row)
        {
            std::vector<std::string> f = SplitCsvLine(lines[row]); // round,sim_time_s,node,metric
            f.resize(4);
            if (f[3] == "accuracy" && std::stoi(f[2]) >= 0)
            {
                deviceRows.insert({std::stoi(f[0]), std::stoi(f[2])});
            }
        }
        std::filesystem::remove_all(s.outDir);
        NS_TEST_ASSERT_MSG_EQ(deviceRows.size(), 12u, "3 rounds (0..2) x 4 devices");
        // Training alone changed every model (and they differ: different shards).
        NS_TEST_ASSERT_MSG_EQ((o.params[1][0] != o.params[1][1]), true, "no averaging");
    }
};

/** Stragglers are left out at the deadline; all protocols complete. */
class StragglerTestCase : public TestCase
{
  public:
    StragglerTestCase()
        : TestCase("A straggler (SlowdownFactor 1000) is left out at the deadline and every "
                   "protocol completes its rounds")
    {
    }

  private:
    void DoRun() override
    {
        // FlopsPerSecond 1e7: a local epoch of 400 samples of the 2-16-4 MLP (576 training
        // FLOPs per sample) takes 23 ms; the straggler needs 23 s.
        Setup s;
        s.nDevices = 5;
        s.rounds = 3;
        s.flopsPerSecond = 1e7;
        s.slowdown[4] = 1000.0;
        s.deadline = Seconds(1.0);
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 3u, "decentralized: all rounds");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.endTimes[0], 1.0, 1e-12, "round 1 ends at the deadline");
        for (uint32_t r = 1; r < 3; ++r)
        {
            // The straggler is busy: nobody waits for it.
            NS_TEST_ASSERT_MSG_LT(o.endTimes[r] - o.endTimes[r - 1], 0.1, "short round");
        }
        bool left = true;
        for (uint32_t r = 0; r < 3; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(o.contributors.at(r).size(), 4u, "4 devices averaged");
            for (const auto& [d, c] : o.contributors.at(r))
            {
                left = left && d != 4 && std::find(c.begin(), c.end(), 4u) == c.end();
            }
        }
        NS_TEST_ASSERT_MSG_EQ(left, true, "the straggler's model is in no average");
        NS_TEST_ASSERT_MSG_EQ(o.trainingAtEnd[4], true, "still training at the end");

        s.protocol = "semi";
        s.nDevices = 10;
        const DecentralizedOutcome m = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(m.roundsDone, 3u, "semi-decentralized: all rounds");
        for (const auto& sel : m.selected)
        {
            NS_TEST_ASSERT_MSG_EQ(std::count(sel.begin(), sel.end(), 4u), 0, "4 never chosen");
        }
        NS_TEST_ASSERT_MSG_EQ(m.selected.size(), 3u, "a selection per round");

        s.protocol = "local";
        s.nDevices = 5;
        const DecentralizedOutcome l = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(l.roundsDone, 3u, "local: all rounds");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.endTimes[0], 1.0, 1e-12, "local round 1 at the deadline");

        // A battery that dies in the first job (0.02 J; the job draws 2 W for 23 ms): the
        // device stays "training" for ever and is left out of every round; its peers learn of
        // the depletion (its transport's Presence trace) and do not wait for it.
        Setup d;
        d.nDevices = 5;
        d.rounds = 3;
        d.flopsPerSecond = 1e7;
        d.energyJ[2] = 0.02;
        d.deadline = Seconds(1.0);
        const DecentralizedOutcome dead = RunProtocol(d);
        NS_TEST_ASSERT_MSG_EQ(dead.roundsDone, 3u, "dead battery: all rounds");
        NS_TEST_ASSERT_MSG_EQ(dead.trainingAtEnd[2], true, "depleted mid-job: never completes");
        NS_TEST_ASSERT_MSG_EQ(dead.radioOffAtEnd[2], true, "its radio is off");
        NS_TEST_ASSERT_MSG_LT(dead.endTimes[0], 0.5, "round 1 does not wait to the deadline");
        NS_TEST_ASSERT_MSG_LT(dead.endTimes[2], 1.5, "later rounds do not wait for it");
        bool out = true;
        for (uint32_t r = 0; r < 3; ++r)
        {
            out = out && dead.contributors.at(r).size() == 4 && !dead.contributors.at(r).count(2);
            for (const auto& [dev, c] : dead.contributors.at(r))
            {
                out = out && std::find(c.begin(), c.end(), 2u) == c.end();
            }
        }
        NS_TEST_ASSERT_MSG_EQ(out, true, "the dead device is in no average");
    }
};

/** Lost models: unreliable delivery over a lossy channel, no deadline. */
class LossyChannelTestCase : public TestCase
{
  public:
    LossyChannelTestCase()
        : TestCase("Decentralized rounds end without a deadline when models are lost "
                   "(unreliable delivery, eq. 18 losses): lost models are left out")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 10;
        s.rounds = 3;
        s.noiseW = 1e-11;
        s.mode = D2dDeliveryMode::UNRELIABLE;
        s.learningRate = 0.0;
        s.commonInit = false;
        const DecentralizedOutcome o = RunProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 3u, "all rounds, no deadline needed");
        uint32_t arrived = 0;
        uint32_t averaged = 0;
        std::vector<std::vector<double>> x;
        for (const auto& m : o.initial)
        {
            x.emplace_back(m.begin(), m.end());
        }
        double worst = 0;
        for (uint32_t r = 0; r < 3; ++r)
        {
            auto next = x;
            for (const auto& [d, c] : o.contributors.at(r))
            {
                ++averaged;
                arrived += c.size() - 1;
                for (std::size_t j = 0; j < x[d].size(); ++j)
                {
                    double v = 0;
                    for (auto k : c)
                    {
                        v += x[k][j];
                    }
                    next[d][j] = v / c.size();
                }
            }
            x = next;
            worst = std::max(worst, MaxRelError(o.params.at(r), x));
        }
        std::printf("lossy: %u of %u models arrived complete\n", arrived, 3 * 10 * 7);
        NS_TEST_ASSERT_MSG_EQ(averaged, 30u, "every device averaged every round");
        NS_TEST_ASSERT_MSG_LT(arrived, 3u * 10 * 7, "some models were lost");
        NS_TEST_ASSERT_MSG_GT(arrived, 0u, "some models arrived");
        NS_TEST_ASSERT_MSG_LT(worst, 1e-5, "the average is over what arrived");
    }
};

/** Same seed, same traces. */
class DecentralizedDeterminismTestCase : public TestCase
{
  public:
    DecentralizedDeterminismTestCase()
        : TestCase("Two decentralized runs with the same seed give identical rounds.csv and "
                   "messages.csv")
    {
    }

  private:
    void DoRun() override
    {
        Setup s;
        s.nDevices = 6;
        s.rounds = 3;
        s.neighbours = 3;
        s.outDir = TestTempDir("fl-dec-a");
        RunProtocol(s);
        const std::string roundsA = ReadTextFile(s.outDir + "/rounds.csv");
        const std::string messagesA = ReadTextFile(s.outDir + "/messages.csv");
        const std::string dirA = s.outDir;
        s.outDir = TestTempDir("fl-dec-b");
        RunProtocol(s);
        const std::string roundsB = ReadTextFile(s.outDir + "/rounds.csv");
        const std::string messagesB = ReadTextFile(s.outDir + "/messages.csv");
        std::filesystem::remove_all(s.outDir);
        std::filesystem::remove_all(dirA);
        NS_TEST_ASSERT_MSG_GT(roundsA.size(), 500u, "rounds.csv has rows");
        NS_TEST_ASSERT_MSG_NE(roundsA.find("consensus_distance"),
                              std::string::npos,
                              "consensus_distance rows");
        // 6 devices x 3 neighbours x 3 rounds model messages, plus the header.
        NS_TEST_ASSERT_MSG_EQ(std::count(messagesA.begin(), messagesA.end(), '\n'),
                              1 + 6 * 3 * 3,
                              "messages.csv rows");
        NS_TEST_ASSERT_MSG_EQ((roundsA == roundsB), true, "identical rounds.csv");
        NS_TEST_ASSERT_MSG_EQ((messagesA == messagesB), true, "identical messages.csv");
    }
};

/**
 * Deferred decentralized rounds (D2dDecentralizedFl::DeferTraining): the same bits as eager
 * ones, and the trained models resident at once bounded by the locality order's band.
 */
class DeferredTestCase : public TestCase
{
  public:
    DeferredTestCase()
        : TestCase("Deferred decentralized training: the same models, records and messages as "
                   "eager training; resident trained models bounded by the locality order, not "
                   "the number of devices")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        const uint32_t maxBefore = D2dDeferredJob::GetMaxResident();
        D2dDeferredJob::SetMaxResident(1); // the look-ahead adds at most one
        // 40 devices whose neighbour graph is a path under shuffled device numbers: in index
        // order an average's inputs are spread over the whole network, so that about half
        // the trained models would wait for a later average at once.
        const uint32_t n = 40;
        std::vector<uint32_t> label(n);
        for (uint32_t v = 0; v < n; ++v)
        {
            label[v] = (v * 17 + 5) % n; // 17 is prime to 40: a permutation
        }
        std::vector<std::vector<uint32_t>> path(n);
        for (uint32_t v = 0; v + 1 < n; ++v)
        {
            path[label[v]].push_back(label[v + 1]);
            path[label[v + 1]].push_back(label[v]);
        }

        struct Case
        {
            std::string name;
            bool float16;
            D2dDeliveryMode mode;
            double noiseW;
            std::map<uint32_t, double> slowdown;
            Time deadline;
        };

        // FlopsPerSecond 1e7: an epoch of 50 samples of the 2-16-4 MLP (576 FLOPs each)
        // takes 2.9 ms; the straggler (slow-down 1000) 2.9 s, past the 1 s deadline.
        const std::vector<Case> cases{
            {"lossless", false, D2dDeliveryMode::RELIABLE, 1e-40, {}, Seconds(0)},
            {"lossy/float16/straggler",
             true,
             D2dDeliveryMode::UNRELIABLE,
             1e-11,
             {{7, 1000.0}},
             Seconds(1.0)}};
        for (const auto& c : cases)
        {
            Setup s;
            s.nDevices = n;
            s.rounds = 3;
            s.neighbours = 2;
            s.graph = path;
            s.flopsPerSecond = 1e7;
            s.float16 = c.float16;
            s.mode = c.mode;
            s.noiseW = c.noiseW;
            s.slowdown = c.slowdown;
            s.deadline = c.deadline;
            s.deferTraining = false;
            s.outDir = TestTempDir("fl-dec-eager");
            const DecentralizedOutcome eager = RunProtocol(s);
            std::filesystem::remove_all(s.outDir);
            s.deferTraining = true;
            s.outDir = TestTempDir("fl-dec-deferred");
            const DecentralizedOutcome deferred = RunProtocol(s);
            std::filesystem::remove_all(s.outDir);
            NS_TEST_ASSERT_MSG_EQ(eager.roundsDone, 3u, c.name << ": every round ends");
            NS_TEST_ASSERT_MSG_EQ((deferred.params == eager.params),
                                  true,
                                  c.name << ": bitwise equal models after every round");
            NS_TEST_ASSERT_MSG_EQ((deferred.contributors == eager.contributors),
                                  true,
                                  c.name << ": the same averages");
            NS_TEST_ASSERT_MSG_EQ((deferred.endTimes == eager.endTimes),
                                  true,
                                  c.name << ": the same round times");
            NS_TEST_ASSERT_MSG_GT(eager.rounds.size(), 500u, c.name << ": rounds.csv has rows");
            NS_TEST_ASSERT_MSG_EQ((deferred.rounds == eager.rounds),
                                  true,
                                  c.name << ": identical rounds.csv");
            NS_TEST_ASSERT_MSG_EQ((deferred.messages == eager.messages),
                                  true,
                                  c.name << ": identical messages.csv");
            NS_TEST_ASSERT_MSG_EQ(eager.peakResident, 0u, c.name << ": eager: nothing deferred");
            // What the case is about: models lost, a straggler left out.
            std::size_t inputs = 0;
            for (const auto& round : eager.contributors)
            {
                for (const auto& [device, from] : round)
                {
                    inputs += from.size();
                }
            }
            const std::size_t full = 3 * (n + 2 * (n - 1)); // itself and its path neighbours
            if (c.slowdown.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(inputs, full, c.name << ": every model arrived");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(inputs, full - 6, c.name << ": models lost");
                NS_TEST_ASSERT_MSG_EQ(eager.trainingAtEnd[7], true, c.name << ": a straggler");
                NS_TEST_ASSERT_MSG_EQ(eager.contributors.at(0).count(7),
                                      0u,
                                      c.name << ": the straggler did not average");
            }
            // In the locality order (the path in line) the average of the device at
            // position p reads the jobs at p - 1, p and p + 1: at most 3 wait for a later
            // average, plus 2 x 2 workers prefetched and 1 of the look-ahead: 8. In index
            // order about 20 of the 40 would.
            std::printf("deferred %s: at most %llu trained models resident\n",
                        c.name.c_str(),
                        static_cast<unsigned long long>(deferred.peakResident));
            NS_TEST_ASSERT_MSG_GT(deferred.peakResident, 0u, c.name << ": deferred jobs ran");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(deferred.peakResident,
                                        8u,
                                        c.name << ": resident trained models bounded");
        }
        D2dDeferredJob::SetMaxResident(maxBefore);
    }
};

class D2dFlDecentralizedTestSuite : public TestSuite
{
  public:
    D2dFlDecentralizedTestSuite()
        : TestSuite("d2d-fl-decentralized")
    {
        AddTestCase(new RingAveragingTestCase);
        AddTestCase(new GraphSourceTestCase);
        AddTestCase(new RandomNeighboursTestCase);
        AddTestCase(new SemiDecentralizedTestCase);
        AddTestCase(new LocalTrainingTestCase);
        AddTestCase(new StragglerTestCase);
        AddTestCase(new LossyChannelTestCase);
        AddTestCase(new DecentralizedDeterminismTestCase);
        AddTestCase(new DeferredTestCase);
        AddTestCase(new LearningTestCase);
    }
};

static D2dFlDecentralizedTestSuite g_d2dFlDecentralizedTestSuite;

} // namespace
