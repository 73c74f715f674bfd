/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Internal header (includes LibTorch): the self-supervised triplet encoder of the
 * unsupervised paradigm of Wagle, Das, Love, Brinton, "Multi-Agent Reinforcement Learning
 * for Graph Discovery in D2D-Enabled Federated Learning", 2025 (sec. III-A4, eq. 4; App. C),
 * its triplet loss (Schroff, Kalenichenko, Philbin, "FaceNet: A Unified Embedding for Face
 * Recognition and Clustering", 2015, eq. 1-3), the random augmentation that makes the
 * positives, and the linear evaluation (Chen, Kornblith, Norouzi, Hinton, "A Simple
 * Framework for Contrastive Learning of Visual Representations", 2020, sec. B.6). Only the
 * learning library's sources include it; D2dTripletEncoding is its torch-free face.
 */
#ifndef D2D_TRIPLET_ENCODER_H
#define D2D_TRIPLET_ENCODER_H

#include "d2d-learner.h"

#include "ns3/d2d-triplet-encoding.h"

// The parts of LibTorch used here, not <torch/torch.h> (every LibTorch header: about 21 s
// of parsing per translation unit on the 2-core machine, twice what these take).
#include <torch/nn/module.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A small convolutional encoder with an 8-dimensional, L2-normalised embedding.
 *
 * The paper uses "a 4-layer convolutional encoder" with embedding dimension 8 on
 * Fashion-MNIST (App. C) and gives no further detail. Assumed here: three 3x3 "same"
 * convolutions (channels D2dTripletEncoding::Channels) each followed by ReLU and a 2x2
 * max-pooling (28 -> 14 -> 7 -> 3), then one linear layer to the 8 embedding dimensions:
 * four layers with weights. The embedding is divided by its Euclidean norm, as FaceNet's
 * ||f(x)||_2 = 1 (Schroff et al. 2015, sec. 3).
 */
struct D2dTripletEncoderImpl : torch::nn::Module
{
    /**
     * \param inputShape one sample's shape [channels, height, width] (height, width >= 8)
     * \throws std::invalid_argument (one line naming "model") on other shapes
     */
    explicit D2dTripletEncoderImpl(const std::vector<int64_t>& inputShape);

    /**
     * \param x a batch of images, [B, channels, height, width]
     * \return the unit-norm embeddings, [B, D2dTripletEncoding::EmbeddingDim]
     */
    torch::Tensor forward(torch::Tensor x);

    torch::nn::Conv2d conv1{nullptr}; //!< first 3x3 convolution
    torch::nn::Conv2d conv2{nullptr}; //!< second 3x3 convolution
    torch::nn::Conv2d conv3{nullptr}; //!< third 3x3 convolution
    torch::nn::Linear fc{nullptr};    //!< flattened features -> embedding
    double forwardFlops{0};           //!< 2 x multiply-adds of one sample's forward pass
};

TORCH_MODULE(D2dTripletEncoder);

/**
 * \brief FaceNet's triplet loss, batch mean: (1/B) sum_i max(0, ||a_i - p_i||^2 -
 * ||a_i - n_i||^2 + margin) (Schroff et al. 2015, eq. 1-3, with squared Euclidean distances).
 * \param anchors embeddings [B, D]
 * \param positives embeddings [B, D]
 * \param negatives embeddings [B, D]
 * \param margin alpha, >= 0
 * \return the scalar loss
 */
torch::Tensor D2dTripletLossOf(const torch::Tensor& anchors,
                               const torch::Tensor& positives,
                               const torch::Tensor& negatives,
                               double margin);

/**
 * \brief Rotate each image about its centre (bilinear, zeros outside), counter-clockwise
 * by its angle: rotating by +90 degrees is torch::rot90(x, 1, {2, 3}).
 * \param images [B, C, H, W]
 * \param degrees [B] angles, degrees
 * \return the rotated images
 */
torch::Tensor D2dRotateImages(const torch::Tensor& images, const torch::Tensor& degrees);

/**
 * \brief Blur each image with its own Gaussian (a 5 x 5 kernel normalised to sum 1, zeros
 * outside the image); a standard deviation below 1e-3 pixels leaves the image unchanged.
 * \param images [B, C, H, W]
 * \param sigmas [B] standard deviations, pixels
 * \return the blurred images
 */
torch::Tensor D2dBlurImages(const torch::Tensor& images, const torch::Tensor& sigmas);

/**
 * \brief The random augmentation F of eq. 4 (Wagle et al. 2025): each image rotated by an
 * angle uniform in [-maxRotationDeg, maxRotationDeg], then blurred with a standard
 * deviation uniform in [0, maxBlurSigma]. The 2B uniform draws (angles, then standard
 * deviations) are always made, from the given generator, whatever the options; a zero
 * maximum skips that transform (the image is returned bit for bit).
 * \param images [B, C, H, W]
 * \param generator the device's generator
 * \param options the ranges
 * \return the augmented images
 */
torch::Tensor D2dAugmentImages(const torch::Tensor& images,
                               at::Generator& generator,
                               const D2dAugmentOptions& options);

/**
 * \brief Linear evaluation of an encoder: a logistic regression (softmax, one weight vector
 * per class) on the frozen embeddings, trained on a labelled set and scored on a test set.
 * See D2dTripletEncoding for where and how it is trained.
 * \param encoder the encoder (run under NoGradGuard, in eval mode)
 * \param train the labelled training images, [N, C, H, W]
 * \param trainLabels their labels, int64 [N], in [0, classes)
 * \param test the test images, [M, C, H, W]
 * \param testLabels their labels, int64 [M]
 * \param classes the number of classes
 * \return the test accuracy and mean cross-entropy
 */
D2dEvalResult D2dLinearEvaluation(D2dTripletEncoder& encoder,
                                  const torch::Tensor& train,
                                  const torch::Tensor& trainLabels,
                                  const torch::Tensor& test,
                                  const torch::Tensor& testLabels,
                                  int64_t classes);

} // namespace ns3

#endif /* D2D_TRIPLET_ENCODER_H */
