/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_IDEAL_MAC_H
#define D2D_IDEAL_MAC_H

#include "ns3/callback.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-message.h"
#include "ns3/event-id.h"
#include "ns3/object.h"

#include <list>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Hands a protocol's messages to the D2D radios the way an ideal MAC would, so that
 * no message is lost to half-duplex: the peer-to-peer protocols (BrainTorrent, segmented
 * gossip) send many messages at once, and a message whose first fragment reaches a radio
 * while it transmits is lost there (D2dRadio).
 *
 * Enqueue(src, dst, message) puts a message in one queue shared by all devices. A queued
 * message is handed to src's radio (D2dTransport::Send, the mode of Setup) only when
 *  - src's radio is neither sending nor receiving a message of this MAC (so the radio
 *    starts it at once: it would otherwise wait for its receptions to end), and
 *  - its receiver (every other radio that is on, for D2D_BROADCAST) is not sending one;
 * greedily, in queue order, each time a transfer ends (the channel's Delivery record for
 * that receiver frees both radios; a broadcast frees its sender once every receiver's
 * record is in). Receptions from different senders overlap freely (the channel's
 * orthogonal sub-channels), so many messages may reach one radio at once.
 *
 * Every (message, receiver) pair is resolved exactly once: by the receive callback if it
 * arrived complete, or by the lost callback if it did not (the channel reported it lost,
 * it arrived with missing fragments, or the sender's radio was off when its turn came).
 * Flush() drops the messages not handed to a radio yet (they are never sent and never
 * resolved); messages on the air are resolved as usual.
 */
class D2dIdealMac : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dIdealMac();

    /** A message arrived complete: the reception. */
    typedef Callback<void, const D2dReception&> ReceiveCallback;
    /** A message did not arrive complete: (sender, receiver, message). */
    typedef Callback<void, uint32_t, uint32_t, Ptr<const D2dMessage>> LostCallback;

    /**
     * \brief Use the radios of this channel (sets their receive callbacks, connects to their
     * Delivery traces).
     * \param channel the D2D channel: device i's radio has index i
     * \param mode delivery mode of every message
     */
    void Setup(Ptr<D2dChannel> channel, D2dDeliveryMode mode);
    /** \param cb called with every message that arrived complete */
    void SetReceiveCallback(ReceiveCallback cb);
    /** \param cb called with every (message, receiver) that did not arrive complete */
    void SetLostCallback(LostCallback cb);

    /**
     * \brief Queue a message; it is handed to the radio when the radios are free (at the
     * earliest in an event scheduled now, never inside this call).
     * \param src sender's device index
     * \param dst receiver's device index, or D2D_BROADCAST
     * \param message the message
     */
    void Enqueue(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message);
    /** \brief Drop every message not handed to a radio yet. */
    void Flush();

    /** \return messages queued, not handed to a radio yet */
    std::size_t GetNQueued() const;
    /** \return messages handed to radios and not resolved at every receiver yet */
    std::size_t GetNInFlight() const;

  protected:
    void DoDispose() override;

  private:
    /** A message waiting for its radios. */
    struct Queued
    {
        uint32_t src;
        uint32_t dst;
        Ptr<const D2dMessage> message;
    };

    /** A message on the air. */
    struct InFlight
    {
        uint32_t src;
        uint32_t dst;     //!< receiver or D2D_BROADCAST
        uint32_t pending; //!< receivers whose Delivery record has not come
        Ptr<const D2dMessage> message;
    };

    /** \brief Hand every queued message whose radios are free to its sender's radio. */
    void Pump();
    /** \brief Run Pump in an event scheduled now (once per batch). */
    void SchedulePump();
    /**
     * \param src sender
     * \param dst receiver or D2D_BROADCAST
     * \return true if the message may go now
     */
    bool CanSend(uint32_t src, uint32_t dst) const;
    /** \param record a channel outcome of a message one of the radios sent */
    void Delivery(const D2dDeliveryRecord& record);
    /** \param r a reception */
    void Receive(const D2dReception& r);

    Ptr<D2dChannel> m_channel;
    D2dDeliveryMode m_mode{D2dDeliveryMode::RELIABLE};
    ReceiveCallback m_receive;
    LostCallback m_lost;
    std::list<Queued> m_queue;
    std::map<uint64_t, InFlight> m_inFlight; //!< by message id
    std::vector<bool> m_txBusy;              //!< the radio sends a message of this MAC
    std::vector<uint32_t> m_rxCount;         //!< messages of this MAC on their way to it
    EventId m_pumpEvent;
};

} // namespace ns3

#endif /* D2D_IDEAL_MAC_H */
