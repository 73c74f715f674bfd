/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-drx.h"

#include "d2d-channel-access.h"
#include "d2d-channel.h"
#include "d2d-radio-energy-model.h"
#include "d2d-radio.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dDrx");
NS_OBJECT_ENSURE_REGISTERED(D2dDrx);

TypeId
D2dDrx::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dDrx")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dDrx>()
            .AddAttribute("Cycle",
                          "DRX cycle: an on-duration starts every Cycle, from time 0 (3GPP "
                          "TS 38.321's drx-LongCycle); 0: no cycle, the radios sleep only "
                          "when their device asks (SleepUntil).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&D2dDrx::m_cycle),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("OnDuration",
                          "Listening time at the start of each cycle (drx-onDurationTimer); "
                          "at most Cycle.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&D2dDrx::m_onDuration),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("InactivityTimer",
                          "How long a radio stays awake after its last transmission or "
                          "reception ends (drx-InactivityTimer).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&D2dDrx::m_inactivity),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

D2dDrx::D2dDrx()
{
    NS_LOG_FUNCTION(this);
}

D2dDrx::~D2dDrx()
{
    NS_LOG_FUNCTION(this);
}

void
D2dDrx::DoDispose()
{
    for (auto& r : m_radios)
    {
        r.event.Cancel();
    }
    m_radios.clear();
    m_channel = nullptr;
    Object::DoDispose();
}

Time
D2dDrx::GetCycle() const
{
    return m_cycle;
}

Time
D2dDrx::GetOnDuration() const
{
    return m_onDuration;
}

Time
D2dDrx::GetInactivityTimer() const
{
    return m_inactivity;
}

void
D2dDrx::Setup(D2dChannel* channel)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(HasCycle() && m_onDuration > m_cycle,
                    "D2dDrx: OnDuration " << m_onDuration.As(Time::MS) << " is longer than Cycle "
                                          << m_cycle.As(Time::MS));
    m_channel = channel;
    // Every radio index (GetNRadios() counts them: O(N), once).
    const auto transports = channel->GetTransports();
    for (uint32_t i = 0; i < transports.size(); ++i)
    {
        if (transports[i])
        {
            AddRadio(i);
        }
    }
}

void
D2dDrx::AddRadio(uint32_t index)
{
    if (HasCycle()) // without, a radio is followed from its first SleepUntil
    {
        Grow(index);
        ScheduleCheck(index);
    }
}

bool
D2dDrx::HasCycle() const
{
    return m_cycle.IsStrictlyPositive();
}

void
D2dDrx::Grow(uint32_t index)
{
    if (index >= m_radios.size())
    {
        m_radios.resize(index + 1);
    }
}

Time
D2dDrx::NextOnStart(Time t) const
{
    if (!HasCycle())
    {
        return t;
    }
    const int64_t c = m_cycle.GetTimeStep();
    const int64_t k = (t.GetTimeStep() + c - 1) / c;
    return TimeStep(k * c);
}

bool
D2dDrx::InOnDuration(Time t) const
{
    return !HasCycle() || t.GetTimeStep() % m_cycle.GetTimeStep() < m_onDuration.GetTimeStep();
}

bool
D2dDrx::IsAwake(uint32_t index) const
{
    return index >= m_radios.size() || m_radios[index].state == AWAKE;
}

Time
D2dDrx::GetWakeTime(uint32_t index) const
{
    return IsAwake(index) ? Simulator::Now() : m_radios[index].wakeAt;
}

Time
D2dDrx::HalfTransition(uint32_t index) const
{
    return m_channel->GetRadio(index)->GetEnergyModel()->GetSleepTransitionTime() / 2;
}

bool
D2dDrx::Sleeps(uint32_t index) const
{
    Ptr<D2dRadio> radio = m_channel->GetRadio(index);
    // A radio without energy model is mains powered (the server's): it never sleeps.
    return radio && radio->GetEnergyModel() && !radio->IsOff();
}

void
D2dDrx::SetState(uint32_t index, State state)
{
    m_radios[index].state = state;
    Ptr<D2dRadio> radio = m_channel->GetRadio(index);
    if (radio->IsOff())
    {
        return;
    }
    radio->GetEnergyModel()->NotifySleepState(state == AWAKE    ? D2dRadioEnergyModel::AWAKE
                                              : state == ASLEEP ? D2dRadioEnergyModel::ASLEEP
                                                                : D2dRadioEnergyModel::TRANSITION);
}

void
D2dDrx::Activity(uint32_t index)
{
    if (index >= m_radios.size())
    {
        return;
    }
    m_radios[index].activeUntil = Simulator::Now() + m_inactivity;
    m_radios[index].toSend = false;
    ScheduleCheck(index);
}

void
D2dDrx::Rejoined(uint32_t index)
{
    if (index < m_radios.size())
    {
        SetState(index, m_radios[index].state);
        ScheduleCheck(index);
    }
}

void
D2dDrx::Released(uint32_t index)
{
    if (index < m_radios.size())
    {
        ScheduleCheck(index);
    }
}

void
D2dDrx::ScheduleCheck(uint32_t index)
{
    Radio& r = m_radios[index];
    if (r.state != AWAKE)
    {
        return;
    }
    const Time now = Simulator::Now();
    Time end = r.activeUntil;
    if (r.holdUntil > now)
    {
        end = now; // its device expects nothing: sleep as soon as it is free
    }
    else if (!HasCycle())
    {
        r.event.Cancel(); // no cycle: it listens
        return;
    }
    else if (InOnDuration(now))
    {
        // The active time ends with the on-duration or the inactivity timer, the later one.
        const int64_t c = m_cycle.GetTimeStep();
        end = std::max(end, TimeStep(now.GetTimeStep() / c * c) + m_onDuration);
    }
    r.event.Cancel();
    r.event = Simulator::Schedule(std::max(end, now) - now, &D2dDrx::Check, this, index);
}

void
D2dDrx::Check(uint32_t index)
{
    Radio& r = m_radios[index];
    if (r.state != AWAKE || !Sleeps(index))
    {
        return;
    }
    Ptr<D2dRadio> radio = m_channel->GetRadio(index);
    // Busy (sending, receiving, or held by the channel access for a transmission whose
    // outcome is open): the end of that activity (Activity()) checks again.
    if (radio->IsTransmitting() || radio->GetNReceptions() > 0 ||
        m_channel->GetAccess()->IsReserved(index))
    {
        return;
    }
    // Woken to send: it stays awake until its message went on the air (the end of that
    // transmission checks again), or it would fall asleep before the channel access starts it.
    if (r.toSend && m_channel->GetAccess()->GetQueueLength(index) > 0)
    {
        return;
    }
    r.toSend = false;
    const Time now = Simulator::Now();
    const bool held = r.holdUntil > now;
    if (!held && (now < r.activeUntil || InOnDuration(now)))
    {
        ScheduleCheck(index);
        return;
    }
    // Held: asleep until its device needs it, and with a cycle on to the cycle's next
    // on-duration (a message of its own wakes it earlier: RequestWake).
    const Time wake = held ? NextOnStart(r.holdUntil) : NextOnStart(now);
    const Time half = HalfTransition(index);
    if (held && wake - now < half * 2)
    {
        // Too short to sleep: the request lapses, the cycle (if any) goes on.
        r.holdUntil = Time(0);
        ScheduleCheck(index);
        return;
    }
    if (wake - now < half * 2)
    {
        // Too short to sleep (the ramps would not fit): listen through to the on-duration.
        r.event = Simulator::Schedule(wake + m_onDuration - now, &D2dDrx::Check, this, index);
        return;
    }
    NS_LOG_LOGIC("radio " << index << " sleeps until " << wake.As(Time::S));
    r.wakeAt = wake;
    r.wakeAsked = false;
    if (half.IsStrictlyPositive())
    {
        SetState(index, RAMP_DOWN);
        r.event = Simulator::Schedule(half, &D2dDrx::RampDownEnd, this, index);
    }
    else
    {
        SetState(index, ASLEEP);
        r.event = Simulator::Schedule(wake - now, &D2dDrx::Wake, this, index);
    }
}

void
D2dDrx::RampDownEnd(uint32_t index)
{
    Radio& r = m_radios[index];
    if (r.wakeAsked || r.wakeAt - Simulator::Now() <= HalfTransition(index))
    {
        RampUpStart(index);
        return;
    }
    SetState(index, ASLEEP);
    r.event = Simulator::Schedule(r.wakeAt - HalfTransition(index) - Simulator::Now(),
                                  &D2dDrx::RampUpStart,
                                  this,
                                  index);
}

void
D2dDrx::RampUpStart(uint32_t index)
{
    Radio& r = m_radios[index];
    const Time half = HalfTransition(index);
    r.wakeAt = Simulator::Now() + half;
    if (!half.IsStrictlyPositive())
    {
        Wake(index);
        return;
    }
    SetState(index, RAMP_UP);
    r.event = Simulator::Schedule(half, &D2dDrx::Wake, this, index);
}

void
D2dDrx::Wake(uint32_t index)
{
    NS_LOG_LOGIC("radio " << index << " awake");
    Radio& r = m_radios[index];
    r.wakeAsked = false;
    SetState(index, AWAKE);
    ScheduleCheck(index);
    m_channel->GetAccess()->RadioAwake(m_channel->GetRadio(index));
}

void
D2dDrx::SleepUntil(uint32_t index, Time until)
{
    const Time now = Simulator::Now();
    if (until <= now || !Sleeps(index))
    {
        return;
    }
    Grow(index);
    Radio& r = m_radios[index];
    r.holdUntil = until;
    switch (r.state)
    {
    case AWAKE:
        ScheduleCheck(index); // now, or when its activity ends
        break;
    case RAMP_DOWN:
        if (!r.wakeAsked)
        {
            r.wakeAt = NextOnStart(until); // RampDownEnd() sleeps until then
        }
        break;
    case ASLEEP:
        if (!r.toSend)
        {
            // Asleep already (until the cycle's next on-duration): until the first one at or
            // after `until` instead (`until` itself without a cycle).
            r.wakeAt = NextOnStart(until);
            r.event.Cancel();
            r.event = Simulator::Schedule(std::max(r.wakeAt - HalfTransition(index), now) - now,
                                          &D2dDrx::RampUpStart,
                                          this,
                                          index);
        }
        break;
    case RAMP_UP:
        break; // awake soon; its check then sleeps again until `until`
    }
}

Time
D2dDrx::RequestWake(uint32_t index)
{
    if (IsAwake(index))
    {
        return Simulator::Now();
    }
    Radio& r = m_radios[index];
    r.toSend = true;
    const Time now = Simulator::Now();
    if (r.state == RAMP_DOWN)
    {
        // The ramp-down goes on; then straight back up.
        r.wakeAsked = true;
        const Time downEnd = Simulator::GetDelayLeft(r.event) + now;
        return std::min(r.wakeAt, downEnd + HalfTransition(index));
    }
    if (r.state == ASLEEP && now + HalfTransition(index) < r.wakeAt)
    {
        r.event.Cancel();
        r.event = Simulator::ScheduleNow(&D2dDrx::RampUpStart, this, index);
        return now + HalfTransition(index);
    }
    return r.wakeAt; // ramping up already, or its planned wake is as early
}

} // namespace ns3
