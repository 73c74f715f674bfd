/*
 * d2dlearn benchmark: the fedavg scenario against a plain LibTorch loop.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand from the build folder's bin/ (it runs ./fedavg); prints its figures.
 *
 * 1. The same FedAvg training three ways, each a process of its own timed from start to exit
 *    (library loading and data reading included), interleaved over --repeats repetitions in
 *    rotating order so that the machine's changing load hits all alike:
 *    (a) a plain LibTorch loop with no ns-3 (this program with --child=plain: per round,
 *        every device loads the global model, trains --localEpochs epochs over its IID shard
 *        of Fashion-MNIST with SGD at batch 32, the weights are averaged by sample count and
 *        the global model is evaluated on the test set; devices trained on --threads
 *        threads),
 *    (b) a plain PyTorch loop doing the same in Python with Debian's python3-torch (the same
 *        LibTorch build and libblas.so.3; bench-fedavg-pytorch.py), one device after the
 *        other on one thread, as a plain loop is written,
 *    (c) the `fedavg` scenario with the same data, model, partition, epochs, rounds and
 *        --threads, which in addition simulates every model transfer over the D2S channel,
 *        the compute time and the energy, and writes the traces.
 *    Printed: median wall and CPU seconds of each, the BLAS each loaded, and the ratios
 *    fedavg / PyTorch (issue target <= 0.6) and fedavg / LibTorch (target <= 1.05).
 * 2. --scale: `fedavg --nDevices=1000 --rounds=1` (MLP, full training set): wall time and
 *    the child's peak resident memory.
 */

#include "bench-timing.h"

#include "ns3/command-line.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-torch-runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
// The parts of LibTorch used here, not <torch/torch.h> (about 21 s of parsing).
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <vector>

using namespace ns3;
using d2dbench::Median;
using d2dbench::WallSeconds;

namespace
{
/** The MLP of the scenario's --model=mlp:H. */
torch::nn::Sequential
MakeNet(int64_t hidden)
{
    return torch::nn::Sequential(torch::nn::Flatten(),
                                 torch::nn::Linear(784, hidden),
                                 torch::nn::ReLU(),
                                 torch::nn::Linear(hidden, 10));
}

/** \return wall seconds of the plain loop; prints its final accuracy */
double
PlainLoop(uint32_t nDevices,
          uint32_t rounds,
          uint32_t epochs,
          int64_t hidden,
          double lr,
          double fraction,
          uint32_t threads)
{
    const double start = WallSeconds();
    auto train = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "train", fraction, 1);
    auto test = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "test", fraction, 2);
    auto shards = D2dPartitioner::Iid(*train, nDevices, 1);
    auto x =
        torch::from_blob(train->features.data(), {static_cast<int64_t>(train->Size()), 1, 28, 28});
    auto y =
        torch::from_blob(train->labels.data(), {static_cast<int64_t>(train->Size())}, torch::kLong);
    auto xt =
        torch::from_blob(test->features.data(), {static_cast<int64_t>(test->Size()), 1, 28, 28});
    auto yt =
        torch::from_blob(test->labels.data(), {static_cast<int64_t>(test->Size())}, torch::kLong);
    std::vector<torch::nn::Sequential> nets;
    std::vector<torch::Tensor> idx;
    std::vector<at::Generator> gens;
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        nets.push_back(MakeNet(hidden));
        std::vector<int64_t> v(shards[i].indices.begin(), shards[i].indices.end());
        idx.push_back(torch::tensor(v, torch::kLong));
        gens.push_back(at::make_generator<at::CPUGeneratorImpl>(i + 1));
    }
    auto flat = [](torch::nn::Sequential& n) {
        std::vector<torch::Tensor> ps;
        for (auto& p : n->parameters())
        {
            ps.push_back(p.detach().reshape(-1));
        }
        return torch::cat(ps);
    };
    auto load = [](torch::nn::Sequential& n, const torch::Tensor& w) {
        torch::NoGradGuard g;
        int64_t o = 0;
        for (auto& p : n->parameters())
        {
            p.copy_(w.slice(0, o, o + p.numel()).view(p.sizes()));
            o += p.numel();
        }
    };
    torch::Tensor global = flat(nets[0]).clone();
    const double setUp = WallSeconds() - start;
    double accuracy = 0;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        std::vector<torch::Tensor> trained(nDevices);
        auto work = [&](uint32_t first) {
            at::set_num_threads(1);
            for (uint32_t i = first; i < nDevices; i += std::max(threads, 1u))
            {
                auto& net = nets[i];
                load(net, global);
                torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(lr));
                const int64_t n = idx[i].size(0);
                for (uint32_t e = 0; e < epochs; ++e)
                {
                    auto perm = torch::randperm(n, gens[i], torch::kLong);
                    for (int64_t s = 0; s < n; s += 32)
                    {
                        auto o = perm.slice(0, s, std::min(n, s + 32));
                        auto sel = idx[i].index_select(0, o);
                        opt.zero_grad();
                        auto loss = torch::nn::functional::cross_entropy(
                            net->forward(x.index_select(0, sel)),
                            y.index_select(0, sel));
                        loss.backward();
                        opt.step();
                    }
                }
                trained[i] = flat(net);
            }
        };
        std::vector<std::thread> pool;
        for (uint32_t t = 1; t < threads; ++t)
        {
            pool.emplace_back(work, t);
        }
        work(0);
        for (auto& t : pool)
        {
            t.join();
        }
        global.zero_();
        for (uint32_t i = 0; i < nDevices; ++i)
        {
            global += trained[i] * (static_cast<double>(idx[i].size(0)) / train->Size());
        }
        torch::NoGradGuard g;
        load(nets[0], global);
        auto out = nets[0]->forward(xt);
        accuracy = out.argmax(1).eq(yt).to(torch::kDouble).mean().item<double>();
    }
    std::printf("libtorch setup=%.4f rounds=%.4f accuracy=%.4f ",
                setUp,
                WallSeconds() - start - setUp,
                accuracy);
    return WallSeconds() - start;
}

/** Wall and CPU seconds and peak RSS of a child, and its output. */
struct ChildCost
{
    double wall{0};
    double cpu{0};
    double rssMb{0};
    std::string output;
};

/** \return the cost of running command (through /bin/sh); exits if it fails */
ChildCost
RunChild(const std::string& command)
{
    ChildCost c;
    const double start = WallSeconds();
    FILE* out = popen(command.c_str(), "r");
    if (!out)
    {
        std::fprintf(stderr, "bench-fedavg: cannot run '%s'\n", command.c_str());
        std::exit(1);
    }
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), out))
    {
        c.output += buffer;
    }
    const int status = pclose(out);
    c.wall = WallSeconds() - start;
    if (status != 0)
    {
        std::fprintf(stderr, "bench-fedavg: '%s' failed (%d)\n", command.c_str(), status);
        std::exit(1);
    }
    return c;
}

/** \return the CPU seconds all waited-for children used so far, and their peak RSS (MB) */
std::pair<double, double>
ChildrenUsage()
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return {u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec +
                u.ru_stime.tv_usec * 1e-6,
            u.ru_maxrss / 1024.0};
}

/** \return the last global accuracy in a rounds.csv ("?" if none) */
std::string
FinalAccuracy(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::string last = "?";
    while (std::getline(in, line))
    {
        if (line.find(",-1,accuracy,") != std::string::npos)
        {
            last = line.substr(line.rfind(',') + 1);
        }
    }
    return last;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 10;          // devices
    uint32_t rounds = 5;             // rounds
    uint32_t localEpochs = 1;        // local epochs per round
    int64_t hidden = 128;            // MLP hidden width
    double learningRate = 0.05;      // SGD learning rate
    double dataFraction = 0.2;       // fraction of Fashion-MNIST
    uint32_t threads = 2;            // training threads of the LibTorch loop and the scenario
    uint32_t repeats = 3;            // interleaved repetitions
    bool scale = false;              // also the 1000-device round
    std::string child;               // internal: "plain" runs the plain LibTorch loop and exits
    std::string fedavg = "./fedavg"; // the scenario binary
    std::string python = "/usr/bin/python3";
    std::string script = D2DLEARN_BENCH_DIR "/bench-fedavg-pytorch.py";
    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Devices", nDevices);
    cmd.AddValue("rounds", "Rounds", rounds);
    cmd.AddValue("localEpochs", "Local epochs", localEpochs);
    cmd.AddValue("hidden", "MLP hidden width", hidden);
    cmd.AddValue("learningRate", "Learning rate", learningRate);
    cmd.AddValue("dataFraction", "Fraction of Fashion-MNIST", dataFraction);
    cmd.AddValue("threads", "Training threads (LibTorch loop and scenario)", threads);
    cmd.AddValue("repeats", "Interleaved repetitions of the three", repeats);
    cmd.AddValue("scale", "Also run 1000 devices, one round", scale);
    cmd.AddValue("fedavg", "Path of the fedavg binary", fedavg);
    cmd.AddValue("python", "Python interpreter with Debian's python3-torch", python);
    cmd.AddValue("script", "Path of bench-fedavg-pytorch.py", script);
    cmd.AddValue("child", "Internal: 'plain' runs only the plain LibTorch loop", child);
    cmd.Parse(argc, argv);
    if (nDevices < 1 || rounds < 1 || threads < 1 || repeats < 1)
    {
        std::fprintf(stderr, "bench-fedavg: nDevices, rounds, threads and repeats must be >= 1\n");
        return 1;
    }
    if (child == "plain")
    {
        D2dTorchRuntime::Seed(1); // one LibTorch and one BLAS thread per worker
        const double wall =
            PlainLoop(nDevices, rounds, localEpochs, hidden, learningRate, dataFraction, threads);
        std::printf("total=%.4f blas=%s\n", wall, D2dTorchRuntime::GetBlasLibrary().c_str());
        return 0;
    }

    std::printf("FedAvg, %u devices, %u rounds x %u epochs, MLP 784-%ld-10, data fraction "
                "%.2f; LibTorch loop and fedavg on %u threads, PyTorch loop on 1\n",
                nDevices,
                rounds,
                localEpochs,
                static_cast<long>(hidden),
                dataFraction,
                threads);
    const std::string self =
        fmt::format("{} --child=plain --nDevices={} --rounds={} --localEpochs={} --hidden={} "
                    "--learningRate={} --dataFraction={} --threads={}",
                    argv[0],
                    nDevices,
                    rounds,
                    localEpochs,
                    hidden,
                    learningRate,
                    dataFraction,
                    threads);
    const std::string py = fmt::format(
        "{} {} --nDevices={} --rounds={} --localEpochs={} --hidden={} --learningRate={} "
        "--dataFraction={}",
        python,
        script,
        nDevices,
        rounds,
        localEpochs,
        hidden,
        learningRate,
        dataFraction);
    const std::string sim = fmt::format(
        "{} --nDevices={} --rounds={} --localEpochs={} --model=mlp:{} --learningRate={} "
        "--dataFraction={} --threads={} --partition=iid --quiet --outDir=/tmp/bench-fedavg",
        fedavg,
        nDevices,
        rounds,
        localEpochs,
        hidden,
        learningRate,
        dataFraction,
        threads);
    const std::vector<std::string> names = {"plain LibTorch loop",
                                            "plain PyTorch loop",
                                            "fedavg scenario"};
    const std::vector<std::string> commands = {self, py, sim};
    std::vector<std::vector<double>> wall(3);
    std::vector<std::vector<double>> cpu(3);
    std::vector<std::string> outputs(3);
    double peak = 0;
    for (uint32_t r = 0; r < repeats; ++r)
    {
        for (std::size_t k = 0; k < 3; ++k)
        {
            const std::size_t i = (k + r) % 3;
            const double cpuBefore = ChildrenUsage().first;
            const auto c = RunChild(commands[i]);
            const auto [cpuAfter, rss] = ChildrenUsage();
            wall[i].push_back(c.wall);
            cpu[i].push_back(cpuAfter - cpuBefore);
            outputs[i] = c.output;
            if (i == 2)
            {
                peak = rss; // max over the children so far
            }
        }
    }
    std::printf("  %-22s %9s %9s\n",
                ("median of " + std::to_string(repeats)).c_str(),
                "wall s",
                "CPU s");
    for (std::size_t i = 0; i < 3; ++i)
    {
        std::printf("  %-22s %9.2f %9.2f\n", names[i].c_str(), Median(wall[i]), Median(cpu[i]));
    }
    std::printf("  last runs (seconds):\n    %s    %s", outputs[0].c_str(), outputs[1].c_str());
    std::printf("    fedavg final accuracy (rounds.csv) %s\n",
                FinalAccuracy("/tmp/bench-fedavg/rounds.csv").c_str());
    std::printf("  (peak RSS of the children so far %.0f MB)\n", peak);
    std::printf("  fedavg / PyTorch loop   wall %.3f (target <= 0.6)   CPU %.3f\n",
                Median(wall[2]) / Median(wall[1]),
                Median(cpu[2]) / Median(cpu[1]));
    std::printf("  fedavg / LibTorch loop  wall %.3f (target <= 1.05)  CPU %.3f\n",
                Median(wall[2]) / Median(wall[0]),
                Median(cpu[2]) / Median(cpu[0]));
    if (scale)
    {
        const auto big = RunChild(fmt::format("{} --nDevices=1000 --rounds=1 --model=mlp "
                                              "--dataFraction=1 --threads={} --quiet "
                                              "--outDir=/tmp/bench-fedavg-1000",
                                              fedavg,
                                              threads));
        std::printf("1000 devices, MLP 784-128-10, one round: %.2f s wall, peak RSS %.0f MB "
                    "(max over the children so far)\n",
                    big.wall,
                    ChildrenUsage().second);
    }
    return 0;
}
