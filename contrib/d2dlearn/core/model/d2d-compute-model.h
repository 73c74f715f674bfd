/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_COMPUTE_MODEL_H
#define D2D_COMPUTE_MODEL_H

#include "d2d-energy-model.h"

#include "ns3/event-id.h"

#include <list>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The compute profile of a device and the energy of its computation.
 *
 * Two models, selected by the "Model" attribute:
 * - Flops (default): a job of F floating-point operations takes F / FlopsPerSecond x
 *   SlowdownFactor seconds of simulated time and draws BusyPowerW meanwhile.
 * - Cpu: the CPU model of the federated-learning energy literature (Tran, Bao, Zomaya,
 *   Nguyen, Hong, "Federated Learning over Wireless Networks: Optimization Model Design and
 *   Analysis", INFOCOM 2019; Yang, Chen, Saad, Hong, Shikh-Bahaei, "Energy Efficient
 *   Federated Learning over Wireless Communication Networks", IEEE TWC 2021): a job of c D
 *   CPU cycles at frequency f takes c D / f seconds and costs (alpha/2) c D f^2 joules, i.e.
 *   a draw of (alpha/2) f^3 while it runs. Here c D = CyclesPerFlop x F (the papers' c
 *   cycles per sample times D samples is CyclesPerFlop times the FLOPs of those samples), f =
 *   CpuFrequencyHz and alpha/2 = SwitchedCapacitance (the papers' kappa); SlowdownFactor
 *   multiplies the duration as with Flops (energy follows the duration at the same draw).
 *   The defaults (2 GHz, 0.2 cycle per FLOP, 2.5e-28) give the Flops model's defaults,
 *   1e10 FLOP/s at 2 W; a device at half the frequency takes twice as long at an eighth of
 *   the power, a quarter of the energy.
 * Idle, the compute unit draws IdlePowerW; energy = power x time, component "compute".
 * Jobs run one at a time in FIFO order. The
 * job's completion callback fires when its completion event does; a device whose battery
 * is depleted mid-job never completes it (nor any queued job). The depletion is found at
 * the instant the battery runs empty under the summed draw of the device's radio and
 * compute models (see D2dEnergyModel), not at the source's next periodic update.
 */
class D2dComputeModel : public D2dEnergyModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** How a job's duration and power are computed. */
    enum Model
    {
        FLOPS, //!< F / FlopsPerSecond at BusyPowerW
        CPU    //!< c F / f at (alpha/2) f^3 (Tran et al. 2019, Yang et al. 2021)
    };

    D2dComputeModel();

    /**
     * \return the draw while a job runs, W: BusyPowerW (Flops), or (alpha/2) f^3 (Cpu: the
     *         energy (alpha/2) c D f^2 of a job over its time c D / f)
     */
    double GetBusyPowerW() const;

    /**
     * \param flops floating-point operations of the job
     * \return its duration on this device, slow-down included
     */
    Time GetJobDuration(double flops) const;

    /**
     * \brief Queue a job.
     * \param flops floating-point operations (>= 0)
     * \param done called when the job completes
     * \param lost called instead if the device leaves before it completes (Leave(): its work
     *        is lost); null: nothing is called
     * \return job id (> 0), or 0 if the device is depleted or away
     */
    uint64_t StartJob(double flops, Callback<void> done, Callback<void> lost = Callback<void>());

    /**
     * \brief The device goes away (D2dAvailabilityModel): the running job and the queued
     * ones are lost (their lost callbacks are called, in queue order), no job starts until
     * Rejoin(), and the processor draws nothing, idle power included.
     */
    void Leave();
    /** \brief The device is back: idle power again, jobs accepted. */
    void Rejoin();
    /** \return true between Leave() and Rejoin() */
    bool IsAway() const;
    /**
     * \brief Say that this device may go away during the run (a D2dAvailabilityModel is
     * installed): its learner then keeps what a lost job started from.
     */
    void EnableAvailability();
    /** \return true once EnableAvailability() was called */
    bool HasAvailability() const;

    /** \return true while a job runs */
    bool IsBusy() const;
    /**
     * \return when the running job and those queued behind it will have completed, as
     * planned now (now if none runs)
     */
    Time GetIdleTime() const;
    /** \return jobs waiting behind the running one */
    std::size_t GetNQueued() const;
    /** \brief Start drawing idle power (call once the source is attached). */
    void Start();

    /** Signature of the JobDone trace: (job id, start time, end time). */
    typedef void (*JobDoneTracedCallback)(uint64_t jobId, Time start, Time end);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /** \brief The battery is depleted: cancel the running job and drop the queued ones. */
    void DoDepletion() override;

  private:
    /** A queued job. */
    struct Job
    {
        uint64_t id;         //!< job id (> 0), as StartJob returns it
        double flops;        //!< floating-point operations of the job
        Callback<void> done; //!< called when the job completes (may be null)
        Callback<void> lost; //!< called if the device leaves before it completes (may be null)
    };

    /** \brief Start the next queued job if idle. */
    void RunNext();
    /** \brief The running job completes. */
    void Complete();

    Model m_model{FLOPS};    //!< how a job is costed, attribute Model
    double m_cpuHz;          //!< CPU frequency f (Hz), attribute CpuFrequencyHz (Cpu model)
    double m_cyclesPerFlop;  //!< CPU cycles per FLOP, attribute CyclesPerFlop (Cpu model)
    double m_capacitance;    //!< alpha/2 (J per cycle per Hz^2), attribute SwitchedCapacitance
    double m_flopsPerSecond; //!< sustained compute speed (FLOP/s), attribute FlopsPerSecond
    double m_busyPowerW;     //!< power drawn while a job runs (W), attribute BusyPowerW
    double m_idlePowerW;     //!< power drawn while idle (W), attribute IdlePowerW
    double m_slowdown;       //!< multiplies every job's duration, attribute SlowdownFactor
    uint64_t m_nextJobId{1}; //!< id given to the next queued job
    std::list<Job> m_queue;  //!< FIFO; a list: an empty std::deque allocates ~600 bytes
    bool m_busy{false};      //!< true while a job runs (m_running holds it)
    Job m_running{};         //!< the running job; a default Job when none runs
    Time m_runningStart;     //!< simulated time at which the running job started
    EventId m_completion;    //!< completion event of the running job
    bool m_away{false};      //!< between Leave() and Rejoin()
    bool m_mayLeave{false};  //!< EnableAvailability() called
    /** JobDone trace source: (job id, start time, end time). */
    TracedCallback<uint64_t, Time, Time> m_jobDoneTrace;
};

} // namespace ns3

#endif /* D2D_COMPUTE_MODEL_H */
