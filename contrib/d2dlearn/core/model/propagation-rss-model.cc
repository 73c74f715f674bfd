/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "propagation-rss-model.h"

#include "ns3/abort.h"
#include "ns3/channel-condition-model.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

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
                          MakePointerChecker<PropagationLossModel>())
            .AddAttribute("CoherenceTime",
                          "Block fading: the RSS of a link is held for the block [k T, (k + 1) "
                          "T) of this length T in which it is first evaluated; 0: each "
                          "evaluation asks the loss model anew.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PropagationRssModel::m_coherence),
                          MakeTimeChecker(Time(0)));
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
    m_held.clear();
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
    uint64_t key = 0;
    if (m_coherence.IsStrictlyPositive())
    {
        const int64_t block = Simulator::Now().GetTimeStep() / m_coherence.GetTimeStep();
        if (block != m_block)
        {
            m_held.clear(); // every link's block ends at the same time
            m_block = block;
        }
        key = (static_cast<uint64_t>(rx) << 32) | tx;
        auto it = m_held.find(key);
        if (it != m_held.end())
        {
            return it->second;
        }
    }
    const double rxDbm = m_loss->CalcRxPower(txPowerDbm, txMobility, rxMobility);
    NS_ABORT_MSG_IF(!std::isfinite(rxDbm),
                    "PropagationRssModel: the loss model "
                        << m_loss->GetInstanceTypeId().GetName() << " gave " << rxDbm
                        << " dBm at device " << rx << " from device " << tx << " ("
                        << rxMobility->GetDistanceFrom(txMobility) << " m apart)");
    const double w = std::pow(10.0, (rxDbm - 30.0) / 10.0); // dBm -> W
    if (m_coherence.IsStrictlyPositive())
    {
        m_held.emplace(key, w);
    }
    return w;
}

std::size_t
PropagationRssModel::GetNHeld() const
{
    return m_held.size();
}

int64_t
PropagationRssModel::AssignStreams(int64_t stream)
{
    const int64_t n = m_loss->AssignStreams(stream);
    return n + AssignConditionStreams(m_loss, stream + n);
}

int64_t
PropagationRssModel::AssignConditionStreams(Ptr<PropagationLossModel> chain, int64_t stream)
{
    int64_t n = 0;
    for (auto model = chain; model; model = model->GetNext())
    {
        TypeId::AttributeInformation info;
        if (!model->GetInstanceTypeId().LookupAttributeByName("ChannelConditionModel", &info))
        {
            continue;
        }
        PointerValue condition;
        model->GetAttribute("ChannelConditionModel", condition);
        if (auto c = condition.Get<ChannelConditionModel>())
        {
            n += c->AssignStreams(stream + n);
        }
    }
    return n;
}

Ptr<PropagationLossModel>
PropagationRssModel::GetPropagationLossModel() const
{
    return m_loss;
}

} // namespace ns3
