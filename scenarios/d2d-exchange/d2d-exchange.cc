/*
 * d2dlearn scenario: devices exchange messages over lossy D2D links.
 *
 * N devices (random positions in a square, or an RSS matrix from --rssFile) each send
 * messages of a given size, at exponential intervals, to random peers, by broadcast, or
 * to a server over the device-to-server link. The messages go over the D2D channel model
 * (--backend=channel) or as packets over 802.11 ad hoc (--backend=wifi). Writes
 * messages.csv, energy.csv and run.json into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/network-module.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("D2dExchange");

namespace
{
/** Traffic of one device: Poisson arrivals of messages. */
struct Traffic
{
    Ptr<D2dTransport> radio;
    Ptr<D2dTransport> d2sRadio;
    uint32_t nDevices{0};
    uint32_t serverIndex{0};
    uint64_t messageBytes{0};
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE};
    bool broadcast{false};
    double d2sFraction{0.0};
    Time stop;
    Ptr<ExponentialRandomVariable> interval;
    Ptr<UniformRandomVariable> pick;
    Ptr<const D2dMessage> message;
};

void
SendNext(Traffic* t)
{
    // A device sends while a radio of it is on: a depleted battery turns both off. (With
    // --d2sFraction=1 its D2D radio is off from the start, --d2dRadio=auto, and every
    // message goes to the server.)
    const bool on = !t->radio->IsOff() || (t->d2sRadio && !t->d2sRadio->IsOff());
    if (Simulator::Now() >= t->stop || !on)
    {
        return;
    }
    const uint32_t self = t->radio->GetIndex();
    if (t->d2sRadio && t->pick->GetValue() < t->d2sFraction)
    {
        t->d2sRadio->Send(t->message, t->serverIndex, t->mode);
    }
    else if (t->broadcast)
    {
        t->radio->Send(t->message, D2D_BROADCAST, t->mode);
    }
    else
    {
        // A peer other than self, uniformly.
        uint32_t peer = t->pick->GetInteger(0, t->nDevices - 2);
        peer += (peer >= self) ? 1 : 0;
        t->radio->Send(t->message, peer, t->mode);
    }
    Simulator::Schedule(Seconds(t->interval->GetValue()), &SendNext, t);
}
} // namespace

int
main(int argc, char* argv[])
{
    // The network's parameters (devices, channel, energy, RSS, D2S, seed, outDir, quiet).
    D2dNetworkOptions net("results/d2d-exchange");
    // The traffic's and the backend's.
    uint64_t messageBytes = 100000; // bytes per message
    bool broadcast = false;         // broadcast instead of unicast to random peers
    double d2sFraction = 0.0;       // fraction of messages sent to the server
    Time duration = Seconds(10);    // simulated time
    Time meanInterval = Seconds(1); // mean time between a device's messages

    D2dScenarioSupport support("d2d-exchange");
    D2dScenarioFlags flags(support);
    const uint32_t defaultDevices = 10; // --nDevices=0
    net.energy.computes = false;        // no training jobs: no compute flags
    net.AddFlags(flags);
    flags.Find("nDevices").ShownDefault(std::to_string(defaultDevices));
    flags.Add("messageBytes", "Message size, bytes", messageBytes).Range(1, 1e10);
    flags.Add("broadcast", "Broadcast every message instead of unicasting", broadcast);
    flags.Add("d2sFraction", "Fraction of messages sent to the server (D2S)", d2sFraction)
        .Range(0, 1);
    flags.Add("duration", "Simulated time", duration).Positive(1e9);
    flags.Add("meanInterval", "Mean time between a device's messages", meanInterval).Positive(1e9);
    flags.Parse(argc, argv);

    {
        // A message goes to the server with probability d2sFraction, else to a device.
        D2dTraffic traffic;
        traffic.chosen = "--d2sFraction=" + D2dScenarioSupport::FormatNumber(d2sFraction);
        traffic.d2d = d2sFraction < 1;
        traffic.d2s = d2sFraction > 0;
        traffic.d2dUsers = "--d2sFraction below 1";
        traffic.d2sUsers = "--d2sFraction above 0";
        net.SetTraffic(traffic);
    }
    net.Validate(support, defaultDevices);
    {
        // Every device sends about duration / meanInterval messages: bounded, so that the
        // queues, the event list and messages.csv stay bounded too.
        const double messages = static_cast<double>(net.links.nDevices) *
                                D2dScenarioSupport::ToSeconds(duration) /
                                D2dScenarioSupport::ToSeconds(meanInterval);
        const double maxMessages = 1e6;
        if (messages > maxMessages)
        {
            support.Fail(fmt::format("--meanInterval={:.6g} s with --duration={:.6g} s and {} "
                                     "devices sends about {:.3g} messages (accepted: at most "
                                     "{:g}: a longer --meanInterval, a shorter --duration or "
                                     "fewer devices)",
                                     D2dScenarioSupport::ToSeconds(meanInterval),
                                     D2dScenarioSupport::ToSeconds(duration),
                                     net.links.nDevices,
                                     messages,
                                     maxMessages));
        }
    }
    support.SetQuiet(net.run.quiet);
    if (net.run.printLinks)
    {
        net.PrintLinks(std::cout, d2sFraction > 0, {{"data", messageBytes}});
        return 0;
    }
    std::unique_ptr<D2dTraceHelper> traces = net.OpenTraces(support);

    // The devices' transports: radios on the D2D channel, or 802.11 ad hoc (--backend).
    D2dNetwork network = net.Build(*traces, d2sFraction > 0);
    const std::vector<Ptr<D2dTransport>>& transports = network.d2dTransports;
    int64_t stream = network.nextStream;
    const uint32_t nDevices = net.links.nDevices;

    auto message = Create<D2dMessage>("data", messageBytes);
    std::vector<Traffic> traffic(nDevices);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        Traffic& t = traffic[i];
        t.radio = transports[i];
        t.d2sRadio = network.d2sTransports.empty() ? nullptr : network.d2sTransports[i];
        t.nDevices = nDevices;
        t.serverIndex = nDevices;
        t.messageBytes = messageBytes;
        t.mode = network.mode;
        t.broadcast = broadcast;
        t.d2sFraction = d2sFraction;
        t.stop = duration;
        t.interval = CreateObject<ExponentialRandomVariable>();
        t.interval->SetAttribute("Mean", DoubleValue(meanInterval.GetSeconds()));
        t.interval->SetStream(stream++);
        t.pick = CreateObject<UniformRandomVariable>();
        t.pick->SetStream(stream++);
        t.message = message;
        Simulator::Schedule(Seconds(t.interval->GetValue()), &SendNext, &t);
    }

    // run.json: the command line, every parameter and the attributes in force.
    flags.Record(*traces);
    net.Record(*traces, network);

    support.StartProgress(duration / 10, duration);
    Simulator::Stop(duration);
    Simulator::Run();
    support.FinishTraces(traces, net.run.seed);
    if (!net.run.quiet)
    {
        std::fprintf(stderr,
                     "d2d-exchange: %llu message rows, %llu energy rows in %s\n",
                     static_cast<unsigned long long>(traces->GetNMessageRows()),
                     static_cast<unsigned long long>(traces->GetNEnergyRows()),
                     net.run.outDir.c_str());
    }
    Simulator::Destroy();
    return 0;
}
