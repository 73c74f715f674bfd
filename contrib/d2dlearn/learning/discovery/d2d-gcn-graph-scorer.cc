/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-gcn-graph-scorer.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dGcnGraphScorer");
NS_OBJECT_ENSURE_REGISTERED(D2dGcnGraphScorer);

TypeId
D2dGcnGraphScorer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dGcnGraphScorer")
            .SetParent<D2dLinkScorer>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dGcnGraphScorer>()
            .AddAttribute("Systems",
                          "Training systems drawn from the deployment (1 if N <= SystemDevices)",
                          UintegerValue(8),
                          MakeUintegerAccessor(&D2dGcnGraphScorer::m_systems),
                          MakeUintegerChecker<uint32_t>(1, 10000))
            .AddAttribute("SystemDevices",
                          "Devices per training system",
                          UintegerValue(10),
                          MakeUintegerAccessor(&D2dGcnGraphScorer::m_systemDevices),
                          MakeUintegerChecker<uint32_t>(2, 1000000))
            .AddAttribute("SubsetSize",
                          "Size of the subsets the best links are searched over",
                          UintegerValue(4),
                          MakeUintegerAccessor(&D2dGcnGraphScorer::m_subsetSize),
                          MakeUintegerChecker<uint32_t>(2, 8))
            .AddAttribute("Epochs",
                          "Training epochs (Adam, learning rate 1e-3, weight decay 5e-4)",
                          UintegerValue(100),
                          MakeUintegerAccessor(&D2dGcnGraphScorer::m_epochs),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("Alpha1",
                          "alpha1 of eq. (13) in the local reward that picks the best links",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dGcnGraphScorer::m_alpha1),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("Alpha2",
                          "alpha2 of eq. (13) in the local reward that picks the best links",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dGcnGraphScorer::m_alpha2),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("Seed",
                          "Seed of the training systems drawn and the initial weights",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dGcnGraphScorer::m_seed),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

D2dGcnGraphScorer::D2dGcnGraphScorer()
{
}

std::vector<std::vector<double>>
D2dGcnGraphScorer::Score(const D2dDiscoveryParadigm& paradigm, const D2dLinkQuality& links)
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = paradigm.GetNDevices();
    std::vector<std::vector<double>> rssDbm(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<double>> pDrop(n, std::vector<double>(n, 0.0));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i != j)
            {
                rssDbm[i][j] = 10.0 * std::log10(links.GetRssW(i, j) * 1e3);
                pDrop[i][j] = links.GetDropProbability(i, j);
            }
        }
    }
    D2dGcnLinkScorer::Options o;
    o.systems = m_systems;
    o.systemDevices = m_systemDevices;
    o.subsetSize = m_subsetSize;
    o.epochs = m_epochs;
    o.alpha1 = m_alpha1;
    o.alpha2 = m_alpha2;
    o.seed = m_seed;
    m_result = D2dGcnLinkScorer::Run(paradigm, rssDbm, pDrop, o);
    return m_result.scores;
}

const D2dGcnLinkScorer::Result&
D2dGcnGraphScorer::GetResult() const
{
    return m_result;
}

} // namespace ns3
