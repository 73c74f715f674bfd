/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-triplet-encoder.h"

#include <cmath>
#include <stdexcept>
#include <torch/nn/functional/conv.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/pooling.h>
#include <torch/nn/functional/vision.h>
#include <torch/optim/adam.h>

namespace ns3
{

D2dTripletEncoderImpl::D2dTripletEncoderImpl(const std::vector<int64_t>& inputShape)
{
    if (inputShape.size() != 3 || inputShape[1] < 8 || inputShape[2] < 8)
    {
        throw std::invalid_argument("model: triplet needs image samples [channels, height, "
                                    "width] of at least 8 x 8 pixels (three 2x2 poolings)");
    }
    int64_t c = inputShape[0];
    int64_t h = inputShape[1];
    int64_t w = inputShape[2];
    const auto& ch = D2dTripletEncoding::Channels;
    auto conv = [&](int64_t out) {
        forwardFlops += 2.0 * static_cast<double>(c * 9 * out * h * w);
        auto layer = torch::nn::Conv2d(torch::nn::Conv2dOptions(c, out, /*kernel=*/3).padding(1));
        c = out;
        h /= 2;
        w /= 2;
        return layer;
    };
    conv1 = register_module("conv1", conv(ch[0]));
    conv2 = register_module("conv2", conv(ch[1]));
    conv3 = register_module("conv3", conv(ch[2]));
    fc = register_module("fc", torch::nn::Linear(c * h * w, D2dTripletEncoding::EmbeddingDim));
    forwardFlops += 2.0 * static_cast<double>(c * h * w * D2dTripletEncoding::EmbeddingDim);
}

torch::Tensor
D2dTripletEncoderImpl::forward(torch::Tensor x)
{
    namespace F = torch::nn::functional;
    x = F::max_pool2d(torch::relu(conv1->forward(x)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv2->forward(x)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv3->forward(x)), F::MaxPool2dFuncOptions(2));
    x = fc->forward(x.flatten(1));
    // FaceNet's unit hypersphere; the floor keeps a zero embedding finite.
    return x / x.norm(2, 1, true).clamp_min(1e-12);
}

torch::Tensor
D2dTripletLossOf(const torch::Tensor& anchors,
                 const torch::Tensor& positives,
                 const torch::Tensor& negatives,
                 double margin)
{
    auto dPos = (anchors - positives).pow(2).sum(1);
    auto dNeg = (anchors - negatives).pow(2).sum(1);
    return torch::relu(dPos - dNeg + margin).mean();
}

torch::Tensor
D2dRotateImages(const torch::Tensor& images, const torch::Tensor& degrees)
{
    namespace F = torch::nn::functional;
    const auto rad = degrees.to(torch::kDouble) * (M_PI / 180.0);
    auto c = torch::cos(rad).to(torch::kFloat);
    auto s = torch::sin(rad).to(torch::kFloat);
    auto z = torch::zeros_like(c);
    // affine_grid maps each output point (x, y) (normalised, y growing downwards) to the
    // input point it samples, (x cos - y sin, x sin + y cos): at +90 degrees out[r][c] =
    // in[c][W - 1 - r], the picture turned counter-clockwise.
    auto theta = torch::stack({torch::stack({c, -s, z}, 1), torch::stack({s, c, z}, 1)}, 1);
    auto grid = F::affine_grid(theta, images.sizes(), /*align_corners=*/false);
    return F::grid_sample(images,
                          grid,
                          F::GridSampleFuncOptions()
                              .mode(torch::kBilinear)
                              .padding_mode(torch::kZeros)
                              .align_corners(false));
}

torch::Tensor
D2dBlurImages(const torch::Tensor& images, const torch::Tensor& sigmas)
{
    namespace F = torch::nn::functional;
    const int64_t b = images.size(0);
    const int64_t ch = images.size(1);
    const int64_t r = D2dTripletEncoding::KernelRadius;
    const int64_t k = 2 * r + 1;
    auto offsets = torch::arange(-r, r + 1, torch::kDouble);
    auto d2 = (offsets.view({k, 1}).pow(2) + offsets.view({1, k}).pow(2)).view({1, k, k});
    auto sig = sigmas.to(torch::kDouble).view({b, 1, 1});
    auto kernel = torch::exp(-d2 / (2.0 * sig.clamp_min(1e-3).pow(2)));
    kernel = kernel / kernel.sum({1, 2}, true);
    // Below 1e-3 pixels: exactly the identity (a single 1 at the centre).
    auto delta = torch::zeros({1, k, k}, torch::kDouble);
    delta.index_put_({0, r, r}, 1.0);
    kernel = torch::where(sig < 1e-3, delta, kernel).to(torch::kFloat);
    // One group per image and channel: [1, B*C, H, W] convolved with [B*C, 1, k, k].
    auto weight = kernel.view({b, 1, 1, k, k}).expand({b, ch, 1, k, k}).reshape({b * ch, 1, k, k});
    auto x = images.reshape({1, b * ch, images.size(2), images.size(3)});
    auto y = F::conv2d(x, weight, F::Conv2dFuncOptions().padding(r).groups(b * ch));
    return y.view(images.sizes());
}

torch::Tensor
D2dAugmentImages(const torch::Tensor& images,
                 at::Generator& generator,
                 const D2dAugmentOptions& options)
{
    const int64_t b = images.size(0);
    auto u1 = torch::empty({b}, torch::kDouble).uniform_(0.0, 1.0, generator);
    auto u2 = torch::empty({b}, torch::kDouble).uniform_(0.0, 1.0, generator);
    auto out = images;
    if (options.maxRotationDeg > 0)
    {
        out = D2dRotateImages(out, (2.0 * u1 - 1.0) * options.maxRotationDeg);
    }
    if (options.maxBlurSigma > 0)
    {
        out = D2dBlurImages(out, u2 * options.maxBlurSigma);
    }
    return out;
}

D2dEvalResult
D2dLinearEvaluation(D2dTripletEncoder& encoder,
                    const torch::Tensor& train,
                    const torch::Tensor& trainLabels,
                    const torch::Tensor& test,
                    const torch::Tensor& testLabels,
                    int64_t classes)
{
    D2dEvalResult r;
    r.samples = static_cast<uint64_t>(test.size(0));
    if (train.size(0) == 0 || test.size(0) == 0 || classes < 1)
    {
        return r;
    }
    auto embed = [&encoder](const torch::Tensor& x) {
        torch::NoGradGuard noGrad;
        std::vector<torch::Tensor> parts;
        for (int64_t start = 0; start < x.size(0); start += 1000)
        {
            parts.push_back(encoder->forward(x.slice(0, start, std::min(x.size(0), start + 1000))));
        }
        return torch::cat(parts, 0);
    };
    encoder->eval();
    auto zTrain = embed(train);
    auto zTest = embed(test);
    encoder->train();
    // Standardised with the training embeddings' figures.
    auto mean = zTrain.mean(0, true);
    auto std = (zTrain - mean).pow(2).mean(0, true).sqrt().clamp_min(1e-6);
    zTrain = (zTrain - mean) / std;
    zTest = (zTest - mean) / std;
    // Softmax regression from zero weights, full-batch Adam.
    auto weight = torch::zeros({zTrain.size(1), classes}, torch::kFloat).requires_grad_(true);
    auto bias = torch::zeros({classes}, torch::kFloat).requires_grad_(true);
    torch::optim::Adam opt({weight, bias},
                           torch::optim::AdamOptions(D2dTripletEncoding::LinearEvalLearningRate));
    for (uint32_t epoch = 0; epoch < D2dTripletEncoding::LinearEvalEpochs; ++epoch)
    {
        opt.zero_grad();
        auto loss =
            torch::nn::functional::cross_entropy(torch::addmm(bias, zTrain, weight), trainLabels);
        loss.backward();
        opt.step();
    }
    torch::NoGradGuard noGrad;
    auto logits = torch::addmm(bias, zTest, weight);
    r.accuracy =
        logits.argmax(1).eq(testLabels).sum().item<double>() / static_cast<double>(test.size(0));
    r.loss = torch::nn::functional::cross_entropy(logits, testLabels).item<double>();
    return r;
}

} // namespace ns3
