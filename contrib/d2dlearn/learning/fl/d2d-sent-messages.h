/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SENT_MESSAGES_H
#define D2D_SENT_MESSAGES_H

#include "ns3/d2d-message.h"
#include "ns3/d2d-transport.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The messages a learning protocol sent over its devices' D2D transports whose
 * receivers are not all resolved yet: what D2dModelExchange (the models of a step) and
 * D2dPeerProtocol::SendMessage (BrainTorrent's and segmented gossip's messages) share to
 * resolve every (message, receiver) exactly once, as received or lost.
 *
 * Send() hands a message to the sender's transport (which decides when it goes on the
 * air) and records its receivers; Resolve() takes one (message, receiver) off the record
 * when the caller has decided it from the transport's outcomes (a D2dReception or a
 * D2dDeliveryRecord: the transport reports each (message, receiver) once); Withdraw()
 * cancels the messages not on the air yet. Which outcome resolves a receiver, and how a
 * sender that is off is told, is the caller's step: D2dModelExchange resolves at the
 * first of the reception (complete: received, partial: lost) and an undelivered row, and
 * a sender off at once; D2dPeerProtocol resolves at the row (lost unless complete) and a
 * sender off in an event scheduled now.
 */
class D2dSentMessages
{
  public:
    /** A (message, receiver) taken off the record: who sent what. */
    struct Resolved
    {
        uint32_t src;                  //!< sender
        Ptr<const D2dMessage> message; //!< the message
    };

    /**
     * \brief Send a message in one transmission to the named receivers (a unicast for one)
     * and record it (after the transport's Send has returned).
     * \param transport the sender's transport
     * \param src the sender
     * \param receivers the receivers (not src, not empty)
     * \param message the message
     * \param mode the delivery mode
     * \return the message id, or 0 if the sender is off (nothing sent nor recorded)
     */
    uint64_t Send(Ptr<D2dTransport> transport,
                  uint32_t src,
                  const std::vector<uint32_t>& receivers,
                  Ptr<const D2dMessage> message,
                  D2dDeliveryMode mode);

    /**
     * \brief Take one (message, receiver) off the record (the message is forgotten with its
     * last receiver).
     * \param msgId the message id
     * \param dst the receiver
     * \return who sent what, or nothing if the pair is not on the record (a message not
     *         sent through Send, withdrawn, forgotten, or this receiver already resolved)
     */
    std::optional<Resolved> Resolve(uint64_t msgId, uint32_t dst);

    /**
     * \brief Cancel (D2dTransport::Cancel), in id order, every recorded message that has not
     * gone on the air: forgotten before it is cancelled, so the "cancelled" rows it gets
     * resolve nothing. Messages on the air are kept (resolved as usual) or forgotten.
     * \param transports device i's transport at index i (the senders')
     * \param keepOnAir true: keep the messages on the air; false: forget every message
     */
    void Withdraw(const std::vector<Ptr<D2dTransport>>& transports, bool keepOnAir);

    /** \brief Forget every message (nothing cancelled). */
    void Clear();

  private:
    /** A message whose receivers are not all resolved yet. */
    struct Sent
    {
        uint32_t src;                  //!< sender
        std::vector<uint32_t> pending; //!< receivers not resolved yet, ascending
        Ptr<const D2dMessage> message; //!< the message
    };

    std::map<uint64_t, Sent> m_sent; //!< by message id
};

} // namespace ns3

#endif /* D2D_SENT_MESSAGES_H */
