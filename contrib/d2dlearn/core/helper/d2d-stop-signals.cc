/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-stop-signals.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <unistd.h>

namespace ns3
{

namespace
{
/**
 * The temporary files registered (those of the live trace helpers), for the stop-signal
 * handler, which may only call async-signal-safe functions: fixed slots of C strings, a
 * slot's flag set after its text is complete and cleared before the text changes.
 */
struct TmpRegistry
{
    static constexpr std::size_t kSlots = 256;              //!< temporary files alive at once
    static constexpr std::size_t kPath = 4096;              //!< longest path (PATH_MAX)
    std::array<std::atomic<bool>, kSlots> used{};           //!< slot holds a live path
    std::array<std::array<char, kPath>, kSlots> path{};     //!< the paths
    static constexpr std::size_t kFolders = 64;             //!< created folders at once
    std::array<std::atomic<bool>, kFolders> folderUsed{};   //!< slot holds a live folder
    std::array<std::array<char, kPath>, kFolders> folder{}; //!< the folders, in creation order
    std::atomic<int> publishing{0}; //!< Deferrals alive: files moving into place
    std::atomic<int> pending{0};    //!< a signal that arrived while publishing
    std::atomic<int> published{0};  //!< runs whose files are all in place
    std::mutex mutex;               //!< slot allocation (not used by the handler)
};

TmpRegistry&
Registry()
{
    static TmpRegistry registry;
    return registry;
}

/**
 * Delete every temporary file registered, then remove every registered folder that is
 * empty then, the last registered first (a parent after its child). Async-signal-safe:
 * unlink(2) and rmdir(2) only.
 */
void
RemoveRegistered()
{
    auto& r = Registry();
    for (std::size_t i = 0; i < TmpRegistry::kSlots; ++i)
    {
        if (r.used[i].load())
        {
            unlink(r.path[i].data());
        }
    }
    for (std::size_t i = TmpRegistry::kFolders; i-- > 0;)
    {
        if (r.folderUsed[i].load())
        {
            rmdir(r.folder[i].data()); // fails, as it should, on a folder with files
        }
    }
}

/** At exit() (a Fail() after the output folder was made): as a stop signal would. */
extern "C" void
RemoveRegisteredAtExit()
{
    if (Registry().publishing.load() == 0)
    {
        RemoveRegistered();
    }
}

} // namespace

int
D2dStopSignals::AddFolder(const std::string& path)
{
    auto& r = Registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (path.size() + 1 > TmpRegistry::kPath)
    {
        return -1;
    }
    // The first free slot after every used one, so that removal (last slot first) takes a
    // child before its parent.
    std::size_t i = TmpRegistry::kFolders;
    while (i > 0 && !r.folderUsed[i - 1].load())
    {
        --i;
    }
    if (i == TmpRegistry::kFolders)
    {
        return -1;
    }
    std::memcpy(r.folder[i].data(), path.c_str(), path.size() + 1);
    r.folderUsed[i].store(true);
    return static_cast<int>(i);
}

void
D2dStopSignals::RemoveFolder(int slot)
{
    if (slot >= 0)
    {
        auto& r = Registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.folderUsed[slot].store(false);
    }
}

int
D2dStopSignals::AddFile(const std::string& path)
{
    auto& r = Registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (path.size() + 1 > TmpRegistry::kPath)
    {
        return -1;
    }
    for (std::size_t i = 0; i < TmpRegistry::kSlots; ++i)
    {
        if (!r.used[i].load())
        {
            std::memcpy(r.path[i].data(), path.c_str(), path.size() + 1);
            r.used[i].store(true);
            return static_cast<int>(i);
        }
    }
    return -1;
}

void
D2dStopSignals::RemoveFile(int slot)
{
    if (slot >= 0)
    {
        auto& r = Registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.used[slot].store(false);
    }
}

namespace
{
/** The signals that stop a run cleanly (OnTerminate), with what the run says of each. */
struct StopSignal
{
    int sig;
    const char* what; //!< ": <what>: no traces written" / " after its traces were written"
};

const StopSignal kStopSignals[] = {
    {SIGINT, "interrupted (SIGINT)"},
    {SIGTERM, "terminated (SIGTERM)"},
    {SIGHUP, "hung up (SIGHUP)"},
    {SIGQUIT, "quit (SIGQUIT)"},
    {SIGUSR1, "stopped (SIGUSR1)"},
    // Its standard output closed (e.g. `graph-discovery --evaluate=... | head -3`).
    {SIGPIPE, "output closed (SIGPIPE)"},
};

/** \brief write(2) a C string to stderr (async-signal-safe) \param text it */
void
WriteStderr(const char* text)
{
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, text, std::strlen(text));
}

/**
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGPIPE: delete every temporary file registered
 * (a trace helper's) and exit with 128 + the signal (130, 143, 129, 131, 138, 141), leaving the
 * output folder as it was before the run; while a run's files are being moved into place, the
 * signal waits until they all are.
 */
extern "C" void
OnTerminate(int sig)
{
    auto& r = Registry();
    if (r.publishing.load() > 0)
    {
        r.pending.store(sig);
        return;
    }
    RemoveRegistered();
    const char* what = "stopped by a signal";
    for (const auto& s : kStopSignals)
    {
        if (s.sig == sig)
        {
            what = s.what;
        }
    }
    // After a run has published its traces (e.g. a signal during the final clean-up), they
    // stay: say so rather than "no traces written".
    WriteStderr(program_invocation_short_name);
    WriteStderr(": ");
    WriteStderr(what);
    WriteStderr(r.published.load() > 0 ? " after its traces were written\n"
                                       : ": no traces written\n");
    _exit(128 + sig);
}

/** The terminate handler in force before OnUncaught (the C++ run time's: abort). */
std::terminate_handler g_previousTerminate = nullptr;

/**
 * std::terminate with an exception that nothing caught (a std::runtime_error of a trace
 * file that cannot be created, std::bad_alloc, ...): delete every temporary file registered,
 * one line on stderr ("program: error: what"), exit status 2, instead of "terminate called
 * after throwing ..." and SIGABRT with the files left. A terminate without an exception
 * (ns-3's NS_FATAL_ERROR, NS_ABORT_MSG: a fault of the program, which has said what) goes on
 * to the previous handler.
 */
[[noreturn]] void
OnUncaught()
{
    const std::exception_ptr error = std::current_exception();
    if (!error)
    {
        (g_previousTerminate ? g_previousTerminate : std::abort)();
        std::abort();
    }
    std::string what = "an exception of unknown type";
    try
    {
        std::rethrow_exception(error);
    }
    catch (const std::bad_alloc&)
    {
        what = "out of memory (std::bad_alloc): ask for less (fewer devices, a smaller model or "
               "data set) or run with more memory";
    }
    catch (const std::exception& e)
    {
        what = e.what();
    }
    catch (...)
    {
    }
    RemoveRegistered();
    WriteStderr(program_invocation_short_name);
    WriteStderr(": error: ");
    WriteStderr(what.c_str());
    WriteStderr("\n");
    _exit(2);
}

} // namespace

void
D2dStopSignals::Install()
{
    static std::once_flag once;
    std::call_once(once, [] {
        g_previousTerminate = std::set_terminate(&OnUncaught);
        Registry(); // made before the handler is registered, so destroyed after it ran
        std::atexit(&RemoveRegisteredAtExit);
        // Past the file size limit (ulimit -f) a write fails with EFBIG, which the trace
        // writers report in one line, instead of SIGXFSZ killing the run with its files left.
        std::signal(SIGXFSZ, SIG_IGN);
        for (const auto& s : kStopSignals)
        {
            const int sig = s.sig;
            struct sigaction old
            {
            };
            sigaction(sig, nullptr, &old);
            if (old.sa_handler == SIG_IGN) // e.g. a background job: the caller's choice
            {
                continue;
            }
            struct sigaction action
            {
            };
            action.sa_handler = &OnTerminate;
            sigemptyset(&action.sa_mask);
            sigaction(sig, &action, nullptr);
        }
    });
}

void
D2dStopSignals::Published()
{
    Registry().published.fetch_add(1);
    if (const int sig = Registry().pending.exchange(0); sig != 0)
    {
        OnTerminate(sig);
    }
}

D2dStopSignals::Deferral::Deferral()
{
    Registry().publishing.fetch_add(1);
}

D2dStopSignals::Deferral::~Deferral()
{
    Registry().publishing.fetch_sub(1);
}

void
D2dStopSignals::Exit(const std::string& what, int status)
{
    std::fflush(stdout);
    RemoveRegistered();
    WriteStderr(program_invocation_short_name);
    WriteStderr(": error: ");
    WriteStderr(what.c_str());
    WriteStderr("\n");
    _exit(status);
}

} // namespace ns3
