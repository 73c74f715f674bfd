/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_COMMITTEE_RULES_H
#define D2D_COMMITTEE_RULES_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The two selection strategies of Che et al. 2022 ("Selection Strategy").
 */
enum class D2dSelectionStrategy
{
    HIGHEST_SCORES, //!< strategy I: accept the top alpha % of the scores (robustness)
    LOWEST_SCORES,  //!< strategy II: accept the bottom alpha % (convergence, no attack)
};

/**
 * \ingroup d2dlearn
 * \brief The committee's rules of CMFL (Che et al. 2022, "Committee Mechanism"): the scoring
 * system, the selection strategies I and II and the election strategy. Pure functions of
 * the gradients and scores, shared by every committee member, so that honest members
 * reach identical decisions.
 *
 * Clients are identified by their ids; scores[i] belongs to clients[i]. Orders are total
 * (ties broken by ascending client id), so every member ranks identically.
 */
class D2dCommitteeRules
{
  public:
    /**
     * \brief Scoring system, the score committee client c assigns training client k:
     * P_k^c = 1 / ||g_k - g_c||_2^2 (squared distance accumulated in double).
     * \param gk local gradient of training client k
     * \param gc local gradient of committee client c (same size, not empty)
     * \return P_k^c (> 0); +infinity if the vectors are identical
     */
    static double Score(const std::vector<float>& gk, const std::vector<float>& gc);

    /**
     * \brief Eq. (8), the final score of training client k:
     * P_k = 1 / ((1/C) sum_c ||g_k - g_c||^2) = C / sum_c (1 / P_k^c), C = scores.size().
     * An entry +infinity (identical gradients) adds 0 to the sum; all +infinity gives
     * +infinity.
     * \param scores P_k^c of the C committee members (each >= 0, not NaN)
     * \return P_k; 0 for no scores
     */
    static double FinalScore(const std::vector<double>& scores);

    /**
     * \brief Sorts the training clients by their final scores ("we sort the local gradients
     * according to their scores").
     * \param clients client ids
     * \param scores scores[i] of clients[i] (not NaN)
     * \return the client ids by descending score; equal scores by ascending id
     */
    static std::vector<uint32_t> RankByScore(const std::vector<uint32_t>& clients,
                                             const std::vector<double>& scores);

    /**
     * \brief m, the number of gradients accepted of n ("only accept the top alpha %"):
     * max(1, round(alpha n / 100)), at most n.
     * \param n number of training clients
     * \param alphaPercent alpha, percent in [0, 100]
     * \return m; 0 if n = 0
     */
    static uint32_t SelectionSize(uint32_t n, double alphaPercent);

    /**
     * \brief Selection strategy I (HIGHEST_SCORES: the top m of RankByScore) or II
     * (LOWEST_SCORES: its bottom m), m = SelectionSize(n, alpha): the aggregation client
     * set S_a^t.
     * \param clients training clients S_b^t
     * \param scores their final scores P_k
     * \param alphaPercent alpha, percent in [0, 100]
     * \param strategy I or II
     * \return S_a^t, ascending by id
     */
    static std::vector<uint32_t> Select(const std::vector<uint32_t>& clients,
                                        const std::vector<double>& scores,
                                        double alphaPercent,
                                        D2dSelectionStrategy strategy);

    /**
     * \brief Election strategy: the committeeSize training clients "closed to the middle
     * position" of the ranking become S_c^{t+1}: ranks [start, start + C) of RankByScore,
     * start = (n - C) / 2 (integer division, so an odd surplus leaves one more client
     * below than above).
     * \param clients training clients S_b^t
     * \param scores their final scores P_k
     * \param committeeSize C (C >= n: every client)
     * \return S_c^{t+1}, ascending by id
     */
    static std::vector<uint32_t> Elect(const std::vector<uint32_t>& clients,
                                       const std::vector<double>& scores,
                                       uint32_t committeeSize);
};

} // namespace ns3

#endif /* D2D_COMMITTEE_RULES_H */
