/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-krum-aggregation.h"

#include "d2d-robust-aggregation.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dKrumAggregation");
NS_OBJECT_ENSURE_REGISTERED(D2dKrumAggregation);

TypeId
D2dKrumAggregation::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dKrumAggregation")
            .SetParent<D2dAggregationStrategy>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dKrumAggregation>()
            .AddAttribute("ByzantineCount",
                          "f, the number of Byzantine devices tolerated (-1: "
                          "ByzantineFraction of the round's participants)",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&D2dKrumAggregation::m_byzantineCount),
                          MakeIntegerChecker<int64_t>(-1, 1000000))
            .AddAttribute("ByzantineFraction",
                          "With ByzantineCount -1: f = round(ByzantineFraction x the "
                          "devices sampled for the round); a share in [0, 1]",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dKrumAggregation::m_byzantineFraction),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

uint32_t
D2dKrumAggregation::ByzantineCountFor(uint32_t participants) const
{
    return D2dRobustAggregation::ByzantineCount(m_byzantineCount,
                                                m_byzantineFraction,
                                                participants);
}

std::vector<float>
D2dKrumAggregation::Aggregate(const Vectors& g,
                              const std::vector<double>& /* weights */,
                              uint32_t participants) const
{
    const uint32_t f = ByzantineCountFor(participants);
    NS_LOG_INFO("Krum of " << g.size() << " gradients, f = " << f);
    return D2dRobustAggregation::Krum(g, f);
}

} // namespace ns3
