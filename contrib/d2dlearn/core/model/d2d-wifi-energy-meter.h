/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_WIFI_ENERGY_METER_H
#define D2D_WIFI_ENERGY_METER_H

#include "d2d-ns3-compat.h"

#include "ns3/energy-source.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/wifi-phy-state.h"
#include "ns3/wifi-radio-energy-model.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Reports the energy that ns-3's WifiRadioEnergyModel draws from a device's energy
 * source as d2dlearn's energy events, in the components of the channel backend's radio
 * energy (D2dRadioEnergyModel): "<prefix>_tx" while the PHY transmits, "<prefix>_rx"
 * while it receives, "<prefix>_sleep" while it sleeps, "<prefix>_idle" in its other states
 * (idle, CCA busy, switching; nothing while it is off), prefix "radio" for the D2D radio and
 * "d2s" for the D2S radio. With ns-3's defaults CCA busy and switching draw the idle current
 * (0.273 A) and sleep 0.033 A.
 *
 * It draws nothing itself: the WifiRadioEnergyModel draws from the source (its currents
 * times the source's supply voltage) and turns the PHY off when the source is depleted, as
 * ns-3's WifiRadioEnergyModelHelper sets it up. The meter follows the model's
 * TotalEnergyConsumption: each increase is the energy of the state that just ended
 * (WifiRadioEnergyModel::ChangeState adds it before it changes the state), reported at
 * the time it ends. Flush() reports the state still open up to now, at its current, without
 * touching the model; the model's next increase, which covers that time too, is reported
 * less what Flush() reported of it, so that Flush() may be called at any time. The trace source has
 * the signature of D2dEnergyModel's EnergyEvent, so that the trace helper writes both alike.
 */
class D2dWifiEnergyMeter : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dWifiEnergyMeter();
    ~D2dWifiEnergyMeter() override;

    /**
     * \brief Follow a model.
     * \param model the Wi-Fi radio energy model (installed on source)
     * \param source the energy source it draws from
     * \param node the device index of the events
     * \param prefix "radio" (D2D) or "d2s" (device-to-server)
     */
    void Setup(Ptr<WifiRadioEnergyModel> model,
               Ptr<EnergySource> source,
               uint32_t node,
               const std::string& prefix);

    /**
     * \brief Report the energy of the state in force since the last report, up to now (at
     * any time: the model's next increase is reported less this).
     */
    void Flush();

    /**
     * \param state a PHY state
     * \param prefix "radio" or "d2s"
     * \return the energy component of that state ("" for off: no draw)
     */
    static std::string ComponentOf(WifiPhyState state, const std::string& prefix);

    /** \return energy reported so far, J */
    double GetTotalEnergyJ() const;
    /**
     * \brief Add the energy of the state in force since the last report, up to now, to its
     * component, without reporting it (the model and its source are not updated: the
     * traces are as without the call).
     * \param[in,out] byComponentJ energy per component (J), added to
     */
    void AddOpenEnergy(std::map<std::string, double>& byComponentJ) const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief TotalEnergyConsumption sink: the increase is the energy of the state ended. */
    void EnergyChanged(double oldJ, double newJ);
    /** \brief Report energyJ of state now. */
    void Report(WifiPhyState state, double energyJ);
    /** \return current of the state, A (the model's attributes) */
    double CurrentA(WifiPhyState state) const;

    Ptr<WifiRadioEnergyModel> m_model; //!< the model followed (Setup)
    Ptr<EnergySource> m_source;        //!< the source it draws from: voltage, remaining energy
    uint32_t m_node{0};                //!< the device index of the events
    std::string m_prefix{"radio"};     //!< component prefix: "radio" (D2D) or "d2s"
    Time m_last;                       //!< end of the last reported period
    double m_reportedJ{0};             //!< energy reported so far, J
    double m_flushedJ{0};   //!< reported by Flush() of the state still open in the model, J
    bool m_inUpdate{false}; //!< reading the source's remaining energy (re-entrant)
    /** the EnergyEvent trace source (D2dEnergyModel::EnergyEventTracedCallback) */
    TracedCallback<Time, uint32_t, const std::string&, double, double, Time, double> m_energyTrace;
};

} // namespace ns3

#endif /* D2D_WIFI_ENERGY_METER_H */
