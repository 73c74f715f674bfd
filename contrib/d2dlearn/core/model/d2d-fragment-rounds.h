/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FRAGMENT_ROUNDS_H
#define D2D_FRAGMENT_ROUNDS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The ARQ rounds of a transmission on D2dChannel's per-fragment path: the fragments to
 * send in the current round, in order, those a receiver missed (sent again in the next round,
 * reliable mode), and the round. Part of a transmission of D2dChannel.
 */
class D2dFragmentRounds
{
  public:
    /** \param fragments the message's fragments: round 0 sends 0 .. fragments - 1 */
    void Start(uint32_t fragments);
    /** \return the fragment to send next (HasMore()) */
    uint32_t Current() const;
    /** \return the fragment to send next, which counts as sent from now */
    uint32_t Take();
    /** \param fragment a fragment a receiver missed: sent again in the next round */
    void Again(uint32_t fragment);
    /** \return whether the current round has fragments left to send */
    bool HasMore() const;
    /**
     * \brief Begin the next round with the missed fragments, if there are any and fewer than
     * maxRounds retransmission rounds have run.
     * \param maxRounds retransmission rounds allowed
     * \return the fragments the new round sends again (0: no new round)
     */
    uint32_t NextRound(uint32_t maxRounds);

  private:
    std::vector<uint32_t> m_current; //!< the round's fragments, in sending order
    std::vector<uint32_t> m_next;    //!< missed: sent again in the next round
    std::size_t m_pos{0};            //!< m_current's next fragment
    uint32_t m_round{0};             //!< retransmission rounds begun
};

} // namespace ns3

#endif /* D2D_FRAGMENT_ROUNDS_H */
