/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_JSON_H
#define D2D_JSON_H

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The JSON text of run.json's values: strings, numbers and arrays of numbers, written
 * the one way every writer of run.json (D2dTraceHelper, D2dRunSummary) writes them.
 */
class D2dJson
{
  public:
    /**
     * \param value any bytes
     * \return value as a JSON string, quoted: '"' and '\\' escaped, a newline as \\n, the
     * other control characters (below 0x20) as \\u00XX, valid UTF-8 kept as it is, and bytes
     * that are not UTF-8 (e.g. in a path) as \\ufffd (U+FFFD), so that the text is valid JSON
     */
    static std::string String(const std::string& value);

    /**
     * \param value a number
     * \return value as a bare JSON number in the shortest form that reads back as the same
     * double (fmt's "{}"), or null if it is not finite (JSON has no infinity or NaN)
     */
    static std::string Number(double value);

    /**
     * \param values numbers
     * \return them as a JSON array, "[a, b, c]" (Number() each)
     */
    static std::string NumberArray(const std::vector<double>& values);

    /**
     * \param text bytes
     * \param i where a sequence starts (a byte >= 0x80), i < text.size()
     * \return the length of the valid UTF-8 sequence at text[i] (1 to 4), or 0 if the bytes
     * there are not one (a stray continuation byte, an overlong form, a surrogate, a value
     * above U+10FFFF or a cut sequence)
     */
    static std::size_t Utf8Length(const std::string& text, std::size_t i);
};

} // namespace ns3

#endif /* D2D_JSON_H */
