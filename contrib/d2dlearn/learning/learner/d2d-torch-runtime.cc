/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-torch-runtime.h"

#include "ns3/log.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <dlfcn.h>
#include <exception>
#include <filesystem>
#include <fstream>
#include <malloc.h>
#include <mutex>
#include <thread>
// Two calls into LibTorch (at::set_num_threads, at::manual_seed): their headers, not
// <torch/torch.h> (about 21 s of parsing on the 2-core machine).
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTorchRuntime");

namespace
{
/**
 * How long a thread that waits for work (a worker for a job, ParallelFor for its helpers'
 * last indices) checks for it before it sleeps: the loops of one simulated step follow each
 * other closely, and a sleeping thread takes tens of microseconds to wake.
 */
constexpr auto SPIN = std::chrono::microseconds(50);

/**
 * \brief Wait up to SPIN for ready() to hold, without sleeping.
 * \param ready the condition
 * \return whether it holds
 */
template <typename Ready>
bool
SpinFor(const Ready& ready)
{
    const auto until = std::chrono::steady_clock::now() + SPIN;
    for (uint32_t k = 1;; ++k)
    {
        if (ready())
        {
            return true;
        }
        if (k % 64 == 0 && std::chrono::steady_clock::now() >= until)
        {
            return false;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

/** A fixed pool of threads running jobs in submission order. */
class Pool
{
  public:
    explicit Pool(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            m_threads.emplace_back([this] { Loop(); });
        }
        // Wait until every worker has set itself up. A worker first scheduled only after
        // main() has returned would otherwise call into LibTorch (at::set_num_threads)
        // while the static destructors run, and block there for ever on a lock of LibTorch's
        // while ~Pool joins it (seen: consensus --dataset=polynomial, which submits few
        // jobs, hung at exit).
        std::unique_lock<std::mutex> lock(m_mutex);
        m_readyCv.wait(lock, [this, n] { return m_ready == n; });
    }

    ~Pool()
    {
        Stop();
    }

    /**
     * \brief Drop the jobs not started, let the running ones finish, join the workers
     * (idempotent). The dropped jobs' futures hold broken_promise.
     */
    void Stop()
    {
        std::deque<std::packaged_task<void()>> dropped;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_stop)
            {
                return;
            }
            m_stop = true;
            dropped.swap(m_jobs);
            m_queued.store(0, std::memory_order_relaxed);
        }
        m_wake.notify_all();
        for (auto& t : m_threads)
        {
            t.join();
        }
        m_threads.clear();
        // Destroyed here, in this thread, after the workers: what the jobs captured goes with
        // them (no worker can be running one).
        dropped.clear();
    }

    std::shared_future<void> Submit(std::function<void()> job)
    {
        std::packaged_task<void()> task(std::move(job));
        std::shared_future<void> done = task.get_future().share();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_jobs.push_back(std::move(task));
            m_queued.fetch_add(1, std::memory_order_release);
        }
        m_wake.notify_one();
        return done;
    }

    /** \brief Let the workers run every job queued, then join them (SetWorkers). */
    void Drain()
    {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_idleCv.wait(lock, [this] { return m_jobs.empty() && m_busy == 0; });
        }
        Stop();
    }

    std::size_t Size() const
    {
        return m_threads.size();
    }

  private:
    void Loop()
    {
        // Each worker runs LibTorch ops single-threaded.
        at::set_num_threads(1);
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            ++m_ready;
        }
        m_readyCv.notify_all();
        for (;;)
        {
            std::packaged_task<void()> task;
            // A job may follow soon: look for it a little before sleeping.
            SpinFor([this] { return m_queued.load(std::memory_order_acquire) > 0; });
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
                if (m_stop)
                {
                    return; // Stop() took what was queued
                }
                task = std::move(m_jobs.front());
                m_jobs.pop_front();
                m_queued.fetch_sub(1, std::memory_order_relaxed);
                ++m_busy;
            }
            task();
            task = std::packaged_task<void()>(); // what the job captured goes now
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                --m_busy;
            }
            m_idleCv.notify_all();
        }
    }

    std::vector<std::thread> m_threads;
    std::deque<std::packaged_task<void()>> m_jobs;
    std::atomic<uint32_t> m_queued{0}; //!< m_jobs.size(), readable without the lock
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_readyCv; //!< a worker has set itself up
    uint32_t m_ready{0};               //!< workers set up
    std::condition_variable m_idleCv;  //!< a worker finished a job
    uint32_t m_busy{0};                //!< jobs running
    bool m_stop{false};
};

uint32_t g_workers = 2;
std::unique_ptr<Pool> g_pool;
/** Shutdown() was called: Submit() runs jobs inline until SetWorkers(). */
bool g_closed = false;

/** At exit, before the statics constructed before the pool (LibTorch's) are destroyed. */
void
ShutdownAtExit()
{
    D2dTorchRuntime::Shutdown();
}

/**
 * \param name a symbol
 * \return its address in the process's global scope (the executable and the libraries it
 * loaded), or null
 */
void*
GlobalSymbol(const char* name)
{
    return dlsym(RTLD_DEFAULT, name);
}

void
FixThreads()
{
    static bool done = false;
    if (!done)
    {
        at::set_num_threads(1);
        // Debian's threaded OpenBLAS (libopenblas0-pthread, what setup.sh installs) would
        // start its own threads under every worker: the device-level pool is the
        // parallelism, so one BLAS thread per call. (The threaded build is safe to call from
        // several workers at once; Debian's single-threaded build is not: with it, two
        // workers gave traces that differed from run to run.)
        using SetThreads = void (*)(int);
        if (auto set = reinterpret_cast<SetThreads>(GlobalSymbol("openblas_set_num_threads")))
        {
            set(1);
        }
        // A training step allocates and frees the same few blocks (the first layer's weight
        // gradient of an MLP 784-128-10 alone is 401 KB). With glibc's defaults a worker
        // thread's heap gives freed memory back to the system (madvise) and the next step
        // faults it in again, zero-filled: 5.5 page faults per step on a worker thread
        // (bench-roofline). Serving blocks below 16 MiB from the heap and keeping up to
        // 32 MiB free at a heap's top (per malloc arena) lets steps reuse their memory.
        mallopt(M_MMAP_THRESHOLD, 16 << 20);
        mallopt(M_TRIM_THRESHOLD, 32 << 20);
        done = true;
    }
}
} // namespace

void
D2dTorchRuntime::SetWorkers(uint32_t workers)
{
    NS_LOG_FUNCTION(workers);
    g_workers = workers;
    if (g_pool)
    {
        g_pool->Drain(); // the old workers finish every job queued (someone may wait for it)
        g_pool.reset();
    }
    g_closed = false;
}

void
D2dTorchRuntime::Shutdown()
{
    // No NS_LOG here: this also runs at exit (ShutdownAtExit).
    g_closed = true;
    if (g_pool)
    {
        g_pool->Stop();
        g_pool.reset();
    }
}

bool
D2dTorchRuntime::IsParallel()
{
    return g_workers > 0 && !g_closed;
}

uint32_t
D2dTorchRuntime::GetWorkers()
{
    return g_workers;
}

std::shared_future<void>
D2dTorchRuntime::Submit(std::function<void()> job)
{
    // The future's shared state keeps the task it runs: a job that captures its owner
    // (a learner's state, which holds the future) would keep both alive for ever. The job
    // is moved out and destroyed once it has run, so that only its result stays.
    job = [inner = std::move(job)]() mutable {
        auto run = std::move(inner);
        run();
    };
    FixThreads();
    if (!IsParallel())
    {
        std::packaged_task<void()> task(std::move(job));
        auto done = task.get_future().share();
        task();
        return done;
    }
    if (!g_pool)
    {
        static bool atExit = false;
        if (!atExit)
        {
            // Registered after LibTorch's load-time statics: runs before their destructors.
            std::atexit(&ShutdownAtExit);
            atExit = true;
        }
        g_pool = std::make_unique<Pool>(g_workers);
    }
    return g_pool->Submit(std::move(job));
}

void
D2dTorchRuntime::ParallelFor(std::size_t n, const std::function<void(std::size_t)>& body)
{
    FixThreads();
    if (!IsParallel() || g_workers < 2 || n < 2)
    {
        for (std::size_t k = 0; k < n; ++k)
        {
            body(k);
        }
        return;
    }

    // Shared with the jobs: a job that starts after the loop has returned finds no index
    // left and touches nothing else.
    struct State
    {
        std::atomic<std::size_t> next{0};
        std::atomic<std::size_t> done{0};
        std::size_t n{0};
        const std::function<void(std::size_t)>* body{nullptr};
        std::mutex mutex;
        std::condition_variable allDone;
        std::exception_ptr error;
    };

    auto state = std::make_shared<State>();
    state->n = n;
    state->body = &body;
    auto work = [state]() {
        for (std::size_t k = state->next.fetch_add(1); k < state->n; k = state->next.fetch_add(1))
        {
            try
            {
                (*state->body)(k);
            }
            catch (...)
            {
                std::lock_guard<std::mutex> lock(state->mutex);
                if (!state->error)
                {
                    state->error = std::current_exception();
                }
            }
            if (state->done.fetch_add(1) + 1 == state->n)
            {
                std::lock_guard<std::mutex> lock(state->mutex);
                state->allDone.notify_all();
            }
        }
    };
    // The calling thread works too: --threads threads in all.
    const std::size_t helpers = std::min<std::size_t>(g_workers - 1, n - 1);
    for (std::size_t h = 0; h < helpers; ++h)
    {
        Submit(work);
    }
    work();
    // The helpers' last indices are usually short: wait for them awake first.
    SpinFor([&state] { return state->done.load() == state->n; });
    std::unique_lock<std::mutex> lock(state->mutex);
    state->allDone.wait(lock, [&state] { return state->done.load() == state->n; });
    if (state->error)
    {
        std::rethrow_exception(state->error);
    }
}

void
D2dTorchRuntime::Seed(uint64_t seed)
{
    FixThreads();
    at::manual_seed(seed); // what torch::manual_seed is (torch/utils.h: using at::manual_seed)
}

std::string
D2dTorchRuntime::GetBlasLibrary()
{
    Dl_info info{};
    void* sgemm = GlobalSymbol("sgemm_");
    if (!sgemm || dladdr(sgemm, &info) == 0 || !info.dli_fname)
    {
        return "unknown";
    }
    std::error_code ec;
    const auto real = std::filesystem::canonical(info.dli_fname, ec);
    return ec ? std::string(info.dli_fname) : real.string();
}

std::string
D2dTorchRuntime::GetBlasConfig()
{
    using GetConfig = const char* (*)();
    if (auto get = reinterpret_cast<GetConfig>(GlobalSymbol("openblas_get_config")))
    {
        std::string config = get();
        while (!config.empty() && std::isspace(static_cast<unsigned char>(config.back())))
        {
            config.pop_back();
        }
        return config;
    }
    return "reference or unknown BLAS";
}

std::string
D2dTorchRuntime::GetCpu()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind("model name", 0) == 0)
        {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
            {
                const auto start = line.find_first_not_of(' ', colon + 1);
                return start == std::string::npos ? "unknown" : line.substr(start);
            }
        }
    }
    return "unknown";
}

} // namespace ns3
