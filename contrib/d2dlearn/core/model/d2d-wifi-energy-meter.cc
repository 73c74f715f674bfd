/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-wifi-energy-meter.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dWifiEnergyMeter");
NS_OBJECT_ENSURE_REGISTERED(D2dWifiEnergyMeter);

TypeId
D2dWifiEnergyMeter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dWifiEnergyMeter")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dWifiEnergyMeter>()
            .AddTraceSource("EnergyEvent",
                            "Energy of a period of one PHY state: (end time, node, component, "
                            "energy J, remaining J, start time, power W), as D2dEnergyModel's "
                            "EnergyEvent",
                            MakeTraceSourceAccessor(&D2dWifiEnergyMeter::m_energyTrace),
                            "ns3::D2dEnergyModel::EnergyEventTracedCallback");
    return tid;
}

D2dWifiEnergyMeter::D2dWifiEnergyMeter() = default;

D2dWifiEnergyMeter::~D2dWifiEnergyMeter() = default;

void
D2dWifiEnergyMeter::DoDispose()
{
    m_model = nullptr;
    m_source = nullptr;
    Object::DoDispose();
}

void
D2dWifiEnergyMeter::Setup(Ptr<WifiRadioEnergyModel> model,
                          Ptr<EnergySource> source,
                          uint32_t node,
                          const std::string& prefix)
{
    NS_LOG_FUNCTION(this << model << source << node << prefix);
    NS_ABORT_MSG_IF(!model || !source, "D2dWifiEnergyMeter::Setup: no model or no source");
    NS_ABORT_MSG_IF(prefix != "radio" && prefix != "d2s",
                    "D2dWifiEnergyMeter: prefix must be radio or d2s, got " << prefix);
    m_model = model;
    m_source = source;
    m_node = node;
    m_prefix = prefix;
    m_last = Simulator::Now();
    model->TraceConnectWithoutContext("TotalEnergyConsumption",
                                      MakeCallback(&D2dWifiEnergyMeter::EnergyChanged, this));
}

std::string
D2dWifiEnergyMeter::ComponentOf(WifiPhyState state, const std::string& prefix)
{
    switch (state)
    {
    case WifiPhyState::TX:
        return prefix + "_tx";
    case WifiPhyState::RX:
        return prefix + "_rx";
    case WifiPhyState::OFF:
        return "";
    case WifiPhyState::SLEEP:
        return prefix + "_sleep"; // SleepCurrentA, as the channel's SleepPowerW
    default:                      // IDLE, CCA_BUSY, SWITCHING: the radio's idle, as on the channel
        return prefix + "_idle";
    }
}

double
D2dWifiEnergyMeter::CurrentA(WifiPhyState state) const
{
    switch (state)
    {
    case WifiPhyState::TX:
        return m_model->GetTxCurrentA();
    case WifiPhyState::RX:
        return m_model->GetRxCurrentA();
    case WifiPhyState::CCA_BUSY:
        return m_model->GetCcaBusyCurrentA();
    case WifiPhyState::SWITCHING:
        return m_model->GetSwitchingCurrentA();
    case WifiPhyState::SLEEP:
        return m_model->GetSleepCurrentA();
    case WifiPhyState::OFF:
        return 0.0;
    default:
        return m_model->GetIdleCurrentA();
    }
}

void
D2dWifiEnergyMeter::EnergyChanged(double oldJ, double newJ)
{
    // WifiRadioEnergyModel::ChangeState adds the ended state's energy before it changes
    // m_currentState: GetCurrentState() is still the state whose energy this is. What
    // Flush() reported of this state since the model's last update is not reported twice.
    const double energyJ = newJ - oldJ - m_flushedJ;
    m_flushedJ = 0;
    Report(m_model->GetCurrentState(), energyJ);
}

void
D2dWifiEnergyMeter::Flush()
{
    NS_LOG_FUNCTION(this);
    if (!m_model)
    {
        return;
    }
    const WifiPhyState state = m_model->GetCurrentState();
    const double seconds = (Simulator::Now() - m_last).GetSeconds();
    const double energyJ = seconds * m_source->GetSupplyVoltage() * CurrentA(state);
    if (energyJ > 0 && !ComponentOf(state, m_prefix).empty())
    {
        m_flushedJ += energyJ; // part of the model's next increase
    }
    Report(state, energyJ);
}

void
D2dWifiEnergyMeter::Report(WifiPhyState state, double energyJ)
{
    const Time start = m_last;
    m_last = Simulator::Now();
    const std::string component = ComponentOf(state, m_prefix);
    // A period of no duration has no energy but the rounding of the model's increase less
    // what Flush() reported of it: no period, no row.
    if (energyJ <= 0 || component.empty() || m_last == start)
    {
        return;
    }
    double remaining = 0.0;
    if (!m_inUpdate)
    {
        // The source integrates every model's draw up to now first; a depletion it finds
        // calls the models' handlers (and may come back here: then 0 is reported).
        m_inUpdate = true;
        remaining = std::max(0.0, m_source->GetRemainingEnergy());
        m_inUpdate = false;
    }
    m_reportedJ += energyJ;
    // The state's draw over the period: the model's current times the source's voltage,
    // which is what it added (a state's current is constant between two of its updates).
    const double seconds = (m_last - start).GetSeconds();
    m_energyTrace(m_last, m_node, component, energyJ, remaining, start, energyJ / seconds);
}

double
D2dWifiEnergyMeter::GetTotalEnergyJ() const
{
    return m_reportedJ;
}

void
D2dWifiEnergyMeter::AddOpenEnergy(std::map<std::string, double>& byComponentJ) const
{
    if (!m_model)
    {
        return;
    }
    const WifiPhyState state = m_model->GetCurrentState();
    const std::string component = ComponentOf(state, m_prefix);
    const double seconds = (Simulator::Now() - m_last).GetSeconds();
    const double energyJ = seconds * m_source->GetSupplyVoltage() * CurrentA(state);
    if (energyJ > 0 && !component.empty())
    {
        byComponentJ[component] += energyJ; // as Flush() would report it now
    }
}

} // namespace ns3
