/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The self-supervised triplet learner's pieces (D2dTripletEncoding): FaceNet's triplet loss
 * (Schroff, Kalenichenko, Philbin, "FaceNet: A Unified Embedding for Face Recognition and
 * Clustering", 2015, eq. 1-3) against values worked by hand, and the random augmentation
 * that makes the positives of Wagle, Das, Love, Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, eq. 4: a rotation
 * by 90 degrees and a Gaussian blur against hand values, shapes, determinism per seed, and
 * the identity when both are off.
 */
#include "ns3/d2d-triplet-encoding.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{
/** \return B images of C x H x W with distinct, non-symmetric values */
std::vector<float>
Ramp(int64_t b, int64_t c, int64_t h, int64_t w)
{
    std::vector<float> x(static_cast<std::size_t>(b * c * h * w));
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        x[i] = static_cast<float>((i * 37) % 101) / 100.0f;
    }
    return x;
}
} // namespace

// Two triplets in 2-D, margin 0.2:
//  a = (1, 0), p = (0.6, 0.8), n = (0, 1): ||a-p||^2 = 0.16 + 0.64 = 0.8, ||a-n||^2 = 2,
//    0.8 - 2 + 0.2 = -1.0 -> hinge 0;
//  a = (1, 0), p = (0, 1), n = (0.8, 0.6): ||a-p||^2 = 2, ||a-n||^2 = 0.04 + 0.36 = 0.4,
//    2 - 0.4 + 0.2 = 1.8.
// Batch mean: (0 + 1.8) / 2 = 0.9. With margin 1.5: (0.3 + 3.1) / 2 = 1.7.
TEST(D2dTripletEncoding, LossMatchesHandValue)
{
    const std::vector<float> a{1, 0, 1, 0};
    const std::vector<float> p{0.6f, 0.8f, 0, 1};
    const std::vector<float> n{0, 1, 0.8f, 0.6f};
    EXPECT_NEAR(D2dTripletEncoding::Loss(a, p, n, 2, 0.2), 0.9, 1e-6);
    EXPECT_NEAR(D2dTripletEncoding::Loss(a, p, n, 2, 1.5), 1.7, 1e-6);
    // Positive = anchor, negative far: zero loss; negative = anchor: exactly the margin.
    EXPECT_NEAR(D2dTripletEncoding::Loss({1, 0}, {1, 0}, {-1, 0}, 2, 0.2), 0.0, 1e-12);
    EXPECT_NEAR(D2dTripletEncoding::Loss({1, 0}, {0, 1}, {1, 0}, 2, 0.2), 2.2, 1e-6);
}

TEST(D2dTripletEncoding, LossRefusesMismatchedBatches)
{
    EXPECT_THROW(D2dTripletEncoding::Loss({1, 0}, {1, 0, 0}, {1, 0}, 2, 0.2),
                 std::invalid_argument);
    EXPECT_THROW(D2dTripletEncoding::Loss({1, 0, 1}, {1, 0, 1}, {1, 0, 1}, 2, 0.2),
                 std::invalid_argument);
    EXPECT_THROW(D2dTripletEncoding::Loss({}, {}, {}, 2, 0.2), std::invalid_argument);
}

// Rotating [[1,2,3],[4,5,6],[7,8,9]] by +90 degrees (counter-clockwise): out[r][c] =
// in[c][2 - r] = [[3,6,9],[2,5,8],[1,4,7]]: pixel centres map onto pixel centres.
TEST(D2dTripletEncoding, RotateBy90IsAQuarterTurn)
{
    const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<float> expected{3, 6, 9, 2, 5, 8, 1, 4, 7};
    const auto out = D2dTripletEncoding::Rotate(in, {1, 1, 3, 3}, {90.0});
    ASSERT_EQ(out.size(), expected.size());
    for (std::size_t i = 0; i < out.size(); ++i)
    {
        EXPECT_NEAR(out[i], expected[i], 1e-5) << "pixel " << i;
    }
    // By 0 degrees: the identity (up to bilinear rounding at exact pixel centres).
    const auto x = Ramp(2, 1, 6, 5);
    const auto same = D2dTripletEncoding::Rotate(x, {2, 1, 6, 5}, {0.0, 0.0});
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        EXPECT_NEAR(same[i], x[i], 1e-6);
    }
}

// A unit impulse at the centre of a 5 x 5 image blurred with sigma = 1 gives the kernel:
// Z = (sum_{i=-2..2} exp(-i^2/2))^2 = 6.168924, centre 1/Z = 0.1621028, a side neighbour
// exp(-1/2)/Z = 0.0983203, a diagonal one exp(-1)/Z = 0.0596343, a corner exp(-4)/Z =
// 0.0029690; the total stays 1.
TEST(D2dTripletEncoding, BlurMatchesHandKernel)
{
    std::vector<float> impulse(25, 0.0f);
    impulse[12] = 1.0f;
    const auto out = D2dTripletEncoding::Blur(impulse, {1, 1, 5, 5}, {1.0});
    EXPECT_NEAR(out[12], 0.1621028, 1e-6);
    EXPECT_NEAR(out[13], 0.0983203, 1e-6);
    EXPECT_NEAR(out[7], 0.0983203, 1e-6);
    EXPECT_NEAR(out[18], 0.0596343, 1e-6);
    EXPECT_NEAR(out[0], 0.0029690, 1e-6);
    double total = 0;
    for (auto v : out)
    {
        total += v;
    }
    EXPECT_NEAR(total, 1.0, 1e-5);
    // Sigma 0: the image bit for bit.
    const auto x = Ramp(1, 1, 5, 5);
    EXPECT_EQ(D2dTripletEncoding::Blur(x, {1, 1, 5, 5}, {0.0}), x);
}

TEST(D2dTripletEncoding, AugmentKeepsShapeAndIsDeterministicPerSeed)
{
    const std::vector<int64_t> shape{4, 1, 28, 28};
    const auto x = Ramp(4, 1, 28, 28);
    const D2dAugmentOptions options; // 30 degrees, sigma up to 2
    const auto a = D2dTripletEncoding::Augment(x, shape, 7, options);
    const auto b = D2dTripletEncoding::Augment(x, shape, 7, options);
    const auto c = D2dTripletEncoding::Augment(x, shape, 8, options);
    ASSERT_EQ(a.size(), x.size());
    EXPECT_EQ(a, b) << "same seed, same bytes";
    EXPECT_NE(a, c) << "another seed, another augmentation";
    EXPECT_NE(a, x) << "the augmentation changes the images";
    for (auto v : a)
    {
        EXPECT_TRUE(std::isfinite(v));
    }
}

TEST(D2dTripletEncoding, AugmentOffLeavesImagesUnchanged)
{
    const std::vector<int64_t> shape{3, 1, 28, 28};
    const auto x = Ramp(3, 1, 28, 28);
    D2dAugmentOptions off;
    off.maxRotationDeg = 0;
    off.maxBlurSigma = 0;
    EXPECT_EQ(D2dTripletEncoding::Augment(x, shape, 7, off), x);
    // Rotation alone or blur alone does change them.
    D2dAugmentOptions rotate = off;
    rotate.maxRotationDeg = 30;
    EXPECT_NE(D2dTripletEncoding::Augment(x, shape, 7, rotate), x);
    D2dAugmentOptions blur = off;
    blur.maxBlurSigma = 2;
    EXPECT_NE(D2dTripletEncoding::Augment(x, shape, 7, blur), x);
}

TEST(D2dTripletEncoding, RefusesImagesThatDoNotFillTheShape)
{
    EXPECT_THROW(D2dTripletEncoding::Rotate({1, 2, 3}, {1, 1, 2, 2}, {0.0}), std::invalid_argument);
    EXPECT_THROW(D2dTripletEncoding::Blur({1, 2, 3, 4}, {1, 1, 2, 2}, {1.0, 1.0}),
                 std::invalid_argument);
}
