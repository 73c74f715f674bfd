/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-case-batch.h"

#include "ns3/rng-stream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

/** Writes text to path (whole, or reports the failure on stderr and exits 3). */
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out.flush())
    {
        std::fprintf(stderr, "D2DLEARN_CASES: cannot write %s\n", path.c_str());
        std::_Exit(3);
    }
}

/**
 * \return the number text reads as (std::atof: its leading decimal number, 0 if none) when
 * it is > 0, else fallback
 * \param text the text, e.g. an environment variable's value
 * \param fallback the value of a text that is not a positive number
 */
double
PositiveOr(const char* text, double fallback)
{
    const double value = std::atof(text);
    return value > 0 ? value : fallback;
}

/** Points file descriptor fd at path (created, truncated), or exits 3. */
void
Redirect(int fd, const std::string& path)
{
    const int f = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f < 0 || dup2(f, fd) < 0)
    {
        std::_Exit(3);
    }
    close(f);
}

/**
 * The child's last word: what the program wrote is flushed and the child exits with its
 * status, without the teardown of what was loaded before the fork (LibTorch's static
 * objects take most of a second to destroy, in copy-on-write pages). Registered at the
 * fork, it runs after every handler and destructor the case itself registered (exit runs
 * them in reverse order), so the case's own clean-up is kept.
 */
void
ExitNow(int status, void*)
{
    std::fflush(nullptr);
    std::_Exit(status);
}

} // namespace

void
D2dCaseBatch::RunIfRequested(int& argc, char**& argv)
{
    const char* file = std::getenv("D2DLEARN_CASES");
    if (!file || !*file)
    {
        return;
    }
    const std::string base(file);
    double timeoutS = 60;
    if (const char* t = std::getenv("D2DLEARN_CASE_TIMEOUT"))
    {
        timeoutS = PositiveOr(t, timeoutS);
    }
    std::ifstream in(base);
    if (!in)
    {
        std::fprintf(stderr, "D2DLEARN_CASES: cannot read %s\n", base.c_str());
        std::_Exit(3);
    }
    std::vector<std::vector<std::string>> cases;
    for (std::string line; std::getline(in, line);)
    {
        std::vector<std::string> args;
        std::stringstream fields(line);
        for (std::string arg; std::getline(fields, arg, '\t');)
        {
            args.push_back(arg);
        }
        cases.push_back(args);
    }
    // ns-3's MRG32k3a computes its 190 power-of-two jump matrices on the first stream a
    // process creates and keeps them in a function-local static. Creating one stream here,
    // before the forks, computes them once for every case; without it each child computes
    // them again (measured: about 40 % of a refused case's CPU time). The stream is not a
    // RandomVariableStream: no stream number is taken, and the cases' draws are unchanged.
    const RngStream warmUp(1, 1, 1);
    (void)warmUp;
    std::fflush(nullptr);
    for (std::size_t k = 0; k < cases.size(); ++k)
    {
        const std::string prefix = base + "." + std::to_string(k + 1);
        const pid_t parent = getpid();
        const pid_t pid = fork();
        if (pid < 0)
        {
            std::fprintf(stderr, "D2DLEARN_CASES: fork: %s\n", std::strerror(errno));
            std::_Exit(3);
        }
        if (pid == 0)
        {
            // The child: the program goes on with the case's arguments (kept for its life).
            // It dies with the batch (killed with its caller, e.g. sweep.py by SIGKILL):
            // PR_SET_PDEATHSIG, and at once if the batch died before the call.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
            {
                std::_Exit(137);
            }
            unsetenv("D2DLEARN_CASES");
            on_exit(&ExitNow, nullptr);
            Redirect(STDOUT_FILENO, prefix + ".out");
            Redirect(STDERR_FILENO, prefix + ".err");
            static std::vector<std::string> kept;
            static std::vector<char*> args;
            kept.assign(1, argv[0]);
            kept.insert(kept.end(), cases[k].begin(), cases[k].end());
            for (auto& a : kept)
            {
                args.push_back(a.data());
            }
            args.push_back(nullptr);
            argc = static_cast<int>(kept.size());
            argv = args.data();
            return;
        }
        int status = 0;
        int rc = -1;
        const auto start = std::chrono::steady_clock::now();
        while (rc < 0)
        {
            const pid_t done = waitpid(pid, &status, WNOHANG);
            if (done == pid)
            {
                rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            else if (done < 0 && errno != EINTR)
            {
                std::fprintf(stderr, "D2DLEARN_CASES: waitpid: %s\n", std::strerror(errno));
                std::_Exit(3);
            }
            else if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                         .count() > timeoutS)
            {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                rc = 124;
            }
            else
            {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        }
        WriteFile(prefix + ".rc", std::to_string(rc) + "\n");
    }
    std::_Exit(0);
}

} // namespace ns3
