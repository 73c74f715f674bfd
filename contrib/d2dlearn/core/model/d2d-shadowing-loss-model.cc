/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-shadowing-loss-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/node.h"
#include "ns3/pointer.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dShadowingLossModel");
NS_OBJECT_ENSURE_REGISTERED(D2dShadowingLossModel);

TypeId
D2dShadowingLossModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dShadowingLossModel")
            .SetParent<PropagationLossModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dShadowingLossModel>()
            .AddAttribute("SigmaDb",
                          "Standard deviation sigma of the log-normal shadowing, dB.",
                          DoubleValue(8.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_sigmaDb),
                          MakeDoubleChecker<double>(0.0, 30.0))
            .AddAttribute("CorrelationDistanceM",
                          "Decorrelation distance d_cor: a link whose ends moved this far "
                          "keeps 1/e of its shadowing's correlation, m.",
                          DoubleValue(50.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_correlationDistanceM),
                          MakeDoubleChecker<double>(1e-3, 1e6))
            .AddAttribute("ChannelConditionModel",
                          "The LOS/NLOS condition of each link (that of the path loss model "
                          "before this one); null: SigmaDb and CorrelationDistanceM on every "
                          "link.",
                          PointerValue(),
                          MakePointerAccessor(&D2dShadowingLossModel::m_condition),
                          MakePointerChecker<ChannelConditionModel>())
            .AddAttribute("SigmaLosDb",
                          "With a condition model: sigma of a LOS link, dB.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_sigmaLosDb),
                          MakeDoubleChecker<double>(0.0, 30.0))
            .AddAttribute("SigmaNlosDb",
                          "With a condition model: sigma of an NLOS link, dB.",
                          DoubleValue(7.82),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_sigmaNlosDb),
                          MakeDoubleChecker<double>(0.0, 30.0))
            .AddAttribute("SigmaNlosvDb",
                          "With a condition model: sigma of an NLOSv link (blocked by "
                          "vehicles), dB.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_sigmaNlosvDb),
                          MakeDoubleChecker<double>(0.0, 30.0))
            .AddAttribute("CorrelationLosM",
                          "With a condition model: d_cor of a LOS link, m.",
                          DoubleValue(10.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_correlationLosM),
                          MakeDoubleChecker<double>(1e-3, 1e6))
            .AddAttribute("CorrelationNlosM",
                          "With a condition model: d_cor of an NLOS link, m.",
                          DoubleValue(13.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_correlationNlosM),
                          MakeDoubleChecker<double>(1e-3, 1e6))
            .AddAttribute("CorrelationNlosvM",
                          "With a condition model: d_cor of an NLOSv link, m.",
                          DoubleValue(13.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_correlationNlosvM),
                          MakeDoubleChecker<double>(1e-3, 1e6))
            .AddAttribute("SigmaLosBeyondBreakpointDb",
                          "With BreakpointFrequencyHz > 0: sigma of a LOS link longer (2-D) "
                          "than d_BP = 2 pi h_BS h_UT f_c / c, dB.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_sigmaLosFarDb),
                          MakeDoubleChecker<double>(0.0, 30.0))
            .AddAttribute("BreakpointFrequencyHz",
                          "f_c of the LOS breakpoint rule (TR 38.901's RMa); 0: no rule, Hz.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dShadowingLossModel::m_breakpointFrequencyHz),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

D2dShadowingLossModel::D2dShadowingLossModel()
    : m_normal(CreateObject<NormalRandomVariable>())
{
}

namespace
{
/** \return the id of the node the mobility model is aggregated to */
uint32_t
NodeIdOf(const Ptr<MobilityModel>& m)
{
    auto node = m->GetObject<Node>();
    NS_ABORT_MSG_IF(!node,
                    "D2dShadowingLossModel: a MobilityModel not aggregated to a Node (a link's "
                    "shadowing is kept by the ids of its nodes)");
    return node->GetId();
}
} // namespace

double
D2dShadowingLossModel::GetShadowingDb(Ptr<MobilityModel> a, Ptr<MobilityModel> b) const
{
    uint32_t ia = NodeIdOf(a);
    uint32_t ib = NodeIdOf(b);
    if (ia > ib)
    {
        std::swap(ia, ib);
        std::swap(a, b);
    }
    const uint64_t key = (static_cast<uint64_t>(ia) << 32) | ib;
    // The link's vector: from the node with the smaller id to the other (reciprocal).
    const Vector pa = a->GetPosition();
    const Vector pb = b->GetPosition();
    const double dx = pb.x - pa.x;
    const double dy = pb.y - pa.y;
    const int condition =
        m_condition ? static_cast<int>(m_condition->GetChannelCondition(a, b)->GetLosCondition())
                    : -1;
    auto [it, isNew] = m_links.try_emplace(key);
    Link& link = it->second;
    const auto [sigma, distance] = SigmaAndDistance(a, b, condition);
    if (isNew || condition != link.condition)
    {
        link.shadowingDb = sigma * m_normal->GetValue(); // a new, independent realization
    }
    else
    {
        const double moved = std::hypot(dx - link.dx, dy - link.dy);
        if (moved > 0)
        {
            // Gudmundson 1991 (TR 38.901 sec. 7.4.4): S' = R S + sqrt(1 - R^2) sigma N(0, 1),
            // R = exp(-Delta / d_cor).
            const double r = std::exp(-moved / distance);
            link.shadowingDb =
                r * link.shadowingDb + std::sqrt(1.0 - r * r) * sigma * m_normal->GetValue();
        }
    }
    link.dx = dx;
    link.dy = dy;
    link.condition = condition;
    return link.shadowingDb;
}

std::pair<double, double>
D2dShadowingLossModel::SigmaAndDistance(Ptr<MobilityModel> a,
                                        Ptr<MobilityModel> b,
                                        int condition) const
{
    switch (condition)
    {
    case ChannelCondition::LosConditionValue::LOS: {
        double sigma = m_sigmaLosDb;
        if (m_breakpointFrequencyHz > 0)
        {
            // TR 38.901 Table 7.4.1-1, RMa LOS: sigma 4 dB up to d_BP, 6 dB beyond;
            // d_BP = 2 pi h_BS h_UT f_c / c (note 5), h_BS the higher antenna, c = 3.0e8 m/s
            // (TR 38.901's value, ns-3's too).
            const Vector pa = a->GetPosition();
            const Vector pb = b->GetPosition();
            const double breakpointM = 2 * M_PI * std::max(pa.z, pb.z) * std::min(pa.z, pb.z) *
                                       m_breakpointFrequencyHz / 3.0e8;
            if (std::hypot(pa.x - pb.x, pa.y - pb.y) > breakpointM)
            {
                sigma = m_sigmaLosFarDb;
            }
        }
        return {sigma, m_correlationLosM};
    }
    case ChannelCondition::LosConditionValue::NLOS:
        return {m_sigmaNlosDb, m_correlationNlosM};
    case ChannelCondition::LosConditionValue::NLOSv:
        return {m_sigmaNlosvDb, m_correlationNlosvM};
    default:
        return {m_sigmaDb, m_correlationDistanceM};
    }
}

double
D2dShadowingLossModel::DoCalcRxPower(double txPowerDbm,
                                     Ptr<MobilityModel> a,
                                     Ptr<MobilityModel> b) const
{
    return txPowerDbm - GetShadowingDb(a, b);
}

int64_t
D2dShadowingLossModel::DoAssignStreams(int64_t stream)
{
    m_normal->SetStream(stream);
    return 1;
}

void
D2dShadowingLossModel::DoDispose()
{
    m_links.clear();
    m_normal = nullptr;
    m_condition = nullptr;
    PropagationLossModel::DoDispose();
}

std::size_t
D2dShadowingLossModel::GetNLinks() const
{
    return m_links.size();
}

} // namespace ns3
