/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-share.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

uint32_t
D2dShare::Count(uint32_t n, double fraction, Rounding rounding)
{
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "D2dShare::Count: share " << fraction << " not in [0, 1]");
    // n x f to 1e-9 (see the header): 20 x 0.3 -> 6, 50 x 0.29 -> 14.5.
    const double product = std::round(static_cast<double>(n) * fraction * 1e9) / 1e9;
    const double count = rounding == Rounding::NEAREST ? std::round(product) : std::floor(product);
    return static_cast<uint32_t>(std::min(count, static_cast<double>(n)));
}

} // namespace ns3
