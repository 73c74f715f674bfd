/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of ConstantRssModel: the inverse of eq. (18) of Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning" (2025), checked against a hand-worked value and by the round trip through
 * D2dChannel::DropProbability() (eq. (18) itself), and its refusals.
 */

#include "ns3/constant-rss-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/double.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>

using namespace ns3;

namespace
{

// P_D = 1/2, r = 1 bit/s/Hz, sigma^2 = 1e-13 W: -ln(1 - 1/2) = ln 2 = (2^1 - 1) 1e-13 / W,
// so W = 1e-13 / ln 2 = 1.4426950408889634e-13 W.
TEST(ConstantRssModelTest, HandWorkedHalf)
{
    const double w = ConstantRssModel::ForDropProbability(0.5, 1.0, 1e-13);
    EXPECT_NEAR(w, 1.4426950408889634e-13, 1e-27);
    EXPECT_NEAR(D2dChannel::DropProbability(w, 1.0, 1e-13), 0.5, 1e-15);
}

// Eq. (18) of the W that ForDropProbability() gives is the target, to a few units in the
// last place, over targets from 1e-9 to 0.999 and several rates and noise powers.
TEST(ConstantRssModelTest, RoundTripThroughEq18)
{
    for (double p : {1e-9, 1e-6, 0.001, 0.05, 0.3, 0.5, 0.9, 0.999})
    {
        for (double r : {0.25, 1.0, 2.0, 4.0, 8.0})
        {
            for (double sigma2 : {1e-15, 1e-13, 1e-9})
            {
                const double w = ConstantRssModel::ForDropProbability(p, r, sigma2);
                ASSERT_GT(w, 0);
                const double back = D2dChannel::DropProbability(w, r, sigma2);
                // The error of 1 - exp(-x) near x = 0 is absolute (about 1e-16), relative
                // elsewhere.
                EXPECT_NEAR(back, p, 4e-16 + 8 * std::numeric_limits<double>::epsilon() * p)
                    << "p " << p << " r " << r << " sigma2 " << sigma2;
            }
        }
    }
}

// P_D = 0: the largest finite W, at which eq. (18) gives exactly 0.
TEST(ConstantRssModelTest, ZeroDropProbability)
{
    const double w = ConstantRssModel::ForDropProbability(0.0, 2.0, 1e-13);
    EXPECT_EQ(w, std::numeric_limits<double>::max());
    EXPECT_EQ(D2dChannel::DropProbability(w, 2.0, 1e-13), 0.0);
    // No noise: eq. (18) gives 0 at any W, so P_D = 0 is still a valid target.
    EXPECT_EQ(ConstantRssModel::ForDropProbability(0.0, 2.0, 0.0),
              std::numeric_limits<double>::max());
}

TEST(ConstantRssModelTest, RefusesWhatEq18CannotGive)
{
    EXPECT_THROW(ConstantRssModel::ForDropProbability(1.0, 2.0, 1e-13), std::invalid_argument);
    EXPECT_THROW(ConstantRssModel::ForDropProbability(-0.1, 2.0, 1e-13), std::invalid_argument);
    EXPECT_THROW(ConstantRssModel::ForDropProbability(std::nan(""), 2.0, 1e-13),
                 std::invalid_argument);
    EXPECT_THROW(ConstantRssModel::ForDropProbability(0.3, 2.0, 0.0), std::invalid_argument);
    EXPECT_THROW(ConstantRssModel::ForDropProbability(0.3, 0.0, 1e-13), std::invalid_argument);
}

// The model gives its W on every link, whatever the indices, positions and power.
TEST(ConstantRssModelTest, SameOnEveryLink)
{
    auto model = CreateObject<ConstantRssModel>();
    model->SetAttribute("RssW", DoubleValue(3e-11));
    EXPECT_EQ(model->GetRssW(0, 1, nullptr, nullptr, 20.0), 3e-11);
    EXPECT_EQ(model->GetRssW(7, 2, nullptr, nullptr, -10.0), 3e-11);
}

} // namespace
