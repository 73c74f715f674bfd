/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_GRAPH_DISCOVERY_H
#define D2D_GRAPH_DISCOVERY_H

#include "d2d-datapoint-exchange.h"
#include "d2d-discovery-iteration.h"
#include "d2d-discovery-modes.h"
#include "d2d-discovery-paradigm.h"
#include "d2d-discovery-payload.h"
#include "d2d-discovery-policies.h"
#include "d2d-link-policy.h"
#include "d2d-link-scorer.h"

#include "ns3/callback.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-link-quality.h"
#include "ns3/d2d-transport.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief D2D graph discovery by multi-agent reinforcement learning, then the exchange of
 * datapoints over the graph found (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, secs. IV-V), over any
 * D2dTransport backend; the drop probabilities it decides with come from a D2dLinkQuality.
 *
 * Each iteration is a slotted exchange of five phases; a phase starts GuardTime after every
 * message of the previous one has finished at its sender:
 *  1. link formation: every device i picks a transmitter j with its policy (eq. (7), one
 *     D2dLinkPolicy per device) and sends it a request ("gd_request");
 *  2. each j answers each requester with the offer V ("gd_offer", eq. (9));
 *  3. each i sends its demand Q ("gd_demand", eq. (10));
 *  4. each j, from the demands that reached it, allocates U and sends it ("gd_allocation",
 *     eq. (11));
 *  5. each i scores the step (the paradigm's g, eq. (13): r^L = alpha1 g - alpha2 P_D(i, j))
 *     and shares r^L and the datapoints it was allocated over an inter-cluster link inside
 *     its reliable cluster (eq. (1), greedy; nothing for a device alone in its cluster), how
 *     depends on RewardSharing:
 *     - cluster-head (default): each member sends them to its cluster's head, the member of
 *       lowest index ("gd_reward", a unicast); the head forms r^G of eq. (14) and sends it
 *       back to the other members (6. "gd_global", one multicast). Every device sends and
 *       receives O(1) messages per iteration, so the RL phase's D2D cost is O(N E t), the
 *       linear scaling of the paper's sec. VI-J; a member whose r^G is lost forms it from its
 *       own reward alone.
 *     - multicast (the literal "local rewards are broadcast"): each member multicasts them to
 *       all the other members and every device forms r^G from the rewards that reached it;
 *       receptions grow with the square of the cluster size.
 *     Every device then updates its policy with R = r^L + gamma r^G (sec. IV-E).
 * No datapoint moves while the policies learn. Control messages are reliable unless
 * ControlReliable is false; a lost request, offer or demand means no exchange for that edge
 * this iteration (g = 0, the P_D penalty remains), a lost reward is left out of r^G.
 *
 * After Iterations iterations each device takes its most probable transmitter; a last
 * message passing (phases 1-4) runs on that graph, then each transmitter sends each receiver
 * the datapoints allocated to it ("gd_data", one itemised message of BytesPerPoint per point,
 * DataReliable false by default): the receiver keeps what arrived, the transmitter drops all
 * it sent. With Edges > 1 the discovery and exchange run again (Remark 2), a receiver never
 * choosing a transmitter twice. The baselines (Graph closest | most-trusted | uniform | gcn
 * (SetLinkScores)) skip the
 * learning and use their own graph for the last message passing and the exchange; none
 * exchanges nothing; fixed (SetFixedGraph) runs the iterations on a given graph without
 * learning.
 *
 * The paradigm (attribute Paradigm) says what the messages carry; D2dSupervisedParadigm
 * is the labelled one. Its hooks (D2dDiscoveryParadigm) may drop the offer and demand (the
 * request then carries the demand, and U follows it: the unsupervised Alg. 2,
 * D2dUnsupervisedParadigm), size the allocation and the reward messages, let r^G take the
 * system agreement of eq. (17) instead of the members' r^L / N, and move the points of an
 * exchange itself; their defaults leave the supervised messages and traces as they were.
 * A device the paradigm says does not take part (TakesPart) sits the discovery out: no
 * receiver may pick it, it picks no transmitter, and it is a reliable cluster of its own, so
 * it sends and receives no reward (its r^L and r^G are 0 in the traces).
 *
 * The policies and the rewards are a D2dDiscoveryPolicies of its own, which stores the
 * attributes that configure them; the enumeration values they take are D2dDiscoveryModes'
 * (BUFFER_SHARED, MULTICAST, ...), inherited. The records of the datapoint exchange are a
 * D2dDatapointExchange of its own.
 */
class D2dGraphDiscovery : public Object, public D2dDiscoveryModes
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dGraphDiscovery();
    ~D2dGraphDiscovery() override;

    /** One edge's datapoint exchange: a row of gd_links.csv (D2dDatapointExchange). */
    using Link = D2dDatapointExchange::Link;

    /**
     * \param transports device i's D2D transport at index i (any backend)
     * \param links what the devices know of their links: P_D(i, j) of eq. (18) and, when
     *        links change, their quantized states (a D2dChannel is one; over Wi-Fi, a
     *        D2dRssLinkQuality)
     */
    void Setup(const std::vector<Ptr<D2dTransport>>& transports, Ptr<D2dLinkQuality> links);
    /**
     * \brief For Graph = fixed: every iteration uses this selection (selection[i] = j, -1
     * none); the rewards are computed and traced but no policy learns (a check of the message
     * passing over the channel).
     * \param selection the transmitter of each device
     */
    void SetFixedGraph(const std::vector<int64_t>& selection);
    /**
     * \brief For Graph = gcn: each receiver i takes the allowed transmitter j of the highest
     * scores[i][j] (D2dBaselineGraphs::HighestScore), like a baseline graph: the last message
     * passing and the exchange run on it. The scores come from the server's GCN
     * (D2dGcnLinkScorer, Wagle et al. 2025, App. C); any link scorer works.
     * \param scores N x N, [i][j] for the link j -> i
     */
    void SetLinkScores(const std::vector<std::vector<double>>& scores);
    /** \brief Start discovering (schedule at the time wanted). */
    void Start();
    /** \param cb called once when every edge has been discovered and exchanged */
    void SetFinishedCallback(Callback<void> cb);
    /**
     * \param stream first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \return the kinds of the control messages (request, offer, demand, allocation, the
     *         rewards): O(N) per iteration, the bulk of a run's messages; the datapoints
     *         ("gd_data") are not among them
     */
    static std::set<std::string> ControlKinds();

    /** \return the paradigm */
    Ptr<D2dDiscoveryParadigm> GetParadigm() const;
    /** \return the reliable cluster of each device */
    const std::vector<uint32_t>& GetClusters() const;
    /** \return device i's policy of edge round e, at [e][i] (empty unless Graph = rl) */
    const std::vector<std::vector<D2dLinkPolicy>>& GetPolicies() const;
    /** \return the transmitter of each device in each edge round, at [e][i] (-1: none) */
    const std::vector<std::vector<int64_t>>& GetGraphs() const;
    /** \return the datapoint exchanges, in order */
    const std::vector<Link>& GetLinks() const;
    /** \return true once finished */
    bool IsFinished() const;
    /**
     * \param rx receiver i
     * \return the state q each action j is valued in at device i now (StateMode)
     */
    std::vector<uint32_t> CurrentStates(uint32_t rx);

    /** How the graph is found (attribute Graph). */
    enum GraphMode
    {
        RL,           //!< the policies learn it (sec. IV)
        CLOSEST,      //!< lowest P_D (D2dBaselineGraphs::Closest)
        MOST_TRUSTED, //!< most shareable partitions (D2dBaselineGraphs::MostShareable)
        UNIFORM,      //!< uniformly at random (D2dBaselineGraphs::Uniform)
        GCN,          //!< highest link score (SetLinkScores, D2dBaselineGraphs::HighestScore)
        NONE,         //!< no graph: nothing is exchanged
        FIXED         //!< SetFixedGraph: iterations on a given graph, no learning
    };

    /** One device's choice and rewards in one RL iteration (the Iteration trace). */
    struct IterationRecord
    {
        uint32_t edge;       //!< the edge round (Remark 2), from 0
        uint32_t iteration;  //!< the iteration within the edge round, from 0
        uint32_t device;     //!< the receiver i
        int64_t transmitter; //!< the transmitter i chose (-1: none)
        double pDrop;        //!< P_D of the chosen link, a probability
        bool exchanged;      //!< whether i's transmitter's allocation U arrived
        double gain;         //!< g of i's exchange
        double localReward;  //!< r^L of eq. (13)
        double globalReward; //!< the r^G i learns from (eq. (14))
        double reward;       //!< R = r^L + gamma r^G
    };

    /** Signature of the Iteration trace. */
    typedef void (*IterationTracedCallback)(const IterationRecord& record);
    /** Signature of the Stage trace: edge round, "learned" (its policies are trained, the
     * last message passing and the exchange begin) or "exchanged" (its datapoints moved). */
    typedef void (*StageTracedCallback)(uint32_t edge, const std::string& stage);
    /** Signature of the Link trace. */
    typedef void (*LinkTracedCallback)(const Link& link);
    /** Signature of the Histogram trace: phase "before"/"after", edge, device, counts. */
    typedef void (*HistogramTracedCallback)(const std::string& phase,
                                            uint32_t edge,
                                            uint32_t device,
                                            const D2dFractionalCounts& counts);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** The phases of an iteration. */
    enum class Phase
    {
        REQUEST,
        OFFER,
        DEMAND,
        ALLOCATION,
        REWARD,
        GLOBAL,
        DATA
    };
    /** \brief Start edge round m_edge: trace the "before" histograms, add its policies (Graph
     * rl) and run its first iteration (a baseline graph goes straight to the final one). */
    void StartEdge();
    /** \brief Start an iteration: each device's transmitter (sampled from its policy, greedy in
     * the final message passing; the fixed or baseline graph otherwise), then Phase::REQUEST. */
    void StartIteration();
    /**
     * \brief Send a phase's messages; with none pending, the phase is done at once.
     * \param phase the phase to run (becomes m_phase)
     */
    void RunPhase(Phase phase);
    /** \brief Each receiver's request to its transmitter (with the demand when the paradigm has no
     * offer phase, Alg. 2). */
    void SendRequests();
    /** \brief Each transmitter's offer V to each receiver that requested (eq. (9)). */
    void SendOffers();
    /** \brief Each receiver's demand Q to its transmitter, from the offer (eq. (10)). */
    void SendDemands();
    /** \brief Each transmitter's allocation U to its requesters (eqs. (11)-(12)). */
    void SendAllocations();
    /** \brief Each receiver's gain and local reward r^L (eq. (13)), sent to its cluster (the head
     * only, or every member). */
    void SendRewards();
    /** \brief ClusterHead: each head forms r^G of eq. (14) from what reached it and sends it to the
     * other members of its cluster in one multicast. */
    void SendGlobalRewards();
    /** \brief The final exchange: the datapoints of every allocation, a Link record each. */
    void SendData();
    /**
     * \param values the vector the message carries (V, Q, U or the datapoints)
     * \return a payload of this edge and iteration
     */
    std::shared_ptr<D2dDiscoveryPayload> MakePayload(const D2dFractionalCounts& values) const;
    /** \return the delivery mode of the control messages (ControlReliable) */
    D2dDeliveryMode ControlMode() const;
    /** \brief Every message of the phase has ended (and GuardTime passed): run the next phase,
     * end the iteration, or settle the datapoint exchange. */
    void PhaseDone();
    /** \brief Update each device's policy with R = r^L + gamma r^G (Graph rl), trace the
     * iteration, and start the next one (at the next multiple of IterationPeriod if set;
     * with SleepBetweenIterations the devices' radios sleep until then). */
    void EndIteration();
    /** \brief The exchange's messages have ended: record the edge round's graph, settle the
     * datapoints received, trace "after" histograms, exclude the edges used, go on or finish. */
    void ApplyData();
    /** \brief Mark the discovery finished and call the finished callback. */
    void Finish();
    /**
     * \brief The graph of a baseline (Graph none, gcn, uniform, closest, most-trusted), edges
     * already used or into/out of a device that sits out excluded.
     * \return the transmitter of each device (-1: none)
     */
    std::vector<int64_t> BaselineGraph();
    /**
     * \brief Send a control message and count it as pending in the current phase.
     * \param src the sender's device index
     * \param dst the receivers' device indices
     * \param kind the message kind ("gd_request", ...)
     * \param bytes its size (bytes)
     * \param payload its content
     * \param mode its delivery mode
     * \return the message id (0: the sender is off, nothing sent)
     */
    uint64_t SendControl(uint32_t src,
                         const std::vector<uint32_t>& dst,
                         const std::string& kind,
                         uint64_t bytes,
                         std::shared_ptr<const D2dDiscoveryPayload> payload,
                         D2dDeliveryMode mode);
    /**
     * \brief A message reached a device: store what it carries in m_it (a datapoint message
     * goes to m_exchange); stragglers of an earlier iteration and incomplete control
     * messages are ignored.
     * \param reception the reception
     */
    void Receive(const D2dReception& reception);
    /**
     * \brief A send ended: once the phase's last pending message has ended, PhaseDone() after
     * GuardTime.
     * \param msgId the message
     * \param dst its receiver (unused)
     * \param success whether it was delivered (unused)
     */
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return P_D(i, j) now, from the link quality (eq. (18) of Wagle et al. 2025)
     */
    double DropProbability(uint32_t rx, uint32_t tx) const;
    /**
     * \brief Add the attributes of the RL policies (BufferSize to StateMode), stored in
     * m_rl's parameters.
     * \param tid the TypeId being built (GetTypeId)
     */
    static void AddPolicyAttributes(TypeId& tid);
    /**
     * \brief Add the attributes of the messages (ControlReliable to RewardSharing); those of
     * the rewards are stored in m_rl's parameters.
     * \param tid the TypeId being built (GetTypeId)
     */
    static void AddMessageAttributes(TypeId& tid);
    /**
     * \brief Add the trace sources (Iteration, Histogram, Link, Stage).
     * \param tid the TypeId being built (GetTypeId)
     */
    static void AddTraceSources(TypeId& tid);

    /**
     * \brief The setter of an attribute stored in m_rl's parameters.
     * \tparam V the attribute's type
     * \tparam field its field in D2dDiscoveryPolicies::Parameters
     * \param value the value
     */
    template <typename V, V D2dDiscoveryPolicies::Parameters::*field>
    void SetPolicyParameter(V value)
    {
        m_rl.GetParameters().*field = value;
    }

    /**
     * \brief The getter of an attribute stored in m_rl's parameters.
     * \tparam V the attribute's type
     * \tparam field its field in D2dDiscoveryPolicies::Parameters
     * \return the value
     */
    template <typename V, V D2dDiscoveryPolicies::Parameters::*field>
    V GetPolicyParameter() const
    {
        return m_rl.GetParameters().*field;
    }

    // Attributes (those of the policies and rewards: m_rl).
    GraphMode m_graph;                    //!< attribute Graph
    uint32_t m_iterations;                //!< attribute Iterations: RL iterations per edge round
    uint32_t m_edges;                     //!< attribute Edges: E, edge rounds
    bool m_controlReliable;               //!< attribute ControlReliable
    bool m_dataReliable;                  //!< attribute DataReliable
    uint32_t m_bytesPerPoint;             //!< attribute BytesPerPoint: a datapoint's size, bytes
    Time m_iterationPeriod;               //!< attribute IterationPeriod
    Time m_guard;                         //!< attribute GuardTime
    bool m_sleepBetween{false};           //!< attribute SleepBetweenIterations
    Ptr<D2dDiscoveryParadigm> m_paradigm; //!< attribute Paradigm
    Ptr<D2dLinkScorer> m_linkScorer;      //!< attribute LinkScorer (Graph gcn)
    D2dDiscoveryPolicies m_rl;            //!< the RL policies and rewards, and their attributes
    D2dDatapointExchange m_exchange;      //!< the datapoint exchanges

    std::vector<Ptr<D2dTransport>> m_transports; //!< device index -> its D2D transport
    Ptr<D2dLinkQuality> m_linkQuality;           //!< P_D(i, j) and link states of the devices
    Ptr<UniformRandomVariable> m_uniform;        //!< policy samples and the uniform baseline
    Callback<void> m_finished;                   //!< called once when every edge round is done
    uint32_t m_n{0};                             //!< N, number of devices

    // Run state.
    std::vector<std::vector<int64_t>> m_graphs; //!< [e][i]: device i's transmitter in round e
    /** [i][j]: the edge j -> i may not be chosen (used in an earlier edge round, or i or j
     * sits out) */
    std::vector<std::vector<bool>> m_excluded;
    std::vector<int64_t> m_fixed; //!< Graph = fixed: device i's transmitter (-1: none)
    std::vector<std::vector<double>> m_linkScores; //!< Graph = gcn
    uint32_t m_edge{0};                            //!< current edge round
    uint32_t m_iteration{0};                       //!< current iteration of the edge round
    bool m_final{false};                           //!< in the final message passing and exchange
    bool m_finishedFlag{false};                    //!< every edge round is done (IsFinished)
    Phase m_phase{Phase::REQUEST};                 //!< the phase running
    std::set<uint64_t> m_pending;                  //!< ids of the phase's messages not ended yet
    D2dDiscoveryIteration m_it; //!< the iteration's selection, messages and rewards

    /** One device's choice and rewards in one iteration (IterationTracedCallback). */
    TracedCallback<const IterationRecord&> m_iterationTrace;
    /** A device's partition counts before and after an edge round's exchange. */
    TracedCallback<const std::string&, uint32_t, uint32_t, const D2dFractionalCounts&>
        m_histogramTrace;
    TracedCallback<const Link&> m_linkTrace; //!< one datapoint exchange over an edge
    /** An edge round's learning ended ("learned") or its datapoints moved ("exchanged"). */
    TracedCallback<uint32_t, const std::string&> m_stageTrace;
};

} // namespace ns3

#endif /* D2D_GRAPH_DISCOVERY_H */
