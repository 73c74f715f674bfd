/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_GAUSSIAN_BELIEF_H
#define D2D_GAUSSIAN_BELIEF_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A Gaussian belief N(mu, Sigma) over theta in R^d in natural parameters:
 * precision Lambda = Sigma^-1 and eta = Lambda mu (Lalitha et al. 2018, Example 1 revisited).
 *
 * With Gaussian noise, the local Bayesian update of eq. (2) for y = <theta, phi> + eta,
 * eta ~ N(0, s^2), adds phi phi^T / s^2 to Lambda and phi y / s^2 to eta; and the
 * log-linear consensus of eq. (3), prod_j b_j^{W_ij} normalized, of Gaussians is the
 * Gaussian whose natural parameters are the W_ij-weighted sums of theirs (the weights of
 * a row summing to 1).
 */
class D2dGaussianBelief
{
  public:
    D2dGaussianBelief() = default;
    /**
     * \brief The prior N(0, diag(variance)).
     * \param variance prior variance of each coordinate (> 0)
     */
    explicit D2dGaussianBelief(const std::vector<double>& variance);

    /** \return d */
    uint32_t GetDim() const;

    /**
     * \brief Local Bayesian update, eq. (2), for one observation of a linear model with
     * Gaussian noise.
     * \param phi the features [1, x^T]^T
     * \param y the label
     * \param noiseVariance s^2
     */
    void Update(const std::vector<double>& phi, double y, double noiseVariance);

    /**
     * \brief Consensus, eq. (3), on natural parameters: Lambda = sum_j w_j Lambda_j,
     * eta = sum_j w_j eta_j.
     * \param weights W_ij of the beliefs given
     * \param beliefs the public beliefs b_j
     * \return the private belief rho_i
     */
    static D2dGaussianBelief Consensus(const std::vector<double>& weights,
                                       const std::vector<const D2dGaussianBelief*>& beliefs);

    /** \return the posterior mean mu = Lambda^-1 eta (Cholesky solve) */
    std::vector<double> Mean() const;
    /** \return the posterior variances diag(Lambda^-1) */
    std::vector<double> Variance() const;
    /** \param phi features \return the predictive mean <mu, phi> */
    double Predict(const std::vector<double>& phi) const;

    /** \return Lambda row-major (d x d) */
    const std::vector<double>& GetPrecision() const;
    /** \return eta */
    const std::vector<double>& GetEta() const;

    /**
     * \return the natural parameters as sent: the upper triangle of Lambda row by row,
     * then eta (d (d + 1) / 2 + d values)
     */
    std::vector<double> ToVector() const;
    /**
     * \param d dimension
     * \param values what ToVector() returned
     * \return the belief
     */
    static D2dGaussianBelief FromVector(uint32_t d, const std::vector<double>& values);
    /** \param d dimension \return the number of values ToVector() returns */
    static uint32_t VectorSize(uint32_t d);

  private:
    /** \param b right-hand side \return Lambda^-1 b */
    std::vector<double> Solve(std::vector<double> b) const;

    uint32_t m_d{0};                 //!< d, the dimension of theta (0: default-constructed)
    std::vector<double> m_precision; //!< Lambda, row-major
    std::vector<double> m_eta;       //!< Lambda mu
};

} // namespace ns3

#endif /* D2D_GAUSSIAN_BELIEF_H */
