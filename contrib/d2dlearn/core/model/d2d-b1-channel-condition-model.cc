/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-b1-channel-condition-model.h"

#include "ns3/mobility-model.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dB1ChannelConditionModel);

TypeId
D2dB1ChannelConditionModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dB1ChannelConditionModel")
                            .SetParent<ThreeGppChannelConditionModel>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dB1ChannelConditionModel>();
    return tid;
}

double
D2dB1ChannelConditionModel::LosProbability(double distance2dM)
{
    // WINNER II D1.1.2 Table 4-7, B1: min(18 / d, 1) (1 - exp(-d / 36)) + exp(-d / 36).
    const double e = std::exp(-distance2dM / 36.0);
    return std::min(18.0 / distance2dM, 1.0) * (1.0 - e) + e;
}

double
D2dB1ChannelConditionModel::ComputePlos(Ptr<const MobilityModel> a,
                                        Ptr<const MobilityModel> b) const
{
    return LosProbability(Calculate2dDistance(a->GetPosition(), b->GetPosition()));
}

} // namespace ns3
