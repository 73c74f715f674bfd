/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-scenario-support.h"

#include "ns3/abort.h"
#include "ns3/d2d-attribute-path.h"
#include "ns3/d2d-matrix-csv.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-stop-signals.h"
#include "ns3/d2d-text.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <boost/lexical_cast.hpp>
#include <cctype>
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
    // From the start of every program: no uncaught exception or SIGXFSZ ends it with an abort.
    D2dStopSignals::Install();
}

namespace
{
/** Longest time ns-3 represents (2^63 - 1 ns), s: longer times wrap around. */
constexpr double MAX_TIME_S = 9.2e9;

/**
 * \return true if text is a Time as ns-3 parses it (a number and an optional unit) whose
 * magnitude ns-3 represents without wrapping around (below about 292 years)
 */
bool
IsTime(const std::string& text)
{
    static const std::regex time(
        R"(^[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)(s|ms|us|ns|ps|fs|min|h|d|y)?$)");
    std::smatch match;
    if (!std::regex_match(text, match, time))
    {
        return false;
    }
    static const std::vector<std::pair<std::string, double>> units = {{"", 1},
                                                                      {"s", 1},
                                                                      {"ms", 1e-3},
                                                                      {"us", 1e-6},
                                                                      {"ns", 1e-9},
                                                                      {"ps", 1e-12},
                                                                      {"fs", 1e-15},
                                                                      {"min", 60},
                                                                      {"h", 3600},
                                                                      {"d", 86400},
                                                                      {"y", 365 * 86400.0}};
    double perUnit = 1;
    for (const auto& [unit, seconds] : units)
    {
        perUnit = match[4].str() == unit ? seconds : perUnit;
    }
    try
    {
        return std::stod(match[1].str()) * perUnit < MAX_TIME_S;
    }
    catch (const std::out_of_range&)
    {
        return false;
    }
}

/**
 * \return true if text is a whole number >= 0 no larger than max (digits, or exponent
 * notation that denotes a whole number: 1e10)
 */
bool
IsUnsigned(const std::string& text, uint64_t max)
{
    std::string decimal;
    if (!D2dScenarioSupport::WholeNumber(text, &decimal) || decimal[0] == '-')
    {
        return false;
    }
    try
    {
        return std::stoull(decimal) <= max;
    }
    catch (const std::out_of_range&)
    {
        return false;
    }
}

/** \return true if text is a whole number in [min, max] (as IsUnsigned, signed) */
bool
IsSigned(const std::string& text, int64_t min, int64_t max)
{
    std::string decimal;
    if (!D2dScenarioSupport::WholeNumber(text, &decimal))
    {
        return false;
    }
    try
    {
        const long long value = std::stoll(decimal);
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
HasForm(const std::string& text, D2dScenarioSupport::Form kind)
{
    switch (kind)
    {
    case D2dScenarioSupport::Form::UINT32:
        return IsUnsigned(text, std::numeric_limits<uint32_t>::max());
    case D2dScenarioSupport::Form::UINT64:
        return IsUnsigned(text, std::numeric_limits<uint64_t>::max());
    case D2dScenarioSupport::Form::INT32:
        return IsSigned(text,
                        std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max());
    case D2dScenarioSupport::Form::INT64:
        return IsSigned(text,
                        std::numeric_limits<int64_t>::min(),
                        std::numeric_limits<int64_t>::max());
    case D2dScenarioSupport::Form::REAL:
        return IsFinite(text);
    case D2dScenarioSupport::Form::BOOLEAN:
        return text.empty() || IsBoolean(text);
    case D2dScenarioSupport::Form::TIME:
        return IsTime(text);
    default:
        return true;
    }
}

/** \return a description of the accepted form of a kind */
std::string
FormOf(D2dScenarioSupport::Form kind)
{
    switch (kind)
    {
    case D2dScenarioSupport::Form::UINT32:
        return fmt::format("a whole number from 0 to {}", std::numeric_limits<uint32_t>::max());
    case D2dScenarioSupport::Form::UINT64:
        return fmt::format("a whole number from 0 to {}", std::numeric_limits<uint64_t>::max());
    case D2dScenarioSupport::Form::INT32:
        return fmt::format("a whole number from {} to {}",
                           std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max());
    case D2dScenarioSupport::Form::INT64:
        return fmt::format("a whole number from {} to {}",
                           std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max());
    case D2dScenarioSupport::Form::REAL:
        return "a finite number";
    case D2dScenarioSupport::Form::BOOLEAN:
        return "true or false";
    case D2dScenarioSupport::Form::TIME:
        return "a time such as 10s, 500ms or 2min, below 9.2e9 s";
    default:
        return "text";
    }
}

/**
 * \param checker an enumeration attribute's checker
 * \return the names it accepts, from its GetUnderlyingTypeInformation(), "a|b|c"
 */
std::vector<std::string>
EnumNames(Ptr<const AttributeChecker> checker)
{
    const std::string info = checker->GetUnderlyingTypeInformation();
    std::vector<std::string> names;
    std::size_t start = 0;
    for (std::size_t bar = info.find('|'); bar != std::string::npos; bar = info.find('|', start))
    {
        names.push_back(info.substr(start, bar - start));
        start = bar + 1;
    }
    names.push_back(info.substr(start));
    return names;
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
    const std::string type = D2dScenarioSupport::ValueTypeName(checker);
    if (D2dIsEnumValueType(type))
    {
        // One of the names, as written: from ns-3.41 EnumChecker asserts on another name
        // (3.37 returned false).
        const auto names = EnumNames(checker);
        return std::find(names.begin(), names.end(), value) != names.end();
    }
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
 * \param value text of an attribute value
 * \param checker the attribute's checker
 * \return the text DeserializeFromString is given: a whole number in exponent notation
 * (1e3) in decimal digits for an integer attribute (ns-3 reads "1e3" as 1 and aborts on
 * the rest), else value
 */
std::string
Deserializable(const std::string& value, Ptr<const AttributeChecker> checker)
{
    const std::string type = D2dScenarioSupport::ValueTypeName(checker);
    std::string decimal;
    if ((type == "ns3::UintegerValue" || type == "ns3::IntegerValue") &&
        D2dScenarioSupport::WholeNumber(value, &decimal))
    {
        return decimal;
    }
    return value;
}

/**
 * \param checker an attribute's checker
 * \return the values it accepts, in words: "1 to 50", "at least 0", "a or b", ...
 */
std::string
Accepted(Ptr<const AttributeChecker> checker)
{
    const std::string type = D2dScenarioSupport::ValueTypeName(checker);
    const std::string info = checker->GetUnderlyingTypeInformation();
    if (type == "ns3::BooleanValue")
    {
        return "true or false";
    }
    if (D2dIsEnumValueType(type))
    {
        return D2dText::OrList(EnumNames(checker));
    }
    const bool number =
        type == "ns3::DoubleValue" || type == "ns3::UintegerValue" || type == "ns3::IntegerValue";
    const std::size_t space = info.find(' ');
    const std::size_t colon = info.find(':', space == std::string::npos ? 0 : space);
    if ((!number && type != "ns3::TimeValue") || space == std::string::npos ||
        colon == std::string::npos)
    {
        return info.empty() ? checker->GetValueTypeName() : info;
    }
    // "double 1:50", "uint32_t 1:4294967295", "Time +1ns:+1e+18ns"
    const std::string loText = info.substr(space + 1, colon - space - 1);
    const std::string hiText = info.substr(colon + 1);
    const bool time = type == "ns3::TimeValue";
    auto accepts = [&checker](const std::string& text) {
        return checker->CreateValidValue(StringValue(text)) != nullptr;
    };
    double lo = 0;
    double hi = 0;
    try
    {
        lo = time ? D2dScenarioSupport::ToSeconds(Time(loText)) : std::stod(loText);
        hi = time ? D2dScenarioSupport::ToSeconds(Time(hiText)) : std::stod(hiText);
    }
    catch (const std::exception&)
    {
        return info;
    }
    // The extremes of the value type mean no bound (ns-3 prints Time::Min() as positive).
    const std::string t = info.substr(0, space);
    double typeMax = time ? MAX_TIME_S : 1.7e308;
    if (t == "uint8_t" || t == "int8_t")
    {
        typeMax = t[0] == 'u' ? 255 : 127;
    }
    else if (t == "uint16_t" || t == "int16_t")
    {
        typeMax = t[0] == 'u' ? 65535 : 32767;
    }
    else if (t == "uint32_t" || t == "int32_t")
    {
        typeMax = t[0] == 'u' ? 4294967295.0 : 2147483647.0;
    }
    else if (t == "uint64_t" || t == "int64_t")
    {
        typeMax = t[0] == 'u' ? 1.8e19 : 9.2e18;
    }
    const bool noLo = lo <= -typeMax || (time && lo > hi);
    const bool noHi = hi >= typeMax;
    const std::string unit = time ? " s" : "";
    // Exclusive bounds: a checker's bound that it rejects (nextafter(50, 0) prints as 50),
    // and 1 ns for a time (more than 0).
    const bool loOpen = time ? loText == "+1ns" : !accepts(loText);
    const bool hiOpen = !time && !accepts(hiText);
    const std::string from = time && loOpen ? "more than 0 s"
                             : loOpen ? "more than " + D2dScenarioSupport::FormatNumber(lo) + unit
                                      : "at least " + D2dScenarioSupport::FormatNumber(lo) + unit;
    const std::string to = hiOpen ? "below " + D2dScenarioSupport::FormatNumber(hi) + unit
                                  : "at most " + D2dScenarioSupport::FormatNumber(hi) + unit;
    if (noLo && noHi)
    {
        return time ? "a time such as 10s, 500ms or 2min" : "a number";
    }
    if (noHi)
    {
        return from;
    }
    if (noLo)
    {
        return to;
    }
    if (!loOpen && !hiOpen)
    {
        return D2dScenarioSupport::FormatNumber(lo) + unit + " to " +
               D2dScenarioSupport::FormatNumber(hi) + unit;
    }
    return from + ", " + to;
}

} // namespace

bool
D2dScenarioSupport::LookupAttribute(const std::string& path, TypeId::AttributeInformation* info)
{
    return D2dAttributePath::Lookup(path, info);
}

std::string
D2dScenarioSupport::ValueTypeName(Ptr<const AttributeChecker> checker)
{
    return D2dAttributePath::ValueTypeName(checker);
}

std::string
D2dScenarioSupport::NearestName(const std::string& name, const std::vector<Param>& params)
{
    // Levenshtein distance, case-insensitive (--ndevices is --nDevices misspelt).
    auto lower = [](std::string t) {
        std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) {
            return static_cast<char>(std::tolower(c));
        });
        return t;
    };
    const std::string a = lower(name);
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, a.size() / 4) + 1;
    for (const auto& p : params)
    {
        const std::string b = lower(p.name);
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
        {
            row[j] = j;
        }
        for (std::size_t i = 1; i <= a.size(); ++i)
        {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j)
            {
                const std::size_t above = row[j];
                row[j] = std::min(
                    {row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = above;
            }
        }
        if (row[b.size()] < bestDistance)
        {
            bestDistance = row[b.size()];
            best = p.name;
        }
    }
    return best;
}

void
D2dScenarioSupport::CheckArguments(int argc, char** argv, const std::vector<Param>& params) const
{
    CheckDeclarations(params);
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
        if (CheckBuiltin(name, value))
        {
            continue;
        }
        if (name == "RngSeed")
        {
            Fail("--RngSeed is not accepted: the seed is set by --seed; use that");
        }
        CheckRenamed(name, value, params);
        if (name.rfind("ns3::", 0) == 0)
        {
            CheckAttributeArgument(name, value, params);
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
        const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
        CheckParameterArgument(name, hasValue, value, next, params);
    }
}

void
D2dScenarioSupport::CheckDeclarations(const std::vector<Param>& params)
{
    for (const auto& p : params)
    {
        auto attributes = p.attributes;
        if (!p.checkedBy.empty())
        {
            attributes.push_back(p.checkedBy);
        }
        for (const auto& attribute : attributes)
        {
            TypeId::AttributeInformation info;
            NS_ABORT_MSG_UNLESS(LookupAttribute(attribute, &info),
                                "D2dScenarioSupport: --" << p.name << " declares " << attribute
                                                         << ", which is not an attribute "
                                                            "defined by that class");
        }
    }
}

bool
D2dScenarioSupport::CheckBuiltin(const std::string& name, const std::string& value) const
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
    if (std::find(builtin.begin(), builtin.end(), name) == builtin.end())
    {
        return false;
    }
    // ns-3's CommandLine aborts (exit 134) on a class or group it does not know.
    TypeId tid;
    if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
    {
        Fail(fmt::format("--PrintAttributes={}: unknown ns-3 class (accepted: a class "
                         "name, e.g. ns3::D2dChannel; see --PrintTypeIds)",
                         value));
    }
    if (name == "PrintGroup")
    {
        bool known = false;
        for (uint16_t k = 0; !known && k < TypeId::GetRegisteredN(); ++k)
        {
            known = TypeId::GetRegistered(k).GetGroupName() == value;
        }
        if (!known)
        {
            Fail(fmt::format("--PrintGroup={}: unknown group (accepted: a group name, "
                             "e.g. D2dlearn; see --PrintGroups)",
                             value));
        }
    }
    return true;
}

std::string
D2dScenarioSupport::RenamedShare(const std::string& name)
{
    // Former percent (0-100) -> share (0-1): the flags, then the attributes' own names (of any
    // class path: ns3::D2dCmfl::CommitteePercent).
    static const std::vector<std::pair<std::string, std::string>> renamed = {
        {"activationPercent", "activationFraction"},
        {"aggregationPercent", "aggregationFraction"},
        {"committeePercent", "committeeFraction"},
        {"maliciousPercent", "maliciousFraction"},
        {"trimPercent", "trimFraction"},
        {"ActivationPercent", "ActivationFraction"},
        {"AggregationPercent", "AggregationFraction"},
        {"CommitteePercent", "CommitteeFraction"},
        {"ByzantinePercent", "ByzantineFraction"},
        {"SelectPercent", "SelectFraction"},
        {"TrimPercent", "TrimFraction"},
    };
    const std::size_t colons = name.rfind("::");
    const bool attribute = name.rfind("ns3::", 0) == 0 && colons != std::string::npos;
    const std::string last = attribute ? name.substr(colons + 2) : name;
    for (const auto& [before, after] : renamed)
    {
        if (last == before &&
            attribute == (std::isupper(static_cast<unsigned char>(before[0])) != 0))
        {
            return attribute ? name.substr(0, colons + 2) + after : after;
        }
    }
    return "";
}

void
D2dScenarioSupport::CheckRenamed(const std::string& name,
                                 const std::string& value,
                                 const std::vector<Param>& params) const
{
    const std::string renamed = RenamedShare(name);
    const bool attribute = name.rfind("ns3::", 0) == 0;
    if (renamed.empty() ||
        (!attribute && std::none_of(params.begin(), params.end(), [&renamed](const Param& p) {
            return p.name == renamed;
        })))
    {
        return;
    }
    // The value given, as a share, if it is a number; else an example.
    std::string example = "30 percent is 0.3";
    char* end = nullptr;
    const double percent = value.empty() ? 0 : std::strtod(value.c_str(), &end);
    if (!value.empty() && end && *end == '\0' && std::isfinite(percent))
    {
        example = fmt::format("{} percent is {}", value, FormatNumber(percent / 100.0));
    }
    Fail(fmt::format("--{}: renamed; use --{}, a share in [0, 1] ({})", name, renamed, example));
}

void
D2dScenarioSupport::CheckAttributeArgument(const std::string& name,
                                           const std::string& value,
                                           const std::vector<Param>& params) const
{
    // --ns3::Class::Attribute=value
    std::string className;
    std::string attribute;
    TypeId tid;
    if (!D2dAttributePath::Split(name, &className, &attribute) ||
        !TypeId::LookupByNameFailSafe(className, &tid))
    {
        Fail(fmt::format("--{}: unknown ns-3 class {} (see --PrintTypeIds)", name, className));
    }
    TypeId::AttributeInformation info;
    if (!D2dAttributePath::DefinedBy(tid, attribute, &info))
    {
        std::string owner;
        for (TypeId t = tid.GetParent(); owner.empty() && t != t.GetParent(); t = t.GetParent())
        {
            owner = D2dAttributePath::DefinedBy(t, attribute, &info) ? t.GetName() : "";
        }
        Fail(owner.empty() ? fmt::format("--{}: {} has no attribute {} (see --PrintAttributes={})",
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
    if (value.empty() || !HasAttributeForm(value, info.checker) ||
        !info.checker->CreateValidValue(StringValue(Deserializable(value, info.checker))))
    {
        Fail(fmt::format("--{}={} is not accepted (accepted: {})",
                         name,
                         value,
                         Accepted(info.checker)));
    }
}

void
D2dScenarioSupport::CheckParameterArgument(const std::string& name,
                                           bool hasValue,
                                           const std::string& value,
                                           const char* next,
                                           const std::vector<Param>& params) const
{
    auto param = std::find_if(params.begin(), params.end(), [&name](const Param& p) {
        return p.name == name;
    });
    if (param == params.end())
    {
        const std::string near = NearestName(name, params);
        Fail(fmt::format("unknown parameter --{} ({}see --PrintHelp for the accepted "
                         "parameters)",
                         name,
                         near.empty() ? "" : "did you mean --" + near + "? "));
    }
    TypeId::AttributeInformation info;
    const bool checked = !param->checkedBy.empty() && LookupAttribute(param->checkedBy, &info);
    const std::string accepted = !param->accepted.empty() ? param->accepted
                                 : checked && param->kind != D2dScenarioSupport::Form::BOOLEAN &&
                                         param->kind != D2dScenarioSupport::Form::TEXT
                                     ? Accepted(info.checker)
                                     : FormOf(param->kind);
    if (hasValue && value.empty() && param->kind != D2dScenarioSupport::Form::BOOLEAN)
    {
        // CommandLine takes --name= as a flag without value and prints its whole help.
        Fail(fmt::format("--{}= has an empty value (accepted: {})",
                         name,
                         param->kind == D2dScenarioSupport::Form::TEXT && param->accepted.empty()
                             ? "a non-empty text"
                             : accepted));
    }
    if (!hasValue && param->kind != D2dScenarioSupport::Form::BOOLEAN && next != nullptr &&
        std::string(next).rfind("--", 0) != 0)
    {
        // "--nDevices 3": the value given as the next argument.
        Fail(fmt::format("--{} {}: a value follows '=' (use --{}={})", name, next, name, next));
    }
    if ((!hasValue && param->kind != D2dScenarioSupport::Form::BOOLEAN) ||
        !HasForm(value, param->kind))
    {
        Fail(fmt::format("--{}={} is not accepted (accepted: {})", name, value, accepted));
    }
    if (checked)
    {
        // The attribute's checker decides: its value type parses the text (a boolean
        // flag without value is true) and its range accepts the value.
        const std::string text = hasValue ? value : "true";
        if (!HasAttributeForm(text, info.checker) ||
            !info.checker->CreateValidValue(StringValue(Deserializable(text, info.checker))))
        {
            Fail(fmt::format("--{}={} is {} (accepted: {})",
                             name,
                             value,
                             param->kind == D2dScenarioSupport::Form::TEXT ? "not accepted"
                                                                           : "out of range",
                             param->accepted.empty() ? Accepted(info.checker) : accepted));
        }
    }
}

bool
D2dScenarioSupport::WholeNumber(const std::string& text, std::string* decimal)
{
    // sign, integer digits, fraction digits, exponent
    static const std::regex form(R"(^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,6}))?$)");
    std::smatch match;
    if (text.size() > 100 || !std::regex_match(text, match, form) ||
        match[2].length() + match[3].length() == 0 ||
        (match[4].matched && match[2].length() == 0 && match[3].length() == 0))
    {
        return false;
    }
    if (!match[4].matched && match[3].matched)
    {
        // 12. or 12.0 are no integer literals: a whole number without exponent is digits
        return false;
    }
    std::string digits = match[2].str() + match[3].str();
    // value = digits x 10^shift
    long shift = (match[4].matched ? std::stol(match[4].str()) : 0) - match[3].length();
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if (digits.empty())
    {
        *decimal = "0";
        return true;
    }
    if (shift < 0)
    {
        // the last -shift digits are the fraction: they must all be zeros
        const std::size_t cut = static_cast<std::size_t>(-shift);
        if (cut >= digits.size() ||
            digits.find_first_not_of('0', digits.size() - cut) != std::string::npos)
        {
            return false;
        }
        digits.erase(digits.size() - cut);
        shift = 0;
    }
    if (digits.size() + static_cast<std::size_t>(shift) > 40)
    {
        return false;
    }
    *decimal = (match[1].str() == "-" ? "-" : "") + digits + std::string(shift, '0');
    return true;
}

bool
D2dScenarioSupport::ParseNumber(const std::string& token, double& value)
{
    try
    {
        std::size_t used = 0;
        value = std::stod(token, &used);
        return used == token.size() && std::isfinite(value);
    }
    catch (const std::exception&)
    {
        return false;
    }
}

std::string
D2dScenarioSupport::FormatNumber(double value)
{
    if (value == 0)
    {
        value = 0.0; // -0 (a time bound of -0 s) reads as 0
    }
    // Whole numbers in full when short or when the short form would lose digits
    // (4294967295), else the short form (1e+09).
    const std::string brief = fmt::format("{:g}", value);
    if (value == std::floor(value) && std::fabs(value) < 1e19 &&
        (std::fabs(value) < 1e6 || std::stod(brief) != value))
    {
        return fmt::format("{:.0f}", value);
    }
    return value == std::floor(value) ? brief : fmt::format("{}", value);
}

double
D2dScenarioSupport::ToSeconds(Time t)
{
    if (!t.IsNegative())
    {
        return t.GetSeconds();
    }
    if (t.GetTimeStep() == std::numeric_limits<int64_t>::min())
    {
        return -Time::Max().GetSeconds(); // -(2^63 - 1) steps: Abs() of it would overflow
    }
    return -Abs(t).GetSeconds();
}

std::string
D2dScenarioSupport::FirstLine(const std::string& text)
{
    return D2dMatrixCsv::Excerpt(D2dText::FirstLine(text), 300);
}

void
D2dScenarioSupport::Fail(const std::string& message) const
{
    // One line, whatever the message quotes: LibTorch's errors run to many (a TorchScript
    // module's: the interpreter's traceback, then the error it raised, which is kept).
    std::string line = message;
    if (const auto nl = line.find('\n'); nl != std::string::npos)
    {
        const auto script = line.find("The following operation failed in the TorchScript");
        line = script != std::string::npos && script < nl
                   ? line.substr(0, script) + D2dText::ErrorLine(line.substr(script))
                   : line.substr(0, nl);
    }
    std::fprintf(stderr, "%s: error: %s\n", m_program.c_str(), line.c_str());
    std::exit(2);
}

void
D2dScenarioSupport::CheckRange(const std::string& name, double value, double lo, double hi) const
{
    if (!(value >= lo && value <= hi))
    {
        Fail(fmt::format("--{}={} is out of range (accepted: {} to {})",
                         name,
                         FormatNumber(value),
                         FormatNumber(lo),
                         FormatNumber(hi)));
    }
}

void
D2dScenarioSupport::SetQuiet(bool quiet)
{
    m_quiet = quiet;
}

void
D2dScenarioSupport::Note(const std::string& text) const
{
    if (!m_quiet)
    {
        std::fprintf(stderr, "%s: %s\n", m_program.c_str(), text.c_str());
    }
}

const std::string&
D2dScenarioSupport::GetProgram() const
{
    return m_program;
}

void
D2dScenarioSupport::StartProgress(Time interval, Time stop)
{
    if (!m_quiet && interval.IsStrictlyPositive())
    {
        m_progressStartWall = WallSeconds();
        Simulator::Schedule(interval, &D2dScenarioSupport::Progress, this, interval, stop);
    }
}

double
D2dScenarioSupport::WallSecondsLeft(double done, double total, double wallSpent)
{
    if (!(done > 0) || !(total >= done) || !(wallSpent >= 0))
    {
        return std::nan("");
    }
    return wallSpent / done * (total - done);
}

std::string
D2dScenarioSupport::LeftText(double seconds)
{
    if (std::isnan(seconds) || seconds == 0)
    {
        return ""; // no pace yet, or nothing left
    }
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s == 0)
    {
        return ", under 1 s left";
    }
    if (s < 60)
    {
        return fmt::format(", about {} s left", s);
    }
    if (s < 3600)
    {
        return fmt::format(", about {} min {} s left", s / 60, s % 60);
    }
    return fmt::format(", about {} h {} min left", s / 3600, s % 3600 / 60);
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
    Fail(fmt::format("--{}={} is not accepted ({})", name, value, D2dText::OrList(accepted)));
}

void
D2dScenarioSupport::RoundProgress(uint32_t round,
                                  uint32_t rounds,
                                  double accuracy,
                                  double loss,
                                  bool regression) const
{
    if (m_quiet)
    {
        return;
    }
    // The pace: rounds and wall time since the first line (the set-up before it, data
    // loading and the first evaluation, is not a round's).
    const double wall = WallSeconds();
    if (m_firstRound.second < 0)
    {
        m_firstRound = {round, wall};
    }
    const std::string left = LeftText(WallSecondsLeft(double(round) - m_firstRound.first,
                                                      double(rounds) - m_firstRound.first,
                                                      wall - m_firstRound.second));
    if (regression)
    {
        std::fprintf(stderr,
                     "%s: round %u/%u  sim %.3f s  test MSE %.4f  wall %.1f s%s\n",
                     m_program.c_str(),
                     round,
                     rounds,
                     Simulator::Now().GetSeconds(),
                     loss,
                     wall,
                     left.c_str());
    }
    else
    {
        std::fprintf(stderr,
                     "%s: round %u/%u  sim %.3f s  accuracy %.4f  loss %.4f  wall %.1f s%s\n",
                     m_program.c_str(),
                     round,
                     rounds,
                     Simulator::Now().GetSeconds(),
                     accuracy,
                     loss,
                     wall,
                     left.c_str());
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
    const double wall = WallSeconds();
    std::fprintf(stderr,
                 "%s: simulated %.3f / %.3f s, wall %.1f s%s\n",
                 m_program.c_str(),
                 Simulator::Now().GetSeconds(),
                 stop.GetSeconds(),
                 wall,
                 LeftText(WallSecondsLeft(Simulator::Now().GetSeconds(),
                                          stop.GetSeconds(),
                                          wall - m_progressStartWall))
                     .c_str());
    if (Simulator::Now() + interval < stop)
    {
        Simulator::Schedule(interval, &D2dScenarioSupport::Progress, this, interval, stop);
    }
}

} // namespace ns3
