/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the partitioners of the torch-free data layer (D2dPartitioner): IID
 * shards; the hold-out X* and the Dirichlet label skew (sec. 5.2) of Fan, Mendler-Dünner
 * and Jaggi, "Collaborative Learning via Prediction Consensus" (2023); labels per device of
 * Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning" (2025), App. C; the quantity skew; the label flips of
 * Fan et al. 2023's low-quality devices. Torch-free.
 *
 * Expected numbers are formulas written here (Dirichlet/Beta moments, the Zipf law) or
 * worked by hand (the water-filling of the hold-out). Statistical tolerances are stated
 * where used; all data are seeded, so a test that passes once passes always.
 */

#include "d2d-test-errors.h"

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-synthetic-data.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using d2dtest::Contains;
using d2dtest::ErrorOf;

namespace
{

/** A classification set of `perClass[c]` samples of class c (feature = the index). */
std::shared_ptr<D2dDataset>
PartitionerLabelSet(const std::vector<std::size_t>& perClass)
{
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "labels";
    ds->featureShape = {1};
    ds->numClasses = static_cast<uint32_t>(perClass.size());
    for (std::size_t c = 0; c < perClass.size(); ++c)
    {
        for (std::size_t i = 0; i < perClass[c]; ++i)
        {
            ds->features.push_back(static_cast<float>(ds->labels.size()));
            ds->labels.push_back(static_cast<int64_t>(c));
        }
    }
    return ds;
}

/** \return 1003 samples: 100 of each of 10 classes, then one each of classes 0, 1, 2 */
std::shared_ptr<D2dDataset>
PartitionerIidSet()
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 100)); // 1000 samples
    ds->features.resize(1003, 0.0f);
    ds->labels.insert(ds->labels.end(), {0, 1, 2});
    return ds;
}

/** \return true if the shards are pairwise disjoint; fills `all` with their union */
bool
PartitionerDisjoint(const std::vector<D2dShard>& shards, std::set<std::size_t>& all)
{
    std::size_t total = 0;
    for (const auto& s : shards)
    {
        all.insert(s.indices.begin(), s.indices.end());
        total += s.indices.size();
    }
    return all.size() == total;
}

/** IID shards: disjoint, covering, sizes within one, ascending, identity label map. */
TEST(D2dPartitionerIid, DisjointCoveringSizesWithinOne)
{
    auto ds = PartitionerIidSet();
    auto shards = D2dPartitioner::Iid(*ds, 10, 5);
    std::set<std::size_t> all;
    EXPECT_TRUE(PartitionerDisjoint(shards, all)) << "disjoint";
    EXPECT_EQ(all.size(), 1003u) << "covering";
    std::size_t mn = SIZE_MAX;
    std::size_t mx = 0;
    for (const auto& s : shards)
    {
        mn = std::min(mn, s.indices.size());
        mx = std::max(mx, s.indices.size());
        EXPECT_TRUE(std::is_sorted(s.indices.begin(), s.indices.end())) << "ascending";
        EXPECT_TRUE(s.labelMap.empty()) << "identity map";
    }
    EXPECT_EQ(mn, 100u) << "sizes 100..101";
    EXPECT_EQ(mx, 101u) << "sizes 100..101";
}

/** IID shards: the same for a seed, other for another. */
TEST(D2dPartitionerIid, DeterministicAndSeeded)
{
    auto ds = PartitionerIidSet();
    auto shards = D2dPartitioner::Iid(*ds, 10, 5);
    auto again = D2dPartitioner::Iid(*ds, 10, 5);
    auto other = D2dPartitioner::Iid(*ds, 10, 6);
    EXPECT_TRUE((again[3].indices == shards[3].indices)) << "deterministic";
    EXPECT_FALSE((other[3].indices == shards[3].indices)) << "seed matters";
}

/** IID: a device count outside [1, samples] or a pool index out of range refused. */
TEST(D2dPartitionerIid, BadDeviceCountOrPoolRefused)
{
    auto ds = PartitionerIidSet();
    std::string msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 0, 1); });
    EXPECT_TRUE(Contains(msg, "nDevices: 0") && Contains(msg, "[1, 1003]")) << msg;
    msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 1004, 1); });
    EXPECT_TRUE(Contains(msg, "nDevices: 1004")) << msg;
    std::vector<std::size_t> badPool = {1, 5000};
    msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 1, 1, &badPool); });
    EXPECT_TRUE(Contains(msg, "pool: ")) << msg;
}

/** Hold-out X* (Fan et al. 2023: 5 %, classes equal) of a set with unequal classes. */
TEST(D2dPartitionerHoldOut, ClassesEqualByWaterFilling)
{
    auto unequal = PartitionerLabelSet({1000, 20, 500, 500, 500, 500, 500, 500, 500, 500}); // 5020
    std::vector<std::size_t> remaining;
    auto xstar = D2dPartitioner::HoldOut(*unequal, 500, 9, &remaining);
    EXPECT_EQ(xstar.size(), 500u) << "m samples held out";
    EXPECT_EQ(remaining.size(), 4520u) << "the rest remains";
    auto hc = unequal->ClassCounts(&xstar);
    // Water-filling: class 1 gives its 20, the other 480 spread over 9 classes: 53 or 54.
    EXPECT_EQ(hc[1], 20u) << "small class gives all it has";
    for (uint32_t c : {0u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u})
    {
        EXPECT_TRUE((hc[c] == 53 || hc[c] == 54)) << "class " << c << ": " << hc[c];
    }
}

/** Hold-out X*, then shards of what remains: no device holds a sample of X*. */
TEST(D2dPartitionerHoldOut, ShardsOfTheRemainingPoolLeaveXStarOut)
{
    auto unequal = PartitionerLabelSet({1000, 20, 500, 500, 500, 500, 500, 500, 500, 500}); // 5020
    std::vector<std::size_t> remaining;
    auto xstar = D2dPartitioner::HoldOut(*unequal, 500, 9, &remaining);
    std::set<std::size_t> held(xstar.begin(), xstar.end());
    auto parts = D2dPartitioner::Dirichlet(*unequal, 7, 0.5, 9, &remaining);
    std::set<std::size_t> used;
    EXPECT_TRUE(PartitionerDisjoint(parts, used)) << "disjoint";
    EXPECT_EQ(used.size(), remaining.size()) << "partition covers the remaining pool";
    std::size_t overlap = 0;
    for (auto i : used)
    {
        overlap += held.count(i);
    }
    EXPECT_EQ(overlap, 0u) << "no device holds a sample of X*";
    auto iidRest = D2dPartitioner::Iid(*unequal, 7, 9, &remaining);
    used.clear();
    PartitionerDisjoint(iidRest, used);
    EXPECT_TRUE((std::vector<std::size_t>(used.begin(), used.end()) == remaining))
        << "IID over the pool covers exactly the pool";
}

/** Regression hold-out: m random samples. */
TEST(D2dPartitionerHoldOut, RegressionHoldsOutSamples)
{
    std::vector<std::size_t> remaining;
    auto reg = D2dSyntheticData::PolynomialRegression({0, 1}, 0, 1, 1, 100, 1);
    auto rx = D2dPartitioner::HoldOut(*reg, 30, 2, &remaining);
    EXPECT_EQ(rx.size() + remaining.size(), 100u) << "regression hold-out";
}

/** Hold-out: more samples than the set holds refused. */
TEST(D2dPartitionerHoldOut, TooManySamplesRefused)
{
    auto ds = PartitionerIidSet();
    std::string msg =
        ErrorOf<std::invalid_argument>([&] { D2dPartitioner::HoldOut(*ds, 2000, 1, nullptr); });
    EXPECT_TRUE(Contains(msg, "m: 2000")) << msg;
}

/**
 * Dirichlet label skew: each class's shares over N devices follow Dir(alpha 1_N), so a
 * share's mean is 1/N and its variance (1/N)(1 - 1/N)/(N alpha + 1) (Beta marginal).
 *
 * Over S seeds x K classes = 1000 Dirichlet vectors, the mean of device 0's share is
 * checked within 4 sd of the mean of 1000 draws (sqrt(var/1000)); the mean of
 * (share - 1/N)^2 over all 10,000 shares within 4 sd computed as if only the 1000 vectors
 * were independent draws (conservative): sd = sqrt((mu4 - var^2)/1000), mu4 the Beta's
 * fourth central moment, written below.
 */
TEST(D2dPartitionerDirichlet, ShareMeanAndVarianceAgainstDirAlpha)
{
    const uint32_t n = 10;
    const uint32_t k = 10;
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(k, 1000));
    for (double alpha : {0.1, 1.0, 100.0})
    {
        const double a = alpha;
        const double b = (n - 1) * alpha;
        const double m = 1.0 / n;
        const double var = a * b / ((a + b) * (a + b) * (a + b + 1));
        auto raw = [a, b](int r) {
            double x = 1;
            for (int i = 0; i < r; ++i)
            {
                x *= (a + i) / (a + b + i);
            }
            return x;
        };
        const double mu4 = raw(4) - 4 * m * raw(3) + 6 * m * m * raw(2) - 3 * m * m * m * m;
        const int seeds = 100;
        double sumDev0 = 0;
        double sumSq = 0;
        for (int s = 0; s < seeds; ++s)
        {
            auto shards = D2dPartitioner::Dirichlet(*ds, n, alpha, 1000 + s);
            std::set<std::size_t> all;
            ASSERT_TRUE(PartitionerDisjoint(shards, all)) << "disjoint";
            ASSERT_EQ(all.size(), ds->Size()) << "covering";
            for (uint32_t j = 0; j < n; ++j)
            {
                auto cnt = ds->ClassCounts(&shards[j].indices);
                for (uint32_t c = 0; c < k; ++c)
                {
                    const double share = cnt[c] / 1000.0;
                    if (j == 0)
                    {
                        sumDev0 += share;
                    }
                    sumSq += (share - m) * (share - m);
                }
            }
        }
        const double vectors = seeds * k;
        const double dev0Mean = sumDev0 / vectors;
        const double varHat = sumSq / (vectors * n);
        EXPECT_NEAR(dev0Mean, m, 4 * std::sqrt(var / vectors))
            << "alpha " << alpha << ": mean share of device 0";
        EXPECT_NEAR(varHat, var, 4 * std::sqrt((mu4 - var * var) / vectors))
            << "alpha " << alpha << ": share variance";
    }
}

/**
 * Per device: the share of its largest class, averaged over the devices of the same 100
 * partitions as above, falls as alpha grows (0.1 very skewed, 100 near the IID 1/K plus
 * noise).
 */
TEST(D2dPartitionerDirichlet, LargestClassShareFallsAsAlphaGrows)
{
    const uint32_t n = 10;
    const uint32_t k = 10;
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(k, 1000));
    double meanTopShare[3];
    const double alphas[3] = {0.1, 1.0, 100.0};
    for (int ai = 0; ai < 3; ++ai)
    {
        const int seeds = 100;
        double topShare = 0;
        for (int s = 0; s < seeds; ++s)
        {
            auto shards = D2dPartitioner::Dirichlet(*ds, n, alphas[ai], 1000 + s);
            for (uint32_t j = 0; j < n; ++j)
            {
                auto cnt = ds->ClassCounts(&shards[j].indices);
                std::size_t tot = shards[j].indices.size();
                topShare +=
                    double(*std::max_element(cnt.begin(), cnt.end())) / double(tot) / (seeds * n);
            }
        }
        meanTopShare[ai] = topShare;
    }
    EXPECT_GT(meanTopShare[0], 0.5) << "alpha 0.1: one class dominates a device";
    EXPECT_GT(meanTopShare[0], meanTopShare[1] + 0.1) << "0.1 more skewed than 1";
    EXPECT_GT(meanTopShare[1], meanTopShare[2] + 0.1) << "1 more skewed than 100";
    EXPECT_LT(meanTopShare[2], 0.15) << "alpha 100: close to 1/K";
}

/** Tiny alpha, many devices: every device still gets data. */
TEST(D2dPartitionerDirichlet, TinyAlphaLeavesNoDeviceEmpty)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    auto sparse = D2dPartitioner::Dirichlet(*ds, 50, 0.01, 3);
    std::set<std::size_t> all;
    EXPECT_TRUE(PartitionerDisjoint(sparse, all)) << "disjoint";
    EXPECT_EQ(all.size(), ds->Size()) << "covering";
    for (const auto& s : sparse)
    {
        EXPECT_GT(s.indices.size(), 0u) << "no empty device";
    }
}

/** Dirichlet: alpha 0, negative or NaN refused. */
TEST(D2dPartitionerDirichlet, NonPositiveAlphaRefused)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    for (double bad : {0.0, -1.0, std::nan("")})
    {
        std::string msg =
            ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Dirichlet(*ds, 5, bad, 1); });
        EXPECT_TRUE(Contains(msg, "alpha: ") && Contains(msg, "(0, inf)")) << msg;
    }
}

/** Labels per device (Wagle et al. 2025, App. C): 3 labels at 70/20/10 %, equal sizes. */
TEST(D2dPartitionerLabelsPerDevice, ThreeLabelsAt70And20And10PercentEqualSizes)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    const uint32_t n = 25;
    auto shards = D2dPartitioner::LabelsPerDevice(*ds, n, 3, {0.7, 0.2, 0.1}, 11);
    std::set<std::size_t> all;
    EXPECT_TRUE(PartitionerDisjoint(shards, all)) << "disjoint";
    const std::size_t s = shards[0].indices.size();
    // 10,000 / 25 = 400 at most; balanced label loads keep it close.
    EXPECT_GE(s, 380u) << "devices get nearly all the data: s = " << s;
    EXPECT_LE(s, 400u) << "s <= pool / devices";
    std::set<std::vector<std::size_t>> labelSets;
    for (const auto& sh : shards)
    {
        EXPECT_EQ(sh.indices.size(), s) << "equal sizes";
        auto cnt = ds->ClassCounts(&sh.indices);
        std::vector<std::size_t> present;
        for (uint32_t c = 0; c < 10; ++c)
        {
            if (cnt[c] > 0)
            {
                present.push_back(c);
            }
        }
        EXPECT_EQ(present.size(), 3u) << "3 labels per device";
        labelSets.insert(present);
        std::sort(cnt.rbegin(), cnt.rend());
        EXPECT_NEAR(double(cnt[0]), 0.7 * s, 1.0) << "top label 70 %";
        EXPECT_NEAR(double(cnt[1]), 0.2 * s, 1.0) << "next 20 %";
        EXPECT_NEAR(double(cnt[2]), 0.1 * s, 1.0) << "next 10 %";
    }
    EXPECT_GT(labelSets.size(), 10u) << "labels are chosen per device, not fixed";
}

/** Labels per device without proportions: equal shares of the k labels. */
TEST(D2dPartitionerLabelsPerDevice, TwoLabelsEqualSharesWithoutProportions)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    auto two = D2dPartitioner::LabelsPerDevice(*ds, 10, 2, {}, 4);
    for (const auto& sh : two)
    {
        auto cnt = ds->ClassCounts(&sh.indices);
        std::sort(cnt.rbegin(), cnt.rend());
        EXPECT_EQ(cnt[2], 0u) << "2 labels";
        EXPECT_LE(cnt[0] - cnt[1], 1u) << "equal shares when empty";
        EXPECT_EQ(cnt[0] + cnt[1], 1000u) << "10,000 / 10 each";
    }
}

/** Labels per device: the same shards for the same seed. */
TEST(D2dPartitionerLabelsPerDevice, Deterministic)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    const uint32_t n = 25;
    auto shards = D2dPartitioner::LabelsPerDevice(*ds, n, 3, {0.7, 0.2, 0.1}, 11);
    auto again = D2dPartitioner::LabelsPerDevice(*ds, n, 3, {0.7, 0.2, 0.1}, 11);
    EXPECT_TRUE((again[7].indices == shards[7].indices)) << "deterministic";
}

/** Labels per device: k outside [1, classes] or proportions that do not fit refused. */
TEST(D2dPartitionerLabelsPerDevice, BadLabelCountOrProportionsRefused)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    std::string msg =
        ErrorOf<std::invalid_argument>([&] { D2dPartitioner::LabelsPerDevice(*ds, 5, 11, {}, 1); });
    EXPECT_TRUE(Contains(msg, "k: 11") && Contains(msg, "[1, 10]")) << msg;
    msg =
        ErrorOf<std::invalid_argument>([&] { D2dPartitioner::LabelsPerDevice(*ds, 5, 0, {}, 1); });
    EXPECT_TRUE(Contains(msg, "k: 0")) << msg;
    msg = ErrorOf<std::invalid_argument>([&] {
        D2dPartitioner::LabelsPerDevice(*ds, 5, 3, {0.7, 0.2, 0.05}, 1);
    });
    EXPECT_TRUE(Contains(msg, "proportions: sum to 0.95")) << msg;
    msg = ErrorOf<std::invalid_argument>([&] {
        D2dPartitioner::LabelsPerDevice(*ds, 5, 3, {0.5, 0.5}, 1);
    });
    EXPECT_TRUE(Contains(msg, "proportions: has 2 values")) << msg;
}

/** Quantity skew sizes follow the Zipf law n_r = P (r+1)^-skew / sum_q (q+1)^-skew. */
TEST(D2dPartitionerQuantitySkew, SizesFollowTheZipfLaw)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    for (double skew : {0.0, 1.0, 2.0})
    {
        auto shards = D2dPartitioner::QuantitySkew(*ds, 10, skew, 3);
        std::set<std::size_t> all;
        EXPECT_TRUE(PartitionerDisjoint(shards, all)) << "disjoint";
        EXPECT_EQ(all.size(), 10000u) << "covering";
        std::vector<std::size_t> sizes;
        for (const auto& s : shards)
        {
            sizes.push_back(s.indices.size());
        }
        std::sort(sizes.rbegin(), sizes.rend());
        double h = 0;
        for (int r = 1; r <= 10; ++r)
        {
            h += std::pow(r, -skew);
        }
        for (int r = 0; r < 10; ++r)
        {
            EXPECT_NEAR(double(sizes[r]), 10000.0 * std::pow(r + 1, -skew) / h, 1.0)
                << "skew " << skew << " rank " << r;
        }
    }
}

/** A steep quantity skew over many devices: covering, at least one sample each. */
TEST(D2dPartitionerQuantitySkew, SteepSkewLeavesNoDeviceEmpty)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    auto steep = D2dPartitioner::QuantitySkew(*ds, 200, 3.0, 3);
    std::set<std::size_t> all;
    PartitionerDisjoint(steep, all);
    EXPECT_EQ(all.size(), 10000u) << "covering";
    for (const auto& s : steep)
    {
        EXPECT_GT(s.indices.size(), 0u) << "at least one sample each";
    }
}

/** Quantity skew: a negative skew refused. */
TEST(D2dPartitionerQuantitySkew, NegativeSkewRefused)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 1000));
    std::string msg =
        ErrorOf<std::invalid_argument>([&] { D2dPartitioner::QuantitySkew(*ds, 10, -1, 1); });
    EXPECT_TRUE(Contains(msg, "skew: -1") && Contains(msg, "[0, inf)")) << msg;
}

/**
 * Label flips of low-quality devices (Fan et al. 2023): each flipped device's map is a
 * derangement, so every label it sees is wrong; the others keep theirs.
 */
TEST(D2dPartitionerFlipLabels, DerangementMakesEveryLabelWrong)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 50));
    auto shards = D2dPartitioner::Iid(*ds, 10, 1);
    D2dPartitioner::FlipLabels(shards, {2, 9}, 10, 8);
    for (uint32_t j = 0; j < 10; ++j)
    {
        if (j != 2 && j != 9)
        {
            EXPECT_TRUE(shards[j].labelMap.empty()) << "others untouched";
            continue;
        }
        auto map = shards[j].labelMap;
        ASSERT_EQ(map.size(), 10u) << "one entry per class";
        auto sorted = map;
        std::sort(sorted.begin(), sorted.end());
        for (int64_t c = 0; c < 10; ++c)
        {
            EXPECT_EQ(sorted[c], c) << "a permutation";
            EXPECT_NE(map[c], c) << "no label stays right";
        }
        for (std::size_t i = 0; i < shards[j].indices.size(); ++i)
        {
            EXPECT_NE(shards[j].LabelOf(*ds, i), ds->labels[shards[j].indices[i]])
                << "every label the device sees is wrong";
        }
    }
    EXPECT_TRUE((shards[2].labelMap != shards[9].labelMap)) << "per-device maps";
}

/** Label flips: the same maps for the same seed. */
TEST(D2dPartitionerFlipLabels, Deterministic)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 50));
    auto shards = D2dPartitioner::Iid(*ds, 10, 1);
    D2dPartitioner::FlipLabels(shards, {2, 9}, 10, 8);
    auto again = D2dPartitioner::Iid(*ds, 10, 1);
    D2dPartitioner::FlipLabels(again, {2, 9}, 10, 8);
    EXPECT_TRUE((again[9].labelMap == shards[9].labelMap)) << "deterministic";
}

/** Label flips by shift compose (a device listed twice: c + 2), and LabelOf applies them. */
TEST(D2dPartitionerFlipLabels, ShiftsComposeAndLabelOfAppliesThem)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 50));
    auto again = D2dPartitioner::Iid(*ds, 10, 1);
    D2dPartitioner::FlipLabels(again, {2, 9}, 10, 8);
    D2dPartitioner::FlipLabels(again, {0, 0}, 10, 8, D2dFlipMode::SHIFT);
    for (int64_t c = 0; c < 10; ++c)
    {
        EXPECT_EQ(again[0].labelMap[c], (c + 2) % 10) << "shift twice = c + 2";
    }
    EXPECT_EQ(again[0].LabelOf(*ds, 0), (ds->labels[again[0].indices[0]] + 2) % 10) << "LabelOf";
}

/** Label flips: a device outside the shards refused. */
TEST(D2dPartitionerFlipLabels, UnknownDeviceRefused)
{
    auto ds = PartitionerLabelSet(std::vector<std::size_t>(10, 50));
    auto again = D2dPartitioner::Iid(*ds, 10, 1);
    std::string msg =
        ErrorOf<std::invalid_argument>([&] { D2dPartitioner::FlipLabels(again, {10}, 10, 1); });
    EXPECT_TRUE(Contains(msg, "devices: device 10")) << msg;
}

} // namespace
