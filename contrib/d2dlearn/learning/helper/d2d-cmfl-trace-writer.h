/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CMFL_TRACE_WRITER_H
#define D2D_CMFL_TRACE_WRITER_H

#include "ns3/d2d-cmfl.h"
#include "ns3/d2d-committee-consensus.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Writes the CMFL-specific files of a run's trace folder from the protocols' trace
 * sources, through D2dTraceHelper::OpenTrace (temporary files renamed by
 * D2dTraceHelper::Finish()):
 *
 * - committee.csv `round,sim_time_s,training,committee,aggregation,n1,n2,n3,next_committee,
 *   next_n2`: one row per D2dCmfl "Committee" record (the sizes of S_b^t, S_c^t, S_a^t and
 *   their malicious counts; where S_c^{t+1} comes from, "elected", "drawn" (the committee
 *   stepped down without an agreed election) or "kept", and its malicious members);
 * - ccp.csv `round,step,attempt,primary,replies,quorum,outcome,sim_time_s`: one row per
 *   D2dCommitteeConsensus "Step" record;
 * - aggregation.csv `device,malicious,training,committee,aggregated`: one row per device,
 *   written by WriteClientCounts() after the run from D2dCmfl::GetClientCounts().
 *
 * sim_time_s is the simulated time at which the record was fired (9 decimals).
 *
 * aggregation.csv is a summary of the whole run, so it is read from the protocol's state
 * (a getter) when the run is over, as ns-3 statistics are (FlowMonitor, PacketSink's
 * GetTotalRx): the protocol cannot know which of its rounds is the run's last (the scenario
 * may stop the simulator before), so a trace source "at the end" would need the scenario to
 * tell the protocol to fire it. The per-round events behind the counts are the Committee
 * records.
 *
 * rounds.csv is not written here: D2dTraceHelper::ConnectRounds() writes every protocol's.
 * The writer must outlive the simulation; its destructor disconnects its sinks.
 */
class D2dCmflTraceWriter
{
  public:
    /**
     * \param traces the trace folder (must outlive this writer's use)
     */
    explicit D2dCmflTraceWriter(D2dTraceHelper& traces);
    ~D2dCmflTraceWriter();
    D2dCmflTraceWriter(const D2dCmflTraceWriter&) = delete;
    D2dCmflTraceWriter& operator=(const D2dCmflTraceWriter&) = delete;

    /**
     * \brief Open committee.csv and connect to the protocol's Committee trace; connect its
     * consensus protocol (ConnectConsensus(cmfl->GetConsensus())). Call once, before the
     * simulation runs.
     * \param cmfl the protocol
     * \throws std::runtime_error if a file cannot be created or is open already
     */
    void Connect(Ptr<D2dCmfl> cmfl);

    /**
     * \brief Open ccp.csv and connect to the consensus protocol's Step trace (Connect() does
     * it for D2dCmfl's; use it alone for a D2dCommitteeConsensus of its own).
     * \param ccp the consensus protocol
     * \throws std::runtime_error if the file cannot be created or is open already
     */
    void ConnectConsensus(Ptr<D2dCommitteeConsensus> ccp);

    /**
     * \brief Write aggregation.csv from the counts of the protocol given to Connect(): call
     * once, after the simulation, before D2dTraceHelper::Finish().
     * \throws std::runtime_error if the file cannot be created or is open already
     */
    void WriteClientCounts();

  private:
    /** \param record Committee sink: a committee.csv row */
    void WriteCommittee(const D2dCmfl::CommitteeRecord& record);
    /**
     * \brief Step sink: a ccp.csv row.
     * \param round round
     * \param step step
     * \param attempt attempt
     * \param primary primary
     * \param replies replies
     * \param quorum quorum
     * \param outcome outcome
     */
    void WriteStep(uint32_t round,
                   const std::string& step,
                   uint32_t attempt,
                   int64_t primary,
                   uint32_t replies,
                   uint32_t quorum,
                   const std::string& outcome);

    D2dTraceHelper& m_traces;           //!< the trace folder the files are opened in (not owned)
    Ptr<D2dCmfl> m_cmfl;                //!< connected protocol (null: none)
    Ptr<D2dCommitteeConsensus> m_ccp;   //!< connected consensus protocol (null: none)
    std::ostream* m_committee{nullptr}; //!< committee.csv
    std::ostream* m_ccpStream{nullptr}; //!< ccp.csv
};

} // namespace ns3

#endif /* D2D_CMFL_TRACE_WRITER_H */
