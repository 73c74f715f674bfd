/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The trust and pseudo-label rules of prediction consensus (Fan, Mendler-Dünner, Jaggi
 * 2023, eqs. 1, 6, 8, 9) against numbers worked by hand, invariants on random instances,
 * and the closed-form polynomial learner of the paper's App. A.1 toy.
 */
#include "ns3/d2d-polynomial-fit.h"
#include "ns3/d2d-trust-rules.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>

using namespace ns3;

namespace
{
/**
 * The hand example: 3 agents (A, B, C), 2 points, 3 classes. Entropies (nats):
 * H(0.7,0.2,0.1) = 0.801819, H(0.4,0.3,0.3) = 1.088900, H(0.05,0.9,0.05) = 0.394398,
 * H(0.1,0.2,0.7) = 0.801819.
 */
struct HandExample
{
    std::vector<float> a{0.7f, 0.2f, 0.1f, 0.2f, 0.7f, 0.1f};
    std::vector<float> b{0.4f, 0.3f, 0.3f, 0.05f, 0.9f, 0.05f};
    std::vector<float> c{0.1f, 0.2f, 0.7f, 0.7f, 0.2f, 0.1f};

    std::vector<const std::vector<float>*> All() const
    {
        return {&a, &b, &c};
    }
};

std::vector<std::vector<double>>
Matrix2x2()
{
    return {{0.5, 0.5}, {0.2, 0.8}};
}
} // namespace

TEST(D2dTrustRules, EntropyInNats)
{
    const float p[3] = {0.7f, 0.2f, 0.1f};
    // -(0.7 ln 0.7 + 0.2 ln 0.2 + 0.1 ln 0.1) = 0.249672 + 0.321888 + 0.230259
    EXPECT_NEAR(D2dTrustRules::Entropy(p, 3), 0.8018185, 1e-6);
    const float oneHot[3] = {0.f, 1.f, 0.f};
    EXPECT_DOUBLE_EQ(D2dTrustRules::Entropy(oneHot, 3), 0.0);
    EXPECT_NEAR(D2dTrustRules::Confidence(p, 3, D2dConfidence::ENTROPY_PLUS_ONE),
                1.0 / 1.8018185,
                1e-6);
    EXPECT_DOUBLE_EQ(D2dTrustRules::Confidence(p, 3, D2dConfidence::NONE), 1.0);
    // entropy mode: floored, finite for a one-hot prediction
    EXPECT_TRUE(std::isfinite(D2dTrustRules::Confidence(oneHot, 3, D2dConfidence::ENTROPY)));
}

TEST(D2dTrustRules, HandRowsOfEq6)
{
    HandExample ex;
    // beta = 1: gamma_Aj = mean over x1, x2 of cos(f_A, f_j):
    //   j = A: (1 + 1) / 2 = 1
    //   j = B: (0.37 / (0.734847 x 0.583095) + 0.645 / (0.734847 x 0.902774)) / 2
    //        = (0.863506 + 0.972264) / 2 = 0.917885
    //   j = C: (0.33 / 0.54 + 0.29 / 0.54) / 2 = (0.333333 + 0.537037) / 2 = 0.435185
    // w_A = gamma / 2.353070 = (0.424977, 0.390080, 0.184944).
    auto rowA = D2dTrustRules::TrustRow(0, ex.All(), 2, 3, D2dConfidence::NONE);
    EXPECT_NEAR(rowA[0], 0.424977, 1e-6);
    EXPECT_NEAR(rowA[1], 0.390080, 1e-6);
    EXPECT_NEAR(rowA[2], 0.184944, 1e-6);
    auto rowB = D2dTrustRules::TrustRow(1, ex.All(), 2, 3, D2dConfidence::ENTROPY);
    EXPECT_NEAR(rowB[0], 0.396503, 1e-6);
    EXPECT_NEAR(rowB[1], 0.420316, 1e-6);
    EXPECT_NEAR(rowB[2], 0.183180, 1e-6);
    auto rowB1 = D2dTrustRules::TrustRow(1, ex.All(), 2, 3, D2dConfidence::ENTROPY_PLUS_ONE);
    EXPECT_NEAR(rowB1[0], 0.384214, 1e-6);
    EXPECT_NEAR(rowB1[1], 0.413699, 1e-6);
    EXPECT_NEAR(rowB1[2], 0.202087, 1e-6);
}

TEST(D2dTrustRules, HandPseudoLabelsOfEq1)
{
    HandExample ex;
    // A's two entropies are equal, so beta = 1/(H + 1) is constant and A's row is the
    // beta = 1 row; psi_A(x1) = 0.424977 (0.7,0.2,0.1) + 0.390080 (0.4,0.3,0.3)
    //                         + 0.184944 (0.1,0.2,0.7) = (0.472010, 0.239008, 0.288982).
    auto rowA = D2dTrustRules::TrustRow(0, ex.All(), 2, 3, D2dConfidence::ENTROPY_PLUS_ONE);
    auto psi = D2dTrustRules::PseudoLabels(rowA, ex.All(), 2, 3, true);
    ASSERT_EQ(psi.size(), 6u);
    EXPECT_NEAR(psi[0], 0.472010, 1e-6);
    EXPECT_NEAR(psi[1], 0.239008, 1e-6);
    EXPECT_NEAR(psi[2], 0.288982, 1e-6);
    // x2: 0.424977 (0.2,0.7,0.1) + 0.390080 (0.05,0.9,0.05) + 0.184944 (0.7,0.2,0.1)
    EXPECT_NEAR(psi[3], 0.424977 * 0.2 + 0.390080 * 0.05 + 0.184944 * 0.7, 2e-6);
    EXPECT_NEAR(psi[4], 0.424977 * 0.7 + 0.390080 * 0.9 + 0.184944 * 0.2, 2e-6);
}

TEST(D2dTrustRules, RegressionRowsByHand)
{
    // Regression (C = 1), n* = 2: Y_A = (1, 2), Y_B = (2, 1), Y_C = (3, 0), Y_D = (-1, 0).
    // cos(A, B) = 4 / 5 = 0.8, cos(A, C) = 3 / (sqrt 5 x 3) = 0.447214, cos(A, D) < 0 -> 0;
    // row A = (1, 0.8, 0.447214, 0) / 2.247214 = (0.444996, 0.355996, 0.199008, 0).
    const std::vector<float> a{1.f, 2.f};
    const std::vector<float> b{2.f, 1.f};
    const std::vector<float> c{3.f, 0.f};
    const std::vector<float> d{-1.f, 0.f};
    const std::vector<const std::vector<float>*> all{&a, &b, &c, &d};
    auto rowA = D2dTrustRules::RegressionTrustRow(0, all, 2);
    ASSERT_EQ(rowA.size(), 4u);
    EXPECT_NEAR(rowA[0], 0.444996, 1e-6);
    EXPECT_NEAR(rowA[1], 0.355996, 1e-6);
    EXPECT_NEAR(rowA[2], 0.199008, 1e-6);
    EXPECT_EQ(rowA[3], 0.0); // anti-aligned: clipped at 0
    // B: cos(B, A) = 0.8, cos(B, C) = 6 / (sqrt 5 x 3) = 0.894427:
    // (0.8, 1, 0.894427) / 2.694427 = (0.296909, 0.371136, 0.331954); D absent.
    auto rowB = D2dTrustRules::RegressionTrustRow(1, {&a, &b, &c, nullptr}, 2);
    EXPECT_NEAR(rowB[0], 0.296909, 1e-6);
    EXPECT_NEAR(rowB[1], 0.371136, 1e-6);
    EXPECT_NEAR(rowB[2], 0.331954, 1e-6);
    EXPECT_EQ(rowB[3], 0.0);
    // D trusts no one but itself; identical predictions give 1/N; all-zero gives uniform.
    auto rowD = D2dTrustRules::RegressionTrustRow(3, all, 2);
    EXPECT_EQ(rowD, (std::vector<double>{0.0, 0.0, 0.0, 1.0}));
    auto same = D2dTrustRules::RegressionTrustRow(1, {&a, &a, &a}, 2);
    for (double w : same)
    {
        EXPECT_NEAR(w, 1.0 / 3.0, 1e-15);
    }
    const std::vector<float> zero{0.f, 0.f};
    auto z = D2dTrustRules::RegressionTrustRow(0, {&zero, &a, nullptr}, 2);
    EXPECT_EQ(z, (std::vector<double>{0.5, 0.5, 0.0}));
}

TEST(D2dTrustRules, AbsentPeersAreDroppedAndTheRowRenormalised)
{
    HandExample ex;
    // Without C, row A over {A, B}: the beta = 1 gammas of A and B, renormalised:
    // 0.424977 / (0.424977 + 0.390080) = 0.521408.
    std::vector<const std::vector<float>*> seen{&ex.a, &ex.b, nullptr};
    auto row = D2dTrustRules::TrustRow(0, seen, 2, 3, D2dConfidence::NONE);
    EXPECT_NEAR(row[0], 0.424977 / (0.424977 + 0.390080), 1e-6);
    EXPECT_DOUBLE_EQ(row[2], 0.0);
    // The matrix: row i from what agent i has.
    std::vector<std::vector<bool>> mask{{true, true, false},
                                        {true, true, true},
                                        {true, true, true}};
    auto w = D2dTrustRules::TrustMatrix(ex.All(), mask, 2, 3, D2dConfidence::ENTROPY);
    EXPECT_NEAR(w[0][0], row[0], 1e-12);
    EXPECT_NEAR(w[1][1], 0.420316, 1e-6);
    // Restrict (static trust, renormalize rule): (0.2, 0.3, 0.5) without the last -> (0.4, 0.6)
    auto r = D2dTrustRules::Restrict({0.2, 0.3, 0.5}, {true, true, false});
    EXPECT_NEAR(r[0], 0.4, 1e-15);
    EXPECT_NEAR(r[1], 0.6, 1e-15);
    EXPECT_EQ(r[2], 0.0);
    auto naive = D2dTrustRules::NaiveRow({true, false, true, true});
    EXPECT_DOUBLE_EQ(naive[0], 1.0 / 3);
    EXPECT_DOUBLE_EQ(naive[1], 0.0);
}

TEST(D2dTrustRules, InvariantsOnRandomInstances)
{
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> u(0.01, 1.0);
    for (int trial = 0; trial < 50; ++trial)
    {
        const uint32_t n = 2 + trial % 7;
        const uint32_t points = 1 + trial % 13;
        const uint32_t classes = 2 + trial % 9;
        std::vector<std::vector<float>> preds(n, std::vector<float>(points * classes));
        for (auto& p : preds)
        {
            for (uint32_t x = 0; x < points; ++x)
            {
                double total = 0;
                for (uint32_t c = 0; c < classes; ++c)
                {
                    p[x * classes + c] = static_cast<float>(u(gen));
                    total += p[x * classes + c];
                }
                for (uint32_t c = 0; c < classes; ++c)
                {
                    p[x * classes + c] = static_cast<float>(p[x * classes + c] / total);
                }
            }
        }
        std::vector<const std::vector<float>*> all;
        for (auto& p : preds)
        {
            all.push_back(&p);
        }
        for (auto mode :
             {D2dConfidence::NONE, D2dConfidence::ENTROPY, D2dConfidence::ENTROPY_PLUS_ONE})
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                auto row = D2dTrustRules::TrustRow(i, all, points, classes, mode);
                double sum = 0;
                for (uint32_t j = 0; j < n; ++j)
                {
                    EXPECT_GT(row[j], 0.0);
                    EXPECT_LE(row[j], row[i] + 1e-12) << "the diagonal is the row maximum";
                    sum += row[j];
                }
                EXPECT_NEAR(sum, 1.0, 1e-12);
                auto psi = D2dTrustRules::PseudoLabels(row, all, points, classes, true);
                for (uint32_t x = 0; x < points; ++x)
                {
                    double s = 0;
                    for (uint32_t c = 0; c < classes; ++c)
                    {
                        s += psi[x * classes + c];
                    }
                    EXPECT_NEAR(s, 1.0, 1e-5);
                }
            }
        }
        // Identical predictions: every row is 1/N, delta = 0, lambda = 0.
        std::vector<const std::vector<float>*> same(n, &preds[0]);
        std::vector<std::vector<bool>> mask(n, std::vector<bool>(n, true));
        auto w = D2dTrustRules::TrustMatrix(same, mask, points, classes, D2dConfidence::ENTROPY);
        for (const auto& row : w)
        {
            for (double v : row)
            {
                EXPECT_NEAR(v, 1.0 / n, 1e-12);
            }
        }
        EXPECT_NEAR(D2dTrustRules::RowDifference(w), 0.0, 1e-12);
        EXPECT_NEAR(D2dTrustRules::Scrambling(w), 0.0, 1e-12);
        EXPECT_NEAR(D2dTrustRules::Disagreement(same, points, classes), 0.0, 1e-12);
    }
}

TEST(D2dTrustRules, DiagnosticsOfEqs8And9ByHand)
{
    auto w = Matrix2x2();
    // delta = max(|0.5 - 0.2|, |0.5 - 0.8|) = 0.3; lambda = 1 - (min(.5,.2) + min(.5,.8)) = 0.3
    EXPECT_NEAR(D2dTrustRules::RowDifference(w), 0.3, 1e-15);
    EXPECT_NEAR(D2dTrustRules::Scrambling(w), 0.3, 1e-15);
    EXPECT_NEAR(D2dTrustRules::Trace(w), 1.3, 1e-15);
    auto with = D2dTrustRules::ColumnSums(w, true);
    auto without = D2dTrustRules::ColumnSums(w, false);
    EXPECT_NEAR(with[0], 0.7, 1e-15);
    EXPECT_NEAR(with[1], 1.3, 1e-15);
    EXPECT_NEAR(without[0], 0.2, 1e-15);
    EXPECT_NEAR(without[1], 0.5, 1e-15);
    // pi W = pi: 0.5 pi_0 = 0.2 pi_1, so pi = (2/7, 5/7).
    auto pi = D2dTrustRules::ConsensusDistribution(w);
    EXPECT_NEAR(pi[0], 2.0 / 7, 1e-12);
    EXPECT_NEAR(pi[1], 5.0 / 7, 1e-12);
    // Lemma 1 (Wolfowitz): delta(W W) <= lambda(W)^2; here W^2 = [[.35,.65],[.26,.74]].
    auto w2 = D2dTrustRules::Multiply(w, w);
    EXPECT_NEAR(w2[0][0], 0.35, 1e-15);
    EXPECT_NEAR(w2[1][1], 0.74, 1e-15);
    EXPECT_NEAR(D2dTrustRules::RowDifference(w2), 0.09, 1e-15);
    EXPECT_LE(D2dTrustRules::RowDifference(w2), 0.3 * 0.3 + 1e-15);
    // Disagreement: agents predicting (1, 0) and (0, 1) at one point: mean (.5, .5),
    // each squared distance 0.5 -> 0.5.
    std::vector<float> p{1.f, 0.f};
    std::vector<float> q{0.f, 1.f};
    EXPECT_NEAR(D2dTrustRules::Disagreement({&p, &q}, 1, 2), 0.5, 1e-15);
}

TEST(D2dTrustRules, ParsesConfidenceModes)
{
    EXPECT_EQ(D2dTrustRules::ParseConfidence("entropy-plus-one"), D2dConfidence::ENTROPY_PLUS_ONE);
    EXPECT_EQ(D2dTrustRules::ParseConfidence("entropy"), D2dConfidence::ENTROPY);
    EXPECT_EQ(D2dTrustRules::ParseConfidence("none"), D2dConfidence::NONE);
    EXPECT_THROW(D2dTrustRules::ParseConfidence("cosine"), std::invalid_argument);
    EXPECT_EQ(D2dTrustRules::ToString(D2dConfidence::ENTROPY), "entropy");
}

TEST(D2dPolynomialFit, ClosedFormByHand)
{
    // Degree 0: argmin sum (c - y)^2 + lambda sum (c - psi)^2 = (sum y + lambda sum psi) /
    // (n + lambda m) = (1 + 2 + 3 + 2 x 10) / (3 + 2 x 1) = 5.2.
    auto c0 = D2dPolynomialFit::Fit({0, 1, 2}, {1, 2, 3}, {5}, {10}, 2.0, 0);
    ASSERT_EQ(c0.size(), 1u);
    EXPECT_NEAR(c0[0], 5.2, 1e-12);
    // Exact data of a cubic is recovered by a degree-3 fit (lambda = 0).
    std::vector<double> x{-2, -1, 0, 1, 2, 3};
    std::vector<double> y;
    for (double v : x)
    {
        y.push_back(0.5 * v * v * v + 0.3 * v * v - 5 * v + 4);
    }
    auto c = D2dPolynomialFit::Fit(x, y, {}, {}, 0.0, 3);
    EXPECT_NEAR(c[0], 4.0, 1e-9);
    EXPECT_NEAR(c[1], -5.0, 1e-9);
    EXPECT_NEAR(c[2], 0.3, 1e-9);
    EXPECT_NEAR(c[3], 0.5, 1e-9);
    EXPECT_NEAR(D2dPolynomialFit::Evaluate(c, 2.0), y[4], 1e-9);
    EXPECT_THROW(D2dPolynomialFit::Fit({0}, {1}, {}, {}, 0.0, 2), std::invalid_argument);
    EXPECT_THROW(D2dPolynomialFit::Fit({0}, {1}, {}, {}, -1.0, 0), std::invalid_argument);
}

TEST(D2dPolynomialFit, ToyOfAppendixA1ReachesConsensusOnXstar)
{
    // Three agents x 50 points, x ~ N(-2,1), N(0,1), N(2,1), y = f(x) + N(0,1),
    // X* = 50 points evenly in [-4, 4], degree-4 models, naive trust, lambda = 1.
    std::mt19937_64 gen(3);
    std::normal_distribution<double> noise(0.0, 1.0);
    auto f = [](double v) {
        return 0.5 * v * v * v + 0.3 * v * v - 5 * v + 4;
    };
    std::vector<std::vector<double>> xs(3);
    std::vector<std::vector<double>> ys(3);
    for (int a = 0; a < 3; ++a)
    {
        for (int k = 0; k < 50; ++k)
        {
            const double v = -2.0 + 2.0 * a + noise(gen);
            xs[a].push_back(v);
            ys[a].push_back(f(v) + noise(gen));
        }
    }
    std::vector<double> xstar;
    for (int m = 0; m < 50; ++m)
    {
        xstar.push_back(-4.0 + 8.0 * m / 49.0);
    }
    std::vector<std::vector<double>> coef(3);
    for (int a = 0; a < 3; ++a)
    {
        coef[a] = D2dPolynomialFit::Fit(xs[a], ys[a], {}, {}, 0.0, 4);
    }
    auto disagreement = [&]() {
        std::vector<std::vector<float>> preds(3);
        for (int a = 0; a < 3; ++a)
        {
            for (double v : D2dPolynomialFit::Evaluate(coef[a], xstar))
            {
                preds[a].push_back(static_cast<float>(v));
            }
        }
        return std::make_pair(D2dTrustRules::Disagreement({&preds[0], &preds[1], &preds[2]}, 50, 1),
                              preds);
    };
    double first = 0;
    double last = 0;
    for (int round = 1; round <= 40; ++round)
    {
        auto [d, preds] = disagreement();
        std::vector<const std::vector<float>*> all{&preds[0], &preds[1], &preds[2]};
        auto psi = D2dTrustRules::PseudoLabels(D2dTrustRules::NaiveRow({true, true, true}),
                                               all,
                                               50,
                                               1,
                                               false);
        std::vector<double> target(psi.begin(), psi.end());
        for (int a = 0; a < 3; ++a)
        {
            coef[a] = D2dPolynomialFit::Fit(xs[a], ys[a], xstar, target, 1.0, 4);
        }
        const double after = disagreement().first;
        if (round == 1)
        {
            first = after;
        }
        last = after;
    }
    EXPECT_GT(first, 10.0 * last) << "disagreement on X* after round 1: " << first
                                  << ", after round 40: " << last;
    // ... while the models still differ (consensus in prediction space, not parameters).
    double coefGap = 0;
    for (int e = 0; e <= 4; ++e)
    {
        coefGap = std::max(coefGap, std::abs(coef[0][e] - coef[2][e]));
    }
    EXPECT_GT(coefGap, 0.05);
}
