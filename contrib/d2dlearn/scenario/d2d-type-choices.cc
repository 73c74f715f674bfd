/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-type-choices.h"

#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/abort.h"
#include "ns3/d2d-text.h"

#include <stdexcept>

namespace ns3
{

D2dTypeChoice::D2dTypeChoice(std::string flag, std::vector<Option> options)
    : m_flag(std::move(flag)),
      m_options(std::move(options))
{
    NS_ABORT_MSG_IF(m_options.empty(), "D2dTypeChoice: --" << m_flag << " accepts nothing");
    for (std::size_t i = 0; i < m_options.size(); ++i)
    {
        for (std::size_t k = 0; k < i; ++k)
        {
            NS_ABORT_MSG_IF(m_options[k].name == m_options[i].name,
                            "D2dTypeChoice: --" << m_flag << "=" << m_options[i].name
                                                << " declared twice");
        }
    }
}

const std::string&
D2dTypeChoice::GetFlag() const
{
    return m_flag;
}

std::vector<std::string>
D2dTypeChoice::GetNames() const
{
    std::vector<std::string> names;
    names.reserve(m_options.size());
    for (const auto& o : m_options)
    {
        names.push_back(o.name);
    }
    return names;
}

const std::string&
D2dTypeChoice::GetTypeName(const std::string& value) const
{
    for (const auto& o : m_options)
    {
        if (o.name == value)
        {
            return o.typeName;
        }
    }
    throw std::invalid_argument("--" + m_flag + "=" + value + " is not accepted (" +
                                D2dText::OrList(GetNames()) + ")");
}

void
D2dTypeChoice::AddChoices(D2dScenarioFlags& flags) const
{
    for (const auto& option : m_options)
    {
        flags.AddChoice(option.typeName, "--" + m_flag + "=" + option.name);
    }
}

} // namespace ns3
