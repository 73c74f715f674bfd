/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRIMMED_MEAN_AGGREGATION_H
#define D2D_TRIMMED_MEAN_AGGREGATION_H

#include "d2d-aggregation-strategy.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Coordinate-wise beta-trimmed mean (Yin et al., "Byzantine-Robust Distributed
 * Learning: Towards Optimal Statistical Rates", ICML 2018): per coordinate, drop the
 * b = floor(beta n) largest and the b smallest of the n values and average the n - 2b
 * others (beta: TrimFraction, a share in [0, 0.5)). The weights n_k are ignored.
 */
class D2dTrimmedMeanAggregation : public D2dAggregationStrategy
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

  private:
    double m_trimFraction; //!< beta, a share in [0, 0.5)
};

} // namespace ns3

#endif /* D2D_TRIMMED_MEAN_AGGREGATION_H */
