/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fragment-rounds.h"

namespace ns3
{

void
D2dFragmentRounds::Start(uint32_t fragments)
{
    m_current.resize(fragments);
    for (uint32_t f = 0; f < fragments; ++f)
    {
        m_current[f] = f;
    }
    m_next.clear();
    m_pos = 0;
    m_round = 0;
}

uint32_t
D2dFragmentRounds::Current() const
{
    return m_current[m_pos];
}

uint32_t
D2dFragmentRounds::Take()
{
    return m_current[m_pos++];
}

void
D2dFragmentRounds::Again(uint32_t fragment)
{
    m_next.push_back(fragment);
}

bool
D2dFragmentRounds::HasMore() const
{
    return m_pos < m_current.size();
}

uint32_t
D2dFragmentRounds::NextRound(uint32_t maxRounds)
{
    if (m_next.empty() || m_round >= maxRounds)
    {
        return 0;
    }
    m_round++;
    const auto again = static_cast<uint32_t>(m_next.size());
    m_current.swap(m_next);
    m_next.clear();
    m_pos = 0;
    return again;
}

} // namespace ns3
