/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-cmfl": the CMFL protocol of Che et al. 2022 (learning/cmfl/d2d-cmfl.h) end to end
 * with real LibTorch learners on the 4-class Gaussian mixture of Fan et al. 2023, sec. 5.1,
 * over the D2D channel with Scheduled access (CMFL and the CCP do no half-duplex scheduling
 * of their own), and over the packet-level Wi-Fi backend.
 *
 * - one round, no loss: the aggregation set, the global model and the next committee
 *   equal an independent computation from the devices' trained models (scores
 *   1/||g_k - g_c||^2, final score C / sum 1/P, top alpha%, n_k-weighted aggregation,
 *   middle ranks);
 * - back-gradient attackers among the training clients: strategy I never aggregates them,
 *   strategy II does; committee.csv counts them (N1, N3);
 * - a lossy channel (P_D = 0.2 per fragment, at most 1 retransmission): every round
 *   completes, ccp.csv has timeouts and a later primary reaching consensus, every vote's
 *   quorum is floor(C/2) + 1 of that round's committee and no consensus has fewer replies;
 * - the same seed gives identical traces;
 * - CMFL and the CCP take their own message kinds from the transports: a third handler
 *   registered by the test sees every kind, and no CCP message reaches CMFL's kinds;
 * - one round over Wi-Fi (D2dWifiTransport, reliable): the same S_c^1, S_b^1, S_a^1,
 *   S_c^2 and, bit for bit, the same w^2 as over the D2D channel (the outcome depends only
 *   on the messages' contents, which both backends deliver completely), matching the
 *   independent computation;
 * - Immediate access (raw radios): rounds still complete, with half-duplex losses;
 * - the trace writers (D2dCmflTraceWriter, D2dTraceHelper::ConnectRounds) write
 *   committee.csv, ccp.csv and rounds.csv rows equal to what the Committee, Step and
 *   RoundRecord traces fired, and aggregation.csv counts equal to those summed over the
 *   Committee records; without writers the same run fires the same records and writes
 *   nothing.
 */

#include "d2d-test-fixtures.h"

#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-cmfl-trace-writer.h"
#include "ns3/d2d-cmfl.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
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
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct CmflSetup
{
    uint32_t nDevices{10};
    uint32_t rounds{1};
    uint32_t strategy{1};
    double committeeFraction{0.4};
    double aggregationFraction{0.5};
    double activationFraction{1};
    uint32_t maliciousTraining{0};  //!< training clients of round 1 made back-gradient attackers
    uint32_t maliciousMembers{0};   //!< committee members of round 1 made attackers too
    std::string quorum{"majority"}; //!< the CCP's Quorum
    std::string failedVote{"step-down"};                  //!< FailedVote
    std::string maliciousCommittee{"attacked-reference"}; //!< MaliciousCommittee
    std::string attackSpace{"update"};                    //!< AttackSpace
    std::string aggregationBase{"training"};              //!< AggregationBase
    double dropProbability{0};                            //!< > 0: P_D of every link (eq. 18)
    D2dDeliveryMode mode{D2dDeliveryMode::RELIABLE};
    uint32_t maxRetransmissions{7}; //!< reliable mode: per fragment
    std::string outDir;             //!< traces (empty: none)
    uint64_t seed{1};
    bool wifi{false}; //!< the Wi-Fi backend instead of the D2D channel (no traces)
    D2dChannelAccess::Policy access{D2dChannelAccess::SCHEDULED}; //!< D2D channel only
};

/** A record of the Step trace, with the time it was fired. */
struct StepRecord
{
    uint32_t round;
    std::string step;
    uint32_t attempt;
    int64_t primary;
    uint32_t replies;
    uint32_t quorum;
    std::string outcome;
    double timeS;
};

/** A record of the RoundRecord trace, with the time it was fired. */
struct RoundRecord
{
    uint32_t round;
    double timeS;
    int64_t node;
    std::string metric;
    double value;
};

struct CmflOutcome
{
    std::vector<float> w1;                         //!< w^1
    std::vector<uint32_t> committee1;              //!< S_c^1
    std::vector<uint32_t> training1;               //!< S_b^1
    std::vector<uint32_t> malicious;               //!< attackers
    std::vector<std::vector<float>> after;         //!< round 1 end: every device's parameters
    std::vector<uint64_t> samples;                 //!< n_k
    std::vector<float> global1;                    //!< w^2 (after round 1)
    std::vector<uint32_t> aggregated1;             //!< S_a^1
    std::vector<uint32_t> committee2;              //!< S_c^2
    std::vector<std::vector<uint32_t>> aggregated; //!< S_a^t per round
    uint32_t roundsDone{0};
    std::map<std::string, uint32_t> kinds; //!< receptions by kind (a handler of every kind)
    uint32_t halfDuplex{0};                //!< records lost to half-duplex
    /** Committee records as fired, with their times (s) */
    std::vector<std::pair<double, D2dCmfl::CommitteeRecord>> committeeRecords;
    std::vector<StepRecord> steps;         //!< Step records as fired
    std::vector<RoundRecord> roundRecords; //!< RoundRecord records as fired
};

/** \return n devices 3 m apart in rows of 5 */
NodeContainer
MakeGridNodes(uint32_t n)
{
    NodeContainer nodes;
    nodes.Create(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto m = CreateObject<ConstantPositionMobilityModel>();
        m->SetPosition(Vector(3.0 * (i % 5), 3.0 * (i / 5), 0));
        nodes.Get(i)->AggregateObject(m);
    }
    return nodes;
}

/**
 * \return the packet-level backend's transports on the nodes (802.11a ad hoc, 6 Mbit/s; the
 * devices are at most 13 m apart, well within range); the D2D radios stay idle
 * \param nodes the devices
 */
std::vector<Ptr<D2dTransport>>
WifiTransports(const NodeContainer& nodes)
{
    D2dWifiHelper wifi;
    std::vector<Ptr<D2dTransport>> transports;
    for (const auto& t : wifi.Install(nodes))
    {
        // The simultaneous score multicasts are spread by the transports' GroupJitter.
        transports.push_back(t);
    }
    wifi.AssignStreams(1000);
    return transports;
}

/** \brief Count the messages received by kind, and the half-duplex losses, into out. */
void
CountMessages(const std::vector<Ptr<D2dTransport>>& transports, CmflOutcome& out)
{
    for (const auto& t : transports)
    {
        t->AddReceiveHandler(Callback<void, const D2dReception&>(
            [&out](const D2dReception& r) { ++out.kinds[r.message->GetKind()]; }));
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out](const D2dDeliveryRecord& r) {
                out.halfDuplex += r.reason == "half_duplex";
            }));
    }
}

CmflOutcome
RunCmfl(const CmflSetup& s)
{
    const D2dTestData& data = GaussianTestData(21, 22, 2000, 500);
    NodeContainer nodes = MakeGridNodes(s.nDevices);
    D2dHelper d2d; // over Wi-Fi too: the compute models and batteries of the learners
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    d2d.SetChannelAttribute("AccessPolicy", EnumValue(s.access));
    d2d.SetInitialEnergyJ(1e9);
    d2d.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e9));
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    channel->SetAttribute("MaxRetransmissions", UintegerValue(s.maxRetransmissions));
    d2d.AssignStreams(10);
    std::vector<Ptr<D2dTransport>> transports = channel->GetTransports();
    if (s.wifi)
    {
        transports = WifiTransports(nodes);
    }
    CmflOutcome out;
    CountMessages(transports, out);
    if (s.dropProbability > 0)
    {
        // Eq. 18: every link gets the same P_D by fixing the RSS (FixedDistanceM) and
        // choosing the noise.
        channel->SetAttribute("FixedDistanceM", DoubleValue(5.0));
        SetUniformDropProbability(channel, s.dropProbability, 1, 0);
    }
    std::unique_ptr<D2dTraceHelper> traces;
    if (!s.outDir.empty())
    {
        traces = std::make_unique<D2dTraceHelper>(s.outDir);
        traces->ConnectChannel(channel);
    }
    const auto shards = D2dPartitioner::Iid(*data.train, s.nDevices, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("logistic");
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        auto l = MakeTestLearner(nodes, i, spec, data.train, shards, s.seed, 0.1);
        learners.push_back(l);
        out.samples.push_back(l->GetNSamples());
    }
    auto cmfl = CreateObjectWithAttributes<D2dCmfl>("CommitteeFraction",
                                                    DoubleValue(s.committeeFraction),
                                                    "AggregationFraction",
                                                    DoubleValue(s.aggregationFraction),
                                                    "ActivationFraction",
                                                    DoubleValue(s.activationFraction),
                                                    "Strategy",
                                                    UintegerValue(s.strategy),
                                                    "PhaseTimeout",
                                                    TimeValue(Seconds(5)));
    cmfl->GetConsensus()->SetAttribute("RequestTimeout", TimeValue(Seconds(1)));
    cmfl->GetConsensus()->SetAttribute("Quorum", StringValue(s.quorum));
    cmfl->SetAttribute("FailedVote", StringValue(s.failedVote));
    cmfl->SetAttribute("MaliciousCommittee", StringValue(s.maliciousCommittee));
    cmfl->SetAttribute("AttackSpace", StringValue(s.attackSpace));
    cmfl->SetAttribute("AggregationBase", StringValue(s.aggregationBase));
    cmfl->SetAttribute("Rounds", UintegerValue(s.rounds));
    cmfl->SetLearners(learners);
    cmfl->SetTransports(transports, s.mode);
    cmfl->SetTestSet(data.test);
    std::unique_ptr<D2dCmflTraceWriter> writer;
    if (traces)
    {
        traces->ConnectRounds(cmfl);
        writer = std::make_unique<D2dCmflTraceWriter>(*traces);
        writer->Connect(cmfl);
    }
    // What the trace sources fire, whether or not a writer is connected.
    cmfl->TraceConnectWithoutContext(
        "Committee",
        Callback<void, const D2dCmfl::CommitteeRecord&>([&out](const D2dCmfl::CommitteeRecord& r) {
            out.committeeRecords.emplace_back(Simulator::Now().GetSeconds(), r);
        }));
    cmfl->GetConsensus()->TraceConnectWithoutContext(
        "Step",
        Callback<void,
                 uint32_t,
                 const std::string&,
                 uint32_t,
                 int64_t,
                 uint32_t,
                 uint32_t,
                 const std::string&>([&out](uint32_t round,
                                            const std::string& step,
                                            uint32_t attempt,
                                            int64_t primary,
                                            uint32_t replies,
                                            uint32_t quorum,
                                            const std::string& outcome) {
            out.steps.push_back({round,
                                 step,
                                 attempt,
                                 primary,
                                 replies,
                                 quorum,
                                 outcome,
                                 Simulator::Now().GetSeconds()});
        }));
    cmfl->TraceConnectWithoutContext(
        "RoundRecord",
        Callback<void, uint32_t, int64_t, const std::string&, double>([&out](
                                                                          uint32_t round,
                                                                          int64_t node,
                                                                          const std::string& metric,
                                                                          double value) {
            out.roundRecords.push_back({round, Simulator::Now().GetSeconds(), node, metric, value});
        }));
    cmfl->AssignStreams(100 + s.seed);
    cmfl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    cmfl->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&](uint32_t round, double, double) {
            out.aggregated.push_back(cmfl->GetAggregated());
            if (round == 1)
            {
                for (auto& l : learners)
                {
                    out.after.push_back(l->GetParameters());
                }
                out.global1 = cmfl->GetGlobalModel();
                out.aggregated1 = cmfl->GetAggregated();
                out.committee2 = cmfl->GetCommittee();
            }
        }));
    cmfl->Start(); // draws S_c^1, S_b^1 and w^1, and sends w^1
    out.w1 = cmfl->GetGlobalModel();
    out.committee1 = cmfl->GetCommittee();
    out.training1 = cmfl->GetTraining();
    out.malicious.assign(out.training1.begin(), out.training1.begin() + s.maliciousTraining);
    out.malicious.insert(out.malicious.end(),
                         out.committee1.begin(),
                         out.committee1.begin() + s.maliciousMembers);
    cmfl->SetMalicious(out.malicious, D2dAttackType::BACK_GRADIENT);
    Simulator::Stop(Seconds(1e5));
    Simulator::Run();
    out.roundsDone = cmfl->GetRoundsDone();
    if (traces)
    {
        writer->WriteClientCounts();
        traces->Finish(s.seed, 0.0);
    }
    Simulator::Destroy();
    return out;
}

/**
 * The paper's scores, recomputed independently (double precision).
 * \param o the run
 * \param weights the back-gradient attackers (o.malicious) attack their weights (g_k = w^1 -
 *        (-w_k) = w^1 + w_k) instead of their update (g_k = -(w^1 - w_k)); committee members
 *        included (the authors' attacked reference)
 */
std::map<uint32_t, double>
IndependentFinalScores(const CmflOutcome& o, bool weights = false)
{
    auto gradient = [&o, weights](uint32_t d) {
        const bool bad = std::count(o.malicious.begin(), o.malicious.end(), d) > 0;
        std::vector<double> g(o.w1.size());
        for (std::size_t j = 0; j < g.size(); ++j)
        {
            const float honest = o.w1[j] - o.after[d][j];
            const float attacked = weights ? o.w1[j] + o.after[d][j] : -honest;
            g[j] = static_cast<double>(bad ? attacked : honest);
        }
        return g;
    };
    std::map<uint32_t, double> finals;
    for (auto k : o.training1)
    {
        const auto gk = gradient(k);
        double inverseSum = 0; // sum_c 1/P_k^c = sum_c ||g_k - g_c||^2
        for (auto c : o.committee1)
        {
            const auto gc = gradient(c);
            double d2 = 0;
            for (std::size_t j = 0; j < gk.size(); ++j)
            {
                d2 += (gk[j] - gc[j]) * (gk[j] - gc[j]);
            }
            inverseSum += d2;
        }
        finals[k] = static_cast<double>(o.committee1.size()) / inverseSum;
    }
    return finals;
}

/** Scores, selection, aggregation and election against an independent computation. */
class CmflRoundTestCase : public TestCase
{
  public:
    CmflRoundTestCase()
        : TestCase("one lossless round: S_a, w^2 and S_c^2 as computed by hand")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t strategy : {1u, 2u})
        {
            CmflSetup s;
            s.strategy = strategy;
            const CmflOutcome o = RunCmfl(s);
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 1u, "the round completes");
            // 10 devices active: C = round(0.4 x 10) = 4, n = 6, m = round(0.5 x 6) = 3.
            NS_TEST_ASSERT_MSG_EQ(o.committee1.size(), 4u, "C");
            NS_TEST_ASSERT_MSG_EQ(o.training1.size(), 6u, "n");
            const auto finals = IndependentFinalScores(o);
            std::vector<std::pair<double, uint32_t>> ranked; // descending score, then id
            for (const auto& [k, p] : finals)
            {
                ranked.emplace_back(-p, k);
            }
            std::sort(ranked.begin(), ranked.end());
            std::vector<uint32_t> expectedSa;
            for (uint32_t r = 0; r < 3; ++r)
            {
                expectedSa.push_back(ranked[strategy == 1 ? r : ranked.size() - 1 - r].second);
            }
            std::sort(expectedSa.begin(), expectedSa.end());
            NS_TEST_ASSERT_MSG_EQ((o.aggregated1 == expectedSa),
                                  true,
                                  "strategy " << strategy << ": S_a as computed by hand");
            // Election: C = 4 of 6 ranked clients around the middle: ranks 1..4.
            std::vector<uint32_t> expectedSc;
            for (uint32_t r = 1; r < 5; ++r)
            {
                expectedSc.push_back(ranked[r].second);
            }
            std::sort(expectedSc.begin(), expectedSc.end());
            NS_TEST_ASSERT_MSG_EQ((o.committee2 == expectedSc), true, "S_c^2 = middle ranks");
            // w^2 = w^1 - sum_{k in S_a} n_k / sum n g_k (eta = 1).
            double n = 0;
            for (auto k : expectedSa)
            {
                n += static_cast<double>(o.samples[k]);
            }
            double maxError = 0;
            for (std::size_t j = 0; j < o.w1.size(); ++j)
            {
                double g = 0;
                for (auto k : expectedSa)
                {
                    g += static_cast<double>(o.samples[k]) / n *
                         static_cast<float>(o.w1[j] - o.after[k][j]);
                }
                maxError = std::max(maxError, std::fabs(o.w1[j] - g - o.global1[j]));
            }
            NS_TEST_ASSERT_MSG_LT(maxError, 1e-6, "w^2 = w^1 - sum p_k g_k");
        }
    }
};

/** Back-gradient attackers: strategy I leaves them out, strategy II takes them. */
class CmflAttackTestCase : public TestCase
{
  public:
    CmflAttackTestCase()
        : TestCase("back-gradient clients: excluded by strategy I, preferred by II; N1 and N3")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t strategy : {1u, 2u})
        {
            CmflSetup s;
            s.nDevices = 20;
            s.rounds = 1;
            s.strategy = strategy;
            s.aggregationFraction = 0.25; // m = round(0.25 x 12) = 3 of n = 12
            s.maliciousTraining = 2;
            s.outDir = TestTempDir("cmfl-attack" + std::to_string(strategy));
            const CmflOutcome o = RunCmfl(s);
            NS_TEST_ASSERT_MSG_EQ(o.aggregated1.size(), 3u, "m");
            uint32_t n3 = 0;
            for (auto k : o.aggregated1)
            {
                n3 += std::count(o.malicious.begin(), o.malicious.end(), k);
            }
            NS_TEST_ASSERT_MSG_EQ(n3,
                                  (strategy == 1 ? 0u : 2u),
                                  "strategy " << strategy << ": attackers aggregated");
            const std::string committee = ReadTextFile(s.outDir + "/committee.csv");
            std::ostringstream row;
            row << ",12,8,3,2,0," << n3 << ",";
            NS_TEST_ASSERT_MSG_NE(committee.find(row.str()),
                                  std::string::npos,
                                  "committee.csv: " << committee);
            const std::string counts = ReadTextFile(s.outDir + "/aggregation.csv");
            NS_TEST_ASSERT_MSG_NE(counts.find(std::to_string(o.malicious[0]) + ",1,1,0," +
                                              (strategy == 1 ? "0" : "1") + "\n"),
                                  std::string::npos,
                                  "aggregation.csv: " << counts);
            std::filesystem::remove_all(s.outDir);
        }
    }
};

/** Lossy links: rounds complete, timeouts and new primaries are traced, quorum holds. */
class CmflLossyTestCase : public TestCase
{
  public:
    CmflLossyTestCase()
        : TestCase("P_D = 0.2, 1 retransmission: rounds complete, CCP retries traced, quorum kept")
    {
    }

  private:
    void DoRun() override
    {
        CmflSetup s;
        s.nDevices = 10;
        s.rounds = 20;
        s.dropProbability = 0.2;
        s.maxRetransmissions = 1;  // ARQ that can fail: 0.2^2 = 0.04 per fragment
        s.committeeFraction = 0.5; // C = 5: a quorum of 2 of the 4 replicas (+ the primary)
        s.outDir = TestTempDir("cmfl-lossy");
        const CmflOutcome o = RunCmfl(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 20u, "every round completes");
        // Committee size per round (committee.csv: round,sim_time_s,training,committee,...).
        std::map<uint32_t, uint32_t> committeeSize;
        {
            const std::vector<std::string> rows = ReadTextLines(s.outDir + "/committee.csv");
            for (std::size_t row = 1; row < rows.size(); ++row)
            {
                const std::vector<std::string> f = SplitCsvLine(rows[row]);
                committeeSize[std::stoul(f[0])] = std::stoul(f[3]);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(committeeSize.size(), 20u, "committee.csv rows");
        const std::vector<std::string> lines = ReadTextLines(s.outDir + "/ccp.csv");
        NS_TEST_ASSERT_MSG_EQ((lines.empty() ? std::string() : lines[0]),
                              "round,step,attempt,primary,replies,quorum,outcome,sim_time_s",
                              "ccp.csv header");
        uint32_t consensus = 0;
        uint32_t timeouts = 0;
        uint32_t retried = 0;
        for (std::size_t row = 1; row < lines.size(); ++row)
        {
            const std::string& line = lines[row];
            const std::vector<std::string> f = SplitCsvLine(line);
            NS_TEST_ASSERT_MSG_EQ(f.size(), 8u, line);
            if (f[1] == "scores")
            {
                continue;
            }
            const uint32_t c = committeeSize[std::stoul(f[0])];
            // The default Quorum "majority": floor(C/2) replies plus the primary's own result.
            NS_TEST_ASSERT_MSG_EQ(std::stoul(f[5]), c / 2, "quorum floor(C/2): " << line);
            if (f[6] == "consensus")
            {
                ++consensus;
                NS_TEST_ASSERT_MSG_GT_OR_EQ(std::stoul(f[4]), c / 2, "replies: " << line);
                retried += std::stoi(f[2]) > 1 ? 1 : 0;
            }
            timeouts += f[6] == "timeout" ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(consensus, 0u, "some votes reach consensus");
        NS_TEST_ASSERT_MSG_GT(timeouts, 0u, "lost messages cause timeouts");
        NS_TEST_ASSERT_MSG_GT(retried, 0u, "a later primary reaches consensus");
        std::filesystem::remove_all(s.outDir);
    }
};

/** Same seed, same bytes. */
class CmflDeterminismTestCase : public TestCase
{
  public:
    CmflDeterminismTestCase()
        : TestCase("same seed: identical rounds, ccp, committee and messages traces")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> texts[2];
        for (int run = 0; run < 2; ++run)
        {
            CmflSetup s;
            s.rounds = 4;
            s.dropProbability = 0.2;
            s.mode = D2dDeliveryMode::UNRELIABLE;
            s.outDir = TestTempDir("cmfl-det" + std::to_string(run));
            RunCmfl(s);
            for (const char* f : {"rounds.csv", "ccp.csv", "committee.csv", "messages.csv"})
            {
                texts[run].push_back(ReadTextFile(s.outDir + "/" + f));
            }
            std::filesystem::remove_all(s.outDir);
        }
        for (std::size_t i = 0; i < texts[0].size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((texts[0][i] == texts[1][i]), true, "trace " << i);
            NS_TEST_ASSERT_MSG_GT(texts[0][i].size(), 60u, "trace " << i << " has rows");
        }
    }
};

/** CMFL and the CCP take their own kinds from the transports; nothing is forwarded. */
class CmflHandlersTestCase : public TestCase
{
  public:
    CmflHandlersTestCase()
        : TestCase("CMFL and the CCP registered per kind: every kind reaches its handler")
    {
    }

  private:
    void DoRun() override
    {
        CmflSetup s;
        s.rounds = 2;
        const CmflOutcome o = RunCmfl(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 2u, "both rounds complete (CMFL got its kinds)");
        for (const char* kind :
             {"global_model", "gradient", "ccp_score", "ccp_request", "ccp_reply"})
        {
            const auto it = o.kinds.find(kind);
            const uint32_t n = it == o.kinds.end() ? 0 : it->second;
            NS_TEST_ASSERT_MSG_GT(n, 0u, "receptions of " << kind);
        }
        NS_TEST_ASSERT_MSG_EQ(o.kinds.size(), 5u, "no other kind");
        // Every vote of both rounds agreed: the CCP got its kinds (two per round).
        NS_TEST_ASSERT_MSG_EQ(o.aggregated.size(), 2u, "two rounds traced");
        for (const auto& set : o.aggregated)
        {
            NS_TEST_ASSERT_MSG_EQ(set.size(), 3u, "S_a agreed on");
        }
        NS_TEST_ASSERT_MSG_EQ(o.halfDuplex, 0u, "Scheduled access: no half-duplex loss");
    }
};

/** One round over Wi-Fi: the outcome of the D2D channel, bit for bit. */
class CmflWifiTestCase : public TestCase
{
  public:
    CmflWifiTestCase()
        : TestCase("one round over Wi-Fi (D2dWifiTransport): S_c, S_b, S_a, S_c^2 and w^2 "
                   "of the D2D channel")
    {
    }

  private:
    void DoRun() override
    {
        CmflSetup s;
        const CmflOutcome channel = RunCmfl(s);
        s.wifi = true;
        const CmflOutcome wifi = RunCmfl(s);
        NS_TEST_ASSERT_MSG_EQ(wifi.roundsDone, 1u, "the round completes over Wi-Fi");
        NS_TEST_ASSERT_MSG_EQ(channel.roundsDone, 1u, "the round completes over the channel");
        const bool sameRoles =
            wifi.committee1 == channel.committee1 && wifi.training1 == channel.training1;
        NS_TEST_ASSERT_MSG_EQ(sameRoles, true, "S_c^1 and S_b^1 (the same draws)");
        NS_TEST_ASSERT_MSG_EQ(wifi.aggregated1.size(), 3u, "S_a^1 agreed on over Wi-Fi");
        const bool sameSa = wifi.aggregated1 == channel.aggregated1;
        NS_TEST_ASSERT_MSG_EQ(sameSa, true, "S_a^1");
        const bool sameSc = wifi.committee2 == channel.committee2;
        NS_TEST_ASSERT_MSG_EQ(sameSc, true, "S_c^2");
        NS_TEST_ASSERT_MSG_EQ(wifi.global1.size(), channel.global1.size(), "|w|");
        NS_TEST_ASSERT_MSG_GT(wifi.global1.size(), 0u, "w^2 exists");
        double maxDiff = 0;
        double moved = 0;
        for (std::size_t j = 0; j < wifi.global1.size() && j < channel.global1.size(); ++j)
        {
            maxDiff = std::max<double>(maxDiff, std::fabs(wifi.global1[j] - channel.global1[j]));
            moved = std::max<double>(moved, std::fabs(wifi.global1[j] - wifi.w1[j]));
        }
        NS_TEST_ASSERT_MSG_EQ(maxDiff, 0.0, "w^2 bit for bit (same gradients, same set)");
        NS_TEST_ASSERT_MSG_GT(moved, 0.0, "w^2 differs from w^1: the round aggregated");
        // And both match the independent computation of the paper's scores.
        const auto finals = IndependentFinalScores(wifi);
        std::vector<std::pair<double, uint32_t>> ranked;
        for (const auto& [k, p] : finals)
        {
            ranked.emplace_back(-p, k);
        }
        std::sort(ranked.begin(), ranked.end());
        std::vector<uint32_t> expectedSa;
        for (uint32_t r = 0; r < 3; ++r)
        {
            expectedSa.push_back(ranked[r].second);
        }
        std::sort(expectedSa.begin(), expectedSa.end());
        const bool handSa = wifi.aggregated1 == expectedSa;
        NS_TEST_ASSERT_MSG_EQ(handSa, true, "S_a^1 as computed by hand");
        NS_TEST_ASSERT_MSG_GT(wifi.kinds.at("ccp_score"), 0u, "the CCP ran over Wi-Fi");
    }
};

/** Immediate access: the protocol completes its rounds on raw half-duplex radios. */
class CmflImmediateAccessTestCase : public TestCase
{
  public:
    CmflImmediateAccessTestCase()
        : TestCase("Immediate access: rounds complete despite half-duplex losses")
    {
    }

  private:
    void DoRun() override
    {
        CmflSetup s;
        s.rounds = 3;
        s.access = D2dChannelAccess::IMMEDIATE;
        const CmflOutcome o = RunCmfl(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 3u, "every round completes");
        NS_TEST_ASSERT_MSG_GT(o.halfDuplex, 0u, "simultaneous sends meet half-duplex radios");
    }
};

/** \return printf's text of the format and arguments */
template <typename... Args>
std::string
Printf(const char* format, Args... args)
{
    const int n = std::snprintf(nullptr, 0, format, args...);
    std::string text(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(text.data(), text.size(), format, args...);
    text.resize(static_cast<std::size_t>(n));
    return text;
}

/**
 * The writers write what the trace sources fire: committee.csv, ccp.csv and rounds.csv
 * rows against the Committee, Step and RoundRecord records (formatted here with printf, at
 * the times the test's own sinks saw), aggregation.csv against per-device counts summed
 * over the Committee records, N1..N3 against the attackers; without writers the same run
 * fires the same records and no file appears.
 */
class CmflTraceWriterTestCase : public TestCase
{
  public:
    CmflTraceWriterTestCase()
        : TestCase("trace writers: committee, ccp, rounds rows = the records fired, "
                   "aggregation.csv = their sums; no writer, no file")
    {
    }

  private:
    void DoRun() override
    {
        CmflSetup s;
        s.rounds = 4;
        s.maliciousTraining = 2;
        s.dropProbability = 0.2;
        s.maxRetransmissions = 1; // ARQ that can fail: CCP timeouts and retries
        s.committeeFraction = 0.5;
        s.outDir = TestTempDir("cmfl-writer");
        const CmflOutcome o = RunCmfl(s);
        NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 4u, "every round completes");

        std::vector<D2dCmfl::ClientCounts> counts(s.nDevices);
        CheckCommitteeCsv(s, o, counts);
        if (IsStatusFailure())
        {
            return;
        }
        CheckCcpCsv(s, o);
        if (IsStatusFailure())
        {
            return;
        }
        CheckRoundsCsv(s, o);
        if (IsStatusFailure())
        {
            return;
        }
        CheckAggregationCsv(s, o, counts);
        if (IsStatusFailure())
        {
            return;
        }
        std::filesystem::remove_all(s.outDir);

        CheckNoWriter(s, o);
    }

    /**
     * committee.csv: one row per Committee record, N1..N3 against the attackers; sums the
     * records' per-device counts.
     * \param s the run's setup
     * \param o the run's records
     * \param counts [out] per device: the rounds it trained in, sat on the committee in,
     *        was aggregated in (sized s.nDevices, zero on entry)
     */
    void CheckCommitteeCsv(const CmflSetup& s,
                           const CmflOutcome& o,
                           std::vector<D2dCmfl::ClientCounts>& counts)
    {
        auto isMalicious = [&o](uint32_t d) {
            return std::count(o.malicious.begin(), o.malicious.end(), d) > 0;
        };
        auto countMalicious = [&isMalicious](const std::vector<uint32_t>& set) {
            return static_cast<uint32_t>(std::count_if(set.begin(), set.end(), isMalicious));
        };

        // committee.csv: one row per Committee record.
        std::vector<std::string> lines = ReadTextLines(s.outDir + "/committee.csv");
        NS_TEST_ASSERT_MSG_EQ(o.committeeRecords.size(), 4u, "a Committee record per round");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + o.committeeRecords.size(), "header + rows");
        NS_TEST_ASSERT_MSG_EQ(lines[0],
                              "round,sim_time_s,training,committee,aggregation,n1,n2,n3,"
                              "next_committee,next_n2",
                              "committee.csv header");
        uint32_t attackersSeen = 0;
        for (std::size_t i = 0; i < o.committeeRecords.size(); ++i)
        {
            const auto& [t, r] = o.committeeRecords[i];
            NS_TEST_ASSERT_MSG_EQ(r.round, i + 1, "rounds in order");
            NS_TEST_ASSERT_MSG_EQ(r.maliciousTraining, countMalicious(r.training), "N1");
            NS_TEST_ASSERT_MSG_EQ(r.maliciousCommittee, countMalicious(r.committee), "N2");
            NS_TEST_ASSERT_MSG_EQ(r.maliciousAggregated, countMalicious(r.aggregated), "N3");
            attackersSeen += r.maliciousTraining + r.maliciousCommittee;
            NS_TEST_ASSERT_MSG_EQ(lines[i + 1],
                                  Printf("%u,%.9f,%zu,%zu,%zu,%u,%u,%u,%s,%u",
                                         r.round,
                                         t,
                                         r.training.size(),
                                         r.committee.size(),
                                         r.aggregated.size(),
                                         r.maliciousTraining,
                                         r.maliciousCommittee,
                                         r.maliciousAggregated,
                                         D2dCommitteeRules::ToString(r.next),
                                         countMalicious(r.nextCommittee)),
                                  "committee.csv row " << i + 1);
            for (auto k : r.training)
            {
                ++counts[k].training;
            }
            for (auto c : r.committee)
            {
                ++counts[c].committee;
            }
            for (auto k : r.aggregated)
            {
                ++counts[k].aggregated;
            }
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(attackersSeen, 2u, "round 1's attackers are counted");
    }

    /**
     * ccp.csv: one row per Step record (a score exchange and two votes per round, plus the
     * attempts that timed out), the votes' quorum.
     * \param s the run's setup
     * \param o the run's records
     */
    void CheckCcpCsv(const CmflSetup& s, const CmflOutcome& o)
    {
        const std::vector<std::string> lines = ReadTextLines(s.outDir + "/ccp.csv");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(o.steps.size(), 12u, "3 steps per round at least");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + o.steps.size(), "header + rows");
        NS_TEST_ASSERT_MSG_EQ(lines[0],
                              "round,step,attempt,primary,replies,quorum,outcome,sim_time_s",
                              "ccp.csv header");
        for (std::size_t i = 0; i < o.steps.size(); ++i)
        {
            const StepRecord& r = o.steps[i];
            NS_TEST_ASSERT_MSG_EQ(lines[i + 1],
                                  Printf("%u,%s,%u,%lld,%u,%u,%s,%.9f",
                                         r.round,
                                         r.step.c_str(),
                                         r.attempt,
                                         static_cast<long long>(r.primary),
                                         r.replies,
                                         r.quorum,
                                         r.outcome.c_str(),
                                         r.timeS),
                                  "ccp.csv row " << i + 1);
            if (r.step != "scores")
            {
                // C = 5 (50% of 10) every round: quorum floor(5/2) = 2 replies (majority).
                NS_TEST_ASSERT_MSG_EQ(r.quorum, 2u, "vote quorum");
            }
        }
    }

    /**
     * rounds.csv: one row per RoundRecord record, round 0's evaluation included.
     * \param s the run's setup
     * \param o the run's records
     */
    void CheckRoundsCsv(const CmflSetup& s, const CmflOutcome& o)
    {
        const std::vector<std::string> lines = ReadTextLines(s.outDir + "/rounds.csv");
        NS_TEST_ASSERT_MSG_GT(o.roundRecords.size(), 4u * 8, "8 metrics per round at least");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + o.roundRecords.size(), "header + rows");
        NS_TEST_ASSERT_MSG_EQ(lines[0], "round,sim_time_s,node,metric,value", "rounds header");
        for (std::size_t i = 0; i < o.roundRecords.size(); ++i)
        {
            const RoundRecord& r = o.roundRecords[i];
            NS_TEST_ASSERT_MSG_EQ(lines[i + 1],
                                  Printf("%u,%.9f,%lld,%s,%.9g",
                                         r.round,
                                         r.timeS,
                                         static_cast<long long>(r.node),
                                         r.metric.c_str(),
                                         r.value),
                                  "rounds.csv row " << i + 1);
        }
    }

    /**
     * aggregation.csv: the per-device sums of the Committee records.
     * \param s the run's setup
     * \param o the run's records
     * \param counts the per-device sums of the Committee records (CheckCommitteeCsv)
     */
    void CheckAggregationCsv(const CmflSetup& s,
                             const CmflOutcome& o,
                             const std::vector<D2dCmfl::ClientCounts>& counts)
    {
        auto isMalicious = [&o](uint32_t d) {
            return std::count(o.malicious.begin(), o.malicious.end(), d) > 0;
        };
        const std::vector<std::string> lines = ReadTextLines(s.outDir + "/aggregation.csv");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1u + s.nDevices, "header + a row per device");
        NS_TEST_ASSERT_MSG_EQ(lines[0],
                              "device,malicious,training,committee,aggregated",
                              "aggregation.csv header");
        uint32_t total = 0;
        for (uint32_t d = 0; d < s.nDevices; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(lines[d + 1],
                                  Printf("%u,%d,%u,%u,%u",
                                         d,
                                         isMalicious(d) ? 1 : 0,
                                         counts[d].training,
                                         counts[d].committee,
                                         counts[d].aggregated),
                                  "aggregation.csv row of device " << d);
            total += counts[d].training + counts[d].committee;
        }
        // Every device is active every round (100 %), but a committee elected from fewer
        // than C scored clients (lossy links) has 3 to C - 1 members: the sum of the rounds'
        // committee and training sizes, at most 4 x 10.
        uint32_t active = 0;
        for (const auto& [t, r] : o.committeeRecords)
        {
            active += r.training.size() + r.committee.size();
        }
        NS_TEST_ASSERT_MSG_EQ(total, active, "the rounds' committee and training clients");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(total, 4u * 10, "at most every device every round");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(total, 4u * (3 + 5), "committees of at least 3");
    }

    /**
     * No writer: the same run, in an empty working folder, fires the same records and
     * writes nothing.
     * \param s the setup of the run with writers
     * \param o that run's records
     */
    void CheckNoWriter(const CmflSetup& s, const CmflOutcome& o)
    {
        CmflSetup quiet = s;
        quiet.outDir.clear();
        const std::string dir = TestTempDir("cmfl-nowriter");
        const auto cwd = std::filesystem::current_path();
        std::filesystem::current_path(dir);
        const CmflOutcome q = RunCmfl(quiet);
        std::filesystem::current_path(cwd);
        NS_TEST_ASSERT_MSG_EQ(std::filesystem::is_empty(dir), true, "no file written");
        std::filesystem::remove_all(dir);
        NS_TEST_ASSERT_MSG_EQ(q.roundsDone, 4u, "every round completes");
        NS_TEST_ASSERT_MSG_EQ(q.steps.size(), o.steps.size(), "same Step records");
        for (std::size_t i = 0; i < std::min(q.steps.size(), o.steps.size()); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(q.steps[i].outcome, o.steps[i].outcome, "step " << i);
            NS_TEST_ASSERT_MSG_EQ(q.steps[i].timeS, o.steps[i].timeS, "step " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(q.roundRecords.size(), o.roundRecords.size(), "same records");
        for (std::size_t i = 0; i < std::min(q.roundRecords.size(), o.roundRecords.size()); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(q.roundRecords[i].metric, o.roundRecords[i].metric, "metric");
            NS_TEST_ASSERT_MSG_EQ(q.roundRecords[i].value, o.roundRecords[i].value, "value");
        }
    }
};

/**
 * Liveness under a Byzantine committee member (issue: a committee of 4 with one malicious
 * member never agreed again). 10 devices, all active, committee C = 4 (40 %), one member of
 * S_c^1 and one training client back-gradient attackers, the member "adversarial" (inverted
 * scores, opposite proposals: it never joins an honest quorum). 6 rounds, seeds 1 to 3:
 *  - default (Quorum majority, FailedVote step-down): every round's aggregation vote agrees
 *    (2 honest replicas + the primary = 3 of 4) or the committee steps down (committee.csv
 *    next_committee elected or drawn, S_c^{t+1} disjoint from S_c^t); the final accuracy
 *    is at least 0.6 (chance: 0.25 on the 4 classes; the honest runs of this data reach
 *    about 0.8) in every seed;
 *  - Quorum replicas (3 of the 3 replicas: tolerates ceil(4/2) - 2 = 0 malicious members)
 *    with step-down: round 1's votes fail, the committee is drawn from the training
 *    clients (next_committee "drawn"), and learning resumes whenever a committee without
 *    attacker is drawn or elected: final accuracy >= 0.45 and 0.2 above round 0's;
 *  - the former rules (replicas, keep-committee): every vote fails, the committee never
 *    changes and the global model stays w^1: the accuracy of every round equals round 0's.
 */
class CmflLivenessTestCase : public TestCase
{
  public:
    /** \param variant 0: defaults; 1: replicas + step-down; 2: replicas + keep-committee */
    CmflLivenessTestCase(int variant)
        : TestCase(variant == 0   ? "liveness, C = 4 with an adversarial member: majority quorum "
                                    "agrees or steps down, accuracy >= 0.6 in seeds 1-3"
                   : variant == 1 ? "liveness, replicas quorum: failed votes step the committee "
                                    "down, accuracy >= 0.45 in seeds 1-3"
                                  : "former rules (replicas, keep-committee): the committee "
                                    "stalls, the model stays w^1"),
          m_variant(variant)
    {
    }

  private:
    void DoRun() override
    {
        for (uint64_t seed = 1; seed <= 3; ++seed)
        {
            CmflSetup s;
            s.nDevices = 10;
            s.rounds = 6;
            s.committeeFraction = 0.4; // C = 4
            s.aggregationFraction = 0.5;
            s.maliciousTraining = 1;
            s.maliciousMembers = 1;
            s.maliciousCommittee = "adversarial";
            s.quorum = m_variant == 0 ? "majority" : "replicas";
            s.failedVote = m_variant == 2 ? "keep-committee" : "step-down";
            s.seed = seed;
            const CmflOutcome o = RunCmfl(s);
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 6u, "every round ends (seed " << seed << ")");
            NS_TEST_ASSERT_MSG_EQ(o.committeeRecords.size(), 6u, "a Committee record per round");
            std::map<uint32_t, double> accuracy; // by round, 0 = w^1
            for (const auto& r : o.roundRecords)
            {
                if (r.node == -1 && r.metric == "accuracy")
                {
                    accuracy[r.round] = r.value;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(accuracy.size(), 7u, "accuracy of rounds 0..6");
            // The aggregation vote's outcome per round, from the CCP's rows.
            std::map<uint32_t, bool> agreed;
            for (const auto& st : o.steps)
            {
                if (st.step == "aggregation" && st.outcome == "consensus")
                {
                    agreed[st.round] = true;
                }
            }
            uint32_t drawn = 0;
            for (const auto& [t, r] : o.committeeRecords)
            {
                const bool changed = r.nextCommittee != r.committee;
                if (m_variant == 2)
                {
                    NS_TEST_ASSERT_MSG_EQ(agreed.count(r.round), 0u, "no vote agrees");
                    NS_TEST_ASSERT_MSG_EQ((r.next == D2dNextCommittee::KEPT), true, "kept");
                    NS_TEST_ASSERT_MSG_EQ(changed, false, "the same committee");
                    continue;
                }
                // Live: the round aggregated, or its committee stepped down.
                bool disjoint = true;
                for (auto c : r.nextCommittee)
                {
                    disjoint = disjoint && std::find(r.committee.begin(), r.committee.end(), c) ==
                                               r.committee.end();
                }
                NS_TEST_ASSERT_MSG_EQ((r.next != D2dNextCommittee::KEPT && disjoint),
                                      true,
                                      "round " << r.round << ": the committee steps down");
                NS_TEST_ASSERT_MSG_EQ(
                    (agreed.count(r.round) > 0 || r.next != D2dNextCommittee::KEPT),
                    true,
                    "round " << r.round << ": aggregated or stepped down");
                if (m_variant == 0 && r.maliciousCommittee <= 1)
                {
                    // An honest majority of 3 of 4: the vote agrees.
                    NS_TEST_ASSERT_MSG_EQ(agreed.count(r.round),
                                          1u,
                                          "round " << r.round << " agrees (seed " << seed << ")");
                }
                drawn += r.next == D2dNextCommittee::DRAWN;
            }
            if (m_variant == 1)
            {
                // Round 1: the malicious member blocks both votes (no 3 honest replicas).
                const auto& first = o.committeeRecords.front().second;
                NS_TEST_ASSERT_MSG_EQ(agreed.count(1), 0u, "round 1 fails with replicas");
                NS_TEST_ASSERT_MSG_EQ((first.next == D2dNextCommittee::DRAWN),
                                      true,
                                      "round 1's committee is drawn anew");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(drawn, 1u, "draws");
            }
            if (m_variant == 2)
            {
                for (const auto& [round, a] : accuracy)
                {
                    NS_TEST_ASSERT_MSG_EQ(a, accuracy[0], "round " << round << " keeps w^1");
                }
            }
            else
            {
                // Defaults: every round agrees (about 0.95 measured). Replicas: the committee of 4
                // tolerates no malicious member, so its votes fail whenever one of the two
                // attackers sits on it (most rounds here), yet the step-down keeps it learning
                // (0.51 to 0.91 measured): well above chance (0.25) and round 0.
                const double minimum = m_variant == 0 ? 0.6 : 0.45;
                NS_TEST_ASSERT_MSG_GT_OR_EQ(accuracy[6],
                                            minimum,
                                            "final accuracy, seed "
                                                << seed << " (round 0: " << accuracy[0] << ")");
                NS_TEST_ASSERT_MSG_GT(accuracy[6], accuracy[0] + 0.2, "learns, seed " << seed);
            }
            std::cout << "liveness variant " << m_variant << " seed " << seed << ": accuracy "
                      << accuracy[0] << " -> " << accuracy[6] << ", rounds agreed " << agreed.size()
                      << " of 6, committees drawn " << drawn << std::endl;
        }
    }

    int m_variant;
};

/**
 * The authors' malicious committee member ("attacked-reference"): one member and one
 * training client of round 1 are back-gradient attackers on their weights (AttackSpace
 * "weights": g = w^1 + w_k); the member scores with its attacked reference by the normal
 * rule and votes by the rules, so both votes agree at attempt 1 or 2 and S_a^1 and S_c^2
 * equal an independent computation (top m of C / sum_c ||g_k - g_c||^2 with the attacked
 * vectors; middle ranks). AggregationBase: "training" accepts m = round(0.5 x 6) = 3,
 * "active" m = round(0.5 x 10) = 5 (of the 6 scored).
 */
class CmflAttackedReferenceTestCase : public TestCase
{
  public:
    CmflAttackedReferenceTestCase()
        : TestCase("attacked-reference member, weights-space attack: S_a^1 and S_c^2 as "
                   "computed by hand; m of both aggregation bases")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string base : {"training", "active"})
        {
            CmflSetup s;
            s.maliciousMembers = 1;
            s.maliciousTraining = 1;
            s.attackSpace = "weights";
            s.aggregationBase = base;
            const CmflOutcome o = RunCmfl(s);
            NS_TEST_ASSERT_MSG_EQ(o.roundsDone, 1u, "the round completes");
            const auto finals = IndependentFinalScores(o, true);
            NS_TEST_ASSERT_MSG_EQ(finals.size(), 6u, "n = 6 scored");
            std::vector<std::pair<double, uint32_t>> ranked; // descending score, then id
            for (const auto& [k, p] : finals)
            {
                ranked.emplace_back(-p, k);
            }
            std::sort(ranked.begin(), ranked.end());
            const uint32_t m = base == "training" ? 3 : 5;
            std::vector<uint32_t> expectedSa;
            for (uint32_t r = 0; r < m; ++r)
            {
                expectedSa.push_back(ranked[r].second);
            }
            std::sort(expectedSa.begin(), expectedSa.end());
            NS_TEST_ASSERT_MSG_EQ(o.aggregated1.size(), m, base << ": m");
            NS_TEST_ASSERT_MSG_EQ((o.aggregated1 == expectedSa), true, base << ": S_a^1");
            std::vector<uint32_t> expectedSc;
            for (uint32_t r = 1; r < 5; ++r)
            {
                expectedSc.push_back(ranked[r].second);
            }
            std::sort(expectedSc.begin(), expectedSc.end());
            NS_TEST_ASSERT_MSG_EQ((o.committee2 == expectedSc), true, base << ": S_c^2");
            // The attacked member proposes what the honest ones do: no vote fails, and the
            // far-off attacker (g = w^1 + w_k) ranks last.
            for (const auto& st : o.steps)
            {
                NS_TEST_ASSERT_MSG_NE(st.outcome, "failed", base << ": " << st.step);
            }
            NS_TEST_ASSERT_MSG_EQ(ranked.back().second, o.malicious[0], "the attacker last");
        }
    }
};

class D2dCmflTestSuite : public TestSuite
{
  public:
    D2dCmflTestSuite()
        : TestSuite("d2d-cmfl")
    {
        AddTestCase(new CmflRoundTestCase);
        AddTestCase(new CmflAttackTestCase);
        AddTestCase(new CmflLossyTestCase);
        AddTestCase(new CmflDeterminismTestCase);
        AddTestCase(new CmflHandlersTestCase);
        AddTestCase(new CmflWifiTestCase);
        AddTestCase(new CmflImmediateAccessTestCase);
        AddTestCase(new CmflTraceWriterTestCase);
        AddTestCase(new CmflAttackedReferenceTestCase);
        AddTestCase(new CmflLivenessTestCase(0));
        AddTestCase(new CmflLivenessTestCase(1));
        AddTestCase(new CmflLivenessTestCase(2));
    }
};

D2dCmflTestSuite g_d2dCmflTestSuite;

} // namespace
