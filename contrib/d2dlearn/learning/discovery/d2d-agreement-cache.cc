/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-agreement-cache.h"

#include <algorithm>
#include <cmath>
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

namespace
{
/** \return the factors of a device's clusters \param c the clusters \param ridge the ridge */
std::vector<D2dGaussianFactor>
FactorAll(const std::vector<D2dGaussianCluster>& c, double ridge)
{
    std::vector<D2dGaussianFactor> f(c.size());
    for (std::size_t l = 0; l < c.size(); ++l)
    {
        // A cluster with fewer than 2 points takes part in no term (Sum leaves it out).
        if (c[l].count >= 2)
        {
            f[l] = D2dGaussianClusters::Factor(c[l].cov, c[l].mean.size(), ridge);
        }
    }
    return f;
}
} // namespace

const std::vector<D2dGaussianFactor>&
D2dAgreementCache::BeforeFactors(uint32_t i, const Clusters& before)
{
    auto& d = m_devices.at(i);
    if (!d.beforeBuilt)
    {
        d.before = FactorAll(before.at(i), m_ridge);
        d.beforeBuilt = true;
    }
    return d.before;
}

const std::vector<D2dGaussianFactor>&
D2dAgreementCache::AfterFactors(uint32_t i, const Clusters& before, const Clusters& after)
{
    auto& d = m_devices.at(i);
    if (d.afterSame)
    {
        return BeforeFactors(i, before);
    }
    if (!d.afterBuilt)
    {
        d.after = FactorAll(after.at(i), m_ridge);
        d.afterBuilt = true;
    }
    return d.after;
}

const D2dAgreementCache::Pair&
D2dAgreementCache::Terms(uint32_t i, uint32_t j, const Clusters& before, const Clusters& after)
{
    const auto& di = m_devices[i];
    const auto& dj = m_devices[j];
    Pair& p = m_pairs[static_cast<uint64_t>(i) * m_devices.size() + j];
    const uint64_t versions[4] = {di.beforeVersion,
                                  dj.beforeVersion,
                                  di.afterVersion,
                                  dj.afterVersion};
    if (std::equal(versions, versions + 4, p.versions))
    {
        return p;
    }
    const auto& bi = before.at(i);
    const auto& bj = before.at(j);
    const auto& ai = after.at(i);
    const auto& aj = after.at(j);
    if (ai.size() != bi.size() || aj.size() != bj.size())
    {
        throw std::invalid_argument("D2dAgreementCache::Sum: clusters before and after differ "
                                    "in number");
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::size_t terms = bi.size() * bj.size();
    if (p.hbVersions[0] != versions[0] || p.hbVersions[1] != versions[1])
    {
        const auto& fi = BeforeFactors(i, before);
        const auto& fj = BeforeFactors(j, before);
        p.hb.assign(terms, nan);
        for (std::size_t l = 0; l < bi.size(); ++l)
        {
            for (std::size_t m = 0; m < bj.size(); ++m)
            {
                if (bi[l].count < 2 || bj[m].count < 2)
                {
                    continue;
                }
                p.hb[l * bj.size() + m] =
                    D2dGaussianClusters::KlDivergence(bi[l].mean, fi[l], bj[m].mean, fj[m]);
                ++m_divergences;
            }
        }
        p.hbVersions[0] = versions[0];
        p.hbVersions[1] = versions[1];
    }
    // Both after == before: h^A is h^B's divergence (same inputs, same bits), in either mix.
    const bool same = di.afterSame && dj.afterSame;
    const auto& fi = same ? BeforeFactors(i, before) : AfterFactors(i, before, after);
    const auto& fj = same ? BeforeFactors(j, before) : AfterFactors(j, before, after);
    p.ratio.assign(terms, nan);
    for (std::size_t l = 0; l < bi.size(); ++l)
    {
        for (std::size_t m = 0; m < bj.size(); ++m)
        {
            if (bi[l].count < 2 || bj[m].count < 2 || ai[l].count < 2 || aj[m].count < 2)
            {
                continue;
            }
            const double hb = p.hb[l * bj.size() + m];
            double ha = hb;
            if (!same)
            {
                const auto& mi =
                    m_mix == D2dGaussianClusters::POST_EXCHANGE ? ai[l].mean : bi[l].mean;
                const auto& mj =
                    m_mix == D2dGaussianClusters::POST_EXCHANGE ? aj[m].mean : bj[m].mean;
                ha = D2dGaussianClusters::KlDivergence(mi, fi[l], mj, fj[m]);
                ++m_divergences;
            }
            if (!std::isfinite(hb) || !std::isfinite(ha) || !(ha > 0))
            {
                continue;
            }
            p.ratio[l * bj.size() + m] = hb / ha;
        }
    }
    std::copy(versions, versions + 4, p.versions);
    return p;
}

D2dGaussianClusters::Agreement
D2dAgreementCache::Sum(const std::vector<uint32_t>& devices,
                       const Clusters& before,
                       const Clusters& after)
{
    for (uint32_t i : devices)
    {
        if (i >= m_devices.size() || i >= before.size() || i >= after.size())
        {
            throw std::invalid_argument("D2dAgreementCache::Sum: device " + std::to_string(i) +
                                        " beyond the devices of Reset or the clusters given");
        }
    }
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
            for (double r : Terms(i, j, before, after).ratio)
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
