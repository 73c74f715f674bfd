/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "propagation-rss-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PropagationRssModel");
NS_OBJECT_ENSURE_REGISTERED(PropagationRssModel);

TypeId
PropagationRssModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PropagationRssModel")
            .SetParent<D2dRssModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<PropagationRssModel>()
            .AddAttribute("PropagationLossModel",
                          "The loss model (default: LogDistancePropagationLossModel).",
                          PointerValue(),
                          MakePointerAccessor(&PropagationRssModel::m_loss),
                          MakePointerChecker<PropagationLossModel>());
    return tid;
}

PropagationRssModel::PropagationRssModel()
    : m_loss(CreateObject<LogDistancePropagationLossModel>())
{
}

void
PropagationRssModel::DoDispose()
{
    m_loss = nullptr;
    D2dRssModel::DoDispose();
}

double
PropagationRssModel::GetRssW(uint32_t rx,
                             uint32_t tx,
                             Ptr<MobilityModel> rxMobility,
                             Ptr<MobilityModel> txMobility,
                             double txPowerDbm)
{
    NS_ABORT_MSG_IF(!rxMobility || !txMobility,
                    "PropagationRssModel: devices " << rx << " and " << tx
                                                    << " need a MobilityModel");
    const double rxDbm = m_loss->CalcRxPower(txPowerDbm, txMobility, rxMobility);
    return std::pow(10.0, (rxDbm - 30.0) / 10.0); // dBm -> W
}

int64_t
PropagationRssModel::AssignStreams(int64_t stream)
{
    return m_loss->AssignStreams(stream);
}

Ptr<PropagationLossModel>
PropagationRssModel::GetPropagationLossModel() const
{
    return m_loss;
}

} // namespace ns3
