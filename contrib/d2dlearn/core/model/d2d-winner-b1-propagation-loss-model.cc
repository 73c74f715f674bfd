/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-winner-b1-propagation-loss-model.h"

#include "d2d-b1-channel-condition-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/pointer.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dWinnerB1PropagationLossModel");
NS_OBJECT_ENSURE_REGISTERED(D2dWinnerB1PropagationLossModel);

TypeId
D2dWinnerB1PropagationLossModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dWinnerB1PropagationLossModel")
            .SetParent<PropagationLossModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dWinnerB1PropagationLossModel>()
            .AddAttribute("Frequency",
                          "Carrier f_c, Hz: 1.9e9 to 2.2e9 (the 2 GHz band) or 7e8 to 8e8 "
                          "(the 700 MHz band), the two of TR 36.843's NLOS formula.",
                          DoubleValue(2e9),
                          MakeDoubleAccessor(&D2dWinnerB1PropagationLossModel::m_frequencyHz),
                          MakeDoubleChecker<double>(7e8, 2.2e9))
            .AddAttribute("LosOffsetDb",
                          "Offset added to the LOS path loss, dB (TR 36.843: 0).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dWinnerB1PropagationLossModel::m_losOffsetDb),
                          MakeDoubleChecker<double>(-50.0, 50.0))
            .AddAttribute("NlosOffsetDb",
                          "Offset added to the NLOS path loss, dB (TR 36.843: -5).",
                          DoubleValue(-5.0),
                          MakeDoubleAccessor(&D2dWinnerB1PropagationLossModel::m_nlosOffsetDb),
                          MakeDoubleChecker<double>(-50.0, 50.0))
            .AddAttribute(
                "EffectiveHeightOffsetM",
                "h - h': the effective antenna height is the height less this, m (TR 36.843: "
                "0.7, h' = 0.8 m for 1.5 m antennas).",
                DoubleValue(0.7),
                MakeDoubleAccessor(&D2dWinnerB1PropagationLossModel::m_effectiveHeightOffsetM),
                MakeDoubleChecker<double>(0.0, 10.0))
            .AddAttribute("ChannelConditionModel",
                          "The LOS state of each link (default D2dB1ChannelConditionModel).",
                          PointerValue(),
                          MakePointerAccessor(&D2dWinnerB1PropagationLossModel::m_condition),
                          MakePointerChecker<ChannelConditionModel>());
    return tid;
}

D2dWinnerB1PropagationLossModel::D2dWinnerB1PropagationLossModel()
    : m_condition(CreateObject<D2dB1ChannelConditionModel>())
{
}

void
D2dWinnerB1PropagationLossModel::DoDispose()
{
    m_condition = nullptr;
    PropagationLossModel::DoDispose();
}

bool
D2dWinnerB1PropagationLossModel::IsStudiedCarrier(double hz)
{
    return (hz >= 7e8 && hz <= 8e8) || (hz >= 1.9e9 && hz <= 2.2e9);
}

double
D2dWinnerB1PropagationLossModel::GetLossDb(double distanceM,
                                           double heightAM,
                                           double heightBM,
                                           bool los) const
{
    NS_ABORT_MSG_UNLESS(IsStudiedCarrier(m_frequencyHz),
                        "D2dWinnerB1PropagationLossModel: Frequency " << m_frequencyHz
                                                                      << " Hz is in neither "
                                                                         "band of TR 36.843");
    const double fGhz = m_frequencyHz / 1e9;
    // Free space, WINNER II D1.1.2 eq. (4.24): 20 log10 d + 46.4 + 20 log10(f_c / 5).
    const double freeSpace = 20 * std::log10(distanceM) + 46.4 + 20 * std::log10(fGhz / 5.0);
    if (distanceM < 3.0)
    {
        return freeSpace;
    }
    const double h1 = std::max(heightAM, heightBM);
    const double h2 = std::min(heightAM, heightBM);
    double b1;
    if (los)
    {
        const double e1 = h1 - m_effectiveHeightOffsetM;
        const double e2 = h2 - m_effectiveHeightOffsetM;
        NS_ABORT_MSG_IF(e1 <= 0 || e2 <= 0,
                        "D2dWinnerB1PropagationLossModel: antennas at "
                            << h1 << " m and " << h2 << " m have no effective height (h - "
                            << m_effectiveHeightOffsetM << " m must be > 0)");
        const double breakpointM = 4 * e1 * e2 * m_frequencyHz / 3e8;
        b1 = distanceM <= breakpointM ? 22.7 * std::log10(distanceM) + 27.0 + 20 * std::log10(fGhz)
                                      : 40 * std::log10(distanceM) + 7.56 - 17.3 * std::log10(e1) -
                                            17.3 * std::log10(e2) + 2.7 * std::log10(fGhz);
        b1 += m_losOffsetDb;
    }
    else
    {
        // C(f_c) of the study's two bands.
        const double c = m_frequencyHz < 1e9 ? 16.33 + 26.16 * std::log10(fGhz)
                                             : 14.78 + 34.97 * std::log10(fGhz);
        b1 = (44.9 - 6.55 * std::log10(h1)) * std::log10(distanceM) + 5.83 * std::log10(h1) + c +
             m_nlosOffsetDb;
    }
    return std::max(freeSpace, b1);
}

double
D2dWinnerB1PropagationLossModel::DoCalcRxPower(double txPowerDbm,
                                               Ptr<MobilityModel> a,
                                               Ptr<MobilityModel> b) const
{
    const bool los = m_condition->GetChannelCondition(a, b)->GetLosCondition() ==
                     ChannelCondition::LosConditionValue::LOS;
    return txPowerDbm -
           GetLossDb(a->GetDistanceFrom(b), a->GetPosition().z, b->GetPosition().z, los);
}

int64_t
D2dWinnerB1PropagationLossModel::DoAssignStreams(int64_t)
{
    return 0;
}

} // namespace ns3
