/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DEFERRED_JOB_H
#define D2D_DEFERRED_JOB_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The real computation of a training job whose result is read later than its
 * simulated completion: run when it is first needed, with a bounded number of results
 * resident at a time.
 *
 * A learner's simulated job takes the time and energy its compute model gives it (from
 * its FLOPs, not from the weights), so its LibTorch work need not run while the simulated
 * job runs: its inputs (the weights it starts from, the device's generator, its shard) stay
 * as they are until it has run, and what it makes (trained weights or a gradient) is only
 * read when someone consumes it, e.g. a FedAvg server aggregating the update. A deferred
 * job holds that work until then:
 *   - Create() queues it in submission order; while fewer than MaxResident results are
 *     resident (started and not Released), the oldest queued jobs are started on the
 *     D2dTorchRuntime worker pool (the look-ahead that keeps the workers busy);
 *   - Get() or Wait() on a job not started yet runs it at once, in the calling thread (no
 *     deadlock, whatever is resident), then waits for it and calls its done hook (once, in
 *     the calling thread: the event loop's);
 *   - Release() drops the result (a later Get() aborts) and frees its place.
 * The result does not depend on when or where the work runs: it depends only on its
 * inputs. Every call except the work itself is made from the event loop's thread.
 *
 * Exactly one thread runs the work: the first to claim it, a worker that takes it from the
 * pool's queue or a consumer that waits for it (a job started but still queued behind
 * others is then run at once by the consumer; the worker later finds it claimed and does
 * nothing). So a job whose queued work D2dTorchRuntime::Shutdown() dropped still runs when
 * someone waits for it, and a job nobody waits for never runs after the simulation: it did
 * not happen in simulated time and leaves no trace. The pool's task holds the job weakly
 * (a job nobody holds is not run) and, when a worker runs it, lets go of it before the job
 * is made ready: when Wait() returns, no worker holds the job, so the consumer's last
 * reference destroys it at once, in its own thread.
 */
class D2dDeferredJob : public std::enable_shared_from_this<D2dDeferredJob>
{
  public:
    /** The work: runs once, on a worker or in the event loop's thread; returns the result. */
    typedef std::function<std::shared_ptr<const std::vector<float>>()> Work;

    /**
     * \brief Queue a job (started at once if fewer than MaxResident results are resident).
     * \param work what to run
     * \return the job
     */
    static std::shared_ptr<D2dDeferredJob> Create(Work work);

    ~D2dDeferredJob();
    D2dDeferredJob(const D2dDeferredJob&) = delete;
    D2dDeferredJob& operator=(const D2dDeferredJob&) = delete;

    /**
     * \param done called once, in the thread of the first Wait() or Get() after the work
     * has run (null: nothing)
     */
    void SetDoneHook(std::function<void()> done);

    /** \brief Run the work now if it has not started, wait for it, call the done hook. */
    void Wait();

    /**
     * \return the result (Wait() first); aborts after Release()
     */
    std::shared_ptr<const std::vector<float>> Get();

    /**
     * \brief Drop the result: it is no longer resident (a job not started yet still runs
     * when someone waits for it, and its result is then dropped at once).
     */
    void Release();

    /**
     * \brief Start the work on the worker pool now if it has not started, whatever is
     * resident (a consumer that knows the order in which it will read results keeps the
     * workers busy with the next ones: D2dModelExchange::ComputeModels).
     */
    void Prefetch();

    /** \return true once the work has started (or run) */
    bool IsStarted() const;

    /** \return true once Release() was called */
    bool IsReleased() const;

    /**
     * \brief Set how many results may be resident before the look-ahead stops starting
     * queued jobs (a consumer that needs one not started still starts it).
     * \param count results (at least 1)
     */
    static void SetMaxResident(uint32_t count);
    /** \return the MaxResident setting (default 32) */
    static uint32_t GetMaxResident();
    /** \return results resident now: jobs started and not released */
    static uint64_t GetResident();
    /** \return the largest GetResident() since the last ResetPeakResident() */
    static uint64_t GetPeakResident();
    /** \brief Set the peak to the number resident now. */
    static void ResetPeakResident();
    /** \return jobs a consumer had to start itself (the look-ahead had not) so far */
    static uint64_t GetStartedOnDemand();

  private:
    /** \param work the work */
    explicit D2dDeferredJob(Work work);

    /** \brief Count the job resident (unless released) and mark it started. */
    void MarkStarted();

    /** The claim on the work and its completion, shared with the pool's task. */
    struct Claim
    {
        std::atomic<bool> claimed{false}; //!< a thread has taken the work
        std::promise<void> done;          //!< made ready by the thread that ran it
    };

    /**
     * \brief Run the work (the caller holds the claim) and store its result unless
     * released.
     * \return the work's exception, or null
     */
    std::exception_ptr RunClaimed();

    /**
     * \brief Fulfil a claim's promise.
     * \param claim the claim
     * \param error the work's exception, or null
     */
    static void Fulfil(Claim& claim, std::exception_ptr error);

    /** \brief Start queued jobs while fewer than MaxResident results are resident. */
    static void Pump();

    Work m_work;                                     //!< until it has run
    std::shared_ptr<Claim> m_claim;                  //!< who runs the work, and when it has
    std::shared_future<void> m_future;               //!< m_claim's: ready when it has run
    std::shared_ptr<const std::vector<float>> m_out; //!< the result (written by the work)
    std::function<void()> m_done;                    //!< the done hook
    bool m_started{false};  //!< MarkStarted() ran: submitted to the pool or run by a consumer
    bool m_waited{false};   //!< the done hook ran
    bool m_resident{false}; //!< counted in GetResident()
    bool m_released{false}; //!< Release() was called: result dropped, Get() aborts
};

} // namespace ns3

#endif /* D2D_DEFERRED_JOB_H */
