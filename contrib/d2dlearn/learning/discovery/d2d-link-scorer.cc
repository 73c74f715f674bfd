/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-link-scorer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dLinkScorer);

TypeId
D2dLinkScorer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dLinkScorer").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

D2dLinkScorer::~D2dLinkScorer() = default;

} // namespace ns3
