/*
 * d2dlearn example: energy tracing.
 *
 * D2dHelper gives every device a battery (an ns-3 EnergySource) that two D2dEnergyModels
 * draw from: the radio's D2dRadioEnergyModel and the D2dComputeModel. Each reports the
 * energy of every period of constant draw through its "EnergyEvent" trace source, as
 * (end time, node, component, energy J, remaining J, start time, power W). This program connects to
 * those sources, lets device 0 send one message to device 1 and then compute, and prints the energy
 * per device and component and what each battery lost (the traces add up to it).
 *
 *   build/bin/energy-trace [--messageBytes=100000] [--flops=1e9] [--csv=energy-rows.csv]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/energy-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{
std::map<std::pair<uint32_t, std::string>, double> g_energyJ; //!< (node, component) -> J
std::ofstream g_csv;                                          //!< every row, if --csv

/** The EnergyEvent trace sink: one period of constant draw of one component ended. */
void
OnEnergyEvent(Time time,
              uint32_t node,
              const std::string& component,
              double energyJ,
              double remainingJ,
              Time start,
              double powerW)
{
    g_energyJ[{node, component}] += energyJ;
    if (g_csv.is_open())
    {
        g_csv << time.GetSeconds() << "," << node << "," << component << "," << energyJ << ","
              << remainingJ << "," << start.GetSeconds() << "," << powerW << "\n";
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    uint64_t messageBytes = 100000; // size of the message from device 0 to device 1, bytes
    double flops = 1e9;             // device 0's compute job, FLOP
    std::string csv;                // optional file for every trace row

    CommandLine cmd(__FILE__);
    cmd.AddValue("messageBytes", "Message size, bytes", messageBytes);
    cmd.AddValue("flops", "Floating-point operations of device 0's compute job", flops);
    cmd.AddValue("csv", "Write every energy row to this CSV file", csv);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(2);
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator", "DeltaX", DoubleValue(20.0));
    mobility.Install(nodes);

    D2dHelper d2d;
    d2d.SetInitialEnergyJ(100.0);
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    d2d.AssignStreams(1);

    // Every D2dEnergyModel of every battery.
    std::vector<Ptr<D2dEnergyModel>> models = D2dHelper::GetEnergyModels(nodes);
    for (const auto& model : models)
    {
        model->TraceConnectWithoutContext("EnergyEvent", MakeCallback(&OnEnergyEvent));
    }
    if (!csv.empty())
    {
        g_csv.open(csv);
        g_csv << std::setprecision(12)
              << "sim_time_s,node,component,energy_j,remaining_j,start_s,power_w\n";
    }

    // Device 0 sends, then computes once the message is out (send-done).
    Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(0));
    channel->GetRadio(0)->SetSendDoneCallback(
        Callback<void, uint64_t, uint32_t, bool>([compute, flops](uint64_t, uint32_t, bool) {
            compute->StartJob(flops, Callback<void>([]() {}));
        }));
    channel->GetRadio(0)->Send(Create<D2dMessage>("data", messageBytes),
                               1,
                               D2dDeliveryMode::UNRELIABLE);
    std::printf("airtime of the message: %.9f s, compute job: %.9f s\n",
                channel->GetAirtime(messageBytes).GetSeconds(),
                compute->GetJobDuration(flops).GetSeconds());

    Simulator::Stop(Seconds(2));
    Simulator::Run();
    for (auto& model : models)
    {
        model->Flush(); // report the periods still open at the end of the run
    }
    for (const auto& [key, energyJ] : g_energyJ)
    {
        std::printf("device %u %s %.9f J\n", key.first, key.second.c_str(), energyJ);
    }
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<EnergySource> source = nodes.Get(i)->GetObject<EnergySourceContainer>()->Get(0);
        std::printf("device %u battery lost %.9f J\n",
                    i,
                    source->GetInitialEnergy() - source->GetRemainingEnergy());
    }
    g_csv.close();
    Simulator::Destroy();
    return 0;
}
