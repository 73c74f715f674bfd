/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MEAN_AGGREGATION_H
#define D2D_MEAN_AGGREGATION_H

#include "d2d-aggregation-strategy.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The n_k-weighted mean (FedAvg: McMahan et al., "Communication-Efficient Learning
 * of Deep Networks from Decentralized Data", AISTATS 2017; CMFL's eq. (5)):
 * g = sum_k (n_k / n) g_k, n = sum_k n_k. The default of every protocol's Aggregation
 * attribute.
 *
 * For uploaded weights (AggregateModels) it averages the models and subtracts once,
 * g = w^t - sum_k (n_k / n) w_k in double, which is FedAvg's arithmetic bit for bit (the
 * mean of the float g_k = w^t - w_k would round differently).
 */
class D2dMeanAggregation : public D2dAggregationStrategy
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
    std::vector<double> AggregateModels(const std::vector<float>& base,
                                        const Vectors& models,
                                        const std::vector<double>& weights,
                                        uint32_t participants) const override;
    /**
     * \brief The same step, each value added to a running sum in double as it is fetched
     * (in ascending device order, as Step() adds them) and then dropped: at most one value
     * is held at a time.
     */
    std::vector<float> StepFetched(const std::vector<float>& base,
                                   const Fetch& fetch,
                                   bool models,
                                   const std::vector<double>& weights,
                                   uint32_t participants,
                                   double eta) const override;
};

} // namespace ns3

#endif /* D2D_MEAN_AGGREGATION_H */
