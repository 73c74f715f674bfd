/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ROBUST_AGGREGATION_H
#define D2D_ROBUST_AGGREGATION_H

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Server-side aggregation rules: the plain weighted mean of Che et al. 2022's eq.
 * (aggregation) and the Byzantine-tolerant baselines of its robustness experiment
 * ("Robustness Comparative Experiment"): Median and Trimmed Mean (Yin et al. 2018), Krum
 * and Multi-Krum (Blanchard et al. 2017).
 *
 * Every rule maps the local gradients g_k (all of one size) to a global gradient g; sums
 * and distances are accumulated in double. Pure functions: the D2dAggregationStrategy
 * classes (D2dMeanAggregation, D2dMedianAggregation, D2dTrimmedMeanAggregation,
 * D2dKrumAggregation, D2dMultiKrumAggregation) wrap them for the protocols' Aggregation
 * attribute. Unit tests: contrib/d2dlearn/test/gtest/ (GoogleTest).
 */
class D2dRobustAggregation
{
  public:
    /** The local gradients g_k, one shared vector each. */
    typedef std::vector<std::shared_ptr<const std::vector<float>>> Vectors;

    /**
     * \brief Eq. (aggregation): g = sum_k (n_k / n) g_k, n = sum_k n_k, accumulated in
     * double (FedAvg's weighted mean of McMahan et al. 2017 too).
     * \param g the local gradients (not empty, equal sizes)
     * \param weights n_k, one per gradient
     * \return g
     */
    static std::vector<float> Mean(const Vectors& g, const std::vector<double>& weights);

    /** Gives vector k (k = 0 .. K - 1, asked once each, in order). */
    typedef std::function<std::shared_ptr<const std::vector<float>>(std::size_t)> Fetch;

    /**
     * \brief The same weighted mean over vectors fetched one at a time (each may be dropped
     * once it is added): Mean()'s arithmetic, bit for bit, without holding all K.
     * \param weights n_k, one per vector (not empty; normalized here)
     * \param fetch gives vector k
     * \return sum_k (n_k / n) v_k
     */
    static std::vector<float> Mean(const std::vector<double>& weights, const Fetch& fetch);

    /**
     * \brief Coordinate-wise median (Yin et al. 2018): g_j = median_k g_{k,j}; an even
     * number of gradients gives the mean of the two middle values.
     * \param g the local gradients (not empty, equal sizes)
     * \return g
     */
    static std::vector<float> Median(const Vectors& g);

    /**
     * \brief Coordinate-wise beta-trimmed mean (Yin et al. 2018): per coordinate, drop the
     * b = floor(beta n) largest and the b smallest of the n values (D2dShare::Count) and
     * average the n - 2b others.
     * \param g the local gradients (not empty, equal sizes)
     * \param beta a share in [0, 0.5)
     * \return g
     */
    static std::vector<float> TrimmedMean(const Vectors& g, double beta);

    /**
     * \brief Krum scores (Blanchard et al. 2017): s_i = sum of ||g_i - g_j||^2 over the
     * n - f - 2 gradients j != i nearest to g_i (at least 1, at most n - 1).
     * \param g the local gradients (not empty, equal sizes)
     * \param f number of Byzantine clients tolerated
     * \return s_i per gradient (0 if there is only one)
     */
    static std::vector<double> KrumScores(const Vectors& g, uint32_t f);

    /**
     * \brief Multi-Krum's selection: the m gradients of lowest Krum score.
     * \param g the local gradients (not empty, equal sizes)
     * \param f number of Byzantine clients tolerated
     * \param m number selected, in [1, n]
     * \return their indices, by ascending score (equal scores: lower index first)
     */
    static std::vector<uint32_t> MultiKrumSelect(const Vectors& g, uint32_t f, uint32_t m);

    /**
     * \brief Krum: the gradient of lowest Krum score.
     * \param g the local gradients (not empty, equal sizes)
     * \param f number of Byzantine clients tolerated
     * \return a copy of that gradient
     */
    static std::vector<float> Krum(const Vectors& g, uint32_t f);

    /**
     * \brief Multi-Krum: the plain (unweighted) mean of the MultiKrumSelect gradients.
     * \param g the local gradients (not empty, equal sizes)
     * \param f number of Byzantine clients tolerated
     * \param m number averaged, in [1, n]
     * \return g
     */
    static std::vector<float> MultiKrum(const Vectors& g, uint32_t f, uint32_t m);

    /**
     * \brief Multi-Krum with weights: the weighted mean sum_i n_i g_i / sum_i n_i over the
     * MultiKrumSelect gradients (the aggregation of Che et al. 2022's code, which averages
     * the selected clients by their sample counts).
     * \param g the local gradients (not empty, equal sizes)
     * \param weights n_i per gradient (same count as g, each > 0)
     * \param f number of Byzantine clients tolerated
     * \param m number averaged, in [1, n]
     * \return g
     */
    static std::vector<float> MultiKrum(const Vectors& g,
                                        const std::vector<double>& weights,
                                        uint32_t f,
                                        uint32_t m);

    /**
     * \brief The Byzantine count f of a round: count itself if count >= 0, else
     * round(fraction x participants) (D2dShare::Count; the cmfl scenario's krumF = -1:
     * epsilon x participants).
     * \param count f, or -1 to derive it from fraction
     * \param fraction the Byzantine share, a share in [0, 1]
     * \param participants devices sampled for the round
     * \return f
     */
    static uint32_t ByzantineCount(int64_t count, double fraction, uint32_t participants);

    /**
     * \brief Multi-Krum's m of a round: max(1, round(fraction x participants))
     * (D2dShare::Count), at most the n gradients that arrived.
     * \param fraction the share averaged, a share in [0, 1]
     * \param participants devices sampled for the round
     * \param n gradients that arrived (at least 1)
     * \return m in [1, n]
     */
    static uint32_t SelectCount(double fraction, uint32_t participants, uint32_t n);
};

} // namespace ns3

#endif /* D2D_ROBUST_AGGREGATION_H */
