/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-list-flag.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::vector<std::string>
D2dListFlag::Split(const std::string& text)
{
    std::vector<std::string> items;
    if (text.find_first_not_of(" \t\n\r\f\v") == std::string::npos)
    {
        return items; // empty or blank: the empty list
    }
    // The comma-separated pieces (an empty one kept), each split at its inner blanks.
    std::size_t from = 0;
    while (true)
    {
        const std::size_t comma = text.find(',', from);
        std::istringstream piece(text.substr(from, comma - from));
        std::size_t words = 0;
        for (std::string word; piece >> word; ++words)
        {
            items.push_back(word);
        }
        if (words == 0)
        {
            items.emplace_back(); // nothing between two commas (or before/after one)
        }
        if (comma == std::string::npos)
        {
            break;
        }
        from = comma + 1;
    }
    return items;
}

std::vector<double>
D2dListFlag::Reals(const std::string& text)
{
    std::vector<double> out;
    for (const auto& item : Split(text))
    {
        std::size_t used = 0;
        double v = 0;
        try
        {
            v = std::stod(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (item.empty() || used != item.size() || !std::isfinite(v))
        {
            throw std::invalid_argument(item);
        }
        out.push_back(v);
    }
    return out;
}

std::vector<uint64_t>
D2dListFlag::Whole(const std::string& text, uint64_t max)
{
    std::vector<uint64_t> out;
    for (const auto& item : Split(text))
    {
        if (item.empty() || item.size() > 19 ||
            item.find_first_not_of("0123456789") != std::string::npos)
        {
            throw std::invalid_argument(item);
        }
        const uint64_t v = std::stoull(item);
        if (v > max)
        {
            throw std::invalid_argument(item);
        }
        out.push_back(v);
    }
    return out;
}

} // namespace ns3
