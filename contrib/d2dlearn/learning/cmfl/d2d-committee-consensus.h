/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_COMMITTEE_CONSENSUS_H
#define D2D_COMMITTEE_CONSENSUS_H

#include "d2d-ccp-payload.h"

#include "ns3/callback.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-transport.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What the primary of a CCP vote counts as a quorum (D2dCommitteeConsensus Quorum
 * attribute).
 *
 * Che et al. 2022 state the guarantee as an honest majority of the committee ("as long as
 * the number of the honest committee members is greater than that of the malicious
 * members ... the decision of the committee depends on the majority of the committee
 * members"), while CCP step 6 and the voting algorithm ask for floor(C/2) + 1 identical
 * results "from replicate committee clients". Counted literally (REPLICAS) an honest
 * primary needs floor(C/2) + 1 honest replicas, so the votes stay live only with at most
 * ceil(C/2) - 2 malicious members (none for C = 4); counting the primary's own result
 * (MAJORITY) makes the quorum a majority of the committee, floor(C/2) + 1 of C, live and
 * safe while the honest members are a majority (at most ceil(C/2) - 1 malicious).
 */
enum class D2dQuorumMode
{
    MAJORITY, //!< floor(C/2) matching replica replies + the primary's own result
    REPLICAS, //!< floor(C/2) + 1 matching replica replies (the paper's text, literally)
};

/**
 * \ingroup d2dlearn
 * \brief The result of one vote of the committee consensus protocol.
 */
struct D2dCcpOutcome
{
    bool consensus{false};     //!< a quorum of identical replies reached the primary
    int64_t primary{-1};       //!< the primary whose request was agreed on, -1 if none
    std::vector<uint32_t> set; //!< the agreed set S^p (empty without consensus)
    uint64_t digest{0};        //!< the digest of the agreed result (0 without consensus)
    uint32_t attempts{0};      //!< attempts (primaries tried) the vote used
};

/**
 * \ingroup d2dlearn
 * \brief The committee consensus protocol (CCP) of Che et al. 2022 ("Committee Consensus
 * Protocol", Algorithm CCP and Algorithm "The voting algorithm"), learning-agnostic: the
 * owner supplies the committee, each member's proposal and the operation; every CCP message
 * is a D2dMessage on the devices' D2D transports with its true size
 * (D2dCcpPayload::BytesFor).
 *
 * The object registers its own receive handlers for the kinds "ccp_score", "ccp_request"
 * and "ccp_reply" and a send-done handler on every transport (D2dTransport::
 * AddReceiveHandler, AddSendDoneHandler), so that it shares the transports with its owner
 * (D2dCmfl takes "global_model" and "gradient") without forwarding; it also connects a
 * sink to each transport's "Delivery" trace to know when every member's outcome of a score
 * message is known. Dispose() (or SetTransports() again) removes all three.
 *
 * Channel access is not this object's business: every member hands its messages to its
 * transport when the protocol says so, and the transport's channel access (on a D2dChannel
 * the AccessPolicy Scheduled serialises half-duplex radios; on Wi-Fi the 802.11 MAC)
 * decides when they go on the air. With D2dChannel's Immediate access, messages that
 * reach a half-duplex radio while it transmits are lost ("half_duplex"), as on a raw radio.
 *
 * **Score exchange** (ExchangeScores, Alg. 1 lines 1-5): every member c with scores
 * sends its vector P_k^c (one "ccp_score" message of BytesFor(0, entries) bytes) at once,
 * as one multicast to the other committee members (D2dTransport::Send with the receiver
 * list), the scores rounded to float32 (the sender's own view holds the same rounded
 * values). A multicast and not a D2D_BROADCAST: the paper's "broadcast to the other
 * committee clients" names its receivers, so the reliable ARQ covers exactly them and the
 * idle and training devices that happen to hear are neither waited for nor occupied. A
 * member whose radio is off sends nothing. The exchange ends when every score message has
 * ended: its send-done was reported (or its sender is off) and the outcome at every
 * other committee member is known (Delivery trace; a member that cannot hear the sender
 * gets an "out_of_range" record); then done(views) is called (an event of its own at that
 * time) with, for every committee member, the vectors that reached it complete plus its
 * own. That wait is the rule of Alg. 1 (Che et al. 2022: C. Che, X. Li, C. Chen, X. He, Z.
 * Zheng, "A Decentralized Federated Learning Framework via Committee Mechanism with
 * Convergence Guarantee", IEEE TPDS 2022): the members compute the total scores (lines
 * 6-10) and vote (line 11) after every member has broadcast its scores (lines 1-5); the
 * committee knowing when that is (without a message saying so) is the synchronized-timer
 * assumption below. ccp.csv gets one row: step "scores", attempt 0, primary -1, outcome
 * "exchanged", replies = vectors that arrived complete summed over the members (own
 * vectors not counted), quorum = the number that could have arrived = (messages that
 * left, i.e. of members whose radio was on) x (C - 1).
 *
 * **Vote** (Vote, the voting algorithm) on a committee of C members, quorum Q identical
 * replies from replicas: Q = floor(C/2) with Quorum "majority" (the default: the primary's
 * own result is the (Q+1)-th, a majority of the committee), Q = floor(C/2) + 1 with
 * "replicas" (the primary's result does not count; see D2dQuorumMode). Attempt a = 1, 2, ...:
 *  1. The primary p is drawn uniformly among the members not yet primary in this vote,
 *     with the committee's shared randomness (the common seed: this object's RNG stream).
 *  2. A member without a proposal (dead, never trained, missed the model) is silent: no
 *     request leaves and the attempt times out RequestTimeout after it began. A primary
 *     with a proposal executes the operation on S^p: execute(p, S^p, cb), which may take
 *     simulated time and reports the digest of the result (0: it refuses; then, as when its
 *     radio is off, no request leaves and the attempt times out RequestTimeout after it
 *     began, or at once if that time has passed). Then it broadcasts
 *     <Request, S^p, step, timestamp, digest> ("ccp_request", BytesFor(|S^p|, 0) bytes)
 *     to the replicas: one multicast naming the other committee members (the paper's
 *     "broadcasts it to all the replicate committee clients"; a multicast for the reason
 *     given for the scores).
 *  3. A replica k (a committee member other than p) with a proposal that receives the
 *     request complete, for the current round, step and attempt: if S^k == S^p, it executes
 *     the operation on S^p and, if its digest equals the request's and is non-zero, unicasts
 *     <Reply, timestamp, S^p, digest> to p ("ccp_reply", BytesFor(|S^p|, 0) bytes).
 *  4. p counts the distinct replicas' matching replies of this attempt; as soon as it holds
 *     Q the vote ends with consensus (ccp.csv row "consensus"; done(outcome)). With Q = 0
 *     (a committee of one, "majority") the primary's own execution is the consensus.
 *  5. The attempt's timer expires RequestTimeout after the request was handed to p's radio
 *     (or after the attempt began if no request left): with fewer than Q replies the row
 *     is "timeout" and the next attempt starts at once with a new primary. When the
 *     attempt that expires is the last one (MaxAttempts, 0 = C, at most C since every
 *     member is primary at most once) the row is "failed" and done() gets consensus =
 *     false. Every attempt thus has exactly one row.
 * RequestTimeout is the protocol's only timer, and a rule of the paper: CCP step 6 ("otherwise,
 * the primary committee client should be reassigned") and the voting algorithm's loop
 * ("while no consensus on S: a new primary is selected") need a point at which the primary
 * has not gathered its quorum; as in pBFT (M. Castro, B. Liskov, "Practical Byzantine Fault
 * Tolerance", OSDI 1999), which the CCP follows, that is a timer whose expiry moves to a new
 * primary. The timers are the committee's synchronized timers: a modelling assumption
 * (every member knows when an attempt began and when a request left without a message
 * saying so), as is the draw of the primary from a common seed. Messages of an older attempt, vote
 * or round that arrive late are ignored (matched by round, step, attempt and primary; a reply also
 * by the request's timestamp it echoes, its set and digest), as are the
 * execute callbacks of an attempt that has ended. done() is called once per vote, in an
 * event of its own at the time the vote ended; it may start the next vote.
 *
 * The execute callback must call its cb exactly once (possibly later in simulated time),
 * with 0 when the member cannot execute; a primary that never calls back stalls the vote.
 * Starting a vote (or score exchange) while one is open abandons the open one: its done()
 * is never called and its timers and messages are ignored.
 *
 * Delivery mode: the one given to SetTransports (reliable mode retransmits lost fragments).
 */
class D2dCommitteeConsensus : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dCommitteeConsensus();
    ~D2dCommitteeConsensus() override;

    /**
     * member -> (origin member -> its scores), the member's own vector included. A vector is
     * shared by every member that received it (it aliases the one broadcast payload): views
     * take O(C^2) pointers, not C^2 copies of T scores (C^2 T x 16 bytes: 12 GB at 20,000
     * devices with the defaults).
     */
    typedef std::map<uint32_t, std::map<uint32_t, std::shared_ptr<const D2dScoreVector>>>
        ScoreViews;

    /** \return whether two views hold the same members, origins and score values */
    static bool SameViews(const ScoreViews& a, const ScoreViews& b);

    /**
     * \brief The operation of a vote: (member, set, done(digest)). The member executes the
     * operation on the set (may take simulated time, e.g. a compute job) and reports the
     * digest of its result; digest 0 = it refuses.
     */
    typedef Callback<void, uint32_t, const std::vector<uint32_t>&, Callback<void, uint64_t>>
        ExecuteCallback;

    /**
     * Signature of the Step trace, fired at the simulated time of the step's end, once per
     * row of ccp.csv (D2dCmflTraceWriter writes them):
     * \param round round t
     * \param step "scores" (the score exchange) or the vote's step ("aggregation",
     *        "election")
     * \param attempt the vote's attempt (1-based); 0 for the score exchange
     * \param primary the attempt's primary; -1 for the score exchange
     * \param replies matching replies the primary counted; for the exchange, score vectors
     *        that arrived complete, summed over the members
     * \param quorum replies needed (Quorum(C, mode)); for the exchange, the vectors that could
     *        have arrived ((members whose radio was on) x (C - 1))
     * \param outcome "exchanged", "consensus", "timeout" or "failed"
     */
    typedef void (*StepTracedCallback)(uint32_t round,
                                       const std::string& step,
                                       uint32_t attempt,
                                       int64_t primary,
                                       uint32_t replies,
                                       uint32_t quorum,
                                       const std::string& outcome);

    /**
     * \brief Use these transports: registers the CCP's receive handlers (kinds
     * "ccp_score", "ccp_request", "ccp_reply"), a send-done handler and a Delivery trace
     * sink on each (and removes them from the transports given before, if any). Any
     * backend: D2dRadio of a D2dChannel, D2dWifiTransport.
     * \param transports transports[i] = device i's transport (null: no such device)
     * \param mode delivery mode of every CCP message
     */
    void SetTransports(std::vector<Ptr<D2dTransport>> transports, D2dDeliveryMode mode);

    /**
     * \param stream first RNG stream (the primaries' draws)
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Alg. 1 lines 1-5: every member in `own` sends its score vector to the other
     * committee members at once, one multicast each (see the class text).
     * \param round round t
     * \param committee S_c^t
     * \param own member -> its scores P_k^c (members without scores are absent)
     * \param done called once, when every score message has ended, with every committee
     *        member's view (what arrived complete, plus its own)
     */
    void ExchangeScores(uint32_t round,
                        const std::vector<uint32_t>& committee,
                        const std::map<uint32_t, D2dScoreVector>& own,
                        Callback<void, const ScoreViews&> done);

    /**
     * \brief The voting algorithm of Che et al. 2022 on the members' proposals (see the class
     * text for the semantics).
     * \param round round t
     * \param step the operation's name ("aggregation", "election"), written in ccp.csv
     * \param committee S_c^t (C members)
     * \param proposals member -> its set S^k (members without a proposal are silent)
     * \param execute the operation
     * \param done called once with the outcome
     */
    void Vote(uint32_t round,
              const std::string& step,
              const std::vector<uint32_t>& committee,
              const std::map<uint32_t, std::vector<uint32_t>>& proposals,
              ExecuteCallback execute,
              Callback<void, const D2dCcpOutcome&> done);

    /**
     * \param committeeSize C
     * \return the literal quorum floor(C/2) + 1 (Quorum(C, D2dQuorumMode::REPLICAS))
     */
    static uint32_t Quorum(uint32_t committeeSize);

    /**
     * \param committeeSize C
     * \param mode what is counted
     * \return the replica replies the primary needs: floor(C/2) (MAJORITY) or floor(C/2) + 1
     * (REPLICAS)
     */
    static uint32_t Quorum(uint32_t committeeSize, D2dQuorumMode mode);

    /**
     * \brief The malicious members a vote tolerates: the largest f such that with f members
     * proposing something else (and never replying to honest requests), an honest primary
     * still collects Quorum(C, mode) replies from the C - f - 1 honest replicas, while f
     * colluding members alone (a malicious primary and f - 1 replicas) cannot.
     * \param committeeSize C (>= 1)
     * \param mode what is counted
     * \return f: ceil(C/2) - 1 (MAJORITY), ceil(C/2) - 2 (REPLICAS); -1 when no vote can
     * agree even without malicious members (REPLICAS with C <= 2)
     */
    static int32_t ToleratedMalicious(uint32_t committeeSize, D2dQuorumMode mode);

    /** \return true while a vote is open */
    bool IsVoting() const;
    /** \return true while a score exchange is open */
    bool IsExchanging() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** A score multicast of the open exchange. */
    struct ScoreSend
    {
        uint32_t sender{0};         //!< the member whose scores it carries
        bool sendDone{false};       //!< its send-done was reported
        std::set<uint32_t> pending; //!< committee members whose outcome is not known
    };

    /** State of the open score exchange. */
    struct Exchange
    {
        bool open{false};                       //!< an exchange is open
        bool ending{false};                     //!< FinishExchange is scheduled
        uint64_t serial{0};                     //!< its serial (from m_serial)
        uint32_t round{0};                      //!< round t
        std::vector<uint32_t> committee;        //!< S_c^t, in the caller's order
        std::set<uint32_t> members;             //!< the same members, for look-ups
        std::map<uint64_t, ScoreSend> sends;    //!< by message id
        ScoreViews views;                       //!< what each member holds so far
        uint32_t arrived{0};                    //!< vectors that arrived complete (own excluded)
        uint32_t sent{0};                       //!< score messages handed to a transport
        Callback<void, const ScoreViews&> done; //!< called with the views at the end
        EventId event;                          //!< the scheduled FinishExchange

        /**
         * \param msgId a message id (0: none)
         * \return this open exchange's score multicast of that id, or null
         */
        ScoreSend* Find(uint64_t msgId);
        /**
         * \brief A complete score message reached a member: the member holds the scores of
         * its origin from now, if the message is this open exchange's, of its round, from
         * its sender, at another member (a late one of an earlier exchange has another id).
         * \param msgId the message's id
         * \param src its sender
         * \param dst the member it reached
         * \param payload its payload (the scores are shared, not copied)
         */
        void Arrive(uint64_t msgId,
                    uint32_t src,
                    uint32_t dst,
                    const std::shared_ptr<const D2dCcpPayload>& payload);
    };

    /** State of the open vote. */
    struct VoteState
    {
        bool open{false};                //!< a vote is open
        uint64_t serial{0};              //!< its serial (from m_serial)
        uint32_t round{0};               //!< round t
        std::string step;                //!< the operation's name ("aggregation", "election")
        std::vector<uint32_t> committee; //!< S_c^t (C members)
        /** member -> its proposed set S^k (members without a proposal are silent) */
        std::map<uint32_t, std::vector<uint32_t>> proposals;
        ExecuteCallback execute;                   //!< the operation
        Callback<void, const D2dCcpOutcome&> done; //!< called once with the outcome
        uint32_t quorum{0};       //!< matching replica replies needed, Quorum(C, mode)
        uint32_t maxAttempts{0};  //!< attempts before the vote fails (MaxAttempts, <= C)
        uint32_t attempt{0};      //!< current attempt (1-based)
        std::set<uint32_t> tried; //!< members that were primary
        uint32_t primary{0};      //!< the current attempt's primary p
        Time attemptStart;        //!< when the current attempt began
        bool requestSent{false};  //!< the primary's request was handed to its transport
        uint64_t digest{0};       //!< the primary's digest
        /** the primary's request of the current attempt (null until it leaves) */
        std::shared_ptr<const D2dCcpPayload> request;
        std::set<uint32_t> acted;   //!< replicas that received the request
        std::set<uint32_t> replies; //!< replicas whose matching reply arrived
        EventId timer;              //!< the attempt's expiry (RequestTimeout)
    };

    /** \brief End the exchange (an event of its own). \param serial exchange */
    void FinishExchange(uint64_t serial);
    /** \brief If every score message has ended, schedule FinishExchange (once). */
    void CheckExchangeEnded();
    /** \param record a Delivery record of any transport */
    void Delivery(const D2dDeliveryRecord& record);
    /** \param r a reception of a CCP kind at any device */
    void Receive(const D2dReception& r);
    /**
     * \brief A send-done of any device (those of other protocols' messages are ignored).
     * \param msgId message id
     * \param dst destination
     * \param success see D2dTransport::SendDoneCallback
     */
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    /** \brief Remove the handlers and trace sink from the transports. */
    void Detach();
    /**
     * \param committee the committee
     * \param except a member
     * \return the other members, ascending
     */
    static std::vector<uint32_t> Others(const std::vector<uint32_t>& committee, uint32_t except);

    /** \brief Start the next attempt (or fail the vote). */
    void StartAttempt();
    /**
     * \brief The primary's execution ended.
     * \param serial vote
     * \param attempt attempt
     * \param digest its digest
     */
    void PrimaryExecuted(uint64_t serial, uint32_t attempt, uint64_t digest);
    /**
     * \brief A replica's execution ended.
     * \param serial vote
     * \param attempt attempt
     * \param replica the replica
     * \param digest its digest
     */
    void ReplicaExecuted(uint64_t serial, uint32_t attempt, uint32_t replica, uint64_t digest);
    /** \brief No request leaves this attempt: time out RequestTimeout after it began. */
    void SilentAttempt();
    /** \brief The attempt's timer. \param serial vote \param attempt attempt */
    void AttemptExpired(uint64_t serial, uint32_t attempt);
    /** \param r a request reception */
    void ReceiveRequest(const D2dReception& r, const D2dCcpPayload& p);
    /** \param r a reply reception */
    void ReceiveReply(const D2dReception& r, const D2dCcpPayload& p);
    /** \brief End the vote. \param outcome the outcome */
    void EndVote(const D2dCcpOutcome& outcome);
    /** \brief Log a step and fire the Step trace (a ccp.csv row). */
    void Row(uint32_t round,
             const std::string& step,
             uint32_t attempt,
             int64_t primary,
             uint32_t replies,
             uint32_t quorum,
             const std::string& outcome);
    /** \return true if a transport with that index exists */
    bool HasTransport(uint32_t index) const;

    /** RequestTimeout: how long a primary waits for replies after its request was handed to
     * its radio, or the committee for a primary that sends none (from the attempt's start) */
    Time m_requestTimeout;
    uint32_t m_maxAttempts; //!< MaxAttempts: primaries tried per vote (0: the committee size)
    int m_quorumMode{static_cast<int>(D2dQuorumMode::MAJORITY)}; //!< a D2dQuorumMode (EnumValue)
    std::vector<Ptr<D2dTransport>> m_transports;                 //!< by device index
    D2dDeliveryMode m_mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode of every CCP message
    Ptr<UniformRandomVariable> m_rng;  //!< the committee's common seed: draws the primaries
    uint64_t m_serial{0};              //!< last vote / exchange serial
    Exchange m_exchange;               //!< the open (or last) score exchange
    VoteState m_vote;                  //!< the open vote (reset when it ends)
    std::vector<EventId> m_doneEvents; //!< done() events not fired yet
    /** Step: (round, step, attempt, primary, replies, quorum, outcome) */
    TracedCallback<uint32_t,
                   const std::string&,
                   uint32_t,
                   int64_t,
                   uint32_t,
                   uint32_t,
                   const std::string&>
        m_stepTrace;
};

} // namespace ns3

#endif /* D2D_COMMITTEE_CONSENSUS_H */
