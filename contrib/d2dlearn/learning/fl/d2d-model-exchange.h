/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MODEL_EXCHANGE_H
#define D2D_MODEL_EXCHANGE_H

#include "d2d-sent-messages.h"
#include "d2d-step-progress.h"

#include "ns3/callback.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-model-payload.h"
#include "ns3/d2d-transport.h"
#include "ns3/object.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief One step of "train locally, send the model to the devices that want it, average
 * the models that arrived" device to device (over any D2dTransport): the step shared by
 * the fully decentralized protocol (neighbours drawn at random, Wagle et al. 2025 sec. VI-E) and
 * the group exchanges of the semi-decentralized one (the members of a group, after Lin
 * et al.).
 *
 * Begin(in, task) gives each device i its in-neighbours in[i] (the devices whose models it
 * averages). A device takes part if its D2D radio is on (battery left) and its learner is
 * idle (not still busy with an earlier job: a straggler) and Train() accepts the job.
 * When participant j's job completes, it sends its weights in one "model" message per
 * participant i with j in in[i] (unicast, in ascending i, with the step's delivery mode),
 * handed to j's transport at once. When they go on the air is the channel access's
 * business, not this class's: D2D radios are half-duplex, and devices that finish training
 * together would lose every model under D2dChannel AccessPolicy Immediate; with Scheduled
 * (what the scenarios use) a model from j to i starts when j is idle and i is not sending,
 * greedily in the order they were sent (the order the senders finished training).
 * A participant i averages, as soon as its own job is done and every participating
 * in-neighbour's message has been resolved (arrived complete, arrived partial, or reported
 * lost by the sender's Delivery trace):
 *
 *   w_i <- sum_{k in {i} u A_i} a_k w_k / sum_{k in {i} u A_i} a_k,
 *
 * A_i the in-neighbours whose model arrived complete, a_k = 1 (uniform) or n_k (the
 * model's training samples), summed in ascending device order (so devices averaging the
 * same set hold bit-identical models with float32). In-neighbours that do not take part
 * are not waited for: the device is told at the step's start (a signal that is not
 * modelled as a message). Close() (the deadline) makes every participant whose job is
 * done average what it has; participants still training are left out (stragglers; a
 * device depleted mid-job stays training for ever and is left out of every later step),
 * and whatever they, or late messages, deliver afterwards is ignored (messages are
 * matched to the step by their id); models not on the air yet are withdrawn
 * (D2dTransport::Cancel: rows with reason "cancelled"), because the step they were for is
 * over.
 *
 * A participant that goes away (D2dTransport::Leave, a D2dAvailabilityModel) or whose
 * battery empties before it averaged is out of the step at once (the transports' Presence
 * trace): its in-neighbours stop waiting for its model, it averages nothing and counts as a
 * straggler; it takes part again in the first step that finds it back.
 *
 * Deferred mode (SetDeferred; what D2dDecentralizedFl uses by default): the jobs are
 * deferrable (D2dTrainTask::deferrable: their LibTorch work runs when their result is first
 * read, D2dDeferredJob), a model message carries the sender's job rather than its weights,
 * and an averaging is set on the learner as a deferred computation
 * (D2dLearner::SetDeferredParameters) of the same sum, over the same models, in the same
 * order: nothing in simulated time depends on the weights (times and energy come from the
 * FLOPs, sizes from the codec), so the step runs as in eager mode and its results are the
 * same bits. ComputeModels() then computes the averages in a locality order of the step's
 * dependency graph (D2dLocalityOrder: reverse Cuthill-McKee), running each trained model's
 * work when first needed (the next few ahead prefetched on the worker pool) and dropping it
 * after the last average that reads it. A device's trained weights replace the ones it
 * started from, so beyond one model per device only the trained models still awaited by a
 * later average are resident: about twice the order's bandwidth (a band a few ranges wide
 * on a range graph; eagerly, most devices' trained and averaged models are both resident
 * while the models are on the air). The Averaged callback fires at the simulated
 * averaging, as in eager mode; a learner's TrainingDone trace fires when its work has run.
 */
class D2dModelExchange : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dModelExchange();

    /**
     * \brief Use these devices and transports (registers a receive handler for the "model"
     * kind on each transport and connects to their Delivery traces).
     * \param learners device i's learner at index i
     * \param transports device i's D2D transport at index i
     * \param mode delivery mode of the model messages
     * \param codec how models become messages
     */
    void Setup(const std::vector<Ptr<D2dLearner>>& learners,
               const std::vector<Ptr<D2dTransport>>& transports,
               D2dDeliveryMode mode,
               const D2dModelCodec& codec);

    /** \param bySamples true: a_k = n_k; false: a_k = 1 */
    void SetSampleWeighting(bool bySamples);

    /**
     * \param deferred true: deferred mode (see the class description) from the next
     *        Begin(); false (the default): train and average eagerly
     */
    void SetDeferred(bool deferred);

    /**
     * \brief Deferred mode: compute the averages the last step left deferred, in a locality
     * order (see the class description); call it when the step is over, before the models
     * are read (Begin() calls it for a step left so). Nothing to do in eager mode.
     */
    void ComputeModels();

    /**
     * \brief Called each time a device has averaged: (device, contributors: the devices
     * whose models it averaged, itself included, ascending).
     */
    typedef Callback<void, uint32_t, const std::vector<uint32_t>&> AveragedCallback;

    /**
     * \brief Begin a step.
     * \param round round number carried by the messages
     * \param in in[i]: device i's in-neighbours (size = number of devices)
     * \param task the local job of every participant
     * \param averaged called at each averaging
     * \param done called once, when every participant has averaged (not called if Close()
     *        ends the step first)
     * \return the number of participants
     */
    uint32_t Begin(uint32_t round,
                   const std::vector<std::vector<uint32_t>>& in,
                   const D2dTrainTask& task,
                   AveragedCallback averaged,
                   Callback<void> done);

    /**
     * \brief End the step now (deadline): participants whose job is done and that have
     * not averaged yet average what arrived; later events of the step are ignored.
     */
    void Close();

    /** \return true between Begin() and the step's end */
    bool IsOpen() const;
    /** \return the participants of the current (or last) step, ascending */
    std::vector<uint32_t> GetParticipants() const;
    /**
     * \param device a device
     * \return true if it averaged in the current (or last) step
     */
    bool HasAveraged(uint32_t device) const;
    /** \return participants of the current (or last) step that had not averaged at its end */
    uint32_t GetNStragglers() const;
    /** \return model messages of the current (or last) step that arrived complete */
    uint32_t GetNModelsReceived() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** Per-device state of a step. */
    struct DeviceState : public D2dStepProgress
    {
        std::set<uint32_t> pending; //!< in-neighbours whose message is awaited
        bool gone{false};           //!< it left (or was depleted) before it averaged
        std::map<uint32_t, std::shared_ptr<const D2dModelPayload>> received; //!< by origin
        /** Deferred mode: the models its deferred average reads, ascending (empty: none). */
        std::vector<uint32_t> contributors;
    };

    /** Deferred mode: the step's trained-model jobs and the averages still to read them. */
    struct JobLedger;

    /**
     * \param device the device
     * \param step the step it trained for
     * \param job its deferred job (null: it trained eagerly)
     */
    void Trained(uint32_t device, uint64_t step, std::shared_ptr<D2dDeferredJob> job);
    /** \brief The step is over: no average will read its jobs but the deferred ones. */
    void EndStep();
    /** \param r a reception of a model */
    void Receive(const D2dReception& r);
    /** \param record an outcome of a message one of the devices sent */
    void Delivery(const D2dDeliveryRecord& record);
    /**
     * \brief A device's transport's Presence trace: a participant that leaves (or is
     * depleted) before it averaged is out of the step (Gone).
     * \param device the device
     * \param present false: it left or was depleted; true: back
     */
    void Presence(uint32_t device, bool present);
    /**
     * \brief Its in-neighbours stop waiting for a participant that left; the step ends if
     * no participant is left to average.
     * \param device the device
     * \param step the step it left
     */
    void Gone(uint32_t device, uint64_t step);
    /**
     * \param device receiver
     * \param origin sender whose message is resolved
     */
    void Resolve(uint32_t device, uint32_t origin);
    /** \param device average if everything it waits for is there */
    void TryAverage(uint32_t device);
    /** \param device average its own model with what arrived */
    void Average(uint32_t device);
    /** \brief Withdraw the step's models not on the air yet; forget its messages. */
    void ForgetMessages();

    std::vector<Ptr<D2dLearner>> m_learners;           //!< device id -> its learner
    std::vector<Ptr<D2dTransport>> m_transports;       //!< device id -> its D2D transport
    D2dDeliveryMode m_mode{D2dDeliveryMode::RELIABLE}; //!< delivery mode of the model messages
    D2dModelCodec m_codec;                             //!< how models become messages
    bool m_bySamples{false};                           //!< true: a_k = n_k; false: a_k = 1
    bool m_deferred{false};                            //!< SetDeferred
    /** Deferred mode: the current step's jobs (the last step's until ComputeModels). */
    std::shared_ptr<JobLedger> m_ledger;

    uint64_t m_step{0};                       //!< step counter (stale events carry an older one)
    uint32_t m_round{0};                      //!< round number the step's messages carry (Begin)
    bool m_open{false};                       //!< true between Begin() and the step's end (IsOpen)
    uint32_t m_waiting{0};                    //!< participants that have not averaged
    uint32_t m_received{0};                   //!< the step's model messages that arrived complete
    std::vector<DeviceState> m_state;         //!< device id -> its state in the step
    std::vector<std::vector<uint32_t>> m_out; //!< out[j]: participants that want j's model
    D2dSentMessages m_messages;               //!< the step's messages not resolved yet
    AveragedCallback m_averaged;              //!< Begin()'s averaged: called at each averaging
    Callback<void> m_done;                    //!< Begin()'s done: called once all have averaged
};

} // namespace ns3

#endif /* D2D_MODEL_EXCHANGE_H */
