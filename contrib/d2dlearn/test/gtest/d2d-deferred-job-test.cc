/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * D2dDeferredJob: the look-ahead starts queued jobs in submission order while fewer than
 * MaxResident results are resident; a consumer needing a job not started runs it at once
 * in its own thread; Release frees its place; a job released before it started runs when
 * waited for and leaves no resident result; the done hook runs once.
 */
#include "ns3/d2d-deferred-job.h"
#include "ns3/d2d-torch-runtime.h"

#include <gtest/gtest.h>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace
{

using ns3::D2dDeferredJob;

/** The jobs' run order (the work runs on workers: guarded). */
struct RunLog
{
    std::mutex mutex;
    std::vector<int> order;
    std::vector<std::thread::id> threads;
};

D2dDeferredJob::Work
Recording(RunLog& log, int id)
{
    return [&log, id]() {
        {
            std::lock_guard<std::mutex> lock(log.mutex);
            log.order.push_back(id);
            log.threads.push_back(std::this_thread::get_id());
        }
        return std::make_shared<const std::vector<float>>(3, static_cast<float>(id));
    };
}

class D2dDeferredJobTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        ns3::D2dTorchRuntime::SetWorkers(2);
        m_before = D2dDeferredJob::GetResident();
        m_maxBefore = D2dDeferredJob::GetMaxResident();
    }

    void TearDown() override
    {
        D2dDeferredJob::SetMaxResident(m_maxBefore);
    }

    uint64_t m_before{0};
    uint32_t m_maxBefore{32};
};

TEST_F(D2dDeferredJobTest, LookAheadStartsInOrderUpToTheLimit)
{
    D2dDeferredJob::SetMaxResident(2);
    RunLog log;
    std::vector<std::shared_ptr<D2dDeferredJob>> jobs;
    for (int i = 0; i < 5; ++i)
    {
        jobs.push_back(D2dDeferredJob::Create(Recording(log, i)));
    }
    // Two started (the limit), three queued.
    EXPECT_TRUE(jobs[0]->IsStarted());
    EXPECT_TRUE(jobs[1]->IsStarted());
    EXPECT_FALSE(jobs[2]->IsStarted());
    EXPECT_FALSE(jobs[4]->IsStarted());
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before + 2);
    // Consuming job 0 frees a place: job 2 (the oldest queued) starts, not 3 or 4.
    EXPECT_EQ((*jobs[0]->Get())[0], 0.0f);
    jobs[0]->Release();
    EXPECT_TRUE(jobs[0]->IsReleased());
    EXPECT_TRUE(jobs[2]->IsStarted());
    EXPECT_FALSE(jobs[3]->IsStarted());
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before + 2);
    // A consumer that needs job 4 (not started) runs it at once, in its own thread, above
    // the limit: no deadlock.
    const uint64_t onDemand = D2dDeferredJob::GetStartedOnDemand();
    EXPECT_EQ((*jobs[4]->Get())[0], 4.0f);
    EXPECT_EQ(D2dDeferredJob::GetStartedOnDemand(), onDemand + 1);
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before + 3);
    {
        std::lock_guard<std::mutex> lock(log.mutex);
        bool found = false;
        for (std::size_t i = 0; i < log.order.size(); ++i)
        {
            if (log.order[i] == 4)
            {
                found = true;
                EXPECT_EQ(log.threads[i], std::this_thread::get_id());
            }
        }
        EXPECT_TRUE(found);
    }
    // Job 3 released before it started: the look-ahead skips it when places free up.
    jobs[3]->Release();
    for (auto& job : jobs)
    {
        job->Release();
    }
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before);
    // It runs when waited for (its work's side effects are needed), leaving nothing
    // resident.
    EXPECT_FALSE(jobs[3]->IsStarted());
    jobs[3]->Wait();
    EXPECT_TRUE(jobs[3]->IsStarted());
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before);
    std::lock_guard<std::mutex> lock(log.mutex);
    EXPECT_EQ(log.order.size(), 5u);
}

TEST_F(D2dDeferredJobTest, DoneHookRunsOnce)
{
    D2dDeferredJob::SetMaxResident(1);
    RunLog log;
    auto job = D2dDeferredJob::Create(Recording(log, 7));
    int calls = 0;
    job->SetDoneHook([&calls]() { ++calls; });
    job->Wait();
    job->Wait();
    EXPECT_EQ((*job->Get())[2], 7.0f);
    EXPECT_EQ(calls, 1);
    job->Release();
    job->Release(); // twice: no double count
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before);
    EXPECT_TRUE(job->IsReleased());
}

TEST_F(D2dDeferredJobTest, DroppedJobsLeaveNoResidentCount)
{
    D2dDeferredJob::SetMaxResident(4);
    RunLog log;
    {
        auto a = D2dDeferredJob::Create(Recording(log, 1));
        auto b = D2dDeferredJob::Create(Recording(log, 2));
        a->Wait();
        b->Wait();
        EXPECT_EQ(D2dDeferredJob::GetResident(), m_before + 2);
    } // never released: their results go with them
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before);
    // A job nobody holds any more is not started by the look-ahead.
    D2dDeferredJob::SetMaxResident(1);
    auto c = D2dDeferredJob::Create(Recording(log, 3)); // started (limit 1)
    {
        auto d = D2dDeferredJob::Create(Recording(log, 4)); // queued
        EXPECT_FALSE(d->IsStarted());
    }
    c->Release(); // would start d, which is gone
    EXPECT_EQ(D2dDeferredJob::GetResident(), m_before);
    std::lock_guard<std::mutex> lock(log.mutex);
    EXPECT_EQ(log.order.size(), 3u);
}

} // namespace
