/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the aggregation strategies (D2dAggregationStrategy and its
 * subclasses): the global step w - eta g, the mean's model arithmetic (FedAvg's, bit for
 * bit), g_k = w^t - w_k for the robust rules, and the attributes (TrimFraction,
 * ByzantineCount / ByzantineFraction of the round's participants, SelectFraction: shares in
 * [0, 1]), with numbers worked out by hand.
 */

#include "d2d-test-vectors.h"

#include "ns3/d2d-aggregation-strategy.h"
#include "ns3/d2d-krum-aggregation.h"
#include "ns3/d2d-mean-aggregation.h"
#include "ns3/d2d-median-aggregation.h"
#include "ns3/d2d-multi-krum-aggregation.h"
#include "ns3/d2d-trimmed-mean-aggregation.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using Floats = std::vector<float>;
using Doubles = std::vector<double>;

TEST(D2dAggregationStrategy, GlobalStep)
{
    // (1, 2) - 0.5 (0.5, -1) = (0.75, 2.5), from a float or a double gradient.
    EXPECT_EQ(D2dAggregationStrategy::GlobalStep({1, 2}, Floats{0.5f, -1}, 0.5),
              (Floats{0.75f, 2.5f}));
    EXPECT_EQ(D2dAggregationStrategy::GlobalStep({1, 2}, Doubles{0.5, -1}, 0.5),
              (Floats{0.75f, 2.5f}));
    // eta = 0 keeps w.
    EXPECT_EQ(D2dAggregationStrategy::GlobalStep({1, 2}, Doubles{9, 9}, 0), (Floats{1, 2}));
    // Computed in double, rounded once: 2^-30 - 1 x 2^-31 = 2^-31.
    const double tiny = 1.0 / (1 << 30);
    EXPECT_EQ(D2dAggregationStrategy::GlobalStep({static_cast<float>(tiny)}, Doubles{tiny / 2}, 1),
              (Floats{static_cast<float>(tiny / 2)}));
}

TEST(D2dAggregationStrategy, MeanOfGradientsIsTheWeightedMean)
{
    auto mean = CreateObject<D2dMeanAggregation>();
    // Weights 1 and 3: (2.5, 5); the participant count does not matter.
    EXPECT_EQ(mean->Aggregate(MakeTestVectors({{1, 2}, {3, 6}}), {1, 3}, 2), (Floats{2.5f, 5}));
    EXPECT_EQ(mean->Aggregate(MakeTestVectors({{1, 2}, {3, 6}}), {1, 3}, 10), (Floats{2.5f, 5}));
    // Step, eta = 0.5, w^t = (0, 0): w = -0.5 (2.5, 5).
    EXPECT_EQ(mean->Step({0, 0}, MakeTestVectors({{1, 2}, {3, 6}}), false, {1, 3}, 2, 0.5),
              (Floats{-1.25f, -2.5f}));
}

TEST(D2dAggregationStrategy, MeanOfModelsIsFedAvgArithmetic)
{
    auto mean = CreateObject<D2dMeanAggregation>();
    // w^t = (1, 1); w_k = (0, 2), (1, 0) with n_k = 1, 3: sum (n_k / n) w_k = (0.75, 0.5),
    // g = w^t - that = (0.25, 0.5); eta = 1 gives the weighted average of the models.
    const Floats base{1, 1};
    const auto models = MakeTestVectors({{0, 2}, {1, 0}});
    EXPECT_EQ(mean->AggregateModels(base, models, {1, 3}, 2), (Doubles{0.25, 0.5}));
    EXPECT_EQ(mean->Step(base, models, true, {1, 3}, 2, 1.0), (Floats{0.75f, 0.5f}));
    // The difference is taken in double, not rounded to float: w^t = 1 + 2^-23 (the float
    // after 1), w_k = 2^-30 for both devices: the mean is 2^-30 (exact), g = 1 + 2^-23 -
    // 2^-30 (no float holds it) and w = w^t - g = 2^-30. The float g_k = w^t - w_k of the
    // robust rules round to 1 + 2^-23 (2^-30 is below half its spacing 2^-23), so the
    // median gives w = 0.
    const float one = 1.0f + 1.0f / (1 << 23);
    const float tinyValue = 1.0f / (1 << 30);
    const auto tiny = MakeTestVectors({{tinyValue}, {tinyValue}});
    EXPECT_EQ(mean->AggregateModels({one}, tiny, {1, 1}, 2),
              (Doubles{static_cast<double>(one) - tinyValue}));
    EXPECT_EQ(mean->Step({one}, tiny, true, {1, 1}, 2, 1.0), (Floats{tinyValue}));
    EXPECT_EQ(CreateObject<D2dMedianAggregation>()->Step({one}, tiny, true, {1, 1}, 2, 1.0),
              (Floats{0}));
}

TEST(D2dAggregationStrategy, RobustRulesSeeGkEqualsWtMinusWk)
{
    auto median = CreateObject<D2dMedianAggregation>();
    // w^t = (1, 1); w_k = (0, 2), (1, 0), (4, 1): g_k = (1, -1), (0, 1), (-3, 0);
    // median g = (0, 0); w = w^t.
    const Floats base{1, 1};
    const auto models = MakeTestVectors({{0, 2}, {1, 0}, {4, 1}});
    EXPECT_EQ(median->AggregateModels(base, models, {1, 1, 1}, 3), (Doubles{0, 0}));
    EXPECT_EQ(median->Step(base, models, true, {1, 1, 1}, 3, 1.0), base);
    // Gradients straight: median of {1, 0, -3} = 0, of {-1, 1, 0} = 0; weights ignored.
    EXPECT_EQ(median->Aggregate(MakeTestVectors({{1, -1}, {0, 1}, {-3, 0}}), {100, 1, 1}, 3),
              (Floats{0, 0}));
}

TEST(D2dAggregationStrategy, TrimmedMeanAttribute)
{
    const auto five = MakeTestVectors({{100, 1}, {2, -50}, {3, 3}, {1, 0}, {4, 2}});
    auto trimmed = CreateObject<D2dTrimmedMeanAggregation>();
    DoubleValue beta;
    trimmed->GetAttribute("TrimFraction", beta);
    EXPECT_EQ(beta.Get(), 0.1); // default: b = floor(0.5) = 0 of 5 -> the mean
    EXPECT_EQ(trimmed->Aggregate(five, {1, 1, 1, 1, 1}, 5),
              (Floats{22.0f, static_cast<float>(-44.0 / 5.0)}));
    trimmed->SetAttribute("TrimFraction", DoubleValue(0.2)); // b = 1 -> (3, 1)
    EXPECT_EQ(trimmed->Aggregate(five, {1, 1, 1, 1, 1}, 5), (Floats{3, 1}));
    // The checker: [0, 0.5).
    EXPECT_FALSE(trimmed->SetAttributeFailSafe("TrimFraction", DoubleValue(0.5)));
    EXPECT_FALSE(trimmed->SetAttributeFailSafe("TrimFraction", DoubleValue(-0.001)));
    EXPECT_FALSE(trimmed->SetAttributeFailSafe("TrimFraction", DoubleValue(20)));
    EXPECT_TRUE(trimmed->SetAttributeFailSafe("TrimFraction", DoubleValue(0.499)));
}

TEST(D2dAggregationStrategy, KrumCountFromParticipantsAtAggregationTime)
{
    const auto g = FiveTestPoints();
    const Doubles ones(5, 1.0);
    auto krum = CreateObject<D2dKrumAggregation>();
    // Defaults: ByzantineCount -1, ByzantineFraction 0 -> f = 0 -> v1.
    EXPECT_EQ(krum->Aggregate(g, ones, 5), (Floats{1, 0}));
    krum->SetAttribute("ByzantineCount", IntegerValue(1)); // f = 1 -> v0
    EXPECT_EQ(krum->Aggregate(g, ones, 5), (Floats{0, 0}));
    // ByzantineFraction 0.2 of the round's participants: 5 sampled -> f = 1 -> v0; 2 sampled
    // -> f = round(0.4) = 0 -> v1.
    krum->SetAttribute("ByzantineCount", IntegerValue(-1));
    krum->SetAttribute("ByzantineFraction", DoubleValue(0.2));
    EXPECT_EQ(krum->Aggregate(g, ones, 5), (Floats{0, 0}));
    EXPECT_EQ(krum->Aggregate(g, ones, 2), (Floats{1, 0}));
    EXPECT_FALSE(krum->SetAttributeFailSafe("ByzantineCount", IntegerValue(-2)));
    EXPECT_FALSE(krum->SetAttributeFailSafe("ByzantineFraction", DoubleValue(1.005)));
    EXPECT_FALSE(krum->SetAttributeFailSafe("ByzantineFraction", DoubleValue(20)));
}

TEST(D2dAggregationStrategy, MultiKrumSelectFractionOfParticipants)
{
    const auto g = FiveTestPoints();
    const Doubles ones(5, 1.0);
    auto mk = CreateObject<D2dMultiKrumAggregation>();
    mk->SetAttribute("ByzantineCount", IntegerValue(1));
    // SelectFraction 0.6 of 5 participants: m = 3 -> mean of v0, v1, v2 = (1/3, 2/3).
    mk->SetAttribute("SelectFraction", DoubleValue(0.6));
    const auto three = mk->Aggregate(g, ones, 5);
    EXPECT_NEAR(three[0], 1.0 / 3, 1e-7);
    EXPECT_NEAR(three[1], 2.0 / 3, 1e-7);
    // 0.6 of 10 sampled = 6, but only 5 arrived: m = 5, the plain mean (2.6, 2.8).
    const auto all = mk->Aggregate(g, ones, 10);
    EXPECT_NEAR(all[0], 2.6, 1e-6);
    EXPECT_NEAR(all[1], 2.8, 1e-6);
    // Default 0.4 of 5 = 2: v0 and v1 (scores 5, 6 with f = 1) -> (0.5, 0).
    auto byDefault = CreateObject<D2dMultiKrumAggregation>();
    byDefault->SetAttribute("ByzantineCount", IntegerValue(1));
    EXPECT_EQ(byDefault->Aggregate(g, ones, 5), (Floats{0.5f, 0}));
    // f from ByzantineFraction: 0.4 of 5 = 2 -> 1 neighbour: scores 1, 1, 4, 4, 128;
    // m = 2: v0 and v1 again.
    byDefault->SetAttribute("ByzantineCount", IntegerValue(-1));
    byDefault->SetAttribute("ByzantineFraction", DoubleValue(0.4));
    EXPECT_EQ(byDefault->Aggregate(g, ones, 5), (Floats{0.5f, 0}));
}

TEST(D2dAggregationStrategy, MultiKrumWeightsAttribute)
{
    // f = 1, SelectFraction 0.6 of 5: v0, v1, v2 with n_k = 1, 2, 3: by default weighted,
    // (2/6, 6/6) = (1/3, 1); Weights "uniform": the plain mean (1/3, 2/3).
    const auto g = FiveTestPoints();
    const Doubles nk = {1, 2, 3, 4, 5};
    auto mk = CreateObject<D2dMultiKrumAggregation>();
    mk->SetAttribute("ByzantineCount", IntegerValue(1));
    mk->SetAttribute("SelectFraction", DoubleValue(0.6));
    const auto weighted = mk->Aggregate(g, nk, 5);
    EXPECT_NEAR(weighted[0], 1.0 / 3, 1e-7);
    EXPECT_NEAR(weighted[1], 1.0, 1e-7);
    EXPECT_TRUE(mk->SetAttributeFailSafe("Weights", StringValue("uniform")));
    const auto plain = mk->Aggregate(g, nk, 5);
    EXPECT_NEAR(plain[0], 1.0 / 3, 1e-7);
    EXPECT_NEAR(plain[1], 2.0 / 3, 1e-7);
    // The only names (ns-3 from 3.41 asserts on another name rather than refusing it).
    TypeId::AttributeInformation info;
    ASSERT_TRUE(D2dMultiKrumAggregation::GetTypeId().LookupAttributeByName("Weights", &info));
    EXPECT_EQ(info.checker->GetUnderlyingTypeInformation(), "samples|uniform");
}

TEST(D2dAggregationStrategy, CreatedByTypeName)
{
    // What --ns3::D2dFedAvg::Aggregation=ns3::D2dMedianAggregation does: an ObjectFactory
    // of the class name; the PointerValue's checker accepts every subclass.
    for (const char* name : {"ns3::D2dMeanAggregation",
                             "ns3::D2dMedianAggregation",
                             "ns3::D2dTrimmedMeanAggregation",
                             "ns3::D2dKrumAggregation",
                             "ns3::D2dMultiKrumAggregation"})
    {
        ObjectFactory factory(name);
        auto s = factory.Create<D2dAggregationStrategy>();
        ASSERT_TRUE(s) << name;
        EXPECT_EQ(s->GetInstanceTypeId().GetName(), name);
        EXPECT_TRUE(s->GetInstanceTypeId().IsChildOf(D2dAggregationStrategy::GetTypeId()));
    }
}

} // namespace
