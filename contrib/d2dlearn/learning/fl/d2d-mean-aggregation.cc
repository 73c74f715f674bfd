/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-mean-aggregation.h"

#include "d2d-fl-protocol.h"
#include "d2d-robust-aggregation.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMeanAggregation");
NS_OBJECT_ENSURE_REGISTERED(D2dMeanAggregation);

TypeId
D2dMeanAggregation::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dMeanAggregation")
                            .SetParent<D2dAggregationStrategy>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dMeanAggregation>();
    return tid;
}

std::vector<float>
D2dMeanAggregation::Aggregate(const Vectors& g,
                              const std::vector<double>& weights,
                              uint32_t /* participants */) const
{
    return D2dRobustAggregation::Mean(g, weights);
}

std::vector<double>
D2dMeanAggregation::AggregateModels(const std::vector<float>& base,
                                    const Vectors& models,
                                    const std::vector<double>& weights,
                                    uint32_t /* participants */) const
{
    // g = w^t - sum_k (n_k / n) w_k: the weighted average of the models, subtracted in double.
    const std::vector<float> mean = D2dRobustAggregation::Mean(models, weights);
    NS_ABORT_MSG_IF(mean.size() != base.size(), "D2dMeanAggregation: model sizes differ");
    std::vector<double> g(base.size());
    for (std::size_t j = 0; j < g.size(); ++j)
    {
        g[j] = static_cast<double>(base[j]) - mean[j];
    }
    return g;
}

std::vector<float>
D2dMeanAggregation::StepFetched(const std::vector<float>& base,
                                const Fetch& fetch,
                                bool models,
                                const std::vector<double>& weights,
                                uint32_t /* participants */,
                                double eta) const
{
    NS_ABORT_MSG_IF(weights.empty(), "D2dMeanAggregation::StepFetched: no values");
    // The arithmetic of Step(): the mean as Mean() forms it, then (weights) AggregateModels'
    // g = w^t - mean in double, or (gradients) g = mean; then the global step.
    const std::vector<float> mean = D2dRobustAggregation::Mean(weights, fetch);
    NS_ABORT_MSG_IF(mean.size() != base.size(), "D2dMeanAggregation: model sizes differ");
    if (!models)
    {
        return GlobalStep(base, mean, eta);
    }
    std::vector<double> g(base.size());
    for (std::size_t j = 0; j < g.size(); ++j)
    {
        g[j] = static_cast<double>(base[j]) - mean[j];
    }
    return GlobalStep(base, g, eta);
}

} // namespace ns3
