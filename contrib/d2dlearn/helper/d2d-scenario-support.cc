/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-scenario-support.h"

#include "d2d-trace-helper.h"

#include "ns3/abort.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <boost/lexical_cast.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <regex>
#include <stdexcept>

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

/** \return true if text is a whole number >= 0 no larger than max */
bool
IsUnsigned(const std::string& text, uint64_t max)
{
    static const std::regex form(R"(^\+?[0-9]+$)");
    if (!std::regex_match(text, form))
    {
        return false;
    }
    try
    {
        return std::stoull(text) <= max;
    }
    catch (const std::out_of_range&)
    {
        return false;
    }
}

/** \return true if text is a whole number in [min, max] */
bool
IsSigned(const std::string& text, int64_t min, int64_t max)
{
    static const std::regex form(R"(^[+-]?[0-9]+$)");
    if (!std::regex_match(text, form))
    {
        return false;
    }
    try
    {
        const long long value = std::stoll(text);
        return value >= min && value <= max;
    }
    catch (const std::out_of_range&)
    {
        return false;
    }
}

/** \return true if text is a finite real number */
bool
IsFinite(const std::string& text)
{
    try
    {
        return std::isfinite(boost::lexical_cast<double>(text));
    }
    catch (const boost::bad_lexical_cast&)
    {
        return false;
    }
}

/** \return true if text is a boolean as ns-3 parses it (not empty) */
bool
IsBoolean(const std::string& text)
{
    return text == "true" || text == "false" || text == "1" || text == "0" || text == "t" ||
           text == "f";
}

/** \return true if text is a value of the given kind (see D2dScenarioSupport::Param) */
bool
HasForm(const std::string& text, char kind)
{
    switch (kind)
    {
    case 'u':
        return IsUnsigned(text, std::numeric_limits<uint32_t>::max());
    case 'U':
        return IsUnsigned(text, std::numeric_limits<uint64_t>::max());
    case 'i':
        return IsSigned(text,
                        std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max());
    case 'I':
        return IsSigned(text,
                        std::numeric_limits<int64_t>::min(),
                        std::numeric_limits<int64_t>::max());
    case 'd':
        return IsFinite(text);
    case 'b':
        return text.empty() || IsBoolean(text);
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
        return fmt::format("a whole number from 0 to {}", std::numeric_limits<uint32_t>::max());
    case 'U':
        return fmt::format("a whole number from 0 to {}", std::numeric_limits<uint64_t>::max());
    case 'i':
        return fmt::format("a whole number from {} to {}",
                           std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max());
    case 'I':
        return fmt::format("a whole number from {} to {}",
                           std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max());
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

/**
 * \param value text of an attribute value
 * \param checker the attribute's checker
 * \return true if value has the form that DeserializeFromString of the checker's value type
 * parses without aborting (types not listed here are left to DeserializeFromString)
 */
bool
HasAttributeForm(const std::string& value, Ptr<const AttributeChecker> checker)
{
    // The name is "ns3::DoubleValue", but "BooleanValue" (ns-3 3.37 names it without ns3::).
    std::string type = checker->GetValueTypeName();
    type = type.rfind("ns3::", 0) == 0 ? type : "ns3::" + type;
    if (type == "ns3::UintegerValue")
    {
        return IsUnsigned(value, std::numeric_limits<uint64_t>::max());
    }
    if (type == "ns3::IntegerValue")
    {
        return IsSigned(value,
                        std::numeric_limits<int64_t>::min(),
                        std::numeric_limits<int64_t>::max());
    }
    if (type == "ns3::DoubleValue")
    {
        return IsFinite(value);
    }
    if (type == "ns3::BooleanValue")
    {
        return IsBoolean(value);
    }
    if (type == "ns3::TimeValue")
    {
        return IsTime(value);
    }
    if (type == "ns3::PointerValue")
    {
        // An ObjectFactory: ns-3 crashes on an unknown class name and aborts on a bad
        // [Attribute=value] list, so only the name of a subclass of the pointee is accepted.
        auto pointer = DynamicCast<const PointerChecker>(checker);
        TypeId tid;
        return pointer && TypeId::LookupByNameFailSafe(value, &tid) && tid.HasConstructor() &&
               (tid == pointer->GetPointeeTypeId() || tid.IsChildOf(pointer->GetPointeeTypeId()));
    }
    return true;
}

/**
 * \param tid a class
 * \param attribute an attribute name
 * \param info set to the attribute if found
 * \return true if the class defines the attribute itself: ns-3's Config::SetDefault, which
 * CommandLine uses for --ns3::Class::Attribute, does not look in the parent classes
 */
bool
DefinesAttribute(TypeId tid, const std::string& attribute, TypeId::AttributeInformation* info)
{
    for (uint32_t a = 0; a < tid.GetAttributeN(); ++a)
    {
        if (tid.GetAttribute(a).name == attribute)
        {
            *info = tid.GetAttribute(a);
            return true;
        }
    }
    return false;
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
    for (const auto& p : params)
    {
        for (const auto& attribute : p.attributes)
        {
            const std::size_t sep = attribute.rfind("::");
            TypeId tid;
            TypeId::AttributeInformation info;
            NS_ABORT_MSG_UNLESS(sep != std::string::npos &&
                                    TypeId::LookupByNameFailSafe(attribute.substr(0, sep), &tid) &&
                                    DefinesAttribute(tid, attribute.substr(sep + 2), &info),
                                "D2dScenarioSupport: --" << p.name << " declares " << attribute
                                                         << ", which is not an attribute "
                                                            "defined by that class");
        }
    }
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
        if (name == "RngSeed" || name == "RngRun")
        {
            Fail(fmt::format("--{} is not accepted: the seed is set by --seed; use that", name));
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
            if (!DefinesAttribute(tid, attribute, &info))
            {
                std::string owner;
                for (TypeId t = tid.GetParent(); owner.empty() && t != t.GetParent();
                     t = t.GetParent())
                {
                    owner = DefinesAttribute(t, attribute, &info) ? t.GetName() : "";
                }
                Fail(owner.empty()
                         ? fmt::format("--{}: {} has no attribute {} (see --PrintAttributes={})",
                                       name,
                                       className,
                                       attribute,
                                       className)
                         : fmt::format("--{}: {} is an attribute of the parent class {}; use "
                                       "--{}::{}",
                                       name,
                                       attribute,
                                       owner,
                                       owner,
                                       attribute));
            }
            for (const auto& p : params)
            {
                if (std::find(p.attributes.begin(), p.attributes.end(), name) != p.attributes.end())
                {
                    Fail(fmt::format("--{} is set by --{}; use that", name, p.name));
                }
            }
            auto checked = info.checker->Create();
            if (value.empty() || !HasAttributeForm(value, info.checker) ||
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
        // ns-3 globals are accepted too; CommandLine checks them.
        static const std::vector<std::string> globals = {"SimulatorImplementationType",
                                                         "SchedulerType",
                                                         "ChecksumEnabled"};
        if (std::find(globals.begin(), globals.end(), name) != globals.end())
        {
            if (value.empty()) // CommandLine would print its whole help
            {
                Fail(
                    fmt::format("--{} needs a value (--{}=VALUE; see --PrintGlobals)", name, name));
            }
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
        if (hasValue && value.empty() && param->kind != 'b')
        {
            // CommandLine takes --name= as a flag without value and prints its whole help.
            Fail(fmt::format("--{}= has an empty value (accepted: {})",
                             name,
                             param->kind == 's' ? "a non-empty text" : FormOf(param->kind)));
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
D2dScenarioSupport::CheckPositiveTime(const std::string& name, Time value, Time hi) const
{
    if (!value.IsStrictlyPositive() || value > hi)
    {
        Fail(fmt::format("--{}={} s is out of range (accepted: more than 0 s, at most {:g} s)",
                         name,
                         value.GetSeconds(),
                         hi.GetSeconds()));
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
D2dScenarioSupport::CheckChoice(const std::string& name,
                                const std::string& value,
                                const std::vector<std::string>& accepted) const
{
    if (std::find(accepted.begin(), accepted.end(), value) != accepted.end())
    {
        return;
    }
    std::string list;
    for (size_t i = 0; i < accepted.size(); ++i)
    {
        list += (i == 0 ? "" : (i + 1 == accepted.size() ? " or " : ", ")) + accepted[i];
    }
    Fail(fmt::format("--{}={} is not accepted ({})", name, value, list));
}

void
D2dScenarioSupport::RoundProgress(uint32_t round,
                                  uint32_t rounds,
                                  double accuracy,
                                  double loss) const
{
    if (!m_quiet)
    {
        std::fprintf(stderr,
                     "%s: round %u/%u  sim %.3f s  accuracy %.4f  loss %.4f  wall %.1f s\n",
                     m_program.c_str(),
                     round,
                     rounds,
                     Simulator::Now().GetSeconds(),
                     accuracy,
                     loss,
                     WallSeconds());
    }
}

void
D2dScenarioSupport::FinishTraces(std::unique_ptr<D2dTraceHelper>& traces,
                                 uint64_t seed,
                                 const std::function<void()>& writeLast) const
{
    try
    {
        if (writeLast)
        {
            writeLast();
        }
        traces->Finish(seed, WallSeconds());
    }
    catch (const std::exception& e)
    {
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        Fail(e.what());
    }
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
