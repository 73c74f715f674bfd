/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-link-policy.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

double
D2dLinkPolicy::Ring::Sum() const
{
    return std::accumulate(values.begin(), values.end(), 0.0);
}

D2dLinkPolicy::D2dLinkPolicy(uint32_t nActions,
                             uint32_t self,
                             uint32_t bufferSize,
                             double delta,
                             BufferMode bufferMode,
                             BetaMode betaMode)
    : m_n(nActions),
      m_self(self),
      m_h(std::max<uint32_t>(1, bufferSize)),
      m_delta(delta),
      m_bufferMode(bufferMode),
      m_betaMode(betaMode)
{
}

std::vector<double>
D2dLinkPolicy::Softmax(const std::vector<double>& values)
{
    std::vector<double> p(values.size(), 0.0);
    if (values.empty())
    {
        return p;
    }
    const double top = *std::max_element(values.begin(), values.end());
    double sum = 0;
    for (std::size_t k = 0; k < values.size(); ++k)
    {
        p[k] = std::exp(values[k] - top);
        sum += p[k];
    }
    for (auto& x : p)
    {
        x /= sum;
    }
    return p;
}

double
D2dLinkPolicy::Value(uint32_t state, uint32_t action) const
{
    const auto it = m_q.find({state, action});
    return it == m_q.end() || it->second.count == 0 ? 0.0 : it->second.total / it->second.count;
}

double
D2dLinkPolicy::TotalReward(uint32_t state, uint32_t action) const
{
    const auto it = m_q.find({state, action});
    return it == m_q.end() ? 0.0 : it->second.total;
}

double
D2dLinkPolicy::Count(uint32_t state, uint32_t action) const
{
    const auto it = m_q.find({state, action});
    return it == m_q.end() ? 0.0 : it->second.count;
}

std::vector<double>
D2dLinkPolicy::Probabilities(const std::vector<uint32_t>& stateOfAction,
                             const std::vector<bool>& allowed) const
{
    std::vector<uint32_t> actions;
    std::vector<double> values;
    for (uint32_t j = 0; j < m_n; ++j)
    {
        if (j != m_self && allowed.at(j))
        {
            actions.push_back(j);
            values.push_back(Value(stateOfAction.at(j), j));
        }
    }
    const auto p = Softmax(values);
    std::vector<double> out(m_n, 0.0);
    for (std::size_t k = 0; k < actions.size(); ++k)
    {
        out[actions[k]] = p[k];
    }
    return out;
}

uint32_t
D2dLinkPolicy::Sample(const std::vector<double>& probabilities, double u)
{
    double c = 0;
    uint32_t last = 0;
    for (uint32_t j = 0; j < probabilities.size(); ++j)
    {
        if (probabilities[j] <= 0)
        {
            continue;
        }
        c += probabilities[j];
        last = j;
        if (u < c)
        {
            return j;
        }
    }
    return last; // u within rounding of 1
}

uint32_t
D2dLinkPolicy::Greedy(const std::vector<double>& probabilities)
{
    return static_cast<uint32_t>(std::max_element(probabilities.begin(), probabilities.end()) -
                                 probabilities.begin());
}

double
D2dLinkPolicy::Update(uint32_t state, uint32_t action, double reward)
{
    Ring& ring = m_bufferMode == BufferMode::SHARED ? m_shared : m_rings[{state, action}];
    double stored = reward;
    if (!ring.values.empty() && reward < ring.Sum() / ring.values.size())
    {
        stored = m_betaMode == BetaMode::SIGN_AWARE ? reward - m_delta * std::fabs(reward)
                                                    : (1.0 - m_delta) * reward;
    }
    if (ring.values.size() < m_h)
    {
        ring.values.push_back(stored);
    }
    else
    {
        ring.values[ring.next] = stored;
        ring.next = (ring.next + 1) % m_h;
    }
    Entry& e = m_q[{state, action}];
    e.total = ring.Sum();
    e.count = static_cast<double>(ring.values.size());
    return stored;
}

std::vector<std::pair<uint32_t, uint32_t>>
D2dLinkPolicy::Visited() const
{
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& [key, entry] : m_q)
    {
        out.push_back(key);
    }
    return out;
}

} // namespace ns3
