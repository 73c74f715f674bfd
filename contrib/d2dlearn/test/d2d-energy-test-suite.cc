/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-energy": the energy of radio and compute events against hand
 * formulas, the bookkeeping of remaining energy, and battery depletion.
 *
 * Every expectation is computed in this file from the model's documented formula and
 * the attribute values the test sets; nothing is taken from the code under test.
 */

#include "d2d-test-simulation.h"

#include "ns3/basic-energy-source.h"
#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/energy-source.h"
#if D2DLEARN_HAVE_GENERIC_BATTERY
#include "ns3/generic-battery-model.h"
#endif
#if D2DLEARN_HAVE_LIION_SOURCE
#include "ns3/li-ion-energy-source.h"
#endif
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simple-device-energy-model.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <stdlib.h> // mkdtemp
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** One EnergyEvent. */
struct EnergyEv
{
    double t;
    uint32_t node;
    std::string component;
    double energyJ;
    double remainingJ;
    double startS; //!< start of the period, s
    double powerW; //!< the component's draw during the period, W
};

void
RecordEnergy(std::vector<EnergyEv>* out,
             Time t,
             uint32_t node,
             const std::string& component,
             double energyJ,
             double remainingJ,
             Time start,
             double powerW)
{
    out->push_back(
        EnergyEv{t.GetSeconds(), node, component, energyJ, remainingJ, start.GetSeconds(), powerW});
}

void
RecordTime(std::vector<double>* out)
{
    out->push_back(Simulator::Now().GetSeconds());
}

void
RecordJob(std::vector<std::pair<int, double>>* out, int tag)
{
    out->emplace_back(tag, Simulator::Now().GetSeconds());
}

Ptr<EnergySource>
SourceOf(Ptr<Node> node)
{
    return node->GetObject<EnergySourceContainer>()->Get(0);
}

Ptr<D2dRadioEnergyModel>
RadioEnergyOf(Ptr<D2dChannel> channel, uint32_t i)
{
    return channel->GetRadio(i)->GetEnergyModel();
}

/** Connects EnergyEvent of the radio and compute models of every device. */
void
ConnectEnergy(Ptr<D2dChannel> channel, NodeContainer nodes, std::vector<EnergyEv>* out)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        RadioEnergyOf(channel, i)
            ->TraceConnectWithoutContext("EnergyEvent", MakeBoundCallback(&RecordEnergy, out));
        D2dHelper::GetComputeModel(nodes.Get(i))
            ->TraceConnectWithoutContext("EnergyEvent", MakeBoundCallback(&RecordEnergy, out));
    }
}

void
FlushAll(Ptr<D2dChannel> channel, NodeContainer nodes)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        RadioEnergyOf(channel, i)->Flush();
        D2dHelper::GetComputeModel(nodes.Get(i))->Flush();
    }
}

std::vector<EnergyEv>
Select(const std::vector<EnergyEv>& evs, uint32_t node, const std::string& component = "")
{
    std::vector<EnergyEv> out;
    for (const auto& e : evs)
    {
        if (e.node == node && (component.empty() || e.component == component))
        {
            out.push_back(e);
        }
    }
    return out;
}

double
SumEnergy(const std::vector<EnergyEv>& evs)
{
    double s = 0.0;
    for (const auto& e : evs)
    {
        s += e.energyJ;
    }
    return s;
}

void
DoStartJob(Ptr<D2dComputeModel> compute,
           double flops,
           Callback<void> done,
           std::vector<uint64_t>* ids)
{
    ids->push_back(compute->StartJob(flops, done));
}

void
SetFlag(bool* flag)
{
    *flag = true;
}

void
CheckBusy(Ptr<D2dComputeModel> compute, std::vector<std::pair<bool, std::size_t>>* out)
{
    out->emplace_back(compute->IsBusy(), compute->GetNQueued());
}

} // namespace

// ---------------------------------------------------------------------------------------

/**
 * Power model: tx energy = (P_tx / PaEfficiency + TxCircuitPowerW) x airtime, rx energy
 * = RxPowerW x airtime, idle energy = IdlePowerW x idle time, and remaining_j of every
 * event = initial - sum of the node's energies reported so far.
 */
class D2dPowerModelEnergyTestCase : public TestCase
{
  public:
    D2dPowerModelEnergyTestCase()
        : TestCase("Power model: tx, rx and idle energy per event and remaining energy")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;          // Simulator::Destroy() even if an ASSERT returns early
        const double r = 1.5;         // bit/s/Hz
        const double bw = 1e6;        // Hz
        const double txDbm = 17.0;    // dBm
        const double pa = 0.4;        // PA efficiency
        const double circuitW = 0.12; // W
        const double rxW = 0.07;      // W
        const double idleW = 0.05;    // W
        const double e0 = 100.0;      // J
        const uint64_t bytes = 3000;  // two 1500-byte fragments, no header
        const double tSend = 1.0;     // s
        const double tEnd = 3.0;      // s

        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(r));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(bw));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0)); // P_D = 0
        helper.SetRadioAttribute("TxPowerDbm", DoubleValue(txDbm));
        helper.SetRadioEnergyAttribute("Model", StringValue("Power"));
        helper.SetRadioEnergyAttribute("PaEfficiency", DoubleValue(pa));
        helper.SetRadioEnergyAttribute("TxCircuitPowerW", DoubleValue(circuitW));
        helper.SetRadioEnergyAttribute("RxPowerW", DoubleValue(rxW));
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(idleW));
        helper.SetInitialEnergyJ(e0);
        Ptr<D2dChannel> channel = helper.Install(nodes);

        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        std::vector<D2dDeliveryRecord> recs;
        channel->GetRadio(0)->TraceConnectWithoutContext(
            "Delivery",
            MakeBoundCallback(&RecordTestDelivery, &recs));
        std::vector<uint64_t> ids;
        Simulator::Schedule(Seconds(tSend),
                            &SendTestMessage,
                            channel->GetRadio(0),
                            bytes,
                            1u,
                            &ids);
        Simulator::Stop(Seconds(tEnd));
        Simulator::Run();
        FlushAll(channel, nodes);

        // Hand calculation.
        const double airtime = bytes * 8.0 / (r * bw); // 0.016 s
        const double pTx = std::pow(10.0, (txDbm - 30.0) / 10.0);
        const double eTx = (pTx / pa + circuitW) * airtime;
        const double eRx = rxW * airtime;

        NS_TEST_ASSERT_MSG_EQ(recs.size(), 1u, "one delivery record");
        NS_TEST_EXPECT_MSG_EQ(recs[0].delivered, true, "message delivered (noise 0)");

        auto tx0 = Select(evs, 0, "radio_tx");
        NS_TEST_ASSERT_MSG_EQ(tx0.size(), 1u, "one radio_tx event at the sender");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx0[0].energyJ, eTx, 1e-9 * eTx, "radio_tx energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx0[0].t, tSend + airtime, 1e-9, "radio_tx reported at tx end");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx0[0].startS, tSend, 1e-12, "radio_tx period starts at send");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx0[0].powerW,
                                  pTx / pa + circuitW,
                                  1e-12,
                                  "radio_tx power: TxPower / PaEfficiency + TxCircuitPowerW");
        NS_TEST_EXPECT_MSG_EQ(Select(evs, 0, "radio_rx").size(), 0u, "sender has no radio_rx");

        auto rx1 = Select(evs, 1, "radio_rx");
        NS_TEST_ASSERT_MSG_EQ(rx1.size(), 1u, "one radio_rx event at the receiver");
        NS_TEST_EXPECT_MSG_EQ_TOL(rx1[0].energyJ, eRx, 1e-9 * eRx, "radio_rx energy");
        NS_TEST_EXPECT_MSG_EQ(Select(evs, 1, "radio_tx").size(), 0u, "receiver has no radio_tx");

        // Idle: the sender idles during [0, 1 s] before it transmits.
        auto idle0 = Select(evs, 0, "radio_idle");
        NS_TEST_ASSERT_MSG_GT(idle0.size(), 0u, "sender reports idle energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle0[0].t, tSend, 1e-12, "first idle period ends at send");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle0[0].startS, 0.0, 1e-12, "first idle period starts at 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle0[0].powerW, idleW, 1e-15, "idle power: IdlePowerW");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle0[0].energyJ,
                                  idleW * tSend,
                                  1e-9 * idleW * tSend,
                                  "idle energy of the quiet period [0, 1 s]");
        const double idleTotal = idleW * (tEnd - airtime);
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(idle0),
                                  idleTotal,
                                  1e-9 * idleTotal,
                                  "sender idle energy = IdlePowerW x (run - airtime)");
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(Select(evs, 1, "radio_idle")),
                                  idleTotal,
                                  1e-9 * idleTotal,
                                  "receiver idle energy = IdlePowerW x (run - airtime)");
        NS_TEST_EXPECT_MSG_EQ(Select(evs, 0, "compute").size() + Select(evs, 1, "compute").size(),
                              0u,
                              "compute draws nothing (IdlePowerW 0, no job)");

        // remaining_j = initial - sum of the node's energies so far (only the radio draws,
        // so every period of the node is closed at each event).
        for (uint32_t n = 0; n < 2; ++n)
        {
            double sum = 0.0;
            for (const auto& e : Select(evs, n))
            {
                sum += e.energyJ;
                NS_TEST_EXPECT_MSG_EQ_TOL(e.remainingJ,
                                          e0 - sum,
                                          1e-9 * e0,
                                          "node " << n << " remaining_j at t=" << e.t);
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(SourceOf(nodes.Get(n))->GetRemainingEnergy(),
                                      e0 - sum,
                                      1e-9 * e0,
                                      "node " << n << " source remaining energy");
        }
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------

/** FirstOrder model: E_tx = E_elec k + eps_amp k d^2, E_rx = E_elec k. */
class D2dFirstOrderEnergyTestCase : public TestCase
{
  public:
    D2dFirstOrderEnergyTestCase()
        : TestCase("FirstOrder model: E_tx = E_elec k + eps_amp k d^2, E_rx = E_elec k")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;         // Simulator::Destroy() even if an ASSERT returns early
        const double eElec = 50e-9;  // J/bit (default ElecJPerBit)
        const double eAmp = 100e-12; // J/bit/m^2 (default AmpJPerBitM2)
        NodeContainer nodes = MakeTestNodesAtX({0.0, 30.0});
        D2dHelper helper;
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetRadioEnergyAttribute("Model", StringValue("FirstOrder"));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);

        // 1000 bytes over 30 m; then the receiver moves to 60 m and gets 3000 bytes.
        std::vector<uint64_t> ids;
        Simulator::Schedule(Seconds(0.5), &SendTestMessage, channel->GetRadio(0), 1000, 1u, &ids);
        Simulator::Schedule(Seconds(1.0), &MoveTestNode, nodes.Get(1), Vector(0.0, 60.0, 0.0));
        Simulator::Schedule(Seconds(1.5), &SendTestMessage, channel->GetRadio(0), 3000, 1u, &ids);
        Simulator::Stop(Seconds(2.0));
        Simulator::Run();

        const double k1 = 1000 * 8.0;
        const double k2 = 3000 * 8.0;
        const double tx1 = eElec * k1 + eAmp * k1 * 30.0 * 30.0; // 1.12e-3 J
        const double tx2 = eElec * k2 + eAmp * k2 * 60.0 * 60.0; // 9.84e-3 J
        const double rx1 = eElec * k1;
        const double rx2 = eElec * k2;

        auto tx = Select(evs, 0, "radio_tx");
        NS_TEST_ASSERT_MSG_EQ(tx.size(), 2u, "two radio_tx events");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[0].energyJ, tx1, 1e-9 * tx1, "E_tx, k = 8000 bit, d = 30 m");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[1].energyJ, tx2, 1e-9 * tx2, "E_tx, k = 24000 bit, d = 60 m");
        auto rx = Select(evs, 1, "radio_rx");
        NS_TEST_ASSERT_MSG_EQ(rx.size(), 2u, "two radio_rx events");
        NS_TEST_EXPECT_MSG_EQ_TOL(rx[0].energyJ, rx1, 1e-9 * rx1, "E_rx, k = 8000 bit");
        NS_TEST_EXPECT_MSG_EQ_TOL(rx[1].energyJ, rx2, 1e-9 * rx2, "E_rx, k = 24000 bit");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------

/**
 * The energy so far at any time (D2dTraceHelper::GetEnergySoFar, what rounds.csv records at
 * each round's end as `energy_j`), worked by hand: node 0 computes from 0.5 s to 1.5 s at
 * 2 W, both radios idle at DEFAULT_IDLE_POWER_W throughout. At 1.0 s (mid-job, every period
 * open): compute 2 x 0.5 = 1 J, idle 2 x 0.819 x 1.0 J; at 3.0 s: compute 2 J, idle 2 x
 * 0.819 x 3.0 J. Asking reports nothing: the models' events are the same with and without.
 */
class D2dEnergySoFarTestCase : public TestCase
{
  public:
    D2dEnergySoFarTestCase()
        : TestCase("Energy so far (rounds.csv energy_j) = hand-worked integral of the draws, "
                   "open periods included, and asking for it reports nothing")
    {
    }

  private:
    /** (seconds, energy per component, events reported so far) of one probe */
    struct Probe
    {
        double t;                                  //!< when, s
        std::map<std::string, double> byComponent; //!< GetEnergySoFar() then, J
        std::size_t events;                        //!< energy events reported by then
    };

    /** One run; with probes, GetEnergySoFar() at 1 s and 3 s. \return the energy events */
    std::vector<EnergyEv> Run(bool probe, std::vector<Probe>* probes)
    {
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e9));
        helper.SetComputeAttribute("BusyPowerW", DoubleValue(2.0));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        std::string pattern =
            (std::filesystem::temp_directory_path() / "d2d-energy-so-far-XXXXXX").string();
        NS_ABORT_MSG_IF(!mkdtemp(pattern.data()), "mkdtemp " << pattern);
        auto traces = std::make_unique<D2dTraceHelper>(pattern);
        traces->SetLevel(D2dTraceHelper::STANDARD);
        traces->ConnectEnergy(nodes);
        Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
        std::vector<uint64_t> ids;
        std::vector<std::pair<int, double>> done;
        Simulator::Schedule(Seconds(0.5),
                            &DoStartJob,
                            compute,
                            1e9,
                            MakeBoundCallback(&RecordJob, &done, 1),
                            &ids);
        if (probe)
        {
            for (double t : {1.0, 3.0})
            {
                Simulator::Schedule(Seconds(t), [&traces, &evs, probes, t]() {
                    probes->push_back({t, traces->GetEnergySoFar(), evs.size()});
                });
            }
        }
        Simulator::Stop(Seconds(4.0));
        Simulator::Run();
        FlushAll(channel, nodes);
        traces.reset(); // unfinished: its files are removed
        std::filesystem::remove_all(pattern);
        Simulator::Destroy();
        return evs;
    }

    void DoRun() override
    {
        DestroyAtExit guard;
        std::vector<Probe> probes;
        const std::vector<EnergyEv> with = Run(true, &probes);
        const std::vector<EnergyEv> without = Run(false, nullptr);
        const double idleW = D2dRadioEnergyModel::DEFAULT_IDLE_POWER_W;
        NS_TEST_ASSERT_MSG_EQ(probes.size(), 2u, "two probes");
        const double expectCompute[] = {1.0, 2.0};
        for (std::size_t i = 0; i < probes.size(); ++i)
        {
            const Probe& p = probes[i];
            double total = 0;
            for (const auto& [component, joules] : p.byComponent)
            {
                total += joules;
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(p.byComponent.count("compute") ? p.byComponent.at("compute")
                                                                     : -1.0,
                                      expectCompute[i],
                                      1e-12,
                                      "compute energy at " << p.t << " s");
            NS_TEST_EXPECT_MSG_EQ_TOL(
                p.byComponent.count("radio_idle") ? p.byComponent.at("radio_idle") : -1.0,
                2 * idleW * p.t,
                1e-12,
                "radio idle energy at " << p.t << " s");
            NS_TEST_EXPECT_MSG_EQ_TOL(total,
                                      expectCompute[i] + 2 * idleW * p.t,
                                      1e-12,
                                      "every component at " << p.t << " s");
        }
        NS_TEST_EXPECT_MSG_EQ(probes[0].events, 0u, "at 1 s every period is still open");
        NS_TEST_ASSERT_MSG_EQ(with.size(), without.size(), "asking reports no period");
        for (std::size_t i = 0; i < with.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(with[i].t, without[i].t, "event " << i << " time");
            NS_TEST_EXPECT_MSG_EQ(with[i].energyJ, without[i].energyJ, "event " << i);
        }
    }
};

/** Compute model: job duration, energy, FIFO queueing. */
class D2dComputeEnergyTestCase : public TestCase
{
  public:
    D2dComputeEnergyTestCase()
        : TestCase("Compute model: job time = flops over FlopsPerSecond x SlowdownFactor, "
                   "energy, FIFO")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard; // Simulator::Destroy() even if an ASSERT returns early
        const double fps = 1e9;
        const double slowdown = 2.5;
        const double busyW = 2.0;
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(fps));
        helper.SetComputeAttribute("SlowdownFactor", DoubleValue(slowdown));
        helper.SetComputeAttribute("BusyPowerW", DoubleValue(busyW));
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
        NS_TEST_ASSERT_MSG_EQ(bool(compute), true, "compute model found");

        const double t1 = 0.5, f1 = 4e8; // 4e8 / 1e9 x 2.5 = 1.0 s
        const double t2 = 0.7, f2 = 2e8; // 2e8 / 1e9 x 2.5 = 0.5 s
        std::vector<std::pair<int, double>> done;
        std::vector<uint64_t> ids;
        std::vector<std::pair<bool, std::size_t>> busy;
        Simulator::Schedule(Seconds(t1),
                            &DoStartJob,
                            compute,
                            f1,
                            MakeBoundCallback(&RecordJob, &done, 1),
                            &ids);
        Simulator::Schedule(Seconds(t2),
                            &DoStartJob,
                            compute,
                            f2,
                            MakeBoundCallback(&RecordJob, &done, 2),
                            &ids);
        Simulator::Schedule(Seconds(0.8), &CheckBusy, compute, &busy);
        Simulator::Stop(Seconds(5.0));
        Simulator::Run();
        FlushAll(channel, nodes);

        const double d1 = f1 / fps * slowdown;
        const double d2 = f2 / fps * slowdown;
        const double end1 = t1 + d1;   // 1.5 s
        const double end2 = end1 + d2; // 2.0 s: starts when job 1 ends (FIFO)

        NS_TEST_ASSERT_MSG_EQ(ids.size(), 2u, "two jobs started");
        NS_TEST_EXPECT_MSG_GT(ids[0], 0u, "job id > 0");
        NS_TEST_EXPECT_MSG_NE(ids[0], ids[1], "distinct job ids");
        NS_TEST_ASSERT_MSG_EQ(busy.size(), 1u, "busy probe ran");
        NS_TEST_EXPECT_MSG_EQ(busy[0].first, true, "busy at 0.8 s");
        NS_TEST_EXPECT_MSG_EQ(busy[0].second, 1u, "one job queued at 0.8 s");
        NS_TEST_ASSERT_MSG_EQ(done.size(), 2u, "both callbacks ran");
        NS_TEST_EXPECT_MSG_EQ(done[0].first, 1, "job 1 completes first");
        NS_TEST_EXPECT_MSG_EQ(done[1].first, 2, "job 2 completes second");
        NS_TEST_EXPECT_MSG_EQ_TOL(done[0].second, end1, 1e-9, "job 1 callback time");
        NS_TEST_EXPECT_MSG_EQ_TOL(done[1].second, end2, 1e-9, "job 2 callback time (FIFO)");

        auto ce = Select(evs, 0, "compute");
        NS_TEST_ASSERT_MSG_EQ(ce.size(), 2u, "two compute energy events");
        NS_TEST_EXPECT_MSG_EQ_TOL(ce[0].energyJ, busyW * d1, 1e-9 * busyW * d1, "job 1 energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(ce[0].t, end1, 1e-9, "job 1 energy reported at its end");
        NS_TEST_EXPECT_MSG_EQ_TOL(ce[1].energyJ, busyW * d2, 1e-9 * busyW * d2, "job 2 energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(ce[1].t, end2, 1e-9, "job 2 energy reported at its end");
        NS_TEST_EXPECT_MSG_EQ(Select(evs, 1, "compute").size(), 0u, "node 1 computed nothing");
        // The battery also feeds the D2D radio, which idles (default IdlePowerW) the whole
        // run: it sends and receives nothing.
        const double drawn = 100.0 - SourceOf(nodes.Get(0))->GetRemainingEnergy();
        const double idleJ =
            D2dRadioEnergyModel::DEFAULT_IDLE_POWER_W * Simulator::Now().GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(drawn,
                                  busyW * (d1 + d2) + idleJ,
                                  1e-9 * 100.0,
                                  "battery drawn = compute energy + radio idle energy");
        Simulator::Destroy();
    }
};

/**
 * Compute model, Cpu: a job of F FLOP is c D = CyclesPerFlop x F cycles, takes c D / f and
 * costs (alpha/2) c D f^2 (Tran et al. 2019; Yang et al. 2021), by hand on two devices at
 * different frequencies.
 */
class D2dCpuComputeEnergyTestCase : public TestCase
{
  public:
    D2dCpuComputeEnergyTestCase()
        : TestCase("Compute model, Cpu: time c D over f and energy kappa c D f^2 per device")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard; // Simulator::Destroy() even if an ASSERT returns early
        const double cyclesPerFlop = 0.25;
        const double kappa = 1e-28; // alpha/2, J per cycle per Hz^2
        const double flops = 4e9;   // c D = 1e9 cycles
        const std::vector<double> hz = {2e9, 1e9};
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetComputeAttribute("Model", StringValue("Cpu"));
        helper.SetComputeAttribute("CyclesPerFlop", DoubleValue(cyclesPerFlop));
        helper.SetComputeAttribute("SwitchedCapacitance", DoubleValue(kappa));
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.0)); // compute alone
        helper.SetInitialEnergyJ(100.0);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        std::vector<std::pair<int, double>> done;
        std::vector<uint64_t> ids;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(i));
            compute->SetAttribute("CpuFrequencyHz", DoubleValue(hz[i]));
            Simulator::Schedule(Seconds(1.0),
                                &DoStartJob,
                                compute,
                                flops,
                                MakeBoundCallback(&RecordJob, &done, int(i)),
                                &ids);
        }
        Simulator::Stop(Seconds(5.0));
        Simulator::Run();
        FlushAll(channel, nodes);

        // By hand: 1e9 cycles at 2 GHz take 0.5 s and cost 1e-28 x 1e9 x 4e18 = 0.4 J (a
        // draw of 0.8 W = 1e-28 x 8e27); at 1 GHz 1.0 s and 0.1 J (0.1 W): half the speed, a
        // quarter of the energy.
        const std::vector<double> seconds = {0.5, 1.0};
        const std::vector<double> joules = {0.4, 0.1};
        NS_TEST_ASSERT_MSG_EQ(done.size(), 2u, "both jobs completed");
        for (const auto& [node, at] : done)
        {
            const double cycles = cyclesPerFlop * flops;
            const double f = hz[node];
            NS_TEST_EXPECT_MSG_EQ_TOL(cycles / f, seconds[node], 1e-12, "c D / f by hand");
            NS_TEST_EXPECT_MSG_EQ_TOL(kappa * cycles * f * f,
                                      joules[node],
                                      1e-12,
                                      "(alpha/2) c D f^2 by hand");
            NS_TEST_EXPECT_MSG_EQ_TOL(at,
                                      1.0 + seconds[node],
                                      1e-9 * (1.0 + seconds[node]),
                                      "device " << node << ": job time c D / f");
            auto ce = Select(evs, node, "compute");
            NS_TEST_ASSERT_MSG_EQ(ce.size(), 1u, "one compute energy event");
            NS_TEST_EXPECT_MSG_EQ_TOL(ce[0].energyJ,
                                      joules[node],
                                      1e-9 * joules[node],
                                      "device " << node << ": energy (alpha/2) c D f^2");
            NS_TEST_EXPECT_MSG_EQ_TOL(D2dHelper::GetComputeModel(nodes.Get(node))->GetBusyPowerW(),
                                      kappa * f * f * f,
                                      1e-9 * kappa * f * f * f,
                                      "device " << node << ": busy draw (alpha/2) f^3");
        }
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------

/**
 * Common set-up of the depletion tests. Link rate 1 x 1000 Hz = 1000 bit/s, so a
 * 1000-byte message has an airtime of 8 s; transmit draw 0.1 W / 0.5 + 0.1 W = 0.3 W,
 * i.e. 2.4 J per message. The sender also runs a 100-s compute job at 0.05 W from t = 0,
 * so it draws 0.35 W while it transmits back to back. The battery holds E0 = 6.0 J
 * (2.5 messages): it is empty at T* = 6.0 / 0.35 = 17.142857 s, during message 3
 * (16 s to 24 s). Five messages are queued at t = 0.
 */
struct DepletionRun
{
    std::vector<EnergyEv> evs;
    std::vector<D2dDeliveryRecord> recs;
    std::vector<uint64_t> ids;     //!< Send() results at t = 0
    std::vector<uint64_t> lateIds; //!< Send() results at t = 30 s
    std::vector<uint64_t> jobIds;
    std::vector<double> depletedAt;        //!< depletion callbacks of the radio's model
    std::vector<double> computeDepletedAt; //!< depletion callbacks of the compute model
    bool jobDone{false};
    bool lateJobDone{false};
    double sourceRemaining{0.0};
    bool radioOff{false};
    bool computeBusy{true};

    static constexpr double kE0 = 6.0;
    static constexpr double kTxW = 0.3;
    static constexpr double kComputeW = 0.05;
    static constexpr double kAirtime = 8.0;

    void Run(double updateIntervalS)
    {
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(1000.0));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetRadioAttribute("TxPowerDbm", DoubleValue(20.0));
        helper.SetRadioEnergyAttribute("Model", StringValue("Power"));
        helper.SetRadioEnergyAttribute("PaEfficiency", DoubleValue(0.5));
        helper.SetRadioEnergyAttribute("TxCircuitPowerW", DoubleValue(0.1));
        helper.SetRadioEnergyAttribute("RxPowerW", DoubleValue(0.1));
        // No idle draw: the hand formula T* = E0 / 0.35 W is that of the transmit and compute
        // draws alone (the default 0.819 W idle would also add a source update at t = 0,
        // whose nJ rounding moves a BasicEnergySource's T* by more than the 1 ns checked).
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.0));
        helper.SetComputeAttribute("BusyPowerW", DoubleValue(kComputeW));
        helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e10));
        helper.SetInitialEnergyJ(kE0);
        if (updateIntervalS > 0)
        {
            // ns-3's BasicEnergySource, updated periodically; 0: D2dEnergySource, never.
            helper.SetEnergySourceType(BasicEnergySource::GetTypeId().GetName());
            helper.SetEnergySourceAttribute("PeriodicEnergyUpdateInterval",
                                            TimeValue(Seconds(updateIntervalS)));
        }
        Ptr<D2dChannel> channel = helper.Install(nodes);
        ConnectEnergy(channel, nodes, &evs);
        Ptr<D2dRadio> radio = channel->GetRadio(0);
        radio->TraceConnectWithoutContext("Delivery",
                                          MakeBoundCallback(&RecordTestDelivery, &recs));
        radio->GetEnergyModel()->AddDepletionCallback(MakeBoundCallback(&RecordTime, &depletedAt));
        Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
        compute->AddDepletionCallback(MakeBoundCallback(&RecordTime, &computeDepletedAt));

        Simulator::Schedule(Seconds(0),
                            &DoStartJob,
                            compute,
                            1e12,
                            MakeBoundCallback(&SetFlag, &jobDone),
                            &jobIds);
        for (int m = 0; m < 5; ++m)
        {
            Simulator::Schedule(Seconds(0), &SendTestMessage, radio, 1000, 1u, &ids);
        }
        Simulator::Schedule(Seconds(30), &SendTestMessage, radio, 1000, 1u, &lateIds);
        Simulator::Schedule(Seconds(30),
                            &DoStartJob,
                            compute,
                            1e9,
                            MakeBoundCallback(&SetFlag, &lateJobDone),
                            &jobIds);
        Simulator::Stop(Seconds(200));
        Simulator::Run();
        FlushAll(channel, nodes);
        sourceRemaining = SourceOf(nodes.Get(0))->GetRemainingEnergy();
        radioOff = radio->IsOff();
        computeBusy = compute->IsBusy();
        Simulator::Destroy();
    }
};

/**
 * Depletion at the predicted instant, whatever the source's update interval.
 *
 * BasicEnergySource only notices that it is empty when it updates: at a change of draw of
 * one of its models or at its PeriodicEnergyUpdateInterval. The D2D energy models
 * therefore schedule a depletion check at the instant they predict from the remaining
 * energy and their summed draw: at t = 16 s (end of message 2, start of message 3) the
 * source holds 6 - 16 x 0.35 = 0.4 J and the device draws 0.35 W, so the check runs at
 * T* = 16 + 0.4 / 0.35 = E0 / 0.35 = 17.142857143 s (rounded up to the nanosecond).
 * - Update interval 1 s: the periodic update at 17 s finds 0.05 J and changes nothing;
 *   before the fix the depletion waited for the 18 s update, with -0.35 J of overshoot.
 * - Update interval 1000 s: no periodic update before the end, and the radio's next
 *   change of draw is the end of message 3 at 24 s; before the fix the device transmitted
 *   until then, delivered message 3 and drew 2.4 J more than the battery held.
 * Both runs now give the same result: depletion at T* (within 1 ns), message 3 cut off
 * (sender_off) like the queued messages 4 and 5, the running job never completes, the
 * energy reported equals the energy drawn from the source equals E0 (no overshoot), and
 * the last rows report remaining_j 0.
 */
class D2dDepletionTestCase : public TestCase
{
  public:
    /**
     * \param updateIntervalS the PeriodicEnergyUpdateInterval of a BasicEnergySource (s); 0:
     * the default D2dEnergySource, which has none
     * \param name test case name
     */
    D2dDepletionTestCase(double updateIntervalS, const std::string& name)
        : TestCase(name),
          m_updateIntervalS(updateIntervalS)
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard; // Simulator::Destroy() even if an ASSERT returns early
        DepletionRun run;
        run.Run(m_updateIntervalS);
        const double e0 = DepletionRun::kE0;
        const double draw = DepletionRun::kTxW + DepletionRun::kComputeW;
        const double tStar = e0 / draw; // 17.142857142857 s
        const double eMsg = DepletionRun::kTxW * DepletionRun::kAirtime;

        NS_TEST_ASSERT_MSG_EQ(run.depletedAt.size(), 1u, "radio model depleted once");
        const double tD = run.depletedAt[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(tD, tStar, 1e-9, "depletion at T* = E0 / 0.35 W (1 ns)");
        NS_TEST_ASSERT_MSG_EQ(run.computeDepletedAt.size(), 1u, "compute model depleted once");
        NS_TEST_EXPECT_MSG_EQ(run.computeDepletedAt[0], tD, "compute model depleted with it");
        NS_TEST_EXPECT_MSG_EQ(run.radioOff, true, "radio IsOff after depletion");
        NS_TEST_ASSERT_MSG_EQ(run.lateIds.size(), 1u, "late send attempted");
        NS_TEST_EXPECT_MSG_EQ(run.lateIds[0], 0u, "Send returns 0 when off");

        // radio_tx: messages 1 and 2 complete (2.4 J each), message 3 until T*.
        auto tx = Select(run.evs, 0, "radio_tx");
        NS_TEST_ASSERT_MSG_EQ(tx.size(), 3u, "three radio_tx events (msg 1, 2, part of 3)");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[0].energyJ, eMsg, 1e-9, "message 1 energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[1].energyJ, eMsg, 1e-9, "message 2 energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[2].energyJ,
                                  DepletionRun::kTxW * (tStar - 16.0),
                                  1e-9,
                                  "message 3 energy until T*");
        NS_TEST_EXPECT_MSG_EQ(tx[2].t, tD, "message 3 energy reported at depletion");
        for (const auto& e : Select(run.evs, 0))
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(e.t,
                                        tD + 1e-12,
                                        "no energy event of node 0 after depletion (" << e.component
                                                                                      << ")");
        }
        auto comp = Select(run.evs, 0, "compute");
        NS_TEST_ASSERT_MSG_EQ(comp.size(), 1u, "one compute event (job until depletion)");
        NS_TEST_EXPECT_MSG_EQ_TOL(comp[0].energyJ,
                                  DepletionRun::kComputeW * tStar,
                                  1e-9,
                                  "compute energy until T*");

        // Energy reported = energy drawn from the source = E0: no overshoot. (The source
        // may keep a residue of at most 1 nJ plus one nanosecond of draw, below the
        // tolerance: see D2dEnergyModel.)
        auto all = Select(run.evs, 0);
        NS_TEST_ASSERT_MSG_GT(all.size(), 0u, "node 0 reported energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(all), e0, 1e-9 * e0, "energy reported = E0");
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(all),
                                  e0 - run.sourceRemaining,
                                  1e-9 * e0,
                                  "energy reported = energy drawn from the source");
        NS_TEST_EXPECT_MSG_EQ_TOL(run.sourceRemaining, 0.0, 1e-9 * e0, "source empty");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(run.sourceRemaining, -1e-9 * e0, "no overshoot");
        for (const auto& e : all)
        {
            if (e.t == tD)
            {
                NS_TEST_EXPECT_MSG_EQ(e.remainingJ, 0.0, "remaining_j 0 at depletion");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(all.back().remainingJ, 0.0, "last remaining_j is 0");

        // Delivery records: 1 and 2 delivered, 3 (in flight), 4 and 5 (queued) sender_off.
        NS_TEST_ASSERT_MSG_EQ(run.ids.size(), 5u, "five sends");
        std::map<uint64_t, std::vector<D2dDeliveryRecord>> byId;
        for (const auto& rec : run.recs)
        {
            byId[rec.msgId].push_back(rec);
        }
        NS_TEST_EXPECT_MSG_EQ(byId.size(), 5u, "records for exactly the five messages");
        for (int m = 0; m < 5; ++m)
        {
            const auto& v = byId[run.ids[m]];
            NS_TEST_ASSERT_MSG_EQ(v.size(), 1u, "one record for message " << m + 1);
            if (m < 2)
            {
                NS_TEST_EXPECT_MSG_EQ(v[0].delivered, true, "message " << m + 1 << " delivered");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(v[0].delivered, false, "message " << m + 1 << " lost");
                NS_TEST_EXPECT_MSG_EQ(v[0].reason, "sender_off", "message " << m + 1 << " reason");
            }
        }

        // Compute: the job running at depletion never completes; later jobs are refused.
        NS_TEST_EXPECT_MSG_EQ(run.jobDone, false, "running job's callback never called");
        NS_TEST_EXPECT_MSG_EQ(run.lateJobDone, false, "late job's callback never called");
        NS_TEST_ASSERT_MSG_EQ(run.jobIds.size(), 2u, "two StartJob calls");
        NS_TEST_EXPECT_MSG_GT(run.jobIds[0], 0u, "first job accepted");
        NS_TEST_EXPECT_MSG_EQ(run.jobIds[1], 0u, "StartJob returns 0 when depleted");
        NS_TEST_EXPECT_MSG_EQ(run.computeBusy, false, "compute not busy after depletion");
    }

    double m_updateIntervalS; //!< the source's PeriodicEnergyUpdateInterval (s)
};

// ---------------------------------------------------------------------------------------

/**
 * D2dEnergySource against ns-3's BasicEnergySource and the closed form, and its events.
 *
 * One ns-3 SimpleDeviceEnergyModel per source changes its current at 0.25, 0.8, 1.7, 3.3,
 * 3.35 and 7.9 s (0.1, 0.5, 0, 0.33, 1.2, 0.05 A at 3 V, 100 J), and the remaining
 * energy is read at each change and at 9 s. Expected:
 * - equal to the bit to a BasicEnergySource whose periodic update never falls in the run
 *   (interval 1e6 s): the same arithmetic, updated at the same instants;
 * - within 1 nJ per update of a BasicEnergySource updated every second (its periodic
 *   updates only add roundings to whole nJ) and of the closed form 100 - sum I V dt;
 * - no event of its own: the run executes the 7 events the test schedules (and the
 *   node's initialization and Simulator::Stop), where
 *   the 1 s BasicEnergySource adds one per simulated second.
 */
class D2dEnergySourceTestCase : public TestCase
{
  public:
    D2dEnergySourceTestCase()
        : TestCase("D2dEnergySource: BasicEnergySource's arithmetic, no periodic events")
    {
    }

  private:
    /** Remaining energy at each read (J), and the events the run executed. */
    struct Result
    {
        std::vector<double> remainingJ; //!< at each read, J
        uint64_t events{0};             //!< Simulator::GetEventCount() after the run
    };

    /**
     * \param type the source's TypeId name
     * \param intervalS a BasicEnergySource's PeriodicEnergyUpdateInterval, s
     * \return the reads and the event count
     */
    static Result RunWith(const std::string& type, double intervalS)
    {
        DestroyAtExit guard;
        ObjectFactory factory(type);
        if (TypeId::LookupByName(type) == BasicEnergySource::GetTypeId())
        {
            factory.Set("BasicEnergySourceInitialEnergyJ", DoubleValue(100.0));
            factory.Set("BasicEnergySupplyVoltageV", DoubleValue(3.0));
            factory.Set("BasicEnergyLowBatteryThreshold", DoubleValue(0.0));
            factory.Set("PeriodicEnergyUpdateInterval", TimeValue(Seconds(intervalS)));
        }
        else
        {
            factory.Set("InitialEnergyJ", DoubleValue(100.0));
            factory.Set("SupplyVoltageV", DoubleValue(3.0));
        }
        auto node = CreateObject<Node>();
        auto source = factory.Create<EnergySource>();
        source->SetNode(node);
        auto model = CreateObject<SimpleDeviceEnergyModel>();
        model->SetNode(node);
        model->SetEnergySource(source);
        source->AppendDeviceEnergyModel(model);
        source->Initialize();
        auto result = std::make_shared<Result>();
        const std::vector<std::pair<double, double>> changes{{0.25, 0.1},
                                                             {0.8, 0.5},
                                                             {1.7, 0.0},
                                                             {3.3, 0.33},
                                                             {3.35, 1.2},
                                                             {7.9, 0.05}};
        for (const auto& [t, amps] : changes)
        {
            const double a = amps;
            Simulator::Schedule(Seconds(t), [source, model, result, a]() {
                result->remainingJ.push_back(source->GetRemainingEnergy());
                model->SetCurrentA(a);
            });
        }
        Simulator::Schedule(Seconds(9.0), [source, result]() {
            result->remainingJ.push_back(source->GetRemainingEnergy());
        });
        Simulator::Stop(Seconds(9.5));
        Simulator::Run();
        result->events = Simulator::GetEventCount();
        return *result;
    }

    void DoRun() override
    {
        const Result d2d = RunWith("ns3::D2dEnergySource", 0.0);
        const Result never = RunWith(BasicEnergySource::GetTypeId().GetName(), 1e6);
        const Result everySecond = RunWith(BasicEnergySource::GetTypeId().GetName(), 1.0);
        NS_TEST_ASSERT_MSG_EQ(d2d.remainingJ.size(), 7u, "one read per change and at 9 s");
        NS_TEST_ASSERT_MSG_EQ(never.remainingJ.size(), 7u, "same reads");
        NS_TEST_ASSERT_MSG_EQ(everySecond.remainingJ.size(), 7u, "same reads");
        // Closed form: the current in force over [t_k-1, t_k), at 3 V.
        const std::vector<double> at{0.25, 0.8, 1.7, 3.3, 3.35, 7.9, 9.0};
        const std::vector<double> amps{0.0, 0.1, 0.5, 0.0, 0.33, 1.2, 0.05};
        double closedJ = 100.0;
        for (std::size_t k = 0; k < at.size(); ++k)
        {
            closedJ -= amps[k] * 3.0 * (at[k] - (k == 0 ? 0.0 : at[k - 1]));
            NS_TEST_EXPECT_MSG_EQ(d2d.remainingJ[k],
                                  never.remainingJ[k],
                                  "read " << k << ": BasicEnergySource's value to the bit");
            NS_TEST_EXPECT_MSG_EQ_TOL(d2d.remainingJ[k],
                                      everySecond.remainingJ[k],
                                      10 * 1e-9,
                                      "read " << k << ": within 1 nJ per periodic update");
            NS_TEST_EXPECT_MSG_EQ_TOL(d2d.remainingJ[k],
                                      closedJ,
                                      (k + 1) * 1e-9,
                                      "read " << k << ": the closed form, 1 nJ per update");
        }
        // The test's 7 events, the node's initialization and Simulator::Stop; a
        // BasicEnergySource updated every second adds its updates at 1, 2, ..., 9 s.
        NS_TEST_EXPECT_MSG_EQ(d2d.events, 7u + 2u, "no event of the source's own");
        NS_TEST_EXPECT_MSG_EQ(d2d.events, never.events, "as a source never updated");
        NS_TEST_EXPECT_MSG_EQ(everySecond.events,
                              d2d.events + 9u,
                              "BasicEnergySource adds one event per second");
    }
};

/**
 * Radio and compute draw together from one source; the battery empties in the middle of a
 * compute job, with no periodic update of the source (a D2dEnergySource has none).
 *
 * E0 = 10 J. Radio: idle 0.1 W; one 125-byte message at 2 s (1000 bit/s: airtime 1 s)
 * drawn at 1 W / 1.0 + 0.1 W = 1.1 W instead of idle. Compute: a 10-s job (1e11 FLOP at
 * 1e10 FLOP/s) from 1 s at 2 W, a second job queued at 4 s.
 *   [0, 1] 0.1 W, [1, 2] 2.1 W, [2, 3] 3.1 W: 5.3 J drawn by 3 s, 4.7 J remain;
 *   from 3 s: P_radio + P_compute = 0.1 + 2 = 2.1 W, so the source is empty at
 *   T = 3 + 4.7 / 2.1 = 5.238095238 s, long before the job would end (11 s).
 * The depletion check predicted at the start of the message (2 s + 7.8 J / 3.1 W =
 * 4.516 s) comes early once the message ends: it must predict again, not deplete.
 */
class D2dDepletionMidJobTestCase : public TestCase
{
  public:
    D2dDepletionMidJobTestCase()
        : TestCase("Depletion mid-job at remaining over (P_radio + P_compute): job never done")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard; // Simulator::Destroy() even if an ASSERT returns early
        const double e0 = 10.0;
        const double idleW = 0.1;
        const double txW = 1.0 / 1.0 + 0.1; // TxPower / PaEfficiency + TxCircuitPowerW
        const double busyW = 2.0;
        const double tJob = 1.0;
        const double tMsg = 2.0;
        const double airtime = 125 * 8.0 / 1000.0; // 1 s
        const double tMsgEnd = tMsg + airtime;

        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(1000.0));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
        helper.SetRadioAttribute("TxPowerDbm", DoubleValue(30.0));
        helper.SetRadioEnergyAttribute("Model", StringValue("Power"));
        helper.SetRadioEnergyAttribute("PaEfficiency", DoubleValue(1.0));
        helper.SetRadioEnergyAttribute("TxCircuitPowerW", DoubleValue(0.1));
        helper.SetRadioEnergyAttribute("RxPowerW", DoubleValue(0.2));
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(idleW));
        helper.SetComputeAttribute("BusyPowerW", DoubleValue(busyW));
        helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e10));
        helper.SetInitialEnergyJ(e0); // D2dEnergySource: no periodic update
        Ptr<D2dChannel> channel = helper.Install(nodes);
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        Ptr<D2dRadio> radio = channel->GetRadio(0);
        std::vector<D2dDeliveryRecord> recs;
        radio->TraceConnectWithoutContext("Delivery",
                                          MakeBoundCallback(&RecordTestDelivery, &recs));
        Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
        std::vector<double> radioDepleted;
        std::vector<double> computeDepleted;
        radio->GetEnergyModel()->AddDepletionCallback(
            MakeBoundCallback(&RecordTime, &radioDepleted));
        compute->AddDepletionCallback(MakeBoundCallback(&RecordTime, &computeDepleted));
        std::vector<std::pair<int, double>> jobsDone;
        std::vector<uint64_t> jobIds;
        std::vector<uint64_t> ids;
        std::vector<uint64_t> lateIds;

        Simulator::Schedule(Seconds(tJob),
                            &DoStartJob,
                            compute,
                            1e11,
                            MakeBoundCallback(&RecordJob, &jobsDone, 1),
                            &jobIds);
        Simulator::Schedule(Seconds(tMsg), &SendTestMessage, radio, 125, 1u, &ids);
        Simulator::Schedule(Seconds(4.0),
                            &DoStartJob,
                            compute,
                            1e9,
                            MakeBoundCallback(&RecordJob, &jobsDone, 2),
                            &jobIds);
        Simulator::Schedule(Seconds(6.0),
                            &DoStartJob,
                            compute,
                            1e9,
                            MakeBoundCallback(&RecordJob, &jobsDone, 3),
                            &jobIds);
        Simulator::Schedule(Seconds(6.0), &SendTestMessage, radio, 125, 1u, &lateIds);
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        FlushAll(channel, nodes);
        const double sourceRemaining = SourceOf(nodes.Get(0))->GetRemainingEnergy();
        const bool busy = compute->IsBusy();
        const std::size_t queued = compute->GetNQueued();

        const double remainingAtMsgEnd =
            e0 - idleW * tJob - (idleW + busyW) * (tMsg - tJob) - (txW + busyW) * airtime;
        const double tDep = tMsgEnd + remainingAtMsgEnd / (idleW + busyW); // 5.238095238 s

        NS_TEST_ASSERT_MSG_EQ(radioDepleted.size(), 1u, "radio model depleted once");
        NS_TEST_ASSERT_MSG_EQ(computeDepleted.size(), 1u, "compute model depleted once");
        NS_TEST_EXPECT_MSG_EQ_TOL(radioDepleted[0],
                                  tDep,
                                  1e-9,
                                  "depletion at remaining / (P_radio + P_compute) (1 ns)");
        NS_TEST_EXPECT_MSG_EQ(computeDepleted[0], radioDepleted[0], "both models at once");

        // The job never completes, nor the one queued behind it; later jobs are refused.
        NS_TEST_EXPECT_MSG_EQ(jobsDone.size(), 0u, "no job callback");
        NS_TEST_ASSERT_MSG_EQ(jobIds.size(), 3u, "three StartJob calls");
        NS_TEST_EXPECT_MSG_GT(jobIds[0], 0u, "job accepted");
        NS_TEST_EXPECT_MSG_GT(jobIds[1], 0u, "second job queued");
        NS_TEST_EXPECT_MSG_EQ(jobIds[2], 0u, "StartJob returns 0 when depleted");
        NS_TEST_EXPECT_MSG_EQ(busy, false, "compute not busy after depletion");
        NS_TEST_EXPECT_MSG_EQ(queued, 0u, "queue emptied at depletion");
        NS_TEST_EXPECT_MSG_EQ(radio->IsOff(), true, "radio off");
        NS_TEST_EXPECT_MSG_EQ((lateIds.size() == 1 && lateIds[0] == 0), true, "late send refused");
        NS_TEST_EXPECT_MSG_EQ((recs.size() == 1 && recs[0].delivered),
                              true,
                              "the message (before depletion) delivered");

        // Energy rows: compute 2 W from 1 s to the depletion, one row; radio idle, tx, idle.
        auto comp = Select(evs, 0, "compute");
        NS_TEST_ASSERT_MSG_EQ(comp.size(), 1u, "one compute row");
        NS_TEST_EXPECT_MSG_EQ_TOL(comp[0].energyJ,
                                  busyW * (tDep - tJob),
                                  1e-9 * e0,
                                  "compute energy = 2 W x (T - 1 s)");
        NS_TEST_EXPECT_MSG_EQ(comp[0].t, radioDepleted[0], "compute row at the depletion");
        NS_TEST_EXPECT_MSG_EQ(comp[0].remainingJ, 0.0, "compute row: remaining_j 0");
        auto tx = Select(evs, 0, "radio_tx");
        NS_TEST_ASSERT_MSG_EQ(tx.size(), 1u, "one radio_tx row");
        NS_TEST_EXPECT_MSG_EQ_TOL(tx[0].energyJ, txW * airtime, 1e-12, "radio_tx energy");
        auto idle = Select(evs, 0, "radio_idle");
        NS_TEST_ASSERT_MSG_EQ(idle.size(), 2u, "two radio_idle rows (before, after the message)");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle[0].energyJ, idleW * tMsg, 1e-12, "idle until the message");
        NS_TEST_EXPECT_MSG_EQ_TOL(idle[1].energyJ,
                                  idleW * (tDep - tMsgEnd),
                                  1e-9 * e0,
                                  "idle from the message's end to the depletion");
        NS_TEST_EXPECT_MSG_EQ(idle[1].t, radioDepleted[0], "last idle row at the depletion");
        NS_TEST_EXPECT_MSG_EQ(idle[1].remainingJ, 0.0, "last idle row: remaining_j 0");

        auto all = Select(evs, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(all), e0, 1e-9 * e0, "energy reported = E0");
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(all),
                                  e0 - sourceRemaining,
                                  1e-9 * e0,
                                  "energy reported = energy drawn from the source");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(sourceRemaining, -1e-9 * e0, "no overshoot");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------

namespace
{

/**
 * The battery tests' channel, radio and compute: 1 b/s per Hz over 1 kHz, no noise; the
 * Power model at 20 dBm with PaEfficiency 0.5, TxCircuitPowerW 0.1 W and RxPowerW 0.1 W
 * (transmit 0.1 W / 0.5 + 0.1 W = 0.3 W, so each 1,000-byte message costs 8 s x 0.3 W); 2 W
 * busy at 1e10 flop/s.
 * \param helper the helper, before Install
 */
void
ConfigureBatteryDraw(D2dHelper& helper)
{
    helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
    helper.SetChannelAttribute("BandwidthHz", DoubleValue(1000.0));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0));
    helper.SetRadioAttribute("TxPowerDbm", DoubleValue(20.0));
    helper.SetRadioEnergyAttribute("Model", StringValue("Power"));
    helper.SetRadioEnergyAttribute("PaEfficiency", DoubleValue(0.5));
    helper.SetRadioEnergyAttribute("TxCircuitPowerW", DoubleValue(0.1));
    helper.SetRadioEnergyAttribute("RxPowerW", DoubleValue(0.1));
    helper.SetComputeAttribute("BusyPowerW", DoubleValue(2.0));
    helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e10));
}

/**
 * The battery tests' draw: node 0 sends three 1,000-byte messages to node 1 (8 s each at
 * 0.3 W: 7.2 J) and runs a 1e11-flop job (10 s at 2 W: 20 J), all from 1 s; the simulation
 * runs to 30 s and the energy models are flushed.
 * \param channel the channel of ConfigureBatteryDraw's helper
 * \param nodes its two nodes
 * \param jobDone set when the job completes
 */
void
RunBatteryDraw(Ptr<D2dChannel> channel, NodeContainer nodes, bool* jobDone)
{
    std::vector<uint64_t> ids; // filled while Run() runs, below
    std::vector<uint64_t> jobIds;
    for (int m = 0; m < 3; ++m)
    {
        Simulator::Schedule(Seconds(1), &SendTestMessage, channel->GetRadio(0), 1000, 1u, &ids);
    }
    Simulator::Schedule(Seconds(1),
                        &DoStartJob,
                        D2dHelper::GetComputeModel(nodes.Get(0)),
                        1e11,
                        MakeBoundCallback(&SetFlag, jobDone),
                        &jobIds);
    Simulator::Stop(Seconds(30));
    Simulator::Run();
    FlushAll(channel, nodes);
}

} // namespace

#if D2DLEARN_HAVE_LIION_SOURCE
/** LiIonEnergySource can be selected and is drawn from. */
class D2dLiIonSourceTestCase : public TestCase
{
  public:
    D2dLiIonSourceTestCase()
        : TestCase("LiIonEnergySource selectable: remaining decreases by the reported energy")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard; // Simulator::Destroy() even if an ASSERT returns early
        NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
        D2dHelper helper;
        helper.SetEnergySourceType(LiIonEnergySource::GetTypeId().GetName());
        ConfigureBatteryDraw(helper);
        // Transmit and compute draws only. With the radio idling at the default 0.819 W from
        // t = 0 the cell's remaining energy falls by 31.295 J where the models report
        // 32.114 J (ns-3.37): 0.819 J, one second of idle draw, missing at the source. Not
        // explained yet (LiIonEnergySource re-derives its voltage from the current at each
        // update); an open issue of --energySource=liion, which ns-3 removed before 3.48.
        helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.0));
        Ptr<D2dChannel> channel = helper.Install(nodes);
        Ptr<EnergySource> src = SourceOf(nodes.Get(0));
        NS_TEST_ASSERT_MSG_EQ(src->GetInstanceTypeId(),
                              LiIonEnergySource::GetTypeId(),
                              "source type");
        const double e0 = src->GetInitialEnergy();
        std::vector<EnergyEv> evs;
        ConnectEnergy(channel, nodes, &evs);
        bool jobDone = false;
        RunBatteryDraw(channel, nodes, &jobDone);

        // Hand values: 3 messages x 8 s x 0.3 W = 7.2 J radio, 10 s x 2 W = 20 J compute.
        auto all = Select(evs, 0);
        const double reported = SumEnergy(all);
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(Select(evs, 0, "radio_tx")), 7.2, 1e-9, "tx energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(SumEnergy(Select(evs, 0, "compute")),
                                  20.0,
                                  1e-9,
                                  "compute energy");
        NS_TEST_EXPECT_MSG_EQ(jobDone, true, "job completed");
        const double drawn = e0 - src->GetRemainingEnergy();
        // LiIonEnergySource integrates current x its present cell voltage, and the models
        // set current = power / that voltage, so the drawn energy matches the reported
        // energy up to floating-point rounding (measured: 2e-11 J of 27.2 J); tolerance
        // 1e-6 of the reported energy (27 uJ).
        NS_TEST_EXPECT_MSG_GT(drawn, 0.0, "energy drawn from the Li-ion cell");
        NS_TEST_EXPECT_MSG_EQ_TOL(drawn,
                                  reported,
                                  1e-6 * reported,
                                  "Li-ion remaining decreases by the reported energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(all.back().remainingJ,
                                  e0 - reported,
                                  1e-6 * reported,
                                  "remaining_j of the last event");
        Simulator::Destroy();
    }
};
#endif // D2DLEARN_HAVE_LIION_SOURCE

// ---------------------------------------------------------------------------------------

#if D2DLEARN_HAVE_GENERIC_BATTERY
/** Reads a double attribute. */
double
DoubleAttribute(Ptr<Object> object, const std::string& name)
{
    DoubleValue v;
    object->GetAttribute(name, v);
    return v.Get();
}

/** Samples a GenericBatteryModel's voltage and drained charge (after an update). */
void
SampleBattery(Ptr<GenericBatteryModel> battery, std::vector<std::pair<double, double>>* out)
{
    battery->UpdateEnergySource();
    out->emplace_back(battery->GetSupplyVoltage(), battery->GetDrainedCapacity());
}

/**
 * A GenericBatteryModel scaled to an energy by D2dHelper::ScaleGenericBatteryToEnergy() is k
 * cells in parallel: its initial energy is the one asked for, and at k times the current it
 * discharges along the single cell's voltage curve, k times the cell's drained charge.
 */
class D2dGenericBatteryPackTestCase : public TestCase
{
  public:
    D2dGenericBatteryPackTestCase()
        : TestCase("GenericBatteryModel pack: initial energy as asked, the cell's voltage curve "
                   "at k x the current")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        auto cell = CreateObject<GenericBatteryModel>();
        auto pack = CreateObject<GenericBatteryModel>();
        // The cell's energy by the model's formula, Q x V_full x 3600, from its attributes.
        const double cellJ =
            DoubleAttribute(cell, "MaxCapacity") * DoubleAttribute(cell, "FullVoltage") * 3600;
        const double k = 3.7; // not whole on purpose
        D2dHelper::ScaleGenericBatteryToEnergy(pack, k * cellJ);
        NS_TEST_EXPECT_MSG_EQ_TOL(pack->GetInitialEnergy(),
                                  k * cellJ,
                                  1e-12 * k * cellJ,
                                  "initial energy");
        NS_TEST_EXPECT_MSG_EQ_TOL(DoubleAttribute(pack, "NominalCapacity"),
                                  k * DoubleAttribute(cell, "NominalCapacity"),
                                  1e-12,
                                  "nominal capacity x k");
        NS_TEST_EXPECT_MSG_EQ_TOL(DoubleAttribute(pack, "InternalResistance"),
                                  DoubleAttribute(cell, "InternalResistance") / k,
                                  1e-12,
                                  "internal resistance / k");

        // 1 A from the cell, k A from the pack (0.43 C: the Li-ion cell's 2.45 Ah lasts
        // well over the 3,600 s below, above its 3.3 V cut-off).
        const double cellA = 1.0;
        auto cellLoad = CreateObject<SimpleDeviceEnergyModel>();
        auto packLoad = CreateObject<SimpleDeviceEnergyModel>();
        cellLoad->SetEnergySource(cell);
        cell->AppendDeviceEnergyModel(cellLoad);
        packLoad->SetEnergySource(pack);
        pack->AppendDeviceEnergyModel(packLoad);
        Simulator::ScheduleNow(&GenericBatteryModel::UpdateEnergySource, cell);
        Simulator::ScheduleNow(&GenericBatteryModel::UpdateEnergySource, pack);
        Simulator::Schedule(Seconds(1), &SimpleDeviceEnergyModel::SetCurrentA, cellLoad, cellA);
        Simulator::Schedule(Seconds(1), &SimpleDeviceEnergyModel::SetCurrentA, packLoad, k * cellA);
        std::vector<std::pair<double, double>> cellSamples;
        std::vector<std::pair<double, double>> packSamples;
        for (double t : {10.0, 60.0, 600.0, 1800.0, 3600.0})
        {
            Simulator::Schedule(Seconds(t), &SampleBattery, cell, &cellSamples);
            Simulator::Schedule(Seconds(t), &SampleBattery, pack, &packSamples);
        }
        Simulator::Stop(Seconds(3601));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(packSamples.size(), cellSamples.size(), "samples");
        for (std::size_t i = 0; i < cellSamples.size(); ++i)
        {
            // The same arithmetic on numbers k times larger: equal to rounding (1e-9 V).
            NS_TEST_EXPECT_MSG_EQ_TOL(packSamples[i].first,
                                      cellSamples[i].first,
                                      1e-9,
                                      "pack voltage = cell voltage, sample " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(packSamples[i].second,
                                      k * cellSamples[i].second,
                                      1e-9,
                                      "pack drained charge = k x cell's, sample " << i);
        }
        // Hand value: 1 A for 3,600 s is 1 Ah drawn from the cell (to 1e-6 Ah). The current is
        // set at 1 s, but SimpleDeviceEnergyModel::SetCurrentA sets it before it updates the
        // source, which integrates it from its previous update, at 0 s.
        NS_TEST_EXPECT_MSG_EQ_TOL(cellSamples.back().second, 1.0, 1e-6, "cell Ah");
        NS_TEST_EXPECT_MSG_GT(cellSamples.front().first,
                              cellSamples.back().first,
                              "the voltage falls as the cell discharges");
        NS_TEST_EXPECT_MSG_GT(cellSamples.back().first,
                              DoubleAttribute(cell, "CutoffVoltage"),
                              "above the cut-off after 1 Ah");
        Simulator::Destroy();
    }
};

/**
 * --energySource=generic through D2dHelper: the D2D models draw from the pack, and the
 * charge drawn (Ah) is the reported energy over the voltage; a small pack is depleted at its
 * cut-off voltage, before its nominal energy is spent, and stops its device.
 */
class D2dGenericBatteryDrawTestCase : public TestCase
{
  public:
    D2dGenericBatteryDrawTestCase()
        : TestCase("GenericBatteryModel selectable: drained charge x voltage = reported "
                   "energy; depleted at the cut-off voltage")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        {
            NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
            D2dHelper helper;
            helper.SetEnergySourceType(GenericBatteryModel::GetTypeId().GetName());
            // 1 MJ: 27 cells in parallel.
            helper.SetInitialEnergyJ(1e6);
            ConfigureBatteryDraw(helper);
            // No idle draw, as in the Li-ion case: the hand value below counts the messages
            // and the job only (with the radios' default idle power the pack also fed 6 s of
            // idle listening, 6 s x 0.819 W = 4.914 J more than 27.2 J).
            helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.0));
            Ptr<D2dChannel> channel = helper.Install(nodes);
            auto battery = DynamicCast<GenericBatteryModel>(SourceOf(nodes.Get(0)));
            NS_TEST_ASSERT_MSG_NE(battery, nullptr, "a GenericBatteryModel");
            NS_TEST_EXPECT_MSG_EQ_TOL(battery->GetInitialEnergy(), 1e6, 1e-6, "pack energy");
            std::vector<EnergyEv> evs;
            ConnectEnergy(channel, nodes, &evs);
            bool jobDone = false;
            // The voltage before any draw (0.5 s) and every 0.25 s while the models draw.
            std::vector<std::pair<double, double>> samples;
            for (int q = 2; q < 120; ++q)
            {
                Simulator::Schedule(Seconds(0.25 * q), &SampleBattery, battery, &samples);
            }
            RunBatteryDraw(channel, nodes, &jobDone);
            SampleBattery(battery, &samples);
            const double reported = SumEnergy(Select(evs, 0));
            NS_TEST_EXPECT_MSG_EQ(jobDone, true, "job completed");
            // Hand values as for LiIonEnergySource: 3 messages x 8 s x 0.3 W = 7.2 J radio,
            // 10 s x 2 W = 20 J compute, no idle power.
            NS_TEST_EXPECT_MSG_EQ_TOL(reported, 27.2, 1e-9, "reported energy");
            const double drainedAh = samples.back().second;
            // The models draw I = P / V at the battery's present voltage, so the charge times
            // the voltage is the energy: between the charge times the lowest and the highest
            // voltage sampled (the first, before any draw; the voltage under load is lower).
            // Slack 1e-6 of the energy for the voltage between samples.
            double vMin = samples.front().first;
            double vMax = samples.front().first;
            for (const auto& [v, ah] : samples)
            {
                vMin = std::min(vMin, v);
                vMax = std::max(vMax, v);
            }
            std::cout << "generic pack: " << drainedAh * 3600.0 << " C drawn, voltage " << vMin
                      << " to " << vMax << " V, reported " << reported << " J\n";
            NS_TEST_EXPECT_MSG_LT(vMin, vMax, "the voltage falls under load");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(drainedAh * 3600.0 * vMin,
                                        reported * (1.0 + 1e-6),
                                        "charge x lowest voltage <= reported energy");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(drainedAh * 3600.0 * vMax,
                                        reported * (1.0 - 1e-6),
                                        "charge x highest voltage >= reported energy");
            Simulator::Destroy();
        }
        {
            // 5 kJ: 0.136 of a cell (R = 0.61 Ohm), 2 W of compute, about 0.5 A.
            const double e0 = 5000.0;
            const double busyW = 2.0;
            NodeContainer nodes = MakeTestNodesAtX({0.0, 10.0});
            D2dHelper helper;
            helper.SetEnergySourceType(GenericBatteryModel::GetTypeId().GetName());
            helper.SetInitialEnergyJ(e0);
            helper.SetRadioEnergyAttribute("IdlePowerW", DoubleValue(0.0));
            helper.SetComputeAttribute("BusyPowerW", DoubleValue(busyW));
            helper.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e10));
            Ptr<D2dChannel> channel = helper.Install(nodes);
            auto battery = DynamicCast<GenericBatteryModel>(SourceOf(nodes.Get(0)));
            Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
            std::vector<double> depleted;
            std::vector<double> voltageAtDepletion; // the update that found it
            compute->AddDepletionCallback([&depleted, &voltageAtDepletion, battery]() {
                depleted.push_back(Simulator::Now().GetSeconds());
                voltageAtDepletion.push_back(battery->GetSupplyVoltage());
            });
            std::vector<uint64_t> jobIds;
            bool jobDone = false;
            // A job of 10,000 s at 2 W: 20 kJ, four times the pack.
            Simulator::Schedule(Seconds(1),
                                &DoStartJob,
                                compute,
                                1e14,
                                MakeBoundCallback(&SetFlag, &jobDone),
                                &jobIds);
            Simulator::Stop(Seconds(10000));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(depleted.size(), 1u, "depleted once");
            NS_TEST_EXPECT_MSG_EQ(jobDone, false, "job stopped by the depletion");
            // The cut-off comes before the nominal energy is spent (e0 / busyW = 2,500 s of
            // draw from t = 1 s), and is found within one periodic update (1 s).
            NS_TEST_EXPECT_MSG_LT(depleted.front(), 1.0 + e0 / busyW, "before 2,501 s");
            NS_TEST_EXPECT_MSG_GT(depleted.front(), 1.0, "after the job started");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(voltageAtDepletion.front(),
                                        DoubleAttribute(battery, "CutoffVoltage"),
                                        "depleted at or below the cut-off voltage");
            Simulator::Destroy();
        }
    }
};
#endif // D2DLEARN_HAVE_GENERIC_BATTERY

// ---------------------------------------------------------------------------------------

/** The d2d-energy test suite. */
class D2dEnergyTestSuite : public TestSuite
{
  public:
    D2dEnergyTestSuite()
        : TestSuite("d2d-energy")
    {
        AddTestCase(new D2dPowerModelEnergyTestCase);
        AddTestCase(new D2dFirstOrderEnergyTestCase);
        AddTestCase(new D2dComputeEnergyTestCase);
        AddTestCase(new D2dCpuComputeEnergyTestCase);
        AddTestCase(new D2dEnergySoFarTestCase);
        AddTestCase(new D2dDepletionTestCase(1.0,
                                             "Depletion on time with periodic updates (1 s): "
                                             "device stops, sender_off, no completion"));
        AddTestCase(new D2dDepletionTestCase(1000.0,
                                             "Depletion on time between state changes "
                                             "(no periodic update): message 3 cut off"));
        AddTestCase(new D2dDepletionTestCase(0.0,
                                             "Depletion on time on a D2dEnergySource (no "
                                             "periodic events): message 3 cut off"));
        AddTestCase(new D2dEnergySourceTestCase);
        AddTestCase(new D2dDepletionMidJobTestCase);
#if D2DLEARN_HAVE_LIION_SOURCE
        AddTestCase(new D2dLiIonSourceTestCase);
#endif
#if D2DLEARN_HAVE_GENERIC_BATTERY
        AddTestCase(new D2dGenericBatteryPackTestCase);
        AddTestCase(new D2dGenericBatteryDrawTestCase);
#endif
    }
};

/** Static instance. */
static D2dEnergyTestSuite g_d2dEnergyTestSuite;
