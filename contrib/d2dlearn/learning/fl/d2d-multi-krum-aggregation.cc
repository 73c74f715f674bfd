/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-multi-krum-aggregation.h"

#include "d2d-robust-aggregation.h"

#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMultiKrumAggregation");
NS_OBJECT_ENSURE_REGISTERED(D2dMultiKrumAggregation);

TypeId
D2dMultiKrumAggregation::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dMultiKrumAggregation")
            .SetParent<D2dKrumAggregation>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dMultiKrumAggregation>()
            .AddAttribute("SelectFraction",
                          "m, the gradients averaged: max(1, round(SelectFraction x the "
                          "devices sampled for the round)), at most those that arrived; a "
                          "share in [0, 1]",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&D2dMultiKrumAggregation::m_selectFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Weights",
                          "How the m chosen gradients are averaged: samples (weighted by the "
                          "clients' sample counts n_k, as Che et al. 2022's code) or uniform "
                          "(the plain mean of Blanchard et al. 2017)",
                          EnumValue(static_cast<int>(Weights::SAMPLES)),
                          D2dMakeEnumAccessor(&D2dMultiKrumAggregation::m_weights),
                          MakeEnumChecker(static_cast<int>(Weights::SAMPLES),
                                          "samples",
                                          static_cast<int>(Weights::UNIFORM),
                                          "uniform"));
    return tid;
}

std::vector<float>
D2dMultiKrumAggregation::Aggregate(const Vectors& g,
                                   const std::vector<double>& weights,
                                   uint32_t participants) const
{
    const uint32_t f = ByzantineCountFor(participants);
    const uint32_t m = D2dRobustAggregation::SelectCount(m_selectFraction,
                                                         participants,
                                                         static_cast<uint32_t>(g.size()));
    NS_LOG_INFO("Multi-Krum of " << g.size() << " gradients, f = " << f << ", m = " << m);
    if (static_cast<Weights>(m_weights) == Weights::SAMPLES)
    {
        return D2dRobustAggregation::MultiKrum(g, weights, f, m);
    }
    return D2dRobustAggregation::MultiKrum(g, f, m);
}

} // namespace ns3
