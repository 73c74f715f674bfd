/*
 * d2dlearn benchmark: one large message between two devices, fast path vs per-fragment
 * path (D2dChannel attribute FastPath), in unreliable and reliable mode.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. For each (mode, path): simulator events executed,
 * wall time of Simulator::Run, simulated delivery latency (recvTime - sendTime of the
 * Delivery record), fragments lost and retransmissions, and the fast / per-fragment
 * ratios. Both paths of a mode use the same seed and run number.
 *
 * The link's drop probability is set by choosing the noise power: with the two devices
 * --distance m apart, NoisePowerW = W / W_1, where W_1 = (2^r - 1) / (-ln(1 - targetPd)) is
 * the RSS giving targetPd at a noise of 1 W (ConstantRssModel::ForDropProbability, eq. (18)
 * of Wagle et al. 2025 solved for W, which is proportional to sigma^2), so that P_D equals
 * --targetPd.
 */

#include "ns3/basic-energy-source.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/constant-rss-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-radio.h"
#include "ns3/double.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vector.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

using namespace ns3;

namespace
{

struct RunResult
{
    double pDrop{0};
    uint64_t events{0};
    double wallS{0};
    double setupWallS{0};
    double latencyS{-1};
    uint32_t fragments{0};
    uint32_t fragmentsLost{0};
    uint32_t retransmissions{0};
    bool delivered{false};
    std::string reason;
    uint32_t records{0};
};

struct Options
{
    double bytes{100e6};
    double distanceM{100.0};
    double targetPd{0.15};
    double energyUpdateS{0.0}; //!< 0: D2dEnergySource (no periodic events)
    uint32_t seed{1};
    uint32_t run{1};
    uint32_t reps{10};
};

/** Mean and sample standard deviation of a series. */
struct Stat
{
    double n{0};
    double sum{0};
    double sumSq{0};

    void Add(double x)
    {
        n += 1;
        sum += x;
        sumSq += x * x;
    }

    double Mean() const
    {
        return n > 0 ? sum / n : NAN;
    }

    double Std() const
    {
        return n > 1 ? std::sqrt(std::max(0.0, (sumSq - sum * sum / n) / (n - 1))) : 0.0;
    }
};

/** A (mode, path) configuration over the repetitions. */
struct Series
{
    double pDrop{0};
    uint32_t fragments{0};
    uint32_t delivered{0};
    Stat events;
    Stat wall;
    Stat latency; //!< delivered runs only
    Stat lost;
    Stat retx;

    void Add(const struct RunResult& r);
};

void
Series::Add(const RunResult& r)
{
    pDrop = r.pDrop;
    fragments = r.fragments;
    delivered += r.delivered ? 1 : 0;
    events.Add(static_cast<double>(r.events));
    wall.Add(r.wallS);
    if (r.delivered)
    {
        latency.Add(r.latencyS);
    }
    lost.Add(r.fragmentsLost);
    retx.Add(r.retransmissions);
}

RunResult g_result;
bool g_recordSeen = false;
bool g_sendDone = false;

void
OnDelivery(const D2dDeliveryRecord& rec)
{
    g_result.records++;
    g_result.fragments = rec.fragments;
    g_result.fragmentsLost = rec.fragmentsLost;
    g_result.retransmissions = rec.retransmissions;
    g_result.delivered = rec.delivered;
    g_result.reason = rec.reason;
    g_result.pDrop = rec.dropProbability;
    if (rec.delivered)
    {
        g_result.latencyS = (rec.recvTime - rec.sendTime).GetSeconds();
    }
    g_recordSeen = true;
    if (g_sendDone)
    {
        Simulator::Stop(); // the energy sources' periodic updates would run forever
    }
}

void
OnSendDone(uint64_t /*msgId*/, uint32_t /*dst*/, bool /*success*/)
{
    g_sendDone = true;
    if (g_recordSeen)
    {
        Simulator::Stop();
    }
}

RunResult
RunOnce(const Options& opt, uint32_t run, D2dDeliveryMode mode, bool fastPath)
{
    RngSeedManager::SetSeed(opt.seed);
    RngSeedManager::SetRun(run);
    g_result = RunResult();
    g_recordSeen = false;
    g_sendDone = false;

    const auto setupStart = std::chrono::steady_clock::now();
    NodeContainer nodes;
    nodes.Create(2);
    MobilityHelper mobility;
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);
    nodes.Get(0)->GetObject<MobilityModel>()->SetPosition(Vector(0, 0, 0));
    nodes.Get(1)->GetObject<MobilityModel>()->SetPosition(Vector(opt.distanceM, 0, 0));

    D2dHelper helper;
    helper.SetChannelAttribute("FastPath", BooleanValue(fastPath));
    // Enough energy that the battery never runs out (100 MB at 20 Mbit/s is ~40 s of tx).
    helper.SetInitialEnergyJ(1e9);
    if (opt.energyUpdateS > 0)
    {
        // ns-3's BasicEnergySource, updated every energyUpdateS besides at changes of draw.
        helper.SetEnergySourceType(BasicEnergySource::GetTypeId().GetName());
        helper.SetEnergySourceAttribute("PeriodicEnergyUpdateInterval",
                                        TimeValue(Seconds(opt.energyUpdateS)));
    }
    Ptr<D2dChannel> channel = helper.Install(nodes);
    helper.AssignStreams(1);

    // Eq. (18) solved for sigma^2 so that P_D(1, 0) = targetPd: the RSS that gives targetPd
    // grows with the noise in proportion, so sigma^2 = W / (that RSS at 1 W of noise).
    double r = 0;
    {
        DoubleValue v;
        channel->GetAttribute("SpectralEfficiency", v);
        r = v.Get();
    }
    const double w = channel->GetRssW(1, 0);
    const double noise = w / ConstantRssModel::ForDropProbability(opt.targetPd, r, 1.0);
    channel->SetAttribute("NoisePowerW", DoubleValue(noise));

    Ptr<D2dRadio> sender = channel->GetRadio(0);
    sender->TraceConnectWithoutContext("Delivery", MakeCallback(&OnDelivery));
    sender->SetSendDoneCallback(MakeCallback(&OnSendDone));
    auto message = Create<D2dMessage>("bench", static_cast<uint64_t>(opt.bytes));
    Simulator::ScheduleNow([sender, message, mode]() { sender->Send(message, 1, mode); });
    Simulator::Stop(Seconds(1e5)); // safety net
    const auto runStart = std::chrono::steady_clock::now();
    g_result.setupWallS = std::chrono::duration<double>(runStart - setupStart).count();
    Simulator::Run();
    const auto runEnd = std::chrono::steady_clock::now();
    g_result.wallS = std::chrono::duration<double>(runEnd - runStart).count();
    g_result.events = Simulator::GetEventCount();
    if (g_result.records == 0)
    {
        g_result.pDrop = channel->GetDropProbability(1, 0);
    }
    Simulator::Destroy();
    return g_result;
}

void
PrintRow(const std::string& mode, const std::string& path, const Series& r)
{
    std::printf("%-10s %-12s %6.4f %10.0f %10.5f %12.4f %10u %10.1f %8.1f %10.1f %8.1f %4u/%.0f\n",
                mode.c_str(),
                path.c_str(),
                r.pDrop,
                r.events.Mean(),
                r.wall.Mean(),
                r.latency.Mean(),
                r.fragments,
                r.lost.Mean(),
                r.lost.Std(),
                r.retx.Mean(),
                r.retx.Std(),
                r.delivered,
                r.events.n);
}

double
Ratio(double a, double b)
{
    return b != 0 ? a / b : NAN;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options opt;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Message size, bytes", opt.bytes);
    cmd.AddValue("distance", "Distance between the two devices, m", opt.distanceM);
    cmd.AddValue("targetPd", "Drop probability P_D of the link, in (0, 1)", opt.targetPd);
    cmd.AddValue("energyUpdateS",
                 "0: D2dEnergySource (the default source: no periodic events); > 0: ns-3's "
                 "BasicEnergySource with this PeriodicEnergyUpdateInterval, s (ns-3's default "
                 "1; its periodic events are counted in 'events')",
                 opt.energyUpdateS);
    cmd.AddValue("seed", "RNG seed", opt.seed);
    cmd.AddValue("run", "First RNG run number", opt.run);
    cmd.AddValue("reps", "Runs per (mode, path): run numbers run, run + 1, ...", opt.reps);
    cmd.Parse(argc, argv);
    if (!(opt.bytes >= 1) || !(opt.targetPd > 0 && opt.targetPd < 1) || !(opt.distanceM > 0) ||
        !(opt.energyUpdateS >= 0))
    {
        std::cerr << "bench-fast-path: need --bytes >= 1, --targetPd in (0, 1), --distance > 0, "
                     "--energyUpdateS >= 0\n";
        return 1;
    }

    if (opt.reps < 1)
    {
        std::cerr << "bench-fast-path: --reps must be >= 1\n";
        return 1;
    }

    std::printf(
        "bench-fast-path: one message of %.0f bytes, 2 devices %.1f m apart, target "
        "P_D %.3f, seed %u, runs %u..%u, energy update interval %g s (0: none, D2dEnergySource)\n",
        opt.bytes,
        opt.distanceM,
        opt.targetPd,
        opt.seed,
        opt.run,
        opt.run + opt.reps - 1,
        opt.energyUpdateS);
    std::printf("(means over the runs; lost/retransm also their standard deviation; wall_s is "
                "Simulator::Run only)\n");
    std::printf("%-10s %-12s %6s %10s %10s %12s %10s %10s %8s %10s %8s %s\n",
                "mode",
                "path",
                "P_D",
                "events",
                "wall_s",
                "latency_s",
                "fragments",
                "frag_lost",
                "sd",
                "retransm",
                "sd",
                "delivered");

    struct ModeRow
    {
        std::string name;
        D2dDeliveryMode mode;
        Series fast;
        Series slow;
    };

    ModeRow rows[] = {{"unreliable", D2dDeliveryMode::UNRELIABLE, {}, {}},
                      {"reliable", D2dDeliveryMode::RELIABLE, {}, {}}};
    for (auto& row : rows)
    {
        for (uint32_t i = 0; i < opt.reps; ++i)
        {
            row.fast.Add(RunOnce(opt, opt.run + i, row.mode, true));
            row.slow.Add(RunOnce(opt, opt.run + i, row.mode, false));
        }
        PrintRow(row.name, "fast", row.fast);
        PrintRow(row.name, "per-fragment", row.slow);
        std::fflush(stdout);
    }
    std::printf("\nratios fast / per-fragment (of the means):\n");
    std::printf("%-10s %12s %12s %12s %12s %12s\n",
                "mode",
                "events",
                "wall_time",
                "latency",
                "frag_lost",
                "retransm");
    for (const auto& row : rows)
    {
        std::printf("%-10s %12.3g %12.3g %12.6f %12.4f %12.4f\n",
                    row.name.c_str(),
                    Ratio(row.fast.events.Mean(), row.slow.events.Mean()),
                    Ratio(row.fast.wall.Mean(), row.slow.wall.Mean()),
                    Ratio(row.fast.latency.Mean(), row.slow.latency.Mean()),
                    Ratio(row.fast.lost.Mean(), row.slow.lost.Mean()),
                    Ratio(row.fast.retx.Mean(), row.slow.retx.Mean()));
    }
    return 0;
}
