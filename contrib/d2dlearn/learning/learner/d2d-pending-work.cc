/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-pending-work.h"

namespace ns3
{

void
D2dPendingWork::Hold(std::shared_ptr<D2dDeferredJob> job, std::function<void()> done)
{
    m_releaseAfter = false;
    m_job = std::move(job);
    m_job->SetDoneHook(std::move(done));
}

const std::shared_ptr<D2dDeferredJob>&
D2dPendingWork::Job() const
{
    return m_job;
}

void
D2dPendingWork::Ended(Time start, Time end, double flops)
{
    m_start = start;
    m_end = end;
    m_flops = flops;
}

Time
D2dPendingWork::GetStart() const
{
    return m_start;
}

Time
D2dPendingWork::GetEnd() const
{
    return m_end;
}

double
D2dPendingWork::GetFlops() const
{
    return m_flops;
}

void
D2dPendingWork::Settle()
{
    if (m_job)
    {
        auto job = m_job; // Wait() calls the done hook, which forgets m_job
        job->Wait();
        m_job = nullptr;
    }
}

void
D2dPendingWork::Abandon()
{
    if (m_job)
    {
        auto job = std::move(m_job);
        m_job = nullptr;
        job->SetDoneHook(nullptr); // no TrainingDone: the job did not complete
        job->Wait();
        job->Release();
    }
}

void
D2dPendingWork::Forget()
{
    m_job = nullptr;
}

void
D2dPendingWork::Report(const std::function<void()>& report)
{
    m_reporting = true;
    report();
    m_reporting = false;
}

bool
D2dPendingWork::Reporting() const
{
    return m_reporting;
}

void
D2dPendingWork::ReleaseAfter()
{
    m_releaseAfter = true;
}

bool
D2dPendingWork::ReleasesAfter() const
{
    return m_releaseAfter;
}

bool
D2dPendingWork::TakeReleaseAfter()
{
    const bool release = m_releaseAfter;
    m_releaseAfter = false;
    return release;
}

void
D2dPendingWork::SetWeights(D2dLearner::WeightsThunk compute)
{
    m_weights = std::move(compute);
    m_releaseAfter = false; // the pending work's weights are replaced
}

bool
D2dPendingWork::HasWeights() const
{
    return static_cast<bool>(m_weights);
}

D2dLearner::WeightsThunk
D2dPendingWork::TakeWeights()
{
    auto compute = std::move(m_weights); // the thunk (and what it holds) goes once it has run
    m_weights = nullptr;
    return compute;
}

void
D2dPendingWork::DropWeights()
{
    m_weights = nullptr;
}

void
D2dPendingWork::Drop()
{
    if (m_job)
    {
        m_job->SetDoneHook(nullptr);
        m_job = nullptr;
    }
    m_weights = nullptr;
}

} // namespace ns3
