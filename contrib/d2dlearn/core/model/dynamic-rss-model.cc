/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dynamic-rss-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DynamicRssModel");
NS_OBJECT_ENSURE_REGISTERED(DynamicRssModel);

TypeId
DynamicRssModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DynamicRssModel")
            .SetParent<D2dRssModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<DynamicRssModel>()
            .AddAttribute("MeanW",
                          "Mean of the Gaussian RSS, W (Wagle et al. 2025, sec. VI-P: 0.3).",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&DynamicRssModel::m_meanW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("StdW",
                          "Standard deviation of the Gaussian RSS, W (Wagle et al. 2025: 0.1).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&DynamicRssModel::m_stdW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("MinW",
                          "Lower truncation bound, W (Wagle et al. 2025: 0.05).",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&DynamicRssModel::m_minW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("MaxW",
                          "Upper truncation bound, W (Wagle et al. 2025: 0.55).",
                          DoubleValue(0.55),
                          MakeDoubleAccessor(&DynamicRssModel::m_maxW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Levels",
                          "Quantization resolution: number of RSS states (0 = none).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&DynamicRssModel::m_levels),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("StepInterval",
                          "Simulated time between redraws.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&DynamicRssModel::m_stepInterval),
                          MakeTimeChecker());
    return tid;
}

DynamicRssModel::DynamicRssModel()
    : m_normal(CreateObject<NormalRandomVariable>())
{
}

void
DynamicRssModel::DoDispose()
{
    m_normal = nullptr;
    D2dRssModel::DoDispose();
}

void
DynamicRssModel::SetNDevices(uint32_t n)
{
    m_n = n;
    m_step = -1;
}

int64_t
DynamicRssModel::AssignStreams(int64_t stream)
{
    m_normal->SetStream(stream);
    return 1;
}

uint64_t
DynamicRssModel::GetStep() const
{
    return static_cast<uint64_t>(Simulator::Now().GetTimeStep() / m_stepInterval.GetTimeStep());
}

double
DynamicRssModel::Draw()
{
    for (int attempt = 0; attempt < 10000; ++attempt)
    {
        const double w = m_normal->GetValue();
        if (w >= m_minW && w <= m_maxW)
        {
            return w;
        }
    }
    // The truncation window holds almost no probability mass: fall back to clamping.
    return std::clamp(m_meanW, m_minW, m_maxW);
}

uint32_t
DynamicRssModel::Bin(double w) const
{
    const double width = (m_maxW - m_minW) / m_levels;
    const auto bin = static_cast<uint32_t>(std::floor((w - m_minW) / width));
    return std::min(bin, m_levels - 1);
}

void
DynamicRssModel::Refresh()
{
    NS_ABORT_MSG_IF(m_n == 0, "DynamicRssModel: SetNDevices() was not called");
    NS_ABORT_MSG_IF(!m_stepInterval.IsStrictlyPositive(),
                    "DynamicRssModel: StepInterval must be > 0");
    const auto step = static_cast<int64_t>(GetStep());
    if (step == m_step)
    {
        return;
    }
    m_step = step;
    NS_ABORT_MSG_IF(!(m_minW < m_maxW),
                    "DynamicRssModel: MinW " << m_minW << " must be below MaxW " << m_maxW);
    m_normal->SetAttribute("Mean", DoubleValue(m_meanW));
    m_normal->SetAttribute("Variance", DoubleValue(m_stdW * m_stdW));
    m_normal->SetAttribute("Bound", DoubleValue(1e300)); // unbounded: truncation is ours
    m_w.assign(static_cast<std::size_t>(m_n) * m_n, 0.0);
    const double width = m_levels > 0 ? (m_maxW - m_minW) / m_levels : 0.0;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        for (uint32_t j = 0; j < m_n; ++j)
        {
            if (i == j)
            {
                continue;
            }
            double w = Draw();
            if (m_levels > 0)
            {
                w = m_minW + (Bin(w) + 0.5) * width; // centre of the quantization bin
            }
            m_w[static_cast<std::size_t>(i) * m_n + j] = w;
        }
    }
}

double
DynamicRssModel::GetRssW(uint32_t rx,
                         uint32_t tx,
                         Ptr<MobilityModel> /* rxMobility */,
                         Ptr<MobilityModel> /* txMobility */,
                         double /* txPowerDbm */)
{
    Refresh();
    NS_ABORT_MSG_IF(rx >= m_n || tx >= m_n, "DynamicRssModel: index outside N = " << m_n);
    return m_w[static_cast<std::size_t>(rx) * m_n + tx];
}

uint32_t
DynamicRssModel::StateOf(Ptr<D2dRssModel> model, uint32_t rx, uint32_t tx)
{
    auto dyn = DynamicCast<DynamicRssModel>(model);
    return dyn && rx != tx ? dyn->GetState(rx, tx) : 0;
}

uint32_t
DynamicRssModel::GetState(uint32_t rx, uint32_t tx)
{
    const double w = GetRssW(rx, tx, nullptr, nullptr, 0.0);
    return m_levels > 0 ? Bin(w) : 0;
}

} // namespace ns3
