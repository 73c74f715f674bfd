/*
 * d2dlearn benchmark: the divergence kernel of graph discovery's unsupervised paradigm
 * (eq. (17) of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph
 * Discovery in D2D-Enabled Federated Learning", 2025) against the machine's double-precision
 * gemm rate, on the same threads in the same run.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand (or by bench/bench-discovery-paradigms.py) from the build folder (Release);
 * prints its figures. The BLAS is held to one thread per call (D2dTorchRuntime, as in the
 * scenarios); --threads threads work at once, each on its own data, as the agreement cache's
 * blocks spread over the worker pool:
 *   gemm     each thread multiplies two n x n matrices (dgemm, --gemmSize n): the machine's
 *            rate, 2 n^3 flops per product, wall time of all threads together;
 *   kernel   each thread computes blocks of divergences of --rows x --cols Gaussians of
 *            dimension --d (D2dKlBlocks::Divergences, the cache's block of a reward cluster:
 *            rows and columns = the L clusters of each of its devices): flops = twice the
 *            multiply-adds the call reports (its matrix product, d (d + 1) / 2 + d a
 *            divergence, and d^2 a column; forming the operands is not counted, its time is);
 *            the time a block takes on one thread's share is measured, not derived;
 *   prepare  each thread prepares Gaussians (D2dKlBlocks::Precision: dpotrf, dpotri; d^3 flops
 *            counted: d^3 / 3 + 2 d^3 / 3).
 * Each figure is the best of --repeats timed rounds of about --seconds each (other work on the
 * machine only slows a round down).
 *
 * Usage: bench-kl-blocks [--d=50] [--rows=28] [--cols=28] [--threads=2] [--gemmSize=1024]
 *                        [--repeats=3] [--seconds=0.5]
 */

#include "bench-timing.h"

#include "ns3/command-line.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-kl-blocks.h"
#include "ns3/d2d-torch-runtime.h"

#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

extern "C" void dgemm_(const char*,
                       const char*,
                       const int*,
                       const int*,
                       const int*,
                       const double*,
                       const double*,
                       const int*,
                       const double*,
                       const int*,
                       const double*,
                       double*,
                       const int*,
                       size_t,
                       size_t);

using namespace ns3;

namespace
{
/** The best of timed rounds. */
struct Best
{
    double gflops{0};         //!< all threads' flops over the round's wall time, GFLOP/s
    double secondsPerUnit{0}; //!< the round's wall time over the units one thread ran, s
};

/** \return the best of `repeats` rounds of `work` on `threads` threads (the round of the
 * highest rate) \param threads \param repeats \param work(thread) runs one unit, returns
 * its flops \param units units per thread per round */
Best
Rate(uint32_t threads,
     uint32_t repeats,
     uint64_t units,
     const std::function<double(uint32_t)>& work)
{
    Best best;
    for (uint32_t r = 0; r < repeats; ++r)
    {
        std::vector<double> flops(threads, 0.0);
        const double t0 = d2dbench::WallSeconds();
        std::vector<std::thread> pool;
        for (uint32_t t = 0; t < threads; ++t)
        {
            pool.emplace_back([&, t] {
                for (uint64_t u = 0; u < units; ++u)
                {
                    flops[t] += work(t);
                }
            });
        }
        for (auto& th : pool)
        {
            th.join();
        }
        const double wall = d2dbench::WallSeconds() - t0;
        double total = 0;
        for (double f : flops)
        {
            total += f;
        }
        if (total / wall / 1e9 > best.gflops)
        {
            best.gflops = total / wall / 1e9;
            best.secondsPerUnit = wall / static_cast<double>(units);
        }
    }
    return best;
}

/** \return a random covariance B B^T / m + I/10 of dimension d \param d \param rng */
std::vector<double>
Cov(std::size_t d, D2dDataRng& rng)
{
    const std::size_t m = 2 * d;
    std::vector<double> b(d * m);
    for (double& v : b)
    {
        v = rng.Normal();
    }
    std::vector<double> s(d * d, 0.0);
    for (std::size_t r = 0; r < d; ++r)
    {
        for (std::size_t c = 0; c < d; ++c)
        {
            for (std::size_t k = 0; k < m; ++k)
            {
                s[r * d + c] += b[r * m + k] * b[c * m + k] / m;
            }
        }
        s[r * d + r] += 0.1;
    }
    return s;
}
} // namespace

int
main(int argc, char** argv)
{
    uint32_t d = 50;
    uint32_t rows = 28;
    uint32_t cols = 28;
    uint32_t threads = 2;
    uint32_t gemmSize = 1024;
    uint32_t repeats = 3;
    double seconds = 0.5;
    CommandLine cmd(__FILE__);
    cmd.AddValue("d", "dimension of the Gaussians", d);
    cmd.AddValue("rows", "Gaussians of a block's rows", rows);
    cmd.AddValue("cols", "Gaussians of a block's columns", cols);
    cmd.AddValue("threads", "threads working at once", threads);
    cmd.AddValue("gemmSize", "n of the n x n x n reference product", gemmSize);
    cmd.AddValue("repeats", "timed rounds (the best is printed)", repeats);
    cmd.AddValue("seconds", "about how long a round lasts, s", seconds);
    cmd.Parse(argc, argv);
    if (d == 0 || rows == 0 || cols == 0 || threads == 0 || gemmSize == 0 || repeats == 0 ||
        !(seconds > 0))
    {
        std::fprintf(stderr,
                     "bench-kl-blocks: --d, --rows, --cols, --threads, --gemmSize, "
                     "--repeats and --seconds must be positive\n");
        return 2;
    }
    D2dTorchRuntime::Seed(1); // the BLAS held to one thread per call, as in the scenarios

    // The reference: one n x n x n dgemm per thread.
    const int n = static_cast<int>(gemmSize);
    std::vector<std::vector<double>> ga(threads, std::vector<double>(gemmSize * gemmSize, 0.5));
    std::vector<std::vector<double>> gc(threads, std::vector<double>(gemmSize * gemmSize, 0.0));
    const auto gemm = [&](uint32_t t) {
        const double one = 1.0;
        const double zero = 0.0;
        dgemm_("N",
               "N",
               &n,
               &n,
               &n,
               &one,
               ga[t].data(),
               &n,
               ga[t].data(),
               &n,
               &zero,
               gc[t].data(),
               &n,
               1,
               1);
        return 2.0 * n * static_cast<double>(n) * n;
    };
    const double t0 = d2dbench::WallSeconds();
    gemm(0);
    const double once = d2dbench::WallSeconds() - t0;
    const auto gemmUnits = static_cast<uint64_t>(std::max(1.0, seconds / once));
    const double gemmRate = Rate(threads, repeats, gemmUnits, gemm).gflops;

    // The kernel's data: rows + cols Gaussians per thread.
    D2dDataRng rng(1, 0, 0);
    std::vector<std::vector<D2dGaussianPrecision>> prec(threads);
    std::vector<std::vector<std::vector<double>>> means(threads);
    std::vector<std::vector<double>> covs;
    for (uint32_t g = 0; g < 8; ++g)
    {
        covs.push_back(Cov(d, rng));
    }
    for (uint32_t t = 0; t < threads; ++t)
    {
        for (uint32_t g = 0; g < rows + cols; ++g)
        {
            prec[t].push_back(D2dKlBlocks::Precision(covs[g % covs.size()], d, 1e-6));
            std::vector<double> m(d);
            for (double& v : m)
            {
                v = rng.Normal();
            }
            means[t].push_back(m);
        }
    }
    std::vector<std::vector<double>> out(threads);
    const auto kernel = [&](uint32_t t) {
        std::vector<const double*> ma;
        std::vector<const D2dGaussianPrecision*> pa;
        std::vector<const double*> mb;
        std::vector<const D2dGaussianPrecision*> pb;
        for (uint32_t g = 0; g < rows; ++g)
        {
            ma.push_back(means[t][g].data());
            pa.push_back(&prec[t][g]);
        }
        for (uint32_t g = rows; g < rows + cols; ++g)
        {
            mb.push_back(means[t][g].data());
            pb.push_back(&prec[t][g]);
        }
        return 2.0 * static_cast<double>(D2dKlBlocks::Divergences(ma, pa, mb, pb, d, out[t]));
    };
    const double k0 = d2dbench::WallSeconds();
    kernel(0);
    const double kOnce = std::max(1e-7, d2dbench::WallSeconds() - k0);
    const auto kernelUnits = static_cast<uint64_t>(std::max(1.0, seconds / kOnce));
    const Best kernelBest = Rate(threads, repeats, kernelUnits, kernel);
    const double kernelRate = kernelBest.gflops;

    const auto prepare = [&](uint32_t t) {
        D2dKlBlocks::Precision(covs[t % covs.size()], d, 1e-6);
        return static_cast<double>(d) * d * d;
    };
    const double p0 = d2dbench::WallSeconds();
    prepare(0);
    const double pOnce = std::max(1e-7, d2dbench::WallSeconds() - p0);
    const auto prepareUnits = static_cast<uint64_t>(std::max(1.0, seconds / pOnce));
    const Best prepareBest = Rate(threads, repeats, prepareUnits, prepare);
    const double prepareRate = prepareBest.gflops;

    std::printf("bench-kl-blocks: d %u, blocks of %u x %u Gaussians, %u threads at once, best "
                "of %u rounds\n",
                d,
                rows,
                cols,
                threads,
                repeats);
    std::printf("gemm_gflops %.2f (dgemm %u x %u x %u on each thread)\n",
                gemmRate,
                gemmSize,
                gemmSize,
                gemmSize);
    std::printf("kernel_gflops %.2f (%.1f %% of gemm; %.1f us a block on one thread's share, "
                "%.0f divergences/s)\n",
                kernelRate,
                100.0 * kernelRate / gemmRate,
                1e6 * kernelBest.secondsPerUnit,
                threads * double(rows) * cols / kernelBest.secondsPerUnit);
    std::printf("prepare_gflops %.2f (%.1f us a Gaussian on one thread's share)\n",
                prepareRate,
                1e6 * prepareBest.secondsPerUnit);
    return 0;
}
