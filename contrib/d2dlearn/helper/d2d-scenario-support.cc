/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-scenario-support.h"

#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <boost/lexical_cast.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <regex>

namespace ns3
{

D2dScenarioSupport::D2dScenarioSupport(std::string program, bool quiet)
    : m_program(std::move(program)),
      m_quiet(quiet),
      m_start(std::chrono::steady_clock::now())
{
}

namespace
{
/** \return true if text is a Time as ns-3 parses it: a number and an optional unit */
bool
IsTime(const std::string& text)
{
    static const std::regex time(
        R"(^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?$)");
    return std::regex_match(text, time);
}

/** \return true if text is a value of the given kind (see D2dScenarioSupport::Param) */
bool
HasForm(const std::string& text, char kind)
{
    static const std::regex unsignedInt(R"(^\+?[0-9]+$)");
    static const std::regex signedInt(R"(^[+-]?[0-9]+$)");
    switch (kind)
    {
    case 'u':
        return std::regex_match(text, unsignedInt) && text.size() < 20;
    case 'i':
        return std::regex_match(text, signedInt) && text.size() < 19;
    case 'd':
        try
        {
            return std::isfinite(boost::lexical_cast<double>(text));
        }
        catch (const boost::bad_lexical_cast&)
        {
            return false;
        }
    case 'b':
        return text.empty() || text == "true" || text == "false" || text == "1" || text == "0" ||
               text == "t" || text == "f";
    case 't':
        return IsTime(text);
    default:
        return true;
    }
}

/** \return a description of the accepted form of a kind */
std::string
FormOf(char kind)
{
    switch (kind)
    {
    case 'u':
        return "a whole number >= 0";
    case 'i':
        return "a whole number";
    case 'd':
        return "a finite number";
    case 'b':
        return "true or false";
    case 't':
        return "a time such as 10s, 500ms or 2min";
    default:
        return "text";
    }
}
} // namespace

void
D2dScenarioSupport::CheckArguments(int argc, char** argv, const std::vector<Param>& params) const
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
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
        {
            Fail(fmt::format("unknown parameter '{}' (parameters are --name=value; see "
                             "--PrintHelp)",
                             arg));
        }
        const std::size_t eq = arg.find('=');
        const std::string name =
            arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const bool hasValue = eq != std::string::npos;
        const std::string value = hasValue ? arg.substr(eq + 1) : "";
        if (std::find(builtin.begin(), builtin.end(), name) != builtin.end())
        {
            continue;
        }
        if (name.rfind("ns3::", 0) == 0)
        {
            // --ns3::Class::Attribute=value
            const std::size_t sep = name.rfind("::");
            const std::string className = name.substr(0, sep);
            const std::string attribute = name.substr(sep + 2);
            TypeId tid;
            if (sep <= 3 || !TypeId::LookupByNameFailSafe(className, &tid))
            {
                Fail(fmt::format("--{}: unknown ns-3 class {} (see --PrintTypeIds)",
                                 name,
                                 className));
            }
            TypeId::AttributeInformation info;
            if (!tid.LookupAttributeByName(attribute, &info))
            {
                Fail(fmt::format("--{}: {} has no attribute {} (see --PrintAttributes={})",
                                 name,
                                 className,
                                 attribute,
                                 className));
            }
            const bool isTime = info.checker->GetValueTypeName() == "ns3::TimeValue";
            auto checked = info.checker->Create();
            if ((isTime && !IsTime(value)) ||
                !checked->DeserializeFromString(value, info.checker) ||
                !info.checker->Check(*checked))
            {
                std::string range = info.checker->GetUnderlyingTypeInformation();
                Fail(fmt::format("--{}={} is not accepted (accepted: {})",
                                 name,
                                 value,
                                 range.empty() ? info.checker->GetValueTypeName() : range));
            }
            continue;
        }
        // ns-3 globals (e.g. --RngRun) are accepted too; CommandLine checks them.
        static const std::vector<std::string> globals = {"RngSeed",
                                                         "RngRun",
                                                         "SimulatorImplementationType",
                                                         "SchedulerType",
                                                         "ChecksumEnabled"};
        if (std::find(globals.begin(), globals.end(), name) != globals.end())
        {
            continue;
        }
        auto param = std::find_if(params.begin(), params.end(), [&name](const Param& p) {
            return p.name == name;
        });
        if (param == params.end())
        {
            Fail(fmt::format("unknown parameter --{} (see --PrintHelp for the accepted "
                             "parameters)",
                             name));
        }
        if ((!hasValue && param->kind != 'b') || !HasForm(value, param->kind))
        {
            Fail(fmt::format("--{}={} is not accepted (accepted: {})",
                             name,
                             value,
                             FormOf(param->kind)));
        }
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
