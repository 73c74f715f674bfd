/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-memory-budget.h"

#include "d2d-scenario-support.h"

#include "ns3/d2d-matrix-csv.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace ns3
{

D2dMemoryBudget::D2dMemoryBudget(std::function<Terms(uint64_t)> terms)
    : m_terms(std::move(terms))
{
}

double
D2dMemoryBudget::Bytes(uint64_t n) const
{
    double total = ProgramBytes;
    for (const auto& [what, bytes] : m_terms(n))
    {
        total += bytes;
    }
    return total;
}

uint64_t
D2dMemoryBudget::MaxDevices(double available, uint64_t upTo) const
{
    if (upTo == 0 || Bytes(1) > available)
    {
        return 0;
    }
    uint64_t lo = 1; // fits
    uint64_t hi = upTo;
    if (Bytes(hi) <= available)
    {
        return hi;
    }
    while (hi - lo > 1) // Bytes(lo) fits, Bytes(hi) does not
    {
        const uint64_t mid = lo + (hi - lo) / 2;
        (Bytes(mid) <= available ? lo : hi) = mid;
    }
    return lo;
}

std::string
D2dMemoryBudget::Describe(uint64_t n) const
{
    Terms terms = m_terms(n);
    const double total = Bytes(n);
    std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
        return a.second > b.second;
    });
    std::string out;
    for (const auto& [what, bytes] : terms)
    {
        if (bytes >= 0.01 * total)
        {
            out += fmt::format("{}{} {:.3g} GB", out.empty() ? "" : ", ", what, bytes / 1e9);
        }
    }
    return out;
}

std::string
D2dMemoryBudget::Refusal(const std::string& scenario, uint64_t n, double available) const
{
    const double need = Bytes(n);
    if (need <= available)
    {
        return "";
    }
    const uint64_t fits = MaxDevices(available, n);
    const std::string terms = Describe(n);
    return fmt::format("--nDevices={}: {} holds about {:.3g} GB for {} devices ({}), more than "
                       "the {:.3g} GB available{} (accepted here: {})",
                       n,
                       scenario,
                       need / 1e9,
                       n,
                       terms.empty() ? "the program itself" : terms,
                       available / 1e9,
                       AvailableNote(available),
                       fits == 0 ? std::string("no size; free memory, or raise D2DLEARN_MEMORY_MB")
                                 : fmt::format("at most {} devices", fits));
}

void
D2dMemoryBudget::Check(const D2dScenarioSupport& support,
                       const std::string& scenario,
                       uint64_t n) const
{
    double available = 0;
    try
    {
        available = AvailableBytes();
    }
    catch (const std::invalid_argument& e)
    {
        support.Fail(e.what());
    }
    const std::string refusal = Refusal(scenario, n, available);
    if (!refusal.empty())
    {
        support.Fail(refusal);
    }
}

namespace
{

/** \return the first line of path as a number, or -1 (missing, "max", or not a number) */
double
ReadNumber(const std::string& path)
{
    std::ifstream in(path);
    std::string text;
    if (!(in >> text))
    {
        return -1;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && v >= 0 ? v : -1;
}

/** \return the room left under the process's cgroup v2 memory.max, bytes, or -1 */
double
CgroupRoom()
{
    std::ifstream self("/proc/self/cgroup");
    std::string line;
    while (std::getline(self, line))
    {
        if (line.rfind("0::", 0) == 0)
        {
            const std::string dir = "/sys/fs/cgroup" + line.substr(3);
            const double max = ReadNumber(dir + "/memory.max");
            const double current = ReadNumber(dir + "/memory.current");
            if (max >= 0 && current >= 0)
            {
                return std::max(0.0, max - current);
            }
        }
    }
    return -1;
}

} // namespace

namespace
{
/** \return the process's address-space limit (RLIMIT_AS), bytes, or -1 if it has none */
double
AddressSpaceLimitBytes()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    {
        return -1;
    }
    return static_cast<double>(limit.rlim_cur);
}
} // namespace

double
D2dMemoryBudget::AddressSpaceRoomBytes()
{
    const double limit = AddressSpaceLimitBytes();
    const double mapped = MappedBytes();
    if (limit < 0 || mapped < 0)
    {
        return -1;
    }
    return std::max(0.0, limit - mapped - BlasBytes());
}

double
D2dMemoryBudget::MappedBytes()
{
    std::ifstream statm("/proc/self/statm");
    double pages = 0;
    if (!(statm >> pages))
    {
        return -1;
    }
    return pages * static_cast<double>(sysconf(_SC_PAGESIZE));
}

double
D2dMemoryBudget::BlasBytes()
{
    return BlasBufferBytes * std::max(1U, std::thread::hardware_concurrency());
}

std::string
D2dMemoryBudget::AvailableNote(double available)
{
    const double room = AddressSpaceRoomBytes();
    if (room < 0 || room > available)
    {
        return "";
    }
    return fmt::format(" under the address-space limit (ulimit -v) of {:.3g} GB, of which the "
                       "program has mapped {:.3g} GB and LibTorch's BLAS needs {:.3g} GB",
                       AddressSpaceLimitBytes() / 1e9,
                       MappedBytes() / 1e9,
                       BlasBytes() / 1e9);
}

double
D2dMemoryBudget::AvailableBytes()
{
    double available = D2dMatrixCsv::AvailableMemoryBytes();
    const double room = CgroupRoom();
    if (room >= 0)
    {
        available = std::min(available, room);
    }
    const double addressSpace = AddressSpaceRoomBytes();
    if (addressSpace >= 0)
    {
        available = std::min(available, addressSpace);
    }
    if (const char* mb = std::getenv("D2DLEARN_MEMORY_MB"))
    {
        char* end = nullptr;
        const double v = std::strtod(mb, &end);
        if (end == mb || *end != '\0' || !(v > 0) || v > 1e12)
        {
            throw std::invalid_argument(
                fmt::format("D2DLEARN_MEMORY_MB={}: not a size in MB (accepted: a number in "
                            "(0, 1e12])",
                            D2dMatrixCsv::Excerpt(mb)));
        }
        available = std::min(available, v * 1e6);
    }
    return available;
}

} // namespace ns3
