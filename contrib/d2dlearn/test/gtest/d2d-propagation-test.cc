/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the radio environment's pure functions: the thermal noise k T0 B F
 * (D2dThermalNoise, hand-worked values from Python), a transmission's share of a band of K
 * sub-channels (D2dChannel::BandShare) and the preset table of D2dPropagationHelper (every
 * preset names ns-3 models this build has, and a TypeId of a preset's model finds it), and
 * TR 36.843's UE-to-UE path loss (WINNER+ B1 with its offsets) and LOS probability at
 * hand-worked points (Python, the formulas of D2dWinnerB1PropagationLossModel's description).
 */

#include "ns3/d2d-b1-channel-condition-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-propagation-helper.h"
#include "ns3/d2d-thermal-noise.h"
#include "ns3/d2d-winner-b1-propagation-loss-model.h"
#include "ns3/double.h"
#include "ns3/propagation-loss-model.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{

// k T0 = 1.380649e-23 x 290 = 4.0038821e-21 W/Hz (Python); at 10 MHz and NF 9 dB:
// 4.0038821e-21 x 1e7 x 10 ** 0.9 = 3.180396600537149e-13 W; one LTE resource block
// (180 kHz): 5.724713880966868e-15 W.
TEST(D2dThermalNoiseTest, HandWorkedValues)
{
    EXPECT_NEAR(D2dThermalNoise::PowerW(1.0, 0.0), 4.0038821e-21, 1e-12 * 4.0038821e-21);
    EXPECT_NEAR(D2dThermalNoise::PowerW(10e6, 9.0),
                3.180396600537149e-13,
                1e-12 * 3.180396600537149e-13);
    EXPECT_NEAR(D2dThermalNoise::PowerW(180e3, 9.0),
                5.724713880966868e-15,
                1e-12 * 5.724713880966868e-15);
    // -174 dBm/Hz, the rounded k T0 every link budget uses (0.02 dB off).
    EXPECT_NEAR(10 * std::log10(D2dThermalNoise::PowerW(1.0, 0.0) * 1e3), -174.0, 0.03);
}

// Linear in B, and 10 dB of noise figure is a factor 10.
TEST(D2dThermalNoiseTest, ScalesWithBandwidthAndFigure)
{
    const double base = D2dThermalNoise::PowerW(1e6, 5.0);
    EXPECT_NEAR(D2dThermalNoise::PowerW(4e6, 5.0), 4 * base, 1e-12 * base);
    EXPECT_NEAR(D2dThermalNoise::PowerW(1e6, 15.0), 10 * base, 1e-12 * base);
}

// min(m, K) / K on a finite band, the whole band (1) when K = 0.
TEST(D2dBandShareTest, ShareOfTheBand)
{
    EXPECT_EQ(D2dChannel::BandShare(0, 1), 1.0);
    EXPECT_EQ(D2dChannel::BandShare(0, 7), 1.0);
    EXPECT_EQ(D2dChannel::BandShare(4, 1), 0.25);
    EXPECT_EQ(D2dChannel::BandShare(16, 2), 0.125);
    EXPECT_EQ(D2dChannel::BandShare(4, 9), 1.0);
}

// Every preset: a unique name, an ns-3 PropagationLossModel and condition model this build
// has, a carrier for the models that have one, antennas above ground for the 3GPP ones; the
// default first.
TEST(D2dPropagationPresetsTest, EveryPresetNamesModelsOfThisBuild)
{
    const auto& presets = D2dPropagationHelper::GetPresets();
    ASSERT_FALSE(presets.empty());
    EXPECT_EQ(presets.front().name, "log-distance");
    std::set<std::string> names;
    for (const auto& p : presets)
    {
        EXPECT_TRUE(names.insert(p.name).second) << p.name;
        TypeId loss;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(p.lossModel, &loss)) << p.lossModel;
        EXPECT_TRUE(loss.IsChildOf(PropagationLossModel::GetTypeId())) << p.lossModel;
        EXPECT_FALSE(p.source.empty()) << p.name;
        if (!p.conditionModel.empty())
        {
            TypeId condition;
            EXPECT_TRUE(TypeId::LookupByNameFailSafe(p.conditionModel, &condition))
                << p.conditionModel;
            EXPECT_GT(p.deviceHeightM, 0.0) << p.name;
            EXPECT_TRUE(p.devicesOnly || p.serverHeightM > p.deviceHeightM) << p.name;
            EXPECT_GT(p.shadowing.sigmaLosDb, 0.0) << p.name;
            EXPECT_GT(p.shadowing.correlationLosM, 0.0) << p.name;
        }
        TypeId::AttributeInformation info;
        EXPECT_EQ(loss.LookupAttributeByName("Frequency", &info), p.frequencyHz > 0) << p.name;
        ASSERT_NE(D2dPropagationHelper::FindPreset(p.name), nullptr);
        EXPECT_EQ(D2dPropagationHelper::FindPreset(p.name)->lossModel, p.lossModel);
    }
    EXPECT_EQ(D2dPropagationHelper::FindPreset("no-such-preset"), nullptr);
}

// 1.5 m antennas (h' = 0.8 m), 2 GHz: d_BP = 4 x 0.8 x 0.8 x 2e9 / 3e8 = 17.07 m. Below 3 m
// free space; at 10 m LOS, B1 (55.72 dB) is below free space (58.44 dB): free space; 15 m
// LOS below the breakpoint; 100 m LOS beyond it; NLOS with the -5 dB offset; 700 MHz with
// its own NLOS coefficients.
TEST(D2dWinnerB1Test, HandWorkedLosses)
{
    auto model = CreateObject<D2dWinnerB1PropagationLossModel>();
    const double tol = 1e-9;
    EXPECT_NEAR(model->GetLossDb(2, 1.5, 1.5, true), 44.461799739838874, tol);
    EXPECT_NEAR(model->GetLossDb(10, 1.5, 1.5, true), 58.441199826559256, tol);
    EXPECT_NEAR(model->GetLossDb(15, 1.5, 1.5, true), 61.96302500767288, tol);
    EXPECT_NEAR(model->GetLossDb(100, 1.5, 1.5, true), 91.7258674383715, tol);
    EXPECT_NEAR(model->GetLossDb(10, 1.5, 1.5, false), 65.08023324184933, tol);
    EXPECT_NEAR(model->GetLossDb(100, 1.5, 1.5, false), 108.82683549503462, tol);
    EXPECT_NEAR(model->GetLossDb(300, 1.5, 1.5, false), 129.6992692517964, tol);
    model->SetAttribute("Frequency", DoubleValue(7e8));
    EXPECT_NEAR(model->GetLossDb(100, 1.5, 1.5, false), 95.79758127343815, tol);
    EXPECT_NEAR(model->GetLossDb(100, 1.5, 1.5, true), 90.49485115811724, tol);
    EXPECT_TRUE(D2dWinnerB1PropagationLossModel::IsStudiedCarrier(2e9));
    EXPECT_TRUE(D2dWinnerB1PropagationLossModel::IsStudiedCarrier(7.5e8));
    EXPECT_FALSE(D2dWinnerB1PropagationLossModel::IsStudiedCarrier(3.5e9));
}

// P_LOS = min(18 / d, 1)(1 - exp(-d / 36)) + exp(-d / 36): 1 up to 18 m, then falling.
TEST(D2dWinnerB1Test, LosProbability)
{
    EXPECT_DOUBLE_EQ(D2dB1ChannelConditionModel::LosProbability(10), 1.0);
    EXPECT_DOUBLE_EQ(D2dB1ChannelConditionModel::LosProbability(18), 1.0);
    EXPECT_NEAR(D2dB1ChannelConditionModel::LosProbability(50), 0.5195854136174696, 1e-12);
    EXPECT_NEAR(D2dB1ChannelConditionModel::LosProbability(200), 0.09351798732692024, 1e-12);
}

} // namespace
