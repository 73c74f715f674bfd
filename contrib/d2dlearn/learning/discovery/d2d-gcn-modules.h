/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Internal header (includes LibTorch): the LibTorch modules behind D2dGcnLinkScorer. Only
 * d2d-gcn-link-scorer.cc and the GoogleTest of the layer include it; it is not published.
 */
#ifndef D2D_GCN_MODULES_H
#define D2D_GCN_MODULES_H

// The parts of LibTorch used here, not <torch/torch.h> (every LibTorch header: about 21 s
// of parsing per translation unit on the 2-core machine, twice what these take).
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The normalised adjacency of Kipf and Welling, "Semi-Supervised Classification with
 * Graph Convolutional Networks", 2017, eq. (2): A-hat = D^-1/2 (A + I) D^-1/2 with D the
 * degree matrix of A + I (row sums).
 * \param adjacency A, n x n, non-negative (symmetric for the paper's form)
 * \return A-hat, n x n, float64
 */
torch::Tensor D2dGcnNormalisedAdjacency(const std::vector<std::vector<double>>& adjacency);

/**
 * \ingroup d2dlearn
 * \brief One graph-convolution layer of Kipf and Welling 2017, eq. (2) without the
 * activation: H' = A-hat H W + b (W in x out, b out; the bias is added after the
 * propagation, as torch_geometric's GCNConv does).
 */
struct D2dGraphConvImpl : torch::nn::Module
{
    /**
     * \param in input features per node
     * \param out output features per node
     */
    D2dGraphConvImpl(int64_t in, int64_t out);
    /**
     * \param x node features, [n, in]
     * \param aHat the normalised adjacency, [n, n]
     * \return [n, out]
     */
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& aHat);

    torch::Tensor weight; //!< W, [in, out]
    torch::Tensor bias;   //!< b, [out]
};

TORCH_MODULE(D2dGraphConv);

/**
 * \ingroup d2dlearn
 * \brief The GCN link scorer of Wagle, Das, Love and Brinton 2025, App. C: an encoder of two
 * graph convolutions (64 and 16 outputs) and a decoder of two linear layers (16 and 1
 * outputs), ReLU between each layer. The decoder scores the directed link j -> i from the
 * concatenation [z_i, z_j] of the receiver's and the transmitter's embeddings (our choice:
 * the paper does not say how two nodes meet in the decoder; concatenation keeps the
 * direction).
 */
struct D2dGcnNetImpl : torch::nn::Module
{
    /** \param in node features */
    explicit D2dGcnNetImpl(int64_t in);
    /**
     * \param x node features, [n, in]
     * \param aHat normalised adjacency, [n, n]
     * \return scores (logits), [n, n]: [i][j] for j -> i (the diagonal is meaningless)
     */
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& aHat);
    /**
     * \brief Draw every weight and bias uniform in +-1/sqrt(fan_in) (PyTorch's Linear
     * default) from the generator, so a seed fixes the initial network.
     */
    void Initialize(at::Generator& generator);

    D2dGraphConv conv1{nullptr};     //!< in -> 64
    D2dGraphConv conv2{nullptr};     //!< 64 -> 16
    torch::nn::Linear dec1{nullptr}; //!< 32 -> 16
    torch::nn::Linear dec2{nullptr}; //!< 16 -> 1
};

TORCH_MODULE(D2dGcnNet);

} // namespace ns3

#endif /* D2D_GCN_MODULES_H */
