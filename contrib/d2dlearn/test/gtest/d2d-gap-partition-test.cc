/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest of the regression partitions of graph discovery (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, sec. VI-C4): sort the targets, cut at the L - 1 largest gaps. Expected values worked
 * out by hand in the comments.
 */

#include "ns3/d2d-gap-partition.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST(GapPartition, CutsAtTheLargestGaps)
{
    // Targets 5, 1, 1.5, 9, 2, 8.5 sorted: 1 (#1), 1.5 (#2), 2 (#4), 5 (#0), 8.5 (#5), 9 (#3);
    // gaps 0.5, 0.5, 3, 3.5, 0.5. L = 3 cuts the two largest, 3.5 (5 | 8.5) and 3 (2 | 5):
    // {1, 1.5, 2} -> 0, {5} -> 1, {8.5, 9} -> 2.
    const std::vector<double> y{5.0, 1.0, 1.5, 9.0, 2.0, 8.5};
    EXPECT_EQ(D2dGapPartition::Assign(y, 3), (std::vector<uint32_t>{1, 0, 0, 2, 0, 2}));
    // L = 2 cuts only 3.5: {1, 1.5, 2, 5} -> 0, {8.5, 9} -> 1.
    EXPECT_EQ(D2dGapPartition::Assign(y, 2), (std::vector<uint32_t>{0, 0, 0, 1, 0, 1}));
    // L = 1: one partition.
    EXPECT_EQ(D2dGapPartition::Assign(y, 1), (std::vector<uint32_t>(6, 0)));
    // L = 6 = n: every point alone, numbered by rank.
    EXPECT_EQ(D2dGapPartition::Assign(y, 6), (std::vector<uint32_t>{3, 0, 1, 5, 2, 4}));
}

TEST(GapPartition, TiesAndEqualTargets)
{
    // Equal gaps of 1: the lowest is cut first. 0 | 1 2 3.
    EXPECT_EQ(D2dGapPartition::Assign({3.0, 2.0, 1.0, 0.0}, 2),
              (std::vector<uint32_t>{1, 1, 1, 0}));
    // 7, 7, 7, 1: one positive gap (1 | 7); L = 3 also cuts a zero gap, the lowest (between the
    // first two 7s in index order): {1} -> 0, {7 #0} -> 1, {7 #1, 7 #2} -> 2.
    EXPECT_EQ(D2dGapPartition::Assign({7.0, 7.0, 7.0, 1.0}, 3),
              (std::vector<uint32_t>{1, 2, 2, 0}));
    EXPECT_TRUE(D2dGapPartition::Assign({}, 3).empty());
}

TEST(GapPartition, RefusesBadInput)
{
    EXPECT_THROW(D2dGapPartition::Assign({1.0, 2.0}, 0), std::invalid_argument);
    EXPECT_THROW(D2dGapPartition::Assign({1.0, 2.0}, 3), std::invalid_argument);
    EXPECT_THROW(D2dGapPartition::Assign({1.0, NAN}, 2), std::invalid_argument);
}
