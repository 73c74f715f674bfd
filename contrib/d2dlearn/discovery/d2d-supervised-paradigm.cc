/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-supervised-paradigm.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSupervisedParadigm");
NS_OBJECT_ENSURE_REGISTERED(D2dSupervisedParadigm);

TypeId
D2dSupervisedParadigm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dSupervisedParadigm")
            .SetParent<D2dDiscoveryParadigm>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dSupervisedParadigm>()
            .AddAttribute("ThresholdOn",
                          "Counts eq. (8) is checked on inside g: allocated (loss-free "
                          "D_i + U - sent) or expected (D-hat_i, the literal reading)",
                          StringValue("allocated"),
                          MakeStringAccessor(&D2dSupervisedParadigm::m_thresholdOn),
                          MakeStringChecker())
            .AddAttribute("Metric",
                          "Distance of the label histograms before and after: w1 or js",
                          StringValue("w1"),
                          MakeStringAccessor(&D2dSupervisedParadigm::m_metric),
                          MakeStringChecker())
            .AddAttribute("BytesPerCount",
                          "Bytes per entry of the V, Q and U vectors (1: the paper's 8 bits)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dSupervisedParadigm::m_bytesPerCount),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("RequestBytes",
                          "Size of a link request (the edge is in the message's addresses), bytes",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dSupervisedParadigm::m_requestBytes),
                          MakeUintegerChecker<uint32_t>(1, 1500));
    return tid;
}

D2dSupervisedParadigm::D2dSupervisedParadigm()
{
}

void
D2dSupervisedParadigm::Setup(std::vector<D2dCounts> counts,
                             std::vector<D2dCounts> thresholds,
                             std::vector<uint32_t> minLabels,
                             D2dTrustMatrices trust)
{
    NS_ABORT_MSG_IF(thresholds.size() != counts.size() || minLabels.size() != counts.size() ||
                        trust.GetNDevices() != counts.size(),
                    "D2dSupervisedParadigm::Setup: sizes disagree");
    m_counts = std::move(counts);
    m_thresholds = std::move(thresholds);
    m_minLabels = std::move(minLabels);
    m_trust = std::move(trust);
}

uint32_t
D2dSupervisedParadigm::GetNDevices() const
{
    return m_counts.size();
}

uint32_t
D2dSupervisedParadigm::GetNPartitions() const
{
    return m_trust.GetNLabels();
}

const D2dCounts&
D2dSupervisedParadigm::GetCounts(uint32_t device) const
{
    return m_counts.at(device);
}

void
D2dSupervisedParadigm::SetCounts(uint32_t device, const D2dCounts& counts)
{
    m_counts.at(device) = counts;
}

uint64_t
D2dSupervisedParadigm::GetRequestBytes() const
{
    return m_requestBytes;
}

uint64_t
D2dSupervisedParadigm::GetVectorBytes() const
{
    return static_cast<uint64_t>(m_bytesPerCount) * GetNPartitions();
}

D2dCounts
D2dSupervisedParadigm::Offer(uint32_t transmitter, uint32_t receiver) const
{
    return D2dMessagePassing::Available(m_trust.Row(transmitter, receiver),
                                        m_counts.at(transmitter),
                                        m_thresholds.at(transmitter));
}

D2dCounts
D2dSupervisedParadigm::Demand(uint32_t receiver, const D2dCounts& offer) const
{
    return D2dMessagePassing::Request(offer, m_counts.at(receiver), m_thresholds.at(receiver));
}

std::vector<D2dCounts>
D2dSupervisedParadigm::Allocate(uint32_t transmitter, const std::vector<D2dCounts>& demands) const
{
    return D2dMessagePassing::Allocate(demands,
                                       m_counts.at(transmitter),
                                       m_thresholds.at(transmitter));
}

double
D2dSupervisedParadigm::Gain(uint32_t receiver,
                            const D2dCounts& allocated,
                            double pDrop,
                            const D2dCounts& sent) const
{
    const D2dCounts& before = m_counts.at(receiver);
    D2dCounts loss(before.size());
    D2dCounts expected(before.size());
    for (std::size_t l = 0; l < before.size(); ++l)
    {
        loss[l] = before[l] + allocated.at(l) - sent.at(l);
        expected[l] = before[l] + (1.0 - pDrop) * allocated[l] - sent[l];
    }
    return D2dDiversityRewards::Gain(D2dDiversityRewards::ParseMetric(m_metric),
                                     before,
                                     expected,
                                     m_thresholdOn == "expected" ? expected : loss,
                                     m_thresholds.at(receiver),
                                     m_minLabels.at(receiver));
}

double
D2dSupervisedParadigm::Shareable(uint32_t transmitter, uint32_t receiver) const
{
    double k = 0;
    for (double v : Offer(transmitter, receiver))
    {
        k += v;
    }
    return k;
}

uint32_t
D2dSupervisedParadigm::Satisfied(uint32_t device) const
{
    return D2dDiversityRewards::Satisfied(m_counts.at(device), m_thresholds.at(device));
}

const D2dCounts&
D2dSupervisedParadigm::GetThresholds(uint32_t device) const
{
    return m_thresholds.at(device);
}

uint32_t
D2dSupervisedParadigm::GetMinLabels(uint32_t device) const
{
    return m_minLabels.at(device);
}

const D2dTrustMatrices&
D2dSupervisedParadigm::GetTrust() const
{
    return m_trust;
}

} // namespace ns3
