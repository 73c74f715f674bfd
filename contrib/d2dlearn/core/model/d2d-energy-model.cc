/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-energy-model.h"

#include "d2d-compute-model.h"
#include "d2d-energy-source.h"
#include "d2d-radio-energy-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dEnergyModel");
NS_OBJECT_ENSURE_REGISTERED(D2dEnergyModel);

namespace
{

/**
 * A residue this small (J) left in a source at its predicted depletion counts as empty:
 * ns-3.37's BasicEnergySource (and D2dEnergySource, to the bit) rounds the energy of each
 * update to 1e-9 J (it multiplies the power by a Time), so such a residue might never be
 * drawn.
 */
constexpr double kResidueJ = 1e-9;

/** Predictions further ahead are capped (s): the check then predicts again. */
constexpr double kMaxCheckDelayS = 1e9;

/**
 * \param source an energy source
 * \return the energy at or below which it reports depletion (J): its low-battery
 * threshold attribute (D2dEnergySource, BasicEnergySource, LiIonEnergySource) times its
 * initial energy
 */
double
LowBatteryLevelJ(Ptr<EnergySource> source)
{
    if (!source)
    {
        return 0.0;
    }
    const TypeId tid = source->GetInstanceTypeId();
    for (const auto& names : D2dEnergySource::KnownSourceAttributes())
    {
        const char* name = names.lowBatteryThreshold;
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(name, &info))
        {
            DoubleValue threshold;
            source->GetAttribute(name, threshold);
            return std::max(0.0, threshold.Get() * source->GetInitialEnergy());
        }
    }
    return 0.0;
}

/**
 * \param seconds a delay (s)
 * \return it rounded up to whole time steps (ns by default), capped at kMaxCheckDelayS
 */
Time
CeilToTimeStep(double seconds)
{
    if (!(seconds > 0)) // also NaN
    {
        return Time(0);
    }
    static const double kStepS = TimeStep(1).GetSeconds();
    const double steps = std::ceil(std::min(seconds, kMaxCheckDelayS) / kStepS);
    return TimeStep(static_cast<uint64_t>(steps));
}

} // namespace

/** The D2D energy models of one source, in its list order (raw pointers: a model removes
 * itself before it goes away). */
struct D2dEnergyModel::Siblings
{
    std::vector<D2dEnergyModel*> members; //!< the models
};

TypeId
D2dEnergyModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dEnergyModel")
            .SetParent<DeviceEnergyModel>()
            .SetGroupName("D2dlearn")
            .AddTraceSource("EnergyEvent",
                            "Energy of a period of constant draw of one component, reported "
                            "when the period ends: (end time, node, component, energy J, "
                            "remaining J, start time, power W).",
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
    DropCheck(false); // the event holds a raw pointer to this model
    LeaveSiblings();
}

void
D2dEnergyModel::DoDispose()
{
    DropCheck(false);
    LeaveSiblings();
    m_source = nullptr;
    m_depletionCallbacks.clear();
    DeviceEnergyModel::DoDispose();
}

void
D2dEnergyModel::SetEnergySource(Ptr<EnergySource> source)
{
    NS_LOG_FUNCTION(this << source);
    DropCheck(false);
    LeaveSiblings();
    m_siblingsStale = true;
    m_source = source;
    m_ledger.StartPeriod(Simulator::Now());
    m_depletionLevelJ = LowBatteryLevelJ(source);
    if (m_source && !m_depleted && !m_inUpdate && GetPowerW() > 0)
    {
        m_inUpdate = true;
        const double remaining = m_source->GetRemainingEnergy();
        m_inUpdate = false;
        ScheduleDepletionCheck(remaining);
    }
}

double
D2dEnergyModel::GetTotalEnergyConsumption() const
{
    return m_ledger.GetTotalJ() +
           GetPowerW() * (Simulator::Now() - m_ledger.GetPeriodStart()).GetSeconds();
}

void
D2dEnergyModel::AddOpenEnergy(std::map<std::string, double>& byComponentJ) const
{
    const double seconds = (Simulator::Now() - m_ledger.GetPeriodStart()).GetSeconds();
    if (seconds <= 0)
    {
        return;
    }
    for (const auto& [component, power] : m_ledger.GetDraws()) // cleared on depletion
    {
        if (power > 0)
        {
            byComponentJ[component] += power * seconds; // as ClosePeriod() will report it
        }
    }
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
    DropCheck(false);
    m_ledger.Clear();
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
D2dEnergyModel::AddDepletionCallback(std::function<void()> cb)
{
    m_depletionCallbacks.push_back(std::move(cb));
}

bool
D2dEnergyModel::IsDepleted() const
{
    return m_depleted;
}

double
D2dEnergyModel::GetPowerW() const
{
    return m_ledger.GetPowerW();
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
    const std::optional<double> remaining = ClosePeriod(true);
    if (m_depleted) // the update found the source empty
    {
        return;
    }
    const double previousW = GetPowerW();
    m_ledger.Set(component, powerW);
    // A fall of the draw only delays the depletion: while anything is drawn, a check of
    // the source is pending no later than the instant predicted at the last rise, and it
    // predicts again when it runs. Without a remaining energy, a source update is under
    // way and its caller predicts afterwards.
    if (remaining && GetPowerW() > previousW)
    {
        ScheduleDepletionCheck(*remaining);
    }
}

double
D2dEnergyModel::GetDraw(const std::string& component) const
{
    return m_ledger.Get(component);
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

std::optional<double>
D2dEnergyModel::ClosePeriod(bool updateSource)
{
    const Time now = Simulator::Now();
    const Time start = m_ledger.StartPeriod(now);
    const double seconds = (now - start).GetSeconds();
    // The draw in force during the period: a depletion found by the update below clears
    // the draws re-entrantly, yet the period's energy was drawn and must be reported.
    const auto draws = m_ledger.GetDraws();
    double remaining = 0.0;
    std::optional<double> sourceRemaining;
    if (m_source && updateSource && !m_inUpdate)
    {
        // GetRemainingEnergy() of the ns-3 sources first integrates the old draw (still in
        // force) up to now; it may find the source depleted and call
        // HandleEnergyDepletion() re-entrantly.
        m_inUpdate = true;
        remaining = m_source->GetRemainingEnergy();
        m_inUpdate = false;
        sourceRemaining = remaining;
    }
    // Called from the depletion handler (inside the source's update), or depleted by it.
    remaining = m_depleted || !updateSource ? 0.0 : std::max(0.0, remaining);
    if (seconds <= 0)
    {
        return sourceRemaining;
    }
    for (const auto& [component, power] : draws)
    {
        const double energy = power * seconds;
        if (energy > 0)
        {
            m_ledger.AddEnergy(energy);
            m_energyTrace(now, m_node, component, energy, remaining, start, power);
        }
    }
    return sourceRemaining;
}

const std::vector<D2dEnergyModel*>&
D2dEnergyModel::GetSiblings()
{
    if (!m_siblingsStale && m_siblings)
    {
        return m_siblings->members;
    }
    static const TypeId kTypes[] = {D2dRadioEnergyModel::GetTypeId(), D2dComputeModel::GetTypeId()};
    auto group = std::make_shared<Siblings>();
    bool selfFound = false;
    if (m_source)
    {
        for (const TypeId& tid : kTypes)
        {
            // FindDeviceEnergyModels matches exact types only: ask for each concrete one.
            const DeviceEnergyModelContainer models = m_source->FindDeviceEnergyModels(tid);
            for (auto it = models.Begin(); it != models.End(); ++it)
            {
                auto* model = static_cast<D2dEnergyModel*>(PeekPointer(*it));
                selfFound = selfFound || model == this;
                group->members.push_back(model);
            }
        }
    }
    if (!selfFound)
    {
        group->members.push_back(this); // not in the source's list (yet): look again later
    }
    m_siblingsStale = !selfFound;
    // Every member moves to the new group, so that all of them see this one from now on.
    for (D2dEnergyModel* model : group->members)
    {
        model->LeaveSiblings();
        model->m_siblings = group;
    }
    return m_siblings->members;
}

void
D2dEnergyModel::LeaveSiblings()
{
    if (m_siblings)
    {
        auto& members = m_siblings->members;
        members.erase(std::remove(members.begin(), members.end(), this), members.end());
        m_siblings.reset();
    }
}

double
D2dEnergyModel::GetSourcePowerW()
{
    double total = 0.0;
    for (const D2dEnergyModel* model : GetSiblings())
    {
        total += model->GetPowerW();
    }
    return total;
}

void
D2dEnergyModel::ScheduleDepletionCheck(double remainingJ)
{
    if (!m_source || m_depleted)
    {
        return;
    }
    double total = 0.0;
    uint64_t earliest = UINT64_MAX; // timestamp of the source's pending check, if any
    for (const D2dEnergyModel* model : GetSiblings())
    {
        total += model->GetPowerW();
        if (model->m_checkPending)
        {
            earliest = std::min(earliest, model->m_depletionCheck.GetTs());
        }
    }
    if (!(total > 0))
    {
        return; // nothing drawn: a pending check, if any, finds that out when it runs
    }
    const Time delay = CeilToTimeStep((remainingJ - m_depletionLevelJ) / total);
    const Time at = Simulator::Now() + delay;
    if (earliest <= static_cast<uint64_t>(at.GetTimeStep()))
    {
        return; // the pending check runs first and predicts again
    }
    NS_LOG_LOGIC("node " << m_node << ": " << remainingJ << " J at " << total
                         << " W, depletion check at " << at.As(Time::S));
    for (D2dEnergyModel* model : GetSiblings())
    {
        // Remove, not Cancel: a cancelled event would stay in the scheduler until its time,
        // and a busy device replaces its check at every rise of its draw.
        model->DropCheck(true);
    }
    m_depletionCheck = Simulator::Schedule(delay, &D2dEnergyModel::CheckDepletion, this);
    m_checkPending = true;
}

void
D2dEnergyModel::DropCheck(bool remove)
{
    if (!m_checkPending)
    {
        return;
    }
    m_checkPending = false;
    if (remove && !m_depletionCheck.IsExpired())
    {
        Simulator::Remove(m_depletionCheck);
    }
    else
    {
        m_depletionCheck.Cancel(); // does nothing once the simulator is destroyed
    }
}

void
D2dEnergyModel::CheckDepletion()
{
    NS_LOG_FUNCTION(this << m_node);
    m_checkPending = false;
    if (m_depleted || !m_source || m_inUpdate)
    {
        return;
    }
    Ptr<D2dEnergyModel> self(this); // depletion callbacks may drop other references
    Ptr<EnergySource> source = m_source;
    // Bring the source up to date: if it is empty, it calls HandleEnergyDepletion() on
    // every one of its models (this one included) from inside this call.
    m_inUpdate = true;
    const double remaining = source->GetRemainingEnergy();
    m_inUpdate = false;
    if (m_depleted || !m_source)
    {
        return;
    }
    m_siblingsStale = true; // a rare event: look the siblings up again
    const double total = GetSourcePowerW();
    if (!(total > 0))
    {
        return; // nothing drawn any more: the next change of draw predicts again
    }
    const double headroom = remaining - m_depletionLevelJ;
    if (!(headroom > kResidueJ + total * TimeStep(1).GetSeconds())) // NaN too: never loop
    {
        // Empty to within one time step of draw or the source's rounding, yet the source
        // did not report it: deplete the D2D models of the source now, in its list order.
        NS_LOG_LOGIC("node " << m_node << ": residue " << headroom << " J, depleted");
        // Ptr copies: depletion callbacks may dispose of models.
        const auto& siblings = GetSiblings();
        const std::vector<Ptr<D2dEnergyModel>> models(siblings.begin(), siblings.end());
        for (auto& model : models)
        {
            model->HandleEnergyDepletion();
        }
        return;
    }
    // The draw fell since the prediction (or a harvester fed the source): predict again.
    ScheduleDepletionCheck(remaining);
}

} // namespace ns3
