/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest of D2dShare::Count, the count a share f in [0, 1] of n items gives (CMFL's
 * active clients, committee and alpha; the malicious clients; Krum's f, Multi-Krum's m, the
 * trimmed mean's b), against values worked out by hand: products n x f that fall on
 * integers and halves, which a double misses by one unit in the last place.
 */

#include "ns3/d2d-share.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr auto NEAREST = D2dShare::Rounding::NEAREST;
constexpr auto DOWN = D2dShare::Rounding::DOWN;

TEST(D2dShareCount, ProductsOnIntegers)
{
    // In doubles 100 x 0.29 = 28.999999999999996, 50 x 0.58 = 28.999999999999996,
    // 90 x 0.7 = 62.99999999999999: floor() alone would give one less.
    EXPECT_EQ(D2dShare::Count(100, 0.29, DOWN), 29u);
    EXPECT_EQ(D2dShare::Count(50, 0.58, DOWN), 29u);
    EXPECT_EQ(D2dShare::Count(90, 0.7, DOWN), 63u);
    EXPECT_EQ(D2dShare::Count(90, 0.7, NEAREST), 63u);
    // Above the integer (100 x 0.07 = 7.000000000000001, 3 x 0.1 = 0.30000000000000004):
    // floor() was right already.
    EXPECT_EQ(D2dShare::Count(100, 0.07, DOWN), 7u);
    EXPECT_EQ(D2dShare::Count(3, 0.1, DOWN), 0u);
    // Exact ones: 20 x 0.3 = 6, 10 x 0.3 = 3, 650 x 0.1 = 65, 65 x 0.4 = 26.
    EXPECT_EQ(D2dShare::Count(20, 0.3, DOWN), 6u);
    EXPECT_EQ(D2dShare::Count(20, 0.3, NEAREST), 6u);
    EXPECT_EQ(D2dShare::Count(10, 0.3, DOWN), 3u);
    EXPECT_EQ(D2dShare::Count(650, 0.1, NEAREST), 65u);
    EXPECT_EQ(D2dShare::Count(65, 0.4, NEAREST), 26u);
}

TEST(D2dShareCount, HalvesRoundAwayFromZero)
{
    // 5 x 0.3 = 1.5 -> 2; 7 x 0.5 = 3.5 -> 4; 10 x 0.25 = 2.5 -> 3.
    EXPECT_EQ(D2dShare::Count(5, 0.3, NEAREST), 2u);
    EXPECT_EQ(D2dShare::Count(7, 0.5, NEAREST), 4u);
    EXPECT_EQ(D2dShare::Count(10, 0.25, NEAREST), 3u);
    // In doubles 50 x 0.29 = 14.499999999999998 and 45 x 0.7 = 31.499999999999996: the
    // halves 14.5 and 31.5 they stand for round up.
    EXPECT_EQ(D2dShare::Count(50, 0.29, NEAREST), 15u);
    EXPECT_EQ(D2dShare::Count(45, 0.7, NEAREST), 32u);
    // Floor of the halves.
    EXPECT_EQ(D2dShare::Count(5, 0.3, DOWN), 1u);
    EXPECT_EQ(D2dShare::Count(50, 0.29, DOWN), 14u);
    // Not halves: 10 x 0.44 = 4.4 -> 4; 12 x 0.25 = 3; 4 x 0.1 = 0.4 -> 0.
    EXPECT_EQ(D2dShare::Count(10, 0.44, NEAREST), 4u);
    EXPECT_EQ(D2dShare::Count(12, 0.25, NEAREST), 3u);
    EXPECT_EQ(D2dShare::Count(4, 0.1, NEAREST), 0u);
}

TEST(D2dShareCount, EdgesOfTheShare)
{
    EXPECT_EQ(D2dShare::Count(0, 0.4, NEAREST), 0u);
    EXPECT_EQ(D2dShare::Count(7, 0, NEAREST), 0u);
    EXPECT_EQ(D2dShare::Count(7, 1, NEAREST), 7u);
    EXPECT_EQ(D2dShare::Count(7, 1, DOWN), 7u);
    EXPECT_EQ(D2dShare::Count(100000, 1, DOWN), 100000u);
    EXPECT_EQ(D2dShare::Count(100000, 0.33, DOWN), 33000u);
    // A share just below a whole count is not rounded up to it (1e-9 is far finer).
    EXPECT_EQ(D2dShare::Count(10, 0.2999, DOWN), 2u);
}

TEST(D2dShareDeathTest, ShareOutsideZeroToOneAborts)
{
    EXPECT_DEATH(D2dShare::Count(10, 1.01, NEAREST), "share 1.01 not in \\[0, 1\\]");
    EXPECT_DEATH(D2dShare::Count(10, -0.1, DOWN), "not in \\[0, 1\\]");
    EXPECT_DEATH(D2dShare::Count(10, 30, DOWN), "not in \\[0, 1\\]");
}

} // namespace
