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

/** Destination index meaning "every other device on the channel". */
constexpr uint32_t D2D_BROADCAST = std::numeric_limits<uint32_t>::max();

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
    double dropProbability{0.0}; //!< P_D of the link (eq. 18) when its transmission started
    std::string reason;          //!< why not delivered: "", "loss", "retry_limit", ...
};

/** Signature of the traces that report a D2dDeliveryRecord. */
typedef void (*D2dDeliveryTracedCallback)(const D2dDeliveryRecord& record);

} // namespace ns3

#endif /* D2D_DELIVERY_H */
