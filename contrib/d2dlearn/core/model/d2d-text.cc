/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-text.h"

#include <algorithm>
#include <cctype>

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

std::string
D2dText::ErrorLine(const std::string& text)
{
    static const std::string interpreter = "The following operation failed in the TorchScript";
    if (text.rfind(interpreter, 0) != 0)
    {
        return FirstLine(text);
    }
    // The last line "<Name>Error: ..." or "<Name>Exception: ...", Name a dotted identifier.
    std::string found;
    std::size_t start = 0;
    while (start < text.size())
    {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
        {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        const std::size_t colon = line.find(": ");
        if (colon != std::string::npos && colon > 0)
        {
            const std::string name = line.substr(0, colon);
            const bool identifier = std::all_of(name.begin(), name.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
            });
            const auto ends = [&name](const std::string& suffix) {
                return name.size() >= suffix.size() &&
                       name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
            };
            if (identifier && (ends("Error") || ends("Exception")))
            {
                found = line;
            }
        }
        start = end + 1;
    }
    return found.empty() ? FirstLine(text) : found;
}

std::vector<std::string>
D2dText::SplitCsvCells(const std::string& line)
{
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t comma = line.find(',', start);
        std::string cell = line.substr(start, comma - start);
        const std::size_t first = cell.find_first_not_of(" \r");
        const std::size_t last = cell.find_last_not_of(" \r");
        cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
        if (comma == std::string::npos)
        {
            return cells;
        }
        start = comma + 1;
    }
}

} // namespace ns3
