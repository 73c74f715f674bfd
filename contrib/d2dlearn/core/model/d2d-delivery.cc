/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-delivery.h"

namespace ns3
{

std::string
ToString(D2dDeliveryMode mode)
{
    return mode == D2dDeliveryMode::RELIABLE ? "reliable" : "unreliable";
}

uint64_t
D2dReception::ItemsReceived() const
{
    if (!message || fragments == 0)
    {
        return 0;
    }
    const uint64_t items = message->GetItems();
    // Items are laid out evenly over the fragments; the items of the lost fragments are lost.
    return items * fragmentsReceived / fragments;
}

} // namespace ns3
