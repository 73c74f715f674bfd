/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the synthetic generators of the torch-free data layer
 * (D2dSyntheticData): the Gaussian mixture (sec. 5.1) and the polynomial regression
 * (App. A.1) of Fan, Mendler-Dünner and Jaggi, "Collaborative Learning via Prediction
 * Consensus" (2023), and the two-user linear regression of Example 1 of Lalitha, Shekhar,
 * Javidi and Koushanfar, "Fully Decentralized Federated Learning" (2018): sample moments
 * against the generators' parameters. Torch-free.
 *
 * Expected numbers are formulas written here (uniform and normal moments). Tolerances are 4
 * standard errors: a mean of n N(mu, s^2) draws within 4 s / sqrt(n), a variance within
 * 4 s^2 sqrt(2 / n) (normal) and of a Unif[a, b] within 4 sqrt(var(X^2)/n). All data are
 * seeded, so a test that passes once passes always.
 */

#include "d2d-test-errors.h"

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-synthetic-data.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using d2dtest::Contains;
using d2dtest::ErrorOf;

namespace
{

/** Fan et al. 2023, sec. 5.1: 4 classes N(mu_c, I), equal shares. */
TEST(D2dSyntheticGaussianMixture, ClassMeansAndIdentityCovariance)
{
    const std::size_t n = 40000;
    auto means = D2dSyntheticData::PaperGaussianMeans();
    auto g = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n, 1);
    ASSERT_EQ(g->Size(), n) << "size";
    EXPECT_EQ(g->numClasses, 4u) << "classes";
    EXPECT_EQ(g->FeatureSize(), 2u) << "2-D";
    auto counts = g->ClassCounts();
    for (uint32_t c = 0; c < 4; ++c)
    {
        EXPECT_EQ(counts[c], 10000u) << "X* sampled equally from the P^c";
        for (int k = 0; k < 2; ++k)
        {
            double s = 0;
            double s2 = 0;
            for (std::size_t i = 0; i < n; ++i)
            {
                if (g->labels[i] == c)
                {
                    s += g->Sample(i)[k];
                    s2 += g->Sample(i)[k] * g->Sample(i)[k];
                }
            }
            const double mean = s / 10000;
            const double var = s2 / 10000 - mean * mean;
            EXPECT_NEAR(mean, means[c][k], 4 / 100.0) << "class mean " << c;
            EXPECT_NEAR(var, 1.0, 4 * std::sqrt(2.0 / 10000)) << "Sigma = I";
        }
    }
}

/** Class weights {1, 1, 2, 0}: the class counts in proportion. */
TEST(D2dSyntheticGaussianMixture, WeightsSetTheClassCounts)
{
    auto means = D2dSyntheticData::PaperGaussianMeans();
    auto w = D2dSyntheticData::GaussianMixture(means, 0.5, {1, 1, 2, 0}, 1000, 2);
    auto wc = w->ClassCounts();
    EXPECT_TRUE((wc == std::vector<std::size_t>{250, 250, 500, 0})) << "weights";
}

/** Label noise of Fan et al. 2023, sec. 5.1: 10 % of the labels flipped, features kept. */
TEST(D2dSyntheticLabelNoise, TenPercentFlippedFeaturesKept)
{
    auto means = D2dSyntheticData::PaperGaussianMeans();
    auto w = D2dSyntheticData::GaussianMixture(means, 0.5, {1, 1, 2, 0}, 1000, 2);
    auto noisy = D2dSyntheticData::FlipLabelFraction(*w, 0.1, 3);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < w->Size(); ++i)
    {
        changed += noisy->labels[i] != w->labels[i];
    }
    EXPECT_EQ(changed, 100u) << "10 % of the labels flipped (Fan et al. 2023, sec. 5.1)";
    EXPECT_TRUE((noisy->features == w->features)) << "features kept";
}

/** Fan et al. 2023, App. A.1: x ~ N(2, 1), y = f(x) + N(0, 1). */
TEST(D2dSyntheticPolynomial, InputAndNoiseMoments)
{
    auto f = D2dSyntheticData::PaperPolynomial();
    auto fx = [](double x) {
        return 0.5 * x * x * x + 0.3 * x * x - 5 * x + 4;
    };
    const std::size_t m = 20000;
    auto p = D2dSyntheticData::PolynomialRegression(f, 2.0, 1.0, 1.0, m, 4);
    double sx = 0;
    double sx2 = 0;
    double se = 0;
    double se2 = 0;
    for (std::size_t i = 0; i < m; ++i)
    {
        const double x = p->features[i];
        const double e = p->targets[i] - fx(x);
        sx += x;
        sx2 += x * x;
        se += e;
        se2 += e * e;
    }
    const double xm = sx / m;
    EXPECT_NEAR(xm, 2.0, 4 / std::sqrt(double(m))) << "x mean";
    EXPECT_NEAR(sx2 / m - xm * xm, 1.0, 4 * std::sqrt(2.0 / m)) << "x variance";
    EXPECT_NEAR(se / m, 0.0, 4 / std::sqrt(double(m))) << "noise mean";
    // float targets add rounding of ~1e-6 relative; negligible against the tolerance.
    EXPECT_NEAR(se2 / m, 1.0, 4 * std::sqrt(2.0 / m)) << "noise variance";
}

/** The shared unlabeled set of Fan et al. 2023, App. A.1: 50 points in [-4, 4], f(x). */
TEST(D2dSyntheticPolynomial, GridEndsAndSpacing)
{
    auto f = D2dSyntheticData::PaperPolynomial();
    auto fx = [](double x) {
        return 0.5 * x * x * x + 0.3 * x * x - 5 * x + 4;
    };
    auto grid = D2dSyntheticData::PolynomialGrid(f, -4, 4, 50);
    ASSERT_EQ(grid->Size(), 50u) << "50 points";
    EXPECT_NEAR(grid->features[0], -4.0f, 1e-6f) << "first";
    EXPECT_NEAR(grid->features[49], 4.0f, 1e-6f) << "last";
    EXPECT_NEAR(grid->features[1], -4.0f + 8.0f / 49.0f, 1e-6f) << "spacing";
    EXPECT_NEAR(grid->targets[49], fx(4.0), 1e-4) << "f(4) = 25.6";
}

/**
 * Lalitha et al. 2018, Example 1: theta* = (-0.3, 0.5, 0.8), noise sd 0.8; user 0 sees x1
 * ~ Unif[-1, 1] (x2 = 0), user 1 x2 ~ Unif[-1.5, 1.5] (x1 = 0), the test set both.
 */
TEST(D2dSyntheticExample1, UsersRangesAndNoiseMoments)
{
    const std::size_t q = 20000;
    auto userA = D2dSyntheticData::Example1(0, q, 5);
    auto userB = D2dSyntheticData::Example1(1, q, 5);
    auto testSet = D2dSyntheticData::Example1(-1, q, 5);
    const double th[3] = {-0.3, 0.5, 0.8};

    struct U
    {
        std::shared_ptr<D2dDataset> d;
        double half[2]; // half-widths of the uniform ranges
    };

    for (const U& u : {U{userA, {1.0, 0.0}}, U{userB, {0.0, 1.5}}, U{testSet, {1.0, 1.5}}})
    {
        double s[2] = {0, 0};
        double s2[2] = {0, 0};
        double r2 = 0;
        double r = 0;
        bool inRange = true;
        for (std::size_t i = 0; i < q; ++i)
        {
            const float* x = u.d->Sample(i);
            double y = th[0];
            for (int k = 0; k < 2; ++k)
            {
                s[k] += x[k];
                s2[k] += x[k] * x[k];
                inRange = inRange && std::fabs(x[k]) <= u.half[k];
                y += th[k + 1] * x[k];
            }
            r += u.d->targets[i] - y;
            r2 += (u.d->targets[i] - y) * (u.d->targets[i] - y);
        }
        EXPECT_TRUE(inRange) << u.d->name << ": x in its range (0 if unseen)";
        for (int k = 0; k < 2; ++k)
        {
            const double v = u.half[k] * u.half[k] / 3; // Unif[-h, h]
            // var(X^2) = h^4/5 - h^4/9 = 4 h^4 / 45
            const double sdv = std::sqrt(4 * std::pow(u.half[k], 4) / 45 / q);
            EXPECT_NEAR(s[k] / q, 0.0, 4 * std::sqrt(v / q) + 1e-12) << u.d->name;
            EXPECT_NEAR(s2[k] / q, v, 4 * sdv + 1e-12) << u.d->name << " var x" << k;
        }
        EXPECT_NEAR(r / q, 0.0, 4 * 0.8 / std::sqrt(double(q))) << "noise mean";
        EXPECT_NEAR(r2 / q, 0.64, 4 * 0.64 * std::sqrt(2.0 / q)) << "alpha^2 = 0.64";
    }
}

/** Lalitha et al. 2018, Example 1: each user has its own stream, so one seed gives other
 * targets. */
TEST(D2dSyntheticExample1, UsersStreamsDiffer)
{
    const std::size_t q = 20000;
    auto userA = D2dSyntheticData::Example1(0, q, 5);
    auto userB = D2dSyntheticData::Example1(1, q, 5);
    EXPECT_TRUE((userA->targets != userB->targets)) << "users' streams differ";
}

/** The Gaussian mixture: a zero standard deviation refused. */
TEST(D2dSyntheticGaussianMixture, ZeroSdRefused)
{
    auto means = D2dSyntheticData::PaperGaussianMeans();
    std::string msg = ErrorOf<std::invalid_argument>(
        [&] { D2dSyntheticData::GaussianMixture(means, 0, {}, 10, 1); });
    EXPECT_TRUE(Contains(msg, "sd: 0")) << msg;
}

/** Example 1: a user other than 0, 1 (or -1, the test set) refused. */
TEST(D2dSyntheticExample1, UnknownUserRefused)
{
    std::string msg = ErrorOf<std::invalid_argument>([&] { D2dSyntheticData::Example1(2, 10, 1); });
    EXPECT_TRUE(Contains(msg, "user: 2")) << msg;
}

} // namespace
