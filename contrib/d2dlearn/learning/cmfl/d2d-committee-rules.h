/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_COMMITTEE_RULES_H
#define D2D_COMMITTEE_RULES_H

#include <cstddef>
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
 * \brief Where the committee of the next round comes from (committee.csv `next_committee`).
 */
enum class D2dNextCommittee
{
    ELECTED, //!< the election vote agreed on S_c^{t+1} (the middle of the ranking)
    DRAWN,   //!< no agreed election: drawn at random among the round's training clients
    KEPT,    //!< the committee stays (the step-down is skipped: FailedVote keep-committee)
};

/**
 * \ingroup d2dlearn
 * \brief What the committee does when a vote of round t ends without consensus (D2dCmfl
 * FailedVote attribute).
 */
enum class D2dFailedVote
{
    STEP_DOWN,      //!< w^t is kept, but the committee steps down all the same
    KEEP_COMMITTEE, //!< w^t and the committee are kept (the round is repeated as it was)
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
     * max(1, round(alpha n)) (D2dShare::Count), at most n.
     * \param n number of training clients
     * \param alpha a share in [0, 1]
     * \return m; 0 if n = 0
     */
    static uint32_t SelectionSize(uint32_t n, double alpha);

    /**
     * \brief A, the clients active in a round (committee + training) of K: round(activation
     * K) (D2dShare::Count; Che et al. 2022, "Hyper-parameter Notation").
     * \param k number of clients K
     * \param activation a share in [0, 1]
     * \return A in [0, K]
     */
    static uint32_t ActiveCount(uint32_t k, double activation);

    /**
     * \brief C, the committee of A active clients: round(omega A) (D2dShare::Count; Che et al.
     * 2022, "Hyper-parameter Notation"); the other A - C are training clients.
     * \param active A
     * \param omega a share in [0, 1]
     * \return C in [0, A]
     */
    static uint32_t CommitteeSize(uint32_t active, double omega);

    /**
     * \brief Selection strategy I (HIGHEST_SCORES: the top m of RankByScore) or II
     * (LOWEST_SCORES: its bottom m), m = SelectionSize(n, alpha): the aggregation client
     * set S_a^t.
     * \param clients training clients S_b^t
     * \param scores their final scores P_k
     * \param alpha a share in [0, 1]
     * \param strategy I or II
     * \return S_a^t, ascending by id
     */
    static std::vector<uint32_t> Select(const std::vector<uint32_t>& clients,
                                        const std::vector<double>& scores,
                                        double alpha,
                                        D2dSelectionStrategy strategy);

    /**
     * \brief Selection strategy I or II with an explicit count: the top (I) or bottom (II) m
     * of RankByScore (m capped at the number of clients).
     * \param clients training clients
     * \param scores their final scores P_k
     * \param m how many to accept
     * \param strategy I or II
     * \return the accepted clients, ascending by id
     */
    static std::vector<uint32_t> SelectCount(const std::vector<uint32_t>& clients,
                                             const std::vector<double>& scores,
                                             uint32_t m,
                                             D2dSelectionStrategy strategy);

    /**
     * \brief How many gradients the committee accepts: alpha of a base count, at most the
     * scored clients. The paper's "accept the top alpha % of them" (of the local gradients)
     * takes the scored training clients as the base; the authors' code takes the round's
     * active clients (committee + training), int(K x activation x alpha).
     * \param scored training clients with a final score
     * \param base the count alpha applies to (scored, or the active clients)
     * \param alpha a share in [0, 1]
     * \return min(scored, SelectionSize(base, alpha)); 0 if scored = 0
     */
    static uint32_t AcceptedCount(uint32_t scored, uint32_t base, double alpha);

    /**
     * \brief Where S_c^{t+1} comes from at the end of round t.
     * \param electionAgreed the election vote reached consensus (false also when it was not
     *        held)
     * \param electedSize members of the agreed election set
     * \param aggregationAgreed the aggregation vote reached consensus
     * \param mode FailedVote
     * \return ELECTED if the election agreed on at least 3 members (a CCP committee needs
     *         3); otherwise DRAWN (STEP_DOWN) or KEPT (KEEP_COMMITTEE). KEEP_COMMITTEE
     *         also keeps the committee whenever the aggregation vote failed (then no
     *         election is held).
     */
    static D2dNextCommittee NextCommittee(bool electionAgreed,
                                          std::size_t electedSize,
                                          bool aggregationAgreed,
                                          D2dFailedVote mode);

    /**
     * \param source a value of D2dNextCommittee
     * \return "elected", "drawn" or "kept"
     */
    static const char* ToString(D2dNextCommittee source);

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
