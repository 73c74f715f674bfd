/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-supervised-paradigm.h"

#include "d2d-shard-exchange.h"

#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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
                          EnumValue(D2dSupervisedParadigm::ON_ALLOCATED),
                          D2dMakeEnumAccessor(&D2dSupervisedParadigm::m_thresholdOn),
                          MakeEnumChecker(D2dSupervisedParadigm::ON_ALLOCATED,
                                          "allocated",
                                          D2dSupervisedParadigm::ON_EXPECTED,
                                          "expected"))
            .AddAttribute("Metric",
                          "Distance of the label histograms before and after: w1 or js",
                          EnumValue(D2dSupervisedParadigm::METRIC_W1),
                          D2dMakeEnumAccessor(&D2dSupervisedParadigm::m_metric),
                          MakeEnumChecker(D2dSupervisedParadigm::METRIC_W1,
                                          "w1",
                                          D2dSupervisedParadigm::METRIC_JS,
                                          "js"))
            .AddAttribute("BytesPerCount",
                          "Bytes per entry of the V, Q and U vectors (1: the paper's 8 bits)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dSupervisedParadigm::m_bytesPerCount),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("RequestBytes",
                          "Size of a link request (the edge is in the message's addresses), bytes",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dSupervisedParadigm::m_requestBytes),
                          MakeUintegerChecker<uint32_t>(1, 1500))
            .AddAttribute("ThresholdFraction",
                          "b_i[l] of eq. (8) as a share of |D_i|, for every label",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&D2dSupervisedParadigm::m_thresholdFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinLabels",
                          "L-hat: labels each device aims to satisfy (0: the labels it "
                          "satisfies initially + 1)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dSupervisedParadigm::m_minLabelsGiven),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("Trust",
                          "Trust matrices T_j: random, row-sparse, column-sparse, block (App. F "
                          "structures) or file (TrustFile)",
                          EnumValue(D2dSupervisedParadigm::TRUST_RANDOM),
                          D2dMakeEnumAccessor(&D2dSupervisedParadigm::m_trustStructure),
                          MakeEnumChecker(D2dSupervisedParadigm::TRUST_RANDOM,
                                          "random",
                                          D2dSupervisedParadigm::TRUST_ROW_SPARSE,
                                          "row-sparse",
                                          D2dSupervisedParadigm::TRUST_COLUMN_SPARSE,
                                          "column-sparse",
                                          D2dSupervisedParadigm::TRUST_BLOCK,
                                          "block",
                                          D2dSupervisedParadigm::TRUST_FILE,
                                          "file"))
            .AddAttribute("TrustDensity",
                          "Share of ones of generated trust matrices",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&D2dSupervisedParadigm::m_trustDensity),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("TrustFile",
                          "Trust file: N x N lines of L 0/1 values (T_j[i] at line jN+i); "
                          "given, it is the trust",
                          StringValue(""),
                          MakeStringAccessor(&D2dSupervisedParadigm::m_trustFile),
                          MakeStringChecker());
    return tid;
}

D2dSupervisedParadigm::D2dSupervisedParadigm()
{
}

void
D2dSupervisedParadigm::Setup(std::vector<D2dFractionalCounts> counts,
                             std::vector<D2dFractionalCounts> thresholds,
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
    m_satisfiedBefore.assign(m_counts.size(), 0);
    for (uint32_t i = 0; i < m_counts.size(); ++i)
    {
        m_satisfiedBefore[i] = D2dDiversityRewards::Satisfied(m_counts[i], m_thresholds[i]);
    }
}

void
D2dSupervisedParadigm::LoadTrust(uint32_t nDevices, uint32_t nLabels, uint64_t seed)
{
    if (m_trustStructure == TRUST_FILE && m_trustFile.empty())
    {
        throw std::runtime_error("Trust file needs a TrustFile");
    }
    // The enumeration's order is D2dTrustMatrices::Structures()'s.
    m_trust = m_trustFile.empty()
                  ? D2dTrustMatrices::Generate(D2dTrustMatrices::Structures().at(m_trustStructure),
                                               nDevices,
                                               nLabels,
                                               m_trustDensity,
                                               seed + 7)
                  : D2dTrustMatrices::ReadFile(m_trustFile, nDevices, nLabels);
}

void
D2dSupervisedParadigm::Prepare(const Data& data, Callback<void> done)
{
    NS_LOG_FUNCTION(this);
    const auto n = static_cast<uint32_t>(data.shards.size());
    const uint32_t nl = data.partitions->numClasses;
    if (m_trust.GetNDevices() != n || m_trust.GetNLabels() != nl)
    {
        LoadTrust(n, nl, data.seed);
    }
    std::vector<D2dFractionalCounts> counts(n);
    std::vector<D2dFractionalCounts> thresholds(n);
    std::vector<uint32_t> minLabels(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        // Eq. (8)'s thresholds b_i, the same share of |D_i| for every label.
        const double b = std::floor(m_thresholdFraction * data.shards[i].indices.size() + 1e-9);
        thresholds[i].assign(nl, b);
        counts[i] = D2dShardExchange::Counts(*data.partitions, data.shards[i], nl);
        minLabels[i] =
            m_minLabelsGiven > 0
                ? m_minLabelsGiven
                : std::min(nl, D2dDiversityRewards::Satisfied(counts[i], thresholds[i]) + 1);
    }
    D2dTrustMatrices trust = m_trust;
    Setup(std::move(counts), std::move(thresholds), std::move(minLabels), std::move(trust));
    done();
}

uint32_t
D2dSupervisedParadigm::GetSatisfiedBefore(uint32_t device) const
{
    return m_satisfiedBefore.at(device);
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

const D2dFractionalCounts&
D2dSupervisedParadigm::GetCounts(uint32_t device) const
{
    return m_counts.at(device);
}

void
D2dSupervisedParadigm::SetCounts(uint32_t device, const D2dFractionalCounts& counts)
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

D2dFractionalCounts
D2dSupervisedParadigm::Offer(uint32_t transmitter, uint32_t receiver) const
{
    return D2dMessagePassing::Available(m_trust.Row(transmitter, receiver),
                                        m_counts.at(transmitter),
                                        m_thresholds.at(transmitter));
}

D2dFractionalCounts
D2dSupervisedParadigm::Demand(uint32_t receiver, const D2dFractionalCounts& offer) const
{
    return D2dMessagePassing::Request(offer, m_counts.at(receiver), m_thresholds.at(receiver));
}

std::vector<D2dFractionalCounts>
D2dSupervisedParadigm::Allocate(uint32_t transmitter,
                                const std::vector<D2dFractionalCounts>& demands) const
{
    return D2dMessagePassing::Allocate(demands,
                                       m_counts.at(transmitter),
                                       m_thresholds.at(transmitter));
}

double
D2dSupervisedParadigm::Gain(uint32_t receiver,
                            const D2dFractionalCounts& allocated,
                            double pDrop,
                            const D2dFractionalCounts& sent) const
{
    const D2dFractionalCounts& before = m_counts.at(receiver);
    D2dFractionalCounts loss(before.size());
    D2dFractionalCounts expected(before.size());
    for (std::size_t l = 0; l < before.size(); ++l)
    {
        loss[l] = before[l] + allocated.at(l) - sent.at(l);
        expected[l] = before[l] + (1.0 - pDrop) * allocated[l] - sent[l];
    }
    return D2dDiversityRewards::Gain(m_metric == METRIC_JS ? D2dDiversityRewards::Metric::JS
                                                           : D2dDiversityRewards::Metric::W1,
                                     before,
                                     expected,
                                     m_thresholdOn == ON_EXPECTED ? expected : loss,
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

const D2dFractionalCounts&
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
