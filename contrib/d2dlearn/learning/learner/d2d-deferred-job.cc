/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-deferred-job.h"

#include "d2d-torch-runtime.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <deque>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dDeferredJob");

namespace
{
uint32_t g_maxResident = 32;
/** Results resident; atomic: the last reference to a job may go on a worker. */
std::atomic<uint64_t> g_resident{0};
uint64_t g_peak = 0;
uint64_t g_onDemand = 0;
/** Jobs not started yet, in submission order (weak: a job nobody holds is not run). */
std::deque<std::weak_ptr<D2dDeferredJob>> g_queue;
} // namespace

std::shared_ptr<D2dDeferredJob>
D2dDeferredJob::Create(Work work)
{
    std::shared_ptr<D2dDeferredJob> job(new D2dDeferredJob(std::move(work)));
    g_queue.push_back(job);
    Pump();
    return job;
}

D2dDeferredJob::D2dDeferredJob(Work work)
    : m_work(std::move(work)),
      m_claim(std::make_shared<Claim>()),
      m_future(m_claim->done.get_future().share())
{
}

D2dDeferredJob::~D2dDeferredJob()
{
    if (m_resident)
    {
        --g_resident;
    }
}

void
D2dDeferredJob::SetDoneHook(std::function<void()> done)
{
    m_done = std::move(done);
}

void
D2dDeferredJob::MarkStarted()
{
    NS_ASSERT(!m_started);
    m_started = true;
    if (!m_released)
    {
        m_resident = true;
        g_peak = std::max<uint64_t>(g_peak, ++g_resident);
    }
}

std::exception_ptr
D2dDeferredJob::RunClaimed()
{
    // The work is moved out so that it (and what it captured) goes once it has run.
    auto work = std::move(m_work);
    m_work = nullptr;
    std::exception_ptr error;
    try
    {
        auto out = work();
        if (!m_released) // set (if at all) before the work started
        {
            m_out = std::move(out);
        }
    }
    catch (...)
    {
        error = std::current_exception();
    }
    work = nullptr;
    return error;
}

void
D2dDeferredJob::Fulfil(Claim& claim, std::exception_ptr error)
{
    if (error)
    {
        claim.done.set_exception(error);
    }
    else
    {
        claim.done.set_value();
    }
}

void
D2dDeferredJob::Prefetch()
{
    if (!m_started && !m_released)
    {
        MarkStarted();
        // A worker that takes the task after a consumer has run the work (or after
        // D2dTorchRuntime::Shutdown dropped it) finds it claimed; one that runs it lets go of
        // the job before the claim is fulfilled (see the class).
        D2dTorchRuntime::Submit([job = weak_from_this(), claim = m_claim]() {
            if (claim->claimed.exchange(true, std::memory_order_acq_rel))
            {
                return;
            }
            std::exception_ptr error;
            if (auto self = job.lock()) // else nobody holds it: nobody will read it
            {
                error = self->RunClaimed();
            }
            Fulfil(*claim, error);
        });
    }
}

void
D2dDeferredJob::Pump()
{
    while (!g_queue.empty() && g_resident.load() < g_maxResident)
    {
        auto job = g_queue.front().lock();
        g_queue.pop_front();
        if (job)
        {
            job->Prefetch();
        }
    }
}

void
D2dDeferredJob::Wait()
{
    if (!m_started)
    {
        ++g_onDemand;
        MarkStarted();
    }
    // The consumer needs it now: run it here if no worker has taken it (not started, queued
    // behind others, or dropped by D2dTorchRuntime::Shutdown) rather than wait for one.
    if (!m_claim->claimed.exchange(true, std::memory_order_acq_rel))
    {
        Fulfil(*m_claim, RunClaimed());
    }
    m_future.get(); // waits for a worker running it; rethrows the work's exception
    if (!m_waited)
    {
        m_waited = true;
        auto done = std::move(m_done);
        m_done = nullptr;
        if (done)
        {
            done();
        }
    }
}

std::shared_ptr<const std::vector<float>>
D2dDeferredJob::Get()
{
    NS_ABORT_MSG_IF(m_released, "D2dDeferredJob: result read after Release");
    Wait();
    return m_out;
}

void
D2dDeferredJob::Release()
{
    if (m_released)
    {
        return;
    }
    if (m_started)
    {
        Wait(); // the work may still be writing the result
    }
    m_released = true;
    m_out.reset();
    if (m_resident)
    {
        m_resident = false;
        --g_resident;
    }
    Pump();
}

bool
D2dDeferredJob::IsStarted() const
{
    return m_started;
}

bool
D2dDeferredJob::IsReleased() const
{
    return m_released;
}

void
D2dDeferredJob::SetMaxResident(uint32_t count)
{
    NS_ABORT_MSG_IF(count == 0, "D2dDeferredJob: MaxResident must be at least 1");
    g_maxResident = count;
    Pump();
}

uint32_t
D2dDeferredJob::GetMaxResident()
{
    return g_maxResident;
}

uint64_t
D2dDeferredJob::GetResident()
{
    return g_resident.load();
}

uint64_t
D2dDeferredJob::GetPeakResident()
{
    return g_peak;
}

void
D2dDeferredJob::ResetPeakResident()
{
    g_peak = g_resident.load();
}

uint64_t
D2dDeferredJob::GetStartedOnDemand()
{
    return g_onDemand;
}

} // namespace ns3
