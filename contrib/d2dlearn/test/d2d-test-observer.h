/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the channel suites observe of a D2D channel (not part of the module's API). Torch-free
 * and apart from d2d-test-fixtures.h: the sanitized test runner, which builds the channel
 * suite without the learning library, links it too.
 */

#ifndef D2D_TEST_OBSERVER_H
#define D2D_TEST_OBSERVER_H

#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Everything a test observes of a channel: its radios' delivery records, receptions
 * and send-done calls, and the channel's transmissions. Connect() sets the radios' receive
 * and send-done callbacks (replacing any other) and captures `this`: the observer must stay
 * where it is until the simulation has run.
 */
struct D2dTestChannelObserver
{
    std::vector<D2dDeliveryRecord> records;          //!< every radio's Delivery rows
    std::vector<D2dReception> receptions;            //!< every radio's receptions
    std::vector<std::pair<uint64_t, bool>> sendDone; //!< (msgId, delivered) per send
    uint64_t transmissions{0};                       //!< the channel's Transmission calls
    std::map<uint64_t, std::pair<Time, Time>> onAir; //!< msgId -> (start, end) at the sender
    std::map<uint64_t, uint32_t> sender;             //!< msgId -> sending device index

    /**
     * \brief Observe the channel: its radios' Delivery trace, receive and send-done callbacks,
     * and its Transmission trace.
     * \param ch the channel
     */
    void Connect(Ptr<D2dChannel> ch);
};

} // namespace ns3

#endif /* D2D_TEST_OBSERVER_H */
