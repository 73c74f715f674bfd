/*
 * d2dlearn benchmarks: the channel benchmarks' random set-up (message sources, positions).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2DLEARN_BENCH_STREAMS_H
#define D2DLEARN_BENCH_STREAMS_H

#include "ns3/double.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"

#include <cstdint>
#include <string>

/**
 * \file
 * The random variables of the channel benchmarks' message sources (bench-scale,
 * bench-wifi-scale), each on an RNG stream of its own, and their devices' positions.
 */

namespace d2dbench
{

/** \return a source's gaps between messages, exponential of mean 1 / rate s
 * \param rate messages per second \param stream its RNG stream */
inline ns3::Ptr<ns3::ExponentialRandomVariable>
Gap(double rate, int64_t stream)
{
    auto gap = ns3::CreateObject<ns3::ExponentialRandomVariable>();
    gap->SetAttribute("Mean", ns3::DoubleValue(1.0 / rate));
    gap->SetStream(stream);
    return gap;
}

/** \return a source's draw of its peers \param stream its RNG stream */
inline ns3::Ptr<ns3::UniformRandomVariable>
Pick(int64_t stream)
{
    auto pick = ns3::CreateObject<ns3::UniformRandomVariable>();
    pick->SetStream(stream);
    return pick;
}

/**
 * \brief Random positions in the side x side square at a height (constant positions).
 * \param nodes the devices \param side the square's side, m \param heightM their height, m
 */
inline void
Place(ns3::NodeContainer& nodes, double side, double heightM)
{
    ns3::MobilityHelper mobility;
    const std::string uniform =
        "ns3::UniformRandomVariable[Min=0.0|Max=" + std::to_string(side) + "]";
    mobility.SetPositionAllocator("ns3::RandomRectanglePositionAllocator",
                                  "X",
                                  ns3::StringValue(uniform),
                                  "Y",
                                  ns3::StringValue(uniform),
                                  "Z",
                                  ns3::DoubleValue(heightM));
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);
}

} // namespace d2dbench

#endif /* D2DLEARN_BENCH_STREAMS_H */
