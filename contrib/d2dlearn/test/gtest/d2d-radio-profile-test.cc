/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the radio profiles (D2dRadioProfile) and the state order of
 * D2dRadioEnergyModel:
 * - every profile keeps transmit >= receive >= idle (>= off, 0 W) at the scenarios' default
 *   transmit power and link rate, and so do the model's attribute defaults (custom);
 * - ns3-wifi is ns-3's WifiRadioEnergyModel currents, with its LinearWifiTxCurrentModel for
 *   transmitting, times BasicEnergySource's supply voltage, all read from ns-3's TypeIds
 *   here, not from d2dlearn's constants;
 * - first-order is Heinzelman et al.'s E_elec k + eps_amp k d^2 and E_elec k, by hand;
 * - nr-ue is 3GPP TR 38.840's relative powers times 3 mW, by hand;
 * - CheckStateOrder names the order a set of powers breaks, with the values;
 * - an unknown profile's error lists the choices.
 */

#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio-profile.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/** 20 dBm (the scenarios' default --txPowerDbm), W */
constexpr double TX_POWER_W = 0.1;
/** The scenarios' default link rate: 2 bit/s/Hz x 10 MHz, bit/s */
constexpr double RATE_BPS = 2e7;

/**
 * \param name a profile's name
 * \return a radio energy model with that profile's attributes set
 */
Ptr<D2dRadioEnergyModel>
WithProfile(const std::string& name)
{
    auto model = CreateObject<D2dRadioEnergyModel>();
    for (const auto& [attribute, value] : D2dRadioProfile::Get(name).attributes)
    {
        model->SetAttribute(attribute, StringValue(value));
    }
    return model;
}

/**
 * \param type an ns-3 TypeId name
 * \param attribute one of its double attributes
 * \return the attribute's default, as ns-3 declares it
 */
double
Ns3Default(const std::string& type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    const bool found = TypeId::LookupByName(type).LookupAttributeByName(attribute, &info);
    EXPECT_TRUE(found) << type << " has no attribute " << attribute;
    return found ? DynamicCast<const DoubleValue>(info.initialValue)->Get() : NAN;
}

/**
 * \param model a radio energy model
 * \param attribute one of its double attributes
 * \return its value
 */
double
Get(Ptr<D2dRadioEnergyModel> model, const std::string& attribute)
{
    DoubleValue v;
    model->GetAttribute(attribute, v);
    return v.Get();
}

TEST(D2dRadioProfileTest, EveryProfileKeepsTheOrderOfRealRadios)
{
    ASSERT_FALSE(D2dRadioProfile::GetAll().empty());
    for (const auto& profile : D2dRadioProfile::GetAll())
    {
        auto model = WithProfile(profile.name);
        const double tx = model->GetTxDrawW(TX_POWER_W, RATE_BPS, 0.0);
        const double rx = model->GetRxDrawW(RATE_BPS);
        const double idle = Get(model, "IdlePowerW");
        // transmit >= receive >= idle >= off (0 W), with the first-order model at d = 0 m,
        // its lowest transmit draw.
        EXPECT_GE(tx, rx) << profile.name;
        EXPECT_GE(rx, idle) << profile.name;
        EXPECT_GE(idle, 0.0) << profile.name;
        EXPECT_EQ(model->CheckStateOrder(TX_POWER_W, RATE_BPS), "") << profile.name;
        EXPECT_FALSE(profile.source.empty()) << profile.name << " cites no source";
        model->Dispose();
    }
    EXPECT_EQ(D2dRadioProfile::GetDefaultName(), "ns3-wifi");
}

TEST(D2dRadioProfileTest, Ns3WifiIsNs3sCurrentsTimesTheSupplyVoltage)
{
    // Read from ns-3, not from d2dlearn: WifiRadioEnergyModel's currents, its
    // LinearWifiTxCurrentModel's parameters and the default supply voltage of
    // BasicEnergySource.
    const double volts = Ns3Default("ns3::BasicEnergySource", "BasicEnergySupplyVoltageV");
    const double rxA = Ns3Default("ns3::WifiRadioEnergyModel", "RxCurrentA");
    const double idleA = Ns3Default("ns3::WifiRadioEnergyModel", "IdleCurrentA");
    const double eta = Ns3Default("ns3::LinearWifiTxCurrentModel", "Eta");
    const double linearV = Ns3Default("ns3::LinearWifiTxCurrentModel", "Voltage");
    const double linearIdleA = Ns3Default("ns3::LinearWifiTxCurrentModel", "IdleCurrent");
    auto model = WithProfile("ns3-wifi");
    for (const double txPowerW : {0.001, 0.04, TX_POWER_W, 1.0})
    {
        // LinearWifiTxCurrentModel::CalcTxCurrent, I = P / (V eta) + I_idle, drawn at the
        // source's voltage by WifiRadioEnergyModel.
        const double txA = txPowerW / (linearV * eta) + linearIdleA;
        EXPECT_NEAR(model->GetTxDrawW(txPowerW, RATE_BPS, 50.0), txA * volts, 1e-12)
            << txPowerW << " W radiated";
    }
    EXPECT_NEAR(model->GetRxDrawW(RATE_BPS), rxA * volts, 1e-12);
    EXPECT_NEAR(Get(model, "IdlePowerW"), idleA * volts, 1e-12);
    // Hand values with ns-3's defaults (eta 0.10, 0.273333 A, 0.313 A, 0.273 A at 3 V): at
    // 20 dBm 0.1 / 0.1 + 0.819999 W.
    EXPECT_NEAR(model->GetTxDrawW(TX_POWER_W, RATE_BPS, 0.0), 1.819999, 1e-12);
    EXPECT_NEAR(rxA * volts, 0.939, 1e-12);
    EXPECT_NEAR(idleA * volts, 0.819, 1e-12);
    model->Dispose();

    // The model's own defaults are the default profile's (custom starts there).
    auto defaults = WithProfile("custom");
    auto wifi = WithProfile("ns3-wifi");
    for (const double txPowerW : {0.001, TX_POWER_W, 1.0})
    {
        EXPECT_EQ(defaults->GetTxDrawW(txPowerW, RATE_BPS, 0.0),
                  wifi->GetTxDrawW(txPowerW, RATE_BPS, 0.0));
    }
    EXPECT_EQ(Get(defaults, "RxPowerW"), Get(wifi, "RxPowerW"));
    EXPECT_EQ(Get(defaults, "IdlePowerW"), Get(wifi, "IdlePowerW"));
    defaults->Dispose();
    wifi->Dispose();
}

TEST(D2dRadioProfileTest, FirstOrderIsHeinzelmansModelByHand)
{
    auto model = WithProfile("first-order");
    // E_tx(k, d) = E_elec k + eps_amp k d^2 over k = R t bits: a draw of R (E_elec + eps_amp
    // d^2). R = 1 Mbit/s, d = 100 m: 1e6 x (50e-9 + 100e-12 x 1e4) = 1.05 W; receiving
    // R E_elec = 0.05 W; no idle draw.
    EXPECT_NEAR(model->GetTxDrawW(TX_POWER_W, 1e6, 100.0), 1.05, 1e-12);
    EXPECT_NEAR(model->GetRxDrawW(1e6), 0.05, 1e-12);
    EXPECT_EQ(Get(model, "IdlePowerW"), 0.0);
    model->Dispose();
}

TEST(D2dRadioProfileTest, NrUeIsTr38840sRelativePowersTimesTheScale)
{
    // 3GPP TR 38.840 sec. 8.1, FR1, in relative units, at 1 unit = 1 mA x 3 V = 3 mW, by hand.
    auto model = WithProfile("nr-ue");
    const double unitW = 3e-3;
    // Uplink: 250 units at 0 dBm (1 mW), 700 at 23 dBm (199.526 mW), linear in the radiated
    // power between: at 20 dBm 250 + 450 x 100 / 199.526 = 475.534 units.
    EXPECT_NEAR(model->GetTxDrawW(1e-3, RATE_BPS, 0.0),
                250 * unitW + 450 * unitW * 1e-3 / 0.199526231,
                1e-9);
    EXPECT_NEAR(model->GetTxDrawW(0.199526231496888, RATE_BPS, 0.0), 700 * unitW, 1e-12);
    EXPECT_NEAR(model->GetTxDrawW(TX_POWER_W, RATE_BPS, 0.0), 475.534 * unitW, 1e-6);
    // PDCCH+PDSCH 300 receiving, PDCCH-only 100 listening, deep sleep 1.
    EXPECT_NEAR(model->GetRxDrawW(RATE_BPS), 300 * unitW, 1e-12);
    EXPECT_NEAR(Get(model, "IdlePowerW"), 100 * unitW, 1e-12);
    EXPECT_NEAR(model->GetSleepPowerW(), 1 * unitW, 1e-12);
    // Deep sleep's transition: 20 ms in all, 450 units x ms on top of the sleep draw, so the
    // radio draws 1 + 450 / 20 = 23.5 units while ramping.
    EXPECT_EQ(model->GetSleepTransitionTime(), MilliSeconds(20));
    EXPECT_NEAR(model->GetTransitionPowerW(), 23.5 * unitW, 1e-12);
    // TR 38.840's uplink at 0 dBm (250) is below its PDSCH reception (300): the order breaks
    // under 300 - 250 = 50 units of amplifier draw, 199.526 mW / 9 = 13.46 dBm.
    const double orderedFromW = 0.199526231496888 / 9;
    EXPECT_EQ(model->CheckStateOrder(orderedFromW * 1.001, RATE_BPS), "");
    EXPECT_EQ(model->CheckStateOrder(orderedFromW * 0.999, RATE_BPS).rfind("transmit ", 0), 0u);
    model->Dispose();
}

TEST(D2dRadioProfileTest, CheckStateOrderNamesTheBrokenOrder)
{
    EXPECT_EQ(D2dRadioEnergyModel::CheckStateOrder(1.14, 0.939, 0.819), "");
    EXPECT_EQ(D2dRadioEnergyModel::CheckStateOrder(1.0, 1.0, 1.0), ""); // equal is ordered
    // d2dlearn's former defaults: transmit 0.3 W, receive 0.1 W, idle 0.819 W.
    EXPECT_EQ(D2dRadioEnergyModel::CheckStateOrder(0.3, 0.1, 0.819),
              "receive 0.1 W < idle 0.819 W");
    EXPECT_EQ(D2dRadioEnergyModel::CheckStateOrder(0.5, 0.9, 0.1),
              "transmit 0.5 W < receive 0.9 W");
    // A transmitter that would draw less than it radiates.
    EXPECT_EQ(D2dRadioEnergyModel::CheckStateOrder(1.14, 0.939, 0.819, 2.0),
              "transmit 1.14 W < radiated 2 W");
    // ns3-wifi below 10.8 dBm: transmit under receive (ns-3's own model).
    auto wifi = WithProfile("ns3-wifi");
    EXPECT_EQ(wifi->CheckStateOrder(0.001, RATE_BPS), "transmit 0.829999 W < receive 0.939 W");
    wifi->Dispose();

    auto model = CreateObject<D2dRadioEnergyModel>();
    model->SetAttribute("Model", StringValue("Power"));
    model->SetAttribute("PaEfficiency", DoubleValue(0.5));
    model->SetAttribute("TxCircuitPowerW", DoubleValue(0.1));
    model->SetAttribute("RxPowerW", DoubleValue(0.25));
    model->SetAttribute("IdlePowerW", DoubleValue(0.2));
    // Power model: 0.1 W / 0.5 + 0.1 W = 0.3 W >= 0.25 W at 20 dBm; at 0 dBm 0.102 W < 0.25 W.
    EXPECT_EQ(model->CheckStateOrder(0.1, RATE_BPS), "");
    EXPECT_EQ(model->CheckStateOrder(0.001, RATE_BPS), "transmit 0.102 W < receive 0.25 W");
    model->Dispose();
}

TEST(D2dRadioProfileTest, UnknownProfileListsTheChoices)
{
    try
    {
        D2dRadioProfile::Get("bogus");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "no radio profile bogus (ns3-wifi, nr-ue, first-order or custom)");
    }
    EXPECT_TRUE(D2dRadioProfile::IsCustom("custom"));
    EXPECT_FALSE(D2dRadioProfile::IsCustom("ns3-wifi"));
}

} // namespace
