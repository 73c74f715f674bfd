/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TEST_VECTORS_H
#define D2D_TEST_VECTORS_H

#include "ns3/d2d-robust-aggregation.h"

#include <memory>
#include <vector>

namespace ns3
{

/*
 * The model vectors the robust-aggregation and aggregation-strategy cases share.
 */

/**
 * \param v vectors
 * \return the same, as the shared immutable vectors an aggregation rule takes
 */
inline D2dRobustAggregation::Vectors
MakeTestVectors(const std::vector<std::vector<float>>& v)
{
    D2dRobustAggregation::Vectors out;
    for (const auto& x : v)
    {
        out.push_back(std::make_shared<const std::vector<float>>(x));
    }
    return out;
}

/**
 * \return v0 = (0,0), v1 = (1,0), v2 = (0,2), v3 = (2,2), v4 = (10,10). Squared distances:
 * d01 = 1, d02 = 4, d03 = 8, d04 = 200, d12 = 5, d13 = 5, d14 = 181, d23 = 4, d24 = 164,
 * d34 = 128.
 */
inline D2dRobustAggregation::Vectors
FiveTestPoints()
{
    return MakeTestVectors({{0, 0}, {1, 0}, {0, 2}, {2, 2}, {10, 10}});
}

} // namespace ns3

#endif /* D2D_TEST_VECTORS_H */
