/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ENERGY_MODEL_H
#define D2D_ENERGY_MODEL_H

#include "ns3/callback.h"
#include "ns3/device-energy-model.h"
#include "ns3/energy-source.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

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
 * duration of the period that just ended, remaining_j = the source's remaining energy.
 * On depletion the draw drops to zero for good and the depletion callbacks run.
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
     */
    typedef void (*EnergyEventTracedCallback)(Time time,
                                              uint32_t node,
                                              const std::string& component,
                                              double energyJ,
                                              double remainingJ);

    void SetEnergySource(Ptr<EnergySource> source) override;
    /** \return energy consumed so far, including the open period (J) */
    double GetTotalEnergyConsumption() const override;
    /** Not used: the draw is set per component; logs and ignores. */
    void ChangeState(int newState) override;
    void HandleEnergyDepletion() override;
    void HandleEnergyRecharged() override;
    void HandleEnergyChanged() override;

    /** \param index device index written in energy traces */
    void SetNodeIndex(uint32_t index);
    /** \return the device index */
    uint32_t GetNodeIndex() const;
    /** \param cb called once when the source is depleted */
    void AddDepletionCallback(Callback<void> cb);
    /** \return true once the source has been depleted */
    bool IsDepleted() const;
    /** \return the total draw now (W) */
    double GetPowerW() const;
    /** \brief Close the open period now (at the end of a run) so that it is reported. */
    void Flush();

  protected:
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
    double DoGetCurrentA() const override;
    /**
     * \brief Report the periods that end now.
     * \param updateSource bring the source up to date first
     */
    void ClosePeriod(bool updateSource);

    Ptr<EnergySource> m_source;
    uint32_t m_node{0};
    std::vector<std::pair<std::string, double>> m_draw; //!< (component, W)
    Time m_periodStart;
    double m_totalJ{0.0};
    bool m_depleted{false};
    bool m_inUpdate{false};
    std::vector<Callback<void>> m_depletionCallbacks;
    TracedCallback<Time, uint32_t, const std::string&, double, double> m_energyTrace;
};

} // namespace ns3

#endif /* D2D_ENERGY_MODEL_H */
