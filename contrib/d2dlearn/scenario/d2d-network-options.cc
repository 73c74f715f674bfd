/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-network-options.h"

#include "ns3/basic-energy-source.h"
#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/constant-rss-model.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio-profile.h"
#include "ns3/d2d-rss-link-quality.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
#include "ns3/dynamic-rss-model.h"
#include "ns3/enum.h"
#if D2DLEARN_HAVE_FLOW_MONITOR
#include "ns3/flow-monitor-helper.h"
#endif
#if D2DLEARN_HAVE_GENERIC_BATTERY
#include "ns3/generic-battery-model.h"
#endif
#include "ns3/log.h"
#if D2DLEARN_HAVE_LIION_SOURCE
#include "ns3/li-ion-energy-source.h"
#endif
#include "ns3/d2d-thermal-noise.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/pointer.h"
#include "ns3/position-allocator.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rectangle.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <regex>
#include <stdexcept>
#include <tuple>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dNetworkOptions");

namespace
{

/**
 * \param sorted values in ascending order (not empty)
 * \param q the quantile, in [0, 1]
 * \return the q-quantile with linear interpolation between order statistics (Hyndman and
 * Fan's type 7, the default of R, NumPy and Python's statistics.quantiles(method =
 * "inclusive"))
 */
double
Quantile(const std::vector<double>& sorted, double q)
{
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

/**
 * \param p drop probabilities (may be empty)
 * \return "min .. p5 .. p25 .. median .. p75 .. p95 .. max .., mean .." or "none"
 */
std::string
Distribution(std::vector<double> p)
{
    if (p.empty())
    {
        return "none";
    }
    std::sort(p.begin(), p.end());
    const double mean = std::accumulate(p.begin(), p.end(), 0.0) / static_cast<double>(p.size());
    return fmt::format("min {:.6g}, p5 {:.6g}, p25 {:.6g}, median {:.6g}, p75 {:.6g}, "
                       "p95 {:.6g}, max {:.6g}; mean {:.6g}",
                       p.front(),
                       Quantile(p, 0.05),
                       Quantile(p, 0.25),
                       Quantile(p, 0.5),
                       Quantile(p, 0.75),
                       Quantile(p, 0.95),
                       p.back(),
                       mean);
}

/**
 * \brief Visit the ordered D2D pairs (rx, tx) of PrintLinks: all of them, or a sample.
 * \param n devices
 * \param sample the (rx, tx) pairs to visit, or null for every ordered pair of n devices
 * \param visit called with (rx, tx)
 */
void
ForEachPair(uint32_t n,
            const std::vector<std::pair<uint32_t, uint32_t>>* sample,
            const std::function<void(uint32_t, uint32_t)>& visit)
{
    if (sample)
    {
        for (const auto& [rx, tx] : *sample)
        {
            visit(rx, tx);
        }
        return;
    }
    for (uint32_t rx = 0; rx < n; ++rx)
    {
        for (uint32_t tx = 0; tx < n; ++tx)
        {
            if (rx != tx)
            {
                visit(rx, tx);
            }
        }
    }
}

/**
 * \param channel a channel
 * \return a transmission's share of its band: the whole of it, or m of K sub-channels
 */
std::string
BandShare(Ptr<D2dChannel> channel)
{
    Ptr<D2dSpectrum> spectrum = channel->GetSpectrum();
    return spectrum->IsUnlimited() ? std::string("the whole band, unlimited sub-channels")
                                   : fmt::format("{} of {} sub-channels",
                                                 spectrum->GetPerTransmission(),
                                                 spectrum->GetSubChannels());
}

/**
 * \brief PrintLinks' lines of each message kind on a channel: fragments and airtime per
 * transmission, and with reliable delivery the expected transmissions of a fragment on the
 * mean link: with loss p and at most K = maxRetransmissions retransmissions,
 * sum_{k=0..K} p^k.
 * \param os where to print
 * \param name the link's name (d2d, d2s)
 * \param channel the channel
 * \param messages (kind, bytes) of the scenario's messages
 * \param drops the links' P_D with reliable delivery; null without
 * \param maxRetransmissions K
 */
void
PrintAirtimes(std::ostream& os,
              const std::string& name,
              Ptr<D2dChannel> channel,
              const std::vector<std::pair<std::string, uint64_t>>& messages,
              const std::vector<double>* drops,
              uint32_t maxRetransmissions)
{
    double transmissions = 1.0;
    if (drops && !drops->empty())
    {
        double sum = 0;
        for (double p : *drops)
        {
            const double k = maxRetransmissions + 1.0; // transmissions at most
            sum += p < 1 ? (1 - std::pow(p, k)) / (1 - p) : k;
        }
        transmissions = sum / static_cast<double>(drops->size());
    }
    for (const auto& [kind, bytes] : messages)
    {
        const double airtime = channel->GetAirtime(bytes).GetSeconds();
        os << fmt::format("# {} {} of {} bytes: {} fragments, airtime {:.6g} s per "
                          "transmission",
                          name,
                          kind,
                          bytes,
                          channel->GetNFragments(bytes),
                          airtime);
        if (drops)
        {
            os << fmt::format("; reliable unicast: {:.6g} transmissions per fragment, "
                              "{:.6g} s, on the mean link",
                              transmissions,
                              airtime * transmissions);
        }
        os << "\n";
    }
}

/**
 * \brief One row of PrintLinks' table: link,rx,tx,distance_m,rss_w,p_drop.
 * \param os where to print
 * \param link d2d or d2s
 * \param channel its channel
 * \param rx receiver
 * \param tx transmitter
 */
void
PrintLinkRow(std::ostream& os, const char* link, Ptr<D2dChannel> channel, uint32_t rx, uint32_t tx)
{
    os << fmt::format("{},{},{},{},{},{}\n",
                      link,
                      rx,
                      tx,
                      channel->GetDistanceM(rx, tx),
                      channel->GetRssW(rx, tx),
                      channel->GetDropProbability(rx, tx));
}

} // namespace

D2dNetworkOptions::D2dNetworkOptions(std::string defaultOutDir)
    : m_initialD2sTxPowerDbm(links.d2sTxPowerDbm)
{
    run.outDir = std::move(defaultOutDir);
}

const std::vector<std::string>&
D2dNetworkOptions::GetComputeFlags()
{
    static const std::vector<std::string> names = {"computeModel",
                                                   "cpuFrequencyHz",
                                                   "cyclesPerFlop",
                                                   "switchedCapacitance",
                                                   "computeSpread",
                                                   "deviceProfiles"};
    return names;
}

void
D2dNetworkOptions::AddFlags(D2dScenarioFlags& flags)
{
    // A scenario that changed d2sTxPowerDbm before this call chose a D2S power of its own.
    m_d2sFollowsTx = links.d2sTxPowerDbm == m_initialD2sTxPowerDbm;
    m_flags = &flags;
    links.AddFlags(flags, MAX_DEVICES, m_d2sFollowsTx);
    spectrum.AddFlags(flags);
    placement.AddFlags(flags);
    mobility.AddFlags(flags);
    energy.AddFlags(flags, profiles);
    rss.AddFlags(flags);
    environment.AddFlags(flags);
    run.AddFlags(flags);
    messaging.AddFlags(flags);
}

void
D2dNetworkOptions::SetTraffic(D2dTraffic traffic)
{
    m_traffic = std::move(traffic);
    m_traffic.known = true;
}

void
D2dNetworkOptions::DeferScope()
{
    m_deferScope = true;
}

void
D2dNetworkOptions::CheckScope(const D2dScenarioSupport& support)
{
    NS_ABORT_MSG_IF(!m_flags, "D2dNetworkOptions::CheckScope before AddFlags and Parse");
    m_traffic.d2sFollowsTx = m_d2sFollowsTx && !m_flags->Given("d2sTxPowerDbm");
    if (run.printScope)
    {
        D2dFlagScope::Print(std::cout, *m_flags, m_traffic);
        std::exit(0);
    }
    if (run.inertFlags == "record")
    {
        m_inertGiven = D2dFlagScope::GivenInert(*m_flags, m_traffic);
    }
    else
    {
        D2dFlagScope::Check(*m_flags, m_traffic, support);
    }
    if (m_deferScope)
    {
        CheckLinkEnds(support); // Validate() made the environment
        if (energy.computes)
        {
            // The profiles file is read once the scope said the flag may act (a file of an
            // inert --deviceProfiles is refused as inert, not parsed).
            profiles.Validate(support, links.nDevices, energy.computeModel, energy.energySource);
        }
    }
}

void
D2dNetworkOptions::CheckLinkEnds(const D2dScenarioSupport& support) const
{
    if (environment.GetHelper().GetPreset().devicesOnly && m_traffic.known && m_traffic.d2s)
    {
        support.Fail(fmt::format("--propagation={} is a model of links between devices: {} has "
                                 "a server (device-to-server links) (accepted: a 3gpp-* preset "
                                 "for a run with a server)",
                                 environment.propagation,
                                 m_traffic.chosen.empty() ? "this run" : m_traffic.chosen));
    }
    if (!messaging.IsWifi() && placement.d2sLinks == "equal" &&
        (!m_traffic.known || m_traffic.d2s) && environment.NeedsLinkEnds())
    {
        support.Fail(fmt::format("--propagation={}{} needs each link's own two devices: "
                                 "--d2sLinks=equal gives every device-to-server link one "
                                 "length between two stand-in positions (accepted: "
                                 "--d2sLinks=distance)",
                                 environment.propagation,
                                 environment.HasShadowing()
                                     ? fmt::format(" with --shadowing={}", environment.shadowing)
                                     : std::string()));
    }
}

void
D2dNetworkOptions::Validate(const D2dScenarioSupport& support,
                            uint32_t defaultDevices,
                            uint32_t minDevices)
{
    NS_LOG_FUNCTION(this << defaultDevices << minDevices);
    NS_ABORT_MSG_IF(!m_flags, "D2dNetworkOptions::Validate before AddFlags and Parse");
    if (m_d2sFollowsTx && !m_flags->Given("d2sTxPowerDbm"))
    {
        links.d2sTxPowerDbm = links.txPowerDbm;
    }
    if (!m_deferScope)
    {
        CheckScope(support); // which flags can change this run, before anything else
    }
    // The flags' own ranges are checked by D2dScenarioFlags::Parse(); here what involves
    // several flags or a file, before simulating.
    ValidateBackend(support);
    if (!messaging.pcap.empty())
    {
        // ns-3 aborts if it cannot create a pcap file: the folder is checked here.
        const std::filesystem::path folder = std::filesystem::path(messaging.pcap).parent_path();
        const std::string at = folder.empty() ? std::string(".") : folder.string();
        std::error_code ec;
        if (std::filesystem::path(messaging.pcap).filename().empty() ||
            !std::filesystem::is_directory(at, ec) || ::access(at.c_str(), W_OK | X_OK) != 0)
        {
            support.Fail(fmt::format("--pcap={}: {} is not a folder this run can write in "
                                     "(accepted: PREFIX, a path whose folder exists; the files "
                                     "are PREFIX-NODE-DEVICE.pcap)",
                                     messaging.pcap,
                                     at));
        }
    }
    {
        // Which links take their RSS from the positions: the propagation flags act on those.
        const bool d2sPlaced = (!m_traffic.known || m_traffic.d2s) &&
                               placement.d2sLinks == "distance" && rss.d2sDropProbability < 0 &&
                               rss.rssFile.empty();
        const bool d2dPlaced = (!m_traffic.known || m_traffic.d2d) && rss.rssFile.empty() &&
                               rss.dynamicRssLevels == 0 && rss.dropProbability < 0;
        environment.Validate(support, *m_flags, messaging.IsWifi() || d2dPlaced || d2sPlaced);
    }
    ValidateServer(support);
    if (!m_deferScope)
    {
        CheckLinkEnds(support);
    }
    ValidateSpectrum(support);
    ValidateEnergy(support);
    ValidateRss(support);
    mobility.Validate(support,
                      *m_flags,
                      placement.speedMps,
                      placement.areaSideM,
                      rss.rssFile,
                      links.nDevices);
    if (links.nDevices == 0)
    {
        links.nDevices = defaultDevices;
    }
    support.CheckRange("nDevices", links.nDevices, minDevices, MAX_DEVICES);
    if (messaging.IsWifi() && links.nDevices > MAX_WIFI_DEVICES)
    {
        support.Fail(fmt::format("--nDevices={} is out of range for --backend=wifi (accepted: "
                                 "{} to {}: the devices' addresses are one IPv4 /16 subnet)",
                                 links.nDevices,
                                 minDevices,
                                 MAX_WIFI_DEVICES));
    }
    if (energy.computes && !m_deferScope) // (deferred: after the scope, CheckScope)
    {
        profiles.Validate(support, links.nDevices, energy.computeModel, energy.energySource);
    }
    RngSeedManager::SetSeed(static_cast<uint32_t>(run.seed));
    RngSeedManager::SetRun(run.rngRun); // the network's streams; Build() returns to run 1

    MakeRssModel(support); // checked like the parameters: before the trace files exist
}

void
D2dNetworkOptions::ValidateSpectrum(const D2dScenarioSupport& support) const
{
    // --dropProbability promises that p_drop in every row; co-channel interference would
    // raise it (eq. 18 with sigma^2 + I).
    const bool coChannelD2d = spectrum.subChannels > 0 && spectrum.interference &&
                              (links.access == "immediate" || spectrum.spectrumReuse == "hearing");
    const bool coChannelD2s =
        GetD2sSubChannels() > 0 && spectrum.interference && links.access == "immediate";
    for (const auto& [name, p, co] : {std::tuple<const char*, double, bool>{"dropProbability",
                                                                            rss.dropProbability,
                                                                            coChannelD2d},
                                      {"d2sDropProbability", rss.d2sDropProbability, coChannelD2s}})
    {
        if (p >= 0 && co && !messaging.IsWifi())
        {
            support.Fail(fmt::format("--{}={} gives every row that p_drop, and co-channel "
                                     "interference would raise it: add --interference=false "
                                     "(or use --access=scheduled with --spectrumReuse=none)",
                                     name,
                                     p));
        }
    }
    if (spectrum.d2sBandwidthHz >= 0 && spectrum.d2sBandwidthHz < 1)
    {
        support.Fail(fmt::format("--d2sBandwidthHz={} is not accepted (1 to 1e12 Hz, or -1: "
                                 "--bandwidthHz)",
                                 spectrum.d2sBandwidthHz));
    }
    for (const auto& [name, k] :
         {std::pair<const char*, uint32_t>{"subChannels", spectrum.subChannels},
          {"d2sSubChannels", GetD2sSubChannels()}})
    {
        if (k > 0 && spectrum.subChannelsPerTransmission > k)
        {
            support.Fail(fmt::format("--subChannelsPerTransmission={} is not accepted with "
                                     "--{}={} (accepted: 1 to {})",
                                     spectrum.subChannelsPerTransmission,
                                     name,
                                     k,
                                     k));
        }
    }
}

void
D2dNetworkOptions::ValidateEnergy(const D2dScenarioSupport& support)
{
    // A profile sets the radios' state powers: the attributes it would replace act only with
    // --radioProfile=custom.
    if (!D2dRadioProfile::IsCustom(energy.radioProfile))
    {
        for (const auto& attribute : D2dRadioProfile::GetStateAttributes())
        {
            const std::string name = "ns3::D2dRadioEnergyModel::" + attribute;
            if (m_flags->HasArgument("--" + name + "="))
            {
                support.Fail(fmt::format("--{} acts only with --radioProfile=custom (here "
                                         "--radioProfile={}, which sets the radios' state "
                                         "powers)",
                                         name,
                                         energy.radioProfile));
            }
        }
    }
    if (energy.computes)
    {
        if (m_flags->HasArgument("--ns3::D2dComputeModel::CpuFrequencyHz="))
        {
            support.Fail("--ns3::D2dComputeModel::CpuFrequencyHz is set by --cpuFrequencyHz; "
                         "use that");
        }
    }
    energy.Validate(support);
    if (!messaging.IsWifi())
    {
        // Real radios draw transmit >= receive >= idle: custom powers that break it run only
        // when asked, and run.json says so (radioStateOrder).
        auto probe = CreateObject<D2dRadioEnergyModel>();
        for (const auto& [attribute, value] : D2dRadioProfile::Get(energy.radioProfile).attributes)
        {
            probe->SetAttribute(attribute, StringValue(value));
        }
        const double rateBps = links.spectralEfficiency * links.bandwidthHz;
        std::string broken;
        for (const double dbm : {links.txPowerDbm, links.d2sTxPowerDbm})
        {
            if (broken.empty())
            {
                // idle > sleep only where a radio sleeps (a DRX, or the protocol's sleep)
                broken = probe->CheckStateOrder(std::pow(10.0, dbm / 10.0) / 1000.0,
                                                rateBps,
                                                energy.HasDrx() || energy.protocolSleeps);
            }
        }
        probe->Dispose();
        const bool custom = D2dRadioProfile::IsCustom(energy.radioProfile);
        if (!broken.empty() && custom && !energy.allowUnorderedRadioPowers)
        {
            support.Fail(fmt::format("--radioProfile=custom: {} breaks the order of real radios "
                                     "(transmit >= radiated and >= receive >= idle, > sleep "
                                     "with --drx, --d2sDrx or --sleepWhileTraining): set the "
                                     "powers in that order, or add "
                                     "--allowUnorderedRadioPowers=true to run them",
                                     broken));
        }
        // A published profile runs as its source gives it, and says where it leaves the
        // order (ns3-wifi transmits below its receive draw under 10.8 dBm).
        m_radioStateOrder = broken.empty() ? "ordered"
                            : custom       ? "unordered (allowed): " + broken
                                           : "unordered (--radioProfile=" + energy.radioProfile +
                                           " at this transmit power): " + broken;
    }
}

void
D2dNetworkOptions::ValidateRss(const D2dScenarioSupport& support)
{
    if (!rss.rssFile.empty() && rss.dynamicRssLevels > 0)
    {
        support.Fail("--rssFile and --dynamicRssLevels cannot be combined (choose one RSS "
                     "source)");
    }
    for (const auto& [name, p] : {std::make_pair("dropProbability", rss.dropProbability),
                                  std::make_pair("d2sDropProbability", rss.d2sDropProbability)})
    {
        if (p != -1 && !(p >= 0 && p < 1))
        {
            support.Fail(fmt::format("--{}={} is not accepted (0 to below 1, or -1: P_D from "
                                     "the RSS)",
                                     name,
                                     D2dScenarioSupport::FormatNumber(p)));
        }
        if (p > 0 && !environment.IsThermal() && !(links.noisePowerW > 0))
        {
            support.Fail(fmt::format("--{}={} needs --noisePowerW > 0: with no noise eq. (18) "
                                     "gives P_D = 0 on every link",
                                     name,
                                     D2dScenarioSupport::FormatNumber(p)));
        }
    }
    if (rss.dropProbability >= 0 && (!rss.rssFile.empty() || rss.dynamicRssLevels > 0))
    {
        support.Fail(fmt::format("--dropProbability cannot be combined with {} (choose one RSS "
                                 "source)",
                                 rss.rssFile.empty() ? "--dynamicRssLevels" : "--rssFile"));
    }
    m_matrix.clear();
    if (!rss.rssFile.empty())
    {
        try
        {
            m_matrix = MatrixRssModel::ReadCsv(rss.rssFile);
        }
        catch (const std::exception& e)
        {
            support.Fail(e.what());
        }
        if (links.nDevices != 0 && links.nDevices != m_matrix.size())
        {
            support.Fail(fmt::format("--nDevices={} does not match --rssFile, which holds a {} x "
                                     "{} matrix (accepted: 0 or {})",
                                     links.nDevices,
                                     m_matrix.size(),
                                     m_matrix.size(),
                                     m_matrix.size()));
        }
        links.nDevices = static_cast<uint32_t>(m_matrix.size());
    }
}

void
D2dNetworkOptions::MakeRssModel(const D2dScenarioSupport& support)
{
    m_rss = nullptr;
    if (!m_matrix.empty())
    {
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(m_matrix);
        m_rss = matrix;
    }
    else if (rss.dynamicRssLevels > 0)
    {
        auto dynamic = CreateObject<DynamicRssModel>();
        dynamic->SetAttribute("Levels", UintegerValue(rss.dynamicRssLevels));
        dynamic->SetAttribute("StepInterval", TimeValue(rss.rssStep));
        dynamic->SetNDevices(links.nDevices);
        // Checks of what DynamicRssModel::Refresh() aborts on mid-simulation.
        DoubleValue minW;
        DoubleValue maxW;
        dynamic->GetAttribute("MinW", minW);
        dynamic->GetAttribute("MaxW", maxW);
        if (!(minW.Get() < maxW.Get()))
        {
            support.Fail(fmt::format("--ns3::DynamicRssModel::MinW={} is not below "
                                     "--ns3::DynamicRssModel::MaxW={} (accepted: MinW < MaxW)",
                                     minW.Get(),
                                     maxW.Get()));
        }
        m_rss = dynamic;
    }
    else if (rss.dropProbability >= 0)
    {
        auto constant = CreateObject<ConstantRssModel>();
        constant->SetAttribute(
            "RssW",
            DoubleValue(ConstantRssModel::ForDropProbability(rss.dropProbability,
                                                             links.spectralEfficiency,
                                                             GetD2dNoiseW())));
        m_rss = constant;
    }
}

void
D2dNetworkOptions::ValidateBackend(const D2dScenarioSupport& support)
{
    // Which flags act over which backend: D2dFlagScope (Validate() checked them first).
    if (!messaging.IsWifi())
    {
        return;
    }
    if (messaging.flowMonitor && !D2DLEARN_HAVE_FLOW_MONITOR)
    {
        support.Fail("--flowMonitor is not accepted: d2dlearn was built against an ns-3 "
                     "without its flow-monitor module (accepted: an installed ns-3 that has "
                     "it, e.g. Debian's libns3-dev)");
    }
    if (!messaging.wifiDataMode.empty())
    {
        // The data modes of ns-3's 802.11a (OFDM) and 802.11g (ERP-OFDM, and DSSS/HR-DSSS).
        std::vector<std::string> modes;
        for (const char* rate : {"6", "9", "12", "18", "24", "36", "48", "54"})
        {
            modes.push_back(fmt::format("{}OfdmRate{}Mbps",
                                        messaging.wifiStandard == "80211a" ? "" : "Erp",
                                        rate));
        }
        if (messaging.wifiStandard == "80211g")
        {
            for (const char* rate :
                 {"DsssRate1Mbps", "DsssRate2Mbps", "DsssRate5_5Mbps", "DsssRate11Mbps"})
            {
                modes.emplace_back(rate);
            }
        }
        if (std::find(modes.begin(), modes.end(), messaging.wifiDataMode) == modes.end())
        {
            support.Fail(fmt::format("--wifiDataMode={} is not a data mode of --wifiStandard={} "
                                     "(accepted: {})",
                                     messaging.wifiDataMode,
                                     messaging.wifiStandard,
                                     fmt::join(modes, ", ")));
        }
    }
    // A fragment and its 60 bytes of IP, UDP and d2dlearn headers fit a 1500-byte MTU.
    if (!m_flags->Given("mtuBytes"))
    {
        links.mtuBytes = 1400;
    }
    support.CheckRange("mtuBytes", links.mtuBytes, 1, 1440);
}

bool
D2dNetworkOptions::ParsePositionM(const std::string& text, Vector& position)
{
    // One kind of separator: "x,y[,z]" (the flag's own form) or "x:y[:z]" (ns-3's Vector).
    const char separator = text.find(',') != std::string::npos ? ',' : ':';
    std::vector<double> coordinates;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t end = text.find(separator, start);
        const std::string part =
            text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        // A number and nothing else: no blanks, no other separator, finite, within 1e7 m.
        if (part.empty() || std::isspace(static_cast<unsigned char>(part.front())))
        {
            return false;
        }
        char* stop = nullptr;
        const double value = std::strtod(part.c_str(), &stop);
        if (stop != part.c_str() + part.size() || !std::isfinite(value) || std::abs(value) > 1e7)
        {
            return false;
        }
        coordinates.push_back(value);
        if (end == std::string::npos)
        {
            break;
        }
        start = end + 1;
    }
    if (coordinates.size() < 2 || coordinates.size() > 3)
    {
        return false;
    }
    position = Vector(coordinates[0], coordinates[1], coordinates.size() == 3 ? coordinates[2] : 0);
    return true;
}

void
D2dNetworkOptions::ValidateServer(const D2dScenarioSupport& support)
{
    // The centre, at the preset's base station height (0 for log-distance).
    const Vector centre(placement.areaSideM / 2,
                        placement.areaSideM / 2,
                        environment.GetServerHeightM());
    if (placement.serverPosition == "centre")
    {
        m_serverPositionM = centre;
    }
    else if (!ParsePositionM(placement.serverPosition, m_serverPositionM))
    {
        support.Fail(fmt::format("--serverPosition={} is not accepted (x,y or x,y,z in m, each "
                                 "-1e7 to 1e7; also ns-3's x:y:z; or centre, the centre of "
                                 "the square at the preset's base station height)",
                                 placement.serverPosition));
    }
    // Where --d2sLinks, --d2sDistanceFactor and --serverPosition act: D2dFlagScope's table.
    if (messaging.IsWifi())
    {
        placement.d2sLinks = "distance"; // the 802.11 server is a node at --serverPosition
    }
    else if (!rss.rssFile.empty())
    {
        if (m_flags->Given("d2sLinks") && placement.d2sLinks == "distance")
        {
            support.Fail("--d2sLinks=distance cannot be combined with --rssFile: the matrix "
                         "gives the D2D links without positions, so a device's distance to the "
                         "server would agree with nothing in it (use --d2sLinks=equal or "
                         "--d2sDropProbability)");
        }
        placement.d2sLinks = "equal";
    }
    // run.json records the place in force (D2dScenarioFlags::Record()).
    placement.serverPosition = fmt::format("{},{},{}",
                                           D2dScenarioSupport::FormatNumber(m_serverPositionM.x),
                                           D2dScenarioSupport::FormatNumber(m_serverPositionM.y),
                                           D2dScenarioSupport::FormatNumber(m_serverPositionM.z));
}

double
D2dNetworkOptions::GetD2dNoiseW() const
{
    return environment.IsThermal()
               ? D2dThermalNoise::PowerW(
                     links.bandwidthHz * D2dChannel::BandShare(spectrum.subChannels,
                                                               spectrum.subChannelsPerTransmission),
                     environment.noiseFigureDb)
               : links.noisePowerW;
}

double
D2dNetworkOptions::GetD2sNoiseW() const
{
    if (!environment.IsThermal())
    {
        return rss.d2sNoisePowerW >= 0 ? rss.d2sNoisePowerW : links.noisePowerW;
    }
    const double band = spectrum.d2sBandwidthHz > 0 ? spectrum.d2sBandwidthHz : links.bandwidthHz;
    return D2dThermalNoise::PowerW(
        band * D2dChannel::BandShare(GetD2sSubChannels(), spectrum.subChannelsPerTransmission),
        environment.noiseFigureDb);
}

uint32_t
D2dNetworkOptions::GetSubChannelsInForce() const
{
    // The D2D band's K where the run sends D2D messages (or the scenario did not say).
    return (!m_traffic.known || m_traffic.d2d) ? spectrum.subChannels : 0;
}

uint32_t
D2dNetworkOptions::GetD2sSubChannels() const
{
    return spectrum.d2sSubChannels < 0 ? spectrum.subChannels
                                       : static_cast<uint32_t>(spectrum.d2sSubChannels);
}

void
D2dNetworkOptions::ConfigureCompute(D2dHelper& d2d) const
{
    if (!energy.computes || energy.computeModel != "cpu")
    {
        return;
    }
    d2d.SetComputeAttribute("Model", StringValue("Cpu"));
    d2d.SetComputeAttribute("CyclesPerFlop", DoubleValue(energy.cyclesPerFlop));
    d2d.SetComputeAttribute("SwitchedCapacitance", DoubleValue(energy.switchedCapacitance));
    d2d.SetComputeAttribute("CpuFrequencyHz", DoubleValue(energy.GetCpuMinHz()));
}

void
D2dNetworkOptions::SetCpuFrequencies(const D2dNetwork& network)
{
    m_cpuHz.clear();
    if (!energy.computes || energy.computeModel != "cpu")
    {
        return;
    }
    // Its own stream of the seed (not ns-3's): the other draws of the run are unchanged.
    D2dDataRng rng(run.seed, D2dDataRng::CPU_FREQUENCY);
    for (uint32_t i = 0; i < network.devices.GetN(); ++i)
    {
        const double f = energy.GetCpuMinHz() == energy.GetCpuMaxHz()
                             ? energy.GetCpuMinHz()
                             : energy.GetCpuMinHz() +
                                   (energy.GetCpuMaxHz() - energy.GetCpuMinHz()) * rng.Uniform();
        m_cpuHz.push_back(f);
        D2dHelper::GetComputeModel(network.devices.Get(i))
            ->SetAttribute("CpuFrequencyHz", DoubleValue(f));
    }
}

bool
D2dNetworkOptions::IsD2dRadioOff() const
{
    return energy.d2dRadio == "auto" && m_traffic.known && !m_traffic.d2d;
}

void
D2dNetworkOptions::TurnOffUnusedRadios(const D2dNetwork& network) const
{
    if (!IsD2dRadioOff())
    {
        return;
    }
    // The protocol never uses the D2D radios: off at time 0, before anything is sent, so
    // that they draw nothing (an 802.11 PHY is switched off once the simulation runs). One
    // event for all of them, not one per device (a million at 1e6 devices).
    Simulator::ScheduleNow([transports = network.d2dTransports]() {
        for (const auto& transport : transports)
        {
            transport->TurnOff();
        }
    });
}

std::unique_ptr<D2dTraceHelper>
D2dNetworkOptions::OpenTraces(const D2dScenarioSupport& support) const
{
    try
    {
        // --validate: the run is built as it would be, with traces that go nowhere, so that
        // every check it makes (some need the network, the learners or the protocol)
        // refuses as the run would; the first event, before any of the run's, stops it.
        auto helper = std::make_unique<D2dTraceHelper>(run.outDir,
                                                       run.validate ? D2dTraceHelper::Mode::VALIDATE
                                                                    : D2dTraceHelper::Mode::RUN);
        helper->SetLevel(D2dTraceHelper::ParseLevel(run.traces));
        if (run.validate)
        {
            Simulator::ScheduleNow([program = support.GetProgram()]() {
                std::printf("%s: valid (--validate: nothing simulated, nothing written)\n",
                            program.c_str());
                std::fflush(stdout);
                std::fflush(stderr);
                std::_Exit(0); // no destructor: nothing was made that needs one
            });
        }
        return helper;
    }
    catch (const std::exception& e)
    {
        support.Fail(e.what());
    }
}

NodeContainer
D2dNetworkOptions::CreateDevices() const
{
    NS_LOG_FUNCTION(this << links.nDevices);
    NodeContainer devices;
    devices.Create(links.nDevices);
    mobility.Install(devices,
                     placement.areaSideM,
                     placement.speedMps,
                     environment.GetDeviceHeightM());
    return devices;
}

D2dNetwork
D2dNetworkOptions::Build(D2dTraceHelper& traces, bool withServer)
{
    D2dNetwork network = Make(&traces, withServer);
#if D2DLEARN_HAVE_FLOW_MONITOR
    if (messaging.flowMonitor && messaging.IsWifi())
    {
        // ns-3's FlowMonitor on every node of the Wi-Fi networks (the server's too); its
        // XML goes into flowmon.xml when the run finishes. The helper lives as long as the
        // traces: its destructor disposes of the monitor.
        auto helper = std::make_shared<FlowMonitorHelper>();
        NodeContainer nodes(network.devices);
        if (network.server)
        {
            nodes.Add(network.server);
        }
        Ptr<FlowMonitor> monitor = helper->Install(nodes);
        traces.AddFinalTrace("flowmon.xml",
                             "<?xml version=\"1.0\" ?>",
                             [helper, monitor](std::ostream& out) {
                                 monitor->SerializeToXmlStream(out, 0, false, false);
                             });
    }
#endif
    if (messaging.netanim)
    {
        NodeContainer nodes(network.devices);
        if (network.server)
        {
            nodes.Add(network.server);
        }
        traces.EnableNetAnim(nodes);
    }
    mobility.StartTrace(traces, network.devices, network.server, rss.rssFile);
    return network;
}

Ptr<PropagationRssModel>
D2dNetworkOptions::MakePropagationRss() const
{
    auto rss = CreateObject<PropagationRssModel>();
    rss->SetAttribute("PropagationLossModel", PointerValue(environment.GetHelper().Create()));
    rss->SetAttribute("CoherenceTime", TimeValue(environment.coherenceTime));
    return rss;
}

D2dNetwork
D2dNetworkOptions::Make(D2dTraceHelper* traces, bool withServer)
{
    NS_LOG_FUNCTION(this << traces << withServer);
    D2dHelper::FixTimeResolution(); // ns-3 stops recording every Time made from here on
    if (messaging.IsWifi())
    {
        return MakeWifi(traces, withServer);
    }
    D2dNetwork network;
    network.devices = CreateDevices();

    D2dHelper d2d;
    if (m_rss)
    {
        d2d.SetRssModel(m_rss);
    }
    else if (!environment.IsDefault())
    {
        d2d.SetRssModel(MakePropagationRss());
    }
    if (environment.IsThermal())
    {
        d2d.SetChannelAttribute("NoiseModel", EnumValue(D2dChannel::THERMAL_NOISE));
        d2d.SetChannelAttribute("NoiseFigureDb", DoubleValue(environment.noiseFigureDb));
        d2d.SetD2sChannelAttribute("NoiseModel", EnumValue(D2dChannel::THERMAL_NOISE));
        d2d.SetD2sChannelAttribute("NoiseFigureDb", DoubleValue(environment.noiseFigureDb));
    }
    d2d.SetChannelAttribute("SpectralEfficiency", DoubleValue(links.spectralEfficiency));
    d2d.SetChannelAttribute("BandwidthHz", DoubleValue(links.bandwidthHz));
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(links.noisePowerW));
    d2d.SetChannelAttribute("MtuBytes", UintegerValue(links.mtuBytes));
    d2d.SetChannelAttribute("MaxRetransmissions", UintegerValue(links.maxRetransmissions));
    d2d.SetChannelAttribute("FastPath", BooleanValue(links.fastPath));
    d2d.SetChannelAttribute("RangeM", DoubleValue(links.rangeM));
    d2d.SetChannelAttribute("AccessPolicy",
                            EnumValue(links.access == "scheduled" ? D2dChannelAccess::SCHEDULED
                                                                  : D2dChannelAccess::IMMEDIATE));
    // The band: K sub-channels on the D2D channel; the D2S cell has its own K (it shares the
    // D2D channel's other attributes, D2dHelper::InstallServer) and is always a single cell.
    d2d.SetChannelAttribute("SubChannels", UintegerValue(spectrum.subChannels));
    d2d.SetChannelAttribute("SubChannelsPerTransmission",
                            UintegerValue(spectrum.subChannelsPerTransmission));
    d2d.SetChannelAttribute("Interference", BooleanValue(spectrum.interference));
    d2d.SetChannelAttribute(
        "SpectrumReuse",
        EnumValue(spectrum.spectrumReuse == "hearing" ? D2dSpectrum::HEARING : D2dSpectrum::NONE));
    d2d.SetChannelAttribute("ReuseDistanceM", DoubleValue(spectrum.reuseDistanceM));
    d2d.SetD2sChannelAttribute("SubChannels", UintegerValue(GetD2sSubChannels()));
    if (spectrum.d2sBandwidthHz > 0)
    {
        d2d.SetD2sChannelAttribute("BandwidthHz", DoubleValue(spectrum.d2sBandwidthHz));
    }
    d2d.SetD2sChannelAttribute("SpectrumReuse", EnumValue(D2dSpectrum::NONE));
    d2d.SetRadioAttribute("ReceiveChains", UintegerValue(spectrum.receiveChains));
    if (!energy.GetDrxTimes().empty())
    {
        d2d.SetDrxAttribute("Cycle", TimeValue(energy.GetDrxTimes()[0]));
        d2d.SetDrxAttribute("OnDuration", TimeValue(energy.GetDrxTimes()[1]));
        d2d.SetDrxAttribute("InactivityTimer", TimeValue(energy.GetDrxTimes()[2]));
    }
    if (!energy.GetD2sDrxTimes().empty())
    {
        d2d.SetD2sDrxAttribute("Cycle", TimeValue(energy.GetD2sDrxTimes()[0]));
        d2d.SetD2sDrxAttribute("OnDuration", TimeValue(energy.GetD2sDrxTimes()[1]));
        d2d.SetD2sDrxAttribute("InactivityTimer", TimeValue(energy.GetD2sDrxTimes()[2]));
    }
    if (traces)
    {
        // t_start_s, airtime_s, sub_channel, interference_w in every channel run, the band
        // finite or not: a script that sweeps --subChannels reads the same columns.
        traces->SetSpectrumColumns(true);
    }
    d2d.SetRadioAttribute("TxPowerDbm", DoubleValue(links.txPowerDbm));
    d2d.SetD2sRadioAttribute("TxPowerDbm", DoubleValue(links.d2sTxPowerDbm));
    d2d.SetRadioProfile(energy.radioProfile);
    ConfigureCompute(d2d);
    SetEnergySource(d2d);
    // The D2S links' noise, and their RSS for --d2sDropProbability inverted with that same
    // noise (inverted with the D2D noise, the P_D of the D2S links was another).
    const double d2sNoise = GetD2sNoiseW();
    d2d.SetD2sChannelAttribute(
        "NoisePowerW",
        DoubleValue(rss.d2sNoisePowerW >= 0 ? rss.d2sNoisePowerW : links.noisePowerW));
    if (rss.d2sDropProbability >= 0)
    {
        auto constant = CreateObject<ConstantRssModel>();
        constant->SetAttribute(
            "RssW",
            DoubleValue(ConstantRssModel::ForDropProbability(rss.d2sDropProbability,
                                                             links.spectralEfficiency,
                                                             d2sNoise)));
        d2d.SetD2sChannelAttribute("RssModel", PointerValue(constant));
    }
    else if (!environment.IsDefault())
    {
        d2d.SetD2sChannelAttribute("RssModel", PointerValue(MakePropagationRss()));
    }
    network.channel = d2d.Install(network.devices);
    network.links = network.channel;
    if (withServer)
    {
        network.server = CreateObject<Node>();
        auto place = CreateObject<ConstantPositionMobilityModel>();
        place->SetPosition(m_serverPositionM);
        network.server->AggregateObject(place);
        // Each device's own distance to the server, or Wagle et al. 2025's equal links.
        network.d2s =
            placement.d2sLinks == "equal"
                ? d2d.InstallServer(network.server, network.devices, placement.d2sDistanceFactor)
                : d2d.InstallServer(network.server, network.devices);
        if (traces)
        {
            traces->ConnectChannel(network.d2s);
        }
    }
    network.nextStream = FIRST_CHANNEL_STREAM + d2d.AssignStreams(FIRST_CHANNEL_STREAM);
    EndNetworkStreams();
    if (traces)
    {
        traces->ConnectEnergy(network.devices);
        traces->ConnectChannel(network.channel);
    }
    network.d2dTransports = network.channel->GetTransports();
    if (network.d2s)
    {
        network.d2sTransports = network.d2s->GetTransports();
    }
    TurnOffUnusedRadios(network);
    SetCpuFrequencies(network);
    if (energy.computes)
    {
        profiles.Apply(network.devices, run.seed);
    }
    network.mode = links.reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    return network;
}

void
D2dNetworkOptions::SetEnergySource(D2dHelper& d2d) const
{
    if (energy.energySource == "basic")
    {
        d2d.SetEnergySourceType(BasicEnergySource::GetTypeId().GetName());
    }
#if D2DLEARN_HAVE_LIION_SOURCE
    else if (energy.energySource == "liion")
    {
        d2d.SetEnergySourceType(LiIonEnergySource::GetTypeId().GetName());
    }
#endif
#if D2DLEARN_HAVE_GENERIC_BATTERY
    else if (energy.energySource == "generic")
    {
        d2d.SetEnergySourceType(GenericBatteryModel::GetTypeId().GetName());
    }
#endif
    d2d.SetInitialEnergyJ(energy.initialEnergyJ);
}

D2dNetwork
D2dNetworkOptions::MakeWifi(D2dTraceHelper* traces, bool withServer)
{
    NS_LOG_FUNCTION(this << traces << withServer);
    D2dNetwork network;
    network.devices = CreateDevices();
    // Energy sources and compute models as on the channel; the radios are 802.11's.
    D2dHelper d2d;
    SetEnergySource(d2d);
    ConfigureCompute(d2d);
    d2d.InstallWithoutRadios(network.devices);

    auto registry = CreateObject<D2dMessageRegistry>(); // ids unique over both networks
    auto configure = [&](D2dWifiHelper& wifi, double powerDbm) {
        wifi.SetStandard(messaging.wifiStandard == "80211g" ? WIFI_STANDARD_80211g
                                                            : WIFI_STANDARD_80211a);
        if (messaging.wifiRateManager != "constant")
        {
            wifi.SetRateManager(messaging.wifiRateManager == "ideal" ? "ns3::IdealWifiManager"
                                : messaging.wifiRateManager == "minstrel"
                                    ? "ns3::MinstrelWifiManager"
                                    : "ns3::AarfWifiManager");
        }
        else if (!messaging.wifiDataMode.empty())
        {
            wifi.SetDataMode(messaging.wifiDataMode);
        }
        wifi.SetPhyAttribute("TxPowerStart", DoubleValue(powerDbm));
        wifi.SetPhyAttribute("TxPowerEnd", DoubleValue(powerDbm));
        wifi.SetTransportAttribute("MtuBytes", UintegerValue(links.mtuBytes));
        wifi.SetMessageRegistry(registry);
        // The environment's chain (the channel backend's), or log-distance with its exponent.
        Ptr<PropagationLossModel> loss;
        if (environment.IsDefault())
        {
            loss = CreateObject<LogDistancePropagationLossModel>();
            loss->SetAttribute("Exponent", DoubleValue(messaging.wifiLossExponent));
        }
        else
        {
            D2dPropagationHelper chain = environment.GetHelper();
            if (chain.GetPreset().lossModel == "ns3::LogDistancePropagationLossModel")
            {
                chain.SetPathLossAttribute("Exponent", DoubleValue(messaging.wifiLossExponent));
            }
            loss = chain.Create();
        }
        wifi.SetPropagationLoss(loss);
        return loss;
    };
    D2dWifiHelper wifi;
    network.wifiLoss = configure(wifi, links.txPowerDbm);
    network.wifiTxPowerDbm = links.txPowerDbm;
    {
        // What the PHYs detect: their preamble detection threshold (YansWifiPhyHelper's
        // default ThresholdPreambleDetectionModel), as Config::SetDefault may have set it.
        TypeId::AttributeInformation info;
        if (TypeId::LookupByName("ns3::ThresholdPreambleDetectionModel")
                .LookupAttributeByName("MinimumRssi", &info))
        {
            network.wifiHearDbm = DynamicCast<const DoubleValue>(info.initialValue)->Get();
        }
    }
    {
        // Eq. (18) at the RSS of the Wi-Fi channel's own loss model (with r and sigma^2 at
        // D2dRssLinkQuality's defaults: 2 bit/s/Hz, thermal noise of 20 MHz with the PHY's
        // 7 dB noise figure); what the PHYs do not detect has P_D = 1.
        auto rss = CreateObject<PropagationRssModel>();
        rss->SetAttribute("PropagationLossModel", PointerValue(network.wifiLoss));
        auto links = CreateObject<D2dRssLinkQuality>();
        links->SetRssModel(rss);
        links->SetNodes(network.devices);
        links->SetAttribute("TxPowerDbm", DoubleValue(network.wifiTxPowerDbm));
        links->SetAttribute("RxSensitivityW",
                            DoubleValue(std::pow(10.0, network.wifiHearDbm / 10.0) / 1000.0));
        network.links = links;
    }
    std::vector<Ptr<D2dWifiTransport>> d2d80211 = wifi.Install(network.devices);
    if (!messaging.pcap.empty())
    {
        wifi.EnablePcap(messaging.pcap);
    }
    network.wifiMeters = wifi.InstallEnergy("radio", links.nDevices);
    int64_t stream = FIRST_CHANNEL_STREAM;
    stream += wifi.AssignStreams(stream);
    network.d2dTransports.assign(d2d80211.begin(), d2d80211.end());

    if (withServer)
    {
        network.server = CreateObject<Node>();
        auto position = CreateObject<ConstantPositionMobilityModel>();
        position->SetPosition(m_serverPositionM); // --serverPosition: the access point
        network.server->AggregateObject(position);
        NodeContainer all(network.devices, NodeContainer(network.server));
        D2dWifiHelper d2sWifi; // a network of its own: another channel, subnet and port
        configure(d2sWifi, links.d2sTxPowerDbm);
        d2sWifi.SetNetworkBase(Ipv4Address("10.2.0.0"), Ipv4Mask("255.255.0.0"));
        d2sWifi.SetTransportAttribute("Port", UintegerValue(9998));
        d2sWifi.SetAggregate(false);
        std::vector<Ptr<D2dWifiTransport>> d2s80211 = d2sWifi.Install(all);
        if (!messaging.pcap.empty())
        {
            d2sWifi.EnablePcap(messaging.pcap + "-d2s");
        }
        for (auto& meter :
             d2sWifi.InstallEnergy("d2s", links.nDevices)) // the server: mains powered
        {
            network.wifiMeters.push_back(meter);
        }
        stream += d2sWifi.AssignStreams(stream);
        network.d2sTransports.assign(d2s80211.begin(), d2s80211.end());
    }
    network.nextStream = stream;
    EndNetworkStreams();
    TurnOffUnusedRadios(network);
    SetCpuFrequencies(network);
    if (energy.computes)
    {
        profiles.Apply(network.devices, run.seed);
    }
    // A depleted battery: the PHYs go off (WifiRadioEnergyModelHelper), the transports too.
    for (uint32_t i = 0; i < links.nDevices; ++i)
    {
        Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(network.devices.Get(i));
        Ptr<D2dTransport> d2d = network.d2dTransports[i];
        compute->AddDepletionCallback([d2d]() { d2d->TurnOff(); });
        if (withServer)
        {
            Ptr<D2dTransport> d2s = network.d2sTransports[i];
            compute->AddDepletionCallback([d2s]() { d2s->TurnOff(); });
        }
    }
    if (traces)
    {
        traces->ConnectEnergy(network.devices);
        for (const auto& meter : network.wifiMeters)
        {
            traces->ConnectWifiEnergy(meter);
        }
        for (const auto& t : network.d2dTransports)
        {
            traces->ConnectTransport(t);
        }
        for (const auto& t : network.d2sTransports)
        {
            traces->ConnectTransport(t);
        }
    }
    network.mode = links.reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    return network;
}

void
D2dNetworkOptions::PrintLinks(std::ostream& os,
                              bool withServer,
                              const std::vector<std::pair<std::string, uint64_t>>& messages)
{
    NS_LOG_FUNCTION(this << withServer);
    const D2dNetwork network = Make(nullptr, withServer);
    const uint32_t n = links.nDevices;
    const Ptr<D2dChannel> d2d = network.channel;
    const Ptr<D2dChannel> d2s = network.d2s;

    // The D2D pairs: all of them, or a fixed random sample of MAX_LISTED_PAIRS.
    const uint64_t pairs = static_cast<uint64_t>(n) * (n - 1);
    const bool listed = pairs <= MAX_LISTED_PAIRS;
    std::vector<std::pair<uint32_t, uint32_t>> sample; // (rx, tx) when not listed
    if (!listed)
    {
        D2dDataRng rng(run.seed, 0x4C494E4B); // "LINK": a stream of its own
        sample.resize(MAX_LISTED_PAIRS);
        for (auto& [rx, tx] : sample)
        {
            rx = static_cast<uint32_t>(rng.Below(n));
            tx = static_cast<uint32_t>(rng.Below(n - 1));
            tx += tx >= rx ? 1 : 0;
        }
    }
    std::vector<double> d2dDrop;
    uint64_t evaluated = 0;
    auto forEachPair = [&](const std::function<void(uint32_t, uint32_t)>& visit) {
        ForEachPair(n, listed ? nullptr : &sample, visit);
    };
    forEachPair([&](uint32_t rx, uint32_t tx) {
        ++evaluated;
        if (d2d->Hears(rx, tx))
        {
            d2dDrop.push_back(d2d->GetDropProbability(rx, tx));
        }
    });
    std::vector<double> d2sDrop;
    if (d2s)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            d2sDrop.push_back(d2s->GetDropProbability(n, i));
            d2sDrop.push_back(d2s->GetDropProbability(i, n));
        }
    }

    auto describe =
        [&](const std::string& name, Ptr<D2dChannel> channel, const std::vector<double>& drops) {
            PrintAirtimes(os,
                          name,
                          channel,
                          messages,
                          links.reliable ? &drops : nullptr,
                          links.maxRetransmissions);
        };

    os << fmt::format("# links of this configuration (nothing simulated): {} devices, --seed={} "
                      "--RngRun={}, {} delivery\n",
                      n,
                      run.seed,
                      run.rngRun,
                      links.reliable ? "reliable" : "unreliable");
    os << fmt::format("# d2d: rate {} bit/s ({}); {} ordered pairs{}, {} hear; p_drop of those: "
                      "{}\n",
                      d2d->GetRateBps(),
                      BandShare(d2d),
                      pairs,
                      listed ? "" : fmt::format(" (a random sample of {} evaluated)", evaluated),
                      d2dDrop.size(),
                      Distribution(d2dDrop));
    describe("d2d", d2d, d2dDrop);
    if (d2s)
    {
        os << fmt::format("# d2s: rate {} bit/s ({}); {} uplinks and {} downlinks; p_drop: {}\n",
                          d2s->GetRateBps(),
                          BandShare(d2s),
                          n,
                          n,
                          Distribution(d2sDrop));
        os << (placement.d2sLinks == "equal"
                   ? fmt::format("# d2s links: equal, every one {:.6g} m (--d2sDistanceFactor={} "
                                 "x the mean D2D distance)\n",
                                 d2s->GetDistanceM(n, 0),
                                 D2dScenarioSupport::FormatNumber(placement.d2sDistanceFactor))
                   : fmt::format("# d2s links: distance, each device's own to the server at "
                                 "{} m\n",
                                 placement.serverPosition));
        describe("d2s", d2s, d2sDrop);
    }
    if (!listed)
    {
        os << fmt::format("# d2d rows left out: {} ordered pairs are more than {}\n",
                          pairs,
                          MAX_LISTED_PAIRS);
    }
    os << "link,rx,tx,distance_m,rss_w,p_drop\n";
    if (d2s)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            PrintLinkRow(os, "d2s", d2s, n, i);
            PrintLinkRow(os, "d2s", d2s, i, n);
        }
    }
    if (listed)
    {
        forEachPair([&](uint32_t rx, uint32_t tx) {
            if (d2d->Hears(rx, tx))
            {
                PrintLinkRow(os, "d2d", d2d, rx, tx);
            }
        });
    }
    os.flush();
}

void
D2dNetworkOptions::EndNetworkStreams()
{
    RngSeedManager::SetRun(1);
}

void
D2dNetworkOptions::Record(D2dTraceHelper& traces, const D2dNetwork& network) const
{
    if (run.inertFlags == "record")
    {
        // The flags given that could not change this run (D2dFlagScope), comma-separated.
        std::string names;
        for (const auto& name : m_inertGiven)
        {
            names += (names.empty() ? "" : ",") + name;
        }
        traces.AddParameter("inertFlagsGiven", names);
    }
    traces.AddParameter("d2dRadioOff", IsD2dRadioOff());
    environment.Record(traces);
    profiles.Record(traces);
    if (!m_cpuHz.empty() && energy.GetCpuMinHz() != energy.GetCpuMaxHz() && m_cpuHz.size() <= 10000)
    {
        traces.AddParameterArray("cpuFrequencyHzPerDevice", m_cpuHz); // --cpuFrequencyHz=MIN:MAX
    }
    if (network.channel)
    {
        traces.AddParameter("radioStateOrder", m_radioStateOrder);
    }
    if (!network.channel && !network.d2dTransports.empty())
    {
        // Wi-Fi: the transport's attributes and the devices' compute model.
        traces.AddAttributes(network.d2dTransports[0]);
        traces.AddAttributes(D2dHelper::GetComputeModel(network.devices.Get(0)));
    }
    if (network.channel)
    {
        traces.AddAttributes(network.channel->GetRadio(0));
        // The rate of one transmission: r x bandwidth, x m / K with a finite spectrum.
        traces.AddParameter("linkRateBps", network.channel->GetRateBps());
        traces.AddParameter("subChannelsInForce", GetSubChannelsInForce());
        // sigma^2 of eq. (18) in force (--noise=thermal: k T0 B F of the bandwidth used).
        traces.AddParameter("noisePowerInForceW", network.channel->GetNoisePowerW());
        if (network.d2s)
        {
            traces.AddParameter("d2sNoisePowerInForceW", network.d2s->GetNoisePowerW());
            traces.AddParameter("d2sLinkRateBps", network.d2s->GetRateBps());
            traces.AddParameter("d2sSubChannelsInForce",
                                network.d2s->GetSpectrum()->GetSubChannels());
        }
        traces.AddAttributes(network.channel);
        traces.AddAttributes(network.channel->GetRadio(0)->GetEnergyModel());
        traces.AddAttributes(D2dHelper::GetComputeModel(network.devices.Get(0)));
        traces.AddAttributes(network.channel->GetRssModel());
    }
}

} // namespace ns3
