/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-wifi-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/neighbor-cache-helper.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/wifi-helper.h"
#include "ns3/wifi-mac-helper.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-radio-energy-model-helper.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dWifiHelper");

D2dWifiHelper::D2dWifiHelper()
    : m_channelHelper(YansWifiChannelHelper::Default()),
      m_standard(WIFI_STANDARD_80211a),
      m_dataMode("OfdmRate6Mbps"),
      m_base("10.1.0.0"),
      m_mask("255.255.0.0")
{
    m_transportFactory.SetTypeId("ns3::D2dWifiTransport");
}

void
D2dWifiHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

void
D2dWifiHelper::SetPhyAttribute(const std::string& name, const AttributeValue& value)
{
    m_phy.Set(name, value);
}

void
D2dWifiHelper::SetChannelHelper(const YansWifiChannelHelper& channel)
{
    m_channelHelper = channel;
}

void
D2dWifiHelper::SetStandard(WifiStandard standard)
{
    NS_ABORT_MSG_IF(standard != WIFI_STANDARD_80211a && standard != WIFI_STANDARD_80211g,
                    "D2dWifiHelper: standard must be 802.11a or 802.11g, got " << standard);
    m_standard = standard;
    if (!m_dataModeSet)
    {
        m_dataMode = standard == WIFI_STANDARD_80211a ? "OfdmRate6Mbps" : "ErpOfdmRate6Mbps";
    }
}

void
D2dWifiHelper::SetDataMode(const std::string& mode)
{
    m_dataMode = mode;
    m_dataModeSet = true;
}

void
D2dWifiHelper::SetRateManager(const std::string& type)
{
    m_rateManager = type == "ns3::ConstantRateWifiManager" ? "" : type;
}

void
D2dWifiHelper::SetPropagationLoss(Ptr<PropagationLossModel> loss)
{
    m_loss = loss;
}

void
D2dWifiHelper::SetAggregate(bool aggregate)
{
    m_aggregate = aggregate;
}

void
D2dWifiHelper::SetNetworkBase(Ipv4Address network, Ipv4Mask mask)
{
    m_base = network;
    m_mask = mask;
}

void
D2dWifiHelper::SetMessageRegistry(Ptr<D2dMessageRegistry> registry)
{
    m_registry = registry;
}

void
D2dWifiHelper::EnablePcap(const std::string& prefix)
{
    NS_ABORT_MSG_IF(m_devices.GetN() == 0, "D2dWifiHelper::EnablePcap before Install");
    m_phy.EnablePcap(prefix, m_devices);
}

std::vector<Ptr<D2dWifiTransport>>
D2dWifiHelper::Install(NodeContainer nodes)
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    NS_ABORT_MSG_IF(nodes.GetN() == 0, "D2dWifiHelper::Install: no nodes");
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        NS_ABORT_MSG_IF(!nodes.Get(i)->GetObject<MobilityModel>(),
                        "D2dWifiHelper::Install: node of device " << i << " has no MobilityModel");
    }

    m_channel = m_channelHelper.Create();
    if (m_loss)
    {
        m_channel->SetPropagationLossModel(m_loss);
    }
    YansWifiPhyHelper phy = m_phy;
    phy.SetChannel(m_channel);

    const std::string controlMode =
        m_standard == WIFI_STANDARD_80211a ? "OfdmRate6Mbps" : "ErpOfdmRate6Mbps";
    WifiHelper wifi;
    wifi.SetStandard(m_standard);
    if (m_rateManager.empty())
    {
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                     "DataMode",
                                     StringValue(m_dataMode),
                                     "ControlMode",
                                     StringValue(controlMode),
                                     "NonUnicastMode",
                                     StringValue(m_dataMode));
    }
    else
    {
        wifi.SetRemoteStationManager(m_rateManager);
    }
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    m_devices = wifi.Install(phy, mac, nodes);

    InternetStackHelper internet;
    internet.SetIpv6StackInstall(false);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        if (!nodes.Get(i)->GetObject<Ipv4>())
        {
            internet.Install(nodes.Get(i));
        }
    }
    Ipv4AddressHelper addresses;
    addresses.SetBase(m_base, m_mask);
    Ipv4InterfaceContainer interfaces = addresses.Assign(m_devices);
    // The Wi-Fi MAC queue is the only queue: the transports pace their fragments on it.
    TrafficControlHelper tch;
    tch.Uninstall(m_devices);
    // No ARP exchanges: every fragment reaches the MAC, whose queue the transports watch.
    NeighborCacheHelper neighbors;
    neighbors.PopulateNeighborCache(interfaces);

    m_network = CreateObject<D2dWifiNetwork>();
    if (m_registry)
    {
        m_network->SetMessageRegistry(m_registry);
    }
    m_network->SetBroadcastAddress(m_base.GetSubnetDirectedBroadcast(m_mask));

    std::vector<Ptr<D2dWifiTransport>> transports;
    transports.reserve(nodes.GetN());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        Ptr<D2dWifiTransport> t = m_transportFactory.Create<D2dWifiTransport>();
        t->SetIndex(i);
        t->SetNode(node);
        t->SetNetwork(m_network);
        t->SetDevice(DynamicCast<WifiNetDevice>(m_devices.Get(i)));
        if (m_aggregate)
        {
            node->AggregateObject(t);
        }
        m_network->AddTransport(t, interfaces.GetAddress(i));
        transports.push_back(t);
    }
    m_transports = transports;
    for (auto& t : transports)
    {
        t->Start();
    }
    return transports;
}

int64_t
D2dWifiHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(m_devices.GetN() == 0, "D2dWifiHelper::AssignStreams: call Install first");
    int64_t current = stream;
    WifiHelper wifi;
    current += wifi.AssignStreams(m_devices, current);
    current += m_channelHelper.AssignStreams(m_channel, current);
    if (m_loss)
    {
        // The LOS/NLOS draws of a 3GPP chain's condition models, which the above leaves out.
        current += PropagationRssModel::AssignConditionStreams(m_loss, current);
    }
    for (const auto& t : m_transports)
    {
        // The transports' group jitter (D2dWifiTransport::GroupJitter).
        current += t->AssignStreams(current);
    }
    return current - stream;
}

std::vector<Ptr<D2dWifiEnergyMeter>>
D2dWifiHelper::InstallEnergy(const std::string& prefix, uint32_t nodes)
{
    NS_LOG_FUNCTION(this << prefix << nodes);
    NS_ABORT_MSG_IF(nodes > m_devices.GetN(),
                    "D2dWifiHelper::InstallEnergy: " << nodes << " nodes, " << m_devices.GetN()
                                                     << " installed");
    WifiRadioEnergyModelHelper radioEnergy;
    // The transmit current follows the PHY's transmit power, as on the channel backend (the
    // ns3-wifi radio profile, D2dRadioProfile): ns-3's LinearWifiTxCurrentModel, I = P /
    // (V eta) + I_idle, with its defaults.
    radioEnergy.SetTxCurrentModel("ns3::LinearWifiTxCurrentModel");
    std::vector<Ptr<D2dWifiEnergyMeter>> meters;
    meters.reserve(nodes);
    for (uint32_t i = 0; i < nodes; ++i)
    {
        Ptr<NetDevice> device = m_devices.Get(i);
        auto sources = device->GetNode()->GetObject<EnergySourceContainer>();
        NS_ABORT_MSG_IF(!sources || sources->GetN() == 0,
                        "D2dWifiHelper::InstallEnergy: device " << i << " has no energy source");
        Ptr<EnergySource> source = sources->Get(0);
        DeviceEnergyModelContainer models = radioEnergy.Install(device, source);
        auto model = DynamicCast<WifiRadioEnergyModel>(models.Get(0));
        auto meter = CreateObject<D2dWifiEnergyMeter>();
        meter->Setup(model, source, i, prefix);
        meters.push_back(meter);
    }
    return meters;
}

NetDeviceContainer
D2dWifiHelper::GetDevices() const
{
    return m_devices;
}

Ptr<D2dWifiNetwork>
D2dWifiHelper::GetNetwork() const
{
    return m_network;
}

Ptr<YansWifiChannel>
D2dWifiHelper::GetChannel() const
{
    return m_channel;
}

} // namespace ns3
