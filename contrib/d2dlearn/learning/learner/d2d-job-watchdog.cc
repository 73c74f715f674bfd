/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-job-watchdog.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <errno.h>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <thread>

namespace ns3
{

namespace
{

using Clock = std::chrono::steady_clock;

/** \brief The default end of a late job: the line on stderr, exit status 2 \param what it */
void
ExitLate(const std::string& what)
{
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", program_invocation_short_name, what.c_str());
    std::fflush(stderr);
    std::_Exit(2);
}

/** \return the function SetOnLate() set */
std::atomic<void (*)(const std::string&)>&
OnLate()
{
    static std::atomic<void (*)(const std::string&)> onLate{&ExitLate};
    return onLate;
}

/** A job under watch. */
struct Watched
{
    Clock::time_point deadline; //!< when its budget runs out
    std::string what;           //!< the job, for the error
    double budgetSeconds;       //!< its budget, s
    std::string budgetText;     //!< how the budget came about
};

/** The monitor: the jobs under watch and the thread that ends the process for a late one. */
struct Monitor
{
    std::mutex mutex;                 //!< guards the table
    std::condition_variable changed;  //!< a job came or went
    std::map<uint64_t, Watched> jobs; //!< by id
    uint64_t next{0};                 //!< the next id
    bool started{false};              //!< the thread runs

    /** The thread's loop: sleep until the earliest deadline or a change; end the process at
     *  a deadline passed. It never returns (detached; the process's end ends it). */
    void Run()
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;)
        {
            if (jobs.empty())
            {
                changed.wait(lock);
                continue;
            }
            auto first = jobs.begin();
            for (auto it = jobs.begin(); it != jobs.end(); ++it)
            {
                if (it->second.deadline < first->second.deadline)
                {
                    first = it;
                }
            }
            if (Clock::now() >= first->second.deadline)
            {
                const Watched late = first->second;
                lock.unlock();
                OnLate().load()(
                    fmt::format("{} ran longer than its wall-time budget of {:.6g} s ({}): a "
                                "forward that never returns? (if it would end, give a longer "
                                "--jobWallLimit)",
                                late.what,
                                late.budgetSeconds,
                                late.budgetText));
            }
            changed.wait_until(lock, first->second.deadline);
        }
    }
};

Monitor&
TheMonitor()
{
    static Monitor* monitor = new Monitor; // never destroyed: its thread may outlive main
    return *monitor;
}

std::atomic<double> g_limitSeconds{0.0};

} // namespace

void
D2dJobWatchdog::SetOnLate(void (*onLate)(const std::string& what))
{
    OnLate().store(onLate ? onLate : &ExitLate);
}

void
D2dJobWatchdog::SetLimitSeconds(double seconds)
{
    g_limitSeconds.store(seconds);
}

double
D2dJobWatchdog::GetLimitSeconds()
{
    return g_limitSeconds.load();
}

double
D2dJobWatchdog::GetBudgetSeconds(double flops)
{
    const double limit = GetLimitSeconds();
    return limit > 0 ? limit : BASE_SECONDS + std::max(flops, 0.0) / AUTO_FLOPS_PER_SECOND;
}

std::string
D2dJobWatchdog::DescribeBudget(double flops)
{
    const double limit = GetLimitSeconds();
    if (limit > 0)
    {
        return fmt::format("--jobWallLimit={:.6g}s", limit);
    }
    return fmt::format("the default: {:.6g} s + {:.3g} FLOPs at {:.3g} FLOP/s",
                       BASE_SECONDS,
                       std::max(flops, 0.0),
                       AUTO_FLOPS_PER_SECOND);
}

D2dJobWatchdog::Guard::Guard(const std::string& what,
                             double budgetSeconds,
                             const std::string& budgetText)
{
    auto& m = TheMonitor();
    std::lock_guard<std::mutex> lock(m.mutex);
    if (!m.started)
    {
        m.started = true;
        std::thread([&m]() { m.Run(); }).detach();
    }
    m_id = m.next++;
    const auto budget = std::chrono::duration<double>(budgetSeconds);
    m.jobs[m_id] = Watched{Clock::now() + std::chrono::duration_cast<Clock::duration>(budget),
                           what,
                           budgetSeconds,
                           budgetText};
    m.changed.notify_one();
}

D2dJobWatchdog::Guard::~Guard()
{
    auto& m = TheMonitor();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.jobs.erase(m_id);
    m.changed.notify_one();
}

} // namespace ns3
