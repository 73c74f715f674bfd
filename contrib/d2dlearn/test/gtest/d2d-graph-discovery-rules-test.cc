/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the pure rules of graph discovery (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025): the message passing of eqs. (9)-(12) on the paper's Appendix A example and on
 * thousands of random instances, the reliable clusters of eq. (1), the diversity score and
 * rewards of eqs. (13)-(14), the softmax of eq. (7), the policy update of sec. IV-E in each
 * buffer and beta mode, the trust matrices of eq. (2) and the baseline graphs. Every expected
 * number is worked out by hand in the comments.
 */

#include "ns3/d2d-baseline-graphs.h"
#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-link-policy.h"
#include "ns3/d2d-message-passing.h"
#include "ns3/d2d-shard-exchange.h"
#include "ns3/d2d-trust-matrices.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
using Counts = std::vector<double>;

/**
 * Appendix A: devices i = 0, j = 1, k = 2, L = 5, b = 10 everywhere; i and k select j;
 * T_j[i] = [1,0,1,1,0], T_j[k] = [1,1,1,0,0].
 */
D2dExchangeInstance
AppendixA(double pDrop)
{
    D2dExchangeInstance in;
    in.counts = {{20, 0, 0, 0, 20}, {20, 20, 20, 20, 20}, {0, 20, 0, 20, 0}};
    in.thresholds.assign(3, Counts(5, 10.0));
    in.trust = D2dTrustMatrices(3, 5, false);
    const std::vector<int> ti{1, 0, 1, 1, 0};
    const std::vector<int> tk{1, 1, 1, 0, 0};
    for (uint32_t l = 0; l < 5; ++l)
    {
        in.trust.Set(1, 0, l, ti[l]);
        in.trust.Set(1, 2, l, tk[l]);
    }
    in.selection = {1, -1, 1};
    in.pDrop.assign(3, std::vector<double>(3, pDrop));
    return in;
}

void
ExpectCounts(const Counts& actual, const Counts& expected, const char* what)
{
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t l = 0; l < expected.size(); ++l)
    {
        EXPECT_NEAR(actual[l], expected[l], 1e-9) << what << " [" << l << "]";
    }
}
} // namespace

TEST(D2dMessagePassing, AppendixAWithoutLoss)
{
    const auto out = D2dMessagePassing::Run(AppendixA(0.0));
    // V_j->i: trusted and D_j = 20 > 10 -> T_j[i]; R_i = 10 - D_i = [-10,10,10,10,-10].
    ExpectCounts(out.available[0], {1, 0, 1, 1, 0}, "V_j->i");
    ExpectCounts(out.requested[0], {0, 0, 10, 10, 0}, "Q_j->i");
    ExpectCounts(out.requested[2], {10, 0, 10, 0, 0}, "Q_j->k");
    // Label 2: demand 20 > spare 20 - 10 = 10: 10 / 20 x 10 = 5 each; others fit.
    ExpectCounts(out.allocated[0], {0, 0, 5, 10, 0}, "U_j->i");
    ExpectCounts(out.allocated[2], {10, 0, 5, 0, 0}, "U_j->k");
    ExpectCounts(out.afterExpected[0], {20, 0, 5, 10, 20}, "D-hat_i");
    ExpectCounts(out.afterExpected[1], {10, 20, 10, 10, 20}, "D-hat_j");
    ExpectCounts(out.afterExpected[2], {10, 20, 5, 20, 0}, "D-hat_k");
    ExpectCounts(out.sent[1], {10, 0, 10, 10, 0}, "sent by j");
}

TEST(D2dMessagePassing, AppendixAWithLoss)
{
    // P_D = 0.2: received = 0.8 U: i gets [0,0,4,8,0], k gets [8,0,4,0,0]; j still sends U.
    const auto out = D2dMessagePassing::Run(AppendixA(0.2));
    ExpectCounts(out.afterExpected[0], {20, 0, 4, 8, 20}, "D-hat_i");
    ExpectCounts(out.afterExpected[2], {8, 20, 4, 20, 0}, "D-hat_k");
    ExpectCounts(out.afterExpected[1], {10, 20, 10, 10, 20}, "D-hat_j");
    ExpectCounts(out.afterAllocated[0], {20, 0, 5, 10, 20}, "loss-free i");
}

TEST(D2dMessagePassing, ProRataIsRoundedDown)
{
    // Spare 25 - 10 = 15, demands 10 and 20 (30 > 15): 10/30 x 15 = 5, 20/30 x 15 = 10;
    // demands 7 and 7 on spare 9: 7/14 x 9 = 4.5 -> 4 each (the transmitter keeps 11 >= 10).
    const auto u = D2dMessagePassing::Allocate({{10, 7}, {20, 7}}, {25, 19}, {10, 10});
    ExpectCounts(u[0], {5, 4}, "first");
    ExpectCounts(u[1], {10, 4}, "second");
}

TEST(D2dMessagePassing, InvariantsOnRandomInstances)
{
    std::mt19937_64 rng(2025);
    auto uni = [&rng]() {
        return static_cast<double>(rng() >> 11) / 9007199254740992.0;
    };
    for (int trial = 0; trial < 5000; ++trial)
    {
        const uint32_t n = 2 + static_cast<uint32_t>(uni() * 7);
        const uint32_t nl = 1 + static_cast<uint32_t>(uni() * 6);
        D2dExchangeInstance in;
        in.counts.assign(n, Counts(nl, 0));
        in.thresholds.assign(n, Counts(nl, 0));
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t l = 0; l < nl; ++l)
            {
                in.counts[i][l] = std::floor(uni() * 50);
                in.thresholds[i][l] = std::floor(uni() * 30);
            }
        }
        in.trust = D2dTrustMatrices::Generate("random", n, nl, uni(), rng());
        in.pDrop.assign(n, std::vector<double>(n, 0));
        in.selection.assign(n, -1);
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                in.pDrop[i][j] = uni();
            }
            if (uni() < 0.85)
            {
                in.selection[i] = (i + 1 + static_cast<uint32_t>(uni() * (n - 1))) % n;
            }
        }
        const auto out = D2dMessagePassing::Run(in);
        double before = 0;
        double afterAllocated = 0;
        double afterExpected = 0;
        double lost = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const int64_t j = in.selection[i];
            for (uint32_t l = 0; l < nl; ++l)
            {
                const double trust = j < 0 ? 0 : in.trust.Get(j, i, l);
                ASSERT_LE(out.available[i][l], trust);
                ASSERT_LE(out.requested[i][l],
                          std::max(0.0, in.thresholds[i][l] - in.counts[i][l]));
                ASSERT_GE(out.requested[i][l], 0);
                ASSERT_LE(out.allocated[i][l], out.requested[i][l]);
                ASSERT_GE(out.allocated[i][l], 0);
                ASSERT_EQ(out.allocated[i][l], std::floor(out.allocated[i][l]));
                if (out.sent[i][l] > 0)
                {
                    ASSERT_GE(in.counts[i][l] - out.sent[i][l], in.thresholds[i][l]);
                }
                ASSERT_GE(out.afterAllocated[i][l], 0);
                ASSERT_GE(out.afterExpected[i][l], -1e-12);
                before += in.counts[i][l];
                afterAllocated += out.afterAllocated[i][l];
                afterExpected += out.afterExpected[i][l];
                if (j >= 0)
                {
                    lost += in.pDrop[i][j] * out.allocated[i][l];
                }
            }
        }
        ASSERT_NEAR(afterAllocated, before, 1e-9);
        ASSERT_NEAR(afterExpected, before - lost, 1e-6);
    }
}

TEST(D2dDiversityRewards, Wasserstein1ByHand)
{
    // p = [1,0,0], q = [0,0,1]: CDFs (1,1) and (0,0): W1 = 2 = |0 - 2| label steps.
    EXPECT_DOUBLE_EQ(D2dDiversityRewards::Wasserstein1({5, 0, 0}, {0, 0, 3}), 2.0);
    // Appendix A, device i: [20,0,0,0,20]/40 -> [20,0,5,10,20]/55.
    // CDFs: (0.5,0.5,0.5,0.5) and (20/55,20/55,25/55,35/55): |.| = 7.5/55+7.5/55+2.5/55+7.5/55
    // = 25/55.
    EXPECT_NEAR(D2dDiversityRewards::Wasserstein1({20, 0, 0, 0, 20}, {20, 0, 5, 10, 20}),
                25.0 / 55.0,
                1e-12);
    // Distance to uniform of [7,2,1]: CDF (0.7,0.9) vs (1/3,2/3): 0.3667 + 0.2333 = 0.6.
    EXPECT_NEAR(D2dDiversityRewards::DistanceToUniform({7, 2, 1}), 0.6, 1e-12);
}

TEST(D2dDiversityRewards, JensenShannonByHand)
{
    // Disjoint supports: JSD = 1 bit, distance 1; equal histograms: 0.
    EXPECT_NEAR(D2dDiversityRewards::JensenShannon({1, 0}, {0, 1}), 1.0, 1e-12);
    EXPECT_NEAR(D2dDiversityRewards::JensenShannon({2, 2}, {1, 1}), 0.0, 1e-12);
    // [1,0] vs [1,1]/2: m = [0.75,0.25]; JSD = 0.5 log2(1/0.75) + 0.5 (0.5 log2(0.5/0.75)
    // + 0.5 log2(0.5/0.25)) = 0.5 (0.415037) + 0.5 (-0.292481 + 0.5) = 0.311278.
    EXPECT_NEAR(D2dDiversityRewards::JensenShannon({1, 0}, {1, 1}), std::sqrt(0.311278), 1e-6);
}

TEST(D2dDiversityRewards, GainAndRewards)
{
    const Counts b(5, 10.0);
    // Device i of Appendix A: after [20,0,5,10,20] satisfies labels 0, 3, 4 (3 labels).
    const Counts before{20, 0, 0, 0, 20};
    const Counts after{20, 0, 5, 10, 20};
    EXPECT_NEAR(
        D2dDiversityRewards::Gain(D2dDiversityRewards::Metric::W1, before, after, after, b, 3),
        25.0 / 55.0,
        1e-12);
    // L-hat = 4 is not met: g = 0.
    EXPECT_EQ(
        D2dDiversityRewards::Gain(D2dDiversityRewards::Metric::W1, before, after, after, b, 4),
        0.0);
    // Eq. (13): 2 x 0.5 - 3 x 0.1 = 0.7.
    EXPECT_NEAR(D2dDiversityRewards::LocalReward(0.5, 0.1, 2.0, 3.0), 0.7, 1e-12);
    // Eq. (14): (0.7 + 0.2 - 0.3) / 4 + 0.01 (100 - 40) = 0.15 + 0.6 = 0.75.
    EXPECT_NEAR(D2dDiversityRewards::GlobalReward({0.7, 0.2, -0.3}, 4, 0.01, 100, 40), 0.75, 1e-12);
}

TEST(D2dDiversityRewards, GreedyClusters)
{
    // Devices 0, 1, 2, 3: 0-1 reliable both ways; 2 reliable with 0 but not 1 (one way
    // only: P_D(1,2) = 0.5); 3 reliable with 2. Greedy: {0,1}, 2 cannot join, {2,3}.
    std::vector<std::vector<double>> p{{0, 0.05, 0.05, 0.9},
                                       {0.05, 0, 0.5, 0.9},
                                       {0.05, 0.05, 0, 0.1},
                                       {0.9, 0.9, 0.1, 0}};
    EXPECT_EQ(D2dDiversityRewards::Clusters(p, 0.1), (std::vector<uint32_t>{0, 0, 1, 1}));
    // alpha_D = 1: one cluster; alpha_D = 0.01: singletons.
    EXPECT_EQ(D2dDiversityRewards::Clusters(p, 1.0), (std::vector<uint32_t>{0, 0, 0, 0}));
    EXPECT_EQ(D2dDiversityRewards::Clusters(p, 0.01), (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST(D2dLinkPolicy, SoftmaxOfEq7)
{
    const auto p = D2dLinkPolicy::Softmax({0, 1, 2});
    EXPECT_NEAR(p[0], 0.090031, 1e-6);
    EXPECT_NEAR(p[1], 0.244728, 1e-6);
    EXPECT_NEAR(p[2], 0.665241, 1e-6);
    // No self-selection; unvisited actions value 0: device 1 of 3 sees (0, -, 0): 1/2 each.
    D2dLinkPolicy policy(3,
                         1,
                         4,
                         0.9,
                         D2dLinkPolicy::BufferMode::PER_ACTION,
                         D2dLinkPolicy::BetaMode::SIGN_AWARE);
    const auto q = policy.Probabilities({0, 0, 0}, {true, true, true});
    EXPECT_EQ(q[1], 0.0);
    EXPECT_DOUBLE_EQ(q[0], 0.5);
    EXPECT_DOUBLE_EQ(q[2], 0.5);
    EXPECT_EQ(D2dLinkPolicy::Sample(q, 0.49), 0u);
    EXPECT_EQ(D2dLinkPolicy::Sample(q, 0.51), 2u);
}

TEST(D2dLinkPolicy, PerActionSignAware)
{
    // H = 3, delta = 0.9; rewards 1, 0.5, -1, 2 on action 1:
    // 1 (empty buffer) -> 1; 0.5 < 1 -> 0.5 - 0.45 = 0.05; -1 < 0.525 -> -1 - 0.9 = -1.9;
    // 2 > -0.2833 -> 2 replaces the oldest (1): buffer {2, 0.05, -1.9}: psi^R 0.15, psi^C 3.
    D2dLinkPolicy p(3,
                    0,
                    3,
                    0.9,
                    D2dLinkPolicy::BufferMode::PER_ACTION,
                    D2dLinkPolicy::BetaMode::SIGN_AWARE);
    EXPECT_DOUBLE_EQ(p.Update(0, 1, 1.0), 1.0);
    EXPECT_NEAR(p.Update(0, 1, 0.5), 0.05, 1e-12);
    EXPECT_NEAR(p.Update(0, 1, -1.0), -1.9, 1e-12);
    EXPECT_NEAR(p.TotalReward(0, 1), -0.85, 1e-12);
    EXPECT_DOUBLE_EQ(p.Update(0, 1, 2.0), 2.0);
    EXPECT_NEAR(p.TotalReward(0, 1), 0.15, 1e-12);
    EXPECT_EQ(p.Count(0, 1), 3.0);
    EXPECT_NEAR(p.Value(0, 1), 0.05, 1e-12);
    EXPECT_EQ(p.Value(0, 2), 0.0); // never taken
}

TEST(D2dLinkPolicy, PerActionLiteralMakesNegativeRewardsLookBetter)
{
    // Same sequence, beta = 1 - delta = 0.1: 1; 0.05; -1 -> -0.1 (better than -1);
    // 2 -> {2, 0.05, -0.1}: psi^R 1.95, value 0.65.
    D2dLinkPolicy p(3,
                    0,
                    3,
                    0.9,
                    D2dLinkPolicy::BufferMode::PER_ACTION,
                    D2dLinkPolicy::BetaMode::LITERAL);
    p.Update(0, 1, 1.0);
    EXPECT_NEAR(p.Update(0, 1, 0.5), 0.05, 1e-12);
    EXPECT_NEAR(p.Update(0, 1, -1.0), -0.1, 1e-12);
    p.Update(0, 1, 2.0);
    EXPECT_NEAR(p.TotalReward(0, 1), 1.95, 1e-12);
    EXPECT_NEAR(p.Value(0, 1), 0.65, 1e-12);
}

TEST(D2dLinkPolicy, SharedBufferDoesNotTellActionsApart)
{
    // Action 1 always earns 1, action 2 always 0; H = 3, sign-aware, delta = 0.9.
    // Shared: (1,1) -> {1}: v1 = 1; (2,0): 0 < 1 -> 0 - 0 = 0 -> {1,0}: v2 = 1/2;
    // (1,1): 1 >= 0.5 -> {1,0,1}: v1 = 2/3; (2,0): 0 < 2/3 -> 0, replaces the oldest 1 ->
    // {0,0,1}: v2 = 1/3. Action 2 never earned anything yet is valued 1/3.
    D2dLinkPolicy shared(3,
                         0,
                         3,
                         0.9,
                         D2dLinkPolicy::BufferMode::SHARED,
                         D2dLinkPolicy::BetaMode::SIGN_AWARE);
    D2dLinkPolicy perAction(3,
                            0,
                            3,
                            0.9,
                            D2dLinkPolicy::BufferMode::PER_ACTION,
                            D2dLinkPolicy::BetaMode::SIGN_AWARE);
    for (auto* p : {&shared, &perAction})
    {
        p->Update(0, 1, 1.0);
        p->Update(0, 2, 0.0);
        p->Update(0, 1, 1.0);
        p->Update(0, 2, 0.0);
    }
    EXPECT_NEAR(shared.Value(0, 1), 2.0 / 3.0, 1e-12);
    EXPECT_NEAR(shared.Value(0, 2), 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(perAction.Value(0, 1), 1.0, 1e-12);
    EXPECT_NEAR(perAction.Value(0, 2), 0.0, 1e-12);
}

TEST(D2dLinkPolicy, StatesAreSeparate)
{
    // Per-link states: action 1 valued in state 0 and state 2 separately.
    D2dLinkPolicy p(3,
                    0,
                    8,
                    0.9,
                    D2dLinkPolicy::BufferMode::PER_ACTION,
                    D2dLinkPolicy::BetaMode::SIGN_AWARE);
    p.Update(0, 1, 2.0);
    p.Update(2, 1, -1.0);
    EXPECT_EQ(p.Value(0, 1), 2.0);
    EXPECT_EQ(p.Value(2, 1), -1.0);
    // State of action 1 is 2, of action 2 is 0: values (-, -1, 0): softmax(-1, 0).
    const auto q = p.Probabilities({0, 2, 0}, {true, true, true});
    const auto s = D2dLinkPolicy::Softmax({-1.0, 0.0});
    EXPECT_NEAR(q[1], s[0], 1e-12);
    EXPECT_NEAR(q[2], s[1], 1e-12);
}

TEST(D2dTrustMatrices, RandomDensityAndStructures)
{
    const auto t = D2dTrustMatrices::Generate("random", 40, 10, 0.3, 7);
    // 40 x 39 x 10 = 15600 Bernoulli(0.3): sd sqrt(0.21 / 15600) = 0.0037; 5 sd = 0.018.
    EXPECT_NEAR(t.Density(), 0.3, 0.02);
    for (uint32_t j = 0; j < 40; ++j)
    {
        for (uint32_t l = 0; l < 10; ++l)
        {
            EXPECT_FALSE(t.Get(j, j, l));
        }
    }
    // Row-sparse: in each T_j at least N/2 = 20 receivers get nothing.
    const auto r = D2dTrustMatrices::Generate("row-sparse", 40, 10, 1.0, 7);
    for (uint32_t j = 0; j < 40; ++j)
    {
        uint32_t empty = 0;
        for (uint32_t i = 0; i < 40; ++i)
        {
            bool any = false;
            for (uint32_t l = 0; l < 10; ++l)
            {
                any = any || r.Get(j, i, l);
            }
            empty += any ? 0 : 1;
        }
        EXPECT_GE(empty, 20u);
        EXPECT_LE(empty, 21u); // the 20 zeroed rows, plus j's own if not among them
    }
    // Column-sparse with density 1: exactly L/2 = 5 columns of ones in each T_j.
    const auto c = D2dTrustMatrices::Generate("column-sparse", 6, 10, 1.0, 7);
    uint32_t shared = 0;
    for (uint32_t l = 0; l < 10; ++l)
    {
        shared += c.Get(0, 1, l) ? 1 : 0;
    }
    EXPECT_EQ(shared, 5u);
    // Block: rectangles are added until 0.4 N L = 80 entries of each T_j are one; the
    // diagonal row, zeroed afterwards, takes at most L = 10: density >= 70 / (19 x 10).
    const auto b = D2dTrustMatrices::Generate("block", 20, 10, 0.4, 7);
    EXPECT_GE(b.Density(), 70.0 / 190.0 - 1e-12);
    EXPECT_LT(b.Density(), 0.7);
    EXPECT_EQ(D2dTrustMatrices::Generate("random", 5, 3, 0.5, 9).Row(1, 2),
              D2dTrustMatrices::Generate("random", 5, 3, 0.5, 9).Row(1, 2)); // same seed
    EXPECT_THROW(D2dTrustMatrices::Generate("random", 5, 3, 1.5, 1), std::invalid_argument);
    EXPECT_THROW(D2dTrustMatrices::Generate("diagonal", 5, 3, 0.5, 1), std::invalid_argument);
}

TEST(D2dTrustMatrices, File)
{
    const std::string path = ::testing::TempDir() + "/gd-trust.csv";
    {
        std::ofstream f(path);
        f << "# T_0 then T_1 (N = 2, L = 3)\n0,0,0\n1,0,1\n0,1,1\n1,1,1\n";
    }
    const auto t = D2dTrustMatrices::ReadFile(path, 2, 3);
    EXPECT_EQ(t.Row(0, 1), (std::vector<uint8_t>{1, 0, 1}));
    EXPECT_EQ(t.Row(1, 0), (std::vector<uint8_t>{0, 1, 1}));
    EXPECT_EQ(t.Row(1, 1), (std::vector<uint8_t>{0, 0, 0}));                  // diagonal ignored
    EXPECT_THROW(D2dTrustMatrices::ReadFile(path, 3, 3), std::runtime_error); // 4 rows, not 9
    EXPECT_THROW(D2dTrustMatrices::ReadFile(path, 2, 2), std::runtime_error); // 3 values, not 2
    {
        std::ofstream f(path);
        f << "0,0,0\n1,0,2\n0,1,1\n1,1,1\n";
    }
    EXPECT_THROW(D2dTrustMatrices::ReadFile(path, 2, 3), std::runtime_error); // a 2
    EXPECT_THROW(D2dTrustMatrices::ReadFile(path + ".missing", 2, 3), std::runtime_error);
    std::remove(path.c_str());
}

TEST(D2dBaselineGraphs, ClosestMostTrustedUniform)
{
    auto in = AppendixA(0.0);
    // P_D: i hears k best, j second; k hears i best.
    in.pDrop = {{0, 0.2, 0.1}, {0.3, 0, 0.3}, {0.1, 0.2, 0}};
    EXPECT_EQ(D2dBaselineGraphs::Closest(in.pDrop), (std::vector<int64_t>{2, 0, 0}));
    // Most trusted for i: j shares 3 labels (T_j[i] on labels with D_j > b_j), k none
    // (T_k is zero). For j: i and k share 0 labels each: tie -> lower P_D (0.3 = 0.3) -> index 0.
    EXPECT_EQ(D2dBaselineGraphs::MostTrusted(in), (std::vector<int64_t>{1, 0, 1}));
    // Excluding j for i leaves k.
    std::vector<std::vector<bool>> ex(3, std::vector<bool>(3, false));
    ex[0][1] = true;
    EXPECT_EQ(D2dBaselineGraphs::MostTrusted(in, ex)[0], 2);
    // Uniform with u = 0.99 always takes the last allowed transmitter; never itself.
    const auto u = D2dBaselineGraphs::Uniform(3, []() { return 0.99; });
    EXPECT_EQ(u, (std::vector<int64_t>{2, 2, 1}));
    EXPECT_EQ(D2dBaselineGraphs::None(2), (std::vector<int64_t>{-1, -1}));
}

TEST(D2dBaselineGraphs, MostShareableTiesToLowerDropThenIndex)
{
    // shareable[i][j]: device 0 ties 2 = 2 between 1 and 2, P_D 0.3 vs 0.1 -> 2; device 1
    // ties 1 = 1 at equal P_D -> the lower index 0; device 2 takes 1 (3 > 0).
    const std::vector<std::vector<double>> shareable{{0, 2, 2}, {1, 0, 1}, {0, 3, 0}};
    const std::vector<std::vector<double>> pDrop{{0, 0.3, 0.1}, {0.2, 0, 0.2}, {0.5, 0.9, 0}};
    EXPECT_EQ(D2dBaselineGraphs::MostShareable(shareable, pDrop), (std::vector<int64_t>{2, 0, 1}));
    std::vector<std::vector<bool>> ex(3, std::vector<bool>(3, false));
    ex[2][1] = true; // 2 may not take 1: 0 is left
    EXPECT_EQ(D2dBaselineGraphs::MostShareable(shareable, pDrop, ex)[2], 0);
}

TEST(D2dMessagePassing, ApportionReceivedPoints)
{
    // U = [5, 10, 0, 1], 16 sent, 11 arrived: exact 3.4375, 6.875, 0, 0.6875 -> floors
    // 3, 6, 0, 0 (9); the 2 left go to the largest fractions 0.875 (label 1), 0.6875 (label 3).
    ExpectCounts(D2dMessagePassing::Apportion({5, 10, 0, 1}, 11), {3, 7, 0, 1}, "11 of 16");
    ExpectCounts(D2dMessagePassing::Apportion({5, 10, 0, 1}, 16), {5, 10, 0, 1}, "all");
    ExpectCounts(D2dMessagePassing::Apportion({5, 10, 0, 1}, 0), {0, 0, 0, 0}, "none");
    ExpectCounts(D2dMessagePassing::Apportion({0, 0}, 3), {0, 0}, "nothing sent");
}

TEST(D2dShardExchange, MovesTheFirstSamplesOfEachLabel)
{
    // Samples 0..9 with labels 0,1,0,1,0,1,2,2,0,1; device 0 holds 0..5, device 1 holds 6..9.
    D2dDataset train;
    train.numClasses = 3;
    train.featureShape = {1};
    train.features.assign(10, 0.0f);
    train.labels = {0, 1, 0, 1, 0, 1, 2, 2, 0, 1};
    std::vector<D2dShard> shards(2);
    shards[0].indices = {0, 1, 2, 3, 4, 5};
    shards[1].indices = {6, 7, 8, 9};
    // Device 1 sends device 0 two points of label 2 (samples 6, 7) and one of label 0
    // (sample 8); only 2 arrive: label 2's first (6) and label 0's (8).
    D2dGraphDiscovery::Link link;
    link.receiver = 0;
    link.transmitter = 1;
    link.allocated = {1, 0, 2};
    link.received = {1, 0, 1};
    EXPECT_EQ(D2dShardExchange::Apply(train, shards, {link}), 2u);
    EXPECT_EQ(shards[0].indices, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 8}));
    EXPECT_EQ(shards[1].indices, (std::vector<std::size_t>{9}));
    ExpectCounts(D2dShardExchange::Counts(train, shards[0], 3), {4, 3, 1}, "receiver");
    // A transmitter cannot send what it lacks.
    link.allocated = {0, 2, 0};
    link.received = {0, 0, 0};
    EXPECT_THROW(D2dShardExchange::Apply(train, shards, {link}), std::logic_error);
}
