/*
 * d2dlearn benchmark: the fedavg scenario against a plain LibTorch loop.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand from the build folder's bin/ (it runs ./fedavg); prints its figures.
 *
 * 1. The same FedAvg training twice, in one run: (a) a plain LibTorch loop with no ns-3
 *    (per round, every device loads the global model, trains --localEpochs epochs over its
 *    IID shard of Fashion-MNIST with SGD at batch 32, the weights are averaged by sample
 *    count and the global model is evaluated on the test set; devices trained on --threads
 *    threads), and (b) the `fedavg` scenario with the same data, model, partition, epochs,
 *    rounds and --threads, which in addition simulates every model transfer over the D2S
 *    channel, the compute time and the energy, and writes the traces. Printed: both wall
 *    times and their ratio (target below 1.10).
 * 2. --scale: `fedavg --nDevices=1000 --rounds=1` (MLP, full training set): wall time and
 *    the child's peak resident memory.
 */

#include "ns3/command-line.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-partitioner.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <torch/torch.h>
#include <vector>

using namespace ns3;

namespace
{
double
Now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

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
    const double start = Now();
    auto train = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "train", fraction, 1);
    auto test = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "test", fraction, 2);
    auto shards = D2dPartitioner::Iid(*train, nDevices, 1);
    auto x = torch::from_blob(train->features.data(),
                              {static_cast<int64_t>(train->Size()), 1, 28, 28});
    auto y = torch::from_blob(train->labels.data(),
                              {static_cast<int64_t>(train->Size())},
                              torch::kLong);
    auto xt = torch::from_blob(test->features.data(),
                               {static_cast<int64_t>(test->Size()), 1, 28, 28});
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
    const double setUp = Now() - start;
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
    std::printf("  plain loop final accuracy %.4f (set-up %.2f s, rounds %.2f s)\n",
                accuracy,
                setUp,
                Now() - start - setUp);
    return Now() - start;
}

/** \return (wall seconds, child peak RSS in MB) of a command */
std::pair<double, double>
RunChild(const std::string& command)
{
    const double start = Now();
    const int status = std::system(command.c_str());
    const double wall = Now() - start;
    if (status != 0)
    {
        std::fprintf(stderr, "bench-fedavg: '%s' failed (%d)\n", command.c_str(), status);
        std::exit(1);
    }
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    return {wall, usage.ru_maxrss / 1024.0};
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 10;     // devices
    uint32_t rounds = 10;       // rounds
    uint32_t localEpochs = 1;   // local epochs per round
    int64_t hidden = 128;       // MLP hidden width
    double learningRate = 0.05; // SGD learning rate
    double dataFraction = 1.0;  // fraction of Fashion-MNIST
    uint32_t threads = 2;       // training threads in both
    bool scale = false;         // also the 1000-device round
    std::string fedavg = "./fedavg"; // the scenario binary
    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Devices", nDevices);
    cmd.AddValue("rounds", "Rounds", rounds);
    cmd.AddValue("localEpochs", "Local epochs", localEpochs);
    cmd.AddValue("hidden", "MLP hidden width", hidden);
    cmd.AddValue("learningRate", "Learning rate", learningRate);
    cmd.AddValue("dataFraction", "Fraction of Fashion-MNIST", dataFraction);
    cmd.AddValue("threads", "Training threads", threads);
    cmd.AddValue("scale", "Also run 1000 devices, one round", scale);
    cmd.AddValue("fedavg", "Path of the fedavg binary", fedavg);
    cmd.Parse(argc, argv);

    std::printf("FedAvg, %u devices, %u rounds x %u epochs, MLP 784-%ld-10, data fraction "
                "%.2f, %u threads\n",
                nDevices,
                rounds,
                localEpochs,
                static_cast<long>(hidden),
                dataFraction,
                threads);
    const double plain =
        PlainLoop(nDevices, rounds, localEpochs, hidden, learningRate, dataFraction, threads);
    const std::string common = fmt::format(
        "{} --nDevices={} --rounds={} --localEpochs={} --model=mlp:{} --learningRate={} "
        "--dataFraction={} --threads={} --partition=iid --quiet",
        fedavg,
        nDevices,
        rounds,
        localEpochs,
        hidden,
        learningRate,
        dataFraction,
        threads);
    const auto sim = RunChild(common + " --outDir=/tmp/bench-fedavg");
    std::printf("  plain LibTorch loop   %8.2f s wall\n", plain);
    std::printf("  fedavg scenario       %8.2f s wall (peak RSS %.0f MB)\n", sim.first, sim.second);
    std::printf("  ratio scenario/plain  %8.3f (target < 1.10)\n", sim.first / plain);
    if (scale)
    {
        const auto big = RunChild(fmt::format("{} --nDevices=1000 --rounds=1 --model=mlp "
                                              "--dataFraction=1 --threads={} --quiet "
                                              "--evaluateDevices=false "
                                              "--outDir=/tmp/bench-fedavg-1000",
                                              fedavg,
                                              threads));
        std::printf("1000 devices, MLP 784-128-10, one round: %.2f s wall, peak RSS %.0f MB "
                    "(max over the children so far)\n",
                    big.first,
                    big.second);
    }
    return 0;
}
