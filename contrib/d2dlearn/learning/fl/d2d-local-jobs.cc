/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-local-jobs.h"

namespace ns3
{

void
D2dLocalJobs::SetEpochs(uint32_t epochs)
{
    m_epochs = epochs;
}

uint32_t
D2dLocalJobs::GetEpochs() const
{
    return m_epochs;
}

void
D2dLocalJobs::SetSteps(uint64_t steps)
{
    m_steps = steps;
}

uint64_t
D2dLocalJobs::GetSteps() const
{
    return m_steps;
}

void
D2dLocalJobs::SetSleepWhileTraining(bool sleep)
{
    m_sleepWhileTraining = sleep;
}

bool
D2dLocalJobs::GetSleepWhileTraining() const
{
    return m_sleepWhileTraining;
}

D2dTrainTask
D2dLocalJobs::Task() const
{
    D2dTrainTask task;
    task.epochs = m_epochs;
    task.maxSteps = m_steps;
    return task;
}

void
D2dLocalJobs::Revive(uint32_t n)
{
    m_dead.assign(n, false);
}

void
D2dLocalJobs::MarkDead(uint32_t device)
{
    if (m_dead.size() <= device)
    {
        m_dead.resize(device + 1, false);
    }
    m_dead[device] = true;
}

bool
D2dLocalJobs::IsDead(uint32_t device) const
{
    return device < m_dead.size() && m_dead[device];
}

std::vector<uint32_t>
D2dLocalJobs::Live(uint32_t n) const
{
    std::vector<uint32_t> live;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!IsDead(i))
        {
            live.push_back(i);
        }
    }
    return live;
}

std::set<uint32_t>
D2dLocalJobs::Start(const Learners& learners,
                    const D2dTrainTask& task,
                    const std::function<void(uint32_t, const D2dTrainResult&)>& done,
                    const std::function<void(uint32_t, D2dTrainTask&)>& adjust)
{
    std::set<uint32_t> started;
    for (uint32_t i = 0; i < learners.size(); ++i)
    {
        if (IsDead(i) || learners[i]->IsTraining() || learners[i]->IsAway())
        {
            continue; // depleted, a straggler still on an earlier round's job, or away
        }
        D2dTrainTask own = task; // a few scalars and shared pointers
        if (adjust)
        {
            adjust(i, own);
        }
        if (learners[i]->Train(own, [done, i](const D2dTrainResult& r) { done(i, r); }))
        {
            started.insert(i);
        }
        else
        {
            MarkDead(i);
        }
    }
    return started;
}

} // namespace ns3
