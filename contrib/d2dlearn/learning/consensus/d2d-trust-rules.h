/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRUST_RULES_H
#define D2D_TRUST_RULES_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The confidence weight beta_i(x) of a trust row (Fan, Mendler-Dünner, Jaggi 2023,
 * "Collaborative Learning via Prediction Consensus", sec. 4.3).
 */
enum class D2dConfidence
{
    NONE,            //!< beta = 1: plain mean cosine similarity
    ENTROPY,         //!< beta = 1 / H(f_i(x)) (the paper's text; H floored at 1e-6 nats)
    ENTROPY_PLUS_ONE //!< beta = 1 / (H(f_i(x)) + 1) (the authors' code, behind their Table 1)
};

/**
 * \ingroup d2dlearn
 * \brief The pure rules of prediction consensus (Fan, Mendler-Dünner, Jaggi 2023): trust rows
 * and matrices (eq. 6) with the entropy confidence of sec. 4.3, pseudo-labels (eq. 1), and
 * the diagnostics of the consensus theory (column sums, the row difference delta(W) of eq. 8,
 * the scrambling coefficient lambda(W) of eq. 9, the consensus distribution of eq. 11).
 *
 * Predictions are row-major n* x C blocks of floats (agent j's softmax outputs on the
 * shared set X*); every sum is accumulated in double. A "present" mask says which agents'
 * predictions an agent has (the others, lost or late, get weight 0 and the row is
 * renormalised over the present ones). No randomness, no ns-3 state: the functions are
 * checked against hand-worked numbers (GoogleTest).
 */
class D2dTrustRules
{
  public:
    /**
     * \param text "none", "entropy" or "entropy-plus-one"
     * \return the mode
     * \throws std::invalid_argument (one line naming "confidence") otherwise
     */
    static D2dConfidence ParseConfidence(const std::string& text);
    /** \param mode a mode \return its name as ParseConfidence() accepts it */
    static std::string ToString(D2dConfidence mode);

    /**
     * \param p a probability vector of C values
     * \param nClasses C
     * \return its Shannon entropy in nats, -sum p log p (0 log 0 = 0)
     */
    static double Entropy(const float* p, uint32_t nClasses);

    /**
     * \param p agent i's own prediction at a point x (C values)
     * \param nClasses C
     * \param mode the confidence mode
     * \return beta_i(x)
     */
    static double Confidence(const float* p, uint32_t nClasses, D2dConfidence mode);

    /**
     * \brief Agent i's trust row (eq. 6): gamma_ij = (1/n*) sum_x beta_i(x) cos(f_i(x), f_j(x))
     * for every present j, w_ij = gamma_ij / sum_j gamma_ij; 0 for absent j. A point where
     * a prediction has norm 0 contributes 0 to that pair. If every gamma is 0, the row is
     * uniform over the present agents.
     * \param i the agent (its predictions must be present)
     * \param predictions agent j's n* x C predictions at index j (null: absent)
     * \param nPoints n*
     * \param nClasses C
     * \param mode the confidence weight
     * \return w_i., N values summing to 1
     */
    static std::vector<double> TrustRow(uint32_t i,
                                        const std::vector<const std::vector<float>*>& predictions,
                                        uint32_t nPoints,
                                        uint32_t nClasses,
                                        D2dConfidence mode);

    /**
     * \brief Agent i's trust row on regression predictions (C = 1). The paper runs dynamic
     * trust on its polynomial toy (App. A.2) without saying how eq. 6 reads for real-valued
     * outputs: with C = 1 the cosine of eq. 6 at one point is only the sign agreement
     * sign(f_i(x) f_j(x)), and the entropy of beta_i(x) is undefined. Our reading: the inner
     * product runs over X*, gamma_ij = max(0, <Y_i, Y_j> / (||Y_i|| ||Y_j||)) with Y_j the
     * n* predictions of agent j (beta = 1), clipped at 0 so that the row stays non-negative;
     * w_ij = gamma_ij / sum_j gamma_ij, 0 for absent j. gamma_ii = 1 is the row maximum.
     * An agent whose predictions are all 0 gets the uniform row over the present agents.
     * \param i the agent (its predictions must be present)
     * \param predictions agent j's n* predictions at index j (null: absent)
     * \param nPoints n*
     * \return w_i., N values summing to 1
     */
    static std::vector<double> RegressionTrustRow(
        uint32_t i,
        const std::vector<const std::vector<float>*>& predictions,
        uint32_t nPoints);

    /**
     * \brief The naive row: 1/|present| for every present agent, 0 otherwise.
     * \param present present[j]: agent j's predictions are at hand
     * \return the row
     */
    static std::vector<double> NaiveRow(const std::vector<bool>& present);

    /**
     * \brief A kept row (static trust) restricted to the present agents and renormalised
     * (the renormalize loss rule); uniform over the present agents if nothing is left. A
     * row whose weighted agents are all present is returned unchanged.
     * \param row the row
     * \param present which agents are present
     * \return the restricted row
     */
    static std::vector<double> Restrict(const std::vector<double>& row,
                                        const std::vector<bool>& present);

    /**
     * \brief The trust matrix: row i = TrustRow(i, what agent i has), with mask[i][j] saying
     * whether agent i has agent j's predictions (mask[i][i] must be true).
     * \param predictions agent j's predictions at index j
     * \param mask N x N presence mask
     * \param nPoints n*
     * \param nClasses C
     * \param mode the confidence weight
     * \return W, N x N, row-stochastic
     */
    static std::vector<std::vector<double>> TrustMatrix(
        const std::vector<const std::vector<float>*>& predictions,
        const std::vector<std::vector<bool>>& mask,
        uint32_t nPoints,
        uint32_t nClasses,
        D2dConfidence mode);

    /**
     * \brief Pseudo-labels (eq. 1): psi_i = sum_j w_ij Y_j over the j with w_ij > 0.
     * \param row agent i's trust row w_i.
     * \param predictions agent j's predictions at index j (needed where w_ij > 0)
     * \param nPoints n*
     * \param nClasses C
     * \param renormalise classification: scale each row of psi to sum 1 (undoes the rounding
     *        of float16 predictions); false for regression
     * \return psi_i, n* x C row-major
     */
    static std::vector<float> PseudoLabels(
        const std::vector<double>& row,
        const std::vector<const std::vector<float>*>& predictions,
        uint32_t nPoints,
        uint32_t nClasses,
        bool renormalise);

    /**
     * \param w an N x N matrix
     * \param includeDiagonal false: sum over i != j only (the paper's Fig. 4 masks the
     *        diagonal)
     * \return column sums sum_i w_ij, j = 0..N-1
     */
    static std::vector<double> ColumnSums(const std::vector<std::vector<double>>& w,
                                          bool includeDiagonal);
    /** \param w a square matrix \return its trace sum_i w_ii (Claim 3) */
    static double Trace(const std::vector<std::vector<double>>& w);
    /**
     * \param w a matrix
     * \return delta(W) = max_j max_{i1,i2} |w_i1j - w_i2j| (eq. 8; 0 for identical rows)
     */
    static double RowDifference(const std::vector<std::vector<double>>& w);
    /**
     * \param w a row-stochastic matrix
     * \return lambda(W) = 1 - min_{i1,i2} sum_j min(w_i1j, w_i2j) (eq. 9; < 1: scrambling)
     */
    static double Scrambling(const std::vector<std::vector<double>>& w);
    /**
     * \param a N x N
     * \param b N x N
     * \return the product a b
     */
    static std::vector<std::vector<double>> Multiply(const std::vector<std::vector<double>>& a,
                                                     const std::vector<std::vector<double>>& b);
    /**
     * \brief The consensus distribution pi of a row-stochastic positive W: the left
     * eigenvector pi W = pi with sum pi = 1, the common row of lim W^t (eq. 11), by power
     * iteration from the uniform vector (until the L1 change is below 1e-14, at most 100000
     * steps).
     * \param w the matrix
     * \return pi
     */
    static std::vector<double> ConsensusDistribution(const std::vector<std::vector<double>>& w);
    /**
     * \brief Disagreement on X*: (1/(N n*)) sum_i sum_x ||f_i(x) - mean_k f_k(x)||^2 over the
     * given agents (0 when they all predict alike).
     * \param predictions agent j's predictions (null entries are skipped)
     * \param nPoints n*
     * \param nClasses C
     * \return the disagreement
     */
    static double Disagreement(const std::vector<const std::vector<float>*>& predictions,
                               uint32_t nPoints,
                               uint32_t nClasses);
};

} // namespace ns3

#endif /* D2D_TRUST_RULES_H */
