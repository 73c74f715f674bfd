/*
 * d2dlearn benchmark: --model=torchscript:PATH against the built-in models and plain PyTorch.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand from the build folder (Release); prints its figures and one JSON line. What
 * --model=torchscript:PATH costs: three figures in one run, one LibTorch thread and one BLAS
 * thread throughout (a training job runs on one worker of D2dTorchRuntime's pool,
 * --threads=1):
 *
 * (a) The MLP 784-128-10 on Fashion-MNIST-shaped samples (1 x 28 x 28, 10 classes), built in
 *     (--model=mlp:128: Flatten, Linear(784, 128), ReLU, Linear(128, 10)) and as TorchScript
 *     (the same PyTorch module, scripted at bench time by a Python snippet with
 *     torch.jit.script): the steady-state SGD step at batch 32 through D2dLearner, i.e. a
 *     warm-up job, then jobs of --mlpSteps steps (D2dTrainTask::maxSteps) taking turns
 *     between the two models, --repeats times; the figure is the median per step, and the
 *     ratio TorchScript / built-in (target: at most 1.15).
 * (b) ResNet-20 (examples/models/resnet20.py, exported here) on batches of 32 of 3 x 32 x 32:
 *     one SGD step through D2dLearner (--model=torchscript:resnet20.pt; jobs of --resnetSteps
 *     steps after a warm-up job) against the same step in python3-torch (bench/torch-step.py
 *     on the same file, the same thread count and BLAS); ratio d2dlearn / python (target: at
 *     most 1.0). Where the time goes (--sides): the same step as a plain LibTorch loop over the
 *     loaded module in this process (no D2dLearner), in the main thread with TorchScript's
 *     graph executor unoptimised (as d2dlearn runs it) and optimised (Python's default), and
 *     unoptimised in the worker thread that runs the jobs, each taking turns with the jobs,
 *     with the minor page faults per step; and torch-step.py unoptimised (--no-optimize).
 * (c) Heap bytes per idle device for ResNet-20 at --devices (1,000 and 10,000): learners set
 *     up (the initial state not drawn yet), then holding their initial state (the file's, one
 *     vector shared by every device), then weights of their own (a vector each, as after a
 *     job), then released as a stateless FedAvg
 *     client between rounds (ReleaseParameters). The floor of a device holding its weights is
 *     its state, 4 bytes per value (parameters and BatchNorm buffers).
 *
 * Times: wall (steady clock) and the process's CPU time (only one thread works at a time);
 * the ratios are of the medians of the wall times (Python's torch-step.py times wall), with
 * the CPU ratios beside them (less sensitive to other work on the machine).
 */

#include "bench-timing.h"

#include "ns3/command-line.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <malloc.h>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>
// The parts of LibTorch used here, not <torch/torch.h>.
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/sgd.h>
#include <torch/script.h>

using namespace ns3;
using d2dbench::Median;

namespace
{

/** \return the heap bytes in use: small blocks (uordblks) and mmapped ones (hblkhd) */
double
HeapBytes()
{
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
}

/** \return what command printed on stdout (through /bin/sh); exits if it fails */
std::string
Run(const std::string& command)
{
    FILE* out = popen(command.c_str(), "r");
    if (!out)
    {
        std::fprintf(stderr, "bench-torchscript: cannot run '%s'\n", command.c_str());
        std::exit(1);
    }
    std::string text;
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), out))
    {
        text += buffer;
    }
    if (pclose(out) != 0)
    {
        std::fprintf(stderr, "bench-torchscript: '%s' failed\n", command.c_str());
        std::exit(1);
    }
    return text;
}

/** \return the number after "key": in a JSON line (torch-step.py's), or NaN */
double
JsonNumber(const std::string& json, const std::string& key)
{
    const auto at = json.find("\"" + key + "\":");
    return at == std::string::npos ? std::nan("")
                                   : std::strtod(json.c_str() + at + key.size() + 3, nullptr);
}

/** A synthetic classification set: n samples of shape, labels uniform in [0, classes). */
std::shared_ptr<D2dDataset>
RandomData(std::size_t n, const std::vector<int64_t>& shape, uint32_t classes)
{
    auto data = std::make_shared<D2dDataset>();
    data->name = "random";
    data->featureShape = shape;
    data->numClasses = classes;
    const std::size_t each = static_cast<std::size_t>(
        std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>()));
    auto x = torch::rand({static_cast<int64_t>(n * each)});
    data->features.assign(x.data_ptr<float>(), x.data_ptr<float>() + x.numel());
    auto y = torch::randint(classes, {static_cast<int64_t>(n)}, torch::kLong);
    data->labels.assign(y.data_ptr<int64_t>(), y.data_ptr<int64_t>() + n);
    return data;
}

/** \return a learner of spec on the first n samples of data (device 0, seed 1) */
Ptr<D2dLearner>
MakeLearner(const std::string& spec, std::shared_ptr<const D2dDataset> data, std::size_t n)
{
    D2dShard shard;
    for (std::size_t i = 0; i < n; ++i)
    {
        shard.indices.push_back(i);
    }
    auto learner = CreateObject<D2dLearner>();
    learner->SetAttribute("BatchSize", UintegerValue(32));
    learner->Setup(0, D2dModelSpec::Parse(spec), data, shard, 1);
    return learner;
}

/** Wall and CPU seconds per step of some jobs. */
struct Times
{
    std::vector<double> wall;
    std::vector<double> cpu;
};

/** \brief One training job of steps steps; adds its time per step to t. */
void
TimeJob(Ptr<D2dLearner> learner, uint64_t steps, Times* t)
{
    D2dTrainTask task;
    task.maxSteps = steps;
    const double w = d2dbench::WallSeconds();
    const double c = d2dbench::CpuSeconds();
    learner->Train(task, MakeNullCallback<void, const D2dTrainResult&>());
    Simulator::Run();
    if (t)
    {
        t->wall.push_back((d2dbench::WallSeconds() - w) / double(steps));
        t->cpu.push_back((d2dbench::CpuSeconds() - c) / double(steps));
    }
}

/**
 * \brief The same step as a plain LibTorch loop over a TorchScript module in this thread: the
 * gradients dropped (as D2dLearner does), forward, cross-entropy, backward, SGD step.
 * \param module the module (trained in place)
 * \param x a batch \param y its labels
 * \param optimize TorchScript's graph executor optimised (Python's default) or not
 * \param warmup steps not timed \param steps timed steps (each timed alone)
 * \return per-step wall and CPU seconds
 */
Times
PlainLoop(torch::jit::Module& module,
          const torch::Tensor& x,
          const torch::Tensor& y,
          bool optimize,
          int warmup,
          int steps)
{
    torch::jit::GraphOptimizerEnabledGuard guard(optimize);
    module.train();
    std::vector<torch::Tensor> params;
    for (const auto& p : module.parameters())
    {
        params.push_back(p);
    }
    torch::optim::SGD opt(params, torch::optim::SGDOptions(0.05));
    Times t;
    for (int i = 0; i < warmup + steps; ++i)
    {
        const double w = d2dbench::WallSeconds();
        const double c = d2dbench::CpuSeconds();
        for (auto& p : params)
        {
            p.mutable_grad() = torch::Tensor();
        }
        auto loss = torch::nn::functional::cross_entropy(module.forward({x}).toTensor(), y);
        loss.backward();
        opt.step();
        if (i >= warmup)
        {
            t.wall.push_back(d2dbench::WallSeconds() - w);
            t.cpu.push_back(d2dbench::CpuSeconds() - c);
        }
    }
    return t;
}

/** \brief Appends the times of b to a. */
void
Append(Times* a, const Times& b)
{
    a->wall.insert(a->wall.end(), b.wall.begin(), b.wall.end());
    a->cpu.insert(a->cpu.end(), b.cpu.begin(), b.cpu.end());
}

/** \return the process's minor page faults so far */
long
MinorFaults()
{
    struct rusage u = {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/** The figures, for the JSON line: name -> value. */
std::vector<std::pair<std::string, double>> g_json;

void
Put(const std::string& key, double value)
{
    g_json.emplace_back(key, value);
}

/** The run's settings (the command line). */
struct Settings
{
    std::string python{"/usr/bin/python3"};   //!< Debian's Python (python3-torch)
    std::string benchDir{D2DLEARN_BENCH_DIR}; //!< the repository's bench/
    uint64_t mlpSteps{1000};                  //!< (a) steps per MLP job
    uint64_t resnetSteps{8};                  //!< (b) steps per ResNet-20 job
    int repeats{7};                           //!< (a) MLP jobs per model (medians)
    int resnetRepeats{6}; //!< (b) ResNet-20 jobs, taking turns with the side measurements
    int pythonSteps{30};  //!< (b) torch-step.py's timed steps
    std::string devices{"1000,10000"}; //!< (c) device counts, comma-separated
    bool sides{true};                  //!< (b) the side measurements of where the time goes
    std::vector<uint32_t> counts;      //!< (c) the device counts, parsed
};

/** \return false (after a one-line error) if a setting is out of range \param s the settings,
 * counts filled from devices */
bool
Validate(Settings& s)
{
    if (s.mlpSteps < 10 || s.resnetSteps < 1 || s.repeats < 1 || s.resnetRepeats < 1 ||
        s.pythonSteps < 1)
    {
        std::fprintf(stderr,
                     "bench-torchscript: mlpSteps >= 10, resnetSteps, repeats, resnetRepeats "
                     "and pythonSteps >= 1\n");
        return false;
    }
    std::stringstream in(s.devices);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const long v = std::strtol(item.c_str(), nullptr, 10);
        if (v < 1 || v > 1000000)
        {
            std::fprintf(stderr,
                         "bench-torchscript: --devices: '%s' is not in [1, 1000000]\n",
                         item.c_str());
            return false;
        }
        s.counts.push_back(static_cast<uint32_t>(v));
    }
    return true;
}

/** \brief The built-in MLP's module, in PyTorch (the same layers in the same order), scripted
 * into mlpPath by Debian's Python. \param s the settings \param tmp the scratch directory
 * \param mlpPath the TorchScript file to write */
void
WriteMlp(const Settings& s, const std::string& tmp, const std::string& mlpPath)
{
    {
        std::ofstream py(tmp + "/mlp.py");
        py << "import sys\n"
              "from typing import List\n"
              "import torch\n"
              "from torch import nn\n"
              "class Mlp(nn.Module):\n"
              "    input_shape: List[int]\n"
              "    num_classes: int\n"
              "    def __init__(self):\n"
              "        super().__init__()\n"
              "        self.layers = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(),\n"
              "                                    nn.Linear(128, 10))\n"
              "        self.input_shape = [1, 28, 28]\n"
              "        self.num_classes = 10\n"
              "    def forward(self, x):\n"
              "        return self.layers(x)\n"
              "torch.manual_seed(0)\n"
              "torch.jit.script(Mlp()).save(sys.argv[1])\n";
    }
    Run(s.python + " " + tmp + "/mlp.py " + mlpPath);
}

/** \brief (a) The MLP, built in and as TorchScript. \param s the settings \param mlpPath the
 * scripted MLP */
void
MeasureMlp(const Settings& s, const std::string& mlpPath)
{
    const uint64_t mlpSteps = s.mlpSteps;
    const int repeats = s.repeats;
    auto data = RandomData(6400, {1, 28, 28}, 10);
    auto builtin = MakeLearner("mlp:128", data, 6400);
    auto script = MakeLearner("torchscript:" + mlpPath, data, 6400);
    TimeJob(builtin, 100, nullptr); // warm-up jobs
    TimeJob(script, 100, nullptr);
    Times tb;
    Times ts;
    for (int r = 0; r < repeats; ++r)
    {
        TimeJob(builtin, mlpSteps, &tb);
        TimeJob(script, mlpSteps, &ts);
    }
    const double wb = Median(tb.wall);
    const double ws = Median(ts.wall);
    const double cb = Median(tb.cpu);
    const double cs = Median(ts.cpu);
    std::printf("\n(a) MLP 784-128-10, batch 32 of 1 x 28 x 28, SGD, through D2dLearner: "
                "jobs of %llu steps after a warm-up job, %d each taking turns; medians per "
                "step\n",
                static_cast<unsigned long long>(mlpSteps),
                repeats);
    std::printf("  %-36s %10.2f us wall %10.2f us CPU\n", "built-in mlp:128", wb * 1e6, cb * 1e6);
    std::printf("  %-36s %10.2f us wall %10.2f us CPU\n",
                "torchscript (the same module)",
                ws * 1e6,
                cs * 1e6);
    std::printf("  torchscript / built-in      wall %.3f   CPU %.3f   (target <= 1.15: %s)\n",
                ws / wb,
                cs / cb,
                ws / wb <= 1.15 ? "met" : "missed");
    Put("mlp_builtin_us", wb * 1e6);
    Put("mlp_torchscript_us", ws * 1e6);
    Put("mlp_builtin_cpu_us", cb * 1e6);
    Put("mlp_torchscript_cpu_us", cs * 1e6);
    Put("mlp_ratio", ws / wb);
    Put("mlp_ratio_cpu", cs / cb);
    builtin->Dispose();
    script->Dispose();
}

/** \brief (b)'s side measurements: where the time of a ResNet-20 step goes.
 * \param plain the plain loop, main thread, unoptimised \param opt optimised \param onWorker
 * unoptimised in the worker thread \param pyNo torch-step.py's JSON, unoptimised
 * \param wd D2dLearner's wall s \param cd its CPU s \param wp torch-step.py's wall s
 * \param faultsLearner minor faults per step of D2dLearner's jobs \param faultsWorker of the
 * worker-thread loop \param faultsMain of the main-thread loop */
void
PrintSides(const Times& plain,
           const Times& opt,
           const Times& onWorker,
           const std::string& pyNo,
           double wd,
           double cd,
           double wp,
           double faultsLearner,
           double faultsWorker,
           double faultsMain)
{
    const double wl = Median(plain.wall);
    const double wo = Median(opt.wall);
    const double ww = Median(onWorker.wall);
    const double wn = JsonNumber(pyNo, "median_ms") * 1e-3;
    std::printf("  where the time goes (the same step, medians per step; minor page "
                "faults per step):\n");
    auto row = [](const char* what, double wall, double cpu, double faults) {
        std::printf("  %-52s %10.2f ms wall %10.2f ms CPU", what, wall * 1e3, cpu * 1e3);
        if (faults >= 0)
        {
            std::printf(" %8.1f faults", faults);
        }
        std::printf("\n");
    };
    row("plain LibTorch loop, main thread, unoptimised", wl, Median(plain.cpu), faultsMain);
    row("plain LibTorch loop, main thread, optimised", wo, Median(opt.cpu), -1);
    row("plain LibTorch loop, worker thread, unoptimised", ww, Median(onWorker.cpu), faultsWorker);
    row("D2dLearner job (worker thread, unoptimised)", wd, cd, faultsLearner);
    row("torch-step.py, unoptimised", wn, JsonNumber(pyNo, "cpu_median_ms") * 1e-3, -1);
    std::printf("  D2dLearner beyond the plain loop in its thread %+8.2f ms (%+.1f %%)\n",
                (wd - ww) * 1e3,
                100 * (wd - ww) / ww);
    std::printf("  worker thread beyond the main thread           %+8.2f ms (%+.1f %%)\n",
                (ww - wl) * 1e3,
                100 * (ww - wl) / wl);
    std::printf("  optimised executor beyond unoptimised (C++)    %+8.2f ms (%+.1f %%)\n",
                (wo - wl) * 1e3,
                100 * (wo - wl) / wl);
    std::printf("  optimised executor beyond unoptimised (Python) %+8.2f ms (%+.1f %%)\n",
                (wp - wn) * 1e3,
                100 * (wp - wn) / wn);
    std::printf("  Python beyond the plain loop                   %+8.2f ms (%+.1f %%) "
                "unoptimised, %+8.2f ms (%+.1f %%) optimised\n",
                (wn - wl) * 1e3,
                100 * (wn - wl) / wl,
                (wp - wo) * 1e3,
                100 * (wp - wo) / wo);
    Put("resnet_plain_ms", wl * 1e3);
    Put("resnet_plain_optimised_ms", wo * 1e3);
    Put("resnet_plain_worker_ms", ww * 1e3);
    Put("resnet_python_unoptimised_ms", wn * 1e3);
    Put("resnet_faults_learner", faultsLearner);
    Put("resnet_faults_worker", faultsWorker);
    Put("resnet_faults_main", faultsMain);
}

/**
 * \brief (b) ResNet-20: D2dLearner against torch-step.py, and where the time goes: the same
 * step as a plain LibTorch loop (no D2dLearner) in the main thread with the graph executor
 * unoptimised and optimised, and unoptimised in the worker thread that runs the jobs; all
 * measured in turns, so that other work on the machine slows none more than the others.
 * \param s the settings \param resnetPath the scripted ResNet-20 \param cifar its data */
void
MeasureResnet(const Settings& s,
              const std::string& resnetPath,
              const std::shared_ptr<D2dDataset>& cifar)
{
    const std::string& python = s.python;
    const std::string& benchDir = s.benchDir;
    const uint64_t resnetSteps = s.resnetSteps;
    const int resnetRepeats = s.resnetRepeats;
    const int pythonSteps = s.pythonSteps;
    const bool sides = s.sides;
    auto learner = MakeLearner("torchscript:" + resnetPath, cifar, 640);
    auto module = torch::jit::load(resnetPath);
    auto x = torch::rand({32, 3, 32, 32});
    auto y = torch::randint(10, {32}, torch::kLong);
    const int k = static_cast<int>(resnetSteps);
    TimeJob(learner, 3, nullptr); // warm-up
    PlainLoop(module, x, y, false, 2, 1);
    PlainLoop(module, x, y, true, 3, 1); // the optimised plan: profiled, then compiled
    Times td;
    Times plain;
    Times opt;
    Times onWorker;
    double faultsLearner = 0;
    double faultsWorker = 0;
    double faultsMain = 0;
    const std::string stepCmd = python + " " + benchDir + "/torch-step.py --model=" + resnetPath +
                                " --threads=1 --warmup=5 --steps=" + std::to_string(pythonSteps);
    std::string py;
    std::string pyNo;
    for (int r = 0; r < resnetRepeats; ++r)
    {
        if (r == resnetRepeats / 2)
        {
            py = Run(stepCmd);
            if (sides)
            {
                pyNo = Run(stepCmd + " --no-optimize");
            }
        }
        long f = MinorFaults();
        TimeJob(learner, resnetSteps, &td);
        faultsLearner += double(MinorFaults() - f) / k / resnetRepeats;
        if (!sides)
        {
            continue;
        }
        f = MinorFaults();
        Append(&plain, PlainLoop(module, x, y, false, 0, k));
        faultsMain += double(MinorFaults() - f) / k / resnetRepeats;
        Append(&opt, PlainLoop(module, x, y, true, 0, k));
        f = MinorFaults();
        D2dTorchRuntime::Submit([&] {
            Append(&onWorker, PlainLoop(module, x, y, false, 0, k));
        }).wait();
        faultsWorker += double(MinorFaults() - f) / k / resnetRepeats;
    }
    const double wd = Median(td.wall);
    const double cd = Median(td.cpu);
    const double wp = JsonNumber(py, "median_ms") * 1e-3;
    const double cp = JsonNumber(py, "cpu_median_ms") * 1e-3;
    std::printf("\n(b) ResNet-20, batch 32 of 3 x 32 x 32, SGD, 1 thread: %d jobs of %llu "
                "steps after a warm-up job, against torch-step.py (%d steps after 5, "
                "executor optimised: Python's default); medians per step\n",
                resnetRepeats,
                static_cast<unsigned long long>(resnetSteps),
                pythonSteps);
    std::printf("  %-52s %10.2f ms wall %10.2f ms CPU\n",
                "d2dlearn (D2dLearner)",
                wd * 1e3,
                cd * 1e3);
    std::printf("  %-52s %10.2f ms wall %10.2f ms CPU\n",
                "python3-torch (torch-step.py)",
                wp * 1e3,
                cp * 1e3);
    std::printf("  d2dlearn / python           wall %.3f   CPU %.3f   (target <= 1.0: %s)\n",
                wd / wp,
                cd / cp,
                wd / wp <= 1.0 ? "met" : "missed");
    Put("resnet_d2dlearn_ms", wd * 1e3);
    Put("resnet_python_ms", wp * 1e3);
    Put("resnet_d2dlearn_cpu_ms", cd * 1e3);
    Put("resnet_python_cpu_ms", cp * 1e3);
    Put("resnet_ratio", wd / wp);
    Put("resnet_ratio_cpu", cd / cp);
    if (sides)
    {
        PrintSides(plain, opt, onWorker, pyNo, wd, cd, wp, faultsLearner, faultsWorker, faultsMain);
    }
    learner->Dispose();
}

/** \brief (c) Idle devices holding ResNet-20: heap bytes per device. \param counts the device
 * counts \param resnetPath the scripted ResNet-20 \param cifar its data */
void
MeasureIdle(const std::vector<uint32_t>& counts,
            const std::string& resnetPath,
            const std::shared_ptr<D2dDataset>& cifar)
{
    // (c) Idle devices holding ResNet-20.
    std::printf("\n(c) ResNet-20 idle devices: heap bytes per device (glibc mallinfo2), each "
                "device a D2dLearner with 2 samples of a shared data set\n");
    for (uint32_t n : counts)
    {
        std::vector<Ptr<D2dLearner>> learners;
        learners.reserve(n);
        const double h0 = HeapBytes();
        for (uint32_t i = 0; i < n; ++i)
        {
            D2dShard shard;
            shard.indices = {(2 * i) % cifar->Size(), (2 * i + 1) % cifar->Size()};
            auto learner = CreateObject<D2dLearner>();
            learner->Setup(i, D2dModelSpec::Parse("torchscript:" + resnetPath), cifar, shard, 1);
            learners.push_back(learner);
        }
        const double h1 = HeapBytes();
        for (auto& l : learners)
        {
            l->GetSharedParameters(); // the initial state: the file's, one vector shared
        }
        const double h2 = HeapBytes();
        for (uint32_t i = 0; i < n; ++i)
        {
            // Weights of its own, as after a job or a received model: a vector each.
            auto own = learners[i]->GetParameters();
            own[0] += 1e-3F * static_cast<float>(i + 1);
            learners[i]->SetParameters(std::move(own));
        }
        const double hOwn = HeapBytes();
        const double peak = d2dbench::PeakRssMb();
        for (auto& l : learners)
        {
            l->ReleaseParameters();
        }
        const double h3 = HeapBytes();
        const double values = double(learners[0]->GetNParameters());
        const double floor = 4.0 * values;
        std::printf("  %u devices: state %.0f values (%.0f B); per device:\n", n, values, floor);
        std::printf("    %-44s %12.0f B\n", "set up (initial state not drawn yet)", (h1 - h0) / n);
        std::printf("    %-44s %12.0f B\n",
                    "holding its initial state (the file's, shared)",
                    (h2 - h0) / n);
        std::printf("    %-44s %12.0f B  (%.3f x the state)\n",
                    "holding weights of its own (as after a job)",
                    (hOwn - h0) / n,
                    (hOwn - h0) / n / floor);
        std::printf("    %-44s %12.0f B\n", "released (a stateless FedAvg client)", (h3 - h0) / n);
        std::printf("    beyond the weights: %.0f B at set-up (learner, shard, labels), "
                    "%.0f B kept after release, %.0f B the own weights' vector beyond its "
                    "%.0f B\n",
                    (h1 - h0) / n,
                    (h3 - h1) / n,
                    (hOwn - h3) / n - floor,
                    floor);
        std::printf("    peak RSS so far %.0f MB\n", peak);
        const std::string k = "devices_" + std::to_string(n) + "_";
        Put(k + "setup_bytes", (h1 - h0) / n);
        Put(k + "holding_bytes", (h2 - h0) / n);
        Put(k + "own_bytes", (hOwn - h0) / n);
        Put(k + "released_bytes", (h3 - h0) / n);
        Put(k + "state_bytes", floor);
        for (auto& l : learners)
        {
            l->Dispose();
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    CommandLine cmd(__FILE__);
    cmd.AddValue("python", "Debian's Python (python3-torch)", s.python);
    cmd.AddValue("benchDir",
                 "The repository's bench/ (torch-step.py, ../examples/models)",
                 s.benchDir);
    cmd.AddValue("mlpSteps", "(a) steps per MLP job", s.mlpSteps);
    cmd.AddValue("repeats", "(a) MLP jobs per model, taking turns (medians)", s.repeats);
    cmd.AddValue("resnetSteps", "(b) steps per ResNet-20 job", s.resnetSteps);
    cmd.AddValue("resnetRepeats", "(b) ResNet-20 jobs (medians)", s.resnetRepeats);
    cmd.AddValue("pythonSteps", "(b) torch-step.py's timed steps", s.pythonSteps);
    cmd.AddValue("devices", "(c) device counts, comma-separated", s.devices);
    cmd.AddValue("sides", "(b) the side measurements of where the time goes", s.sides);
    cmd.Parse(argc, argv);
    if (!Validate(s))
    {
        return 1;
    }
    setenv("OPENBLAS_NUM_THREADS", "1", 1); // for the Python children
    D2dTorchRuntime::SetWorkers(1);         // a job on one worker, as in a scenario
    D2dTorchRuntime::Seed(1);               // one LibTorch thread, one BLAS thread
    torch::manual_seed(1);

    char dir[] = "/tmp/d2dlearn-bench-torchscript.XXXXXX";
    if (!mkdtemp(dir))
    {
        std::perror("bench-torchscript: mkdtemp");
        return 1;
    }
    const std::string tmp = dir;
    const std::string mlpPath = tmp + "/mlp.pt";
    const std::string resnetPath = tmp + "/resnet20.pt";
    WriteMlp(s, tmp, mlpPath);
    Run(s.python + " " + s.benchDir + "/../examples/models/resnet20.py " + resnetPath +
        " >/dev/null");

    std::printf("bench-torchscript: BLAS %s (%s); CPU %s; 1 LibTorch thread, 1 BLAS thread, "
                "jobs on 1 worker\n",
                D2dTorchRuntime::GetBlasLibrary().c_str(),
                D2dTorchRuntime::GetBlasConfig().c_str(),
                D2dTorchRuntime::GetCpu().c_str());
    MeasureMlp(s, mlpPath);
    std::shared_ptr<D2dDataset> cifar = RandomData(640, {3, 32, 32}, 10);
    MeasureResnet(s, resnetPath, cifar);
    MeasureIdle(s.counts, resnetPath, cifar);

    std::printf("\n{\"bench\": \"torchscript\"");
    for (const auto& [key, value] : g_json)
    {
        std::printf(", \"%s\": %.10g", key.c_str(), value);
    }
    std::printf("}\n");
    D2dTorchRuntime::Shutdown();
    Simulator::Destroy();
    const std::string rm = "rm -rf " + tmp;
    if (std::system(rm.c_str()) != 0)
    {
        std::fprintf(stderr, "bench-torchscript: could not remove %s\n", tmp.c_str());
    }
    return 0;
}
