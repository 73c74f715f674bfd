/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-protocol-choice.h"

#include "d2d-scenario-flags.h"

#include "ns3/abort.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-text.h"
#include "ns3/object-factory.h"

#include <utility>

namespace ns3
{

D2dProtocolChoice::D2dProtocolChoice(std::string flag, const std::string& program)
    : m_flag(std::move(flag)),
      m_names(D2dProtocolRegistry::ForProgram(program))
{
    NS_ABORT_MSG_IF(m_names.empty(),
                    "D2dProtocolChoice: no protocol of the registry names program " << program);
}

const std::string&
D2dProtocolChoice::GetFlag() const
{
    return m_flag;
}

const std::vector<std::string>&
D2dProtocolChoice::GetNames() const
{
    return m_names;
}

D2dTraffic
D2dProtocolChoice::GetTraffic(const std::string& chosen, const std::string& aggregation) const
{
    D2dTraffic traffic;
    traffic.chosen = "--" + m_flag + "=" + chosen;
    std::vector<std::string> d2d;
    std::vector<std::string> d2s;
    for (const auto& name : m_names)
    {
        const D2dProtocolTraits traits = D2dProtocolRegistry::GetTraits(name);
        if (traits.usesD2d)
        {
            d2d.push_back(name);
        }
        if (traits.usesD2s)
        {
            d2s.push_back(name);
        }
        if (name == chosen)
        {
            const D2dProtocolTraits made =
                aggregation.empty() ? traits : D2dProtocolRegistry::GetTraits(name, aggregation);
            traffic.d2d = made.usesD2d;
            traffic.d2s = made.usesD2s;
            traffic.chosenTypes = made.madeTypes;
            traffic.unreadAttributes = made.unreadAttributes;
        }
    }
    // "--algorithm=decentralized or semi-decentralized" ("" if none)
    auto list = [&](const std::vector<std::string>& users) {
        return users.empty() ? std::string() : "--" + m_flag + "=" + D2dText::OrList(users);
    };
    traffic.d2dUsers = list(d2d);
    traffic.d2sUsers = list(d2s);
    return traffic;
}

void
D2dProtocolChoice::AddChoices(D2dScenarioFlags& flags) const
{
    for (const auto& name : m_names)
    {
        const D2dProtocolTraits traits = D2dProtocolRegistry::GetTraits(name);
        for (const auto& type : traits.madeTypes)
        {
            flags.AddChoice(type, "--" + m_flag + "=" + name, traits.unreadAttributes);
        }
    }
}

void
D2dProtocolChoice::AddAggregationChoices(D2dScenarioFlags& flags, const std::string& flag)
{
    for (const auto& rule : D2dProtocolRegistry::GetAggregations())
    {
        flags.AddChoice(rule.typeName, "--" + flag + "=" + rule.name);
    }
}

bool
D2dProtocolChoice::IsA(const std::string& chosen, TypeId tid) const
{
    const TypeId of = D2dProtocolRegistry::GetFactory(chosen).GetTypeId();
    return of == tid || of.IsChildOf(tid); // IsChildOf is false for the class itself
}

D2dProtocolTraits
D2dProtocolChoice::GetTraits(const std::string& chosen) const
{
    return D2dProtocolRegistry::GetTraits(chosen);
}

std::string
D2dProtocolChoice::Having(const std::function<bool(const D2dProtocolTraits&)>& test) const
{
    std::vector<std::string> names;
    for (const auto& name : m_names)
    {
        if (test(D2dProtocolRegistry::GetTraits(name)))
        {
            names.push_back(name);
        }
    }
    return names.empty() ? std::string() : "--" + m_flag + "=" + D2dText::OrList(names);
}

} // namespace ns3
