/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-gaussian-clusters.h"

#include "d2d-blas.h"
#include "d2d-squared-distance.h"

#include "ns3/d2d-data-rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{
/** Purpose constant of the k-means++ seeding stream (D2dDataRng). */
constexpr uint32_t KMEANS_SEEDING = 0x47440002;
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
        const double dist = D2dSquaredDistance::Of(point, &centroids[c * d], d);
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
        nearest[p] = D2dSquaredDistance::Of(&x[p * d], &x[first * d], d);
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
            nearest[p] = std::min(nearest[p], D2dSquaredDistance::Of(&x[p * d], &x[pick * d], d));
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
    // Sigma[r][q] = sum_p (x_pr - mu_r)(x_pq - mu_q) / n, the sum in point order. Element
    // (q, r) adds the same products (multiplication commutes exactly) in the same order as
    // (r, q), so the lower triangle is accumulated and mirrored: the same bits as the full
    // square, for half the work.
    std::vector<double> diff(d);
    for (std::size_t p = 0; p < assign.size(); ++p)
    {
        auto& c = s[assign[p]];
        for (std::size_t e = 0; e < d; ++e)
        {
            diff[e] = x[p * d + e] - c.mean[e];
        }
        for (std::size_t r = 0; r < d; ++r)
        {
            const double dr = diff[r];
            double* row = &c.cov[r * d];
            for (std::size_t q = 0; q <= r; ++q)
            {
                row[q] += dr * diff[q];
            }
        }
    }
    for (auto& c : s)
    {
        for (std::size_t r = 0; r < d; ++r)
        {
            for (std::size_t q = 0; q <= r; ++q)
            {
                const double v = c.count > 0 ? c.cov[r * d + q] / c.count : 0.0;
                c.cov[r * d + q] = v;
                c.cov[q * d + r] = v;
            }
        }
    }
    return s;
}

std::vector<D2dGaussianCluster>
D2dGaussianClusters::WithPoints(const std::vector<D2dGaussianCluster>& clusters,
                                const std::vector<double>& x,
                                std::size_t d,
                                const std::vector<uint32_t>& assign)
{
    auto out = clusters;
    AddPoints(out, x, d, assign);
    return out;
}

void
D2dGaussianClusters::AddPoints(std::vector<D2dGaussianCluster>& clusters,
                               const std::vector<double>& x,
                               std::size_t d,
                               const std::vector<uint32_t>& assign)
{
    const auto k = static_cast<uint32_t>(clusters.size());
    if (d == 0 || x.size() != assign.size() * d ||
        d > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        assign.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    {
        throw std::invalid_argument("D2dGaussianClusters::AddPoints: m x d points, m labels");
    }
    // The new points of each cluster, in their order.
    std::vector<std::vector<std::size_t>> members(k);
    for (std::size_t p = 0; p < assign.size(); ++p)
    {
        members.at(assign[p]).push_back(p);
    }
    std::vector<double> centred;
    std::vector<double> scatter(d * d);
    std::vector<double> meanB(d);
    std::vector<double> delta(d);
    const int n = static_cast<int>(d);
    for (uint32_t l = 0; l < k; ++l)
    {
        const auto& rows = members[l];
        if (rows.empty())
        {
            continue; // no new point: the summary keeps its bits
        }
        auto& c = clusters[l];
        if (c.count > 0 && (c.mean.size() != d || c.cov.size() != d * d))
        {
            throw std::invalid_argument("D2dGaussianClusters::AddPoints: summaries of "
                                        "dimension d");
        }
        // The new points' mean (summed in point order), then their scatter
        // sum_p (x_p - mu_b)(x_p - mu_b)^T as one BLAS 3 product of the centred rows: the
        // row-major m x d rows are BLAS's column-major d x m matrix C, and C C^T is dsyrk's
        // 'N' form; its lower triangle (column-major) is the upper one read row-major.
        const double nb = static_cast<double>(rows.size());
        std::fill(meanB.begin(), meanB.end(), 0.0);
        for (std::size_t p : rows)
        {
            for (std::size_t e = 0; e < d; ++e)
            {
                meanB[e] += x[p * d + e];
            }
        }
        for (double& v : meanB)
        {
            v /= nb;
        }
        centred.resize(rows.size() * d);
        for (std::size_t q = 0; q < rows.size(); ++q)
        {
            for (std::size_t e = 0; e < d; ++e)
            {
                centred[q * d + e] = x[rows[q] * d + e] - meanB[e];
            }
        }
        const int m = static_cast<int>(rows.size());
        const double one = 1.0;
        const double zero = 0.0;
        dsyrk_("L", "N", &n, &m, &one, centred.data(), &n, &zero, scatter.data(), &n, 1, 1);
        if (c.count == 0)
        {
            // Nothing held: the new points' own statistics (maximum likelihood).
            c.count = nb;
            c.mean = meanB;
            c.cov.assign(d * d, 0.0);
            for (std::size_t r = 0; r < d; ++r)
            {
                for (std::size_t q = r; q < d; ++q)
                {
                    c.cov[r * d + q] = scatter[r * d + q] / nb;
                    c.cov[q * d + r] = c.cov[r * d + q];
                }
            }
            continue;
        }
        // Chan, Golub and LeVeque 1979, eq. (2.1): the pairwise update of the mean and the
        // sum of squared deviations.
        const double na = c.count;
        const double total = na + nb;
        const double wb = nb / total;
        const double cross = na * nb / total;
        for (std::size_t e = 0; e < d; ++e)
        {
            delta[e] = meanB[e] - c.mean[e];
            c.mean[e] += wb * delta[e];
        }
        c.count = total;
        // Element (r, q), q >= r, is the column-major lower triangle's (q, r): scatter[r d + q].
        for (std::size_t r = 0; r < d; ++r)
        {
            for (std::size_t q = r; q < d; ++q)
            {
                const double m2 =
                    na * c.cov[r * d + q] + scatter[r * d + q] + cross * delta[r] * delta[q];
                c.cov[r * d + q] = m2 / total;
                c.cov[q * d + r] = m2 / total;
            }
        }
    }
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
            share[l] += std::sqrt(D2dSquaredDistance::Of(&receiver[m * d], &transmitter[l * d], d));
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
    // L[r][c] = (a[r][c] - sum_{k<c} L[r][k] L[c][k]) / L[c][c], the sum taken in increasing
    // k, and L[c][c] = sqrt(a[c][c] - sum_{k<c} L[c][k]^2): column by column, every row of a
    // column in a lane of its own (a transposed copy keeps the lanes contiguous). Each
    // element sees the same operations in the same order as a row-by-row loop, so the same
    // bits, but the rows of a column do not wait for one another.
    l.assign(d * d, 0.0);
    std::vector<double> lt(d * d, 0.0); // lt[c d + r] = L[r][c]
    std::vector<double> w(d);
    for (std::size_t c = 0; c < d; ++c)
    {
        for (std::size_t r = c; r < d; ++r)
        {
            w[r] = a[r * d + c];
        }
        for (std::size_t k = 0; k < c; ++k)
        {
            const double lck = l[c * d + k];
            const double* col = &lt[k * d];
            for (std::size_t r = c; r < d; ++r)
            {
                w[r] -= col[r] * lck;
            }
        }
        if (!(w[c] > 0) || !std::isfinite(w[c]))
        {
            return false;
        }
        const double pivot = std::sqrt(w[c]);
        l[c * d + c] = pivot;
        lt[c * d + c] = pivot;
        for (std::size_t r = c + 1; r < d; ++r)
        {
            const double v = w[r] / pivot;
            l[r * d + c] = v;
            lt[c * d + r] = v;
        }
    }
    return true;
}

D2dGaussianFactor
D2dGaussianClusters::Factor(const std::vector<double>& cov, std::size_t d, double ridge)
{
    if (d == 0 || cov.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Factor: cov must be d x d");
    }
    D2dGaussianFactor f;
    auto a = cov;
    for (std::size_t e = 0; e < d; ++e)
    {
        a[e * d + e] += ridge;
    }
    f.ok = Cholesky(a, d, f.l);
    if (f.ok)
    {
        f.logDiag.resize(d);
        for (std::size_t e = 0; e < d; ++e)
        {
            f.logDiag[e] = std::log(f.l[e * d + e]);
        }
    }
    return f;
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
    return KlDivergence(m1, Factor(s1, d, ridge), m2, Factor(s2, d, ridge));
}

double
D2dGaussianClusters::KlDivergence(const std::vector<double>& m1,
                                  const D2dGaussianFactor& f1,
                                  const std::vector<double>& m2,
                                  const D2dGaussianFactor& f2)
{
    const std::size_t d = m1.size();
    if (!f1.ok || !f2.ok)
    {
        return std::numeric_limits<double>::infinity();
    }
    if (d == 0 || m2.size() != d || f1.l.size() != d * d || f2.l.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::KlDivergence: sizes disagree");
    }
    const auto& l1 = f1.l;
    const auto& l2 = f2.l;
    // tr(S2^-1 S1) = ||L2^-1 L1||_F^2: Y = L2^-1 L1 by forward substitution, each column of
    // L1 solved in a lane of its own, row by row: Y[r][c] = (L1[r][c] - sum_{k<r} L2[r][k]
    // Y[k][c]) / L2[r][r], the sum in increasing k. Y is lower triangular like L1 (Y[k][c] =
    // 0 for k < c, whose terms would subtract zero and change no bit), so lane c starts at
    // k = c. The squares are then added column by column, row by row: the order of a solve of
    // one column at a time, and so its bits.
    std::vector<double> y(d * d);
    for (std::size_t r = 0; r < d; ++r)
    {
        double* yr = &y[r * d];
        for (std::size_t c = 0; c <= r; ++c)
        {
            yr[c] = l1[r * d + c];
        }
        for (std::size_t k = 0; k < r; ++k)
        {
            const double a = l2[r * d + k];
            const double* yk = &y[k * d];
            for (std::size_t c = 0; c <= k; ++c)
            {
                yr[c] -= a * yk[c];
            }
        }
        const double pivot = l2[r * d + r];
        for (std::size_t c = 0; c <= r; ++c)
        {
            yr[c] /= pivot;
        }
    }
    double trace = 0;
    for (std::size_t c = 0; c < d; ++c)
    {
        for (std::size_t r = c; r < d; ++r)
        {
            trace += y[r * d + c] * y[r * d + c];
        }
    }
    double maha = 0;
    for (std::size_t r = 0; r < d; ++r)
    {
        double s = m2[r] - m1[r];
        for (std::size_t k = 0; k < r; ++k)
        {
            s -= l2[r * d + k] * y[k];
        }
        y[r] = s / l2[r * d + r];
        maha += y[r] * y[r];
    }
    double logDet = 0; // ln det S2 - ln det S1
    for (std::size_t e = 0; e < d; ++e)
    {
        logDet += 2.0 * (f2.logDiag[e] - f1.logDiag[e]);
    }
    return 0.5 * (trace + maha - static_cast<double>(d) + logDet);
}

std::vector<double>
D2dGaussianClusters::SampleFactor(const D2dGaussianCluster& cluster)
{
    const std::size_t d = cluster.mean.size();
    if (d == 0 || cluster.cov.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Sample: a mean of d values and a "
                                    "d x d covariance");
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
    return l;
}

std::vector<double>
D2dGaussianClusters::Sample(const D2dGaussianCluster& cluster,
                            uint64_t count,
                            D2dDataRng& rng,
                            NormalDraws draws)
{
    const std::size_t d = cluster.mean.size();
    if (d == 0 || cluster.cov.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Sample: a mean of d values and a "
                                    "d x d covariance");
    }
    if (count == 0)
    {
        return {};
    }
    return Sample(cluster.mean, SampleFactor(cluster), count, rng, draws);
}

std::vector<double>
D2dGaussianClusters::Sample(const std::vector<double>& mean,
                            const std::vector<double>& factor,
                            uint64_t count,
                            D2dDataRng& rng,
                            NormalDraws draws)
{
    std::vector<double> out(count * mean.size());
    SampleTo(mean, factor, count, rng, draws, out.data());
    return out;
}

void
D2dGaussianClusters::SampleTo(const std::vector<double>& mean,
                              const std::vector<double>& factor,
                              uint64_t count,
                              D2dDataRng& rng,
                              NormalDraws draws,
                              double* out)
{
    const std::size_t d = mean.size();
    if (d == 0 || factor.size() != d * d)
    {
        throw std::invalid_argument("D2dGaussianClusters::Sample: a mean of d values and a "
                                    "d x d factor");
    }
    if (count == 0)
    {
        return;
    }
    if (count > static_cast<uint64_t>(std::numeric_limits<int>::max()) ||
        d > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    {
        throw std::invalid_argument("D2dGaussianClusters::Sample: at most 2^31 - 1 points "
                                    "and dimensions (BLAS)");
    }
    // z for every point, point after point (the stream's order), in place.
    if (draws == ZIGGURAT)
    {
        rng.NormalZiggurat(out, count * d);
    }
    else
    {
        for (std::size_t k = 0; k < count * d; ++k)
        {
            out[k] = rng.Normal();
        }
    }
    // x_p = mean + L z_p for all points at once (BLAS 3): the row-major count x d points are
    // BLAS's column-major d x count matrix Z whose columns are the points, and the row-major
    // lower L is the column-major upper L^T, so Z := (L^T)^T Z.
    const int n = static_cast<int>(d);
    const int m = static_cast<int>(count);
    const double one = 1.0;
    dtrmm_("L", "U", "T", "N", &n, &m, &one, factor.data(), &n, out, &n, 1, 1, 1, 1);
    for (uint64_t p = 0; p < count; ++p)
    {
        double* x = out + p * d;
        for (std::size_t e = 0; e < d; ++e)
        {
            x[e] += mean[e];
        }
    }
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
    // The textbook sum: every divergence afresh through Cholesky factors (KlDivergence), in
    // the order i, j, l, l'. D2dAgreementCache computes the same sum as blocks of dense
    // linear algebra; its tests compare the two.
    Agreement a;
    for (std::size_t i = 0; i < before.size(); ++i)
    {
        for (std::size_t j = 0; j < before.size(); ++j)
        {
            if (i == j)
            {
                continue;
            }
            const auto& bi = before[i];
            const auto& bj = before[j];
            const auto& ai = after[i];
            const auto& aj = after[j];
            if (ai.size() != bi.size() || aj.size() != bj.size())
            {
                throw std::invalid_argument("D2dGaussianClusters::SystemAgreement: clusters "
                                            "before and after differ in number");
            }
            for (std::size_t l = 0; l < bi.size(); ++l)
            {
                for (std::size_t m = 0; m < bj.size(); ++m)
                {
                    if (bi[l].count < 2 || bj[m].count < 2 || ai[l].count < 2 || aj[m].count < 2)
                    {
                        continue;
                    }
                    const double hb =
                        KlDivergence(bi[l].mean, bi[l].cov, bj[m].mean, bj[m].cov, ridge);
                    const auto& mi = mix == POST_EXCHANGE ? ai[l].mean : bi[l].mean;
                    const auto& mj = mix == POST_EXCHANGE ? aj[m].mean : bj[m].mean;
                    const double ha = KlDivergence(mi, ai[l].cov, mj, aj[m].cov, ridge);
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
