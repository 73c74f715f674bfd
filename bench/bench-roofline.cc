/*
 * d2dlearn benchmark: training throughput against the sgemm roofline.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand from the build folder (Release); prints its figures. One thread throughout
 * (LibTorch and the BLAS), as a training job runs on one worker.
 *
 * The roofline of a training step of the MLP 784-H-10 at batch B is the time of its matrix
 * products alone, each run by the BLAS that LibTorch calls (sgemm_, found in this process)
 * with the same shapes and transpositions as LibTorch's Linear and its backward:
 *   forward   h = x W1^T (B x 784 by 784 x H), o = h W2^T (B x H by H x 10)
 *   backward  dW2 = do^T h (10 x B by B x H), dh = do W2 (B x 10 by 10 x H),
 *             dW1 = dh^T x (H x B by B x 784)   (no dx: the input needs no gradient)
 * The roofline throughput is B / (sum of their times) samples/s. The program then measures
 * what LibTorch achieves, adding one part at a time, so that the differences say where the
 * time goes:
 *   1. the five products through LibTorch (at::mm: dispatch and tensor overhead over BLAS)
 *   2. forward only (no autograd), with the gather of the batch (index_select)
 *   3. a: forward with autograd recording + loss; b: + backward
 *   4. the full step: + zero_grad and SGD's update (a plain LibTorch loop)
 *   5. a D2dLearner training job on the same data (the path every scenario uses, on a worker
 *      thread of D2dTorchRuntime's pool)
 * and prints each as microseconds per step and as a fraction of the roofline, and the BLAS's
 * peak on a 1024 x 1024 x 1024 product for reference.
 *
 * Times are the process's CPU time (CLOCK_PROCESS_CPUTIME_ID: one thread works at a time, the
 * main thread, or for row 5 one worker of the pool while the main thread waits), medians over
 * --repeats repetitions in which all the measurements take turns, so that other jobs on the machine
 * inflate none of them more than the others (they still slow all of them through shared caches and,
 * on a hyper-threaded core, the sibling thread).
 */

#include "bench-timing.h"

#include "ns3/command-line.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <dlfcn.h>
#include <functional>
#include <memory>
#include <string>
#include <sys/resource.h>
// The parts of LibTorch used here, not <torch/torch.h> (about 21 s of parsing).
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <torch/utils.h>
#include <vector>

using namespace ns3;
using d2dbench::Median;

namespace
{
/** \return the process's CPU time, seconds */
double
Now()
{
    struct timespec t = {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/** A measurement: calls of f per repetition, and the seconds per call of each repetition. */
struct Measure
{
    std::string name;
    std::function<void()> f;
    int calls;
    double divide{1}; //!< steps per call
    std::vector<double> seconds;
    double faults{0}; //!< minor page faults per step (fresh memory touched), all repetitions
};

/** \return the process's minor page faults so far */
long
MinorFaults()
{
    struct rusage u = {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/** \brief Runs the measurements in turns, repeats times (after one warm-up call each). */
void
RunInTurns(std::vector<Measure>& ms, int repeats)
{
    for (auto& m : ms)
    {
        m.f();
    }
    for (int r = 0; r < repeats; ++r)
    {
        for (auto& m : ms)
        {
            const long faults = MinorFaults();
            const double start = Now();
            for (int i = 0; i < m.calls; ++i)
            {
                m.f();
            }
            m.seconds.push_back((Now() - start) / m.calls / m.divide);
            m.faults += double(MinorFaults() - faults) / m.calls / m.divide / repeats;
        }
    }
}

/** Fortran sgemm_, as LibTorch calls it. */
using Sgemm = void (*)(const char*,
                       const char*,
                       const int*,
                       const int*,
                       const int*,
                       const float*,
                       const float*,
                       const int*,
                       const float*,
                       const int*,
                       const float*,
                       float*,
                       const int*);

/**
 * \brief One row-major product C[m x n] = op(A) op(B) with op(A) m x k, op(B) k x n, as the
 * column-major call C^T = op(B)^T op(A)^T.
 */
struct Product
{
    const char* name;
    int m;
    int n;
    int k;
    bool transA; //!< A is stored k x m
    bool transB; //!< B is stored n x k
};

/** \return a call of the BLAS product p on buffers it owns */
std::function<void()>
SgemmCall(Sgemm sgemm, const Product& p)
{
    auto a = std::make_shared<std::vector<float>>(std::size_t(p.m) * p.k, 0.01f);
    auto b = std::make_shared<std::vector<float>>(std::size_t(p.k) * p.n, 0.02f);
    auto c = std::make_shared<std::vector<float>>(std::size_t(p.m) * p.n);
    // Column-major: C^T (n x m) = op(B)^T (n x k) op(A)^T (k x m).
    return [=] {
        const float one = 1.0f;
        const float zero = 0.0f;
        const char tb = p.transB ? 'T' : 'N';
        const char ta = p.transA ? 'T' : 'N';
        const int ldb = p.transB ? p.k : p.n;
        const int lda = p.transA ? p.m : p.k;
        sgemm(&tb,
              &ta,
              &p.n,
              &p.m,
              &p.k,
              &one,
              b->data(),
              &ldb,
              a->data(),
              &lda,
              &zero,
              c->data(),
              &p.n);
    };
}

/**
 * \brief The figures: the large product's rate, the MLP step's products and their roofline,
 * LibTorch's rows against it, and where a D2dLearner step's time goes (each part as the
 * difference of two rows).
 * \param ms the measures, in RunInTurns' order: the large product, the products, then the
 * LibTorch rows from firstTorch
 * \param products the MLP step's products \param firstTorch the first LibTorch row
 * \param repeats the repetitions (medians) \param B the batch \param H the hidden width
 */
void
Report(const std::vector<Measure>& ms,
       const std::vector<Product>& products,
       std::size_t firstTorch,
       int repeats,
       int B,
       int H)
{
    const double tBig = Median(ms[0].seconds);
    std::printf("sgemm 1024 x 1024 x 1024: %.1f GFLOP/s (peak reference)\n",
                2.0 * 1024 * 1024 * 1024 / tBig / 1e9);
    std::printf("\nMLP 784-%d-10, batch %d: the step's matrix products through sgemm_ "
                "(process CPU time, median of %d)\n",
                H,
                B,
                repeats);
    double roof = 0;
    double flops = 0;
    for (std::size_t i = 0; i < products.size(); ++i)
    {
        const auto& p = products[i];
        const double t = Median(ms[1 + i].seconds);
        const double f = 2.0 * p.m * p.n * p.k;
        roof += t;
        flops += f;
        std::printf("  %-18s %4d x %4d x %4d  %8.2f us  %6.1f GFLOP/s\n",
                    p.name,
                    p.m,
                    p.n,
                    p.k,
                    t * 1e6,
                    f / t / 1e9);
    }
    std::printf("  roofline: %.2f us per step, %.1f GFLOP/s, %.0f samples/s\n",
                roof * 1e6,
                flops / roof / 1e9,
                B / roof);
    std::printf("\nLibTorch, one thread: microseconds per step, throughput, fraction of the "
                "roofline, what each row adds to the one before, minor page faults per step\n");
    std::printf("  %-32s %8.2f us %9.0f samples/s %6.1f %%\n",
                "0. sgemm_ alone",
                roof * 1e6,
                B / roof,
                100.0);
    double previous = roof;
    for (std::size_t i = firstTorch; i < ms.size(); ++i)
    {
        const double t = Median(ms[i].seconds);
        const double before = previous;
        std::printf("  %-32s %8.2f us %9.0f samples/s %6.1f %%  (%+8.2f us)  %6.1f page faults\n",
                    ms[i].name.c_str(),
                    t * 1e6,
                    B / t,
                    100.0 * roof / t,
                    (t - before) * 1e6,
                    ms[i].faults);
        previous = t;
    }
    // Where a learner step's time goes (each part as the difference of two rows).
    auto row = [&](std::size_t k) {
        return Median(ms[firstTorch + k].seconds);
    };
    double fwdGemm = 0;
    double bwdGemm = 0;
    for (std::size_t i = 0; i < products.size(); ++i)
    {
        (i < 2 ? fwdGemm : bwdGemm) += Median(ms[1 + i].seconds);
    }
    const double step = row(5);
    const std::vector<std::pair<std::string, double>> parts = {
        {"forward products (sgemm_)", fwdGemm},
        {"backward products (sgemm_)", bwdGemm},
        {"gather, bias, ReLU, dispatch of the forward", row(1) - fwdGemm},
        {"loss (cross-entropy), and autograd recording of the forward", row(2) - row(1)},
        {"backward beyond its products (autograd engine, ReLU and loss backward, bias "
         "sums, gradient layout)",
         row(3) - row(2) - bwdGemm},
        {"zero_grad and SGD update", row(4) - row(3)},
        {"D2dLearner beyond the plain loop", row(5) - row(4)},
    };
    std::printf("\nWhere a D2dLearner step's %.2f us go:\n", step * 1e6);
    for (const auto& [what, t] : parts)
    {
        std::printf("  %8.2f us %6.1f %%  %s\n", t * 1e6, 100.0 * t / step, what.c_str());
    }
}

/** \return whether the settings are in range (a one-line error if not) \param hidden in
 * [1, 100000] \param batch in [1, 100000] \param steps >= 10 \param repeats >= 1 */
bool
Valid(int64_t hidden, int64_t batch, int steps, int repeats)
{
    if (hidden < 1 || hidden > 100000 || batch < 1 || batch > 100000 || steps < 10 || repeats < 1)
    {
        std::fprintf(stderr,
                     "bench-roofline: hidden and batch must be in [1, 100000], steps >= 10, "
                     "repeats >= 1\n");
        return false;
    }
    return true;
}
} // namespace

int
main(int argc, char* argv[])
{
    int64_t hidden = 128; // MLP hidden width
    int64_t batch = 32;   // batch size
    int steps = 200;      // steps per measurement and repetition
    int repeats = 15;     // repetitions (medians)
    CommandLine cmd(__FILE__);
    cmd.AddValue("hidden", "MLP hidden width", hidden);
    cmd.AddValue("batch", "Batch size", batch);
    cmd.AddValue("steps", "Training steps per measurement and repetition", steps);
    cmd.AddValue("repeats", "Repetitions (the figures are medians)", repeats);
    cmd.Parse(argc, argv);
    if (!Valid(hidden, batch, steps, repeats))
    {
        return 1;
    }
    D2dTorchRuntime::SetWorkers(1); // learner jobs on one worker thread, as in the scenarios
    D2dTorchRuntime::Seed(1);       // one LibTorch thread, one BLAS thread
    auto sgemm = reinterpret_cast<Sgemm>(dlsym(RTLD_DEFAULT, "sgemm_"));
    if (!sgemm)
    {
        std::fprintf(stderr, "bench-roofline: no sgemm_ in this process\n");
        return 1;
    }
    const int B = static_cast<int>(batch);
    const int H = static_cast<int>(hidden);
    std::printf("BLAS %s (%s)\nCPU %s\n",
                D2dTorchRuntime::GetBlasLibrary().c_str(),
                D2dTorchRuntime::GetBlasConfig().c_str(),
                D2dTorchRuntime::GetCpu().c_str());

    // x @ W^T: A = x (m x k), B = W stored n x k (transposed).
    const std::vector<Product> products = {
        {"fwd  h = x W1^T", B, H, 784, false, true},
        {"fwd  o = h W2^T", B, 10, H, false, true},
        {"bwd dW2 = do^T h", 10, H, B, true, false},
        {"bwd dh = do W2", B, H, 10, false, false},
        {"bwd dW1 = dh^T x", H, 784, B, true, false},
    };
    std::vector<Measure> ms;
    const Product big{"sgemm 1024^3", 1024, 1024, 1024, false, false};
    ms.push_back({big.name, SgemmCall(sgemm, big), 2});
    for (const auto& p : products)
    {
        ms.push_back({p.name, SgemmCall(sgemm, p), steps});
    }

    // LibTorch, one part at a time.
    torch::manual_seed(1);
    auto data = D2dFashionMnist::Load("", "train", 1.0, 1);
    const int64_t n = 6400;
    auto x = std::getenv("RAND_X")
                 ? torch::rand({n, 1, 28, 28})
                 : torch::from_blob(data->features.data(), {n, 1, 28, 28}).clone();
    auto y = torch::from_blob(data->labels.data(), {n}, torch::kLong).clone();
    auto net = torch::nn::Sequential(torch::nn::Flatten(),
                                     torch::nn::Linear(784, hidden),
                                     torch::nn::ReLU(),
                                     torch::nn::Linear(hidden, 10));
    torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
    auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
    auto perm = torch::randperm(n, gen, torch::kLong);
    int64_t at = 0;
    auto nextBatch = [&] {
        if (at + batch > n)
        {
            at = 0;
        }
        auto sel = perm.slice(0, at, at + batch);
        at += batch;
        return sel;
    };
    auto xb = torch::rand({batch, 784});
    auto w1 = torch::rand({hidden, 784});
    auto w2 = torch::rand({10, hidden});
    auto hb = torch::rand({batch, hidden});
    auto ob = torch::rand({batch, 10});
    const std::size_t firstTorch = ms.size();
    ms.push_back({"1. the 5 products via at::mm",
                  [&] {
                      auto h = at::mm(xb, w1.t());
                      auto o = at::mm(h, w2.t());
                      auto g2 = at::mm(ob.t(), hb);
                      auto gh = at::mm(ob, w2);
                      auto g1 = at::mm(gh.t(), xb);
                  },
                  steps});
    ms.push_back({"2. gather + forward (no grad)",
                  [&] {
                      torch::NoGradGuard g;
                      auto sel = nextBatch();
                      auto o = net->forward(x.index_select(0, sel));
                  },
                  steps});
    ms.push_back({"3a. + loss (cross-entropy)",
                  [&] {
                      auto sel = nextBatch();
                      auto loss =
                          torch::nn::functional::cross_entropy(net->forward(x.index_select(0, sel)),
                                                               y.index_select(0, sel));
                  },
                  steps});
    ms.push_back({"3b. + backward",
                  [&] {
                      auto sel = nextBatch();
                      auto loss =
                          torch::nn::functional::cross_entropy(net->forward(x.index_select(0, sel)),
                                                               y.index_select(0, sel));
                      loss.backward();
                  },
                  steps});
    ms.push_back({"4. + zero_grad + SGD step",
                  [&] {
                      auto sel = nextBatch();
                      opt.zero_grad();
                      auto loss =
                          torch::nn::functional::cross_entropy(net->forward(x.index_select(0, sel)),
                                                               y.index_select(0, sel));
                      loss.backward();
                      opt.step();
                  },
                  steps});

    // 5. A D2dLearner job: the real path, one epoch over a shard of steps x batch samples.
    D2dShard shard;
    for (int64_t i = 0; i < std::min<int64_t>(int64_t(data->Size()), int64_t(steps) * batch); ++i)
    {
        shard.indices.push_back(static_cast<std::size_t>(i));
    }
    const double jobSteps = std::ceil(double(shard.indices.size()) / double(batch));
    auto learner = CreateObject<D2dLearner>();
    learner->SetAttribute("BatchSize", UintegerValue(static_cast<uint32_t>(batch)));
    learner->Setup(0, D2dModelSpec::Parse("mlp:" + std::to_string(hidden)), data, shard, 1);
    D2dTrainTask task;
    task.epochs = 1;
    ms.push_back({"5. D2dLearner job",
                  [&] {
                      learner->Train(task, MakeNullCallback<void, const D2dTrainResult&>());
                      Simulator::Run();
                  },
                  1,
                  jobSteps});

    RunInTurns(ms, repeats);

    Report(ms, products, firstTorch, repeats, B, H);
    learner->Dispose();
    Simulator::Destroy();
    return 0;
}
