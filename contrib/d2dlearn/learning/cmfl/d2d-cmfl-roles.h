/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CMFL_ROLES_H
#define D2D_CMFL_ROLES_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Who holds which role in a round of CMFL (Che et al., "A Decentralized Federated
 * Learning Framework via Committee Mechanism with Convergence Guarantee", 2022): the
 * committee S_c^t and the training clients S_b^t, and the committee's common draws that
 * make them (round 1's roles and sender, a drawn committee when no election is agreed, and
 * S_b^{t+1} among the devices off the new committee). Part of D2dCmfl.
 */
class D2dCmflRoles
{
  public:
    /**
     * \brief Make the random stream of the committee's common draws (the owner calls it
     * where it makes its other streams: an unassigned stream's automatic number depends on
     * the order of creation).
     */
    void CreateStream();

    /**
     * \param stream the RNG stream of the committee's common draws
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Round 1: a random committee S_c^1 of committeeSize and random training clients
     * S_b^1, the rest of the active clients (a partial shuffle of all devices), then a random
     * member that sends the first model.
     * \param devices K, all devices
     * \param active A, the active clients per round (committee + training)
     * \param committeeSize C (< active)
     * \return the member that sends w^1
     */
    uint32_t DrawFirst(uint32_t devices, uint32_t active, uint32_t committeeSize);

    /**
     * \brief The step-down without an agreed election: C members drawn from the round's
     * training clients (all devices off the committee if there are fewer).
     * \return S_c^{t+1}, ascending
     */
    std::vector<uint32_t> DrawCommittee();

    /**
     * \brief The roles of the next round: the committee steps down for next (if not empty;
     * else S_c^t is kept) and S_b^{t+1}, as many as S_b^t (fewer if fewer devices are off
     * the committee), is drawn among the devices off it.
     * \param next S_c^{t+1}, ascending (empty: S_c^t is kept)
     */
    void StepDown(const std::vector<uint32_t>& next);

    /** \return S_c^t, ascending */
    const std::vector<uint32_t>& GetCommittee() const;
    /** \return S_b^t, ascending */
    const std::vector<uint32_t>& GetTraining() const;
    /** \return C, the committee's size */
    uint32_t GetCommitteeSize() const;
    /** \return A, the active clients per round (committee + training) */
    uint32_t GetActiveCount() const;
    /** \param device a device \return true if it is in S_c^t */
    bool IsCommittee(uint32_t device) const;
    /** \param device a device \return true if it is in S_b^t */
    bool IsTraining(uint32_t device) const;

    /** \brief Drop the random stream (D2dCmfl::DoDispose). */
    void Dispose();

  private:
    /** \return the devices off S_c^t, ascending */
    std::vector<uint32_t> OffCommittee() const;
    /**
     * \brief k of the candidates, drawn with the committee's common stream (a partial
     * shuffle: D2dFlProtocol::PartialShuffle).
     * \param candidates the candidates \param k how many (<= candidates.size())
     * \return the k drawn, ascending
     */
    std::vector<uint32_t> Draw(std::vector<uint32_t> candidates, uint32_t k);

    Ptr<UniformRandomVariable> m_pick; //!< the committee's common draws
    uint32_t m_devices{0};             //!< K, all devices
    uint32_t m_committeeSize{0};       //!< C, from CommitteeFraction of the active clients
    uint32_t m_activeCount{0};         //!< active clients per round (committee + training)
    std::vector<uint32_t> m_committee; //!< S_c^t, ascending
    std::vector<uint32_t> m_training;  //!< S_b^t, ascending
};

} // namespace ns3

#endif /* D2D_CMFL_ROLES_H */
