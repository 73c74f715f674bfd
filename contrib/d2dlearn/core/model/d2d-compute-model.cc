/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-compute-model.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dComputeModel");
NS_OBJECT_ENSURE_REGISTERED(D2dComputeModel);

TypeId
D2dComputeModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dComputeModel")
            .SetParent<D2dEnergyModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dComputeModel>()
            .AddAttribute(
                "Model",
                "How a job is costed: Flops (F / FlopsPerSecond at BusyPowerW) or "
                "Cpu (c F / f seconds at (alpha/2) f^3: CyclesPerFlop, "
                "CpuFrequencyHz, SwitchedCapacitance).",
                EnumValue(D2dComputeModel::FLOPS),
                D2dMakeEnumAccessor(&D2dComputeModel::m_model),
                MakeEnumChecker(D2dComputeModel::FLOPS, "Flops", D2dComputeModel::CPU, "Cpu"))
            .AddAttribute("CpuFrequencyHz",
                          "CPU frequency f, Hz (Cpu model).",
                          DoubleValue(2e9),
                          MakeDoubleAccessor(&D2dComputeModel::m_cpuHz),
                          MakeDoubleChecker<double>(1.0, 1e12))
            .AddAttribute("CyclesPerFlop",
                          "CPU cycles per floating-point operation, c per FLOP (Cpu model).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&D2dComputeModel::m_cyclesPerFlop),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("SwitchedCapacitance",
                          "alpha/2 of the CPU energy (alpha/2) c D f^2, J per cycle per Hz^2 "
                          "(Cpu model).",
                          DoubleValue(2.5e-28),
                          MakeDoubleAccessor(&D2dComputeModel::m_capacitance),
                          MakeDoubleChecker<double>(0.0, 1e-15))
            .AddAttribute("FlopsPerSecond",
                          "Sustained compute speed, FLOP/s.",
                          DoubleValue(1e10),
                          MakeDoubleAccessor(&D2dComputeModel::m_flopsPerSecond),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("BusyPowerW",
                          "Power drawn while computing, W.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&D2dComputeModel::m_busyPowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("IdlePowerW",
                          "Power drawn by the compute unit while idle, W.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dComputeModel::m_idlePowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("SlowdownFactor",
                          "Multiplies every job's duration (>= 1 for stragglers).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dComputeModel::m_slowdown),
                          MakeDoubleChecker<double>(1e-6))
            .AddTraceSource("JobDone",
                            "A compute job completed: (job id, start, end).",
                            MakeTraceSourceAccessor(&D2dComputeModel::m_jobDoneTrace),
                            "ns3::D2dComputeModel::JobDoneTracedCallback");
    return tid;
}

D2dComputeModel::D2dComputeModel()
{
    NS_LOG_FUNCTION(this);
}

void
D2dComputeModel::DoDispose()
{
    m_completion.Cancel();
    m_queue.clear();
    m_running = Job{};
    D2dEnergyModel::DoDispose();
}

Time
D2dComputeModel::GetJobDuration(double flops) const
{
    if (m_model == CPU)
    {
        // Tran et al. 2019, Yang et al. 2021: time c D / f for c D = CyclesPerFlop x F cycles.
        return Seconds(m_cyclesPerFlop * flops / m_cpuHz * m_slowdown);
    }
    return Seconds(flops / m_flopsPerSecond * m_slowdown);
}

double
D2dComputeModel::GetBusyPowerW() const
{
    if (m_model == CPU)
    {
        // Energy (alpha/2) c D f^2 over time c D / f: a draw of (alpha/2) f^3.
        return m_capacitance * m_cpuHz * m_cpuHz * m_cpuHz;
    }
    return m_busyPowerW;
}

uint64_t
D2dComputeModel::StartJob(double flops, Callback<void> done, Callback<void> lost)
{
    NS_LOG_FUNCTION(this << flops);
    NS_ABORT_MSG_IF(flops < 0, "D2dComputeModel::StartJob: flops must be >= 0, got " << flops);
    if (IsDepleted() || m_away)
    {
        return 0;
    }
    const uint64_t id = m_nextJobId++;
    m_queue.push_back(Job{id, flops, done, lost});
    RunNext();
    return id;
}

void
D2dComputeModel::Leave()
{
    NS_LOG_FUNCTION(this);
    if (m_away || IsDepleted())
    {
        m_away = true;
        return;
    }
    m_away = true;
    std::vector<Callback<void>> lost;
    if (m_busy)
    {
        m_completion.Cancel();
        lost.push_back(m_running.lost);
        m_running = Job{};
        m_busy = false;
    }
    for (const Job& job : m_queue)
    {
        lost.push_back(job.lost);
    }
    m_queue.clear();
    SetDraw("compute", 0.0);
    for (auto& cb : lost)
    {
        if (!cb.IsNull())
        {
            cb();
        }
    }
}

void
D2dComputeModel::Rejoin()
{
    NS_LOG_FUNCTION(this);
    if (!m_away)
    {
        return;
    }
    m_away = false;
    if (!IsDepleted())
    {
        SetDraw("compute", m_idlePowerW);
    }
}

bool
D2dComputeModel::IsAway() const
{
    return m_away;
}

void
D2dComputeModel::EnableAvailability()
{
    m_mayLeave = true;
}

bool
D2dComputeModel::HasAvailability() const
{
    return m_mayLeave;
}

bool
D2dComputeModel::IsBusy() const
{
    return m_busy;
}

Time
D2dComputeModel::GetIdleTime() const
{
    Time end = Simulator::Now();
    if (m_busy)
    {
        end += Simulator::GetDelayLeft(m_completion);
        for (const Job& job : m_queue)
        {
            end += GetJobDuration(job.flops); // as RunNext() will schedule it
        }
    }
    return end;
}

std::size_t
D2dComputeModel::GetNQueued() const
{
    return m_queue.size();
}

void
D2dComputeModel::Start()
{
    if (!m_busy)
    {
        SetDraw("compute", m_idlePowerW);
    }
}

void
D2dComputeModel::RunNext()
{
    if (m_busy || m_queue.empty() || IsDepleted() || m_away)
    {
        return;
    }
    m_running = m_queue.front();
    m_queue.pop_front();
    m_busy = true;
    m_runningStart = Simulator::Now();
    SetDraw("compute", GetBusyPowerW());
    if (IsDepleted())
    {
        return;
    }
    m_completion =
        Simulator::Schedule(GetJobDuration(m_running.flops), &D2dComputeModel::Complete, this);
}

void
D2dComputeModel::Complete()
{
    NS_LOG_FUNCTION(this << m_running.id);
    m_busy = false;
    SetDraw("compute", m_idlePowerW);
    if (IsDepleted())
    {
        return; // the battery ran out during the job: it never completes
    }
    Job job = m_running;
    m_running = Job{};
    m_jobDoneTrace(job.id, m_runningStart, Simulator::Now());
    if (!job.done.IsNull())
    {
        job.done();
    }
    RunNext();
}

void
D2dComputeModel::DoDepletion()
{
    NS_LOG_FUNCTION(this);
    m_completion.Cancel();
    m_queue.clear();
    m_busy = false;
    m_running = Job{};
}

} // namespace ns3
