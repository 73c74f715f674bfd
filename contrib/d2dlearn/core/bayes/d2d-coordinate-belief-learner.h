/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_COORDINATE_BELIEF_LEARNER_H
#define D2D_COORDINATE_BELIEF_LEARNER_H

#include "d2d-belief-learner.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A discrete problem that no single device can identify but the network can
 * (Lalitha et al. 2018, sec. 2: Theta-bar_i non-empty, their intersection empty; "each user sees
 * only its local input space").
 *
 * theta has D coordinates, each on a grid of G levels {0, 1/(G-1), ..., 1}: Theta_M is
 * the G^D grid points (index = sum_c level_c G^c, coordinate 0 least significant).
 * Device i observes only coordinate c(i) = i mod D: each step it flips a coin with
 * P(Y = 1) = p(theta*_c) where p(t) = eps + (1 - 2 eps) t. Its likelihood
 * l_i(y; theta) = p(theta_c)^y (1 - p(theta_c))^(1-y) does not depend on the other
 * coordinates, so alone it learns theta*_c but not the rest; with N >= D every coordinate
 * is observed by someone. Likelihoods are bounded (Assumption 3): alpha = eps, L = 1 - eps.
 * Prior: uniform.
 *
 * Metrics per node: error (1 if argmax rho_i != theta*, else 0), belief_true
 * (rho_i(theta*)). beliefs.csv columns: estimate (index in Theta_M), belief_true,
 * log_belief_true, error.
 */
class D2dCoordinateBeliefLearner : public D2dBeliefLearner
{
  public:
    /**
     * \brief Get the type ID (made with its constructor's arguments:
     * CreateObject<D2dCoordinateBeliefLearner>(...)). \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * \param nDevices N
     * \param levels G (>= 2)
     * \param thetaTrue theta* as D level indices (each < G)
     * \param eps eps in (0, 0.5)
     */
    D2dCoordinateBeliefLearner(uint32_t nDevices,
                               uint32_t levels,
                               std::vector<uint32_t> thetaTrue,
                               double eps);

    /** \return number of devices N */
    uint32_t GetNDevices() const override;
    /** \return M = G^D: a public belief is log b(theta) for every theta of Theta_M */
    uint32_t GetNValues() const override;
    /** \param i device \return the uniform prior, log(1/M) for every theta */
    std::vector<double> GetInitialPublic(uint32_t i) const override;
    /**
     * \brief Device i flips its coin (DrawLabel) and applies eq. (2) to its private belief.
     * \param i device
     * \return log b_i^(k)
     */
    std::vector<double> LocalUpdate(uint32_t i) override;
    /**
     * \brief Eq. (3): log rho_i^(k) from the weighted public log beliefs.
     * \param i device
     * \param weights the weights (W_ij, or W_ij renormalized)
     * \param publicBeliefs log b_j, one per weight
     */
    void Consensus(uint32_t i,
                   const std::vector<double>& weights,
                   const std::vector<const std::vector<double>*>& publicBeliefs) override;
    /** \brief The central learner: eq. (2) with every device's coin of the step in turn. */
    void CentralStep() override;
    /** \return "estimate,belief_true,log_belief_true,error" */
    std::string GetBeliefsHeader() const override;
    /**
     * \param node device, or -1 for the central learner
     * \return argmax rho, rho(theta*), log rho(theta*) and the 0/1 error
     */
    std::string GetBeliefsRow(int64_t node) const override;
    /**
     * \param node device, or -1 for the central learner
     * \return error (1 if argmax rho != theta*, else 0) and belief_true (rho(theta*))
     */
    std::vector<std::pair<std::string, double>> GetMetrics(int64_t node) const override;
    /**
     * \param stream first RNG stream index: device i's coin gets stream + i
     * \return N, the streams used
     */
    int64_t AssignStreams(int64_t stream) override;

    /** \return M = G^D */
    uint32_t GetM() const;
    /** \return the index of theta* in Theta_M */
    uint32_t GetTrueIndex() const;
    /** \param i device \return c(i) */
    uint32_t GetCoordinate(uint32_t i) const;
    /** \param index a parameter \param c coordinate \return its level on c */
    uint32_t Level(uint32_t index, uint32_t c) const;
    /** \param level a grid level \return p = eps + (1 - 2 eps) level / (G - 1) */
    double CoinProbability(uint32_t level) const;
    /** \param i device \param y label \return log l_i(y; theta) for every theta */
    std::vector<double> LogLikelihood(uint32_t i, uint32_t y) const;

    /** \param node device, -1 central \return log rho(theta) for every theta */
    const std::vector<double>& GetLogPrivate(int64_t node) const;
    /** \param node device, -1 central \return argmax rho */
    uint32_t GetEstimate(int64_t node) const;

    /** \return C = L / alpha = (1 - eps) / eps (Theorem 1, as the paper defines C) */
    double GetC() const;
    /**
     * \brief K(Theta_M) of Theorem 1 with theta = theta*_M, the reading the proof uses:
     * min over psi != theta* of sum_j v_j KL(l_j(.; theta*) || l_j(.; psi)).
     * \param v the stationary distribution of W
     * \return K
     */
    double ComputeK(const std::vector<double>& v) const;

  private:
    /** \param i device \return its label for this step (Bernoulli(p(theta*_c(i)))) */
    uint32_t DrawLabel(uint32_t i);

    uint32_t m_n;                               //!< number of devices N
    uint32_t m_levels;                          //!< G, grid levels per coordinate (>= 2)
    std::vector<uint32_t> m_thetaTrue;          //!< theta*: per coordinate c, its level index (< G)
    double m_eps;                               //!< eps of p(t) = eps + (1 - 2 eps) t, in (0, 0.5)
    uint32_t m_d;                               //!< D, number of coordinates (size of theta*)
    uint32_t m_m;                               //!< M = G^D, the size of Theta_M
    uint32_t m_trueIndex;                       //!< index of theta* in Theta_M
    std::vector<std::vector<double>> m_logLik1; //!< per device: log l(1; theta)
    std::vector<std::vector<double>> m_logLik0; //!< per device: log l(0; theta)
    std::vector<std::vector<double>> m_private; //!< log rho_i
    std::vector<double> m_central;              //!< log rho of the central learner
    std::vector<Ptr<UniformRandomVariable>> m_coin; //!< per device: U(0, 1) for its coin flips
};

} // namespace ns3

#endif /* D2D_COORDINATE_BELIEF_LEARNER_H */
