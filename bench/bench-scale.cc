/*
 * d2dlearn benchmark: many devices exchanging small messages on the D2D channel.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. --nDevices devices (default 1000) at uniform random
 * positions in a --side x --side m square (ConstantPositionMobilityModel) each send
 * --bytes messages (default 10 kB) at Poisson intervals of mean 1 / --rate s, for
 * --simTime s; unicast to a uniformly random other device, or with --broadcast to all.
 * Printed: Delivery records (one per (message, receiver)), those delivered, deliveries
 * per second of wall time, simulator events, simulated time, wall times, peak RSS.
 *
 * --propagation=PRESET chains D2dPropagationHelper's preset (e.g. 3gpp-umi: TR 38.901's path
 * loss, LOS/NLOS and shadowing; the devices at the preset's antenna height) as the channel's
 * RSS model; log-distance (the default) leaves the channel's own.
 *
 * Every model attribute can be set with --ns3::Class::Attr=value, e.g.
 * --ns3::D2dChannel::FastPath=false or --ns3::D2dChannel::NoisePowerW=1e-13. With --drx the
 * radios sleep between DRX on-durations (--ns3::D2dDrx::Cycle, --ns3::D2dDrx::OnDuration).
 */

#include "bench-streams.h"
#include "bench-timing.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-propagation-helper.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio.h"
#include "ns3/double.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using d2dbench::CpuSeconds;
using d2dbench::ProcStatusKb;

struct Counters
{
    uint64_t sends{0};
    uint64_t sendsRefused{0}; //!< Send returned 0 (device off)
    uint64_t records{0};
    uint64_t delivered{0};
    uint64_t fragments{0};
    uint64_t fragmentsLost{0};
    uint64_t retransmissions{0};
    uint64_t halfDuplex{0};
    uint64_t otherFailures{0}; //!< not delivered, reason other than loss/retry/half duplex
    double latencySumS{0};
    double pDropSum{0};
};

Counters g_count;

void
OnDelivery(const D2dDeliveryRecord& rec)
{
    g_count.records++;
    g_count.fragments += rec.fragments;
    g_count.fragmentsLost += rec.fragmentsLost;
    g_count.retransmissions += rec.retransmissions;
    g_count.pDropSum += rec.dropProbability;
    if (rec.delivered)
    {
        g_count.delivered++;
        g_count.latencySumS += (rec.recvTime - rec.sendTime).GetSeconds();
    }
    else if (rec.reason == "half_duplex")
    {
        g_count.halfDuplex++;
    }
    else if (rec.reason != "loss" && rec.reason != "retry_limit")
    {
        g_count.otherFailures++;
    }
}

/** One device's Poisson message source. */
class Source
{
  public:
    Source(Ptr<D2dRadio> radio,
           uint32_t nDevices,
           Ptr<const D2dMessage> message,
           bool broadcast,
           D2dDeliveryMode mode,
           Time stop,
           Ptr<ExponentialRandomVariable> gap,
           Ptr<UniformRandomVariable> peer)
        : m_radio(radio),
          m_n(nDevices),
          m_message(message),
          m_broadcast(broadcast),
          m_mode(mode),
          m_stop(stop),
          m_gap(gap),
          m_peer(peer)
    {
    }

    void Start()
    {
        ScheduleNext();
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
        uint32_t dst = D2D_BROADCAST;
        if (!m_broadcast)
        {
            // Uniform over the other n - 1 devices.
            dst = m_peer->GetInteger(0, m_n - 2);
            if (dst >= m_radio->GetIndex())
            {
                ++dst;
            }
        }
        g_count.sends++;
        if (m_radio->Send(m_message, dst, m_mode) == 0)
        {
            g_count.sendsRefused++;
        }
        ScheduleNext();
    }

    Ptr<D2dRadio> m_radio;
    uint32_t m_n;
    Ptr<const D2dMessage> m_message;
    bool m_broadcast;
    D2dDeliveryMode m_mode;
    Time m_stop;
    Ptr<ExponentialRandomVariable> m_gap;
    Ptr<UniformRandomVariable> m_peer;
};

/** \return the radios' energy (every state, the open period included), J, over the devices
 * \param channel the channel \param n the devices */
double
RadioEnergyJ(Ptr<D2dChannel> channel, uint32_t n)
{
    double j = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        j += channel->GetRadio(i)->GetEnergyModel()->GetTotalEnergyConsumption();
    }
    return j;
}

/** \brief The delivery counters' lines (g_count). */
void
PrintDeliveries()
{
    std::printf("sends                     %llu (refused %llu)\n",
                static_cast<unsigned long long>(g_count.sends),
                static_cast<unsigned long long>(g_count.sendsRefused));
    std::printf("delivery records          %llu\n",
                static_cast<unsigned long long>(g_count.records));
    std::printf("delivered                 %llu (%.1f %% of records)\n",
                static_cast<unsigned long long>(g_count.delivered),
                g_count.records ? 100.0 * g_count.delivered / g_count.records : 0.0);
    std::printf("not delivered: half-duplex %llu, other non-loss %llu\n",
                static_cast<unsigned long long>(g_count.halfDuplex),
                static_cast<unsigned long long>(g_count.otherFailures));
    std::printf("mean P_D of records       %.4f\n",
                g_count.records ? g_count.pDropSum / g_count.records : 0.0);
    std::printf("fragments lost / sent     %.4f (retransmissions %llu)\n",
                g_count.fragments ? double(g_count.fragmentsLost) / g_count.fragments : 0.0,
                static_cast<unsigned long long>(g_count.retransmissions));
    std::printf("mean latency (delivered)  %.6f s\n",
                g_count.delivered ? g_count.latencySumS / g_count.delivered : 0.0);
}

/**
 * \brief The simulator's and the machine's figures of the run, one per line.
 * \param events the simulator's events \param simulated the simulated time, s
 * \param setupWall the set-up's wall time, s \param runWall Simulator::Run's wall time, s
 * \param runCpu its CPU time, s \param hwmKb the peak RSS, kB
 * \param rssBeforeRunKb VmRSS before Run, kB
 */
void
PrintSpeed(uint64_t events,
           double simulated,
           double setupWall,
           double runWall,
           double runCpu,
           long hwmKb,
           long rssBeforeRunKb)
{
    std::printf("simulator events          %llu\n", static_cast<unsigned long long>(events));
    std::printf("events per send           %.2f\n",
                g_count.sends ? double(events) / g_count.sends : 0.0);
    std::printf("simulated time            %.3f s\n", simulated);
    std::printf("wall time: setup %.3f s, run %.3f s (run CPU time %.3f s)\n",
                setupWall,
                runWall,
                runCpu);
    std::printf("deliveries per wall s     %.0f\n",
                runWall > 0 ? g_count.delivered / runWall : 0.0);
    std::printf("records per wall s        %.0f\n", runWall > 0 ? g_count.records / runWall : 0.0);
    std::printf("events per wall s         %.0f\n", runWall > 0 ? events / runWall : 0.0);
    std::printf("simulated s per wall s    %.3f\n", runWall > 0 ? simulated / runWall : 0.0);
    std::printf("peak RSS (VmHWM)          %.1f MB (VmRSS before Run %.1f MB)\n",
                hwmKb / 1024.0,
                rssBeforeRunKb / 1024.0);
}

/**
 * \brief The command line's ranges, a one-line error for the first out of range.
 * \param nDevices >= 2 \param side > 0 \param bytes >= 1 \param rate > 0
 * \param simTime > 0 \param drainTime >= 0 \param propagation a D2dPropagationHelper preset
 * \return whether all are in range
 */
bool
Valid(uint32_t nDevices,
      double side,
      double bytes,
      double rate,
      double simTime,
      double drainTime,
      const std::string& propagation)
{
    if (nDevices < 2 || !(side > 0) || !(bytes >= 1) || !(rate > 0) || !(simTime > 0) ||
        !(drainTime >= 0))
    {
        std::cerr << "bench-scale: need --nDevices >= 2, --side > 0, --bytes >= 1, --rate > 0, "
                     "--simTime > 0, --drainTime >= 0\n";
        return false;
    }
    if (!D2dPropagationHelper::FindPreset(propagation))
    {
        std::cerr << "bench-scale: --propagation=" << propagation << " is not a preset\n";
        return false;
    }
    return true;
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 1000;
    double side = 1000.0;
    double bytes = 10e3;
    double rate = -1;     // messages/s per device; < 0: 10 (unicast) or 0.05 (broadcast)
    double simTime = 10;  // s of message generation
    double drainTime = 1; // s after simTime for messages in flight
    bool broadcast = false;
    bool reliable = false;
    bool noEnergy = false;
    bool drx = false;
    Time drxInactivity = MilliSeconds(20);
    uint32_t seed = 1;
    uint32_t run = 1;
    std::string propagation = "log-distance";

    // Default noise: the ns-3 LogDistance defaults (20 dBm, 46.68 dB at 1 m, exponent 3)
    // with the module's 1e-13 W make P_D ~ 1 beyond ~300 m; 1e-15 W gives P_D ~ 0.16 at
    // 500 m and ~ 0.76 at 1000 m, so that most random peers in the square are reachable.
    Config::SetDefault("ns3::D2dChannel::NoisePowerW", DoubleValue(1e-15));

    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Number of devices", nDevices);
    cmd.AddValue("side", "Side of the square area, m", side);
    cmd.AddValue("bytes", "Message size, bytes", bytes);
    cmd.AddValue("rate",
                 "Messages per second per device (Poisson); default 10 for unicast, 0.05 for "
                 "--broadcast",
                 rate);
    cmd.AddValue("simTime", "Simulated seconds during which messages are generated", simTime);
    cmd.AddValue("drainTime", "Simulated seconds after simTime for messages in flight", drainTime);
    cmd.AddValue("broadcast",
                 "Broadcast every message instead of unicast to a random peer",
                 broadcast);
    cmd.AddValue("reliable", "Reliable (ARQ) delivery instead of unreliable", reliable);
    cmd.AddValue("noEnergy",
                 "Detach the radios' energy models (measures the channel without energy "
                 "accounting)",
                 noEnergy);
    cmd.AddValue("drx",
                 "Radios follow a DRX cycle (D2dDrx: --ns3::D2dDrx::Cycle, OnDuration set its "
                 "attributes' defaults) and sleep between on-durations",
                 drx);
    cmd.AddValue("drxInactivity", "DRX inactivity timer with --drx", drxInactivity);
    cmd.AddValue("propagation",
                 "D2dPropagationHelper's preset as the RSS model (log-distance: the channel's "
                 "own)",
                 propagation);
    cmd.AddValue("seed", "RNG seed", seed);
    cmd.AddValue("run", "RNG run number", run);
    cmd.Parse(argc, argv);
    if (rate < 0)
    {
        rate = broadcast ? 0.05 : 10.0;
    }
    if (!Valid(nDevices, side, bytes, rate, simTime, drainTime, propagation))
    {
        return 1;
    }
    D2dPropagationHelper environment;
    environment.SetPathLoss(propagation);
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    const auto t0 = std::chrono::steady_clock::now();
    NodeContainer nodes;
    nodes.Create(nDevices);
    d2dbench::Place(nodes, side, environment.GetPreset().deviceHeightM);

    D2dHelper helper;
    // No battery runs out in this benchmark: it measures the channel, not energy.
    helper.SetInitialEnergyJ(1e9);
    if (drx)
    {
        helper.SetDrxAttribute("InactivityTimer", TimeValue(drxInactivity));
    }
    if (propagation != "log-distance")
    {
        auto rss = CreateObject<PropagationRssModel>();
        rss->SetAttribute("PropagationLossModel", PointerValue(environment.Create()));
        helper.SetRssModel(rss);
    }
    Ptr<D2dChannel> channel = helper.Install(nodes);
    int64_t stream = 1;
    stream += helper.AssignStreams(stream);

    auto message = Create<D2dMessage>("bench", static_cast<uint64_t>(bytes));
    const D2dDeliveryMode mode = reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    const Time stop = Seconds(simTime);
    std::vector<Source> sources;
    sources.reserve(nDevices);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        Ptr<D2dRadio> radio = channel->GetRadio(i);
        radio->TraceConnectWithoutContext("Delivery", MakeCallback(&OnDelivery));
        if (noEnergy)
        {
            radio->SetEnergyModel(nullptr);
        }
        auto gap = d2dbench::Gap(rate, stream++);
        auto peer = d2dbench::Pick(stream++);
        sources.emplace_back(radio, nDevices, message, broadcast, mode, stop, gap, peer);
    }
    for (auto& s : sources)
    {
        s.Start();
    }
    // Energy sources update periodically for ever: the run needs an explicit end.
    Simulator::Stop(Seconds(simTime + drainTime));

    const auto t1 = std::chrono::steady_clock::now();
    const long rssBeforeRunKb = ProcStatusKb("VmRSS");
    const double cpu1 = CpuSeconds();
    Simulator::Run();
    const auto t2 = std::chrono::steady_clock::now();
    const double runCpu = CpuSeconds() - cpu1;
    const uint64_t events = Simulator::GetEventCount();
    const double simulated = Simulator::Now().GetSeconds();
    const double setupWall = std::chrono::duration<double>(t1 - t0).count();
    const double runWall = std::chrono::duration<double>(t2 - t1).count();
    const long hwmKb = ProcStatusKb("VmHWM");
    BooleanValue fastPath;
    channel->GetAttribute("FastPath", fastPath);
    const double radioJ = noEnergy ? 0.0 : RadioEnergyJ(channel, nDevices);
    Simulator::Destroy();

    std::printf("bench-scale: %u devices in %.0f m x %.0f m, %s %s messages of %.0f bytes, "
                "Poisson %.4g msg/s per device for %.3g s (+%.3g s drain), FastPath=%s, "
                "radio energy %s, DRX %s, propagation %s, seed %u run %u\n",
                nDevices,
                side,
                side,
                reliable ? "reliable" : "unreliable",
                broadcast ? "broadcast" : "unicast",
                bytes,
                rate,
                simTime,
                drainTime,
                fastPath.Get() ? "true" : "false",
                noEnergy ? "off" : "on",
                drx ? "on" : "off",
                propagation.c_str(),
                seed,
                run);
    PrintDeliveries();
    std::printf("radio energy per device   %.6f J\n", nDevices ? radioJ / nDevices : 0.0);
    PrintSpeed(events, simulated, setupWall, runWall, runCpu, hwmKb, rssBeforeRunKb);
    return 0;
}
