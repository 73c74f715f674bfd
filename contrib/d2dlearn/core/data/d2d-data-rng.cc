/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-data-rng.h"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

D2dDataRng::D2dDataRng(uint64_t seed, uint32_t purpose, uint32_t sub)
{
    std::seed_seq seq{static_cast<uint32_t>(seed & 0xffffffffULL),
                      static_cast<uint32_t>(seed >> 32),
                      purpose,
                      sub};
    m_engine.seed(seq);
}

uint64_t
D2dDataRng::Bits()
{
    return m_engine();
}

double
D2dDataRng::Uniform()
{
    return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
}

double
D2dDataRng::UniformOpen()
{
    // (k + 0.5) / 2^53 for k in [0, 2^53): never 0 nor 1.
    return (static_cast<double>(m_engine() >> 11) + 0.5) * 0x1.0p-53;
}

uint64_t
D2dDataRng::Below(uint64_t n)
{
    // Rejection of the top partial block: unbiased.
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    uint64_t x;
    do
    {
        x = m_engine();
    } while (x > limit);
    return x % n;
}

double
D2dDataRng::Normal()
{
    if (m_haveSpare)
    {
        m_haveSpare = false;
        return m_spare;
    }
    const double u1 = UniformOpen();
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * M_PI * u2;
    m_spare = r * std::sin(a);
    m_haveSpare = true;
    return r * std::cos(a);
}

void
D2dDataRng::NormalZiggurat(double* out, std::size_t n)
{
    // Boost.Random's algorithm and tables are constants of its source; only the rare wedge and
    // tail draws (about 1 %) call exp and log, which Normal calls every time. It reads only
    // m_engine's 64-bit draws.
    boost::random::normal_distribution<double> unit(0.0, 1.0);
    for (std::size_t k = 0; k < n; ++k)
    {
        out[k] = unit(m_engine);
    }
}

double
D2dDataRng::Gamma(double shape)
{
    // Marsaglia & Tsang (2000); for shape < 1, Gamma(shape) = Gamma(shape + 1) U^(1/shape).
    if (shape < 1.0)
    {
        const double g = Gamma(shape + 1.0);
        return g * std::pow(UniformOpen(), 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    while (true)
    {
        double x;
        double v;
        do
        {
            x = Normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = UniformOpen();
        if (u < 1.0 - 0.0331 * x * x * x * x)
        {
            return d * v;
        }
        if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
        {
            return d * v;
        }
    }
}

std::vector<double>
D2dDataRng::Dirichlet(double alpha, std::size_t k)
{
    std::vector<double> p(k);
    double sum = 0;
    for (auto& x : p)
    {
        x = Gamma(alpha);
        sum += x;
    }
    if (sum <= 0 || !std::isfinite(sum))
    {
        // All gammas underflowed (alpha tiny): the limit is a single random vertex.
        std::fill(p.begin(), p.end(), 0.0);
        p[Below(k)] = 1.0;
        return p;
    }
    for (auto& x : p)
    {
        x /= sum;
    }
    return p;
}

std::vector<std::size_t>
D2dApportion(const std::vector<double>& weights, std::size_t total)
{
    std::vector<std::size_t> counts(weights.size(), 0);
    const double wsum = std::accumulate(weights.begin(), weights.end(), 0.0);
    if (weights.empty() || total == 0 || wsum <= 0)
    {
        return counts;
    }
    std::vector<double> rem(weights.size());
    std::size_t assigned = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
    {
        const double exact = static_cast<double>(total) * weights[i] / wsum;
        counts[i] = static_cast<std::size_t>(std::floor(exact));
        rem[i] = exact - std::floor(exact);
        assigned += counts[i];
    }
    // Floating error could leave assigned > total in theory; clamp.
    while (assigned > total)
    {
        auto it = std::max_element(counts.begin(), counts.end());
        --*it;
        --assigned;
    }
    std::vector<std::size_t> order(weights.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&rem](std::size_t a, std::size_t b) {
        return rem[a] > rem[b];
    });
    for (std::size_t r = 0; assigned < total; r = (r + 1) % order.size())
    {
        if (weights[order[r]] > 0)
        {
            ++counts[order[r]];
            ++assigned;
        }
    }
    return counts;
}

std::vector<std::size_t>
D2dStratifiedKeep(std::size_t n,
                  uint32_t numClasses,
                  const std::function<uint32_t(std::size_t)>& label,
                  double fraction,
                  uint64_t seed,
                  uint32_t purpose)
{
    const auto keep = static_cast<std::size_t>(std::llround(fraction * double(n)));
    if (keep == 0)
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " keeps no sample of " + std::to_string(n) +
                                    "; accepted range [1/" + std::to_string(2 * n) + ", 1]");
    }
    std::vector<std::vector<std::size_t>> byClass(numClasses);
    for (std::size_t i = 0; i < n; ++i)
    {
        const uint32_t c = label(i);
        if (c >= numClasses)
        {
            throw std::out_of_range("label " + std::to_string(c) + " of sample " +
                                    std::to_string(i) + " outside 0.." +
                                    std::to_string(numClasses) + " - 1");
        }
        byClass[c].push_back(i);
    }
    std::vector<double> w;
    for (const auto& c : byClass)
    {
        w.push_back(double(c.size()));
    }
    const auto counts = D2dApportion(w, keep);
    D2dDataRng rng(seed, purpose);
    std::vector<std::size_t> kept;
    for (std::size_t c = 0; c < byClass.size(); ++c)
    {
        rng.Shuffle(byClass[c]);
        kept.insert(kept.end(), byClass[c].begin(), byClass[c].begin() + counts[c]);
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

} // namespace ns3
