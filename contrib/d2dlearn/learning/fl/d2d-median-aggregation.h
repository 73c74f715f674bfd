/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MEDIAN_AGGREGATION_H
#define D2D_MEDIAN_AGGREGATION_H

#include "d2d-aggregation-strategy.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Coordinate-wise median (Yin et al., "Byzantine-Robust Distributed Learning:
 * Towards Optimal Statistical Rates", ICML 2018): g_j = median_k g_{k,j}; an even number
 * of gradients gives the mean of the two middle values. The weights n_k are ignored.
 */
class D2dMedianAggregation : public D2dAggregationStrategy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::vector<float> Aggregate(const Vectors& g,
                                 const std::vector<double>& weights,
                                 uint32_t participants) const override;
};

} // namespace ns3

#endif /* D2D_MEDIAN_AGGREGATION_H */
