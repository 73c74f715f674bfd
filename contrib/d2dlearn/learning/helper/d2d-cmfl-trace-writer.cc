/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-cmfl-trace-writer.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <fmt/format.h>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dCmflTraceWriter");

D2dCmflTraceWriter::D2dCmflTraceWriter(D2dTraceHelper& traces)
    : m_traces(traces)
{
}

D2dCmflTraceWriter::~D2dCmflTraceWriter()
{
    if (m_cmfl)
    {
        m_cmfl->TraceDisconnectWithoutContext(
            "Committee",
            MakeCallback(&D2dCmflTraceWriter::WriteCommittee, this));
    }
    if (m_ccp)
    {
        m_ccp->TraceDisconnectWithoutContext("Step",
                                             MakeCallback(&D2dCmflTraceWriter::WriteStep, this));
    }
}

void
D2dCmflTraceWriter::Connect(Ptr<D2dCmfl> cmfl)
{
    NS_ABORT_MSG_IF(!cmfl, "D2dCmflTraceWriter::Connect: no protocol");
    NS_ABORT_MSG_IF(m_cmfl, "D2dCmflTraceWriter::Connect: a protocol is connected already");
    m_committee = &m_traces.OpenTrace("committee.csv",
                                      "round,sim_time_s,training,committee,aggregation,n1,n2,n3,"
                                      "next_committee,next_n2");
    m_cmfl = cmfl;
    m_cmfl->TraceConnectWithoutContext("Committee",
                                       MakeCallback(&D2dCmflTraceWriter::WriteCommittee, this));
    ConnectConsensus(cmfl->GetConsensus());
}

void
D2dCmflTraceWriter::ConnectConsensus(Ptr<D2dCommitteeConsensus> ccp)
{
    NS_ABORT_MSG_IF(!ccp, "D2dCmflTraceWriter::ConnectConsensus: no protocol");
    NS_ABORT_MSG_IF(m_ccp, "D2dCmflTraceWriter::ConnectConsensus: a protocol is connected already");
    m_ccpStream = &m_traces.OpenTrace("ccp.csv",
                                      "round,step,attempt,primary,replies,quorum,outcome,"
                                      "sim_time_s");
    m_ccp = ccp;
    m_ccp->TraceConnectWithoutContext("Step", MakeCallback(&D2dCmflTraceWriter::WriteStep, this));
}

void
D2dCmflTraceWriter::WriteCommittee(const D2dCmfl::CommitteeRecord& r)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{:.9f},{},{},{},{},{},{},{},{}\n",
                   r.round,
                   Simulator::Now().GetSeconds(),
                   r.training.size(),
                   r.committee.size(),
                   r.aggregated.size(),
                   r.maliciousTraining,
                   r.maliciousCommittee,
                   r.maliciousAggregated,
                   D2dCommitteeRules::ToString(r.next),
                   r.maliciousNext);
    m_committee->write(row.data(), static_cast<std::streamsize>(row.size()));
}

void
D2dCmflTraceWriter::WriteStep(uint32_t round,
                              const std::string& step,
                              uint32_t attempt,
                              int64_t primary,
                              uint32_t replies,
                              uint32_t quorum,
                              const std::string& outcome)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{},{},{},{},{},{},{:.9f}\n",
                   round,
                   step,
                   attempt,
                   primary,
                   replies,
                   quorum,
                   outcome,
                   Simulator::Now().GetSeconds());
    m_ccpStream->write(row.data(), static_cast<std::streamsize>(row.size()));
}

void
D2dCmflTraceWriter::WriteClientCounts()
{
    NS_ABORT_MSG_IF(!m_cmfl, "D2dCmflTraceWriter::WriteClientCounts: no protocol connected");
    std::ostream& out =
        m_traces.OpenTrace("aggregation.csv", "device,malicious,training,committee,aggregated");
    const auto& counts = m_cmfl->GetClientCounts();
    fmt::memory_buffer rows;
    for (uint32_t i = 0; i < counts.size(); ++i)
    {
        fmt::format_to(std::back_inserter(rows),
                       "{},{},{},{},{}\n",
                       i,
                       m_cmfl->IsMalicious(i) ? 1 : 0,
                       counts[i].training,
                       counts[i].committee,
                       counts[i].aggregated);
    }
    out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
}

} // namespace ns3
