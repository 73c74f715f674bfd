/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-discovery-trace-writer.h"

#include "ns3/d2d-supervised-paradigm.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/uinteger.h"

#include <fmt/format.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dDiscoveryTraceWriter");

namespace
{
/** \return the sum of the counts */
double
Sum(const D2dFractionalCounts& c)
{
    double s = 0;
    for (double x : c)
    {
        s += x;
    }
    return s;
}
} // namespace

D2dDiscoveryTraceWriter::D2dDiscoveryTraceWriter(D2dTraceHelper& traces, uint32_t traceEvery)
    : m_traces(traces),
      m_every(std::max<uint32_t>(1, traceEvery))
{
}

void
D2dDiscoveryTraceWriter::Connect(Ptr<D2dGraphDiscovery> gd)
{
    m_gd = gd;
    UintegerValue iterations;
    gd->GetAttribute("Iterations", iterations);
    m_iterations = iterations.Get();
    m_iterationsCsv = &m_traces.OpenTrace(
        "gd_iterations.csv",
        "edge,iteration,node,transmitter,p_drop,exchanged,gain,local_reward,global_reward,reward");
    m_linksCsv = &m_traces.OpenTrace(
        "gd_links.csv",
        "edge,receiver,transmitter,p_drop,requested,allocated,sent,received,trust,shareable");
    m_diversityCsv = &m_traces.OpenTrace("gd_diversity.csv", "phase,node,label,count,edge");
    gd->TraceConnectWithoutContext("Iteration",
                                   MakeCallback(&D2dDiscoveryTraceWriter::Iteration, this));
    gd->TraceConnectWithoutContext("Histogram",
                                   MakeCallback(&D2dDiscoveryTraceWriter::Histogram, this));
    gd->TraceConnectWithoutContext("Link", MakeCallback(&D2dDiscoveryTraceWriter::Link, this));
}

void
D2dDiscoveryTraceWriter::Iteration(const D2dGraphDiscovery::IterationRecord& r)
{
    if (r.iteration % m_every != 0 && r.iteration + 1 != m_iterations)
    {
        return;
    }
    *m_iterationsCsv << fmt::format("{},{},{},{},{:.9g},{},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                                    r.edge,
                                    r.iteration,
                                    r.device,
                                    r.transmitter,
                                    r.pDrop,
                                    r.exchanged ? 1 : 0,
                                    r.gain,
                                    r.localReward,
                                    r.globalReward,
                                    r.reward);
}

void
D2dDiscoveryTraceWriter::Histogram(const std::string& phase,
                                   uint32_t edge,
                                   uint32_t device,
                                   const D2dFractionalCounts& counts)
{
    for (std::size_t l = 0; l < counts.size(); ++l)
    {
        *m_diversityCsv << fmt::format("{},{},{},{:.9g},{}\n", phase, device, l, counts[l], edge);
    }
}

void
D2dDiscoveryTraceWriter::Link(const D2dGraphDiscovery::Link& link)
{
    // Shareable is evaluated on the counts the exchange started from: the link is traced
    // before the paradigm's counts change. With trust matrices (supervised and
    // semi-supervised) it counts the labels whose trust is 1 on the link's row (transmitter
    // j, receiver i) and of which j holds more than its threshold: that row is written
    // beside it, 0/1 per label, so that shareable is recomputable from the traces
    // (gd_diversity.csv has the counts); the unsupervised paradigm has none ("").
    const double shareable = m_gd->GetParadigm()->Shareable(link.transmitter, link.receiver);
    std::string trust;
    if (auto supervised = DynamicCast<D2dSupervisedParadigm>(m_gd->GetParadigm()))
    {
        for (uint8_t t : supervised->GetTrust().Row(link.transmitter, link.receiver))
        {
            trust += t ? '1' : '0';
        }
    }
    *m_linksCsv << fmt::format("{},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{},{:.9g}\n",
                               link.edge,
                               link.receiver,
                               link.transmitter,
                               link.pDrop,
                               Sum(link.requested),
                               Sum(link.allocated),
                               Sum(link.allocated),
                               Sum(link.received),
                               trust,
                               shareable);
}

void
D2dDiscoveryTraceWriter::WriteFinal(Ptr<D2dGraphDiscovery> gd,
                                    Ptr<D2dLinkQuality> links,
                                    const NodeContainer& devices,
                                    const std::vector<uint32_t>& minLabels,
                                    const std::vector<uint32_t>& satisfiedBefore)
{
    auto& policy =
        m_traces.OpenTrace("gd_policy.csv",
                           "edge,node,state,transmitter,total_reward,count,value,chosen");
    const auto& policies = gd->GetPolicies();
    const auto& graphs = gd->GetGraphs();
    for (std::size_t e = 0; e < policies.size(); ++e)
    {
        for (std::size_t i = 0; i < policies[e].size(); ++i)
        {
            const auto& p = policies[e][i];
            for (const auto& [state, action] : p.Visited())
            {
                const bool chosen = e < graphs.size() && graphs[e][i] == action;
                policy << fmt::format("{},{},{},{},{:.9g},{:.9g},{:.9g},{}\n",
                                      e,
                                      i,
                                      state,
                                      action,
                                      p.TotalReward(state, action),
                                      p.Count(state, action),
                                      p.Value(state, action),
                                      chosen ? 1 : 0);
            }
        }
    }
    auto& graph = m_traces.OpenTrace("gd_graph.csv", "edge,receiver,transmitter,p_drop");
    for (std::size_t e = 0; e < graphs.size(); ++e)
    {
        for (std::size_t i = 0; i < graphs[e].size(); ++i)
        {
            const int64_t j = graphs[e][i];
            graph << (j < 0 ? fmt::format("{},{},-1,\n", e, i)
                            : fmt::format("{},{},{},{:.17g}\n",
                                          e,
                                          i,
                                          j,
                                          links->GetDropProbability(i, j)));
        }
    }
    auto& nodes =
        m_traces.OpenTrace("gd_nodes.csv",
                           "node,x_m,y_m,cluster,satisfied_before,satisfied_after,min_labels");
    const auto& clusters = gd->GetClusters();
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        auto mob = devices.Get(i)->GetObject<MobilityModel>();
        const Vector pos = mob ? mob->GetPosition() : Vector();
        nodes << fmt::format("{},{:.6f},{:.6f},{},{},{},{}\n",
                             i,
                             pos.x,
                             pos.y,
                             i < clusters.size() ? clusters[i] : 0,
                             satisfiedBefore.at(i),
                             gd->GetParadigm()->Satisfied(i),
                             minLabels.at(i));
    }
}

} // namespace ns3
