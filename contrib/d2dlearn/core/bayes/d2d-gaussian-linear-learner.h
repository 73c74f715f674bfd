/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_GAUSSIAN_LINEAR_LEARNER_H
#define D2D_GAUSSIAN_LINEAR_LEARNER_H

#include "d2d-belief-learner.h"
#include "d2d-gaussian-belief.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Distributed Bayesian linear regression, Example 1 revisited of Lalitha et al. 2018:
 * y = theta_0 + theta_1 x_1 + theta_2 x_2 + eta, eta ~ N(0, 0.8^2),
 * theta* = [-0.3, 0.5, 0.8], prior N(0, 0.5 I). Device i sees only input i mod 2 + 1:
 * user A (even i) x_1 ~ U[-1, 1] with x_2 = 0, user B (odd i) x_2 ~ U[-1.5, 1.5] with
 * x_1 = 0. The test set (drawn once) has both inputs drawn as above and noisy labels.
 *
 * Beliefs are Gaussian in natural parameters (D2dGaussianBelief): the local update adds
 * the sample's information, the consensus takes W-weighted sums (eq. 3). Metrics per node:
 * mse (mean squared error of the predictive mean against the noisy test labels, as the
 * paper's Figure 1; its floor is the noise variance 0.64) and excess_mse (against the
 * noise-free f_theta*(x): the part learning can remove). beliefs.csv columns: mean_0..2,
 * var_0..2 (posterior mean and variance per coordinate).
 */
class D2dGaussianLinearLearner : public D2dBeliefLearner
{
  public:
    /**
     * \brief Get the type ID (made with its constructor's arguments:
     * CreateObject<D2dGaussianLinearLearner>(...)). \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * \param nDevices N (>= 1)
     * \param nTest test-set size (>= 1)
     */
    D2dGaussianLinearLearner(uint32_t nDevices, uint32_t nTest);

    /** \return number of devices N */
    uint32_t GetNDevices() const override;
    /** \return D2dGaussianBelief::VectorSize(DIM): the natural parameters as sent (9) */
    uint32_t GetNValues() const override;
    /** \param i device \return the prior N(0, PRIOR_VAR I) as D2dGaussianBelief::ToVector() */
    std::vector<double> GetInitialPublic(uint32_t i) const override;
    /**
     * \brief Device i draws one sample (Draw) and applies eq. (2) to its private belief.
     * \param i device
     * \return b_i^(k) as D2dGaussianBelief::ToVector()
     */
    std::vector<double> LocalUpdate(uint32_t i) override;
    /**
     * \brief Eq. (3): rho_i^(k) as the weighted sums of the public natural parameters.
     * \param i device
     * \param weights the weights (W_ij, or W_ij renormalized)
     * \param publicBeliefs b_j as D2dGaussianBelief::ToVector(), one per weight
     */
    void Consensus(uint32_t i,
                   const std::vector<double>& weights,
                   const std::vector<const std::vector<double>*>& publicBeliefs) override;
    /** \brief The central learner: eq. (2) with every device's sample of the step in turn. */
    void CentralStep() override;
    /** \return "mean_0,mean_1,mean_2,var_0,var_1,var_2" */
    std::string GetBeliefsHeader() const override;
    /**
     * \param node device, or -1 for the central learner
     * \return the posterior mean and variance of each coordinate
     */
    std::string GetBeliefsRow(int64_t node) const override;
    /**
     * \param node device, or -1 for the central learner
     * \return mse (TestMse) and excess_mse (TestExcessMse)
     */
    std::vector<std::pair<std::string, double>> GetMetrics(int64_t node) const override;
    /** Draws the test set too (from the first stream). */
    int64_t AssignStreams(int64_t stream) override;

    /** \param node device, -1 central \return its private belief */
    const D2dGaussianBelief& GetBelief(int64_t node) const;
    /** \param node device, -1 central \return MSE against the noisy test labels */
    double TestMse(int64_t node) const;
    /** \param node device, -1 central \return MSE against the noise-free test targets */
    double TestExcessMse(int64_t node) const;

    static constexpr uint32_t DIM = 3;           //!< d + 1 = 3 parameters
    static constexpr double NOISE_SD = 0.8;      //!< alpha of Example 1
    static constexpr double PRIOR_VAR = 0.5;     //!< prior variance per coordinate
    static const std::vector<double> THETA;      //!< theta* = [-0.3, 0.5, 0.8]
    static const std::vector<double> HALF_WIDTH; //!< x_1 ~ U[-1, 1], x_2 ~ U[-1.5, 1.5]

  private:
    /**
     * \param i device
     * \param phi features drawn (out)
     * \return the label
     */
    double Draw(uint32_t i, std::vector<double>& phi);

    uint32_t m_n;                                   //!< number of devices N
    uint32_t m_nTest;                               //!< test-set size
    std::vector<D2dGaussianBelief> m_private;       //!< per device: its private belief rho_i
    D2dGaussianBelief m_central;                    //!< the central learner's belief
    std::vector<Ptr<UniformRandomVariable>> m_x;    //!< per device: its input x_1 or x_2
    std::vector<Ptr<NormalRandomVariable>> m_noise; //!< per device: eta ~ N(0, NOISE_SD^2)
    Ptr<UniformRandomVariable> m_testX;             //!< the test set's inputs x_1 and x_2
    Ptr<NormalRandomVariable> m_testNoise;          //!< the test labels' noise, N(0, NOISE_SD^2)
    std::vector<std::vector<double>> m_testPhi;     //!< per test point: features [1, x_1, x_2]
    std::vector<double> m_testY;                    //!< noisy labels
    std::vector<double> m_testClean;                //!< f_theta*(x)
};

} // namespace ns3

#endif /* D2D_GAUSSIAN_LINEAR_LEARNER_H */
