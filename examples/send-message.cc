/*
 * d2dlearn example: the messaging API.
 *
 * Three devices on a D2D channel. Device 0 sends a message that carries a payload by
 * reference (here a vector of floats standing for model weights) to device 1 in reliable
 * mode, and broadcasts a datapoint offer unreliably; receivers print what arrived. The
 * channel charges airtime for the message's true size, not for the payload object.
 *
 *   build/bin/send-message [--distanceM=150] [--noisePowerW=1e-13]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

/** A payload: what a learning protocol would share (never copied by the channel). */
struct Weights : public D2dPayload
{
    std::vector<float> values;
};

int
main(int argc, char* argv[])
{
    double distanceM = 150.0;   // spacing of the devices on a line, m
    double noisePowerW = 1e-13; // sigma^2 of eq. (18), W

    CommandLine cmd(__FILE__);
    cmd.AddValue("distanceM", "Spacing of the devices, m", distanceM);
    cmd.AddValue("noisePowerW", "Noise power sigma^2, W", noisePowerW);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(3);
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                  "DeltaX",
                                  DoubleValue(distanceM),
                                  "GridWidth",
                                  UintegerValue(3));
    mobility.Install(nodes);

    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(noisePowerW));
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    d2d.AssignStreams(1);

    for (uint32_t i = 0; i < 3; ++i)
    {
        channel->GetRadio(i)->SetReceiveCallback(
            Callback<void, const D2dReception&>([](const D2dReception& r) {
                std::cout << Simulator::Now().As(Time::MS) << " device " << r.dst << " got "
                          << r.message->GetKind() << " #" << r.msgId << " from " << r.src << ": "
                          << r.fragmentsReceived << "/" << r.fragments << " fragments";
                if (auto w = r.message->GetPayloadAs<Weights>())
                {
                    std::cout << ", " << w->values.size() << " weights by reference";
                }
                if (r.message->GetItems() > 0)
                {
                    std::cout << ", " << r.ItemsReceived() << "/" << r.message->GetItems()
                              << " datapoints";
                }
                std::cout << "\n";
            }));
    }
    channel->GetRadio(0)->SetSendDoneCallback(
        Callback<void, uint64_t, uint32_t, bool>([](uint64_t id, uint32_t dst, bool ok) {
            std::cout << Simulator::Now().As(Time::MS) << " device 0: message #" << id
                      << (ok ? " done" : " FAILED") << "\n";
        }));

    for (uint32_t j = 1; j < 3; ++j)
    {
        std::cout << "P_D(" << j << ", 0) = " << channel->GetDropProbability(j, 0)
                  << " (eq. 18), link rate " << channel->GetRateBps() / 1e6 << " Mbit/s\n";
    }
    auto weights = std::make_shared<Weights>();
    weights->values.assign(101770, 0.5f); // a 784-128-10 MLP
    auto update =
        Create<D2dMessage>("model_update", weights->values.size() * sizeof(float), weights);
    auto offer = Create<D2dMessage>("datapoints", 50 * 785 * 4, nullptr, 50);

    channel->GetRadio(0)->Send(update, 1, D2dDeliveryMode::RELIABLE);
    channel->GetRadio(0)->Send(offer, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);

    Simulator::Stop(Seconds(2));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
