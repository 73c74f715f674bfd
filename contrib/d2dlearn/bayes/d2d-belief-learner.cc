/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-belief-learner.h"

namespace ns3
{

D2dBeliefLearner::~D2dBeliefLearner() = default;

} // namespace ns3
