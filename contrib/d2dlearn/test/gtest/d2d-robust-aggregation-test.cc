/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dRobustAggregation's pure functions: the weighted mean of
 * CMFL's eq. (5) and FedAvg (McMahan et al., "Communication-Efficient Learning
 * of Deep Networks from Decentralized Data", AISTATS 2017), coordinate-wise Median and
 * beta-Trimmed Mean (Yin et al., "Byzantine-Robust Distributed Learning: Towards Optimal
 * Statistical Rates", ICML 2018), Krum scores, Krum and Multi-Krum (Blanchard et al.,
 * "Machine Learning with Adversaries: Byzantine Tolerant Gradient Descent", NeurIPS 2017),
 * and the per-round counts f and m. Every expected number is worked out by hand in the
 * comments. (Moved here from the ns-3 suite d2d-cmfl-rules, extended.)
 */

#include "d2d-test-vectors.h"

#include "ns3/d2d-robust-aggregation.h"

#include <gtest/gtest.h>
#include <vector>

using ns3::D2dRobustAggregation;
using ns3::FiveTestPoints;
using ns3::MakeTestVectors;

namespace
{

using Floats = std::vector<float>;

TEST(D2dRobustAggregationMean, WeightedByNk)
{
    // Weights 1 and 3: ((1 + 9) / 4, (2 + 18) / 4) = (2.5, 5).
    EXPECT_EQ(D2dRobustAggregation::Mean(MakeTestVectors({{1, 2}, {3, 6}}), {1, 3}),
              (Floats{2.5f, 5.0f}));
    // Equal weights of any scale: the plain mean (1 + 3) / 2, (2 + 6) / 2.
    EXPECT_EQ(D2dRobustAggregation::Mean(MakeTestVectors({{1, 2}, {3, 6}}), {7, 7}),
              (Floats{2.0f, 4.0f}));
    // One vector: itself.
    EXPECT_EQ(D2dRobustAggregation::Mean(MakeTestVectors({{-1.5f, 8}}), {42}), (Floats{-1.5f, 8}));
}

TEST(D2dRobustAggregationMean, FetchedOneAtATimeIsTheSameBits)
{
    // By hand: weights 1, 2, 1 of 4: (0.25 * 1 + 0.5 * 0.1 + 0.25 * 3, ...) = (1.05, ...);
    // fetched in order, each once, the sum is Mean()'s, bit for bit.
    const auto v = MakeTestVectors({{1, -2, 0.3f}, {0.1f, 4, 1e-7f}, {3, 0, -0.3f}});
    const std::vector<double> w{1, 2, 1};
    std::vector<std::size_t> asked;
    const auto fetched = D2dRobustAggregation::Mean(w, [&](std::size_t k) {
        asked.push_back(k);
        return v[k];
    });
    EXPECT_EQ(fetched, D2dRobustAggregation::Mean(v, w));
    EXPECT_EQ(asked, (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_FLOAT_EQ(fetched[0], 1.05f);
    EXPECT_FLOAT_EQ(fetched[1], 1.5f);
}

TEST(D2dRobustAggregationMedian, OddCount)
{
    // Coordinate 0 of {1, 3, 2} -> 2; coordinate 1 of {5, -1, 10} -> 5.
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{1, 5}, {3, -1}, {2, 10}})),
              (Floats{2, 5}));
    // Five values with an outlier: {100, 2, 3, 1, 4} -> 3.
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{100}, {2}, {3}, {1}, {4}})),
              (Floats{3}));
}

TEST(D2dRobustAggregationMedian, EvenCountAveragesTheMiddleTwo)
{
    // {1, 2, 3, 4} -> (2 + 3) / 2 = 2.5; {5, -1, 10, 0} sorted {-1, 0, 5, 10} -> 2.5.
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{1, 5}, {3, -1}, {2, 10}, {4, 0}})),
              (Floats{2.5f, 2.5f}));
    // Two values: their mean (-3 + 1) / 2 = -1.
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{-3}, {1}})), (Floats{-1}));
    // A tie in the middle: {7, 7, 1, 9} -> 7.
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{7}, {7}, {1}, {9}})), (Floats{7}));
}

TEST(D2dRobustAggregationMedian, SingleVector)
{
    EXPECT_EQ(D2dRobustAggregation::Median(MakeTestVectors({{7, -3}})), (Floats{7, -3}));
}

TEST(D2dRobustAggregationTrimmedMean, TrimsFloorBetaNAtEachEnd)
{
    // 5 vectors; coordinate 0 holds {100, 2, 3, 1, 4}, coordinate 1 {1, -50, 3, 0, 2}.
    const auto five = MakeTestVectors({{100, 1}, {2, -50}, {3, 3}, {1, 0}, {4, 2}});
    // beta 0.2: b = floor(0.2 x 5) = 1: drop 1 and 100 -> (2 + 3 + 4) / 3 = 3; drop -50
    // and 3 -> (0 + 1 + 2) / 3 = 1.
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(five, 0.2), (Floats{3, 1}));
    // beta 0 and 0.19 (b = floor(0.95) = 0): the plain mean (110 / 5, -44 / 5).
    const Floats plain{22.0f, static_cast<float>(-44.0 / 5.0)};
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(five, 0), plain);
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(five, 0.19), plain);
    // beta 0.4: b = 2, only the median is left: (3, 1).
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(five, 0.4), (Floats{3, 1}));
}

TEST(D2dRobustAggregationTrimmedMean, EdgesOfBeta)
{
    // beta 0.49 of 10 values: b = floor(4.9) = 4; {1..10} keeps 5 and 6 -> 5.5.
    std::vector<std::vector<float>> ten;
    for (int i = 10; i >= 1; --i)
    {
        ten.push_back({static_cast<float>(i)});
    }
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(MakeTestVectors(ten), 0.49), (Floats{5.5f}));
    // beta 0.25 of 4 values {8, 0, 2, 4}: b = 1, keeps 2 and 4 -> 3 (the even median).
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(MakeTestVectors({{8}, {0}, {2}, {4}}), 0.25),
              (Floats{3}));
    // beta 0.249 of 4 values: b = floor(0.996) = 0 -> the mean 14 / 4 = 3.5.
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(MakeTestVectors({{8}, {0}, {2}, {4}}), 0.249),
              (Floats{3.5f}));
    // One vector, beta 0.49: b = floor(0.49) = 0 -> itself.
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(MakeTestVectors({{-2, 5}}), 0.49), (Floats{-2, 5}));
    // beta 0.29 of 100 values, 71 zeros and 29 ones: 100 x 0.29 is 28.999999999999996 in
    // doubles; b = 29 (D2dShare::Count) drops every one -> 0 (b = 28 would leave a one: 1/44).
    std::vector<std::vector<float>> hundred(100, {0.0f});
    std::fill(hundred.begin() + 71, hundred.end(), std::vector<float>{1.0f});
    EXPECT_EQ(D2dRobustAggregation::TrimmedMean(MakeTestVectors(hundred), 0.29), (Floats{0.0f}));
}

TEST(D2dRobustAggregationKrum, ScoresSumTheNMinusFMinus2Nearest)
{
    const auto g = FiveTestPoints();
    // f = 1: n - f - 2 = 2 nearest: s0 = 1 + 4 = 5, s1 = 1 + 5 = 6, s2 = 4 + 4 = 8,
    // s3 = 4 + 5 = 9, s4 = 128 + 164 = 292.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(g, 1), (std::vector<double>{5, 6, 8, 9, 292}));
    // f = 0: 3 nearest: s0 = 1 + 4 + 8 = 13, s1 = 1 + 5 + 5 = 11, s2 = 4 + 4 + 5 = 13,
    // s3 = 4 + 5 + 8 = 17, s4 = 128 + 164 + 181 = 473.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(g, 0), (std::vector<double>{13, 11, 13, 17, 473}));
    // f = 3: n - f - 2 = 0, at least 1 neighbour: s = 1, 1, 4, 4, 128.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(g, 3), (std::vector<double>{1, 1, 4, 4, 128}));
}

TEST(D2dRobustAggregationKrum, ScoresOnALine)
{
    // {0}, {1}, {3}, {7}: d01 = 1, d02 = 9, d03 = 49, d12 = 4, d13 = 36, d23 = 16.
    const auto g = MakeTestVectors({{0}, {1}, {3}, {7}});
    // f = 0, 2 nearest: s0 = 1 + 9 = 10, s1 = 1 + 4 = 5, s2 = 4 + 9 = 13, s3 = 16 + 36 = 52.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(g, 0), (std::vector<double>{10, 5, 13, 52}));
    EXPECT_EQ(D2dRobustAggregation::Krum(g, 0), (Floats{1}));
    // f = 1, 1 nearest: s = 1, 1, 4, 16; the tie s0 = s1 goes to the lower index.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(g, 1), (std::vector<double>{1, 1, 4, 16}));
    EXPECT_EQ(D2dRobustAggregation::Krum(g, 1), (Floats{0}));
}

TEST(D2dRobustAggregationKrum, FewVectors)
{
    // One vector: score 0, Krum returns it.
    EXPECT_EQ(D2dRobustAggregation::KrumScores(MakeTestVectors({{3, 4}}), 0),
              (std::vector<double>{0}));
    EXPECT_EQ(D2dRobustAggregation::Krum(MakeTestVectors({{3, 4}}), 5), (Floats{3, 4}));
    // Two vectors at squared distance 3^2 + 4^2 = 25: one neighbour each, s = 25, 25; the
    // lower index wins.
    const auto two = MakeTestVectors({{0, 0}, {3, 4}});
    EXPECT_EQ(D2dRobustAggregation::KrumScores(two, 0), (std::vector<double>{25, 25}));
    EXPECT_EQ(D2dRobustAggregation::Krum(two, 0), (Floats{0, 0}));
}

TEST(D2dRobustAggregationKrum, KrumPicksTheLowestScore)
{
    const auto g = FiveTestPoints();
    EXPECT_EQ(D2dRobustAggregation::Krum(g, 1), (Floats{0, 0})); // s0 = 5
    EXPECT_EQ(D2dRobustAggregation::Krum(g, 0), (Floats{1, 0})); // s1 = 11
}

TEST(D2dRobustAggregationMultiKrum, SelectionByScoreTiesByIndex)
{
    const auto g = FiveTestPoints();
    EXPECT_EQ(D2dRobustAggregation::MultiKrumSelect(g, 1, 3), (std::vector<uint32_t>{0, 1, 2}));
    // f = 0: scores 13, 11, 13, 17, 473: v1, then the tie v0 = v2 by index, then v3.
    EXPECT_EQ(D2dRobustAggregation::MultiKrumSelect(g, 0, 4), (std::vector<uint32_t>{1, 0, 2, 3}));
    EXPECT_EQ(D2dRobustAggregation::MultiKrumSelect(g, 0, 1), (std::vector<uint32_t>{1}));
    EXPECT_EQ(D2dRobustAggregation::MultiKrumSelect(g, 0, 5),
              (std::vector<uint32_t>{1, 0, 2, 3, 4}));
}

TEST(D2dRobustAggregationMultiKrum, UnweightedMeanOfTheSelection)
{
    const auto g = FiveTestPoints();
    // Mean of (0,0), (1,0), (0,2) = (1/3, 2/3).
    const auto mk = D2dRobustAggregation::MultiKrum(g, 1, 3);
    ASSERT_EQ(mk.size(), 2u);
    EXPECT_NEAR(mk[0], 1.0 / 3, 1e-7);
    EXPECT_NEAR(mk[1], 2.0 / 3, 1e-7);
    // m = n is the plain mean: (13/5, 14/5).
    const auto all = D2dRobustAggregation::MultiKrum(g, 1, 5);
    EXPECT_NEAR(all[0], 2.6, 1e-6);
    EXPECT_NEAR(all[1], 2.8, 1e-6);
    // m = 1 is Krum.
    EXPECT_EQ(D2dRobustAggregation::MultiKrum(g, 1, 1), D2dRobustAggregation::Krum(g, 1));
}

TEST(D2dRobustAggregationMultiKrum, WeightedByNkAsInTheCmflCode)
{
    const auto g = FiveTestPoints();
    // f = 1, m = 3 selects v0 = (0,0), v1 = (1,0), v2 = (0,2); weights 1, 2, 3 of 1..5:
    // ((0 + 2 + 0) / 6, (0 + 0 + 6) / 6) = (1/3, 1), where the plain mean is (1/3, 2/3).
    const auto mk = D2dRobustAggregation::MultiKrum(g, {1, 2, 3, 4, 5}, 1, 3);
    ASSERT_EQ(mk.size(), 2u);
    EXPECT_NEAR(mk[0], 1.0 / 3, 1e-7);
    EXPECT_NEAR(mk[1], 1.0, 1e-7);
    // Equal weights give the plain mean bit for bit.
    EXPECT_EQ(D2dRobustAggregation::MultiKrum(g, {2, 2, 2, 2, 2}, 1, 3),
              D2dRobustAggregation::MultiKrum(g, 1, 3));
}

TEST(D2dRobustAggregationCounts, ByzantineCount)
{
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(2, 0.5, 10), 2u); // f given
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(0, 0.5, 10), 0u);
    // -1: round(fraction x participants): 0.1 of 20 = 2; 0.25 of 10 = 2.5 -> 3 (halves away
    // from zero); 0.1 of 4 = 0.4 -> 0; 0 -> 0; 0.29 of 50 = 14.5 -> 15 (14.499999999999998
    // in doubles).
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(-1, 0.1, 20), 2u);
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(-1, 0.25, 10), 3u);
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(-1, 0.1, 4), 0u);
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(-1, 0, 100), 0u);
    EXPECT_EQ(D2dRobustAggregation::ByzantineCount(-1, 0.29, 50), 15u);
}

TEST(D2dRobustAggregationCounts, SelectCount)
{
    // max(1, round(fraction x participants)), at most n.
    EXPECT_EQ(D2dRobustAggregation::SelectCount(0.4, 10, 10), 4u);
    EXPECT_EQ(D2dRobustAggregation::SelectCount(0.45, 10, 10), 5u); // 4.5 -> 5
    EXPECT_EQ(D2dRobustAggregation::SelectCount(0.4, 10, 3), 3u);   // only 3 arrived
    EXPECT_EQ(D2dRobustAggregation::SelectCount(0.01, 10, 10), 1u); // round(0.1) = 0 -> 1
    EXPECT_EQ(D2dRobustAggregation::SelectCount(0, 10, 10), 1u);
    EXPECT_EQ(D2dRobustAggregation::SelectCount(1, 7, 7), 7u);
}

// Bad input aborts (NS_ABORT_MSG) with a message naming the rule.
TEST(D2dRobustAggregationDeathTest, BadInputAborts)
{
    const auto g = FiveTestPoints();
    EXPECT_DEATH(D2dRobustAggregation::Median({}), "Median: no gradients");
    EXPECT_DEATH(D2dRobustAggregation::Median(MakeTestVectors({{1, 2}, {3}})),
                 "gradient sizes 2 and 1 differ");
    EXPECT_DEATH(D2dRobustAggregation::TrimmedMean(g, 0.5), "not in \\[0, 0.5\\)");
    EXPECT_DEATH(D2dRobustAggregation::TrimmedMean(g, -0.01), "not in \\[0, 0.5\\)");
    EXPECT_DEATH(D2dRobustAggregation::MultiKrumSelect(g, 0, 0), "m = 0 of 5");
    EXPECT_DEATH(D2dRobustAggregation::MultiKrumSelect(g, 0, 6), "m = 6 of 5");
    EXPECT_DEATH(D2dRobustAggregation::ByzantineCount(-2, 0, 1), "count -2");
    EXPECT_DEATH(D2dRobustAggregation::SelectCount(1.01, 1, 1), "not in \\[0, 1\\]");
    EXPECT_DEATH(D2dRobustAggregation::ByzantineCount(-1, 20, 10), "not in \\[0, 1\\]");
}

} // namespace
