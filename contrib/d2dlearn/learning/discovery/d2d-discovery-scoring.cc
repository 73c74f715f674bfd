/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-discovery-scoring.h"

namespace ns3
{

void
D2dDiscoveryScoring::StartStep()
{
}

std::vector<D2dFractionalCounts>
D2dDiscoveryScoring::AllocateTo(uint32_t transmitter,
                                const std::vector<uint32_t>& /* receivers */,
                                const std::vector<D2dFractionalCounts>& demands) const
{
    return Allocate(transmitter, demands);
}

double
D2dDiscoveryScoring::GainFrom(uint32_t receiver,
                              uint32_t /* transmitter */,
                              const D2dFractionalCounts& allocated,
                              double pDrop,
                              const D2dFractionalCounts& sent)
{
    return Gain(receiver, allocated, pDrop, sent);
}

std::vector<double>
D2dDiscoveryScoring::GainsFrom(const std::vector<GainRequest>& requests)
{
    std::vector<double> g;
    g.reserve(requests.size());
    for (const auto& r : requests)
    {
        g.push_back(GainFrom(r.receiver, r.transmitter, *r.allocated, r.pDrop, *r.sent));
    }
    return g;
}

bool
D2dDiscoveryScoring::HasSystemAgreement() const
{
    return false;
}

double
D2dDiscoveryScoring::SystemAgreement(const std::vector<uint32_t>& /* devices */) const
{
    return 0.0;
}

void
D2dDiscoveryScoring::PrepareAgreements(const std::vector<std::vector<uint32_t>>& /* groups */)
{
}

} // namespace ns3
