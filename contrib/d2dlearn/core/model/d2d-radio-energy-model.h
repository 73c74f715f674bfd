/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RADIO_ENERGY_MODEL_H
#define D2D_RADIO_ENERGY_MODEL_H

#include "d2d-energy-model.h"

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
 * Idle draw is IdlePowerW whenever the radio neither transmits nor receives.
 * Components: "<prefix>_tx", "<prefix>_rx" and "radio_idle", prefix = "radio" for the D2D
 * radio and "d2s" for the device-to-server radio.
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
    /** \brief The radio is switched off: it draws nothing from now on. */
    void NotifyOff();
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

    Model m_model;
    std::string m_prefix;
    double m_paEfficiency;
    double m_txCircuitW;
    double m_rxPowerW;
    double m_idlePowerW;
    double m_elecJPerBit;
    double m_ampJPerBitM2;
    bool m_transmitting{false};
    double m_rxDrawW{0.0}; //!< sum over ongoing receptions
    uint32_t m_nRx{0};
};

} // namespace ns3

#endif /* D2D_RADIO_ENERGY_MODEL_H */
