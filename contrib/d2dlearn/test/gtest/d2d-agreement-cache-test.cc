/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the cached system agreement of eq. (17) (Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025) and of the faster, same-bits arithmetic under it: the column-by-column
 * Cholesky factor, the KL divergence from prepared factors, the half-square covariance and
 * D2dAgreementCache. Each is compared bit for bit with a plain implementation written here the
 * way the formulas read (row-by-row Cholesky, one forward solve per column, full-square
 * covariance, every divergence computed afresh), and the divergence once with an independent
 * computation through explicit inverses.
 */

#include "ns3/d2d-agreement-cache.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-gaussian-clusters.h"
#include "ns3/d2d-kl-blocks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace ns3;

namespace
{
/** Same bits (NaN payloads aside: none is produced here). */
bool
SameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/** Row-by-row Cholesky: the textbook loop. */
bool
PlainCholesky(const std::vector<double>& a, std::size_t d, std::vector<double>& l)
{
    l.assign(d * d, 0.0);
    for (std::size_t r = 0; r < d; ++r)
    {
        for (std::size_t c = 0; c <= r; ++c)
        {
            double s = a[r * d + c];
            for (std::size_t k = 0; k < c; ++k)
            {
                s -= l[r * d + k] * l[c * d + k];
            }
            if (r == c)
            {
                if (!(s > 0) || !std::isfinite(s))
                {
                    return false;
                }
                l[r * d + r] = std::sqrt(s);
            }
            else
            {
                l[r * d + c] = s / l[c * d + c];
            }
        }
    }
    return true;
}

/** L y = b by forward substitution. */
std::vector<double>
PlainForward(const std::vector<double>& l, const std::vector<double>& b, std::size_t d)
{
    std::vector<double> y(d);
    for (std::size_t r = 0; r < d; ++r)
    {
        double s = b[r];
        for (std::size_t c = 0; c < r; ++c)
        {
            s -= l[r * d + c] * y[c];
        }
        y[r] = s / l[r * d + r];
    }
    return y;
}

/** KL(N(m1, s1) || N(m2, s2)) through Cholesky factors, one column solve at a time. */
double
PlainKl(const std::vector<double>& m1,
        const std::vector<double>& s1,
        const std::vector<double>& m2,
        const std::vector<double>& s2,
        double ridge)
{
    const std::size_t d = m1.size();
    auto a1 = s1;
    auto a2 = s2;
    for (std::size_t e = 0; e < d; ++e)
    {
        a1[e * d + e] += ridge;
        a2[e * d + e] += ridge;
    }
    std::vector<double> l1;
    std::vector<double> l2;
    if (!PlainCholesky(a1, d, l1) || !PlainCholesky(a2, d, l2))
    {
        return std::numeric_limits<double>::infinity();
    }
    double trace = 0;
    for (std::size_t c = 0; c < d; ++c)
    {
        std::vector<double> col(d);
        for (std::size_t r = 0; r < d; ++r)
        {
            col[r] = l1[r * d + c];
        }
        for (double v : PlainForward(l2, col, d))
        {
            trace += v * v;
        }
    }
    std::vector<double> diff(d);
    for (std::size_t e = 0; e < d; ++e)
    {
        diff[e] = m2[e] - m1[e];
    }
    double maha = 0;
    for (double v : PlainForward(l2, diff, d))
    {
        maha += v * v;
    }
    double logDet = 0;
    for (std::size_t e = 0; e < d; ++e)
    {
        logDet += 2.0 * (std::log(l2[e * d + e]) - std::log(l1[e * d + e]));
    }
    return 0.5 * (trace + maha - static_cast<double>(d) + logDet);
}

/** Eq. (17) with every divergence computed afresh. */
D2dGaussianClusters::Agreement
PlainAgreement(const std::vector<std::vector<D2dGaussianCluster>>& before,
               const std::vector<std::vector<D2dGaussianCluster>>& after,
               D2dGaussianClusters::AgreementMix mix,
               double ridge)
{
    D2dGaussianClusters::Agreement a;
    for (std::size_t i = 0; i < before.size(); ++i)
    {
        for (std::size_t j = 0; j < before.size(); ++j)
        {
            if (i == j)
            {
                continue;
            }
            for (std::size_t l = 0; l < before[i].size(); ++l)
            {
                for (std::size_t m = 0; m < before[j].size(); ++m)
                {
                    const auto& bi = before[i][l];
                    const auto& bj = before[j][m];
                    const auto& ai = after[i][l];
                    const auto& aj = after[j][m];
                    if (bi.count < 2 || bj.count < 2 || ai.count < 2 || aj.count < 2)
                    {
                        continue;
                    }
                    const double hb = PlainKl(bi.mean, bi.cov, bj.mean, bj.cov, ridge);
                    const double ha = mix == D2dGaussianClusters::POST_EXCHANGE
                                          ? PlainKl(ai.mean, ai.cov, aj.mean, aj.cov, ridge)
                                          : PlainKl(bi.mean, ai.cov, bj.mean, aj.cov, ridge);
                    if (!std::isfinite(hb) || !std::isfinite(ha) || !(ha > 0))
                    {
                        continue;
                    }
                    a.sum += hb / ha;
                    ++a.terms;
                }
            }
        }
    }
    return a;
}

/** A random covariance B B^T / m of rank min(m, d) (m < d: singular, so ridge matters). */
std::vector<double>
RandomCov(std::size_t d, std::size_t m, D2dDataRng& rng)
{
    std::vector<double> b(d * m);
    for (double& v : b)
    {
        v = rng.Normal() * (1 + 3 * rng.Uniform());
    }
    std::vector<double> s(d * d, 0.0);
    for (std::size_t r = 0; r < d; ++r)
    {
        for (std::size_t c = 0; c < d; ++c)
        {
            for (std::size_t k = 0; k < m; ++k)
            {
                s[r * d + c] += b[r * m + k] * b[c * m + k];
            }
            s[r * d + c] /= static_cast<double>(m);
        }
    }
    return s;
}

/** A device's L random clusters; some with fewer than 2 points, some singular. */
std::vector<D2dGaussianCluster> RandomClusters(uint32_t L, std::size_t d, D2dDataRng& rng);

/** n devices' random clusters (RandomClusters each). */
D2dAgreementCache::Clusters
RandomDevices(uint32_t n, uint32_t L, std::size_t d, D2dDataRng& rng)
{
    D2dAgreementCache::Clusters c(n);
    for (auto& b : c)
    {
        b = RandomClusters(L, d, rng);
    }
    return c;
}

std::vector<D2dGaussianCluster>
RandomClusters(uint32_t L, std::size_t d, D2dDataRng& rng)
{
    std::vector<D2dGaussianCluster> c(L);
    for (auto& g : c)
    {
        g.mean.resize(d);
        for (double& v : g.mean)
        {
            v = 4 * rng.Normal();
        }
        const uint64_t kind = rng.Below(8);
        g.count = kind == 0 ? 1 : 2 + static_cast<double>(rng.Below(60));
        g.cov =
            kind == 1 ? std::vector<double>(d * d, 0.0) : RandomCov(d, 1 + rng.Below(2 * d), rng);
    }
    return c;
}
} // namespace

TEST(D2dAgreementCache, CholeskyEqualsTheRowByRowLoopBitForBit)
{
    D2dDataRng rng(7, 1, 0);
    for (std::size_t d : {1, 2, 3, 7, 50})
    {
        for (int t = 0; t < 20; ++t)
        {
            // Full-rank, singular and indefinite matrices.
            auto a = RandomCov(d, t % 3 == 0 ? d / 2 + 1 : 2 * d, rng);
            if (t % 5 == 4)
            {
                a[(d - 1) * d + (d - 1)] -= 1e3; // indefinite at the last pivot
            }
            std::vector<double> got;
            std::vector<double> want;
            const bool ok = D2dGaussianClusters::Cholesky(a, d, got);
            ASSERT_EQ(ok, PlainCholesky(a, d, want)) << "d " << d << " t " << t;
            if (ok)
            {
                for (std::size_t e = 0; e < d * d; ++e)
                {
                    ASSERT_TRUE(SameBits(got[e], want[e])) << "d " << d << " element " << e;
                }
            }
        }
    }
}

TEST(D2dAgreementCache, KlFromFactorsEqualsThePlainDivergenceBitForBit)
{
    D2dDataRng rng(7, 2, 0);
    for (std::size_t d : {1, 2, 5, 50})
    {
        for (double ridge : {0.0, 1e-6})
        {
            for (int t = 0; t < 10; ++t)
            {
                std::vector<double> m1(d);
                std::vector<double> m2(d);
                for (std::size_t e = 0; e < d; ++e)
                {
                    m1[e] = rng.Normal();
                    m2[e] = 3 * rng.Normal();
                }
                const auto s1 = RandomCov(d, 1 + rng.Below(2 * d), rng);
                const auto s2 = RandomCov(d, 1 + rng.Below(2 * d), rng);
                const double want = PlainKl(m1, s1, m2, s2, ridge);
                const double got =
                    D2dGaussianClusters::KlDivergence(m1,
                                                      D2dGaussianClusters::Factor(s1, d, ridge),
                                                      m2,
                                                      D2dGaussianClusters::Factor(s2, d, ridge));
                ASSERT_TRUE(SameBits(got, want))
                    << "d " << d << " ridge " << ridge << ": " << got << " vs " << want;
                ASSERT_TRUE(
                    SameBits(D2dGaussianClusters::KlDivergence(m1, s1, m2, s2, ridge), want));
            }
        }
    }
}

TEST(D2dAgreementCache, KlAgreesWithExplicitInverses)
{
    // Independently: (tr(S2^-1 S1) + dm^T S2^-1 dm - d + ln det S2 - ln det S1) / 2 with the
    // inverse and determinants of well-conditioned 3 x 3 matrices by cofactors.
    const std::vector<double> s1{2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0};
    const std::vector<double> s2{1.0, -0.1, 0.2, -0.1, 2.5, 0.4, 0.2, 0.4, 3.0};
    const std::vector<double> m1{0.5, -1.0, 2.0};
    const std::vector<double> m2{-0.5, 0.0, 1.0};
    auto det = [](const std::vector<double>& a) {
        return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
               a[2] * (a[3] * a[7] - a[4] * a[6]);
    };
    const double d2 = det(s2);
    const std::vector<double> inv{(s2[4] * s2[8] - s2[5] * s2[7]) / d2,
                                  -(s2[1] * s2[8] - s2[2] * s2[7]) / d2,
                                  (s2[1] * s2[5] - s2[2] * s2[4]) / d2,
                                  -(s2[3] * s2[8] - s2[5] * s2[6]) / d2,
                                  (s2[0] * s2[8] - s2[2] * s2[6]) / d2,
                                  -(s2[0] * s2[5] - s2[2] * s2[3]) / d2,
                                  (s2[3] * s2[7] - s2[4] * s2[6]) / d2,
                                  -(s2[0] * s2[7] - s2[1] * s2[6]) / d2,
                                  (s2[0] * s2[4] - s2[1] * s2[3]) / d2};
    double trace = 0;
    double maha = 0;
    for (int r = 0; r < 3; ++r)
    {
        for (int c = 0; c < 3; ++c)
        {
            trace += inv[r * 3 + c] * s1[c * 3 + r];
            maha += (m2[r] - m1[r]) * inv[r * 3 + c] * (m2[c] - m1[c]);
        }
    }
    const double want = 0.5 * (trace + maha - 3 + std::log(d2 / det(s1)));
    const double got = D2dGaussianClusters::KlDivergence(m1,
                                                         D2dGaussianClusters::Factor(s1, 3, 0),
                                                         m2,
                                                         D2dGaussianClusters::Factor(s2, 3, 0));
    EXPECT_NEAR(got, want, 1e-12 * want);
}

TEST(D2dAgreementCache, StatisticsEqualTheFullSquareBitForBit)
{
    D2dDataRng rng(7, 3, 0);
    const std::size_t d = 13;
    const uint32_t k = 4;
    const std::size_t n = 301;
    std::vector<double> x(n * d);
    std::vector<uint32_t> assign(n);
    for (std::size_t p = 0; p < n; ++p)
    {
        assign[p] = static_cast<uint32_t>(rng.Below(k - 1)); // cluster k - 1 stays empty
        for (std::size_t e = 0; e < d; ++e)
        {
            x[p * d + e] = 10 * rng.Normal() + assign[p];
        }
    }
    const auto got = D2dGaussianClusters::Statistics(x, d, assign, k);
    // The full square, point by point.
    for (uint32_t c = 0; c < k; ++c)
    {
        std::vector<double> mean(d, 0.0);
        double count = 0;
        for (std::size_t p = 0; p < n; ++p)
        {
            if (assign[p] == c)
            {
                count += 1;
                for (std::size_t e = 0; e < d; ++e)
                {
                    mean[e] += x[p * d + e];
                }
            }
        }
        for (double& m : mean)
        {
            m = count > 0 ? m / count : 0.0;
        }
        std::vector<double> cov(d * d, 0.0);
        for (std::size_t p = 0; p < n; ++p)
        {
            if (assign[p] != c)
            {
                continue;
            }
            for (std::size_t r = 0; r < d; ++r)
            {
                const double dr = x[p * d + r] - mean[r];
                for (std::size_t q = 0; q < d; ++q)
                {
                    cov[r * d + q] += dr * (x[p * d + q] - mean[q]);
                }
            }
        }
        ASSERT_EQ(got[c].count, count);
        for (std::size_t e = 0; e < d * d; ++e)
        {
            const double want = count > 0 ? cov[e] / count : 0.0;
            ASSERT_TRUE(SameBits(got[c].cov[e], want)) << "cluster " << c << " element " << e;
        }
        for (std::size_t e = 0; e < d; ++e)
        {
            ASSERT_TRUE(SameBits(got[c].mean[e], mean[e]));
        }
    }
}

TEST(D2dAgreementCache, SumAgreesWithThePlainSumThroughChanges)
{
    // Random changes to devices' clusters before and after, and sums over random subsets in
    // random orders: the cache (blocks of dense linear algebra, D2dKlBlocks) must give the
    // plain sum to 1e-9 relative every time (the same terms), with fewer divergences; the
    // textbook D2dGaussianClusters::SystemAgreement gives the plain sum's bits.
    for (auto mix : {D2dGaussianClusters::POST_EXCHANGE, D2dGaussianClusters::PRINTED})
    {
        D2dDataRng rng(11, 4, mix);
        const uint32_t n = 6;
        const uint32_t L = 3;
        const std::size_t d = 4;
        const double ridge = 1e-6;
        D2dAgreementCache::Clusters before(n);
        for (auto& b : before)
        {
            b = RandomClusters(L, d, rng);
        }
        auto after = before;
        D2dAgreementCache cache(mix, ridge);
        cache.Reset(n);
        uint64_t plainDivergences = 0;
        for (int step = 0; step < 300; ++step)
        {
            const uint32_t i = static_cast<uint32_t>(rng.Below(n));
            switch (rng.Below(5))
            {
            case 0:
                before[i] = RandomClusters(L, d, rng);
                after[i] = before[i];
                cache.BeforeChanged(i);
                break;
            case 1:
                after[i] = RandomClusters(L, d, rng);
                cache.AfterChanged(i);
                break;
            case 2:
                after[i] = before[i];
                cache.AfterSameAsBefore(i);
                break;
            case 3:
                after = before;
                cache.AfterReset();
                break;
            default:
                break; // no change: the next sum comes from the cache
            }
            std::vector<uint32_t> devices;
            for (uint32_t k = 0; k < n; ++k)
            {
                if (rng.Below(3) > 0)
                {
                    devices.push_back(k);
                }
            }
            rng.Shuffle(devices);
            D2dAgreementCache::Clusters b;
            D2dAgreementCache::Clusters a;
            for (uint32_t k : devices)
            {
                b.push_back(before[k]);
                a.push_back(after[k]);
            }
            const auto want = PlainAgreement(b, a, mix, ridge);
            const auto got = cache.Sum(devices, before, after);
            ASSERT_EQ(got.terms, want.terms) << "step " << step;
            ASSERT_NEAR(got.sum, want.sum, 1e-9 * std::abs(want.sum))
                << "step " << step << ": " << got.sum << " vs " << want.sum;
            const auto once = D2dGaussianClusters::SystemAgreement(b, a, mix, ridge);
            ASSERT_TRUE(SameBits(once.sum, want.sum)) << "step " << step;
            const uint64_t m = devices.size();
            plainDivergences += 2 * m * (m > 0 ? m - 1 : 0) * L * L; // h^B and h^A, afresh
        }
        EXPECT_LT(cache.GetDivergences(), plainDivergences / 4);
    }
}

TEST(D2dAgreementCache, OnlyTheChangedDevicesPairsAreComputedAgain)
{
    D2dDataRng rng(3, 5, 0);
    const uint32_t L = 2;
    const std::size_t d = 3;
    D2dAgreementCache::Clusters before(3);
    for (auto& b : before)
    {
        b = RandomClusters(L, d, rng);
        for (auto& c : b)
        {
            c.count = 10;
            c.cov = RandomCov(d, 2 * d, rng);
        }
    }
    auto after = before;
    D2dAgreementCache cache(D2dGaussianClusters::POST_EXCHANGE, 1e-6);
    cache.Reset(3);
    const std::vector<uint32_t> all{0, 1, 2};
    const auto first = cache.Sum(all, before, after);
    // 6 ordered pairs x L^2 terms, h^B only (after == before: h^A is h^B, ratio 1).
    EXPECT_EQ(cache.GetDivergences(), 6U * L * L);
    EXPECT_EQ(first.terms, 6U * L * L);
    EXPECT_DOUBLE_EQ(first.sum, 6.0 * L * L);
    cache.Sum(all, before, after);
    EXPECT_EQ(cache.GetDivergences(), 6U * L * L) << "nothing changed: nothing computed";
    after[1][0].cov[0] *= 2;
    cache.AfterChanged(1);
    cache.Sum(all, before, after);
    // h^A of the 4 ordered pairs with device 1.
    EXPECT_EQ(cache.GetDivergences(), 6U * L * L + 4U * L * L);
    cache.Sum({0, 2}, before, after);
    EXPECT_EQ(cache.GetDivergences(), 6U * L * L + 4U * L * L) << "pairs without 1 kept";
    cache.AfterReset();
    after = before;
    EXPECT_DOUBLE_EQ(cache.Sum(all, before, after).sum, 6.0 * L * L);
    EXPECT_THROW(cache.Sum({0, 3}, before, after), std::invalid_argument) << "no device 3";
}

namespace
{
/**
 * A covariance with eigenvalues spread over `decades` decades (from 10^-decades/2 to
 * 10^decades/2) in a random orthonormal basis (Gram-Schmidt of normal vectors).
 */
std::vector<double>
IllConditionedCov(std::size_t d, double decades, D2dDataRng& rng)
{
    std::vector<double> q(d * d);
    for (std::size_t k = 0; k < d; ++k)
    {
        for (std::size_t e = 0; e < d; ++e)
        {
            q[k * d + e] = rng.Normal();
        }
        for (std::size_t p = 0; p < k; ++p)
        {
            double dot = 0;
            for (std::size_t e = 0; e < d; ++e)
            {
                dot += q[k * d + e] * q[p * d + e];
            }
            for (std::size_t e = 0; e < d; ++e)
            {
                q[k * d + e] -= dot * q[p * d + e];
            }
        }
        double norm = 0;
        for (std::size_t e = 0; e < d; ++e)
        {
            norm += q[k * d + e] * q[k * d + e];
        }
        for (std::size_t e = 0; e < d; ++e)
        {
            q[k * d + e] /= std::sqrt(norm);
        }
    }
    std::vector<double> s(d * d, 0.0);
    for (std::size_t k = 0; k < d; ++k)
    {
        const double t = d > 1 ? static_cast<double>(k) / static_cast<double>(d - 1) : 0.5;
        const double lambda = std::pow(10.0, decades * (t - 0.5));
        for (std::size_t r = 0; r < d; ++r)
        {
            for (std::size_t c = 0; c < d; ++c)
            {
                s[r * d + c] += lambda * q[k * d + r] * q[k * d + c];
            }
        }
    }
    return s;
}
} // namespace

TEST(D2dKlBlocks, DivergencesAgreeWithTheTextbookToRounding)
{
    // Blocks of 5 x 4 Gaussians, d = 1..64, against the textbook divergence (Cholesky factors,
    // one forward solve a column, PlainKl): 1e-9 relative to the size of the terms, |KL| + d
    // + |ln det S_a| + |ln det S_b| (a divergence near 0 is a difference of terms of that
    // size; no arithmetic gives it to better than their rounding). Covariances: random of
    // full rank, singular with a ridge, and with eigenvalues over 6 decades (condition
    // number 10^6) without one.
    D2dDataRng rng(5, 9, 2);
    double worst = 0;
    for (std::size_t d : {1, 2, 3, 5, 8, 16, 31, 50, 64})
    {
        for (int kind = 0; kind < 3; ++kind)
        {
            const double ridge = kind == 1 ? 1e-3 : 0.0;
            std::vector<std::vector<double>> means(9);
            std::vector<std::vector<double>> covs(9);
            std::vector<D2dGaussianPrecision> prec(9);
            for (std::size_t g = 0; g < 9; ++g)
            {
                means[g].resize(d);
                for (double& v : means[g])
                {
                    v = 3 * rng.Normal();
                }
                covs[g] = kind == 0   ? RandomCov(d, 2 * d + 1, rng)
                          : kind == 1 ? RandomCov(d, 1 + rng.Below(d), rng)
                                      : IllConditionedCov(d, 6, rng);
                prec[g] = D2dKlBlocks::Precision(covs[g], d, ridge);
                ASSERT_TRUE(prec[g].ok) << "d " << d << " kind " << kind;
            }
            std::vector<const double*> ma;
            std::vector<const D2dGaussianPrecision*> pa;
            std::vector<const double*> mb;
            std::vector<const D2dGaussianPrecision*> pb;
            for (std::size_t g = 0; g < 5; ++g)
            {
                ma.push_back(means[g].data());
                pa.push_back(&prec[g]);
            }
            for (std::size_t g = 5; g < 9; ++g)
            {
                mb.push_back(means[g].data());
                pb.push_back(&prec[g]);
            }
            std::vector<double> out;
            EXPECT_EQ(D2dKlBlocks::Divergences(ma, pa, mb, pb, d, out),
                      4U * (5 * (d * (d + 1) / 2 + d) + d * d));
            ASSERT_EQ(out.size(), 20U);
            for (std::size_t a = 0; a < 5; ++a)
            {
                for (std::size_t b = 0; b < 4; ++b)
                {
                    const double want =
                        PlainKl(means[a], covs[a], means[5 + b], covs[5 + b], ridge);
                    const double size = std::abs(want) + static_cast<double>(d) +
                                        std::abs(prec[a].logDet) + std::abs(prec[5 + b].logDet);
                    const double err = std::abs(out[a * 4 + b] - want) / size;
                    worst = std::max(worst, err);
                    ASSERT_LE(err, 1e-9) << "d " << d << " kind " << kind << " a " << a << " b "
                                         << b << ": " << out[a * 4 + b] << " vs " << want;
                }
            }
        }
    }
    std::cout << "largest error relative to the terms: " << worst << std::endl;
}

TEST(D2dKlBlocks, NotPositiveDefiniteGivesInfinity)
{
    // A zero covariance without a ridge has no factor: its divergences are +infinity, as
    // D2dGaussianClusters::KlDivergence says, the other entries of the block are finite.
    const auto zero = D2dKlBlocks::Precision({0, 0, 0, 0}, 2, 0.0);
    EXPECT_FALSE(zero.ok);
    const auto one = D2dKlBlocks::Precision({1, 0, 0, 1}, 2, 0.0);
    ASSERT_TRUE(one.ok);
    EXPECT_DOUBLE_EQ(one.logDet, 0.0);
    const std::vector<double> m = {0, 0};
    const std::vector<double> m1 = {1, 2};
    std::vector<double> out;
    D2dKlBlocks::Divergences({m.data(), m.data()}, {&zero, &one}, {m1.data()}, {&one}, 2, out);
    ASSERT_EQ(out.size(), 2U);
    EXPECT_TRUE(std::isinf(out[0]));
    EXPECT_DOUBLE_EQ(out[1], 2.5) << "(tr 2 + Mahalanobis 5 - d 2 + ln det 0) / 2";
    D2dKlBlocks::Divergences({m.data()}, {&one}, {m1.data()}, {&zero}, 2, out);
    EXPECT_TRUE(std::isinf(out[0]));
    EXPECT_THROW(D2dKlBlocks::Precision({1, 0, 0}, 2, 0.0), std::invalid_argument);
    EXPECT_THROW(D2dKlBlocks::Precision({1, 0, 0, 1}, 2, -1.0), std::invalid_argument);
}

TEST(D2dAgreementCache, SameBitsWhateverTheWorkers)
{
    // The blocks spread over two threads, taken in reverse order, give the bits of one
    // thread in order: each block's arithmetic does not depend on who runs it.
    D2dDataRng rng(3, 3, 3);
    const uint32_t n = 7;
    const uint32_t L = 4;
    const std::size_t d = 9;
    D2dAgreementCache::Clusters before = RandomDevices(n, L, d, rng);
    auto after = before;
    for (uint32_t i = 0; i < n; i += 2)
    {
        after[i] = RandomClusters(L, d, rng);
    }
    std::vector<uint32_t> all = {3, 0, 6, 1, 5, 2, 4};
    D2dAgreementCache serial(D2dGaussianClusters::POST_EXCHANGE, 1e-6);
    D2dAgreementCache threaded(D2dGaussianClusters::POST_EXCHANGE, 1e-6);
    std::size_t calls = 0;
    threaded.SetParallelFor(
        [&calls](std::size_t count, const std::function<void(std::size_t)>& body) {
            ++calls;
            std::thread other([&] {
                for (std::size_t k = count; k-- > count / 2;)
                {
                    body(k);
                }
            });
            for (std::size_t k = count / 2; k-- > 0;)
            {
                body(k);
            }
            other.join();
        });
    for (auto* c : {&serial, &threaded})
    {
        c->Reset(n);
        for (uint32_t i = 0; i < n; i += 2)
        {
            c->AfterChanged(i);
        }
    }
    const auto a = serial.Sum(all, before, after);
    const auto b = threaded.Sum(all, before, after);
    EXPECT_GT(calls, 0U);
    EXPECT_EQ(a.terms, b.terms);
    EXPECT_TRUE(SameBits(a.sum, b.sum)) << a.sum << " vs " << b.sum;
    EXPECT_EQ(serial.GetDivergences(), threaded.GetDivergences());
    EXPECT_EQ(serial.GetMultiplyAdds(), threaded.GetMultiplyAdds());
    EXPECT_GT(serial.GetMultiplyAdds(), 0U);
}

TEST(D2dAgreementCache, WithPointsAgreesWithTheStatisticsOfAllPoints)
{
    // Alg. 2 step 9 by the pairwise update (Chan, Golub and LeVeque 1979) against the two-pass
    // statistics of all the points: 1e-12 relative to the largest variance of the cluster
    // (the points are far from the origin, where a one-pass sum of squares would lose
    // digits); a cluster that gets nothing keeps its bits; one that had no point gets the
    // new points' own summary (to the same tolerance: its scatter is a BLAS product, not the
    // point-order sum of Statistics).
    D2dDataRng rng(13, 2, 1);
    for (std::size_t d : {1, 3, 7, 50})
    {
        const uint32_t k = 4;
        const std::size_t n = 300;
        const std::size_t m = 57;
        std::vector<double> x((n + m) * d);
        std::vector<uint32_t> assign(n + m);
        for (std::size_t p = 0; p < n + m; ++p)
        {
            // Cluster 3 gets no point held, cluster 2 no new point.
            assign[p] = p < n ? static_cast<uint32_t>(rng.Below(3))
                              : (rng.Below(2) == 0 ? 3U : static_cast<uint32_t>(rng.Below(2)));
            for (std::size_t e = 0; e < d; ++e)
            {
                x[p * d + e] = 1e3 + 10 * assign[p] + rng.Normal() * (1 + e % 3);
            }
        }
        const std::vector<double> held(x.begin(), x.begin() + n * d);
        const std::vector<double> added(x.begin() + n * d, x.end());
        const std::vector<uint32_t> heldAssign(assign.begin(), assign.begin() + n);
        const std::vector<uint32_t> addedAssign(assign.begin() + n, assign.end());
        const auto before = D2dGaussianClusters::Statistics(held, d, heldAssign, k);
        const auto got = D2dGaussianClusters::WithPoints(before, added, d, addedAssign);
        const auto want = D2dGaussianClusters::Statistics(x, d, assign, k);
        ASSERT_EQ(got.size(), k);
        for (uint32_t c = 0; c < k; ++c)
        {
            ASSERT_EQ(got[c].count, want[c].count) << "d " << d << " cluster " << c;
            double scale = 0;
            for (std::size_t e = 0; e < d; ++e)
            {
                scale = std::max(scale, want[c].cov[e * d + e]);
            }
            for (std::size_t e = 0; e < d * d; ++e)
            {
                ASSERT_NEAR(got[c].cov[e], want[c].cov[e], 1e-12 * scale)
                    << "d " << d << " cluster " << c << " element " << e;
            }
            for (std::size_t e = 0; e < d; ++e)
            {
                ASSERT_NEAR(got[c].mean[e], want[c].mean[e], 1e-12 * std::abs(want[c].mean[e]));
            }
        }
        for (std::size_t e = 0; e < d * d; ++e)
        {
            ASSERT_TRUE(SameBits(got[2].cov[e], before[2].cov[e])) << "nothing new: same bits";
        }
        const auto own = D2dGaussianClusters::Statistics(added, d, addedAssign, k);
        ASSERT_EQ(got[3].count, own[3].count);
        double ownScale = 0;
        for (std::size_t e = 0; e < d; ++e)
        {
            ownScale = std::max(ownScale, own[3].cov[e * d + e]);
        }
        for (std::size_t e = 0; e < d * d; ++e)
        {
            ASSERT_NEAR(got[3].cov[e], own[3].cov[e], 1e-12 * ownScale)
                << "nothing held: the new points'";
        }
    }
}

TEST(D2dAgreementCache, SampleWithAPreparedFactorGivesTheSameBits)
{
    // The paradigm prepares each transmitter cluster's factor once per edge round: the draws
    // must be those of Sample(cluster), which factors it every call (a singular covariance
    // included: the jitter loop).
    D2dDataRng rng(17, 1, 1);
    for (std::size_t d : {1, 4, 20})
    {
        for (std::size_t rank : {d, std::size_t{1}})
        {
            D2dGaussianCluster g;
            g.mean.resize(d);
            for (double& v : g.mean)
            {
                v = rng.Normal();
            }
            g.cov = RandomCov(d, rank, rng);
            g.count = 10;
            D2dDataRng a(1, 2, 3);
            D2dDataRng b(1, 2, 3);
            const auto want = D2dGaussianClusters::Sample(g, 25, a);
            const auto factor = D2dGaussianClusters::SampleFactor(g);
            const auto got = D2dGaussianClusters::Sample(g.mean, factor, 25, b);
            ASSERT_EQ(got.size(), want.size());
            for (std::size_t e = 0; e < got.size(); ++e)
            {
                ASSERT_TRUE(SameBits(got[e], want[e])) << "d " << d << " rank " << rank;
            }
        }
    }
}

TEST(D2dAgreementCache, UpdateOfAllGroupsThenSumsGivesTheBitsOfSumsAlone)
{
    // The protocol prepares every cluster head's sum at once (PrepareAgreements): with
    // disjoint groups, the sums that follow compute nothing more and give the bits of sums
    // computed one group at a time.
    D2dDataRng rng(19, 4, 4);
    const uint32_t n = 9;
    const uint32_t L = 3;
    const std::size_t d = 6;
    D2dAgreementCache::Clusters before = RandomDevices(n, L, d, rng);
    auto after = before;
    const std::vector<std::vector<uint32_t>> groups = {{4, 0, 7}, {1, 2}, {8}, {3, 6, 5}};
    D2dAgreementCache alone(D2dGaussianClusters::PRINTED, 1e-6);
    D2dAgreementCache batched(D2dGaussianClusters::PRINTED, 1e-6);
    alone.Reset(n);
    batched.Reset(n);
    for (int step = 0; step < 3; ++step)
    {
        for (uint32_t i = step % 2; i < n; i += 2)
        {
            after[i] = RandomClusters(L, d, rng);
            alone.AfterChanged(i);
            batched.AfterChanged(i);
        }
        batched.Update(groups, before, after);
        const uint64_t computed = batched.GetDivergences();
        for (const auto& g : groups)
        {
            const auto a = alone.Sum(g, before, after);
            const auto b = batched.Sum(g, before, after);
            EXPECT_EQ(a.terms, b.terms) << "step " << step;
            EXPECT_TRUE(SameBits(a.sum, b.sum))
                << "step " << step << ": " << a.sum << " vs " << b.sum;
        }
        EXPECT_EQ(batched.GetDivergences(), computed) << "the sums found everything done";
        EXPECT_EQ(batched.GetDivergences(), alone.GetDivergences());
    }
}
