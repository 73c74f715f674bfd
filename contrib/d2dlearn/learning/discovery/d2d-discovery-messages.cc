/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-discovery-messages.h"

namespace ns3
{

bool
D2dDiscoveryMessages::HasOfferPhase() const
{
    return true;
}

uint64_t
D2dDiscoveryMessages::GetAllocationBytes() const
{
    return GetVectorBytes();
}

uint64_t
D2dDiscoveryMessages::GetRewardExtraBytes() const
{
    return 0;
}

} // namespace ns3
