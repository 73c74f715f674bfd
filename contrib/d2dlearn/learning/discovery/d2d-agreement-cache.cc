/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-agreement-cache.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

D2dAgreementCache::D2dAgreementCache(D2dGaussianClusters::AgreementMix mix, double ridge)
    : m_mix(mix),
      m_ridge(ridge)
{
    if (!(ridge >= 0))
    {
        throw std::invalid_argument("D2dAgreementCache: ridge must be >= 0");
    }
}

void
D2dAgreementCache::Reset(uint32_t nDevices)
{
    m_devices.assign(nDevices, Device{});
    m_pairs.clear();
}

void
D2dAgreementCache::BeforeChanged(uint32_t device)
{
    auto& d = m_devices.at(device);
    ++d.beforeVersion;
    ++d.afterVersion;
    d.afterSame = true;
    d.beforeBuilt = false;
    d.afterBuilt = false;
}

void
D2dAgreementCache::AfterChanged(uint32_t device)
{
    auto& d = m_devices.at(device);
    ++d.afterVersion;
    d.afterSame = false;
    d.afterBuilt = false;
}

void
D2dAgreementCache::AfterSameAsBefore(uint32_t device)
{
    auto& d = m_devices.at(device);
    if (!d.afterSame)
    {
        ++d.afterVersion;
        d.afterSame = true;
        d.afterBuilt = false;
    }
}

void
D2dAgreementCache::AfterReset()
{
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        AfterSameAsBefore(i);
    }
}

uint64_t
D2dAgreementCache::GetDivergences() const
{
    return m_divergences;
}

uint64_t
D2dAgreementCache::GetMultiplyAdds() const
{
    return m_multiplyAdds;
}

void
D2dAgreementCache::SetParallelFor(ParallelFor parallelFor)
{
    m_parallelFor = std::move(parallelFor);
}

namespace
{
/** \return whether a cluster's statistics after are exactly those before \param a \param b */
bool
SameStatistics(const D2dGaussianCluster& a, const D2dGaussianCluster& b)
{
    return a.count == b.count && a.mean == b.mean && a.cov == b.cov;
}
} // namespace

void
D2dAgreementCache::Prepare(const std::vector<uint32_t>& needBefore,
                           const std::vector<uint32_t>& needAfter,
                           const Clusters& before,
                           const Clusters& after)
{
    // The tasks: (device, cluster, after side), each writing its own pre-sized slot.
    struct Task
    {
        uint32_t i;
        uint32_t l;
        bool afterSide;
    };

    std::vector<Task> tasks;
    for (uint32_t i : needBefore)
    {
        auto& d = m_devices[i];
        if (d.beforeBuilt)
        {
            continue;
        }
        d.before.assign(before[i].size(), D2dGaussianPrecision{});
        for (uint32_t l = 0; l < before[i].size(); ++l)
        {
            // A cluster with fewer than 2 points takes part in no term (Sum leaves it out).
            if (before[i][l].count >= 2)
            {
                tasks.push_back({i, l, false});
            }
        }
        d.beforeBuilt = true;
    }
    for (uint32_t i : needAfter)
    {
        auto& d = m_devices[i];
        if (d.afterSame || d.afterBuilt)
        {
            continue;
        }
        d.after.assign(after[i].size(), D2dGaussianPrecision{});
        d.afterOf.assign(after[i].size(), nullptr);
        for (uint32_t l = 0; l < after[i].size(); ++l)
        {
            // A cluster that received nothing shares its prepared covariance before (needBefore
            // holds every device of needAfter).
            if (SameStatistics(after[i][l], before[i][l]))
            {
                d.afterOf[l] = &d.before[l];
                continue;
            }
            d.afterOf[l] = &d.after[l];
            if (after[i][l].count >= 2)
            {
                tasks.push_back({i, l, true});
            }
        }
        d.afterBuilt = true;
    }
    const auto body = [&](std::size_t k) {
        const auto& t = tasks[k];
        const auto& c = t.afterSide ? after[t.i][t.l] : before[t.i][t.l];
        auto& slot = t.afterSide ? m_devices[t.i].after[t.l] : m_devices[t.i].before[t.l];
        slot = D2dKlBlocks::Precision(c.cov, c.mean.size(), m_ridge);
    };
    if (m_parallelFor)
    {
        m_parallelFor(tasks.size(), body);
    }
    else
    {
        for (std::size_t k = 0; k < tasks.size(); ++k)
        {
            body(k);
        }
    }
}

void
D2dAgreementCache::Blocks(const BlockList& blocks,
                          bool afterSide,
                          const Clusters& before,
                          const Clusters& after)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<uint64_t> divergences(blocks.size(), 0);
    std::vector<uint64_t> multiplyAdds(blocks.size(), 0);
    const auto body = [&](std::size_t k) {
        const auto& block = blocks[k];
        // A cluster takes part with at least two points before (h^B), and after too (h^A).
        const auto takesPart = [&](uint32_t i, uint32_t l) {
            return before[i][l].count >= 2 && (!afterSide || after[i][l].count >= 2);
        };
        const auto means = [&](uint32_t i, uint32_t l) {
            const bool post = afterSide && m_mix == D2dGaussianClusters::POST_EXCHANGE;
            return (post ? after[i][l] : before[i][l]).mean.data();
        };
        const auto prepared = [&](uint32_t i, uint32_t l) {
            const auto& d = m_devices[i];
            return !afterSide || d.afterSame ? &d.before[l] : d.afterOf[l];
        };
        // The clusters taking part of each device of the rows (columns), and where each
        // cluster's row (column) is: -1 if it takes no part.
        const auto gather = [&](const std::vector<uint32_t>& devices,
                                std::vector<const double*>& m,
                                std::vector<const D2dGaussianPrecision*>& p,
                                std::vector<std::vector<int64_t>>& at) {
            at.resize(devices.size());
            for (std::size_t q = 0; q < devices.size(); ++q)
            {
                const uint32_t i = devices[q];
                at[q].assign(before[i].size(), -1);
                for (uint32_t l = 0; l < before[i].size(); ++l)
                {
                    if (takesPart(i, l))
                    {
                        at[q][l] = static_cast<int64_t>(p.size());
                        m.push_back(means(i, l));
                        p.push_back(prepared(i, l));
                    }
                }
            }
        };
        std::vector<const double*> meanA;
        std::vector<const D2dGaussianPrecision*> precA;
        std::vector<std::vector<int64_t>> rowOf;
        gather(block.rows, meanA, precA, rowOf);
        std::vector<const double*> meanB;
        std::vector<const D2dGaussianPrecision*> precB;
        std::vector<std::vector<int64_t>> colOf;
        gather(block.cols, meanB, precB, colOf);
        std::vector<double> out;
        const std::size_t d =
            before[block.cols.front()].empty() ? 0 : before[block.cols.front()][0].mean.size();
        if (!precA.empty() && !precB.empty())
        {
            multiplyAdds[k] = D2dKlBlocks::Divergences(meanA, precA, meanB, precB, d, out);
        }
        const std::size_t nb = precB.size();
        for (const auto& [qi, qj, pair] : block.pairs)
        {
            const uint32_t i = block.rows[qi];
            const uint32_t j = block.cols[qj];
            const std::size_t li = before[i].size();
            const std::size_t lj = before[j].size();
            std::vector<double> h(li * lj, nan);
            for (uint32_t l = 0; l < li; ++l)
            {
                for (uint32_t m = 0; m < lj; ++m)
                {
                    if (rowOf[qi][l] >= 0 && colOf[qj][m] >= 0)
                    {
                        h[l * lj + m] = out[rowOf[qi][l] * nb + colOf[qj][m]];
                        ++divergences[k];
                    }
                }
            }
            if (afterSide)
            {
                SetRatios(*pair, i, j, &h, before, after);
            }
            else
            {
                pair->hb = std::move(h);
            }
        }
    };
    if (m_parallelFor)
    {
        m_parallelFor(blocks.size(), body);
    }
    else
    {
        for (std::size_t k = 0; k < blocks.size(); ++k)
        {
            body(k);
        }
    }
    for (std::size_t k = 0; k < blocks.size(); ++k)
    {
        m_divergences += divergences[k];
        m_multiplyAdds += multiplyAdds[k];
    }
}

void
D2dAgreementCache::SetRatios(Pair& p,
                             uint32_t i,
                             uint32_t j,
                             const std::vector<double>* ha,
                             const Clusters& before,
                             const Clusters& after)
{
    const auto& bi = before[i];
    const auto& bj = before[j];
    const auto& ai = after[i];
    const auto& aj = after[j];
    p.ratio.assign(bi.size() * bj.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t l = 0; l < bi.size(); ++l)
    {
        for (std::size_t m = 0; m < bj.size(); ++m)
        {
            if (bi[l].count < 2 || bj[m].count < 2 || ai[l].count < 2 || aj[m].count < 2)
            {
                continue;
            }
            const std::size_t t = l * bj.size() + m;
            const double hb = p.hb[t];
            // Both after == before: h^A is h^B (the same Gaussians), in either mix.
            const double h = ha != nullptr ? (*ha)[t] : hb;
            if (!std::isfinite(hb) || !std::isfinite(h) || !(h > 0))
            {
                continue;
            }
            p.ratio[t] = hb / h;
        }
    }
}

D2dAgreementCache::BlockList
D2dAgreementCache::ByGroup(const std::vector<std::pair<uint32_t, uint32_t>>& due,
                           const std::vector<std::size_t>& groupOf,
                           const std::vector<Pair*>& pairs)
{
    BlockList blocks;
    std::unordered_map<std::size_t, std::size_t> blockOf;
    std::vector<std::unordered_map<uint32_t, uint32_t>> rowAt;
    std::vector<std::unordered_map<uint32_t, uint32_t>> colAt;
    const auto indexIn = [](std::unordered_map<uint32_t, uint32_t>& at,
                            std::vector<uint32_t>& devices,
                            uint32_t device) {
        const auto [it, added] = at.emplace(device, static_cast<uint32_t>(devices.size()));
        if (added)
        {
            devices.push_back(device);
        }
        return it->second;
    };
    for (std::size_t k = 0; k < due.size(); ++k)
    {
        const auto [i, j] = due[k];
        auto it = blockOf.find(groupOf[k]);
        if (it == blockOf.end())
        {
            it = blockOf.emplace(groupOf[k], blocks.size()).first;
            blocks.emplace_back();
            rowAt.emplace_back();
            colAt.emplace_back();
        }
        const std::size_t b = it->second;
        const uint32_t qi = indexIn(rowAt[b], blocks[b].rows, i);
        const uint32_t qj = indexIn(colAt[b], blocks[b].cols, j);
        blocks[b].pairs.emplace_back(qi, qj, pairs[k]);
    }
    return blocks;
}

void
D2dAgreementCache::Update(const std::vector<std::vector<uint32_t>>& groups,
                          const Clusters& before,
                          const Clusters& after)
{
    for (const auto& devices : groups)
    {
        for (uint32_t i : devices)
        {
            if (i >= m_devices.size() || i >= before.size() || i >= after.size())
            {
                throw std::invalid_argument("D2dAgreementCache::Sum: device " + std::to_string(i) +
                                            " beyond the devices of Reset or the clusters given");
            }
            if (after[i].size() != before[i].size())
            {
                throw std::invalid_argument("D2dAgreementCache::Sum: clusters before and after "
                                            "differ in number");
            }
        }
    }
    // What is due: the pairs whose devices changed since their terms were computed.
    std::vector<std::pair<uint32_t, uint32_t>> hbDue;
    std::vector<std::size_t> hbGroup;
    std::vector<Pair*> hbPairs;
    std::vector<std::pair<uint32_t, uint32_t>> haDue;
    std::vector<std::size_t> haGroup;
    std::vector<Pair*> haPairs;
    std::vector<std::pair<Pair*, std::pair<uint32_t, uint32_t>>> sameDue;
    std::vector<bool> needBefore(m_devices.size(), false);
    std::vector<bool> needAfter(m_devices.size(), false);
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        const auto& devices = groups[g];
        for (uint32_t j : devices)
        {
            for (uint32_t i : devices)
            {
                if (i == j)
                {
                    continue;
                }
                const auto& di = m_devices[i];
                const auto& dj = m_devices[j];
                Pair& p = m_pairs[static_cast<uint64_t>(i) * m_devices.size() + j];
                const uint64_t versions[4] = {di.beforeVersion,
                                              dj.beforeVersion,
                                              di.afterVersion,
                                              dj.afterVersion};
                if (std::equal(versions, versions + 4, p.versions))
                {
                    continue;
                }
                std::copy(versions, versions + 4, p.versions);
                if (p.hbVersions[0] != versions[0] || p.hbVersions[1] != versions[1])
                {
                    hbDue.emplace_back(i, j);
                    hbGroup.push_back(g);
                    hbPairs.push_back(&p);
                    p.hbVersions[0] = versions[0];
                    p.hbVersions[1] = versions[1];
                }
                needBefore[i] = needBefore[j] = true;
                if (di.afterSame && dj.afterSame)
                {
                    sameDue.push_back({&p, {i, j}});
                }
                else
                {
                    haDue.emplace_back(i, j);
                    haGroup.push_back(g);
                    haPairs.push_back(&p);
                    needAfter[i] = needAfter[j] = true;
                }
            }
        }
    }
    if (hbDue.empty() && haDue.empty() && sameDue.empty())
    {
        return;
    }
    std::vector<uint32_t> nb;
    std::vector<uint32_t> na;
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        if (needBefore[i])
        {
            nb.push_back(i);
        }
        if (needAfter[i])
        {
            na.push_back(i);
        }
    }
    Prepare(nb, na, before, after);
    Blocks(ByGroup(hbDue, hbGroup, hbPairs), false, before, after);
    for (auto& [p, ij] : sameDue)
    {
        SetRatios(*p, ij.first, ij.second, nullptr, before, after);
    }
    Blocks(ByGroup(haDue, haGroup, haPairs), true, before, after);
}

D2dGaussianClusters::Agreement
D2dAgreementCache::Sum(const std::vector<uint32_t>& devices,
                       const Clusters& before,
                       const Clusters& after)
{
    Update({devices}, before, after);
    D2dGaussianClusters::Agreement a;
    for (uint32_t i : devices)
    {
        for (uint32_t j : devices)
        {
            if (i == j)
            {
                continue;
            }
            // The terms in the order of the plain sum: i, j, l, l'.
            for (double r : m_pairs[static_cast<uint64_t>(i) * m_devices.size() + j].ratio)
            {
                if (!std::isnan(r))
                {
                    a.sum += r;
                    ++a.terms;
                }
            }
        }
    }
    return a;
}

} // namespace ns3
