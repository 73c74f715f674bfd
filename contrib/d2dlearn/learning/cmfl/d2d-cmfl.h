/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CMFL_H
#define D2D_CMFL_H

#include "d2d-byzantine-attack.h"
#include "d2d-cmfl-roles.h"
#include "d2d-cmfl-votes.h"
#include "d2d-committee-consensus.h"
#include "d2d-committee-rules.h"
#include "d2d-malicious-clients.h"

#include "ns3/d2d-aggregation-strategy.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-transport.h"
#include "ns3/d2d-upload-retry.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The global model of a CMFL round as it travels: the model plus the roles of the
 * round (committee S_c^t and training clients S_b^t; recipients = both).
 */
class D2dCmflModelPayload : public D2dModelPayload
{
  public:
    std::vector<uint32_t> committee; //!< S_c^t, ascending
    std::vector<uint32_t> training;  //!< S_b^t, ascending
};

/**
 * \ingroup d2dlearn
 * \brief Committee Mechanism based Federated Learning (Che et al. 2022: C. Che, X. Li, C. Chen,
 * X. He, Z. Zheng, "A Decentralized Federated Learning Framework via Committee Mechanism
 * with Convergence Guarantee", IEEE TPDS 2022; "Committee Mechanism based Federated
 * Learning", "Training Algorithm"): serverless, every step a message on the devices'
 * D2dTransports (any backend: the D2D channel's radios, or D2dWifiTransport).
 *
 * Round t (Algorithm "The training algorithm of CMFL"):
 *  1. Random sampling / download: the primary committee client of round t-1 broadcasts
 *     the global model w^t to the committee S_c^t and the training clients S_b^t (one
 *     "global_model" multicast naming them: the paper's "all training clients and committee
 *     clients download the global model from the primary committee client", so the
 *     reliable ARQ covers exactly them and not the idle clients that hear it). It is sent
 *     as soon as the previous round ends (CCP step 8); when it goes on the air is the
 *     channel access's business (Scheduled access waits until no recipient is sending).
 *     Round 1: S_c^1 and S_b^1 are drawn at random and a random member of S_c^1 sends its
 *     initial weights.
 *  2. Local training: every client of S_b^t u S_c^t that received w^t completely trains
 *     (LocalEpochs / LocalSteps, simulated time) and forms its local gradient
 *     g_k = w^t - w_k (the pseudo-gradient of its local steps). Training clients send g_k to
 *     every committee member ("gradient": unicasts in committee order, or one multicast to
 *     them: GradientUpload); in reliable mode a unicast whose retransmissions ran
 *     out is sent again, up to UploadRetries times, while the round is open. Malicious
 *     clients (SetMalicious) change g_k first, committee members included: AttackSpace
 *     "update" attacks g_k (the paper's text), "weights" the trained weights w_k, so that
 *     g_k = w^t - attack(w_k) (the authors' runs; D2dByzantineAttack::ApplyInSpace).
 *  3. Scoring (eq. (7)): a committee member c that has trained scores each training
 *     client k whose gradient it holds: P_k^c = 1/||g_k - g_c||^2. A malicious member
 *     (MaliciousCommittee) scores the same way with its attacked g_c ("attacked-reference",
 *     the default, as the authors' code), or hands out D2dByzantineAttack::AdversarialScore
 *     ("adversarial", an extension). It scores as soon as it holds every training
 *     client's gradient, or at PhaseTimeout after the round began with what arrived.
 *     PhaseTimeout is the one timer of CMFL itself, and it keeps the paper's rule that the
 *     committee verifies the gradients of round t in round t (synchronous rounds,
 *     "Training Algorithm" steps 2-3: the committee scores the local gradients of the
 *     round's training clients, then runs the CCP): a client whose gradient has not
 *     arrived by then (its training straggles, its device died, its upload failed) is
 *     left out of the round instead of stalling it, as the paper's deadline-free
 *     description would. It is the committee's synchronized timer (a modelling
 *     assumption, like the CCP's RequestTimeout).
 *  4. CCP (D2dCommitteeConsensus): the members send their scores once every member
 *     has scored or at PhaseTimeout (members without scores stay silent); each member
 *     computes P_k = C_k / sum_c 1/P_k^c (eq. (8), over the C_k scores of k it
 *     holds) and proposes S_a^t by the selection strategy (I: top alpha, II: bottom; alpha
 *     of the scored training clients, or with AggregationBase "active" of the round's
 *     active clients as in the authors' code, at most the scored clients);
 *     a vote on S_a^t whose operation is the aggregation
 *         w^{t+1} = w^t - eta sum_{k in S_a} n_k / sum n g_k   (eqs. aggregation, globalUpdate)
 *     (the sum is the Aggregation strategy, default D2dMeanAggregation; a member
 *     executes it only if it holds every g_k of the set; the digest of its
 *     result is compared); then a vote on S_c^{t+1} (election: the training clients around
 *     the middle of the score ranking). With MaliciousCommittee "adversarial", malicious
 *     members propose the opposite sets (the other strategy's S_a, the lowest-ranked
 *     clients as committee), so they agree only with each other. The quorum of both votes
 *     is the CCP's Quorum (default: a majority of the committee).
 *  5. Step down: the aggregation vote's primary draws S_b^{t+1} at random among the
 *     clients outside S_c^{t+1} (the old committee becomes idle and may be drawn) and
 *     broadcasts w^{t+1} with the new roles: round t+1 begins.
 * If the aggregation vote fails (no consensus within the CCP's MaxAttempts), w^t is kept,
 * and with FailedVote "step-down" (the default) the committee still steps down (the paper's
 * "Step Down" of every round; the authors' code replaces the committee every round): the
 * election vote is held all the same, and if it fails too, or elects fewer than 3 members
 * (too few training clients were scored), C members are drawn at random among the round's
 * training clients (DrawCommittee; members cannot be re-elected at once). A committee whose
 * votes fail thus cannot stay: with FailedVote "keep-committee" (the former rule) a failed
 * aggregation vote keeps w^t and the committee, and a failed election the committee, so
 * that a committee that cannot agree repeats the round forever. committee.csv's
 * `next_committee` says which happened (elected, drawn, kept). The round's global
 * model is evaluated on the test set (rounds.csv `accuracy`, `loss`), plus
 * `round_time_s`, `training_clients`, `committee_clients`, `aggregated`, `ccp_attempts`,
 * `consensus`, `upload_retries` and, if counted, `bytes_sent` (RoundRecord trace); the
 * Committee trace reports the round's sets and their malicious counts N1/N2/N3 of the paper's
 * last experiment (committee.csv), and GetClientCounts() how often each client trained, sat
 * on the committee and was aggregated (aggregation.csv, written at the end by
 * D2dCmflTraceWriter).
 * Scoring and aggregation take no simulated time (O(n|w|) and O(m|w|) operations,
 * microseconds next to training).
 */
class D2dCmfl : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dCmfl();

    /** How a training client sends its gradient to the committee (GradientUpload). */
    enum GradientUpload
    {
        UNICAST,  //!< one message per member, as the paper's complexity analysis counts
        BROADCAST //!< one multicast to the members
    };

    /** What a malicious committee member does (MaliciousCommittee attribute). */
    enum class MaliciousCommittee
    {
        /** the authors' code: its own reference update is attacked like an upload (in the
         * AttackSpace), then it scores with the normal rule and follows the protocol */
        ATTACKED_REFERENCE,
        /** an extension: inverted scores ||g_k - g_c||^2 and the opposite proposals (the
         * other strategy's S_a, the lowest-ranked clients as committee) */
        ADVERSARIAL,
    };

    /** What alpha is a share of (AggregationBase attribute). */
    enum class AggregationBase
    {
        TRAINING, //!< the scored training clients ("accept the top alpha % of them")
        ACTIVE,   //!< the round's active clients, committee included (the authors' code)
    };

    /**
     * \return true: every CMFL and CCP message goes over D2D (SetTransports: any backend).
     * At initialization CMFL registers its receive handlers (kinds "global_model" and
     * "gradient") and a send-done handler on each transport, and hands the transports and
     * the delivery mode to the CCP, which registers its own kinds: the protocols share the
     * transports without forwarding receptions to each other.
     */
    bool UsesD2d() const override;
    /** \return the learners' class and the committee consensus protocol's
     *  (D2dCommitteeConsensus: its attributes act through CMFL) */
    std::vector<TypeId> GetPartTypeIds() const override;
    /** \return RoundDeadline (CMFL's phases end by PhaseTimeout) and EvaluateDevices (the
     *  global model is evaluated, no device's) */
    std::vector<std::string> GetUnreadAttributes() const override;

    /**
     * \param devices the malicious clients (malicious in every role)
     * \param attack what they do to their gradients (label flipping is done to their data
     *        by the scenario: here it changes nothing)
     * \param scalingLow gradient scaling: lambda is drawn in [scalingLow, 1)
     */
    void SetMalicious(const std::vector<uint32_t>& devices,
                      D2dAttackType attack,
                      double scalingLow = 0.5);

    /**
     * \param stream first RNG stream
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream) override;

    /** \return the committee consensus protocol (its attributes: RequestTimeout, ...) */
    Ptr<D2dCommitteeConsensus> GetConsensus() const;

    /** \return the current global model */
    const std::vector<float>& GetGlobalModel() const;

    /**
     * \return the committee: S_c^t during round t; from the round's end (RoundEnd trace)
     * S_c^{t+1}
     */
    const std::vector<uint32_t>& GetCommittee() const;
    /** \return the training clients: S_b^t during round t; from its end S_b^{t+1} */
    const std::vector<uint32_t>& GetTraining() const;
    /** \return S_a^t agreed on in the current round (empty: none yet, or no consensus) */
    const std::vector<uint32_t>& GetAggregated() const;

    /** \return CCP votes that reached consensus so far */
    uint32_t GetConsensusVotes() const;
    /** \return CCP attempts (primaries tried) so far */
    uint32_t GetCcpAttempts() const;

    /** Per-client counts of aggregation.csv. */
    struct ClientCounts
    {
        uint32_t training{0};   //!< rounds as a training client
        uint32_t committee{0};  //!< rounds as a committee member
        uint32_t aggregated{0}; //!< rounds whose aggregation set held it
    };

    /** \return the counts, by device, of the rounds finished so far */
    const std::vector<ClientCounts>& GetClientCounts() const;

    /** \param device a device \return true if it is malicious (SetMalicious) */
    bool IsMalicious(uint32_t device) const;

    /** What the Committee trace reports when round t finishes (a committee.csv row). */
    struct CommitteeRecord
    {
        uint32_t round{0};                //!< t
        std::vector<uint32_t> training;   //!< S_b^t, ascending
        std::vector<uint32_t> committee;  //!< S_c^t, ascending
        std::vector<uint32_t> aggregated; //!< S_a^t agreed on (empty: no consensus)
        uint32_t maliciousTraining{0};    //!< N1: malicious clients in S_b^t
        uint32_t maliciousCommittee{0};   //!< N2: malicious members of S_c^t
        uint32_t maliciousAggregated{0};  //!< N3: malicious clients in S_a^t
        /** where S_c^{t+1} comes from: elected, drawn (no agreed election, step down) or kept */
        D2dNextCommittee next{D2dNextCommittee::KEPT};
        std::vector<uint32_t> nextCommittee; //!< S_c^{t+1}, ascending
        uint32_t maliciousNext{0};           //!< malicious members of S_c^{t+1}
    };

    /**
     * Signature of the Committee trace, fired when a round finishes (after its votes,
     * before its evaluation), at that simulated time.
     * \param record the round's sets
     */
    typedef void (*CommitteeTracedCallback)(const CommitteeRecord& record);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Check the set-up, then connect to the transports (see UsesD2d). */
    void DoInitialize() override;
    /**
     * \brief Round 1: draw the active clients (ActivationFraction), the committee S_c^1
     * (CommitteeFraction of them, at least 3) and the training clients S_b^1, then a random
     * member sends its initial weights as w^1 (Broadcast).
     */
    void DoStart() override;

  private:
    /** What a device knows in the current round. */
    struct DeviceState
    {
        uint32_t round{0};                              //!< round of its role (0: none)
        bool committee{false};                          //!< member of S_c^t
        bool trained{false};                            //!< local job done
        bool scored{false};                             //!< committee: scores formed
        std::shared_ptr<const std::vector<float>> base; //!< w^t as received
        std::shared_ptr<const std::vector<float>> own;  //!< own gradient g_c
        std::map<uint32_t, std::shared_ptr<const D2dModelPayload>> gradients; //!< by client
        D2dScoreVector scores;                                                //!< P_k^c it formed
    };

    /**
     * \brief Start round m_round + 1: the sender sends w to the round's committee and
     * training clients (one multicast), with their roles.
     * \param sender the device that sends the model
     */
    void Broadcast(uint32_t sender);
    /**
     * \brief A device got the round's model: it takes its role and trains.
     * \param device the device
     * \param payload the model and the roles
     */
    void Begin(uint32_t device, std::shared_ptr<const D2dCmflModelPayload> payload);
    /** \brief The round's model (D2dModelCodec::KIND_GLOBAL_MODEL) at a device: Begin, if it
     * is meant for it. \param r the reception */
    void ReceiveModel(const D2dReception& r);
    /** \brief A training client's gradient (D2dModelCodec::KIND_GRADIENT) at a committee
     * member still collecting this round's: kept, then TryScore. \param r the reception */
    void ReceiveGradient(const D2dReception& r);
    /** \brief Remove CMFL's handlers from the transports. */
    void Detach();
    /** \brief Mark SetMalicious' devices among the learners (D2dMaliciousClients::Resolve). */
    void ResolveMalicious();
    /** \param behaviour the MaliciousCommittee attribute, a MaliciousCommittee */
    void SetMaliciousCommittee(int behaviour);
    /** \return the MaliciousCommittee attribute */
    int GetMaliciousCommittee() const;
    /** \param space the AttackSpace attribute, a D2dAttackSpace */
    void SetAttackSpace(int space);
    /** \return the AttackSpace attribute */
    int GetAttackSpace() const;
    /**
     * \param device the device
     * \param round the round it trained for
     */
    void Trained(uint32_t device, uint32_t round);
    /**
     * \brief A send of any device ended: a gradient upload may be sent again (reliable
     * mode, UploadRetries); other sends are ignored.
     * \param msgId the message
     * \param dst its receiver
     * \param success reliable mode: every fragment arrived
     */
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    /** \param device a committee member: score if it can */
    void TryScore(uint32_t device, bool timeout);
    /** \brief PhaseTimeout: members that trained score with what arrived; exchange. */
    void PhaseTimeout(uint32_t round);
    /** \brief Every member has scored (or the timeout passed): start the CCP. */
    void ExchangeScores();
    /** \param views what each member holds after the score exchange */
    void ScoresExchanged(const D2dCommitteeConsensus::ScoreViews& views);
    /**
     * \brief The CCP operation of the aggregation vote.
     * \param member who executes
     * \param set the aggregation set
     * \param done receives the digest of the resulting model (0: cannot execute)
     */
    void ExecuteAggregation(uint32_t member,
                            const std::vector<uint32_t>& set,
                            Callback<void, uint64_t> done);
    /** \param outcome the aggregation vote's outcome */
    void AggregationVoted(const D2dCcpOutcome& outcome);
    /** \brief The CCP's election vote on S_c^{t+1} (after the aggregation vote). */
    void VoteElection();
    /** \param outcome the election vote's outcome */
    void ElectionVoted(const D2dCcpOutcome& outcome);
    /** \brief Trace the round, evaluate, start the next one. */
    void FinishRound();
    /**
     * \param set the aggregation set
     * \return the aggregated model w^t - eta sum p_k g_k and its digest (memoised)
     */
    const std::pair<std::vector<float>, uint64_t>& Aggregate(const std::vector<uint32_t>& set);
    /**
     * \param devices some devices
     * \return how many are malicious
     */
    uint32_t CountMalicious(const std::vector<uint32_t>& devices) const;

    double m_committeeFraction;   //!< omega, a share in [0, 1] of the active clients
    double m_aggregationFraction; //!< alpha, a share in [0, 1] (AggregationBase)
    double m_activationFraction;  //!< the active clients, a share in [0, 1] of all
    uint32_t m_strategy;          //!< attribute Strategy: 1 the top alpha by score, 2 the bottom
    double m_globalLearningRate;  //!< eta_t of eq. (6) (attribute GlobalLearningRate)
    Time m_phaseTimeout;          //!< attribute PhaseTimeout (0: no timer)
    GradientUpload m_upload;      //!< attribute GradientUpload
    // Enumerations held as int: ns-3's EnumValue accessors convert through int, which
    // scoped enumerations do not do implicitly.
    int m_failedVote{static_cast<int>(D2dFailedVote::STEP_DOWN)};       //!< a D2dFailedVote
    int m_aggregationBase{static_cast<int>(AggregationBase::TRAINING)}; //!< an AggregationBase
    Ptr<D2dAggregationStrategy> m_aggregation; //!< the aggregation of S_a (eq. (5))

    Ptr<D2dCommitteeConsensus> m_ccp; //!< the CCP: score exchange and votes
    /** S_c^t and S_b^t, and the committee's common draws that make them */
    D2dCmflRoles m_roles;
    /** the malicious clients: SetMalicious, AttackSpace, MaliciousCommittee, their draws */
    D2dMaliciousClients m_attackers;

    std::vector<DeviceState> m_state; //!< device id -> what it knows in the current round
    std::vector<float> m_global;      //!< w^t (the last model agreed on)
    D2dCmflVotes m_votes;             //!< the round's votes (reset as it begins), the counts
    EventId m_phaseEvent;             //!< the current round's PhaseTimeout event

    D2dUploadRetry m_uploadRetry;       //!< gradient unicasts sent again (reliable mode)
    uint32_t m_uploadRetries;           //!< attribute UploadRetries
    std::vector<ClientCounts> m_counts; //!< device id -> its counts of the rounds finished
    TracedCallback<const CommitteeRecord&> m_committeeTrace; //!< Committee
};

} // namespace ns3

#endif /* D2D_CMFL_H */
