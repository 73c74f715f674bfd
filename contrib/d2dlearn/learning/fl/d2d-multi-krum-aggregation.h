/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MULTI_KRUM_AGGREGATION_H
#define D2D_MULTI_KRUM_AGGREGATION_H

#include "d2d-krum-aggregation.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Multi-Krum (Blanchard et al., "Machine Learning with Adversaries: Byzantine
 * Tolerant Gradient Descent", NeurIPS 2017): the mean of the m local gradients of lowest
 * Krum score (equal scores: lower device first), weighted by the clients' sample counts n_k
 * (Weights "samples", the default, as the code of Che et al. 2022 aggregates Multi-Krum's
 * choice) or plain (Weights "uniform", the mean of Blanchard et al.).
 *
 * A Krum that overrides only the aggregation step: f as for D2dKrumAggregation (its
 * ByzantineCount, or ByzantineFraction of the round's participants); m = max(1,
 * round(SelectFraction x participants)), SelectFraction a share in [0, 1], at most the number
 * of gradients that arrived (the cmfl scenario's Multi-Krum: alpha of the participants).
 */
class D2dMultiKrumAggregation : public D2dKrumAggregation
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

    /** How the m chosen gradients are averaged (Weights attribute). */
    enum class Weights
    {
        SAMPLES, //!< by n_k (Che et al. 2022's code)
        UNIFORM, //!< plain mean (Blanchard et al. 2017)
    };

  private:
    double m_selectFraction; //!< m as a share of the participants, a share in [0, 1]
    int m_weights{static_cast<int>(Weights::SAMPLES)}; //!< a Weights (EnumValue converts via int)
};

} // namespace ns3

#endif /* D2D_MULTI_KRUM_AGGREGATION_H */
