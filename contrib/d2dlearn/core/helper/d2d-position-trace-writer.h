/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_POSITION_TRACE_WRITER_H
#define D2D_POSITION_TRACE_WRITER_H

#include "ns3/mobility-model.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief Writes positions.csv `sim_time_s,node,x_m,y_m,z_m` through D2dTraceHelper::OpenTrace
 * (a temporary file renamed by D2dTraceHelper::Finish(), listed in run.json's trace_files):
 * at time 0 and then every period while the simulation runs, one row per node (in node
 * order) with its MobilityModel's position then (metres, 6 decimals: micrometres; the time
 * with 9 decimals, as energy.csv's).
 *
 * The sampling event reschedules itself only while other events are pending
 * (Simulator::IsFinished() false), so that it never keeps a simulation alive; the samples
 * are at k x period exactly (integer nanoseconds). A period of 0 writes the time-0 rows
 * only. The writer is kept alive by its own pending event.
 */
class D2dPositionTraceWriter : public SimpleRefCount<D2dPositionTraceWriter>
{
  public:
    /** positions.csv's header row */
    static constexpr const char* HEADER = "sim_time_s,node,x_m,y_m,z_m";

    /**
     * \brief Open positions.csv in the trace folder.
     * \param traces the run's traces (must outlive the simulation)
     * \param file the file name (positions.csv)
     * \throws std::runtime_error if the file cannot be created or is open already
     */
    D2dPositionTraceWriter(D2dTraceHelper& traces, const std::string& file);

    /**
     * \brief Schedule the samples: at time 0 (now, if the simulation has not started) and
     * every period after it. Call once, before Simulator::Run().
     * \param nodes the nodes written, node i as node i (each with a MobilityModel)
     * \param period time between samples (0: time 0 only)
     */
    void Start(NodeContainer nodes, Time period);

    /** \return the rows written so far */
    uint64_t GetNRows() const;

  private:
    /** \brief Write one row per node at the current time and schedule the next sample. */
    void Sample();

    D2dTraceHelper& m_traces;                   //!< the run's traces (NetAnimPositions)
    std::ostream& m_out;                        //!< positions.csv's stream (the helper's)
    std::vector<Ptr<MobilityModel>> m_mobility; //!< node i's mobility model at index i
    Time m_period;                              //!< time between samples (0: once)
    uint64_t m_k{0};                            //!< index of the next sample
    uint64_t m_rows{0};                         //!< rows written
};

} // namespace ns3

#endif /* D2D_POSITION_TRACE_WRITER_H */
