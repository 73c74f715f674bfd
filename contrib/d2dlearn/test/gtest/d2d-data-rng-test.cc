/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the data layer's random source (D2dDataRng): the Gamma draws' moments
 * against their formulas (4 standard errors), the apportionment by largest remainder
 * (D2dApportion) worked by hand, the independence of the streams of a seed's purposes, and
 * the ziggurat's standard normals against the normal distribution function (moments, tails,
 * Kolmogorov-Smirnov) and against Box-Muller's, and the engine's draws against the C++
 * standard's std::mt19937_64 seeded alike.
 * Torch-free. All draws are seeded, so a test that passes once passes always.
 */

#include "ns3/d2d-data-rng.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/** Gamma(shape, 1): mean shape, variance shape. 4 standard errors. */
TEST(D2dDataRng, GammaMeanAndVariance)
{
    for (double shape : {0.1, 0.5, 1.0, 3.0})
    {
        D2dDataRng rng(1, 77);
        const int n = 50000;
        double s = 0;
        double s2 = 0;
        for (int i = 0; i < n; ++i)
        {
            const double g = rng.Gamma(shape);
            s += g;
            s2 += g * g;
        }
        const double mean = s / n;
        const double var = s2 / n - mean * mean;
        // var of the sample mean shape/n; of the sample variance ~ (mu4 - var^2)/n with
        // mu4 = 3 shape^2 + 6 shape for the Gamma.
        EXPECT_NEAR(mean, shape, 4 * std::sqrt(shape / n)) << "Gamma mean " << shape;
        EXPECT_NEAR(var, shape, 4 * std::sqrt((3 * shape * shape + 6 * shape - shape * shape) / n))
            << "Gamma variance " << shape;
    }
}

/**
 * NormalZiggurat is N(0, 1): 400,000 draws, mean 0 and variance 1 within 4 standard errors
 * (sqrt(1/n) and sqrt(2/n)), the share beyond 3 (the ziggurat's tail algorithm) 2 Phi(-3) =
 * 0.0026998 within 4 standard errors of a binomial share, and the Kolmogorov-Smirnov
 * distance to Phi below 1.95 / sqrt(n) (its 0.1 % critical value); the same seed gives the
 * same draws, and the draws are not Normal's (another algorithm on the same engine).
 */
TEST(D2dDataRng, ZigguratDrawsTheStandardNormal)
{
    const std::size_t n = 400000;
    std::vector<double> z(n);
    D2dDataRng rng(3, 0x5a);
    rng.NormalZiggurat(z.data(), n);
    double s = 0;
    double s2 = 0;
    std::size_t beyond3 = 0;
    for (double v : z)
    {
        s += v;
        s2 += v * v;
        beyond3 += std::abs(v) > 3.0;
    }
    const double mean = s / n;
    EXPECT_NEAR(mean, 0.0, 4 * std::sqrt(1.0 / n));
    EXPECT_NEAR(s2 / n - mean * mean, 1.0, 4 * std::sqrt(2.0 / n));
    const double tail = std::erfc(3.0 / std::sqrt(2.0)); // 2 Phi(-3)
    EXPECT_NEAR(static_cast<double>(beyond3) / n, tail, 4 * std::sqrt(tail * (1 - tail) / n));
    std::sort(z.begin(), z.end());
    double ks = 0;
    for (std::size_t k = 0; k < n; ++k)
    {
        const double phi = 0.5 * std::erfc(-z[k] / std::sqrt(2.0));
        ks = std::max({ks,
                       std::abs(phi - static_cast<double>(k) / n),
                       std::abs(phi - static_cast<double>(k + 1) / n)});
    }
    EXPECT_LT(ks, 1.95 / std::sqrt(static_cast<double>(n)));
    D2dDataRng a(3, 0x5a);
    D2dDataRng b(3, 0x5a);
    D2dDataRng c(3, 0x5a);
    double za[8];
    double zb[8];
    a.NormalZiggurat(za, 8);
    b.NormalZiggurat(zb, 8);
    for (int k = 0; k < 8; ++k)
    {
        EXPECT_EQ(za[k], zb[k]);
    }
    EXPECT_NE(za[0], c.Normal());
}

/** 333 apportioned 0.7, 0.2, 0.1 by largest remainder: 233.1, 66.6, 33.3 -> 233, 67, 33. */
TEST(D2dApportion, LargestRemainderByHand)
{
    auto c = D2dApportion({0.7, 0.2, 0.1}, 333);
    EXPECT_TRUE((c == std::vector<std::size_t>{233, 67, 33})) << "233.1, 66.6, 33.3";
}

/** Two purposes of one seed: different streams. */
TEST(D2dDataRng, PurposesGiveDifferentStreams)
{
    D2dDataRng a(5, 1);
    D2dDataRng b(5, 2);
    EXPECT_NE(a.Bits(), b.Bits()) << "purposes give different streams";
}

/** The same seed and purpose: the same stream. */
TEST(D2dDataRng, SameSeedAndPurposeSameStream)
{
    D2dDataRng a2(5, 1);
    D2dDataRng a3(5, 1);
    EXPECT_EQ(a2.Bits(), a3.Bits()) << "same seed and purpose, same stream";
}

/**
 * The engine is the C++ standard's MT19937-64: the same 64-bit draws as std::mt19937_64
 * seeded from the same std::seed_seq (the seed's two halves, the purpose, the sub-index),
 * across several of its 312-word state updates, for seeds of both halves and a few purposes.
 */
TEST(D2dDataRng, BitsAreTheStandardMt19937x64)
{
    for (const uint64_t seed : {uint64_t{1}, uint64_t{0x123456789abcdefULL}})
    {
        for (const uint32_t purpose : {0U, 0x47440002U})
        {
            for (const uint32_t sub : {0U, 7U})
            {
                std::seed_seq seq{static_cast<uint32_t>(seed & 0xffffffffULL),
                                  static_cast<uint32_t>(seed >> 32),
                                  purpose,
                                  sub};
                std::mt19937_64 reference;
                reference.seed(seq);
                D2dDataRng rng(seed, purpose, sub);
                for (int k = 0; k < 5000; ++k)
                {
                    ASSERT_EQ(rng.Bits(), reference()) << "seed " << seed << " purpose " << purpose
                                                       << " sub " << sub << " draw " << k;
                }
            }
        }
    }
}

} // namespace
