/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TORCH_RUNTIME_H
#define D2D_TORCH_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The process-wide LibTorch set-up and the worker pool that trains devices in
 * parallel.
 *
 * LibTorch runs one intra-op thread (a second adds nothing for models this small); the only
 * parallelism is between devices: training jobs started at the same
 * simulated instant are independent, so they run on a pool of worker threads while the
 * event loop goes on, and their results are collected (Wait) when their completion event
 * fires. Each device has its own torch generator, so results do not depend on which worker
 * ran a job or when. With Workers = 0 jobs run inline, in the calling thread.
 *
 * Lifetime rule (what makes a run that stops with work pending safe):
 *   1. A job owns what it reads: it captures its inputs by value or by shared ownership (a
 *      learner's state, its generator, shard, data set, the model it starts from), never
 *      an ns-3 object or a reference into one, so that nothing it reads goes away while it
 *      runs, whatever the simulator destroys.
 *   2. No worker runs after the simulation: a program calls Shutdown() as soon as
 *      Simulator::Run() returns (before its traces are finished, before Simulator::Destroy()
 *      and before any exit). Shutdown() drops the jobs still queued (they did not happen in
 *      simulated time), waits for the ones running and joins the workers. From then on the
 *      process runs LibTorch work inline, in the calling thread, until SetWorkers() is
 *      called again, so static destruction (LibTorch's own statics included) never races a
 *      worker. A D2dDeferredJob whose queued work was dropped still runs it (inline) when
 *      someone waits for it; a plain Submit() job that was dropped never runs, and its
 *      future holds std::future_errc::broken_promise (wait() returns, get() throws).
 *   3. As a safety net for a program that does not call it, Shutdown() also runs at exit
 *      (std::atexit, registered when the pool starts) and when the pool is destroyed.
 */
class D2dTorchRuntime
{
  public:
    /**
     * \brief Set the number of worker threads (call before the first Submit; later calls
     * restart the pool once it is idle).
     * \param workers worker threads (0: run jobs inline)
     */
    static void SetWorkers(uint32_t workers);

    /** \return the number of worker threads */
    static uint32_t GetWorkers();

    /**
     * \brief Stop the worker pool: drop the jobs not started, wait for the running ones,
     * join the workers. Later Submit()s run inline until SetWorkers() is called. Idempotent;
     * call it from the event loop's thread once the simulation has ended (see the lifetime
     * rule above).
     */
    static void Shutdown();

    /** \return true while Submit() hands jobs to worker threads (a pool may start) */
    static bool IsParallel();

    /**
     * \brief Run a job on the pool.
     * \param job the work (must not touch ns-3 state: it runs on another thread)
     * \return a future that is ready when the job has run (rethrows its exception)
     */
    static std::shared_future<void> Submit(std::function<void()> job);

    /**
     * \brief A parallel loop on the calling thread and workers - 1 of the pool (so as many
     * threads as workers): body(k) for k = 0..n-1, each exactly once, indices handed out in
     * increasing order to whichever thread is free; returns when all have run (rethrowing the
     * first exception). With fewer than 2 workers (or n < 2) a plain loop in this thread. Which
     * thread runs an index varies from run to run, so the body must give the same result wherever
     * it runs (its own output slot, no shared sum). \param n indices \param body the work of one
     * index (must not touch ns-3 state)
     */
    static void ParallelFor(std::size_t n, const std::function<void(std::size_t)>& body);

    /**
     * \brief Seed LibTorch's global generator (used only by code outside the learners,
     * which own their generators) and fix its thread counts.
     * \param seed the run seed
     */
    static void Seed(uint64_t seed);

    /**
     * \brief The BLAS library that LibTorch's CPU kernels call (its Fortran sgemm_), as the
     * dynamic loader resolved it in this process: Debian's LibTorch links libblas.so.3,
     * which the system's alternatives point to the reference BLAS or to an optimised one
     * (OpenBLAS). Results are bit-identical only for the same BLAS and CPU.
     * \return the library's real path (symbolic links resolved), or "unknown"
     */
    static std::string GetBlasLibrary();

    /**
     * \return what the BLAS says of itself: OpenBLAS's openblas_get_config() (version,
     * kernel chosen for this CPU, threading), or "reference or unknown BLAS" for a BLAS
     * that has no such call
     */
    static std::string GetBlasConfig();

    /** \return the CPU's model name (/proc/cpuinfo), or "unknown" */
    static std::string GetCpu();
};

} // namespace ns3

#endif /* D2D_TORCH_RUNTIME_H */
