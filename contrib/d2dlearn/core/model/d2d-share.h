/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SHARE_H
#define D2D_SHARE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How many of n items a share f in [0, 1] is: every count the module derives from a
 * share (CMFL's active clients and committee, its alpha, the malicious clients, Krum's f,
 * Multi-Krum's m, the trimmed mean's b) goes through Count.
 */
class D2dShare
{
  public:
    /// How n x f becomes a count.
    enum class Rounding
    {
        NEAREST, //!< round(n f), halves away from zero (1.5 -> 2)
        DOWN,    //!< floor(n f)
    };

    /**
     * \brief The count n x f, rounded as asked, after rounding the product to 1e-9.
     *
     * Why the 1e-9: a share is a decimal (0.3, 0.29), which a double holds only nearly, so n x f
     * can miss the integer or the half it stands for: 20 x 0.3 = 6.000000000000001 and
     * 50 x 0.29 = 14.499999999999998, whose round() would give 14 where 29 % of 50 is 14.5 ->
     * 15. Rounded to 1e-9 first (far finer than any share of a count up to millions, far
     * coarser than the double's error), the product is the decimal's: floor(n f) and
     * round(n f) are those of the exact n x p / 100 for a percent p.
     * \param n the number of items
     * \param fraction f, a share in [0, 1]
     * \param rounding NEAREST or DOWN
     * \return the count, in [0, n]
     */
    static uint32_t Count(uint32_t n, double fraction, Rounding rounding);
};

} // namespace ns3

#endif // D2D_SHARE_H
