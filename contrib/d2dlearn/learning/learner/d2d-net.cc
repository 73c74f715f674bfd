/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-net.h"

#include "d2d-script-model.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/functional.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>

namespace ns3
{

namespace
{
/** D2dNetImpl instances alive: the learners' tests check that devices hold none. */
std::atomic<uint64_t> g_liveNets{0};
} // namespace

D2dNetImpl::~D2dNetImpl()
{
    --g_liveNets;
}

uint64_t
D2dNetImpl::GetLive()
{
    return g_liveNets.load();
}

D2dNetImpl::D2dNetImpl(const D2dModelSpec& spec,
                       const std::vector<int64_t>& inputShape,
                       int64_t outputs)
{
    int64_t inputSize = 1;
    for (auto d : inputShape)
    {
        inputSize *= d;
    }
    layers = torch::nn::Sequential();
    if (spec.arch == "linear" || spec.arch == "logistic")
    {
        layers->push_back(torch::nn::Flatten());
        layers->push_back(torch::nn::Linear(inputSize, outputs));
        forwardFlops = 2.0 * inputSize * outputs;
    }
    else if (spec.arch == "mlp")
    {
        layers->push_back(torch::nn::Flatten());
        int64_t in = inputSize;
        for (auto width : spec.hidden)
        {
            layers->push_back(torch::nn::Linear(in, width));
            layers->push_back(torch::nn::ReLU());
            forwardFlops += 2.0 * in * width;
            in = width;
        }
        layers->push_back(torch::nn::Linear(in, outputs));
        forwardFlops += 2.0 * in * outputs;
    }
    else if (spec.arch == "poly")
    {
        // p(x) = sum_e c_e x^e: the powers 1, x, ..., x^d of a scalar input, then the
        // coefficients c_0..c_d as one linear layer without bias (its weight, in order, is
        // what GetParameters() returns). Trained in closed form (D2dLearner, "poly").
        spec.CountParameters(inputShape, outputs); // throws unless scalar regression
        const int64_t degree = spec.hidden.empty() ? 4 : spec.hidden[0];
        layers->push_back(torch::nn::Functional([degree](torch::Tensor x) {
            auto v = x.reshape({-1, 1});
            return torch::pow(v, torch::arange(degree + 1, v.options()));
        }));
        layers->push_back(torch::nn::Linear(torch::nn::LinearOptions(degree + 1, 1).bias(false)));
        forwardFlops = 2.0 * static_cast<double>(degree + 1) + static_cast<double>(degree);
    }
    else if (spec.arch == "cnn")
    {
        spec.CountParameters(inputShape, outputs); // throws on samples that are not images
                                                   // of at least 4 x 4 pixels
        const int64_t c1 = spec.hidden.size() > 0 ? spec.hidden[0] : 16;
        const int64_t c2 = spec.hidden.size() > 1 ? spec.hidden[1] : 32;
        int64_t c = inputShape[0];
        int64_t h = inputShape[1];
        int64_t w = inputShape[2];
        // conv 5x5 "same" -> ReLU -> 2x2 max-pool, twice; then a linear classifier.
        for (int64_t out : {c1, c2})
        {
            layers->push_back(
                torch::nn::Conv2d(torch::nn::Conv2dOptions(c, out, /*kernel=*/5).padding(2)));
            layers->push_back(torch::nn::ReLU());
            layers->push_back(torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)));
            forwardFlops += 2.0 * c * 25 * out * h * w;
            c = out;
            h /= 2;
            w /= 2;
        }
        layers->push_back(torch::nn::Flatten());
        layers->push_back(torch::nn::Linear(c * h * w, outputs));
        forwardFlops += 2.0 * c * h * w * outputs;
    }
    else if (spec.arch == "torchscript")
    {
        // The file's module, checked on these samples (its FLOPs counted), copied for this
        // thread; its parameters and floating-point buffers registered here under names
        // without dots ("conv1.weight" -> "conv1_weight", prefixed by their position).
        const auto model = D2dScriptModel::Load(spec.path);
        const auto fit = model->CheckData(inputShape, outputs);
        forwardFlops = fit.forwardFlops;
        drawsRandom = fit.drawsRandom;
        script = std::make_shared<torch::jit::Module>(model->Instantiate());
        auto safe = [](std::size_t i, std::string name) {
            std::replace(name.begin(), name.end(), '.', '_');
            return "s" + std::to_string(i) + "_" + name;
        };
        std::size_t i = 0;
        for (const auto& p : script->named_parameters(/*recurse=*/true))
        {
            register_parameter(safe(i++, p.name), p.value, p.value.requires_grad());
            initialState.push_back(p.value.detach().clone());
        }
        for (const auto& b : script->named_buffers(/*recurse=*/true))
        {
            if (b.value.is_floating_point())
            {
                register_buffer(safe(i++, b.name), b.value);
                initialState.push_back(b.value.detach().clone());
            }
        }
    }
    else if (spec.arch == "triplet")
    {
        spec.CountParameters(inputShape, outputs); // throws on samples that are not images
                                                   // of at least 8 x 8 pixels, or regression
        encoder = D2dTripletEncoder(inputShape);
        layers->push_back(encoder);
        forwardFlops = encoder->forwardFlops;
    }
    else
    {
        throw std::invalid_argument("model: unknown architecture '" + spec.arch + "'");
    }
    register_module("layers", layers);
    ++g_liveNets; // last: a constructor that throws never runs the destructor
}

torch::Tensor
D2dNetImpl::forward(torch::Tensor x)
{
    if (script)
    {
        // Unoptimised in every thread: LibTorch's switch is thread_local, so what
        // D2dScriptModel::Load set in the loading thread is not what a worker thread reads
        // (there the optimising executor would profile, then recompile at a call count that
        // every thread's copy shares, i.e. at a job that depends on threads). Held off for
        // this call only, and the thread's switch restored.
        torch::jit::GraphOptimizerEnabledGuard unoptimised(false);
        return script->forward({x}).toTensor();
    }
    return layers->forward(x);
}

void
D2dNetImpl::train(bool on)
{
    torch::nn::Module::train(on);
    if (script)
    {
        script->train(on);
    }
}

void
D2dNetImpl::Initialize(at::Generator& generator)
{
    torch::NoGradGuard noGrad;
    if (script)
    {
        InitializeFromFile(); // the generator is not drawn from
        return;
    }
    // Every layer, nested ones (the triplet encoder's) included, in registration order.
    for (auto& module : layers->modules(/*include_self=*/false))
    {
        torch::Tensor weight;
        torch::Tensor bias;
        if (auto linear = module->as<torch::nn::Linear>())
        {
            weight = linear->weight;
            bias = linear->bias;
        }
        else if (auto conv = module->as<torch::nn::Conv2d>())
        {
            weight = conv->weight;
            bias = conv->bias;
        }
        else
        {
            continue;
        }
        // fan_in = inputs per output (x kernel area for convolutions).
        const double fanIn = static_cast<double>(weight.numel() / weight.size(0));
        const double bound = 1.0 / std::sqrt(fanIn);
        weight.uniform_(-bound, bound, generator);
        if (bias.defined())
        {
            bias.uniform_(-bound, bound, generator);
        }
    }
}

void
D2dNetImpl::InitializeFromFile()
{
    // The file's weights are every device's initial weights.
    torch::NoGradGuard noGrad;
    std::size_t i = 0;
    for (auto& p : parameters())
    {
        p.copy_(initialState[i++]);
    }
    for (auto& b : buffers())
    {
        b.copy_(initialState[i++]);
    }
}

} // namespace ns3
