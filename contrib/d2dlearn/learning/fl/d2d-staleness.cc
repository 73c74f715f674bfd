/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-staleness.h"

#include <cmath>

namespace ns3
{

double
D2dStaleness::Weight(Kind kind, double a, double b, uint64_t staleness)
{
    // Xie, Koyejo, Gupta 2019, sec. 5: the constant, polynomial and hinge s(t - tau).
    const double tau = static_cast<double>(staleness);
    switch (kind)
    {
    case POLYNOMIAL:
        return std::pow(tau + 1.0, -a);
    case HINGE:
        return tau <= b ? 1.0 : 1.0 / (a * (tau - b) + 1.0);
    case CONSTANT:
    default:
        return 1.0;
    }
}

} // namespace ns3
