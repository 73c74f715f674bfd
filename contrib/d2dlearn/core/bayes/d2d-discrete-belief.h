/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCRETE_BELIEF_H
#define D2D_DISCRETE_BELIEF_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The belief arithmetic of Lalitha et al. 2018, sec. 3, over a finite parameter set Theta_M,
 * in log space: a belief is the vector of its M natural logarithms, normalized by
 * log-sum-exp, so that long runs neither underflow nor overflow (a belief of 1e-400 is a
 * log of -921, not 0).
 */
class D2dDiscreteBelief
{
  public:
    /**
     * \param m number of parameters M
     * \return log of the uniform belief 1/M
     */
    static std::vector<double> Uniform(uint32_t m);

    /**
     * \param x values
     * \return log(sum_k exp(x_k)), computed around the maximum (-inf if all are -inf)
     */
    static double LogSumExp(const std::vector<double>& x);

    /**
     * \brief Normalize a log belief in place: subtract its log-sum-exp.
     * \param logBelief unnormalized log belief
     */
    static void Normalize(std::vector<double>& logBelief);

    /**
     * \brief Local Bayesian update, eq. (2):
     * b(theta) = l(Y; theta, X) rho(theta) / sum_psi l(Y; psi, X) rho(psi).
     * \param logPrivate log rho_i^(k-1)
     * \param logLikelihood log l_i(Y_i^(k); theta, X_i^(k)) for each theta
     * \return log b_i^(k)
     */
    static std::vector<double> LocalUpdate(const std::vector<double>& logPrivate,
                                           const std::vector<double>& logLikelihood);

    /**
     * \brief Log-linear consensus, eq. (3):
     * rho(theta) = exp(sum_j W_ij log b_j(theta)) / sum_psi exp(sum_j W_ij log b_j(psi)).
     * \param weights W_ij of the beliefs given (need not sum to 1: the normalization of
     * eq. (3) removes any common factor of the beliefs, not of the weights)
     * \param logPublic log b_j, one per weight
     * \return log rho_i^(k)
     */
    static std::vector<double> Consensus(const std::vector<double>& weights,
                                         const std::vector<const std::vector<double>*>& logPublic);

    /**
     * \param logBelief a log belief
     * \return the index of the largest entry (the lowest index among ties): the estimate
     * of step 5
     */
    static uint32_t Argmax(const std::vector<double>& logBelief);
};

} // namespace ns3

#endif /* D2D_DISCRETE_BELIEF_H */
