/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-gaussian-belief.h"

#include "ns3/abort.h"

#include <cmath>

namespace ns3
{

D2dGaussianBelief::D2dGaussianBelief(const std::vector<double>& variance)
    : m_d(static_cast<uint32_t>(variance.size())),
      m_precision(variance.size() * variance.size(), 0.0),
      m_eta(variance.size(), 0.0)
{
    for (uint32_t i = 0; i < m_d; ++i)
    {
        NS_ABORT_MSG_IF(!(variance[i] > 0), "prior variance must be > 0");
        m_precision[i * m_d + i] = 1.0 / variance[i];
    }
}

uint32_t
D2dGaussianBelief::GetDim() const
{
    return m_d;
}

void
D2dGaussianBelief::Update(const std::vector<double>& phi, double y, double noiseVariance)
{
    // Eq. (2) for a Gaussian likelihood N(y; <theta, phi>, s^2): the posterior precision
    // gains phi phi^T / s^2, the precision-mean phi y / s^2.
    NS_ABORT_MSG_IF(phi.size() != m_d, "feature size");
    for (uint32_t i = 0; i < m_d; ++i)
    {
        for (uint32_t j = 0; j < m_d; ++j)
        {
            m_precision[i * m_d + j] += phi[i] * phi[j] / noiseVariance;
        }
        m_eta[i] += phi[i] * y / noiseVariance;
    }
}

D2dGaussianBelief
D2dGaussianBelief::Consensus(const std::vector<double>& weights,
                             const std::vector<const D2dGaussianBelief*>& beliefs)
{
    // Eq. (3) for Gaussian beliefs: exp(sum_j W_ij log N_j) normalized is Gaussian with
    // natural parameters sum_j W_ij (Lambda_j, eta_j).
    NS_ABORT_MSG_IF(weights.size() != beliefs.size() || beliefs.empty(), "one belief per weight");
    D2dGaussianBelief out;
    out.m_d = beliefs[0]->m_d;
    out.m_precision.assign(out.m_d * out.m_d, 0.0);
    out.m_eta.assign(out.m_d, 0.0);
    double total = 0;
    for (std::size_t j = 0; j < beliefs.size(); ++j)
    {
        NS_ABORT_MSG_IF(beliefs[j]->m_d != out.m_d, "beliefs of different dimensions");
        for (std::size_t k = 0; k < out.m_precision.size(); ++k)
        {
            out.m_precision[k] += weights[j] * beliefs[j]->m_precision[k];
        }
        for (uint32_t k = 0; k < out.m_d; ++k)
        {
            out.m_eta[k] += weights[j] * beliefs[j]->m_eta[k];
        }
        total += weights[j];
    }
    NS_ABORT_MSG_IF(std::abs(total - 1.0) > 1e-9,
                    "Gaussian consensus weights must sum to 1, not " << total);
    return out;
}

std::vector<double>
D2dGaussianBelief::Solve(std::vector<double> b) const
{
    // Cholesky Lambda = L L^T, then forward and back substitution.
    const uint32_t d = m_d;
    std::vector<double> l(d * d, 0.0);
    for (uint32_t i = 0; i < d; ++i)
    {
        for (uint32_t j = 0; j <= i; ++j)
        {
            double s = m_precision[i * d + j];
            for (uint32_t k = 0; k < j; ++k)
            {
                s -= l[i * d + k] * l[j * d + k];
            }
            if (i == j)
            {
                NS_ABORT_MSG_IF(!(s > 0), "precision matrix is not positive definite");
                l[i * d + i] = std::sqrt(s);
            }
            else
            {
                l[i * d + j] = s / l[j * d + j];
            }
        }
    }
    for (uint32_t i = 0; i < d; ++i)
    {
        for (uint32_t k = 0; k < i; ++k)
        {
            b[i] -= l[i * d + k] * b[k];
        }
        b[i] /= l[i * d + i];
    }
    for (int i = int(d) - 1; i >= 0; --i)
    {
        for (uint32_t k = i + 1; k < d; ++k)
        {
            b[i] -= l[k * d + i] * b[k];
        }
        b[i] /= l[i * d + i];
    }
    return b;
}

std::vector<double>
D2dGaussianBelief::Mean() const
{
    return Solve(m_eta);
}

std::vector<double>
D2dGaussianBelief::Variance() const
{
    std::vector<double> out(m_d);
    for (uint32_t i = 0; i < m_d; ++i)
    {
        std::vector<double> e(m_d, 0.0);
        e[i] = 1.0;
        out[i] = Solve(e)[i];
    }
    return out;
}

double
D2dGaussianBelief::Predict(const std::vector<double>& phi) const
{
    const auto mu = Mean();
    double y = 0;
    for (uint32_t i = 0; i < m_d; ++i)
    {
        y += mu[i] * phi[i];
    }
    return y;
}

const std::vector<double>&
D2dGaussianBelief::GetPrecision() const
{
    return m_precision;
}

const std::vector<double>&
D2dGaussianBelief::GetEta() const
{
    return m_eta;
}

std::vector<double>
D2dGaussianBelief::ToVector() const
{
    std::vector<double> out;
    out.reserve(VectorSize(m_d));
    for (uint32_t i = 0; i < m_d; ++i)
    {
        for (uint32_t j = i; j < m_d; ++j)
        {
            out.push_back(m_precision[i * m_d + j]);
        }
    }
    out.insert(out.end(), m_eta.begin(), m_eta.end());
    return out;
}

D2dGaussianBelief
D2dGaussianBelief::FromVector(uint32_t d, const std::vector<double>& values)
{
    NS_ABORT_MSG_IF(values.size() != VectorSize(d), "natural-parameter vector size");
    D2dGaussianBelief out;
    out.m_d = d;
    out.m_precision.assign(d * d, 0.0);
    std::size_t k = 0;
    for (uint32_t i = 0; i < d; ++i)
    {
        for (uint32_t j = i; j < d; ++j)
        {
            out.m_precision[i * d + j] = values[k];
            out.m_precision[j * d + i] = values[k];
            ++k;
        }
    }
    out.m_eta.assign(values.begin() + k, values.end());
    return out;
}

uint32_t
D2dGaussianBelief::VectorSize(uint32_t d)
{
    return d * (d + 1) / 2 + d;
}

} // namespace ns3
