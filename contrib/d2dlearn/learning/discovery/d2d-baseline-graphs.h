/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_BASELINE_GRAPHS_H
#define D2D_BASELINE_GRAPHS_H

#include "d2d-message-passing.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The baseline graphs of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, sec. VI-A: one
 * incoming edge per receiver (selection[i] = transmitter, -1 none), each then followed by the
 * same message passing. A transmitter in excluded[i] (an earlier edge of i) is not chosen.
 */
class D2dBaselineGraphs
{
  public:
    /** \return selection -1 everywhere: no exchange */
    static std::vector<int64_t> None(uint32_t nDevices);
    /**
     * \brief Closest: the transmitter with the lowest P_D(i, j) (lowest index on ties).
     * \param pDrop pDrop[i][j] = P_D(i, j)
     * \param excluded transmitters i may not choose (may be empty)
     */
    static std::vector<int64_t> Closest(const std::vector<std::vector<double>>& pDrop,
                                        const std::vector<std::vector<bool>>& excluded = {});
    /**
     * \brief Most trusted: the transmitter that can share the most labels,
     * sum_l T_j[i,l] 1[D_j[l] > b_j[l]]; ties to the lower P_D(i, j), then the lower index.
     */
    static std::vector<int64_t> MostTrusted(const D2dExchangeInstance& instance,
                                            const std::vector<std::vector<bool>>& excluded = {});
    /**
     * \brief Most shareable: the transmitter j of the highest shareable[i][j]; ties to the
     * lower P_D(i, j), then the lower index (MostTrusted with any paradigm's measure of
     * what j can share with i).
     * \param shareable shareable[i][j]: what j can share with i
     * \param pDrop pDrop[i][j] = P_D(i, j)
     * \param excluded excluded[i][j]: j may not be i's transmitter
     * \return the transmitter of each device (-1: none)
     */
    static std::vector<int64_t> MostShareable(const std::vector<std::vector<double>>& shareable,
                                              const std::vector<std::vector<double>>& pDrop,
                                              const std::vector<std::vector<bool>>& excluded = {});
    /**
     * \brief Uniform: a transmitter drawn uniformly among the others (the Erdos-Renyi-like
     * baseline with one edge per receiver).
     * \param nDevices N
     * \param uniform a uniform number in [0, 1) per call
     * \param excluded excluded[i][j]: j may not be i's transmitter
     * \return the transmitter of each device (-1: none)
     */
    static std::vector<int64_t> Uniform(uint32_t nDevices,
                                        const std::function<double()>& uniform,
                                        const std::vector<std::vector<bool>>& excluded = {});
    /**
     * \brief Highest score: the transmitter j of the highest scores[i][j] (lowest index on
     * ties), e.g. the GCN baseline's link scores (D2dGcnLinkScorer).
     * \param scores scores[i][j] for the link j -> i, N x N
     * \param excluded transmitters i may not choose (may be empty)
     */
    static std::vector<int64_t> HighestScore(const std::vector<std::vector<double>>& scores,
                                             const std::vector<std::vector<bool>>& excluded = {});
};

} // namespace ns3

#endif /* D2D_BASELINE_GRAPHS_H */
