/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRANSPORT_H
#define D2D_TRANSPORT_H

#include "d2d-delivery.h"
#include "d2d-message.h"

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The messaging endpoint of one device: what every protocol talks to.
 *
 * Protocols send D2dMessages in a D2dDeliveryMode to one device, to a named set of
 * devices (one transmission: a multicast), or to D2D_BROADCAST, every neighbour (every
 * device that can hear the sender); unicast and broadcast are special cases of the
 * multicast. They receive D2dReceptions through handlers registered per message kind
 * (AddReceiveHandler, as ns-3's Node::RegisterProtocolHandler dispatches by protocol
 * number), so that several protocols share a transport without forwarding to each other.
 * Two backends implement it: D2dRadio (the D2D channel model of Wagle et al. 2025, with drop
 * probabilities of its eq. (18), fast or per-fragment, below a channel-access policy) and
 * D2dWifiTransport (packets over an 802.11 ad hoc WifiNetDevice).
 *
 * Every (message, receiver) outcome is reported once, by the sender's transport, on the
 * "Delivery" trace: that is one row of messages.csv.
 */
class D2dTransport : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dTransport();
    ~D2dTransport() override;

    /** Called with each message this device receives (complete or partial). */
    typedef Callback<void, const D2dReception&> ReceiveCallback;
    /**
     * Called when a send has finished at the sender: (msgId, dst, success); dst is the
     * receiver, D2D_BROADCAST or D2D_MULTICAST. For reliable sends, success means every
     * receiver got every fragment; for unreliable sends it means the transmission ended
     * (not that anything arrived). A send none of whose receivers can hear the sender is
     * not transmitted and ends with success false.
     */
    typedef Callback<void, uint64_t, uint32_t, bool> SendDoneCallback;

    /**
     * \brief Queue a message for transmission.
     * \param message the message (shared, not copied)
     * \param dst receiver's device index, or D2D_BROADCAST (every neighbour)
     * \param mode unreliable or reliable delivery
     * \return the message id (> 0), or 0 if the device is off (depleted battery)
     */
    uint64_t Send(Ptr<const D2dMessage> message, uint32_t dst, D2dDeliveryMode mode);

    /**
     * \brief Queue a message for a named set of receivers: one transmission (a multicast);
     * in reliable mode the ARQ covers exactly the named receivers that can hear it. A set
     * of one is a unicast. Named receivers that cannot hear the sender get a row with
     * reason "out_of_range" and cost nothing.
     * \param message the message (shared, not copied)
     * \param receivers device indices (any order, no duplicates, not this device, not empty)
     * \param mode unreliable or reliable delivery
     * \return the message id (> 0), or 0 if the device is off (depleted battery)
     */
    uint64_t Send(Ptr<const D2dMessage> message,
                  const std::vector<uint32_t>& receivers,
                  D2dDeliveryMode mode);

    /**
     * \brief Withdraw a message of this device that has not gone on the air yet (e.g. a
     * model a protocol's deadline made stale). Its receivers get rows, not delivered, with
     * reason "cancelled"; no send-done follows.
     * \param msgId the id Send() returned
     * \return true if it was withdrawn; false if it is on the air or done (on the channel:
     *         its transmission began; D2dWifiTransport: its first fragment went to the
     *         socket, hence to the MAC)
     */
    bool Cancel(uint64_t msgId);

    /**
     * \brief Register a receive handler (several may be registered; each reception goes to
     * every handler whose kind matches, in registration order).
     * \param cb the handler
     * \param kind the message kind it takes; empty: every kind
     */
    void AddReceiveHandler(ReceiveCallback cb, const std::string& kind = "");
    /**
     * \brief Unregister every registration of a handler (compared with Callback::IsEqual).
     * \param cb the handler
     */
    void RemoveReceiveHandler(ReceiveCallback cb);
    /**
     * \brief Register a send-done handler; every handler sees every send-done of this
     * transport (each keeps to its own message ids).
     * \param cb the handler
     */
    void AddSendDoneHandler(SendDoneCallback cb);
    /** \param cb the send-done handler to unregister (every registration of it) */
    void RemoveSendDoneHandler(SendDoneCallback cb);

    /**
     * \brief Replace every receive handler by one that takes every kind (the simple case
     * of a transport used by one protocol; a null callback removes them all).
     * \param cb the receive callback
     */
    void SetReceiveCallback(ReceiveCallback cb);
    /**
     * \brief Replace every send-done handler by this one (null: remove them all).
     * \param cb the send-done callback
     */
    void SetSendDoneCallback(SendDoneCallback cb);

    /** \param index the device index used in traces and as destination address */
    void SetIndex(uint32_t index);
    /** \return the device index */
    uint32_t GetIndex() const;
    /** \param node the node this transport belongs to */
    void SetNode(Ptr<Node> node);
    /** \return the node this transport belongs to */
    Ptr<Node> GetNode() const;

    /**
     * \brief Switch the transport off for good (battery depleted): it stops sending and
     * receiving; queued and ongoing transmissions fail.
     */
    void TurnOff();
    /**
     * \return true while the transport neither sends nor receives: switched off for good
     * (TurnOff) or away until it rejoins (Leave)
     */
    bool IsOff() const;
    /** \return true once TurnOff() was called (battery depleted): off for good */
    bool IsDepleted() const;

    /**
     * \brief The device goes away (D2dAvailabilityModel): as TurnOff(), its queued and
     * ongoing transmissions fail (reason sender_off) and so do its receptions
     * (receiver_off), and its radio draws nothing; but Rejoin() brings it back. The
     * Presence trace fires.
     */
    void Leave();
    /**
     * \brief The device is back: the transport sends and receives again from now (what
     * failed while it was away stays failed). Nothing happens if it is off for good.
     */
    void Rejoin();
    /** \return true between Leave() and Rejoin() */
    bool IsAway() const;
    /**
     * \return whether this backend supports Leave() and Rejoin() (the channel does; 802.11
     * does not: see D2dWifiTransport)
     */
    virtual bool CanLeave() const;

    /**
     * Signature of the Presence trace.
     * \param index the device index
     * \param present false: it went away (Leave) or its battery emptied (TurnOff); true: it
     *        came back (Rejoin)
     */
    typedef void (*PresenceTracedCallback)(uint32_t index, bool present);

    /**
     * \brief The protocol has nothing to send or receive on this transport until a time it
     * knows (the end of its local training, for example): the backend may put the radio to
     * sleep until then, awake again at that time. A message the protocol sends meanwhile
     * wakes it. How each backend does it, and what a message for a sleeping device meets,
     * is its DoIdleUntil's business (the channel backend: D2dDrx::SleepUntil, the message
     * waits; Wi-Fi: the PHY's sleep mode, frames are missed).
     * \param until the time (nothing happens if it is not after now, or the transport is off)
     */
    void IdleUntil(Time until);

    /**
     * \brief Report, as not delivered with reason "unfinished", every (message, receiver)
     * of the messages this device sent whose outcome is not known yet (queued, on the air,
     * being reassembled or awaiting an acknowledgement), so that every message sent has its
     * rows. Call once the simulation has stopped (D2dTraceHelper::Finish does); the
     * messages reported are forgotten.
     */
    void ReportUnfinished();

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

    /**
     * \brief Backend-specific send.
     * \param msgId id allocated for this send
     * \param message the message
     * \param dst receiver index, D2D_BROADCAST or D2D_MULTICAST
     * \param receivers with D2D_MULTICAST: the named receivers (ascending, at least two,
     *        not this device); otherwise empty
     * \param mode delivery mode
     */
    virtual void DoSend(uint64_t msgId,
                        Ptr<const D2dMessage> message,
                        uint32_t dst,
                        const std::vector<uint32_t>& receivers,
                        D2dDeliveryMode mode) = 0;
    /** \return a fresh message id, unique in the network */
    virtual uint64_t AllocateMessageId() = 0;
    /**
     * \brief Backend-specific Cancel() (default: cannot withdraw).
     * \param msgId the message id
     * \return true if withdrawn (the backend wrote its rows)
     */
    virtual bool DoCancel(uint64_t msgId);
    /** \brief Backend-specific reaction to TurnOff(), and to Leave(). */
    virtual void DoTurnOff() = 0;
    /**
     * \brief Backend-specific reaction to Rejoin(): send and receive again (the default:
     * an error, for a backend that cannot leave, CanLeave() false).
     */
    virtual void DoRejoin();
    /**
     * \brief Backend-specific IdleUntil().
     * \param until after now
     */
    virtual void DoIdleUntil(Time until) = 0;
    /** \brief Backend-specific ReportUnfinished(). */
    virtual void DoReportUnfinished() = 0;

    /** \param reception hand a reception to the protocol (ignored if off) */
    void NotifyReceive(const D2dReception& reception);
    /** Report the end of a send to the protocol. */
    void NotifySendDone(uint64_t msgId, uint32_t dst, bool success);
    /** \param record report one (message, receiver) outcome on the Delivery trace */
    void NotifyDelivery(const D2dDeliveryRecord& record);

  private:
    /**
     * \brief Checks and trace shared by both Send()s.
     * \return the new message id, or 0 if the device is off
     */
    uint64_t SendTo(Ptr<const D2dMessage> message,
                    uint32_t dst,
                    const std::vector<uint32_t>& receivers,
                    D2dDeliveryMode mode);

    uint32_t m_index{0}; //!< device index: trace id and destination address of this device
    Ptr<Node> m_node;    //!< the node this transport belongs to
    bool m_off{false};   //!< switched off for good by TurnOff() (battery depleted)
    bool m_away{false};  //!< between Leave() and Rejoin()
    /** Receive handlers and the kind each takes ("" = every kind), in registration order. */
    std::vector<std::pair<std::string, ReceiveCallback>> m_receiveHandlers;
    std::vector<SendDoneCallback> m_sendDoneHandlers; //!< send-done handlers, in registration order
    /** One (message, receiver) outcome: a row of messages.csv. */
    TracedCallback<const D2dDeliveryRecord&> m_deliveryTrace;
    /** Message handed to the backend: (msgId, message, dst). */
    TracedCallback<uint64_t, Ptr<const D2dMessage>, uint32_t> m_sendTrace;
    /** Presence: (index, present) the device left, was depleted or came back. */
    TracedCallback<uint32_t, bool> m_presenceTrace;
};

} // namespace ns3

#endif /* D2D_TRANSPORT_H */
