/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LOCAL_JOBS_H
#define D2D_LOCAL_JOBS_H

#include "ns3/d2d-learner.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The devices' local training jobs of a learning protocol: the work of one job
 * (epochs or steps), whether the radios sleep while it runs, and which devices are dead
 * (their learner refused a job: battery empty). Part of D2dFlProtocol, which forwards its
 * LocalEpochs, LocalSteps and SleepWhileTraining attributes here.
 */
class D2dLocalJobs
{
  public:
    /** Device i's learner at index i. */
    using Learners = std::vector<Ptr<D2dLearner>>;

    /** \param epochs epochs over the device's shard per job (>= 1) */
    void SetEpochs(uint32_t epochs);
    /** \return epochs per job */
    uint32_t GetEpochs() const;
    /** \param steps mini-batch steps per job instead of epochs (0: epochs) */
    void SetSteps(uint64_t steps);
    /** \return steps per job (0: epochs) */
    uint64_t GetSteps() const;
    /** \param sleep the device's radios sleep from a job's start to its planned end */
    void SetSleepWhileTraining(bool sleep);
    /** \return whether the radios sleep while a job runs */
    bool GetSleepWhileTraining() const;

    /** \return a round's local job (epochs, or steps if set) */
    D2dTrainTask Task() const;

    /** \param n devices, all live again (a protocol's start) */
    void Revive(uint32_t n);
    /** \param device a device whose battery is empty: it neither trains nor sends */
    void MarkDead(uint32_t device);
    /**
     * \param device a device
     * \return whether it is dead (MarkDead, or its learner refused a job)
     */
    bool IsDead(uint32_t device) const;
    /**
     * \param n devices
     * \return the devices of 0..n-1 not dead, ascending
     */
    std::vector<uint32_t> Live(uint32_t n) const;

    /**
     * \brief Give each live device that is idle (not on an earlier round's job) and not away
     * (D2dLearner::IsAway) the job task, in ascending order; a device whose learner refuses
     * it (battery empty) is dead from then on.
     * \param learners the devices' learners
     * \param task the job
     * \param done called with the device and result when its job ends
     * \param adjust if set, called on a copy of task for each device before it is given
     * \return the devices whose job started, ascending
     */
    std::set<uint32_t> Start(const Learners& learners,
                             const D2dTrainTask& task,
                             const std::function<void(uint32_t, const D2dTrainResult&)>& done,
                             const std::function<void(uint32_t, D2dTrainTask&)>& adjust);

  private:
    uint32_t m_epochs{1};             //!< epochs per job
    uint64_t m_steps{0};              //!< > 0: steps per job instead
    bool m_sleepWhileTraining{false}; //!< radios sleep while training
    std::vector<bool> m_dead;         //!< device i refused a job (battery empty); beyond: live
};

} // namespace ns3

#endif /* D2D_LOCAL_JOBS_H */
