/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-gaussian-clusters.h"

#include "ns3/d2d-data-rng.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{
/** Purpose constant of the k-means++ seeding stream (D2dDataRng). */
constexpr uint32_t KMEANS_SEEDING = 0x47440002;

double
SquaredDistance(const double* a, const double* b, std::size_t d)
{
    double s = 0;
    for (std::size_t c = 0; c < d; ++c)
    {
        const double e = a[c] - b[c];
        s += e * e;
    }
    return s;
}

/** Solves L y = b (forward substitution), L lower triangular row-major. */
std::vector<double>
Forward(const std::vector<double>& l, const std::vector<double>& b, std::size_t d)
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
} // namespace

uint32_t
D2dGaussianClusters::Nearest(const double* point,
                             const std::vector<double>& centroids,
                             std::size_t d)
{
    const std::size_t k = centroids.size() / d;
    uint32_t best = 0;
    double bestD = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c)
    {
        const double dist = SquaredDistance(point, &centroids[c * d], d);
        if (dist < bestD)
        {
            bestD = dist;
            best = c;
        }
    }
    return best;
}

D2dGaussianClusters::KMeansResult
D2dGaussianClusters::KMeans(const std::vector<double>& x,
                            std::size_t n,
                            std::size_t d,
                            uint32_t k,
                            uint64_t seed,
                            uint32_t device,
                            uint32_t maxIterations)
{
    if (d == 0 || k == 0 || n < k || x.size() != n * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::KMeans: need d > 0, 0 < k <= n and "
                                    "n x d points");
    }
    D2dDataRng rng(seed, KMEANS_SEEDING, device);
    KMeansResult res;
    res.centroids.reserve(k * d);
    // k-means++ seeding.
    const std::size_t first = rng.Below(n);
    res.centroids.insert(res.centroids.end(), &x[first * d], &x[first * d] + d);
    std::vector<double> nearest(n);
    for (std::size_t p = 0; p < n; ++p)
    {
        nearest[p] = SquaredDistance(&x[p * d], &x[first * d], d);
    }
    for (uint32_t c = 1; c < k; ++c)
    {
        double total = 0;
        for (double v : nearest)
        {
            total += v;
        }
        std::size_t pick = 0;
        if (total > 0)
        {
            const double u = rng.Uniform() * total;
            double acc = 0;
            pick = n - 1;
            for (std::size_t p = 0; p < n; ++p)
            {
                acc += nearest[p];
                if (u < acc && nearest[p] > 0)
                {
                    pick = p;
                    break;
                }
            }
        }
        else
        {
            pick = rng.Below(n); // every point coincides with a seed
        }
        res.centroids.insert(res.centroids.end(), &x[pick * d], &x[pick * d] + d);
        for (std::size_t p = 0; p < n; ++p)
        {
            nearest[p] = std::min(nearest[p], SquaredDistance(&x[p * d], &x[pick * d], d));
        }
    }
    // Lloyd's iterations.
    res.assign.assign(n, 0);
    for (std::size_t p = 0; p < n; ++p)
    {
        res.assign[p] = Nearest(&x[p * d], res.centroids, d);
    }
    for (res.iterations = 0; res.iterations < maxIterations;)
    {
        ++res.iterations;
        std::vector<double> sums(k * d, 0.0);
        std::vector<std::size_t> sizes(k, 0);
        for (std::size_t p = 0; p < n; ++p)
        {
            ++sizes[res.assign[p]];
            for (std::size_t c = 0; c < d; ++c)
            {
                sums[res.assign[p] * d + c] += x[p * d + c];
            }
        }
        for (uint32_t c = 0; c < k; ++c)
        {
            if (sizes[c] > 0)
            {
                for (std::size_t e = 0; e < d; ++e)
                {
                    res.centroids[c * d + e] = sums[c * d + e] / sizes[c];
                }
            }
        }
        bool changed = false;
        for (std::size_t p = 0; p < n; ++p)
        {
            const uint32_t a = Nearest(&x[p * d], res.centroids, d);
            changed = changed || a != res.assign[p];
            res.assign[p] = a;
        }
        if (!changed)
        {
            break;
        }
    }
    return res;
}

std::vector<D2dGaussianCluster>
D2dGaussianClusters::Statistics(const std::vector<double>& x,
                                std::size_t d,
                                const std::vector<uint32_t>& assign,
                                uint32_t k)
{
    if (d == 0 || x.size() != assign.size() * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Statistics: n x d points, n labels");
    }
    std::vector<D2dGaussianCluster> s(k);
    for (auto& c : s)
    {
        c.mean.assign(d, 0.0);
        c.cov.assign(d * d, 0.0);
    }
    for (std::size_t p = 0; p < assign.size(); ++p)
    {
        auto& c = s.at(assign[p]);
        c.count += 1;
        for (std::size_t e = 0; e < d; ++e)
        {
            c.mean[e] += x[p * d + e];
        }
    }
    for (auto& c : s)
    {
        for (double& m : c.mean)
        {
            m = c.count > 0 ? m / c.count : 0.0;
        }
    }
    for (std::size_t p = 0; p < assign.size(); ++p)
    {
        auto& c = s[assign[p]];
        for (std::size_t r = 0; r < d; ++r)
        {
            const double dr = x[p * d + r] - c.mean[r];
            for (std::size_t q = 0; q < d; ++q)
            {
                c.cov[r * d + q] += dr * (x[p * d + q] - c.mean[q]);
            }
        }
    }
    for (auto& c : s)
    {
        for (double& v : c.cov)
        {
            v = c.count > 0 ? v / c.count : 0.0;
        }
    }
    return s;
}

std::vector<double>
D2dGaussianClusters::AllotShares(const std::vector<double>& receiver,
                                 const std::vector<double>& transmitter,
                                 std::size_t d)
{
    if (d == 0 || receiver.empty() || transmitter.empty() || receiver.size() % d != 0 ||
        transmitter.size() % d != 0)
    {
        throw std::invalid_argument("D2dGaussianClusters::AllotShares: centroids of d values");
    }
    const std::size_t li = receiver.size() / d;
    const std::size_t lj = transmitter.size() / d;
    std::vector<double> share(lj, 0.0);
    double total = 0;
    for (std::size_t l = 0; l < lj; ++l)
    {
        for (std::size_t m = 0; m < li; ++m)
        {
            share[l] += std::sqrt(SquaredDistance(&receiver[m * d], &transmitter[l * d], d));
        }
        total += share[l];
    }
    for (double& s : share)
    {
        s = total > 0 ? s / total : 1.0 / lj;
    }
    return share;
}

bool
D2dGaussianClusters::Cholesky(const std::vector<double>& a, std::size_t d, std::vector<double>& l)
{
    if (a.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Cholesky: a must be d x d");
    }
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

double
D2dGaussianClusters::KlDivergence(const std::vector<double>& m1,
                                  const std::vector<double>& s1,
                                  const std::vector<double>& m2,
                                  const std::vector<double>& s2,
                                  double ridge)
{
    const std::size_t d = m1.size();
    if (d == 0 || m2.size() != d || s1.size() != d * d || s2.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::KlDivergence: sizes disagree");
    }
    auto a1 = s1;
    auto a2 = s2;
    for (std::size_t e = 0; e < d; ++e)
    {
        a1[e * d + e] += ridge;
        a2[e * d + e] += ridge;
    }
    std::vector<double> l1;
    std::vector<double> l2;
    if (!Cholesky(a1, d, l1) || !Cholesky(a2, d, l2))
    {
        return std::numeric_limits<double>::infinity();
    }
    // tr(S2^-1 S1) = ||L2^-1 L1||_F^2, column by column.
    double trace = 0;
    for (std::size_t c = 0; c < d; ++c)
    {
        std::vector<double> col(d);
        for (std::size_t r = 0; r < d; ++r)
        {
            col[r] = l1[r * d + c];
        }
        for (double v : Forward(l2, col, d))
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
    for (double v : Forward(l2, diff, d))
    {
        maha += v * v;
    }
    double logDet = 0; // ln det S2 - ln det S1
    for (std::size_t e = 0; e < d; ++e)
    {
        logDet += 2.0 * (std::log(l2[e * d + e]) - std::log(l1[e * d + e]));
    }
    return 0.5 * (trace + maha - static_cast<double>(d) + logDet);
}

std::vector<double>
D2dGaussianClusters::Sample(const D2dGaussianCluster& cluster, uint64_t count, D2dDataRng& rng)
{
    const std::size_t d = cluster.mean.size();
    if (d == 0 || cluster.cov.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Sample: a mean of d values and a "
                                    "d x d covariance");
    }
    std::vector<double> out;
    if (count == 0)
    {
        return out;
    }
    double trace = 0;
    for (std::size_t e = 0; e < d; ++e)
    {
        trace += cluster.cov[e * d + e];
    }
    std::vector<double> l;
    double jitter = trace > 0 ? 1e-9 * trace / d : 1e-12;
    auto a = cluster.cov;
    while (!Cholesky(a, d, l))
    {
        a = cluster.cov;
        for (std::size_t e = 0; e < d; ++e)
        {
            a[e * d + e] += jitter;
        }
        jitter *= 10;
        if (!std::isfinite(jitter))
        {
            throw std::invalid_argument("D2dGaussianClusters::Sample: covariance not finite");
        }
    }
    out.resize(count * d);
    std::vector<double> z(d);
    for (uint64_t p = 0; p < count; ++p)
    {
        for (std::size_t e = 0; e < d; ++e)
        {
            z[e] = rng.Normal();
        }
        for (std::size_t r = 0; r < d; ++r)
        {
            double v = cluster.mean[r];
            for (std::size_t c = 0; c <= r; ++c)
            {
                v += l[r * d + c] * z[c];
            }
            out[p * d + r] = v;
        }
    }
    return out;
}

double
D2dGaussianClusters::TraceRatio(const std::vector<D2dGaussianCluster>& before,
                                const std::vector<D2dGaussianCluster>& after)
{
    if (before.size() != after.size())
    {
        throw std::invalid_argument("D2dGaussianClusters::TraceRatio: cluster counts differ");
    }
    double sum = 0;
    for (std::size_t l = 0; l < before.size(); ++l)
    {
        const std::size_t d = before[l].mean.size();
        double tb = 0;
        double ta = 0;
        for (std::size_t e = 0; e < d; ++e)
        {
            tb += before[l].cov[e * d + e];
            ta += after[l].cov.at(e * d + e);
        }
        sum += tb > 0 ? ta / tb : 1.0;
    }
    return sum;
}

D2dGaussianClusters::Agreement
D2dGaussianClusters::SystemAgreement(const std::vector<std::vector<D2dGaussianCluster>>& before,
                                     const std::vector<std::vector<D2dGaussianCluster>>& after,
                                     AgreementMix mix,
                                     double ridge)
{
    if (before.size() != after.size())
    {
        throw std::invalid_argument("D2dGaussianClusters::SystemAgreement: shapes differ");
    }
    Agreement a;
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
                    const auto& ai = after[i].at(l);
                    const auto& aj = after[j].at(m);
                    if (bi.count < 2 || bj.count < 2 || ai.count < 2 || aj.count < 2)
                    {
                        continue;
                    }
                    const double hb = KlDivergence(bi.mean, bi.cov, bj.mean, bj.cov, ridge);
                    const double ha = mix == POST_EXCHANGE
                                          ? KlDivergence(ai.mean, ai.cov, aj.mean, aj.cov, ridge)
                                          : KlDivergence(bi.mean, ai.cov, bj.mean, aj.cov, ridge);
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

uint64_t
D2dGaussianClusters::ClusterMessageBytes(std::size_t d)
{
    return 4 * (d + d * d) + 1;
}

} // namespace ns3
