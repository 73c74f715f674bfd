/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ROUND_RECORDER_H
#define D2D_ROUND_RECORDER_H

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-transport.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The measurements of a learning protocol's rounds, D2dFlProtocol's RoundRecord rows:
 * the global model's or the devices' own test accuracy and loss, node -1's means over the
 * regular devices (and their mean model's), the bytes the protocol's transports accepted, and
 * the first value that is not finite, which stops the run.
 *
 * It evaluates and counts; where a row goes is its sink's business (the protocol fires its
 * RoundRecord trace source there). Part of D2dFlProtocol, which forwards its recording
 * functions and the EvaluateDevices attribute here.
 */
class D2dRoundRecorder
{
  public:
    /** Where a row goes: (round, node or -1, metric, value), at the time it is taken. */
    using Sink = std::function<void(uint32_t, int64_t, const std::string&, double)>;
    /** Device i's learner at index i. */
    using Learners = std::vector<Ptr<D2dLearner>>;

    /** \param sink where the rows go */
    explicit D2dRoundRecorder(Sink sink);

    /** \param test the test set every evaluation uses */
    void SetTestSet(std::shared_ptr<const D2dDataset> test);
    /** \return the test set (null before SetTestSet) */
    const std::shared_ptr<const D2dDataset>& GetTestSet() const;
    /** \param start when the current round started (its round_time_s counts from there) */
    void SetRoundStart(Time start);
    /**
     * \brief Write node -1's `round_time_s`: the time from SetRoundStart() to now.
     * \param round the round
     */
    void RoundTime(uint32_t round);
    /** \param evaluate write each device's accuracy and loss every round (RecordDevices) */
    void SetEvaluateDevices(bool evaluate);
    /** \return whether each device's accuracy and loss are written every round */
    bool GetEvaluateDevices() const;
    /** \param devices the low-quality devices, left out of node -1 (any order) */
    void SetLowQuality(const std::vector<uint32_t>& devices);
    /**
     * \param device a device
     * \return true if it is one of SetLowQuality()'s
     */
    bool IsLowQuality(uint32_t device) const;

    /**
     * \brief Write a row; a value that is not finite stops the run (StopOnNonFinite).
     * \param round the round
     * \param node device, or -1
     * \param metric name
     * \param value value
     */
    void Row(uint32_t round, int64_t node, const std::string& metric, double value);
    /**
     * \brief Evaluate values with an idle learner's architecture; write node -1's
     * `accuracy` (if the test set has classes) and `loss` (D2dFlProtocol::RecordGlobal).
     * \param round the round
     * \param values the global model
     * \param learners the devices' learners (one not training evaluates)
     */
    void Global(uint32_t round, const std::vector<float>& values, const Learners& learners);
    /**
     * \brief Evaluate the devices' own models (D2dFlProtocol::RecordDevices).
     * \param round the round
     * \param devices the devices to include; those still training are left out
     * \param learners the devices' learners
     */
    void Devices(uint32_t round, const std::vector<uint32_t>& devices, const Learners& learners);

    /**
     * \brief Note the first NaN or infinity (what, naming device and round) and stop the
     * simulation after the current event.
     * \param what the one-line description
     */
    void StopOnNonFinite(const std::string& what);
    /** \return empty, or the first value that was not finite (StopOnNonFinite) */
    const std::string& GetNumericError() const;
    /** \return node -1's test accuracy last written (Global or Devices) */
    double GetLastAccuracy() const;
    /** \return node -1's test loss last written (Global or Devices) */
    double GetLastLoss() const;

    /**
     * \brief Count the bytes of every message these transports accept for transmission
     * (a transport given twice is counted once).
     * \param radios the transports to watch
     */
    void CountBytesSent(const std::vector<Ptr<D2dTransport>>& radios);
    /** \return the bytes counted so far */
    uint64_t GetBytesSent() const;
    /**
     * \brief Write node -1's `bytes_sent`: the bytes counted since the previous call
     * (nothing if no transport is watched).
     * \param round the round
     */
    void BytesSent(uint32_t round);
    /** \brief Forget the test set and the watched transports (the protocol's DoDispose). */
    void Dispose();

  private:
    /**
     * \brief Node -1's means over the regular idle devices, their own rows (EvaluateDevices)
     * and their mean model's.
     * \param round the round
     * \param idle the regular devices not training
     * \param learners the devices' learners
     */
    void Regular(uint32_t round, const std::vector<uint32_t>& idle, const Learners& learners);
    /**
     * \brief Node -1's `consensus_distance` and mean model's accuracy and loss, when the idle
     * devices share an architecture.
     * \param round the round
     * \param idle the regular devices not training (not empty)
     * \param learners the devices' learners
     */
    void MeanModel(uint32_t round, const std::vector<uint32_t>& idle, const Learners& learners);
    /** \param message a message one of the watched transports accepted */
    void MessageSent(uint64_t, Ptr<const D2dMessage> message, uint32_t);

    Sink m_sink;                              //!< where the rows go
    std::shared_ptr<const D2dDataset> m_test; //!< the test set
    Time m_roundStart;                        //!< when the current round started
    bool m_evaluateDevices{true};             //!< per-device rows every round
    std::set<uint32_t> m_lowQuality;          //!< SetLowQuality: left out of node -1
    double m_lastAccuracy{0};                 //!< node -1 test accuracy last written
    double m_lastLoss{0};                     //!< node -1 test loss last written
    std::string m_numericError;               //!< the first NaN or infinity
    bool m_countingBytes{false};              //!< CountBytesSent() called: write bytes_sent
    std::set<const D2dTransport*> m_watched;  //!< transports CountBytesSent() watches
    uint64_t m_bytesSent{0};                  //!< bytes of the watched transports' messages
    uint64_t m_bytesWritten{0};               //!< m_bytesSent at the last BytesSent()
};

} // namespace ns3

#endif /* D2D_ROUND_RECORDER_H */
