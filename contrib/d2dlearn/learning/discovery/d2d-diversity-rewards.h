/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DIVERSITY_REWARDS_H
#define D2D_DIVERSITY_REWARDS_H

#include "d2d-message-passing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The supervised diversity metric, the reliable clusters and the rewards of Wagle, Das,
 * Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025: eq. (1) (clusters), eq. (8) (labels satisfied), the score g of
 * sec. V-A3, eq. (13) (local reward) and eq. (14) (global reward). Pure functions.
 */
class D2dDiversityRewards
{
  public:
    /** The distance g measures the change of the label histogram with. */
    enum class Metric
    {
        W1, //!< 1-Wasserstein distance, ground metric |l - l'| (Kantorovich 1960)
        JS  //!< Jensen-Shannon distance, base-2 logarithms, in [0, 1] (Lin 1991; App. D-B)
    };

    /**
     * \param name w1 | js
     * \return the metric
     * \throws std::invalid_argument for another name
     */
    static Metric ParseMetric(const std::string& name);

    /**
     * \param counts a histogram (non-negative)
     * \return counts / sum (all zeros if the sum is 0)
     */
    static D2dFractionalCounts Normalise(const D2dFractionalCounts& counts);
    /**
     * \brief 1-Wasserstein distance of two histograms on the labels 0..L-1 after normalising
     * each: sum over l < L-1 of |CDF_p(l) - CDF_q(l)|.
     */
    static double Wasserstein1(const D2dFractionalCounts& p, const D2dFractionalCounts& q);
    /** \brief Jensen-Shannon distance sqrt(JSD) (base 2) of the normalised histograms. */
    static double JensenShannon(const D2dFractionalCounts& p, const D2dFractionalCounts& q);
    /** \return the distance of the metric between the normalised histograms */
    static double Distance(Metric metric,
                           const D2dFractionalCounts& p,
                           const D2dFractionalCounts& q);
    /** \return W1 of the normalised counts to the uniform histogram (the bias left) */
    static double DistanceToUniform(const D2dFractionalCounts& counts);

    /** \return the labels l with counts[l] >= thresholds[l] (the left side of eq. (8)) */
    static uint32_t Satisfied(const D2dFractionalCounts& counts,
                              const D2dFractionalCounts& thresholds);

    /**
     * \brief The score g of sec. V-A3: Distance(before, after) when eq. (8) holds on
     * thresholdCounts (>= minLabels labels at or above their threshold), else 0.
     * \param metric the distance
     * \param before D_i
     * \param after D-hat_i (the histogram after the exchange)
     * \param thresholdCounts the counts eq. (8) is checked on (the loss-free allocation or
     *        D-hat_i itself)
     * \param thresholds b_i
     * \param minLabels L-hat
     * \return g
     */
    static double Gain(Metric metric,
                       const D2dFractionalCounts& before,
                       const D2dFractionalCounts& after,
                       const D2dFractionalCounts& thresholdCounts,
                       const D2dFractionalCounts& thresholds,
                       uint32_t minLabels);

    /** \brief Eq. (13): alpha1 g - alpha2 P_D(i, j). */
    static double LocalReward(double gain, double pDrop, double alpha1, double alpha2);

    /**
     * \brief Eq. (14): sum of the cluster members' local rewards / N + alpha3 (B_k - d'_k).
     * \param memberRewards r^L of the members of cluster k
     * \param nDevices N
     * \param alpha3 the budget weight
     * \param budget B_k
     * \param interClusterPoints d'_k: datapoints the members receive over inter-cluster links
     * \return r^G_k
     */
    static double GlobalReward(const std::vector<double>& memberRewards,
                               uint32_t nDevices,
                               double alpha3,
                               double budget,
                               double interClusterPoints);

    /**
     * \brief Reliable clusters of eq. (1), greedy: devices in index order join the first
     * cluster all of whose members m have P_D(i, m) <= alphaD and P_D(m, i) <= alphaD, else
     * start a new one.
     * \param pDrop pDrop[i][j] = P_D(i, j)
     * \param alphaD the reliability threshold
     * \return cluster index of each device (clusters numbered in order of creation)
     */
    static std::vector<uint32_t> Clusters(const std::vector<std::vector<double>>& pDrop,
                                          double alphaD);
};

} // namespace ns3

#endif /* D2D_DIVERSITY_REWARDS_H */
