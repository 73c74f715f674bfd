/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-radio-profile.h"

#include "d2d-radio-energy-model.h"
#include "d2d-text.h"

#include <fmt/format.h>
#include <stdexcept>

namespace ns3
{

namespace
{

/** \return value as an attribute string that reads back to the same double */
std::string
Exact(double value)
{
    return fmt::format("{}", value);
}

} // namespace

const std::vector<D2dRadioProfile>&
D2dRadioProfile::GetAll()
{
    using M = D2dRadioEnergyModel;
    static const std::vector<D2dRadioProfile> table = {
        {"ns3-wifi",
         "ns-3 Wi-Fi",
         "ns-3 WifiRadioEnergyModel with its LinearWifiTxCurrentModel (ns-3.37 to 3.48), at "
         "BasicEnergySource's 3 V: what the Wi-Fi backend charges",
         "transmit I = P / (V eta) + I_idle, eta 0.10, I_idle 0.273333 A; RxCurrentA "
         "0.313 A, IdleCurrentA 0.273 A, SleepCurrentA 0.033 A; 3.0 V",
         {{"Model", "Power"},
          {"PaEfficiency", Exact(M::DEFAULT_PA_EFFICIENCY)},
          {"TxCircuitPowerW", Exact(M::DEFAULT_TX_CIRCUIT_POWER_W)},
          {"RxPowerW", Exact(M::DEFAULT_RX_POWER_W)},
          {"IdlePowerW", Exact(M::DEFAULT_IDLE_POWER_W)},
          {"SleepPowerW", Exact(M::DEFAULT_SLEEP_POWER_W)},
          {"SleepTransitionTime", "0s"},
          {"SleepTransitionEnergyJ", "0"}}},
        {"first-order",
         "First-order radio",
         "W. R. Heinzelman, A. Chandrakasan, H. Balakrishnan, \"Energy-Efficient Communication "
         "Protocol for Wireless Microsensor Networks\", HICSS 2000, eqs. (1) and (2)",
         "E_elec 50 nJ/bit, eps_amp 100 pJ/bit/m^2; E_Tx(k, d) = E_elec k + eps_amp k d^2, "
         "E_Rx(k) = E_elec k; no idle or sleep term",
         {{"Model", "FirstOrder"},
          {"ElecJPerBit", Exact(50e-9)},
          {"AmpJPerBitM2", Exact(100e-12)},
          {"IdlePowerW", "0"},
          {"SleepPowerW", "0"},
          {"SleepTransitionTime", "0s"},
          {"SleepTransitionEnergyJ", "0"}}},
        {"custom",
         "Custom",
         "--ns3::D2dRadioEnergyModel::NAME=VALUE; the defaults are ns3-wifi's",
         "",
         {}},
    };
    return table;
}

std::vector<std::string>
D2dRadioProfile::GetNames()
{
    std::vector<std::string> names;
    for (const auto& p : GetAll())
    {
        names.push_back(p.name);
    }
    return names;
}

const D2dRadioProfile&
D2dRadioProfile::Get(const std::string& name)
{
    for (const auto& p : GetAll())
    {
        if (p.name == name)
        {
            return p;
        }
    }
    throw std::invalid_argument("no radio profile " + name + " (" + D2dText::OrList(GetNames()) +
                                ")");
}

const std::vector<std::string>&
D2dRadioProfile::GetStateAttributes()
{
    static const std::vector<std::string> names = {"Model",
                                                   "PaEfficiency",
                                                   "TxCircuitPowerW",
                                                   "RxPowerW",
                                                   "IdlePowerW",
                                                   "SleepPowerW",
                                                   "SleepTransitionTime",
                                                   "SleepTransitionEnergyJ",
                                                   "ElecJPerBit",
                                                   "AmpJPerBitM2"};
    return names;
}

const std::string&
D2dRadioProfile::GetDefaultName()
{
    return GetAll().front().name;
}

bool
D2dRadioProfile::IsCustom(const std::string& name)
{
    return name == "custom";
}

} // namespace ns3
