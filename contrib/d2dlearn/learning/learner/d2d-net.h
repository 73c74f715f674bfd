/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Internal header (includes LibTorch): the LibTorch modules behind D2dLearner. Only the
 * learning library's sources include it.
 */
#ifndef D2D_NET_H
#define D2D_NET_H

#include "d2d-learner.h"
#include "d2d-triplet-encoder.h"

// The parts of LibTorch used here, not <torch/torch.h> (every LibTorch header: about 21 s
// of parsing per translation unit on the 2-core machine, twice what these take).
#include <memory>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>
#include <vector>

namespace torch::jit
{
struct Module;
} // namespace torch::jit

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A device's network, built from a D2dModelSpec: every layer is registered in one
 * Sequential ("layers"); for "triplet" that Sequential holds one D2dTripletEncoder (its
 * forward gives the embeddings). For "torchscript" the network is a deep copy of the
 * loaded module (D2dScriptModel): its parameters are registered as this module's
 * parameters and its floating-point buffers as its buffers (the same tensors), so that
 * parameters(), buffers(), the optimizers and the learner's flat state see them as those
 * of a built-in model; forward and train() go to the TorchScript module.
 */
struct D2dNetImpl : torch::nn::Module
{
    /**
     * \param spec architecture
     * \param inputShape shape of one sample (e.g. {1, 28, 28} or {d})
     * \param outputs number of outputs (classes, or 1 for regression)
     */
    D2dNetImpl(const D2dModelSpec& spec, const std::vector<int64_t>& inputShape, int64_t outputs);
    ~D2dNetImpl() override;

    /** \return the D2dNetImpl instances alive in this process (all threads) */
    static uint64_t GetLive();

    /**
     * \param x a batch, [B, inputShape...]
     * \return logits (classification) or predictions (regression), [B, outputs]
     */
    torch::Tensor forward(torch::Tensor x);

    /**
     * \brief Draw initial weights with a device's own generator, as PyTorch's default
     * initialisation does (weights and biases uniform in +-1/sqrt(fan_in)).
     * \param generator the device's generator
     */
    void Initialize(at::Generator& generator);

    /** \brief torchscript: restore the file's state (parameters and buffers); no draw. */
    void InitializeFromFile();

    /**
     * \brief Training or evaluation mode, for this module and, for "torchscript", the
     * TorchScript module (BatchNorm and dropout read it).
     * \param on true: training mode
     */
    void train(bool on = true) override;

    torch::nn::Sequential layers{nullptr}; //!< the layers, in order
    D2dTripletEncoder encoder{nullptr};    //!< triplet: the encoder (also in layers)
    double forwardFlops{0};                //!< 2 x multiply-adds of one sample's forward pass
    /** torchscript: this thread's copy of the module (null for the built-in models) */
    std::shared_ptr<torch::jit::Module> script;
    /** torchscript: the file's state (parameters, then floating-point buffers), which
     *  Initialize() restores: every device starts from the weights in the file */
    std::vector<torch::Tensor> initialState;
    /** torchscript: its training-mode forward draws from LibTorch's global generator
     *  (dropout; D2dScriptModel::Fit::drawsRandom) */
    bool drawsRandom{false};
};

TORCH_MODULE(D2dNet);

/**
 * \param data a data set
 * \return its features as a tensor [N, shape...] sharing its memory: a D2dNet's inputs
 */
inline torch::Tensor
D2dFeaturesOf(const D2dDataset& data)
{
    std::vector<int64_t> shape{static_cast<int64_t>(data.Size())};
    shape.insert(shape.end(), data.featureShape.begin(), data.featureShape.end());
    return torch::from_blob(const_cast<float*>(data.features.data()), shape, torch::kFloat);
}

} // namespace ns3

#endif /* D2D_NET_H */
