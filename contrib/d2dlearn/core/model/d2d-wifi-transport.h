/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_WIFI_TRANSPORT_H
#define D2D_WIFI_TRANSPORT_H

#include "d2d-message-registry.h"
#include "d2d-transport.h"

#include "ns3/event-id.h"
#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"

#include <list>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class WifiNetDevice;
class WifiMacQueue;
class WifiMpdu;
class D2dWifiTransport;

/**
 * \ingroup d2dlearn
 * \brief Header of every packet of the Wi-Fi backend: one fragment of a message, or an
 * end-to-end acknowledgement.
 *
 * The message content is never copied into packets: a DATA packet is this header plus
 * virtual zero bytes of the fragment's size; the receiver finds the message object by
 * its id in the shared D2dMessageRegistry. Serialized size: 32 bytes.
 */
class D2dWifiFragmentHeader : public Header
{
  public:
    /** Packet type. */
    enum Type : uint8_t
    {
        DATA = 0, //!< one fragment of a message
        ACK = 1   //!< end-to-end acknowledgement of a complete reliable message
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /** \return GetTypeId() */
    TypeId GetInstanceTypeId() const override;
    /** \return the header's size on the wire, bytes */
    uint32_t GetSerializedSize() const override;
    /** \param start where to write the header */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where to read the header
     * \return the bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /** \param os where to print the header's fields */
    void Print(std::ostream& os) const override;

    Type type{DATA};                                   //!< DATA or ACK
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode of the message
    uint16_t attempt{0};    //!< 0 for the first transmission, k for the k-th retransmission
    uint32_t src{0};        //!< device index of the packet's sender
    uint32_t fragIndex{0};  //!< index of this fragment (0-based; 0 in an ACK)
    uint32_t fragCount{0};  //!< fragments of the message
    uint64_t msgId{0};      //!< message id (registry key)
    uint64_t totalBytes{0}; //!< message size (bytes)
};

/**
 * \ingroup d2dlearn
 * \brief State shared by the D2dWifiTransports of one Wi-Fi network.
 *
 * Holds the message registry (ids and messages in flight), the transports by device
 * index with their IPv4 addresses, and the state of every message in flight: what each
 * of its receivers got. Only receivers know what arrived, but the Delivery record of a
 * (message, receiver) pair is reported by the sender's transport; this shared state is
 * what lets a record be written for a receiver that received nothing at all.
 * D2dWifiHelper creates one per Install().
 */
class D2dWifiNetwork : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dWifiNetwork();
    ~D2dWifiNetwork() override;

    /** \param registry the registry shared by every transport of the network */
    void SetMessageRegistry(Ptr<D2dMessageRegistry> registry);
    /** \return the registry (created on first use if none was set) */
    Ptr<D2dMessageRegistry> GetMessageRegistry();

    /**
     * \brief Add the transport of the next device index.
     * \param transport the transport; its index must equal GetNTransports()
     * \param address its IPv4 address on the Wi-Fi interface
     */
    void AddTransport(Ptr<D2dWifiTransport> transport, Ipv4Address address);
    /** \return number of devices */
    uint32_t GetNTransports() const;
    /**
     * \param index device index
     * \return the transport of that device
     */
    Ptr<D2dWifiTransport> GetTransport(uint32_t index) const;
    /**
     * \param index device index
     * \return the IPv4 address of that device
     */
    Ipv4Address GetAddress(uint32_t index) const;
    /** \param address the subnet-directed broadcast address used for D2D_BROADCAST */
    void SetBroadcastAddress(Ipv4Address address);
    /** \return the subnet-directed broadcast address */
    Ipv4Address GetBroadcastAddress() const;

    /** \brief What one receiver got of one message. */
    struct RxState
    {
        std::vector<bool> got;    //!< distinct fragments received, by fragment index
        uint32_t nGot{0};         //!< number of distinct fragments received
        bool closed{false};       //!< record written (delivered or failed)
        bool delivered{false};    //!< the receive callback was invoked
        int32_t ackedAttempt{-1}; //!< last attempt this receiver acknowledged (reliable)
        bool acked{false};        //!< the sender got this receiver's ACK (reliable)
        EventId timer;            //!< reassembly timeout (unreliable)
    };

    /** \brief A message in flight and the state of each of its receivers. */
    struct MessageState : public SimpleRefCount<MessageState>
    {
        uint64_t msgId{0};             //!< message id
        Ptr<const D2dMessage> message; //!< the message
        uint32_t src{0};               //!< sender index
        uint32_t dst{0};               //!< receiver index, D2D_BROADCAST or D2D_MULTICAST
        /** Where the current attempt goes: a device index, or D2D_BROADCAST for the subnet
         * broadcast address (broadcasts, multicasts, and their retransmissions to two or
         * more receivers). */
        uint32_t txDst{0};
        D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode
        Time sendTime;                                     //!< when Send() was called
        uint32_t fragments{0};                             //!< fragments of the message
        uint32_t attempt{0};         //!< current attempt (0 = first transmission)
        uint32_t retransmissions{0}; //!< fragments handed to the socket in attempts > 0
        bool senderDone{false};      //!< the sender has nothing left to do
        bool airDone{false};         //!< the MAC finished the last fragment (unreliable)
        EventId senderTimer;         //!< ACK timeout (reliable) or final sweep
        /** The receivers by device index: the destination of a unicast, every other device
         * for D2D_BROADCAST, the named receivers of a multicast. A device receiving a
         * packet of a message in which it has no entry ignores the packet. */
        std::map<uint32_t, RxState> rx;
        uint32_t nOpen{0}; //!< receivers whose record is not written yet

        /** \return true for a send to several receivers (D2D_BROADCAST or D2D_MULTICAST) */
        bool IsMultiReceiver() const
        {
            return dst == D2D_BROADCAST || dst == D2D_MULTICAST;
        }
    };

    /**
     * \param state a new message in flight (its msgId must be unused)
     */
    void AddMessage(Ptr<MessageState> state);
    /**
     * \param msgId message id
     * \return the state of that message, or null once it has been released
     */
    Ptr<MessageState> FindMessage(uint64_t msgId) const;
    /**
     * \brief Forget a message: its state and its registry entry.
     * \param msgId message id
     */
    void RemoveMessage(uint64_t msgId);
    /** \return ids of the messages in flight, in increasing order */
    std::vector<uint64_t> GetMessageIds() const;
    /** \return number of messages in flight */
    std::size_t GetNInFlight() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    Ptr<D2dMessageRegistry> m_registry;               //!< message id -> message, shared by all
    std::vector<Ptr<D2dWifiTransport>> m_transports;  //!< transports, by device index
    std::vector<Ipv4Address> m_addresses;             //!< IPv4 addresses, by device index
    Ipv4Address m_broadcast;                          //!< subnet-directed broadcast address
    std::map<uint64_t, Ptr<MessageState>> m_messages; //!< message id -> state, while in flight
};

/**
 * \ingroup d2dlearn
 * \brief The packet-level messaging backend: D2D messages as UDP packets over an 802.11
 * ad hoc WifiNetDevice.
 *
 * Each node has an InternetStack and one UDP socket bound to attribute Port. Device index
 * i is the i-th IPv4 address of the D2dWifiNetwork. A unicast goes to its receiver's
 * address. D2D_BROADCAST goes to the subnet broadcast address, and every other device of
 * the network is a receiver. A multicast (D2D_MULTICAST, a named set of receivers) is one
 * transmission to the subnet broadcast address too, but only the named receivers keep
 * state and get a record; the other devices hear its packets and ignore them (a device
 * checks whether it is a receiver in the message's shared state, so the header carries
 * no receiver list). The transport does not know who can hear whom: a named receiver out
 * of Wi-Fi range is a receiver like the others (no "out_of_range" rows at packet level);
 * it ends with "loss" (unreliable) or "retry_limit" (reliable).
 *
 * A message of B bytes is cut into ceil(B / MtuBytes) fragments: packets of virtual zero
 * bytes of the fragment's size plus a D2dWifiFragmentHeader (and UDP/IP/802.11 headers on
 * the air). The transport paces its fragments: it keeps at most MaxQueuedPackets packets
 * in the Wi-Fi MAC queue and hands the next one to the socket when the MAC releases one.
 *
 * - Unreliable mode: every fragment is sent once (the 802.11 MAC still retries unicast
 *   frames; broadcast frames, hence broadcasts and multicasts, have no MAC retries). A
 *   receiver delivers when it has every fragment, or, with the fragments it has (at least
 *   one), ReassemblyTimeout after the last one arrived. A receiver that got nothing is
 *   recorded as "loss" ReassemblyTimeout after the MAC finished with the last fragment.
 *   SendDone(true) fires when the last fragment has been handed to the socket.
 * - Reliable mode, unicast: the receiver delivers the complete message and answers with
 *   an ACK packet. If no ACK arrives within AckTimeout after the MAC finished with the
 *   last fragment, the whole message is retransmitted (end to end, at most
 *   MaxRetransmissions times; a receiver keeps the fragments of earlier attempts).
 *   SendDone(true) on the ACK; after the last retransmission without ACK,
 *   SendDone(false) and the record's reason is "retry_limit" ("receiver_off" if the
 *   receiver is off; the sender keeps retransmitting to an off receiver until then).
 * - Reliable mode, broadcast and multicast: the same scheme over several receivers.
 *   Every receiver (every other device for D2D_BROADCAST, the named ones for a
 *   multicast) that has the complete message delivers it once and unicasts an ACK to the
 *   sender; it acknowledges again each later attempt it hears (its ACK may have been
 *   lost). The sender notes which receivers acknowledged. A receiver is awaited while the
 *   sender has no ACK from it, unless it is off or its record was written without
 *   delivery (e.g. "receiver_off"). AckTimeout after the MAC finished with the last
 *   fragment of an attempt, if receivers are still awaited, the whole message is
 *   retransmitted: to the broadcast address if two or more are awaited, as a unicast to
 *   the one awaited receiver otherwise; at most MaxRetransmissions times. When no
 *   receiver is awaited any more (on an ACK, on the receiver's TurnOff() or at the ACK
 *   timeout), the send ends at once, without waiting for the timeout: SendDone(true) if
 *   every receiver acknowledged or delivered, else SendDone(false), and the receivers
 *   that are off and still open get a "receiver_off" record. After the last attempt with
 *   receivers still awaited, the receivers that never got every fragment are closed with
 *   delivered false and reason "retry_limit" ("receiver_off" if off) and SendDone(false)
 *   fires (also if every awaited receiver delivered but none of its ACKs came back, as
 *   for a unicast). SendDone's dst is D2D_BROADCAST or D2D_MULTICAST.
 *
 * One D2dDeliveryRecord per (message, receiver) is reported on the sender's Delivery
 * trace. recvTime is the time the receive callback ran (for a partial message,
 * ReassemblyTimeout after its last fragment). retransmissions counts the fragments handed
 * to the socket in attempts after the first (reliable mode; for a broadcast or multicast
 * the fragments of every retransmission of the message, whatever receivers it was for);
 * a reliable record is written when the receiver delivers, so it does not count fragments
 * the sender still sends before the ACK reaches it. dropProbability is always 0: there is
 * no eq. (18) drop model at packet level, losses come from the Wi-Fi PHY and MAC. A
 * fragment that arrives after its receiver's record was written (gap longer than
 * ReassemblyTimeout under heavy contention) is ignored. No energy is charged by this
 * backend.
 *
 * TurnOff() closes the socket, puts the Wi-Fi PHY to sleep and drops the queued
 * fragments. Open records of messages this device sends are closed with reason
 * "sender_off" (a receiver that already has some fragments of an unreliable message still
 * delivers them at its reassembly timeout); open records of messages it receives are
 * closed with reason "receiver_off" (and a reliable broadcast or multicast stops awaiting
 * it, see above). Leave() is not supported (CanLeave()).
 *
 * ReportUnfinished() (once the simulation has stopped) closes, with delivered false and
 * reason "unfinished", every open record of the messages this device sent, in increasing
 * message id order: messages still queued in the transport (their state exists from
 * Send() on, so the transport queue needs no records of its own), on the air, being
 * reassembled (an unreliable receiver holding some fragments does not get them: the
 * receive callback never runs after the simulation) or awaiting an ACK (a receiver
 * whose record is already written keeps it). fragmentsLost is fragments minus the
 * distinct fragments the receiver got; recvTime is the stop time. A receiver that got
 * every fragment has always been closed already (its record is written on the last
 * fragment), so it never gets an "unfinished" record. The messages are then forgotten,
 * their timers cancelled and the transport's queue dropped; SendDone is not invoked and
 * no event is scheduled. Messages of an off device are reported too.
 */
class D2dWifiTransport : public D2dTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dWifiTransport();
    ~D2dWifiTransport() override;

    /** \param network the network state shared by all transports of the network */
    void SetNetwork(Ptr<D2dWifiNetwork> network);
    /** \return the shared network state */
    Ptr<D2dWifiNetwork> GetNetwork() const;
    /** \param device the 802.11 device of this node (its MAC queue paces the sends) */
    void SetDevice(Ptr<WifiNetDevice> device);
    /** \return the 802.11 device */
    Ptr<WifiNetDevice> GetDevice() const;

    /**
     * \brief Open and bind the UDP socket. Call once the node, device, network and IPv4
     * address are set (D2dWifiHelper::Install does).
     */
    void Start();

    /**
     * \param bytes message size (bytes)
     * \return the number of fragments a message of that size is cut into
     */
    uint32_t GetNFragments(uint64_t bytes) const;

    /** \return packets sent by this transport (fragments and ACKs) */
    uint64_t GetNPacketsSent() const;
    /** \return packets received by this transport (fragments and ACKs) */
    uint64_t GetNPacketsReceived() const;

    /**
     * \brief Assign the stream of the group-transmission jitter.
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    void DoSend(uint64_t msgId,
                Ptr<const D2dMessage> message,
                uint32_t dst,
                const std::vector<uint32_t>& receivers,
                D2dDeliveryMode mode) override;
    uint64_t AllocateMessageId() override;
    void DoTurnOff() override;
    /**
     * \return false: devices that come and go are not supported over 802.11. An away radio
     * must be off: ns-3's WifiRadioEnergyModel never leaves its OFF state once in it, and
     * ns-3.37's WifiPhy cannot sleep safely while it detects a preamble or receives a
     * header (a frame then starts its reception on the sleeping PHY, "Invalid WifiPhy state
     * SLEEP"; fixed in part from ns-3.41).
     */
    bool CanLeave() const override;
    /**
     * \brief Put the Wi-Fi PHY to sleep (WifiPhy::SetSleepMode) until then, as soon as it is
     * free (TrySleep). The PHY resumes (WifiPhy::ResumeFromSleep) at `until`, or at once
     * when the device sends something, and sleeps again once that has left the MAC. Unlike the
     * channel backend, a frame for a sleeping PHY is not held back: ns-3's ad-hoc MAC has no
     * power-save buffering, so it is missed and the sender's MAC retries (reliable mode: the
     * end-to-end retransmission). \param until after now
     */
    void DoIdleUntil(Time until) override;
    void DoReportUnfinished() override;

  private:
    /**
     * \brief Sleep until m_idleUntil if the radio is free: PHY idle or sensing a busy
     * channel, no fragment of this device queued (here or in the MAC) or waiting for its
     * jitter, and no message of its own open (awaiting an ACK or its final sweep: it would
     * miss its ACKs). A PHY that sends, receives or switches is tried again when it is
     * idle; a queued packet, when the MAC lets one go; an open message of its own drops
     * the request.
     */
    void TrySleep();
    /** \brief Resume the PHY from a sleep of DoIdleUntil (nothing if it is not asleep). */
    void Wake();
    /** A message in flight, as the shared D2dWifiNetwork keeps it. */
    using MessageState = D2dWifiNetwork::MessageState;

    /** \brief One attempt of one message waiting to be handed to the socket. */
    struct TxItem
    {
        uint64_t msgId{0};   //!< message id
        uint32_t attempt{0}; //!< attempt number
        uint32_t next{0};    //!< next fragment to hand to the socket
    };

    /**
     * \brief Queue an attempt of a message for the socket: at once for a unicast; after a
     * random jitter in [0, GroupJitter) for a broadcast or multicast (RFC 5148).
     * \param state the message
     */
    void QueueAttempt(Ptr<MessageState> state);
    /**
     * \brief The jitter of a group attempt has passed: queue it (unless the message ended).
     * \param msgId message id
     * \param attempt attempt number
     */
    void JitterDone(uint64_t msgId, uint32_t attempt);
    /**
     * \brief Withdraw a message none of whose fragments has been handed to the socket yet
     * (waiting for its group jitter, or queued behind other messages): its receivers get
     * rows "cancelled", not delivered; no send-done. A message whose first fragment went to
     * the socket (hence to the MAC) goes on.
     * \param msgId the message
     * \return whether it was withdrawn
     */
    bool DoCancel(uint64_t msgId) override;
    /** \brief Schedule Pump() now, once. */
    void SchedulePump();
    /** \brief Hand fragments to the socket while the MAC queue has room. */
    void Pump();
    /**
     * \param state the message
     * \param index fragment index
     * \return the payload size of that fragment (bytes)
     */
    uint32_t FragmentPayload(const MessageState& state, uint32_t index) const;
    /**
     * \brief The MAC released a packet (sent, acknowledged or dropped).
     * \param mpdu the MPDU leaving the MAC queue
     */
    void MacQueueRelease(Ptr<const WifiMpdu> mpdu);
    /**
     * \brief The MAC finished with the last fragment of an attempt.
     * \param msgId message id
     * \param attempt attempt number
     */
    void AttemptOnAir(uint64_t msgId, uint32_t attempt);
    /** \param socket the socket with packets to read */
    void HandleRead(Ptr<Socket> socket);
    /** \param h header of a received DATA packet */
    void ReceiveData(const D2dWifiFragmentHeader& h);
    /** \param h header of a received ACK packet */
    void ReceiveAck(const D2dWifiFragmentHeader& h);
    /**
     * \brief Send an end-to-end ACK for a message to its sender.
     * \param state the message
     * \param attempt the attempt acknowledged
     */
    void SendAck(const MessageState& state, uint32_t attempt);
    /** \param msgId message whose reassembly timeout expired at this receiver */
    void ReassemblyExpired(uint64_t msgId);
    /** \param msgId unreliable message whose receivers that got nothing are closed now */
    void FinishUnreliable(uint64_t msgId);
    /** \param msgId reliable message whose ACK timeout expired */
    void AckExpired(uint64_t msgId);
    /**
     * \brief The receivers of a reliable broadcast or multicast the sender still waits
     * for: no ACK from them yet, not off, and not closed without delivery.
     * \param state the message
     * \return their device indices, ascending
     */
    std::vector<uint32_t> AwaitedReceivers(const MessageState& state) const;
    /**
     * \brief Sender side of a reliable broadcast or multicast: if no receiver is awaited
     * any more, end the send (close the open receivers, SendDone, release).
     * \param state the message (sent by this device)
     * \return true if the send ended (now or before)
     */
    bool FinishIfNoneAwaited(Ptr<MessageState> state);
    /**
     * \brief FinishIfNoneAwaited on a message this device sends, by id (scheduled when a
     * receiver of it turns off).
     * \param msgId message id
     */
    void CheckAwaited(uint64_t msgId);
    /**
     * \brief Write the record of one (message, receiver) pair and, if delivered, hand the
     * reception to the receiver.
     * \param state the message
     * \param receiver receiver index
     * \param delivered whether the receiver gets the (possibly partial) message
     * \param reason failure reason ("" when delivered; computed if empty and not delivered)
     */
    void CloseReceiver(Ptr<MessageState> state,
                       uint32_t receiver,
                       bool delivered,
                       std::string reason);
    /** \param state release the message if nothing is left to do for it */
    void MaybeRelease(Ptr<MessageState> state);

    // Attributes
    uint16_t m_port;     //!< UDP port of the socket, the same on every device (Port)
    uint32_t m_mtuBytes; //!< payload bytes per fragment (bytes, MtuBytes)
    /** Unreliable mode: a receiver delivers the fragments it has this long after the last one
     * arrived (ReassemblyTimeout). */
    Time m_reassemblyTimeout;
    /** Reliable mode: the message is retransmitted if no ACK came this long after the MAC
     * finished with its last fragment (AckTimeout). */
    Time m_ackTimeout;
    uint32_t m_maxRetransmissions; //!< reliable: end-to-end retransmissions before the send fails
    uint32_t m_maxQueuedPackets;   //!< packets of this device kept in the MAC queue at most
    Time m_groupJitter;            //!< a broadcast/multicast attempt waits U[0, this) (RFC 5148)

    Ptr<UniformRandomVariable> m_jitter; //!< the jitter of group attempts
    std::map<std::pair<uint64_t, uint32_t>, EventId> m_jitterEvents; //!< (msgId, attempt)
    Ptr<D2dWifiNetwork> m_network; //!< state shared by the transports of the network
    Ptr<WifiNetDevice> m_device;   //!< this node's 802.11 device (null: no pacing)
    Ptr<WifiMacQueue> m_macQueue;  //!< the device's best-effort queue, watched for pacing
    Ptr<Socket> m_socket;          //!< the UDP socket, bound to m_port by Start()
    std::list<TxItem> m_txQueue;   //!< a list: an empty std::deque allocates ~600 bytes
    EventId m_pumpEvent;           //!< the pending Pump() (SchedulePump schedules at most one)
    EventId m_wakeEvent;           //!< the end of a sleep of DoIdleUntil
    EventId m_sleepRetry;          //!< TrySleep() once the PHY or the MAC queue is free
    Time m_idleUntil;              //!< DoIdleUntil's time: asleep until then where free
    /** Packet uid of the last fragment of an attempt -> (msgId, attempt). */
    std::unordered_map<uint64_t, std::pair<uint64_t, uint32_t>> m_lastFragmentUids;
    uint64_t m_nSent{0};     //!< packets handed to the socket (fragments and ACKs)
    uint64_t m_nReceived{0}; //!< packets read from the socket, ignored ones included
};

} // namespace ns3

#endif /* D2D_WIFI_TRANSPORT_H */
