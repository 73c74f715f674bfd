/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PEER_PROTOCOL_H
#define D2D_PEER_PROTOCOL_H

#include "d2d-fl-protocol.h"
#include "d2d-ideal-mac.h"

#include "ns3/d2d-channel.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What the protocols whose devices exchange models over the D2D channel share
 * (D2dDecentralizedFl, D2dSemiDecentralizedFl's group exchanges, D2dBrainTorrent,
 * D2dSegmentedGossip): the D2D channel and its delivery mode, the one ns-3 RNG stream of
 * their random draws (AssignStreams), the devices with a battery left, device 0's initial
 * weights given to every device, the Weighting attribute's check, the round (or phase)
 * deadline event, and, for those that send their own messages (BrainTorrent, segmented
 * gossip) rather than through a D2dModelExchange, the D2dIdealMac.
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

    /**
     * \param channel the D2D channel: device i's radio has index i (one radio per learner);
     *        call after SetLearners
     * \param mode delivery mode of the protocol's messages on it
     */
    void SetChannel(Ptr<D2dChannel> channel, D2dDeliveryMode mode);

    /**
     * \param stream first RNG stream (the protocol's random draws)
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    D2dPeerProtocol();
    void DoDispose() override;

    /** \brief SetChannel() stored the channel and the mode: connect to the radios. */
    virtual void DoSetChannel() = 0;

    /**
     * \brief For the protocols that send their messages through a D2dIdealMac (m_mac): set
     * it up on the channel, in the channel's delivery mode, with these callbacks, and count,
     * for `bytes_sent`, the sizes of the messages handed to the radios.
     * \param receive called with every message that arrived complete
     * \param lost called with every (message, receiver) that did not
     */
    void ConnectIdealMac(D2dIdealMac::ReceiveCallback receive, D2dIdealMac::LostCallback lost);

    /** \brief Abort unless SetLearners, SetTestSet and SetChannel were called. */
    void CheckSetUp() const;

    /**
     * \param weighting a Weighting attribute's value
     * \return true for "samples" (a_k = n_k), false for "uniform" (a_k = 1); aborts otherwise
     */
    bool IsSampleWeighting(const std::string& weighting) const;

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

    /** \return the concrete class's name without "ns3::" (for messages) */
    std::string Name() const;

    Ptr<D2dChannel> m_channel;                         //!< the D2D channel
    D2dDeliveryMode m_mode{D2dDeliveryMode::RELIABLE}; //!< delivery mode on it
    Ptr<UniformRandomVariable> m_pick;                 //!< the random draws (AssignStreams)
    EventId m_deadlineEvent;                           //!< the round's (phase's) deadline
    Ptr<D2dIdealMac> m_mac; //!< the MAC of ConnectIdealMac (null for the others)
};

} // namespace ns3

#endif /* D2D_PEER_PROTOCOL_H */
