/*
 * d2dlearn benchmark: the fixed cost of a run (start-up).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run by hand from the build folder's bin/; prints its figures. Runs, interleaved (one of
 * each per repetition, in rotating order, so that a change in the machine's load hits all
 * alike), `fedavg --rounds=1 --dataFraction=0.01` (the smallest useful run) as:
 *   floor       bench-load-floor: links what fedavg links and returns at once (the cost of
 *               loading the libraries and running their constructors)
 *   warm cache  fedavg with the decoded Fashion-MNIST cache in place (D2DLEARN_CACHE_DIR)
 *   no cache    fedavg decoding the gzip files (D2DLEARN_CACHE_DIR=off)
 *   cold cache  fedavg with an empty cache directory (decodes and writes the entry)
 *   old         --old=PATH: another fedavg binary (e.g. a build of an older commit), same
 *               arguments, for a side-by-side ratio
 * and prints each one's median wall time and median CPU time (user + system, from wait4),
 * then the ratios. Also: the libraries the floor loads and the dynamic loader's own
 * statistics (LD_DEBUG=statistics: relocations and the cycles they take).
 */

#include "bench-timing.h"

#include "ns3/command-line.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;
using d2dbench::Median;
using d2dbench::WallSeconds;

namespace
{
/** Wall and CPU seconds of one child. */
struct Cost
{
    double wall;
    double cpu;
};

/**
 * \return the cost of running argv with the environment changes env (value "" unsets),
 * stdout and stderr to errFile (or /dev/null); exits on failure
 */
Cost
Run(const std::vector<std::string>& argv,
    const std::map<std::string, std::string>& env,
    const std::string& errFile = "/dev/null")
{
    const double start = WallSeconds();
    const pid_t pid = fork();
    if (pid == 0)
    {
        for (const auto& [k, v] : env)
        {
            if (v.empty())
            {
                unsetenv(k.c_str());
            }
            else
            {
                setenv(k.c_str(), v.c_str(), 1);
            }
        }
        const int fd = open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        std::vector<char*> args;
        for (const auto& a : argv)
        {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;

    struct rusage ru = {};
    wait4(pid, &status, 0, &ru);
    const double wall = WallSeconds() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::fprintf(stderr, "bench-startup: '%s' failed (status %d)\n", argv[0].c_str(), status);
        std::exit(1);
    }
    const double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
                       ru.ru_stime.tv_usec * 1e-6;
    return {wall, cpu};
}

std::string
ReadAll(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string fedavg = "./fedavg";                     // the scenario binary
    std::string floorBin = "./bench-load-floor";         // the library-load floor
    std::string old;                                     // an older fedavg binary ("" = none)
    uint32_t runs = 5;                                   // repetitions
    std::string args = "--rounds=1 --dataFraction=0.01"; // the fedavg arguments
    CommandLine cmd(__FILE__);
    cmd.AddValue("fedavg", "Path of the fedavg binary", fedavg);
    cmd.AddValue("floor", "Path of bench-load-floor", floorBin);
    cmd.AddValue("old", "Path of an older fedavg binary to compare with", old);
    cmd.AddValue("runs", "Repetitions of each case", runs);
    cmd.AddValue("args", "fedavg's arguments (besides --quiet and --outDir)", args);
    cmd.Parse(argc, argv);
    if (runs < 1)
    {
        std::fprintf(stderr,
                     "bench-startup: runs: %u is outside the accepted range [1, 1000]\n",
                     runs);
        return 1;
    }
    char tmpl[] = "/tmp/bench-startup-XXXXXX";
    const std::string tmp = mkdtemp(tmpl);
    const std::string warmDir = tmp + "/cache-warm";
    const std::string outDir = tmp + "/out";
    std::vector<std::string> fedavgArgs;
    {
        std::istringstream in(args);
        std::string a;
        while (in >> a)
        {
            fedavgArgs.push_back(a);
        }
        fedavgArgs.push_back("--quiet");
        fedavgArgs.push_back("--outDir=" + outDir);
    }
    auto with = [&](const std::string& bin) {
        std::vector<std::string> v{bin};
        v.insert(v.end(), fedavgArgs.begin(), fedavgArgs.end());
        return v;
    };

    struct Case
    {
        std::string name;
        std::function<Cost()> run;
        std::vector<double> wall;
        std::vector<double> cpu;
    };

    std::vector<Case> cases;
    cases.push_back({"floor (load only)", [&] { return Run({floorBin}, {}); }, {}, {}});
    cases.push_back({"fedavg, warm cache",
                     [&] {
                         return Run(with(fedavg), {{"D2DLEARN_CACHE_DIR", warmDir}});
                     },
                     {},
                     {}});
    cases.push_back({"fedavg, no cache",
                     [&] {
                         return Run(with(fedavg), {{"D2DLEARN_CACHE_DIR", "off"}});
                     },
                     {},
                     {}});
    int cold = 0;
    cases.push_back({"fedavg, cold cache",
                     [&] {
                         const std::string dir = tmp + "/cache-cold-" + std::to_string(cold++);
                         return Run(with(fedavg), {{"D2DLEARN_CACHE_DIR", dir}});
                     },
                     {},
                     {}});
    if (!old.empty())
    {
        cases.push_back({"old fedavg", [&] { return Run(with(old), {}); }, {}, {}});
    }
    Run(with(fedavg), {{"D2DLEARN_CACHE_DIR", warmDir}}); // fills the warm cache
    for (uint32_t r = 0; r < runs; ++r)
    {
        for (std::size_t i = 0; i < cases.size(); ++i)
        {
            auto& c = cases[(i + r) % cases.size()];
            const Cost cost = c.run();
            c.wall.push_back(cost.wall);
            c.cpu.push_back(cost.cpu);
        }
    }
    std::printf("fedavg %s, %u runs each, interleaved; medians\n", args.c_str(), runs);
    std::printf("  %-22s %9s %9s\n", "case", "wall s", "CPU s");
    for (const auto& c : cases)
    {
        std::printf("  %-22s %9.3f %9.3f\n", c.name.c_str(), Median(c.wall), Median(c.cpu));
    }
    const double warm = Median(cases[1].wall);
    std::printf("  warm cache / no cache   wall %.3f  CPU %.3f\n",
                warm / Median(cases[2].wall),
                Median(cases[1].cpu) / Median(cases[2].cpu));
    if (!old.empty())
    {
        std::printf("  warm cache / old        wall %.3f  CPU %.3f\n",
                    warm / Median(cases.back().wall),
                    Median(cases[1].cpu) / Median(cases.back().cpu));
    }
    std::printf("  above the floor: warm cache %.3f s wall, %.3f s CPU\n",
                warm - Median(cases[0].wall),
                Median(cases[1].cpu) - Median(cases[0].cpu));

    // What the floor loads, and the dynamic loader's statistics.
    const std::string list = tmp + "/libs.txt";
    Run({floorBin}, {{"LD_TRACE_LOADED_OBJECTS", "1"}}, list);
    int libs = 0;
    std::istringstream in(ReadAll(list));
    for (std::string line; std::getline(in, line);)
    {
        libs += line.find("=>") != std::string::npos ? 1 : 0;
    }
    const std::string stats = tmp + "/stats.txt";
    Run({floorBin}, {{"LD_DEBUG", "statistics"}}, stats);
    std::printf("\nthe floor loads %d shared libraries; LD_DEBUG=statistics:\n", libs);
    std::istringstream st(ReadAll(stats));
    for (std::string line; std::getline(st, line);)
    {
        const auto colon = line.find(':');
        if (colon != std::string::npos &&
            line.find_first_not_of(" \t", colon + 1) != std::string::npos)
        {
            std::printf("  %s\n", line.substr(line.find_first_not_of(" \t", colon + 1)).c_str());
        }
    }
    std::system(("rm -rf " + tmp).c_str());
    return 0;
}
