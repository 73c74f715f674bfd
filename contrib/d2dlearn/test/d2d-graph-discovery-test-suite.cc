/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3 tests of D2dGraphDiscovery over the simulated D2D channel (Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025): the Appendix A example with a fixed graph (exact without loss; the
 * rewards' g with P_D = 0.2 by hand, in both readings of eq. (8)), the control messages'
 * counts and bytes per iteration against the formula, a learning run whose policies end on
 * the one useful transmitter, a lossy unreliable run that exchanges less, and the learning
 * run over the 802.11 backend (D2dWifiTransport, P_D from D2dRssLinkQuality).
 */

#include "d2d-test-eq18.h"
#include "d2d-test-simulation.h"

#include "ns3/boolean.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-graph-discovery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-rss-link-quality.h"
#include "ns3/d2d-supervised-paradigm.h"
#include "ns3/d2d-transport.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/d2d-wifi-transport.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/** A network of n devices with P_D = p on every link, and its discovery protocol. */
struct Rig
{
    NodeContainer nodes;
    Ptr<D2dChannel> channel;
    Ptr<D2dGraphDiscovery> gd;
    Ptr<D2dSupervisedParadigm> paradigm;
    std::map<std::string, uint64_t> rows;  //!< messages.csv rows per kind
    std::map<std::string, uint64_t> bytes; //!< bytes per kind (one row each)
    std::map<std::string, uint64_t> sends; //!< messages per kind (distinct ids)
    std::map<uint64_t, bool> seen;

    /**
     * \param n devices
     * \param p P_D of every link
     * \param initialEnergyJ each battery, J (0: the helper's default)
     */
    Rig(uint32_t n, double p, double initialEnergyJ = 0)
    {
        nodes.Create(n);
        std::vector<std::vector<double>> w(n, std::vector<double>(n, RssForDiscoveryDrop(p)));
        auto model = CreateObject<MatrixRssModel>();
        model->SetMatrix(w);
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(kDiscoverySpectralEfficiency));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(kDiscoveryNoiseW));
        helper.SetChannelAttribute("AccessPolicy", StringValue("Scheduled"));
        helper.SetRssModel(model);
        if (initialEnergyJ > 0)
        {
            helper.SetInitialEnergyJ(initialEnergyJ);
        }
        channel = helper.Install(nodes);
        helper.AssignStreams(10);
        paradigm = CreateObject<D2dSupervisedParadigm>();
        gd = CreateObject<D2dGraphDiscovery>();
        gd->SetAttribute("Paradigm", PointerValue(paradigm));
        gd->Setup(channel->GetTransports(), channel);
        gd->AssignStreams(100);
        for (auto& t : channel->GetTransports())
        {
            t->TraceConnectWithoutContext("Delivery", MakeCallback(&Rig::Row, this));
        }
    }

    void Row(const D2dDeliveryRecord& r)
    {
        rows[r.kind]++;
        bytes[r.kind] += r.bytes;
        if (!seen[r.msgId])
        {
            seen[r.msgId] = true;
            sends[r.kind]++;
        }
    }

    /**
     * \brief Device i holds 30 points of label i mod nl and 8 of label i + 1 mod nl, a
     * budget of 5 points per label, 3 labels to reach, and trusts every device.
     * \param nl labels
     */
    void SetupShiftedLabels(uint32_t nl)
    {
        const uint32_t n = nodes.GetN();
        std::vector<D2dFractionalCounts> counts(n, D2dFractionalCounts(nl, 0.0));
        for (uint32_t i = 0; i < n; ++i)
        {
            counts[i][i % nl] = 30;
            counts[i][(i + 1) % nl] = 8;
        }
        paradigm->Setup(counts,
                        std::vector<D2dFractionalCounts>(n, D2dFractionalCounts(nl, 5.0)),
                        std::vector<uint32_t>(n, 3),
                        D2dTrustMatrices(n, nl, true));
    }

    void Run()
    {
        Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
        Simulator::Stop(Seconds(1e5));
        Simulator::Run();
    }
};

/** Appendix A's D, b, T (i = 0, j = 1, k = 2) with L-hat = 3. */
void
SetupAppendixA(Ptr<D2dSupervisedParadigm> paradigm)
{
    D2dTrustMatrices trust(3, 5, false);
    const std::vector<int> ti{1, 0, 1, 1, 0};
    const std::vector<int> tk{1, 1, 1, 0, 0};
    for (uint32_t l = 0; l < 5; ++l)
    {
        trust.Set(1, 0, l, ti[l]);
        trust.Set(1, 2, l, tk[l]);
    }
    paradigm->Setup({{20, 0, 0, 0, 20}, {20, 20, 20, 20, 20}, {0, 20, 0, 20, 0}},
                    std::vector<D2dFractionalCounts>(3, D2dFractionalCounts(5, 10.0)),
                    {3, 3, 3},
                    trust);
}
} // namespace

/** Appendix A over the channel with a fixed graph (i and k select j). */
class D2dGdAppendixATestCase : public TestCase
{
  public:
    D2dGdAppendixATestCase()
        : TestCase("Appendix A over the channel: exact D-hat without loss; g with P_D = 0.2")
    {
    }

  private:
    void DoRun() override
    {
        {
            Rig rig(3, 1e-9);
            SetupAppendixA(rig.paradigm);
            rig.gd->SetAttribute("Graph", StringValue("fixed"));
            rig.gd->SetAttribute("Iterations", UintegerValue(2));
            rig.gd->SetFixedGraph({1, -1, 1});
            std::vector<double> gains;
            rig.gd->TraceConnectWithoutContext(
                "Iteration",
                MakeBoundCallback(
                    +[](std::vector<double>* g, const D2dGraphDiscovery::IterationRecord& r) {
                        if (r.device == 0)
                        {
                            g->push_back(r.gain);
                        }
                    },
                    &gains));
            rig.Run();
            NS_TEST_ASSERT_MSG_EQ(rig.gd->IsFinished(), true, "finished");
            const std::vector<D2dFractionalCounts> expected{{20, 0, 5, 10, 20},
                                                            {10, 20, 10, 10, 20},
                                                            {10, 20, 5, 20, 0}};
            for (uint32_t d = 0; d < 3; ++d)
            {
                for (uint32_t l = 0; l < 5; ++l)
                {
                    NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetCounts(d)[l],
                                          expected[d][l],
                                          "D-hat of device " << d << " label " << l);
                }
            }
            // g of i: W1([20,0,0,0,20], [20,0,5,10,20]) = 25/55 (hand-worked in the gtest).
            NS_TEST_ASSERT_MSG_EQ(gains.size(), 2u, "two iterations");
            NS_TEST_EXPECT_MSG_EQ_TOL(gains[0], 25.0 / 55.0, 1e-6, "g of i");
            NS_TEST_EXPECT_MSG_EQ(rig.gd->GetLinks().size(), 2u, "two data links");
            Simulator::Destroy();
        }
        for (const std::string thresholdOn : {"allocated", "expected"})
        {
            Rig rig(3, 0.2);
            SetupAppendixA(rig.paradigm);
            rig.paradigm->SetAttribute("ThresholdOn", StringValue(thresholdOn));
            rig.gd->SetAttribute("Graph", StringValue("fixed"));
            rig.gd->SetAttribute("Iterations", UintegerValue(1));
            rig.gd->SetAttribute("Alpha2", DoubleValue(0.0));
            rig.gd->SetFixedGraph({1, -1, 1});
            double gain = -1;
            rig.gd->TraceConnectWithoutContext(
                "Iteration",
                MakeBoundCallback(
                    +[](double* g, const D2dGraphDiscovery::IterationRecord& r) {
                        if (r.device == 0)
                        {
                            *g = r.gain;
                        }
                    },
                    &gain));
            rig.Run();
            // Expected D-hat_i = [20,0,4,8,20]: W1 to [20,0,0,0,20] = (6+6+2+6)/52 = 20/52.
            // Checked on the loss-free [20,0,5,10,20] eq. (8) holds (3 labels); on the
            // expected counts only labels 0 and 4 reach 10: g = 0 (the literal reading).
            const double want = thresholdOn == "allocated" ? 20.0 / 52.0 : 0.0;
            NS_TEST_EXPECT_MSG_EQ_TOL(gain, want, 1e-6, "g with ThresholdOn=" << thresholdOn);
            // Over the lossy channel the datapoints that arrive are at most U and the
            // transmitter drops all it sent: j ends at [10,20,10,10,20] whatever is lost.
            const D2dFractionalCounts j{10, 20, 10, 10, 20};
            for (uint32_t l = 0; l < 5; ++l)
            {
                NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetCounts(1)[l], j[l], "D-hat_j");
            }
            for (const auto& link : rig.gd->GetLinks())
            {
                for (uint32_t l = 0; l < 5; ++l)
                {
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(link.received[l],
                                                link.allocated[l],
                                                "received <= U");
                }
            }
            Simulator::Destroy();
        }
    }
};

/** Message counts and bytes per iteration against the formula. */
class D2dGdMessageCountTestCase : public TestCase
{
  public:
    D2dGdMessageCountTestCase()
        : TestCase("Control messages per iteration: N requests of 1 B, N offers, demands and "
                   "allocations of L B; rewards: N-1 of 8 B to the head and one r^G of 4 B to "
                   "the N-1 members (ClusterHead), or N of 8 B to the N-1 others (Multicast)")
    {
    }

  private:
    void DoRun() override
    {
        // One iteration trace row per device and iteration: (r^L, r^G, R).
        std::vector<std::vector<double>> rewards[2];
        for (const bool multicast : {false, true})
        {
            rewards[multicast] = Count(multicast);
        }
        // Without loss the head's r^G is the one every member forms from all the rewards.
        NS_TEST_ASSERT_MSG_EQ(rewards[0].size(), rewards[1].size(), "same iterations");
        for (std::size_t k = 0; k < rewards[0].size(); ++k)
        {
            for (std::size_t c = 0; c < 3; ++c)
            {
                // Equal up to the order of the sum of eq. (14).
                NS_TEST_EXPECT_MSG_EQ_TOL(rewards[0][k][c], rewards[1][k][c], 1e-12, "row " << k);
            }
        }
    }

    std::vector<std::vector<double>> Count(bool multicast)
    {
        const uint32_t n = 6;
        const uint32_t nl = 4;
        const uint32_t iterations = 7;
        Rig rig(n, 1e-9); // every P_D ~ 0: one reliable cluster
        rig.gd->SetAttribute(
            "RewardSharing",
            EnumValue(multicast ? D2dGraphDiscovery::MULTICAST : D2dGraphDiscovery::CLUSTER_HEAD));
        std::vector<std::vector<double>> rewards;
        rig.gd->TraceConnectWithoutContext("Iteration",
                                           MakeBoundCallback(&CountIteration, &rewards));
        rig.SetupShiftedLabels(nl);
        rig.gd->SetAttribute("Iterations", UintegerValue(iterations));
        rig.Run();
        NS_TEST_EXPECT_MSG_EQ(rig.gd->IsFinished(), true, "finished");
        const uint32_t cluster0 =
            std::count(rig.gd->GetClusters().begin(), rig.gd->GetClusters().end(), 0u);
        NS_TEST_EXPECT_MSG_EQ(cluster0, n, "one cluster");
        // Learning: `iterations` rounds of all five phases; the last message passing: four.
        const uint64_t mp = iterations + 1;
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_request"], n * mp, "requests");
        NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_request"], n * mp * 1, "request bytes");
        for (const std::string kind : {"gd_offer", "gd_demand", "gd_allocation"})
        {
            NS_TEST_EXPECT_MSG_EQ(rig.sends[kind], n * mp, kind << " messages");
            NS_TEST_EXPECT_MSG_EQ(rig.bytes[kind], n * mp * nl, kind << " bytes");
        }
        if (multicast)
        {
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_reward"], n * iterations, "reward multicasts");
            NS_TEST_EXPECT_MSG_EQ(rig.rows["gd_reward"], n * (n - 1) * iterations, "reward rows");
            NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_reward"],
                                  n * (n - 1) * iterations * 8,
                                  "reward bytes");
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_global"], 0, "no r^G messages");
        }
        else
        {
            // Device 0, the lowest index, heads the cluster.
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_reward"], (n - 1) * iterations, "to the head");
            NS_TEST_EXPECT_MSG_EQ(rig.rows["gd_reward"], (n - 1) * iterations, "reward rows");
            NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_reward"], (n - 1) * iterations * 8, "bytes");
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_global"], iterations, "one r^G multicast");
            NS_TEST_EXPECT_MSG_EQ(rig.rows["gd_global"], (n - 1) * iterations, "r^G rows");
            NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_global"], (n - 1) * iterations * 4, "r^G bytes");
        }
        // Data: one message per link that moves points, 785 bytes a point.
        uint64_t links = 0;
        uint64_t points = 0;
        for (const auto& link : rig.gd->GetLinks())
        {
            double total = 0;
            for (double x : link.allocated)
            {
                total += x;
            }
            links += total > 0 ? 1 : 0;
            points += static_cast<uint64_t>(total);
        }
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_data"], links, "data messages");
        NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_data"], points * 785, "data bytes");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(rewards.size(), n * iterations, "iteration rows");
        return rewards;
    }

    static void CountIteration(std::vector<std::vector<double>>* rows,
                               const D2dGraphDiscovery::IterationRecord& r)
    {
        rows->push_back({r.localReward, r.globalReward, r.reward});
    }
};

/**
 * SleepBetweenIterations: with IterationPeriod 1 s, every device's radio sleeps from the end
 * of each learning iteration (its Iteration trace rows) to the next multiple of the period,
 * and nothing else changes: the same rewards and clusters as without sleep; each radio's
 * sleep energy is SleepPowerW x the sum of those gaps, taken from its idle energy (1e-9).
 */
class D2dGdSleepBetweenIterationsTestCase : public TestCase
{
  public:
    D2dGdSleepBetweenIterationsTestCase()
        : TestCase("SleepBetweenIterations: the radios sleep from each iteration's end to the "
                   "next period, and the discovery is the same")
    {
    }

  private:
    /** What a run showed. */
    struct Outcome
    {
        std::vector<double> rewards;    //!< every Iteration row's reward R, in order
        std::vector<double> ends;       //!< the times of the Iteration rows, s
        std::vector<uint32_t> clusters; //!< the clusters found
        TestEnergyTable energy;         //!< per (device, component), J
        double sleepW{0};               //!< the radios' SleepPowerW
        double idleW{0};                //!< the radios' IdlePowerW
    };

    static void Row(Outcome* o, const D2dGraphDiscovery::IterationRecord& r)
    {
        o->rewards.push_back(r.reward);
        o->ends.push_back(Simulator::Now().GetSeconds());
    }

    static Outcome RunOnce(bool sleep)
    {
        const uint32_t n = 6;
        const uint32_t nl = 4;
        Outcome o;
        Rig rig(n, 1e-9, 1e9); // no battery runs out over the run's 1e5 s
        rig.gd->SetAttribute("IterationPeriod", TimeValue(Seconds(1)));
        rig.gd->SetAttribute("SleepBetweenIterations", BooleanValue(sleep));
        rig.gd->SetAttribute("Iterations", UintegerValue(5));
        rig.gd->TraceConnectWithoutContext("Iteration", MakeBoundCallback(&Row, &o));
        rig.SetupShiftedLabels(nl);
        for (uint32_t i = 0; i < n; ++i)
        {
            rig.channel->GetRadio(i)->GetEnergyModel()->TraceConnectWithoutContext(
                "EnergyEvent",
                MakeBoundCallback(&AddTestEnergy, &o.energy));
        }
        o.sleepW = rig.channel->GetRadio(0)->GetEnergyModel()->GetSleepPowerW();
        o.idleW = rig.channel->GetRadio(0)->GetEnergyModel()->GetIdlePowerW();
        rig.Run();
        for (uint32_t i = 0; i < n; ++i)
        {
            rig.channel->GetRadio(i)->GetEnergyModel()->Flush();
        }
        o.clusters = rig.gd->GetClusters();
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        const Outcome awake = RunOnce(false);
        const Outcome asleep = RunOnce(true);
        NS_TEST_ASSERT_MSG_EQ(asleep.rewards.size(), 6u * 5u, "a row per device and iteration");
        NS_TEST_EXPECT_MSG_EQ((asleep.rewards == awake.rewards), true, "the same rewards");
        NS_TEST_EXPECT_MSG_EQ((asleep.clusters == awake.clusters), true, "the same clusters");
        NS_TEST_EXPECT_MSG_EQ((asleep.ends == awake.ends), true, "the iterations end alike");
        // By hand: each iteration ends at t (its rows' time) and the next starts at the next
        // whole second; the 6 radios sleep in between (ns3-wifi: no transition time).
        double gaps = 0;
        for (std::size_t r = 0; r < asleep.ends.size(); r += 6)
        {
            gaps += std::floor(asleep.ends[r]) + 1 - asleep.ends[r];
        }
        NS_TEST_ASSERT_MSG_GT(gaps, 4.0, "five gaps of most of a second");
        const double sleepJ = SumTestEnergy(asleep.energy, "radio_sleep");
        NS_TEST_EXPECT_MSG_EQ_TOL(sleepJ, 6 * asleep.sleepW * gaps, 1e-9 * sleepJ, "asleep");
        const double idleSaved =
            SumTestEnergy(awake.energy, "radio_idle") - SumTestEnergy(asleep.energy, "radio_idle");
        NS_TEST_EXPECT_MSG_EQ_TOL(idleSaved,
                                  6 * awake.idleW * gaps,
                                  1e-9 * idleSaved,
                                  "idle for that much less");
        NS_TEST_EXPECT_MSG_EQ(SumTestEnergy(awake.energy, "radio_sleep"),
                              0.0,
                              "no sleep without it");
    }
};

/**
 * The policies learn: device i lacks label 1 and only transmitter 1 can give it (trusted);
 * every other transmitter gives nothing. After learning, the greedy choice of every device
 * that can gain is the one transmitter that helps it.
 */
class D2dGdLearnsTestCase : public TestCase
{
  public:
    D2dGdLearnsTestCase()
        : TestCase("RL policies converge on the only useful transmitter")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        Rig rig(n, 1e-9);
        // Devices 0 and 2-4 hold label 0 only; device 1 holds both labels plenty.
        std::vector<D2dFractionalCounts> counts(n, D2dFractionalCounts{40, 0});
        counts[1] = {40, 40};
        D2dTrustMatrices trust(n, 2, true);
        rig.paradigm->Setup(counts,
                            std::vector<D2dFractionalCounts>(n, D2dFractionalCounts(2, 10.0)),
                            std::vector<uint32_t>(n, 2),
                            trust);
        rig.gd->SetAttribute("Iterations", UintegerValue(300));
        rig.gd->SetAttribute("BufferSize", UintegerValue(32));
        rig.Run();
        NS_TEST_ASSERT_MSG_EQ(rig.gd->GetGraphs().size(), 1u, "one edge round");
        const auto& graph = rig.gd->GetGraphs()[0];
        for (uint32_t i : {0u, 2u, 3u, 4u})
        {
            NS_TEST_EXPECT_MSG_EQ(graph[i], 1, "device " << i << " picks transmitter 1");
            // Label 1 reached: 10 points of device 1's spare 30 (demand 40 > 30: 7 each).
            NS_TEST_EXPECT_MSG_GT(rig.paradigm->GetCounts(i)[1], 0.0, "label 1 received");
        }
        NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetCounts(1)[1], 40.0 - 4 * 7.0, "spare 30, 7 each");
        Simulator::Destroy();
    }
};

/**
 * ClusterHead with lossy unreliable control: a member whose r^G is lost forms it from its own
 * reward alone (r^L / N without a budget); one that receives it uses the head's value, the same
 * for every member that receives it in that iteration.
 */
class D2dGdLostGlobalTestCase : public TestCase
{
  public:
    D2dGdLostGlobalTestCase()
        : TestCase("ClusterHead: a member whose r^G is lost uses its own r^L over N")
    {
    }

  private:
    struct Row
    {
        uint32_t iteration;
        uint32_t device;
        double local;
        double global;
    };

    static void Trace(std::vector<Row>* rows, const D2dGraphDiscovery::IterationRecord& r)
    {
        rows->push_back({r.iteration, r.device, r.localReward, r.globalReward});
    }

    void DoRun() override
    {
        const uint32_t n = 5;
        const uint32_t iterations = 40;
        Rig rig(n, 0.09); // one cluster (P_D <= alpha_D = 0.1), 9 % of messages lost
        std::vector<D2dFractionalCounts> counts(n, D2dFractionalCounts{40, 0});
        counts[1] = {40, 40};
        rig.paradigm->Setup(counts,
                            std::vector<D2dFractionalCounts>(n, D2dFractionalCounts(2, 10.0)),
                            std::vector<uint32_t>(n, 2),
                            D2dTrustMatrices(n, 2, true));
        rig.gd->SetAttribute("Iterations", UintegerValue(iterations));
        rig.gd->SetAttribute("ControlReliable", BooleanValue(false));
        std::vector<Row> rows;
        rig.gd->TraceConnectWithoutContext("Iteration", MakeBoundCallback(&Trace, &rows));
        rig.Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(rows.size(), n * iterations, "iteration rows");
        uint32_t own = 0;
        uint32_t fromHead = 0;
        for (const auto& r : rows)
        {
            if (r.device == 0)
            {
                continue; // the head
            }
            const double head = rows[r.iteration * n].global;
            const bool isOwn = std::abs(r.global - r.local / n) < 1e-15;
            const bool isHead = r.global == head;
            NS_TEST_EXPECT_MSG_EQ(isOwn || isHead,
                                  true,
                                  "iteration " << r.iteration << " device " << r.device);
            // A local reward of 0 makes both readings agree; count only the telling rows.
            if (isOwn && !isHead)
            {
                ++own;
            }
            if (isHead && !isOwn)
            {
                ++fromHead;
            }
        }
        // 160 member rows, each r^G lost with probability ~0.09 (more with fragments): both
        // cases occur (the chance that none is lost is 0.91^160 < 1e-6).
        NS_TEST_EXPECT_MSG_GT(own, 0u, "some r^G lost");
        NS_TEST_EXPECT_MSG_GT(fromHead, 0u, "some r^G received");
    }
};

/** A link scorer whose best link for receiver i is (i + 1) mod N; counts its calls. */
class CyclicScorer : public D2dLinkScorer
{
  public:
    uint32_t calls{0};     //!< Score() calls
    uint32_t nSeen{0};     //!< the paradigm's N at the call
    double rowZeroSum{-1}; //!< device 0's D_0 total at the call (prepared before scoring)

    std::vector<std::vector<double>> Score(const D2dDiscoveryParadigm& paradigm,
                                           const D2dLinkQuality& links) override
    {
        ++calls;
        nSeen = paradigm.GetNDevices();
        rowZeroSum = 0;
        for (double c : paradigm.GetCounts(0))
        {
            rowZeroSum += c;
        }
        std::vector<std::vector<double>> s(nSeen, std::vector<double>(nSeen, 0.0));
        for (uint32_t i = 0; i < nSeen; ++i)
        {
            s[i][(i + 1) % nSeen] = 1.0 - links.GetDropProbability(i, (i + 1) % nSeen);
        }
        return s;
    }
};

/**
 * The supervised preparation from data (D2dDiscoveryParadigm::Prepare): D_i from the labels,
 * b_i = floor(ThresholdFraction |D_i|), L-hat_i = satisfied + 1 (at most L), worked by hand;
 * then Graph gcn takes its scores from the LinkScorer attribute at Start, once prepared, and
 * Alpha3 -1 becomes 1 / Budget.
 */
class D2dGdPrepareAndScorerTestCase : public TestCase
{
  public:
    D2dGdPrepareAndScorerTestCase()
        : TestCase("Prepare counts from the data; Graph gcn asks its LinkScorer at Start")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        Rig rig(n, 1e-9);
        // Labels per device: 0 {0,0,0,0,1,1,1,1}; 1 {2,2,2,2}; 2 {0,1,2,0,1,2}; 3 {1}.
        const std::vector<std::vector<int64_t>> held{{0, 0, 0, 0, 1, 1, 1, 1},
                                                     {2, 2, 2, 2},
                                                     {0, 1, 2, 0, 1, 2},
                                                     {1}};
        auto data = std::make_shared<D2dDataset>();
        data->numClasses = 3;
        data->featureShape = {1};
        D2dDiscoveryParadigm::Data in;
        in.shards.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            for (int64_t label : held[i])
            {
                in.shards[i].indices.push_back(data->labels.size());
                data->labels.push_back(label);
                data->features.push_back(0.0f);
            }
        }
        in.train = data;
        in.partitions = data;
        in.seed = 5;
        rig.paradigm->SetAttribute("ThresholdFraction", DoubleValue(0.25));
        rig.paradigm->SetAttribute("TrustDensity", DoubleValue(1.0));
        bool done = false;
        rig.paradigm->Prepare(in, Callback<void>([&done]() { done = true; }));
        NS_TEST_ASSERT_MSG_EQ(done, true, "the supervised preparation calls back at once");
        // b = floor(0.25 |D_i|): 2, 1, 1, 0; satisfied: 2 (4, 4 >= 2), 1, 3, 3 (0 >= 0).
        const std::vector<D2dFractionalCounts> counts{{4, 4, 0}, {0, 0, 4}, {2, 2, 2}, {0, 1, 0}};
        const std::vector<double> b{2, 1, 1, 0};
        const std::vector<uint32_t> lhat{3, 2, 3, 3};
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((rig.paradigm->GetCounts(i) == counts[i]), true, "D_" << i);
            NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetThresholds(i)[0], b[i], "b_" << i);
            NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetMinLabels(i), lhat[i], "L-hat_" << i);
        }
        auto scorer = CreateObject<CyclicScorer>();
        rig.gd->SetAttribute("Graph", EnumValue(D2dGraphDiscovery::GCN));
        rig.gd->SetAttribute("LinkScorer", PointerValue(scorer));
        rig.gd->SetAttribute("Budget", DoubleValue(50.0));
        rig.Run();
        NS_TEST_EXPECT_MSG_EQ(scorer->calls, 1u, "scored once, at Start");
        NS_TEST_EXPECT_MSG_EQ(scorer->nSeen, n, "on the prepared paradigm");
        NS_TEST_EXPECT_MSG_EQ(scorer->rowZeroSum, 8.0, "D_0 known when scoring");
        const auto& graph = rig.gd->GetGraphs().at(0);
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(graph[i], static_cast<int64_t>((i + 1) % n), "best score");
        }
        DoubleValue alpha3;
        rig.gd->GetAttribute("Alpha3", alpha3);
        NS_TEST_EXPECT_MSG_EQ_TOL(alpha3.Get(), 1.0 / 50.0, 1e-15, "Alpha3 -1: 1 / Budget");
        Simulator::Destroy();
    }
};

/** The d2d-graph-discovery test suite. */
/**
 * The learning run of D2dGdLearnsTestCase over 802.11 ad hoc (D2dWifiTransport): the protocol
 * sees only transports and a D2dLinkQuality, so it runs unchanged; the P_D it decides with is
 * eq. (18) at the log-distance RSS of the Wi-Fi channel, checked against a hand computation.
 */
class D2dGdWifiTestCase : public TestCase
{
  public:
    D2dGdWifiTestCase()
        : TestCase("graph discovery over the Wi-Fi backend learns and exchanges")
    {
    }

  private:
    std::map<std::string, uint64_t> m_rows;            //!< messages.csv rows per kind
    std::map<std::string, uint64_t> m_delivered;       //!< of which delivered
    std::vector<double> m_pDrops;                      //!< Iteration trace: P_D of selected links
    std::vector<std::pair<uint32_t, int64_t>> m_links; //!< the same links (i, j)

    void Row(const D2dDeliveryRecord& r)
    {
        m_rows[r.kind]++;
        m_delivered[r.kind] += r.delivered ? 1 : 0;
    }

    void Iteration(const D2dGraphDiscovery::IterationRecord& r)
    {
        if (r.transmitter >= 0)
        {
            m_pDrops.push_back(r.pDrop);
            m_links.emplace_back(r.device, r.transmitter);
        }
    }

    void DoRun() override
    {
        const uint32_t n = 5;
        NodeContainer nodes;
        nodes.Create(n);
        auto alloc = CreateObject<ListPositionAllocator>();
        for (uint32_t i = 0; i < n; ++i)
        {
            alloc->Add(Vector(10.0 * i, 0, 0)); // 0 to 40 m apart, all in range
        }
        MobilityHelper mobility;
        mobility.SetPositionAllocator(alloc);
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(nodes);
        D2dWifiHelper wifi;
        std::vector<Ptr<D2dTransport>> transports;
        for (auto& t : wifi.Install(nodes))
        {
            transports.push_back(t);
            t->TraceConnectWithoutContext("Delivery", MakeCallback(&D2dGdWifiTestCase::Row, this));
        }
        wifi.AssignStreams(1);
        // The RSS the Wi-Fi channel's loss model gives (YansWifiChannelHelper::Default:
        // log-distance, the default of PropagationRssModel too).
        auto links = CreateObject<D2dRssLinkQuality>();
        links->SetRssModel(CreateObject<PropagationRssModel>());
        links->SetNodes(nodes);

        auto paradigm = CreateObject<D2dSupervisedParadigm>();
        std::vector<D2dFractionalCounts> counts(n, D2dFractionalCounts{40, 0});
        counts[1] = {40, 40};
        paradigm->Setup(counts,
                        std::vector<D2dFractionalCounts>(n, D2dFractionalCounts(2, 10.0)),
                        std::vector<uint32_t>(n, 2),
                        D2dTrustMatrices(n, 2, true));
        auto gd = CreateObject<D2dGraphDiscovery>();
        gd->SetAttribute("Paradigm", PointerValue(paradigm));
        gd->SetAttribute("Iterations", UintegerValue(300));
        gd->SetAttribute("BufferSize", UintegerValue(32));
        gd->SetAttribute("DataReliable", BooleanValue(true));
        gd->Setup(transports, links);
        gd->AssignStreams(100);
        gd->TraceConnectWithoutContext("Iteration",
                                       MakeCallback(&D2dGdWifiTestCase::Iteration, this));
        Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
        Simulator::Stop(Seconds(1e4));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(gd->IsFinished(), true, "discovery finished over Wi-Fi");
        const auto& graph = gd->GetGraphs().at(0);
        for (uint32_t i : {0u, 2u, 3u, 4u})
        {
            NS_TEST_EXPECT_MSG_EQ(graph[i], 1, "device " << i << " picks transmitter 1");
            NS_TEST_EXPECT_MSG_GT(paradigm->GetCounts(i)[1], 0.0, "label 1 received");
        }
        for (const std::string kind : {"gd_request", "gd_offer", "gd_demand", "gd_allocation"})
        {
            NS_TEST_EXPECT_MSG_GT(m_rows[kind], 1000u, kind << " rows over Wi-Fi");
            NS_TEST_EXPECT_MSG_GT(m_delivered[kind], m_rows[kind] * 9 / 10, kind << " delivered");
        }
        NS_TEST_EXPECT_MSG_EQ(m_rows["gd_data"], 4u, "one data message per edge");
        // P_D of eq. (18) by hand: log-distance (exponent 3, 46.6777 dB at 1 m), 16.0206 dBm,
        // r = 2, sigma^2 = 3.98e-13 W.
        NS_TEST_ASSERT_MSG_EQ(m_pDrops.empty(), false, "links selected");
        for (std::size_t k = 0; k < m_pDrops.size(); k += 97)
        {
            const double d = 10.0 * std::abs(static_cast<double>(m_links[k].first) -
                                             static_cast<double>(m_links[k].second));
            const double rssDbm = 16.0206 - (46.6777 + 30.0 * std::log10(d));
            const double w = std::pow(10.0, rssDbm / 10.0) / 1000.0;
            const double expected = 1.0 - std::exp(-(std::pow(2.0, 2.0) - 1.0) * 3.98e-13 / w);
            NS_TEST_EXPECT_MSG_EQ_TOL(m_pDrops[k], expected, expected * 1e-9, "P_D of eq. (18)");
        }
        Simulator::Destroy();
    }
};

class D2dGraphDiscoveryTestSuite : public TestSuite
{
  public:
    D2dGraphDiscoveryTestSuite()
        : TestSuite("d2d-graph-discovery")
    {
        AddTestCase(new D2dGdAppendixATestCase);
        AddTestCase(new D2dGdMessageCountTestCase);
        AddTestCase(new D2dGdSleepBetweenIterationsTestCase);
        AddTestCase(new D2dGdLearnsTestCase);
        AddTestCase(new D2dGdLostGlobalTestCase);
        AddTestCase(new D2dGdWifiTestCase);
        AddTestCase(new D2dGdPrepareAndScorerTestCase);
    }
};

/** Static instance. */
static D2dGraphDiscoveryTestSuite g_d2dGraphDiscoveryTestSuite;
