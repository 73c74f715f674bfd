/*
 * d2dlearn benchmark: one exchange of models with the neighbours in range, under the
 * Scheduled channel access, with spatial reuse against network-wide serialisation.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. The communication step of a decentralized-FL round:
 * --nDevices devices (default 200) uniformly in a --side m square (default 500) each
 * broadcast one model (--bytes, default 407,080: the 784-128-10 MLP as float32 plus its
 * header) reliably to every neighbour within --rangeM (default 50 m), all at t = 0, with
 * P_D from eq. 18 (default channel). Printed for the run with the range: the simulated
 * time until the last model has reached every neighbour ("round time"), messages, rows,
 * complete rows, simulator events per message, wall time; then the same exchange with every
 * transmission occupying every radio (network-wide serialisation: the ideal MAC of the
 * protocols before channel access, which treated every radio as a receiver) and the ratio
 * of the two round times (that run's receivers are every device, so far links' ARQ also
 * weighs in); and the airtimes of the first run's transmissions added up, the length of
 * exactly those transmissions serialised network-wide. --serialised=false skips the second run
 * (10,000 devices:
 * --nDevices=10000 --side=3536 keeps the density of 200 in 500 m).
 */

#include "ns3/command-line.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <chrono>
#include <cstdio>

using namespace ns3;

namespace
{

/** What one exchange gave. */
struct Result
{
    double roundTimeS{0};
    uint64_t messages{0};
    uint64_t rows{0};
    uint64_t complete{0};
    uint64_t events{0};
    double wallS{0};
    double meanNeighbours{0};
    double airtimeSumS{0}; //!< the transmissions' airtimes added up: their serial length
};

/**
 * \param n devices
 * \param side square side, m
 * \param rangeM hearing range (0: every device is a receiver of every broadcast)
 * \param bytes model size
 * \return the figures
 */
Result
Exchange(uint32_t n, double side, double rangeM, uint64_t bytes)
{
    const auto wall0 = std::chrono::steady_clock::now();
    RngSeedManager::SetSeed(1);
    NodeContainer nodes;
    nodes.Create(n);
    auto u = CreateObject<UniformRandomVariable>();
    u->SetStream(0);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto m = CreateObject<ConstantPositionMobilityModel>();
        const double x = u->GetValue(0, side);
        m->SetPosition(Vector(x, u->GetValue(0, side), 0));
        nodes.Get(i)->AggregateObject(m);
    }
    D2dHelper helper;
    helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
    helper.SetChannelAttribute("RangeM", DoubleValue(rangeM));
    helper.SetInitialEnergyJ(1e9);
    Ptr<D2dChannel> channel = helper.Install(nodes);
    helper.AssignStreams(1);

    Result r;
    Time last;
    uint64_t expected = 0; // rows: one per (message, neighbour)
    for (uint32_t i = 0; i < n; ++i)
    {
        channel->GetRadio(i)->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>(
                [&r, &last, &expected](const D2dDeliveryRecord& rec) {
                    ++r.rows;
                    r.complete += rec.IsComplete();
                    last = Simulator::Now();
                    if (r.rows == expected)
                    {
                        Simulator::Stop(); // the energy sources would update for ever
                    }
                }));
    }
    channel->TraceConnectWithoutContext("Transmission",
                                        Callback<void, uint64_t, uint32_t, uint64_t, Time>(
                                            [&r](uint64_t, uint32_t, uint64_t, Time airtime) {
                                                r.airtimeSumS += airtime.GetSeconds();
                                            }));
    auto model = Create<D2dMessage>("model", bytes);
    uint64_t neighbours = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        neighbours += channel->GetNeighbours(i).size();
        Simulator::ScheduleNow([channel, model, i]() {
            channel->GetRadio(i)->Send(model, D2D_BROADCAST, D2dDeliveryMode::RELIABLE);
        });
        ++r.messages;
    }
    r.meanNeighbours = double(neighbours) / n;
    expected = neighbours;
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    r.events = Simulator::GetEventCount() - events0;
    r.roundTimeS = last.GetSeconds();
    Simulator::Destroy();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return r;
}

void
Print(const char* what, const Result& r)
{
    std::printf("%s: round time %.4f s (simulated), %llu messages, mean %.2f receivers each, "
                "%llu rows, %llu complete, %.1f events per message, wall %.2f s\n",
                what,
                r.roundTimeS,
                static_cast<unsigned long long>(r.messages),
                r.meanNeighbours,
                static_cast<unsigned long long>(r.rows),
                static_cast<unsigned long long>(r.complete),
                double(r.events) / r.messages,
                r.wallS);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 200;
    double side = 500;
    double rangeM = 50;
    uint64_t bytes = 407080;
    bool serialised = true;
    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "devices", nDevices);
    cmd.AddValue("side", "side of the square, m", side);
    cmd.AddValue("rangeM", "hearing range, m", rangeM);
    cmd.AddValue("bytes", "model size, bytes", bytes);
    cmd.AddValue("serialised", "also run with network-wide serialisation", serialised);
    cmd.Parse(argc, argv);

    const Result reuse = Exchange(nDevices, side, rangeM, bytes);
    Print("spatial reuse (range)", reuse);
    // The same transmissions one after the other (what a network-wide serialisation of
    // exactly these transmissions would take, propagation delays aside).
    std::printf("same transmissions back to back: %.4f s; ratio to the round time: %.1f\n",
                reuse.airtimeSumS,
                reuse.airtimeSumS / reuse.roundTimeS);
    if (serialised)
    {
        // Every radio a receiver of every broadcast: the range lifted, so that no two
        // transmissions may overlap anywhere.
        const Result serial = Exchange(nDevices, side, 0.0, bytes);
        Print("network-wide serialisation", serial);
        std::printf("round time ratio (serialised / spatial reuse): %.1f\n",
                    serial.roundTimeS / reuse.roundTimeS);
    }
    return 0;
}
