/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-propagation-options.h"

#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/channel-condition-model.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-winner-b1-propagation-loss-model.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/three-gpp-propagation-loss-model.h"

#include <fmt/format.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPropagationOptions");

namespace
{
/** \return the presets' names, joined for a help text or an error message */
std::string
PresetNames()
{
    std::string names;
    for (const auto& p : D2dPropagationHelper::GetPresets())
    {
        names += (names.empty() ? "" : ", ") + p.name;
    }
    return names;
}
} // namespace

void
D2dPropagationOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags.Add("propagation",
              fmt::format("The radio environment of both backends: a preset ({}) or an ns-3 "
                          "PropagationLossModel by TypeId, e.g. "
                          "ns3::Cost231PropagationLossModel (its attributes: "
                          "--ns3::Class::Attribute)",
                          PresetNames()),
              propagation);
    flags
        .Add("frequencyHz",
             "Carrier of the path loss model, Hz (0: the preset's: friis 5.15e9, 3gpp-* 3.5e9, "
             "3gpp-v2v-* 5.9e9, d2d-3gpp 2e9)",
             frequencyHz)
        .Sets("ns3::ThreeGppPropagationLossModel::Frequency")
        .Sets("ns3::FriisPropagationLossModel::Frequency")
        .Sets("ns3::D2dWinnerB1PropagationLossModel::Frequency")
        .Range(0, 1e12);
    flags
        .Add("deviceHeightM",
             "Antenna height of the devices, m (0: the preset's: 1.5 m for 3gpp-* and d2d-3gpp, "
             "1.6 m for 3gpp-v2v-*, the plane z = 0 otherwise)",
             deviceHeightM)
        .Range(0, 1e4);
    flags
        .Add("shadowing",
             "Shadowing (preset: the preset's, TR 38.901's sigma and d_cor by LOS state for "
             "3gpp-*; none; log-normal: "
             "--shadowingSigmaDb with Gudmundson's correlation over --shadowingCorrelationM, "
             "in place of the model's own)",
             shadowing)
        .Choices({"preset", "none", "log-normal"});
    flags.Add("shadowingSigmaDb", "Log-normal shadowing: standard deviation, dB", shadowingSigmaDb)
        .Sets("ns3::D2dShadowingLossModel::SigmaDb")
        .Range(0, 30);
    flags
        .Add("shadowingCorrelationM",
             "Log-normal shadowing: decorrelation distance (correlation 1/e), m",
             shadowingCorrelationM)
        .Sets("ns3::D2dShadowingLossModel::CorrelationDistanceM")
        .Range(1e-3, 1e6);
    flags
        .Add("nakagamiM",
             "Nakagami-m fast fading on every link, m >= 0.5 (1: Rayleigh; 0: none)",
             nakagamiM)
        .Sets("ns3::NakagamiPropagationLossModel::m0")
        .Sets("ns3::NakagamiPropagationLossModel::m1")
        .Sets("ns3::NakagamiPropagationLossModel::m2")
        .Range(0, 1000);
    flags
        .Add("coherenceTime",
             "Channel backend, fading: a link's RSS is held for blocks of this length (0: "
             "drawn at each use)",
             coherenceTime)
        .Sets("ns3::PropagationRssModel::CoherenceTime")
        .Range(0, 1e9);
    flags
        .Add("noise",
             "sigma^2 of eq. (18): constant (--noisePowerW, whatever the bandwidth) or thermal "
             "(k T0 B F over the bandwidth a transmission occupies, B m / K on a finite band)",
             noise)
        .Sets("ns3::D2dChannel::NoiseModel")
        .Choices({"constant", "thermal"});
    flags.Add("noiseFigureDb", "Thermal noise: the receivers' noise figure, dB", noiseFigureDb)
        .Sets("ns3::D2dChannel::NoiseFigureDb")
        .Range(0, 40);
}

void
D2dPropagationOptions::Validate(const D2dScenarioSupport& support,
                                const D2dScenarioFlags& flags,
                                bool positional)
{
    NS_LOG_FUNCTION(this << positional);
    const D2dPropagationPreset* preset = D2dPropagationHelper::FindPreset(propagation);
    if (!preset)
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(propagation, &tid) ||
            !tid.IsChildOf(PropagationLossModel::GetTypeId()) || !tid.HasConstructor())
        {
            support.Fail(fmt::format("--propagation={} is neither a preset nor an ns-3 "
                                     "PropagationLossModel this program has (accepted: {}, or a "
                                     "TypeId such as ns3::Cost231PropagationLossModel)",
                                     propagation,
                                     PresetNames()));
        }
        // A model a preset names comes with the preset's condition model and carrier.
        for (const auto& p : D2dPropagationHelper::GetPresets())
        {
            if (p.lossModel == propagation)
            {
                preset = &p;
            }
        }
    }
    m_helper.SetPathLoss(preset ? preset->name : propagation);
    const D2dPropagationPreset& in = m_helper.GetPreset();
    const bool threeGpp =
        TypeId::LookupByName(in.lossModel).IsChildOf(ThreeGppPropagationLossModel::GetTypeId());
    const std::string chosen = fmt::format("--propagation={}", propagation);
    const auto mode = shadowing == "none"         ? D2dPropagationHelper::Shadowing::NONE
                      : shadowing == "log-normal" ? D2dPropagationHelper::Shadowing::LOG_NORMAL
                                                  : D2dPropagationHelper::Shadowing::PRESET;
    m_helper.SetFrequencyHz(frequencyHz);
    m_helper.SetShadowing(mode, shadowingSigmaDb, shadowingCorrelationM);
    m_helper.SetNakagamiM(nakagamiM);
    if (!positional)
    {
        for (const char* name : {"propagation",
                                 "frequencyHz",
                                 "deviceHeightM",
                                 "shadowing",
                                 "nakagamiM",
                                 "coherenceTime"})
        {
            if (flags.Given(name) && !flags.AtDefault(name)) // a default is never refused
            {
                support.Fail(fmt::format("--{} cannot change this run: no link's RSS comes from "
                                         "the devices' positions (--rssFile, or --dynamicRssLevels "
                                         "or --dropProbability without a server at a place)",
                                         name));
            }
        }
    }
    if (threeGpp && in.conditionModel.empty())
    {
        // A 3GPP model named by TypeId keeps the condition model its constructor sets.
        PointerValue condition;
        m_helper.Create()->GetAttribute("ChannelConditionModel", condition);
        if (!condition.Get<ChannelConditionModel>())
        {
            support.Fail(fmt::format("{} has no LOS/NLOS condition model of its own (accepted: "
                                     "the presets, or a 3GPP model that sets one, e.g. "
                                     "ns3::ThreeGppUmaPropagationLossModel)",
                                     chosen));
        }
    }
    TypeId::AttributeInformation info;
    const bool hasCarrier =
        TypeId::LookupByName(in.lossModel).LookupAttributeByName("Frequency", &info);
    if (frequencyHz > 0 && !hasCarrier)
    {
        support.Fail(fmt::format("--frequencyHz cannot change this run: {} has no carrier "
                                 "(accepted with a model that has one, e.g. friis or 3gpp-umi)",
                                 chosen));
    }
    if (threeGpp && frequencyHz > 0 && (frequencyHz < 0.5e9 || frequencyHz > 100e9))
    {
        support.Fail(fmt::format("--frequencyHz={} is out of range for {} (accepted: 5e8 to 1e11, "
                                 "3GPP TR 38.901's 0.5 to 100 GHz)",
                                 D2dScenarioSupport::FormatNumber(frequencyHz),
                                 chosen));
    }
    if (in.lossModel == "ns3::D2dWinnerB1PropagationLossModel" && frequencyHz > 0 &&
        !D2dWinnerB1PropagationLossModel::IsStudiedCarrier(frequencyHz))
    {
        support.Fail(fmt::format("--frequencyHz={} is out of range for {} (accepted: 7e8 to 8e8 "
                                 "or 1.9e9 to 2.2e9, the two bands of TR 36.843's formula)",
                                 D2dScenarioSupport::FormatNumber(frequencyHz),
                                 chosen));
    }
    if ((threeGpp || !in.conditionModel.empty()) && GetDeviceHeightM() <= 0)
    {
        support.Fail(fmt::format("{} needs antennas above the ground: give --deviceHeightM > 0 "
                                 "(3GPP TR 38.901's UT heights: 1.5 m and up)",
                                 chosen));
    }
    if (nakagamiM > 0 && nakagamiM < 0.5)
    {
        support.Fail(fmt::format("--nakagamiM={} is out of range (accepted: 0, no fading, or "
                                 "0.5 and up)",
                                 D2dScenarioSupport::FormatNumber(nakagamiM)));
    }
    if (mode == D2dPropagationHelper::Shadowing::NONE && !in.ownShadowing &&
        in.shadowing.sigmaLosDb <= 0)
    {
        support.Fail(fmt::format("--shadowing=none cannot change this run: {} has no shadowing "
                                 "of its own",
                                 chosen));
    }
}

double
D2dPropagationOptions::GetDeviceHeightM() const
{
    return deviceHeightM > 0 ? deviceHeightM : m_helper.GetPreset().deviceHeightM;
}

double
D2dPropagationOptions::GetServerHeightM() const
{
    return m_helper.GetPreset().serverHeightM;
}

bool
D2dPropagationOptions::IsDefault() const
{
    return m_helper.GetPreset().name == D2dPropagationHelper::GetPresets().front().name &&
           !m_helper.HasShadowing() && !m_helper.HasFading();
}

bool
D2dPropagationOptions::NeedsLinkEnds() const
{
    // The LOS/NLOS state and the shadowing are kept by the ids of a link's two nodes.
    return !m_helper.GetPreset().conditionModel.empty() || m_helper.GetPreset().ownShadowing ||
           m_helper.HasShadowing();
}

bool
D2dPropagationOptions::HasShadowing() const
{
    return m_helper.HasShadowing();
}

void
D2dPropagationOptions::Record(D2dTraceHelper& traces) const
{
    const D2dPropagationPreset& in = m_helper.GetPreset();
    traces.AddParameter("propagationLossModel", in.lossModel);
    traces.AddParameter("propagationConditionModel", in.conditionModel);
    traces.AddParameter("propagationSource", in.source);
    traces.AddParameter("frequencyInForceHz", m_helper.GetFrequencyHz());
    traces.AddParameter("deviceHeightInForceM", GetDeviceHeightM());
    traces.AddParameter("shadowingInForce", m_helper.HasShadowing());
}

} // namespace ns3
