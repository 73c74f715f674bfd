/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISCOVERY_PAYLOAD_H
#define D2D_DISCOVERY_PAYLOAD_H

#include "d2d-message-passing.h"

#include "ns3/d2d-message.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What a graph-discovery message carries (by reference; its size on the air is the
 * message's): the vector V, Q or U (or the datapoints' labels), or a local reward and the
 * datapoints received over inter-cluster links (the d'_k share of eq. (14)), or a cluster's global
 * reward.
 */
struct D2dDiscoveryPayload : public D2dPayload
{
    uint32_t edge{0};             //!< the edge being discovered (Remark 2), from 0
    uint32_t iteration{0};        //!< the iteration the message belongs to
    D2dFractionalCounts values;   //!< V, Q, U, or the datapoints sent per label
    double localReward{0};        //!< reward messages: r^L of the sender
    double interClusterPoints{0}; //!< reward messages: points received over inter-cluster links
    double globalReward{0};       //!< a cluster head's r^G (eq. (14)) to its members
};

} // namespace ns3

#endif /* D2D_DISCOVERY_PAYLOAD_H */
