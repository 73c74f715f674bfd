/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PENDING_WORK_H
#define D2D_PENDING_WORK_H

/*
 * Internal header: what a learner still has to compute. Only the learning library's sources
 * include it.
 */

#include "d2d-deferred-job.h"
#include "d2d-learner.h"

#include "ns3/nstime.h"

#include <functional>
#include <memory>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What a learner has still to compute, in the event loop's thread: the LibTorch work
 * of a deferred training job (D2dTrainTask::deferrable) whose simulated job has completed
 * or still runs, with what its TrainingDone trace reports (simulated start, end, FLOPs);
 * and weights set by SetDeferredParameters, computed when first read (after that work).
 *
 * Until the work has run, the worker may use the learner's state and the event loop leaves
 * it alone; a release of the weights asked meanwhile is carried out after the work
 * (ReleaseAfter).
 */
class D2dPendingWork
{
  public:
    /**
     * \brief A deferred job was submitted: it is pending (a release asked before concerned
     * the weights its work will replace: forgotten).
     * \param job the job \param done its done hook (the learner's TrainingDone report)
     */
    void Hold(std::shared_ptr<D2dDeferredJob> job, std::function<void()> done);
    /** \return the pending job (null: none) */
    const std::shared_ptr<D2dDeferredJob>& Job() const;
    /**
     * \brief The job's simulated run has ended (its completion event): what its TrainingDone
     * will report.
     * \param start its simulated start \param end its simulated end \param flops its FLOPs
     */
    void Ended(Time start, Time end, double flops);
    /** \return the pending job's simulated start (Ended) */
    Time GetStart() const;
    /** \return its simulated end (Ended) */
    Time GetEnd() const;
    /** \return its modelled FLOPs (Ended) */
    double GetFlops() const;
    /** \brief Run the job's work if it has not run, wait for it (its done hook runs), drop it. */
    void Settle();
    /**
     * \brief The device went away: the job did not complete. Its work still runs (the
     * device's generator advances as if it had), without its done hook, and its result is
     * dropped.
     */
    void Abandon();
    /** \brief The job's work has run (its done hook): it is no longer pending. */
    void Forget();
    /**
     * \brief Report the job (its TrainingDone trace) while Reporting() is true: from there,
     * the weights are the trained ones, and deferred weights are not computed.
     * \param report fires the trace
     */
    void Report(const std::function<void()>& report);
    /** \return true while Report() runs */
    bool Reporting() const;

    /** \brief The learner's weights are released, but the pending work still needs them. */
    void ReleaseAfter();
    /** \return true if the weights are to be released once the work has run */
    bool ReleasesAfter() const;
    /** \return ReleasesAfter(), which is then reset */
    bool TakeReleaseAfter();

    /**
     * \brief Weights computed when first read (one set before and not computed is dropped;
     * so is a release asked while a job is pending: the weights are replaced).
     * \param compute returns them
     */
    void SetWeights(D2dLearner::WeightsThunk compute);
    /** \return true if weights wait to be computed */
    bool HasWeights() const;
    /** \return the weights' computation, which is no longer held (null: none) */
    D2dLearner::WeightsThunk TakeWeights();
    /** \brief Forget the weights' computation (never computed). */
    void DropWeights();

    /**
     * \brief Drop everything (the learner is disposed): the job's work, if ever run by a
     * consumer, must not call back into the learner; dropping also breaks the cycles
     * state -> job -> work -> state and state -> thunk -> job -> work -> state.
     */
    void Drop();

  private:
    std::shared_ptr<D2dDeferredJob> m_job; //!< the pending job (null: none)
    bool m_releaseAfter{false};            //!< release the weights after its work
    D2dLearner::WeightsThunk m_weights;    //!< SetDeferredParameters' weights, or null
    bool m_reporting{false};               //!< in the job's TrainingDone trace
    Time m_start;                          //!< the job's simulated start
    Time m_end;                            //!< its simulated end (its completion event)
    double m_flops{0};                     //!< its modelled FLOPs
};

} // namespace ns3

#endif /* D2D_PENDING_WORK_H */
