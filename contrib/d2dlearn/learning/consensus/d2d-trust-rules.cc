/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trust-rules.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{
/** The floor of H in the "entropy" mode (a one-hot prediction would give 1/0), nats. */
constexpr double kEntropyFloor = 1e-6;
} // namespace

D2dConfidence
D2dTrustRules::ParseConfidence(const std::string& text)
{
    if (text == "none")
    {
        return D2dConfidence::NONE;
    }
    if (text == "entropy")
    {
        return D2dConfidence::ENTROPY;
    }
    if (text == "entropy-plus-one")
    {
        return D2dConfidence::ENTROPY_PLUS_ONE;
    }
    throw std::invalid_argument("confidence: '" + text +
                                "' is not accepted (entropy-plus-one, entropy, none)");
}

std::string
D2dTrustRules::ToString(D2dConfidence mode)
{
    switch (mode)
    {
    case D2dConfidence::NONE:
        return "none";
    case D2dConfidence::ENTROPY:
        return "entropy";
    default:
        return "entropy-plus-one";
    }
}

double
D2dTrustRules::Entropy(const float* p, uint32_t nClasses)
{
    double h = 0;
    for (uint32_t c = 0; c < nClasses; ++c)
    {
        const double v = p[c];
        if (v > 0)
        {
            h -= v * std::log(v);
        }
    }
    return h;
}

double
D2dTrustRules::Confidence(const float* p, uint32_t nClasses, D2dConfidence mode)
{
    switch (mode)
    {
    case D2dConfidence::NONE:
        return 1.0;
    case D2dConfidence::ENTROPY:
        return 1.0 / std::max(Entropy(p, nClasses), kEntropyFloor);
    default:
        return 1.0 / (Entropy(p, nClasses) + 1.0);
    }
}

std::vector<double>
D2dTrustRules::TrustRow(uint32_t i,
                        const std::vector<const std::vector<float>*>& predictions,
                        uint32_t nPoints,
                        uint32_t nClasses,
                        D2dConfidence mode)
{
    const std::size_t n = predictions.size();
    NS_ABORT_MSG_IF(i >= n || !predictions[i],
                    "D2dTrustRules::TrustRow: agent " << i << " needs its own predictions");
    const std::size_t block = static_cast<std::size_t>(nPoints) * nClasses;
    for (const auto* p : predictions)
    {
        NS_ABORT_MSG_IF(p && p->size() != block,
                        "D2dTrustRules::TrustRow: " << p->size() << " values, expected " << block);
    }
    std::vector<double> gamma(n, 0.0);
    const float* own = predictions[i]->data();
    for (uint32_t x = 0; x < nPoints; ++x)
    {
        const float* fi = own + static_cast<std::size_t>(x) * nClasses;
        const double beta = Confidence(fi, nClasses, mode);
        double normI = 0;
        for (uint32_t c = 0; c < nClasses; ++c)
        {
            normI += static_cast<double>(fi[c]) * fi[c];
        }
        normI = std::sqrt(normI);
        for (std::size_t j = 0; j < n; ++j)
        {
            if (!predictions[j])
            {
                continue;
            }
            const float* fj = predictions[j]->data() + static_cast<std::size_t>(x) * nClasses;
            double dot = 0;
            double normJ = 0;
            for (uint32_t c = 0; c < nClasses; ++c)
            {
                dot += static_cast<double>(fi[c]) * fj[c];
                normJ += static_cast<double>(fj[c]) * fj[c];
            }
            normJ = std::sqrt(normJ);
            if (normI > 0 && normJ > 0)
            {
                gamma[j] += beta * dot / (normI * normJ);
            }
        }
    }
    double total = 0;
    for (auto& g : gamma)
    {
        g /= static_cast<double>(std::max<uint32_t>(nPoints, 1));
        total += g;
    }
    if (!(total > 0))
    {
        std::vector<bool> present(n);
        for (std::size_t j = 0; j < n; ++j)
        {
            present[j] = predictions[j] != nullptr;
        }
        return NaiveRow(present);
    }
    for (auto& g : gamma)
    {
        g /= total;
    }
    return gamma;
}

std::vector<double>
D2dTrustRules::RegressionTrustRow(uint32_t i,
                                  const std::vector<const std::vector<float>*>& predictions,
                                  uint32_t nPoints)
{
    const std::size_t n = predictions.size();
    NS_ABORT_MSG_IF(i >= n || !predictions[i],
                    "D2dTrustRules::RegressionTrustRow: agent " << i
                                                                << " needs its own predictions");
    for (const auto* p : predictions)
    {
        NS_ABORT_MSG_IF(p && p->size() != nPoints,
                        "D2dTrustRules::RegressionTrustRow: " << p->size() << " values, expected "
                                                              << nPoints);
    }
    const auto norm = [nPoints](const float* y) {
        double s = 0;
        for (uint32_t x = 0; x < nPoints; ++x)
        {
            s += static_cast<double>(y[x]) * y[x];
        }
        return std::sqrt(s);
    };
    const float* own = predictions[i]->data();
    const double normI = norm(own);
    std::vector<double> gamma(n, 0.0);
    double total = 0;
    for (std::size_t j = 0; j < n; ++j)
    {
        if (!predictions[j] || !(normI > 0))
        {
            continue;
        }
        const float* yj = predictions[j]->data();
        const double normJ = norm(yj);
        if (!(normJ > 0))
        {
            continue;
        }
        double dot = 0;
        for (uint32_t x = 0; x < nPoints; ++x)
        {
            dot += static_cast<double>(own[x]) * yj[x];
        }
        gamma[j] = std::max(0.0, dot / (normI * normJ));
        total += gamma[j];
    }
    if (!(total > 0))
    {
        std::vector<bool> present(n);
        for (std::size_t j = 0; j < n; ++j)
        {
            present[j] = predictions[j] != nullptr;
        }
        return NaiveRow(present);
    }
    for (auto& g : gamma)
    {
        g /= total;
    }
    return gamma;
}

std::vector<double>
D2dTrustRules::NaiveRow(const std::vector<bool>& present)
{
    const auto k = std::count(present.begin(), present.end(), true);
    std::vector<double> row(present.size(), 0.0);
    for (std::size_t j = 0; j < present.size(); ++j)
    {
        if (present[j])
        {
            row[j] = 1.0 / static_cast<double>(k);
        }
    }
    return row;
}

std::vector<double>
D2dTrustRules::Restrict(const std::vector<double>& row, const std::vector<bool>& present)
{
    NS_ABORT_MSG_IF(row.size() != present.size(), "D2dTrustRules::Restrict: sizes differ");
    bool lost = false; // a peer with weight is absent
    for (std::size_t j = 0; j < row.size(); ++j)
    {
        lost = lost || (!present[j] && row[j] > 0);
    }
    if (!lost)
    {
        return row; // nothing to renormalise: the kept row, bit for bit
    }
    std::vector<double> out(row.size(), 0.0);
    double total = 0;
    for (std::size_t j = 0; j < row.size(); ++j)
    {
        if (present[j])
        {
            out[j] = row[j];
            total += row[j];
        }
    }
    if (!(total > 0))
    {
        return NaiveRow(present);
    }
    for (auto& v : out)
    {
        v /= total;
    }
    return out;
}

std::vector<std::vector<double>>
D2dTrustRules::TrustMatrix(const std::vector<const std::vector<float>*>& predictions,
                           const std::vector<std::vector<bool>>& mask,
                           uint32_t nPoints,
                           uint32_t nClasses,
                           D2dConfidence mode)
{
    const std::size_t n = predictions.size();
    NS_ABORT_MSG_IF(mask.size() != n, "D2dTrustRules::TrustMatrix: mask of the wrong size");
    std::vector<std::vector<double>> w;
    w.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(mask[i].size() != n || !mask[i][i],
                        "D2dTrustRules::TrustMatrix: mask row " << i << " malformed");
        std::vector<const std::vector<float>*> seen(n, nullptr);
        for (std::size_t j = 0; j < n; ++j)
        {
            seen[j] = mask[i][j] ? predictions[j] : nullptr;
        }
        w.push_back(TrustRow(static_cast<uint32_t>(i), seen, nPoints, nClasses, mode));
    }
    return w;
}

std::vector<float>
D2dTrustRules::PseudoLabels(const std::vector<double>& row,
                            const std::vector<const std::vector<float>*>& predictions,
                            uint32_t nPoints,
                            uint32_t nClasses,
                            bool renormalise)
{
    NS_ABORT_MSG_IF(row.size() != predictions.size(), "D2dTrustRules::PseudoLabels: sizes differ");
    const std::size_t block = static_cast<std::size_t>(nPoints) * nClasses;
    std::vector<double> acc(block, 0.0);
    for (std::size_t j = 0; j < row.size(); ++j)
    {
        if (row[j] <= 0)
        {
            continue;
        }
        NS_ABORT_MSG_IF(!predictions[j] || predictions[j]->size() != block,
                        "D2dTrustRules::PseudoLabels: agent " << j << "'s predictions missing");
        const float* y = predictions[j]->data();
        for (std::size_t k = 0; k < block; ++k)
        {
            acc[k] += row[j] * y[k];
        }
    }
    std::vector<float> psi(block);
    for (uint32_t x = 0; x < nPoints; ++x)
    {
        const std::size_t base = static_cast<std::size_t>(x) * nClasses;
        double total = 0;
        for (uint32_t c = 0; c < nClasses; ++c)
        {
            total += acc[base + c];
        }
        const double scale = renormalise && total > 0 ? 1.0 / total : 1.0;
        for (uint32_t c = 0; c < nClasses; ++c)
        {
            psi[base + c] = static_cast<float>(acc[base + c] * scale);
        }
    }
    return psi;
}

std::vector<double>
D2dTrustRules::ColumnSums(const std::vector<std::vector<double>>& w, bool includeDiagonal)
{
    const std::size_t n = w.empty() ? 0 : w[0].size();
    std::vector<double> sums(n, 0.0);
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            if (includeDiagonal || i != j)
            {
                sums[j] += w[i][j];
            }
        }
    }
    return sums;
}

double
D2dTrustRules::Trace(const std::vector<std::vector<double>>& w)
{
    double t = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        t += w[i][i];
    }
    return t;
}

double
D2dTrustRules::RowDifference(const std::vector<std::vector<double>>& w)
{
    double delta = 0;
    const std::size_t n = w.empty() ? 0 : w[0].size();
    for (std::size_t j = 0; j < n; ++j)
    {
        double lo = w[0][j];
        double hi = w[0][j];
        for (const auto& row : w)
        {
            lo = std::min(lo, row[j]);
            hi = std::max(hi, row[j]);
        }
        delta = std::max(delta, hi - lo);
    }
    return delta;
}

double
D2dTrustRules::Scrambling(const std::vector<std::vector<double>>& w)
{
    double least = 1.0;
    for (std::size_t a = 0; a < w.size(); ++a)
    {
        for (std::size_t b = a + 1; b < w.size(); ++b)
        {
            double overlap = 0;
            for (std::size_t j = 0; j < w[a].size(); ++j)
            {
                overlap += std::min(w[a][j], w[b][j]);
            }
            least = std::min(least, overlap);
        }
    }
    return 1.0 - (w.size() < 2 ? 1.0 : least);
}

std::vector<std::vector<double>>
D2dTrustRules::Multiply(const std::vector<std::vector<double>>& a,
                        const std::vector<std::vector<double>>& b)
{
    const std::size_t n = a.size();
    const std::size_t m = b.empty() ? 0 : b[0].size();
    std::vector<std::vector<double>> c(n, std::vector<double>(m, 0.0));
    for (std::size_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(a[i].size() != b.size(), "D2dTrustRules::Multiply: shapes differ");
        for (std::size_t k = 0; k < b.size(); ++k)
        {
            for (std::size_t j = 0; j < m; ++j)
            {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    return c;
}

std::vector<double>
D2dTrustRules::ConsensusDistribution(const std::vector<std::vector<double>>& w)
{
    const std::size_t n = w.size();
    std::vector<double> pi(n, n > 0 ? 1.0 / static_cast<double>(n) : 0.0);
    for (int step = 0; step < 100000 && n > 0; ++step)
    {
        std::vector<double> next(n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
        {
            for (std::size_t j = 0; j < n; ++j)
            {
                next[j] += pi[i] * w[i][j];
            }
        }
        double total = 0;
        for (double v : next)
        {
            total += v;
        }
        double change = 0;
        for (std::size_t j = 0; j < n; ++j)
        {
            next[j] /= total;
            change += std::abs(next[j] - pi[j]);
        }
        pi.swap(next);
        if (change < 1e-14)
        {
            break;
        }
    }
    return pi;
}

double
D2dTrustRules::Disagreement(const std::vector<const std::vector<float>*>& predictions,
                            uint32_t nPoints,
                            uint32_t nClasses)
{
    const std::size_t block = static_cast<std::size_t>(nPoints) * nClasses;
    std::vector<double> mean(block, 0.0);
    std::size_t agents = 0;
    for (const auto* p : predictions)
    {
        if (!p)
        {
            continue;
        }
        NS_ABORT_MSG_IF(p->size() != block, "D2dTrustRules::Disagreement: sizes differ");
        ++agents;
        for (std::size_t k = 0; k < block; ++k)
        {
            mean[k] += (*p)[k];
        }
    }
    if (agents == 0 || nPoints == 0)
    {
        return 0.0;
    }
    for (auto& v : mean)
    {
        v /= static_cast<double>(agents);
    }
    double total = 0;
    for (const auto* p : predictions)
    {
        if (!p)
        {
            continue;
        }
        for (std::size_t k = 0; k < block; ++k)
        {
            const double d = (*p)[k] - mean[k];
            total += d * d;
        }
    }
    return total / (static_cast<double>(agents) * nPoints);
}

} // namespace ns3
