/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SEMI_DECENTRALIZED_FL_H
#define D2D_SEMI_DECENTRALIZED_FL_H

#include "d2d-model-exchange.h"
#include "d2d-peer-protocol.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Semi-decentralized FL: cooperative D2D aggregation inside device groups and a
 * server that aggregates one device per group (Wagle et al. 2025 sec. VI-E, "a scheme similar to
 * [17]", Lin et al., semi-decentralized FL with cooperative D2D local model aggregations).
 *
 * The K devices form disjoint groups of GroupSize devices, in index order (devices
 * 0..G-1, G..2G-1, ...; the last group holds the rest), or the groups of SetGroups()
 * (e.g. clusters by position). Start() gives every device the same initial model w^0
 * (device 0's initial weights; no message). Round t has ExchangesPerRound phases and a
 * global aggregation:
 *  - phase p: every device with a battery left that is idle trains StepsPerExchange
 *    mini-batch steps, sends its weights to the other participating members of its group
 *    (one "model" unicast each over the D2D channel, in the delivery mode of SetChannel)
 *    and replaces its weights by the group average weighted by sample counts,
 *      w_i <- sum_{k in {i} u A_i} n_k w_k / sum_{k in {i} u A_i} n_k
 *    (A_i: members whose model arrived complete); see D2dModelExchange. With a lossless
 *    channel every member of a group then holds the same model, bit for bit;
 *  - global aggregation: the server picks, uniformly at random (RNG stream of
 *    AssignStreams), one device per group among the members that averaged in the last
 *    phase (a group with none is skipped); each sends its model to the server over the
 *    D2S channel (an "upload" unicast carrying the group's sample count
 *    N_g = sum_{k in g} n_k); the server forms
 *      w^{t+1} = sum_g N_g w_g / sum_g N_g
 *    over the uploads that arrived complete (no upload: w^{t+1} = w^t) and sends it to
 *    every device in one D2S broadcast ("global_model", from the server's radio K); every
 *    idle device that receives it completely loads it.
 * So a round is ExchangesPerRound x StepsPerExchange local steps (Wagle et al. 2025: 4 x 2 = the
 * "global aggregations every 8 minibatch iterations"). RoundDeadline bounds each phase,
 * the upload and the broadcast separately: what has not arrived by then is left out, and
 * devices still training are stragglers for that phase (they take part again in the first
 * phase that finds them idle; a device depleted mid-job never does).
 *
 * rounds.csv, per round: the global model's `accuracy` and `loss` (node -1; round 0 is
 * w^0), `round_time_s`, `uploads` (aggregated), `stragglers` (participants of the
 * round's phases left out at a deadline, summed over phases) and `global_received`
 * (devices that loaded w^{t+1}).
 */
class D2dSemiDecentralizedFl : public D2dPeerProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dSemiDecentralizedFl();

    /** \return true: the groups exchange over D2D */
    bool UsesD2d() const override;
    /** \return true: the server aggregates over D2S (SetD2sTransports) */
    bool UsesD2s() const override;
    /** \return EvaluateDevices: the global model is evaluated (RecordGlobal), no device's */
    std::vector<std::string> GetUnreadAttributes() const override;

    /**
     * \param groups disjoint groups covering every device (empty: GroupSize blocks in
     *        index order)
     */
    void SetGroups(std::vector<std::vector<uint32_t>> groups);

    /** \return the groups in use (valid after Start) */
    const std::vector<std::vector<uint32_t>>& GetGroups() const;

    /** \return the current global model (as sent) */
    const std::vector<float>& GetGlobalModel() const;

    /** Signature of the Selected trace: (round, the chosen device of each group). */
    typedef void (*SelectedTracedCallback)(uint32_t round, const std::vector<uint32_t>& chosen);

  protected:
    /**
     * \brief Form the groups (GroupSize blocks unless SetGroups gave them) and check them,
     * give every device w^0 (device 0's initial weights), record round 0, start round 1.
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /**
     * \brief Set up the group exchange on the D2D transports; over D2S, receive the uploads
     * at the server and w^{t+1} at the devices, and follow their Delivery traces.
     */
    void ConnectTransports() override;

  private:
    /** \brief Begin a round: its first phase. */
    void StartRound();
    /** \brief Begin the next phase of the round. */
    void StartPhase();
    /** \brief Every participant of the phase has averaged. */
    void PhaseDone();
    /** \brief The phase's deadline. */
    void PhaseDeadline();
    /** \brief Close the phase: the next phase or the global aggregation. */
    void EndPhase();
    /** \brief Choose a device per group and have it upload. */
    void StartUpload();
    /** \param r a reception at the server */
    void ServerReceive(const D2dReception& r);
    /** \param record the outcome of a D2S message a device sent */
    void UploadDelivery(const D2dDeliveryRecord& record);
    /** \brief Aggregate the uploads and broadcast w^{t+1}. */
    void Aggregate();
    /** \param r a reception at a device (D2S) */
    void DeviceReceive(const D2dReception& r);
    /** \param record the outcome of the server's broadcast at one device */
    void BroadcastDelivery(const D2dDeliveryRecord& record);
    /** \param device a device that has the global model, or will never get it */
    void DownloadResolved(uint32_t device);
    /** \brief Trace, record and go on. */
    void EndOfRound();

    uint32_t m_groupSize;         //!< devices per group of index blocks (GroupSize attribute)
    uint32_t m_stepsPerExchange;  //!< local mini-batch steps of a phase (StepsPerExchange)
    uint32_t m_exchangesPerRound; //!< phases of a round (ExchangesPerRound attribute)
    /** group index -> its devices, ascending (SetGroups, or GroupSize blocks at Start) */
    std::vector<std::vector<uint32_t>> m_groups;
    std::vector<uint32_t> m_groupOf;  //!< device -> group
    Ptr<D2dModelExchange> m_exchange; //!< runs each phase's exchange inside the groups
    std::vector<float> m_global;      //!< w^t as sent

    /** Where the round is. */
    enum class Stage
    {
        IDLE,     //!< no stage runs (between rounds)
        EXCHANGE, //!< a phase of group exchanges
        UPLOAD,   //!< the chosen devices upload to the server
        DOWNLOAD  //!< the server broadcasts w^{t+1}
    };
    Stage m_stage{Stage::IDLE}; //!< where the current round is
    uint32_t m_phase{0};        //!< the round's current phase, 1..ExchangesPerRound
    uint32_t m_stragglers{0};   //!< the round's participants left out at phase deadlines
    std::map<uint64_t, uint32_t> m_uploadIds;                             //!< upload msgId -> group
    std::map<uint32_t, std::shared_ptr<const D2dModelPayload>> m_uploads; //!< by group
    uint32_t m_uploadsPending{0};         //!< uploads neither arrived nor reported lost
    uint64_t m_broadcastId{0};            //!< message id of the broadcast of w^{t+1} (0: none)
    std::set<uint32_t> m_downloadPending; //!< devices whose copy of w^{t+1} is awaited
    uint32_t m_downloaded{0};             //!< devices that loaded w^{t+1} this round
    /** Selected trace source: (round, the chosen device of each group) */
    TracedCallback<uint32_t, const std::vector<uint32_t>&> m_selectedTrace;
};

} // namespace ns3

#endif /* D2D_SEMI_DECENTRALIZED_FL_H */
