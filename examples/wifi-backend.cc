/*
 * d2dlearn example: the Wi-Fi backend.
 *
 * Protocols talk to a D2dTransport; D2dWifiHelper makes one D2dWifiTransport per node,
 * which carries messages as UDP packets over 802.11a ad hoc devices (ns-3 WifiNetDevice,
 * YANS channel, 6 Mbit/s) instead of the D2D channel model. The calls are those of
 * send-message.cc on the channel: Send(message, dst, mode), a receive callback and a
 * send-done callback. Device 0 sends a model reliably to device 1 and broadcasts a short
 * message unreliably; the receivers print what arrived, the transports what they sent.
 *
 *   build/bin/wifi-backend [--distanceM=20] [--modelBytes=20000]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"

#include <iostream>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double distanceM = 20.0;     // spacing of the devices on a line, m (links reach ~51 m)
    uint64_t modelBytes = 20000; // size of the model sent to device 1, bytes
    uint32_t mtuBytes = 1400;    // payload bytes per packet

    CommandLine cmd(__FILE__);
    cmd.AddValue("distanceM", "Spacing of the devices, m", distanceM);
    cmd.AddValue("modelBytes", "Size of the model sent to device 1, bytes", modelBytes);
    cmd.AddValue("mtuBytes", "Payload bytes per packet (at most 1440)", mtuBytes);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(3);
    MobilityHelper mobility; // the Wi-Fi channel needs positions
    mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                  "DeltaX",
                                  DoubleValue(distanceM),
                                  "GridWidth",
                                  UintegerValue(3));
    mobility.Install(nodes);

    D2dWifiHelper wifi;
    wifi.SetTransportAttribute("MtuBytes", UintegerValue(mtuBytes));
    wifi.SetPhyAttribute("TxPowerStart", DoubleValue(16.0)); // dBm
    wifi.SetPhyAttribute("TxPowerEnd", DoubleValue(16.0));
    std::vector<Ptr<D2dWifiTransport>> transports = wifi.Install(nodes);
    wifi.AssignStreams(1);

    for (auto& transport : transports)
    {
        transport->SetReceiveCallback(
            Callback<void, const D2dReception&>([](const D2dReception& r) {
                std::cout << Simulator::Now().As(Time::MS) << " device " << r.dst << " got "
                          << r.message->GetKind() << " #" << r.msgId << " from " << r.src << ": "
                          << r.fragmentsReceived << "/" << r.fragments << " packets, "
                          << (r.IsComplete() ? "complete" : "partial") << "\n";
            }));
    }
    transports[0]->SetSendDoneCallback(
        Callback<void, uint64_t, uint32_t, bool>([](uint64_t id, uint32_t dst, bool ok) {
            std::cout << Simulator::Now().As(Time::MS) << " device 0: message #" << id
                      << (ok ? " done" : " FAILED") << "\n";
        }));

    std::cout << "a " << modelBytes << "-byte model is " << transports[0]->GetNFragments(modelBytes)
              << " packets\n";
    transports[0]->Send(Create<D2dMessage>("model", modelBytes), 1, D2dDeliveryMode::RELIABLE);
    transports[0]->Send(Create<D2dMessage>("hello", 100),
                        D2D_BROADCAST,
                        D2dDeliveryMode::UNRELIABLE);

    Simulator::Stop(Seconds(5));
    Simulator::Run();
    for (uint32_t i = 0; i < transports.size(); ++i)
    {
        std::cout << "device " << i << " sent " << transports[i]->GetNPacketsSent()
                  << " packets, received " << transports[i]->GetNPacketsReceived() << "\n";
    }
    Simulator::Destroy();
    return 0;
}
