/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the unsupervised paradigm's pure parts (Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, sec. V-B, Alg. 2, eqs. (15)-(17)): K-means with k-means++ seeding, the
 * eq. (15) allotment, the Gaussian KL divergence, the trace ratio of eq. (16), Gaussian
 * sampling, the system agreement of eq. (17), against hand-worked values.
 */

#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-gaussian-clusters.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{
D2dGaussianCluster
Cluster(std::vector<double> mean, std::vector<double> cov, double count)
{
    D2dGaussianCluster c;
    c.mean = std::move(mean);
    c.cov = std::move(cov);
    c.count = count;
    return c;
}
} // namespace

TEST(D2dGaussianClusters, KMeansHandExample1d)
{
    // {0, 1} and {10, 11}: whatever the seeds, Lloyd ends at centroids 0.5 and 10.5.
    const std::vector<double> x{0, 10, 1, 11};
    for (uint64_t seed = 1; seed <= 20; ++seed)
    {
        const auto r = D2dGaussianClusters::KMeans(x, 4, 1, 2, seed, 0);
        std::multiset<double> c(r.centroids.begin(), r.centroids.end());
        EXPECT_EQ(c, (std::multiset<double>{0.5, 10.5})) << "seed " << seed;
        EXPECT_EQ(r.assign[0], r.assign[2]);
        EXPECT_EQ(r.assign[1], r.assign[3]);
        EXPECT_NE(r.assign[0], r.assign[1]);
    }
}

TEST(D2dGaussianClusters, KMeansRecoversSeparatedBlobsDeterministically)
{
    // Three 2-D blobs of 50 points, radius < 1, 100 apart: every cluster must be one blob.
    D2dDataRng rng(7, 0x12345678);
    std::vector<double> x;
    std::vector<int> truth;
    const double centres[3][2] = {{0, 0}, {100, 0}, {0, 100}};
    for (int p = 0; p < 150; ++p)
    {
        const int b = p % 3;
        x.push_back(centres[b][0] + 0.3 * rng.Normal());
        x.push_back(centres[b][1] + 0.3 * rng.Normal());
        truth.push_back(b);
    }
    const auto r = D2dGaussianClusters::KMeans(x, 150, 2, 3, 42, 3);
    std::vector<std::set<uint32_t>> seen(3);
    for (int p = 0; p < 150; ++p)
    {
        seen[truth[p]].insert(r.assign[p]);
    }
    std::set<uint32_t> all;
    for (const auto& s : seen)
    {
        EXPECT_EQ(s.size(), 1u);
        all.insert(*s.begin());
    }
    EXPECT_EQ(all.size(), 3u);
    const auto again = D2dGaussianClusters::KMeans(x, 150, 2, 3, 42, 3);
    EXPECT_EQ(again.centroids, r.centroids);
    EXPECT_EQ(again.assign, r.assign);
    EXPECT_THROW(D2dGaussianClusters::KMeans(x, 150, 2, 0, 42, 3), std::invalid_argument);
    EXPECT_THROW(D2dGaussianClusters::KMeans(x, 2, 2, 3, 42, 3), std::invalid_argument);
}

TEST(D2dGaussianClusters, KMeansSeedingDependsOnSeedAndDevice)
{
    // 1-D points 0..99 with k = 5: the k-means++ seeds (hence, for such a flat set, often the
    // result) differ between streams; the same stream gives the same centroids.
    std::vector<double> x;
    for (int p = 0; p < 100; ++p)
    {
        x.push_back(p);
    }
    std::set<std::vector<double>> results;
    for (uint32_t device = 0; device < 8; ++device)
    {
        results.insert(D2dGaussianClusters::KMeans(x, 100, 1, 5, 1, device, 0).centroids);
    }
    EXPECT_GT(results.size(), 1u);
    EXPECT_EQ(D2dGaussianClusters::KMeans(x, 100, 1, 5, 1, 2, 0).centroids,
              D2dGaussianClusters::KMeans(x, 100, 1, 5, 1, 2, 0).centroids);
}

TEST(D2dGaussianClusters, NearestTiesGoToLowerIndex)
{
    const std::vector<double> c{0, 0, 2, 0};
    const double p[2] = {1, 0};
    EXPECT_EQ(D2dGaussianClusters::Nearest(p, c, 2), 0u);
    const double q[2] = {1.5, 0};
    EXPECT_EQ(D2dGaussianClusters::Nearest(q, c, 2), 1u);
}

TEST(D2dGaussianClusters, StatisticsHandExample)
{
    // Cluster 0: the square (0,0), (2,0), (0,2), (2,2): mean (1,1), covariance I (divided by
    // n). Cluster 1: (5,5) and (7,9): mean (6,7), covariance [[1,2],[2,4]]. Cluster 2: empty.
    const std::vector<double> x{0, 0, 2, 0, 5, 5, 0, 2, 2, 2, 7, 9};
    const std::vector<uint32_t> a{0, 0, 1, 0, 0, 1};
    const auto s = D2dGaussianClusters::Statistics(x, 2, a, 3);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].count, 4);
    EXPECT_EQ(s[0].mean, (std::vector<double>{1, 1}));
    EXPECT_EQ(s[0].cov, (std::vector<double>{1, 0, 0, 1}));
    EXPECT_EQ(s[1].count, 2);
    EXPECT_EQ(s[1].mean, (std::vector<double>{6, 7}));
    EXPECT_EQ(s[1].cov, (std::vector<double>{1, 2, 2, 4}));
    EXPECT_EQ(s[2].count, 0);
    EXPECT_EQ(s[2].cov, (std::vector<double>(4, 0.0)));
}

TEST(D2dGaussianClusters, Eq15SharesHandExample)
{
    // Receiver centroids 0 and 1 (1-D); transmitter centroids 2 and 5: summed distances
    // 2 + 1 = 3 and 5 + 4 = 9, shares 3/12 and 9/12: the far cluster gives three times more.
    const auto s = D2dGaussianClusters::AllotShares({0, 1}, {2, 5}, 1);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_DOUBLE_EQ(s[0], 0.25);
    EXPECT_DOUBLE_EQ(s[1], 0.75);
}

TEST(D2dGaussianClusters, Eq15SharesSumToOneAndFavourFarClusters)
{
    D2dDataRng rng(3, 0x1);
    for (int trial = 0; trial < 50; ++trial)
    {
        const std::size_t d = 1 + trial % 4;
        const std::size_t li = 1 + trial % 5;
        const std::size_t lj = 2 + trial % 6;
        std::vector<double> mi(li * d);
        std::vector<double> mj(lj * d);
        for (double& v : mi)
        {
            v = rng.Normal();
        }
        for (double& v : mj)
        {
            v = 3 * rng.Normal();
        }
        const auto s = D2dGaussianClusters::AllotShares(mi, mj, d);
        double sum = 0;
        std::vector<double> far(lj, 0.0);
        for (std::size_t l = 0; l < lj; ++l)
        {
            sum += s[l];
            EXPECT_GE(s[l], 0.0);
            for (std::size_t m = 0; m < li; ++m)
            {
                double e = 0;
                for (std::size_t c = 0; c < d; ++c)
                {
                    e += (mi[m * d + c] - mj[l * d + c]) * (mi[m * d + c] - mj[l * d + c]);
                }
                far[l] += std::sqrt(e);
            }
        }
        EXPECT_NEAR(sum, 1.0, 1e-12);
        for (std::size_t a = 0; a < lj; ++a)
        {
            for (std::size_t b = 0; b < lj; ++b)
            {
                if (far[a] > far[b])
                {
                    EXPECT_GT(s[a], s[b]);
                }
            }
        }
    }
    // Coincident centroids: equal shares.
    EXPECT_EQ(D2dGaussianClusters::AllotShares({1, 1}, {1, 1, 1, 1}, 2),
              (std::vector<double>{0.5, 0.5}));
}

TEST(D2dGaussianClusters, CholeskyHandExample)
{
    std::vector<double> l;
    ASSERT_TRUE(D2dGaussianClusters::Cholesky({4, 2, 2, 3}, 2, l));
    EXPECT_DOUBLE_EQ(l[0], 2);
    EXPECT_DOUBLE_EQ(l[1], 0);
    EXPECT_DOUBLE_EQ(l[2], 1);
    EXPECT_DOUBLE_EQ(l[3], std::sqrt(2.0));
    EXPECT_FALSE(D2dGaussianClusters::Cholesky({1, 2, 2, 1}, 2, l));
    EXPECT_FALSE(D2dGaussianClusters::Cholesky({0, 0, 0, 1}, 2, l));
}

TEST(D2dGaussianClusters, KlDivergence1dHandValues)
{
    // KL(N(0,1) || N(1,2)) = ln(sqrt 2) + (1 + 1) / (2 * 2) - 1/2 = ln(2) / 2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({0}, {1}, {1}, {2}), std::log(2.0) / 2, 1e-14);
    // KL(N(1,2) || N(0,1)) = ln(1 / sqrt 2) + (2 + 1) / 2 - 1/2 = 1 - ln(2) / 2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({1}, {2}, {0}, {1}),
                1 - std::log(2.0) / 2,
                1e-14);
    EXPECT_DOUBLE_EQ(D2dGaussianClusters::KlDivergence({3}, {5}, {3}, {5}), 0.0);
    // Ridge: KL(N(0, 0 + 1) || N(0, 1 + 1)) = ln(sqrt 2) + 1/4 - 1/2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({0}, {0}, {0}, {1}, 1.0),
                std::log(2.0) / 2 - 0.25,
                1e-14);
    EXPECT_TRUE(std::isinf(D2dGaussianClusters::KlDivergence({0}, {0}, {0}, {1})));
}

TEST(D2dGaussianClusters, KlDivergence2dHandValues)
{
    // m1 = 0, S1 = I; m2 = (1, 2), S2 = diag(2, 4): tr = 1/2 + 1/4, Mahalanobis 1/2 + 4/4,
    // ln det ratio ln 8: KL = (0.75 + 1.5 - 2 + ln 8) / 2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({0, 0}, {1, 0, 0, 1}, {1, 2}, {2, 0, 0, 4}),
                (0.25 + std::log(8.0)) / 2,
                1e-14);
    // S2 = [[2,1],[1,2]], same means: S2^-1 = [[2,-1],[-1,2]] / 3, tr = 4/3, det 3:
    // KL = (4/3 - 2 + ln 3) / 2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({0, 0}, {1, 0, 0, 1}, {0, 0}, {2, 1, 1, 2}),
                (4.0 / 3 - 2 + std::log(3.0)) / 2,
                1e-14);
    // Correlated S1 = [[2,1],[1,2]] against S2 = I, mean shift (1, -1):
    // tr = 4, Mahalanobis 2, ln det ratio ln(1/3): KL = (4 + 2 - 2 - ln 3) / 2.
    EXPECT_NEAR(D2dGaussianClusters::KlDivergence({0, 0}, {2, 1, 1, 2}, {1, -1}, {1, 0, 0, 1}),
                (4 - std::log(3.0)) / 2,
                1e-14);
}

TEST(D2dGaussianClusters, SampleMatchesTheGaussianAndIsDeterministic)
{
    // Both ways of drawing z (Box-Muller, the ziggurat) through the same BLAS transform.
    for (auto draws : {D2dGaussianClusters::BOX_MULLER, D2dGaussianClusters::ZIGGURAT})
    {
        const auto g = Cluster({1, -2}, {2, 0.8, 0.8, 1}, 10);
        D2dDataRng rng(11, 0x2);
        const std::size_t n = 40000;
        const auto x = D2dGaussianClusters::Sample(g, n, rng, draws);
        ASSERT_EQ(x.size(), n * 2);
        const auto s = D2dGaussianClusters::Statistics(x, 2, std::vector<uint32_t>(n, 0), 1);
        // Standard errors: mean sqrt(2/40000) = 0.007, covariance entries about 0.015.
        EXPECT_NEAR(s[0].mean[0], 1, 0.03) << draws;
        EXPECT_NEAR(s[0].mean[1], -2, 0.03) << draws;
        EXPECT_NEAR(s[0].cov[0], 2, 0.06) << draws;
        EXPECT_NEAR(s[0].cov[1], 0.8, 0.04) << draws;
        EXPECT_NEAR(s[0].cov[3], 1, 0.03) << draws;
        D2dDataRng a(11, 0x2);
        D2dDataRng b(11, 0x2);
        EXPECT_EQ(D2dGaussianClusters::Sample(g, 5, a, draws),
                  D2dGaussianClusters::Sample(g, 5, b, draws));
        EXPECT_TRUE(D2dGaussianClusters::Sample(g, 0, a, draws).empty());
        // A singular covariance (rank 1) is jittered: the samples lie on the line y = x.
        const auto line =
            D2dGaussianClusters::Sample(Cluster({0, 0}, {1, 1, 1, 1}, 3), 100, a, draws);
        for (std::size_t p = 0; p < 100; ++p)
        {
            EXPECT_NEAR(line[2 * p], line[2 * p + 1], 1e-3) << draws;
        }
    }
}

TEST(D2dGaussianClusters, TraceRatioIsOnePerClusterWhenNothingIsReceived)
{
    const std::vector<D2dGaussianCluster> before{Cluster({0, 0}, {1, 0.5, 0.5, 3}, 10),
                                                 Cluster({5, 5}, {2, 0, 0, 2}, 4),
                                                 Cluster({9, 9}, {0, 0, 0, 0}, 1)};
    EXPECT_DOUBLE_EQ(D2dGaussianClusters::TraceRatio(before, before), 3.0);
    auto after = before;
    after[0].cov = {3, 0, 0, 5}; // trace 4 -> 8: ratio 2
    after[1].cov = {1, 0, 0, 1}; // trace 4 -> 2: ratio 1/2
    after[2].cov = {1, 0, 0, 1}; // trace 0 before: counts 1
    EXPECT_DOUBLE_EQ(D2dGaussianClusters::TraceRatio(before, after), 3.5);
}

TEST(D2dGaussianClusters, Eq17SystemAgreementHandExample)
{
    // Two devices, one cluster each, 1-D. Before: N(0,1) and N(1,1): KL 1/2 both ways.
    // After: N(0.25, 2) and N(0.75, 2). Post-exchange: KL = 0.25 / (2 * 2) = 1/16 both ways,
    // ratio 8 each: sum 16. Printed mix (means before, covariances after): KL = 1 / 4, ratio 2
    // each: sum 4.
    const std::vector<std::vector<D2dGaussianCluster>> before{{Cluster({0}, {1}, 10)},
                                                              {Cluster({1}, {1}, 10)}};
    const std::vector<std::vector<D2dGaussianCluster>> after{{Cluster({0.25}, {2}, 12)},
                                                             {Cluster({0.75}, {2}, 12)}};
    const auto post = D2dGaussianClusters::SystemAgreement(before,
                                                           after,
                                                           D2dGaussianClusters::POST_EXCHANGE,
                                                           0.0);
    EXPECT_EQ(post.terms, 2u);
    EXPECT_NEAR(post.sum, 16.0, 1e-12);
    const auto printed =
        D2dGaussianClusters::SystemAgreement(before, after, D2dGaussianClusters::PRINTED, 0.0);
    EXPECT_EQ(printed.terms, 2u);
    EXPECT_NEAR(printed.sum, 4.0, 1e-12);
    // Nothing exchanged: every ratio is 1.
    const auto same =
        D2dGaussianClusters::SystemAgreement(before, before, D2dGaussianClusters::POST_EXCHANGE, 0);
    EXPECT_NEAR(same.sum, 2.0, 1e-12);
    // A cluster of one point is left out.
    auto small = before;
    small[1][0].count = 1;
    EXPECT_EQ(
        D2dGaussianClusters::SystemAgreement(small, small, D2dGaussianClusters::PRINTED, 0).terms,
        0u);
}

TEST(D2dGaussianClusters, MessageSize)
{
    // 4 (d + d^2) + 1 bytes: the paper's 32 (d + d^2) + 8 bits; d = 8: 289.
    EXPECT_EQ(D2dGaussianClusters::ClusterMessageBytes(8), 289u);
    EXPECT_EQ(D2dGaussianClusters::ClusterMessageBytes(1), 9u);
}
