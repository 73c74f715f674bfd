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
 * \brief How d2dlearn's messages write a list of accepted values: one rule for the helpers'
 * errors (e.g. D2dProtocolRegistry's unknown name), the scenario layer's one-line input
 * errors and --PrintHelp.
 */
class D2dText
{
  public:
    /**
     * \param names e.g. {"a", "b", "c"}
     * \return "a, b or c" (one name alone; "" for none)
     */
    static std::string OrList(const std::vector<std::string>& names);
};

} // namespace ns3

#endif /* D2D_TEXT_H */
