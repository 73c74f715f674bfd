/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CONSENSUS_TRACE_WRITER_H
#define D2D_CONSENSUS_TRACE_WRITER_H

#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-prediction-consensus.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

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

    /**
     * \brief polynomial data (Fan et al. 2023, Fig. 1): write samples.csv
     * (`set,node,x,y`: set `train` per agent with its noisy targets, set `xstar`, node -1,
     * with the noise-free f(x)), open coefficients.csv (`round,sim_time_s,node,power,
     * coefficient`: every agent's polynomial c_0..c_d at the end of every round) and connect
     * to the protocol's RoundEnd trace. Call once, before the simulation runs.
     * \param protocol the protocol (its learners are "poly" models)
     * \param train the training set
     * \param shards the agents' samples of train
     * \param xstar X*
     * \throws std::runtime_error if a file cannot be created or is open already
     */
    void ConnectPolynomial(Ptr<D2dFlProtocol> protocol,
                           const D2dDataset& train,
                           const std::vector<D2dShard>& shards,
                           const D2dDataset& xstar);

    /**
     * \brief 2-D classification data (Fan et al. 2023, Fig. 2): open boundary.csv
     * (`round,node,x1,x2,class`: every agent's predicted class on a steps x steps grid over
     * [lo, hi]^2) and write it at the end of the given rounds (e.g. the last warm-up round
     * and the last round). Call once, before the simulation runs.
     * \param protocol the protocol
     * \param classes C
     * \param rounds the rounds to draw
     * \param lo grid's lowest coordinate
     * \param hi grid's highest coordinate (> lo)
     * \param steps grid points per axis (>= 2)
     * \throws std::runtime_error if the file cannot be created or is open already
     */
    void ConnectBoundary(Ptr<D2dFlProtocol> protocol,
                         uint32_t classes,
                         const std::set<uint32_t>& rounds,
                         double lo,
                         double hi,
                         uint32_t steps);

  private:
    /** RoundEnd sink: coefficients.csv and boundary.csv rows of the round. */
    void RoundEnd(uint32_t round, double accuracy, double loss);

    /** Trust sink: a trust.csv row. */
    void WriteTrust(uint32_t round,
                    uint32_t node,
                    uint32_t peer,
                    double w,
                    const std::string& received);
    /** \param r Consensus sink: a consensus.csv row */
    void WriteConsensus(const D2dPredictionConsensus::ConsensusRecord& r);

    D2dTraceHelper& m_traces;               //!< the run's trace folder (OpenTrace)
    Ptr<D2dPredictionConsensus> m_protocol; //!< Connect's protocol (disconnected at the end)
    Ptr<D2dFlProtocol> m_fitted;            //!< the protocol of RoundEnd
    std::ostream* m_coefficients{nullptr};  //!< coefficients.csv (polynomial data)
    std::ostream* m_boundary{nullptr};      //!< boundary.csv (2-D data)
    std::set<uint32_t> m_boundaryRounds;    //!< rounds drawn in boundary.csv
    std::shared_ptr<D2dDataset> m_grid;     //!< boundary.csv's points
    std::ostream* m_trust{nullptr};         //!< trust.csv (Connect)
    std::ostream* m_consensus{nullptr};     //!< consensus.csv (Connect)
};

} // namespace ns3

#endif /* D2D_CONSENSUS_TRACE_WRITER_H */
