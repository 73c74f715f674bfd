/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-propagation-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel-condition-model.h"
#include "ns3/d2d-shadowing-loss-model.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPropagationHelper");

namespace
{
/** TR 38.901's citation, for the presets that use its models. */
const char* kTr38901 = "3GPP TR 38.901 V16.1.0, Table 7.4.1-1 (path loss, shadowing) and "
                       "Table 7.4.2-1 (LOS probability)";
/** The shadowing of both V2V presets, TR 37.885 sec. 6.2.1 as ns-3's V2V models hold it: LOS and
 *  NLOSv 3 dB, NLOS 4 dB; d_cor 10 m (LOS), 13 m (NLOS, NLOSv). */
const D2dShadowingTable kV2vShadowing{3.0, 4.0, 3.0, 10.0, 13.0, 13.0, 0.0};
/** TR 36.843's citation, for the D2D preset. */
const char* kTr36843 =
    "3GPP TR 36.843 V12.0.1, sec. A.2.1.2 (outdoor UE-to-UE: WINNER+ B1 with a -5 dB NLOS "
    "offset, its LOS probability, 7 dB shadowing), as NIST's psc-ns3 states it; d_cor: TR "
    "38.901's UMi";
/** TR 37.885's citation, for the V2V presets. */
const char* kTr37885 = "3GPP TR 37.885 V15.3.0, sec. 6.2.1 (path loss, shadowing, LOS "
                       "probability of the V2V links)";
} // namespace

const std::vector<D2dPropagationPreset>&
D2dPropagationHelper::GetPresets()
{
    // The carrier of the TR 38.901 presets is a choice (3.5 GHz: FR1's band n78), those of
    // the V2V presets TR 37.885's 5.9 GHz ITS band. Antenna heights: TR 38.901 Table 7.4.1-1
    // (UT 1.5 m; BS 10 m UMi, 25 m UMa, 35 m RMa; indoor 3 m ceiling), TR 37.885 (vehicle
    // 1.6 m, RSU 5 m). Shadowing: sigma (dB) of LOS, NLOS, NLOSv, then d_cor (m) of each, TR
    // 38.901 Table 7.4.1-1 and Table 7.5-6 (TR 37.885 Table 6.2.1-1 for V2V), the values
    // ns-3's ThreeGpp*PropagationLossModel::GetShadowingStd and
    // GetShadowingCorrelationDistance hold.
    static const std::vector<D2dPropagationPreset> presets = {
        {"log-distance",
         "ns3::LogDistancePropagationLossModel",
         "",
         0.0,
         0.0,
         0.0,
         false,
         {},
         "ns-3's log-distance model at its defaults: exponent 3, 46.6777 dB at 1 m (Friis "
         "at 5.15 GHz); devices on the plane z = 0"},
        {"friis",
         "ns3::FriisPropagationLossModel",
         "",
         5.15e9,
         0.0,
         0.0,
         false,
         {},
         "H. T. Friis, A Note on a Simple Transmission Formula, Proc. IRE 34(5), 1946 (ns-3's "
         "FriisPropagationLossModel; 5.15 GHz, ns-3's default)"},
        {"3gpp-umi",
         "ns3::ThreeGppUmiStreetCanyonPropagationLossModel",
         "ns3::ThreeGppUmiStreetCanyonChannelConditionModel",
         3.5e9,
         1.5,
         10.0,
         false,
         {4.0, 7.82, 0.0, 10.0, 13.0, 0.0, 0.0},
         kTr38901},
        {"3gpp-uma",
         "ns3::ThreeGppUmaPropagationLossModel",
         "ns3::ThreeGppUmaChannelConditionModel",
         3.5e9,
         1.5,
         25.0,
         false,
         {4.0, 6.0, 0.0, 37.0, 50.0, 0.0, 0.0},
         kTr38901},
        {"3gpp-rma",
         "ns3::ThreeGppRmaPropagationLossModel",
         "ns3::ThreeGppRmaChannelConditionModel",
         3.5e9,
         1.5,
         35.0,
         false,
         {4.0, 8.0, 0.0, 37.0, 120.0, 0.0, 6.0},
         kTr38901},
        {"3gpp-indoor-office",
         "ns3::ThreeGppIndoorOfficePropagationLossModel",
         "ns3::ThreeGppIndoorOpenOfficeChannelConditionModel",
         3.5e9,
         1.5,
         3.0,
         false,
         {3.0, 8.03, 0.0, 10.0, 6.0, 0.0, 0.0},
         kTr38901},
        {"3gpp-v2v-urban",
         "ns3::ThreeGppV2vUrbanPropagationLossModel",
         "ns3::ProbabilisticV2vUrbanChannelConditionModel",
         5.9e9,
         1.6,
         5.0,
         false,
         kV2vShadowing,
         kTr37885},
        {"3gpp-v2v-highway",
         "ns3::ThreeGppV2vHighwayPropagationLossModel",
         "ns3::ProbabilisticV2vHighwayChannelConditionModel",
         5.9e9,
         1.6,
         5.0,
         false,
         kV2vShadowing,
         kTr37885},
        {"d2d-3gpp",
         "ns3::D2dWinnerB1PropagationLossModel",
         "ns3::D2dB1ChannelConditionModel",
         2e9,
         1.5,
         1.5,
         false,
         {7.0, 7.0, 0.0, 10.0, 13.0, 0.0, 0.0},
         kTr36843,
         true},
    };
    return presets;
}

const D2dPropagationPreset*
D2dPropagationHelper::FindPreset(const std::string& name)
{
    for (const auto& p : GetPresets())
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

D2dPropagationHelper::D2dPropagationHelper()
{
    SetPathLoss(GetPresets().front().name);
}

void
D2dPropagationHelper::SetPathLoss(const std::string& name)
{
    if (const auto* preset = FindPreset(name))
    {
        m_preset = *preset;
    }
    else
    {
        TypeId tid;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(name, &tid) &&
                                tid.IsChildOf(PropagationLossModel::GetTypeId()),
                            "D2dPropagationHelper: " << name
                                                     << " is neither a preset nor an ns-3 "
                                                        "PropagationLossModel");
        m_preset = D2dPropagationPreset{};
        m_preset.lossModel = name;
        m_preset.ownShadowing =
            tid.IsChildOf(TypeId::LookupByName("ns3::ThreeGppPropagationLossModel"));
        m_preset.source = "the ns-3 model " + name + " at its attributes' defaults";
    }
    m_loss = ObjectFactory();
    m_loss.SetTypeId(m_preset.lossModel);
}

void
D2dPropagationHelper::SetPathLossAttribute(const std::string& name, const AttributeValue& value)
{
    m_loss.Set(name, value);
}

const D2dPropagationPreset&
D2dPropagationHelper::GetPreset() const
{
    return m_preset;
}

void
D2dPropagationHelper::SetFrequencyHz(double hz)
{
    m_frequencyHz = hz;
}

double
D2dPropagationHelper::GetFrequencyHz() const
{
    return m_frequencyHz > 0 ? m_frequencyHz : m_preset.frequencyHz;
}

void
D2dPropagationHelper::SetShadowing(Shadowing mode, double sigmaDb, double correlationM)
{
    m_shadowing = mode;
    m_sigmaDb = sigmaDb;
    m_correlationM = correlationM;
}

void
D2dPropagationHelper::SetNakagamiM(double m)
{
    m_nakagamiM = m;
}

bool
D2dPropagationHelper::HasFading() const
{
    return m_nakagamiM > 0;
}

bool
D2dPropagationHelper::HasShadowing() const
{
    switch (m_shadowing)
    {
    case Shadowing::PRESET:
        return m_preset.ownShadowing || m_preset.shadowing.sigmaLosDb > 0;
    case Shadowing::NONE:
        return false;
    case Shadowing::LOG_NORMAL:
        return m_sigmaDb > 0;
    }
    return false;
}

Ptr<PropagationLossModel>
D2dPropagationHelper::Create() const
{
    auto loss = m_loss.Create<PropagationLossModel>();
    TypeId::AttributeInformation info;
    const double hz = GetFrequencyHz();
    if (hz > 0 && loss->GetInstanceTypeId().LookupAttributeByName("Frequency", &info))
    {
        loss->SetAttribute("Frequency", DoubleValue(hz));
    }
    Ptr<ChannelConditionModel> condition;
    if (!m_preset.conditionModel.empty())
    {
        condition = ObjectFactory(m_preset.conditionModel).Create<ChannelConditionModel>();
        loss->SetAttribute("ChannelConditionModel", PointerValue(condition));
    }
    const bool threeGpp =
        loss->GetInstanceTypeId().LookupAttributeByName("ShadowingEnabled", &info);
    if (threeGpp && !(m_preset.ownShadowing && m_shadowing == Shadowing::PRESET))
    {
        // The presets' shadowing is D2dShadowingLossModel's (see its class description).
        loss->SetAttribute("ShadowingEnabled", BooleanValue(false));
    }
    Ptr<PropagationLossModel> last = loss;
    Ptr<D2dShadowingLossModel> shadowing;
    if (m_shadowing == Shadowing::LOG_NORMAL)
    {
        shadowing = CreateObject<D2dShadowingLossModel>();
        shadowing->SetAttribute("SigmaDb", DoubleValue(m_sigmaDb));
        shadowing->SetAttribute("CorrelationDistanceM", DoubleValue(m_correlationM));
    }
    else if (m_shadowing == Shadowing::PRESET && m_preset.shadowing.sigmaLosDb > 0)
    {
        const D2dShadowingTable& t = m_preset.shadowing;
        shadowing = CreateObject<D2dShadowingLossModel>();
        shadowing->SetAttribute("ChannelConditionModel", PointerValue(condition));
        shadowing->SetAttribute("SigmaLosDb", DoubleValue(t.sigmaLosDb));
        shadowing->SetAttribute("SigmaNlosDb", DoubleValue(t.sigmaNlosDb));
        shadowing->SetAttribute("CorrelationLosM", DoubleValue(t.correlationLosM));
        shadowing->SetAttribute("CorrelationNlosM", DoubleValue(t.correlationNlosM));
        if (t.sigmaNlosvDb > 0)
        {
            shadowing->SetAttribute("SigmaNlosvDb", DoubleValue(t.sigmaNlosvDb));
            shadowing->SetAttribute("CorrelationNlosvM", DoubleValue(t.correlationNlosvM));
        }
        if (t.sigmaLosBeyondBreakpointDb > 0)
        {
            shadowing->SetAttribute("SigmaLosBeyondBreakpointDb",
                                    DoubleValue(t.sigmaLosBeyondBreakpointDb));
            shadowing->SetAttribute("BreakpointFrequencyHz", DoubleValue(hz));
        }
    }
    if (shadowing)
    {
        last->SetNext(shadowing);
        last = shadowing;
    }
    if (m_nakagamiM > 0)
    {
        auto fading = CreateObject<NakagamiPropagationLossModel>();
        for (const char* m : {"m0", "m1", "m2"})
        {
            fading->SetAttribute(m, DoubleValue(m_nakagamiM));
        }
        last->SetNext(fading);
    }
    return loss;
}

} // namespace ns3
