/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-script-model.h"

#include "d2d-flop-counter.h"
#include "d2d-job-watchdog.h"

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-input-file.h"
#include "ns3/d2d-text.h"

#include <ATen/CPUGeneratorImpl.h>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <torch/csrc/jit/runtime/graph_executor.h>

namespace ns3
{

D2dScriptModel::D2dScriptModel(std::string path, torch::jit::Module module)
    : m_path(std::move(path)),
      m_module(std::move(module))
{
}

std::shared_ptr<const D2dScriptModel>
D2dScriptModel::Load(const std::string& path)
{
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const D2dScriptModel>> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto& model = loaded[path];
    if (model)
    {
        return model;
    }
    const std::string name = "model: torchscript:" + path + ": ";
    try
    {
        // Before opening it: a FIFO would block, a device never end.
        D2dInputFile::Check(path,
                            "model: torchscript:" + path,
                            "a module saved by torch.jit.script(model).save(PATH)");
    }
    catch (const std::invalid_argument&)
    {
        loaded.erase(path);
        throw;
    }
    torch::jit::Module module;
    try
    {
        module = torch::jit::load(path);
    }
    catch (const std::exception& e)
    {
        loaded.erase(path);
        throw std::invalid_argument(name + "not a TorchScript archive (" +
                                    D2dText::FirstLine(e.what()) +
                                    "; accepted: torch.jit.script(model).save(PATH))");
    }
    if (!module.find_method("forward"))
    {
        loaded.erase(path);
        throw std::invalid_argument(name + "the module has no forward method");
    }
    if (module.parameters().size() == 0)
    {
        loaded.erase(path);
        throw std::invalid_argument(name + "the module has no parameters to train (frozen by "
                                           "torch.jit.freeze? save torch.jit.script(model) "
                                           "unfrozen)");
    }
    bool trainable = false;
    for (const auto& p : module.parameters(true))
    {
        trainable = trainable || p.requires_grad();
    }
    if (!trainable)
    {
        loaded.erase(path);
        throw std::invalid_argument(name + "no parameter of the module requires a gradient "
                                           "(accepted: a module with trainable parameters, "
                                           "nn.Parameter's default)");
    }
    for (const auto& p : module.named_parameters(true))
    {
        if (p.value.scalar_type() != torch::kFloat)
        {
            loaded.erase(path);
            throw std::invalid_argument(
                name + fmt::format("parameter {} is {} (accepted: float32 parameters; "
                                   "model.float() before saving)",
                                   p.name,
                                   std::string(c10::toString(p.value.scalar_type()))));
        }
    }
    for (const auto& b : module.named_buffers(true))
    {
        if (b.value.is_floating_point() && b.value.scalar_type() != torch::kFloat)
        {
            loaded.erase(path);
            throw std::invalid_argument(
                name + fmt::format("buffer {} is {} (accepted: float32 "
                                   "buffers; model.float() before "
                                   "saving)",
                                   b.name,
                                   std::string(c10::toString(b.value.scalar_type()))));
        }
    }
    model = std::shared_ptr<const D2dScriptModel>(new D2dScriptModel(path, std::move(module)));
    return model;
}

std::mutex&
D2dScriptModel::GlobalGeneratorMutex()
{
    static std::mutex mutex;
    return mutex;
}

const std::string&
D2dScriptModel::GetPath() const
{
    return m_path;
}

torch::jit::Module
D2dScriptModel::Instantiate() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    // Copied without autograd (a copy made with it would be a non-leaf result of a clone,
    // which no optimizer takes), then each parameter trainable as in the file.
    torch::jit::Module copy;
    {
        torch::NoGradGuard noGrad;
        copy = m_module.deepcopy();
    }
    const auto original = m_module.parameters(/*recurse=*/true);
    auto from = original.begin();
    for (auto p : copy.parameters(/*recurse=*/true))
    {
        p.set_requires_grad((*from).requires_grad());
        ++from;
    }
    return copy;
}

std::optional<std::vector<int64_t>>
D2dScriptModel::GetDeclaredInput() const
{
    if (!m_module.hasattr("input_shape"))
    {
        return std::nullopt;
    }
    const auto value = m_module.attr("input_shape");
    if (!value.isIntList())
    {
        return std::nullopt;
    }
    return value.toIntVector();
}

std::optional<int64_t>
D2dScriptModel::GetDeclaredClasses() const
{
    if (!m_module.hasattr("num_classes"))
    {
        return std::nullopt;
    }
    const auto value = m_module.attr("num_classes");
    return value.isInt() ? std::optional<int64_t>(value.toInt()) : std::nullopt;
}

D2dScriptModel::Fit
D2dScriptModel::CheckData(const std::vector<int64_t>& inputShape, int64_t outputs) const
{
    std::string key = std::to_string(outputs);
    for (auto d : inputShape)
    {
        key += "/" + std::to_string(d);
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_fits.find(key);
        if (it != m_fits.end())
        {
            return it->second;
        }
    }
    const auto declaredInput = GetDeclaredInput();
    const auto declaredClasses = GetDeclaredClasses();
    // "expects samples of 3 x 32 x 32 and 10 classes", from what the module declares.
    std::string expects;
    if (declaredInput)
    {
        expects = "samples of " + D2dDataset::ShapeText(*declaredInput);
    }
    if (declaredClasses)
    {
        expects += (expects.empty() ? "" : " and ") + std::to_string(*declaredClasses) + " classes";
    }
    const std::string data = fmt::format("the data's samples are {} with {} {}",
                                         D2dDataset::ShapeText(inputShape),
                                         outputs,
                                         outputs == 1 ? "output" : "classes");
    const std::string name = "model: torchscript:" + m_path + ": ";
    if ((declaredInput && *declaredInput != inputShape) ||
        (declaredClasses && *declaredClasses != outputs))
    {
        throw std::invalid_argument(name + "the model expects " + expects + "; " + data);
    }
    auto module = Instantiate();
    // The user's forward may never return: the check has a budget (BASE_SECONDS by default,
    // its FLOPs being what it measures).
    const D2dJobWatchdog::Guard guard("--model=torchscript:" + m_path +
                                          ": the load-time check (forwards of one and two "
                                          "samples)",
                                      D2dJobWatchdog::GetBudgetSeconds(0),
                                      D2dJobWatchdog::DescribeBudget(0));
    // Unoptimised in this thread too (the switch is thread_local: CheckData may run in a
    // worker thread that did not load the module); restored on return.
    torch::jit::GraphOptimizerEnabledGuard unoptimised(false);
    Fit fit;
    for (const auto& p : module.parameters(true))
    {
        fit.parameters += static_cast<double>(p.numel());
    }
    for (const auto& b : module.buffers(true))
    {
        if (b.is_floating_point())
        {
            fit.floatBuffers += static_cast<double>(b.numel());
        }
        else
        {
            ++fit.otherBuffers;
        }
    }
    std::vector<int64_t> batch{1};
    batch.insert(batch.end(), inputShape.begin(), inputShape.end());
    torch::Tensor out;
    {
        torch::NoGradGuard noGrad;
        module.eval();
        D2dFlopCounter counter;
        try
        {
            auto result = module.forward({torch::zeros(batch, torch::kFloat)});
            if (!result.isTensor())
            {
                throw std::invalid_argument(name + "forward returns no tensor (accepted: "
                                                   "logits [B, classes])");
            }
            out = result.toTensor();
        }
        catch (const std::invalid_argument&)
        {
            throw;
        }
        catch (const std::exception& e)
        {
            throw std::invalid_argument(name + "forward fails on the data's samples of " +
                                        D2dDataset::ShapeText(inputShape) + " (" +
                                        D2dText::ErrorLine(e.what()) + ")");
        }
        fit.forwardFlops = 2.0 * counter.GetMultiplyAdds();
        for (const auto& [op, macs] : counter.GetByOperator())
        {
            fit.flopsByOperator[op] = 2.0 * macs;
        }
    }
    if (out.dim() == 2 && out.size(0) == 1 && out.size(1) == outputs)
    {
        // Does the training-mode forward draw random numbers? Two forwards of the same batch
        // (two samples, so that batch statistics exist) after two seeds of the global
        // generator: dropout gives different outputs. This copy is thrown away after.
        torch::NoGradGuard noGrad;
        std::lock_guard<std::mutex> lock(GlobalGeneratorMutex());
        module.train();
        batch[0] = 2;
        const auto x = torch::ones(batch, torch::kFloat);
        auto global = at::detail::getDefaultCPUGenerator();
        try
        {
            global.set_current_seed(1);
            const auto first = module.forward({x}).toTensor().clone();
            global.set_current_seed(2);
            const auto second = module.forward({x}).toTensor();
            fit.drawsRandom = !torch::equal(first, second);
        }
        catch (const std::exception& e)
        {
            // One sample passed, two do not: a forward written for one batch size.
            throw std::invalid_argument(
                name + "forward fails on a batch of 2 samples of " +
                D2dDataset::ShapeText(inputShape) + " (" + D2dText::ErrorLine(e.what()) +
                "; accepted: a forward that takes batches of any size, as --batchSize and the "
                "evaluation give them)");
        }
    }
    if (out.dim() != 2 || out.size(0) != 1 || out.size(1) != outputs)
    {
        throw std::invalid_argument(
            name + fmt::format("forward gives {} for one sample; {} (accepted: [1, {}]){}",
                               "[" + D2dDataset::ShapeText(out.sizes().vec()) + "]",
                               data,
                               outputs,
                               expects.empty() ? "" : "; the model declares " + expects));
    }
    if (out.scalar_type() != torch::kFloat)
    {
        throw std::invalid_argument(name + "forward gives " +
                                    std::string(c10::toString(out.scalar_type())) +
                                    " (accepted: float32 logits)");
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_fits[key] = fit;
    return fit;
}

} // namespace ns3
