/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BELIEF_TRACE_WRITER_H
#define D2D_BELIEF_TRACE_WRITER_H

#include "ns3/d2d-belief-consensus.h"
#include "ns3/d2d-belief-learner.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-transport.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Writes the belief-consensus files of a run's trace folder from D2dBeliefConsensus's
 * trace sources, through D2dTraceHelper::OpenTrace (temporary files renamed by
 * D2dTraceHelper::Finish()):
 *
 * - beliefs.csv `step,node,` + D2dBeliefLearner::GetBeliefsHeader(): at every "StepDone"
 *   k, one row per device whose transport is on (node -1 only, the central learner, with
 *   Cooperation CENTRAL), the learner's GetBeliefsRow();
 * - rounds.csv (D2dTraceHelper::EnableRounds): at the same StepDone, the same nodes'
 *   D2dBeliefLearner::GetMetrics() as rows (round = step k), and with meanRows (not
 *   CENTRAL) a node -1 row per metric: its mean over those devices;
 * - consensus.csv `step,node,fresh,reused,renormalized_out`: one row per "Consensus" record.
 * - missed.csv `step,node`: one row per "LocalUpdateMissed" record (a live device whose local
 *   update had not completed at the step deadline).
 *
 * The beliefs and metrics are the learner's state when StepDone fires (a getter read at the
 * event): StepDone carries only k. The writer must outlive the simulation; its destructor
 * disconnects its sinks.
 */
class D2dBeliefTraceWriter
{
  public:
    /** \param traces the trace folder (must outlive this writer's use) */
    explicit D2dBeliefTraceWriter(D2dTraceHelper& traces);
    ~D2dBeliefTraceWriter();
    D2dBeliefTraceWriter(const D2dBeliefTraceWriter&) = delete;
    D2dBeliefTraceWriter& operator=(const D2dBeliefTraceWriter&) = delete;

    /**
     * \brief Open beliefs.csv, consensus.csv, missed.csv and rounds.csv and connect to the
     * protocol's StepDone, Consensus and LocalUpdateMissed traces. Call once, before the
     * simulation runs. A device that is not live (D2dBeliefConsensus::IsLive: its battery
     * depleted) gets no rows.
     * \param protocol the protocol
     * \param learner its learner
     * \param meanRows also write node -1 rows of rounds.csv: each metric's mean over the
     *        devices written at the step (ignored with Cooperation CENTRAL)
     * \throws std::runtime_error if a file cannot be created or is open already
     */
    void Connect(Ptr<D2dBeliefConsensus> protocol, Ptr<D2dBeliefLearner> learner, bool meanRows);

    /**
     * \return empty, or why the run stopped: a belief or a metric that is NaN or infinite,
     * naming the device and the step (the writer then called Simulator::Stop())
     */
    const std::string& GetNumericError() const;

  private:
    /** \brief Note the first NaN or infinity and stop the simulation. \param what it */
    void StopOnNonFinite(const std::string& what);

    /** \param k StepDone sink: beliefs.csv and rounds.csv rows of step k */
    void WriteStep(uint32_t k);
    /**
     * \brief LocalUpdateMissed sink: one row of missed.csv.
     * \param k the step
     * \param node the device whose local update missed the step's deadline
     */
    void WriteMissed(uint32_t k, uint32_t node);
    /**
     * \brief Consensus sink: a consensus.csv row.
     * \param k step
     * \param node device
     * \param fresh in-neighbours whose b_j^(k) arrived in time
     * \param reused in-neighbours replaced by their last belief (REUSE)
     * \param renormalizedOut in-neighbours left out (RENORMALIZE)
     */
    void WriteConsensus(uint32_t k,
                        uint32_t node,
                        uint32_t fresh,
                        uint32_t reused,
                        uint32_t renormalizedOut);

    D2dTraceHelper& m_traces;           //!< the trace folder the files are opened in (not owned)
    Ptr<D2dBeliefConsensus> m_protocol; //!< connected protocol (null: none)
    Ptr<D2dBeliefLearner> m_learner;    //!< the protocol's learner, read at each StepDone
    bool m_meanRows{false};             //!< Connect's meanRows: node -1 means in rounds.csv
    std::string m_numericError;         //!< the first NaN or infinity (GetNumericError)
    std::ostream* m_beliefs{nullptr};   //!< beliefs.csv
    std::ostream* m_consensus{nullptr}; //!< consensus.csv
    std::ostream* m_missed{nullptr};    //!< missed.csv
};

} // namespace ns3

#endif /* D2D_BELIEF_TRACE_WRITER_H */
