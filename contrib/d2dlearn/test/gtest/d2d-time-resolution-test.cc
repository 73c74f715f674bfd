/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit test of D2dHelper::FixTimeResolution: before it, ns-3 records every Time
 * constructed (a std::set node, 48 heap bytes each); after it, constructing Times takes no
 * heap, the resolution is the same unit and Times made before keep their values. CTest runs
 * each case in a process of its own, so the recording is on when the case starts (checked).
 * Not in the sanitized build: AddressSanitizer's allocator is not glibc's, which mallinfo2
 * reads.
 */

#include "ns3/d2d-helper.h"
#include "ns3/nstime.h"

#include <cstddef>
#include <gtest/gtest.h>
#include <malloc.h>
#include <vector>

using namespace ns3;

namespace
{
/** \return the glibc heap bytes in use */
double
HeapBytes()
{
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
}

/** \return heap bytes per Time of constructing n Times in reserved storage */
double
HeapPerTime(std::vector<Time>& times, std::size_t n)
{
    times.reserve(times.size() + n);
    const double before = HeapBytes();
    for (std::size_t i = 0; i < n; ++i)
    {
        times.emplace_back();
    }
    return (HeapBytes() - before) / static_cast<double>(n);
}
} // namespace

TEST(D2dTimeResolution, FixingStopsTheRecordingOfTimesAndKeepsTheirValues)
{
    const auto unit = Time::GetResolution();
    const Time early = Seconds(1.5);
    std::vector<Time> recorded;
    // ns-3 records each Time until the resolution is fixed: at least a set node's payload.
    ASSERT_GE(HeapPerTime(recorded, 10000), 32.0)
        << "ns-3 did not record Times: the case must run in a fresh process";
    D2dHelper::FixTimeResolution();
    EXPECT_EQ(Time::GetResolution(), unit);
    EXPECT_EQ(early.GetNanoSeconds(), 1500000000);
    EXPECT_EQ(MilliSeconds(250).GetNanoSeconds(), 250000000);
    std::vector<Time> free;
    EXPECT_LT(HeapPerTime(free, 10000), 1.0);
}
