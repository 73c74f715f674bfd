/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FED_AVG_H
#define D2D_FED_AVG_H

#include "d2d-aggregation-strategy.h"
#include "d2d-client-sample.h"
#include "d2d-fl-protocol.h"
#include "d2d-upload-retry.h"

#include "ns3/callback.h"
#include "ns3/d2d-transport.h"
#include "ns3/event-id.h"
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
 * \brief FedAvg, FedProx and FedSGD with a server reached over the D2S channel.
 *
 * Each round t the server samples max(1, round(C K)) of the K devices uniformly without
 * replacement (ClientFraction C) and sends them the global model w^t (a "global_model"
 * message: one D2S broadcast naming the sampled devices, or one unicast each: Downlink). A device
 * that receives it completely loads w^t, trains locally (LocalEpochs or LocalSteps, in simulated
 * time on its compute model) and sends back (an "update" message):
 *   - FedAvg: its new weights w_k^{t+1}; the server forms the global gradient of Che et al. 2022,
 *     g^t = sum_k (n_k / n) (w^t - w_k^{t+1}), n = sum of the n_k that arrived, and updates
 *     w^{t+1} = w^t - eta g^t (eta = GlobalLearningRate; 1 is McMahan's weighted average);
 *   - FedProx: the same with the proximal term (mu / 2) ||w - w^t||^2 in the local loss;
 *   - FedSGD: the mean gradient g_k of its loss at w^t over its shard;
 *     w^{t+1} = w^t - eta sum_k (n_k / n) g_k.
 * The round ends when every sampled device has answered or at RoundDeadline after its
 * start, whichever is first; answers that have not arrived (stragglers, dead batteries,
 * lost messages) are left out, and late answers are ignored. Two rules close it earlier:
 *   - known failures (WaitForFailed false, the default): with reliable delivery the server
 *     knows when its global model did not reach a sampled device (no acknowledgement after
 *     the link's retransmissions, the receiver's battery empty: a downlink row that is not
 *     delivered, reported on the server transport's Delivery trace), and stops waiting for
 *     that device (ClientFailed trace); the round ends once every sampled device has
 *     answered or is known to have failed. A sampled device still training an earlier
 *     round's model (a straggler) does not take w^t: it answers with a "busy" message (32
 *     bytes) and the server stops waiting for it too. Unreliable delivery tells the server
 *     nothing of a lost global model, and a device that fails after receiving w^t (its
 *     upload lost for good, its battery empty while training) is not known to it either:
 *     those are waited for until RoundDeadline;
 *   - over-selection (OverSelection s >= 1; Bonawitz et al. 2019, "Towards Federated
 *     Learning at Scale: System Design", SysML 2019, select 130 % of the target count to
 *     allow for drop-outs, and end the reporting phase once enough devices report): the server
 *     samples min(K, round(s m)) devices, m = max(1, round(C K)), and the round ends at the
 *     first m answers;
 *   - devices that come and go (a D2dAvailabilityModel; D2dHelper::ConnectAvailability):
 *     the server samples among the devices there at the round's start (K above is then
 *     their number, rounds.csv's `available`; with none there, the round starts when one
 *     comes back), and a sampled device that leaves or whose battery empties during the
 *     round (its D2S transport's Presence trace) is given up at once, reason "left" or
 *     "depleted" (WaitForFailed false). In reliable mode an update
 * whose link ran out of retransmissions is sent again while the round is open
 * (UploadRetries). rounds.csv gets, per round, the global model's `accuracy` and `loss`,
 * `round_time_s`, `participants` (answers aggregated), `stragglers` (sampled devices left
 * out) and, in reliable mode, `upload_retries`.
 *
 * The server's aggregation step is a D2dAggregationStrategy (Aggregation attribute; default
 * D2dMeanAggregation, the arithmetic above bit for bit): the server hands it the answers in
 * ascending device order with their n_k and the number of devices sampled, and takes the
 * global step w^{t+1} = w^t - eta g with the strategy's g (FedAvg, FedProx: from the
 * weights, g_k = w^t - w_k in float for the robust rules; FedSGD: the gradients as sent).
 * Seed 001's robustness experiment uses D2dMedianAggregation, D2dTrimmedMeanAggregation,
 * D2dKrumAggregation and D2dMultiKrumAggregation there. Reliable uploads that fail are
 * sent again by a D2dUploadRetry.
 *
 * One hook makes the clients' honesty pluggable (Byzantine clients), without fl/ knowing
 * the attacks: SetUpdateTamper(tamper): a device calls tamper(device, g_k) before its
 * update leaves it and may change g_k in place; a weights upload then carries w^t - g_k
 * (its own trained weights, bit for bit, if the tamper left g_k unchanged). Unset (the
 * default), it does not run.
 *
 * Memory (DeferTraining, on by default): a client's training job takes its simulated time
 * and energy as usual, but its LibTorch work is deferred (D2dDeferredJob) and its update
 * message carries the job, not the trained weights; the server runs it (or finds it run by
 * the look-ahead) when it aggregates, at the end of the round, in ascending device order,
 * adding each update to the running weighted sum of D2dMeanAggregation and dropping it.
 * With every client sampled, the uploads of all clients are in flight together, yet only
 * a bounded number of trained models (D2dDeferredJob::GetMaxResident) exist at a time.
 * Traces are the same bytes as without deferral; what moves is the TrainingDone trace
 * (fired when the work has run, with the job's simulated start and end), and with it the
 * stop on a non-finite training loss, which comes at the end of the round (before its rows
 * are written) instead of at the client's completion event. A late update's work runs when
 * it reaches the server; one that never does runs before the device's next job (or never).
 * An update tamper turns deferral off (it reads the trained weights on the device).
 */
class D2dFedAvg : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dFedAvg();

    /** \return true: a server reached over D2S (SetD2sTransports) */
    bool UsesD2s() const override;
    /** \return true for Variant FedSGD: the devices upload g_k */
    bool SendsGradients() const override;
    /** \return the learners' class and its aggregation rule's (the Aggregation attribute) */
    std::vector<TypeId> GetPartTypeIds() const override;
    /** \return EvaluateDevices (the server's model is evaluated, no device's), ProximalMu
     *  unless Variant is FedProx (only FedProx's devices read mu), and for FedSGD the local
     *  epochs and steps, the optimizer and (unless GlobalLearningRate is 0) the learning rate
     *  (its devices compute one gradient) */
    std::vector<std::string> GetUnreadAttributes() const override;

    /** What the devices do with w^t (Variant attribute). */
    enum Variant
    {
        FEDAVG,  //!< local epochs or steps; upload w_k (McMahan et al. 2017)
        FEDPROX, //!< the same with the proximal term (mu / 2) ||w - w^t||^2
        FEDSGD   //!< one mean gradient over the shard; upload g_k
    };

    /** How w^t reaches the sampled devices (Downlink attribute). */
    enum Downlink
    {
        BROADCAST, //!< one D2S transmission naming the sampled devices
        UNICAST    //!< one transmission each, queued at the server
    };

    /**
     * \param stream first RNG stream (client sampling)
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream) override;

    /** \return answers aggregated in all rounds so far */
    uint64_t GetTotalParticipants() const;
    /** \return updates sent again (UploadRetries) in all rounds so far */
    uint64_t GetTotalUploadRetries() const;

    /** \return the current global model */
    const std::vector<float>& GetGlobalModel() const;

    /**
     * Called with (device, its local gradient g_k) before the update leaves the device;
     * may change g_k in place (Byzantine clients). For weights uploads g_k = w^t - w_k and
     * the device sends w^t - g_k.
     */
    typedef Callback<void, uint32_t, std::vector<float>&> UpdateTamper;
    /** \param tamper called for every update (a null callback: none) */
    void SetUpdateTamper(UpdateTamper tamper);

    /**
     * Signature of the ClientFailed trace.
     * \param round the round
     * \param device the sampled device the server stops waiting for
     * \param reason its downlink row's reason (messages.csv), e.g. retry_limit, or "busy"
     *        (it is still training an earlier round's model)
     */
    typedef void (*ClientFailedTracedCallback)(uint32_t round,
                                               uint32_t device,
                                               const std::string& reason);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Check the set-up, then connect to the D2S transports. */
    void DoInitialize() override;
    /**
     * \brief Take w^0 from device 0's initial weights, release the clients' models, record
     * the accuracy before any round and start round 1.
     */
    void DoStart() override;

  private:
    /** \param fraction the ClientFraction attribute (D2dClientSample) */
    void SetClientFraction(double fraction);
    /** \return the ClientFraction attribute */
    double GetClientFraction() const;
    /** \param factor the OverSelection attribute (D2dClientSample) */
    void SetOverSelection(double factor);
    /** \return the OverSelection attribute */
    double GetOverSelection() const;
    /** \brief Server: sample clients, send them w^t, arm the deadline. */
    void StartRound();
    /** \brief Server: aggregate what arrived, evaluate, trace, next round. */
    void EndOfRound();
    /** \param r an update (D2dModelCodec::KIND_UPDATE) at the server */
    void ServerReceive(const D2dReception& r);
    /**
     * \brief A busy reply (D2dModelCodec::KIND_BUSY) at the server: a sampled device still on
     * an earlier round's job is given up (reason "busy").
     * \param r the reception
     */
    void ServerBusy(const D2dReception& r);
    /**
     * \brief The server transport's Delivery trace: a reliable downlink of this round
     * that did not reach a sampled device makes it a known failure (WaitForFailed false;
     * a "busy" reply does too: ServerBusy).
     * \param record one (message, receiver) outcome
     */
    void DownlinkDelivery(const D2dDeliveryRecord& record);
    /**
     * \brief A device's D2S transport's Presence trace: a sampled device of the open round
     * that went away or was depleted is given up (WaitForFailed false: GiveUp, reason
     * "left" or "depleted"); a device back while no device was there starts the round.
     * \param device the device
     * \param present false: it left or was depleted; true: it came back
     */
    void Presence(uint32_t device, bool present);
    /**
     * \brief A client's TrainingLost trace: its job was lost (it went away); it holds no
     * model (the weights its learner went back to are dropped).
     * \param device the device
     */
    void ClientLost(uint32_t device, Time, Time);
    /**
     * \brief Stop waiting for a sampled device of the open round that has not answered (its
     * global model lost, or it is busy): the ClientFailed trace.
     * \param device the device
     * \param reason why (a downlink row's reason, or "busy")
     * \return true if the round can end now (RoundComplete); false also if the device was
     *         not waited for
     */
    bool GiveUp(uint32_t device, const std::string& reason);
    /** \return true if the round can end now: m answers, or every sampled device answered
     * or known to have failed */
    bool RoundComplete() const;
    /** \param r a global model (D2dModelCodec::KIND_GLOBAL_MODEL) at a device */
    void ClientReceive(const D2dReception& r);
    /**
     * \brief A device's upload ended (its D2S radio's send-done callback).
     * \param msgId the message
     * \param dst the server's index
     * \param success reliable mode: every fragment arrived
     */
    void UploadDone(uint64_t msgId, uint32_t dst, bool success);
    /**
     * \param device the device
     * \param round the round it trained for
     * \param base w^t as the device received it
     * \param result its training result
     */
    void ClientTrained(uint32_t device,
                       uint32_t round,
                       std::shared_ptr<const std::vector<float>> base,
                       const D2dTrainResult& result);
    /**
     * \brief The update tamper (SetUpdateTamper) on a device's upload: FedSGD's gradient
     * directly; otherwise g_k = w^t - w_k, and w^t - g_k sent if the tamper changed g_k.
     * \param device the device
     * \param base w^t as the device received it
     * \param gradient whether the update is a gradient (FedSGD)
     * \param update the trained weights or gradient, rewritten
     */
    void Tamper(uint32_t device,
                const std::vector<float>& base,
                bool gradient,
                std::vector<float>& update) const;
    /**
     * \brief A device's update to the server: the one place an update is sent, and tracked
     * for retransmission while its round is open (m_uploadRetry).
     * \param device the device
     * \param round the round it trained for
     * \param update the message (D2dModelCodec::KIND_UPDATE)
     */
    void SendUpdate(uint32_t device, uint32_t round, Ptr<D2dMessage> update);

    Variant m_variant;           //!< what the devices do with w^t (Variant attribute)
    Downlink m_downlink;         //!< how w^t reaches the sampled devices (Downlink)
    double m_mu;                 //!< FedProx proximal coefficient mu (ProximalMu)
    double m_globalLearningRate; //!< server step eta of w <- w - eta g
    std::vector<float> m_global; //!< w^t
    std::shared_ptr<const std::vector<float>> m_sent; //!< w^t as sent (codec-rounded)
    /** the round's sample: ClientFraction, OverSelection, the devices asked, the answers */
    D2dClientSample m_sample;
    std::set<uint64_t> m_downlinkIds; //!< this round's global_model message ids
    bool m_waitForFailed;             //!< WaitForFailed: wait for failed or busy devices anyway
    /** ClientFailed: (round, device, reason) the server stops waiting for a device */
    TracedCallback<uint32_t, uint32_t, const std::string&> m_clientFailedTrace;

    Ptr<D2dAggregationStrategy> m_aggregation; //!< the server's aggregation step
    D2dUploadRetry m_uploadRetry;              //!< failed reliable updates sent again
    uint32_t m_uploadRetries;        //!< UploadRetries: resends of a failed reliable update
    uint64_t m_totalParticipants{0}; //!< answers aggregated in all rounds so far
    EventId m_deadlineEvent;         //!< EndOfRound() at RoundDeadline (none if 0)
    bool m_roundOpen{false};         //!< true from StartRound() to EndOfRound()
    bool m_waitingForDevices{false}; //!< a round is due and no device is there (Presence)
    bool m_restartPending{false};    //!< a device came back: StartRound() is scheduled
    Time m_waitStart;                //!< when the due round could first start
    bool m_deferTraining;        //!< clients' LibTorch work runs when the server reads the update
    UpdateTamper m_updateTamper; //!< null: honest devices
};

} // namespace ns3

#endif /* D2D_FED_AVG_H */
