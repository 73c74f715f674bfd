/*
 * d2dlearn example: the range graph.
 *
 * With the channel attribute RangeM > 0, a device hears another only when it is closer
 * than RangeM (and the link's RSS is above RxSensitivityW); broadcasts reach only those
 * neighbours and named receivers out of range get nothing. D2dChannel::GetNeighbours(j)
 * lists the devices that hear j, ascending. This program places devices uniformly at
 * random in a square and prints each device's position and neighbours.
 *
 *   build/bin/range-graph [--nDevices=12] [--areaSideM=100] [--rangeM=40] [--seed=1]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"

#include <cstdio>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 12; // devices
    double areaSideM = 100; // side of the square, m
    double rangeM = 40;     // hearing range, m
    uint32_t seed = 1;      // seeds the positions

    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Number of devices", nDevices);
    cmd.AddValue("areaSideM", "Side of the square the devices are placed in, m", areaSideM);
    cmd.AddValue("rangeM", "Hearing range of the radios, m", rangeM);
    cmd.AddValue("seed", "Seed of the random positions", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(seed);

    NodeContainer nodes;
    nodes.Create(nDevices);
    const std::string side =
        "ns3::UniformRandomVariable[Min=0|Max=" + std::to_string(areaSideM) + "]";
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::RandomRectanglePositionAllocator",
                                  "X",
                                  StringValue(side),
                                  "Y",
                                  StringValue(side));
    mobility.Install(nodes);

    D2dHelper d2d;
    d2d.SetChannelAttribute("RangeM", DoubleValue(rangeM));
    Ptr<D2dChannel> channel = d2d.Install(nodes);

    uint32_t links = 0;
    for (uint32_t j = 0; j < nDevices; ++j)
    {
        const Vector p = nodes.Get(j)->GetObject<MobilityModel>()->GetPosition();
        std::printf("device %u at (%.6f, %.6f) heard by:", j, p.x, p.y);
        for (uint32_t i : channel->GetNeighbours(j))
        {
            std::printf(" %u", i);
            ++links;
        }
        std::printf("\n");
    }
    std::printf("%u devices, range %g m: %u directed links, mean degree %.3f\n",
                nDevices,
                rangeM,
                links,
                nDevices > 0 ? static_cast<double>(links) / nDevices : 0.0);
    Simulator::Destroy();
    return 0;
}
