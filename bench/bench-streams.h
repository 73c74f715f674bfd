/*
 * d2dlearn benchmarks: the random variables of the channel benchmarks' message sources.
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2DLEARN_BENCH_STREAMS_H
#define D2DLEARN_BENCH_STREAMS_H

#include "ns3/double.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

/**
 * \file
 * The random variables of the channel benchmarks' message sources (bench-scale,
 * bench-wifi-scale), each on an RNG stream of its own.
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

} // namespace d2dbench

#endif /* D2DLEARN_BENCH_STREAMS_H */
