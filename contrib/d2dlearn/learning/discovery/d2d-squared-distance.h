/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SQUARED_DISTANCE_H
#define D2D_SQUARED_DISTANCE_H

#include <cstddef>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The squared Euclidean distance of two points stored as rows of a row-major array,
 * used by the Gaussian clusters (k-means, eq. (15)'s shares) and label propagation's
 * nearest-neighbour graph. (Internal: not a published header.)
 */
class D2dSquaredDistance
{
  public:
    /**
     * \param a the first point's coordinates \param b the second's
     * \param dims their number
     * \return sum_c (a_c - b_c)^2, summed in the order c = 0, 1, ...
     */
    static double Of(const double* a, const double* b, std::size_t dims)
    {
        double s = 0;
        for (std::size_t c = 0; c < dims; ++c)
        {
            const double d = a[c] - b[c];
            s += d * d;
        }
        return s;
    }
};

} // namespace ns3

#endif /* D2D_SQUARED_DISTANCE_H */
