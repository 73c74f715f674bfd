/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-streaming-quantile.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

D2dStreamingQuantile::D2dStreamingQuantile(double p, std::size_t exactCapacity)
    : m_p(p),
      m_capacity(exactCapacity),
      m_height{},
      m_pos{},
      m_desired{},
      m_step{0.0, p / 2.0, p, (1.0 + p) / 2.0, 1.0}
{
    NS_ABORT_MSG_IF(!(p > 0.0 && p < 1.0), "D2dStreamingQuantile: p must be in (0, 1)");
    NS_ABORT_MSG_IF(exactCapacity < 5, "D2dStreamingQuantile: capacity must be at least 5");
}

uint64_t
D2dStreamingQuantile::Count() const
{
    return m_count;
}

bool
D2dStreamingQuantile::IsExact() const
{
    return m_count <= m_capacity;
}

void
D2dStreamingQuantile::StartMarkers()
{
    std::sort(m_values.begin(), m_values.end());
    const double n = static_cast<double>(m_values.size());
    for (int i = 0; i < 5; ++i)
    {
        m_desired[i] = 1.0 + (n - 1.0) * m_step[i];
        m_pos[i] = std::round(m_desired[i]);
    }
    // Distinct integer positions (n >= 5 leaves room): 1 and n at the ends, the inner
    // three kept strictly between their neighbours.
    m_pos[0] = 1.0;
    m_pos[4] = n;
    for (int i = 1; i <= 3; ++i)
    {
        m_pos[i] = std::max(m_pos[i], m_pos[i - 1] + 1.0);
    }
    for (int i = 3; i >= 1; --i)
    {
        m_pos[i] = std::min(m_pos[i], m_pos[i + 1] - 1.0);
    }
    for (int i = 0; i < 5; ++i)
    {
        m_height[i] = m_values[static_cast<std::size_t>(m_pos[i]) - 1];
    }
    m_values.clear();
    m_values.shrink_to_fit();
}

double
D2dStreamingQuantile::Parabolic(int i, double d) const
{
    // Jain and Chlamtac 1985, the piecewise-parabolic (P^2) prediction of marker i's height.
    const double q = m_height[i];
    const double np = m_pos[i + 1];
    const double nm = m_pos[i - 1];
    const double n = m_pos[i];
    return q + d / (np - nm) *
                   ((n - nm + d) * (m_height[i + 1] - q) / (np - n) +
                    (np - n - d) * (q - m_height[i - 1]) / (n - nm));
}

double
D2dStreamingQuantile::Linear(int i, int d) const
{
    return m_height[i] + d * (m_height[i + d] - m_height[i]) / (m_pos[i + d] - m_pos[i]);
}

void
D2dStreamingQuantile::Add(double x)
{
    ++m_count;
    if (m_count <= m_capacity)
    {
        m_values.push_back(x);
        return;
    }
    if (!m_values.empty())
    {
        StartMarkers();
    }
    // The cell k of x; the extreme markers follow the minimum and the maximum.
    int k = 0;
    if (x < m_height[0])
    {
        m_height[0] = x;
        k = 0;
    }
    else if (x >= m_height[4])
    {
        m_height[4] = x;
        k = 3;
    }
    else
    {
        k = 0;
        while (k < 3 && x >= m_height[k + 1])
        {
            ++k;
        }
    }
    for (int i = k + 1; i < 5; ++i)
    {
        m_pos[i] += 1.0;
    }
    for (int i = 0; i < 5; ++i)
    {
        m_desired[i] += m_step[i];
    }
    for (int i = 1; i <= 3; ++i)
    {
        const double d = m_desired[i] - m_pos[i];
        if ((d >= 1.0 && m_pos[i + 1] - m_pos[i] > 1.0) ||
            (d <= -1.0 && m_pos[i - 1] - m_pos[i] < -1.0))
        {
            const int s = d > 0 ? 1 : -1;
            const double q = Parabolic(i, s);
            m_height[i] = (m_height[i - 1] < q && q < m_height[i + 1]) ? q : Linear(i, s);
            m_pos[i] += s;
        }
    }
}

double
D2dStreamingQuantile::Value() const
{
    if (m_count == 0)
    {
        return 0.0;
    }
    if (m_count > m_capacity)
    {
        return m_height[2];
    }
    return Type7(m_values, m_p);
}

double
D2dStreamingQuantile::Type7(std::vector<double> values, double q)
{
    NS_ABORT_MSG_IF(values.empty(), "D2dStreamingQuantile::Type7 of no values");
    std::sort(values.begin(), values.end());
    const double h = (static_cast<double>(values.size()) - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    if (lo + 1 >= values.size())
    {
        return values.back();
    }
    return values[lo] + (h - static_cast<double>(lo)) * (values[lo + 1] - values[lo]);
}

} // namespace ns3
