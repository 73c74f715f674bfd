/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-label-propagation.h"

#include "d2d-squared-distance.h"

#include "ns3/d2d-data-rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
/** Purpose constant of the labelled-point draw (D2dDataRng). */
constexpr uint32_t LABELLED_DRAW = 0x47440001;
} // namespace

std::vector<std::vector<uint32_t>>
D2dLabelPropagation::KnnGraph(const std::vector<double>& x,
                              std::size_t n,
                              std::size_t dims,
                              uint32_t k)
{
    if (n == 0 || dims == 0 || x.size() != n * dims)
    {
        throw std::invalid_argument("D2dLabelPropagation: x must hold n x dims values");
    }
    if (k == 0)
    {
        throw std::invalid_argument("D2dLabelPropagation: k must be at least 1");
    }
    const std::size_t kk = std::min<std::size_t>(k, n - 1);
    std::vector<std::vector<uint32_t>> adj(n);
    std::vector<std::pair<double, uint32_t>> dist;
    dist.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        dist.clear();
        for (std::size_t j = 0; j < n; ++j)
        {
            if (j != i)
            {
                dist.emplace_back(D2dSquaredDistance::Of(&x[i * dims], &x[j * dims], dims),
                                  static_cast<uint32_t>(j));
            }
        }
        // Pairs compare by distance, then index: ties go to the lower index.
        std::partial_sort(dist.begin(), dist.begin() + kk, dist.end());
        for (std::size_t m = 0; m < kk; ++m)
        {
            adj[i].push_back(dist[m].second);
            adj[dist[m].second].push_back(static_cast<uint32_t>(i));
        }
    }
    for (auto& a : adj)
    {
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    return adj;
}

D2dLabelPropagation::Result
D2dLabelPropagation::Propagate(const std::vector<double>& x,
                               std::size_t n,
                               std::size_t dims,
                               const std::vector<int64_t>& given,
                               uint32_t nLabels,
                               uint32_t k,
                               uint32_t maxIterations,
                               double tolerance)
{
    if (nLabels == 0)
    {
        throw std::invalid_argument("D2dLabelPropagation: nLabels must be at least 1");
    }
    if (maxIterations == 0 || !(tolerance >= 0))
    {
        throw std::invalid_argument(
            "D2dLabelPropagation: maxIterations must be >= 1 and tolerance >= 0");
    }
    if (given.size() != n)
    {
        throw std::invalid_argument("D2dLabelPropagation: given must hold n labels");
    }
    std::size_t labelled = 0;
    for (int64_t l : given)
    {
        if (l < -1 || l >= static_cast<int64_t>(nLabels))
        {
            throw std::invalid_argument("D2dLabelPropagation: a given label is outside [-1, " +
                                        std::to_string(nLabels) + ")");
        }
        labelled += l >= 0;
    }
    if (labelled == 0)
    {
        throw std::invalid_argument("D2dLabelPropagation: no point is labelled");
    }
    const auto adj = KnnGraph(x, n, dims, k);

    Result res;
    std::vector<double> y(n * nLabels, 0.0);
    for (std::size_t i = 0; i < n; ++i)
    {
        if (given[i] >= 0)
        {
            y[i * nLabels + given[i]] = 1.0;
        }
    }
    std::vector<double> next(y.size());
    for (res.iterations = 0; res.iterations < maxIterations;)
    {
        ++res.iterations;
        double change = 0;
        for (std::size_t i = 0; i < n; ++i)
        {
            double* row = &next[i * nLabels];
            if (given[i] >= 0 || adj[i].empty())
            {
                std::copy(&y[i * nLabels], &y[i * nLabels] + nLabels, row);
                continue;
            }
            std::fill(row, row + nLabels, 0.0);
            for (uint32_t j : adj[i])
            {
                for (uint32_t l = 0; l < nLabels; ++l)
                {
                    row[l] += y[j * nLabels + l];
                }
            }
            const double inv = 1.0 / adj[i].size();
            for (uint32_t l = 0; l < nLabels; ++l)
            {
                row[l] *= inv;
                change = std::max(change, std::abs(row[l] - y[i * nLabels + l]));
            }
        }
        y.swap(next);
        if (change <= tolerance)
        {
            res.converged = true;
            break;
        }
    }

    res.labels.resize(n);
    std::vector<std::size_t> labelledPoints;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (given[i] >= 0)
        {
            labelledPoints.push_back(i);
        }
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (given[i] >= 0)
        {
            res.labels[i] = given[i];
            continue;
        }
        const double* row = &y[i * nLabels];
        const auto best = std::max_element(row, row + nLabels); // the first of equal ones
        if (*best > 0)
        {
            res.labels[i] = best - row;
            continue;
        }
        // Not reached: the nearest labelled point's label.
        double bestD = std::numeric_limits<double>::infinity();
        for (std::size_t j : labelledPoints)
        {
            const double dd = D2dSquaredDistance::Of(&x[i * dims], &x[j * dims], dims);
            if (dd < bestD)
            {
                bestD = dd;
                res.labels[i] = given[j];
            }
        }
    }
    res.scores = std::move(y);
    return res;
}

std::vector<bool>
D2dLabelPropagation::ChooseLabelled(const std::vector<int64_t>& labels,
                                    double fraction,
                                    uint64_t seed,
                                    uint32_t device)
{
    if (!(fraction > 0 && fraction <= 1))
    {
        throw std::invalid_argument(
            "D2dLabelPropagation: labelledFraction must be in (0, 1], got " +
            std::to_string(fraction));
    }
    const std::size_t n = labels.size();
    std::vector<bool> chosen(n, false);
    if (n == 0)
    {
        return chosen;
    }
    D2dDataRng rng(seed, LABELLED_DRAW, device);
    std::map<int64_t, std::vector<std::size_t>> byLabel;
    for (std::size_t i = 0; i < n; ++i)
    {
        byLabel[labels[i]].push_back(i);
    }
    std::size_t count = 0;
    for (const auto& [label, points] : byLabel)
    {
        chosen[points[rng.Below(points.size())]] = true;
        ++count;
    }
    const auto want = std::max<std::size_t>(
        count,
        std::min<std::size_t>(n, static_cast<std::size_t>(std::llround(fraction * n))));
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (!chosen[i])
        {
            rest.push_back(i);
        }
    }
    rng.Shuffle(rest);
    for (std::size_t m = 0; count < want; ++m, ++count)
    {
        chosen[rest[m]] = true;
    }
    return chosen;
}

} // namespace ns3
