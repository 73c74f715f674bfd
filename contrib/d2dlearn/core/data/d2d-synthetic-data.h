/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SYNTHETIC_DATA_H
#define D2D_SYNTHETIC_DATA_H

#include "d2d-dataset.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Generators of the papers' synthetic data sets; each (parameters..., n, seed).
 *
 * Deterministic: the same arguments give the same data set (D2dDataRng with the
 * generator's purpose constant). Bad parameters throw std::invalid_argument with one
 * line naming the parameter and its accepted range.
 */
class D2dSyntheticData
{
  public:
    /** \return the class means of Fan et al. 2023, sec. 5.1: (-2,2), (2,2), (-2,-2), (2,-2) */
    static std::vector<std::vector<double>> PaperGaussianMeans();

    /**
     * \brief Fan et al. 2023, sec. 5.1: class c ~ N(mu_c, sd^2 I) (paper: 4 classes in 2-D,
     * PaperGaussianMeans(), Sigma = I so sd = 1).
     *
     * The class of each sample follows classWeights exactly up to rounding: the counts
     * are apportioned (largest remainder) and the samples shuffled, so equal weights
     * (the default) give the paper's X* "sampled equally from the P^c's".
     * \param means one mean vector per class (all of the same dimension d >= 1)
     * \param sd standard deviation of each coordinate (> 0)
     * \param classWeights class proportions (size = classes, >= 0, sum > 0); empty = equal
     * \param n number of samples
     * \param seed the seed
     * \return featureShape {d}, numClasses = means.size(), name "gaussian-mixture"
     */
    static std::shared_ptr<D2dDataset> GaussianMixture(
        const std::vector<std::vector<double>>& means,
        double sd,
        const std::vector<double>& classWeights,
        std::size_t n,
        uint64_t seed);

    /**
     * \brief The label noise of Fan et al. 2023, sec. 5.1: a copy in which round(fraction x N)
     * random samples get a different class, uniform over the other numClasses - 1 classes.
     * \param data a classification set (numClasses >= 2)
     * \param fraction in [0, 1]
     * \param seed the seed
     * \return the noisy copy (name suffix "-noisy")
     */
    static std::shared_ptr<D2dDataset> FlipLabelFraction(const D2dDataset& data,
                                                         double fraction,
                                                         uint64_t seed);

    /** \return Fan et al. 2023, App. A.1: f(x) = 0.5x^3 + 0.3x^2 - 5x + 4 as {4, -5, 0.3, 0.5} */
    static std::vector<double> PaperPolynomial();

    /**
     * \brief Fan et al. 2023, sec. 3.4 / App. A.1: x ~ N(xMean, xSd^2), y = f(x) + eps,
     * eps ~ N(0, noiseSd^2), f(x) = sum_k coefficients[k] x^k (paper: agents' xMean
     * -2, 0, 2 (and 3 in A.2), xSd 1, noiseSd 1, 50 points each).
     * \param coefficients ascending powers (non-empty)
     * \param xMean mean of x
     * \param xSd standard deviation of x (>= 0)
     * \param noiseSd standard deviation of the additive noise (>= 0)
     * \param n number of samples
     * \param seed the seed
     * \return featureShape {1} holding x (the learner builds its powers), targets y,
     *         name "polynomial"
     */
    static std::shared_ptr<D2dDataset> PolynomialRegression(const std::vector<double>& coefficients,
                                                            double xMean,
                                                            double xSd,
                                                            double noiseSd,
                                                            std::size_t n,
                                                            uint64_t seed);

    /**
     * \brief The shared unlabeled set of App. A.1: n equally spaced x in [lo, hi]
     * (paper: 50 points in [-4, 4]; A.2: [-4, 6]), targets f(x) without noise (for
     * evaluation; the protocol must not use them as labels).
     * \param coefficients ascending powers (non-empty)
     * \param lo first x
     * \param hi last x (>= lo)
     * \param n number of points (>= 1; n = 1 gives lo)
     * \return featureShape {1}, name "polynomial-grid"
     */
    static std::shared_ptr<D2dDataset> PolynomialGrid(const std::vector<double>& coefficients,
                                                      double lo,
                                                      double hi,
                                                      std::size_t n);

    /** \return Lalitha et al. 2018, Example 1: theta* = {-0.3, 0.5, 0.8} (intercept first) */
    static std::vector<double> PaperTheta();

    /**
     * \brief Example 1 of Lalitha et al. 2018: y = theta_0 + sum_i theta_i x_i + eta,
     * eta ~ N(0, sd^2), x_i ~ Unif[xLow_i, xHigh_i] independently.
     *
     * The features are x = (x_1..x_d) WITHOUT the leading 1 (the learner adds the
     * intercept, f_theta(x) = <theta, [1, x]>). A user that observes only part of X
     * has zeros elsewhere (the paper's X_1 = {[x1; 0]}): give xLow_i = xHigh_i = 0 for
     * the coordinates it does not see. Paper (d = 2, m = 1, sd = 0.8): user A
     * xLow {-1, 0}, xHigh {1, 0}; user B {0, -1.5}, {0, 1.5}; test set {-1, -1.5},
     * {1, 1.5}. See Example1().
     * \param theta {theta_0, theta_1..theta_d} (d >= 1)
     * \param xLow lower bounds (size d)
     * \param xHigh upper bounds (size d, >= xLow)
     * \param noiseSd eta's standard deviation (>= 0)
     * \param n number of samples
     * \param seed the seed
     * \return featureShape {d}, targets y, name "linear"
     */
    static std::shared_ptr<D2dDataset> LinearRegression(const std::vector<double>& theta,
                                                        const std::vector<double>& xLow,
                                                        const std::vector<double>& xHigh,
                                                        double noiseSd,
                                                        std::size_t n,
                                                        uint64_t seed);

    /**
     * \brief Example 1 Revisited of Lalitha et al. 2018: theta* = PaperTheta(), noise sd 0.8.
     * \param user 0 = user A (sees x_1 ~ U[-1, 1], x_2 = 0), 1 = user B (x_1 = 0,
     *        x_2 ~ U[-1.5, 1.5]), -1 = the test set / central user (both coordinates)
     * \param n number of samples
     * \param seed the seed; each user has its own stream (seed, LINEAR, 1 / 2 / 3), so one
     *        seed gives independent A, B and test sets
     * \return featureShape {2}, name "linear-user-A" / "linear-user-B" / "linear-test"
     */
    static std::shared_ptr<D2dDataset> Example1(int user, std::size_t n, uint64_t seed);
};

} // namespace ns3

#endif // D2D_SYNTHETIC_DATA_H
