/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_AGGREGATION_STRATEGY_H
#define D2D_AGGREGATION_STRATEGY_H

#include "ns3/object.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A server's aggregation step, as a strategy object the protocols hold in their
 * Aggregation attribute (in the manner of Flower's FedMedian, FedTrimmedAvg and Krum
 * strategies, which override only the aggregation of the FedAvg round).
 *
 * Aggregate() maps the local gradients g_k of a round (ascending device order) and their
 * weights n_k (local sample counts) to the global gradient g; the protocol then takes the
 * global step w^{t+1} = w^t - eta g (GlobalStep, the one implementation of that step).
 * A protocol whose devices upload trained weights w_k calls AggregateModels(), which forms
 * g_k = w^t - w_k (in float) and calls Aggregate(); D2dMeanAggregation overrides it with
 * the arithmetic FedAvg always used for weights (McMahan et al., "Communication-Efficient
 * Learning of Deep Networks from Decentralized Data", AISTATS 2017): g = w^t - sum_k
 * (n_k / n) w_k, in double.
 *
 * The concrete strategies are stateless between rounds: a value that depends on the
 * round (Krum's Byzantine count as a share of the participants, Multi-Krum's m) is
 * computed at aggregation time from the participants argument, the number of devices the
 * round sampled.
 */
class D2dAggregationStrategy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** The local gradients (or models) of a round, one shared vector each. */
    typedef std::vector<std::shared_ptr<const std::vector<float>>> Vectors;

    /**
     * \brief The global gradient of a round.
     * \param g the local gradients g_k in ascending device order (not empty, equal sizes)
     * \param weights n_k, one per gradient (local sample counts)
     * \param participants devices sampled for the round (>= g.size(): some may not have
     *        answered)
     * \return g, of the size of each g_k
     */
    virtual std::vector<float> Aggregate(const Vectors& g,
                                         const std::vector<double>& weights,
                                         uint32_t participants) const = 0;

    /**
     * \brief The global gradient of a round whose devices uploaded trained weights w_k.
     * By default g_k = w^t - w_k (float) and Aggregate(); D2dMeanAggregation overrides it.
     * \param base w^t, as the devices received it
     * \param models the trained weights w_k in ascending device order
     * \param weights n_k, one per model
     * \param participants devices sampled for the round
     * \return g (double: the mean's g = w^t - sum_k (n_k / n) w_k is not rounded to float)
     */
    virtual std::vector<double> AggregateModels(const std::vector<float>& base,
                                                const Vectors& models,
                                                const std::vector<double>& weights,
                                                uint32_t participants) const;

    /**
     * \brief The global step: w^{t+1}_j = w^t_j - eta g_j, in double, rounded once to float.
     * \param base w^t
     * \param g the global gradient (same size)
     * \param eta the global learning rate
     * \return w^{t+1}
     */
    static std::vector<float> GlobalStep(const std::vector<float>& base,
                                         const std::vector<double>& g,
                                         double eta);
    /**
     * \copydoc GlobalStep(const std::vector<float>&,const std::vector<double>&,double)
     */
    static std::vector<float> GlobalStep(const std::vector<float>& base,
                                         const std::vector<float>& g,
                                         double eta);

    /**
     * \brief Aggregate and step: w^{t+1} = w^t - eta g, g = Aggregate() of the values
     * (gradients) or AggregateModels() (trained weights).
     * \param base w^t
     * \param values g_k, or w_k if models
     * \param models true if the values are trained weights w_k
     * \param weights n_k
     * \param participants devices sampled for the round
     * \param eta the global learning rate
     * \return w^{t+1}
     */
    std::vector<float> Step(const std::vector<float>& base,
                            const Vectors& values,
                            bool models,
                            const std::vector<double>& weights,
                            uint32_t participants,
                            double eta) const;

    /** Gives the k-th value (0-based, ascending device order) when it is needed. */
    typedef std::function<std::shared_ptr<const std::vector<float>>(std::size_t k)> Fetch;

    /**
     * \brief Step() over values fetched one at a time, so that they need not all be in
     * memory together: by default every value is fetched (in order) and Step() is called;
     * D2dMeanAggregation adds each to a running sum as it is fetched and drops it (the
     * same arithmetic as Step(), bit for bit).
     * \param base w^t
     * \param fetch gives g_k, or w_k if models, for k = 0 .. weights.size() - 1 (called
     *        once each, in that order)
     * \param models true if the values are trained weights w_k
     * \param weights n_k
     * \param participants devices sampled for the round
     * \param eta the global learning rate
     * \return w^{t+1}
     */
    virtual std::vector<float> StepFetched(const std::vector<float>& base,
                                           const Fetch& fetch,
                                           bool models,
                                           const std::vector<double>& weights,
                                           uint32_t participants,
                                           double eta) const;
};

} // namespace ns3

#endif /* D2D_AGGREGATION_STRATEGY_H */
