/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-consensus": prediction consensus (Fan, Mendler-Dünner, Jaggi 2023) over
 * the D2D channel, on the 4-class Gaussian mixture of the paper's sec. 5.1, 4 agents.
 *
 * - Trust rows: the Trust records of every collaboration round equal eq. 6 recomputed
 *   (D2dTrustRules) from the predictions the agents actually broadcast (read off the
 *   transports' Send trace): rows sum to 1, self trust is the row maximum.
 * - Message model: every predictions message is n* x C x 4 + 32 bytes (float32) or
 *   n* x C x 2 + 32 (float16), one per agent per collaboration round, none in warm-up
 *   rounds; the round's bytes_sent row is N x that size.
 * - Lambda = 0: every agent's per-round test accuracy and loss equal D2dLocalTraining's
 *   with the same learners, bit for bit (the exchange changes nothing when psi has no
 *   weight).
 * - Static trust: the rows are identical in every collaboration round; dynamic: they are
 *   not.
 * - Lost predictions: on a lossy unreliable channel, renormalize leaves missing peers
 *   out (w = 0, rows still sum to 1), reuse takes earlier ones (some "reused" rows).
 * - Partial receptions: a broadcast delivered with fragments missing (messages.csv
 *   delivered = 1, complete = 0) is never used: "missing" (renormalize) or "reused"; a peer
 *   is "fresh" exactly where its predictions arrived complete.
 * - The closed-form polynomial learner (App. A.1 data): every round's coefficients are
 *   D2dPolynomialFit's minimiser for the pseudo-labels recomputed from the broadcasts.
 * - Airtime: every predictions broadcast is on the air (B + F h) x 8 / (r x bandwidth)
 *   (B bytes in F fragments of h header bytes each), each reception one propagation delay
 *   after the end of its transmission.
 * - The hand example of the trust rules in a real round: agents whose predictions on X*
 *   are the hand-chosen ones produce the hand rows and pseudo-labels.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-local-training.h"
#include "ns3/d2d-polynomial-fit.h"
#include "ns3/d2d-prediction-consensus.h"
#include "ns3/d2d-prediction-payload.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/d2d-trust-rules.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kAgents = 4;

/** What a run showed. */
struct ConsensusOutcome
{
    /** (round, node, peer) -> (w, received) */
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<double, std::string>> trust;
    /** (round, origin) -> the predictions broadcast */
    std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<const std::vector<float>>> sent;
    std::multiset<uint64_t> messageBytes; //!< sizes of the messages sent
    /** (round, receiver, sender) of predictions that arrived with fragments missing */
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> partial;
    /** (round, receiver, sender) of predictions that arrived complete */
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> complete;
    std::map<uint32_t, uint32_t> perRound; //!< round -> predictions messages
    /** (round, node, metric) -> value, from RoundRecord */
    std::map<std::tuple<uint32_t, int64_t, std::string>, double> rows;
    uint32_t rounds{0};
    uint32_t points{0};
    uint64_t messageSize{0};
    /** The channel's Transmission trace of predictions: (msgId, sender, fragment
     * transmissions, airtime, time of the end of the transmission) */
    std::vector<std::tuple<uint64_t, uint32_t, uint64_t, Time, Time>> transmissions;
    std::vector<D2dDeliveryRecord> deliveries; //!< every predictions delivery record
    double spectralEfficiency{0};              //!< the channel's attributes, as set
    double bandwidthHz{0};
    uint32_t mtuBytes{0};
    uint32_t headerBytes{0};
};

/** \brief The channel's rate and framing parameters in force, into out (for the checks). */
void
ReadLinkParameters(Ptr<D2dChannel> channel, ConsensusOutcome& out)
{
    DoubleValue r;
    DoubleValue b;
    UintegerValue m;
    UintegerValue h;
    channel->GetAttribute("SpectralEfficiency", r);
    channel->GetAttribute("BandwidthHz", b);
    channel->GetAttribute("MtuBytes", m);
    channel->GetAttribute("FragmentHeaderBytes", h);
    out.spectralEfficiency = r.Get();
    out.bandwidthHz = b.Get();
    out.mtuBytes = static_cast<uint32_t>(m.Get());
    out.headerBytes = static_cast<uint32_t>(h.Get());
}

/** A run's settings. */
struct Settings
{
    std::string algorithm{"consensus"}; //!< consensus | local
    std::string trust{"dynamic"};
    double lambda{0.5};
    std::string compression{"float32"};
    double dropProbability{0}; //!< > 0: unreliable links with this P_D
    std::string lossRule{"renormalize"};
    uint32_t rounds{4};
    uint32_t mtuBytes{0};    //!< > 0: the channel's MtuBytes (more fragments per message)
    uint32_t headerBytes{0}; //!< the channel's FragmentHeaderBytes
};

ConsensusOutcome
RunOnce(const Settings& s)
{
    const D2dTestData& data = GaussianTestData(31, 32, 1200, 400);
    std::vector<std::size_t> rest;
    const auto xIdx = D2dPartitioner::HoldOut(*data.train, 60, 5, &rest);
    auto xstar = data.train->Subset(xIdx);
    const auto shards = D2dPartitioner::Dirichlet(*data.train, kAgents, 1.0, 5, &rest);

    NodeContainer nodes = MakeTestNodesOnLine(kAgents, 10.0);
    D2dHelper net;
    net.SetInitialEnergyJ(1e9);
    // An ideal MAC: the agents' predictions are ready at the same instant, and raw radios
    // would make their broadcasts collide (half-duplex).
    net.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
    if (s.dropProbability == 0)
    {
        net.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    }
    if (s.mtuBytes > 0)
    {
        net.SetChannelAttribute("MtuBytes", UintegerValue(s.mtuBytes));
    }
    net.SetChannelAttribute("FragmentHeaderBytes", UintegerValue(s.headerBytes));
    Ptr<D2dChannel> channel = net.Install(nodes);
    if (s.dropProbability > 0)
    {
        // Devices 10 m apart: give the links to device 0's neighbour P_D (others differ).
        SetUniformDropProbability(channel, s.dropProbability, 0, 1);
    }
    net.AssignStreams(10);

    ConsensusOutcome out;
    out.points = static_cast<uint32_t>(xstar->Size());
    ReadLinkParameters(channel, out);
    for (const auto& t : channel->GetTransports())
    {
        t->TraceConnectWithoutContext("Send",
                                      Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                                          [&out](uint64_t, Ptr<const D2dMessage> m, uint32_t) {
                                              auto p = m->GetPayloadAs<D2dPredictionPayload>();
                                              if (p)
                                              {
                                                  out.messageBytes.insert(m->GetSizeBytes());
                                                  out.sent[{p->round, p->origin}] = p->values;
                                                  ++out.perRound[p->round];
                                              }
                                          }));
    }
    // Each predictions message's round, by id, and what every receiver got of it.
    auto roundOf = std::make_shared<std::map<uint64_t, uint32_t>>();
    for (const auto& t : channel->GetTransports())
    {
        t->TraceConnectWithoutContext(
            "Send",
            Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                [roundOf](uint64_t id, Ptr<const D2dMessage> m, uint32_t) {
                    if (auto p = m->GetPayloadAs<D2dPredictionPayload>())
                    {
                        (*roundOf)[id] = p->round;
                    }
                }));
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out, roundOf](const D2dDeliveryRecord& r) {
                if (r.kind == "predictions")
                {
                    out.deliveries.push_back(r);
                }
                if (r.kind != "predictions" || !r.delivered || roundOf->count(r.msgId) == 0)
                {
                    return;
                }
                const auto key = std::make_tuple(roundOf->at(r.msgId), r.dst, r.src);
                if (r.IsComplete())
                {
                    out.complete.insert(key);
                }
                else
                {
                    out.partial.insert(key);
                }
            }));
    }
    channel->TraceConnectWithoutContext(
        "Transmission",
        Callback<void, uint64_t, uint32_t, uint64_t, Time>([&out, roundOf](uint64_t id,
                                                                           uint32_t sender,
                                                                           uint64_t fragmentTx,
                                                                           Time airtime) {
            if (roundOf->count(id) == 1)
            {
                out.transmissions.emplace_back(id, sender, fragmentTx, airtime, Simulator::Now());
            }
        }));
    D2dLearningHelper helper;
    helper.SetData(data.train, shards, data.test);
    helper.SetModel(D2dModelSpec::Parse("mlp:8"));
    helper.SetSeed(9);
    helper.SetLearnerAttribute("LearningRate", DoubleValue(5e-3));
    helper.SetLearnerAttribute("Optimizer", StringValue("adam"));
    helper.SetLearnerAttribute("KeepOptimizerState", BooleanValue(true));
    helper.SetLearnerAttribute("BatchSize", UintegerValue(64));
    helper.SetProtocolType(s.algorithm == "local" ? "ns3::D2dLocalTraining"
                                                  : "ns3::D2dPredictionConsensus");
    helper.SetProtocolAttribute("Rounds", UintegerValue(s.rounds));
    helper.SetProtocolAttribute("LocalEpochs", UintegerValue(1));
    if (s.algorithm != "local")
    {
        helper.SetProtocolAttribute("Trust", StringValue(s.trust));
        helper.SetProtocolAttribute("Lambda", DoubleValue(s.lambda));
        helper.SetProtocolAttribute("WarmupRounds", UintegerValue(1));
        helper.SetProtocolAttribute("Compression", StringValue(s.compression));
        helper.SetProtocolAttribute("LossRule", StringValue(s.lossRule));
    }
    Ptr<D2dFlProtocol> protocol = helper.Install(nodes,
                                                 channel,
                                                 nullptr,
                                                 s.dropProbability > 0 ? D2dDeliveryMode::UNRELIABLE
                                                                       : D2dDeliveryMode::RELIABLE);
    auto pc = DynamicCast<D2dPredictionConsensus>(protocol);
    if (pc)
    {
        pc->SetSharedSet(xstar);
        out.messageSize = pc->PredictionMessageBytes();
        pc->TraceConnectWithoutContext(
            "Trust",
            Callback<void, uint32_t, uint32_t, uint32_t, double, const std::string&>(
                [&out](uint32_t r, uint32_t i, uint32_t j, double w, const std::string& how) {
                    out.trust[{r, i, j}] = {w, how};
                }));
    }
    protocol->TraceConnectWithoutContext(
        "RoundRecord",
        Callback<void, uint32_t, int64_t, const std::string&, double>(
            [&out](uint32_t r, int64_t node, const std::string& metric, double v) {
                out.rows[{r, node, metric}] = v;
            }));
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Stop(Seconds(1e5));
    Simulator::Run();
    out.rounds = protocol->GetRoundsDone();
    Simulator::Destroy();
    return out;
}

/** Trust rows equal eq. 6 recomputed from the predictions broadcast; the message model. */
class TrustRowsTestCase : public TestCase
{
  public:
    TrustRowsTestCase()
        : TestCase("trust rows are eq. 6 of the predictions broadcast; message bytes")
    {
    }

  private:
    void DoRun() override
    {
        Settings s;
        s.rounds = 3;
        const ConsensusOutcome out = RunOnce(s);
        NS_TEST_ASSERT_MSG_EQ(out.rounds, 3u, "every round completes");
        // Rounds 2 and 3 collaborate (one warm-up round): N messages each, none in round 1.
        NS_TEST_ASSERT_MSG_EQ(out.perRound.count(1), 0u, "no message in the warm-up round");
        NS_TEST_ASSERT_MSG_EQ(out.perRound.at(2), kAgents, "one broadcast per agent");
        NS_TEST_ASSERT_MSG_EQ(out.perRound.at(3), kAgents, "one broadcast per agent");
        const uint64_t expected = uint64_t(out.points) * 4 * 4 + 32; // n* x C x 4 + header
        NS_TEST_ASSERT_MSG_EQ(out.messageSize, expected, "message model");
        for (auto b : out.messageBytes)
        {
            NS_TEST_ASSERT_MSG_EQ(b, expected, "every predictions message has the model's size");
        }
        NS_TEST_ASSERT_MSG_EQ(out.rows.at({2, -1, "bytes_sent"}),
                              double(kAgents * expected),
                              "bytes of a round = N x message");
        const bool warmupSilent =
            out.rows.count({1, -1, "bytes_sent"}) == 0 || out.rows.at({1, -1, "bytes_sent"}) == 0;
        NS_TEST_ASSERT_MSG_EQ(warmupSilent, true, "warm-up rounds send nothing");
        for (uint32_t round : {2u, 3u})
        {
            std::vector<const std::vector<float>*> preds;
            for (uint32_t j = 0; j < kAgents; ++j)
            {
                preds.push_back(out.sent.at({round, j}).get());
            }
            for (uint32_t i = 0; i < kAgents; ++i)
            {
                const auto row = D2dTrustRules::TrustRow(i,
                                                         preds,
                                                         out.points,
                                                         4,
                                                         D2dConfidence::ENTROPY_PLUS_ONE);
                double sum = 0;
                for (uint32_t j = 0; j < kAgents; ++j)
                {
                    const auto& rec = out.trust.at({round, i, j});
                    NS_TEST_ASSERT_MSG_EQ_TOL(rec.first, row[j], 1e-12, "eq. 6 recomputed");
                    NS_TEST_ASSERT_MSG_EQ(rec.second, "fresh", "every prediction arrived");
                    NS_TEST_ASSERT_MSG_EQ((rec.first <= out.trust.at({round, i, i}).first),
                                          true,
                                          "self trust is the row maximum");
                    sum += rec.first;
                }
                NS_TEST_ASSERT_MSG_EQ_TOL(sum, 1.0, 1e-12, "rows sum to 1");
            }
        }
        // float16: half the value bytes.
        Settings h;
        h.rounds = 2;
        h.compression = "float16";
        const ConsensusOutcome half = RunOnce(h);
        for (auto b : half.messageBytes)
        {
            NS_TEST_ASSERT_MSG_EQ(b, uint64_t(half.points) * 4 * 2 + 32, "float16 message");
        }
        NS_TEST_ASSERT_MSG_EQ(half.messageBytes.size(), kAgents, "one round of broadcasts");
    }
};

/** Lambda = 0 gives local training's figures bit for bit. */
class LambdaZeroTestCase : public TestCase
{
  public:
    LambdaZeroTestCase()
        : TestCase("lambda = 0 trains exactly as local training")
    {
    }

  private:
    void DoRun() override
    {
        Settings c;
        c.lambda = 0;
        Settings l;
        l.algorithm = "local";
        const ConsensusOutcome consensus = RunOnce(c);
        const ConsensusOutcome local = RunOnce(l);
        uint32_t compared = 0;
        for (const auto& [key, value] : local.rows)
        {
            const auto& metric = std::get<2>(key);
            if (std::get<1>(key) < 0 || (metric != "accuracy" && metric != "loss"))
            {
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(consensus.rows.count(key), 1u, "the row exists");
            NS_TEST_ASSERT_MSG_EQ(consensus.rows.at(key), value, "bit for bit: " << metric);
            ++compared;
        }
        NS_TEST_ASSERT_MSG_EQ(compared, 2 * kAgents * 5, "4 rounds + round 0, 4 agents, 2 rows");
        // ... while with lambda > 0 the agents learn something else.
        Settings d;
        const ConsensusOutcome distilled = RunOnce(d);
        bool differs = false;
        for (uint32_t i = 0; i < kAgents; ++i)
        {
            differs = differs || distilled.rows.at({4, int64_t(i), "loss"}) !=
                                     local.rows.at({4, int64_t(i), "loss"});
        }
        NS_TEST_ASSERT_MSG_EQ(differs, true, "lambda = 0.5 changes the models");
    }
};

/** Static trust is kept; dynamic changes. */
class StaticDynamicTestCase : public TestCase
{
  public:
    StaticDynamicTestCase()
        : TestCase("static trust is the same every round, dynamic is not")
    {
    }

  private:
    void DoRun() override
    {
        Settings st;
        st.trust = "static";
        const ConsensusOutcome stat = RunOnce(st);
        Settings dy;
        const ConsensusOutcome dyn = RunOnce(dy);
        double staticChange = 0;
        double dynamicChange = 0;
        for (uint32_t round = 3; round <= 4; ++round)
        {
            for (uint32_t i = 0; i < kAgents; ++i)
            {
                for (uint32_t j = 0; j < kAgents; ++j)
                {
                    staticChange = std::max(staticChange,
                                            std::abs(stat.trust.at({round, i, j}).first -
                                                     stat.trust.at({2, i, j}).first));
                    dynamicChange = std::max(dynamicChange,
                                             std::abs(dyn.trust.at({round, i, j}).first -
                                                      dyn.trust.at({2, i, j}).first));
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(staticChange, 0.0, "static rows never change");
        NS_TEST_ASSERT_MSG_GT(dynamicChange, 1e-6, "dynamic rows follow the predictions");
        // Both start from the same first collaboration round.
        for (uint32_t i = 0; i < kAgents; ++i)
        {
            for (uint32_t j = 0; j < kAgents; ++j)
            {
                NS_TEST_ASSERT_MSG_EQ(stat.trust.at({2, i, j}).first,
                                      dyn.trust.at({2, i, j}).first,
                                      "same first rows");
            }
        }
    }
};

/** Lost predictions: renormalize and reuse. */
class LossRuleTestCase : public TestCase
{
  public:
    LossRuleTestCase()
        : TestCase("lost predictions: renormalize drops them, reuse takes earlier ones")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string rule : {"renormalize", "reuse"})
        {
            Settings s;
            s.dropProbability = 0.05; // per fragment: most 2 kB messages lose a fragment
            s.lossRule = rule;
            s.rounds = 5;
            const ConsensusOutcome out = RunOnce(s);
            NS_TEST_ASSERT_MSG_EQ(out.rounds, 5u, "the protocol carries on");
            std::map<std::string, uint32_t> kinds;
            std::map<std::pair<uint32_t, uint32_t>, double> sums;
            for (const auto& [key, rec] : out.trust)
            {
                ++kinds[rec.second];
                sums[{std::get<0>(key), std::get<1>(key)}] += rec.first;
                if (rec.second == "missing")
                {
                    NS_TEST_ASSERT_MSG_EQ(rec.first, 0.0, "a missing peer has no weight");
                }
                else
                {
                    NS_TEST_ASSERT_MSG_GT(rec.first, 0.0, "a present peer has weight");
                }
            }
            for (const auto& [row, sum] : sums)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(sum, 1.0, 1e-12, "rows sum to 1 over what arrived");
            }
            NS_TEST_ASSERT_MSG_GT(kinds["fresh"], 0u, "some predictions arrive");
            if (rule == "renormalize")
            {
                NS_TEST_ASSERT_MSG_GT(kinds["missing"], 0u, "some are lost");
                NS_TEST_ASSERT_MSG_EQ(kinds["reused"], 0u, "renormalize reuses nothing");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(kinds["reused"], 0u, "reuse takes earlier predictions");
            }
        }
    }
};

/**
 * Partial receptions: a predictions broadcast delivered with fragments missing is missing
 * (the loss rule applies) and traced so. Small fragments (MtuBytes 100: about 10 per
 * message) on links with P_D = 0.05 per fragment make partial deliveries common.
 */
class PartialReceptionTestCase : public TestCase
{
  public:
    PartialReceptionTestCase()
        : TestCase("predictions delivered with fragments missing are missing")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string rule : {"renormalize", "reuse"})
        {
            Settings s;
            s.dropProbability = 0.05;
            s.mtuBytes = 100;
            s.lossRule = rule;
            s.rounds = 5;
            const ConsensusOutcome out = RunOnce(s);
            NS_TEST_ASSERT_MSG_EQ(out.rounds, 5u, "the protocol carries on");
            NS_TEST_ASSERT_MSG_GT(out.partial.size(), 0u, "some deliveries are partial");
            NS_TEST_ASSERT_MSG_GT(out.complete.size(), 0u, "some deliveries are complete");
            for (const auto& key : out.partial)
            {
                const auto& rec = out.trust.at(key);
                // renormalize: missing with no weight; reuse: earlier complete predictions
                // (reused) or, if none arrived before, missing. Never this round's rows.
                NS_TEST_ASSERT_MSG_NE(rec.second, "fresh", "a partial delivery is not used");
                if (rule == "renormalize")
                {
                    NS_TEST_ASSERT_MSG_EQ(rec.second, "missing", "traced as missing");
                    NS_TEST_ASSERT_MSG_EQ(rec.first, 0.0, "a missing peer has no weight");
                }
            }
            for (const auto& key : out.complete)
            {
                NS_TEST_ASSERT_MSG_EQ(out.trust.at(key).second, "fresh", "complete: used");
            }
            // Every (round, receiver, sender) is complete, partial or lost: fresh exactly
            // where complete.
            for (const auto& [key, rec] : out.trust)
            {
                if (std::get<1>(key) == std::get<2>(key))
                {
                    continue;
                }
                const bool fresh = rec.second == "fresh";
                const bool complete = out.complete.count(key) == 1;
                NS_TEST_ASSERT_MSG_EQ(fresh, complete, "fresh if and only if delivered complete");
            }
        }
    }
};

/**
 * The closed-form polynomial learner in the protocol (Fan et al. 2023, App. A.1 data, 3
 * agents, naive trust, lambda = 1): after every collaboration round each agent's polynomial
 * is D2dPolynomialFit's exact minimiser of eq. 2 for the pseudo-labels it got, recomputed
 * here from the predictions broadcast (psi = the mean of the three); the predictions are
 * the polynomials evaluated on X*.
 */
class PolynomialLearnerTestCase : public TestCase
{
  public:
    PolynomialLearnerTestCase()
        : TestCase("closed-form polynomial learner: each round is eq. 2's exact minimiser")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t agents = 3;
        const auto f = D2dSyntheticData::PaperPolynomial();
        auto train = std::make_shared<D2dDataset>();
        train->featureShape = {1};
        std::vector<D2dShard> shards(agents);
        for (uint32_t i = 0; i < agents; ++i)
        {
            auto part = D2dSyntheticData::PolynomialRegression(f, -2.0 + 2.0 * i, 1, 1, 50, 40 + i);
            for (std::size_t k = 0; k < part->Size(); ++k)
            {
                shards[i].indices.push_back(train->Size());
                train->features.push_back(part->features[k]);
                train->targets.push_back(part->targets[k]);
            }
        }
        auto xstar = D2dSyntheticData::PolynomialGrid(f, -4, 4, 50);
        auto test = D2dSyntheticData::PolynomialGrid(f, -4, 4, 201);

        NodeContainer nodes = MakeTestNodesOnLine(agents, 10.0);
        D2dHelper net;
        net.SetInitialEnergyJ(1e9);
        net.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        net.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40));
        Ptr<D2dChannel> channel = net.Install(nodes);
        net.AssignStreams(10);
        std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<const std::vector<float>>> sent;
        for (const auto& t : channel->GetTransports())
        {
            t->TraceConnectWithoutContext("Send",
                                          Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                                              [&sent](uint64_t, Ptr<const D2dMessage> m, uint32_t) {
                                                  if (auto p =
                                                          m->GetPayloadAs<D2dPredictionPayload>())
                                                  {
                                                      sent[{p->round, p->origin}] = p->values;
                                                  }
                                              }));
        }
        D2dLearningHelper helper;
        helper.SetData(train, shards, test);
        helper.SetModel(D2dModelSpec::Parse("poly:4"));
        helper.SetSeed(9);
        helper.SetProtocolType("ns3::D2dPredictionConsensus");
        const uint32_t rounds = 6;
        helper.SetProtocolAttribute("Rounds", UintegerValue(rounds));
        helper.SetProtocolAttribute("Trust", StringValue("naive"));
        helper.SetProtocolAttribute("Lambda", DoubleValue(1.0));
        helper.SetProtocolAttribute("WarmupRounds", UintegerValue(1));
        Ptr<D2dFlProtocol> protocol =
            helper.Install(nodes, channel, nullptr, D2dDeliveryMode::RELIABLE);
        auto pc = DynamicCast<D2dPredictionConsensus>(protocol);
        pc->SetSharedSet(xstar);
        NS_TEST_ASSERT_MSG_EQ(pc->PredictionMessageBytes(), 50u * 4 + 32, "n* x 1 x 4 + 32");
        // Each agent's coefficients at the end of every round.
        std::map<std::pair<uint32_t, uint32_t>, std::vector<float>> coef;
        protocol->TraceConnectWithoutContext(
            "RoundEnd",
            Callback<void, uint32_t, double, double>([&](uint32_t round, double, double) {
                for (uint32_t i = 0; i < agents; ++i)
                {
                    coef[{round, i}] = protocol->GetLearners()[i]->GetParameters();
                }
            }));
        protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
        Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
        Simulator::Stop(Seconds(1e5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(protocol->GetRoundsDone(), rounds, "every round completes");
        Simulator::Destroy();

        std::vector<double> xs(xstar->features.begin(), xstar->features.end());
        for (uint32_t i = 0; i < agents; ++i)
        {
            std::vector<double> x;
            std::vector<double> y;
            for (auto k : shards[i].indices)
            {
                x.push_back(train->features[k]);
                y.push_back(train->targets[k]);
            }
            // Round 1 (warm-up): the local least-squares fit.
            auto c = D2dPolynomialFit::Fit(x, y, {}, {}, 0.0, 4);
            for (uint32_t e = 0; e <= 4; ++e)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(coef.at({1, i})[e],
                                          c[e],
                                          1e-4 * (1 + std::abs(c[e])),
                                          "round 1: local fit, agent " << i << " power " << e);
            }
            for (uint32_t round = 2; round <= rounds; ++round)
            {
                // The predictions broadcast are the previous round's polynomials on X*.
                std::vector<double> psi(xs.size(), 0.0);
                for (uint32_t j = 0; j < agents; ++j)
                {
                    const auto& pred = *sent.at({round, j});
                    const auto& cj = coef.at({round - 1, j});
                    for (std::size_t m = 0; m < xs.size(); ++m)
                    {
                        double v = 0;
                        for (int e = 4; e >= 0; --e)
                        {
                            v = v * xs[m] + cj[e];
                        }
                        NS_TEST_ASSERT_MSG_EQ_TOL(pred[m],
                                                  v,
                                                  1e-3 * (1 + std::abs(v)),
                                                  "predictions = the polynomial on X*");
                        psi[m] += pred[m] / 3.0;
                    }
                }
                // n = n* = 50: eq. 2 with means is the sums' minimiser with lambda = 1.
                c = D2dPolynomialFit::Fit(x, y, xs, psi, 1.0, 4);
                for (uint32_t e = 0; e <= 4; ++e)
                {
                    NS_TEST_ASSERT_MSG_EQ_TOL(coef.at({round, i})[e],
                                              c[e],
                                              1e-3 * (1 + std::abs(c[e])),
                                              "round " << round << ", agent " << i << ", power "
                                                       << e);
                }
            }
        }
    }
};

/**
 * Airtime and latency of the predictions broadcasts against an independent calculation of
 * the channel's message model: a message of B = n* x C x 4 + 32 bytes is cut into
 * F = ceil(B / MtuBytes) fragments, each carrying FragmentHeaderBytes h on the air; with
 * no loss (reliable, noise ~ 0) each fragment is sent once, so the airtime is
 * (B + F h) x 8 / (r x BandwidthHz). Each receiver gets the message one propagation delay
 * (distance / c, devices 10 m apart on a line) after the end of the transmission, so the
 * latency t_recv - t_send is at least airtime + distance / c (the rest is the MAC's wait).
 * With n* = 60, C = 4: B = 992 bytes; r x bandwidth = 2 x 10 MHz = 20 Mbit/s; MtuBytes 1500,
 * h = 0: F = 1, 396.8 us; MtuBytes 256, h = 24: F = 4, (992 + 96) x 8 / 2e7 = 435.2 us.
 */
class AirtimeTestCase : public TestCase
{
  public:
    AirtimeTestCase()
        : TestCase("predictions broadcasts: airtime = (B + F h) x 8 bits at the link rate, "
                   "latency at least airtime plus d over c")
    {
    }

  private:
    void DoRun() override
    {
        struct Variant
        {
            uint32_t mtu;
            uint32_t header;
            uint64_t fragments; //!< by hand
            double airtimeUs;   //!< by hand
        };

        for (const Variant& v : {Variant{0, 0, 1, 396.8}, Variant{256, 24, 4, 435.2}})
        {
            Settings s;
            s.rounds = 3; // two collaboration rounds
            s.mtuBytes = v.mtu;
            s.headerBytes = v.header;
            const ConsensusOutcome out = RunOnce(s);
            NS_TEST_ASSERT_MSG_EQ(out.rounds, 3u, "every round completes");
            NS_TEST_ASSERT_MSG_EQ(out.points, 60u, "n* = 60 as the numbers by hand assume");
            const uint64_t bytes = uint64_t(out.points) * 4 * 4 + 32;
            NS_TEST_ASSERT_MSG_EQ(out.messageSize, bytes, "message model");
            // The independent calculation, from the channel's attributes as set.
            const uint64_t fragments = (bytes + out.mtuBytes - 1) / out.mtuBytes;
            NS_TEST_ASSERT_MSG_EQ(fragments, v.fragments, "F by hand");
            const double rate = out.spectralEfficiency * out.bandwidthHz;
            const double airtime = double(bytes + fragments * out.headerBytes) * 8.0 / rate;
            NS_TEST_ASSERT_MSG_EQ_TOL(airtime * 1e6, v.airtimeUs, 1e-9, "airtime by hand");
            // One transmission per agent and collaboration round (a broadcast), N per round.
            NS_TEST_ASSERT_MSG_EQ(out.transmissions.size(), 2 * kAgents, "2 rounds x N");
            std::map<uint64_t, Time> endOf;
            for (const auto& [id, sender, fragmentTx, air, end] : out.transmissions)
            {
                NS_TEST_ASSERT_MSG_EQ(fragmentTx, fragments, "each fragment sent once");
                NS_TEST_ASSERT_MSG_EQ_TOL(air.GetSeconds(),
                                          airtime,
                                          1e-9,
                                          "airtime of message " << id << " (1 ns)");
                endOf[id] = end;
            }
            // Every broadcast reaches the N - 1 others complete, one propagation delay after
            // its transmission ended.
            NS_TEST_ASSERT_MSG_EQ(out.deliveries.size(),
                                  2 * kAgents * (kAgents - 1),
                                  "N - 1 receivers per broadcast");
            for (const auto& r : out.deliveries)
            {
                NS_TEST_ASSERT_MSG_EQ(r.IsComplete(), true, "no loss");
                NS_TEST_ASSERT_MSG_EQ(r.bytes, bytes, "the message's bytes");
                NS_TEST_ASSERT_MSG_EQ(r.fragments, fragments, "its fragments");
                NS_TEST_ASSERT_MSG_EQ(endOf.count(r.msgId), 1u, "its transmission was traced");
                const double distance = 10.0 * std::abs(double(r.src) - double(r.dst));
                const double propagation = distance / 299792458.0;
                NS_TEST_ASSERT_MSG_EQ_TOL((r.recvTime - endOf.at(r.msgId)).GetSeconds(),
                                          propagation,
                                          1e-9,
                                          "reception = end of transmission + d / c (1 ns)");
                NS_TEST_ASSERT_MSG_GT_OR_EQ((r.recvTime - r.sendTime).GetSeconds() + 1e-9,
                                            airtime + propagation,
                                            "latency >= airtime + d / c");
            }
        }
    }
};

/**
 * The hand example (Fan et al. 2023 notation; 3 agents A, B, C, 2 points, 3 classes) in a
 * real protocol round: each agent is a linear softmax classifier on X* = {x1 = (1, 0),
 * x2 = (0, 1)} whose weights are the logarithms of its hand-chosen predictions (W[c][k] =
 * ln f(x_k)_c, no bias), so its softmax outputs are those predictions; WarmupRounds 0 makes
 * round 1 a collaboration round on them. The round's Trust records and pseudo-labels must be
 * the hand numbers: beta = 1: row A = (0.424977, 0.390080, 0.184944); beta = 1/H: row B =
 * (0.396503, 0.420316, 0.183180); beta = 1/(H + 1): row B = (0.384214, 0.413699, 0.202087)
 * and psi_A(x1) = (0.472010, 0.239008, 0.288982); naive trust: w = 1/3 and psi_A(x1) =
 * ((0.7 + 0.4 + 0.1) / 3, (0.2 + 0.3 + 0.2) / 3, (0.1 + 0.3 + 0.7) / 3) = (0.4, 0.233333,
 * 0.366667). Tolerance 1e-6 (the predictions are float32 softmax outputs: 1e-7 off the
 * hand values).
 */
class HandRoundTestCase : public TestCase
{
  public:
    HandRoundTestCase()
        : TestCase("a protocol round on the hand example's predictions gives the hand rows "
                   "and pseudo-labels")
    {
    }

  private:
    /** What one round gave. */
    struct Round
    {
        std::map<std::pair<uint32_t, uint32_t>, double> w; //!< (agent, peer) -> w
        std::map<uint32_t, std::vector<float>> sent;       //!< agent -> predictions sent
        std::vector<float> psiA;                           //!< agent A's pseudo-labels
        uint32_t rounds{0};
    };

    static Round Run(const std::string& trust, const std::string& confidence)
    {
        // f_agent(x_k), k = 1, 2: the hand example.
        const std::vector<std::vector<std::vector<double>>> f{{{0.7, 0.2, 0.1}, {0.2, 0.7, 0.1}},
                                                              {{0.4, 0.3, 0.3}, {0.05, 0.9, 0.05}},
                                                              {{0.1, 0.2, 0.7}, {0.7, 0.2, 0.1}}};
        const uint32_t agents = 3;
        auto xstar = std::make_shared<D2dDataset>();
        xstar->featureShape = {2};
        xstar->numClasses = 3;
        xstar->features = {1.f, 0.f, 0.f, 1.f};
        xstar->labels = {0, 1};
        auto train = std::make_shared<D2dDataset>();
        train->featureShape = {2};
        train->numClasses = 3;
        std::vector<D2dShard> shards(agents);
        for (uint32_t i = 0; i < agents; ++i)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                shards[i].indices.push_back(train->Size());
                train->features.push_back(k == 0 ? 1.f : 0.f);
                train->features.push_back(k == 0 ? 0.f : 1.f);
                train->labels.push_back((i + k) % 3);
            }
        }

        NodeContainer nodes = MakeTestNodesOnLine(agents, 10.0);
        D2dHelper net;
        net.SetInitialEnergyJ(1e9);
        net.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        net.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40));
        Ptr<D2dChannel> channel = net.Install(nodes);
        net.AssignStreams(10);
        Round out;
        for (const auto& t : channel->GetTransports())
        {
            t->TraceConnectWithoutContext("Send",
                                          Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                                              [&out](uint64_t, Ptr<const D2dMessage> m, uint32_t) {
                                                  if (auto p =
                                                          m->GetPayloadAs<D2dPredictionPayload>())
                                                  {
                                                      out.sent[p->origin] = *p->values;
                                                  }
                                              }));
        }
        D2dLearningHelper helper;
        helper.SetData(train, shards, xstar);
        helper.SetModel(D2dModelSpec::Parse("logistic"));
        helper.SetSeed(9);
        helper.SetProtocolType("ns3::D2dPredictionConsensus");
        helper.SetProtocolAttribute("Rounds", UintegerValue(1));
        helper.SetProtocolAttribute("WarmupRounds", UintegerValue(0));
        helper.SetProtocolAttribute("CommonInitialModel", BooleanValue(false));
        helper.SetProtocolAttribute("Trust", StringValue(trust));
        helper.SetProtocolAttribute("Confidence", StringValue(confidence));
        Ptr<D2dFlProtocol> protocol =
            helper.Install(nodes, channel, nullptr, D2dDeliveryMode::RELIABLE);
        auto pc = DynamicCast<D2dPredictionConsensus>(protocol);
        pc->SetSharedSet(xstar);
        // Linear(2, 3): weight [3 x 2] row-major, then bias [3].
        for (uint32_t i = 0; i < agents; ++i)
        {
            std::vector<float> w(9, 0.f);
            for (uint32_t c = 0; c < 3; ++c)
            {
                for (uint32_t k = 0; k < 2; ++k)
                {
                    w[c * 2 + k] = static_cast<float>(std::log(f[i][k][c]));
                }
            }
            protocol->GetLearners()[i]->SetParameters(w);
        }
        pc->TraceConnectWithoutContext(
            "Trust",
            Callback<void, uint32_t, uint32_t, uint32_t, double, const std::string&>(
                [&out](uint32_t r, uint32_t i, uint32_t j, double w, const std::string&) {
                    if (r == 1)
                    {
                        out.w[{i, j}] = w;
                    }
                }));
        protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
        Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
        Simulator::Stop(Seconds(1e5));
        Simulator::Run();
        out.rounds = protocol->GetRoundsDone();
        if (auto psi = pc->GetPseudoLabels(0))
        {
            out.psiA = *psi;
        }
        Simulator::Destroy();
        return out;
    }

    void DoRun() override
    {
        const double tol = 1e-6;
        const Round none = Run("dynamic", "none");
        NS_TEST_ASSERT_MSG_EQ(none.rounds, 1u, "the round completes");
        // The predictions broadcast are the hand example's.
        const std::vector<std::vector<float>> hand{{0.7f, 0.2f, 0.1f, 0.2f, 0.7f, 0.1f},
                                                   {0.4f, 0.3f, 0.3f, 0.05f, 0.9f, 0.05f},
                                                   {0.1f, 0.2f, 0.7f, 0.7f, 0.2f, 0.1f}};
        NS_TEST_ASSERT_MSG_EQ(none.sent.size(), 3u, "three broadcasts");
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t k = 0; k < 6; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(none.sent.at(i)[k], hand[i][k], 1e-6, "f by hand");
            }
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(none.w.at({0, 0}), 0.424977, tol, "beta = 1: w_AA");
        NS_TEST_ASSERT_MSG_EQ_TOL(none.w.at({0, 1}), 0.390080, tol, "beta = 1: w_AB");
        NS_TEST_ASSERT_MSG_EQ_TOL(none.w.at({0, 2}), 0.184944, tol, "beta = 1: w_AC");

        const Round entropy = Run("dynamic", "entropy");
        NS_TEST_ASSERT_MSG_EQ_TOL(entropy.w.at({1, 0}), 0.396503, tol, "beta = 1/H: w_BA");
        NS_TEST_ASSERT_MSG_EQ_TOL(entropy.w.at({1, 1}), 0.420316, tol, "beta = 1/H: w_BB");
        NS_TEST_ASSERT_MSG_EQ_TOL(entropy.w.at({1, 2}), 0.183180, tol, "beta = 1/H: w_BC");

        const Round plusOne = Run("dynamic", "entropy-plus-one");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.w.at({1, 0}), 0.384214, tol, "1/(H+1): w_BA");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.w.at({1, 1}), 0.413699, tol, "1/(H+1): w_BB");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.w.at({1, 2}), 0.202087, tol, "1/(H+1): w_BC");
        NS_TEST_ASSERT_MSG_EQ(plusOne.psiA.size(), 6u, "psi_A: n* x C");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.psiA[0], 0.472010, tol, "psi_A(x1)_0");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.psiA[1], 0.239008, tol, "psi_A(x1)_1");
        NS_TEST_ASSERT_MSG_EQ_TOL(plusOne.psiA[2], 0.288982, tol, "psi_A(x1)_2");

        const Round naive = Run("naive", "none");
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t j = 0; j < 3; ++j)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(naive.w.at({i, j}), 1.0 / 3.0, 1e-15, "naive: 1/3");
            }
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(naive.psiA[0], 0.4, tol, "naive psi_A(x1)_0");
        NS_TEST_ASSERT_MSG_EQ_TOL(naive.psiA[1], 0.7 / 3.0, tol, "naive psi_A(x1)_1");
        NS_TEST_ASSERT_MSG_EQ_TOL(naive.psiA[2], 1.1 / 3.0, tol, "naive psi_A(x1)_2");
    }
};

class D2dConsensusTestSuite : public TestSuite
{
  public:
    D2dConsensusTestSuite()
        : TestSuite("d2d-consensus")
    {
        AddTestCase(new TrustRowsTestCase);
        AddTestCase(new LambdaZeroTestCase);
        AddTestCase(new StaticDynamicTestCase);
        AddTestCase(new LossRuleTestCase);
        AddTestCase(new PartialReceptionTestCase);
        AddTestCase(new PolynomialLearnerTestCase);
        AddTestCase(new AirtimeTestCase);
        AddTestCase(new HandRoundTestCase);
    }
};

static D2dConsensusTestSuite g_d2dConsensusTestSuite;

} // namespace
