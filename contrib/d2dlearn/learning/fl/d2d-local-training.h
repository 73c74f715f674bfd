/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LOCAL_TRAINING_H
#define D2D_LOCAL_TRAINING_H

#include "d2d-fl-protocol.h"

#include "ns3/event-id.h"

#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Local training only, no collaboration: the floor the collaborative protocols
 * are compared with (Fan et al. 2023 sec. 5.2's "local training" baseline; Wagle et al. 2025's
 * "no-exchange" baseline without the server).
 *
 * Each round every device with a battery left that is idle trains locally (LocalEpochs /
 * LocalSteps, in simulated time on its compute model); no message is sent. The round ends
 * when every job started in it has completed, or at RoundDeadline after its start; devices
 * still training then are stragglers, left out of the round's rows and of the following
 * rounds until their job completes (a device depleted mid-job never completes; a device
 * whose battery is empty at a round's start is out for good).
 *
 * Devices that come and go (a D2dAvailabilityModel): a device away at a round's start takes
 * no part in it; one that leaves during its job loses it (the learner's TrainingLost) and is
 * a straggler of the round, which does not wait for it; rounds.csv gets `available`.
 *
 * rounds.csv, per round (round 0: before training): each device's `accuracy` and `loss`
 * (if EvaluateDevices), the mean model's `accuracy` and `loss` and `consensus_distance`
 * (node -1; RecordDevices), `round_time_s`, `participants` (jobs completed in the round)
 * and `stragglers`. Node -1's accuracy is that of the average of models that never
 * exchanged anything: the floor is read from the per-device rows. By default every device
 * starts from device 0's initial weights (CommonInitialModel), as in the decentralized
 * protocols, so that only the collaboration differs.
 */
class D2dLocalTraining : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dLocalTraining();

    /** \return 1: a device trains alone */
    uint32_t GetMinDevices() const override;
    /** \return false: the devices never exchange or average models */
    bool AveragesModels() const override;
    /** \return Compression: no model goes on the air */
    std::vector<std::string> GetUnreadAttributes() const override;

  protected:
    /**
     * \brief With CommonInitialModel, every device of device 0's architecture takes device 0's
     * initial weights; then round 0's rows (before training) and round 1.
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Start the jobs of a round and arm the deadline. */
    void StartRound();
    /**
     * \param device the device
     * \param round the round its job belongs to
     */
    void Trained(uint32_t device, uint32_t round);
    /** \brief Record and go on. */
    void EndOfRound();
    /**
     * \brief A learner's TrainingLost trace: a job of this round whose device went away is
     * a straggler; the round ends if no job is left.
     * \param device the device
     */
    void Lost(uint32_t device, Time, Time);

    bool m_commonInitialModel;    //!< attribute CommonInitialModel
    std::set<uint32_t> m_running; //!< jobs of the current round not completed
    uint32_t m_completed{0};      //!< jobs of the current round completed (its participants)
    uint32_t m_lost{0};           //!< jobs of the current round lost (their device left)
    uint32_t m_available{0};      //!< devices there (not away) at the round's start
    bool m_roundOpen{false};      //!< a round is running (EndOfRound not yet reached)
    EventId m_deadlineEvent;      //!< the current round's RoundDeadline (none if 0)
};

} // namespace ns3

#endif /* D2D_LOCAL_TRAINING_H */
