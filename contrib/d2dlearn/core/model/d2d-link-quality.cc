/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-link-quality.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dLinkQuality);

TypeId
D2dLinkQuality::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dLinkQuality").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

D2dLinkQuality::~D2dLinkQuality() = default;

uint32_t
D2dLinkQuality::GetLinkState(uint32_t /* rx */, uint32_t /* tx */) const
{
    return 0;
}

bool
D2dLinkQuality::IsDynamic() const
{
    return false;
}

} // namespace ns3
