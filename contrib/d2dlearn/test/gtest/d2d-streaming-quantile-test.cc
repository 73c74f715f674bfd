/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dStreamingQuantile: exact (type 7) up to its capacity, then the
 * P-squared estimate of Jain and Chlamtac (1985), whose rank error is checked against the
 * exact order statistics of the same stream.
 */

#include "ns3/d2d-streaming-quantile.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using ns3::D2dStreamingQuantile;

namespace
{
/** \return the share of values below x (the empirical CDF at x) */
double
RankOf(std::vector<double> values, double x)
{
    std::sort(values.begin(), values.end());
    return static_cast<double>(std::lower_bound(values.begin(), values.end(), x) - values.begin()) /
           static_cast<double>(values.size());
}
} // namespace

TEST(D2dStreamingQuantile, ExactUpToCapacityLikeNumpy)
{
    // numpy.percentile([3, 1, 4, 1, 5, 9, 2, 6], 95) = 7.949999999999999 (type 7):
    // h = 7 x 0.95 = 6.65, sorted x_6 = 6, x_7 = 9: 6 + 0.65 x 3 = 7.95.
    D2dStreamingQuantile q(0.95, 8);
    for (double x : {3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0})
    {
        q.Add(x);
    }
    EXPECT_TRUE(q.IsExact());
    EXPECT_EQ(q.Count(), 8u);
    EXPECT_NEAR(q.Value(), 7.95, 1e-12);
    EXPECT_DOUBLE_EQ(q.Value(), D2dStreamingQuantile::Type7({3, 1, 4, 1, 5, 9, 2, 6}, 0.95));
}

TEST(D2dStreamingQuantile, P2RankErrorBelowOnePercent)
{
    // 200,000 draws from an exponential (a latency-like skew) and from a uniform: after the
    // 4,096 exact values, P-squared's estimate of the 95th percentile sits between the
    // exact 94th and 96th percentiles of the same stream (rank error under 0.01).
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> expo(20.0);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    for (int dist = 0; dist < 2; ++dist)
    {
        D2dStreamingQuantile q(0.95);
        std::vector<double> all;
        for (int k = 0; k < 200000; ++k)
        {
            const double x = dist == 0 ? expo(rng) : uni(rng);
            q.Add(x);
            all.push_back(x);
        }
        EXPECT_FALSE(q.IsExact());
        const double rank = RankOf(all, q.Value());
        EXPECT_GT(rank, 0.94) << "distribution " << dist;
        EXPECT_LT(rank, 0.96) << "distribution " << dist;
        EXPECT_NEAR(q.Value(),
                    D2dStreamingQuantile::Type7(all, 0.95),
                    0.01 * D2dStreamingQuantile::Type7(all, 0.95))
            << "distribution " << dist;
    }
}

TEST(D2dStreamingQuantile, ConstantAndTiedStreams)
{
    // Every value equal: every marker sits on it.
    D2dStreamingQuantile q(0.95, 5);
    for (int k = 0; k < 1000; ++k)
    {
        q.Add(0.125);
    }
    EXPECT_DOUBLE_EQ(q.Value(), 0.125);
    // Two values, 90 % and 10 %: the 95th percentile is the larger.
    D2dStreamingQuantile t(0.95, 16);
    for (int k = 0; k < 10000; ++k)
    {
        t.Add(k % 10 == 0 ? 2.0 : 1.0);
    }
    EXPECT_GE(t.Value(), 1.0);
    EXPECT_LE(t.Value(), 2.0);
    EXPECT_EQ(D2dStreamingQuantile(0.5).Value(), 0.0); // no value
}
