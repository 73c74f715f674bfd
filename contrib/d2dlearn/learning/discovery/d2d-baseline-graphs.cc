/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-baseline-graphs.h"

#include <algorithm>

namespace ns3
{

namespace
{
/** \return true if i may choose j */
bool
Allowed(const std::vector<std::vector<bool>>& excluded, uint32_t i, uint32_t j)
{
    return i != j && (excluded.empty() || !excluded[i][j]);
}
} // namespace

std::vector<int64_t>
D2dBaselineGraphs::None(uint32_t nDevices)
{
    return std::vector<int64_t>(nDevices, -1);
}

std::vector<int64_t>
D2dBaselineGraphs::Closest(const std::vector<std::vector<double>>& pDrop,
                           const std::vector<std::vector<bool>>& excluded)
{
    const uint32_t n = pDrop.size();
    std::vector<int64_t> sel(n, -1);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (Allowed(excluded, i, j) && (sel[i] < 0 || pDrop[i][j] < pDrop[i][sel[i]]))
            {
                sel[i] = j;
            }
        }
    }
    return sel;
}

std::vector<int64_t>
D2dBaselineGraphs::MostTrusted(const D2dExchangeInstance& in,
                               const std::vector<std::vector<bool>>& excluded)
{
    const uint32_t n = in.counts.size();
    std::vector<std::vector<double>> shareable(n, std::vector<double>(n, 0.0));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (j != i)
            {
                for (double x : D2dMessagePassing::Available(in.trust.Row(j, i),
                                                             in.counts[j],
                                                             in.thresholds[j]))
                {
                    shareable[i][j] += x;
                }
            }
        }
    }
    return MostShareable(shareable, in.pDrop, excluded);
}

std::vector<int64_t>
D2dBaselineGraphs::MostShareable(const std::vector<std::vector<double>>& shareable,
                                 const std::vector<std::vector<double>>& pDrop,
                                 const std::vector<std::vector<bool>>& excluded)
{
    const uint32_t n = shareable.size();
    std::vector<int64_t> sel(n, -1);
    for (uint32_t i = 0; i < n; ++i)
    {
        double best = -1;
        for (uint32_t j = 0; j < n; ++j)
        {
            if (!Allowed(excluded, i, j))
            {
                continue;
            }
            const double s = shareable[i][j];
            if (sel[i] < 0 || s > best || (s == best && pDrop[i][j] < pDrop[i][sel[i]]))
            {
                sel[i] = j;
                best = s;
            }
        }
    }
    return sel;
}

std::vector<int64_t>
D2dBaselineGraphs::Uniform(uint32_t nDevices,
                           const std::function<double()>& uniform,
                           const std::vector<std::vector<bool>>& excluded)
{
    std::vector<int64_t> sel(nDevices, -1);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        std::vector<uint32_t> options;
        for (uint32_t j = 0; j < nDevices; ++j)
        {
            if (Allowed(excluded, i, j))
            {
                options.push_back(j);
            }
        }
        if (!options.empty())
        {
            const auto k =
                std::min<std::size_t>(options.size() - 1,
                                      static_cast<std::size_t>(uniform() * options.size()));
            sel[i] = options[k];
        }
    }
    return sel;
}

std::vector<int64_t>
D2dBaselineGraphs::HighestScore(const std::vector<std::vector<double>>& scores,
                                const std::vector<std::vector<bool>>& excluded)
{
    const uint32_t n = scores.size();
    std::vector<int64_t> sel(n, -1);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (Allowed(excluded, i, j) && (sel[i] < 0 || scores[i][j] > scores[i][sel[i]]))
            {
                sel[i] = j;
            }
        }
    }
    return sel;
}

} // namespace ns3
