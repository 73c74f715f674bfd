/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-draw-ledger.h"

#include <algorithm>

namespace ns3
{

void
D2dDrawLedger::Set(const std::string& component, double powerW)
{
    auto entry = std::find_if(m_draws.begin(), m_draws.end(), [&component](const auto& e) {
        return e.first == component;
    });
    if (entry != m_draws.end())
    {
        entry->second = powerW;
    }
    else
    {
        m_draws.emplace_back(component, powerW);
    }
    m_powerW = 0.0;
    for (const auto& e : m_draws)
    {
        m_powerW += e.second;
    }
}

double
D2dDrawLedger::Get(const std::string& component) const
{
    for (const auto& entry : m_draws)
    {
        if (entry.first == component)
        {
            return entry.second;
        }
    }
    return 0.0;
}

double
D2dDrawLedger::GetPowerW() const
{
    return m_powerW;
}

const D2dDrawLedger::Draws&
D2dDrawLedger::GetDraws() const
{
    return m_draws;
}

void
D2dDrawLedger::Clear()
{
    m_draws.clear();
    m_powerW = 0.0;
}

Time
D2dDrawLedger::StartPeriod(Time now)
{
    const Time start = m_periodStart;
    m_periodStart = now;
    return start;
}

Time
D2dDrawLedger::GetPeriodStart() const
{
    return m_periodStart;
}

void
D2dDrawLedger::AddEnergy(double energyJ)
{
    m_totalJ += energyJ;
}

double
D2dDrawLedger::GetTotalJ() const
{
    return m_totalJ;
}

} // namespace ns3
