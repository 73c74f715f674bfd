/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ROUND_COUNT_H
#define D2D_ROUND_COUNT_H

#include "ns3/callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How many rounds a learning protocol runs, how many are over, and whom to call after
 * the last one. Part of D2dFlProtocol, which forwards its Rounds attribute here.
 */
class D2dRoundCount
{
  public:
    /** \param rounds rounds to run (>= 1) */
    void SetRounds(uint32_t rounds);
    /** \return rounds to run */
    uint32_t GetRounds() const;
    /** \return rounds over (Count) */
    uint32_t GetDone() const;
    /** \param cb called once, after the last round (Finish) */
    void SetFinishedCallback(Callback<void> cb);

    /**
     * \brief A round is over: count it.
     * \return whether that was the last
     */
    bool Count();
    /** \brief Call the finished callback, if set (after the last round). */
    void Finish();
    /** \brief Drop the finished callback (the protocol's DoDispose). */
    void Dispose();

  private:
    uint32_t m_rounds{10};     //!< rounds to run
    uint32_t m_done{0};        //!< rounds over
    Callback<void> m_finished; //!< called after the last round
};

} // namespace ns3

#endif /* D2D_ROUND_COUNT_H */
