/*
 * d2dlearn benchmark: the 802.11 backend (D2dWifiTransport over ns-3's Wi-Fi MAC and PHY)
 * with many devices.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. --nDevices devices at uniform random positions in a
 * square whose side keeps the density fixed (--areaPerDeviceM2 per device), 802.11a ad hoc
 * at 6 Mbit/s (D2dWifiHelper's defaults: one YansWifiChannel, log-distance loss), each
 * sending --bytes messages at Poisson intervals of mean 1 / --rate s for --simTime s,
 * unicast to a uniformly random device it hears (received power at or above the PHYs'
 * -82 dBm preamble detection threshold), or with --broadcast to all. Energy: a battery and
 * ns-3's WifiRadioEnergyModel on each device (--noEnergy: none).
 *
 * Printed: messages and their outcomes (Delivery records), simulator events, events per
 * packet sent (a YansWifiChannel transmission schedules a reception event at every other
 * PHY of the channel, in range or not: the cost per packet grows with N), events per wall
 * second, wall and CPU times, peak RSS and the resident memory per device after set-up.
 */

#include "bench-streams.h"
#include "bench-timing.h"

#include "ns3/command-line.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;
using d2dbench::CpuSeconds;
using d2dbench::ProcStatusKb;
using d2dbench::WallSeconds;

namespace
{

struct Counters
{
    uint64_t sends{0};
    uint64_t records{0};
    uint64_t delivered{0};
    uint64_t fragments{0};
    uint64_t fragmentsLost{0};
    double latencySumS{0};
};

Counters g_count;

void
OnDelivery(const D2dDeliveryRecord& rec)
{
    g_count.records++;
    g_count.fragments += rec.fragments;
    g_count.fragmentsLost += rec.fragmentsLost;
    if (rec.delivered)
    {
        g_count.delivered++;
        g_count.latencySumS += (rec.recvTime - rec.sendTime).GetSeconds();
    }
}

/** One device's Poisson message source. */
class Source
{
  public:
    Source(Ptr<D2dTransport> transport,
           std::vector<uint32_t> peers,
           Ptr<const D2dMessage> message,
           bool broadcast,
           D2dDeliveryMode mode,
           Time stop,
           Ptr<ExponentialRandomVariable> gap,
           Ptr<UniformRandomVariable> pick)
        : m_transport(transport),
          m_peers(std::move(peers)),
          m_message(message),
          m_broadcast(broadcast),
          m_mode(mode),
          m_stop(stop),
          m_gap(gap),
          m_pick(pick)
    {
    }

    void Start()
    {
        if (!m_peers.empty())
        {
            ScheduleNext();
        }
    }

  private:
    void ScheduleNext()
    {
        const Time next = Seconds(m_gap->GetValue());
        if (Simulator::Now() + next < m_stop)
        {
            Simulator::Schedule(next, &Source::Fire, this);
        }
    }

    void Fire()
    {
        const uint32_t dst =
            m_broadcast ? D2D_BROADCAST
                        : m_peers[m_pick->GetInteger(0, static_cast<uint32_t>(m_peers.size()) - 1)];
        g_count.sends++;
        m_transport->Send(m_message, dst, m_mode);
        ScheduleNext();
    }

    Ptr<D2dTransport> m_transport;
    std::vector<uint32_t> m_peers; //!< the devices this one hears (and is heard by)
    Ptr<const D2dMessage> m_message;
    bool m_broadcast;
    D2dDeliveryMode m_mode;
    Time m_stop;
    Ptr<ExponentialRandomVariable> m_gap;
    Ptr<UniformRandomVariable> m_pick;
};

/**
 * \brief Who hears whom: the received power at the PHYs' preamble detection threshold
 * (ThresholdPreambleDetectionModel::MinimumRssi's default, -82 dBm).
 * \param nodes the devices \param loss the propagation loss \param txPowerDbm the transmit
 * power, dBm \param links out: the ordered pairs that hear each other
 * \return each device's peers, ascending
 */
std::vector<std::vector<uint32_t>>
Peers(const NodeContainer& nodes,
      Ptr<PropagationLossModel> loss,
      double txPowerDbm,
      uint64_t& links)
{
    const double hearDbm = -82.0;
    const uint32_t n = nodes.GetN();
    std::vector<std::vector<uint32_t>> peers(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto mi = nodes.Get(i)->GetObject<MobilityModel>();
        for (uint32_t j = 0; j < n; ++j)
        {
            if (j != i &&
                loss->CalcRxPower(txPowerDbm, mi, nodes.Get(j)->GetObject<MobilityModel>()) >=
                    hearDbm)
            {
                peers[i].push_back(j);
                ++links;
            }
        }
    }
    return peers;
}

/**
 * \brief The run's figures, one per line.
 * \param heard the mean devices a device hears \param packets the packets sent
 * \param events the simulator's events \param setupWall the set-up's wall time, s
 * \param runWall Simulator::Run's wall time, s \param runCpu its CPU time, s
 * \param simulated the simulated time, s \param hwmKb the peak RSS, kB
 * \param perDeviceKb VmRSS after set-up minus at start, per device, kB
 */
void
PrintResults(double heard,
             uint64_t packets,
             uint64_t events,
             double setupWall,
             double runWall,
             double runCpu,
             double simulated,
             long hwmKb,
             double perDeviceKb)
{
    std::printf("mean devices heard        %.2f\n", heard);
    std::printf("sends                     %llu\n", static_cast<unsigned long long>(g_count.sends));
    std::printf("delivery records          %llu\n",
                static_cast<unsigned long long>(g_count.records));
    std::printf("delivered                 %llu (%.1f %% of records)\n",
                static_cast<unsigned long long>(g_count.delivered),
                g_count.records ? 100.0 * g_count.delivered / g_count.records : 0.0);
    std::printf("fragments lost / sent     %.4f\n",
                g_count.fragments ? double(g_count.fragmentsLost) / g_count.fragments : 0.0);
    std::printf("mean latency (delivered)  %.6f s\n",
                g_count.delivered ? g_count.latencySumS / g_count.delivered : 0.0);
    std::printf("packets sent              %llu\n", static_cast<unsigned long long>(packets));
    std::printf("simulator events          %llu\n", static_cast<unsigned long long>(events));
    std::printf("events per packet sent    %.1f\n", packets ? double(events) / packets : 0.0);
    std::printf("wall time: setup %.3f s, run %.3f s (run CPU time %.3f s)\n",
                setupWall,
                runWall,
                runCpu);
    std::printf("events per wall s         %.0f\n", runWall > 0 ? events / runWall : 0.0);
    std::printf("simulated s per wall s    %.4f\n", runWall > 0 ? simulated / runWall : 0.0);
    std::printf("peak RSS (VmHWM)          %.1f MB\n", hwmKb / 1024.0);
    std::printf("memory per device         %.1f kB (VmRSS after set-up minus at start, / N)\n",
                perDeviceKb);
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 100;
    double areaPerDeviceM2 = 625; // 25 m x 25 m per device
    double bytes = 10e3;
    double rate = 1.0;    // messages/s per device
    double simTime = 2;   // s of message generation
    double drainTime = 1; // s after simTime for messages in flight
    double txPowerDbm = 16.0206;
    bool broadcast = false;
    bool reliable = false;
    bool noEnergy = false;
    uint32_t seed = 1;

    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Number of devices", nDevices);
    cmd.AddValue("areaPerDeviceM2",
                 "Area per device, m^2: the square's side is sqrt(nDevices x this)",
                 areaPerDeviceM2);
    cmd.AddValue("bytes", "Message size, bytes", bytes);
    cmd.AddValue("rate", "Messages per second per device (Poisson)", rate);
    cmd.AddValue("simTime", "Simulated seconds during which messages are generated", simTime);
    cmd.AddValue("drainTime", "Simulated seconds after simTime for messages in flight", drainTime);
    cmd.AddValue("txPowerDbm", "Transmit power, dBm (ns-3 WifiPhy's default)", txPowerDbm);
    cmd.AddValue("broadcast", "Broadcast every message instead of unicast to a peer", broadcast);
    cmd.AddValue("reliable", "Reliable (end-to-end ARQ) delivery instead of unreliable", reliable);
    cmd.AddValue("noEnergy", "No batteries nor Wi-Fi energy models", noEnergy);
    cmd.AddValue("seed", "RNG seed", seed);
    cmd.Parse(argc, argv);
    if (nDevices < 2 || nDevices > 65000 || !(areaPerDeviceM2 > 0) || !(bytes >= 1) ||
        !(rate > 0) || !(simTime > 0) || !(drainTime >= 0))
    {
        std::cerr << "bench-wifi-scale: need 2 <= --nDevices <= 65000, --areaPerDeviceM2 > 0, "
                     "--bytes >= 1, --rate > 0, --simTime > 0, --drainTime >= 0\n";
        return 1;
    }
    RngSeedManager::SetSeed(seed);

    const long rssStartKb = ProcStatusKb("VmRSS");
    const double t0 = WallSeconds();
    const double side = std::sqrt(nDevices * areaPerDeviceM2);
    NodeContainer nodes;
    nodes.Create(nDevices);
    d2dbench::Place(nodes, side, 0.0); // (0 m: the allocator's default height)

    if (!noEnergy)
    {
        D2dHelper d2d; // batteries (and compute models, unused here) as the scenarios have
        d2d.SetInitialEnergyJ(1e9);
        d2d.InstallWithoutRadios(nodes);
    }
    D2dWifiHelper wifi;
    auto loss = CreateObject<LogDistancePropagationLossModel>(); // Yans' default, exponent 3
    wifi.SetPropagationLoss(loss);
    wifi.SetPhyAttribute("TxPowerStart", DoubleValue(txPowerDbm));
    wifi.SetPhyAttribute("TxPowerEnd", DoubleValue(txPowerDbm));
    std::vector<Ptr<D2dWifiTransport>> transports = wifi.Install(nodes);
    std::vector<Ptr<D2dWifiEnergyMeter>> meters; // kept: the energy models call them
    if (!noEnergy)
    {
        meters = wifi.InstallEnergy("radio", nDevices);
    }
    int64_t stream = 1;
    stream += wifi.AssignStreams(stream);

    uint64_t links = 0;
    const auto peers = Peers(nodes, loss, txPowerDbm, links);

    auto message = Create<D2dMessage>("bench", static_cast<uint64_t>(bytes));
    const D2dDeliveryMode mode = reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    std::vector<Source> sources;
    sources.reserve(nDevices);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        transports[i]->TraceConnectWithoutContext("Delivery", MakeCallback(&OnDelivery));
        auto gap = d2dbench::Gap(rate, stream++);
        auto pick = d2dbench::Pick(stream++);
        sources.emplace_back(transports[i],
                             peers[i],
                             message,
                             broadcast,
                             mode,
                             Seconds(simTime),
                             gap,
                             pick);
    }
    for (auto& s : sources)
    {
        s.Start();
    }
    Simulator::Stop(Seconds(simTime + drainTime)); // batteries update periodically for ever

    const double t1 = WallSeconds();
    const long rssSetupKb = ProcStatusKb("VmRSS");
    const double cpu1 = CpuSeconds();
    Simulator::Run();
    const double t2 = WallSeconds();
    const double runCpu = CpuSeconds() - cpu1;
    const uint64_t events = Simulator::GetEventCount();
    uint64_t packets = 0;
    for (const auto& t : transports)
    {
        packets += t->GetNPacketsSent();
    }
    const long hwmKb = ProcStatusKb("VmHWM");
    Simulator::Destroy();

    const double runWall = t2 - t1;
    std::printf("bench-wifi-scale: %u devices in %.0f m x %.0f m (%.0f m^2 each), 802.11a "
                "6 Mbit/s at %.4g dBm, %s %s messages of %.0f bytes, Poisson %.4g msg/s per "
                "device for %.3g s (+%.3g s drain), energy %s, seed %u\n",
                nDevices,
                side,
                side,
                areaPerDeviceM2,
                txPowerDbm,
                reliable ? "reliable" : "unreliable",
                broadcast ? "broadcast" : "unicast",
                bytes,
                rate,
                simTime,
                drainTime,
                noEnergy ? "off" : "on",
                seed);
    PrintResults(double(links) / nDevices,
                 packets,
                 events,
                 t1 - t0,
                 runWall,
                 runCpu,
                 simTime + drainTime,
                 hwmKb,
                 double(rssSetupKb - rssStartKb) / nDevices);
    return 0;
}
