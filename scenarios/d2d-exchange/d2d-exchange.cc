/*
 * d2dlearn scenario: devices exchange messages over lossy D2D links.
 *
 * N devices (random positions in a square, or an RSS matrix from --rssFile) each send
 * messages of a given size, at exponential intervals, to random peers, by broadcast, or
 * to a server over the device-to-server link. The messages go over the D2D channel model
 * (--backend=channel) or as packets over 802.11 ad hoc (--backend=wifi). Writes
 * messages.csv, energy.csv and run.json into --outDir.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/dynamic-rss-model.h"
#include "ns3/energy-module.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"

#include <fmt/format.h>
#include <stdexcept>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("D2dExchange");

namespace
{
/** Traffic of one device: Poisson arrivals of messages. */
struct Traffic
{
    Ptr<D2dTransport> radio;
    Ptr<D2dTransport> d2sRadio;
    uint32_t nDevices{0};
    uint32_t serverIndex{0};
    uint64_t messageBytes{0};
    D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE};
    bool broadcast{false};
    double d2sFraction{0.0};
    Time stop;
    Ptr<ExponentialRandomVariable> interval;
    Ptr<UniformRandomVariable> pick;
    Ptr<const D2dMessage> message;
};

void
SendNext(Traffic* t)
{
    if (Simulator::Now() >= t->stop || t->radio->IsOff())
    {
        return;
    }
    const uint32_t self = t->radio->GetIndex();
    if (t->d2sRadio && t->pick->GetValue() < t->d2sFraction)
    {
        t->d2sRadio->Send(t->message, t->serverIndex, t->mode);
    }
    else if (t->broadcast)
    {
        t->radio->Send(t->message, D2D_BROADCAST, t->mode);
    }
    else
    {
        // A peer other than self, uniformly.
        uint32_t peer = t->pick->GetInteger(0, t->nDevices - 2);
        peer += (peer >= self) ? 1 : 0;
        t->radio->Send(t->message, peer, t->mode);
    }
    Simulator::Schedule(Seconds(t->interval->GetValue()), &SendNext, t);
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 0;              // devices (0: 10, or the size of --rssFile)
    uint64_t messageBytes = 100000;     // bytes per message
    uint32_t mtuBytes = 0;              // fragment payload, bytes (0: 1500 channel, 1400 wifi)
    double spectralEfficiency = 2.0;    // r of eq. (18), bit/s/Hz
    double bandwidthHz = 10e6;          // Hz; link rate = r x bandwidth
    double noisePowerW = 1e-13;         // sigma^2 of eq. (18), W
    double txPowerDbm = 20.0;           // transmit power, dBm
    bool reliable = false;              // retransmit lost fragments
    bool fastPath = true;               // O(1) events per message
    bool broadcast = false;             // broadcast instead of unicast to random peers
    double d2sFraction = 0.0;           // fraction of messages sent to the server
    double d2sDistanceFactor = 3.0;     // D2S distance / mean D2D distance
    Time duration = Seconds(10);        // simulated time
    Time meanInterval = Seconds(1);     // mean time between a device's messages
    double areaSideM = 200.0;           // side of the square the devices are placed in, m
    double speedMps = 0.0;              // > 0: devices walk at random in the square, m/s
    double initialEnergyJ = 10000.0;    // battery per device, J
    std::string energyModel = "power";  // radio energy: power | first-order
    std::string energySource = "basic"; // basic | liion
    uint32_t dynamicRssLevels = 0;      // > 0: dynamic RSS (seed 002 VI-P) with that many states
    Time rssStep = Seconds(1);          // dynamic RSS: time between redraws
    std::string rssFile;                // N x N RSS matrix (W), replaces positions
    uint64_t seed = 1;                  // seeds every RNG stream
    std::string outDir = "results/d2d-exchange"; // trace folder
    bool quiet = false;                          // no progress on stderr
    std::string backend = "channel";             // channel (eq. 18 model) or wifi (802.11 ad hoc)

    D2dScenarioSupport support("d2d-exchange");
    // The attributes a parameter sets would silently override --ns3::Class::Attribute.
    support.CheckArguments(
        argc,
        argv,
        {{"nDevices", 'u'},
         {"messageBytes", 'U'},
         {"mtuBytes", 'u', {"ns3::D2dChannel::MtuBytes", "ns3::D2dWifiTransport::MtuBytes"}},
         {"spectralEfficiency", 'd', {"ns3::D2dChannel::SpectralEfficiency"}},
         {"bandwidthHz", 'd', {"ns3::D2dChannel::BandwidthHz"}},
         {"noisePowerW", 'd', {"ns3::D2dChannel::NoisePowerW"}},
         {"txPowerDbm",
          'd',
          {"ns3::D2dRadio::TxPowerDbm", "ns3::WifiPhy::TxPowerStart", "ns3::WifiPhy::TxPowerEnd"}},
         {"reliable", 'b'},
         {"fastPath", 'b', {"ns3::D2dChannel::FastPath"}},
         {"broadcast", 'b'},
         {"d2sFraction", 'd'},
         {"d2sDistanceFactor", 'd'},
         {"duration", 't'},
         {"meanInterval", 't'},
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
         {"backend", 's'},
         {"quiet", 'b'}});

    CommandLine cmd(__FILE__);
    cmd.AddValue("nDevices", "Number of devices (0: 10, or N of --rssFile)", nDevices);
    cmd.AddValue("messageBytes", "Message size, bytes", messageBytes);
    cmd.AddValue("mtuBytes", "Fragment payload size, bytes", mtuBytes);
    cmd.AddValue("spectralEfficiency", "Rate of transmission r, bit/s/Hz", spectralEfficiency);
    cmd.AddValue("bandwidthHz", "Channel bandwidth, Hz", bandwidthHz);
    cmd.AddValue("noisePowerW", "Noise power sigma^2, W", noisePowerW);
    cmd.AddValue("txPowerDbm", "Transmit power, dBm", txPowerDbm);
    cmd.AddValue("reliable", "Reliable delivery (retransmissions)", reliable);
    cmd.AddValue("fastPath", "O(1) events per message instead of per fragment", fastPath);
    cmd.AddValue("broadcast", "Broadcast every message instead of unicasting", broadcast);
    cmd.AddValue("d2sFraction", "Fraction of messages sent to the server (D2S)", d2sFraction);
    cmd.AddValue("d2sDistanceFactor", "D2S distance over the mean D2D distance", d2sDistanceFactor);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("meanInterval", "Mean time between a device's messages", meanInterval);
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
    cmd.AddValue("backend", "Messaging backend: channel (eq. 18 model) or wifi (802.11)", backend);
    cmd.Parse(argc, argv);

    // Validation: one line naming the parameter and the accepted range, before simulating.
    support.CheckRange("nDevices", nDevices, 0, 100000);
    support.CheckRange("messageBytes", static_cast<double>(messageBytes), 1, 1e10);
    if (backend != "channel" && backend != "wifi")
    {
        support.Fail("--backend=" + backend + " is not accepted (channel or wifi)");
    }
    const bool wifi = backend == "wifi";
    if (mtuBytes == 0)
    {
        mtuBytes = wifi ? 1400 : 1500;
    }
    // Wi-Fi: a fragment and its 60 bytes of IP, UDP and d2dlearn headers fit a 1500-byte MTU.
    support.CheckRange("mtuBytes", mtuBytes, 1, wifi ? 1440 : 1e7);
    support.CheckRange("spectralEfficiency", spectralEfficiency, 1e-9, 64);
    support.CheckRange("bandwidthHz", bandwidthHz, 1, 1e12);
    support.CheckRange("noisePowerW", noisePowerW, 0, 1e3);
    support.CheckRange("txPowerDbm", txPowerDbm, -100, 60);
    support.CheckRange("d2sFraction", d2sFraction, 0, 1);
    support.CheckRange("d2sDistanceFactor", d2sDistanceFactor, 1e-3, 1e6);
    support.CheckPositiveTime("duration", duration, Seconds(1e9));
    support.CheckPositiveTime("meanInterval", meanInterval, Seconds(1e9));
    support.CheckRange("areaSideM", areaSideM, 1e-3, 1e7);
    support.CheckRange("speedMps", speedMps, 0, 1e5);
    support.CheckRange("initialEnergyJ", initialEnergyJ, 1e-12, 1e12);
    support.CheckRange("dynamicRssLevels", dynamicRssLevels, 0, 1e6);
    support.CheckPositiveTime("rssStep", rssStep, Seconds(1e9));
    support.CheckRange("seed", static_cast<double>(seed), 1, 4294967295.0);
    if (energyModel != "power" && energyModel != "first-order")
    {
        support.Fail("--energyModel=" + energyModel + " is not accepted (power or first-order)");
    }
    if (energySource != "basic" && energySource != "liion")
    {
        support.Fail("--energySource=" + energySource + " is not accepted (basic or liion)");
    }
    if (wifi && (d2sFraction > 0 || !rssFile.empty() || dynamicRssLevels > 0))
    {
        support.Fail("--backend=wifi takes its RSS from ns-3's Wi-Fi channel and has no server: "
                     "--d2sFraction, --rssFile and --dynamicRssLevels need --backend=channel");
    }
    if (!rssFile.empty() && dynamicRssLevels > 0)
    {
        support.Fail("--rssFile and --dynamicRssLevels cannot be combined (choose one RSS "
                     "source)");
    }
    std::vector<std::vector<double>> rssMatrix;
    if (!rssFile.empty())
    {
        try
        {
            rssMatrix = MatrixRssModel::ReadCsv(rssFile);
        }
        catch (const std::exception& e)
        {
            support.Fail(e.what());
        }
        if (nDevices != 0 && nDevices != rssMatrix.size())
        {
            support.Fail(fmt::format("--nDevices={} does not match --rssFile, which holds a {} x "
                                     "{} matrix (accepted: 0 or {})",
                                     nDevices,
                                     rssMatrix.size(),
                                     rssMatrix.size(),
                                     rssMatrix.size()));
        }
        nDevices = static_cast<uint32_t>(rssMatrix.size());
    }
    if (nDevices == 0)
    {
        nDevices = 10;
    }
    support.CheckRange("nDevices", nDevices, 2, 100000);
    support.SetQuiet(quiet);
    RngSeedManager::SetSeed(static_cast<uint32_t>(seed));
    RngSeedManager::SetRun(1);

    // The RSS model, checked like the parameters: before the trace files exist.
    Ptr<D2dRssModel> rss;
    if (!rssMatrix.empty())
    {
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(rssMatrix);
        rss = matrix;
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
        rss = dynamic;
    }

    std::unique_ptr<D2dTraceHelper> traces;
    try
    {
        traces = std::make_unique<D2dTraceHelper>(outDir);
    }
    catch (const std::exception& e)
    {
        support.Fail(e.what());
    }

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

    D2dHelper d2d;
    if (rss)
    {
        d2d.SetRssModel(rss);
    }
    d2d.SetChannelAttribute("SpectralEfficiency", DoubleValue(spectralEfficiency));
    d2d.SetChannelAttribute("BandwidthHz", DoubleValue(bandwidthHz));
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(noisePowerW));
    d2d.SetChannelAttribute("MtuBytes", UintegerValue(mtuBytes));
    d2d.SetChannelAttribute("FastPath", BooleanValue(fastPath));
    d2d.SetRadioAttribute("TxPowerDbm", DoubleValue(txPowerDbm));
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
    // The devices' transports: radios on the D2D channel, or 802.11 ad hoc.
    std::vector<Ptr<D2dTransport>> transports;
    Ptr<D2dChannel> channel;
    Ptr<D2dChannel> d2s;
    Ptr<Node> server;
    int64_t stream = 10;
    D2dWifiHelper wifiHelper;
    if (wifi)
    {
        wifiHelper.SetTransportAttribute("MtuBytes", UintegerValue(mtuBytes));
        wifiHelper.SetPhyAttribute("TxPowerStart", DoubleValue(txPowerDbm));
        wifiHelper.SetPhyAttribute("TxPowerEnd", DoubleValue(txPowerDbm));
        for (auto& t : wifiHelper.Install(devices))
        {
            transports.push_back(t);
        }
        stream += wifiHelper.AssignStreams(stream);
    }
    else
    {
        channel = d2d.Install(devices);
        if (d2sFraction > 0)
        {
            server = CreateObject<Node>();
            d2s = d2d.InstallServer(server, devices, d2sDistanceFactor);
            traces->ConnectChannel(d2s);
        }
        stream += d2d.AssignStreams(stream);
        for (uint32_t i = 0; i < nDevices; ++i)
        {
            transports.push_back(channel->GetRadio(i));
        }
        traces->ConnectEnergy(devices);
    }
    for (auto& t : transports)
    {
        traces->ConnectTransport(t);
    }

    auto message = Create<D2dMessage>("data", messageBytes);
    std::vector<Traffic> traffic(nDevices);
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        Traffic& t = traffic[i];
        t.radio = transports[i];
        t.d2sRadio = d2s ? d2s->GetRadio(i) : nullptr;
        t.nDevices = nDevices;
        t.serverIndex = nDevices;
        t.messageBytes = messageBytes;
        t.mode = reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
        t.broadcast = broadcast;
        t.d2sFraction = d2sFraction;
        t.stop = duration;
        t.interval = CreateObject<ExponentialRandomVariable>();
        t.interval->SetAttribute("Mean", DoubleValue(meanInterval.GetSeconds()));
        t.interval->SetStream(stream++);
        t.pick = CreateObject<UniformRandomVariable>();
        t.pick->SetStream(stream++);
        t.message = message;
        Simulator::Schedule(Seconds(t.interval->GetValue()), &SendNext, &t);
    }

    // run.json: the command line, every parameter and the attributes in force.
    std::string commandLine;
    for (int i = 1; i < argc; ++i)
    {
        commandLine += (i > 1 ? " " : "") + std::string(argv[i]);
    }
    traces->AddParameter("commandLine", commandLine);
    traces->AddParameter("nDevices", nDevices);
    traces->AddParameter("messageBytes", messageBytes);
    traces->AddParameter("mtuBytes", mtuBytes);
    traces->AddParameter("spectralEfficiency", spectralEfficiency);
    traces->AddParameter("bandwidthHz", bandwidthHz);
    traces->AddParameter("noisePowerW", noisePowerW);
    traces->AddParameter("txPowerDbm", txPowerDbm);
    traces->AddParameter("reliable", reliable);
    traces->AddParameter("fastPath", fastPath);
    traces->AddParameter("broadcast", broadcast);
    traces->AddParameter("d2sFraction", d2sFraction);
    traces->AddParameter("d2sDistanceFactor", d2sDistanceFactor);
    traces->AddParameter("duration_s", duration.GetSeconds());
    traces->AddParameter("meanInterval_s", meanInterval.GetSeconds());
    traces->AddParameter("areaSideM", areaSideM);
    traces->AddParameter("speedMps", speedMps);
    traces->AddParameter("initialEnergyJ", initialEnergyJ);
    traces->AddParameter("energyModel", energyModel);
    traces->AddParameter("energySource", energySource);
    traces->AddParameter("dynamicRssLevels", dynamicRssLevels);
    traces->AddParameter("rssStep_s", rssStep.GetSeconds());
    traces->AddParameter("rssFile", rssFile);
    traces->AddParameter("outDir", outDir);
    traces->AddParameter("backend", backend);
    traces->AddAttributes(transports[0]);
    if (channel)
    {
        traces->AddParameter("linkRateBps", channel->GetRateBps());
        traces->AddAttributes(channel);
        traces->AddAttributes(channel->GetRadio(0)->GetEnergyModel());
        traces->AddAttributes(D2dHelper::GetComputeModel(devices.Get(0)));
        traces->AddAttributes(channel->GetRssModel());
    }

    support.StartProgress(duration / 10, duration);
    Simulator::Stop(duration);
    Simulator::Run();
    try
    {
        traces->Finish(seed, support.WallSeconds());
    }
    catch (const std::exception& e)
    {
        traces.reset(); // deletes the temporary files (Fail exits without unwinding)
        support.Fail(e.what());
    }
    if (!quiet)
    {
        std::fprintf(stderr,
                     "d2d-exchange: %llu message rows, %llu energy rows in %s\n",
                     static_cast<unsigned long long>(traces->GetNMessageRows()),
                     static_cast<unsigned long long>(traces->GetNEnergyRows()),
                     outDir.c_str());
    }
    Simulator::Destroy();
    return 0;
}
