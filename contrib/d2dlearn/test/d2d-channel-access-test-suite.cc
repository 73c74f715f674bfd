/*
 * d2dlearn: tests of the channel-access layer and of hearing: spatial reuse of the
 * Scheduled policy against network-wide serialisation and against the raw radios'
 * half-duplex losses, reliable multicast whose ARQ covers only the receivers that hear
 * (retransmissions against sum_t P(T > t) over those receivers), named receivers out of
 * range, neighbour lists (grid against brute force, matrix threshold, invalidation), and
 * the transports' dispatch of receptions by message kind.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-test-eq18.h"
#include "d2d-test-observer.h"

#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/enum.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace ns3;

namespace
{

/** What a test observes of a channel. */
using Observed = D2dTestChannelObserver;

/** \return a D2D channel on nodes at these (x, y) positions, default propagation model */
Ptr<D2dChannel>
PositionedChannel(NodeContainer& nodes,
                  const std::vector<std::pair<double, double>>& xy,
                  D2dChannelAccess::Policy policy,
                  double rangeM)
{
    nodes.Create(xy.size());
    for (uint32_t i = 0; i < xy.size(); ++i)
    {
        auto m = CreateObject<ConstantPositionMobilityModel>();
        m->SetPosition(Vector(xy[i].first, xy[i].second, 0));
        nodes.Get(i)->AggregateObject(m);
    }
    D2dHelper helper;
    helper.SetChannelAttribute("AccessPolicy", EnumValue(policy));
    helper.SetChannelAttribute("RangeM", DoubleValue(rangeM));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0)); // P_D = 0: timing only
    Ptr<D2dChannel> channel = helper.Install(nodes);
    helper.AssignStreams(1);
    return channel;
}

/** \return true if the two intervals share more than an instant */
bool
Overlap(const std::pair<Time, Time>& a, const std::pair<Time, Time>& b)
{
    return a.first < b.second && b.first < a.second;
}

} // namespace

/**
 * Two pairs of devices 1 km apart, each device broadcasting a model to its neighbours at
 * t = 0. With a 100 m range and the Scheduled policy the pairs' transmissions overlap in
 * time (spatial reuse) while inside a pair half-duplex serialises them; without a range
 * every broadcast reaches all four radios and nothing overlaps (network-wide
 * serialisation); with Immediate access the partners transmit at once and each loses the
 * other's model to half-duplex.
 */
class D2dSpatialReuseTestCase : public TestCase
{
  public:
    D2dSpatialReuseTestCase()
        : TestCase("Scheduled access: spatial reuse across pairs, serialised inside a pair")
    {
    }

  private:
    /** Run the four broadcasts; return what was observed. */
    Observed Run(D2dChannelAccess::Policy policy, double rangeM)
    {
        NodeContainer nodes;
        auto channel =
            PositionedChannel(nodes, {{0, 0}, {50, 0}, {1000, 0}, {1050, 0}}, policy, rangeM);
        Observed obs;
        obs.Connect(channel);
        auto model = Create<D2dMessage>("model", 407080);
        for (uint32_t i = 0; i < 4; ++i)
        {
            Simulator::ScheduleNow([channel, model, i]() {
                channel->GetRadio(i)->Send(model, D2D_BROADCAST, D2dDeliveryMode::RELIABLE);
            });
        }
        Simulator::Stop(Seconds(1000)); // the energy sources update periodically
        Simulator::Run();
        Simulator::Destroy();
        return obs;
    }

    void DoRun() override
    {
        // Range 100 m, Scheduled: one row per broadcast (the partner), all complete.
        Observed reuse = Run(D2dChannelAccess::SCHEDULED, 100.0);
        NS_TEST_ASSERT_MSG_EQ(reuse.records.size(), 4u, "one neighbour per device");
        for (const auto& r : reuse.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete, reason " << r.reason);
            const uint32_t partner = r.src ^ 1u;
            NS_TEST_EXPECT_MSG_EQ(r.dst, partner, "only the partner hears");
        }
        NS_TEST_ASSERT_MSG_EQ(reuse.onAir.size(), 4u, "four transmissions");
        std::map<uint32_t, std::pair<Time, Time>> bySender;
        for (const auto& [id, interval] : reuse.onAir)
        {
            bySender[reuse.sender[id]] = interval;
        }
        // Inside a pair: one after the other (the second waits for the first's outcome).
        NS_TEST_EXPECT_MSG_EQ(Overlap(bySender[0], bySender[1]), false, "pair A serialised");
        NS_TEST_EXPECT_MSG_EQ(Overlap(bySender[2], bySender[3]), false, "pair B serialised");
        // Across pairs: at the same time.
        NS_TEST_EXPECT_MSG_EQ(Overlap(bySender[0], bySender[2]), true, "pairs overlap");
        NS_TEST_EXPECT_MSG_EQ(bySender[0].first, Seconds(0), "device 0 starts at once");
        NS_TEST_EXPECT_MSG_EQ(bySender[2].first, Seconds(0), "device 2 starts at once");
        const Time airtime = bySender[0].second - bySender[0].first;
        Time last;
        for (const auto& [s, interval] : bySender)
        {
            last = std::max(last, interval.second);
        }
        // Two airtimes (plus the 50 m propagation delay of the outcome) for all four.
        NS_TEST_EXPECT_MSG_LT(last, airtime * 2 + MicroSeconds(1), "two slots in all");

        // No range: every broadcast occupies every radio, nothing overlaps.
        Observed serial = Run(D2dChannelAccess::SCHEDULED, 0.0);
        NS_TEST_ASSERT_MSG_EQ(serial.records.size(), 12u, "three receivers per broadcast");
        for (const auto& r : serial.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete, reason " << r.reason);
        }
        std::vector<std::pair<Time, Time>> intervals;
        for (const auto& [id, interval] : serial.onAir)
        {
            intervals.push_back(interval);
        }
        NS_TEST_ASSERT_MSG_EQ(intervals.size(), 4u, "four transmissions");
        for (std::size_t a = 0; a < 4; ++a)
        {
            for (std::size_t b = a + 1; b < 4; ++b)
            {
                NS_TEST_EXPECT_MSG_EQ(Overlap(intervals[a], intervals[b]),
                                      false,
                                      "network-wide serialisation");
            }
        }

        // Immediate: partners transmit together and lose each other's model.
        Observed raw = Run(D2dChannelAccess::IMMEDIATE, 100.0);
        NS_TEST_ASSERT_MSG_EQ(raw.records.size(), 4u, "one neighbour per device");
        for (const auto& r : raw.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.delivered, false, "lost");
            NS_TEST_EXPECT_MSG_EQ(r.reason, "half_duplex", "to half-duplex");
        }
    }
};

/**
 * A reliable broadcast to the neighbours of device 0: three receivers at P_D 0.2, 0.4, 0.6
 * and two devices that cannot hear (W = 0, at or below RxSensitivityW). A fragment needs T
 * transmissions with P(T <= t) = prod_r (1 - p_r^t) over the three receivers only, capped at
 * MaxRetransmissions + 1: the mean retransmissions per fragment are sum_{t >= 1} P(T > t)
 * (t < cap). Checked within 4.5 standard errors; the two others get no row, and their
 * batteries lose only their radios' idle draw over the whole run (IdlePowerW x 1000 s:
 * they never receive). Had they stayed in the ARQ set, every fragment would be sent 8
 * times (7 retransmissions).
 */
class D2dReliableMulticastTestCase : public TestCase
{
  public:
    D2dReliableMulticastTestCase(bool fastPath, uint32_t messages)
        : TestCase(std::string("reliable broadcast: ARQ over the receivers that hear, ") +
                   (fastPath ? "fast path" : "per-fragment path")),
          m_fastPath(fastPath),
          m_messages(messages)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        const std::vector<double> p = {0.2, 0.4, 0.6};
        std::vector<std::vector<double>> w(6, std::vector<double>(6, 0.0));
        for (uint32_t j = 1; j <= 3; ++j)
        {
            w[j][0] = RssForDropW(p[j - 1], 1.0, 1.0); // r = 1, sigma^2 = 1
        }
        NodeContainer nodes;
        nodes.Create(6);
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(w);
        D2dHelper helper;
        helper.SetRssModel(matrix);
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(1.0));
        helper.SetChannelAttribute("MtuBytes", UintegerValue(1000));
        helper.SetChannelAttribute("FastPath", BooleanValue(m_fastPath));
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        // A battery that outlasts the run (ns-3's default holds 10 J).
        helper.SetInitialEnergyJ(1e6);
        auto channel = helper.Install(nodes);
        helper.AssignStreams(1);
        NS_TEST_ASSERT_MSG_EQ(channel->GetNeighbours(0).size(), 3u, "three neighbours");
        Observed obs;
        obs.Connect(channel);
        const uint32_t fragments = 10;
        auto msg = Create<D2dMessage>("model", fragments * 1000);
        for (uint32_t m = 0; m < m_messages; ++m)
        {
            Simulator::ScheduleNow([channel, msg]() {
                channel->GetRadio(0)->Send(msg, D2D_BROADCAST, D2dDeliveryMode::RELIABLE);
            });
        }
        Simulator::Stop(Seconds(1000)); // the energy sources update periodically
        Simulator::Run();
        std::vector<double> remaining;
        for (uint32_t i = 4; i < 6; ++i)
        {
            remaining.push_back(
                nodes.Get(i)->GetObject<EnergySourceContainer>()->Get(0)->GetRemainingEnergy());
        }
        const double initial =
            nodes.Get(1)->GetObject<EnergySourceContainer>()->Get(0)->GetInitialEnergy();
        const double runS = Simulator::Now().GetSeconds();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(obs.records.size(), 3u * m_messages, "rows of the three only");
        std::map<uint64_t, uint32_t> retx; // per message
        for (const auto& r : obs.records)
        {
            const bool inRange = r.dst >= 1 && r.dst <= 3;
            NS_TEST_EXPECT_MSG_EQ(inRange, true, "receiver " << r.dst);
            const bool arq = r.reason.empty() || r.reason == "retry_limit";
            NS_TEST_EXPECT_MSG_EQ(arq, true, "reason " << r.reason);
            retx[r.msgId] = r.retransmissions;
        }
        // A device out of range only idles (D2dRadioEnergyModel's default IdlePowerW): it
        // never receives, so its battery loses exactly IdlePowerW x the run (1 nJ steps).
        const double idleJ = D2dRadioEnergyModel::DEFAULT_IDLE_POWER_W * runS;
        for (double e : remaining)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(e,
                                      initial - idleJ,
                                      1e-6,
                                      "a device out of range only idles (no reception)");
        }
        // Expected transmissions per fragment and their variance, cap = 8.
        const uint32_t cap = 8;
        double mean = 0;
        double second = 0;
        double below = 0; // P(T <= t - 1)
        for (uint32_t t = 1; t <= cap; ++t)
        {
            double cdf = 1.0;
            for (double q : p)
            {
                cdf *= 1.0 - std::pow(q, t);
            }
            const double pt = (t == cap ? 1.0 : cdf) - below; // P(T = t), capped
            mean += t * pt;
            second += double(t) * t * pt;
            below = cdf;
        }
        const double n = double(m_messages) * fragments;
        const double se = std::sqrt((second - mean * mean) / n);
        double total = 0;
        for (const auto& [id, k] : retx)
        {
            total += k;
        }
        const double observed = total / n; // retransmissions per fragment
        NS_TEST_EXPECT_MSG_EQ_TOL(observed,
                                  mean - 1.0,
                                  4.5 * se,
                                  "retransmissions per fragment (expected " << mean - 1.0 << ")");
        NS_TEST_EXPECT_MSG_LT(observed, 2.0, "far from the 7 of an ARQ set with the two others");
    }

    bool m_fastPath;
    uint32_t m_messages;
};

/**
 * Named receivers that cannot hear: a unicast to one gets a single "out_of_range" row, is
 * not transmitted and fails; a multicast to one that hears and one that does not is one
 * transmission, delivered to the first, "out_of_range" for the second.
 */
class D2dOutOfRangeTestCase : public TestCase
{
  public:
    D2dOutOfRangeTestCase()
        : TestCase("named receivers out of range: one row each, no transmission for them")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        auto channel = PositionedChannel(nodes,
                                         {{0, 0}, {30, 0}, {500, 0}},
                                         D2dChannelAccess::SCHEDULED,
                                         100.0);
        Observed obs;
        obs.Connect(channel);
        auto msg = Create<D2dMessage>("vote", 100);
        uint64_t unicast = 0;
        uint64_t multicast = 0;
        Simulator::ScheduleNow([&]() {
            unicast = channel->GetRadio(0)->Send(msg, 2, D2dDeliveryMode::RELIABLE);
            multicast = channel->GetRadio(0)->Send(msg,
                                                   std::vector<uint32_t>{1, 2},
                                                   D2dDeliveryMode::RELIABLE);
        });
        Simulator::Stop(Seconds(1000)); // the energy sources update periodically
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(obs.records.size(), 3u, "three rows");
        std::map<std::pair<uint64_t, uint32_t>, D2dDeliveryRecord> rows;
        for (const auto& r : obs.records)
        {
            rows[std::make_pair(r.msgId, r.dst)] = r;
        }
        const auto& uFar = rows[std::make_pair(unicast, 2u)];
        const auto& mFar = rows[std::make_pair(multicast, 2u)];
        const auto& mNear = rows[std::make_pair(multicast, 1u)];
        NS_TEST_EXPECT_MSG_EQ(uFar.reason, "out_of_range", "unicast");
        NS_TEST_EXPECT_MSG_EQ(uFar.delivered, false, "unicast");
        NS_TEST_EXPECT_MSG_EQ(mFar.reason, "out_of_range", "multicast, far");
        NS_TEST_EXPECT_MSG_EQ(mNear.IsComplete(), true, "multicast, near");
        NS_TEST_EXPECT_MSG_EQ(obs.onAir.size(), 1u, "only the multicast was transmitted");
        NS_TEST_EXPECT_MSG_EQ(obs.onAir.count(multicast), 1u, "the multicast");
        std::map<uint64_t, bool> done(obs.sendDone.begin(), obs.sendDone.end());
        NS_TEST_EXPECT_MSG_EQ(done.at(unicast), false, "the unicast fails");
        NS_TEST_EXPECT_MSG_EQ(done.at(multicast), false, "not every named receiver got it");
        NS_TEST_EXPECT_MSG_EQ(obs.receptions.size(), 1u, "one reception");
    }
};

/**
 * Neighbour lists: 400 devices uniformly in a 1 km square, range 100 m, found on the
 * grid, equal the brute-force lists {j : |x_i - x_j| < 100 m}; moving a device updates
 * them; with an RSS matrix the range is the threshold W_ij > RSS of the log-distance model
 * at 100 m.
 */
class D2dNeighboursTestCase : public TestCase
{
  public:
    D2dNeighboursTestCase()
        : TestCase("neighbour lists: grid against brute force, moves, matrix threshold")
    {
    }

  private:
    void DoRun() override
    {
        auto u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        std::vector<std::pair<double, double>> xy;
        for (uint32_t i = 0; i < 400; ++i)
        {
            const double x = u->GetValue(0, 1000);
            xy.emplace_back(x, u->GetValue(0, 1000));
        }
        NodeContainer nodes;
        auto channel = PositionedChannel(nodes, xy, D2dChannelAccess::SCHEDULED, 100.0);
        auto brute = [&](uint32_t i) {
            std::vector<uint32_t> out;
            for (uint32_t j = 0; j < nodes.GetN(); ++j)
            {
                const Vector a = nodes.Get(i)->GetObject<MobilityModel>()->GetPosition();
                const Vector b = nodes.Get(j)->GetObject<MobilityModel>()->GetPosition();
                if (j != i && CalculateDistance(a, b) < 100.0)
                {
                    out.push_back(j);
                }
            }
            return out;
        };
        uint64_t links = 0;
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            const auto expected = brute(i);
            links += expected.size();
            NS_TEST_ASSERT_MSG_EQ((channel->GetNeighbours(i) == expected), true, "device " << i);
        }
        // pi 100^2 / 1000^2 x 399 = 12.5 neighbours on average, less at the edges.
        NS_TEST_EXPECT_MSG_GT(links, 400u * 8, "a connected neighbourhood");
        // Move device 0 next to device 1: both lists change.
        const Vector p1 = nodes.Get(1)->GetObject<MobilityModel>()->GetPosition();
        nodes.Get(0)->GetObject<MobilityModel>()->SetPosition(p1 + Vector(1, 0, 0));
        NS_TEST_EXPECT_MSG_EQ((channel->GetNeighbours(0) == brute(0)), true, "moved device");
        NS_TEST_EXPECT_MSG_EQ((channel->GetNeighbours(1) == brute(1)), true, "its new neighbour");
        const auto& n1 = channel->GetNeighbours(1);
        NS_TEST_EXPECT_MSG_EQ(std::binary_search(n1.begin(), n1.end(), 0u), true, "0 hears 1");
        Simulator::Destroy();

        // Matrix RSS: the range is a threshold on W.
        const double threshold = channel->GetRangeThresholdW(20.0);
        NS_TEST_ASSERT_MSG_GT(threshold, 0.0, "a threshold");
        std::vector<std::vector<double>> w(5, std::vector<double>(5, 0.0));
        for (uint32_t i = 0; i < 5; ++i)
        {
            for (uint32_t j = 0; j < 5; ++j)
            {
                w[i][j] = threshold * (0.5 + 0.25 * ((i + 2 * j) % 4)); // 0.5, .75, 1, 1.25
            }
        }
        NodeContainer mNodes;
        mNodes.Create(5);
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(w);
        D2dHelper helper;
        helper.SetRssModel(matrix);
        helper.SetChannelAttribute("RangeM", DoubleValue(100.0));
        auto mChannel = helper.Install(mNodes);
        for (uint32_t j = 0; j < 5; ++j)
        {
            std::vector<uint32_t> expected;
            for (uint32_t i = 0; i < 5; ++i)
            {
                if (i != j && w[i][j] > threshold)
                {
                    expected.push_back(i);
                }
            }
            NS_TEST_EXPECT_MSG_EQ((mChannel->GetNeighbours(j) == expected),
                                  true,
                                  "matrix neighbours of " << j);
        }
        Simulator::Destroy();
    }
};

/**
 * A transport dispatches receptions by message kind to several handlers, in registration
 * order; a removed handler gets nothing more; every send-done handler sees every send-done.
 */
class D2dReceiveHandlersTestCase : public TestCase
{
  public:
    D2dReceiveHandlersTestCase()
        : TestCase("transports dispatch receptions by kind to several handlers")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        auto channel =
            PositionedChannel(nodes, {{0, 0}, {10, 0}}, D2dChannelAccess::SCHEDULED, 0.0);
        std::vector<std::string> log;
        auto rx = channel->GetRadio(1);
        D2dTransport::ReceiveCallback onA(
            [&log](const D2dReception& r) { log.push_back("a:" + r.message->GetKind()); });
        D2dTransport::ReceiveCallback onAll(
            [&log](const D2dReception& r) { log.push_back("all:" + r.message->GetKind()); });
        rx->AddReceiveHandler(onA, "a");
        rx->AddReceiveHandler(onAll);
        uint32_t done1 = 0;
        uint32_t done2 = 0;
        auto tx = channel->GetRadio(0);
        tx->AddSendDoneHandler(
            D2dTransport::SendDoneCallback([&done1](uint64_t, uint32_t, bool) { ++done1; }));
        tx->AddSendDoneHandler(
            D2dTransport::SendDoneCallback([&done2](uint64_t, uint32_t, bool) { ++done2; }));
        Simulator::Schedule(Seconds(0), [&]() {
            tx->Send(Create<D2dMessage>("a", 10), 1, D2dDeliveryMode::RELIABLE);
            tx->Send(Create<D2dMessage>("b", 10), 1, D2dDeliveryMode::RELIABLE);
        });
        Simulator::Schedule(Seconds(1), [&]() {
            rx->RemoveReceiveHandler(onA);
            tx->Send(Create<D2dMessage>("a", 10), 1, D2dDeliveryMode::RELIABLE);
        });
        Simulator::Stop(Seconds(1000)); // the energy sources update periodically
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<std::string> expected = {"a:a", "all:a", "all:b", "all:a"};
        NS_TEST_EXPECT_MSG_EQ((log == expected), true, "dispatch order and kinds");
        NS_TEST_EXPECT_MSG_EQ(done1, 3u, "first send-done handler");
        NS_TEST_EXPECT_MSG_EQ(done2, 3u, "second send-done handler");
    }
};

/**
 * Twenty devices within range of each other all broadcast at once: Scheduled access loses
 * nothing to half-duplex (every row complete with P_D = 0) and serialises the broadcasts;
 * Immediate access loses receptions to half-duplex.
 */
class D2dScheduledNoLossTestCase : public TestCase
{
  public:
    D2dScheduledNoLossTestCase()
        : TestCase("Scheduled access: simultaneous broadcasts lose nothing to half-duplex")
    {
    }

  private:
    uint32_t HalfDuplexRows(D2dChannelAccess::Policy policy, uint32_t& complete)
    {
        std::vector<std::pair<double, double>> xy;
        for (uint32_t i = 0; i < 20; ++i)
        {
            xy.emplace_back(3.0 * i, 0.0);
        }
        NodeContainer nodes;
        auto channel = PositionedChannel(nodes, xy, policy, 0.0);
        Observed obs;
        obs.Connect(channel);
        auto msg = Create<D2dMessage>("model", 20000);
        Simulator::ScheduleNow([&]() {
            for (uint32_t i = 0; i < 20; ++i)
            {
                channel->GetRadio(i)->Send(msg, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
            }
        });
        Simulator::Stop(Seconds(1000)); // the energy sources update periodically
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(obs.records.size(), 20u * 19u, "a row per (message, receiver)");
        uint32_t halfDuplex = 0;
        complete = 0;
        for (const auto& r : obs.records)
        {
            halfDuplex += r.reason == "half_duplex";
            complete += r.IsComplete();
        }
        return halfDuplex;
    }

    void DoRun() override
    {
        uint32_t complete = 0;
        NS_TEST_EXPECT_MSG_EQ(HalfDuplexRows(D2dChannelAccess::SCHEDULED, complete), 0u, "none");
        NS_TEST_EXPECT_MSG_EQ(complete, 20u * 19u, "every row complete");
        NS_TEST_EXPECT_MSG_GT(HalfDuplexRows(D2dChannelAccess::IMMEDIATE, complete),
                              0u,
                              "raw radios lose receptions");
    }
};

/**
 * D2dTransport::Cancel withdraws a message that waits for its radios: its receivers get
 * rows "cancelled", nothing goes on the air, no send-done; a message on the air cannot be
 * withdrawn. Three devices in range; 0 sends a model to 1, then a second one to 2: under
 * Scheduled access the second waits for the first (the sender is busy). Both policies.
 */
class D2dCancelTestCase : public TestCase
{
  public:
    /** \param policy the access policy */
    explicit D2dCancelTestCase(D2dChannelAccess::Policy policy)
        : TestCase(std::string("Cancel withdraws a queued message, not one on the air (") +
                   (policy == D2dChannelAccess::SCHEDULED ? "Scheduled" : "Immediate") + ")"),
          m_policy(policy)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        auto channel = PositionedChannel(nodes, {{0, 0}, {10, 0}, {0, 10}}, m_policy, 0.0);
        Observed obs;
        obs.Connect(channel);
        auto msg = Create<D2dMessage>("model", 200000);
        uint64_t first = 0;
        uint64_t second = 0;
        bool cancelFirst = true;
        bool cancelSecond = false;
        bool cancelAgain = true;
        Simulator::ScheduleNow([&]() {
            Ptr<D2dRadio> r = channel->GetRadio(0);
            first = r->Send(msg, 1, D2dDeliveryMode::RELIABLE);
            second = r->Send(msg, 2, D2dDeliveryMode::RELIABLE);
            cancelFirst = r->Cancel(first);   // on the air already
            cancelSecond = r->Cancel(second); // queued behind it
            cancelAgain = r->Cancel(second);  // gone
        });
        Simulator::Stop(Seconds(100)); // the energy sources update periodically
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(cancelFirst, false, "a message on the air goes on");
        NS_TEST_EXPECT_MSG_EQ(cancelSecond, true, "a queued message is withdrawn");
        NS_TEST_EXPECT_MSG_EQ(cancelAgain, false, "only once");
        NS_TEST_ASSERT_MSG_EQ(obs.records.size(), 2u, "one row per message");
        for (const auto& r : obs.records)
        {
            if (r.msgId == first)
            {
                NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "the first arrived");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(r.msgId, second, "the second's row");
                NS_TEST_EXPECT_MSG_EQ(r.reason, "cancelled", "reason");
                NS_TEST_EXPECT_MSG_EQ(r.delivered, false, "not delivered");
                NS_TEST_EXPECT_MSG_EQ(r.dst, 2u, "its receiver");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(obs.onAir.size(), 1u, "one transmission");
        NS_TEST_EXPECT_MSG_EQ(obs.onAir.count(second), 0u, "the cancelled one never aired");
        NS_TEST_EXPECT_MSG_EQ(obs.sendDone.size(), 1u, "send-done for the first only");
        NS_TEST_EXPECT_MSG_EQ(obs.receptions.size(), 1u, "one reception");
    }

    D2dChannelAccess::Policy m_policy;
};

/** The suite. */
class D2dChannelAccessTestSuite : public TestSuite
{
  public:
    D2dChannelAccessTestSuite()
        : TestSuite("d2d-channel-access")
    {
        AddTestCase(new D2dSpatialReuseTestCase);
        AddTestCase(new D2dReliableMulticastTestCase(true, 4000));
        AddTestCase(new D2dReliableMulticastTestCase(false, 400));
        AddTestCase(new D2dOutOfRangeTestCase);
        AddTestCase(new D2dNeighboursTestCase);
        AddTestCase(new D2dReceiveHandlersTestCase);
        AddTestCase(new D2dScheduledNoLossTestCase);
        AddTestCase(new D2dCancelTestCase(D2dChannelAccess::SCHEDULED));
        AddTestCase(new D2dCancelTestCase(D2dChannelAccess::IMMEDIATE));
    }
};

/** Static instance. */
static D2dChannelAccessTestSuite g_d2dChannelAccessTestSuite;
