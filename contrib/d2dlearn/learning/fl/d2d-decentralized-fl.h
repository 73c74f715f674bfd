/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DECENTRALIZED_FL_H
#define D2D_DECENTRALIZED_FL_H

#include "d2d-model-exchange.h"
#include "d2d-peer-protocol.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Fully decentralized FL over the D2D channel, no server (Wagle et al. 2025 sec. VI-E: "each
 * device aggregates local models from 7 neighbors at random", after its ref. [18]).
 *
 * Round t:
 *  1. every device i draws its in-neighbours N_i^t: min(Neighbours, |C_i|) devices drawn
 *     uniformly without replacement from its candidates C_i (every other device, or its
 *     neighbours in the graph given to SetGraph(), e.g. the devices within range), from
 *     an ns-3 RNG stream (AssignStreams), devices in index order; the draw does not
 *     depend on which devices are alive;
 *  2. every device with a battery left that is not still busy with an earlier job
 *     (a straggler) trains locally (LocalEpochs / LocalSteps, in simulated time), and,
 *     when done, sends its weights w_i^{t+1/2} in a "model" message (unicast, the
 *     delivery mode of SetChannel) to each device that drew it;
 *  3. device i, once its own job is done and the models of all its participating
 *     in-neighbours are in (or lost, or at RoundDeadline), replaces its weights by
 *     w_i^{t+1} = sum_{k in {i} u A_i^t} a_k w_k^{t+1/2} / sum_{k in {i} u A_i^t} a_k,
 *     A_i^t the in-neighbours whose model arrived complete, a_k = 1 (Weighting "uniform",
 *     the default: the averaging matrix W^t has W_ik = 1 / (1 + |A_i^t|)) or a_k = n_k
 *     (Weighting "samples": sample counts carried by the messages).
 * The round ends when every participant has averaged, or at RoundDeadline after its start;
 * devices still training then (stragglers, batteries depleted mid-job) are left out: they
 * neither average nor count, their late results are ignored and they join again in the
 * first round that finds them idle. See D2dModelExchange for the step's details.
 *
 * rounds.csv, per round: per-device `accuracy` and `loss` (if EvaluateDevices), the mean
 * model's `accuracy` and `loss` and `consensus_distance` (node -1, RecordDevices over the
 * devices with a battery left), `round_time_s`, `participants` (devices that averaged),
 * `stragglers` (participants left out at the deadline, or that left before averaging) and
 * `models_received`; with devices that come and go (a D2dAvailabilityModel), `available`
 * (devices there at the round's start). A device away at a round's start takes no part in
 * it (its in-neighbours do not wait for it); one that leaves during the round is dropped
 * from it at once (D2dModelExchange). Round 0 is
 * the state before training. By default every device starts from device 0's initial
 * weights (CommonInitialModel), as decentralized SGD assumes.
 *
 * Memory (DeferTraining, on by default): the devices' LibTorch work and averages are
 * deferred to the round's end and computed then in a locality order of the round's
 * neighbour graph (D2dModelExchange's deferred mode), so that besides one model per device
 * only a band of trained models is resident; records and traces are the same bytes as
 * without deferral, except that each learner's TrainingDone trace fires at the round's end,
 * and with it the stop on a non-finite training loss (the run fails all the same; the
 * device it names is the first whose work ran, which may be another one).
 */
class D2dDecentralizedFl : public D2dPeerProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dDecentralizedFl();

    /**
     * \brief Restrict the neighbours to a fixed graph.
     * \param adjacency adjacency[i]: the devices whose models device i may receive (its
     *        candidate in-neighbours; no self-loops); empty: every other device
     */
    void SetGraph(std::vector<std::vector<uint32_t>> adjacency);

    /**
     * \brief The graph of each round, asked for at the round's start, e.g. who hears whom
     * as the devices move (D2dNetwork::InNeighbours()); replaces SetGraph()'s.
     * \param source returns the adjacency as SetGraph() takes it
     */
    void SetGraphSource(Callback<std::vector<std::vector<uint32_t>>> source);

    /**
     * Signature of the Averaged trace: (round, device, contributors: the devices whose
     * models it averaged, itself included, ascending).
     */
    typedef void (*AveragedTracedCallback)(uint32_t round,
                                           uint32_t device,
                                           const std::vector<uint32_t>& contributors);

  protected:
    /**
     * \brief Begin: check the graph, configure the exchange, share device 0's weights
     * (CommonInitialModel), record round 0 (the state before training), start round 1.
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Hand the learners, transports, delivery mode and codec to the exchange. */
    void ConnectTransports() override;

    /**
     * \brief The step a variant overrides to choose who averages with whom: device i's
     * in-neighbours of a round (the devices whose models it averages with its own). This
     * class draws min(Neighbours, |candidates|) of each device's candidates (every other
     * device, or its neighbours in SetGraph's graph) without replacement, on the protocol's
     * RNG stream, devices in index order.
     * \param round the round starting (1, 2, ...)
     * \return device i's in-neighbours at index i, ascending, without i
     */
    virtual std::vector<std::vector<uint32_t>> DrawInNeighbours(uint32_t round);

  private:
    /** \brief Draw the neighbours, start the local jobs, arm the deadline. */
    void StartRound();
    /** \brief Every participant has averaged. */
    void AllAveraged();
    /** \brief The deadline: close the exchange. */
    void Deadline();
    /** \brief Trace, record and go on. */
    void EndOfRound();
    /**
     * \param device a device that averaged
     * \param contributors models it averaged
     */
    void Averaged(uint32_t device, const std::vector<uint32_t>& contributors);

    uint32_t m_neighbours;     //!< attribute Neighbours: in-neighbours drawn per device and round
    Weighting m_weighting;     //!< attribute Weighting: a_k = 1 or n_k
    bool m_commonInitialModel; //!< attribute CommonInitialModel: all start from device 0's weights
    bool m_deferTraining;      //!< DeferTraining: the exchange's deferred mode
    /** SetGraph()'s adjacency: m_graph[i] = device i's candidate in-neighbours (empty: all) */
    std::vector<std::vector<uint32_t>> m_graph;
    /** SetGraphSource()'s: the graph of each round (null: m_graph throughout) */
    Callback<std::vector<std::vector<uint32_t>>> m_graphSource;
    /** \brief Abort unless m_graph is empty or a graph of the learners without self-loops. */
    void CheckGraph() const;
    Ptr<D2dModelExchange> m_exchange; //!< runs each round's jobs, model messages and averages
    uint32_t m_nAveraged{0};          //!< devices that averaged in this round (participants)
    uint32_t m_available{0};          //!< devices there (not away) at the round's start
    /** the Averaged trace source (AveragedTracedCallback) */
    TracedCallback<uint32_t, uint32_t, const std::vector<uint32_t>&> m_averagedTrace;
};

} // namespace ns3

#endif /* D2D_DECENTRALIZED_FL_H */
