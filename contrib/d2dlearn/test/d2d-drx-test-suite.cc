/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DRX (D2dDrx) on the channel backend, worked by hand: a message to a sleeping device
 * waits for its on-duration (or, for a sleep the device asked for, its wake-up), the
 * inactivity timer keeps a radio awake, and each radio's
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

namespace
{

// The hand-worked settings of the cases below.
const uint64_t bytes = 500;              //!< one fragment, 4 ms on the air at 1 Mbit/s
const double txDbm = 10.0;               //!< transmit power, dBm (0.01 W)
const double pa = 0.5;                   //!< PA efficiency
const double circuitW = 0.2;             //!< W: transmit draw 0.01 / 0.5 + 0.2 = 0.22 W
const double txW = 0.01 / pa + circuitW; //!< W, the transmit draw
const double rxW = 0.15;                 //!< W, receive
const double idleW = 0.1;                //!< W, idle
const double sleepW = 0.01;              //!< W, asleep
const double trS = 4e-3;                 //!< s, ramp-down 2 ms + ramp-up 2 ms
const double trJ = 2e-4;                 //!< J on top of the sleep draw: 0.05 W over 4 ms
const double trW = sleepW + trJ / trS;   //!< W, during a ramp (0.06 W)
const double ms = 1e-3;                  //!< s
/** Propagation delay over 10 m, s, as ns-3's ConstantSpeedPropagationDelayModel gives it: a
 *  Time, in whole nanoseconds (33 ns). */
const double d = Seconds(10.0 / 299792458.0).GetSeconds();

/**
 * \brief The channel and radios of the hand-worked cases: 1 Mbit/s (1 bit/s/Hz over 1 MHz),
 * no noise (P_D = 0), the powers above, no compute draw, 100 J batteries.
 * \param helper the helper to set
 * \param policy the channel access policy
 */
void
SetHandWorkedRadios(D2dHelper& helper, D2dChannelAccess::Policy policy)
{
    helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
    helper.SetChannelAttribute("BandwidthHz", DoubleValue(1e6));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
    helper.SetChannelAttribute("AccessPolicy", EnumValue(policy));
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
}

/** A radio state's energy, worked by hand. */
struct ExpectedEnergy
{
    uint32_t node;         //!< the device
    const char* component; //!< energy.csv's component
    double joules;         //!< J
};

} // namespace

/**
 * \ingroup d2dlearn-tests
 * \brief A case that compares radio energy with hand-worked values.
 */
class D2dSleepEnergyTestCase : public TestCase
{
  protected:
    /**
     * \param name the case's name, to which the policy's is added
     * \param policy the channel access policy
     */
    D2dSleepEnergyTestCase(const std::string& name, D2dChannelAccess::Policy policy)
        : TestCase(name + (policy == D2dChannelAccess::SCHEDULED ? "scheduled" : "immediate")),
          m_policy(policy)
    {
    }

    D2dChannelAccess::Policy m_policy; //!< the access policy

    /**
     * \brief Compare the summed energy with the hand-worked values, 1e-9 relative.
     * \param table what the EnergyEvent traces summed
     * \param expected the hand-worked values
     */
    void CheckEnergy(EnergyTable& table, const std::vector<ExpectedEnergy>& expected)
    {
        for (const auto& e : expected)
        {
            const double got = table[{e.node, e.component}];
            NS_TEST_EXPECT_MSG_EQ_TOL(got,
                                      e.joules,
                                      1e-9 * std::max(e.joules, 1e-12),
                                      "device " << e.node << " " << e.component);
        }
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Two devices 10 m apart under DRX (cycle 100 ms, on-duration 10 ms, inactivity
 * 20 ms, transition 4 ms in all): message A, sent at 30 ms while both sleep, starts at the
 * next on-duration (100 ms) and waited 70 ms for it; message B, sent at 120 ms while both
 * are kept awake by their inactivity timers, starts at once. Both access policies.
 */
class D2dDrxWaitEnergyTestCase : public D2dSleepEnergyTestCase
{
  public:
    /** \param policy the channel access policy */
    explicit D2dDrxWaitEnergyTestCase(D2dChannelAccess::Policy policy)
        : D2dSleepEnergyTestCase("DRX: wait for the on-duration, energy by state, ", policy)
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit destroy;

        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        SetHandWorkedRadios(helper, m_policy);
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
        const std::vector<ExpectedEnergy> expected = {
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
        CheckEnergy(table, expected);
        // Each transition costs its sleep draw plus trJ / 2 (one ramp): 6 ramps, 3 sleeps.
        const double transition0 = table[{0, "radio_transition"}];
        NS_TEST_EXPECT_MSG_EQ_TOL(transition0,
                                  6 * (sleepW * trS / 2 + trJ / 2),
                                  1e-9 * trJ,
                                  "six ramps of 2 ms, each sleep x 2 ms + half the transition "
                                  "energy");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Sleep a device asks for (D2dTransport::IdleUntil), without any DRX cycle: device 1
 * says at 50 ms that it expects nothing until 200 ms, and at 250 ms nothing until 400 ms.
 * Device 0's message, sent at 100 ms, waits until device 1 is awake at 200 ms (100 ms of
 * sleep_wait); device 1's own message at 220 ms starts at once; its message at 300 ms, sent
 * while it sleeps, wakes it (the 2 ms ramp-up: 2 ms of sleep_wait) and it sleeps again once
 * sent, until 400 ms. A request at 450 ms for 3 ms, shorter than the 4 ms of ramps, is not
 * slept. Both access policies.
 */
class D2dIdleUntilTestCase : public D2dSleepEnergyTestCase
{
  public:
    /** \param policy the channel access policy */
    explicit D2dIdleUntilTestCase(D2dChannelAccess::Policy policy)
        : D2dSleepEnergyTestCase("Sleep asked by the device (IdleUntil), no DRX cycle, ", policy)
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit destroy;
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        SetHandWorkedRadios(helper, m_policy);
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        Ptr<D2dRadio> r0 = channel->GetRadio(0);
        Ptr<D2dRadio> r1 = channel->GetRadio(1);
        NS_TEST_ASSERT_MSG_EQ(bool(channel->GetDrx()), false, "no DRX before a request");

        EnergyTable table;
        std::vector<D2dDeliveryRecord> recs0;
        std::vector<D2dDeliveryRecord> recs1;
        for (uint32_t i = 0; i < 2; ++i)
        {
            channel->GetRadio(i)->GetEnergyModel()->TraceConnectWithoutContext(
                "EnergyEvent",
                MakeBoundCallback(&AddTestEnergy, &table));
        }
        r0->TraceConnectWithoutContext("Delivery", MakeBoundCallback(&RecordTestDelivery, &recs0));
        r1->TraceConnectWithoutContext("Delivery", MakeBoundCallback(&RecordTestDelivery, &recs1));
        std::vector<bool> awake;
        auto note = [&]() {
            awake.push_back(r1->IsAwake());
        };
        Simulator::Schedule(MilliSeconds(50), &D2dTransport::IdleUntil, r1, MilliSeconds(200));
        Simulator::Schedule(MilliSeconds(100), note); // asleep
        Simulator::Schedule(MilliSeconds(100), &SendTestMessage, r0, bytes, 1u, nullptr);
        Simulator::Schedule(MilliSeconds(220), &SendTestMessage, r1, bytes, 0u, nullptr);
        Simulator::Schedule(MilliSeconds(250), &D2dTransport::IdleUntil, r1, MilliSeconds(400));
        Simulator::Schedule(MilliSeconds(300), &SendTestMessage, r1, bytes, 0u, nullptr);
        Simulator::Schedule(MilliSeconds(350), note); // asleep again
        Simulator::Schedule(MilliSeconds(450), &D2dTransport::IdleUntil, r1, MilliSeconds(453));
        Simulator::Schedule(MilliSeconds(451), note); // the request was too short
        Simulator::Stop(MilliSeconds(500));
        Simulator::Run();
        for (uint32_t i = 0; i < 2; ++i)
        {
            channel->GetRadio(i)->GetEnergyModel()->Flush();
        }

        NS_TEST_ASSERT_MSG_EQ(bool(channel->GetDrx()), true, "a DRX without cycle was made");
        NS_TEST_EXPECT_MSG_EQ(channel->GetDrx()->HasCycle(), false, "it has no cycle");
        NS_TEST_ASSERT_MSG_EQ(awake.size(), 3u, "three samples");
        NS_TEST_EXPECT_MSG_EQ(awake[0], false, "asleep at 100 ms");
        NS_TEST_EXPECT_MSG_EQ(awake[1], false, "asleep again at 350 ms, once it had sent");
        NS_TEST_EXPECT_MSG_EQ(awake[2], true, "awake at 451 ms: 3 ms do not hold the ramps");
        NS_TEST_ASSERT_MSG_EQ(recs0.size(), 1u, "device 0 sent one message");
        NS_TEST_ASSERT_MSG_EQ(recs1.size(), 2u, "device 1 sent two messages");
        // Device 0's message waits for device 1: awake at 200 ms.
        NS_TEST_EXPECT_MSG_EQ(recs0[0].delivered, true, "delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs0[0].startTime.GetSeconds(), 200 * ms, 1e-12, "start");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs0[0].sleepWait.GetSeconds(), 100 * ms, 1e-12, "wait");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs0[0].recvTime.GetSeconds(), 204 * ms + d, 1e-9, "recv");
        // Device 1 awake at 220 ms: at once.
        NS_TEST_EXPECT_MSG_EQ_TOL(recs1[0].startTime.GetSeconds(), 220 * ms, 1e-12, "at once");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs1[0].sleepWait.GetSeconds(), 0.0, 1e-15, "no wait");
        // Device 1 asleep at 300 ms: woken, on the air after its 2 ms ramp-up.
        NS_TEST_EXPECT_MSG_EQ(recs1[1].delivered, true, "delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs1[1].startTime.GetSeconds(), 302 * ms, 1e-12, "woken");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs1[1].sleepWait.GetSeconds(), 2 * ms, 1e-12, "ramp-up");

        // By hand, over [0, 500 ms). Device 1: idle [0,50) [200,200+d) [204+d,220) [224,250)
        // [400,500) = 192 ms; rx [200+d,204+d); tx [220,224) [302,306); ramps [50,52)
        // [198,200) [250,252) [300,302) [306,308) [398,400) = 12 ms; asleep [52,198) [252,300)
        // [308,398) = 284 ms. Device 0 never sleeps: tx [200,204), rx [220+d,224+d) and
        // [302+d,306+d), idle the other 488 ms.
        // Scheduled access holds the sender until its message's outcome, d after the
        // transmission: device 1 idles [306,306+d) before its ramp-down.
        const double held = m_policy == D2dChannelAccess::SCHEDULED ? d : 0.0;
        const std::vector<ExpectedEnergy> expected = {
            {0, "radio_idle", idleW * 488 * ms},
            {0, "radio_tx", txW * 4 * ms},
            {0, "radio_rx", rxW * 8 * ms},
            {0, "radio_transition", 0.0},
            {0, "radio_sleep", 0.0},
            {1, "radio_idle", idleW * (192 * ms + held)},
            {1, "radio_tx", txW * 8 * ms},
            {1, "radio_rx", rxW * 4 * ms},
            {1, "radio_transition", trW * 12 * ms},
            {1, "radio_sleep", sleepW * (284 * ms - held)},
        };
        CheckEnergy(table, expected);
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief IdleUntil under a DRX cycle (100 ms, on-duration 10 ms, no inactivity timer, no
 * ramps): device 1, asked at 120 ms to sleep until 250 ms, skips the on-duration at 200 ms
 * and sleeps on to the one at 300 ms; device 0's message of 150 ms starts there (150 ms of
 * sleep_wait), not at 200 ms.
 */
class D2dIdleUntilDrxTestCase : public TestCase
{
  public:
    D2dIdleUntilDrxTestCase()
        : TestCase("IdleUntil under a DRX cycle: on to the first on-duration after the request")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit destroy;
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        SetHandWorkedRadios(helper, D2dChannelAccess::SCHEDULED);
        helper.SetRadioEnergyAttribute("SleepTransitionTime", TimeValue(Seconds(0)));
        helper.SetRadioEnergyAttribute("SleepTransitionEnergyJ", DoubleValue(0.0));
        helper.SetDrxAttribute("Cycle", TimeValue(MilliSeconds(100)));
        helper.SetDrxAttribute("OnDuration", TimeValue(MilliSeconds(10)));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<D2dDeliveryRecord> recs;
        channel->GetRadio(0)->TraceConnectWithoutContext(
            "Delivery",
            MakeBoundCallback(&RecordTestDelivery, &recs));
        Simulator::Schedule(MilliSeconds(120),
                            &D2dTransport::IdleUntil,
                            channel->GetRadio(1),
                            MilliSeconds(250));
        Simulator::Schedule(MilliSeconds(150),
                            &SendTestMessage,
                            channel->GetRadio(0),
                            bytes,
                            1u,
                            nullptr);
        Simulator::Stop(MilliSeconds(400));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 1u, "one record");
        NS_TEST_EXPECT_MSG_EQ(recs[0].delivered, true, "delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].startTime.GetSeconds(), 300 * ms, 1e-12, "at 300 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].sleepWait.GetSeconds(), 150 * ms, 1e-12, "waited");
    }
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
        AddTestCase(new D2dIdleUntilTestCase(D2dChannelAccess::IMMEDIATE));
        AddTestCase(new D2dIdleUntilTestCase(D2dChannelAccess::SCHEDULED));
        AddTestCase(new D2dIdleUntilDrxTestCase);
    }
};

/** The suite's instance. */
static D2dDrxTestSuite g_d2dDrxTestSuite;
