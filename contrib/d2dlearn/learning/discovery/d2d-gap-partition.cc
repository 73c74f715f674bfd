/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-gap-partition.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

std::vector<uint32_t>
D2dGapPartition::Assign(const std::vector<double>& targets, uint32_t parts)
{
    if (parts == 0)
    {
        throw std::invalid_argument("partitions: L must be at least 1");
    }
    const std::size_t n = targets.size();
    for (double t : targets)
    {
        if (!std::isfinite(t))
        {
            throw std::invalid_argument("partitions: a target is not finite");
        }
    }
    std::vector<uint32_t> out(n, 0);
    if (n == 0)
    {
        return out;
    }
    if (n < parts)
    {
        throw std::invalid_argument("partitions: L = " + std::to_string(parts) +
                                    " needs at least L points, the device holds " +
                                    std::to_string(n));
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return targets[a] < targets[b];
    });
    // Gap k lies between sorted positions k and k + 1; the largest first, lower k on ties.
    std::vector<std::size_t> gaps(n - 1);
    std::iota(gaps.begin(), gaps.end(), 0);
    auto gap = [&](std::size_t k) {
        return targets[order[k + 1]] - targets[order[k]];
    };
    std::stable_sort(gaps.begin(), gaps.end(), [&](std::size_t a, std::size_t b) {
        return gap(a) > gap(b);
    });
    std::vector<bool> cut(n - 1, false);
    for (uint32_t c = 0; c + 1 < parts; ++c)
    {
        cut[gaps[c]] = true;
    }
    uint32_t part = 0;
    for (std::size_t k = 0; k < n; ++k)
    {
        out[order[k]] = part;
        if (k + 1 < n && cut[k])
        {
            ++part;
        }
    }
    return out;
}

} // namespace ns3
