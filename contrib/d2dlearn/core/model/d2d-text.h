/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TEXT_H
#define D2D_TEXT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How d2dlearn's messages write text: a list of accepted values (one rule for the
 * helpers' errors, e.g. D2dProtocolRegistry's unknown name, the scenario layer's one-line
 * input errors and --PrintHelp), and the first line of a longer message they quote.
 */
class D2dText
{
  public:
    /**
     * \param names e.g. {"a", "b", "c"}
     * \return "a, b or c" (one name alone; "" for none)
     */
    static std::string OrList(const std::vector<std::string>& names);

    /**
     * \param text e.g. an exception's what(), which LibTorch makes several lines long
     * \return text up to its first newline, without it (all of text if it has none)
     */
    static std::string FirstLine(const std::string& text);

    /**
     * \param text an exception's what(); LibTorch's for an error raised inside a TorchScript
     *        module starts "The following operation failed in the TorchScript interpreter.",
     *        then the module's traceback, and ends with the error the module's code raised
     *        ("RuntimeError: <its message>")
     * \return for such a text, that last "<Name>Error: message" (or "...Exception: ...")
     *         line, the module's own words; for any other text, FirstLine()
     */
    static std::string ErrorLine(const std::string& text);

    /**
     * \param line a CSV line (no quoting)
     * \return its comma-separated cells, without surrounding blanks or a trailing CR
     */
    static std::vector<std::string> SplitCsvCells(const std::string& line);
};

} // namespace ns3

#endif /* D2D_TEXT_H */
