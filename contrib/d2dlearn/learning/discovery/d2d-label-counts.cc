/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-label-counts.h"

namespace ns3
{

D2dFractionalCounts
D2dLabelCounts::GetLabelCounts(uint32_t device) const
{
    return GetCounts(device);
}

uint32_t
D2dLabelCounts::GetMinLabels(uint32_t) const
{
    return 0;
}

} // namespace ns3
