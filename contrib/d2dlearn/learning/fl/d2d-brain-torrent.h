/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BRAIN_TORRENT_H
#define D2D_BRAIN_TORRENT_H

#include "d2d-peer-protocol.h"

#include "ns3/event-id.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief BrainTorrent (Roy et al. 2019, arXiv 1905.06731): serverless FL in which one
 * client per round, drawn at random, merges the newer models of its peers; a baseline of
 * Che et al. 2022's efficiency experiment (sec. "Efficiency Experiment").
 *
 * Every client k keeps a version vector v_k: v_k[k] its own model's version (incremented
 * by each local training job), v_k[j] the version of client j's model it merged last (0:
 * never). Before round 1 every client trains once (version 1; v_k[j] = 0 for j != k).
 * Round t:
 *  1. one client i is drawn uniformly from the clients with a battery left and an idle
 *     learner (ns-3 RNG stream, AssignStreams) and becomes the temporary aggregator;
 *  2. i broadcasts a "bt_ping" message carrying v_i (HeaderBytes + 4 K bytes);
 *  3. every client j that receives it answers with a "bt_answer" carrying v_j (unicast,
 *     HeaderBytes + 4 K bytes) and, if v_j[j] > v_i[j] (its model is newer than the one i
 *     merged last) and its learner is idle, then sends its weights in a "bt_model" message
 *     (unicast, D2dModelCodec size, with n_j and the version v_j[j]);
 *  4. when every answer and every model announced in an answer is in (or lost), or at
 *     RoundDeadline after the round's start, i merges (FedAvg weighting):
 *       w_i <- sum_{k in {i} u M} n_k w_k / sum_{k in {i} u M} n_k,
 *     M the clients whose model arrived complete (ascending device order), sets v_i[j] to
 *     the version of each merged w_j, trains locally (LocalEpochs / LocalSteps, in
 *     simulated time; a phase bounded by RoundDeadline again) and, when the job completes,
 *     increments v_i[i]. The round ends when that job completes or at its deadline.
 *
 * Sources: the paper's abstract (a peer-to-peer environment in which the centers interact
 * directly, without a central body) and a public reimplementation (a random
 * client per round, version vectors, the models newer than those it merged last averaged
 * with n_k weights, then its local training); the paper's full text was not available
 * here. Assumed where neither is explicit:
 *  - only the aggregator trains in a round (the others keep their models), so a round
 *    costs one local job; the initial local training of every client is not a round;
 *  - the ping carries v_i so that each peer decides itself whether its model is newer and
 *    sends it right after its answer: no separate model request; the answers tell i which
 *    models to wait for;
 *  - a model whose answer was lost is still merged if it arrives before the merge (its
 *    version travels with it); v_i[j] is updated only for the models merged;
 *  - merging weights are the sample counts n_k, the aggregator's own model included;
 *  - a client still training when pinged (an aggregator whose job outlived a deadline)
 *    answers but does not send its model; a job that completes after its round's deadline
 *    still increments the version (the model did change);
 *  - a lost message is known as soon as the channel reports it (the sender's Delivery
 *    record, as in D2dModelExchange): the aggregator stops waiting for it; RoundDeadline
 *    bounds whatever else hangs (dead batteries, stragglers).
 * Messages go to the transports at once, all in SetTransports' delivery mode (the channel
 * access below decides when they go on the air: with D2dChannel AccessPolicy Scheduled no
 * message is lost to half-duplex). The ping is one multicast to every other device, so a
 * device out of range is reported and not waited for. Late messages (of an earlier round)
 * are ignored; messages not yet on the air at a round's end are withdrawn
 * (D2dTransport::Cancel: rows with reason "cancelled").
 *
 * rounds.csv, per round (node -1): `accuracy`, `loss` and `consensus_distance` of the
 * devices (RecordDevices over the devices with a battery left), `round_time_s`,
 * `bytes_sent` (the sizes of the messages handed to radios in the round), `aggregator`,
 * `models_received` (models merged). Round 0 is the state after the initial local
 * training (its `round_time_s` is that training's duration). By default every device
 * starts from device 0's initial weights (CommonInitialModel).
 */
class D2dBrainTorrent : public D2dPeerProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dBrainTorrent();

    /** Kind of a ping in messages.csv. */
    static constexpr const char* PingKind = "bt_ping";
    /** Kind of an answer in messages.csv. */
    static constexpr const char* AnswerKind = "bt_answer";
    /** Kind of a model in messages.csv. */
    static constexpr const char* ModelKind = "bt_model";

    /** \brief Content of a ping (from the aggregator) or an answer (to it). */
    struct VersionPayload : public D2dPayload
    {
        uint32_t round{0};              //!< protocol round
        uint32_t origin{0};             //!< sender
        bool modelFollows{false};       //!< answer: the sender's model comes next
        std::vector<uint32_t> versions; //!< the sender's version vector
    };

    /** \brief A model with its version. */
    struct ModelPayload : public D2dModelPayload
    {
        /** \param model the model part (values shared) */
        explicit ModelPayload(const D2dModelPayload& model)
            : D2dModelPayload(model)
        {
        }

        uint32_t version{0}; //!< the sender's v[sender] (fits in the codec's header)
    };

    /**
     * \param devices number of devices K
     * \return bytes of a ping or an answer: D2dModelCodec::HeaderBytes + 4 K
     */
    static uint64_t VersionMessageBytes(uint32_t devices);

    /**
     * \param device a device
     * \return its version vector now
     */
    std::vector<uint32_t> GetVersions(uint32_t device) const;

    /**
     * Signature of the Merged trace: (round, aggregator, contributors: the devices whose
     * models it averaged, itself included, ascending).
     */
    typedef void (*MergedTracedCallback)(uint32_t round,
                                         uint32_t aggregator,
                                         const std::vector<uint32_t>& contributors);

  protected:
    /**
     * \brief Begin: version vectors at 0, device 0's weights to all (CommonInitialModel),
     * then every device's initial training (round 0).
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Receive and loss sinks for the bt_ping, bt_answer and bt_model messages. */
    void ConnectTransports() override;

  private:
    /** Where the current round is. */
    enum class Phase
    {
        IDLE,
        COLLECT,
        TRAIN
    };

    /** \brief Every device trains once (version 1). */
    void InitialTraining();
    /** \param device a device whose initial job completed */
    void InitialTrained(uint32_t device);
    /** \brief The initial jobs are done (or their deadline): round 0 rows, round 1. */
    void InitialDone();
    /** \brief Draw the aggregator and ping. */
    void StartRound();
    /** \param r a message that arrived complete */
    void Receive(const D2dReception& r);
    /**
     * \param src sender
     * \param dst receiver
     * \param message a message that did not arrive
     */
    void Lost(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message);
    /** \brief Merge if nothing more is awaited. */
    void TryMerge();
    /** \brief Merge what arrived and start the aggregator's job. */
    void Merge();
    /**
     * \param device the device whose job completed
     * \param round the round it trained for
     */
    void Trained(uint32_t device, uint32_t round);
    /** \brief The phase's deadline. */
    void Deadline();
    /** \brief Write the round's rows and go on. */
    void EndOfRound();

    bool m_commonInitialModel; //!< CommonInitialModel: start from device 0's weights
    std::vector<std::vector<uint32_t>> m_versions; //!< m_versions[k]: v_k

    Phase m_phase{Phase::IDLE};       //!< the round's phase (TRAIN: round 0's initial jobs)
    uint32_t m_aggregator{0};         //!< the device drawn as this round's aggregator i
    std::set<uint32_t> m_awaitAnswer; //!< devices whose answer is awaited
    std::set<uint32_t> m_awaitModel;  //!< devices whose announced model is awaited
    std::map<uint32_t, std::shared_ptr<const ModelPayload>> m_models; //!< arrived, by origin
    uint32_t m_merged{0};                                             //!< models merged
    uint32_t m_initialPending{0}; //!< round 0: initial training jobs not yet completed
    EventId m_endEvent;           //!< InitialDone or EndOfRound, scheduled now
    /** the Merged trace source (MergedTracedCallback) */
    TracedCallback<uint32_t, uint32_t, const std::vector<uint32_t>&> m_mergedTrace;
};

} // namespace ns3

#endif /* D2D_BRAIN_TORRENT_H */
