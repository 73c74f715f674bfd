/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-radio-profile.h"

#include "d2d-radio-energy-model.h"
#include "d2d-text.h"

#include <cmath>
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

/**
 * The nr-ue profile: 3GPP TR 38.840 (V16.0.0, 2019-06) sec. 8.1's UE power model for FR1, in
 * relative units (deep sleep = 1), at the reference configuration of its tables.
 */
namespace NrUe
{
/** One relative unit, W: 1 mA at BasicEnergySource's 3 V (an assumption, see the profile) */
constexpr double UNIT_W = 1e-3 * D2dRadioEnergyModel::DEFAULT_SUPPLY_VOLTAGE_V;

/**
 * \param units a power in TR 38.840's relative units
 * \return it in W
 */
constexpr double
W(double units)
{
    return units * UNIT_W;
}

/**
 * TR 38.840 gives the uplink at two transmit powers, 250 units at 0 dBm and 700 at 23 dBm. A
 * power amplifier's draw is linear in the radiated power P, so the draw is 250 units + 450
 * units x P / P(23 dBm): the Power model's TxPower / PaEfficiency + TxCircuitPowerW with
 * TxCircuitPowerW = 250 units and PaEfficiency = P(23 dBm) / 450 units (0.148 at 3 mW per
 * unit). Between the two points TR 38.840 says nothing; this reading is exact at both (a line
 * in dBm, the other reading, would not be a draw linear in P).
 * \return PaEfficiency
 */
double
PaEfficiency()
{
    const double p23W = std::pow(10.0, 23.0 / 10.0) / 1000.0;
    return p23W / W(700 - 250);
}
} // namespace NrUe

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
        {"nr-ue",
         "3GPP NR UE",
         "3GPP TR 38.840 V16.0.0 (2019-06), \"Study on User Equipment (UE) power saving in NR\", "
         "sec. 8.1, FR1; the scale, 1 unit = 1 mA at 3 V, is an assumption: TR 38.840 gives "
         "relative powers only, and A. Sen et al.'s ns-3 mmWave energy module (\"Implementation "
         "of mmWave-energy Module and Power Saving Schemes in ns-3\", WNS3 2022) draws its sleep "
         "states' 1, 20 and 45 units as 1, 20 and 45 mA",
         "relative units: PDCCH-only 100, PDCCH+PDSCH 300, UL 250 at 0 dBm and 700 at 23 dBm, "
         "deep sleep 1 with 450 units x ms over a 20 ms transition (light sleep 20, 100 over 6 "
         "ms, and micro sleep 45 not modelled)",
         {{"Model", "Power"},
          {"PaEfficiency", Exact(NrUe::PaEfficiency())},
          {"TxCircuitPowerW", Exact(NrUe::W(250))},
          {"RxPowerW", Exact(NrUe::W(300))},
          {"IdlePowerW", Exact(NrUe::W(100))},
          {"SleepPowerW", Exact(NrUe::W(1))},
          {"SleepTransitionTime", "20ms"},
          {"SleepTransitionEnergyJ", Exact(NrUe::W(450) * 1e-3)}}},
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
