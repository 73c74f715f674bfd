/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-round-count.h"

namespace ns3
{

void
D2dRoundCount::SetRounds(uint32_t rounds)
{
    m_rounds = rounds;
}

uint32_t
D2dRoundCount::GetRounds() const
{
    return m_rounds;
}

uint32_t
D2dRoundCount::GetDone() const
{
    return m_done;
}

void
D2dRoundCount::SetFinishedCallback(Callback<void> cb)
{
    m_finished = cb;
}

bool
D2dRoundCount::Count()
{
    ++m_done;
    return m_done >= m_rounds;
}

void
D2dRoundCount::Finish()
{
    if (!m_finished.IsNull())
    {
        m_finished();
    }
}

void
D2dRoundCount::Dispose()
{
    m_finished = Callback<void>();
}

} // namespace ns3
