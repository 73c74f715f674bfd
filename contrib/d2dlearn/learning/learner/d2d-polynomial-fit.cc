/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-polynomial-fit.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

namespace
{
/** \brief Add weight * v v^T to a and weight * v t to b, v = (1, x, ..., x^d). */
void
Accumulate(std::vector<std::vector<double>>& a,
           std::vector<double>& b,
           double x,
           double t,
           double weight)
{
    const std::size_t n = b.size();
    std::vector<double> v(n);
    double p = 1.0;
    for (std::size_t e = 0; e < n; ++e)
    {
        v[e] = p;
        p *= x;
    }
    for (std::size_t r = 0; r < n; ++r)
    {
        b[r] += weight * v[r] * t;
        for (std::size_t c = 0; c < n; ++c)
        {
            a[r][c] += weight * v[r] * v[c];
        }
    }
}
} // namespace

std::vector<double>
D2dPolynomialFit::Fit(const std::vector<double>& x,
                      const std::vector<double>& y,
                      const std::vector<double>& xstar,
                      const std::vector<double>& psi,
                      double lambda,
                      uint32_t degree)
{
    if (x.size() != y.size())
    {
        throw std::invalid_argument("x: " + std::to_string(x.size()) + " inputs for " +
                                    std::to_string(y.size()) + " targets");
    }
    if (!(lambda >= 0))
    {
        throw std::invalid_argument("lambda: must be in [0, inf)");
    }
    if (lambda > 0 && xstar.size() != psi.size())
    {
        throw std::invalid_argument("psi: " + std::to_string(psi.size()) + " pseudo-labels for " +
                                    std::to_string(xstar.size()) + " shared points");
    }
    const std::size_t n = degree + 1;
    std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
    std::vector<double> b(n, 0.0);
    for (std::size_t k = 0; k < x.size(); ++k)
    {
        Accumulate(a, b, x[k], y[k], 1.0);
    }
    if (lambda > 0)
    {
        for (std::size_t m = 0; m < xstar.size(); ++m)
        {
            Accumulate(a, b, xstar[m], psi[m], lambda);
        }
    }
    // Gaussian elimination with partial pivoting.
    for (std::size_t col = 0; col < n; ++col)
    {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
        {
            if (std::abs(a[r][col]) > std::abs(a[pivot][col]))
            {
                pivot = r;
            }
        }
        if (std::abs(a[pivot][col]) < 1e-300)
        {
            throw std::invalid_argument("degree: the normal equations are singular (fewer "
                                        "distinct points than degree + 1)");
        }
        std::swap(a[col], a[pivot]);
        std::swap(b[col], b[pivot]);
        for (std::size_t r = col + 1; r < n; ++r)
        {
            const double f = a[r][col] / a[col][col];
            for (std::size_t c = col; c < n; ++c)
            {
                a[r][c] -= f * a[col][c];
            }
            b[r] -= f * b[col];
        }
    }
    std::vector<double> c(n, 0.0);
    for (std::size_t r = n; r-- > 0;)
    {
        double s = b[r];
        for (std::size_t k = r + 1; k < n; ++k)
        {
            s -= a[r][k] * c[k];
        }
        c[r] = s / a[r][r];
    }
    return c;
}

double
D2dPolynomialFit::Evaluate(const std::vector<double>& c, double x)
{
    double v = 0;
    for (std::size_t e = c.size(); e-- > 0;)
    {
        v = v * x + c[e];
    }
    return v;
}

std::vector<double>
D2dPolynomialFit::Evaluate(const std::vector<double>& c, const std::vector<double>& x)
{
    std::vector<double> out;
    out.reserve(x.size());
    for (double v : x)
    {
        out.push_back(Evaluate(c, v));
    }
    return out;
}

} // namespace ns3
