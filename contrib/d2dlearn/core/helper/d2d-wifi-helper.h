/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_WIFI_HELPER_H
#define D2D_WIFI_HELPER_H

#include "ns3/d2d-message-registry.h"
#include "ns3/d2d-wifi-energy-meter.h"
#include "ns3/d2d-wifi-transport.h"
#include "ns3/energy-source-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/wifi-standards.h"
#include "ns3/yans-wifi-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Builds the packet-level D2D network: 802.11 ad hoc devices, an IPv4 stack and one
 * D2dWifiTransport per node.
 *
 * Install() creates one YansWifiChannel (by default YansWifiChannelHelper::Default():
 * log-distance loss, exponent 3, constant-speed delay; see SetChannelHelper), 802.11a (or
 * 802.11g) ad hoc devices with a ConstantRateWifiManager at a fixed data mode (default
 * 6 Mbit/s, for unicast and broadcast frames alike), an IPv4 stack (no IPv6), addresses
 * from 10.1.0.0/16 in container order, and no traffic-control queue disc (the Wi-Fi MAC
 * queue is the only queue). ARP is not simulated: the neighbour caches are filled
 * statically (N^2 entries, meant for tens to hundreds of devices). Device index i is the
 * i-th node of the container; each transport is aggregated to its node and all share one
 * D2dWifiNetwork and D2dMessageRegistry.
 */
class D2dWifiHelper
{
  public:
    D2dWifiHelper();

    /**
     * \brief Set an attribute of every D2dWifiTransport created by Install().
     * \param name attribute name (e.g. "MtuBytes")
     * \param value attribute value
     */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every YansWifiPhy (e.g. "TxPowerStart" in dBm).
     * \param name attribute name
     * \param value attribute value
     */
    void SetPhyAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Replace the channel configuration (default YansWifiChannelHelper::Default()),
     * e.g. to add fading: with the default channel a link is either perfect or absent
     * (about 51 m at the default 16 dBm; no partial losses without interference).
     * \param channel the channel helper used by Install()
     */
    void SetChannelHelper(const YansWifiChannelHelper& channel);
    /**
     * \param standard WIFI_STANDARD_80211a (default) or WIFI_STANDARD_80211g; selects the
     * default data mode OfdmRate6Mbps or ErpOfdmRate6Mbps
     */
    void SetStandard(WifiStandard standard);
    /** \param mode fixed Wi-Fi data mode, e.g. "OfdmRate24Mbps" (802.11a) */
    void SetDataMode(const std::string& mode);
    /**
     * \brief Use another rate manager than the constant rate (whose DataMode is
     * SetDataMode's), e.g. "ns3::IdealWifiManager" or "ns3::MinstrelWifiManager": unicast
     * frames adapt their rate; group frames go at the manager's default (lowest) mode.
     * \param type the WifiRemoteStationManager's TypeId name; "" or
     * "ns3::ConstantRateWifiManager": the constant rate
     */
    void SetRateManager(const std::string& type);
    /**
     * \brief Replace the channel's propagation loss model (after the channel helper made it),
     * so that the caller keeps the model it can evaluate, e.g. to tell who hears whom.
     * \param loss the loss model (null: the channel helper's)
     */
    void SetPropagationLoss(Ptr<PropagationLossModel> loss);
    /**
     * \brief Aggregate each transport to its node (the default), so that
     * node->GetObject<D2dWifiTransport>() finds it. A second Wi-Fi network on the same
     * nodes (the D2S link) must not: a node aggregates one object per type.
     * \param aggregate true to aggregate
     */
    void SetAggregate(bool aggregate);
    /**
     * \param network network address of the devices' subnet (default 10.1.0.0)
     * \param mask its mask (default 255.255.0.0)
     */
    void SetNetworkBase(Ipv4Address network, Ipv4Mask mask);
    /**
     * \brief Write every frame the devices' PHYs send or receive to pcap files, with ns-3's
     * YansWifiPhyHelper::EnablePcap (802.11 frames, DLT_IEEE802_11): PREFIX-NODE-DEVICE.pcap,
     * one per device, written by ns-3 as the run goes. Call after Install().
     * \param prefix the files' prefix (a path; its folder must exist)
     */
    void EnablePcap(const std::string& prefix);
    /**
     * \param registry registry to share with other backends of the same scenario (by
     * default Install() creates one), so that message ids stay unique across them
     */
    void SetMessageRegistry(Ptr<D2dMessageRegistry> registry);

    /**
     * \brief Build the network on the nodes.
     * \param nodes the devices, in index order; each must already have a MobilityModel
     * \return the transports, element i for device index i
     */
    std::vector<Ptr<D2dWifiTransport>> Install(NodeContainer nodes);

    /**
     * \brief Energy of the last Install()'s Wi-Fi devices through ns-3's WifiRadioEnergyModel
     * (its default currents, the transmit current from ns-3's LinearWifiTxCurrentModel at the
     * PHY's transmit power: the ns3-wifi radio profile of the channel backend;
     * WifiRadioEnergyModelHelper: the PHY goes off when the source is depleted), on the first
     * energy source of each node, with a D2dWifiEnergyMeter per device that reports it in
     * d2dlearn's energy components. \param prefix "radio" (D2D network) or "d2s" (D2S network)
     * \param nodes how many of the installed nodes (in index order) get a model: the
     *        devices, not a server node without an energy source
     * \return the meters, element i for device index i; keep them for the simulation's
     *         length (the energy models call them, and hold no reference)
     */
    std::vector<Ptr<D2dWifiEnergyMeter>> InstallEnergy(const std::string& prefix, uint32_t nodes);

    /**
     * \brief Fix the random streams of the Wi-Fi devices and channel of the last Install().
     * \param stream first stream index
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /** \return the Wi-Fi devices of the last Install(), in index order */
    NetDeviceContainer GetDevices() const;
    /** \return the shared network state of the last Install() */
    Ptr<D2dWifiNetwork> GetNetwork() const;
    /** \return the Wi-Fi channel of the last Install() */
    Ptr<YansWifiChannel> GetChannel() const;

  private:
    ObjectFactory m_transportFactory;      //!< makes the transports (SetTransportAttribute)
    YansWifiChannelHelper m_channelHelper; //!< makes the channel (SetChannelHelper)
    YansWifiPhyHelper m_phy;               //!< PHY attributes (SetPhyAttribute)
    WifiStandard m_standard;               //!< 802.11a or 802.11g (SetStandard)
    std::string m_dataMode;                //!< constant-rate data and non-unicast mode
    bool m_dataModeSet{false};             //!< SetDataMode was called: SetStandard keeps it
    Ipv4Address m_base;                    //!< network address of the subnet (10.1.0.0)
    Ipv4Mask m_mask;                       //!< mask of the subnet (255.255.0.0)
    Ptr<D2dMessageRegistry> m_registry;    //!< shared registry (null: the network's own)
    std::string m_rateManager;             //!< "" : the constant rate
    Ptr<PropagationLossModel> m_loss;      //!< replaces the channel helper's, if set
    bool m_aggregate{true};                //!< aggregate the transports to their nodes
    std::vector<Ptr<D2dWifiTransport>> m_transports; //!< of the last Install()

    NetDeviceContainer m_devices;   //!< the Wi-Fi devices of the last Install(), in index order
    Ptr<D2dWifiNetwork> m_network;  //!< the shared network state of the last Install()
    Ptr<YansWifiChannel> m_channel; //!< the Wi-Fi channel of the last Install()
};

} // namespace ns3

#endif /* D2D_WIFI_HELPER_H */
