/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-rss-link-quality.h"

#include "d2d-channel.h"
#include "dynamic-rss-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRssLinkQuality");
NS_OBJECT_ENSURE_REGISTERED(D2dRssLinkQuality);

TypeId
D2dRssLinkQuality::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dRssLinkQuality")
            .SetParent<D2dLinkQuality>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dRssLinkQuality>()
            .AddAttribute("SpectralEfficiency",
                          "Rate of transmission r of eq. (18), bit/s/Hz.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&D2dRssLinkQuality::m_spectralEfficiency),
                          MakeDoubleChecker<double>(1e-9, 64.0))
            .AddAttribute("NoisePowerW",
                          "Noise power sigma^2 of eq. (18), W (default: thermal noise of "
                          "20 MHz at 290 K with ns-3 WifiPhy's 7 dB noise figure, "
                          "-94 dBm).",
                          DoubleValue(3.98e-13),
                          MakeDoubleAccessor(&D2dRssLinkQuality::m_noisePowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("TxPowerDbm",
                          "Transmit power the RSS is computed for, dBm (ns-3 WifiPhy's "
                          "default TxPowerStart).",
                          DoubleValue(16.0206),
                          MakeDoubleAccessor(&D2dRssLinkQuality::m_txPowerDbm),
                          MakeDoubleChecker<double>(-100.0, 100.0))
            .AddAttribute("RxSensitivityW",
                          "Links whose RSS is at or below this have P_D = 1, W (default: "
                          "ns-3 WifiPhy's RxSensitivity, -101 dBm).",
                          DoubleValue(7.94e-14),
                          MakeDoubleAccessor(&D2dRssLinkQuality::m_rxSensitivityW),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

D2dRssLinkQuality::D2dRssLinkQuality() = default;
D2dRssLinkQuality::~D2dRssLinkQuality() = default;

void
D2dRssLinkQuality::DoDispose()
{
    m_rss = nullptr;
    m_mobility.clear();
    D2dLinkQuality::DoDispose();
}

void
D2dRssLinkQuality::SetRssModel(Ptr<D2dRssModel> model)
{
    m_rss = model;
}

void
D2dRssLinkQuality::SetNodes(const NodeContainer& nodes)
{
    m_mobility.clear();
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        m_mobility.push_back(nodes.Get(i)->GetObject<MobilityModel>());
    }
}

double
D2dRssLinkQuality::GetRssW(uint32_t rx, uint32_t tx) const
{
    NS_ABORT_MSG_UNLESS(m_rss, "D2dRssLinkQuality: no RSS model");
    NS_ABORT_MSG_IF(rx >= m_mobility.size() || tx >= m_mobility.size(),
                    "D2dRssLinkQuality: no device " << std::max(rx, tx));
    return m_rss->GetRssW(rx, tx, m_mobility[rx], m_mobility[tx], m_txPowerDbm);
}

double
D2dRssLinkQuality::GetDropProbability(uint32_t rx, uint32_t tx) const
{
    // Eq. (18) of Wagle et al. 2025 at W_ij; a link not heard delivers nothing.
    const double w = GetRssW(rx, tx);
    return w <= m_rxSensitivityW
               ? 1.0
               : D2dChannel::DropProbability(w, m_spectralEfficiency, m_noisePowerW);
}

uint32_t
D2dRssLinkQuality::GetLinkState(uint32_t rx, uint32_t tx) const
{
    return DynamicRssModel::StateOf(m_rss, rx, tx);
}

bool
D2dRssLinkQuality::IsDynamic() const
{
    return DynamicCast<DynamicRssModel>(m_rss) != nullptr;
}

} // namespace ns3
