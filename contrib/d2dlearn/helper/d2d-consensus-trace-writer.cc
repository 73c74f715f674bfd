/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-consensus-trace-writer.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/simulator.h"

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
