/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-network-options.h"

#include "ns3/boolean.h"
#include "ns3/d2d-helper.h"
#include "ns3/double.h"
#include "ns3/dynamic-rss-model.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/position-allocator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rectangle.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <fmt/format.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dNetworkOptions");

D2dNetworkOptions::D2dNetworkOptions(std::string defaultOutDir)
    : outDir(std::move(defaultOutDir)),
      m_initialD2sTxPowerDbm(d2sTxPowerDbm)
{
}

std::vector<D2dScenarioSupport::Param>
D2dNetworkOptions::GetParams() const
{
    // The attributes a parameter sets would silently override --ns3::Class::Attribute.
    return {{"nDevices", 'u'},
            {"mtuBytes", 'u', {"ns3::D2dChannel::MtuBytes"}},
            {"maxRetransmissions", 'u', {"ns3::D2dChannel::MaxRetransmissions"}},
            {"spectralEfficiency", 'd', {"ns3::D2dChannel::SpectralEfficiency"}},
            {"bandwidthHz", 'd', {"ns3::D2dChannel::BandwidthHz"}},
            {"noisePowerW", 'd', {"ns3::D2dChannel::NoisePowerW"}},
            // Also the D2S radios' unless --d2sTxPowerDbm is given.
            {"txPowerDbm", 'd', {"ns3::D2dRadio::TxPowerDbm"}},
            {"d2sTxPowerDbm", 'd'},
            {"reliable", 'b'},
            {"fastPath", 'b', {"ns3::D2dChannel::FastPath"}},
            {"rangeM", 'd', {"ns3::D2dChannel::RangeM"}},
            {"access", 's', {"ns3::D2dChannel::AccessPolicy"}},
            {"d2sDistanceFactor", 'd'},
            {"areaSideM", 'd'},
            {"speedMps", 'd'},
            {"initialEnergyJ",
             'd',
             {"ns3::BasicEnergySource::BasicEnergySourceInitialEnergyJ",
              "ns3::LiIonEnergySource::LiIonEnergySourceInitialEnergyJ"}},
            {"energyModel", 's', {"ns3::D2dRadioEnergyModel::Model"}},
            // D2dHelper sets the threshold of a BasicEnergySource to 0 (empty means depleted).
            {"energySource", 's', {"ns3::BasicEnergySource::BasicEnergyLowBatteryThreshold"}},
            {"dynamicRssLevels", 'u', {"ns3::DynamicRssModel::Levels"}},
            {"rssStep", 't', {"ns3::DynamicRssModel::StepInterval"}},
            {"rssFile", 's'},
            {"seed", 'U'},
            {"outDir", 's'},
            {"quiet", 'b'}};
}

bool
D2dNetworkOptions::SetD2sTxPower(std::string value)
{
    // CheckArguments() has already accepted the text as a finite real.
    try
    {
        size_t used = 0;
        const double dbm = std::stod(value, &used);
        if (used != value.size())
        {
            return false;
        }
        d2sTxPowerDbm = dbm;
        m_d2sFollowsTx = false;
        return true;
    }
    catch (const std::exception&)
    {
        return false;
    }
}

void
D2dNetworkOptions::AddValues(CommandLine& cmd)
{
    // A scenario that changed d2sTxPowerDbm before this call chose a D2S power of its own.
    m_d2sFollowsTx = d2sTxPowerDbm == m_initialD2sTxPowerDbm;
    m_valuesAdded = true;
    cmd.AddValue("nDevices",
                 "Number of devices (0: the scenario's default, or N of --rssFile)",
                 nDevices);
    cmd.AddValue("mtuBytes", "Fragment payload size, bytes", mtuBytes);
    cmd.AddValue("maxRetransmissions",
                 "Reliable mode: retransmissions per fragment before a send fails",
                 maxRetransmissions);
    cmd.AddValue("spectralEfficiency", "Rate of transmission r, bit/s/Hz", spectralEfficiency);
    cmd.AddValue("bandwidthHz", "Channel bandwidth, Hz", bandwidthHz);
    cmd.AddValue("noisePowerW", "Noise power sigma^2, W", noisePowerW);
    cmd.AddValue("txPowerDbm", "Transmit power, dBm", txPowerDbm);
    cmd.AddValue("d2sTxPowerDbm",
                 "Transmit power of the D2S radios (devices' and server's), dBm",
                 MakeCallback(&D2dNetworkOptions::SetD2sTxPower, this),
                 m_d2sFollowsTx ? std::string("--txPowerDbm") : fmt::format("{}", d2sTxPowerDbm));
    cmd.AddValue("reliable", "Reliable delivery (retransmissions)", reliable);
    cmd.AddValue("fastPath", "O(1) events per message instead of per fragment", fastPath);
    cmd.AddValue("rangeM",
                 "Hearing range of the D2D radios, m (0: no limit; with --rssFile a threshold "
                 "on W: the log-distance RSS at this distance)",
                 rangeM);
    cmd.AddValue("access",
                 "Channel access: immediate (raw radios, half-duplex losses) or scheduled "
                 "(ideal MAC with spatial reuse)",
                 access);
    cmd.AddValue("d2sDistanceFactor", "D2S distance over the mean D2D distance", d2sDistanceFactor);
    cmd.AddValue("areaSideM", "Side of the square area, m", areaSideM);
    cmd.AddValue("speedMps",
                 "Speed of a random walk in the square, m/s (0: devices do not move)",
                 speedMps);
    cmd.AddValue("initialEnergyJ", "Battery energy per device, J", initialEnergyJ);
    cmd.AddValue("energyModel", "Radio energy model: power or first-order", energyModel);
    cmd.AddValue("energySource", "Energy source: basic or liion", energySource);
    cmd.AddValue("dynamicRssLevels",
                 "Dynamic RSS with this many quantized states (0: off)",
                 dynamicRssLevels);
    cmd.AddValue("rssStep", "Dynamic RSS: time between redraws", rssStep);
    cmd.AddValue("rssFile", "CSV file with the N x N RSS matrix W_ij in W", rssFile);
    cmd.AddValue("seed", "Seed of every random stream", seed);
    cmd.AddValue("outDir", "Folder for the traces", outDir);
    cmd.AddValue("quiet", "No progress output", quiet);
}

void
D2dNetworkOptions::Validate(const D2dScenarioSupport& support,
                            uint32_t defaultDevices,
                            uint32_t minDevices)
{
    NS_LOG_FUNCTION(this << defaultDevices << minDevices);
    if (!m_valuesAdded)
    {
        m_d2sFollowsTx = d2sTxPowerDbm == m_initialD2sTxPowerDbm;
    }
    if (m_d2sFollowsTx)
    {
        d2sTxPowerDbm = txPowerDbm;
    }
    // One line naming the parameter and the accepted range, before simulating.
    support.CheckRange("nDevices", nDevices, 0, 100000);
    support.CheckRange("mtuBytes", mtuBytes, 1, 1e7);
    support.CheckRange("maxRetransmissions", maxRetransmissions, 0, 1000);
    support.CheckRange("spectralEfficiency", spectralEfficiency, 1e-9, 64);
    support.CheckRange("bandwidthHz", bandwidthHz, 1, 1e12);
    support.CheckRange("noisePowerW", noisePowerW, 0, 1e3);
    support.CheckRange("txPowerDbm", txPowerDbm, -100, 60);
    support.CheckRange("d2sTxPowerDbm", d2sTxPowerDbm, -100, 60);
    support.CheckRange("d2sDistanceFactor", d2sDistanceFactor, 1e-3, 1e6);
    support.CheckRange("areaSideM", areaSideM, 1e-3, 1e7);
    support.CheckRange("rangeM", rangeM, 0, 1e7);
    support.CheckChoice("access", access, {"immediate", "scheduled"});
    support.CheckRange("speedMps", speedMps, 0, 1e5);
    support.CheckRange("initialEnergyJ", initialEnergyJ, 1e-12, 1e12);
    support.CheckRange("dynamicRssLevels", dynamicRssLevels, 0, 1e6);
    support.CheckPositiveTime("rssStep", rssStep, Seconds(1e9));
    support.CheckRange("seed", static_cast<double>(seed), 1, 4294967295.0);
    support.CheckChoice("energyModel", energyModel, {"power", "first-order"});
    support.CheckChoice("energySource", energySource, {"basic", "liion"});
    if (!rssFile.empty() && dynamicRssLevels > 0)
    {
        support.Fail("--rssFile and --dynamicRssLevels cannot be combined (choose one RSS "
                     "source)");
    }
    m_matrix.clear();
    if (!rssFile.empty())
    {
        try
        {
            m_matrix = MatrixRssModel::ReadCsv(rssFile);
        }
        catch (const std::exception& e)
        {
            support.Fail(e.what());
        }
        if (nDevices != 0 && nDevices != m_matrix.size())
        {
            support.Fail(fmt::format("--nDevices={} does not match --rssFile, which holds a {} x "
                                     "{} matrix (accepted: 0 or {})",
                                     nDevices,
                                     m_matrix.size(),
                                     m_matrix.size(),
                                     m_matrix.size()));
        }
        nDevices = static_cast<uint32_t>(m_matrix.size());
    }
    if (nDevices == 0)
    {
        nDevices = defaultDevices;
    }
    support.CheckRange("nDevices", nDevices, minDevices, 100000);
    RngSeedManager::SetSeed(static_cast<uint32_t>(seed));
    RngSeedManager::SetRun(1);

    // The RSS model, checked like the parameters: before the trace files exist.
    m_rss = nullptr;
    if (!m_matrix.empty())
    {
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(m_matrix);
        m_rss = matrix;
    }
    else if (dynamicRssLevels > 0)
    {
        auto dynamic = CreateObject<DynamicRssModel>();
        dynamic->SetAttribute("Levels", UintegerValue(dynamicRssLevels));
        dynamic->SetAttribute("StepInterval", TimeValue(rssStep));
        dynamic->SetNDevices(nDevices);
        // Checks of what DynamicRssModel::Refresh() aborts on mid-simulation.
        DoubleValue minW;
        DoubleValue maxW;
        TimeValue step;
        dynamic->GetAttribute("MinW", minW);
        dynamic->GetAttribute("MaxW", maxW);
        dynamic->GetAttribute("StepInterval", step);
        if (!(minW.Get() < maxW.Get()))
        {
            support.Fail(fmt::format("--ns3::DynamicRssModel::MinW={} is not below "
                                     "--ns3::DynamicRssModel::MaxW={} (accepted: MinW < MaxW)",
                                     minW.Get(),
                                     maxW.Get()));
        }
        support.CheckPositiveTime("rssStep", step.Get(), Seconds(1e9));
        m_rss = dynamic;
    }
}

std::unique_ptr<D2dTraceHelper>
D2dNetworkOptions::OpenTraces(const D2dScenarioSupport& support) const
{
    try
    {
        return std::make_unique<D2dTraceHelper>(outDir);
    }
    catch (const std::exception& e)
    {
        support.Fail(e.what());
    }
}

NodeContainer
D2dNetworkOptions::CreateDevices() const
{
    NS_LOG_FUNCTION(this << nDevices);
    NodeContainer devices;
    devices.Create(nDevices);
    MobilityHelper mobility;
    auto position = CreateObject<RandomRectanglePositionAllocator>();
    auto side = CreateObject<UniformRandomVariable>();
    side->SetAttribute("Min", DoubleValue(0.0));
    side->SetAttribute("Max", DoubleValue(areaSideM));
    position->SetX(side);
    position->SetY(side);
    position->AssignStreams(0);
    mobility.SetPositionAllocator(position);
    if (speedMps > 0)
    {
        // RSS, P_D, delays and first-order distances follow the positions at send time.
        mobility.SetMobilityModel(
            "ns3::RandomWalk2dMobilityModel",
            "Bounds",
            RectangleValue(Rectangle(0, areaSideM, 0, areaSideM)),
            "Speed",
            StringValue(fmt::format("ns3::ConstantRandomVariable[Constant={}]", speedMps)));
    }
    else
    {
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    }
    mobility.Install(devices);
    mobility.AssignStreams(devices, 1000);
    return devices;
}

D2dNetwork
D2dNetworkOptions::Build(D2dTraceHelper& traces, bool withServer)
{
    NS_LOG_FUNCTION(this << withServer);
    D2dNetwork network;
    network.devices = CreateDevices();

    D2dHelper d2d;
    if (m_rss)
    {
        d2d.SetRssModel(m_rss);
    }
    d2d.SetChannelAttribute("SpectralEfficiency", DoubleValue(spectralEfficiency));
    d2d.SetChannelAttribute("BandwidthHz", DoubleValue(bandwidthHz));
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(noisePowerW));
    d2d.SetChannelAttribute("MtuBytes", UintegerValue(mtuBytes));
    d2d.SetChannelAttribute("MaxRetransmissions", UintegerValue(maxRetransmissions));
    d2d.SetChannelAttribute("FastPath", BooleanValue(fastPath));
    d2d.SetChannelAttribute("RangeM", DoubleValue(rangeM));
    d2d.SetChannelAttribute("AccessPolicy",
                            EnumValue(access == "scheduled" ? D2dChannelAccess::SCHEDULED
                                                            : D2dChannelAccess::IMMEDIATE));
    d2d.SetRadioAttribute("TxPowerDbm", DoubleValue(txPowerDbm));
    d2d.SetD2sRadioAttribute("TxPowerDbm", DoubleValue(d2sTxPowerDbm));
    d2d.SetRadioEnergyAttribute("Model",
                                StringValue(energyModel == "power" ? "Power" : "FirstOrder"));
    if (energySource == "liion")
    {
        d2d.SetEnergySourceType("ns3::LiIonEnergySource");
        d2d.SetEnergySourceAttribute("LiIonEnergySourceInitialEnergyJ",
                                     DoubleValue(initialEnergyJ));
    }
    else
    {
        d2d.SetEnergySourceAttribute("BasicEnergySourceInitialEnergyJ",
                                     DoubleValue(initialEnergyJ));
    }
    network.channel = d2d.Install(network.devices);
    if (withServer)
    {
        network.server = CreateObject<Node>();
        network.d2s = d2d.InstallServer(network.server, network.devices, d2sDistanceFactor);
        traces.ConnectChannel(network.d2s);
    }
    network.nextStream = FIRST_CHANNEL_STREAM + d2d.AssignStreams(FIRST_CHANNEL_STREAM);
    traces.ConnectEnergy(network.devices);
    traces.ConnectChannel(network.channel);
    network.mode = reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    return network;
}

void
D2dNetworkOptions::Record(D2dTraceHelper& traces, const D2dNetwork& network) const
{
    // The seed is run.json's own "seed" (D2dTraceHelper::Finish()).
    traces.AddParameter("nDevices", nDevices);
    traces.AddParameter("mtuBytes", mtuBytes);
    traces.AddParameter("maxRetransmissions", maxRetransmissions);
    traces.AddParameter("spectralEfficiency", spectralEfficiency);
    traces.AddParameter("bandwidthHz", bandwidthHz);
    traces.AddParameter("noisePowerW", noisePowerW);
    traces.AddParameter("txPowerDbm", txPowerDbm);
    traces.AddParameter("d2sTxPowerDbm", d2sTxPowerDbm);
    traces.AddParameter("reliable", reliable);
    traces.AddParameter("fastPath", fastPath);
    traces.AddParameter("rangeM", rangeM);
    traces.AddParameter("access", access);
    traces.AddParameter("d2sDistanceFactor", d2sDistanceFactor);
    traces.AddParameter("areaSideM", areaSideM);
    traces.AddParameter("speedMps", speedMps);
    traces.AddParameter("initialEnergyJ", initialEnergyJ);
    traces.AddParameter("energyModel", energyModel);
    traces.AddParameter("energySource", energySource);
    traces.AddParameter("dynamicRssLevels", dynamicRssLevels);
    traces.AddParameter("rssStep_s", rssStep.GetSeconds());
    traces.AddParameter("rssFile", rssFile);
    traces.AddParameter("outDir", outDir);
    traces.AddParameter("quiet", quiet);
    if (network.channel)
    {
        traces.AddAttributes(network.channel->GetRadio(0));
        traces.AddParameter("linkRateBps", network.channel->GetRateBps());
        traces.AddAttributes(network.channel);
        traces.AddAttributes(network.channel->GetRadio(0)->GetEnergyModel());
        traces.AddAttributes(D2dHelper::GetComputeModel(network.devices.Get(0)));
        traces.AddAttributes(network.channel->GetRssModel());
    }
}

} // namespace ns3
