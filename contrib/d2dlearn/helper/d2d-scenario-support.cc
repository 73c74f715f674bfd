/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-scenario-support.h"

#include "ns3/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ns3
{

D2dScenarioSupport::D2dScenarioSupport(std::string program, bool quiet)
    : m_program(std::move(program)),
      m_quiet(quiet),
      m_start(std::chrono::steady_clock::now())
{
}

void
D2dScenarioSupport::RejectUnknown(int argc, char** argv, const std::vector<std::string>& known) const
{
    static const std::vector<std::string> builtin = {"PrintHelp",
                                                     "help",
                                                     "PrintGlobals",
                                                     "PrintGroups",
                                                     "PrintGroup",
                                                     "PrintTypeIds",
                                                     "PrintAttributes",
                                                     "PrintVersion",
                                                     "version"};
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
        {
            if (arg.rfind("-", 0) == 0)
            {
                Fail(fmt::format("unknown parameter '{}' (parameters are --name=value; see "
                                 "--PrintHelp)",
                                 arg));
            }
            continue; // a positional value: CommandLine reports those
        }
        std::string name = arg.substr(2, arg.find('=') == std::string::npos
                                             ? std::string::npos
                                             : arg.find('=') - 2);
        if (name.rfind("ns3::", 0) == 0 ||
            std::find(known.begin(), known.end(), name) != known.end() ||
            std::find(builtin.begin(), builtin.end(), name) != builtin.end())
        {
            continue;
        }
        // ns-3 globals (e.g. --RngRun, --SimulatorImplementationType) are accepted too.
        static const std::vector<std::string> globals = {"RngSeed",
                                                         "RngRun",
                                                         "SimulatorImplementationType",
                                                         "SchedulerType",
                                                         "ChecksumEnabled"};
        if (std::find(globals.begin(), globals.end(), name) != globals.end())
        {
            continue;
        }
        Fail(fmt::format("unknown parameter --{} (see --PrintHelp for the accepted parameters)",
                         name));
    }
}

void
D2dScenarioSupport::Fail(const std::string& message) const
{
    std::fprintf(stderr, "%s: error: %s\n", m_program.c_str(), message.c_str());
    std::exit(2);
}

void
D2dScenarioSupport::CheckRange(const std::string& name, double value, double lo, double hi) const
{
    if (!(value >= lo && value <= hi))
    {
        Fail(fmt::format("--{}={} is out of range (accepted: {} to {})", name, value, lo, hi));
    }
}

void
D2dScenarioSupport::SetQuiet(bool quiet)
{
    m_quiet = quiet;
}

void
D2dScenarioSupport::StartProgress(Time interval, Time stop)
{
    if (!m_quiet && interval.IsStrictlyPositive())
    {
        Simulator::Schedule(interval, &D2dScenarioSupport::Progress, this, interval, stop);
    }
}

double
D2dScenarioSupport::WallSeconds() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void
D2dScenarioSupport::Progress(Time interval, Time stop)
{
    std::fprintf(stderr,
                 "%s: simulated %.3f / %.3f s, wall %.1f s\n",
                 m_program.c_str(),
                 Simulator::Now().GetSeconds(),
                 stop.GetSeconds(),
                 WallSeconds());
    if (Simulator::Now() + interval < stop)
    {
        Simulator::Schedule(interval, &D2dScenarioSupport::Progress, this, interval, stop);
    }
}

} // namespace ns3
