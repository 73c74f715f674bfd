/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-belief-consensus-matrix.h"

#include "ns3/d2d-matrix-csv.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <fmt/format.h>
#include <fstream>
#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

D2dBeliefConsensusMatrix::D2dBeliefConsensusMatrix(std::vector<std::vector<double>> w)
    : m_w(std::move(w))
{
}

D2dBeliefConsensusMatrix
D2dBeliefConsensusMatrix::FromCsv(const std::string& path)
{
    // The same bounded, strict reader as the RSS matrix (D2dMatrixCsv); its errors are
    // std::runtime_error, this function's std::invalid_argument.
    try
    {
        return D2dBeliefConsensusMatrix(
            D2dMatrixCsv::Read(path, "--wFile=" + D2dMatrixCsv::Excerpt(path, 200), 100000));
    }
    catch (const std::runtime_error& e)
    {
        throw std::invalid_argument(e.what());
    }
}

D2dBeliefConsensusMatrix
D2dBeliefConsensusMatrix::FromGraph(const std::vector<std::vector<bool>>& adjacency,
                                    const std::string& weights)
{
    const std::size_t n = adjacency.size();
    std::vector<uint32_t> degree(n, 0);
    for (std::size_t i = 0; i < n; ++i)
    {
        if (adjacency[i].size() != n)
        {
            throw std::invalid_argument("adjacency matrix is not square");
        }
        for (std::size_t j = 0; j < n; ++j)
        {
            degree[i] += (i != j && adjacency[i][j]) ? 1 : 0;
        }
    }
    if (weights != "uniform" && weights != "metropolis")
    {
        throw std::invalid_argument("--weights=" + weights +
                                    " is not accepted (uniform or metropolis)");
    }
    std::vector<std::vector<double>> w(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
    {
        double offDiagonal = 0;
        for (std::size_t j = 0; j < n; ++j)
        {
            if (i == j || !adjacency[i][j])
            {
                continue;
            }
            w[i][j] = weights == "uniform" ? 1.0 / (degree[i] + 1.0)
                                           : 1.0 / (1.0 + std::max(degree[i], degree[j]));
            offDiagonal += w[i][j];
        }
        w[i][i] = 1.0 - offDiagonal;
    }
    return D2dBeliefConsensusMatrix(std::move(w));
}

void
D2dBeliefConsensusMatrix::Check() const
{
    const std::size_t n = m_w.size();
    if (n == 0)
    {
        throw std::invalid_argument("W is empty (accepted: an N x N stochastic matrix, N >= 1)");
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (m_w[i].size() != n)
        {
            throw std::invalid_argument(fmt::format("W is not square: row {} has {} values for "
                                                    "{} rows",
                                                    i,
                                                    m_w[i].size(),
                                                    n));
        }
        double sum = 0;
        for (std::size_t j = 0; j < n; ++j)
        {
            if (!(m_w[i][j] >= 0 && m_w[i][j] <= 1))
            {
                throw std::invalid_argument(fmt::format(
                    "W is not stochastic: W[{}][{}] = {} (accepted: entries in [0, 1], rows "
                    "summing to 1)",
                    i,
                    j,
                    m_w[i][j]));
            }
            sum += m_w[i][j];
        }
        if (std::abs(sum - 1.0) > 1e-9)
        {
            throw std::invalid_argument(fmt::format(
                "W is not stochastic: row {} sums to {} (accepted: rows summing to 1 within "
                "1e-9)",
                i,
                sum));
        }
    }
    if (!IsStronglyConnected())
    {
        const auto fwd = Reach(false);
        const auto bwd = Reach(true);
        uint32_t bad = 0;
        while (bad < n && fwd[bad] && bwd[bad])
        {
            ++bad;
        }
        throw std::invalid_argument(fmt::format(
            "W is not strongly connected: device {} and device 0 do not reach each other "
            "through W's edges (Assumption 2 of Lalitha et al. 2018 requires a strongly "
            "connected graph)",
            bad));
    }
    const uint32_t period = Period();
    if (period != 1)
    {
        throw std::invalid_argument(fmt::format(
            "W is periodic with period {} (Assumption 2 of Lalitha et al. 2018 requires an "
            "aperiodic graph: give some device a positive self-weight W_ii)",
            period));
    }
}

uint32_t
D2dBeliefConsensusMatrix::GetN() const
{
    return static_cast<uint32_t>(m_w.size());
}

double
D2dBeliefConsensusMatrix::Get(uint32_t i, uint32_t j) const
{
    return m_w.at(i).at(j);
}

const std::vector<std::vector<double>>&
D2dBeliefConsensusMatrix::GetRows() const
{
    return m_w;
}

std::vector<uint32_t>
D2dBeliefConsensusMatrix::InNeighbours(uint32_t i) const
{
    std::vector<uint32_t> out;
    for (uint32_t j = 0; j < m_w.size(); ++j)
    {
        if (j != i && m_w[i][j] > 0)
        {
            out.push_back(j);
        }
    }
    return out;
}

std::vector<uint32_t>
D2dBeliefConsensusMatrix::OutNeighbours(uint32_t j) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_w.size(); ++i)
    {
        if (i != j && m_w[i][j] > 0)
        {
            out.push_back(i);
        }
    }
    return out;
}

std::vector<bool>
D2dBeliefConsensusMatrix::Reach(bool transpose) const
{
    // Edge j -> i (j sends to i) when W_ij > 0.
    const std::size_t n = m_w.size();
    std::vector<bool> seen(n, false);
    std::deque<std::size_t> queue{0};
    seen[0] = true;
    while (!queue.empty())
    {
        const std::size_t u = queue.front();
        queue.pop_front();
        for (std::size_t v = 0; v < n; ++v)
        {
            const double w = transpose ? m_w[u][v] : m_w[v][u];
            if (!seen[v] && w > 0)
            {
                seen[v] = true;
                queue.push_back(v);
            }
        }
    }
    return seen;
}

bool
D2dBeliefConsensusMatrix::IsStronglyConnected() const
{
    if (m_w.empty())
    {
        return false;
    }
    const auto fwd = Reach(false);
    const auto bwd = Reach(true);
    return std::all_of(fwd.begin(), fwd.end(), [](bool b) { return b; }) &&
           std::all_of(bwd.begin(), bwd.end(), [](bool b) { return b; });
}

uint32_t
D2dBeliefConsensusMatrix::Period() const
{
    const std::size_t n = m_w.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        if (m_w[i][i] > 0)
        {
            return 1; // a self-loop in a strongly connected graph
        }
    }
    // BFS levels from 0; the period is the gcd of level[u] + 1 - level[v] over edges u -> v.
    std::vector<int64_t> level(n, -1);
    std::deque<std::size_t> queue{0};
    level[0] = 0;
    while (!queue.empty())
    {
        const std::size_t u = queue.front();
        queue.pop_front();
        for (std::size_t v = 0; v < n; ++v)
        {
            if (m_w[v][u] > 0 && level[v] < 0)
            {
                level[v] = level[u] + 1;
                queue.push_back(v);
            }
        }
    }
    int64_t g = 0;
    for (std::size_t u = 0; u < n; ++u)
    {
        for (std::size_t v = 0; v < n; ++v)
        {
            if (m_w[v][u] > 0 && level[u] >= 0 && level[v] >= 0)
            {
                g = std::gcd(g, std::abs(level[u] + 1 - level[v]));
            }
        }
    }
    return static_cast<uint32_t>(g == 0 ? 1 : g);
}

namespace
{
/**
 * Eigen-decomposition of a (copy of a) square matrix with GSL's non-symmetric solver.
 * \param a row-major matrix
 * \param values the eigenvalues (out)
 * \param vectors the eigenvectors as columns (out, may be null)
 */
void
Eigen(const std::vector<std::vector<double>>& a,
      gsl_vector_complex* values,
      gsl_matrix_complex* vectors)
{
    const std::size_t n = a.size();
    gsl_matrix* m = gsl_matrix_alloc(n, n);
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            gsl_matrix_set(m, i, j, a[i][j]);
        }
    }
    gsl_eigen_nonsymmv_workspace* ws = gsl_eigen_nonsymmv_alloc(n);
    gsl_matrix_complex* tmp = vectors ? vectors : gsl_matrix_complex_alloc(n, n);
    const int status = gsl_eigen_nonsymmv(m, values, tmp, ws);
    if (!vectors)
    {
        gsl_matrix_complex_free(tmp);
    }
    gsl_eigen_nonsymmv_free(ws);
    gsl_matrix_free(m);
    if (status != 0)
    {
        throw std::runtime_error("GSL eigen-solver failed on W");
    }
}
} // namespace

double
D2dBeliefConsensusMatrix::LambdaMax() const
{
    const std::size_t n = m_w.size();
    if (n < 2)
    {
        return 0.0;
    }
    gsl_vector_complex* values = gsl_vector_complex_alloc(n);
    Eigen(m_w, values, nullptr);
    std::vector<double> moduli(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        moduli[i] = gsl_complex_abs(gsl_vector_complex_get(values, i));
    }
    gsl_vector_complex_free(values);
    // Drop one eigenvalue 1 (lambda_0(W) = 1, the largest modulus); the largest left is
    // lambda_max. Sorting moduli: the top one is the Perron root 1.
    std::sort(moduli.begin(), moduli.end());
    return std::min(1.0, moduli[n - 2]);
}

std::vector<double>
D2dBeliefConsensusMatrix::StationaryDistribution() const
{
    const std::size_t n = m_w.size();
    if (n == 1)
    {
        return {1.0};
    }
    // Left eigenvector of W = right eigenvector of W^T, eigenvalue closest to 1.
    std::vector<std::vector<double>> t(n, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            t[i][j] = m_w[j][i];
        }
    }
    gsl_vector_complex* values = gsl_vector_complex_alloc(n);
    gsl_matrix_complex* vectors = gsl_matrix_complex_alloc(n, n);
    Eigen(t, values, vectors);
    std::size_t best = 0;
    double bestDist = 1e300;
    for (std::size_t k = 0; k < n; ++k)
    {
        const double d =
            gsl_complex_abs(gsl_complex_sub_real(gsl_vector_complex_get(values, k), 1.0));
        if (d < bestDist)
        {
            bestDist = d;
            best = k;
        }
    }
    std::vector<double> v(n);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        v[i] = GSL_REAL(gsl_matrix_complex_get(vectors, i, best));
        sum += v[i];
    }
    gsl_matrix_complex_free(vectors);
    gsl_vector_complex_free(values);
    for (auto& x : v)
    {
        x /= sum; // also fixes the sign
    }
    // A few power-iteration sweeps v <- v W polish the solver's rounding.
    for (int it = 0; it < 3; ++it)
    {
        std::vector<double> next(n, 0.0);
        for (std::size_t j = 0; j < n; ++j)
        {
            for (std::size_t i = 0; i < n; ++i)
            {
                next[i] += v[j] * m_w[j][i];
            }
        }
        const double s = std::accumulate(next.begin(), next.end(), 0.0);
        for (std::size_t i = 0; i < n; ++i)
        {
            v[i] = next[i] / s;
        }
    }
    return v;
}

double
D2dBeliefConsensusMatrix::Theorem1Bound(uint32_t n,
                                        uint32_t m,
                                        double lambdaMax,
                                        double k,
                                        double c,
                                        double delta)
{
    // Eq. (4) of Lalitha et al. 2018 (Theorem 1).
    const double first = 16.0 * c * std::log(double(n)) / (k * (1.0 - lambdaMax));
    const double second = 16.0 * c * std::log(double(n) * m / delta) / (k * k);
    const double third = 2.0 * std::log(2.0 * m) / k;
    return std::max({first, second, third});
}

std::string
D2dBeliefConsensusMatrix::ToJson() const
{
    std::string out = "[";
    for (std::size_t i = 0; i < m_w.size(); ++i)
    {
        out += i ? ",[" : "[";
        for (std::size_t j = 0; j < m_w[i].size(); ++j)
        {
            out += fmt::format("{}{}", j ? "," : "", m_w[i][j]);
        }
        out += "]";
    }
    return out + "]";
}

} // namespace ns3
