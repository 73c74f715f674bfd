/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-compute-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
    return Seconds(flops / m_flopsPerSecond * m_slowdown);
}

uint64_t
D2dComputeModel::StartJob(double flops, Callback<void> done)
{
    NS_LOG_FUNCTION(this << flops);
    NS_ABORT_MSG_IF(flops < 0, "D2dComputeModel::StartJob: flops must be >= 0, got " << flops);
    if (IsDepleted())
    {
        return 0;
    }
    const uint64_t id = m_nextJobId++;
    m_queue.push_back(Job{id, flops, done});
    RunNext();
    return id;
}

bool
D2dComputeModel::IsBusy() const
{
    return m_busy;
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
    if (m_busy || m_queue.empty() || IsDepleted())
    {
        return;
    }
    m_running = m_queue.front();
    m_queue.pop_front();
    m_busy = true;
    m_runningStart = Simulator::Now();
    SetDraw("compute", m_busyPowerW);
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
