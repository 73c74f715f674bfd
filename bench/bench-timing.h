/*
 * d2dlearn benchmarks: the clock and the statistic the benchmarks share.
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2DLEARN_BENCH_TIMING_H
#define D2DLEARN_BENCH_TIMING_H

#include <algorithm>
#include <chrono>
#include <vector>

namespace d2dbench
{

/** \return a monotonic wall clock, seconds (differences only) */
inline double
WallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/** \return the median of v (the upper one of an even count; 0 if v is empty) */
inline double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace d2dbench

#endif /* D2DLEARN_BENCH_TIMING_H */
