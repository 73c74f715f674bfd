/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-server-position": the server has a place. Each device's device-to-server
 * (D2S) link is as long as its own distance to the server node
 * (D2dHelper::InstallServer(server, nodes)), and its drop probability is eq. (18) of Wagle,
 * Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning" (2025), P_D = 1 - exp(-(2^r - 1) sigma^2 / W), at the RSS W
 * that the log-distance loss gives at that distance, also while the device moves; the
 * equal-length links of the paper's sec. VI-G stay what InstallServer(server, nodes, factor)
 * makes.
 *
 * Expected numbers are hand formulas written in this file (distance -> log-distance path
 * loss -> RSS W -> P_D), checked against literals computed independently (Python, math
 * module); nothing is taken from the code under test.
 */

#include "d2d-test-observer.h"
#include "d2d-test-simulation.h"

#include "ns3/constant-position-mobility-model.h"
#include "ns3/constant-velocity-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-radio.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

const double TX_POWER_DBM = 30.0; //!< the D2S radios' transmit power, dBm
const double NOISE_W = 1e-13;     //!< sigma^2 of eq. (18), W
const double RATE_R = 2.0;        //!< r of eq. (18), bit/s/Hz

/**
 * \param distanceM a link's length, m
 * \return its RSS W, W: ns-3's LogDistancePropagationLossModel on its defaults (exponent 3,
 *         46.6777 dB at the reference distance 1 m, no loss below it) at TX_POWER_DBM
 */
double
HandRssW(double distanceM)
{
    const double lossDb = 46.6777 + 30.0 * std::log10(std::max(distanceM, 1.0));
    return std::pow(10.0, (TX_POWER_DBM - lossDb - 30.0) / 10.0); // dBm -> W
}

/**
 * \param distanceM a link's length, m
 * \return eq. (18) at HandRssW(distanceM): 1 - exp(-(2^r - 1) sigma^2 / W)
 */
double
HandDropProbability(double distanceM)
{
    return 1.0 - std::exp(-(std::pow(2.0, RATE_R) - 1.0) * NOISE_W / HandRssW(distanceM));
}

/**
 * \param position a place, m
 * \return a node with a ConstantPositionMobilityModel there
 */
Ptr<Node>
NodeAt(const Vector& position)
{
    auto node = CreateObject<Node>();
    auto mobility = CreateObject<ConstantPositionMobilityModel>();
    mobility->SetPosition(position);
    node->AggregateObject(mobility);
    return node;
}

/**
 * \param helper a helper with the test's D2S radio power and eq. (18) parameters set
 */
void
Configure(D2dHelper& helper)
{
    helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(RATE_R));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(NOISE_W));
    helper.SetRadioAttribute("TxPowerDbm", DoubleValue(TX_POWER_DBM));
}

/**
 * \param radio a radio
 * \param dst its receiver
 */
void
SendProbe(Ptr<D2dRadio> radio, uint32_t dst)
{
    radio->Send(Create<D2dMessage>("probe", 100), dst, D2dDeliveryMode::UNRELIABLE);
}

/**
 * \param channel a D2S channel
 * \param rx receiver
 * \param tx transmitter
 * \param out where the drop probability and the distance now go
 */
void
Sample(Ptr<D2dChannel> channel,
       uint32_t rx,
       uint32_t tx,
       std::vector<std::pair<double, double>>* out)
{
    out->emplace_back(channel->GetDropProbability(rx, tx), channel->GetDistanceM(rx, tx));
}

} // namespace

// ---------------------------------------------------------------------------------------

/**
 * Devices at known places, the server at another: each D2S link (uplink and downlink) has the
 * device's own distance and eq. (18) at it, in the channel's answers and in the delivery
 * records; the D2D channel's RangeM does not cut the D2S links.
 */
class D2dServerPlaceTestCase : public TestCase
{
  public:
    D2dServerPlaceTestCase()
        : TestCase("D2S link per device: its distance to the server, eq. (18) at it")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        // The hand formulas against literals computed apart (Python): 10, 50 and 100 m.
        NS_TEST_ASSERT_MSG_EQ_TOL(HandRssW(10), 2.148968254744522e-08, 1e-18, "RSS literal");
        NS_TEST_ASSERT_MSG_EQ_TOL(HandDropProbability(10),
                                  1.3960090165077155e-05,
                                  1e-15,
                                  "P_D literal at 10 m");
        NS_TEST_ASSERT_MSG_EQ_TOL(HandDropProbability(50),
                                  0.0017435017828295596,
                                  1e-13,
                                  "P_D literal at 50 m");
        NS_TEST_ASSERT_MSG_EQ_TOL(HandDropProbability(100),
                                  0.01386319605370967,
                                  1e-12,
                                  "P_D literal at 100 m");

        const Vector serverAt(20, 30, 0);
        // 10 m, 50 m (a 30-40-50 triangle) and 100 m (60-80-100) from the server.
        const std::vector<Vector> at = {{20, 40, 0}, {50, 70, 0}, {-40, 110, 0}};
        const std::vector<double> distance = {10, 50, 100};
        NodeContainer devices;
        for (const auto& p : at)
        {
            devices.Add(NodeAt(p));
        }
        D2dHelper helper;
        Configure(helper);
        helper.SetChannelAttribute("RangeM", DoubleValue(5.0)); // the D2D radios' range only
        helper.Install(devices);
        Ptr<Node> server = NodeAt(serverAt);
        Ptr<D2dChannel> d2s = helper.InstallServer(server, devices);
        const uint32_t n = devices.GetN();

        for (uint32_t i = 0; i < n; ++i)
        {
            const double expected = HandDropProbability(distance[i]);
            NS_TEST_EXPECT_MSG_EQ_TOL(d2s->GetDistanceM(n, i), distance[i], 1e-9, "distance");
            NS_TEST_EXPECT_MSG_EQ_TOL(d2s->GetRssW(n, i),
                                      HandRssW(distance[i]),
                                      1e-9 * HandRssW(distance[i]),
                                      "uplink RSS of device " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(d2s->GetDropProbability(n, i),
                                      expected,
                                      1e-9 * expected,
                                      "uplink P_D of device " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(d2s->GetDropProbability(i, n),
                                      expected,
                                      1e-9 * expected,
                                      "downlink P_D of device " << i);
        }
        NS_TEST_EXPECT_MSG_GT(d2s->GetDropProbability(n, 2),
                              d2s->GetDropProbability(n, 1),
                              "the farther device has the higher P_D");

        // What messages.csv writes: the P_D of each delivery record, uplink and downlink.
        D2dTestChannelObserver observer;
        observer.Connect(d2s);
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(Seconds(1 + i), &SendProbe, d2s->GetRadio(i), n);
            Simulator::Schedule(Seconds(10 + i), &SendProbe, d2s->GetRadio(n), i);
        }
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(observer.records.size(), 2 * n, "an uplink and a downlink each");
        for (const auto& r : observer.records)
        {
            const uint32_t device = r.src == n ? r.dst : r.src;
            const double expected = HandDropProbability(distance[device]);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.dropProbability,
                                      expected,
                                      1e-9 * expected,
                                      "record " << r.src << "->" << r.dst);
            NS_TEST_EXPECT_MSG_EQ((r.reason == "out_of_range"), false, "heard despite RangeM");
        }

        // The equal links of sec. VI-G are still there: every link 3 x the mean D2D distance.
        NodeContainer others;
        for (const auto& p : at)
        {
            others.Add(NodeAt(p));
        }
        D2dHelper equal;
        Configure(equal);
        equal.Install(others);
        Ptr<D2dChannel> d2sEqual = equal.InstallServer(NodeAt(serverAt), others, 3.0);
        const double mean = D2dHelper::MeanPairDistanceM(others);
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(d2sEqual->GetDistanceM(n, i),
                                      3 * mean,
                                      1e-9,
                                      "equal link " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(d2sEqual->GetDropProbability(n, i),
                                      HandDropProbability(3 * mean),
                                      1e-9 * HandDropProbability(3 * mean),
                                      "equal link P_D " << i);
        }
    }
};

// ---------------------------------------------------------------------------------------

/**
 * A device moving away from the server (ConstantVelocityMobilityModel, 20 m/s): the P_D of its
 * uploads at 0.5 s and at 2.5 s is eq. (18) at its distances then (20 m and 60 m), and rises.
 */
class D2dServerMovingAwayTestCase : public TestCase
{
  public:
    D2dServerMovingAwayTestCase()
        : TestCase("D2S P_D follows a device moving away from the server, as eq. (18) says")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        NS_TEST_ASSERT_MSG_EQ_TOL(HandDropProbability(20),
                                  0.000111675264717781,
                                  1e-15,
                                  "P_D literal at 20 m");
        NS_TEST_ASSERT_MSG_EQ_TOL(HandDropProbability(60),
                                  0.003010858769398994,
                                  1e-13,
                                  "P_D literal at 60 m");

        // Device 0 starts 10 m east of the server and moves east at 20 m/s; device 1 stays.
        const Vector serverAt(100, 100, 0);
        auto moving = CreateObject<Node>();
        auto velocity = CreateObject<ConstantVelocityMobilityModel>();
        velocity->SetPosition(Vector(110, 100, 0));
        velocity->SetVelocity(Vector(20, 0, 0));
        moving->AggregateObject(velocity);
        NodeContainer devices;
        devices.Add(moving);
        devices.Add(NodeAt(Vector(100, 150, 0)));
        D2dHelper helper;
        Configure(helper);
        helper.Install(devices);
        Ptr<D2dChannel> d2s = helper.InstallServer(NodeAt(serverAt), devices);
        const uint32_t n = devices.GetN();

        D2dTestChannelObserver observer;
        observer.Connect(d2s);
        std::vector<std::pair<double, double>> samples; // (P_D, distance) at 0.5 s and 2.5 s
        for (double t : {0.5, 2.5})
        {
            Simulator::Schedule(Seconds(t), &Sample, d2s, n, 0u, &samples);
            Simulator::Schedule(Seconds(t), &SendProbe, d2s->GetRadio(0), n);
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(samples.size(), 2u, "two samples");
        NS_TEST_ASSERT_MSG_EQ(observer.records.size(), 2u, "two uploads");
        const double expected[] = {HandDropProbability(20), HandDropProbability(60)};
        for (std::size_t k = 0; k < 2; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(samples[k].second, (k == 0 ? 20.0 : 60.0), 1e-6, "distance");
            NS_TEST_EXPECT_MSG_EQ_TOL(samples[k].first,
                                      expected[k],
                                      1e-6 * expected[k],
                                      "P_D now, sample " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(observer.records[k].dropProbability,
                                      expected[k],
                                      1e-6 * expected[k],
                                      "P_D of upload " << k << " (at its send time)");
        }
        NS_TEST_EXPECT_MSG_GT(observer.records[1].dropProbability,
                              observer.records[0].dropProbability,
                              "P_D rises as the device moves away");
    }
};

// ---------------------------------------------------------------------------------------

/**
 * Static positions, whose neighbour lists the channel keeps: a device that is moved by
 * SetPosition (a course change) out of the server's hearing (RxSensitivityW) stops receiving
 * its broadcasts, and its link's P_D follows the new distance.
 */
class D2dServerCourseChangeTestCase : public TestCase
{
  public:
    D2dServerCourseChangeTestCase()
        : TestCase("D2S neighbour lists of static devices follow a set position")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        NodeContainer devices;
        devices.Add(NodeAt(Vector(10, 0, 0)));
        devices.Add(NodeAt(Vector(0, 50, 0)));
        D2dHelper helper;
        Configure(helper);
        // Heard down to the RSS at 100 m: device 1 (50 m) hears, then at 150 m it does not.
        helper.SetD2sChannelAttribute("RxSensitivityW", DoubleValue(HandRssW(100)));
        helper.Install(devices);
        Ptr<D2dChannel> d2s = helper.InstallServer(NodeAt(Vector(0, 0, 0)), devices);
        const uint32_t n = devices.GetN();
        D2dTestChannelObserver observer;
        observer.Connect(d2s);
        auto broadcast = [d2s, n]() {
            d2s->GetRadio(n)->Send(Create<D2dMessage>("model", 100),
                                   D2D_BROADCAST,
                                   D2dDeliveryMode::UNRELIABLE);
        };
        Simulator::Schedule(Seconds(1), broadcast);
        Simulator::Schedule(Seconds(2), [devices]() {
            devices.Get(1)->GetObject<MobilityModel>()->SetPosition(Vector(0, 150, 0));
        });
        std::vector<std::pair<double, double>> samples;
        Simulator::Schedule(Seconds(2.5), &Sample, d2s, 1u, n, &samples);
        Simulator::Schedule(Seconds(3), broadcast);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        std::vector<uint32_t> first;
        std::vector<uint32_t> second;
        for (const auto& r : observer.records)
        {
            (r.sendTime < Seconds(2) ? first : second).push_back(r.dst);
        }
        std::sort(first.begin(), first.end());
        NS_TEST_EXPECT_MSG_EQ((first == std::vector<uint32_t>{0, 1}), true, "both hear at first");
        NS_TEST_EXPECT_MSG_EQ((second == std::vector<uint32_t>{0}),
                              true,
                              "after the move only device 0 hears (lists not stale)");
        NS_TEST_ASSERT_MSG_EQ(samples.size(), 1u, "sampled");
        NS_TEST_EXPECT_MSG_EQ_TOL(samples[0].second, 150.0, 1e-9, "distance after the move");
        NS_TEST_EXPECT_MSG_EQ(samples[0].first, 1.0, "unheard link: P_D 1");
    }
};

// ---------------------------------------------------------------------------------------

/** The suite. */
class D2dServerPositionTestSuite : public TestSuite
{
  public:
    D2dServerPositionTestSuite()
        : TestSuite("d2d-server-position")
    {
        AddTestCase(new D2dServerPlaceTestCase);
        AddTestCase(new D2dServerMovingAwayTestCase);
        AddTestCase(new D2dServerCourseChangeTestCase);
    }
};

/// The suite's one instance.
static D2dServerPositionTestSuite g_d2dServerPositionTestSuite;
