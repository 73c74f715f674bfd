/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ENERGY_MODEL_H
#define D2D_ENERGY_MODEL_H

#include "d2d-draw-ledger.h"
#include "d2d-ns3-compat.h"

#include "ns3/callback.h"
#include "ns3/device-energy-model.h"
#include "ns3/energy-source.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A DeviceEnergyModel whose draw is a set of named components (radio_tx,
 * radio_rx, compute, ...), each a constant power between state changes.
 *
 * The model draws current = (sum of component powers) / supply voltage from its ns-3
 * EnergySource, so BasicEnergySource and LiIonEnergySource integrate it as usual. At
 * each change, the source is brought up to date first (while the old draw is in force),
 * then one "EnergyEvent" is reported per component with energy > 0: energy_j = power x
 * duration of the period that just ended, remaining_j = the source's remaining energy, with
 * the period's start and the component's power.
 * On depletion the draw drops to zero for good and the depletion callbacks run.
 *
 * Depletion on time. An ns-3 source only notices that it is empty when it is updated (at
 * a change of draw of one of its models, or at its periodic update), so at each rise of
 * its draw (and at SetEnergySource with a draw in force) a model also predicts when the
 * source runs empty: now + (remaining - low-battery level) / P, where P is the total
 * power of the D2D models drawing from that source: the models that
 * FindDeviceEnergyModels finds for the exact types ns3::D2dRadioEnergyModel and
 * ns3::D2dComputeModel, summed in the source's list order (never in pointer order). The
 * siblings are looked up after SetEnergySource and at each check, then shared by the
 * models of the source. A depletion check is scheduled at that instant, rounded up to
 * whole time steps (ns); the source has at most one pending check: a model keeps an
 * earlier one (it predicts again when it runs) and replaces a later one. A fall of the
 * draw only delays the depletion, so it schedules nothing. The check brings the source
 * up to date, so that the source reports the depletion to every model itself. If it
 * leaves a residue of at most 1 nJ plus one time step of draw, the D2D models of the
 * source deplete at that check themselves: ns-3.37's BasicEnergySource rounds the energy
 * of every update to whole nJ (it multiplies the power by a Time), so a floating-point
 * residue of 1e-15 J would never be drawn by 1-ns re-checks below 0.5 W. A larger
 * remainder (the draw fell since the prediction) schedules the next check. The
 * low-battery level is D2dEnergySource's LowBatteryThreshold, BasicEnergySource's
 * BasicEnergyLowBatteryThreshold or LiIonEnergySource's LiIonEnergyLowBatteryThreshold
 * times the initial energy, read at SetEnergySource, else 0.
 *
 * Limits: DeviceEnergyModels of other types on the same source are not counted in P (a
 * subclass of D2dEnergyModel of another type counts only in its own predictions): their
 * draw shortens the battery only at the source's own updates (its periodic update and
 * changes of draw), which find the depletion then. Energy harvesters are not counted
 * either (a check that comes early predicts again). A model's pending check dies with it
 * (DoDispose) and on depletion; if a model is disposed while the other models of its
 * source keep drawing, the next rise of their draw schedules a new check. A check beyond
 * Simulator::Stop never runs.
 */
class D2dEnergyModel : public DeviceEnergyModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dEnergyModel();
    ~D2dEnergyModel() override;

    /**
     * Signature of the EnergyEvent trace.
     * \param time end of the period (simulation time)
     * \param node device index
     * \param component energy component (energy.csv's `component`)
     * \param energyJ energy of the period (J)
     * \param remainingJ remaining energy of the source after it (J)
     * \param start start of the period (simulation time); its duration is time - start
     * \param powerW the component's draw during the period (W), constant over it
     */
    typedef void (*EnergyEventTracedCallback)(Time time,
                                              uint32_t node,
                                              const std::string& component,
                                              double energyJ,
                                              double remainingJ,
                                              Time start,
                                              double powerW);

    /** \param source the energy source this model draws from (DeviceEnergyModel) */
    void SetEnergySource(Ptr<EnergySource> source) override;
    /** \return energy consumed so far, including the open period (J) */
    double GetTotalEnergyConsumption() const override;
    /** Not used: the draw is set per component; logs and ignores. */
    void ChangeState(int newState) override;
    /** \brief The source is depleted: the component draws nothing from now on (traced). */
    void HandleEnergyDepletion() override;
    /** \brief The source is recharged: the component may draw again. */
    void HandleEnergyRecharged() override;
    /** \brief The source's energy changed: nothing to do (the draw is per component). */
    void HandleEnergyChanged() override;

    /** \param index device index written in energy traces */
    void SetNodeIndex(uint32_t index);
    /** \return the device index */
    uint32_t GetNodeIndex() const;
    /**
     * \param cb called once when the source is depleted: any callable, an ns-3 Callback<void>
     *        as well. Stored as a std::function: an ns-3 Callback bound to a member function
     *        and an object makes five heap blocks (its implementation, a std::function and a
     *        vector of two shared bound components), a lambda holding a Ptr one, and the
     *        helpers add one per radio of every device.
     */
    void AddDepletionCallback(std::function<void()> cb);
    /** \return true once the source has been depleted */
    bool IsDepleted() const;
    /** \return the total draw now (W) */
    double GetPowerW() const;
    /** \brief Close the open period now (at the end of a run) so that it is reported. */
    void Flush();
    /**
     * \brief Add the energy of the open period up to now, per component (draw x time since
     * the period started), without closing it: nothing is reported and no source is
     * updated, so the traces are as without the call.
     * \param[in,out] byComponentJ energy per component (J), added to
     */
    void AddOpenEnergy(std::map<std::string, double>& byComponentJ) const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /**
     * \brief Set the draw of one component from now on.
     * \param component component name
     * \param powerW power of that component (W), >= 0
     */
    void SetDraw(const std::string& component, double powerW);
    /**
     * \param component component name
     * \return the draw of that component now (W)
     */
    double GetDraw(const std::string& component) const;
    /** \brief Hook for subclasses: called once on depletion, after the draw is zeroed. */
    virtual void DoDepletion();

  private:
    /** \return the current drawn from the source (A): GetPowerW() / its supply voltage */
    double DoGetCurrentA() const override;
    /**
     * \brief Report the periods that end now.
     * \param updateSource bring the source up to date first
     * \return the source's remaining energy (J) if this call brought it up to date
     */
    std::optional<double> ClosePeriod(bool updateSource);
    /**
     * \brief Schedule the depletion check of the source at the predicted instant, unless
     * an earlier check of the source is pending.
     * \param remainingJ the source's remaining energy now (J)
     */
    void ScheduleDepletionCheck(double remainingJ);
    /** \brief The depletion check: update the source, deplete or predict again. */
    void CheckDepletion();
    /** \return the total power of the D2D models of the source (W) */
    double GetSourcePowerW();

    struct Siblings;
    /**
     * \brief The D2D models of the source (this one included), in the source's list order.
     *
     * Looked up with FindDeviceEnergyModels after SetEnergySource (until this model is
     * found in the source's list) and at each depletion check, then shared by all of
     * them; a model leaves the group when it is disposed or attached elsewhere.
     * \return the members
     */
    const std::vector<D2dEnergyModel*>& GetSiblings();
    /** \brief Leave the group of siblings. */
    void LeaveSiblings();
    /**
     * \brief Drop this model's pending depletion check, if any.
     * \param remove remove it from the scheduler (during a run) rather than cancel it
     */
    void DropCheck(bool remove);

    Ptr<EnergySource> m_source; //!< the source this model draws from (SetEnergySource)
    uint32_t m_node{0};         //!< device index written in energy traces (SetNodeIndex)
    /** the components' draws, their sum, the open period's start, the closed periods' J */
    D2dDrawLedger m_ledger;
    bool m_depleted{false};        //!< the source was depleted: nothing is drawn any more
    bool m_inUpdate{false};        //!< inside a source update this model started: do not start one
    double m_depletionLevelJ{0.0}; //!< the source depletes at or below this energy (J)
    EventId m_depletionCheck;      //!< depletion check of the source, if this one's
    bool m_checkPending{false};    //!< m_depletionCheck is scheduled and has not run
    std::shared_ptr<Siblings> m_siblings; //!< the D2D models of the source, shared
    bool m_siblingsStale{true};           //!< look the siblings up again before use
    std::vector<std::function<void()>> m_depletionCallbacks; //!< AddDepletionCallback()'s
    /** the EnergyEvent trace source (EnergyEventTracedCallback) */
    TracedCallback<Time, uint32_t, const std::string&, double, double, Time, double> m_energyTrace;
};

} // namespace ns3

#endif /* D2D_ENERGY_MODEL_H */
