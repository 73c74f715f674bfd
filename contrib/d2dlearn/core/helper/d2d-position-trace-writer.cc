/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-position-trace-writer.h"

#include "ns3/abort.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <fmt/format.h>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPositionTraceWriter");

D2dPositionTraceWriter::D2dPositionTraceWriter(D2dTraceHelper& traces, const std::string& file)
    : m_traces(traces),
      m_out(traces.OpenTrace(file, HEADER))
{
    NS_LOG_FUNCTION(this << file);
}

void
D2dPositionTraceWriter::Start(NodeContainer nodes, Time period)
{
    NS_LOG_FUNCTION(this << nodes.GetN() << period);
    NS_ABORT_MSG_IF(period.IsStrictlyNegative(), "D2dPositionTraceWriter: negative period");
    m_mobility.clear();
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<MobilityModel> mobility = nodes.Get(i)->GetObject<MobilityModel>();
        NS_ABORT_MSG_IF(!mobility, "D2dPositionTraceWriter: node " << i << " has no position");
        m_mobility.push_back(mobility);
    }
    m_period = period;
    m_k = 0;
    // An event at time 0, after every event scheduled for time 0 so far (the nodes'
    // initialization, an ns-2 trace's moves at 0): the positions the run starts from.
    Simulator::Schedule(Seconds(0),
                        &D2dPositionTraceWriter::Sample,
                        Ptr<D2dPositionTraceWriter>(this));
}

uint64_t
D2dPositionTraceWriter::GetNRows() const
{
    return m_rows;
}

void
D2dPositionTraceWriter::Sample()
{
    const Time now = Simulator::Now();
    NS_LOG_FUNCTION(this << now);
    fmt::memory_buffer rows;
    for (std::size_t i = 0; i < m_mobility.size(); ++i)
    {
        const Vector p = m_mobility[i]->GetPosition();
        fmt::format_to(std::back_inserter(rows),
                       "{:.9f},{},{:.6f},{:.6f},{:.6f}\n",
                       now.GetSeconds(),
                       i,
                       p.x,
                       p.y,
                       p.z);
        if (rows.size() > (1 << 16))
        {
            m_out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
            rows.clear();
        }
    }
    m_out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
    if (std::ostream* anim = m_traces.NetAnimPositions(); anim && m_k > 0)
    {
        // NetAnim's node updates (AnimationInterface's WriteXmlUpdateNodePosition); the
        // positions at time 0 are its node elements already.
        for (std::size_t i = 0; i < m_mobility.size(); ++i)
        {
            const Vector p = m_mobility[i]->GetPosition();
            *anim << fmt::format(
                "<nu p=\"p\" t=\"{:.9f}\" id=\"{}\" x=\"{:.6f}\" y=\"{:.6f}\" />\n",
                now.GetSeconds(),
                i,
                p.x,
                p.y);
        }
    }
    m_rows += m_mobility.size();
    ++m_k;
    // Only while something else is still to happen: the samples never keep a run alive.
    if (m_period.IsStrictlyPositive() && !Simulator::IsFinished())
    {
        // k x period in integer time steps: no drift over many samples.
        const Time next = TimeStep(static_cast<uint64_t>(m_period.GetTimeStep()) * m_k);
        Simulator::Schedule(next - now,
                            &D2dPositionTraceWriter::Sample,
                            Ptr<D2dPositionTraceWriter>(this));
    }
}

} // namespace ns3
