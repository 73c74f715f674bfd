/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the data layer's random source (D2dDataRng): the Gamma draws' moments
 * against their formulas (4 standard errors), the apportionment by largest remainder
 * (D2dApportion) worked by hand, and the independence of the streams of a seed's purposes.
 * Torch-free. All draws are seeded, so a test that passes once passes always.
 */

#include "ns3/d2d-data-rng.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
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

} // namespace
