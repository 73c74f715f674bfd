/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-idle-energy": radios that idle.
 *
 * - An idle network (devices, a server, no traffic) built the way the scenarios build it
 *   (D2dNetworkOptions::Build) costs, on each backend, per radio (D2D and D2S) and device,
 *   P_idle x T within 1 %, where P_idle = IdleCurrentA x supply voltage as ns-3 defines it:
 *   the default of ns-3's WifiRadioEnergyModel attribute IdleCurrentA times the device's
 *   energy source's supply voltage, both read from ns-3 here, not from the model under test.
 * - On the channel backend, transmit, receive and idle partition the run: a radio's idle
 *   energy is P_idle x (T - its busy time), by hand below.
 * - A radio switched off draws nothing any more, idle included.
 * - A device away (D2dTransport::Leave, Rejoin) draws nothing while away and idles again
 *   once back; what it was receiving when it left fails (receiver_off) even if the
 *   transmission ends after it is back; a message for it while away fails; one after it is
 *   back arrives.
 */

#include "d2d-test-simulation.h"

#include "ns3/config.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/energy-source.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wifi-radio-energy-model.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/** Energy per (node, component), J. */
using EnergyTable = TestEnergyTable;

/**
 * \param table energy per (node, component)
 * \param node device index
 * \param component energy component
 * \return its energy, J (0 if it has none)
 */
double
EnergyOf(const EnergyTable& table, uint32_t node, const std::string& component)
{
    const auto it = table.find({node, component});
    return it == table.end() ? 0.0 : it->second;
}

/** \return the default of ns-3's WifiRadioEnergyModel attribute IdleCurrentA, A */
double
Ns3IdleCurrentA()
{
    TypeId::AttributeInformation info;
    const bool found =
        WifiRadioEnergyModel::GetTypeId().LookupAttributeByName("IdleCurrentA", &info);
    NS_ABORT_MSG_IF(!found, "WifiRadioEnergyModel has no IdleCurrentA");
    return DynamicCast<const DoubleValue>(info.initialValue)->Get();
}

/** \return the supply voltage of the node's (first) energy source, V */
double
SupplyVoltageV(Ptr<Node> node)
{
    return node->GetObject<EnergySourceContainer>()->Get(0)->GetSupplyVoltage();
}

/**
 * \param nodes devices made by D2dHelper::Install
 * \param table where every energy event of their radio and compute models is added
 */
void
CollectEnergy(const NodeContainer& nodes, EnergyTable* table)
{
    for (const auto& model : D2dHelper::GetEnergyModels(nodes))
    {
        model->TraceConnectWithoutContext("EnergyEvent", MakeBoundCallback(&AddTestEnergy, table));
    }
}

/** \param nodes devices made by D2dHelper::Install: report their open energy periods */
void
FlushEnergy(const NodeContainer& nodes)
{
    for (const auto& model : D2dHelper::GetEnergyModels(nodes))
    {
        model->Flush();
    }
}

void
DoTurnOff(Ptr<D2dRadio> radio)
{
    radio->TurnOff();
}

} // namespace

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief An idle network on both backends: each radio's idle energy within 1 % of
 * IdleCurrentA x V x T, and the two backends within 1 % of each other.
 */
class D2dIdleBackendsTestCase : public TestCase
{
  public:
    D2dIdleBackendsTestCase()
        : TestCase("idle network: channel and Wi-Fi charge IdleCurrentA x V x T per radio")
    {
    }

  private:
    static constexpr uint32_t N_DEVICES = 4;  //!< devices
    static constexpr double RUN_S = 20.0;     //!< simulated time T, s
    static constexpr double TOLERANCE = 0.01; //!< the acceptance: 1 % of the formula

    /**
     * \brief Build the network as a scenario does (with a server: D2D and D2S radios), run
     * it without traffic for RUN_S and collect its energy.
     * \param backend "channel" or "wifi"
     * \param voltsV out: each device's supply voltage, V
     * \return energy per (node, component)
     */
    EnergyTable RunIdle(const std::string& backend, std::vector<double>* voltsV)
    {
        DestroyAtExit guard{true};
        const std::string dir = TestTempDir("idle-" + backend);
        EnergyTable table;
        {
            D2dScenarioSupport support("idle-energy-test", true);
            D2dScenarioFlags flags(support);
            D2dNetworkOptions net(dir);
            net.messaging.backend = backend;
            net.links.nDevices = N_DEVICES;
            net.placement.areaSideM = 50.0;
            net.AddFlags(flags);
            std::vector<std::string> args{"idle-energy-test", "--outDir=" + dir};
            std::vector<char*> argv;
            for (auto& a : args)
            {
                argv.push_back(a.data());
            }
            flags.Parse(static_cast<int>(argv.size()), argv.data());
            net.Validate(support, N_DEVICES);
            D2dTraceHelper traces(dir);
            D2dNetwork network = net.Build(traces, true);
            network.ConnectEnergyEvents(MakeBoundCallback(&AddTestEnergy, &table));
            for (uint32_t i = 0; i < N_DEVICES; ++i)
            {
                voltsV->push_back(SupplyVoltageV(network.devices.Get(i)));
            }
            Simulator::Stop(Seconds(RUN_S));
            Simulator::Run();
            traces.CloseEnergyPeriods();
        }
        std::filesystem::remove_all(dir);
        return table;
    }

    void DoRun() override
    {
        const double idleA = Ns3IdleCurrentA();
        NS_TEST_ASSERT_MSG_GT(idleA, 0.0, "ns-3's WifiRadioEnergyModel idles at > 0 A");
        std::map<std::string, EnergyTable> tables;
        std::map<std::string, std::vector<double>> volts;
        for (const std::string backend : {"channel", "wifi"})
        {
            tables[backend] = RunIdle(backend, &volts[backend]);
        }
        for (const auto& [backend, table] : tables)
        {
            for (const auto& [key, joules] : table)
            {
                const std::string& component = key.second;
                NS_TEST_EXPECT_MSG_EQ((component == "radio_idle" || component == "d2s_idle" ||
                                       component == "compute"),
                                      true,
                                      backend << ": an idle network spends " << joules << " J as "
                                              << component << " (node " << key.first << ")");
            }
            for (uint32_t i = 0; i < N_DEVICES; ++i)
            {
                // P_idle x T, P_idle = IdleCurrentA x V as WifiRadioEnergyModel draws it.
                const double expectedJ = idleA * volts[backend][i] * RUN_S;
                for (const std::string component : {"radio_idle", "d2s_idle"})
                {
                    const double gotJ = EnergyOf(table, i, component);
                    NS_TEST_EXPECT_MSG_EQ_TOL(gotJ,
                                              expectedJ,
                                              TOLERANCE * expectedJ,
                                              backend << ", device " << i << ", " << component
                                                      << ": idle energy within 1 % of "
                                                         "IdleCurrentA x V x T = "
                                                      << idleA << " A x " << volts[backend][i]
                                                      << " V x " << RUN_S << " s");
                }
            }
        }
        // Both backends, the same idle network: the same idle energy per radio.
        for (uint32_t i = 0; i < N_DEVICES; ++i)
        {
            for (const std::string component : {"radio_idle", "d2s_idle"})
            {
                const double channelJ = EnergyOf(tables["channel"], i, component);
                const double wifiJ = EnergyOf(tables["wifi"], i, component);
                NS_TEST_EXPECT_MSG_EQ_TOL(channelJ,
                                          wifiJ,
                                          TOLERANCE * wifiJ,
                                          "device " << i << ", " << component
                                                    << ": channel and Wi-Fi idle energy "
                                                       "within 1 % of each other");
            }
        }
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief On the channel radio, transmit, receive and idle partition time: idle energy =
 * P_idle x (T - busy), with the default IdlePowerW; the D2S radio idles on its own.
 *
 * By hand: rate r x B = 2 x 1 MHz = 2 Mbit/s; 3000 bytes (two 1500-byte fragments, no
 * header) = 24000 bit take a = 0.012 s, sent by device 0 to device 1 at 1 s (noise 0:
 * P_D = 0), run T = 3 s. P_idle = 0.273 A x 3 V = 0.819 W (ns-3's IdleCurrentA, the
 * source's default voltage). Both D2D radios are busy 0.012 s: idle 0.819 x 2.988 =
 * 2.447172 J each; the D2S radios carry nothing: 0.819 x 3 = 2.457 J each. The sender's
 * first idle period ends at 1 s: 0.819 J.
 */
class D2dIdlePartitionTestCase : public TestCase
{
  public:
    D2dIdlePartitionTestCase()
        : TestCase("channel radio: tx, rx and idle partition time (idle = P_idle x (T - busy))")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard{true};
        const double tSend = 1.0;
        const double tEnd = 3.0;
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(2.0));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(1e6));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetInitialEnergyJ(1000.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        auto server = CreateObject<Node>();
        Ptr<D2dChannel> d2s = helper.InstallServer(server, nodes, 3.0);

        std::vector<std::tuple<double, uint32_t, std::string, double>> rows;
        EnergyTable table;
        CollectEnergy(nodes, &table);
        for (const auto& model : D2dHelper::GetEnergyModels(nodes))
        {
            model->TraceConnectWithoutContext(
                "EnergyEvent",
                Callback<void, Time, uint32_t, const std::string&, double, double, Time, double>(
                    [&rows](Time t,
                            uint32_t n,
                            const std::string& c,
                            double e,
                            double,
                            Time,
                            double) { rows.emplace_back(t.GetSeconds(), n, c, e); }));
        }
        Simulator::Schedule(Seconds(tSend),
                            &SendTestMessage,
                            channel->GetRadio(0),
                            3000,
                            1u,
                            nullptr);
        Simulator::Stop(Seconds(tEnd));
        Simulator::Run();
        FlushEnergy(nodes); // the last periods, up to the stop

        const double airtime = 0.012;
        const double idleW = 0.819;
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 0, "radio_idle"),
                                  2.447172,
                                  1e-9,
                                  "sender's D2D radio idles 0.819 W x (3 - 0.012) s");
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 1, "radio_idle"),
                                  2.447172,
                                  1e-9,
                                  "receiver's D2D radio idles 0.819 W x (3 - 0.012) s");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, i, "d2s_idle"),
                                      2.457,
                                      1e-9,
                                      "device " << i << "'s D2S radio idles 0.819 W x 3 s");
            NS_TEST_EXPECT_MSG_EQ(EnergyOf(table, i, "d2s_tx") + EnergyOf(table, i, "d2s_rx"),
                                  0.0,
                                  "no D2S traffic");
        }
        // The partition: idle time + busy time = T for each D2D radio.
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 0, "radio_idle") / idleW + airtime,
                                  tEnd,
                                  1e-9,
                                  "sender: idle + transmit time = T");
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 1, "radio_idle") / idleW + airtime,
                                  tEnd,
                                  1e-9,
                                  "receiver: idle + receive time = T");
        NS_TEST_EXPECT_MSG_GT(EnergyOf(table, 0, "radio_tx"), 0.0, "the sender transmitted");
        NS_TEST_EXPECT_MSG_GT(EnergyOf(table, 1, "radio_rx"), 0.0, "the receiver received");
        // No idle draw overlaps the transmission: the first idle row ends when it starts.
        bool first = true;
        for (const auto& [t, n, c, e] : rows)
        {
            if (n == 0 && c == "radio_idle" && first)
            {
                first = false;
                NS_TEST_EXPECT_MSG_EQ_TOL(t, tSend, 1e-12, "first idle period ends at the send");
                NS_TEST_EXPECT_MSG_EQ_TOL(e, idleW * tSend, 1e-9, "0.819 W x 1 s");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(first, false, "the sender reported idle energy");
        NS_TEST_EXPECT_MSG_EQ(d2s->GetNRadios(), 3u, "two devices and the server on D2S");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief A radio switched off draws nothing, idle included: device 0's D2D radio off at
 * 1 s idles 0.819 W x 1 s = 0.819 J over a 3 s run; device 1's idles 2.457 J.
 */
class D2dIdleOffTestCase : public TestCase
{
  public:
    D2dIdleOffTestCase()
        : TestCase("a radio switched off stops idling")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard{true};
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetInitialEnergyJ(1000.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        EnergyTable table;
        CollectEnergy(nodes, &table);
        Simulator::Schedule(Seconds(1.0), &DoTurnOff, channel->GetRadio(0));
        Simulator::Stop(Seconds(3.0));
        Simulator::Run();
        FlushEnergy(nodes); // the last periods, up to the stop
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 0, "radio_idle"),
                                  0.819,
                                  1e-9,
                                  "idle until off at 1 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 1, "radio_idle"),
                                  2.457,
                                  1e-9,
                                  "idle the whole 3 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetRadio(0)->GetEnergyModel()->GetPowerW(),
                                  0.0,
                                  1e-15,
                                  "an off radio draws 0 W");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief A device that goes away and comes back, on the channel (Immediate access, 20 Mbit/s
 * links, devices at 0, 10 and 20 m): device 0 leaves at 1 s and is back at 2 s. Message A
 * (1 -> 0, 5 MB, 0.5 s to about 2.5 s) is cut by the leave: receiver_off, though it ends
 * when device 0 is back; B (2 -> 0 at 1.5 s) finds it away: receiver_off; C (2 -> 0 at
 * 2.7 s) arrives. Device 0's radio idles 0.819 W over the run less its away second, its
 * reception of A (from A's start + 10 m / c to 1 s) and of C (C's airtime), within 1e-9 J,
 * and draws 0 W at 1.5 s and 0.819 W at 2.2 s (A still on the air, no longer received).
 */
class D2dIdleAwayTestCase : public TestCase
{
  public:
    D2dIdleAwayTestCase()
        : TestCase("a device away draws nothing, loses what it was receiving, and is back")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard{true};
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0, 20.0});
        D2dHelper helper;
        helper.SetInitialEnergyJ(1000.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        EnergyTable table;
        CollectEnergy(nodes, &table);
        std::map<uint64_t, D2dDeliveryRecord> rows; // by message, receiver 0's rows
        std::vector<std::pair<double, bool>> presence;
        for (uint32_t i = 0; i < 3; ++i)
        {
            channel->GetRadio(i)->TraceConnectWithoutContext(
                "Delivery",
                Callback<void, const D2dDeliveryRecord&>([&rows](const D2dDeliveryRecord& r) {
                    if (r.dst == 0)
                    {
                        rows[r.msgId] = r;
                    }
                }));
        }
        Ptr<D2dRadio> away = channel->GetRadio(0);
        away->TraceConnectWithoutContext(
            "Presence",
            Callback<void, uint32_t, bool>([&presence](uint32_t, bool present) {
                presence.emplace_back(Simulator::Now().GetSeconds(), present);
            }));
        std::vector<uint64_t> ids;
        Simulator::Schedule(Seconds(0.5), &SendTestMessage, channel->GetRadio(1), 5000000, 0, &ids);
        Simulator::Schedule(Seconds(1.0), [away]() { away->Leave(); });
        Simulator::Schedule(Seconds(1.5), &SendTestMessage, channel->GetRadio(2), 1000, 0, &ids);
        Simulator::Schedule(Seconds(2.0), [away]() { away->Rejoin(); });
        Simulator::Schedule(Seconds(2.7), &SendTestMessage, channel->GetRadio(2), 1000, 0, &ids);
        double wAway = -1;
        double wBack = -1;
        Simulator::Schedule(Seconds(1.5),
                            [&wAway, away]() { wAway = away->GetEnergyModel()->GetPowerW(); });
        Simulator::Schedule(Seconds(2.2),
                            [&wBack, away]() { wBack = away->GetEnergyModel()->GetPowerW(); });
        Simulator::Stop(Seconds(3.0));
        Simulator::Run();
        FlushEnergy(nodes); // the last periods, up to the stop
        NS_TEST_ASSERT_MSG_EQ(ids.size(), 3u, "three messages sent");
        const D2dDeliveryRecord& a = rows[ids[0]];
        const D2dDeliveryRecord& b = rows[ids[1]];
        const D2dDeliveryRecord& c = rows[ids[2]];
        NS_TEST_EXPECT_MSG_EQ(a.reason, "receiver_off", "A: cut by the leave");
        NS_TEST_EXPECT_MSG_GT(a.startTime.GetSeconds() + a.airtime.GetSeconds(),
                              2.0,
                              "A ends after device 0 is back");
        NS_TEST_EXPECT_MSG_EQ(b.reason, "receiver_off", "B: device 0 away");
        NS_TEST_EXPECT_MSG_EQ(c.delivered, true, "C: device 0 back");
        const double prop = 10.0 / 299792458.0;
        const double idleW = away->GetEnergyModel()->GetIdlePowerW();
        const double rxA = 1.0 - (a.startTime.GetSeconds() + prop);
        const double rxC = c.airtime.GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(EnergyOf(table, 0, "radio_idle"),
                                  idleW * (3.0 - 1.0 - rxA - rxC),
                                  1e-9,
                                  "idle: the run less the away second and the receptions");
        NS_TEST_EXPECT_MSG_EQ_TOL(wAway, 0.0, 1e-15, "away: 0 W");
        NS_TEST_EXPECT_MSG_EQ_TOL(wBack, idleW, 1e-12, "back: idle");
        NS_TEST_ASSERT_MSG_EQ(presence.size(), 2u, "Presence: left, back");
        NS_TEST_EXPECT_MSG_EQ((presence[0] == std::pair<double, bool>{1.0, false}), true, "left");
        NS_TEST_EXPECT_MSG_EQ((presence[1] == std::pair<double, bool>{2.0, true}), true, "back");
        NS_TEST_EXPECT_MSG_EQ(away->IsOff(), false, "on at the end");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Radios that idle, on both backends.
 */
class D2dIdleEnergyTestSuite : public TestSuite
{
  public:
    D2dIdleEnergyTestSuite()
        : TestSuite("d2d-idle-energy")
    {
        // First: D2dNetworkOptions::Build() fixes ns-3's time resolution
        // (D2dHelper::FixTimeResolution), which ns-3 allows only before the process's first
        // Simulator::Run(); ctest and test.py run each suite in a process of its own.
        AddTestCase(new D2dIdleBackendsTestCase);
        AddTestCase(new D2dIdlePartitionTestCase);
        AddTestCase(new D2dIdleOffTestCase);
        AddTestCase(new D2dIdleAwayTestCase);
    }
};

/** The suite's instance. */
static D2dIdleEnergyTestSuite g_d2dIdleEnergyTestSuite;
