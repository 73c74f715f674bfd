/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-belief-learner.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dBeliefLearner);

TypeId
D2dBeliefLearner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dBeliefLearner").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

D2dBeliefLearner::~D2dBeliefLearner() = default;

bool
D2dBeliefLearner::StartLocalUpdate(uint32_t i, Callback<void, const std::vector<double>&> done)
{
    done(LocalUpdate(i));
    return true;
}

uint64_t
D2dBeliefLearner::GetBytesPerValue() const
{
    return 8;
}

} // namespace ns3
