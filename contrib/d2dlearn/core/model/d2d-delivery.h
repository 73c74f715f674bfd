/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DELIVERY_H
#define D2D_DELIVERY_H

#include "d2d-message.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How a sender wants a message delivered.
 */
enum class D2dDeliveryMode
{
    /** Fragments are sent once; the receiver gets whatever arrived (a partial message). */
    UNRELIABLE,
    /** Lost fragments are retransmitted up to a retry limit; otherwise the message fails. */
    RELIABLE
};

/** \return "unreliable" or "reliable" */
std::string ToString(D2dDeliveryMode mode);

/**
 * Destination meaning "every neighbour": every other device that can hear the sender
 * (D2dChannel: W_ij above the receiver's sensitivity and, with RangeM, within range; the
 * Wi-Fi backend: every other device of the network). Devices that cannot hear get no row.
 */
constexpr uint32_t D2D_BROADCAST = std::numeric_limits<uint32_t>::max();

/**
 * Destination reported (send-done callback, Send trace) for a send to a named set of
 * receivers (D2dTransport::Send with a receiver list).
 */
constexpr uint32_t D2D_MULTICAST = std::numeric_limits<uint32_t>::max() - 1;

/**
 * \ingroup d2dlearn
 * \brief What a receiver gets: the message plus how much of it arrived.
 */
struct D2dReception
{
    uint64_t msgId{0};                                 //!< id unique within the network
    uint32_t src{0};                                   //!< sender's device index
    uint32_t dst{0};                                   //!< receiver's device index
    Ptr<const D2dMessage> message;                     //!< the message (payload by reference)
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode used
    uint32_t fragments{0};                             //!< fragments the message was cut into
    uint32_t fragmentsReceived{0}; //!< fragments that arrived (== fragments if complete)
    Time sendTime;                 //!< when Send() was called
    Time recvTime;                 //!< when the last fragment arrived

    /** \return true if every fragment arrived */
    bool IsComplete() const
    {
        return fragmentsReceived == fragments;
    }

    /**
     * \brief Items of an itemised message (e.g. datapoints) that arrived: the items of the
     * fragments that arrived, items spread evenly over fragments.
     * \return number of items received
     */
    uint64_t ItemsReceived() const;
};

/**
 * \ingroup d2dlearn
 * \brief Outcome of one (message, receiver) pair: one row of messages.csv.
 */
struct D2dDeliveryRecord
{
    uint64_t msgId{0};                                 //!< message id
    std::string kind;                                  //!< message kind
    uint32_t src{0};                                   //!< sender index
    uint32_t dst{0};                                   //!< receiver index
    uint64_t bytes{0};                                 //!< message size (bytes)
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode
    Time sendTime;                                     //!< Send() time
    Time recvTime;                                     //!< reception time (valid only if delivered)
    uint32_t fragments{0};                             //!< fragments of the message
    uint32_t fragmentsLost{0};                         //!< fragments that never arrived
    uint32_t retransmissions{0};                       //!< fragment retransmissions (reliable mode)
    bool delivered{false};                             //!< the receiver's callback was invoked
    double dropProbability{0.0};       //!< P_D of the link (eq. 18) when its transmission started
    std::string reason;                //!< why not delivered: "", "loss", "retry_limit", ...
    bool onAir{false};                 //!< the message went on the air (startTime, airtime hold)
    Time startTime;                    //!< when its transmission started (after channel access)
    Time airtime;                      //!< its transmission's airtime (retransmissions included)
    std::vector<uint32_t> subChannels; //!< finite spectrum: the sub-channels it occupied
    double interferenceW{0.0};         //!< co-channel interference I at the receiver at start (W)
    double rssW{0.0}; //!< W_ij used in eq. (18) (W); 0: no link was evaluated (out of range)
    double sinr{0.0}; //!< W_ij / (sigma^2 + I) of eq. (18), linear (with rssW > 0)
    Time sleepWait;   //!< DRX: time it waited for a sleeping sender or receiver before it started
    /** the message's last row: every receiver's outcome is known (a summary can forget the
     * message's state after it; not a messages.csv column) */
    bool lastRow{false};

    /**
     * \return true if the receiver got the whole message (delivered with no fragment
     * lost): the `complete` column. An unreliable message can be delivered incomplete.
     */
    bool IsComplete() const
    {
        return delivered && fragmentsLost == 0;
    }
};

/** Signature of the traces that report a D2dDeliveryRecord. */
typedef void (*D2dDeliveryTracedCallback)(const D2dDeliveryRecord& record);

} // namespace ns3

#endif /* D2D_DELIVERY_H */
