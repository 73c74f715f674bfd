/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-median-aggregation.h"

#include "d2d-robust-aggregation.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMedianAggregation");
NS_OBJECT_ENSURE_REGISTERED(D2dMedianAggregation);

TypeId
D2dMedianAggregation::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dMedianAggregation")
                            .SetParent<D2dAggregationStrategy>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dMedianAggregation>();
    return tid;
}

std::vector<float>
D2dMedianAggregation::Aggregate(const Vectors& g,
                                const std::vector<double>& /* weights */,
                                uint32_t /* participants */) const
{
    return D2dRobustAggregation::Median(g);
}

} // namespace ns3
