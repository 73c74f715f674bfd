/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-running-job.h"

#include "d2d-learner.h"

namespace ns3
{

void
D2dRunningJob::Begin(Time start, double flops, bool deferrable, Done done)
{
    m_running = true;
    m_start = start;
    m_flops = flops;
    m_deferrable = deferrable;
    m_done = done;
}

D2dRunningJob::Done
D2dRunningJob::End()
{
    m_running = false;
    m_deferrable = false;
    m_base = nullptr;
    auto done = m_done;
    m_done = Done();
    return done;
}

bool
D2dRunningJob::IsRunning() const
{
    return m_running;
}

Time
D2dRunningJob::GetStart() const
{
    return m_start;
}

double
D2dRunningJob::GetFlops() const
{
    return m_flops;
}

bool
D2dRunningJob::IsDeferrable() const
{
    return m_deferrable;
}

void
D2dRunningJob::KeepBase(std::shared_ptr<const std::vector<float>> base)
{
    m_base = std::move(base);
}

std::shared_ptr<const std::vector<float>>
D2dRunningJob::TakeBase()
{
    auto base = std::move(m_base);
    m_base = nullptr;
    return base;
}

} // namespace ns3
