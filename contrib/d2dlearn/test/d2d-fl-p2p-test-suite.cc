/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-fl-p2p": the peer-to-peer baselines of the efficiency experiment of
 * Che et al. 2022, BrainTorrent (D2dBrainTorrent) and segmented gossip
 * (D2dSegmentedGossip), with real LibTorch learners (MLP 2-16-4, 116 parameters) on the
 * 4-class Gaussian mixture of Fan et al. 2023, sec. 5.1, quantity-skewed shards (distinct
 * n_k), over a D2D channel with the same RSS W = 1e-9 W on every link (MatrixRssModel) and
 * eq. 18's noise chosen for P_D ~ 0 (1e-40 W) or P_D = 0.1
 * (sigma^2 = -ln(0.9) W / (2^2 - 1)).
 *
 * Learning rate 0 makes local jobs leave the models unchanged, so the models only mix and
 * every model can be computed by hand from the initial ones and the messages sent (each
 * radio's Send trace, independent of the protocols' own traces):
 * - BrainTorrent: a hand-kept version vector per device says which peers are newer than
 *   what the round's aggregator merged last; exactly those send a model; the aggregator's
 *   model equals sum n_k w_k / sum n_k over itself and them; bytes per round = ping +
 *   (K - 1) answers + models from the message sizes, in rounds.csv and GetBytesSent();
 * - segmented gossip: each device pulls each of S segments from R distinct other devices
 *   (requests counted per device and segment); each segment of each device equals the
 *   n_k-weighted (or uniform) average of its own segment and the segments sent to it;
 *   bytes per round = K R (2 S HeaderBytes + b P) (b = 4 float32, 2 float16); the
 *   consensus distance falls every round by a stated factor;
 * - a lossy channel (unreliable delivery, P_D = 0.1 per fragment) loses messages and still
 *   completes every round, the averages being over what arrived; a device whose battery
 *   dies is left out at the deadline and rounds go on;
 * - with learning on one label per device, segmented gossip devices learn every class and
 *   BrainTorrent's aggregators and mean model do (a device never aggregator stays at the
 *   one-label floor); the same seed gives the same messages and models.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-brain-torrent.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-segmented-gossip.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/matrix-rss-model.h"
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
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** RSS of every link, W. */
constexpr double kRssW = 1e-9;

/** One run of one of the two protocols. */
struct P2pSetup
{
    std::string protocol{"bt"}; //!< bt (BrainTorrent) or sg (segmented gossip)
    uint32_t nDevices{6};
    uint32_t rounds{3};
    double learningRate{0.0};
    bool commonInit{false};
    uint32_t segments{4};
    uint32_t replicas{2};
    std::string weighting{"samples"};
    std::string compression{"float32"};
    Time deadline{Seconds(0)};
    double noiseW{1e-40};
    D2dDeliveryMode mode{D2dDeliveryMode::RELIABLE};
    double flopsPerSecond{1e10};
    std::map<uint32_t, double> energyJ;  //!< device -> initial battery energy, J
    std::map<uint32_t, double> slowdown; //!< device -> SlowdownFactor
    std::string partition{"quantity"};   //!< quantity (skew 1.0) or labels1 (one label each)
    uint32_t localEpochs{1};
    bool traces{true};
};

/** A message handed to a radio (Send trace), with what its payload says. */
struct SentMessage
{
    uint64_t id;
    double time; //!< s
    std::string kind;
    uint32_t src;
    uint32_t dst;
    uint64_t bytes;
    uint32_t round;
    uint32_t segment;               //!< sg_request / sg_segment
    bool modelFollows;              //!< bt_answer
    std::vector<uint32_t> versions; //!< bt_ping / bt_answer
};

/** What a run showed. */
struct P2pOutcome
{
    std::vector<std::vector<float>> initial;             //!< per device, before Start
    std::vector<std::vector<std::vector<float>>> params; //!< [round-1][device] at RoundEnd
    std::vector<double> endTimes;                        //!< RoundEnd times, s
    std::vector<double> samples;                         //!< n_k
    uint64_t nParams{0};
    std::vector<SentMessage> sent;
    std::set<uint64_t> delivered; //!< (message id) delivered to its receiver (unicasts)
    uint32_t lostRecords{0};      //!< Delivery records not delivered
    uint64_t bytesSent{0};        //!< GetBytesSent()
    uint32_t roundsDone{0};
    std::map<uint32_t, double> roundBytes;     //!< rounds.csv bytes_sent by round
    std::map<uint32_t, double> roundTime;      //!< rounds.csv round_time_s by round
    std::map<uint32_t, double> consensus;      //!< rounds.csv consensus_distance by round
    std::map<uint32_t, double> meanModel;      //!< rounds.csv mean_model_accuracy by round
    std::vector<uint32_t> aggregator;          //!< bt: per round
    std::vector<std::vector<uint32_t>> merged; //!< bt: contributors per round
    /** sg: [round-1][(device, segment)] contributors */
    std::vector<std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>>> segAverage;
    std::vector<std::map<uint32_t, double>> averageTime; //!< sg: [round-1][device], s
    std::vector<bool> radioOffAtEnd;
    std::vector<bool> trainingAtEnd;
    std::vector<double> deviceAccuracy; //!< final, per device (-1: still training)
};

/**
 * \brief The run's network: every link at kRssW (MatrixRssModel), the run's noise, compute
 * and batteries.
 * \param s the run
 * \param nodes the devices' nodes
 * \param d2d the helper to install with
 * \return the D2D channel
 */
Ptr<D2dChannel>
InstallP2pChannel(const P2pSetup& s, const NodeContainer& nodes, D2dHelper& d2d)
{
    auto matrix = CreateObject<MatrixRssModel>();
    matrix->SetMatrix(
        std::vector<std::vector<double>>(s.nDevices, std::vector<double>(s.nDevices, kRssW)));
    d2d.SetRssModel(matrix);
    ConfigureTestProtocolHelper(d2d, s.noiseW, s.flopsPerSecond);
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    d2d.AssignStreams(10);
    SetTestBatteries(nodes, s.energyJ);
    return channel;
}

/**
 * \brief Record every message the radios are handed (Send, with what its payload says) and
 * every delivery (Delivery).
 * \param channel the D2D channel
 * \param nDevices its devices
 * \param out the outcome whose sent, delivered and lostRecords fill
 */
void
RecordMessages(Ptr<D2dChannel> channel, uint32_t nDevices, P2pOutcome& out)
{
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        Ptr<D2dRadio> radio = channel->GetRadio(i);
        radio->TraceConnectWithoutContext(
            "Send",
            Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                [&out, i](uint64_t id, Ptr<const D2dMessage> m, uint32_t dst) {
                    SentMessage x{id,
                                  Simulator::Now().GetSeconds(),
                                  m->GetKind(),
                                  i,
                                  dst,
                                  m->GetSizeBytes(),
                                  0,
                                  0,
                                  false,
                                  {}};
                    if (auto v = m->GetPayloadAs<D2dBrainTorrent::VersionPayload>())
                    {
                        x.round = v->round;
                        x.modelFollows = v->modelFollows;
                        x.versions = v->versions;
                    }
                    else if (auto bm = m->GetPayloadAs<D2dBrainTorrent::ModelPayload>())
                    {
                        x.round = bm->round;
                    }
                    else if (auto rq = m->GetPayloadAs<D2dSegmentedGossip::RequestPayload>())
                    {
                        x.round = rq->round;
                        x.segment = rq->segment;
                    }
                    else if (auto sp = m->GetPayloadAs<D2dSegmentedGossip::SegmentPayload>())
                    {
                        x.round = sp->round;
                        x.segment = sp->segment;
                    }
                    out.sent.push_back(x);
                }));
        radio->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out](const D2dDeliveryRecord& r) {
                if (r.delivered && r.fragmentsLost == 0)
                {
                    out.delivered.insert(r.msgId);
                }
                else
                {
                    ++out.lostRecords;
                }
            }));
    }
}

/**
 * \brief BrainTorrent on the run's learners, its merges recorded.
 * \param s the run
 * \param learners the learners
 * \param channel the D2D channel
 * \param out the outcome whose aggregator and merged fill
 * \return the protocol
 */
Ptr<D2dBrainTorrent>
MakeBrainTorrent(const P2pSetup& s,
                 const std::vector<Ptr<D2dLearner>>& learners,
                 Ptr<D2dChannel> channel,
                 P2pOutcome& out)
{
    auto bt = CreateObjectWithAttributes<D2dBrainTorrent>("CommonInitialModel",
                                                          BooleanValue(s.commonInit));
    bt->SetLearners(learners);
    bt->SetTransports(channel->GetTransports(), s.mode);
    bt->AssignStreams(100);
    bt->TraceConnectWithoutContext(
        "Merged",
        Callback<void, uint32_t, uint32_t, const std::vector<uint32_t>&>(
            [&out](uint32_t round, uint32_t aggregator, const std::vector<uint32_t>& c) {
                out.aggregator.resize(round);
                out.merged.resize(round);
                out.aggregator[round - 1] = aggregator;
                out.merged[round - 1] = c;
            }));
    return bt;
}

/**
 * \brief Segmented gossip on the run's learners, its averages recorded.
 * \param s the run
 * \param learners the learners
 * \param channel the D2D channel
 * \param out the outcome whose segAverage and averageTime fill
 * \return the protocol
 */
Ptr<D2dSegmentedGossip>
MakeSegmentedGossip(const P2pSetup& s,
                    const std::vector<Ptr<D2dLearner>>& learners,
                    Ptr<D2dChannel> channel,
                    P2pOutcome& out)
{
    auto sg = CreateObjectWithAttributes<D2dSegmentedGossip>("CommonInitialModel",
                                                             BooleanValue(s.commonInit),
                                                             "Segments",
                                                             UintegerValue(s.segments),
                                                             "Replicas",
                                                             UintegerValue(s.replicas),
                                                             "Weighting",
                                                             StringValue(s.weighting));
    sg->SetLearners(learners);
    sg->SetTransports(channel->GetTransports(), s.mode);
    sg->AssignStreams(100);
    sg->TraceConnectWithoutContext(
        "Averaged",
        Callback<void, uint32_t, uint32_t, uint32_t, const std::vector<uint32_t>&>(
            [&out](uint32_t round,
                   uint32_t device,
                   uint32_t segment,
                   const std::vector<uint32_t>& c) {
                out.segAverage.resize(std::max<std::size_t>(out.segAverage.size(), round));
                out.averageTime.resize(out.segAverage.size());
                out.segAverage[round - 1][{device, segment}] = c;
                out.averageTime[round - 1][device] = Simulator::Now().GetSeconds();
            }));
    return sg;
}

/**
 * \brief The network-wide rows (node -1) of a run's rounds.csv into the outcome.
 * \param path the file
 * \param out the outcome whose roundBytes, roundTime, consensus and meanModel fill
 */
void
ReadRoundsCsv(const std::string& path, P2pOutcome& out)
{
    const std::vector<std::string> lines = ReadTextLines(path);
    for (std::size_t row = 1; row < lines.size(); ++row)
    {
        // round,sim_time_s,node,metric,value
        std::vector<std::string> f = SplitCsvLine(lines[row]);
        f.resize(5);
        const std::string& round = f[0];
        const std::string& node = f[2];
        const std::string& metric = f[3];
        const std::string& value = f[4];
        if (node != "-1")
        {
            continue;
        }
        if (metric == "bytes_sent")
        {
            out.roundBytes[std::stoul(round)] = std::stod(value);
        }
        else if (metric == "round_time_s")
        {
            out.roundTime[std::stoul(round)] = std::stod(value);
        }
        else if (metric == "consensus_distance")
        {
            out.consensus[std::stoul(round)] = std::stod(value);
        }
        else if (metric == "mean_model_accuracy")
        {
            out.meanModel[std::stoul(round)] = std::stod(value);
        }
    }
}

P2pOutcome
RunP2pProtocol(const P2pSetup& s)
{
    // The Gaussian mixture of Fan et al. 2023, sec. 5.1 (4 classes in 2-D, sd 1).
    const D2dTestData& data = GaussianTestData(11, 12, 2000, 1000);
    NodeContainer nodes;
    nodes.Create(s.nDevices);
    D2dHelper d2d;
    Ptr<D2dChannel> channel = InstallP2pChannel(s, nodes, d2d);
    const std::string outDir = s.traces ? TestTempDir("fl-p2p-" + s.protocol) : "";
    std::unique_ptr<D2dTraceHelper> traces;
    if (s.traces)
    {
        traces = std::make_unique<D2dTraceHelper>(outDir);
        traces->ConnectChannel(channel);
    }

    const auto shards = s.partition == "labels1"
                            ? D2dPartitioner::LabelsPerDevice(*data.train, s.nDevices, 1, {}, 7)
                            : D2dPartitioner::QuantitySkew(*data.train, s.nDevices, 1.0, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("mlp:16");
    P2pOutcome out;
    D2dTestLearners made =
        MakeTestLearners(nodes, spec, data.train, shards, 3, s.learningRate, s.slowdown);
    const std::vector<Ptr<D2dLearner>>& learners = made.learners;
    out.samples = made.samples;
    out.initial = made.initial;
    out.nParams = learners[0]->GetNParameters();
    RecordMessages(channel, s.nDevices, out);

    Ptr<D2dFlProtocol> fl;
    Ptr<D2dBrainTorrent> bt;
    Ptr<D2dSegmentedGossip> sg;
    if (s.protocol == "bt")
    {
        bt = MakeBrainTorrent(s, learners, channel, out);
        fl = bt;
    }
    else
    {
        sg = MakeSegmentedGossip(s, learners, channel, out);
        fl = sg;
    }
    fl->SetAttribute("Rounds", UintegerValue(s.rounds));
    fl->SetAttribute("RoundDeadline", TimeValue(s.deadline));
    fl->SetAttribute("LocalEpochs", UintegerValue(s.localEpochs));
    fl->SetAttribute("Compression", StringValue(s.compression));
    fl->SetTestSet(data.test);
    if (traces)
    {
        traces->ConnectRounds(fl);
    }
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    fl->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&out, &learners](uint32_t, double, double) {
            out.endTimes.push_back(Simulator::Now().GetSeconds());
            out.params.push_back(TestModelsNow(learners));
        }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, fl);
    Simulator::Stop(Seconds(1e4)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.roundsDone = fl->GetRoundsDone();
    out.bytesSent = bt ? bt->GetBytesSent() : sg->GetBytesSent();
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        out.radioOffAtEnd.push_back(channel->GetRadio(i)->IsOff());
        out.trainingAtEnd.push_back(learners[i]->IsTraining());
        out.deviceAccuracy.push_back(
            learners[i]->IsTraining() ? -1.0 : learners[i]->Evaluate(*data.test).accuracy);
    }
    if (traces)
    {
        traces->Finish(1, 0.0);
        ReadRoundsCsv(outDir + "/rounds.csv", out);
        std::filesystem::remove_all(outDir);
    }
    Simulator::Destroy();
    return out;
}

/** \return max_j |x_j - y_j| / (1 + |y_j|) */
double
MaxRelError(const std::vector<float>& x, const std::vector<double>& y)
{
    double e = x.size() == y.size() ? 0.0 : 1e300;
    for (std::size_t j = 0; j < std::min(x.size(), y.size()); ++j)
    {
        e = std::max(e, std::fabs(x[j] - y[j]) / (1.0 + std::fabs(y[j])));
    }
    return e;
}

/** \return (1/K) sum_k ||x_k - mean||^2 */
double
ConsensusDistance(const std::vector<std::vector<double>>& models)
{
    std::vector<double> mean(models[0].size(), 0.0);
    for (const auto& m : models)
    {
        for (std::size_t j = 0; j < m.size(); ++j)
        {
            mean[j] += m[j] / models.size();
        }
    }
    double d = 0;
    for (const auto& m : models)
    {
        for (std::size_t j = 0; j < m.size(); ++j)
        {
            d += (m[j] - mean[j]) * (m[j] - mean[j]);
        }
    }
    return d / models.size();
}

/** \return the models as doubles */
std::vector<std::vector<double>>
ToDouble(const std::vector<std::vector<float>>& models)
{
    std::vector<std::vector<double>> x;
    for (const auto& m : models)
    {
        x.emplace_back(m.begin(), m.end());
    }
    return x;
}

/**
 * BrainTorrent: with a hand-kept version vector per device, the aggregator merges exactly
 * the newer peers' models (n_k-weighted), only they send a model, and the bytes per round
 * are ping + answers + models.
 */
class BrainTorrentMergeTestCase : public TestCase
{
  public:
    BrainTorrentMergeTestCase()
        : TestCase("BrainTorrent (LearningRate 0): only newer peers send models, the "
                   "aggregator holds their n_k-weighted average with its own, bytes per round "
                   "= ping + answers + models")
    {
    }

  private:
    void DoRun() override
    {
        P2pSetup s;
        s.protocol = "bt";
        s.nDevices = 6;
        s.rounds = 10; // more rounds than devices: aggregators repeat
        const P2pOutcome o = RunP2pProtocol(s);
        const uint32_t k = s.nDevices;
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, "every round completes");
        NS_TEST_ASSERT_MSG_EQ(o.aggregator.size(), s.rounds, "a merge per round");
        NS_TEST_ASSERT_MSG_EQ(o.lostRecords, 0u, "no message lost (half-duplex scheduled)");
        NS_TEST_ASSERT_MSG_EQ(o.nParams, 116u, "MLP 2-16-4: 2x16+16+16x4+4 parameters");

        const uint64_t versionBytes = 32 + 4 * k; // header + K uint32 versions
        const uint64_t modelBytes = 32 + 4 * o.nParams;
        NS_TEST_ASSERT_MSG_EQ(D2dBrainTorrent::VersionMessageBytes(k), versionBytes, "ping size");

        // Hand-kept state: own versions (1 after the initial training) and merged versions.
        std::vector<uint32_t> own(k, 1);
        std::vector<std::vector<uint32_t>> mergedVersion(k, std::vector<uint32_t>(k, 0));
        for (uint32_t d = 0; d < k; ++d)
        {
            mergedVersion[d][d] = 1; // v_d[d]: its own version
        }
        auto x = ToDouble(o.initial);
        double worst = 0;
        uint32_t partialRounds = 0;
        uint64_t totalBytes = 0;
        bool sameSets = true;
        bool sameVersions = true;
        bool bytesMatch = true;
        for (uint32_t r = 1; r <= s.rounds; ++r)
        {
            const uint32_t i = o.aggregator[r - 1];
            std::set<uint32_t> newer;
            for (uint32_t j = 0; j < k; ++j)
            {
                if (j != i && own[j] > mergedVersion[i][j])
                {
                    newer.insert(j);
                }
            }
            // The messages of round r, from the radios' Send traces.
            uint32_t pings = 0;
            uint32_t answers = 0;
            std::set<uint32_t> modelSenders;
            uint64_t bytes = 0;
            for (const auto& m : o.sent)
            {
                if (m.round != r)
                {
                    continue;
                }
                bytes += m.bytes;
                if (m.kind == "bt_ping")
                {
                    ++pings;
                    // The ping: one multicast naming every other device.
                    sameVersions = sameVersions && m.src == i && m.dst == D2D_MULTICAST &&
                                   m.versions == mergedVersion[i] && m.bytes == versionBytes;
                    sameVersions = sameVersions && m.versions[i] == own[i];
                }
                else if (m.kind == "bt_answer")
                {
                    ++answers;
                    sameVersions = sameVersions && m.dst == i && m.bytes == versionBytes &&
                                   m.versions[m.src] == own[m.src] &&
                                   m.modelFollows == (newer.count(m.src) > 0);
                }
                else if (m.kind == "bt_model")
                {
                    modelSenders.insert(m.src);
                    sameVersions = sameVersions && m.dst == i && m.bytes == modelBytes;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(pings, 1u, "one ping in round " << r);
            NS_TEST_ASSERT_MSG_EQ(answers, k - 1, "K - 1 answers in round " << r);
            sameSets = sameSets && modelSenders == newer;
            std::vector<uint32_t> expected(newer.begin(), newer.end());
            expected.push_back(i);
            std::sort(expected.begin(), expected.end());
            sameSets = sameSets && o.merged[r - 1] == expected;
            partialRounds += newer.size() < k - 1 ? 1 : 0;
            const uint64_t formula = versionBytes * k + modelBytes * newer.size();
            bytesMatch = bytesMatch && bytes == formula && o.roundBytes.count(r) &&
                         o.roundBytes.at(r) == static_cast<double>(formula);
            totalBytes += formula;

            // w_i <- sum n_k w_k / sum n_k over {i} u newer; LR 0: training keeps it.
            std::vector<double> avg(x[i].size(), 0.0);
            double n = 0;
            for (auto c : expected)
            {
                n += o.samples[c];
            }
            for (auto c : expected)
            {
                for (std::size_t j = 0; j < avg.size(); ++j)
                {
                    avg[j] += o.samples[c] / n * x[c][j];
                }
            }
            x[i] = avg;
            for (auto j : newer)
            {
                mergedVersion[i][j] = own[j];
            }
            ++own[i];
            mergedVersion[i][i] = own[i];
            for (uint32_t d = 0; d < k; ++d)
            {
                worst = std::max(worst, MaxRelError(o.params[r - 1][d], x[d]));
            }
        }
        std::printf("BrainTorrent: aggregators");
        for (auto a : o.aggregator)
        {
            std::printf(" %u", a);
        }
        std::printf("; %u of %u rounds with fewer than K-1 newer peers; %llu bytes\n",
                    partialRounds,
                    s.rounds,
                    static_cast<unsigned long long>(totalBytes));
        NS_TEST_ASSERT_MSG_EQ(sameSets, true, "models sent and merged = the newer peers");
        NS_TEST_ASSERT_MSG_EQ(sameVersions, true, "version vectors in pings and answers");
        NS_TEST_ASSERT_MSG_GT(partialRounds, 0u, "some round has peers that are not newer");
        NS_TEST_ASSERT_MSG_LT(worst, 1e-6, "aggregator model = n_k-weighted average");
        NS_TEST_ASSERT_MSG_EQ(bytesMatch, true, "bytes per round: messages and rounds.csv");
        NS_TEST_ASSERT_MSG_EQ(o.bytesSent, totalBytes, "GetBytesSent");
        NS_TEST_ASSERT_MSG_EQ(o.roundBytes.at(0), 0.0, "the initial training sends nothing");
    }
};

/** \return the messages of a kind and round */
std::vector<SentMessage>
Messages(const P2pOutcome& o, const std::string& kind, uint32_t round)
{
    std::vector<SentMessage> v;
    for (const auto& m : o.sent)
    {
        if (m.kind == kind && m.round == round)
        {
            v.push_back(m);
        }
    }
    return v;
}

/**
 * Replays segmented gossip from the messages: each device's segment s is the average of its
 * own segment and those sent to it (and delivered, if onlyDelivered).
 * \return the worst relative error over rounds and whether the traced contributors matched
 */
std::pair<double, bool>
ReplaySegments(const P2pSetup& s, const P2pOutcome& o, bool onlyDelivered)
{
    const auto ranges = D2dSegmentedGossip::SegmentRanges(o.nParams, s.segments);
    auto x = ToDouble(o.initial);
    double worst = 0;
    bool same = true;
    for (uint32_t r = 1; r <= o.roundsDone; ++r)
    {
        // from[(device, segment)]: devices whose segment was sent to it
        std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> from;
        for (const auto& m : Messages(o, "sg_segment", r))
        {
            if (!onlyDelivered || o.delivered.count(m.id))
            {
                from[{m.dst, m.segment}].insert(m.src);
            }
        }
        auto next = x;
        for (uint32_t d = 0; d < s.nDevices; ++d)
        {
            for (uint32_t seg = 0; seg < ranges.size(); ++seg)
            {
                std::set<uint32_t> c = from[{d, seg}];
                c.insert(d);
                const std::vector<uint32_t> cv(c.begin(), c.end());
                const auto traced = o.segAverage.at(r - 1).find({d, seg});
                same = same && traced != o.segAverage.at(r - 1).end() && traced->second == cv;
                double n = 0;
                for (auto k : c)
                {
                    n += s.weighting == "samples" ? o.samples[k] : 1.0;
                }
                for (uint64_t j = ranges[seg].first; j < ranges[seg].second; ++j)
                {
                    double v = 0;
                    for (auto k : c)
                    {
                        v += (s.weighting == "samples" ? o.samples[k] : 1.0) / n * x[k][j];
                    }
                    next[d][j] = v;
                }
            }
        }
        x = next;
        for (uint32_t d = 0; d < s.nDevices; ++d)
        {
            worst = std::max(worst, MaxRelError(o.params[r - 1][d], x[d]));
        }
    }
    return {worst, same};
}

/** Segmented gossip: pulls, segment averages and bytes. */
class SegmentedGossipAverageTestCase : public TestCase
{
  public:
    SegmentedGossipAverageTestCase()
        : TestCase("Segmented gossip (LearningRate 0): every segment of every device is the "
                   "average of the segments it pulled from R distinct peers; bytes per round "
                   "= K R (2 S HeaderBytes + b P)")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string weighting : {"samples", "uniform"})
        {
            P2pSetup s;
            s.protocol = "sg";
            s.nDevices = 6;
            s.rounds = 2;
            s.segments = 4;
            s.replicas = 2;
            s.weighting = weighting;
            const P2pOutcome o = RunP2pProtocol(s);
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 2u, "every round completes");
            NS_TEST_ASSERT_MSG_EQ(o.lostRecords, 0u, "no message lost (half-duplex scheduled)");
            const auto ranges = D2dSegmentedGossip::SegmentRanges(o.nParams, s.segments);
            NS_TEST_ASSERT_MSG_EQ(ranges.size(), 4u, "4 segments");
            NS_TEST_ASSERT_MSG_EQ(ranges[0].first, 0u, "first segment starts at 0");
            NS_TEST_ASSERT_MSG_EQ(ranges[1].first, 29u, "floor(116 / 4)");
            NS_TEST_ASSERT_MSG_EQ(ranges[3].second, 116u, "last segment ends at P");
            bool pulls = true;
            bool sizes = true;
            bool bytesMatch = true;
            uint64_t total = 0;
            for (uint32_t r = 1; r <= s.rounds; ++r)
            {
                // Requests: per (device, segment), R distinct peers other than itself.
                std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> asked;
                uint64_t bytes = 0;
                for (const auto& m : Messages(o, "sg_request", r))
                {
                    asked[{m.src, m.segment}].push_back(m.dst);
                    sizes = sizes && m.bytes == 32;
                    bytes += m.bytes;
                }
                pulls = pulls && asked.size() == s.nDevices * s.segments;
                for (const auto& [key, peers] : asked)
                {
                    const std::set<uint32_t> distinct(peers.begin(), peers.end());
                    pulls = pulls && peers.size() == s.replicas && distinct.size() == s.replicas &&
                            !distinct.count(key.first);
                }
                // Segments: one per request, the requested segment, 32 + 4 bytes per value.
                std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> served;
                for (const auto& m : Messages(o, "sg_segment", r))
                {
                    served[{m.dst, m.segment}].push_back(m.src);
                    const uint64_t len = ranges[m.segment].second - ranges[m.segment].first;
                    sizes = sizes && m.bytes == 32 + 4 * len;
                    bytes += m.bytes;
                }
                for (auto& [key, peers] : asked)
                {
                    std::sort(peers.begin(), peers.end());
                    auto got = served[key];
                    std::sort(got.begin(), got.end());
                    pulls = pulls && got == peers;
                }
                // K R (2 S 32 + 4 P)
                const uint64_t formula =
                    s.nDevices * s.replicas * (2 * s.segments * 32 + 4 * o.nParams);
                bytesMatch = bytesMatch && bytes == formula &&
                             o.roundBytes.at(r) == static_cast<double>(formula);
                total += formula;
            }
            const auto [worst, same] = ReplaySegments(s, o, false);
            std::printf("segmented gossip (%s): %llu bytes in 2 rounds, worst error %.3g\n",
                        weighting.c_str(),
                        static_cast<unsigned long long>(total),
                        worst);
            NS_TEST_ASSERT_MSG_EQ(pulls, true, "R distinct peers per segment, each answers");
            NS_TEST_ASSERT_MSG_EQ(sizes, true, "request and segment sizes");
            NS_TEST_ASSERT_MSG_EQ(bytesMatch, true, "bytes per round = formula (rounds.csv)");
            NS_TEST_ASSERT_MSG_EQ(o.bytesSent, total, "GetBytesSent");
            NS_TEST_ASSERT_MSG_EQ(same, true, "traced contributors = the senders");
            NS_TEST_ASSERT_MSG_LT(worst, 1e-6, "segment averages by hand");
        }

        // A slow device (job 1000 times longer): the others average before it pulls from
        // them, and still serve it their w^{t+1/2}, not their averaged model.
        P2pSetup w;
        w.protocol = "sg";
        w.nDevices = 6;
        w.rounds = 2;
        w.segments = 4;
        w.replicas = 1;
        w.slowdown[0] = 1000.0;
        const P2pOutcome slow = RunP2pProtocol(w);
        uint32_t servedAfter = 0;
        for (uint32_t r = 1; r <= w.rounds; ++r)
        {
            for (const auto& m : Messages(slow, "sg_segment", r))
            {
                servedAfter += m.time > slow.averageTime.at(r - 1).at(m.src) ? 1 : 0;
            }
        }
        const auto [slowWorst, slowSame] = ReplaySegments(w, slow, false);
        std::printf("slow device: %u segments served after their sender averaged, worst error "
                    "%.3g\n",
                    servedAfter,
                    slowWorst);
        NS_TEST_ASSERT_MSG_EQ(slow.roundsDone, 2u, "slow device: every round completes");
        NS_TEST_ASSERT_MSG_GT(servedAfter, 0u, "segments served after their sender averaged");
        NS_TEST_ASSERT_MSG_EQ(slowSame, true, "slow device: contributors = the senders");
        NS_TEST_ASSERT_MSG_LT(slowWorst, 1e-6, "slow device: averages of w^{t+1/2} segments");

        // float16: 2 bytes per value on the air.
        P2pSetup h;
        h.protocol = "sg";
        h.nDevices = 5;
        h.rounds = 1;
        h.segments = 10;
        h.replicas = 3;
        h.compression = "float16";
        const P2pOutcome o = RunP2pProtocol(h);
        NS_TEST_ASSERT_MSG_EQ(o.roundBytes.at(1),
                              5.0 * 3 * (2 * 10 * 32 + 2 * 116),
                              "float16 bytes");
    }
};

/** Segmented gossip mixes: the consensus distance falls every round. */
class SegmentedGossipConsensusTestCase : public TestCase
{
  public:
    SegmentedGossipConsensusTestCase()
        : TestCase("Segmented gossip (defaults S = 10, R = 3; LearningRate 0): the consensus "
                   "distance falls every round, by a factor > 300 in 5 rounds")
    {
    }

  private:
    void DoRun() override
    {
        P2pSetup s;
        s.protocol = "sg";
        s.nDevices = 8;
        s.rounds = 5;
        s.segments = 10;
        s.replicas = 3;
        const P2pOutcome o = RunP2pProtocol(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 5u, "every round completes");
        const double d0 = ConsensusDistance(ToDouble(o.initial));
        NS_TEST_ASSERT_MSG_EQ_TOL(o.consensus.at(0), d0, 1e-6 * d0, "round 0: the initial models");
        std::printf("segmented gossip consensus distance:");
        bool falls = true;
        for (uint32_t r = 0; r <= s.rounds; ++r)
        {
            std::printf(" %.4g", o.consensus.at(r));
            falls = falls && (r == 0 || o.consensus.at(r) < o.consensus.at(r - 1));
        }
        std::printf("\n");
        NS_TEST_ASSERT_MSG_EQ(falls, true, "falls every round");
        NS_TEST_ASSERT_MSG_LT(o.consensus.at(5), d0 / 300, "factor > 300 in 5 rounds");
        const auto [worst, same] = ReplaySegments(s, o, false);
        NS_TEST_ASSERT_MSG_EQ(same, true, "traced contributors = the senders");
        NS_TEST_ASSERT_MSG_LT(worst, 1e-6, "segment averages by hand");
    }
};

/** Lossy channel and a dead battery: rounds complete, averages over what arrived. */
class LossTestCase : public TestCase
{
  public:
    LossTestCase()
        : TestCase("P_D = 0.1 (unreliable) and a dead battery: both protocols complete their "
                   "rounds with the deadline, averaging what arrived")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string protocol : {"sg", "bt"})
        {
            P2pSetup s;
            s.protocol = protocol;
            s.nDevices = 8;
            s.rounds = protocol == "sg" ? 3 : 8;
            s.segments = 10;
            s.replicas = 3;
            s.noiseW = NoiseForDropW(0.1, kRssW, 2.0);
            s.mode = D2dDeliveryMode::UNRELIABLE;
            s.deadline = Seconds(1.0);
            const P2pOutcome o = RunP2pProtocol(s);
            uint32_t sent = 0;
            for (const auto& m : o.sent)
            {
                sent += m.dst == D2D_BROADCAST ? s.nDevices - 1 : 1;
            }
            std::printf("%s, P_D 0.1: %u of %u (message, receiver) pairs lost\n",
                        protocol.c_str(),
                        o.lostRecords,
                        sent);
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, protocol << ": every round completes");
            NS_TEST_ASSERT_MSG_GT(o.lostRecords, 0u, protocol << ": messages were lost");
            // Loss ~ Binomial(sent, 0.1): within 5 standard deviations.
            const double mean = 0.1 * sent;
            NS_TEST_ASSERT_MSG_LT(std::fabs(o.lostRecords - mean),
                                  5 * std::sqrt(mean * 0.9),
                                  protocol << ": about P_D of the messages lost");
            bool beforeDeadline = true;
            for (const auto& [r, t] : o.roundTime)
            {
                beforeDeadline = beforeDeadline && t < 1.0;
            }
            NS_TEST_ASSERT_MSG_EQ(beforeDeadline,
                                  true,
                                  protocol << ": losses are known, rounds end before the deadline");
            if (protocol == "sg")
            {
                const auto [worst, same] = ReplaySegments(s, o, true);
                NS_TEST_ASSERT_MSG_EQ(same, true, "contributors = the segments delivered");
                NS_TEST_ASSERT_MSG_LT(worst, 1e-6, "averages over what arrived");
            }
            else
            {
                // Merged: the aggregator and the models delivered, except a model whose
                // answer was lost, which the aggregator did not wait for.
                bool subset = true;
                uint32_t merged = 0;
                for (uint32_t r = 1; r <= s.rounds; ++r)
                {
                    std::set<uint32_t> answered;
                    for (const auto& m : Messages(o, "bt_answer", r))
                    {
                        if (o.delivered.count(m.id))
                        {
                            answered.insert(m.src);
                        }
                    }
                    const auto& c = o.merged[r - 1];
                    std::set<uint32_t> arrived;
                    for (const auto& m : Messages(o, "bt_model", r))
                    {
                        const bool in = std::count(c.begin(), c.end(), m.src) > 0;
                        const bool ok = o.delivered.count(m.id) > 0;
                        subset = subset && (!in || ok) && (in || !ok || !answered.count(m.src));
                        merged += in ? 1 : 0;
                    }
                    subset = subset && std::count(c.begin(), c.end(), o.aggregator[r - 1]) == 1;
                }
                std::printf("bt, P_D 0.1: %u models merged in %u rounds\n", merged, s.rounds);
                NS_TEST_ASSERT_MSG_EQ(subset, true, "merged = the models delivered");
                NS_TEST_ASSERT_MSG_GT(merged, 0u, "models were merged");
            }

            // Device 2's battery (0.02 J) dies in its first job (2 W for 23 ms).
            P2pSetup d = s;
            d.noiseW = 1e-40;
            d.mode = D2dDeliveryMode::RELIABLE;
            d.flopsPerSecond = 1e7;
            d.energyJ[2] = 0.02;
            const P2pOutcome dead = RunP2pProtocol(d);
            NS_TEST_ASSERT_MSG_EQ(dead.roundsDone, d.rounds, protocol << ": rounds go on");
            NS_TEST_ASSERT_MSG_EQ(dead.radioOffAtEnd[2], true, "device 2's radio is off");
            bool out = true;
            for (const auto& m : dead.sent)
            {
                out = out && m.src != 2;
            }
            if (protocol == "bt")
            {
                for (uint32_t r = 0; r < d.rounds; ++r)
                {
                    out = out && dead.aggregator[r] != 2 &&
                          std::count(dead.merged[r].begin(), dead.merged[r].end(), 2u) == 0;
                }
                // The initial training waits for device 2 until the deadline; later rounds
                // do not wait for it.
                NS_TEST_ASSERT_MSG_EQ_TOL(dead.roundTime.at(0), 1.0, 1e-9, "round 0 deadline");
            }
            else
            {
                for (const auto& rounds : dead.segAverage)
                {
                    for (const auto& [key, c] : rounds)
                    {
                        out = out && key.first != 2 && std::count(c.begin(), c.end(), 2u) == 0;
                    }
                }
                NS_TEST_ASSERT_MSG_EQ_TOL(dead.roundTime.at(1), 1.0, 1e-9, "round 1 deadline");
            }
            for (uint32_t r = 2; r <= d.rounds; ++r)
            {
                NS_TEST_ASSERT_MSG_LT(dead.roundTime.at(r), 0.5, "later rounds do not wait");
            }
            NS_TEST_ASSERT_MSG_EQ(out, true, protocol << ": the dead device takes no part");
        }
    }
};

/** With learning, on one label per device, both protocols learn every class. */
class P2pLearningTestCase : public TestCase
{
  public:
    P2pLearningTestCase()
        : TestCase("With learning (LearningRate 0.1, one label per device) the devices learn "
                   "the classes of the others")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string protocol : {"sg", "bt"})
        {
            P2pSetup s;
            s.protocol = protocol;
            s.nDevices = 8;
            s.rounds = protocol == "sg" ? 5 : 16;
            s.segments = 10;
            s.replicas = 3;
            s.learningRate = 0.1;
            s.commonInit = true;
            s.partition = "labels1";
            const P2pOutcome o = RunP2pProtocol(s);
            double mean = 0;
            double worst = 1;
            for (auto a : o.deviceAccuracy)
            {
                mean += a / s.nDevices;
                worst = std::min(worst, a);
            }
            std::printf("%s, one label per device, %u rounds: mean device accuracy %.4f (min "
                        "%.4f), mean model %.4f; devices",
                        protocol.c_str(),
                        s.rounds,
                        mean,
                        worst,
                        o.meanModel.at(s.rounds));
            for (auto a : o.deviceAccuracy)
            {
                std::printf(" %.3f", a);
            }
            if (!o.aggregator.empty())
            {
                std::printf("; aggregators");
            }
            for (auto a : o.aggregator)
            {
                std::printf(" %u", a);
            }
            std::printf("\n");
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, s.rounds, protocol << ": every round");
            // Same seed, same run: the same messages at the same times, the same models.
            const P2pOutcome again = RunP2pProtocol(s);
            bool same = again.sent.size() == o.sent.size() && again.params == o.params;
            for (std::size_t m = 0; same && m < o.sent.size(); ++m)
            {
                same = again.sent[m].id == o.sent[m].id && again.sent[m].time == o.sent[m].time &&
                       again.sent[m].src == o.sent[m].src && again.sent[m].dst == o.sent[m].dst &&
                       again.sent[m].bytes == o.sent[m].bytes;
            }
            NS_TEST_ASSERT_MSG_EQ(same, true, protocol << ": deterministic");
            // A model trained on one label is right on about a quarter of the balanced test
            // set (< 0.40 in d2d-fl-decentralized's local training); Bayes accuracy 0.955.
            if (protocol == "sg")
            {
                NS_TEST_ASSERT_MSG_GT(worst, 0.80, "every device learns all classes");
            }
            else
            {
                // Only the aggregator trains, on its one label after merging: the merged
                // knowledge shows in the devices that aggregated and in the mean model.
                NS_TEST_ASSERT_MSG_GT(o.meanModel.at(s.rounds), 0.90, "the mean model");
                for (uint32_t d = 0; d < s.nDevices; ++d)
                {
                    const bool aggregated =
                        std::count(o.aggregator.begin(), o.aggregator.end(), d) > 0;
                    if (aggregated)
                    {
                        NS_TEST_ASSERT_MSG_GT(o.deviceAccuracy[d], 0.45, "aggregator " << d);
                    }
                    else
                    {
                        NS_TEST_ASSERT_MSG_LT(o.deviceAccuracy[d], 0.40, "never merged: " << d);
                    }
                }
            }
        }
    }
};

class D2dFlP2pTestSuite : public TestSuite
{
  public:
    D2dFlP2pTestSuite()
        : TestSuite("d2d-fl-p2p")
    {
        AddTestCase(new BrainTorrentMergeTestCase);
        AddTestCase(new SegmentedGossipAverageTestCase);
        AddTestCase(new SegmentedGossipConsensusTestCase);
        AddTestCase(new LossTestCase);
        AddTestCase(new P2pLearningTestCase);
    }
};

static D2dFlP2pTestSuite g_d2dFlP2pTestSuite;

} // namespace
