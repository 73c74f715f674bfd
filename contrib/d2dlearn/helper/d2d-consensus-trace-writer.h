/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CONSENSUS_TRACE_WRITER_H
#define D2D_CONSENSUS_TRACE_WRITER_H

#include "ns3/d2d-prediction-consensus.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Writes the prediction-consensus files of a run's trace folder from
 * D2dPredictionConsensus's trace sources, through D2dTraceHelper::OpenTrace (temporary
 * files renamed by D2dTraceHelper::Finish()):
 *
 * - trust.csv `round,sim_time_s,node,peer,w,received`: one row per (collaboration round,
 *   agent, peer): w_ij and how j's predictions were at hand (fresh, reused, missing);
 * - consensus.csv `round,sim_time_s,node,fresh,reused,missing,self_trust,column_sum,
 *   column_sum_offdiag,consensus_weight,trace,delta,lambda,product_delta,disagreement`: one
 *   row per (collaboration round, agent); the matrix-wide columns (trace .. disagreement)
 *   repeat on the round's rows.
 *
 * Values with 9 significant digits; sim_time_s with 9 decimals. The writer must outlive
 * the simulation; its destructor disconnects its sinks.
 */
class D2dConsensusTraceWriter
{
  public:
    /** \param traces the trace folder (must outlive this writer's use) */
    explicit D2dConsensusTraceWriter(D2dTraceHelper& traces);
    ~D2dConsensusTraceWriter();
    D2dConsensusTraceWriter(const D2dConsensusTraceWriter&) = delete;
    D2dConsensusTraceWriter& operator=(const D2dConsensusTraceWriter&) = delete;

    /**
     * \brief Open trust.csv and consensus.csv and connect to the protocol's Trust and
     * Consensus traces. Call once, before the simulation runs.
     * \param protocol the protocol
     * \throws std::runtime_error if a file cannot be created or is open already
     */
    void Connect(Ptr<D2dPredictionConsensus> protocol);

  private:
    /** Trust sink: a trust.csv row. */
    void WriteTrust(uint32_t round,
                    uint32_t node,
                    uint32_t peer,
                    double w,
                    const std::string& received);
    /** \param r Consensus sink: a consensus.csv row */
    void WriteConsensus(const D2dPredictionConsensus::ConsensusRecord& r);

    D2dTraceHelper& m_traces;
    Ptr<D2dPredictionConsensus> m_protocol;
    std::ostream* m_trust{nullptr};
    std::ostream* m_consensus{nullptr};
};

} // namespace ns3

#endif /* D2D_CONSENSUS_TRACE_WRITER_H */
