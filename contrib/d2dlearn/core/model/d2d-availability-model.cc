/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-availability-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dAvailabilityModel");
NS_OBJECT_ENSURE_REGISTERED(D2dAvailabilityModel);

namespace
{
/** The draws' purpose, mixed into every draw ("AVAI"). */
constexpr uint64_t PURPOSE = 0x41564149;

/** \return SplitMix64's output function (Steele, Lea, Flood 2014) of x */
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

TypeId
D2dAvailabilityModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dAvailabilityModel")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dAvailabilityModel>()
            .AddAttribute("MeanOnTime",
                          "Mean of a device's available periods (exponential); 0: every device "
                          "is always available",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&D2dAvailabilityModel::m_meanOn),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MeanOffTime",
                          "Mean of a device's away periods (exponential); 0: every device is "
                          "always available",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&D2dAvailabilityModel::m_meanOff),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Seed",
                          "Seed of the periods' draws (the scenario's --seed)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dAvailabilityModel::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("StateChange",
                            "A device became available or went away: (device, available).",
                            MakeTraceSourceAccessor(&D2dAvailabilityModel::m_stateTrace),
                            "ns3::D2dAvailabilityModel::StateChangeTracedCallback");
    return tid;
}

D2dAvailabilityModel::D2dAvailabilityModel()
{
    NS_LOG_FUNCTION(this);
}

void
D2dAvailabilityModel::DoDispose()
{
    m_callbacks.clear();
    Object::DoDispose();
}

void
D2dAvailabilityModel::SetIntervals(std::vector<Intervals> intervals)
{
    for (std::size_t i = 0; i < intervals.size(); ++i)
    {
        Time last = Seconds(0);
        for (const auto& [start, end] : intervals[i])
        {
            NS_ABORT_MSG_IF(start < last || end <= start,
                            "D2dAvailabilityModel: device " << i
                                                            << "'s intervals must be ascending, "
                                                               "disjoint and non-empty");
            last = end;
        }
    }
    m_intervals = std::move(intervals);
}

void
D2dAvailabilityModel::Install(uint32_t nDevices)
{
    NS_ABORT_MSG_IF(!m_intervals.empty() && m_intervals.size() != nDevices,
                    "D2dAvailabilityModel: intervals for " << m_intervals.size() << " devices, "
                                                           << nDevices << " installed");
    m_available.assign(nDevices, true);
    m_draws.assign(nDevices, 0);
    m_nAvailable = nDevices;
}

bool
D2dAvailabilityModel::IsActive() const
{
    return !m_intervals.empty() ||
           (m_meanOn.IsStrictlyPositive() && m_meanOff.IsStrictlyPositive());
}

double
D2dAvailabilityModel::Uniform(uint64_t seed, uint32_t device, uint64_t k)
{
    const uint64_t x = Mix(Mix(Mix(seed ^ PURPOSE) ^ device) ^ k);
    // 53 bits, centred in their interval: never 0 nor 1.
    return (static_cast<double>(x >> 11) + 0.5) * 0x1.0p-53;
}

double
D2dAvailabilityModel::Exponential(double mean, double u)
{
    return -mean * std::log(u);
}

double
D2dAvailabilityModel::NextPeriod(uint32_t device)
{
    const double mean = m_available[device] ? m_meanOn.GetSeconds() : m_meanOff.GetSeconds();
    return Exponential(mean, Uniform(m_seed, device, m_draws[device]++));
}

void
D2dAvailabilityModel::Start()
{
    NS_LOG_FUNCTION(this);
    if (!IsActive())
    {
        return;
    }
    const auto n = static_cast<uint32_t>(m_available.size());
    const bool trace = !m_intervals.empty();
    const double on = m_meanOn.GetSeconds();
    const double off = m_meanOff.GetSeconds();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (trace)
        {
            // m_draws[i]: the next boundary, 2 j (start of interval j) or 2 j + 1 (its end).
            const Intervals& list = m_intervals[i];
            if (list.empty())
            {
                continue; // not in the trace: always available
            }
            m_available[i] = list.front().first.IsZero();
            m_draws[i] = m_available[i] ? 1 : 0;
            const Time next = m_available[i] ? list.front().second : list.front().first;
            Simulator::Schedule(next, &D2dAvailabilityModel::Set, this, i, !m_available[i]);
            continue;
        }
        // Stationary start: available with probability on / (on + off) (draw 0); the rest of
        // the first period is a whole period's law (memoryless).
        m_available[i] = Uniform(m_seed, i, 0) < on / (on + off);
        m_draws[i] = 1;
        Simulator::Schedule(Seconds(NextPeriod(i)), &D2dAvailabilityModel::Flip, this, i);
    }
    m_nAvailable = 0;
    for (bool a : m_available)
    {
        m_nAvailable += a ? 1 : 0;
    }
    Simulator::ScheduleNow(&D2dAvailabilityModel::InitialLeaves, this);
}

void
D2dAvailabilityModel::InitialLeaves()
{
    for (uint32_t i = 0; i < m_available.size(); ++i)
    {
        if (!m_available[i])
        {
            m_stateTrace(i, false);
            for (const auto& cb : m_callbacks)
            {
                cb(i, false);
            }
        }
    }
}

void
D2dAvailabilityModel::Flip(uint32_t device)
{
    m_available[device] = !m_available[device];
    m_nAvailable = m_available[device] ? m_nAvailable + 1 : m_nAvailable - 1;
    Simulator::Schedule(Seconds(NextPeriod(device)), &D2dAvailabilityModel::Flip, this, device);
    NS_LOG_INFO("device " << device << (m_available[device] ? " comes back" : " leaves"));
    m_stateTrace(device, m_available[device]);
    for (const auto& cb : m_callbacks)
    {
        cb(device, m_available[device]);
    }
}

void
D2dAvailabilityModel::Set(uint32_t device, bool available)
{
    m_available[device] = available;
    m_nAvailable = available ? m_nAvailable + 1 : m_nAvailable - 1;
    // The next boundary: the end of this interval, or the start of the next one.
    const Intervals& list = m_intervals[device];
    const uint32_t next = ++m_draws[device];
    if (next / 2 < list.size())
    {
        const Time at = next % 2 == 0 ? list[next / 2].first : list[next / 2].second;
        Simulator::Schedule(at - Simulator::Now(),
                            &D2dAvailabilityModel::Set,
                            this,
                            device,
                            next % 2 == 0);
    }
    m_stateTrace(device, available);
    for (const auto& cb : m_callbacks)
    {
        cb(device, available);
    }
}

bool
D2dAvailabilityModel::IsAvailable(uint32_t device) const
{
    return device >= m_available.size() || m_available[device];
}

uint32_t
D2dAvailabilityModel::GetNAvailable() const
{
    return m_nAvailable;
}

uint32_t
D2dAvailabilityModel::GetNDevices() const
{
    return static_cast<uint32_t>(m_available.size());
}

void
D2dAvailabilityModel::AddStateCallback(std::function<void(uint32_t, bool)> cb)
{
    m_callbacks.push_back(std::move(cb));
}

} // namespace ns3
