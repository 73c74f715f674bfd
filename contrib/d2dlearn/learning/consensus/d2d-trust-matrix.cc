/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trust-matrix.h"

namespace ns3
{

void
D2dTrustMatrix::SetMode(Mode mode)
{
    m_mode = mode;
}

D2dTrustMatrix::Mode
D2dTrustMatrix::GetMode() const
{
    return m_mode;
}

void
D2dTrustMatrix::SetConfidence(D2dConfidence confidence)
{
    m_confidence = confidence;
}

D2dConfidence
D2dTrustMatrix::GetConfidence() const
{
    return m_confidence;
}

void
D2dTrustMatrix::SetEvery(uint32_t every)
{
    m_every = every;
}

uint32_t
D2dTrustMatrix::GetEvery() const
{
    return m_every;
}

void
D2dTrustMatrix::Reset(uint32_t devices)
{
    m_rows.assign(devices, {});
}

std::vector<double>
D2dTrustMatrix::Row(uint32_t i,
                    const std::vector<const std::vector<float>*>& seen,
                    const std::vector<bool>& present,
                    uint32_t points,
                    uint32_t classes,
                    bool regression,
                    uint32_t collaborationRound)
{
    if (m_mode == NAIVE)
    {
        return D2dTrustRules::NaiveRow(present);
    }
    if (m_rows[i].empty() || (m_mode == DYNAMIC && (collaborationRound - 1) % m_every == 0))
    {
        // Regression: eq. 6 over the n*-vectors (D2dTrustRules::RegressionTrustRow).
        m_rows[i] = regression ? D2dTrustRules::RegressionTrustRow(i, seen, points)
                               : D2dTrustRules::TrustRow(i, seen, points, classes, m_confidence);
        return m_rows[i];
    }
    return D2dTrustRules::Restrict(m_rows[i], present);
}

void
D2dTrustMatrix::Close(Matrix w, std::vector<std::shared_ptr<const std::vector<float>>> psi)
{
    // The round's matrix diagnostics (D2dTrustRules): eqs. 8, 9 read the product.
    if (m_product.empty())
    {
        m_product = w;
    }
    else
    {
        m_product = D2dTrustRules::Multiply(w, m_product);
    }
    m_w = std::move(w);
    m_psi = std::move(psi);
}

const D2dTrustMatrix::Matrix&
D2dTrustMatrix::GetMatrix() const
{
    return m_w;
}

const D2dTrustMatrix::Matrix&
D2dTrustMatrix::GetProduct() const
{
    return m_product;
}

std::shared_ptr<const std::vector<float>>
D2dTrustMatrix::GetPseudoLabels(uint32_t device) const
{
    return device < m_psi.size() ? m_psi[device] : nullptr;
}

void
D2dTrustMatrix::Dispose()
{
    m_psi.clear();
}

} // namespace ns3
