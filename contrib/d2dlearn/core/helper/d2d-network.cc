/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-network.h"

#include "d2d-helper.h"

#include "ns3/abort.h"
#include "ns3/mobility-model.h"

namespace ns3
{

void
D2dNetwork::ConnectEnergyEvents(
    const Callback<void, Time, uint32_t, const std::string&, double, double, Time, double>&
        callback) const
{
    NodeContainer nodes(devices);
    if (server)
    {
        nodes.Add(server);
    }
    for (const auto& model : D2dHelper::GetEnergyModels(nodes))
    {
        model->TraceConnectWithoutContext("EnergyEvent", callback);
    }
    for (const auto& meter : wifiMeters)
    {
        meter->TraceConnectWithoutContext("EnergyEvent", callback);
    }
}

bool
D2dNetwork::Hears(uint32_t rx, uint32_t tx) const
{
    if (channel)
    {
        return channel->Hears(rx, tx);
    }
    NS_ABORT_MSG_IF(!wifiLoss, "D2dNetwork::Hears: neither a channel nor a Wi-Fi loss model");
    if (rx == tx)
    {
        return false;
    }
    auto rxMobility = devices.Get(rx)->GetObject<MobilityModel>();
    auto txMobility = devices.Get(tx)->GetObject<MobilityModel>();
    return wifiLoss->CalcRxPower(wifiTxPowerDbm, txMobility, rxMobility) >= wifiHearDbm;
}

std::vector<std::vector<uint32_t>>
D2dNetwork::InNeighbours() const
{
    if (channel)
    {
        return D2dHelper::InNeighbours(channel);
    }
    const uint32_t n = devices.GetN();
    std::vector<std::vector<uint32_t>> in(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (Hears(j, i))
            {
                in[j].push_back(i);
            }
        }
    }
    return in;
}

} // namespace ns3
