/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_AVAILABILITY_MODEL_H
#define D2D_AVAILABILITY_MODEL_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief When each device is there: devices that come and go (a phone unplugged, taken out of
 * range of the others, switched off by its user), from a model or from a trace.
 *
 * - Model (MeanOnTime > 0 and MeanOffTime > 0): each device alternates between available
 *   periods and away periods whose lengths are exponential with means MeanOnTime and
 *   MeanOffTime, independent across devices and periods: an alternating renewal (on/off)
 *   process. The run starts in its stationary state: device i is available at time 0 with
 *   probability MeanOnTime / (MeanOnTime + MeanOffTime), and (exponential periods being
 *   memoryless) the remainder of its first period has the same law as a whole period. Device
 *   i's k-th draw is a counter-based uniform (SplitMix64 of Seed, i and k), so a device's
 *   periods do not depend on the number of devices or on any other draw of the run.
 * - Trace (SetIntervals): device i is available exactly within its listed intervals
 *   [start, end); a device with no interval is available all the run.
 *
 * An away device neither computes nor communicates: what the state changes do to the
 * device's transports and compute model is the business of the StateChange callbacks (the
 * scenario layer connects them to D2dTransport::Leave()/Rejoin() and
 * D2dComputeModel::Leave()/Rejoin()). This class knows nothing of them.
 */
class D2dAvailabilityModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dAvailabilityModel();

    /** One device's available intervals [start, end), ascending and disjoint. */
    typedef std::vector<std::pair<Time, Time>> Intervals;

    /**
     * \brief Take the devices' availability from a trace instead of the model.
     * \param intervals device i's available intervals at index i (empty: always available);
     *        each ascending, disjoint, start < end, start >= 0
     */
    void SetIntervals(std::vector<Intervals> intervals);

    /**
     * \brief Size the model for n devices (all available until Start()).
     * \param nDevices devices 0..n-1
     */
    void Install(uint32_t nDevices);

    /**
     * \brief Decide each device's state at time 0 and schedule its changes: an event now
     * makes the devices away at time 0 leave (before anything else of time 0 that is
     * scheduled after this call).
     */
    void Start();

    /**
     * \param device a device
     * \return true if it is available now
     */
    bool IsAvailable(uint32_t device) const;
    /** \return devices available now */
    uint32_t GetNAvailable() const;
    /** \return devices */
    uint32_t GetNDevices() const;
    /** \return true if a device may ever be away (a model with both means > 0, or a trace) */
    bool IsActive() const;

    /**
     * \brief Called at each change of a device's state, after the state is updated.
     * \param cb (device, available now)
     */
    void AddStateCallback(std::function<void(uint32_t, bool)> cb);

    /**
     * \brief Device i's k-th uniform draw, in (0, 1): a counter-based generator (SplitMix64
     * of seed, device and k), so that draws need no per-device engine.
     * \param seed the seed
     * \param device the device
     * \param k the draw's index
     * \return the uniform
     */
    static double Uniform(uint64_t seed, uint32_t device, uint64_t k);

    /**
     * \brief An exponential period from a uniform: -mean ln(u) (inverse transform).
     * \param mean the mean, s (> 0)
     * \param u a uniform in (0, 1)
     * \return the period, s
     */
    static double Exponential(double mean, double u);

    /** Signature of the StateChange trace: (device, available now). */
    typedef void (*StateChangeTracedCallback)(uint32_t device, bool available);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Time 0: the devices away from the start leave. */
    void InitialLeaves();
    /**
     * \brief A model device's period ends: flip its state, draw the next period.
     * \param device the device
     */
    void Flip(uint32_t device);
    /**
     * \brief A trace device's interval starts or ends.
     * \param device the device
     * \param available its state from now
     */
    void Set(uint32_t device, bool available);
    /**
     * \param device a device of the model
     * \return its next period, s (the draw m_draws[device], then counted)
     */
    double NextPeriod(uint32_t device);

    Time m_meanOn;                      //!< MeanOnTime: mean available period (0: always available)
    Time m_meanOff;                     //!< MeanOffTime: mean away period
    uint64_t m_seed;                    //!< Seed: the draws' seed
    std::vector<Intervals> m_intervals; //!< the trace (SetIntervals); empty: the model
    std::vector<bool> m_available;      //!< device i available now
    std::vector<uint32_t> m_draws;      //!< model: device i's draws so far
    uint32_t m_nAvailable{0};           //!< devices available now
    std::vector<std::function<void(uint32_t, bool)>> m_callbacks; //!< AddStateCallback()'s
    /** StateChange: (device, available now) */
    TracedCallback<uint32_t, bool> m_stateTrace;
};

} // namespace ns3

#endif /* D2D_AVAILABILITY_MODEL_H */
