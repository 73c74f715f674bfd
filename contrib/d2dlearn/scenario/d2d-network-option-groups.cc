/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-network-option-groups.h"

#include "d2d-device-profile-options.h"
#include "d2d-mobility-options.h"
#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/basic-energy-source.h"
#include "ns3/d2d-ns3-compat.h" // D2DLEARN_HAVE_*: before the #if below
#include "ns3/d2d-radio-profile.h"
#if D2DLEARN_HAVE_LIION_SOURCE
#include "ns3/li-ion-energy-source.h"
#endif

#include <fmt/format.h>
#include <regex>
#include <tuple>

namespace ns3
{

void
D2dLinkOptions::AddFlags(D2dScenarioFlags& flags, uint32_t maxDevices, bool d2sFollowsTx)
{
    flags
        .Add("nDevices",
             "Number of devices (0: the scenario's default, or N of --rssFile)",
             nDevices)
        .Range(0, maxDevices);
    flags
        .Add("mtuBytes",
             "Fragment payload size, bytes (--backend=wifi: 1400 when not given, at most 1440)",
             mtuBytes)
        .Sets("ns3::D2dChannel::MtuBytes")
        .Range(1, 1e7);
    flags
        .Add("maxRetransmissions",
             "Reliable mode: retransmissions per fragment before a send fails",
             maxRetransmissions)
        .Sets("ns3::D2dChannel::MaxRetransmissions")
        .Range(0, 1000);
    flags.Add("spectralEfficiency", "Rate of transmission r, bit/s/Hz", spectralEfficiency)
        .Sets("ns3::D2dChannel::SpectralEfficiency");
    flags.Add("bandwidthHz", "Channel bandwidth, Hz", bandwidthHz)
        .Sets("ns3::D2dChannel::BandwidthHz")
        .Range(1, 1e12);
    flags.Add("noisePowerW", "Noise power sigma^2, W", noisePowerW)
        .Sets("ns3::D2dChannel::NoisePowerW")
        .Range(0, 1e3);
    // Also the D2S radios' unless --d2sTxPowerDbm is given.
    flags.Add("txPowerDbm", "Transmit power, dBm", txPowerDbm).Sets("ns3::D2dRadio::TxPowerDbm");
    flags
        .Add("d2sTxPowerDbm",
             d2sFollowsTx ? "Transmit power of the D2S radios (devices' and server's), dBm "
                            "(default: --txPowerDbm)"
                          : "Transmit power of the D2S radios (devices' and server's), dBm",
             d2sTxPowerDbm)
        .Range(-100, 60);
    flags.Add("reliable", "Reliable delivery (retransmissions)", reliable);
    flags.Add("fastPath", "O(1) events per message instead of per fragment", fastPath)
        .Sets("ns3::D2dChannel::FastPath");
    flags
        .Add("rangeM",
             "Hearing range of the D2D radios, m (0: no limit; with --rssFile a threshold on "
             "W: the log-distance RSS at this distance)",
             rangeM)
        .Sets("ns3::D2dChannel::RangeM")
        .Range(0, 1e7);
    flags
        .Add("access",
             "Channel access (immediate: raw radios, half-duplex losses; scheduled: an ideal "
             "MAC with spatial reuse)",
             access)
        .Sets("ns3::D2dChannel::AccessPolicy")
        .Choices({"immediate", "scheduled"});
}

void
D2dSpectrumOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("subChannels",
             "Sub-channels K of the D2D band (OFDMA resource blocks): a transmission occupies "
             "--subChannelsPerTransmission of them at r x bandwidth x that / K bit/s, and "
             "waits (scheduled access) or collides (immediate) when they are taken; 0: "
             "unlimited, every link the whole band at once",
             subChannels)
        .Sets("ns3::D2dChannel::SubChannels")
        .Range(0, 100000);
    flags
        .Add("d2sSubChannels",
             "Sub-channels of the device-to-server cell, whose uploads share its band (-1: "
             "--subChannels; 0: unlimited)",
             d2sSubChannels)
        .Range(-1, 100000);
    flags
        .Add("d2sBandwidthHz",
             "Bandwidth of the device-to-server cell, a band of its own beside the D2D one, "
             "Hz (-1: --bandwidthHz)",
             d2sBandwidthHz)
        .Range(-1, 1e12);
    flags
        .Add("subChannelsPerTransmission",
             "Sub-channels one transmission occupies (1 to --subChannels)",
             subChannelsPerTransmission)
        .Sets("ns3::D2dChannel::SubChannelsPerTransmission")
        .Range(1, 100000);
    flags
        .Add("receiveChains",
             "Receptions a radio takes part in at once with a finite spectrum (0: one per "
             "sub-channel)",
             receiveChains)
        .Sets("ns3::D2dRadio::ReceiveChains")
        .Range(0, 100000);
    flags
        .Add("interference",
             "Co-channel transmissions a receiver hears add their power to the noise of eq. "
             "(18): P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W)",
             interference)
        .Sets("ns3::D2dChannel::Interference");
    flags
        .Add("spectrumReuse",
             "Which D2D transmissions share a sub-channel under scheduled access: none (one "
             "at a time, a single cell) or hearing (when no receiver of one hears the other's "
             "sender within --reuseDistanceM)",
             spectrumReuse)
        .Sets("ns3::D2dChannel::SpectrumReuse")
        .Choices({"none", "hearing"});
    flags
        .Add("reuseDistanceM",
             "--spectrumReuse=hearing: receivers this far or farther from a co-channel sender "
             "let it share their sub-channel (its power still counts as interference), m (0: "
             "hearing alone decides)",
             reuseDistanceM)
        .Sets("ns3::D2dChannel::ReuseDistanceM")
        .Range(0, 1e7);
}

void
D2dPlacementOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("d2sLinks",
             "Length of the device-to-server links: distance (each device's own distance to "
             "the server at --serverPosition, through the propagation loss and eq. 18, "
             "followed as it moves) or equal (every link --d2sDistanceFactor x the mean D2D "
             "distance, Wagle et al. 2025, sec. VI-G; --rssFile implies it)",
             d2sLinks)
        .Choices({"distance", "equal"});
    flags.Add("d2sDistanceFactor", "D2S distance over the mean D2D distance", d2sDistanceFactor)
        .Range(1e-3, 1e6);
    flags.Add("serverPosition",
              "Position of the server (access point, base station), m: x,y or x,y,z (also "
              "ns-3's x:y:z), each -1e7 to 1e7, or centre (the centre of the square; z: the "
              "--propagation preset's base station height, 0 for log-distance)",
              serverPosition);
    flags.Add("areaSideM", "Side of the square area, m", areaSideM).Range(1e-3, 1e7);
    flags
        .Add("speedMps",
             "Speed of a random walk in the square, m/s (0: devices do not move; > 0 without "
             "--mobility means --mobility=random-walk)",
             speedMps)
        .Range(0, D2dMobilityOptions::MAX_SPEED_MPS);
}

void
D2dEnergyOptions::AddFlags(D2dScenarioFlags& flags, D2dDeviceProfileOptions& profiles)
{
    flags.Add("initialEnergyJ", "Battery energy per device, J", initialEnergyJ)
        .Sets("ns3::D2dEnergySource::InitialEnergyJ")
        .Sets(BasicEnergySource::GetTypeId().GetName() + "::BasicEnergySourceInitialEnergyJ")
#if D2DLEARN_HAVE_LIION_SOURCE
        .Sets(LiIonEnergySource::GetTypeId().GetName() + "::LiIonEnergySourceInitialEnergyJ")
#endif
        .Range(1e-12, 1e12);
    flags
        .Add("radioProfile",
             "The radios' power in each state (channel backend): ns3-wifi (ns-3's "
             "WifiRadioEnergyModel with its LinearWifiTxCurrentModel at 3 V: transmit "
             "P / 0.1 + 0.82 W, 1.82 W at 20 dBm; receive 0.939 W; idle 0.819 W; as the "
             "Wi-Fi backend charges them), nr-ue (3GPP TR 38.840's UE powers at an assumed "
             "3 mW per relative unit: transmit 0.75 W + P / 0.148, 1.43 W at 20 dBm; receive "
             "0.9 W; idle 0.3 W; sleep 3 mW after a 20 ms, 1.35 mJ transition), first-order "
             "(Heinzelman et al. "
             "2000: 50 nJ/bit + 100 pJ/bit/m^2 per transmitted bit, 50 nJ/bit received, no idle "
             "draw) or custom (the --ns3::D2dRadioEnergyModel::* attributes; their defaults "
             "are ns3-wifi's)",
             radioProfile)
        .Choices(D2dRadioProfile::GetNames());
    flags.Add("allowUnorderedRadioPowers",
              "Run custom radio powers that break transmit >= receive >= idle, the order of "
              "real radios (refused otherwise; run.json's radioStateOrder says which order "
              "they break)",
              allowUnorderedRadioPowers);
    if (computes)
    {
        flags
            .Add("computeModel",
                 "How a training job is costed: flops (FlopsPerSecond at BusyPowerW, "
                 "D2dComputeModel's defaults 1e10 FLOP/s and 2 W) or cpu (Tran et al. 2019, "
                 "Yang et al. 2021: c F / f seconds and (alpha/2) c F f^2 joules for F FLOP, "
                 "c = --cyclesPerFlop, f = --cpuFrequencyHz, alpha/2 = --switchedCapacitance)",
                 computeModel)
            .Sets("ns3::D2dComputeModel::Model")
            .Choices({"flops", "cpu"});
        flags.Add("cpuFrequencyHz",
                  "CPU frequency f, Hz (--computeModel=cpu): a value, or MIN:MAX for each "
                  "device's f drawn uniformly in [MIN, MAX] (1 to 1e12)",
                  cpuFrequencyHz); // not Sets(): MIN:MAX is no value of the attribute's
        flags
            .Add("cyclesPerFlop",
                 "CPU cycles per floating-point operation (--computeModel=cpu)",
                 cyclesPerFlop)
            .Sets("ns3::D2dComputeModel::CyclesPerFlop")
            .Range(1e-6, 1e6);
        flags
            .Add("switchedCapacitance",
                 "alpha/2 of the CPU energy (alpha/2) c D f^2, J per cycle per Hz^2 "
                 "(--computeModel=cpu)",
                 switchedCapacitance)
            .Sets("ns3::D2dComputeModel::SwitchedCapacitance")
            .Range(0, 1e-15);
        profiles.AddFlags(flags);
    }
    flags
        .Add("d2dRadio",
             "The devices' D2D radios: auto (off from the start, drawing nothing, when the "
             "protocol sends no D2D messages) or on (listening all the run even then)",
             d2dRadio)
        .Choices({"auto", "on"});
    flags.Add("drx",
              "DRX of the D2D radios (channel backend; 3GPP sidelink DRX's shape, one cycle "
              "for all): CYCLE,ON_DURATION[,INACTIVITY] as times, e.g. 100ms,10ms,20ms: a "
              "radio listens the first ON_DURATION of each CYCLE and INACTIVITY after its "
              "last transmission or reception, and sleeps between (--radioProfile's sleep "
              "power); a message waits for its receivers' on-duration (messages.csv "
              "sleep_wait_s); empty or none: no DRX",
              drx);
    flags.Add("d2sDrx",
              "DRX of the devices' D2S radios, as --drx (the server never sleeps)",
              d2sDrx);
    // D2dHelper sets the threshold of a BasicEnergySource to 0 (empty means depleted).
    flags
        .Add("energySource",
             "Energy source: linear (D2dEnergySource, updated at changes of draw, no periodic "
             "events), basic (ns-3's BasicEnergySource, also updated every second), liion "
             "(ns-3's LiIonEnergySource, from ns-3.37 until ns-3 removed it: 3.45 has it, 3.48 "
             "not), generic (ns-3's GenericBatteryModel, "
             "a Li-ion cell's pack of --initialEnergyJ, depleted at its cut-off voltage, "
             "ns-3.40 and later)",
             energySource)
        .Sets(BasicEnergySource::GetTypeId().GetName() + "::BasicEnergyLowBatteryThreshold")
        .Choices({"linear", "basic", "liion", "generic"});
}

void
D2dRssOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("dynamicRssLevels",
             "Dynamic RSS with this many quantized states (0: off)",
             dynamicRssLevels)
        .Sets("ns3::DynamicRssModel::Levels")
        .Range(0, 1e6);
    flags.Add("rssStep", "Dynamic RSS: time between redraws", rssStep)
        .Sets("ns3::DynamicRssModel::StepInterval")
        .Positive(1e9);
    flags.Add("rssFile", "CSV file with the N x N RSS matrix W_ij in W", rssFile);
    flags
        .Add("dropProbability",
             "Drop probability P_D of every D2D link, 0 to below 1 (its RSS W from eq. 18; "
             "-1: P_D from the positions, --rssFile or dynamic RSS)",
             dropProbability)
        .Range(-1, 1);
    flags
        .Add("d2sDropProbability",
             "Drop probability P_D of every D2S link, 0 to below 1 (-1: from the D2S "
             "distance)",
             d2sDropProbability)
        .Range(-1, 1);
}

void
D2dRunOptions::AddFlags(D2dScenarioFlags& flags)
{
    // The seed is run.json's own "seed" (D2dTraceHelper::Finish()).
    flags.Add("seed", "Seed of every random stream", seed).Range(1, 4294967295.0).Unrecorded();
    flags
        .Add("RngRun",
             "Replication of the network's randomness (ns-3 run): positions, mobility, "
             "losses and dynamic RSS change; data, partition, initial weights and the "
             "protocol's draws stay those of --seed",
             rngRun)
        .Range(1, 1e15);
    flags.Add("printLinks",
              "Print the links of this configuration (P_D distribution, rates, airtime of the "
              "messages, every link) and exit without simulating",
              printLinks);
    flags
        .Add("validate",
             "Check every parameter as a run would, then exit 0 (or with the run's one-line "
             "error) without simulating or writing anything",
             validate)
        .Unrecorded();
    flags
        .Add("inertFlags",
             "A flag given at another value than its default where it cannot change the run: "
             "refuse (a one-line error) or record (accepted, listed in run.json's "
             "inertFlagsGiven; for campaigns whose fixed parameters span several algorithms)",
             inertFlags)
        .Choices({"refuse", "record"});
    flags
        .Add("printScope",
             "Print every flag and whether it can change a run of this configuration (and why "
             "not), then exit without simulating or writing anything",
             printScope)
        .Unrecorded();
    flags.Add("outDir", "Folder for the traces", outDir);
    flags
        .Add("traces",
             "What the traces hold: standard (energy.csv: one row per device and component "
             "per second of simulated time; messages.csv without the scenario's high-volume "
             "control messages, counted in run.json) or full (every row)",
             traces)
        .Choices({"standard", "full"});
    flags.Add("quiet", "No progress output", quiet);
}

void
D2dWifiOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("backend",
             "Messaging backend: channel (the D2D channel, eq. 18 on every link) or wifi "
             "(ns-3's 802.11 ad hoc MAC and PHY; the server at --serverPosition)",
             backend)
        .Choices({"channel", "wifi"});
    flags.Add("wifiStandard", "Wi-Fi backend: the 802.11 standard", wifiStandard)
        .Choices({"80211a", "80211g"});
    flags
        .Add("wifiRateManager",
             "Wi-Fi backend: rate control (constant: --wifiDataMode for every frame; ideal, "
             "minstrel, aarf: ns-3's managers adapt the unicast rate)",
             wifiRateManager)
        .Choices({"constant", "ideal", "minstrel", "aarf"});
    flags.Add("wifiDataMode",
              "Wi-Fi backend, constant rate: the data mode, e.g. OfdmRate24Mbps (empty: 6 "
              "Mbit/s of the standard)",
              wifiDataMode);
    flags
        .Add("wifiLossExponent",
             "Wi-Fi backend, --propagation=log-distance: exponent of the log-distance "
             "propagation loss",
             wifiLossExponent)
        .Sets("ns3::LogDistancePropagationLossModel::Exponent")
        .Range(1, 10);
    flags.Add("pcap",
              "Wi-Fi backend: write every 802.11 frame to pcap files PREFIX-NODE-DEVICE.pcap "
              "(ns-3's YansWifiPhyHelper::EnablePcap; the D2S network's PREFIX-d2s-NODE-DEVICE"
              ".pcap), for Wireshark or tcpdump; written as the run goes",
              pcap);
    flags.Add("flowMonitor",
              "Wi-Fi backend: write flowmon.xml in --outDir, ns-3's FlowMonitor statistics of "
              "every IPv4 flow (one per sender, receiver and port), as FlowMonitor::"
              "SerializeToXmlFile writes them",
              flowMonitor);
    flags.Add("netanim",
              "Write netanim.xml in --outDir: the devices (and the server) and each messages.csv "
              "row as a packet between its endpoints, for ns-3's NetAnim (moving devices move "
              "at --positionEvery's samples)",
              netanim);
}

void
D2dEnergyOptions::Validate(const D2dScenarioSupport& support)
{
    if (computes)
    {
        // --cpuFrequencyHz: f or MIN:MAX, 1 Hz to 1e12 Hz.
        const std::size_t colon = cpuFrequencyHz.find(':');
        const bool ok =
            colon == std::string::npos
                ? D2dScenarioSupport::ParseNumber(cpuFrequencyHz, m_cpuMinHz) &&
                      (m_cpuMaxHz = m_cpuMinHz, true)
                : D2dScenarioSupport::ParseNumber(cpuFrequencyHz.substr(0, colon), m_cpuMinHz) &&
                      D2dScenarioSupport::ParseNumber(cpuFrequencyHz.substr(colon + 1), m_cpuMaxHz);
        if (!ok || !(m_cpuMinHz >= 1 && m_cpuMaxHz <= 1e12 && m_cpuMinHz <= m_cpuMaxHz))
        {
            support.Fail(fmt::format("--cpuFrequencyHz={} is not accepted (a frequency in Hz "
                                     "or MIN:MAX with 1 <= MIN <= MAX <= 1e12)",
                                     cpuFrequencyHz));
        }
    }
    for (const auto& [name, text, times] :
         {std::tuple<const char*, const std::string&, std::vector<Time>&>{"drx", drx, m_drxTimes},
          {"d2sDrx", d2sDrx, m_d2sDrxTimes}})
    {
        times.clear();
        if (text.empty() || text == "none") // none: a campaign's point without DRX
        {
            continue;
        }
        // CYCLE,ON_DURATION[,INACTIVITY]: ns-3 times with a unit (s, ms, us, ns).
        static const std::regex kTime(
            R"(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms|us|ns))");
        std::vector<std::string> parts;
        std::size_t start = 0;
        for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos;
             start = comma + 1)
        {
            parts.push_back(text.substr(start, comma - start));
        }
        parts.push_back(text.substr(start));
        bool ok = parts.size() == 2 || parts.size() == 3;
        for (const auto& part : parts)
        {
            ok = ok && std::regex_match(part, kTime);
            if (ok)
            {
                times.emplace_back(part);
            }
        }
        if (ok && times.size() == 2)
        {
            times.emplace_back(Seconds(0)); // no inactivity timer
        }
        if (!ok || !times[0].IsStrictlyPositive() || !times[1].IsStrictlyPositive() ||
            times[1] > times[0])
        {
            support.Fail(fmt::format("--{}={} is not accepted (CYCLE,ON_DURATION[,INACTIVITY] "
                                     "as times with a unit s, ms, us or ns, 0 < ON_DURATION <= "
                                     "CYCLE, INACTIVITY >= 0; e.g. 100ms,10ms,20ms)",
                                     name,
                                     text));
        }
    }
    if (energySource == "liion" && !D2DLEARN_HAVE_LIION_SOURCE)
    {
        support.Fail("--energySource=liion is not accepted: this ns-3 has no LiIonEnergySource "
                     "(ns-3 removed it after 3.45; accepted here: linear, basic or generic)");
    }
    if (energySource == "generic" && !D2DLEARN_HAVE_GENERIC_BATTERY)
    {
        support.Fail("--energySource=generic is not accepted: this ns-3 has no "
                     "GenericBatteryModel (ns-3 added it in 3.40; accepted here: linear, basic "
                     "or liion)");
    }
}

double
D2dEnergyOptions::GetCpuMinHz() const
{
    return m_cpuMinHz;
}

double
D2dEnergyOptions::GetCpuMaxHz() const
{
    return m_cpuMaxHz;
}

const std::vector<Time>&
D2dEnergyOptions::GetDrxTimes() const
{
    return m_drxTimes;
}

const std::vector<Time>&
D2dEnergyOptions::GetD2sDrxTimes() const
{
    return m_d2sDrxTimes;
}

bool
D2dEnergyOptions::HasDrx() const
{
    return !m_drxTimes.empty() || !m_d2sDrxTimes.empty();
}

} // namespace ns3
