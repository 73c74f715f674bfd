/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-json.h"

#include <cmath>
#include <fmt/format.h>

namespace ns3
{

std::size_t
D2dJson::Utf8Length(const std::string& text, std::size_t i)
{
    const auto byte = [&text](std::size_t k) {
        return static_cast<unsigned char>(text[k]);
    };
    const unsigned char c = byte(i);
    std::size_t n = 0;
    unsigned lo = 0x80;
    unsigned hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
    {
        n = 2;
    }
    else if (c >= 0xe0 && c <= 0xef)
    {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80; // no overlong form
        hi = c == 0xed ? 0x9f : 0xbf; // no surrogate
    }
    else if (c >= 0xf0 && c <= 0xf4)
    {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf; // at most U+10FFFF
    }
    if (n == 0 || i + n > text.size() || byte(i + 1) < lo || byte(i + 1) > hi)
    {
        return 0;
    }
    for (std::size_t k = 2; k < n; ++k)
    {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
        {
            return 0;
        }
    }
    return n;
}

std::string
D2dJson::String(const std::string& value)
{
    std::string out = "\"";
    for (std::size_t i = 0; i < value.size(); ++i)
    {
        const char c = value[i];
        if (static_cast<unsigned char>(c) >= 0x80)
        {
            const std::size_t n = Utf8Length(value, i);
            out += n == 0 ? std::string("\\ufffd") : value.substr(i, n);
            i += n == 0 ? 0 : n - 1;
            continue;
        }
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                out += fmt::format("\\u{:04x}", static_cast<int>(c));
            }
            else
            {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string
D2dJson::Number(double value)
{
    // fmt's "{}" is the shortest text that reads back as the same double.
    return std::isfinite(value) ? fmt::format("{}", value) : std::string("null");
}

std::string
D2dJson::NumberArray(const std::vector<double>& values)
{
    std::string json = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        json += (i ? ", " : "") + Number(values[i]);
    }
    return json + "]";
}

} // namespace ns3
