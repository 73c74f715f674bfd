/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-scenario-flags.h"

#include "d2d-case-batch.h"
#include "d2d-flag-scope.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-text.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dScenarioFlags");

namespace
{
/**
 * \return true: a bound flag's value is taken before CommandLine parses, a text variable's
 * after (see Parse())
 */
bool
AcceptBound(D2dCommandLineArgument)
{
    return true;
}

/**
 * The value of a bound flag's text. A string attribute takes the text whole: ns-3's
 * StringValue::DeserializeFromString reads it with operator>>, up to the first space, and
 * aborts on the rest (a path such as "my dir/trust.csv" or free text), so it is never called
 * on one. Other types are left to DeserializeFromString, which the flag's form check
 * (D2dScenarioSupport::CheckArguments) has made safe.
 * \param checker the attribute's checker
 * \param text the flag's value
 * \return the value, or null if the checker's type does not parse the text
 */
Ptr<AttributeValue>
ParseValue(Ptr<const AttributeChecker> checker, const std::string& text)
{
    if (D2dScenarioSupport::ValueTypeName(checker) == "ns3::StringValue")
    {
        return Create<StringValue>(text);
    }
    auto value = checker->Create();
    return value->DeserializeFromString(text, checker) ? value : nullptr;
}

/**
 * \return the attribute "ns3::Class::Attribute" of the class that defines it (aborts if
 * there is none: a typing error in the program) \param path it
 */
TypeId::AttributeInformation
LookupAttribute(const std::string& path)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(D2dScenarioSupport::LookupAttribute(path, &info),
                        "D2dScenarioFlags: " << path
                                             << " is not an attribute defined by that class");
    return info;
}

/**
 * \param value an attribute value
 * \param number set to it as a number (times in seconds)
 * \return true if the value is a number or a time
 */
bool
AsNumber(const AttributeValue& value, double& number)
{
    if (auto d = dynamic_cast<const DoubleValue*>(&value))
    {
        number = d->Get();
    }
    else if (auto u = dynamic_cast<const UintegerValue*>(&value))
    {
        number = static_cast<double>(u->Get());
    }
    else if (auto i = dynamic_cast<const IntegerValue*>(&value))
    {
        number = static_cast<double>(i->Get());
    }
    else if (auto t = dynamic_cast<const TimeValue*>(&value))
    {
        number = D2dScenarioSupport::ToSeconds(t->Get());
    }
    else
    {
        return false;
    }
    return true;
}

/**
 * \return what a Range() or Positive() accepts, in words
 * \param lo lowest value \param hi highest value \param loExclusive Positive()
 * \param time a time (seconds)
 */
std::string
RangeText(double lo, double hi, bool loExclusive, bool time)
{
    const std::string unit = time ? " s" : "";
    const std::string high = D2dScenarioSupport::FormatNumber(hi) + unit;
    return loExclusive ? fmt::format("more than {}{}, at most {}",
                                     D2dScenarioSupport::FormatNumber(lo),
                                     unit,
                                     high)
                       : D2dScenarioSupport::FormatNumber(lo) + unit + " to " + high;
}

/**
 * \return the arguments with every whole number of an integer flag or attribute in decimal
 * digits (1e10 -> 10000000000): ns-3 would read 1e10 as 1
 * \param argc argument count
 * \param argv the arguments
 * \param params the program's flags
 */
std::vector<std::string>
WithWholeNumbers(int argc, char** argv, const std::vector<D2dScenarioSupport::Param>& params)
{
    std::vector<std::string> args(argv, argv + argc);
    for (int i = 1; i < argc; ++i)
    {
        const std::size_t eq = args[i].find('=');
        if (eq == std::string::npos || args[i].rfind("--", 0) != 0)
        {
            continue;
        }
        const std::string name = args[i].substr(2, eq - 2);
        bool integer = false;
        if (TypeId::AttributeInformation info;
            name.rfind("ns3::", 0) == 0 && D2dScenarioSupport::LookupAttribute(name, &info))
        {
            const std::string type = D2dScenarioSupport::ValueTypeName(info.checker);
            integer = type == "ns3::UintegerValue" || type == "ns3::IntegerValue";
        }
        for (const auto& p : params)
        {
            integer = integer || (p.name == name && (p.kind == D2dScenarioSupport::Form::UINT32 ||
                                                     p.kind == D2dScenarioSupport::Form::UINT64 ||
                                                     p.kind == D2dScenarioSupport::Form::INT32 ||
                                                     p.kind == D2dScenarioSupport::Form::INT64));
        }
        if (std::string decimal;
            integer && D2dScenarioSupport::WholeNumber(args[i].substr(eq + 1), &decimal))
        {
            args[i] = args[i].substr(0, eq + 1) + decimal;
        }
    }
    return args;
}

} // namespace

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Range(double lo, double hi)
{
    m_hasRange = true;
    m_lo = lo;
    m_hi = hi;
    m_loExclusive = false;
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Positive(double hi)
{
    Range(0, hi);
    m_loExclusive = true;
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Choices(std::vector<std::string> accepted)
{
    m_choices = std::move(accepted);
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Sets(const std::string& attribute)
{
    NS_ABORT_MSG_IF(m_bound, "D2dScenarioFlags: --" << m_name << " is bound: use Also()");
    LookupAttribute(attribute); // aborts on a typing error in the program
    m_attributes.push_back(attribute);
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Configures(const std::string& typeName)
{
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(typeName, &tid),
                        "D2dScenarioFlags: --" << m_name << ": no class " << typeName);
    m_configures.push_back(typeName);
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::ThroughAttributes()
{
    NS_ABORT_MSG_IF(m_bound || m_attributes.empty(),
                    "D2dScenarioFlags: --" << m_name << ": ThroughAttributes() is for an Add() "
                                           << "flag that Sets() attributes");
    m_throughAttributes = true;
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Also(const std::string& attribute)
{
    NS_ABORT_MSG_IF(!m_bound, "D2dScenarioFlags: --" << m_name << " is not bound: use Sets()");
    auto info = LookupAttribute(attribute);
    NS_ABORT_MSG_IF(D2dScenarioSupport::ValueTypeName(info.checker) !=
                        D2dScenarioSupport::ValueTypeName(m_checker),
                    "D2dScenarioFlags: --" << m_name << ": " << attribute
                                           << " has another value type");
    m_attributes.push_back(attribute);
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Default(const std::string& text)
{
    NS_ABORT_MSG_IF(!m_bound, "D2dScenarioFlags: --" << m_name << " is not bound");
    auto value = ParseValue(m_checker, text);
    NS_ABORT_MSG_UNLESS(value && m_checker->Check(*value),
                        "D2dScenarioFlags: --" << m_name << ": default " << text
                                               << " is not accepted by " << m_attributes[0]);
    m_value = value;
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::ShownDefault(const std::string& text)
{
    m_shownDefault = text;
    return *this;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Flag::Unrecorded()
{
    m_record = false;
    return *this;
}

D2dScenarioFlags::D2dScenarioFlags(const D2dScenarioSupport& support)
    : m_support(support)
{
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::NewFlag(const std::string& name, const std::string& help)
{
    NS_ABORT_MSG_IF(m_parsed, "D2dScenarioFlags: --" << name << " declared after Parse()");
    for (const auto& f : m_flags)
    {
        NS_ABORT_MSG_IF(f.m_name == name, "D2dScenarioFlags: --" << name << " declared twice");
    }
    m_flags.emplace_back();
    m_flags.back().m_name = name;
    m_flags.back().m_help = help;
    return m_flags.back();
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Bind(const std::string& name,
                       const std::string& attribute,
                       const std::string& help)
{
    auto info = LookupAttribute(attribute);
    Flag& flag = NewFlag(name, help.empty() ? info.help : help);
    flag.m_bound = true;
    flag.m_attributes.push_back(attribute);
    flag.m_checker = info.checker;
    flag.m_value = info.initialValue->Copy();
    return flag;
}

D2dScenarioFlags::Flag&
D2dScenarioFlags::Find(const std::string& name)
{
    return const_cast<Flag&>(static_cast<const D2dScenarioFlags*>(this)->Find(name));
}

const D2dScenarioFlags::Flag&
D2dScenarioFlags::Find(const std::string& name) const
{
    for (const auto& f : m_flags)
    {
        if (f.m_name == name)
        {
            return f;
        }
    }
    NS_ABORT_MSG("D2dScenarioFlags: no flag --" << name);
}

bool
D2dScenarioFlags::HasArgument(const std::string& prefix) const
{
    for (int i = 1; i < m_argc; ++i)
    {
        if (std::string(m_argv[i]).rfind(prefix, 0) == 0)
        {
            return true;
        }
    }
    return false;
}

bool
D2dScenarioFlags::Given(const std::string& name) const
{
    return Find(name).m_given;
}

void
D2dScenarioFlags::DefaultAfterParse(const std::string& name, const std::string& text)
{
    Flag& f = Find(name);
    NS_ABORT_MSG_IF(!f.m_bound, "D2dScenarioFlags: --" << name << " is not bound");
    if (f.m_given)
    {
        return;
    }
    f.Default(text);
    f.m_parsedText = ValueText(f);
    for (const auto& attribute : f.m_attributes)
    {
        Config::SetDefault(attribute, *f.m_value);
    }
}

std::string
D2dScenarioFlags::GetHelpDefault(const std::string& name) const
{
    const Flag& f = Find(name);
    if (!f.m_shownDefault.empty())
    {
        return f.m_shownDefault;
    }
    return ValueText(f);
}

bool
D2dScenarioFlags::Has(const std::string& name) const
{
    return std::any_of(m_flags.begin(), m_flags.end(), [&](const Flag& f) {
        return f.m_name == name;
    });
}

bool
D2dScenarioFlags::AtDefault(const std::string& name) const
{
    NS_ABORT_MSG_UNLESS(m_parsed, "D2dScenarioFlags::AtDefault before Parse");
    const Flag& f = Find(name);
    return !f.m_given || f.m_parsedText == f.m_defaultText;
}

std::string
D2dScenarioFlags::GetParsedText(const std::string& name) const
{
    NS_ABORT_MSG_UNLESS(m_parsed, "D2dScenarioFlags::GetParsedText before Parse");
    return Find(name).m_parsedText;
}

std::string
D2dScenarioFlags::GetDefaultText(const std::string& name) const
{
    NS_ABORT_MSG_UNLESS(m_parsed, "D2dScenarioFlags::GetDefaultText before Parse");
    const Flag& f = Find(name);
    return f.m_shownDefault.empty() ? f.m_defaultText : f.m_shownDefault;
}

std::vector<std::string>
D2dScenarioFlags::GetNames() const
{
    std::vector<std::string> names;
    for (const auto& f : m_flags)
    {
        names.push_back(f.m_name);
    }
    return names;
}

const std::string&
D2dScenarioFlags::GetProgram() const
{
    return m_support.GetProgram();
}

void
D2dScenarioFlags::AddChoice(const std::string& typeName,
                            const std::string& argument,
                            std::vector<std::string> unreadAttributes)
{
    m_choices.push_back({typeName, argument, std::move(unreadAttributes)});
}

const std::vector<D2dScenarioFlags::Choice>&
D2dScenarioFlags::GetChoices() const
{
    return m_choices;
}

std::vector<std::pair<std::string, std::string>>
D2dScenarioFlags::GetTargets(const std::string& name) const
{
    const Flag& f = Find(name);
    std::vector<std::pair<std::string, std::string>> targets;
    for (const auto& cls : f.m_configures)
    {
        targets.emplace_back(cls, "");
    }
    if (targets.empty() && (f.m_bound || f.m_throughAttributes))
    {
        for (const auto& attribute : f.m_attributes)
        {
            targets.emplace_back(attribute.substr(0, attribute.rfind("::")), attribute);
        }
    }
    return targets;
}

std::string
D2dScenarioFlags::ValueText(const Flag& f) const
{
    const auto seconds = [](Time t) {
        return D2dScenarioSupport::FormatNumber(D2dScenarioSupport::ToSeconds(t)) + "s";
    };
    if (f.m_bound)
    {
        if (auto t = DynamicCast<const TimeValue>(f.m_value))
        {
            return seconds(t->Get());
        }
        return f.m_value->SerializeToString(f.m_checker);
    }
    return std::visit(
        [&](auto v) -> std::string {
            using P = decltype(v);
            if constexpr (std::is_same_v<P, std::monostate>)
            {
                return "";
            }
            else if constexpr (std::is_same_v<P, std::string*>)
            {
                return *v;
            }
            else if constexpr (std::is_same_v<P, Time*>)
            {
                return seconds(*v);
            }
            else if constexpr (std::is_same_v<P, bool*>)
            {
                return *v ? "true" : "false";
            }
            else
            {
                // As ns-3's CommandLine prints a variable's value.
                std::stringstream ss;
                ss << *v;
                std::string text;
                ss >> text;
                return text;
            }
        },
        f.m_variable);
}

std::vector<D2dScenarioSupport::Param>
D2dScenarioFlags::GetParams() const
{
    std::vector<D2dScenarioSupport::Param> params;
    for (const auto& f : m_flags)
    {
        using Form = D2dScenarioSupport::Form;
        D2dScenarioSupport::Param p{f.m_name, Form::TEXT, f.m_attributes};
        if (f.m_bound)
        {
            const std::string type = D2dScenarioSupport::ValueTypeName(f.m_checker);
            p.kind = type == "ns3::UintegerValue"  ? Form::UINT64
                     : type == "ns3::IntegerValue" ? Form::INT64
                     : type == "ns3::DoubleValue"  ? Form::REAL
                     : type == "ns3::BooleanValue" ? Form::BOOLEAN
                     : type == "ns3::TimeValue"    ? Form::TIME
                                                   : Form::TEXT;
            p.checkedBy = f.m_attributes[0];
        }
        else
        {
            p.kind = std::visit(
                [](auto v) -> Form {
                    using P = decltype(v);
                    if constexpr (std::is_same_v<P, uint32_t*>)
                    {
                        return Form::UINT32;
                    }
                    else if constexpr (std::is_same_v<P, uint64_t*>)
                    {
                        return Form::UINT64;
                    }
                    else if constexpr (std::is_same_v<P, int32_t*>)
                    {
                        return Form::INT32;
                    }
                    else if constexpr (std::is_same_v<P, int64_t*>)
                    {
                        return Form::INT64;
                    }
                    else if constexpr (std::is_same_v<P, double*>)
                    {
                        return Form::REAL;
                    }
                    else if constexpr (std::is_same_v<P, bool*>)
                    {
                        return Form::BOOLEAN;
                    }
                    else if constexpr (std::is_same_v<P, Time*>)
                    {
                        return Form::TIME;
                    }
                    else
                    {
                        return Form::TEXT;
                    }
                },
                f.m_variable);
            if (f.m_choices.empty() && !f.m_hasRange && !f.m_attributes.empty())
            {
                p.checkedBy = f.m_attributes[0];
            }
        }
        if (f.m_hasRange)
        {
            p.accepted = RangeText(f.m_lo,
                                   f.m_hi,
                                   f.m_loExclusive,
                                   p.kind == D2dScenarioSupport::Form::TIME);
        }
        params.push_back(std::move(p));
    }
    return params;
}

void
D2dScenarioFlags::CheckValue(const Flag& flag) const
{
    double number = 0;
    bool isNumber = false;
    bool isTime = false;
    std::string text;
    if (flag.m_bound)
    {
        isNumber = AsNumber(*flag.m_value, number);
        isTime = dynamic_cast<const TimeValue*>(PeekPointer(flag.m_value)) != nullptr;
        text = flag.m_value->SerializeToString(flag.m_checker);
    }
    else
    {
        std::visit(
            [&](auto v) {
                using P = decltype(v);
                if constexpr (std::is_same_v<P, std::string*>)
                {
                    text = *v;
                }
                else if constexpr (std::is_same_v<P, Time*>)
                {
                    isNumber = isTime = true;
                    number = D2dScenarioSupport::ToSeconds(*v);
                }
                else if constexpr (std::is_same_v<P, bool*> || std::is_same_v<P, std::monostate>)
                {
                }
                else
                {
                    isNumber = true;
                    number = static_cast<double>(*v);
                }
            },
            flag.m_variable);
    }
    if (!flag.m_choices.empty())
    {
        m_support.CheckChoice(flag.m_name, text, flag.m_choices);
    }
    if (flag.m_hasRange && isNumber)
    {
        const bool below = flag.m_loExclusive ? !(number > flag.m_lo) : !(number >= flag.m_lo);
        if (below || !(number <= flag.m_hi))
        {
            m_support.Fail(fmt::format(
                "--{}={} is out of range (accepted: {})",
                flag.m_name,
                flag.m_given ? flag.m_text
                             : D2dScenarioSupport::FormatNumber(number) + (isTime ? " s" : ""),
                RangeText(flag.m_lo, flag.m_hi, flag.m_loExclusive, isTime)));
        }
    }
}

void
D2dScenarioFlags::Parse(int argc, char** argv)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_parsed, "D2dScenarioFlags::Parse called twice");
    // D2DLEARN_CASES: the bad-input tests' batch mode (one forked child per command line).
    D2dCaseBatch::RunIfRequested(argc, argv);
    m_parsed = true;
    m_argc = argc;
    m_argv = argv;
    for (auto& f : m_flags)
    {
        f.m_defaultText = ValueText(f); // what AtDefault() compares with
    }
    const auto params = GetParams();
    m_support.CheckArguments(argc, argv, params);
    // Whole numbers are accepted in exponent notation (1e10, as the README writes ranges),
    // which ns-3 would read as 1: what is parsed below has them in decimal digits.
    std::vector<std::string> args = WithWholeNumbers(argc, argv, params);
    std::vector<char*> normalized;
    for (auto& arg : args)
    {
        normalized.push_back(arg.data());
    }
    normalized.push_back(nullptr);
    // Which flags are given, and the bound flags' values (CheckArguments accepted them).
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = args[i];
        const std::string typed = argv[i];
        const std::size_t eq = arg.find('=');
        const std::string name =
            arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        for (auto& f : m_flags)
        {
            if (f.m_name != name)
            {
                continue;
            }
            f.m_given = true;
            f.m_text = eq == std::string::npos ? "" : typed.substr(typed.find('=') + 1);
            if (f.m_bound)
            {
                const std::string text = eq == std::string::npos ? "true" : arg.substr(eq + 1);
                auto value = ParseValue(f.m_checker, text);
                NS_ABORT_MSG_UNLESS(value, "D2dScenarioFlags: --" << name << "=" << text);
                f.m_value = value;
            }
        }
    }
    // Bound values become the attributes' defaults before CommandLine parses, so that an
    // object an --ns3::Class::Attribute argument creates while parsing has them too.
    for (const auto& f : m_flags)
    {
        if (f.m_bound)
        {
            CheckValue(f);
            for (const auto& attribute : f.m_attributes)
            {
                Config::SetDefault(attribute, *f.m_value);
            }
        }
    }
    CommandLine cmd(m_support.GetProgram());
    for (auto& f : m_flags)
    {
        if (f.m_bound)
        {
            cmd.AddValue(f.m_name,
                         f.m_help + " (" + f.m_attributes[0] + ")" +
                             D2dFlagScope::Describe(*this, f.m_name),
                         MakeCallback(&AcceptBound),
                         GetHelpDefault(f.m_name));
            continue;
        }
        std::string help = f.m_help;
        if (!f.m_choices.empty())
        {
            help += ": " + D2dText::OrList(f.m_choices);
        }
        help += D2dFlagScope::Describe(*this, f.m_name);
        std::visit(
            [&](auto v) {
                using P = decltype(v);
                if constexpr (std::is_same_v<P, std::string*>)
                {
                    // ns-3 3.37's CommandLine reads a string with operator>>, up to the first
                    // space: the text is taken whole from the argument below instead.
                    cmd.AddValue(f.m_name, help, MakeCallback(&AcceptBound), *v);
                }
                else if constexpr (!std::is_same_v<P, std::monostate>)
                {
                    // (A boolean keeps ns-3's item: it alone may be given bare, --quiet.)
                    if (!std::is_same_v<P, bool*> &&
                        (std::is_same_v<P, Time*> || !f.m_shownDefault.empty()))
                    {
                        // ns-3 would print a time in its resolution unit ("+6e+10ns") and a
                        // default resolved after parsing as the placeholder: this shows the
                        // default of GetHelpDefault(), and parses the value as ns-3 does.
                        Callback<bool, D2dCommandLineArgument> parse(
                            [v](D2dCommandLineArgument text) {
                                return CommandLineHelper::UserItemParse(text, *v);
                            });
                        cmd.AddValue(f.m_name, help, parse, GetHelpDefault(f.m_name));
                    }
                    else
                    {
                        cmd.AddValue(f.m_name, help, *v);
                    }
                }
            },
            f.m_variable);
    }
    cmd.Parse(argc, normalized.data());
    for (auto& f : m_flags)
    {
        if (auto text = std::get_if<std::string*>(&f.m_variable); text && f.m_given)
        {
            **text = f.m_text; // the whole value, spaces and quotes included (the last one)
        }
    }
    for (auto& f : m_flags)
    {
        if (!f.m_bound && f.m_given) // a program's own default may mean "resolve later"
        {
            CheckValue(f);
        }
        f.m_parsedText = ValueText(f);
    }
}

void
D2dScenarioFlags::Record(D2dTraceHelper& traces) const
{
    if (m_argv)
    {
        traces.AddCommandLine(m_argc, m_argv);
    }
    for (const auto& f : m_flags)
    {
        if (!f.m_record)
        {
            continue;
        }
        if (!f.m_bound)
        {
            std::visit(
                [&](auto v) {
                    using P = decltype(v);
                    if constexpr (std::is_same_v<P, Time*>)
                    {
                        traces.AddParameter(f.m_name + "_s", D2dScenarioSupport::ToSeconds(*v));
                    }
                    else if constexpr (!std::is_same_v<P, std::monostate>)
                    {
                        traces.AddParameter(f.m_name, *v);
                    }
                },
                f.m_variable);
            continue;
        }
        const AttributeValue& value = *f.m_value;
        if (auto d = dynamic_cast<const DoubleValue*>(&value))
        {
            traces.AddParameter(f.m_name, d->Get());
        }
        else if (auto u = dynamic_cast<const UintegerValue*>(&value))
        {
            traces.AddParameter(f.m_name, u->Get());
        }
        else if (auto i = dynamic_cast<const IntegerValue*>(&value))
        {
            traces.AddParameter(f.m_name, i->Get());
        }
        else if (auto b = dynamic_cast<const BooleanValue*>(&value))
        {
            traces.AddParameter(f.m_name, b->Get());
        }
        else if (auto t = dynamic_cast<const TimeValue*>(&value))
        {
            traces.AddParameter(f.m_name + "_s", D2dScenarioSupport::ToSeconds(t->Get()));
        }
        else
        {
            traces.AddParameter(f.m_name, value.SerializeToString(f.m_checker));
        }
    }
}

} // namespace ns3
