/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DRX (D2dDrx) on the channel backend, worked by hand: a message to a sleeping device
 * waits for its on-duration, the inactivity timer keeps a radio awake, and each radio's
 * energy is idle x t_idle + tx x t_tx + rx x t_rx + sleep x t_sleep + transition x t_tr
 * over intervals listed below, not computed by the model's code.
 */
#include "d2d-test-simulation.h"

#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-drx.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

/** Energy per (device, component), J. */
using EnergyTable = TestEnergyTable;

/**
 * \ingroup d2dlearn-tests
 * \brief Two devices 10 m apart under DRX (cycle 100 ms, on-duration 10 ms, inactivity
 * 20 ms, transition 4 ms in all): message A, sent at 30 ms while both sleep, starts at the
 * next on-duration (100 ms) and waited 70 ms for it; message B, sent at 120 ms while both
 * are kept awake by their inactivity timers, starts at once. Both access policies.
 */
class D2dDrxWaitEnergyTestCase : public TestCase
{
  public:
    /** \param policy the channel access policy */
    explicit D2dDrxWaitEnergyTestCase(D2dChannelAccess::Policy policy)
        : TestCase(std::string("DRX: wait for the on-duration, energy by state, ") +
                   (policy == D2dChannelAccess::SCHEDULED ? "scheduled" : "immediate")),
          m_policy(policy)
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit destroy;
        const double r = 1.0;                  // spectral efficiency, bit/s/Hz
        const double bw = 1e6;                 // Hz: 1 Mbit/s
        const uint64_t bytes = 500;            // 4 ms on the air, one fragment
        const double txDbm = 10.0;             // 0.01 W
        const double pa = 0.5;                 // PA efficiency
        const double circuitW = 0.2;           // W: transmit draw 0.01 / 0.5 + 0.2 = 0.22 W
        const double rxW = 0.15;               // W
        const double idleW = 0.1;              // W
        const double sleepW = 0.01;            // W
        const double trS = 4e-3;               // s, ramp-down 2 ms + ramp-up 2 ms
        const double trJ = 2e-4;               // J on top of the sleep draw: 0.05 W over 4 ms
        const double trW = sleepW + trJ / trS; // 0.06 W
        const double ms = 1e-3;
        // Propagation delay over 10 m, s, as ns-3's ConstantSpeedPropagationDelayModel gives
        // it: a Time, in whole nanoseconds (33 ns).
        const double d = Seconds(10.0 / 299792458.0).GetSeconds();

        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(r));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(bw));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0)); // P_D = 0
        helper.SetChannelAttribute("AccessPolicy", EnumValue(m_policy));
        helper.SetRadioAttribute("TxPowerDbm", DoubleValue(txDbm));
        helper.SetRadioProfile("custom");
        helper.SetRadioEnergyAttribute("Model", StringValue("Power"));
        helper.SetRadioEnergyAttribute("PaEfficiency", DoubleValue(pa));
        helper.SetRadioEnergyAttribute("TxCircuitPowerW", DoubleValue(circuitW));
        helper.SetRadioEnergyAttribute("RxPowerW", DoubleValue(rxW));
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(idleW));
        helper.SetRadioEnergyAttribute("SleepPowerW", DoubleValue(sleepW));
        helper.SetRadioEnergyAttribute("SleepTransitionTime", TimeValue(Seconds(trS)));
        helper.SetRadioEnergyAttribute("SleepTransitionEnergyJ", DoubleValue(trJ));
        helper.SetComputeAttribute("IdlePowerW", DoubleValue(0.0));
        helper.SetDrxAttribute("Cycle", TimeValue(MilliSeconds(100)));
        helper.SetDrxAttribute("OnDuration", TimeValue(MilliSeconds(10)));
        helper.SetDrxAttribute("InactivityTimer", TimeValue(MilliSeconds(20)));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);

        EnergyTable table;
        for (uint32_t i = 0; i < 2; ++i)
        {
            channel->GetRadio(i)->GetEnergyModel()->TraceConnectWithoutContext(
                "EnergyEvent",
                MakeBoundCallback(&AddTestEnergy, &table));
        }
        std::vector<D2dDeliveryRecord> recs;
        channel->GetRadio(0)->TraceConnectWithoutContext(
            "Delivery",
            MakeBoundCallback(&RecordTestDelivery, &recs));
        std::vector<bool> awakeAt50;
        Simulator::Schedule(MilliSeconds(30),
                            &SendTestMessage,
                            channel->GetRadio(0),
                            bytes,
                            1u,
                            nullptr);
        Simulator::Schedule(MilliSeconds(50), [&]() {
            awakeAt50 = {channel->GetRadio(0)->IsAwake(), channel->GetRadio(1)->IsAwake()};
        });
        Simulator::Schedule(MilliSeconds(120),
                            &SendTestMessage,
                            channel->GetRadio(0),
                            bytes,
                            1u,
                            nullptr);
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        for (uint32_t i = 0; i < 2; ++i)
        {
            channel->GetRadio(i)->GetEnergyModel()->Flush();
        }

        NS_TEST_ASSERT_MSG_EQ(recs.size(), 2u, "two delivery records");
        NS_TEST_EXPECT_MSG_EQ(awakeAt50[0] || awakeAt50[1],
                              false,
                              "both asleep at 50 ms: the sender is not woken for a sleeping "
                              "receiver");
        // A: sent at 30 ms, both asleep until the on-duration at 100 ms.
        NS_TEST_EXPECT_MSG_EQ(recs[0].delivered, true, "A delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].startTime.GetSeconds(),
                                  100 * ms,
                                  1e-12,
                                  "A starts at the on-duration");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].sleepWait.GetSeconds(),
                                  70 * ms,
                                  1e-12,
                                  "A waited 70 ms for the sleeping receiver");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].recvTime.GetSeconds(),
                                  104 * ms + d,
                                  1e-9,
                                  "A received after its airtime and the propagation delay");
        // B: sent at 120 ms, within both inactivity timers (until 124 ms and 124 ms + d).
        NS_TEST_EXPECT_MSG_EQ(recs[1].delivered, true, "B delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[1].startTime.GetSeconds(),
                                  120 * ms,
                                  1e-12,
                                  "B starts at once: the inactivity timer kept the radios awake");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[1].sleepWait.GetSeconds(), 0.0, 1e-15, "B did not wait");

        // By hand, over [0, 300 ms). Sender 0: idle [0,10) [104,120) [124,144) [200,210);
        // tx [100,104) [120,124); transitions [10,12) [98,100) [144,146) [198,200) [210,212)
        // [298,300); asleep [12,98) [146,198) [212,298).
        // Receiver 1: the same, its receptions and what follows them d later: idle 56 ms + d,
        // rx 8 ms, transitions 12 ms, asleep 224 ms - d.
        const double txW = std::pow(10.0, (txDbm - 30.0) / 10.0) / pa + circuitW;

        struct Expect
        {
            uint32_t node;
            const char* component;
            double joules;
        };

        const std::vector<Expect> expected = {
            {0, "radio_idle", idleW * 56 * ms},
            {0, "radio_tx", txW * 8 * ms},
            {0, "radio_rx", 0.0},
            {0, "radio_transition", trW * 12 * ms},
            {0, "radio_sleep", sleepW * 224 * ms},
            {1, "radio_idle", idleW * (56 * ms + d)},
            {1, "radio_tx", 0.0},
            {1, "radio_rx", rxW * 8 * ms},
            {1, "radio_transition", trW * 12 * ms},
            {1, "radio_sleep", sleepW * (224 * ms - d)},
        };
        for (const auto& e : expected)
        {
            const double got = table[{e.node, e.component}];
            NS_TEST_EXPECT_MSG_EQ_TOL(got,
                                      e.joules,
                                      1e-9 * std::max(e.joules, 1e-12),
                                      "device " << e.node << " " << e.component);
        }
        // Each transition costs its sleep draw plus trJ / 2 (one ramp): 6 ramps, 3 sleeps.
        const double transition0 = table[{0, "radio_transition"}];
        NS_TEST_EXPECT_MSG_EQ_TOL(transition0,
                                  6 * (sleepW * trS / 2 + trJ / 2),
                                  1e-9 * trJ,
                                  "six ramps of 2 ms, each sleep x 2 ms + half the transition "
                                  "energy");
    }

    D2dChannelAccess::Policy m_policy; //!< the access policy
};

/**
 * \ingroup d2dlearn-tests
 * \brief A gap shorter than the transition time is not slept; without DRX nothing sleeps.
 */
class D2dDrxShortGapTestCase : public TestCase
{
  public:
    D2dDrxShortGapTestCase()
        : TestCase("DRX: no sleep in a gap shorter than the transition time")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit destroy;
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetRadioProfile("custom");
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.1));
        helper.SetRadioEnergyAttribute("SleepPowerW", DoubleValue(0.01));
        // The gap between on-durations is 10 ms - 4 ms = 6 ms < 8 ms of ramps.
        helper.SetRadioEnergyAttribute("SleepTransitionTime", TimeValue(MilliSeconds(8)));
        helper.SetComputeAttribute("IdlePowerW", DoubleValue(0.0));
        helper.SetDrxAttribute("Cycle", TimeValue(MilliSeconds(10)));
        helper.SetDrxAttribute("OnDuration", TimeValue(MilliSeconds(4)));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        EnergyTable table;
        channel->GetRadio(0)->GetEnergyModel()->TraceConnectWithoutContext(
            "EnergyEvent",
            MakeBoundCallback(&AddTestEnergy, &table));
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        channel->GetRadio(0)->GetEnergyModel()->Flush();
        const double idle0 = table[{0, "radio_idle"}];
        const auto sleeps = table.count({0, "radio_sleep"});
        NS_TEST_EXPECT_MSG_EQ_TOL(idle0, 0.1 * 0.1, 1e-12, "idle all 100 ms");
        NS_TEST_EXPECT_MSG_EQ(sleeps, 0u, "never asleep");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief DRX of the channel backend's radios.
 */
class D2dDrxTestSuite : public TestSuite
{
  public:
    D2dDrxTestSuite()
        : TestSuite("d2d-drx")
    {
        AddTestCase(new D2dDrxWaitEnergyTestCase(D2dChannelAccess::IMMEDIATE));
        AddTestCase(new D2dDrxWaitEnergyTestCase(D2dChannelAccess::SCHEDULED));
        AddTestCase(new D2dDrxShortGapTestCase);
    }
};

/** The suite's instance. */
static D2dDrxTestSuite g_d2dDrxTestSuite;
