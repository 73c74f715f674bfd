/*
 * d2dlearn benchmark: what one device holds, object by object, before any model is trained.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand; prints its figures. Builds --nDevices devices the way the fedavg scenario
 * does (D2dNetworkOptions::Build, D2dLearningOptions::LoadData and Configure,
 * D2dLearningHelper::Install: FedAvg over D2S, or --algorithm=decentralized on a range
 * graph), and measures the heap bytes in use (glibc mallinfo2: uordblks + hblkhd) after each
 * step, divided by the number of devices:
 *
 *   data + shards      the data set (shared, divided over N) and each device's shard indices
 *   network            nodes, positions, energy sources and models, D2D (and D2S) radios,
 *                      channels and channel access: the whole of Build()
 *   learners+protocol  each device's learner (model spec, optimizer settings, torch
 *                      generator) and the protocol's per-device state
 *   neighbour lists    (decentralized) the in-neighbour lists of the range graph
 *
 * and, to split "network", the same objects built alone on further node sets of the same
 * size: nodes; + ConstantPosition mobility; + an energy source and compute model
 * (D2dHelper::InstallWithoutRadios); + a D2D radio, its energy model and the channel
 * (D2dHelper::Install minus the former); a D2S radio, its energy model and the D2S channel
 * (D2dHelper::InstallServer).
 * Nothing is simulated. --stages=false prints the assembly only (for 1,000,000 devices the
 * separate builds double the memory).
 */

#include "bench-timing.h"

#include "ns3/boolean.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/** \return the heap bytes in use: small blocks (uordblks) and mmapped ones (hblkhd) */
double
HeapBytes()
{
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
}

/** Prints one line of the breakdown: bytes per device of a step. */
void
Row(const char* what, double bytes, uint32_t n)
{
    std::printf("  %-42s %10.0f B per device  (%9.1f MB in all)\n",
                what,
                bytes / n,
                bytes / 1048576.0);
}

/**
 * \brief The network's objects, each kind built alone on n further nodes: heap bytes per
 * device of each (Row).
 * \param n the devices
 * \param d2sDistanceFactor the D2S link's distance factor (--d2sDistanceFactor)
 */
void
MeasureStages(uint32_t n, double d2sDistanceFactor)
{
    std::printf("the network's objects, built alone on %u further nodes:\n", n);
    double a = HeapBytes();
    NodeContainer nodes;
    nodes.Create(n);
    double b = HeapBytes();
    Row("ns3::Node (and its device list)", b - a, n);
    MobilityHelper mobility;
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    a = HeapBytes();
    mobility.Install(nodes);
    b = HeapBytes();
    Row("ConstantPositionMobilityModel", b - a, n);
    {
        D2dHelper d2d;
        a = HeapBytes();
        d2d.InstallWithoutRadios(nodes);
        b = HeapBytes();
        Row("energy source + compute model", b - a, n);
    }
    NodeContainer more;
    more.Create(n);
    mobility.Install(more);
    {
        D2dHelper d2d;
        a = HeapBytes();
        d2d.Install(more);
        b = HeapBytes();
    }
    const double withRadios = b - a;
    {
        NodeContainer plain;
        plain.Create(n);
        mobility.Install(plain);
        D2dHelper d2d;
        a = HeapBytes();
        d2d.InstallWithoutRadios(plain);
        b = HeapBytes();
    }
    Row("D2D radio + its energy model + channel", withRadios - (b - a), n);
    {
        NodeContainer d2s;
        d2s.Create(n);
        mobility.Install(d2s);
        Ptr<Node> server = CreateObject<Node>();
        mobility.Install(server);
        D2dHelper d2d;
        d2d.Install(d2s);
        a = HeapBytes();
        d2d.InstallServer(server, d2s, d2sDistanceFactor);
        b = HeapBytes();
    }
    Row("D2S radio + its energy model + channel", b - a, n);
}

} // namespace

int
main(int argc, char* argv[])
{
    const double heapStart = HeapBytes();
    char dir[] = "/tmp/d2dlearn-bench-footprint.XXXXXX";
    if (!mkdtemp(dir))
    {
        std::perror("bench-footprint: mkdtemp");
        return 1;
    }
    D2dLearningOptions learning;
    learning.training.rounds = 1;
    learning.data.dataset = "gaussian-mixture";
    learning.training.model = "mlp:16";
    learning.data.dataFraction = 1;
    D2dNetworkOptions net(std::string(dir) + "/out");
    net.links.nDevices = 10000;
    net.run.quiet = true;
    std::string algorithm = "fedavg";
    bool stages = true;
    D2dScenarioSupport support("bench-footprint");
    D2dScenarioFlags flags(support);
    learning.AddFlags(flags);
    net.AddFlags(flags);
    flags.Add("algorithm", "fedavg (D2S) or decentralized (range graph)", algorithm)
        .Choices({"fedavg", "decentralized"});
    flags.Add("stages", "Also build each kind of object alone (splits the network)", stages);
    flags.Parse(argc, argv);
    const bool decentralized = algorithm == "decentralized";
    if (!flags.Given("syntheticSamples"))
    {
        learning.data.syntheticSamples = 2ULL * std::max<uint32_t>(net.links.nDevices, 10000);
    }
    if (decentralized && !flags.Given("rangeM"))
    {
        net.links.rangeM = 50;
    }
    learning.checkModelMemory = false; // no model is trained here
    learning.Validate(support, false);
    net.Validate(support, 10000, 2);
    support.SetQuiet(true);
    const uint32_t n = net.links.nDevices;
    const double t0 = d2dbench::WallSeconds();

    const double h0 = HeapBytes();
    learning.LoadData(support, n, net.run.seed);
    const double h1 = HeapBytes();
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, !decentralized);
    const double h2 = HeapBytes();
    D2dLearningHelper helper;
    helper.SetProtocolType(decentralized ? "ns3::D2dDecentralizedFl" : "ns3::D2dFedAvg");
    helper.SetProtocolAttribute("EvaluateDevices", BooleanValue(false));
    learning.Configure(helper, net.run.seed);
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    const double h3 = HeapBytes();
    double h4 = h3;
    if (decentralized)
    {
        DynamicCast<D2dDecentralizedFl>(protocol)->SetGraph(network.InNeighbours());
        h4 = HeapBytes();
    }
    const double assembled = d2dbench::WallSeconds() - t0;

    std::printf("bench-footprint: %u devices, %s, %s, model %s, %llu samples; %.1f s to "
                "assemble\n",
                n,
                decentralized ? "decentralized on a range graph" : "FedAvg over D2S",
                learning.data.dataset.c_str(),
                learning.training.model.c_str(),
                static_cast<unsigned long long>(learning.data.syntheticSamples),
                assembled);
    std::printf("the assembly (heap bytes in use after each step):\n");
    Row("data + shards", h1 - h0, n);
    Row("network (Build)", h2 - h1, n);
    Row("learners + protocol (Install)", h3 - h2, n);
    if (decentralized)
    {
        Row("neighbour lists (SetGraph)", h4 - h3, n);
    }
    Row("total", h4 - h0, n);
    std::printf("idle per-device footprint %.0f B (network + learners + protocol%s)\n",
                (h4 - h1) / n,
                decentralized ? " + neighbour lists" : "");

    if (stages)
    {
        MeasureStages(n, net.placement.d2sDistanceFactor);
    }
    std::printf("peak RSS (VmHWM) %.1f MB; heap at start %.1f MB\n",
                d2dbench::PeakRssMb(),
                heapStart / 1048576.0);
    D2dTorchRuntime::Shutdown();
    Simulator::Destroy();
    std::string rm = std::string("rm -rf ") + dir;
    if (std::system(rm.c_str()) != 0)
    {
        std::fprintf(stderr, "bench-footprint: could not remove %s\n", dir);
    }
    return 0;
}
