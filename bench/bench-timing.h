/*
 * d2dlearn benchmarks: the clock, the memory reading and the statistic the benchmarks share.
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2DLEARN_BENCH_TIMING_H
#define D2DLEARN_BENCH_TIMING_H

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <sys/resource.h>
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

/** \return the CPU time (user + system) of this process so far, s */
inline double
CpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/**
 * \param field a field of /proc/self/status, e.g. "VmHWM" (peak RSS) or "VmRSS"
 * \return its value, kB, or -1 if absent
 */
inline long
ProcStatusKb(const std::string& field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
    {
        if (line.compare(0, field.size() + 1, field + ":") == 0)
        {
            return std::stol(line.substr(field.size() + 1));
        }
    }
    return -1;
}

/** \return the peak resident memory of this process (VmHWM), MB, or -1 */
inline double
PeakRssMb()
{
    const long kb = ProcStatusKb("VmHWM");
    return kb < 0 ? -1 : kb / 1024.0;
}

} // namespace d2dbench

#endif /* D2DLEARN_BENCH_TIMING_H */
