/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trimmed-mean-aggregation.h"

#include "d2d-robust-aggregation.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTrimmedMeanAggregation");
NS_OBJECT_ENSURE_REGISTERED(D2dTrimmedMeanAggregation);

TypeId
D2dTrimmedMeanAggregation::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dTrimmedMeanAggregation")
            .SetParent<D2dAggregationStrategy>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dTrimmedMeanAggregation>()
            .AddAttribute("TrimFraction",
                          "beta, a share in [0, 0.5): b = floor(beta n) values are dropped at "
                          "each end of every coordinate",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&D2dTrimmedMeanAggregation::m_trimFraction),
                          MakeDoubleChecker<double>(0.0, std::nextafter(0.5, 0.0)));
    return tid;
}

std::vector<float>
D2dTrimmedMeanAggregation::Aggregate(const Vectors& g,
                                     const std::vector<double>& /* weights */,
                                     uint32_t /* participants */) const
{
    return D2dRobustAggregation::TrimmedMean(g, m_trimFraction);
}

} // namespace ns3
