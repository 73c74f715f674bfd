/*
 * d2dlearn: tests of a finite spectrum (D2dChannel SubChannels, D2dSpectrum), each against
 * a hand-worked figure or eq. (18) of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning" (2025), with interference:
 *  - n equal uploads to one server on K sub-channels finish at ceil(n / K) x (airtime on a
 *    sub-channel + propagation delay), exactly (1 ns), and never more than K are on the air;
 *  - one transmission alone on a sub-channel of B / K takes K times the airtime of the whole
 *    band, at the same P_D (sigma^2 is the noise in the band a transmission uses);
 *  - a transmission that starts while a co-channel one is on the air is lost with
 *    P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W) where I is the interferer's RSS at its
 *    receiver (fragment losses against the formula, both paths, 4.5 standard errors);
 *    with Interference false, eq. (18) as written; a receiver beyond the reuse rule's reach
 *    is not interfered with;
 *  - immediate access: a receiver with every receive chain taken loses the reception
 *    ("rx_busy");
 *  - SubChannels 0 is the unlimited band of before (every upload at once at the full rate).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-test-eq18.h"
#include "d2d-test-observer.h"

#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/matrix-rss-model.h"
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

/** Bits on the air of a message of bytes with MtuBytes 1000 and no header. */
double
Bits(uint64_t bytes)
{
    return bytes * 8.0;
}

/**
 * n devices each upload one message to a server over a D2S-like channel (FixedDistanceM: every
 * link equally long), scheduled access, K sub-channels.
 */
class D2dUploadsTestCase : public TestCase
{
  public:
    /** \param n uploads \param k sub-channels (0: unlimited) */
    D2dUploadsTestCase(uint32_t n, uint32_t k)
        : TestCase("n = " + std::to_string(n) + " uploads on K = " + std::to_string(k) +
                   " sub-channels finish at ceil(n over K) airtimes"),
          m_n(n),
          m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        NodeContainer nodes;
        nodes.Create(m_n + 1); // the server is n
        for (uint32_t i = 0; i <= m_n; ++i)
        {
            nodes.Get(i)->AggregateObject(CreateObject<ConstantPositionMobilityModel>());
        }
        D2dHelper helper;
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0)); // P_D = 0: timing only
        helper.SetChannelAttribute("MtuBytes", UintegerValue(1000));
        helper.SetChannelAttribute("FixedDistanceM", DoubleValue(300.0)); // 1 us
        helper.SetChannelAttribute("SubChannels", UintegerValue(m_k));
        helper.SetInitialEnergyJ(1e6);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        helper.AssignStreams(1);
        D2dTestChannelObserver obs;
        obs.Connect(channel);
        const uint64_t bytes = 25000;
        auto msg = Create<D2dMessage>("model", bytes);
        for (uint32_t i = 0; i < m_n; ++i)
        {
            Simulator::ScheduleNow([channel, msg, i, this]() {
                channel->GetRadio(i)->Send(msg, m_n, D2dDeliveryMode::UNRELIABLE);
            });
        }
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        Simulator::Destroy();

        // r = 2 bit/s/Hz, B = 10 MHz: 20 Mbit/s for the band, 20 / K per sub-channel.
        const double rate = 2.0 * 10e6 / (m_k == 0 ? 1.0 : m_k);
        const double airtime = Bits(bytes) / rate;
        const double prop = 300.0 / 299792458.0;
        const uint32_t waves = m_k == 0 ? 1 : (m_n + m_k - 1) / m_k;
        NS_TEST_ASSERT_MSG_EQ(obs.records.size(), m_n, "one row per upload");
        double last = 0;
        std::map<uint32_t, uint32_t> perWave;
        for (const auto& r : obs.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.delivered, true, "P_D = 0");
            const double t = r.recvTime.GetSeconds();
            last = std::max(last, t);
            // Wave w (1, 2, ...) ends at w x (airtime + prop): an upload starts when the
            // server's receive chain of the previous wave is released.
            const double w = t / (airtime + prop);
            const auto wave = static_cast<uint32_t>(std::lround(w));
            NS_TEST_EXPECT_MSG_EQ_TOL(t, wave * (airtime + prop), 2e-9, "on a wave's end");
            perWave[wave]++;
            NS_TEST_EXPECT_MSG_EQ_TOL(r.airtime.GetSeconds(), airtime, 1e-9, "airtime column");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.startTime.GetSeconds(),
                                      (wave - 1) * (airtime + prop),
                                      2e-9,
                                      "t_start_s: the queueing delay before it");
            const std::size_t nSub = m_k == 0 ? 0 : 1;
            NS_TEST_EXPECT_MSG_EQ(r.subChannels.size(), nSub, "one sub-channel");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(last, waves * (airtime + prop), 2e-9, "ceil(n / K) waves");
        for (const auto& [wave, count] : perWave)
        {
            const uint32_t perWaveMax = m_k == 0 ? m_n : m_k;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(count, perWaveMax, "at most K per wave");
        }
        // At most K on the air at any time (sender-side intervals from the Transmission trace).
        std::vector<std::pair<Time, int>> edges;
        for (const auto& [id, span] : obs.onAir)
        {
            edges.emplace_back(span.first, 1);
            edges.emplace_back(span.second, -1);
        }
        std::sort(edges.begin(), edges.end());
        int onAir = 0;
        int most = 0;
        for (const auto& [t, d] : edges)
        {
            onAir += d;
            most = std::max(most, onAir);
        }
        const int expectedMost = static_cast<int>(m_k == 0 ? m_n : std::min(m_k, m_n));
        NS_TEST_EXPECT_MSG_EQ(most, expectedMost, "transmissions on the air at once");
    }

    uint32_t m_n; //!< uploads
    uint32_t m_k; //!< sub-channels
};

/**
 * Two co-channel transmissions: 0 -> 1 long, 2 -> 3 short ones while it is on the air, with
 * W_32 (wanted) and W_30 (interferer at 3) set by an RSS matrix. Immediate access, K = 1.
 */
class D2dInterferenceTestCase : public TestCase
{
  public:
    /**
     * \param fastPath the channel's FastPath
     * \param interference the channel's Interference
     */
    D2dInterferenceTestCase(bool fastPath, bool interference)
        : TestCase(std::string("co-channel interference in eq. (18): ") +
                   (fastPath ? "fast path" : "per-fragment path") +
                   (interference ? ", SINR" : ", Interference false: SNR")),
          m_fastPath(fastPath),
          m_interference(interference)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        const double r = 1.0;
        const double noise = 1.0;
        const double wanted = RssForDropW(0.1, noise, r); // P_D 0.1 without interference
        const double interferer = 0.5 * noise;            // I = sigma^2 / 2 at receiver 3
        std::vector<std::vector<double>> w(4, std::vector<double>(4, 0.0));
        w[1][0] = RssForDropW(0.01, noise, r);
        w[3][2] = wanted;
        w[3][0] = interferer;
        w[1][2] = 1e-30; // heard (above the 0 sensitivity) but negligible
        NodeContainer nodes;
        nodes.Create(4);
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(w);
        D2dHelper helper;
        helper.SetRssModel(matrix);
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(r));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(noise));
        helper.SetChannelAttribute("MtuBytes", UintegerValue(1000));
        helper.SetChannelAttribute("FastPath", BooleanValue(m_fastPath));
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::IMMEDIATE));
        helper.SetChannelAttribute("SubChannels", UintegerValue(1));
        helper.SetChannelAttribute("Interference", BooleanValue(m_interference));
        helper.SetInitialEnergyJ(1e9);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        helper.AssignStreams(1);
        D2dTestChannelObserver obs;
        obs.Connect(channel);
        // 0 -> 1: 2,000 fragments (1 s at r x B = 10 Mbit/s... B = 10 MHz, r = 1: 10 Mbit/s,
        // 8,000 bits a fragment: 1.6 s). 2 -> 3: 20 fragments each, 0.016 s, back to back.
        auto longMsg = Create<D2dMessage>("long", 2000 * 1000);
        auto shortMsg = Create<D2dMessage>("short", 20 * 1000);
        Simulator::Schedule(Seconds(0), [channel, longMsg]() {
            channel->GetRadio(0)->Send(longMsg, 1, D2dDeliveryMode::UNRELIABLE);
        });
        const uint32_t messages = 90; // 1.44 s: all while 0 -> 1 is on the air
        for (uint32_t m = 0; m < messages; ++m)
        {
            Simulator::Schedule(MicroSeconds(10), [channel, shortMsg]() {
                channel->GetRadio(2)->Send(shortMsg, 3, D2dDeliveryMode::UNRELIABLE);
            });
        }
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        Simulator::Destroy();

        const double i = m_interference ? interferer : 0.0;
        const double expected = 1.0 - std::exp(-(std::pow(2.0, r) - 1.0) * (noise + i) / wanted);
        double lost = 0;
        double fragments = 0;
        uint32_t rows = 0;
        for (const auto& rec : obs.records)
        {
            if (rec.src != 2)
            {
                continue;
            }
            ++rows;
            NS_TEST_EXPECT_MSG_EQ_TOL(rec.dropProbability, expected, 1e-12, "p_drop column");
            NS_TEST_EXPECT_MSG_EQ_TOL(rec.interferenceW, i, 1e-15, "interference_w column");
            NS_TEST_EXPECT_MSG_EQ(rec.subChannels.size(), 1u, "one sub-channel");
            lost += rec.fragmentsLost;
            fragments += rec.fragments;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, messages, "every short message has its row");
        const double se = std::sqrt(expected * (1 - expected) / fragments);
        NS_TEST_EXPECT_MSG_EQ_TOL(lost / fragments,
                                  expected,
                                  4.5 * se,
                                  "fragment loss rate against eq. (18) with sigma^2 + I");
    }

    bool m_fastPath;     //!< FastPath
    bool m_interference; //!< Interference
};

/** Immediate access: a receiver with every chain taken loses a further reception. */
class D2dReceiveChainsTestCase : public TestCase
{
  public:
    D2dReceiveChainsTestCase()
        : TestCase("immediate access: a reception beyond the receiver's chains is rx_busy")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto m = CreateObject<ConstantPositionMobilityModel>();
            m->SetPosition(Vector(i, 0, 0));
            nodes.Get(i)->AggregateObject(m);
        }
        D2dHelper helper;
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::IMMEDIATE));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetChannelAttribute("SubChannels", UintegerValue(4));
        helper.SetChannelAttribute("Interference", BooleanValue(false));
        helper.SetRadioAttribute("ReceiveChains", UintegerValue(2));
        helper.SetInitialEnergyJ(1e6);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        helper.AssignStreams(1);
        D2dTestChannelObserver obs;
        obs.Connect(channel);
        auto msg = Create<D2dMessage>("m", 10000);
        for (uint32_t i = 1; i < 4; ++i)
        {
            Simulator::ScheduleNow([channel, msg, i]() {
                channel->GetRadio(i)->Send(msg, 0, D2dDeliveryMode::UNRELIABLE);
            });
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        Simulator::Destroy();
        uint32_t delivered = 0;
        uint32_t busy = 0;
        for (const auto& r : obs.records)
        {
            delivered += r.delivered ? 1 : 0;
            busy += r.reason == "rx_busy" ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(delivered, 2u, "two chains: two receptions");
        NS_TEST_EXPECT_MSG_EQ(busy, 1u, "the third is lost there");
        // The three transmissions each took one of the 4 sub-channels, the least used first.
        std::vector<uint32_t> used;
        for (const auto& r : obs.records)
        {
            used.push_back(r.subChannels.at(0));
        }
        std::sort(used.begin(), used.end());
        const bool firstThree = used == std::vector<uint32_t>{0, 1, 2};
        NS_TEST_EXPECT_MSG_EQ(firstThree, true, "sub-channels 0, 1, 2");
    }
};

/**
 * Scheduled access with SpectrumReuse Hearing: two pairs out of each other's hearing share
 * the one sub-channel (both on the air at once, no interference), two pairs within it take
 * turns.
 */
class D2dSpatialReuseOfSubChannelsTestCase : public TestCase
{
  public:
    /** \param farApart whether the pairs are out of each other's range */
    explicit D2dSpatialReuseOfSubChannelsTestCase(bool farApart)
        : TestCase(std::string("SpectrumReuse Hearing: ") +
                   (farApart ? "pairs out of range share a sub-channel"
                             : "pairs in range take turns on it")),
          m_farApart(farApart)
    {
    }

  private:
    void DoRun() override
    {
        const double gap = m_farApart ? 500.0 : 20.0;
        NodeContainer nodes;
        nodes.Create(4);
        const std::vector<double> x = {0, 5, gap, gap + 5};
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto m = CreateObject<ConstantPositionMobilityModel>();
            m->SetPosition(Vector(x[i], 0, 0));
            nodes.Get(i)->AggregateObject(m);
        }
        D2dHelper helper;
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetChannelAttribute("RangeM", DoubleValue(100.0));
        helper.SetChannelAttribute("SubChannels", UintegerValue(1));
        helper.SetChannelAttribute("SpectrumReuse", EnumValue(D2dSpectrum::HEARING));
        helper.SetInitialEnergyJ(1e6);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        helper.AssignStreams(1);
        D2dTestChannelObserver obs;
        obs.Connect(channel);
        auto msg = Create<D2dMessage>("m", 10000);
        Simulator::ScheduleNow([channel, msg]() {
            channel->GetRadio(0)->Send(msg, 1, D2dDeliveryMode::UNRELIABLE);
            channel->GetRadio(2)->Send(msg, 3, D2dDeliveryMode::UNRELIABLE);
        });
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(obs.records.size(), 2u, "two rows");
        const double airtime = Bits(10000) / 20e6;
        const double secondStart = obs.records[1].startTime.GetSeconds();
        for (const auto& r : obs.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.delivered, true, "delivered");
            NS_TEST_EXPECT_MSG_EQ(r.interferenceW, 0.0, "no co-channel transmission is heard");
        }
        if (m_farApart)
        {
            NS_TEST_EXPECT_MSG_EQ(secondStart, 0.0, "both at once");
        }
        else
        {
            // It takes the sub-channel when the first leaves it, at the first's end.
            NS_TEST_EXPECT_MSG_EQ_TOL(secondStart, airtime, 1e-9, "the second waits for the first");
        }
    }

    bool m_farApart; //!< the pairs' distance
};

/** The d2d-spectrum suite. */
class D2dSpectrumTestSuite : public TestSuite
{
  public:
    D2dSpectrumTestSuite()
        : TestSuite("d2d-spectrum")
    {
        AddTestCase(new D2dUploadsTestCase(10, 4));
        AddTestCase(new D2dUploadsTestCase(9, 3));
        AddTestCase(new D2dUploadsTestCase(5, 1));
        AddTestCase(new D2dUploadsTestCase(7, 0));
        AddTestCase(new D2dUploadsTestCase(3, 8));
        AddTestCase(new D2dUploadsTestCase(1, 5)); // alone on B / 5: 5 x the airtime of K = 0
        AddTestCase(new D2dInterferenceTestCase(true, true));
        AddTestCase(new D2dInterferenceTestCase(false, true));
        AddTestCase(new D2dInterferenceTestCase(true, false));
        AddTestCase(new D2dReceiveChainsTestCase);
        AddTestCase(new D2dSpatialReuseOfSubChannelsTestCase(true));
        AddTestCase(new D2dSpatialReuseOfSubChannelsTestCase(false));
    }
};

/** The suite's instance. */
static D2dSpectrumTestSuite g_d2dSpectrumTestSuite;

} // namespace
