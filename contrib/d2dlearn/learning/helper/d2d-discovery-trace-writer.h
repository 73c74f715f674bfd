/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISCOVERY_TRACE_WRITER_H
#define D2D_DISCOVERY_TRACE_WRITER_H

#include "ns3/d2d-graph-discovery.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/node-container.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Writes the traces of graph discovery (Wagle, Das, Love and Brinton 2025) into a
 * D2dTraceHelper's folder:
 * - gd_iterations.csv `edge,iteration,node,transmitter,p_drop,exchanged,gain,local_reward,
 *   global_reward,reward`: every device's choice and rewards in the iterations whose index is
 *   a multiple of traceEvery, and the last of each edge round;
 * - gd_policy.csv `edge,node,state,transmitter,total_reward,count,value,chosen`: the final
 *   Q-table of every device (psi^R, psi^C, their ratio), one row per (state, action) visited;
 *   chosen = 1 for the transmitter of the graph found;
 * - gd_links.csv `edge,receiver,transmitter,p_drop,requested,allocated,sent,received,
 *   shareable`: one row per edge of the exchange (datapoints requested Q, allocated U, sent,
 *   received; shareable = the partitions j could share with i, the edge colour of the paper's
 *   Fig. 4);
 * - gd_diversity.csv `phase,node,label,count,edge`: label histograms before and after each
 *   edge round's exchange;
 * - gd_graph.csv `edge,receiver,transmitter,p_drop`: the graph found (WriteFinal());
 * - gd_nodes.csv `node,x_m,y_m,cluster,satisfied_before,satisfied_after,min_labels`: positions,
 *   reliable clusters and the labels meeting their threshold (node colour of Fig. 4).
 * The writer must outlive the simulation.
 */
class D2dDiscoveryTraceWriter
{
  public:
    /**
     * \param traces the trace folder
     * \param traceEvery keep iterations whose index is a multiple of this (>= 1)
     */
    D2dDiscoveryTraceWriter(D2dTraceHelper& traces, uint32_t traceEvery);

    /**
     * \brief Open gd_iterations.csv, gd_links.csv and gd_diversity.csv and connect to the
     * protocol's traces. Call before the simulation runs.
     * \param gd the protocol
     */
    void Connect(Ptr<D2dGraphDiscovery> gd);
    /**
     * \brief Write gd_policy.csv, gd_graph.csv and gd_nodes.csv from the protocol's state.
     * Call once it has finished.
     *
     * gd_graph.csv: edge,receiver,transmitter,p_drop — the graph found, one row per edge
     * round and device: its transmitter (-1: none) and that link's P_D now (empty for none).
     * \param gd the protocol
     * \param links the link quality the protocol was set up with (P_D of the graph's links)
     * \param devices the devices (positions)
     * \param minLabels L-hat of each device
     * \param satisfiedBefore labels meeting their threshold before the first exchange
     */
    void WriteFinal(Ptr<D2dGraphDiscovery> gd,
                    Ptr<D2dLinkQuality> links,
                    const NodeContainer& devices,
                    const std::vector<uint32_t>& minLabels,
                    const std::vector<uint32_t>& satisfiedBefore);

  private:
    /**
     * \brief Iteration sink: a gd_iterations.csv row, if the iteration is a multiple of
     * traceEvery or the edge round's last.
     * \param record the device's choice and rewards in the iteration
     */
    void Iteration(const D2dGraphDiscovery::IterationRecord& record);
    /**
     * \brief Histogram sink: one gd_diversity.csv row per partition (label).
     * \param phase "before" or "after" the edge round's exchange
     * \param edge the edge round
     * \param device the device
     * \param counts its datapoints per partition
     */
    void Histogram(const std::string& phase,
                   uint32_t edge,
                   uint32_t device,
                   const D2dFractionalCounts& counts);
    /**
     * \brief Link sink: a gd_links.csv row (counts summed over the partitions, shareable
     * from the paradigm's counts before the exchange).
     * \param link one edge's datapoint exchange
     */
    void Link(const D2dGraphDiscovery::Link& link);

    D2dTraceHelper& m_traces;               //!< the trace folder (not owned)
    uint32_t m_every;                       //!< traceEvery (>= 1): iterations kept
    uint32_t m_iterations{0};               //!< the protocol's Iterations per edge round
    Ptr<D2dGraphDiscovery> m_gd;            //!< the connected protocol (null: none)
    std::ostream* m_iterationsCsv{nullptr}; //!< gd_iterations.csv
    std::ostream* m_linksCsv{nullptr};      //!< gd_links.csv
    std::ostream* m_diversityCsv{nullptr};  //!< gd_diversity.csv
};

} // namespace ns3

#endif /* D2D_DISCOVERY_TRACE_WRITER_H */
