/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_MEMORY_BUDGET_H
#define D2D_MEMORY_BUDGET_H

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class D2dScenarioSupport;

/**
 * \ingroup d2dlearn
 * \brief The memory a scenario will hold for N devices, term by term, checked before the run.
 *
 * A scenario describes what it holds as terms of N (bytes): the per-device objects (node,
 * radio, energy source, transport, learner), the pairwise state its protocol keeps (a dense
 * trust matrix, a policy per device and edge over every other device), the messages of a
 * round that live at once, the models. Refusal() compares their sum with the memory
 * available and, when it does not fit, gives one line: the size asked, the estimate, its
 * largest terms, the memory available and the largest N that fits (found by bisection, the
 * terms growing with N). A run that cannot fit is then refused in a second instead of growing
 * until the allocator or the kernel stops it.
 *
 * The per-device and per-pair constants are sizes of the structures named beside them plus
 * their allocator overhead, checked against measured peaks by
 * `bench/bench-memory-budget.py` (estimate / peak, printed per scenario and size).
 */
class D2dMemoryBudget
{
  public:
    /** One term: what it is, bytes. */
    typedef std::vector<std::pair<std::string, double>> Terms;

    /**
     * Bytes of the objects every device has in every scenario (ns-3 node, mobility, radio,
     * energy source and model, transport, channel-access queue): measured 5.4 kB per device
     * with d2d-exchange (2,000 and 20,000 devices); rounded up.
     */
    static constexpr double DeviceBytes = 8e3;
    /** Bytes of the program before any device and data: LibTorch, ns-3, the libraries
     * (measured 170 MB: consensus with 500 devices peaked at 192 MB with 22 MB of data);
     * rounded up. */
    static constexpr double ProgramBytes = 250e6;

    /** \param terms the terms for N devices, each growing with N */
    explicit D2dMemoryBudget(std::function<Terms(uint64_t)> terms);

    /** \return the estimate for n devices, bytes (the terms' sum plus ProgramBytes) */
    double Bytes(uint64_t n) const;

    /**
     * \return the largest n in [1, upTo] whose estimate is at most available bytes; 0 when
     *         even one device does not fit
     * \param available bytes
     * \param upTo the largest n to consider
     */
    uint64_t MaxDevices(double available, uint64_t upTo) const;

    /**
     * \return the terms for n devices, largest first, as "what X GB" joined by ", "
     *         (terms below 1 % of the estimate are left out)
     * \param n devices
     */
    std::string Describe(uint64_t n) const;

    /**
     * \return empty when n devices fit in available bytes; else the one-line refusal
     *         ("--nDevices=N: SCENARIO holds about X GB for N devices (terms), more than the
     *         Y GB available (accepted here: at most M devices)")
     * \param scenario the program's name
     * \param n devices
     * \param available bytes (AvailableBytes())
     */
    std::string Refusal(const std::string& scenario, uint64_t n, double available) const;

    /**
     * \brief Fail (one line, exit 2) when n devices do not fit in AvailableBytes(), or when
     *        D2DLEARN_MEMORY_MB is set but is not a size.
     * \param support the scenario's support
     * \param scenario the program's name
     * \param n devices
     */
    void Check(const D2dScenarioSupport& support, const std::string& scenario, uint64_t n) const;

    /**
     * \return the memory available to the program, bytes: the smallest of MemAvailable, the
     *         room left under its cgroup's memory.max (a Slurm job's --mem), the room under its
     *         address-space limit (AddressSpaceRoomBytes()), and D2DLEARN_MEMORY_MB when set
     *         (a budget of one's own, e.g. for several runs at once); throws
     *         std::invalid_argument when D2DLEARN_MEMORY_MB is not a number > 0
     */
    static double AvailableBytes();

    /**
     * Address space one BLAS thread of LibTorch takes at its first product, bytes: OpenBLAS's
     * buffer (BUFFER_SIZE, 128 MiB on x86-64, Debian's libopenblas0). Without it, under an
     * address-space limit, OpenBLAS retries the allocation for ever (a run under
     * `prlimit --as` of 800 MB to 1 GB hung in its first evaluation).
     */
    static constexpr double BlasBufferBytes = 128.0 * 1024 * 1024;

    /**
     * \return the room left under the process's address-space limit (RLIMIT_AS: `ulimit -v`,
     *         `prlimit --as`), bytes: the limit less what is mapped now and one BLAS buffer
     *         (BlasBufferBytes) per hardware thread, at least 0; -1 when there is no limit
     */
    static double AddressSpaceRoomBytes();

    /**
     * \param available what AvailableBytes() gave
     * \return "" unless the address-space limit is what bounds available; then the words
     *         that say so, for a refusal (" under the address-space limit (ulimit -v) of ...")
     */
    static std::string AvailableNote(double available);

  private:
    /** \return the address space the process has mapped (/proc/self/statm), bytes, or -1 */
    static double MappedBytes();

    /** \return the address space LibTorch's BLAS takes: BlasBufferBytes per hardware thread */
    static double BlasBytes();

    std::function<Terms(uint64_t)> m_terms; //!< the terms for N devices
};

} // namespace ns3

#endif /* D2D_MEMORY_BUDGET_H */
