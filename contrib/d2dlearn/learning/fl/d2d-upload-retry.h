/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_UPLOAD_RETRY_H
#define D2D_UPLOAD_RETRY_H

#include "ns3/d2d-delivery.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-transport.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Upload with retry: a reliable unicast of a round's update whose link ran out of
 * retransmissions is sent again, at most a given number of times, while the round still
 * accepts it. D2dFedAvg (updates to the server) and D2dCmfl (gradients to each committee
 * member) use it from their transports' send-done handlers.
 *
 * Track() records a reliable send by its message id; SendDone() forgets it and, on a
 * failure of an update of the current round while the protocol says the round is open,
 * sends the same message again on the same transport to the same receiver, counting the
 * retry (rounds.csv upload_retries). Unreliable sends, broadcasts and message id 0 (the
 * transport refused the send) are not tracked.
 */
class D2dUploadRetry
{
  public:
    /** \param maxRetries times one update may be sent again */
    void SetMaxRetries(uint32_t maxRetries);

    /**
     * \brief Remember a send (only reliable ones with a message id are tracked).
     * \param msgId the id the transport returned (0: refused, ignored)
     * \param transport the sender's transport
     * \param round the round the update belongs to
     * \param message the update
     * \param mode its delivery mode (only RELIABLE is tracked)
     */
    void Track(uint64_t msgId,
               Ptr<D2dTransport> transport,
               uint32_t round,
               Ptr<const D2dMessage> message,
               D2dDeliveryMode mode);

    /**
     * \brief A send ended (the transport's send-done callback).
     * \param msgId the message
     * \param dst its receiver
     * \param success every fragment arrived
     * \param round the protocol's current round
     * \param open the current round still accepts updates
     * \return true if the update was sent again
     */
    bool SendDone(uint64_t msgId, uint32_t dst, bool success, uint32_t round, bool open);

    /** \return retries since the last ResetRound() */
    uint32_t GetRoundRetries() const;
    /** \return retries in all rounds */
    uint64_t GetTotalRetries() const;
    /** \brief Start counting a new round's retries from 0. */
    void ResetRound();
    /** \brief Forget every tracked send (and the transports it holds). */
    void Clear();

  private:
    /** An update on its way. */
    struct Upload
    {
        Ptr<D2dTransport> transport;   //!< the sender's
        uint32_t round;                //!< the round it belongs to
        uint32_t attempts;             //!< sent again so far
        Ptr<const D2dMessage> message; //!< the update, sent again as it is on a retry
    };

    std::map<uint64_t, Upload> m_uploads; //!< by message id
    uint32_t m_maxRetries{0};             //!< times one update may be sent again (0: no retry)
    uint32_t m_roundRetries{0};           //!< retries since ResetRound() (upload_retries)
    uint64_t m_totalRetries{0};           //!< retries in all rounds
};

} // namespace ns3

#endif /* D2D_UPLOAD_RETRY_H */
