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
 * \brief Energy of a D2D (or D2S) radio in its states: off, idle (listening), receive and
 * transmit.
 *
 * Three ways to cost a transmission, selected by the "Model" attribute:
 * - Power (default): drawn power while transmitting = TxPower / PaEfficiency +
 *   TxCircuitPowerW (the power amplifier's draw for the radiated power, plus the rest of the
 *   radio), so the energy of a transmission is that power times its airtime; receiving
 *   draws RxPowerW per ongoing reception. With the defaults this is ns-3's
 *   LinearWifiTxCurrentModel, I = P / (V eta) + I_idle (eta 0.10, I_idle 0.273333 A, V 3 V).
 * - Constant: transmitting draws TxCircuitPowerW whatever the radiated power, as ns-3's
 *   WifiRadioEnergyModel draws TxCurrentA x V when it has no TxCurrentModel; receiving draws
 *   RxPowerW per ongoing reception.
 * - FirstOrder: the first-order radio model (Heinzelman, Chandrakasan, Balakrishnan,
 *   "Energy-Efficient Communication Protocol for Wireless Microsensor Networks", HICSS 2000,
 *   eqs. (1) and (2)), E_tx(k, d) = E_elec k + eps_amp k d^2 and E_rx(k) = E_elec k for k bits
 *   over distance d. At a link rate of R bit/s this is a draw of R (E_elec + eps_amp d^2)
 *   while transmitting and R E_elec per reception, so a message of k bits costs exactly the
 *   formula.
 * Idle (listening) draw is IdlePowerW whenever the radio is on and neither transmits nor
 * receives, from Start() until the radio is switched off (NotifyOff()) or its battery is
 * depleted; a radio that is off draws nothing.
 *
 * The defaults are the "ns3-wifi" radio profile (D2dRadioProfile): ns-3's
 * WifiRadioEnergyModel (RxCurrentA 0.313 A, IdleCurrentA 0.273 A) with its
 * LinearWifiTxCurrentModel for transmitting, times the default supply voltage of ns-3's
 * BasicEnergySource (3.0 V), what the Wi-Fi backend (--backend=wifi) charges too, so that
 * both backends charge each state the same. At the scenarios' 20 dBm: transmit 1.82 W >=
 * receive 0.939 W >= idle 0.819 W >= off, as on real devices. CheckStateOrder() says whether
 * a set of values keeps that order.
 *
 * Sleep. A radio that its DRX cycle (D2dDrx) puts to sleep draws SleepPowerW while asleep;
 * going to sleep and waking take SleepTransitionTime in all (half each way, the "total
 * transition time" of 3GPP TR 38.840 sec. 8.1, which includes ramp-down and ramp-up) and
 * cost SleepTransitionEnergyJ on top of the sleep draw (TR 38.840's "additional transition
 * energy"): during a transition the radio draws SleepPowerW + SleepTransitionEnergyJ /
 * SleepTransitionTime. The defaults (ns3-wifi) are ns-3's SleepCurrentA x 3 V = 0.099 W and
 * no transition (ns-3's WifiPhy sleeps and resumes at once). A depleted or switched-off
 * radio is off and draws 0 W.
 *
 * Components: "<prefix>_tx", "<prefix>_rx", "<prefix>_idle", "<prefix>_sleep" and
 * "<prefix>_transition", prefix = "radio" for the D2D radio and "d2s" for the
 * device-to-server radio (energy.csv's `component`).
 */
class D2dRadioEnergyModel : public D2dEnergyModel
{
  public:
    /** How transmit and receive energy are computed. */
    enum Model
    {
        POWER,       //!< TxPower / PaEfficiency + TxCircuitPowerW while transmitting
        FIRST_ORDER, //!< E_tx = E_elec k + eps_amp k d^2, E_rx = E_elec k
        CONSTANT     //!< TxCircuitPowerW while transmitting, whatever the radiated power
    };

    /**
     * Supply voltage the default powers are computed with, V: the default of ns-3's
     * BasicEnergySource attribute BasicEnergySupplyVoltageV (src/energy/model/
     * basic-energy-source.cc), which is also D2dEnergySource's SupplyVoltageV default. The
     * Wi-Fi backend draws I x V of the device's source, so with another supply voltage (or a
     * LiIonEnergySource, whose voltage falls as it discharges) the two backends' draws differ
     * unless the powers are set to match.
     */
    static constexpr double DEFAULT_SUPPLY_VOLTAGE_V = 3.0;
    /**
     * Default IdlePowerW, W: ns-3's WifiRadioEnergyModel attribute IdleCurrentA (0.273 A,
     * src/wifi/model/wifi-radio-energy-model.cc, the same from ns-3.37 to ns-3.48) x 3.0 V.
     */
    static constexpr double DEFAULT_IDLE_POWER_W = 0.273 * DEFAULT_SUPPLY_VOLTAGE_V;
    /** Default RxPowerW, W: WifiRadioEnergyModel's RxCurrentA (0.313 A) x 3.0 V. */
    static constexpr double DEFAULT_RX_POWER_W = 0.313 * DEFAULT_SUPPLY_VOLTAGE_V;
    /**
     * Default TxCircuitPowerW, W: the idle current of ns-3's LinearWifiTxCurrentModel
     * (IdleCurrent 0.273333 A, src/wifi/model/wifi-tx-current-model.cc, ns-3.37 to 3.48)
     * x 3.0 V, the draw of its transmit current besides the amplifier's.
     */
    static constexpr double DEFAULT_TX_CIRCUIT_POWER_W = 0.273333 * DEFAULT_SUPPLY_VOLTAGE_V;
    /** Default PaEfficiency: LinearWifiTxCurrentModel's Eta. */
    static constexpr double DEFAULT_PA_EFFICIENCY = 0.10;
    /** Default SleepPowerW, W: WifiRadioEnergyModel's SleepCurrentA (0.033 A) x 3.0 V. */
    static constexpr double DEFAULT_SLEEP_POWER_W = 0.033 * DEFAULT_SUPPLY_VOLTAGE_V;

    /**
     * \brief Whether a radio's state powers keep the order of real devices: transmit >=
     * receive >= idle >= off (0 W), off being 0 W by construction, and a transmit draw no
     * lower than the power it radiates. With the first-order
     * model, transmit >= receive always holds (E_elec + eps_amp d^2 >= E_elec); it has no
     * idle term, and an idle draw above its receive draw at the link rate breaks the order as
     * with the other models.
     * \param txDrawW the transmit draw at the radio's transmit power (GetTxDrawW), W
     * \param rxDrawW the draw of one reception (GetRxDrawW), W
     * \param idleW the idle draw, W
     * \param radiatedW the power the transmitter radiates, W
     * \param sleepW the sleep draw, W: idle > sleep, unless both are 0 (a model without
     *        idle or sleep term, as the first-order model)
     * \return "" if ordered, else which order is broken, with the values ("receive 0.1 W <
     *         idle 0.819 W")
     */
    static std::string CheckStateOrder(double txDrawW,
                                       double rxDrawW,
                                       double idleW,
                                       double radiatedW = 0.0,
                                       double sleepW = 0.0);
    /**
     * \brief CheckStateOrder() on this model's attributes.
     * \param txPowerW radiated power of the radio's transmissions, W
     * \param rateBps link rate, bit/s (first-order model)
     * \param sleeps whether the radio may sleep (a DRX): idle > sleep is checked only then
     * \return as CheckStateOrder()
     */
    std::string CheckStateOrder(double txPowerW, double rateBps, bool sleeps = true) const;

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
    /**
     * \brief The radio is back after NotifyOff() (its device rejoined): it draws its idle
     * power again (if awake; a DRX sleep state is set again by D2dDrx).
     */
    void NotifyOn();
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

    /** The radio's sleep state, as D2dRadio sets it. */
    enum SleepState
    {
        AWAKE,      //!< on: idle, receiving or transmitting
        TRANSITION, //!< going to sleep or waking: SleepPowerW + transition energy / time
        ASLEEP      //!< asleep: SleepPowerW
    };

    /**
     * \brief The radio enters a sleep state (from AWAKE only while it neither transmits nor
     * receives).
     * \param state the new state
     */
    void NotifySleepState(SleepState state);
    /** \return SleepTransitionTime: the whole ramp-down plus ramp-up */
    Time GetSleepTransitionTime() const;
    /** \return the SleepPowerW attribute, W */
    double GetSleepPowerW() const;
    /** \return the IdlePowerW attribute, W */
    double GetIdlePowerW() const;
    /** \return the draw during a transition, W: SleepPowerW + SleepTransitionEnergyJ /
     *  SleepTransitionTime (SleepPowerW without a transition time) */
    double GetTransitionPowerW() const;

  private:
    /** \brief Set the idle draw if the radio neither transmits nor receives. */
    void UpdateIdle();

    Model m_model;              //!< how transmit and receive energy are computed
    std::string m_prefix;       //!< component prefix: "radio" (D2D) or "d2s"
    double m_paEfficiency;      //!< power amplifier efficiency, (0, 1]
    double m_txCircuitW;        //!< circuit power while transmitting, W
    double m_rxPowerW;          //!< power per ongoing reception, W
    double m_idlePowerW;        //!< power while on, neither transmitting nor receiving, W
    double m_sleepPowerW;       //!< power while asleep, W
    Time m_transitionTime;      //!< ramp-down plus ramp-up into and out of sleep
    double m_transitionJ;       //!< energy of the two ramps on top of the sleep draw, J
    SleepState m_sleep{AWAKE};  //!< the sleep state
    double m_elecJPerBit;       //!< E_elec of the first-order model, J/bit
    double m_ampJPerBitM2;      //!< eps_amp of the first-order model, J/bit/m^2
    bool m_transmitting{false}; //!< a transmission is ongoing
    bool m_off{false};          //!< switched off (NotifyOff): no idle draw any more
    double m_rxDrawW{0.0};      //!< sum over ongoing receptions, W
    uint32_t m_nRx{0};          //!< number of ongoing receptions
};

} // namespace ns3

#endif /* D2D_RADIO_ENERGY_MODEL_H */
