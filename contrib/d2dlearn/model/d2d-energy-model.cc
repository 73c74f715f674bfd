/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-energy-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dEnergyModel");
NS_OBJECT_ENSURE_REGISTERED(D2dEnergyModel);

TypeId
D2dEnergyModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dEnergyModel")
            .SetParent<DeviceEnergyModel>()
            .SetGroupName("D2dlearn")
            .AddTraceSource("EnergyEvent",
                            "Energy of a period of constant draw of one component, reported "
                            "when the period ends: (time, node, component, energy J, "
                            "remaining J).",
                            MakeTraceSourceAccessor(&D2dEnergyModel::m_energyTrace),
                            "ns3::D2dEnergyModel::EnergyEventTracedCallback");
    return tid;
}

D2dEnergyModel::D2dEnergyModel()
{
    NS_LOG_FUNCTION(this);
}

D2dEnergyModel::~D2dEnergyModel()
{
    NS_LOG_FUNCTION(this);
}

void
D2dEnergyModel::DoDispose()
{
    m_source = nullptr;
    m_depletionCallbacks.clear();
    DeviceEnergyModel::DoDispose();
}

void
D2dEnergyModel::SetEnergySource(Ptr<EnergySource> source)
{
    NS_LOG_FUNCTION(this << source);
    m_source = source;
    m_periodStart = Simulator::Now();
}

double
D2dEnergyModel::GetTotalEnergyConsumption() const
{
    return m_totalJ + GetPowerW() * (Simulator::Now() - m_periodStart).GetSeconds();
}

void
D2dEnergyModel::ChangeState(int newState)
{
    NS_LOG_FUNCTION(this << newState);
}

void
D2dEnergyModel::HandleEnergyDepletion()
{
    NS_LOG_FUNCTION(this << m_node);
    if (m_depleted)
    {
        return;
    }
    // Called from inside the source's update: do not update it again.
    ClosePeriod(false);
    m_depleted = true;
    m_draw.clear();
    DoDepletion();
    // Copy: a callback may dispose of objects that own this model's callbacks.
    auto callbacks = m_depletionCallbacks;
    for (auto& cb : callbacks)
    {
        cb();
    }
}

void
D2dEnergyModel::HandleEnergyRecharged()
{
    NS_LOG_FUNCTION(this);
}

void
D2dEnergyModel::HandleEnergyChanged()
{
}

void
D2dEnergyModel::SetNodeIndex(uint32_t index)
{
    m_node = index;
}

uint32_t
D2dEnergyModel::GetNodeIndex() const
{
    return m_node;
}

void
D2dEnergyModel::AddDepletionCallback(Callback<void> cb)
{
    m_depletionCallbacks.push_back(cb);
}

bool
D2dEnergyModel::IsDepleted() const
{
    return m_depleted;
}

double
D2dEnergyModel::GetPowerW() const
{
    double total = 0.0;
    for (const auto& [component, power] : m_draw)
    {
        total += power;
    }
    return total;
}

void
D2dEnergyModel::Flush()
{
    NS_LOG_FUNCTION(this);
    ClosePeriod(true);
}

void
D2dEnergyModel::SetDraw(const std::string& component, double powerW)
{
    NS_LOG_FUNCTION(this << component << powerW);
    NS_ABORT_MSG_IF(powerW < 0, "D2dEnergyModel: negative power " << powerW << " W");
    if (m_depleted || GetDraw(component) == powerW)
    {
        return; // no change of draw: the open period goes on
    }
    ClosePeriod(true);
    if (m_depleted) // the update found the source empty
    {
        return;
    }
    for (auto& entry : m_draw)
    {
        if (entry.first == component)
        {
            entry.second = powerW;
            return;
        }
    }
    m_draw.emplace_back(component, powerW);
}

double
D2dEnergyModel::GetDraw(const std::string& component) const
{
    for (const auto& entry : m_draw)
    {
        if (entry.first == component)
        {
            return entry.second;
        }
    }
    return 0.0;
}

void
D2dEnergyModel::DoDepletion()
{
}

double
D2dEnergyModel::DoGetCurrentA() const
{
    if (!m_source)
    {
        return 0.0;
    }
    const double voltage = m_source->GetSupplyVoltage();
    return voltage > 0 ? GetPowerW() / voltage : 0.0;
}

void
D2dEnergyModel::ClosePeriod(bool updateSource)
{
    const Time now = Simulator::Now();
    const double seconds = (now - m_periodStart).GetSeconds();
    m_periodStart = now;
    // The draw in force during the period: a depletion found by the update below clears
    // m_draw re-entrantly, yet the period's energy was drawn and must be reported.
    const auto draws = m_draw;
    double remaining = 0.0;
    if (m_source && updateSource && !m_inUpdate)
    {
        // GetRemainingEnergy() of the ns-3 sources first integrates the old draw (still in
        // force) up to now; it may find the source depleted and call
        // HandleEnergyDepletion() re-entrantly.
        m_inUpdate = true;
        remaining = m_source->GetRemainingEnergy();
        m_inUpdate = false;
    }
    // Called from the depletion handler (inside the source's update), or depleted by it.
    remaining = m_depleted || !updateSource ? 0.0 : std::max(0.0, remaining);
    if (seconds <= 0)
    {
        return;
    }
    for (const auto& [component, power] : draws)
    {
        const double energy = power * seconds;
        if (energy > 0)
        {
            m_totalJ += energy;
            m_energyTrace(now, m_node, component, energy, remaining);
        }
    }
}

} // namespace ns3
