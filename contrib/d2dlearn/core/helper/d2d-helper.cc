/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-helper.h"

#include "ns3/abort.h"
#include "ns3/basic-energy-source.h"
#include "ns3/boolean.h"
#include "ns3/d2d-energy-source.h"
#include "ns3/d2d-message-registry.h"
#include "ns3/d2d-radio-profile.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#if D2DLEARN_HAVE_GENERIC_BATTERY
#include "ns3/generic-battery-model.h"
#endif
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/vector.h"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dHelper");

namespace
{

/**
 * \param tid an energy source's TypeId
 * \return whether it is ns-3's GenericBatteryModel or a subclass (never before ns-3.40)
 */
bool
IsGenericBattery([[maybe_unused]] TypeId tid)
{
#if D2DLEARN_HAVE_GENERIC_BATTERY
    return tid == GenericBatteryModel::GetTypeId() ||
           tid.IsChildOf(GenericBatteryModel::GetTypeId());
#else
    return false;
#endif
}

} // namespace

D2dHelper::D2dHelper()
{
    m_channelFactory.SetTypeId("ns3::D2dChannel");
    m_radioFactory.SetTypeId("ns3::D2dRadio");
    m_radioEnergyFactory.SetTypeId("ns3::D2dRadioEnergyModel");
    m_computeFactory.SetTypeId("ns3::D2dComputeModel");
    m_drxFactory.SetTypeId("ns3::D2dDrx");
    m_d2sDrxFactory.SetTypeId("ns3::D2dDrx");
    SetEnergySourceType("ns3::D2dEnergySource");
}

void
D2dHelper::SetDrxAttribute(const std::string& n, const AttributeValue& v)
{
    m_drx = true;
    m_drxFactory.Set(n, v);
}

void
D2dHelper::SetD2sDrxAttribute(const std::string& n, const AttributeValue& v)
{
    m_d2sDrx = true;
    m_d2sDrxFactory.Set(n, v);
}

void
D2dHelper::SetChannelAttribute(const std::string& n, const AttributeValue& v)
{
    m_channelFactory.Set(n, v);
}

void
D2dHelper::SetD2sChannelAttribute(const std::string& n, const AttributeValue& v)
{
    m_d2sAttributes.emplace_back(n, v.Copy());
}

void
D2dHelper::SetRadioAttribute(const std::string& n, const AttributeValue& v)
{
    m_radioFactory.Set(n, v);
}

void
D2dHelper::SetD2sRadioAttribute(const std::string& n, const AttributeValue& v)
{
    m_d2sRadioAttributes.emplace_back(n, v.Copy());
}

void
D2dHelper::SetRadioEnergyAttribute(const std::string& n, const AttributeValue& v)
{
    m_radioEnergyFactory.Set(n, v);
}

void
D2dHelper::SetRadioProfile(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    const D2dRadioProfile* profile = nullptr;
    try
    {
        profile = &D2dRadioProfile::Get(name);
    }
    catch (const std::invalid_argument& e)
    {
        NS_ABORT_MSG("D2dHelper::SetRadioProfile: " << e.what());
    }
    for (const auto& [attribute, value] : profile->attributes)
    {
        m_radioEnergyFactory.Set(attribute, StringValue(value));
    }
}

void
D2dHelper::SetComputeAttribute(const std::string& n, const AttributeValue& v)
{
    m_computeFactory.Set(n, v);
}

void
D2dHelper::SetEnergySourceType(const std::string& type)
{
    m_sourceFactory = ObjectFactory();
    m_sourceFactory.SetTypeId(type);
    if (m_sourceFactory.GetTypeId() == BasicEnergySource::GetTypeId())
    {
        // Depleted means empty (ns-3's default threshold is 10 % of the initial energy).
        m_sourceFactory.Set("BasicEnergyLowBatteryThreshold", DoubleValue(0.0));
    }
    if (IsGenericBattery(m_sourceFactory.GetTypeId()))
    {
        // GenericBatteryModel reports depletion at its cut-off voltage; its threshold
        // (default 10 % of the initial energy) is read only by d2dlearn's energy models.
        m_sourceFactory.Set("LowBatteryThreshold", DoubleValue(0.0));
    }
    if (m_initialEnergyJ >= 0.0)
    {
        SetInitialEnergyJ(m_initialEnergyJ);
    }
}

void
D2dHelper::SetInitialEnergyJ(double joules)
{
    NS_ABORT_MSG_IF(!(joules >= 0.0), "D2dHelper: initial energy must be >= 0 J, got " << joules);
    m_initialEnergyJ = joules;
    const TypeId tid = m_sourceFactory.GetTypeId();
    if (IsGenericBattery(tid))
    {
        NS_ABORT_MSG_IF(!(joules > 0.0),
                        "D2dHelper: a GenericBatteryModel's initial energy must be > 0 J, got "
                            << joules);
        return; // each battery is scaled to it as it is made: AddEnergySource()
    }
    for (const auto& names : D2dEnergySource::KnownSourceAttributes())
    {
        const char* name = names.initialEnergyJ;
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(name, &info))
        {
            m_sourceFactory.Set(name, DoubleValue(joules));
            return;
        }
    }
    NS_FATAL_ERROR("D2dHelper: energy source " << tid.GetName()
                                               << " has no initial-energy attribute");
}

void
D2dHelper::SetEnergySourceAttribute(const std::string& n, const AttributeValue& v)
{
    m_sourceFactory.Set(n, v);
}

void
D2dHelper::SetRssModel(Ptr<D2dRssModel> model)
{
    m_rss = model;
}

Ptr<D2dChannel>
D2dHelper::Install(NodeContainer nodes)
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    m_channel = m_channelFactory.Create<D2dChannel>();
    if (m_rss)
    {
        m_channel->SetRssModel(m_rss);
    }
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        auto source = AddEnergySource(node);

        auto radioEnergy = m_radioEnergyFactory.Create<D2dRadioEnergyModel>();
        radioEnergy->SetNodeIndex(i);
        radioEnergy->SetEnergySource(source);
        source->AppendDeviceEnergyModel(radioEnergy);

        auto compute = m_computeFactory.Create<D2dComputeModel>();
        compute->SetNodeIndex(i);
        compute->SetEnergySource(source);
        source->AppendDeviceEnergyModel(compute);

        auto radio = m_radioFactory.Create<D2dRadio>();
        radio->SetIndex(i);
        radio->SetNode(node);
        radio->SetMobility(node->GetObject<MobilityModel>());
        radio->SetEnergyModel(radioEnergy);
        m_channel->Attach(radio);
        node->AggregateObject(radio);
        radioEnergy->AddDepletionCallback([radio]() { radio->TurnOff(); });

        radioEnergy->Start();
        compute->Start();
    }
    if (m_drx)
    {
        m_channel->SetDrx(m_drxFactory.Create<D2dDrx>());
    }
    return m_channel;
}

void
D2dHelper::ScaleGenericBatteryToEnergy(Ptr<EnergySource> battery, double joules)
{
    NS_LOG_FUNCTION(battery << joules);
    NS_ABORT_MSG_IF(!battery || !IsGenericBattery(battery->GetInstanceTypeId()),
                    "D2dHelper::ScaleGenericBatteryToEnergy: not a GenericBatteryModel");
    NS_ABORT_MSG_IF(!(joules > 0.0) || !std::isfinite(joules),
                    "D2dHelper::ScaleGenericBatteryToEnergy: energy must be > 0 J, got " << joules);
    auto get = [&battery](const char* name) {
        DoubleValue v;
        battery->GetAttribute(name, v);
        return v.Get();
    };
    // The cell's energy, J: GenericBatteryModel::GetInitialEnergy(), Q x V_full x 3600.
    const double cellJ = get("MaxCapacity") * get("FullVoltage") * 3600.0;
    NS_ABORT_MSG_IF(!(cellJ > 0.0),
                    "D2dHelper::ScaleGenericBatteryToEnergy: the cell holds no energy (" << cellJ
                                                                                         << " J)");
    const double k = joules / cellJ; // cells in parallel
    for (const char* name :
         {"MaxCapacity", "NominalCapacity", "ExponentialCapacity", "TypicalDischargeCurrent"})
    {
        battery->SetAttribute(name, DoubleValue(get(name) * k));
    }
    battery->SetAttribute("InternalResistance", DoubleValue(get("InternalResistance") / k));
}

Ptr<EnergySource>
D2dHelper::AddEnergySource(Ptr<Node> node)
{
    auto source = m_sourceFactory.Create<EnergySource>();
    source->SetNode(node);
    if (IsGenericBattery(source->GetInstanceTypeId()))
    {
        if (m_initialEnergyJ > 0.0)
        {
            ScaleGenericBatteryToEnergy(source, m_initialEnergyJ);
        }
        // GenericBatteryModel computes its voltage at its first update only (until then
        // GetSupplyVoltage() is undefined), and ns-3 makes no update before Run().
        Simulator::ScheduleNow(&EnergySource::UpdateEnergySource, source);
    }
    auto sources = node->GetObject<EnergySourceContainer>();
    if (!sources)
    {
        sources = CreateObject<EnergySourceContainer>();
        node->AggregateObject(sources);
    }
    sources->Add(source);
    return source;
}

void
D2dHelper::InstallWithoutRadios(NodeContainer nodes)
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto source = AddEnergySource(nodes.Get(i));
        auto compute = m_computeFactory.Create<D2dComputeModel>();
        compute->SetNodeIndex(i);
        compute->SetEnergySource(source);
        source->AppendDeviceEnergyModel(compute);
        compute->Start();
    }
}

void
D2dHelper::FixTimeResolution()
{
    // Once per process: ns-3 fixes the resolution once (a second Time::SetResolution, or one
    // after Simulator::Run, finds no record of Times and crashes in an optimized build).
    static bool fixed = false;
    if (!fixed)
    {
        fixed = true;
        // Same unit: the recorded Times keep their values, and ns-3 stops recording new ones.
        Time::SetResolution(Time::GetResolution());
    }
}

double
D2dHelper::MeanPairDistanceM(NodeContainer nodes)
{
    const uint32_t n = nodes.GetN();
    std::vector<Vector> positions(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto mobility = nodes.Get(i)->GetObject<MobilityModel>();
        NS_ABORT_MSG_IF(!mobility, "D2dHelper: node " << i << " has no MobilityModel");
        positions[i] = mobility->GetPosition();
    }
    const uint64_t maxPairs = 2000000;
    const uint64_t allPairs = n < 2 ? 0 : static_cast<uint64_t>(n) * (n - 1) / 2;
    double sum = 0.0;
    uint64_t pairs = 0;
    if (allPairs <= maxPairs)
    {
        // Every pair: up to 2000 nodes.
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = i + 1; j < n; ++j)
            {
                sum += CalculateDistance(positions[i], positions[j]);
                ++pairs;
            }
        }
        return pairs > 0 ? sum / pairs : 0.0;
    }
    // A fixed sample of about maxPairs pairs: each node i with the k nodes i + d (mod n)
    // whose offsets d are spread evenly over 1 .. n - 1.
    const uint64_t k = (maxPairs + n - 1) / n;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint64_t m = 0; m < k; ++m)
        {
            const uint64_t d = 1 + m * (n - 1) / k;
            sum += CalculateDistance(positions[i], positions[(i + d) % n]);
            ++pairs;
        }
    }
    return sum / pairs;
}

Ptr<D2dChannel>
D2dHelper::InstallServer(Ptr<Node> server, NodeContainer nodes, double distanceFactor)
{
    NS_LOG_FUNCTION(this << server << distanceFactor);
    NS_ABORT_MSG_IF(!m_channel, "D2dHelper::InstallServer: call Install() first");
    NS_ABORT_MSG_IF(distanceFactor <= 0,
                    "D2dHelper::InstallServer: distanceFactor must be > 0, got " << distanceFactor);
    // Wagle et al. 2025, sec. VI-G: every D2S link distanceFactor x the mean D2D distance.
    return MakeServer(server, nodes, std::max(1.0, distanceFactor * MeanPairDistanceM(nodes)));
}

Ptr<D2dChannel>
D2dHelper::InstallServer(Ptr<Node> server, NodeContainer nodes)
{
    NS_LOG_FUNCTION(this << server);
    NS_ABORT_MSG_IF(!m_channel, "D2dHelper::InstallServer: call Install() first");
    NS_ABORT_MSG_IF(!server->GetObject<MobilityModel>(),
                    "D2dHelper::InstallServer: the server node has no MobilityModel (its place)");
    return MakeServer(server, nodes, 0.0);
}

Ptr<D2dChannel>
D2dHelper::MakeServer(Ptr<Node> server, NodeContainer nodes, double fixedDistanceM)
{
    // The same radio technology as the D2D links unless told otherwise, but no hearing
    // range: --rangeM is the D2D radios' (a channel with FixedDistanceM ignores it anyway).
    m_d2sChannel = m_channelFactory.Create<D2dChannel>();
    m_d2sChannel->SetAttribute("RangeM", DoubleValue(0.0));
    for (const auto& [name, value] : m_d2sAttributes)
    {
        m_d2sChannel->SetAttribute(name, *value);
    }
    m_d2sChannel->SetAttribute("FixedDistanceM", DoubleValue(fixedDistanceM));
    const bool byPosition = fixedDistanceM <= 0;
    // One network, one id space: the D2S channel shares the D2D channel's registry.
    m_d2sChannel->SetMessageRegistry(m_channel->GetMessageRegistry());
    // The D2D radios' attributes, with the D2S radios' own on top (a later Set of the same
    // attribute replaces the earlier value).
    ObjectFactory d2sRadioFactory = m_radioFactory;
    for (const auto& [name, value] : m_d2sRadioAttributes)
    {
        d2sRadioFactory.Set(name, *value);
    }

    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        auto source = node->GetObject<EnergySourceContainer>()->Get(0);
        auto energy = m_radioEnergyFactory.Create<D2dRadioEnergyModel>();
        // The D2S radio is a second radio of the device: it listens (idles) as the D2D
        // radio does, at the same IdlePowerW, under its own components d2s_tx, d2s_rx and
        // d2s_idle (over Wi-Fi, the D2S 802.11 radio's WifiRadioEnergyModel idles too).
        energy->SetAttribute("ComponentPrefix", StringValue("d2s"));
        energy->SetNodeIndex(i);
        energy->SetEnergySource(source);
        source->AppendDeviceEnergyModel(energy);

        auto radio = d2sRadioFactory.Create<D2dRadio>();
        radio->SetIndex(i);
        radio->SetNode(node);
        if (byPosition)
        {
            // The device's own mobility: its D2S link follows it as it moves.
            auto mobility = node->GetObject<MobilityModel>();
            NS_ABORT_MSG_IF(!mobility,
                            "D2dHelper::InstallServer: node " << i << " has no mobility");
            radio->SetMobility(mobility);
        }
        radio->SetEnergyModel(energy);
        m_d2sChannel->Attach(radio);
        energy->AddDepletionCallback([radio]() { radio->TurnOff(); });
        energy->Start();
    }
    // The server's radio has no energy model: the server is mains powered (over Wi-Fi, its
    // 802.11 radio gets no WifiRadioEnergyModel either).
    auto serverRadio = d2sRadioFactory.Create<D2dRadio>();
    // A base station transmits and receives at once (frequency-division duplex): while it
    // sends a model to one device it still hears the others' uploads.
    serverRadio->SetAttribute("HalfDuplex", BooleanValue(false));
    serverRadio->SetIndex(nodes.GetN());
    serverRadio->SetNode(server);
    if (byPosition)
    {
        serverRadio->SetMobility(server->GetObject<MobilityModel>());
    }
    m_d2sChannel->Attach(serverRadio);
    server->AggregateObject(serverRadio);
    if (m_d2sDrx)
    {
        m_d2sChannel->SetDrx(m_d2sDrxFactory.Create<D2dDrx>()); // the server never sleeps
    }
    return m_d2sChannel;
}

Ptr<D2dComputeModel>
D2dHelper::GetComputeModel(Ptr<Node> node)
{
    auto sources = node->GetObject<EnergySourceContainer>();
    for (uint32_t s = 0; sources && s < sources->GetN(); ++s)
    {
        auto models = sources->Get(s)->FindDeviceEnergyModels("ns3::D2dComputeModel");
        if (models.GetN() > 0)
        {
            return DynamicCast<D2dComputeModel>(models.Get(0));
        }
    }
    return nullptr;
}

std::vector<Ptr<D2dEnergyModel>>
D2dHelper::GetEnergyModels(NodeContainer nodes)
{
    std::vector<Ptr<D2dEnergyModel>> out;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto sources = nodes.Get(i)->GetObject<EnergySourceContainer>();
        for (uint32_t s = 0; sources && s < sources->GetN(); ++s)
        {
            for (const char* type : {"ns3::D2dRadioEnergyModel", "ns3::D2dComputeModel"})
            {
                auto models = sources->Get(s)->FindDeviceEnergyModels(type);
                for (uint32_t m = 0; m < models.GetN(); ++m)
                {
                    out.push_back(DynamicCast<D2dEnergyModel>(models.Get(m)));
                }
            }
        }
    }
    return out;
}

int64_t
D2dHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    if (m_channel)
    {
        used += m_channel->AssignStreams(stream + used);
    }
    if (m_d2sChannel)
    {
        used += m_d2sChannel->AssignStreams(stream + used);
    }
    return used;
}

std::vector<std::vector<uint32_t>>
D2dHelper::InNeighbours(Ptr<D2dChannel> channel)
{
    const uint32_t n = channel->GetNRadios();
    std::vector<std::vector<uint32_t>> in(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j : channel->GetNeighbours(i))
        {
            in[j].push_back(i); // j hears i
        }
    }
    return in;
}

void
D2dHelper::ConnectAvailability(Ptr<D2dAvailabilityModel> availability,
                               const NodeContainer& devices,
                               const std::vector<Ptr<D2dTransport>>& d2d,
                               const std::vector<Ptr<D2dTransport>>& d2s)
{
    NS_ABORT_MSG_IF(!availability, "D2dHelper::ConnectAvailability: no model");
    const uint32_t n = devices.GetN();
    std::vector<Ptr<D2dComputeModel>> compute(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        compute[i] = GetComputeModel(devices.Get(i));
        NS_ABORT_MSG_IF(!compute[i],
                        "D2dHelper::ConnectAvailability: device " << i << " has no compute model");
        compute[i]->EnableAvailability();
    }
    NS_ABORT_MSG_IF((!d2d.empty() && d2d.size() < n) || (!d2s.empty() && d2s.size() < n),
                    "D2dHelper::ConnectAvailability: fewer transports than devices");
    availability->AddStateCallback([compute, d2d, d2s](uint32_t device, bool available) {
        if (available)
        {
            compute[device]->Rejoin();
            for (const auto* list : {&d2d, &d2s})
            {
                if (!list->empty())
                {
                    (*list)[device]->Rejoin();
                }
            }
            return;
        }
        // Radios first (what is on the air is cut, the Presence trace fires), then the job.
        for (const auto* list : {&d2d, &d2s})
        {
            if (!list->empty())
            {
                (*list)[device]->Leave();
            }
        }
        compute[device]->Leave();
    });
}

} // namespace ns3
