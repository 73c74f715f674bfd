/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SEGMENTED_GOSSIP_H
#define D2D_SEGMENTED_GOSSIP_H

#include "d2d-peer-protocol.h"
#include "d2d-step-progress.h"

#include "ns3/event-id.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Segmented gossip ("GossipFL" in Che et al. 2022's efficiency experiment; Hu, Jiang, Wang
 * 2019, arXiv 1908.07782, "Combo"): every device trains, then pulls each of the S segments
 * of its model from R random peers and averages segment by segment.
 *
 * Round t:
 *  1. the participants P^t are the devices with a battery left and an idle learner (a
 *     straggler still busy with an earlier job, or a device depleted mid-job, sits out);
 *     each participant i draws, for each segment s = 0..S-1, R' = min(Replicas, |P^t| - 1)
 *     distinct peers from P^t \ {i}, uniformly (partial Fisher-Yates on an ns-3 RNG
 *     stream, AssignStreams; participants in index order, segments in order);
 *  2. every participant trains locally (LocalEpochs / LocalSteps, in simulated time);
 *     w_i^{t+1/2} is its model after the job;
 *  3. when i's job is done, it sends a "sg_request" (HeaderBytes: round, requester,
 *     segment) to each peer drawn for each segment; a peer answers with a "sg_segment"
 *     holding that segment of its w^{t+1/2} (D2dModelCodec: HeaderBytes + 4 or 2 bytes
 *     per value, with its n_k), at once if its own job is done, else when it is;
 *  4. once all its pulls are resolved (segment arrived, or request or segment lost), or
 *     at RoundDeadline, i replaces each segment s of its model by
 *       w_i^{t+1}[s] = sum_{k in {i} u A_{i,s}} a_k w_k^{t+1/2}[s] / sum a_k,
 *     A_{i,s} the peers whose segment s arrived complete, summed in ascending device
 *     order; a_k = n_k (Weighting "samples", the default: Combo weights by the local data
 *     sizes) or 1 ("uniform").
 * The round ends when every participant has averaged, or at RoundDeadline after its start;
 * participants still training then are left out (their late results and messages are
 * ignored; they take part again in the first round that finds them idle).
 *
 * Segments are contiguous runs of the flattened parameters: segment s holds indices
 * [floor(s P / S), floor((s + 1) P / S)). Peers answer from w^{t+1/2} even after they
 * have averaged, so a round is one synchronous gossip step whatever the order of events.
 * A lost message is known as soon as the channel reports it (the sender's Delivery
 * record, as in D2dModelExchange). Messages go to the transports at once, all in
 * SetTransports' delivery mode (with D2dChannel AccessPolicy Scheduled no message is lost
 * to half-duplex); messages not yet on the air at a round's end are withdrawn
 * (D2dTransport::Cancel: rows with reason "cancelled").
 *
 * Defaults S = 10, R = 3 (our choice, the paper's values were not available): ten segments spread a
 * device's pulls over up to S R = 30 peers, so that its transfers are small and run on many
 * links at once (the point of segmenting), while a segment still holds a tenth of the
 * model, much more than a message header for any model worth segmenting; R = 3 replicas
 * average each segment over 4 models per round for R model-sizes received per device and
 * round (the fully decentralized protocol's 7 neighbours: 7 full models). With 8 devices
 * and learning rate 0 the consensus distance falls by a factor of about 2000 in 5 rounds
 * (suite d2d-fl-p2p).
 *
 * rounds.csv, per round (node -1): `accuracy`, `loss`, `consensus_distance` of the
 * devices (RecordDevices over the devices with a battery left), `round_time_s`,
 * `bytes_sent` (the sizes of the messages handed to radios in the round), `participants`
 * (devices that averaged), `stragglers` and `segments_received`. Round 0 is the state
 * before training. By default every device starts from device 0's initial weights
 * (CommonInitialModel).
 */
class D2dSegmentedGossip : public D2dPeerProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dSegmentedGossip();

    /** Kind of a segment request in messages.csv. */
    static constexpr const char* RequestKind = "sg_request";
    /** Kind of a segment in messages.csv. */
    static constexpr const char* SegmentKind = "sg_segment";

    /** \brief Content of a segment request. */
    struct RequestPayload : public D2dPayload
    {
        uint32_t round{0};     //!< protocol round
        uint32_t requester{0}; //!< device that pulls
        uint32_t segment{0};   //!< segment index
    };

    /** \brief A segment of a model (values: the segment only). */
    struct SegmentPayload : public D2dModelPayload
    {
        /** \param model the model part (values shared) */
        explicit SegmentPayload(const D2dModelPayload& model)
            : D2dModelPayload(model)
        {
        }

        uint32_t segment{0}; //!< segment index (fits in the codec's header)
    };

    /** \return bytes of a request: D2dModelCodec::HeaderBytes */
    static uint64_t RequestBytes();

    /**
     * \param nParameters P
     * \param segments S (<= P)
     * \return the S segments' [begin, end) index ranges
     */
    static std::vector<std::pair<uint64_t, uint64_t>> SegmentRanges(uint64_t nParameters,
                                                                    uint32_t segments);

    /**
     * Signature of the Averaged trace: (round, device, segment, contributors: the devices
     * whose segment it averaged, itself included, ascending).
     */
    typedef void (*AveragedTracedCallback)(uint32_t round,
                                           uint32_t device,
                                           uint32_t segment,
                                           const std::vector<uint32_t>& contributors);

  protected:
    /**
     * \brief Check that the devices' models have the same size, split it into segments,
     * give every device device 0's initial weights (CommonInitialModel), record round 0 and
     * start round 1.
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Receive the requests and segments, and learn of those lost. */
    void ConnectTransports() override;

  private:
    /** Per-device state of a round. */
    struct DeviceState : public D2dStepProgress
    {
        uint32_t pending{0}; //!< pulls not resolved
        /** w^{t+1/2}: what the device serves */
        std::shared_ptr<const std::vector<float>> trainedModel;
        std::vector<std::vector<uint32_t>> peers; //!< peers[s]: drawn for segment s
        /** received[s]: origin -> segment payload */
        std::vector<std::map<uint32_t, std::shared_ptr<const SegmentPayload>>> received;
        std::vector<std::pair<uint32_t, uint32_t>> waiting; //!< (requester, segment) to serve
    };

    /** \brief Draw the peers, start the jobs, arm the deadline. */
    void StartRound();
    /**
     * \param device the device whose job completed
     * \param round the round it trained for
     */
    void Trained(uint32_t device, uint32_t round);
    /**
     * \param device a device whose job is done
     * \param requester the device that pulls
     * \param segment the segment
     */
    void Serve(uint32_t device, uint32_t requester, uint32_t segment);
    /** \param r a message that arrived complete */
    void Receive(const D2dReception& r);
    /**
     * \param src sender
     * \param dst receiver
     * \param message a message that did not arrive
     */
    void Lost(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message);
    /** \param device one of its pulls is resolved */
    void Resolve(uint32_t device);
    /** \param device average if its job is done and its pulls are resolved */
    void TryAverage(uint32_t device);
    /** \param device average segment by segment with what arrived */
    void Average(uint32_t device);
    /** \brief The deadline. */
    void Deadline();
    /** \brief Write the round's rows and go on. */
    void EndOfRound();

    uint32_t m_segments;       //!< S: segments a model is split into (Segments attribute)
    uint32_t m_replicas;       //!< R: peers each segment is pulled from per round (Replicas)
    Weighting m_weighting;     //!< averaging weights a_k (Weighting attribute)
    bool m_bySamples{true};    //!< Weighting is "samples" (set at Start)
    bool m_commonInitialModel; //!< every device starts from device 0's initial weights
    std::vector<std::pair<uint64_t, uint64_t>> m_ranges; //!< segment index ranges

    bool m_open{false};               //!< the round is running: its events are not ignored
    std::vector<DeviceState> m_state; //!< device id -> its state in the round
    uint32_t m_waiting{0};            //!< participants that have not averaged
    uint32_t m_nAveraged{0};          //!< participants that averaged this round (participants)
    uint32_t m_segmentsReceived{0};   //!< segments that arrived complete this round
    EventId m_endEvent;               //!< EndOfRound() once every participant has averaged
    /** Averaged trace source: (round, device, segment, contributors) */
    TracedCallback<uint32_t, uint32_t, uint32_t, const std::vector<uint32_t>&> m_averagedTrace;
};

} // namespace ns3

#endif /* D2D_SEGMENTED_GOSSIP_H */
