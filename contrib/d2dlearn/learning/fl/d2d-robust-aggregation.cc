/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-robust-aggregation.h"

#include "ns3/abort.h"
#include "ns3/d2d-share.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRobustAggregation");

namespace
{

/** Aborts unless g is a non-empty list of non-null vectors of one size; returns the size. */
std::size_t
CheckVectors(const D2dRobustAggregation::Vectors& g, const char* who)
{
    NS_ABORT_MSG_IF(g.empty(), "D2dRobustAggregation::" << who << ": no gradients");
    for (const auto& v : g)
    {
        NS_ABORT_MSG_IF(!v, "D2dRobustAggregation::" << who << ": null gradient");
        NS_ABORT_MSG_IF(v->size() != g[0]->size(),
                        "D2dRobustAggregation::" << who << ": gradient sizes " << g[0]->size()
                                                 << " and " << v->size() << " differ");
    }
    return g[0]->size();
}

} // namespace

std::vector<float>
D2dRobustAggregation::Mean(const Vectors& g, const std::vector<double>& weights)
{
    CheckVectors(g, "Mean");
    NS_ABORT_MSG_IF(g.size() != weights.size(),
                    "D2dRobustAggregation::Mean: " << g.size() << " gradients, " << weights.size()
                                                   << " weights");
    return Mean(weights, [&g](std::size_t k) { return g[k]; });
}

std::vector<float>
D2dRobustAggregation::Mean(const std::vector<double>& weights, const Fetch& fetch)
{
    // Eq. (aggregation): g = sum_k (n_k / n) g_k, in double.
    NS_ABORT_MSG_IF(weights.empty(), "D2dRobustAggregation::Mean: no vectors");
    double total = 0;
    for (auto w : weights)
    {
        total += w;
    }
    std::vector<double> acc;
    for (std::size_t k = 0; k < weights.size(); ++k)
    {
        const auto vk = fetch(k);
        NS_ABORT_MSG_IF(!vk, "D2dRobustAggregation::Mean: vector " << k << " is missing");
        if (k == 0)
        {
            acc.assign(vk->size(), 0.0);
        }
        NS_ABORT_MSG_IF(vk->size() != acc.size(),
                        "D2dRobustAggregation::Mean: vector sizes " << acc.size() << " and "
                                                                    << vk->size() << " differ");
        const double w = weights[k] / total;
        const float* v = vk->data();
        for (std::size_t j = 0; j < acc.size(); ++j)
        {
            acc[j] += w * v[j];
        }
    }
    return std::vector<float>(acc.begin(), acc.end());
}

std::vector<float>
D2dRobustAggregation::Median(const Vectors& g)
{
    const std::size_t size = CheckVectors(g, "Median");
    const std::size_t n = g.size();
    std::vector<float> out(size);
    std::vector<float> column(n);
    for (std::size_t j = 0; j < size; ++j)
    {
        for (std::size_t k = 0; k < n; ++k)
        {
            column[k] = (*g[k])[j];
        }
        // Coordinate-wise median (Yin et al. 2018).
        auto mid = column.begin() + n / 2;
        std::nth_element(column.begin(), mid, column.end());
        if (n % 2 == 1)
        {
            out[j] = *mid;
        }
        else
        {
            const double upper = *mid;
            const double lower = *std::max_element(column.begin(), mid);
            out[j] = static_cast<float>((lower + upper) / 2.0);
        }
    }
    return out;
}

std::vector<float>
D2dRobustAggregation::TrimmedMean(const Vectors& g, double beta)
{
    const std::size_t size = CheckVectors(g, "TrimmedMean");
    NS_ABORT_MSG_IF(!(beta >= 0 && beta < 0.5),
                    "D2dRobustAggregation::TrimmedMean: beta " << beta << " not in [0, 0.5)");
    const std::size_t n = g.size();
    // b = floor(beta n) < n / 2: at least one value remains.
    const std::size_t b = D2dShare::Count(static_cast<uint32_t>(n), beta, D2dShare::Rounding::DOWN);
    std::vector<float> out(size);
    std::vector<float> column(n);
    for (std::size_t j = 0; j < size; ++j)
    {
        for (std::size_t k = 0; k < n; ++k)
        {
            column[k] = (*g[k])[j];
        }
        std::sort(column.begin(), column.end());
        double sum = 0;
        for (std::size_t k = b; k < n - b; ++k)
        {
            sum += column[k];
        }
        out[j] = static_cast<float>(sum / static_cast<double>(n - 2 * b));
    }
    return out;
}

std::vector<double>
D2dRobustAggregation::KrumScores(const Vectors& g, uint32_t f)
{
    const std::size_t size = CheckVectors(g, "KrumScores");
    const std::size_t n = g.size();
    // Pairwise squared distances ||g_i - g_j||^2.
    std::vector<std::vector<double>> d2(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t k = i + 1; k < n; ++k)
        {
            double s = 0;
            for (std::size_t j = 0; j < size; ++j)
            {
                const double d = static_cast<double>((*g[i])[j]) - static_cast<double>((*g[k])[j]);
                s += d * d;
            }
            d2[i][k] = s;
            d2[k][i] = s;
        }
    }
    // Krum: s_i = sum over the n - f - 2 nearest others (at least 1, at most n - 1).
    const int64_t wanted = static_cast<int64_t>(n) - static_cast<int64_t>(f) - 2;
    const auto neighbours = static_cast<std::size_t>(
        std::min<int64_t>(std::max<int64_t>(wanted, 1), static_cast<int64_t>(n) - 1));
    std::vector<double> scores(n, 0.0);
    std::vector<double> others;
    for (std::size_t i = 0; i < n; ++i)
    {
        others.clear();
        for (std::size_t k = 0; k < n; ++k)
        {
            if (k != i)
            {
                others.push_back(d2[i][k]);
            }
        }
        std::sort(others.begin(), others.end());
        double s = 0;
        for (std::size_t k = 0; k < neighbours; ++k)
        {
            s += others[k];
        }
        scores[i] = s;
    }
    return scores;
}

std::vector<uint32_t>
D2dRobustAggregation::MultiKrumSelect(const Vectors& g, uint32_t f, uint32_t m)
{
    const auto scores = KrumScores(g, f);
    NS_ABORT_MSG_IF(m == 0 || m > scores.size(),
                    "D2dRobustAggregation::MultiKrumSelect: m = " << m << " of " << scores.size());
    std::vector<uint32_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return scores[a] < scores[b];
    });
    order.resize(m);
    return order;
}

std::vector<float>
D2dRobustAggregation::Krum(const Vectors& g, uint32_t f)
{
    return *g[MultiKrumSelect(g, f, 1)[0]];
}

std::vector<float>
D2dRobustAggregation::MultiKrum(const Vectors& g, uint32_t f, uint32_t m)
{
    Vectors chosen;
    for (auto i : MultiKrumSelect(g, f, m))
    {
        chosen.push_back(g[i]);
    }
    return Mean(chosen, std::vector<double>(chosen.size(), 1.0));
}

std::vector<float>
D2dRobustAggregation::MultiKrum(const Vectors& g,
                                const std::vector<double>& weights,
                                uint32_t f,
                                uint32_t m)
{
    NS_ABORT_MSG_IF(weights.size() != g.size(),
                    "D2dRobustAggregation::MultiKrum: " << weights.size() << " weights for "
                                                        << g.size() << " gradients");
    Vectors chosen;
    std::vector<double> w;
    for (auto i : MultiKrumSelect(g, f, m))
    {
        chosen.push_back(g[i]);
        w.push_back(weights[i]);
    }
    return Mean(chosen, w);
}

uint32_t
D2dRobustAggregation::ByzantineCount(int64_t count, double fraction, uint32_t participants)
{
    NS_ABORT_MSG_IF(count < -1, "D2dRobustAggregation::ByzantineCount: count " << count);
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "D2dRobustAggregation::ByzantineCount: " << fraction << " not in [0, 1]");
    if (count >= 0)
    {
        return static_cast<uint32_t>(count);
    }
    // The rule of the cmfl scenario's krumF = -1 (its malicious clients), for identical results.
    return D2dShare::Count(participants, fraction, D2dShare::Rounding::NEAREST);
}

uint32_t
D2dRobustAggregation::SelectCount(double fraction, uint32_t participants, uint32_t n)
{
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "D2dRobustAggregation::SelectCount: " << fraction << " not in [0, 1]");
    NS_ABORT_MSG_IF(n == 0, "D2dRobustAggregation::SelectCount: no gradients");
    const uint32_t m =
        std::max<uint32_t>(1, D2dShare::Count(participants, fraction, D2dShare::Rounding::NEAREST));
    return std::min<uint32_t>(m, n);
}

} // namespace ns3
