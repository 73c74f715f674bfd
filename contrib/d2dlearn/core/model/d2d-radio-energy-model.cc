/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-radio-energy-model.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRadioEnergyModel");
NS_OBJECT_ENSURE_REGISTERED(D2dRadioEnergyModel);

TypeId
D2dRadioEnergyModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dRadioEnergyModel")
            .SetParent<D2dEnergyModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dRadioEnergyModel>()
            .AddAttribute("Model",
                          "How transmit/receive energy is computed: Power (tx power / PA "
                          "efficiency + TxCircuitPowerW), Constant (TxCircuitPowerW while "
                          "transmitting, as ns-3's WifiRadioEnergyModel without a "
                          "TxCurrentModel) or FirstOrder (E_elec k + eps_amp k d^2).",
                          EnumValue(D2dRadioEnergyModel::POWER),
                          D2dMakeEnumAccessor(&D2dRadioEnergyModel::m_model),
                          MakeEnumChecker(D2dRadioEnergyModel::POWER,
                                          "Power",
                                          D2dRadioEnergyModel::CONSTANT,
                                          "Constant",
                                          D2dRadioEnergyModel::FIRST_ORDER,
                                          "FirstOrder"))
            .AddAttribute("ComponentPrefix",
                          "Prefix of the energy components <prefix>_tx, <prefix>_rx and "
                          "<prefix>_idle: radio (the D2D radio) or d2s (the device-to-server "
                          "radio).",
                          StringValue("radio"),
                          MakeStringAccessor(&D2dRadioEnergyModel::m_prefix),
                          MakeStringChecker())
            .AddAttribute("PaEfficiency",
                          "Power amplifier efficiency in (0, 1] (Power model). Default: ns-3's "
                          "LinearWifiTxCurrentModel Eta.",
                          DoubleValue(D2dRadioEnergyModel::DEFAULT_PA_EFFICIENCY),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_paEfficiency),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("TxCircuitPowerW",
                          "Power drawn while transmitting besides the power amplifier's, W "
                          "(Power model); the whole transmit draw (Constant model). Default: "
                          "ns-3's LinearWifiTxCurrentModel IdleCurrent (0.273333 A) x 3 V.",
                          DoubleValue(D2dRadioEnergyModel::DEFAULT_TX_CIRCUIT_POWER_W),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_txCircuitW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("RxPowerW",
                          "Power drawn per ongoing reception, W (Power and Constant models). "
                          "Default: ns-3's WifiRadioEnergyModel RxCurrentA (0.313 A) x 3 V.",
                          DoubleValue(D2dRadioEnergyModel::DEFAULT_RX_POWER_W),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_rxPowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("IdlePowerW",
                          "Power drawn while the radio is on and neither transmits nor "
                          "receives (idle listening), W. Default: ns-3's "
                          "WifiRadioEnergyModel IdleCurrentA (0.273 A) x BasicEnergySource's "
                          "BasicEnergySupplyVoltageV (3 V), what the Wi-Fi backend charges.",
                          DoubleValue(D2dRadioEnergyModel::DEFAULT_IDLE_POWER_W),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_idlePowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("SleepPowerW",
                          "Power drawn while the radio sleeps (its DRX cycle, D2dDrx), W. "
                          "Default: ns-3's WifiRadioEnergyModel SleepCurrentA (0.033 A) x 3 V.",
                          DoubleValue(D2dRadioEnergyModel::DEFAULT_SLEEP_POWER_W),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_sleepPowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("SleepTransitionTime",
                          "Ramp-down into sleep plus ramp-up out of it, in all (3GPP TR 38.840 "
                          "sec. 8.1's total transition time); half each way. A gap shorter than "
                          "this is not slept. Default 0 (ns-3's WifiPhy sleeps at once).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&D2dRadioEnergyModel::m_transitionTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("SleepTransitionEnergyJ",
                          "Energy of the two ramps on top of the sleep draw, J (TR 38.840 sec. "
                          "8.1's additional transition energy); needs a SleepTransitionTime.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_transitionJ),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("ElecJPerBit",
                          "E_elec of the first-order radio model, J/bit.",
                          DoubleValue(50e-9),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_elecJPerBit),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("AmpJPerBitM2",
                          "eps_amp of the first-order radio model, J/bit/m^2.",
                          DoubleValue(100e-12),
                          MakeDoubleAccessor(&D2dRadioEnergyModel::m_ampJPerBitM2),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

D2dRadioEnergyModel::D2dRadioEnergyModel()
{
    NS_LOG_FUNCTION(this);
}

double
D2dRadioEnergyModel::GetTxDrawW(double txPowerW, double rateBps, double distanceM) const
{
    if (m_model == FIRST_ORDER)
    {
        // First-order radio model: E_tx(k, d) = E_elec k + eps_amp k d^2 for k = rate x time
        // bits, i.e. a constant draw of rate (E_elec + eps_amp d^2).
        return rateBps * (m_elecJPerBit + m_ampJPerBitM2 * distanceM * distanceM);
    }
    if (m_model == CONSTANT)
    {
        return m_txCircuitW; // WifiRadioEnergyModel without a TxCurrentModel: TxCurrentA x V
    }
    return txPowerW / m_paEfficiency + m_txCircuitW;
}

double
D2dRadioEnergyModel::GetRxDrawW(double rateBps) const
{
    if (m_model == FIRST_ORDER)
    {
        // First-order radio model: E_rx(k) = E_elec k.
        return rateBps * m_elecJPerBit;
    }
    return m_rxPowerW;
}

std::string
D2dRadioEnergyModel::CheckStateOrder(double txDrawW,
                                     double rxDrawW,
                                     double idleW,
                                     double radiatedW,
                                     double sleepW)
{
    auto broken = [](const char* higher, double a, const char* lower, double b) {
        std::ostringstream os;
        os << higher << " " << a << " W < " << lower << " " << b << " W";
        return os.str();
    };
    // A transmitter draws at least what it radiates.
    if (txDrawW < radiatedW)
    {
        return broken("transmit", txDrawW, "radiated", radiatedW);
    }
    // Real devices: transmit >= receive >= idle (listening) >= off (0 W). The first-order
    // model's transmit draw is never below its receive draw (E_elec + eps_amp d^2 >= E_elec).
    if (txDrawW < rxDrawW)
    {
        return broken("transmit", txDrawW, "receive", rxDrawW);
    }
    if (rxDrawW < idleW)
    {
        return broken("receive", rxDrawW, "idle", idleW);
    }
    // Listening draws more than sleeping; a model with neither term (0 and 0) keeps the order.
    if (idleW <= sleepW && !(idleW == 0.0 && sleepW == 0.0))
    {
        std::ostringstream os;
        os << "idle " << idleW << " W <= sleep " << sleepW << " W";
        return os.str();
    }
    return "";
}

std::string
D2dRadioEnergyModel::CheckStateOrder(double txPowerW, double rateBps, bool sleeps) const
{
    // The first-order model's transmit draw at d = 0, its lowest.
    // The first-order model radiates eps_amp k d^2 of its draw, not the radio's TxPower.
    return CheckStateOrder(GetTxDrawW(txPowerW, rateBps, 0.0),
                           GetRxDrawW(rateBps),
                           m_idlePowerW,
                           m_model == FIRST_ORDER ? 0.0 : txPowerW,
                           sleeps ? m_sleepPowerW : 0.0);
}

void
D2dRadioEnergyModel::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_prefix != "radio" && m_prefix != "d2s",
                    "D2dRadioEnergyModel: ComponentPrefix must be radio or d2s, got " << m_prefix);
    UpdateIdle();
}

std::string
D2dRadioEnergyModel::GetIdleComponent() const
{
    return m_prefix + "_idle";
}

void
D2dRadioEnergyModel::NotifyOff()
{
    NS_LOG_FUNCTION(this);
    m_off = true;
    m_transmitting = false;
    m_nRx = 0;
    m_rxDrawW = 0.0;
    SetDraw(m_prefix + "_tx", 0.0);
    SetDraw(m_prefix + "_rx", 0.0);
    SetDraw(GetIdleComponent(), 0.0);
    SetDraw(m_prefix + "_sleep", 0.0);
    SetDraw(m_prefix + "_transition", 0.0);
}

void
D2dRadioEnergyModel::NotifyOn()
{
    NS_LOG_FUNCTION(this);
    if (!m_off || IsDepleted())
    {
        return;
    }
    m_off = false;
    m_sleep = AWAKE; // until its DRX says otherwise (D2dDrx::Rejoined)
    UpdateIdle();
}

void
D2dRadioEnergyModel::NotifyTxStart(double txPowerW, double rateBps, double distanceM)
{
    NS_LOG_FUNCTION(this << txPowerW << rateBps << distanceM);
    m_transmitting = true;
    SetDraw(GetIdleComponent(), 0.0);
    SetDraw(m_prefix + "_tx", GetTxDrawW(txPowerW, rateBps, distanceM));
}

void
D2dRadioEnergyModel::NotifyTxEnd()
{
    NS_LOG_FUNCTION(this);
    m_transmitting = false;
    SetDraw(m_prefix + "_tx", 0.0);
    UpdateIdle();
}

void
D2dRadioEnergyModel::NotifyRxStart(double rateBps)
{
    NS_LOG_FUNCTION(this << rateBps);
    ++m_nRx;
    m_rxDrawW += GetRxDrawW(rateBps);
    SetDraw(GetIdleComponent(), 0.0);
    SetDraw(m_prefix + "_rx", m_rxDrawW);
}

void
D2dRadioEnergyModel::NotifyRxEnd(double rateBps)
{
    NS_LOG_FUNCTION(this << rateBps);
    NS_ASSERT(m_nRx > 0);
    --m_nRx;
    m_rxDrawW = m_nRx == 0 ? 0.0 : std::max(0.0, m_rxDrawW - GetRxDrawW(rateBps));
    SetDraw(m_prefix + "_rx", m_rxDrawW);
    UpdateIdle();
}

void
D2dRadioEnergyModel::NotifySleepState(SleepState state)
{
    NS_LOG_FUNCTION(this << state);
    NS_ABORT_MSG_IF(state != AWAKE && (m_transmitting || m_nRx > 0),
                    "D2dRadioEnergyModel: a radio cannot sleep while it transmits or receives");
    m_sleep = state;
    if (m_off)
    {
        return;
    }
    if (state != AWAKE)
    {
        SetDraw(GetIdleComponent(), 0.0);
    }
    SetDraw(m_prefix + "_transition", state == TRANSITION ? GetTransitionPowerW() : 0.0);
    SetDraw(m_prefix + "_sleep", state == ASLEEP ? m_sleepPowerW : 0.0);
    UpdateIdle();
}

Time
D2dRadioEnergyModel::GetSleepTransitionTime() const
{
    return m_transitionTime;
}

double
D2dRadioEnergyModel::GetSleepPowerW() const
{
    return m_sleepPowerW;
}

double
D2dRadioEnergyModel::GetIdlePowerW() const
{
    return m_idlePowerW;
}

double
D2dRadioEnergyModel::GetTransitionPowerW() const
{
    // TR 38.840 sec. 8.1: the transition's additional energy is spread over its time, on
    // top of the sleep draw.
    return m_transitionTime.IsStrictlyPositive()
               ? m_sleepPowerW + m_transitionJ / m_transitionTime.GetSeconds()
               : m_sleepPowerW;
}

void
D2dRadioEnergyModel::UpdateIdle()
{
    if (!m_off && m_sleep == AWAKE && !m_transmitting && m_nRx == 0)
    {
        SetDraw(GetIdleComponent(), m_idlePowerW);
    }
}

} // namespace ns3
