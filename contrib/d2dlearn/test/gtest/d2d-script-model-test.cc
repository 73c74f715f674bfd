/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * `--model=torchscript:PATH` below the learner: the FLOP counter (D2dFlopCounter) against
 * hand-computed multiply-adds and against the built-in models' own formula (the two must
 * agree), and the loaded module (D2dScriptModel): its state, its checks of the data's shape,
 * and the one-line errors for files that are not usable modules. The modules are made here
 * in C++ (torch::jit::Module::define, TorchScript source) and saved to a temporary file, so
 * the cases need no Python; the Python-defined path is tests/cli/torchscript.sh's.
 */
#include "../../learning/learner/d2d-flop-counter.h"
#include "../../learning/learner/d2d-job-watchdog.h"
#include "../../learning/learner/d2d-net.h"
#include "../../learning/learner/d2d-script-model.h"

#include "ns3/d2d-text.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <unistd.h>

namespace
{
using ns3::D2dFlopCounter;
using ns3::D2dModelSpec;
using ns3::D2dNet;
using ns3::D2dScriptModel;

/** \return a fresh temporary path ending in name */
std::string
TempPath(const std::string& name)
{
    char dir[] = "/tmp/d2d-script-XXXXXX";
    const char* made = mkdtemp(dir);
    return std::string(made ? made : "/tmp") + "/" + name;
}

/**
 * \return a TorchScript module: conv 3x3 (C -> 4 channels, padding 1, H x W) -> BatchNorm ->
 * ReLU -> 2x2 max-pool -> linear to `classes`; its state: conv weight 4*C*9 + bias 4, BN
 * weight/bias 4+4, linear (4*(H/2)*(W/2)) x classes + classes; buffers: BN running mean and
 * variance (4 + 4) and num_batches_tracked (an integer). Saved at the path returned.
 */
std::string
SaveSmallCnn(int64_t c, int64_t h, int64_t w, int64_t classes)
{
    torch::manual_seed(1);
    torch::jit::Module m("SmallCnn");
    m.register_attribute("training", c10::BoolType::get(), true); // train()/eval() set it
    // Trainable, as nn.Parameter's are (requires_grad is saved with each tensor).
    auto param = [](torch::Tensor t) {
        return t.set_requires_grad(true);
    };
    m.register_parameter("conv_w", param(torch::randn({4, c, 3, 3}) * 0.1), false);
    m.register_parameter("conv_b", param(torch::zeros({4})), false);
    m.register_parameter("bn_w", param(torch::ones({4})), false);
    m.register_parameter("bn_b", param(torch::zeros({4})), false);
    m.register_buffer("bn_mean", torch::zeros({4}));
    m.register_buffer("bn_var", torch::ones({4}));
    m.register_buffer("bn_count", torch::zeros({}, torch::kLong));
    m.register_parameter("fc_w",
                         param(torch::randn({classes, 4 * (h / 2) * (w / 2)}) * 0.01),
                         false);
    m.register_parameter("fc_b", param(torch::zeros({classes})), false);
    m.register_attribute("input_shape", c10::ListType::ofInts(), c10::List<int64_t>({c, h, w}));
    m.register_attribute("num_classes", c10::IntType::get(), classes);
    m.define(R"(
def forward(self, x):
    y = torch.conv2d(x, self.conv_w, self.conv_b, [1, 1], [1, 1])
    y = torch.batch_norm(y, self.bn_w, self.bn_b, self.bn_mean, self.bn_var, self.training,
                         0.1, 1e-5, False)
    y = torch.max_pool2d(torch.relu(y), [2, 2])
    return torch.linear(torch.flatten(y, 1), self.fc_w, self.fc_b)
)");
    const auto path = TempPath("small-cnn.pt");
    m.save(path);
    return path;
}

/** \return the multiply-adds of SaveSmallCnn's forward on one sample, by hand */
double
SmallCnnMacs(int64_t c, int64_t h, int64_t w, int64_t classes)
{
    const double conv = 4.0 * h * w * (c * 9.0);           // outputs x (C x 3 x 3)
    const double fc = classes * (4.0 * (h / 2) * (w / 2)); // outputs x inputs
    return conv + fc;
}

TEST(D2dFlopCounter, CountsConvolutionsLinearLayersAndProducts)
{
    torch::NoGradGuard noGrad;
    D2dFlopCounter counter;
    auto x = torch::zeros({2, 3, 8, 8});
    auto conv = torch::conv2d(x, torch::zeros({5, 3, 3, 3}), {}, 1, 1);    // [2,5,8,8]: 640 x 27
    auto lin = torch::linear(torch::zeros({2, 7}), torch::zeros({4, 7}));  // 8 outputs x 7
    auto prod = torch::matmul(torch::zeros({6, 5}), torch::zeros({5, 2})); // 12 outputs x 5
    auto grouped = torch::conv2d(x, torch::zeros({6, 1, 3, 3}), {}, 1, 1, 1, 3); // 768 x 9
    EXPECT_DOUBLE_EQ(counter.GetMultiplyAdds(), 640.0 * 27 + 8 * 7 + 12 * 5 + 768.0 * 9);
    torch::relu(conv); // not counted
    EXPECT_DOUBLE_EQ(counter.GetMultiplyAdds(), 640.0 * 27 + 8 * 7 + 12 * 5 + 768.0 * 9);
}

TEST(D2dFlopCounter, AgreesWithTheBuiltInModelsFormula)
{
    // The built-in mlp and cnn count their forward FLOPs by formula (D2dNetImpl); counted
    // from the operators they run, the number must be the same.
    for (const char* text : {"mlp", "mlp:64x32", "cnn", "cnn:8x16", "logistic"})
    {
        const auto spec = D2dModelSpec::Parse(text);
        D2dNet net(spec, std::vector<int64_t>{1, 28, 28}, int64_t{10});
        torch::NoGradGuard noGrad;
        D2dFlopCounter counter;
        net->forward(torch::zeros({1, 1, 28, 28}));
        EXPECT_DOUBLE_EQ(2.0 * counter.GetMultiplyAdds(), net->forwardFlops) << text;
    }
}

TEST(D2dScriptModel, StateChecksAndCountedFlops)
{
    const auto path = SaveSmallCnn(3, 32, 32, 10);
    const auto model = D2dScriptModel::Load(path);
    const auto fit = model->CheckData({3, 32, 32}, 10);
    EXPECT_DOUBLE_EQ(fit.parameters, 4 * 3 * 9 + 4 + 4 + 4 + 10 * (4 * 16 * 16) + 10);
    EXPECT_DOUBLE_EQ(fit.floatBuffers, 8);
    EXPECT_EQ(fit.otherBuffers, 1U);
    EXPECT_DOUBLE_EQ(fit.forwardFlops, 2.0 * SmallCnnMacs(3, 32, 32, 10));
    EXPECT_FALSE(fit.drawsRandom); // BatchNorm is deterministic
    // The spec counts the state: parameters and floating-point buffers.
    const auto spec = D2dModelSpec::Parse("torchscript:" + path);
    EXPECT_EQ(spec.path, path);
    EXPECT_EQ(spec.ToString(), "torchscript:" + path);
    EXPECT_DOUBLE_EQ(spec.CountParameters({3, 32, 32}, 10), fit.parameters + fit.floatBuffers);
    // The network a learner trains: the module's parameters and buffers, registered.
    D2dNet net(spec, std::vector<int64_t>{3, 32, 32}, int64_t{10});
    EXPECT_EQ(net->parameters().size(), 6U);
    EXPECT_EQ(net->buffers().size(), 2U);
    EXPECT_DOUBLE_EQ(net->forwardFlops, fit.forwardFlops);
    for (const auto& p : net->parameters())
    {
        EXPECT_TRUE(p.requires_grad());
        EXPECT_TRUE(p.is_leaf());
    }
    // Train mode updates the running statistics in the registered buffers; eval does not.
    net->train();
    auto out = net->forward(torch::randn({4, 3, 32, 32}));
    EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{4, 10}));
    EXPECT_GT(net->buffers()[0].abs().sum().item<double>(), 0.0);
    const auto before = net->buffers()[0].clone();
    net->eval();
    net->forward(torch::randn({4, 3, 32, 32}));
    EXPECT_TRUE(torch::equal(before, net->buffers()[0]));
    // Initialize restores the file's state, whatever the generator.
    auto generator = at::make_generator<at::CPUGeneratorImpl>(7);
    net->Initialize(generator);
    EXPECT_DOUBLE_EQ(net->buffers()[0].abs().sum().item<double>(), 0.0);
}

TEST(D2dScriptModel, FindsADropoutForward)
{
    // Dropout draws from LibTorch's global generator (the learner then runs its jobs one at
    // a time, seeded from the device's generator).
    torch::jit::Module m("WithDropout");
    m.register_attribute("training", c10::BoolType::get(), true);
    m.register_parameter("w", torch::ones({10, 784}).set_requires_grad(true), false);
    m.define("def forward(self, x):\n"
             "    return torch.dropout(torch.linear(torch.flatten(x, 1), self.w), 0.5, "
             "self.training)\n");
    const auto path = TempPath("dropout.pt");
    m.save(path);
    EXPECT_TRUE(D2dScriptModel::Load(path)->CheckData({1, 28, 28}, 10).drawsRandom);
}

/** \return true if graph, or a block nested in it, has a node of kind */
bool
HasNode(const torch::jit::Block* block, c10::Symbol kind)
{
    for (const auto* node : block->nodes())
    {
        if (node->kind() == kind)
        {
            return true;
        }
        for (const auto* inner : node->blocks())
        {
            if (HasNode(inner, kind))
            {
                return true;
            }
        }
    }
    return false;
}

TEST(D2dScriptModel, RunsUnoptimisedInEveryThread)
{
    // TorchScript's optimisation switch is per thread (thread_local in LibTorch, on by
    // default): in a thread other than the one that loaded the module (a worker of
    // D2dTorchRuntime), the optimising executor would first run a profiling plan (prim::profile
    // nodes), then a plan compiled from the profiles at a call count shared by every thread's
    // copy, i.e. by whichever device's job comes first. The module's forward must run the
    // unoptimised plan in any thread, and leave the thread's switch as it was.
    const auto path = SaveSmallCnn(3, 8, 8, 10);
    const auto spec = D2dModelSpec::Parse("torchscript:" + path);
    D2dNet(spec, std::vector<int64_t>{3, 8, 8}, int64_t{10}); // loaded in this thread
    bool profiled = true;
    bool switchAfter = false;
    std::thread worker([&] {
        ASSERT_TRUE(torch::jit::getGraphExecutorOptimize()); // a fresh thread's default
        D2dNet net(spec, std::vector<int64_t>{3, 8, 8}, int64_t{10});
        net->train();
        for (int i = 0; i < 3; ++i)
        {
            net->forward(torch::randn({4, 3, 8, 8})).sum().backward();
            const auto graph = torch::jit::lastExecutedOptimizedGraph();
            ASSERT_TRUE(graph);
            profiled = HasNode(graph->block(), c10::Symbol::fromQualString("prim::profile"));
            if (profiled)
            {
                break;
            }
        }
        switchAfter = torch::jit::getGraphExecutorOptimize();
    });
    worker.join();
    EXPECT_FALSE(profiled);
    EXPECT_TRUE(switchAfter);
}

TEST(D2dScriptModel, RefusesDataOfAnotherShapeInOneLine)
{
    const auto path = SaveSmallCnn(3, 32, 32, 10);
    const auto model = D2dScriptModel::Load(path);
    try
    {
        model->CheckData({1, 28, 28}, 10);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what,
                  "model: torchscript:" + path +
                      ": the model expects samples of 3 x 32 x 32 and 10 classes; the data's "
                      "samples are 1 x 28 x 28 with 10 classes");
    }
    EXPECT_THROW(model->CheckData({3, 32, 32}, 62), std::invalid_argument);
}

TEST(D2dScriptModel, RefusesUnusableFilesInOneLine)
{
    const auto missing = TempPath("missing.pt");
    try
    {
        D2dScriptModel::Load(missing);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "model: torchscript:" + missing + ": no such file or folder");
    }
    const auto garbage = TempPath("garbage.pt");
    std::ofstream(garbage) << "not a zip archive\n";
    try
    {
        D2dScriptModel::Load(garbage);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("model: torchscript:" + garbage + ": not a TorchScript archive (", 0),
                  0U)
            << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    // A module without parameters (what torch.jit.freeze leaves).
    torch::jit::Module frozen("Frozen");
    frozen.define("def forward(self, x):\n    return x\n");
    const auto frozenPath = TempPath("frozen.pt");
    frozen.save(frozenPath);
    EXPECT_THROW(D2dScriptModel::Load(frozenPath), std::invalid_argument);
    // A module none of whose parameters is trainable.
    torch::jit::Module fixed("Fixed");
    fixed.register_parameter("w", torch::zeros({10, 784}), false);
    fixed.define("def forward(self, x):\n    return torch.linear(torch.flatten(x, 1), self.w)\n");
    const auto fixedPath = TempPath("fixed.pt");
    fixed.save(fixedPath);
    EXPECT_THROW(D2dScriptModel::Load(fixedPath), std::invalid_argument);
    // A module without the declared shapes whose forward fails names the data's shape.
    torch::jit::Module plain("Plain");
    plain.register_parameter("w", torch::zeros({10, 784}).set_requires_grad(true), false);
    plain.define("def forward(self, x):\n    return torch.linear(torch.flatten(x, 1), self.w)\n");
    const auto plainPath = TempPath("plain.pt");
    plain.save(plainPath);
    try
    {
        D2dScriptModel::Load(plainPath)->CheckData({3, 32, 32}, 10);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("model: torchscript:" + plainPath +
                                 ": forward fails on the data's samples of 3 x 32 x 32 (",
                             0),
                  0U)
            << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_DOUBLE_EQ(D2dScriptModel::Load(plainPath)->CheckData({1, 28, 28}, 10).forwardFlops,
                     2.0 * 10 * 784);
}

} // namespace

// D2dJobWatchdog: a job within its budget passes; one past it ends the process in one line
// naming the job and the budget, exit status 2 (a death test: run in a child process).
TEST(D2dJobWatchdog, EndsTheProcessForAJobPastItsBudget)
{
    ns3::D2dJobWatchdog::SetLimitSeconds(0);
    EXPECT_DOUBLE_EQ(ns3::D2dJobWatchdog::GetBudgetSeconds(2e9),
                     ns3::D2dJobWatchdog::BASE_SECONDS + 2e9 / 1e8); // 5 s + 20 s
    EXPECT_EQ(ns3::D2dJobWatchdog::DescribeBudget(2e9),
              "the default: 5 s + 2e+09 FLOPs at 1e+08 FLOP/s");
    ns3::D2dJobWatchdog::SetLimitSeconds(0.25);
    EXPECT_DOUBLE_EQ(ns3::D2dJobWatchdog::GetBudgetSeconds(2e9), 0.25);
    EXPECT_EQ(ns3::D2dJobWatchdog::DescribeBudget(2e9), "--jobWallLimit=0.25s");
    {
        // Done within budget: nothing happens, also after the budget would have passed.
        const ns3::D2dJobWatchdog::Guard quick("a quick job", 0.25, "test");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            const ns3::D2dJobWatchdog::Guard slow("--model=torchscript:m.pt: a training job",
                                                  0.2,
                                                  "--jobWallLimit=0.2s");
            std::this_thread::sleep_for(std::chrono::seconds(30)); // a forward that hangs
        },
        ::testing::ExitedWithCode(2),
        "error: --model=torchscript:m.pt: a training job ran longer than its wall-time budget "
        "of 0.2 s \\(--jobWallLimit=0.2s\\)");
    ns3::D2dJobWatchdog::SetLimitSeconds(0);
}

// An error a torchscript module raises is said in its own words (the interpreter's trace is
// many lines); any other text keeps its first line.
TEST(D2dScriptModel, ErrorLineIsTheModulesOwnMessage)
{
    const std::string raised = "The following operation failed in the TorchScript interpreter.\n"
                               "Traceback of TorchScript, serialized code (most recent call "
                               "last):\n  File \"code/__torch__.py\", line 12, in forward\n"
                               "    _0 = uninitialized(Tensor)\n    ops.prim.RaiseException(\"my "
                               "model: x\", \"builtins.RuntimeError\")\n\n"
                               "builtins.RuntimeError: my model: x\n";
    EXPECT_EQ(ns3::D2dText::ErrorLine(raised), "builtins.RuntimeError: my model: x");
    EXPECT_EQ(ns3::D2dText::ErrorLine("shape '[2, 3]' is invalid\nException raised from ..."),
              "shape '[2, 3]' is invalid");
    EXPECT_EQ(ns3::D2dText::ErrorLine(""), "");
}
