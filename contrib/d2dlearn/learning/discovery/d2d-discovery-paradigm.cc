/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-discovery-paradigm.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dDiscoveryParadigm);

TypeId
D2dDiscoveryParadigm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dDiscoveryParadigm").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

bool
D2dDiscoveryParadigm::UsesServer() const
{
    return false;
}

bool
D2dDiscoveryParadigm::TakesPart(uint32_t /* device */) const
{
    return true;
}

bool
D2dDiscoveryParadigm::Exchange(const std::vector<Transfer>& /* transfers */)
{
    return false;
}

} // namespace ns3
