/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ASYNC_FL_H
#define D2D_ASYNC_FL_H

#include "d2d-fl-protocol.h"
#include "d2d-staleness.h"

#include "ns3/d2d-transport.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Asynchronous federated learning with a server reached over D2S: what FedAsync and
 * FedBuff share. A subclass gives the server's step (Apply) and what a device uploads.
 *
 * The server keeps Concurrency devices training at once (0: every device). It sends the
 * current model x_t and its version t to a device drawn uniformly among those it has not
 * sent a model to that has not come back (a "global_model" unicast; O(1) a draw); the device trains
 * LocalEpochs (or LocalSteps) from it and uploads an "update" naming the version it trained from.
 * When an update of version tau arrives the server hands it to Apply() with its staleness t - tau,
 * sends the model to another idle device at once, and counts a new version whenever Apply() says
 * so. Each new version is a "round" of rounds.csv: the global model's `accuracy` and `loss`,
 * `round_time_s` (since the previous version), `updates` (applied into it),
 * `staleness_mean` and `staleness_max` over them, and `bytes_sent`; the Update trace fires
 * for every update with its staleness and the weight s(tau) it got.
 *
 * A device that does not answer within RoundDeadline after its model was sent frees its
 * slot (another device is drawn; its update is still applied if it comes, later and
 * staler). With reliable delivery a model that did not reach its device frees the slot at
 * once (the device stays available, but for an empty battery, receiver_off, which takes
 * it out of the draw). A device's update lost on the way is found only by the deadline.
 */
class D2dAsyncFl : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dAsyncFl();

    /** \return true: a server reached over D2S */
    bool UsesD2s() const override;
    /** \return EvaluateDevices: the global model is evaluated (RecordGlobal), no device's */
    std::vector<std::string> GetUnreadAttributes() const override;

    /**
     * \param stream first RNG stream (the draw of the next device)
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream) override;

    /** \return the current global model x_t */
    const std::vector<float>& GetGlobalModel() const;

    /** \return updates applied in all versions so far */
    uint64_t GetTotalUpdates() const;

    /**
     * Signature of the Update trace.
     * \param version the server's version t when the update arrived
     * \param device its device
     * \param staleness t - tau
     * \param weight the weight it got (FedAsync: alpha s(t - tau); FedBuff: s(t - tau))
     */
    typedef void (*UpdateTracedCallback)(uint32_t version,
                                         uint32_t device,
                                         uint32_t staleness,
                                         double weight);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief Check the set-up, then connect to the D2S transports. */
    void DoInitialize() override;
    /** \brief x_0 from device 0's initial weights, its accuracy, and the first dispatches. */
    void DoStart() override;

    /**
     * \brief The server's step for one update.
     * \param x the global model x_t, changed in place when the step makes a new version
     * \param update what the device uploaded (UploadsDelta(): x_tau - y, else y)
     * \param staleness t - tau
     * \param weight out: the weight the update got (for the Update trace)
     * \return true if x is a new version
     */
    virtual bool Apply(std::vector<float>& x,
                       const std::vector<float>& update,
                       uint32_t staleness,
                       double& weight) = 0;

    /** \return true if a device uploads x_tau - y (its change), false for its model y */
    virtual bool UploadsDelta() const = 0;

    /**
     * \brief A device's local job on x_tau, before it starts (default: LocalTask() as it is).
     * \param task the job, changed in place
     * \param base x_tau as the device received it
     */
    virtual void ConfigureTask(D2dTrainTask& task,
                               const std::shared_ptr<const std::vector<float>>& base) const;

    /**
     * \param staleness t - tau
     * \return s(t - tau) of the Staleness attributes
     */
    double StalenessWeight(uint32_t staleness) const;

  private:
    /** \brief Send x_t to idle devices until Concurrency are training (or none is idle). */
    void Dispatch();
    /**
     * \param device its slot is free again (answered, timed out, or its model was lost)
     * \param dead whether its battery is empty (never drawn again)
     */
    void Release(uint32_t device, bool dead);
    /** \param r a reception at a device */
    void ClientReceive(const D2dReception& r);
    /** \param r a reception at the server */
    void ServerReceive(const D2dReception& r);
    /** \param record the server transport's Delivery rows (lost models) */
    void DownlinkDelivery(const D2dDeliveryRecord& record);
    /**
     * \brief A device's D2S transport's Presence trace: a device that leaves (or is depleted)
     * loses its slot's model, job or update, and the slot goes to another device at once; a
     * device away is not drawn until it is back.
     * \param device the device
     * \param present false: it left or was depleted; true: it came back
     */
    void Presence(uint32_t device, bool present);
    /**
     * \brief A device's TrainingLost trace: its job was lost (it went away); it holds no
     * model.
     * \param device the device
     */
    void ClientLost(uint32_t device, Time, Time);
    /**
     * \param device the device
     * \param sentAt when its model was sent (a later dispatch of it is another)
     */
    void Timeout(uint32_t device, Time sentAt);
    /** \brief A new version: its rows, then the next (or the end). */
    void NewVersion();
    /** \brief The RoundEnd of the previous version has fired: count the next one. */
    void NextVersion();

    /** What the server knows of a device it sent the model to. */
    struct Slot
    {
        uint64_t msgId{0}; //!< the model's message
        Time sentAt;       //!< when it was sent
        EventId timeout;   //!< RoundDeadline after sentAt
    };

    uint32_t m_concurrency;                 //!< Concurrency: devices training at once (0: all)
    D2dStaleness::Kind m_staleness;         //!< Staleness: the function s
    double m_stalenessA;                    //!< StalenessA: a of s
    double m_stalenessB;                    //!< StalenessB: b of s (hinge)
    Ptr<UniformRandomVariable> m_pick;      //!< draws the next device (AssignStreams)
    std::vector<float> m_global;            //!< x_t
    uint32_t m_version{0};                  //!< t: versions made so far
    std::map<uint32_t, Slot> m_slots;       //!< devices the model was sent to, not yet free
    std::vector<uint32_t> m_idle;           //!< the devices that may be drawn (no slot, a battery)
    std::vector<int64_t> m_idleAt;          //!< device i's index in m_idle, -1 if not there
    std::vector<double> m_versionStaleness; //!< staleness of the updates since the version
    uint64_t m_totalUpdates{0};             //!< updates applied so far
    bool m_finished{false};                 //!< the last version was made
    /** Update: (version, device, staleness, weight) of every applied update */
    TracedCallback<uint32_t, uint32_t, uint32_t, double> m_updateTrace;
};

} // namespace ns3

#endif /* D2D_ASYNC_FL_H */
