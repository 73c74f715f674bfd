/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RUNNING_JOB_H
#define D2D_RUNNING_JOB_H

#include "ns3/callback.h"
#include "ns3/nstime.h"

#include <memory>
#include <vector>

namespace ns3
{

struct D2dTrainResult;

/**
 * \ingroup d2dlearn
 * \brief A learner's job in simulated time, from Train() to its completion event (or to
 * its device going away): when it started, its modelled FLOPs, whether its LibTorch work
 * may be deferred, the callback its completion calls, and the weights it started from
 * (kept when the device may go away, to return to them).
 */
class D2dRunningJob
{
  public:
    /** The completion callback of a job (D2dLearner::Train's done). */
    typedef Callback<void, const D2dTrainResult&> Done;

    /**
     * \brief A job starts.
     * \param start its simulated start \param flops its modelled FLOPs
     * \param deferrable its LibTorch work may be deferred \param done its completion callback
     */
    void Begin(Time start, double flops, bool deferrable, Done done);
    /**
     * \brief The job ends (completed or lost): it no longer runs.
     * \return its completion callback, no longer held
     */
    Done End();
    /** \return true from Begin() to End() (stays true if the device is depleted mid-job) */
    bool IsRunning() const;
    /** \return the job's simulated start */
    Time GetStart() const;
    /** \return its modelled FLOPs */
    double GetFlops() const;
    /** \return true if its LibTorch work may be deferred */
    bool IsDeferrable() const;

    /** \param base the weights the job starts from (kept when the device may go away) */
    void KeepBase(std::shared_ptr<const std::vector<float>> base);
    /** \return the weights kept by KeepBase (null: none), no longer held */
    std::shared_ptr<const std::vector<float>> TakeBase();

  private:
    bool m_running{false};                            //!< a job runs
    Time m_start;                                     //!< its simulated start
    double m_flops{0};                                //!< its modelled FLOPs
    bool m_deferrable{false};                         //!< its work may be deferred
    std::shared_ptr<const std::vector<float>> m_base; //!< the weights it started from
    Done m_done;                                      //!< its completion callback
};

} // namespace ns3

#endif /* D2D_RUNNING_JOB_H */
