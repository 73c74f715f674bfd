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

D2dFractionalCounts
D2dDiscoveryParadigm::GetLabelCounts(uint32_t device) const
{
    return GetCounts(device);
}

uint32_t
D2dDiscoveryParadigm::GetMinLabels(uint32_t) const
{
    return 0;
}

bool
D2dDiscoveryParadigm::HasOfferPhase() const
{
    return true;
}

uint64_t
D2dDiscoveryParadigm::GetAllocationBytes() const
{
    return GetVectorBytes();
}

uint64_t
D2dDiscoveryParadigm::GetRewardExtraBytes() const
{
    return 0;
}

void
D2dDiscoveryParadigm::StartStep()
{
}

std::vector<D2dFractionalCounts>
D2dDiscoveryParadigm::AllocateTo(uint32_t transmitter,
                                 const std::vector<uint32_t>& /* receivers */,
                                 const std::vector<D2dFractionalCounts>& demands) const
{
    return Allocate(transmitter, demands);
}

double
D2dDiscoveryParadigm::GainFrom(uint32_t receiver,
                               uint32_t /* transmitter */,
                               const D2dFractionalCounts& allocated,
                               double pDrop,
                               const D2dFractionalCounts& sent)
{
    return Gain(receiver, allocated, pDrop, sent);
}

bool
D2dDiscoveryParadigm::HasSystemAgreement() const
{
    return false;
}

double
D2dDiscoveryParadigm::SystemAgreement(const std::vector<uint32_t>& /* devices */) const
{
    return 0.0;
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
