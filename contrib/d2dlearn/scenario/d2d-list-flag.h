/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LIST_FLAG_H
#define D2D_LIST_FLAG_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The one reader of the scenario flags whose value is a list (--labelProportions,
 * --targets, --flipList, --thetaTrue, ...): items separated by commas, spaces or both.
 *
 * "0.7,0.2,0.1", "0.7, 0.2, 0.1" and "0.7 0.2 0.1" are the same list. Blanks around an
 * item are ignored; two commas with nothing between them leave an empty item (which no
 * number parser accepts, so "1,,2" is an error, not "1,2"). An empty or blank value is
 * the empty list.
 */
class D2dListFlag
{
  public:
    /**
     * \param text the flag's value
     * \return its items, in order
     */
    static std::vector<std::string> Split(const std::string& text);

    /**
     * \param text the flag's value
     * \return its items as finite reals, in order
     * \throws std::invalid_argument naming the first item that is not a finite real
     */
    static std::vector<double> Reals(const std::string& text);

    /**
     * \param text the flag's value
     * \param max the largest accepted value
     * \return its items as whole numbers 0 .. max, in order
     * \throws std::invalid_argument naming the first item that is not one
     */
    static std::vector<uint64_t> Whole(const std::string& text, uint64_t max);
};

} // namespace ns3

#endif /* D2D_LIST_FLAG_H */
