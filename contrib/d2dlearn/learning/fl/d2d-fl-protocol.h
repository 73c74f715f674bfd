/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FL_PROTOCOL_H
#define D2D_FL_PROTOCOL_H

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-local-jobs.h"
#include "ns3/d2d-model-payload.h"
#include "ns3/d2d-round-count.h"
#include "ns3/d2d-round-recorder.h"
#include "ns3/d2d-transport.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What the learning protocols of fl/ share: the devices' learners, the test set, the
 * round count, the local work per round, the round deadline, the model codec, and the
 * per-round measurements (the RoundRecord trace, which a helper writes as rounds.csv).
 *
 * A protocol runs Rounds rounds from Start() and calls the finished callback after the
 * last one (scenarios stop the simulator there). Devices are addressed by index: learner
 * i belongs to device i, whose D2D transport is SetTransports()'s i-th and whose D2S
 * transport is SetD2sTransports()'s i-th (the server's last). A protocol uses the links
 * UsesD2d() and UsesD2s() say; D2dLearningHelper gives it what it uses.
 *
 * Set-up calls (SetLearners, SetTestSet, SetTransports, SetD2sTransports, attributes) may
 * come in any order: they only store. The protocol checks them and connects to its
 * transports at initialization (DoInitialize), which Start() triggers; a subclass
 * overrides DoInitialize() (calling its parent's first) to connect, and DoStart() to begin
 * round 1.
 */
class D2dFlProtocol : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dFlProtocol();

    /** \param learners device i's learner at index i */
    void SetLearners(std::vector<Ptr<D2dLearner>> learners);
    /** \return device i's learner at index i */
    const std::vector<Ptr<D2dLearner>>& GetLearners() const;
    /** \param test the test set every evaluation uses */
    void SetTestSet(std::shared_ptr<const D2dDataset> test);
    /**
     * \brief The low-quality agents (e.g. devices trained on flipped labels). Node -1, the
     * network's row of RoundRecord, means the regular agents in every protocol: the means
     * over the devices (RecordDevices: accuracy, loss, the mean model and its distance)
     * leave these out, and their own accuracy and loss rows are written all the same (as
     * in Table 1 of Fan, Mendler-Dünner and Jaggi 2023, the paper whose setting has them).
     * \param devices the low-quality devices (any order; none by default)
     */
    void SetLowQuality(const std::vector<uint32_t>& devices);
    /** \param cb called once, after the last round */
    void SetFinishedCallback(Callback<void> cb);

    /**
     * \param transports device i's D2D transport at index i (one per learner), e.g.
     *        D2dChannel::GetTransports() or the D2dWifiHelper's
     * \param mode delivery mode of the protocol's D2D messages
     */
    void SetTransports(std::vector<Ptr<D2dTransport>> transports, D2dDeliveryMode mode);
    /**
     * \param d2s the D2S transports: device i's at index i, the server's at index
     *        GetNDevices() (e.g. the D2S D2dChannel's GetTransports())
     * \param mode delivery mode of the protocol's D2S messages
     */
    void SetD2sTransports(std::vector<Ptr<D2dTransport>> d2s, D2dDeliveryMode mode);

    /** \return true if the protocol sends over D2D links (needs SetTransports) */
    virtual bool UsesD2d() const;
    /** \return true if the protocol has a server reached over D2S (needs SetD2sTransports) */
    virtual bool UsesD2s() const;
    /** \return the fewest devices the protocol runs with (2: it needs peers or clients) */
    virtual uint32_t GetMinDevices() const;
    /**
     * \return true if it averages the devices' models (then they share one architecture);
     *         false for a protocol whose devices keep their own models apart
     */
    virtual bool AveragesModels() const;
    /**
     * \return true if the devices send gradients, not weights (the learners then need a
     *         gradient; the server's step is its own learning rate)
     */
    virtual bool SendsGradients() const;
    /**
     * \return the classes of the objects it makes and configures through their attributes,
     *         beside its own: the devices' learners (D2dLearner), and a subclass's own parts
     *         (FedAvg: its aggregation rule's; CMFL: its committee consensus'): with its own,
     *         what a flag of theirs needs to act (D2dFlagScope)
     */
    virtual std::vector<TypeId> GetPartTypeIds() const;
    /**
     * \return the attributes of its class and bases ("ns3::Class::Attribute", named as
     *         the class that defines them) that this object, as configured, never reads
     *         (FedAvg's ProximalMu unless Variant=fedprox): a flag that sets only these
     *         cannot change its run (D2dFlagScope)
     */
    virtual std::vector<std::string> GetUnreadAttributes() const;

    /**
     * \param stream first RNG stream of the protocol's random draws
     * \return streams used (0 for a protocol without random draws)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * \brief Initialize (check the set-up, connect to the transports) if not done yet,
     * then begin round 1 now.
     */
    void Start();

    /** \return rounds completed */
    uint32_t GetRoundsDone() const;
    /** \param rounds the Rounds attribute: rounds to run */
    void SetRounds(uint32_t rounds);
    /** \return the Rounds attribute: rounds to run */
    uint32_t GetRounds() const;
    /**
     * \return empty, or why the run stopped: a training loss, a test loss or accuracy, or
     * another metric that is NaN or infinite, naming the device (or the global model) and
     * the round; the protocol then calls Simulator::Stop()
     */
    const std::string& GetNumericError() const;
    /**
     * \return test accuracy after the last round: the global model's, or the mean of the
     * devices' accuracies (decentralized protocols)
     */
    double GetLastAccuracy() const;
    /** \return test loss of the global (or mean) model after the last round */
    double GetLastLoss() const;
    /** \return number of devices */
    uint32_t GetNDevices() const;

    /**
     * \brief Count the bytes of every message these transports accept for transmission
     * (the message sizes: a broadcast counts once, link-layer retransmissions not at all).
     * A transport given twice is counted once. DoInitialize() watches the protocol's own
     * D2D and D2S transports; call this for further ones.
     * \param radios the transports to watch
     */
    void CountBytesSent(const std::vector<Ptr<D2dTransport>>& radios);
    /** \return bytes counted by CountBytesSent() so far */
    uint64_t GetBytesSent() const;

    /**
     * \brief Partial Fisher-Yates shuffle: moves a uniform random sample of m of the values,
     * in draw order, to the front (m draws from rng: GetInteger(r, size - 1), r < m).
     * \param values the values; their first m are the sample afterwards
     * \param m sample size (<= values.size())
     * \param rng the random stream
     */
    static void PartialShuffle(std::vector<uint32_t>& values,
                               uint32_t m,
                               Ptr<UniformRandomVariable> rng);

    /**
     * \brief k distinct devices of 0..n-1 drawn by PartialShuffle() (e.g. the malicious,
     * flipped or straggling devices of a scenario).
     * \param n devices
     * \param k devices drawn (<= n)
     * \param rng the random stream
     * \return the devices drawn, ascending
     */
    static std::vector<uint32_t> PickDevices(uint32_t n,
                                             uint32_t k,
                                             Ptr<UniformRandomVariable> rng);

    /** Values of the Compression attribute: how model values go on the air. */
    enum Compression
    {
        FLOAT32, //!< 4 bytes per value
        FLOAT16  //!< 2 bytes per value (rounded to binary16 before they leave)
    };

    /** Signature of the RoundEnd trace: (round, accuracy, loss of the global/mean model). */
    typedef void (*RoundEndTracedCallback)(uint32_t round, double accuracy, double loss);

    /**
     * Signature of the RoundRecord trace: one measurement of a round, fired at the simulated
     * time it was taken (a rounds.csv row: `round,sim_time_s,node,metric,value`).
     * \param round the round (0: before the first round)
     * \param node device index, or -1 for the global (or mean) model and the round's totals
     * \param metric its name (e.g. "accuracy", "loss", "round_time_s", "bytes_sent")
     * \param value its value, in the metric's unit (seconds for *_s, bytes for bytes_*)
     */
    typedef void (*RoundRecordTracedCallback)(uint32_t round,
                                              int64_t node,
                                              const std::string& metric,
                                              double value);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /**
     * \brief Check the set-up (learners, test set, the transports of the links the
     * protocol uses, one per device and the server's) and abort with a message naming what
     * is missing. Subclasses connect to their transports here, after calling this.
     */
    void DoInitialize() override;

    /** \brief Begin round 1 (after DoInitialize). */
    virtual void DoStart() = 0;

    /** \return the concrete class's name without "ns3::" (for messages) */
    std::string Name() const;

    /** \return the test set (SetTestSet) */
    const std::shared_ptr<const D2dDataset>& GetTestSet() const;
    /** \param start when the current round started: its round_time_s counts from there */
    void MarkRoundStart(Time start);
    /**
     * \brief Record node -1's `round_time_s` of a round (RoundRecord): from MarkRoundStart()
     * to now.
     * \param round the round
     */
    void WriteRoundTime(uint32_t round);

    /** \return the local training job of a round (LocalEpochs / LocalSteps) */
    D2dTrainTask LocalTask() const;

    /**
     * \brief Evaluate parameters with device 0's architecture and record the round's
     * `accuracy` and `loss` for node -1 (RoundRecord).
     * \param round the round
     * \param values global model
     */
    void RecordGlobal(uint32_t round, const std::vector<float>& values);

    /**
     * \brief Evaluate the devices' own models and record (RoundRecord): per node (if
     * EvaluateDevices) `accuracy` and `loss`; node -1
     * `accuracy` and `loss` = the mean over the regular devices (over an evenly spread
     * sample of up to 16 of them if not EvaluateDevices); when the devices share an
     * architecture, also node -1 `consensus_distance` (mean squared distance of the regular
     * devices' parameters from their average) and `mean_model_accuracy` /
     * `mean_model_loss` (that average's). Devices still training are left out; low-quality
     * devices (SetLowQuality) are in no node -1 figure, and their own `accuracy` and `loss`
     * rows are written whatever EvaluateDevices, after node -1's.
     * \param round the round
     * \param devices the devices to include (e.g. those with a battery left)
     */
    void RecordDevices(uint32_t round, const std::vector<uint32_t>& devices);

    /**
     * \param device a device
     * \return true if it is one of SetLowQuality's
     */
    bool IsLowQuality(uint32_t device) const;

    /**
     * \brief Record a measurement: fire RoundRecord (now) with it. Whether it is written
     * anywhere is the business of the trace's sinks (none: it is dropped).
     * \param round the round
     * \param node device, or -1
     * \param metric name
     * \param value value
     */
    void WriteRow(uint32_t round, int64_t node, const std::string& metric, double value);

    /**
     * \brief Record the round's node -1 `bytes_sent` (RoundRecord): the bytes
     * CountBytesSent() counted since the previous call (nothing if no transport is watched).
     * \param round the round
     */
    void WriteBytesSent(uint32_t round);

    /**
     * \brief A round is over: count it, fire RoundEnd, and either call the finished
     * callback (last round) or schedule the next round now.
     * \param next starts the next round
     */
    void EndRound(Callback<void> next);

    std::vector<Ptr<D2dLearner>> m_learners;              //!< device i's learner
    std::vector<Ptr<D2dTransport>> m_transports;          //!< device i's D2D transport
    D2dDeliveryMode m_mode{D2dDeliveryMode::RELIABLE};    //!< delivery mode of D2D messages
    std::vector<Ptr<D2dTransport>> m_d2s;                 //!< D2S transports, the server's last
    D2dDeliveryMode m_d2sMode{D2dDeliveryMode::RELIABLE}; //!< delivery mode of D2S messages
    D2dModelCodec m_codec;                                //!< how models become messages
    Time m_deadline;                                      //!< round (or phase) deadline, 0 = none
    uint32_t m_round{0};                                  //!< current round (1-based once started)
    /** the local jobs: LocalEpochs, LocalSteps, SleepWhileTraining, the dead devices */
    D2dLocalJobs m_jobs;

    /** \return the devices not known to be depleted (D2dLocalJobs::IsDead), ascending */
    std::vector<uint32_t> LiveDevices() const;

    /**
     * \brief Opens a round's jobs: gives each live device (m_jobs) that is idle (not
     * still on an earlier round's job) and not away (D2dLearner::IsAway) the job task, in ascending
     * order, its end reported to done(device); a device whose learner refuses the job (battery
     * empty) is marked dead. \param task the job \param done called with the device when its job
     * ends \param adjust if set, called on a copy of task for each device before it is given
     * \return the devices whose job started, ascending
     */
    std::set<uint32_t> StartLiveJobs(
        const D2dTrainTask& task,
        const std::function<void(uint32_t, const D2dTrainResult&)>& done,
        const std::function<void(uint32_t, D2dTrainTask&)>& adjust = nullptr);

    /**
     * \brief Note the first NaN or infinity (what, naming device and round) and stop the
     * simulation after the current event.
     * \param what the one-line description
     */
    void StopOnNonFinite(const std::string& what);

  private:
    /**
     * \brief TrainingStart sink (SleepWhileTraining): tell the device's transports of the
     * links the protocol uses that it is idle until the job's planned end.
     * \param device the device index
     * \param end the job's planned end
     */
    void SleepWhileTraining(uint32_t device, uint32_t, Time, Time end);

    /**
     * \brief TrainingDone sink: a training loss that is not finite stops the run.
     * \param device the device index
     * \param result the job's result
     */
    void CheckTraining(uint32_t device, uint32_t, Time, Time, const D2dTrainResult& result);
    /** \param compression the Compression attribute */
    void SetCompression(Compression compression);
    /** \return the Compression attribute */
    Compression GetCompression() const;

    /** \param evaluate the EvaluateDevices attribute (D2dRoundRecorder) */
    void SetEvaluateDevices(bool evaluate);
    /** \return the EvaluateDevices attribute */
    bool GetEvaluateDevices() const;
    /** \param epochs the LocalEpochs attribute (D2dLocalJobs) */
    void SetLocalEpochs(uint32_t epochs);
    /** \return the LocalEpochs attribute */
    uint32_t GetLocalEpochs() const;
    /** \param steps the LocalSteps attribute (D2dLocalJobs) */
    void SetLocalSteps(uint64_t steps);
    /** \return the LocalSteps attribute */
    uint64_t GetLocalSteps() const;
    /** \param sleep the SleepWhileTraining attribute (D2dLocalJobs) */
    void SetSleepWhileTraining(bool sleep);
    /** \return the SleepWhileTraining attribute */
    bool GetSleepWhileTraining() const;

    /** the rounds' measurements (RoundRecord rows), bytes sent, the first non-finite value */
    D2dRoundRecorder m_recorder;
    /** the Rounds attribute, the rounds over (EndRound), the finished callback */
    D2dRoundCount m_count;
    /** RoundEnd: (round, accuracy, loss) (RoundEndTracedCallback) */
    TracedCallback<uint32_t, double, double> m_roundEndTrace;
    /** RoundRecord: (round, node, metric, value) */
    TracedCallback<uint32_t, int64_t, const std::string&, double> m_roundRecordTrace;
};

} // namespace ns3

#endif /* D2D_FL_PROTOCOL_H */
