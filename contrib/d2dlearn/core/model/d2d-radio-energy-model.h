/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RADIO_ENERGY_MODEL_H
#define D2D_RADIO_ENERGY_MODEL_H

#include "d2d-energy-model.h"

#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Energy of a D2D (or D2S) radio: transmit, receive and idle.
 *
 * Two ways to cost a transmission, selected by the "Model" attribute:
 * - Power: drawn power while transmitting = TxPower / PaEfficiency + TxCircuitPowerW, so
 *   the energy of a transmission is that power times its airtime; receiving draws
 *   RxPowerW per ongoing reception.
 * - FirstOrder: the first-order radio model, E_tx(k, d) = E_elec k + eps_amp k d^2 and
 *   E_rx(k) = E_elec k for k bits over distance d. At a link rate of R bit/s this is a
 *   draw of R (E_elec + eps_amp d^2) while transmitting and R E_elec per reception, so
 *   a message of k bits costs exactly the formula.
 * Idle (listening) draw is IdlePowerW whenever the radio is on and neither transmits nor
 * receives, from Start() until the radio is switched off (NotifyOff()) or its battery is
 * depleted; a radio that is off draws nothing. The default is what ns-3's
 * WifiRadioEnergyModel charges for its IDLE state with ns-3's defaults (see
 * DEFAULT_IDLE_POWER_W), so that an idle network costs the same on the channel backend as
 * over Wi-Fi (--backend=wifi).
 *
 * There is no sleep state: nothing in d2dlearn puts a channel radio to sleep (the protocols
 * keep their radios listening; a depleted or switched-off radio is off and draws 0 W), so
 * the model has no sleep power.
 *
 * Components: "<prefix>_tx", "<prefix>_rx" and "<prefix>_idle", prefix = "radio" for the
 * D2D radio and "d2s" for the device-to-server radio (energy.csv's `component`).
 */
class D2dRadioEnergyModel : public D2dEnergyModel
{
  public:
    /** How transmit and receive energy are computed. */
    enum Model
    {
        POWER,      //!< from transmit power, efficiency and airtime
        FIRST_ORDER //!< E_tx = E_elec k + eps_amp k d^2, E_rx = E_elec k
    };

    /**
     * Default IdlePowerW, W: ns-3's WifiRadioEnergyModel attribute IdleCurrentA (0.273 A,
     * src/wifi/model/wifi-radio-energy-model.cc, the same from ns-3.37 to ns-3.48) times the
     * default supply voltage of ns-3's BasicEnergySource (BasicEnergySupplyVoltageV = 3.0 V,
     * src/energy/model/basic-energy-source.cc), which is also D2dEnergySource's
     * SupplyVoltageV default: 0.819 W. The Wi-Fi backend draws I x V of the device's source,
     * so with another supply voltage (or a LiIonEnergySource, whose voltage falls as it
     * discharges) the two backends' idle draws differ unless IdlePowerW is set to match.
     */
    static constexpr double DEFAULT_IDLE_POWER_W = 0.273 * 3.0;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dRadioEnergyModel();

    /**
     * \brief Draw while transmitting.
     * \param txPowerW radiated power (W)
     * \param rateBps link rate (bit/s)
     * \param distanceM distance to the (farthest) receiver (m)
     * \return drawn power (W)
     */
    double GetTxDrawW(double txPowerW, double rateBps, double distanceM) const;
    /**
     * \param rateBps link rate (bit/s)
     * \return drawn power per ongoing reception (W)
     */
    double GetRxDrawW(double rateBps) const;

    /** \brief Start drawing idle power (call once the source is attached). */
    void Start();
    /** \brief The radio is switched off: it draws nothing from now on, idle power included. */
    void NotifyOff();
    /** \return the energy component of the idle state, "<prefix>_idle" */
    std::string GetIdleComponent() const;
    /** \brief A transmission starts (arguments as GetTxDrawW). */
    void NotifyTxStart(double txPowerW, double rateBps, double distanceM);
    /** \brief The transmission ends. */
    void NotifyTxEnd();
    /** \brief A reception starts. \param rateBps link rate (bit/s) */
    void NotifyRxStart(double rateBps);
    /** \brief A reception ends. \param rateBps link rate (bit/s) of that reception */
    void NotifyRxEnd(double rateBps);

  private:
    /** \brief Set the idle draw if the radio neither transmits nor receives. */
    void UpdateIdle();

    Model m_model;              //!< how transmit and receive energy are computed
    std::string m_prefix;       //!< component prefix: "radio" (D2D) or "d2s"
    double m_paEfficiency;      //!< power amplifier efficiency, (0, 1]
    double m_txCircuitW;        //!< circuit power while transmitting, W
    double m_rxPowerW;          //!< power per ongoing reception, W
    double m_idlePowerW;        //!< power while on, neither transmitting nor receiving, W
    double m_elecJPerBit;       //!< E_elec of the first-order model, J/bit
    double m_ampJPerBitM2;      //!< eps_amp of the first-order model, J/bit/m^2
    bool m_transmitting{false}; //!< a transmission is ongoing
    bool m_off{false};          //!< switched off (NotifyOff): no idle draw any more
    double m_rxDrawW{0.0};      //!< sum over ongoing receptions, W
    uint32_t m_nRx{0};          //!< number of ongoing receptions
};

} // namespace ns3

#endif /* D2D_RADIO_ENERGY_MODEL_H */
