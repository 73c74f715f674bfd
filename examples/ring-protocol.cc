/*
 * d2dlearn example: add a protocol in one file plus one registry line (the how-to
 * doc/howto/add-a-protocol.md is built from this file, and CTest runs it).
 *
 * The protocol: decentralized SGD on a ring, the topology of D-PSGD (Lian, Zhang, Zhang,
 * Hsieh, Zhang, Liu, "Can Decentralized Algorithms Outperform Centralized Algorithms? A Case
 * Study for Decentralized Parallel Stochastic Gradient Descent", NeurIPS 2017): each round
 * every device trains, then averages its model with those of its two ring neighbours,
 * devices i - 1 and i + 1 (mod N). It is D2dDecentralizedFl with one step overridden, the
 * choice of in-neighbours (DrawInNeighbours); messages, losses, retransmissions, energy and
 * training time are the library's.
 *
 *   build/bin/ring-protocol [--algorithm=ring] [--nDevices=6] [--rounds=2] [--dataFraction=0.02]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-module.h"

#include <algorithm>
#include <iostream>
#include <set>

using namespace ns3;

/** Decentralized FL whose in-neighbours are the two ring neighbours of each device. */
class D2dRingFl : public D2dDecentralizedFl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::D2dRingFl")
                                .SetParent<D2dDecentralizedFl>()
                                .SetGroupName("D2dlearn")
                                .AddConstructor<D2dRingFl>();
        return tid;
    }

  protected:
    /** The one step this protocol changes: device i averages with i - 1 and i + 1. */
    std::vector<std::vector<uint32_t>> DrawInNeighbours(uint32_t /* round */) override
    {
        const uint32_t n = GetNDevices();
        std::vector<std::vector<uint32_t>> in(n);
        for (uint32_t i = 0; i < n && n > 1; ++i)
        {
            const std::set<uint32_t> ring{(i + n - 1) % n, (i + 1) % n}; // one if n = 2
            in[i].assign(ring.begin(), ring.end());
        }
        return in;
    }
};

NS_OBJECT_ENSURE_REGISTERED(D2dRingFl);

int
main(int argc, char* argv[])
{
    // The one registry line: the name users select, the class, its label and source, no
    // presets or aggregation rule, and the program that offers it.
    D2dProtocolRegistry::Register({"ring",
                                   "ns3::D2dRingFl",
                                   "Ring (D-PSGD)",
                                   "Lian et al., NeurIPS 2017 (D-PSGD on a ring)",
                                   {},
                                   "",
                                   {"ring-protocol"}});

    std::string algorithm = "ring";
    uint32_t nDevices = 6;
    double dataFraction = 0.02;
    Config::SetDefault("ns3::D2dFlProtocol::Rounds", UintegerValue(2));
    // This program's choices: the registry's protocols of "ring-protocol" (the one above).
    const D2dProtocolChoice protocols("algorithm", "ring-protocol");
    CommandLine cmd(__FILE__);
    cmd.AddValue("algorithm", "The protocol: " + D2dText::OrList(protocols.GetNames()), algorithm);
    cmd.AddValue("nDevices", "Devices (at least 3)", nDevices);
    cmd.AddValue("dataFraction", "Fraction of Fashion-MNIST used", dataFraction);
    cmd.AddValue("rounds", "ns3::D2dFlProtocol::Rounds");
    cmd.Parse(argc, argv);
    const auto& names = protocols.GetNames();
    if (std::find(names.begin(), names.end(), algorithm) == names.end() || nDevices < 3)
    {
        std::cerr << "ring-protocol: error: --algorithm=" << algorithm << " --nDevices=" << nDevices
                  << " (accepted: " << D2dText::OrList(names) << ", at least 3 devices)"
                  << std::endl;
        return 2;
    }

    // The network: devices 10 m apart, a D2D channel with an ideal MAC.
    NodeContainer devices;
    devices.Create(nDevices);
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator", "DeltaX", DoubleValue(10));
    mobility.Install(devices);
    D2dHelper d2d;
    d2d.SetChannelAttribute("AccessPolicy", StringValue("Scheduled"));
    Ptr<D2dChannel> channel = d2d.Install(devices);
    d2d.AssignStreams(10);

    // The protocol by its registry name, a learner on every device.
    auto train = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "train", dataFraction, 1);
    auto test = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "test", dataFraction, 2);
    D2dLearningHelper learning;
    learning.SetProtocol(algorithm);
    learning.SetData(train, D2dPartitioner::Iid(*train, nDevices, 1), test);
    learning.SetModel(D2dModelSpec::Parse("logistic"));
    auto protocol = learning.Install(devices, channel, nullptr, D2dDeliveryMode::RELIABLE);
    learning.AssignStreams(protocol, 100);

    // Check what the override changed: every device averaged with its ring neighbours.
    uint32_t averagings = 0;
    uint32_t offRing = 0;
    protocol->TraceConnectWithoutContext(
        "Averaged",
        Callback<void, uint32_t, uint32_t, const std::vector<uint32_t>&>(
            [&](uint32_t, uint32_t device, const std::vector<uint32_t>& contributors) {
                ++averagings;
                const std::set<uint32_t> expected{(device + nDevices - 1) % nDevices,
                                                  device,
                                                  (device + 1) % nDevices};
                if (std::set<uint32_t>(contributors.begin(), contributors.end()) != expected)
                {
                    ++offRing;
                }
            }));
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Run();
    std::cout << D2dProtocolRegistry::GetProtocol(algorithm).label << ": rounds completed "
              << protocol->GetRoundsDone() << ", averagings " << averagings << ", off the ring "
              << offRing << ", mean accuracy " << protocol->GetLastAccuracy() << std::endl;
    Simulator::Destroy();
    return 0;
}
