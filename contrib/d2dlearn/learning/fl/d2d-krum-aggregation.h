/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_KRUM_AGGREGATION_H
#define D2D_KRUM_AGGREGATION_H

#include "d2d-aggregation-strategy.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Krum (Blanchard et al., "Machine Learning with Adversaries: Byzantine Tolerant
 * Gradient Descent", NeurIPS 2017): the local gradient of lowest Krum score
 * s_i = sum of ||g_i - g_j||^2 over the n - f - 2 gradients nearest to g_i (at least 1).
 *
 * The tolerated Byzantine count f is ByzantineCount, or, if that is -1,
 * round(ByzantineFraction x participants) of the round (the devices it sampled;
 * ByzantineFraction a share in [0, 1]).
 * The weights n_k are ignored.
 */
class D2dKrumAggregation : public D2dAggregationStrategy
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

  protected:
    /**
     * \param participants the devices sampled for the round
     * \return f: ByzantineCount, or round(ByzantineFraction x participants)
     */
    uint32_t ByzantineCountFor(uint32_t participants) const;

  private:
    int64_t m_byzantineCount;   //!< f (-1: from m_byzantineFraction)
    double m_byzantineFraction; //!< Byzantine share of the participants, a share in [0, 1]
};

} // namespace ns3

#endif /* D2D_KRUM_AGGREGATION_H */
