/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PEER_PROTOCOL_H
#define D2D_PEER_PROTOCOL_H

#include "d2d-fl-protocol.h"
#include "d2d-sent-messages.h"

#include "ns3/d2d-transport.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What the protocols whose devices exchange models device to device share
 * (D2dDecentralizedFl, D2dSemiDecentralizedFl's group exchanges, D2dBrainTorrent,
 * D2dSegmentedGossip): the devices' D2D transports and their delivery mode, the one ns-3
 * RNG stream of their random draws (AssignStreams), the devices with a battery left,
 * device 0's initial weights given to every device, the Weighting attribute's values, the
 * round (or phase) deadline event, and, for those that send their own messages
 * (BrainTorrent, segmented gossip) rather than through a D2dModelExchange, the resolution
 * of every (message, receiver) as received or lost (ConnectMessages, SendMessage; the
 * record of the messages in flight is D2dSentMessages, as D2dModelExchange's).
 *
 * The protocols never schedule radios: every message goes to the sender's transport at
 * once, and the transport's channel access decides when it goes on the air (set
 * D2dChannel::AccessPolicy to Scheduled, as the scenarios do, for an ideal MAC without
 * half-duplex losses).
 *
 * The concrete protocols keep their own Attributes (their names are the scenarios'
 * `--ns3::Class::Attr` paths); this class adds none.
 */
class D2dPeerProtocol : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \return true: the devices exchange over D2D (SetTransports) */
    bool UsesD2d() const override;

    /**
     * \param stream first RNG stream (the protocol's random draws)
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream) override;

    /** Values of the concrete protocols' Weighting attributes: averaging weights a_k. */
    enum Weighting
    {
        UNIFORM, //!< a_k = 1 per model
        SAMPLES  //!< a_k = n_k, the model's training sample count
    };

  protected:
    D2dPeerProtocol();
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

    /** \brief Check the set-up, then ConnectTransports(). */
    void DoInitialize() override;

    /**
     * \brief At initialization, after the set-up was checked: connect to m_transports (and
     * hand the attributes in force, e.g. the codec, to helper objects).
     */
    virtual void ConnectTransports() = 0;

    /** A message arrived complete: the reception. */
    typedef Callback<void, const D2dReception&> ReceiveCallback;
    /** A message did not arrive complete: (sender, receiver, message). */
    typedef Callback<void, uint32_t, uint32_t, Ptr<const D2dMessage>> LostCallback;

    /**
     * \brief For the protocols that send their own messages (SendMessage): take these
     * message kinds from the transports, and count, for `bytes_sent`, the sizes of the
     * messages handed to them. Every (message, receiver) of SendMessage is then resolved
     * exactly once: by receive if it arrived complete, else by lost (lost on the link,
     * arrived with missing fragments, receiver out of range or off, sender off).
     * \param kinds the message kinds of the protocol
     * \param receive called with every message that arrived complete
     * \param lost called with every (message, receiver) that did not
     */
    void ConnectMessages(const std::vector<std::string>& kinds,
                         ReceiveCallback receive,
                         LostCallback lost);
    /**
     * \brief Send a message of ConnectMessages' kinds in the protocol's delivery mode: one
     * transmission to the named receivers (a unicast for one). If the sender is off, lost
     * is called for each receiver in an event scheduled now.
     * \param src the sender
     * \param receivers the receivers (ascending, not src)
     * \param message the message
     */
    void SendMessage(uint32_t src,
                     const std::vector<uint32_t>& receivers,
                     Ptr<const D2dMessage> message);
    /**
     * \brief Withdraw the messages of SendMessage that have not gone on the air yet (the
     * round is over: they are stale). They are never resolved; messages on the air are
     * resolved as usual.
     */
    void CancelUnsent();

    /**
     * \brief Give device 0's weights to every other device whose learner is idle (no
     * message: a common initialization).
     * \return device 0's weights
     */
    std::vector<float> ShareInitialModel();

    /** \return the devices with a battery left (D2D radio on), ascending */
    std::vector<uint32_t> LiveDevices() const;
    /** \return the devices with a battery left and an idle learner, ascending */
    std::vector<uint32_t> IdleDevices() const;

    Ptr<UniformRandomVariable> m_pick; //!< the random draws (AssignStreams)
    EventId m_deadlineEvent;           //!< the round's (phase's) deadline

  private:
    /** \param r a reception of one of the protocol's kinds */
    void MessageReceived(const D2dReception& r);
    /** \param record an outcome of a message one of the devices sent */
    void MessageDelivery(const D2dDeliveryRecord& record);

    ReceiveCallback m_receive;       //!< ConnectMessages' receive
    LostCallback m_lost;             //!< ConnectMessages' lost
    D2dSentMessages m_sent;          //!< SendMessage's messages, until resolved
};

} // namespace ns3

#endif /* D2D_PEER_PROTOCOL_H */
