/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-consensus-trace-writer.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

namespace ns3
{

D2dConsensusTraceWriter::D2dConsensusTraceWriter(D2dTraceHelper& traces)
    : m_traces(traces)
{
}

D2dConsensusTraceWriter::~D2dConsensusTraceWriter()
{
    if (m_fitted)
    {
        m_fitted->TraceDisconnectWithoutContext(
            "RoundEnd",
            MakeCallback(&D2dConsensusTraceWriter::RoundEnd, this));
    }
    if (m_protocol)
    {
        m_protocol->TraceDisconnectWithoutContext(
            "Trust",
            MakeCallback(&D2dConsensusTraceWriter::WriteTrust, this));
        m_protocol->TraceDisconnectWithoutContext(
            "Consensus",
            MakeCallback(&D2dConsensusTraceWriter::WriteConsensus, this));
    }
}

void
D2dConsensusTraceWriter::Connect(Ptr<D2dPredictionConsensus> protocol)
{
    NS_ABORT_MSG_IF(!protocol, "D2dConsensusTraceWriter::Connect: no protocol");
    NS_ABORT_MSG_IF(m_protocol, "D2dConsensusTraceWriter::Connect: connected already");
    m_trust = &m_traces.OpenTrace("trust.csv", "round,sim_time_s,node,peer,w,received");
    m_consensus = &m_traces.OpenTrace("consensus.csv",
                                      "round,sim_time_s,node,fresh,reused,missing,self_trust,"
                                      "column_sum,column_sum_offdiag,consensus_weight,trace,"
                                      "delta,lambda,product_delta,disagreement");
    m_protocol = protocol;
    m_protocol->TraceConnectWithoutContext(
        "Trust",
        MakeCallback(&D2dConsensusTraceWriter::WriteTrust, this));
    m_protocol->TraceConnectWithoutContext(
        "Consensus",
        MakeCallback(&D2dConsensusTraceWriter::WriteConsensus, this));
}

void
D2dConsensusTraceWriter::ConnectPolynomial(Ptr<D2dFlProtocol> protocol,
                                           const D2dDataset& train,
                                           const std::vector<D2dShard>& shards,
                                           const D2dDataset& xstar)
{
    NS_ABORT_MSG_IF(!protocol, "D2dConsensusTraceWriter::ConnectPolynomial: no protocol");
    NS_ABORT_MSG_IF(m_coefficients, "D2dConsensusTraceWriter: coefficients.csv is open");
    NS_ABORT_MSG_IF(train.FeatureSize() != 1 || xstar.FeatureSize() != 1,
                    "D2dConsensusTraceWriter::ConnectPolynomial: scalar inputs only");
    auto& samples = m_traces.OpenTrace("samples.csv", "set,node,x,y");
    fmt::memory_buffer rows;
    for (std::size_t i = 0; i < shards.size(); ++i)
    {
        for (auto k : shards[i].indices)
        {
            fmt::format_to(std::back_inserter(rows),
                           "train,{},{:.9g},{:.9g}\n",
                           i,
                           train.features[k],
                           train.targets[k]);
        }
    }
    for (std::size_t k = 0; k < xstar.Size(); ++k)
    {
        fmt::format_to(std::back_inserter(rows),
                       "xstar,-1,{:.9g},{:.9g}\n",
                       xstar.features[k],
                       xstar.targets[k]);
    }
    samples.write(rows.data(), static_cast<std::streamsize>(rows.size()));
    m_coefficients =
        &m_traces.OpenTrace("coefficients.csv", "round,sim_time_s,node,power,coefficient");
    if (!m_fitted)
    {
        m_fitted = protocol;
        m_fitted->TraceConnectWithoutContext(
            "RoundEnd",
            MakeCallback(&D2dConsensusTraceWriter::RoundEnd, this));
    }
}

void
D2dConsensusTraceWriter::ConnectBoundary(Ptr<D2dFlProtocol> protocol,
                                         uint32_t classes,
                                         const std::set<uint32_t>& rounds,
                                         double lo,
                                         double hi,
                                         uint32_t steps)
{
    NS_ABORT_MSG_IF(!protocol, "D2dConsensusTraceWriter::ConnectBoundary: no protocol");
    NS_ABORT_MSG_IF(m_boundary, "D2dConsensusTraceWriter: boundary.csv is open");
    NS_ABORT_MSG_IF(!(hi > lo) || steps < 2 || classes == 0,
                    "D2dConsensusTraceWriter::ConnectBoundary: a grid needs hi > lo, steps >= 2 "
                    "and classes");
    m_boundary = &m_traces.OpenTrace("boundary.csv", "round,node,x1,x2,class");
    m_boundaryRounds = rounds;
    m_grid = std::make_shared<D2dDataset>();
    m_grid->name = "boundary-grid";
    m_grid->featureShape = {2};
    m_grid->numClasses = classes;
    for (uint32_t a = 0; a < steps; ++a)
    {
        for (uint32_t b = 0; b < steps; ++b)
        {
            m_grid->features.push_back(static_cast<float>(lo + (hi - lo) * a / (steps - 1.0)));
            m_grid->features.push_back(static_cast<float>(lo + (hi - lo) * b / (steps - 1.0)));
            m_grid->labels.push_back(0);
        }
    }
    if (!m_fitted)
    {
        m_fitted = protocol;
        m_fitted->TraceConnectWithoutContext(
            "RoundEnd",
            MakeCallback(&D2dConsensusTraceWriter::RoundEnd, this));
    }
}

void
D2dConsensusTraceWriter::RoundEnd(uint32_t round, double, double)
{
    const auto& learners = m_fitted->GetLearners();
    if (m_coefficients)
    {
        fmt::memory_buffer rows;
        for (std::size_t i = 0; i < learners.size(); ++i)
        {
            if (learners[i]->IsTraining() || !learners[i]->HoldsParameters())
            {
                // A straggler, or a stateless client between rounds (FedAvg's release their
                // weights): no visible model.
                continue;
            }
            const auto c = learners[i]->GetParameters();
            for (std::size_t e = 0; e < c.size(); ++e)
            {
                fmt::format_to(std::back_inserter(rows),
                               "{},{:.9f},{},{},{:.9g}\n",
                               round,
                               Simulator::Now().GetSeconds(),
                               i,
                               e,
                               c[e]);
            }
            // One device's rows at a time: the buffer stays O(coefficients), not O(N).
            m_coefficients->write(rows.data(), static_cast<std::streamsize>(rows.size()));
            rows.clear();
        }
    }
    if (m_boundary && m_boundaryRounds.count(round) > 0)
    {
        const std::size_t c = m_grid->numClasses;
        fmt::memory_buffer rows;
        for (std::size_t i = 0; i < learners.size(); ++i)
        {
            if (learners[i]->IsTraining() || !learners[i]->HoldsParameters())
            {
                continue; // as above: no model of its own to draw
            }
            const auto p = learners[i]->Predict(*m_grid);
            for (std::size_t k = 0; k < m_grid->Size(); ++k)
            {
                const auto first = p.begin() + static_cast<std::ptrdiff_t>(k * c);
                const auto best = std::max_element(first, first + static_cast<std::ptrdiff_t>(c));
                fmt::format_to(std::back_inserter(rows),
                               "{},{},{:.9g},{:.9g},{}\n",
                               round,
                               i,
                               m_grid->features[2 * k],
                               m_grid->features[2 * k + 1],
                               best - first);
            }
            // One device's grid at a time: the buffer stays O(grid), not O(N x grid) (250 MB
            // with 1,000 devices and the 2-D Gaussian mixture's grid).
            m_boundary->write(rows.data(), static_cast<std::streamsize>(rows.size()));
            rows.clear();
        }
    }
}

void
D2dConsensusTraceWriter::WriteTrust(uint32_t round,
                                    uint32_t node,
                                    uint32_t peer,
                                    double w,
                                    const std::string& received)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{:.9f},{},{},{:.9g},{}\n",
                   round,
                   Simulator::Now().GetSeconds(),
                   node,
                   peer,
                   w,
                   received);
    m_trust->write(row.data(), static_cast<std::streamsize>(row.size()));
}

void
D2dConsensusTraceWriter::WriteConsensus(const D2dPredictionConsensus::ConsensusRecord& r)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{:.9f},{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},"
                   "{:.9g}\n",
                   r.round,
                   Simulator::Now().GetSeconds(),
                   r.node,
                   r.fresh,
                   r.reused,
                   r.missing,
                   r.selfTrust,
                   r.columnSum,
                   r.columnSumOffDiag,
                   r.consensusWeight,
                   r.trace,
                   r.delta,
                   r.lambda,
                   r.productDelta,
                   r.disagreement);
    m_consensus->write(row.data(), static_cast<std::streamsize>(row.size()));
}

} // namespace ns3
