/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-triplet-encoding.h"

#include "d2d-triplet-encoder.h"

#include <ATen/CPUGeneratorImpl.h>
#include <stdexcept>

namespace ns3
{

namespace
{
/** \return images as a tensor of shape (a copy) \throws std::invalid_argument on a mismatch */
torch::Tensor
ImagesOf(const std::vector<float>& images, const std::vector<int64_t>& shape)
{
    if (shape.size() != 4 ||
        static_cast<int64_t>(images.size()) != shape[0] * shape[1] * shape[2] * shape[3])
    {
        throw std::invalid_argument("images: the values do not fill the shape [B, C, H, W]");
    }
    return torch::from_blob(const_cast<float*>(images.data()), shape, torch::kFloat).clone();
}

/** \return a tensor's values, row-major */
std::vector<float>
ValuesOf(const torch::Tensor& t)
{
    auto c = t.contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

/** \return B per-image values as a tensor \throws std::invalid_argument unless B of them */
torch::Tensor
PerImage(const std::vector<double>& values, const std::vector<int64_t>& shape)
{
    if (static_cast<int64_t>(values.size()) != shape[0])
    {
        throw std::invalid_argument("images: one value per image expected");
    }
    return torch::tensor(values, torch::kDouble);
}
} // namespace

double
D2dTripletEncoding::Loss(const std::vector<float>& anchors,
                         const std::vector<float>& positives,
                         const std::vector<float>& negatives,
                         uint32_t dim,
                         double margin)
{
    if (dim == 0 || anchors.size() % dim != 0 || positives.size() != anchors.size() ||
        negatives.size() != anchors.size() || anchors.empty())
    {
        throw std::invalid_argument("triplet loss: anchors, positives and negatives must be "
                                    "B x dim each, B >= 1");
    }
    const int64_t b = static_cast<int64_t>(anchors.size() / dim);
    auto view = [b, dim](const std::vector<float>& v) {
        return torch::from_blob(const_cast<float*>(v.data()),
                                {b, static_cast<int64_t>(dim)},
                                torch::kFloat);
    };
    return D2dTripletLossOf(view(anchors), view(positives), view(negatives), margin).item<double>();
}

std::vector<float>
D2dTripletEncoding::Rotate(const std::vector<float>& images,
                           const std::vector<int64_t>& shape,
                           const std::vector<double>& degrees)
{
    torch::NoGradGuard noGrad;
    auto x = ImagesOf(images, shape);
    return ValuesOf(D2dRotateImages(x, PerImage(degrees, shape)));
}

std::vector<float>
D2dTripletEncoding::Blur(const std::vector<float>& images,
                         const std::vector<int64_t>& shape,
                         const std::vector<double>& sigmas)
{
    torch::NoGradGuard noGrad;
    auto x = ImagesOf(images, shape);
    return ValuesOf(D2dBlurImages(x, PerImage(sigmas, shape)));
}

std::vector<float>
D2dTripletEncoding::Augment(const std::vector<float>& images,
                            const std::vector<int64_t>& shape,
                            uint64_t seed,
                            const D2dAugmentOptions& options)
{
    torch::NoGradGuard noGrad;
    auto x = ImagesOf(images, shape);
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    return ValuesOf(D2dAugmentImages(x, generator, options));
}

} // namespace ns3
