/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_NETWORK_H
#define D2D_NETWORK_H

#include "ns3/callback.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-link-quality.h"
#include "ns3/d2d-transport.h"
#include "ns3/d2d-wifi-energy-meter.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/propagation-loss-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The network a scenario runs on, as the scenario layer's D2dNetworkOptions::Build()
 * makes it (devices, channels or Wi-Fi, transports), what helpers such as
 * D2dLearningHelper::Install() take.
 */
struct D2dNetwork
{
    NodeContainer devices; //!< the devices: device i is node index i
    /** the D2D channel (channel->GetRadio(i) is device i's); null over Wi-Fi */
    Ptr<D2dChannel> channel;
    Ptr<Node> server;    //!< the server, null unless Build(..., withServer = true)
    Ptr<D2dChannel> d2s; //!< D2S channel: device i has radio i, the server radio N; null over Wi-Fi
    /** device i's D2D transport at index i, whatever the backend */
    std::vector<Ptr<D2dTransport>> d2dTransports;
    /** device i's D2S transport at index i and the server's at N; empty without a server */
    std::vector<Ptr<D2dTransport>> d2sTransports;
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< RELIABLE if --reliable
    int64_t nextStream{0}; //!< first RNG stream index still free for the scenario
    /** Wi-Fi: the D2D network's loss model (who hears whom); null on the channel */
    Ptr<PropagationLossModel> wifiLoss;
    double wifiTxPowerDbm{0}; //!< Wi-Fi: the devices' transmit power, dBm
    double wifiHearDbm{-82};  //!< Wi-Fi: least received power a PHY detects a frame at, dBm
    /**
     * The link quality a protocol decides with (D2dLinkQuality: P_D and RSS of each link):
     * on the channel, the channel itself (its eq. (18), what its messages are lost with);
     * over Wi-Fi, a D2dRssLinkQuality: eq. (18) at the RSS the Wi-Fi loss model gives at the
     * devices' transmit power (P_D = 1 below wifiHearDbm), an estimate from what a device
     * measures, while 802.11's PHY decides which frames are lost (messages.csv).
     */
    Ptr<D2dLinkQuality> links;
    /** Wi-Fi: the meters of the 802.11 radios' energy (D2D, then D2S); empty on the channel */
    std::vector<Ptr<D2dWifiEnergyMeter>> wifiMeters;

    /**
     * \brief Connect a callback to every energy event of the network, whatever the backend:
     * the EnergyEvent of each D2dEnergyModel of the devices and the server (D2D and D2S
     * radios on the channel, computation) and of each Wi-Fi energy meter.
     * \param callback called with (time, node, component, energy J, remaining J)
     */
    void ConnectEnergyEvents(
        const Callback<void, Time, uint32_t, const std::string&, double, double, Time, double>&
            callback) const;

    /**
     * \param rx receiver
     * \param tx transmitter
     * \return on the channel, channel->Hears(rx, tx); over Wi-Fi, whether the power received
     *         from tx (the loss model at the positions now) reaches wifiHearDbm, the preamble
     *         detection threshold of the PHYs (ns3::ThresholdPreambleDetectionModel::MinimumRssi)
     */
    bool Hears(uint32_t rx, uint32_t tx) const;
    /**
     * \return in[j]: the devices j hears, ascending (on the channel
     *         D2dHelper::InNeighbours(channel)); e.g. D2dDecentralizedFl::SetGraph's graph
     */
    std::vector<std::vector<uint32_t>> InNeighbours() const;
};

} // namespace ns3

#endif /* D2D_NETWORK_H */
