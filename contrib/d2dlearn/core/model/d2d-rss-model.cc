/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-rss-model.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dRssModel);

TypeId
D2dRssModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dRssModel").SetParent<Object>().SetGroupName("D2dlearn");
    return tid;
}

int64_t
D2dRssModel::AssignStreams(int64_t /* stream */)
{
    return 0;
}

} // namespace ns3
