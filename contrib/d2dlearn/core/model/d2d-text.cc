/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-text.h"

namespace ns3
{

std::string
D2dText::OrList(const std::vector<std::string>& names)
{
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        list += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + names[i];
    }
    return list;
}

std::string
D2dText::FirstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

} // namespace ns3
