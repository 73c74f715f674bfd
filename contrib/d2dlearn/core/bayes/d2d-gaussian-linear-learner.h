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
     * \param nDevices N (>= 1)
     * \param nTest test-set size (>= 1)
     */
    D2dGaussianLinearLearner(uint32_t nDevices, uint32_t nTest);

    uint32_t GetNDevices() const override;
    uint32_t GetNValues() const override;
    std::vector<double> GetInitialPublic(uint32_t i) const override;
    std::vector<double> LocalUpdate(uint32_t i) override;
    void Consensus(uint32_t i,
                   const std::vector<double>& weights,
                   const std::vector<const std::vector<double>*>& publicBeliefs) override;
    void CentralStep() override;
    std::string GetBeliefsHeader() const override;
    std::string GetBeliefsRow(int64_t node) const override;
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

    uint32_t m_n;
    uint32_t m_nTest;
    std::vector<D2dGaussianBelief> m_private;
    D2dGaussianBelief m_central;
    std::vector<Ptr<UniformRandomVariable>> m_x;
    std::vector<Ptr<NormalRandomVariable>> m_noise;
    Ptr<UniformRandomVariable> m_testX;
    Ptr<NormalRandomVariable> m_testNoise;
    std::vector<std::vector<double>> m_testPhi;
    std::vector<double> m_testY;     //!< noisy labels
    std::vector<double> m_testClean; //!< f_theta*(x)
};

} // namespace ns3

#endif /* D2D_GAUSSIAN_LINEAR_LEARNER_H */
