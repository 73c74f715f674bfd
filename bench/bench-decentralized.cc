/*
 * d2dlearn benchmark: one round of decentralized FL among the neighbours in range, with the
 * channel's Scheduled access (spatial reuse) against network-wide serialisation.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. One round of D2dDecentralizedFl (Wagle et al. 2025,
 * sec. VI-E) with the range graph of `fedavg --algorithm=decentralized --graph=range`:
 * --nDevices devices (default 200) uniformly in an --areaSideM square (default 500 m), each
 * averaging with every device it hears within --rangeM (default 50 m), the models (default:
 * the 784-128-10 MLP, 407 KB) sent reliably over the eq. 18 channel, real LibTorch training
 * in simulated time. Every scenario flag of the network and of learning is accepted.
 *
 * Printed: the simulated round time with spatial reuse (the protocol's round end); the
 * same round's transmissions laid end to end after the first local job ends (their airtimes
 * from the channel's Transmission trace, added up: what a network-wide serialisation of
 * exactly these transmissions, one on the air at a time anywhere, would take, propagation
 * delays aside, and a lower bound since later jobs end later) and the ratio of the two; then
 * messages, complete rows, simulator events per message and the wall time. For 10,000 devices at
 * the same density: bench-decentralized --nDevices=10000 --areaSideM=3536 --model=logistic
 * --dataFraction=1
 */

#include "bench-timing.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{
using d2dbench::PeakRssMb;
} // namespace

int
main(int argc, char* argv[])
{
    const auto wall0 = std::chrono::steady_clock::now();
    D2dLearningOptions learning;
    learning.training.rounds = 1;
    learning.data.dataFraction = 0.05;
    char dir[] = "/tmp/d2d-bench-decentralized-XXXXXX";
    NS_ABORT_MSG_IF(!mkdtemp(dir), "bench-decentralized: cannot make a temporary folder");
    D2dNetworkOptions net(std::string(dir) + "/out");
    net.links.nDevices = 200;
    net.placement.areaSideM = 500;
    net.links.rangeM = 50;
    net.links.reliable = true;
    net.links.access = "scheduled";
    net.run.quiet = true;
    D2dScenarioSupport support("bench-decentralized");
    D2dScenarioFlags flags(support);
    learning.AddFlags(flags);
    net.AddFlags(flags);
    flags.Parse(argc, argv);
    learning.Validate(support, false);
    net.Validate(support, 200, 2);
    NS_ABORT_MSG_IF(net.links.rangeM <= 0, "bench-decentralized: --rangeM must be > 0");
    support.SetQuiet(true);
    const uint32_t n = net.links.nDevices;

    learning.LoadData(support, n, net.run.seed);
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, false);
    D2dLearningHelper helper;
    helper.SetProtocolType("ns3::D2dDecentralizedFl");
    helper.SetProtocolAttribute("Neighbours", UintegerValue(n));
    helper.SetProtocolAttribute("RoundDeadline", TimeValue(Seconds(0))); // the whole round
    helper.SetProtocolAttribute("EvaluateDevices", BooleanValue(false));
    learning.Configure(helper, net.run.seed);
    auto fl = DynamicCast<D2dDecentralizedFl>(helper.Install(network));
    const auto in = D2dHelper::InNeighbours(network.channel);
    uint64_t links = 0;
    for (const auto& heard : in)
    {
        links += heard.size();
    }
    fl->SetGraph(in);
    helper.AssignStreams(fl, network.nextStream);

    double airtimeS = 0;
    uint64_t transmissions = 0;
    network.channel->TraceConnectWithoutContext(
        "Transmission",
        Callback<void, uint64_t, uint32_t, uint64_t, Time>(
            [&airtimeS, &transmissions](uint64_t, uint32_t, uint64_t, Time airtime) {
                airtimeS += airtime.GetSeconds();
                ++transmissions;
            }));
    uint64_t messages = 0;
    uint64_t complete = 0;
    uint64_t rows = 0;
    double lastModelAt = 0;
    double firstModelAt = 1e300;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<D2dTransport> t = network.channel->GetRadio(i);
        t->TraceConnectWithoutContext(
            "Send",
            Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                [&](uint64_t, Ptr<const D2dMessage>, uint32_t) {
                    ++messages;
                    firstModelAt = std::min(firstModelAt, Simulator::Now().GetSeconds());
                }));
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&](const D2dDeliveryRecord& r) {
                ++rows;
                complete += r.IsComplete();
                lastModelAt = Simulator::Now().GetSeconds();
            }));
    }
    double roundTimeS = 0;
    fl->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&roundTimeS](uint32_t, double, double) {
            roundTimeS = Simulator::Now().GetSeconds();
        }));
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    const double setupS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const auto run0 = std::chrono::steady_clock::now();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::ScheduleNow(&D2dFlProtocol::Start, fl);
    Simulator::Stop(Seconds(1e7));
    Simulator::Run();
    D2dTorchRuntime::Shutdown(); // nothing queued may run past the simulation
    const uint64_t events = Simulator::GetEventCount() - events0;
    const double runS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
    traces->Finish(net.run.seed, 0.0);
    Simulator::Destroy();
    std::string rm = std::string("rm -rf ") + dir;
    if (std::system(rm.c_str()) != 0)
    {
        std::fprintf(stderr, "bench-decentralized: could not remove %s\n", dir);
    }

    // Local jobs start together at t = 0 and the first model leaves when the first ends;
    // serialised, the transmissions could at best follow it one by one: a lower bound of
    // the serialised round time (so the ratio printed is a lower bound too).
    const double trainS = firstModelAt < 1e300 ? firstModelAt : 0.0;
    const double serialS = trainS + airtimeS;
    std::printf("devices %u in %.0f m square, range %.0f m: mean %.2f neighbours, model %s\n",
                n,
                net.placement.areaSideM,
                net.links.rangeM,
                double(links) / n,
                learning.training.model.c_str());
    std::printf("spatial reuse (Scheduled access): round time %.3f s simulated (first model "
                "sent at %.3f s, last outcome at %.3f s)\n",
                roundTimeS,
                trainS,
                lastModelAt);
    std::printf("network-wide serialisation, at least (first model's send time + %llu "
                "transmissions' airtimes %.3f s end to end): %.3f s; ratio serialised / spatial "
                "reuse >= %.1f\n",
                static_cast<unsigned long long>(transmissions),
                airtimeS,
                serialS,
                roundTimeS > 0 ? serialS / roundTimeS : 0.0);
    std::printf("messages %llu, rows %llu, complete %llu; %.1f simulator events per message; "
                "wall %.2f s (set-up %.2f s, simulation %.2f s)\n",
                static_cast<unsigned long long>(messages),
                static_cast<unsigned long long>(rows),
                static_cast<unsigned long long>(complete),
                messages ? double(events) / messages : 0.0,
                setupS + runS,
                setupS,
                runS);
    // The simulation's wall time per message includes the local training jobs that run
    // during it (on the worker pool): with --model=logistic they are small.
    std::printf("simulation wall time per message %.1f us, per event %.2f us; events %llu; "
                "peak RSS %.0f MB\n",
                messages ? runS * 1e6 / double(messages) : 0.0,
                events ? runS * 1e6 / double(events) : 0.0,
                static_cast<unsigned long long>(events),
                PeakRssMb());
    return 0;
}
