/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-aggregation-strategy.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dAggregationStrategy");
NS_OBJECT_ENSURE_REGISTERED(D2dAggregationStrategy);

namespace
{
/** w_j = w^t_j - eta g_j in double, rounded once (the arithmetic of every protocol's step). */
template <typename T>
std::vector<float>
GlobalStepOf(const std::vector<float>& base, const std::vector<T>& g, double eta)
{
    NS_ABORT_MSG_IF(g.size() != base.size(),
                    "D2dAggregationStrategy::GlobalStep: a global gradient of "
                        << g.size() << " values for a model of " << base.size());
    std::vector<float> w(base.size());
    for (std::size_t j = 0; j < w.size(); ++j)
    {
        w[j] = static_cast<float>(base[j] - eta * static_cast<double>(g[j]));
    }
    return w;
}
} // namespace

TypeId
D2dAggregationStrategy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dAggregationStrategy").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

std::vector<double>
D2dAggregationStrategy::AggregateModels(const std::vector<float>& base,
                                        const Vectors& models,
                                        const std::vector<double>& weights,
                                        uint32_t participants) const
{
    // g_k = w^t - w_k, in float (what a device's pseudo-gradient is on the wire).
    Vectors g;
    g.reserve(models.size());
    for (const auto& w : models)
    {
        NS_ABORT_MSG_IF(!w || w->size() != base.size(),
                        "D2dAggregationStrategy::AggregateModels: model sizes differ");
        auto gk = std::make_shared<std::vector<float>>(base.size());
        for (std::size_t j = 0; j < base.size(); ++j)
        {
            (*gk)[j] = base[j] - (*w)[j];
        }
        g.push_back(gk);
    }
    const std::vector<float> out = Aggregate(g, weights, participants);
    return std::vector<double>(out.begin(), out.end());
}

std::vector<float>
D2dAggregationStrategy::GlobalStep(const std::vector<float>& base,
                                   const std::vector<double>& g,
                                   double eta)
{
    return GlobalStepOf(base, g, eta);
}

std::vector<float>
D2dAggregationStrategy::GlobalStep(const std::vector<float>& base,
                                   const std::vector<float>& g,
                                   double eta)
{
    return GlobalStepOf(base, g, eta);
}

std::vector<float>
D2dAggregationStrategy::StepFetched(const std::vector<float>& base,
                                    const Fetch& fetch,
                                    bool models,
                                    const std::vector<double>& weights,
                                    uint32_t participants,
                                    double eta) const
{
    Vectors values;
    values.reserve(weights.size());
    for (std::size_t k = 0; k < weights.size(); ++k)
    {
        values.push_back(fetch(k));
    }
    return Step(base, values, models, weights, participants, eta);
}

std::vector<float>
D2dAggregationStrategy::Step(const std::vector<float>& base,
                             const Vectors& values,
                             bool models,
                             const std::vector<double>& weights,
                             uint32_t participants,
                             double eta) const
{
    NS_ABORT_MSG_IF(values.empty() || values.size() != weights.size(),
                    "D2dAggregationStrategy::Step: " << values.size() << " values, "
                                                     << weights.size() << " weights");
    if (models)
    {
        return GlobalStep(base, AggregateModels(base, values, weights, participants), eta);
    }
    const std::vector<float> g = Aggregate(values, weights, participants);
    NS_ABORT_MSG_IF(g.size() != base.size(),
                    "D2dAggregationStrategy: " << GetInstanceTypeId().GetName() << " returned "
                                               << g.size() << " of " << base.size() << " values");
    return GlobalStep(base, g, eta);
}

} // namespace ns3
