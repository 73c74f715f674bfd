/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3 tests of the unsupervised paradigm (Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
 * sec. V-B, Alg. 2) in D2dGraphDiscovery over the simulated D2D channel: the paradigm's
 * allotment (eq. (15) with the eq. (11) cap) and score (eq. (16): L when nothing arrives), the
 * messages' counts and sizes against the formula (request 4 + 4 d L bytes, allocation
 * L (4 (d + d^2) + 1), no offer nor demand, rewards with the statistics of eq. (17)), the real
 * points' conservation over two edges, and a learning run whose policies end on the device
 * whose data is far from the receivers', and a device without the common subspace sitting the
 * discovery out.
 */

#include "d2d-test-eq18.h"

#include "ns3/d2d-channel.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-gaussian-clusters.h"
#include "ns3/d2d-graph-discovery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-transport.h"
#include "ns3/d2d-unsupervised-paradigm.h"
#include "ns3/double.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/**
 * Device i's 2-D points: n around centre (cx, cy) with standard deviation 1; labels: the
 * device's index; ids: 1000 i + k.
 */
void
Blob(std::vector<std::vector<double>>& x,
     std::vector<std::vector<int64_t>>& labels,
     std::vector<std::vector<uint64_t>>& ids,
     uint32_t n,
     double cx,
     double cy)
{
    const uint32_t i = x.size();
    D2dDataRng rng(5, 0x7e570001, i);
    x.emplace_back();
    labels.emplace_back();
    ids.emplace_back();
    for (uint32_t k = 0; k < n; ++k)
    {
        x.back().push_back(cx + rng.Normal());
        x.back().push_back(cy + rng.Normal());
        labels.back().push_back(i);
        ids.back().push_back(1000 * i + k);
    }
}

/** A network of n devices with P_D = p on every link and the unsupervised protocol. */
struct UnsupervisedRig
{
    NodeContainer nodes;
    Ptr<D2dChannel> channel;
    Ptr<D2dGraphDiscovery> gd;
    Ptr<D2dUnsupervisedParadigm> paradigm;
    std::map<std::string, uint64_t> rows;  //!< delivery rows per kind
    std::map<std::string, uint64_t> bytes; //!< bytes per kind (one row each)
    std::map<std::string, uint64_t> sends; //!< messages per kind (distinct ids)
    std::map<uint64_t, bool> seen;
    std::map<uint32_t, uint64_t> touching; //!< delivery rows from or to each device

    UnsupervisedRig(uint32_t n, double p)
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
        channel = helper.Install(nodes);
        helper.AssignStreams(10);
        paradigm = CreateObject<D2dUnsupervisedParadigm>();
        gd = CreateObject<D2dGraphDiscovery>();
        gd->SetAttribute("Paradigm", PointerValue(paradigm));
        gd->Setup(channel->GetTransports(), channel);
        gd->AssignStreams(100);
        for (auto& t : channel->GetTransports())
        {
            t->TraceConnectWithoutContext("Delivery", MakeCallback(&UnsupervisedRig::Row, this));
        }
    }

    void Row(const D2dDeliveryRecord& r)
    {
        rows[r.kind]++;
        bytes[r.kind] += r.bytes;
        touching[r.src]++;
        if (r.dst != r.src)
        {
            touching[r.dst]++;
        }
        if (!seen[r.msgId])
        {
            seen[r.msgId] = true;
            sends[r.kind]++;
        }
    }

    void Run()
    {
        Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
        Simulator::Stop(Seconds(1e5));
        Simulator::Run();
    }
};

/** The paradigm alone: eq. (15) allotment with the eq. (11) cap, eq. (16) score. */
class D2dUnsupervisedAllotTestCase : public TestCase
{
  public:
    D2dUnsupervisedAllotTestCase()
        : TestCase("Unsupervised paradigm: eq. (15) favours the transmitter's far cluster, "
                   "the cap keeps RetainFraction of each cluster, g = L when nothing arrives "
                   "and grows with far samples")
    {
    }

  private:
    void DoRun() override
    {
        // Receiver 0: one blob at the origin. Transmitter 1: a blob at the origin and one at
        // (20, 0), 40 points each; L = 2.
        std::vector<std::vector<double>> x;
        std::vector<std::vector<int64_t>> labels;
        std::vector<std::vector<uint64_t>> ids;
        Blob(x, labels, ids, 40, 0, 0);
        Blob(x, labels, ids, 40, 0, 0);
        {
            std::vector<std::vector<double>> x2;
            std::vector<std::vector<int64_t>> l2;
            std::vector<std::vector<uint64_t>> i2;
            Blob(x2, l2, i2, 40, 0, 0);
            Blob(x2, l2, i2, 40, 20, 0);
            x[1].insert(x[1].end(), x2[1].begin(), x2[1].end());
            labels[1].insert(labels[1].end(), l2[1].begin(), l2[1].end());
            for (auto id : i2[1])
            {
                ids[1].push_back(id + 100);
            }
        }
        auto p = CreateObject<D2dUnsupervisedParadigm>();
        p->SetAttribute("Clusters", UintegerValue(2));
        p->SetAttribute("RequestPoints", UintegerValue(30));
        p->SetAttribute("RetainFraction", DoubleValue(0.5));
        p->Setup(x, 2, labels, ids, 1);
        // Transmitter's far cluster: the one whose centroid is near (20, 0).
        const auto& c = p->GetCentroids(1);
        const uint32_t far = c[0] > c[2] ? 0 : 1;
        NS_TEST_ASSERT_MSG_EQ(p->GetCounts(1)[far], 40.0, "K-means splits the two blobs");
        const auto shares = D2dGaussianClusters::AllotShares(p->GetCentroids(0), c, 2);
        NS_TEST_EXPECT_MSG_GT(shares[far], 0.9, "the far cluster gets most of the request");
        const auto u = p->AllocateTo(1, {0}, {p->Demand(0, {})});
        NS_TEST_ASSERT_MSG_EQ(u.size(), 1u, "one allocation");
        // Eq. (15): 30 shares[far] rounded, capped at 40 - 20 = 20 by RetainFraction.
        const double wantFar = std::round(30 * shares[far]);
        NS_TEST_EXPECT_MSG_EQ(u[0][far], std::min(20.0, wantFar), "far cluster capped");
        NS_TEST_EXPECT_MSG_EQ(u[0][1 - far], 30 - wantFar, "near cluster: the rest");
        // Two requesters asking 30 each: the far cluster's 20 spare split 10 / 10 (eq. (11)).
        const auto two = p->AllocateTo(1, {0, 0}, {p->Demand(0, {}), p->Demand(0, {})});
        NS_TEST_EXPECT_MSG_EQ(two[0][far], 10.0, "eq. (11) share");
        NS_TEST_EXPECT_MSG_EQ(two[1][far], 10.0, "eq. (11) share");
        // Eq. (16)'s data term.
        p->StartStep();
        p->SetAttribute("GainForm", StringValue("sum"));
        NS_TEST_EXPECT_MSG_EQ(p->GainFrom(0, 1, {0, 0}, 0.0, {0, 0}), 2.0, "nothing: L");
        p->SetAttribute("GainForm", StringValue("excess"));
        NS_TEST_EXPECT_MSG_EQ(p->GainFrom(0, 1, {0, 0}, 0.0, {0, 0}), 0.0, "nothing: 0");
        p->SetAttribute("GainForm", StringValue("sum"));
        NS_TEST_EXPECT_MSG_EQ_TOL(p->SystemAgreement({0, 1}), 0.0, 1e-12, "nothing: ratio 1");
        D2dFractionalCounts farOnly(2, 0.0);
        farOnly[far] = 10;
        const double g = p->GainFrom(0, 1, farOnly, 0.0, {0, 0});
        NS_TEST_EXPECT_MSG_GT(g, 10.0, "10 points 20 away spread a unit-variance cluster");
        D2dFractionalCounts nearOnly(2, 0.0);
        nearOnly[1 - far] = 10;
        p->StartStep();
        const double gNear = p->GainFrom(0, 1, nearOnly, 0.0, {0, 0});
        NS_TEST_EXPECT_MSG_LT(gNear, 3.0, "points like its own change little");
        NS_TEST_EXPECT_MSG_LT(gNear, g, "far beats near");
        Simulator::Destroy();
    }
};

/** Message counts and sizes, conservation of the real points over two edges. */
class D2dUnsupervisedMessagesTestCase : public TestCase
{
  public:
    D2dUnsupervisedMessagesTestCase()
        : TestCase("Unsupervised protocol: N requests of 4 + 4 d L B, no offer nor demand, N "
                   "allocations of L (4 (d + d^2) + 1) B, rewards of 8 + 8 L (d + d^2) B; two "
                   "edges move real points and none is lost or duplicated")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        const uint32_t nl = 3;
        const uint32_t d = 2;
        const uint32_t iterations = 6;
        UnsupervisedRig rig(n, 1e-9); // P_D ~ 0: one reliable cluster, nothing lost
        std::vector<std::vector<double>> x;
        std::vector<std::vector<int64_t>> labels;
        std::vector<std::vector<uint64_t>> ids;
        for (uint32_t i = 0; i < n; ++i)
        {
            Blob(x, labels, ids, 50, 5.0 * i, 0);
        }
        rig.paradigm->SetAttribute("Clusters", UintegerValue(nl));
        rig.paradigm->SetAttribute("RequestPoints", UintegerValue(12));
        rig.paradigm->Setup(x, d, labels, ids, 3);
        rig.gd->SetAttribute("Iterations", UintegerValue(iterations));
        rig.gd->SetAttribute("Edges", UintegerValue(2));
        rig.Run();
        NS_TEST_ASSERT_MSG_EQ(rig.gd->IsFinished(), true, "finished");
        NS_TEST_ASSERT_MSG_EQ(rig.gd->GetGraphs().size(), 2u, "two edge rounds");
        const uint64_t mp = 2 * (iterations + 1); // per edge: iterations + the last one
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_request"], n * mp, "requests");
        NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_request"], n * mp * (4 + 4 * d * nl), "request B");
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_offer"], 0u, "no offer");
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_demand"], 0u, "no demand");
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_allocation"], n * mp, "allocations");
        NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_allocation"],
                              n * mp * nl * (4 * (d + d * d) + 1),
                              "allocation B");
        NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_reward"], (n - 1) * 2 * iterations, "to the head");
        NS_TEST_EXPECT_MSG_EQ(rig.bytes["gd_reward"],
                              (n - 1) * 2 * iterations * (8 + 2 * nl * 4 * (d + d * d)),
                              "reward B");
        // Every real point is somewhere, once; the label histograms follow the points.
        std::vector<uint64_t> all;
        double moved = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const auto& idsI = rig.paradigm->GetIds(i);
            all.insert(all.end(), idsI.begin(), idsI.end());
            NS_TEST_EXPECT_MSG_EQ(rig.paradigm->GetPoints(i).size(), idsI.size() * d, "points");
            const auto lc = rig.paradigm->LabelCounts(i, n);
            moved += idsI.size() - lc[i];
            double counted = 0;
            for (double v : rig.paradigm->GetCounts(i))
            {
                counted += v;
            }
            NS_TEST_EXPECT_MSG_EQ(counted, idsI.size(), "cluster sizes sum to the points");
        }
        std::sort(all.begin(), all.end());
        NS_TEST_EXPECT_MSG_EQ(all.size(), n * 50u, "no point lost (P_D ~ 0)");
        const bool unique = std::adjacent_find(all.begin(), all.end()) == all.end();
        NS_TEST_EXPECT_MSG_EQ(unique, true, "no point duplicated");
        double allocated = 0;
        for (const auto& link : rig.gd->GetLinks())
        {
            for (double v : link.allocated)
            {
                allocated += v;
            }
        }
        NS_TEST_EXPECT_MSG_GT(allocated, 0.0, "points moved");
        // Points received in the first round may be passed on in the second: moved <= sent.
        NS_TEST_EXPECT_MSG_GT(moved, 0.0, "foreign points held");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(moved, allocated, "foreign points <= points sent");
        Simulator::Destroy();
    }
};

/**
 * The policies learn: devices 0-3 hold points around the origin, device 4 around (10, 10).
 * Receiving from device 4 spreads a receiver's clusters (eq. (16)); from any other changes
 * little. After learning, devices 0-3 pick 4.
 */
class D2dUnsupervisedLearnsTestCase : public TestCase
{
  public:
    D2dUnsupervisedLearnsTestCase()
        : TestCase("Unsupervised RL policies converge on the transmitter with far data")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        UnsupervisedRig rig(n, 1e-9);
        std::vector<std::vector<double>> x;
        std::vector<std::vector<int64_t>> labels;
        std::vector<std::vector<uint64_t>> ids;
        for (uint32_t i = 0; i < n; ++i)
        {
            Blob(x, labels, ids, 60, i == 4 ? 10 : 0, i == 4 ? 10 : 0);
        }
        rig.paradigm->SetAttribute("Clusters", UintegerValue(2));
        rig.paradigm->SetAttribute("RequestPoints", UintegerValue(8));
        rig.paradigm->Setup(x, 2, labels, ids, 9);
        rig.gd->SetAttribute("Iterations", UintegerValue(300));
        rig.gd->SetAttribute("BufferSize", UintegerValue(32));
        // r^G (eq. (17)) is common to the cluster and here about 18 whatever a device picks;
        // at gamma 0.5 it would outweigh r^L and the softmax would keep the first transmitter
        // tried (an untried one is valued 0).
        rig.gd->SetAttribute("Gamma", DoubleValue(0.05));
        rig.Run();
        NS_TEST_ASSERT_MSG_EQ(rig.gd->GetGraphs().size(), 1u, "one edge round");
        const auto& graph = rig.gd->GetGraphs()[0];
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(graph[i], 4, "device " << i << " picks transmitter 4");
        }
        Simulator::Destroy();
    }
};

/**
 * A device that the common subspace F missed sits out (Setup's sittingOut): device 0, the head
 * of the one reliable cluster, holds no projection. The other four run two edges among
 * themselves: the message counts are the formula's with 4 devices (the head is now device 1),
 * no message leaves or reaches device 0, no graph links it, its points stay as they were and
 * its cluster counts are 0. With the uniform baseline the same.
 */
class D2dUnsupervisedSitOutTestCase : public TestCase
{
  public:
    D2dUnsupervisedSitOutTestCase()
        : TestCase("Unsupervised: a device without the common subspace sits the discovery out, "
                   "the others go on (rl and uniform graphs)")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string graph : {"rl", "uniform"})
        {
            const uint32_t n = 5;
            const uint32_t nl = 3;
            const uint32_t d = 2;
            const uint32_t iterations = 6;
            UnsupervisedRig rig(n, 1e-9); // one reliable cluster, nothing lost
            std::vector<std::vector<double>> x;
            std::vector<std::vector<int64_t>> labels;
            std::vector<std::vector<uint64_t>> ids;
            for (uint32_t i = 0; i < n; ++i)
            {
                Blob(x, labels, ids, 50, 5.0 * i, 0);
            }
            const auto ids0 = ids[0];
            x[0].clear(); // F did not reach device 0: no projection
            rig.paradigm->SetAttribute("Clusters", UintegerValue(nl));
            rig.paradigm->SetAttribute("RequestPoints", UintegerValue(12));
            rig.paradigm->Setup(x, d, labels, ids, 3, {true, false, false, false, false});
            NS_TEST_EXPECT_MSG_EQ(rig.paradigm->TakesPart(0), false, "device 0 sits out");
            NS_TEST_EXPECT_MSG_EQ(rig.paradigm->TakesPart(1), true, "device 1 takes part");
            rig.gd->SetAttribute("Graph", StringValue(graph));
            rig.gd->SetAttribute("Iterations", UintegerValue(iterations));
            rig.gd->SetAttribute("Edges", UintegerValue(2));
            rig.Run();
            NS_TEST_ASSERT_MSG_EQ(rig.gd->IsFinished(), true, graph << ": finished");
            NS_TEST_ASSERT_MSG_EQ(rig.gd->GetGraphs().size(), 2u, graph << ": two edge rounds");
            for (const auto& g : rig.gd->GetGraphs())
            {
                NS_TEST_EXPECT_MSG_EQ(g[0], -1, graph << ": device 0 picks no transmitter");
                for (uint32_t i = 1; i < n; ++i)
                {
                    NS_TEST_EXPECT_MSG_NE(g[i], 0, graph << ": nobody picks device 0");
                    NS_TEST_EXPECT_MSG_GT(g[i], 0, graph << ": device " << i << " picks one");
                }
            }
            const uint64_t m = n - 1;
            // rl: per edge the iterations and the last message passing; uniform: the last.
            const uint64_t mp = graph == "rl" ? 2 * (iterations + 1) : 2;
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_request"], m * mp, graph << ": requests");
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_allocation"], m * mp, graph << ": allocations");
            const uint64_t rewards = graph == "rl" ? (m - 1) * 2 * iterations : 0;
            NS_TEST_EXPECT_MSG_EQ(rig.sends["gd_reward"], rewards, graph << ": to the head");
            NS_TEST_EXPECT_MSG_EQ(rig.touching[0], 0u, graph << ": no message from or to 0");
            for (const auto& link : rig.gd->GetLinks())
            {
                NS_TEST_EXPECT_MSG_EQ((link.receiver == 0 || link.transmitter == 0),
                                      false,
                                      graph << ": no link of device 0");
            }
            NS_TEST_EXPECT_MSG_EQ((rig.paradigm->GetIds(0) == ids0), true, "0 keeps its points");
            for (double c : rig.paradigm->GetCounts(0))
            {
                NS_TEST_EXPECT_MSG_EQ(c, 0.0, "device 0 has no clusters");
            }
            // The others' real points are all among them, once.
            std::vector<uint64_t> all;
            for (uint32_t i = 1; i < n; ++i)
            {
                all.insert(all.end(),
                           rig.paradigm->GetIds(i).begin(),
                           rig.paradigm->GetIds(i).end());
            }
            std::sort(all.begin(), all.end());
            NS_TEST_EXPECT_MSG_EQ(all.size(), m * 50u, graph << ": no point lost");
            NS_TEST_EXPECT_MSG_EQ(all.front(), 1000u, graph << ": none of device 0's");
            Simulator::Destroy();
        }
    }
};

/** The d2d-unsupervised-discovery test suite. */
class D2dUnsupervisedDiscoveryTestSuite : public TestSuite
{
  public:
    D2dUnsupervisedDiscoveryTestSuite()
        : TestSuite("d2d-unsupervised-discovery")
    {
        AddTestCase(new D2dUnsupervisedAllotTestCase);
        AddTestCase(new D2dUnsupervisedMessagesTestCase);
        AddTestCase(new D2dUnsupervisedLearnsTestCase);
        AddTestCase(new D2dUnsupervisedSitOutTestCase);
    }
};

/** Static instance. */
static D2dUnsupervisedDiscoveryTestSuite g_d2dUnsupervisedDiscoveryTestSuite;
} // namespace
