/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-best-links.h"

#include "d2d-diversity-rewards.h"

#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace ns3
{

std::vector<double>
D2dBestLinks::LocalRewards(const D2dDiscoveryParadigm& paradigm,
                           const std::vector<std::vector<double>>& pDrop,
                           const std::vector<int64_t>& selection,
                           double alpha1,
                           double alpha2)
{
    const uint32_t n = selection.size();
    const uint32_t nl = paradigm.GetNPartitions();
    // Demands at each transmitter, in requester order (std::map), as D2dGraphDiscovery.
    std::vector<std::map<uint32_t, D2dFractionalCounts>> demandAt(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (selection[i] >= 0)
        {
            const auto j = static_cast<uint32_t>(selection[i]);
            demandAt[j][i] = paradigm.Demand(i, paradigm.Offer(j, i));
        }
    }
    std::vector<D2dFractionalCounts> allocated(n, D2dFractionalCounts(nl, 0.0));
    std::vector<D2dFractionalCounts> sent(n, D2dFractionalCounts(nl, 0.0));
    for (uint32_t j = 0; j < n; ++j)
    {
        if (demandAt[j].empty())
        {
            continue;
        }
        std::vector<D2dFractionalCounts> q;
        for (const auto& [i, d] : demandAt[j])
        {
            q.push_back(d);
        }
        const auto u = paradigm.Allocate(j, q);
        std::size_t k = 0;
        for (const auto& [i, d] : demandAt[j])
        {
            allocated[i] = u[k];
            for (uint32_t l = 0; l < nl; ++l)
            {
                sent[j][l] += u[k][l];
            }
            ++k;
        }
    }
    std::vector<double> reward(n, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (selection[i] < 0)
        {
            continue;
        }
        const double p = pDrop[i][selection[i]];
        const double g = paradigm.Gain(i, allocated[i], p, sent[i]);
        reward[i] = D2dDiversityRewards::LocalReward(g, p, alpha1, alpha2);
    }
    return reward;
}

std::vector<int64_t>
D2dBestLinks::Find(const D2dDiscoveryParadigm& paradigm,
                   const std::vector<std::vector<double>>& pDrop,
                   const std::vector<uint32_t>& devices,
                   uint32_t subsetSize,
                   double alpha1,
                   double alpha2,
                   std::vector<double>* bestReward)
{
    const uint32_t n = paradigm.GetNDevices();
    const uint32_t m = devices.size();
    if (m < 2 || subsetSize < 2 || subsetSize > m)
    {
        throw std::invalid_argument("D2dBestLinks: the subset size must be in [2, " +
                                    std::to_string(m) + "] and the system hold 2 devices");
    }
    for (uint32_t k = 0; k < m; ++k)
    {
        if (devices[k] >= n || (k > 0 && devices[k] <= devices[k - 1]))
        {
            throw std::invalid_argument("D2dBestLinks: devices must be distinct, ascending, < N");
        }
    }
    std::vector<int64_t> best(n, -1);
    std::vector<double> bestR(n, -std::numeric_limits<double>::infinity());
    // Every subset of s positions into devices (lexicographic), every graph on it.
    std::vector<uint32_t> pick(subsetSize);
    for (uint32_t k = 0; k < subsetSize; ++k)
    {
        pick[k] = k;
    }
    std::vector<int64_t> selection(n, -1);
    while (true)
    {
        // Choice c[k] in [0, s - 1): the c[k]-th other member of the subset.
        std::vector<uint32_t> c(subsetSize, 0);
        while (true)
        {
            std::fill(selection.begin(), selection.end(), -1);
            for (uint32_t k = 0; k < subsetSize; ++k)
            {
                const uint32_t other = c[k] < k ? c[k] : c[k] + 1;
                selection[devices[pick[k]]] = devices[pick[other]];
            }
            const auto r = LocalRewards(paradigm, pDrop, selection, alpha1, alpha2);
            for (uint32_t k = 0; k < subsetSize; ++k)
            {
                const uint32_t i = devices[pick[k]];
                const auto j = selection[i];
                if (r[i] > bestR[i] || (r[i] == bestR[i] && j < best[i]))
                {
                    bestR[i] = r[i];
                    best[i] = j;
                }
            }
            uint32_t k = 0;
            while (k < subsetSize && ++c[k] == subsetSize - 1)
            {
                c[k++] = 0;
            }
            if (k == subsetSize)
            {
                break;
            }
        }
        // Next subset.
        int32_t k = subsetSize - 1;
        while (k >= 0 && pick[k] == m - subsetSize + k)
        {
            --k;
        }
        if (k < 0)
        {
            break;
        }
        ++pick[k];
        for (uint32_t q = k + 1; q < subsetSize; ++q)
        {
            pick[q] = pick[q - 1] + 1;
        }
    }
    if (bestReward)
    {
        bestReward->assign(n, 0.0);
        for (uint32_t d : devices)
        {
            (*bestReward)[d] = bestR[d];
        }
    }
    return best;
}

} // namespace ns3
