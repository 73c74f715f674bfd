/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_NETWORK_OPTIONS_H
#define D2D_NETWORK_OPTIONS_H

#include "ns3/command-line.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-device-profile-options.h"
#include "ns3/d2d-flag-scope.h"
#include "ns3/d2d-link-quality.h"
#include "ns3/d2d-mobility-options.h"
#include "ns3/d2d-network-option-groups.h"
#include "ns3/d2d-network.h"
#include "ns3/d2d-propagation-options.h"
#include "ns3/d2d-rss-model.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-transport.h"
#include "ns3/d2d-wifi-energy-meter.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/vector.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class D2dHelper;

/**
 * \ingroup d2dlearn
 * \brief The network part of a scenario program: the command-line parameters of the
 * devices, the D2D channel (eq. (18) of Wagle et al. 2025), energy, RSS and the D2S link, their
 * checks, the network they describe, and their record in run.json.
 *
 * The flags' values are public members of its option groups, one per flag group, each
 * declaring its own flags (AddFlags): links (D2dLinkOptions: net.links.nDevices, ...),
 * spectrum (D2dSpectrumOptions), placement (D2dPlacementOptions), energy (D2dEnergyOptions),
 * rss (D2dRssOptions), run (D2dRunOptions: net.run.seed, ...) and messaging (D2dWifiOptions:
 * net.messaging.backend, ...), beside mobility, environment and profiles. A scenario may
 * change them before AddFlags() to set its own defaults; after Validate() they hold the
 * values in force.
 *
 * Use, in a scenario's main():
 * \code
 *   D2dScenarioSupport support("my-scenario");
 *   D2dScenarioFlags flags(support);
 *   D2dNetworkOptions net("results/my-scenario");
 *   net.placement.areaSideM = 50; // a scenario may change defaults here, before AddFlags()
 *   net.AddFlags(flags);
 *   flags.Add("rounds", "Rounds", rounds).Range(1, 1e6); // the scenario's own flags
 *   flags.Parse(argc, argv);
 *   net.Validate(support, 10);
 *   support.SetQuiet(net.run.quiet);
 *   auto traces = net.OpenTraces(support);
 *   D2dNetwork network = net.Build(*traces, false);
 *   flags.Record(*traces);
 *   net.Record(*traces, network);
 *   // ... the scenario's traffic, with streams from network.nextStream ...
 * \endcode
 *
 * Random streams: positions use stream 0, mobility streams from 1000, the channels
 * streams from 10 (FIRST_CHANNEL_STREAM); D2dNetwork::nextStream is the first one after
 * the channels'.
 *
 * Replications (ns-3's convention, --RngRun): the network's streams (positions, mobility,
 * the channels' losses, dynamic RSS, Wi-Fi) are drawn in ns-3 run --RngRun; every stream
 * assigned after Build() (or after EndNetworkStreams()) is drawn in run 1, whatever
 * --RngRun, as are the data, the partition and the initial weights (which --seed alone
 * draws). So --RngRun replicates the network's randomness alone: same shards, same initial
 * models, same client draws, other positions and other losses.
 */
class D2dNetworkOptions
{
  public:
    /** --nDevices, the links' rate, noise and power, fragments, reliability, access */
    D2dLinkOptions links;
    /** --subChannels and the finite spectrum of both bands */
    D2dSpectrumOptions spectrum;
    /** --areaSideM, --speedMps, the server's place and the D2S link lengths */
    D2dPlacementOptions placement;
    /** --initialEnergyJ, the energy source, the radios' powers and sleep, the compute model */
    D2dEnergyOptions energy;
    /** --dynamicRssLevels, --rssFile, fixed drop probabilities, the D2S noise */
    D2dRssOptions rss;
    /** --seed, --RngRun, --outDir, --traces and what the program does instead of running */
    D2dRunOptions run;
    /** --backend and the Wi-Fi backend's parameters */
    D2dWifiOptions messaging;

    /** The most devices --nDevices accepts (over Wi-Fi: MAX_WIFI_DEVICES). */
    static constexpr uint32_t MAX_DEVICES = 1000000;
    /** The most devices over Wi-Fi: one IPv4 /16 subnet (D2dWifiHelper's addresses). */
    static constexpr uint32_t MAX_WIFI_DEVICES = 65000;
    /** Stream index of the channels' first RNG stream. */
    static constexpr int64_t FIRST_CHANNEL_STREAM = 10;

    /** \param defaultOutDir the default of --outDir */
    explicit D2dNetworkOptions(std::string defaultOutDir);

    /**
     * The learning scenarios' default --subChannels (fedavg, cmfl, consensus): a band of K
     * sub-channels that every upload and broadcast shares, so that a round's simulated time
     * grows with the number of devices that send in it, as on a shared band. Measured in
     * doc/explanation/channel-model.md's section "Spectrum": FedAvg's round time against the
     * number of devices for K = 0, 1, 4, 16.
     */
    static constexpr uint32_t SHARED_BAND_SUB_CHANNELS = 4;

    /** --mobility, the models' parameters and --positionEvery (CreateDevices(), Build()) */
    D2dMobilityOptions mobility;
    /** --propagation, shadowing, fading, heights and --noise (the radio environment) */
    D2dPropagationOptions environment;
    /** --computeSpread, --deviceProfiles: each device's speed, power and battery (where
     *  devices compute) */
    D2dDeviceProfileOptions profiles;

    /**
     * \return the D2D band's K on the links the run uses: --subChannels if it sends D2D
     *         messages (or the scenario did not say, SetTraffic()), else 0. (messages.csv
     *         has the spectrum columns in every channel run, whatever K.)
     */
    uint32_t GetSubChannelsInForce() const;
    /**
     * \return sigma^2 of eq. (18) on the D2D links, W: --noisePowerW, or with --noise=thermal
     *         k T0 B F over the bandwidth one transmission occupies (D2dThermalNoise::PowerW)
     */
    double GetD2dNoiseW() const;
    /**
     * \brief Fail if the environment keeps a state per pair of nodes and the D2S links of
     * the run have one length (--d2sLinks=equal: stand-in ends, no nodes), or if it is a
     * model of links between devices and the run has a server.
     * \param support the scenario's support (error messages)
     */
    void CheckLinkEnds(const D2dScenarioSupport& support) const;
    /** \return a new RSS model of the environment's chain (--propagation and its options) */
    Ptr<PropagationRssModel> MakePropagationRss() const;
    /** \return sigma^2 on the D2S links, W (d2sNoisePowerW, or as GetD2dNoiseW() on its cell) */
    double GetD2sNoiseW() const;
    /** \return the sub-channels of the device-to-server cell in force (--d2sSubChannels) */
    uint32_t GetD2sSubChannels() const;
    /**
     * \return whether the devices' D2D radios are off from the start: --d2dRadio=auto and the
     *         run sends no D2D messages (SetTraffic() said so), so they would only idle
     */
    bool IsD2dRadioOff() const;

    /** \return after Validate(): the server node's position, m (--serverPosition) */
    Vector GetServerPositionM() const
    {
        return m_serverPositionM;
    }

    /**
     * \brief Parse a --serverPosition value.
     * \param text "x,y", "x,y,z", "x:y", "x:y:z" (m; one kind of separator; z 0 if left
     *        out), each coordinate a finite number of at most 1e7 in magnitude
     * \param[out] position the position, m
     * \return whether text is one of those forms ("centre" is not: the caller resolves it)
     */
    static bool ParsePositionM(const std::string& text, Vector& position);

    /**
     * \brief Declare the network flags (each with its range and the attributes it sets).
     * A scenario changes a default by assigning the member before this call.
     * \param flags the scenario's flags; they must outlive Validate()
     */
    void AddFlags(D2dScenarioFlags& flags);
    /**
     * \return the compute model's flags (--computeModel and its parameters, the device
     *         profiles): they cost training jobs, so a program where not every run trains
     *         says what trains (D2dScenarioFlags::Flag::Configures)
     */
    static const std::vector<std::string>& GetComputeFlags();

    /**
     * \brief Which links the run's messages use (after D2dScenarioFlags::Parse(), before
     * Validate()): Validate() then refuses a flag given with a value that cannot change the
     * run (D2dFlagScope), e.g. --dropProbability for a protocol that sends nothing over D2D
     * links. A program that does not call it gets the checks that do not depend on traffic
     * (backend, other flags' values) alone.
     * \param traffic the run's links (traffic.known is set here)
     */
    void SetTraffic(D2dTraffic traffic);

    /**
     * \brief The program knows its traffic only after Validate() (e.g. graph-discovery, whose
     * paradigm, made with the number of devices, says whether it has a server): Validate()
     * leaves --printScope and the scope rule to CheckScope(), which the program calls after
     * SetTraffic().
     */
    void DeferScope();

    /**
     * \brief --printScope (print and exit 0), then D2dFlagScope::Check() with the traffic of
     * SetTraffic(). Validate() calls it unless DeferScope() was called.
     * \param support the scenario's support (error messages)
     */
    void CheckScope(const D2dScenarioSupport& support);

    /**
     * \brief After D2dScenarioFlags::Parse() (which checks each flag's range): --rssFile read (its
     * N sets nDevices; another
     * --nDevices is an error), nDevices 0 -> defaultDevices, minDevices <= nDevices <=
     * 100000, the RSS model made and checked (dynamic RSS: MinW < MaxW; --dropProbability:
     * the constant W of eq. (18), which needs --noisePowerW > 0 and no other RSS source),
     * and RngSeedManager seeded (SetSeed(seed), SetRun(rngRun)). Bad input ends the program
     * via support.Fail().
     * Does not call support.SetQuiet() (support is const): the scenario does.
     * \param support the scenario's support (error messages)
     * \param defaultDevices devices when --nDevices=0 and no --rssFile
     * \param minDevices fewest devices accepted
     */
    void Validate(const D2dScenarioSupport& support,
                  uint32_t defaultDevices,
                  uint32_t minDevices = 2);

    /**
     * \param support the scenario's support (error messages)
     * \return the trace helper of outDir (support.Fail() if it cannot be created); with
     * --validate, one that writes nothing, checks outDir as the run would, and an event at
     * time 0, first of all, that exits 0: the scenario builds the whole run (every refusal
     * of the run happens), and stops before simulating
     */
    std::unique_ptr<D2dTraceHelper> OpenTraces(const D2dScenarioSupport& support) const;

    /**
     * \brief The devices alone: nDevices nodes placed uniformly in the square (stream 0)
     * and moving as --mobility says (D2dMobilityOptions::Install(): constant, random walk
     * (--speedMps), random waypoint, Gauss-Markov or an ns-2 trace, streams from 1000). Build()
     * calls it; a scenario with a backend of its own (Wi-Fi) may call it instead.
     * \return the nodes, device i = node i
     */
    NodeContainer CreateDevices() const;

    /**
     * \brief Make the network: CreateDevices(), a D2dHelper with every attribute of the
     * flags, the RSS model (matrix, dynamic or propagation), the D2S server and channel if
     * withServer (its radios at d2sTxPowerDbm), AssignStreams() from
     * FIRST_CHANNEL_STREAM, and the traces connected (energy, transports of both channels);
     * then EndNetworkStreams(); positions.csv started (D2dMobilityOptions::StartTrace(): the
     * devices, and the server if it has a position). The time resolution is fixed first
     * (D2dHelper::FixTimeResolution()). Call after Validate() and before Simulator::Run().
     * \param traces where the messages and energy events go
     * \param withServer add a server reached over the D2S channel
     * \return the network
     */
    D2dNetwork Build(D2dTraceHelper& traces, bool withServer);

    /**
     * \brief run.json (besides the flags, which D2dScenarioFlags::Record() writes): if
     * network.channel, linkRateBps and the attributes of the D2D channel, radio 0, its energy
     * model, the compute model and the RSS model.
     * \param traces the run's trace helper
     * \param network the network Build() made
     */
    void Record(D2dTraceHelper& traces, const D2dNetwork& network) const;

    /**
     * \brief Streams assigned from now on belong to the scenario and its protocol: they are
     * drawn in ns-3 run 1 whatever --RngRun (RngSeedManager::SetRun(1)). Build() calls it
     * after the network's streams; a scenario that assigns network streams of its own (a
     * Wi-Fi backend) calls it after them.
     */
    static void EndNetworkStreams();

    /**
     * \brief --printLinks: make the network this configuration describes (the positions and
     * RSS of the run, no traces, nothing simulated) and print its links to os: a summary
     * ('#' lines: link rates, the P_D distribution of the D2D links that hear and of the D2S
     * links, and for each message size its fragments and airtime), then the CSV
     * link,rx,tx,distance_m,rss_w,p_drop with one row per D2S link (uplink rx = the server,
     * index N) and per D2D pair that hears. Above MAX_LISTED_PAIRS ordered D2D pairs, the
     * D2D summary is over a fixed random sample of that many pairs and the D2D rows are
     * left out (the summary says so). p_drop is written as messages.csv writes it. Call
     * after Validate(); the scenario then exits.
     * \param os where to print
     * \param withServer the scenario's configuration has a D2S link
     * \param messages the scenario's message kinds and sizes (bytes), e.g. {"model", 407152}
     */
    void PrintLinks(std::ostream& os,
                    bool withServer,
                    const std::vector<std::pair<std::string, uint64_t>>& messages);

    /** Most ordered D2D pairs that PrintLinks() lists (and evaluates) one by one. */
    static constexpr uint64_t MAX_LISTED_PAIRS = 4000000;

  private:
    /**
     * \brief Validate() of the spectrum: --dropProbability and --d2sDropProbability without
     * co-channel interference that would raise them, the D2S band, and
     * --subChannelsPerTransmission within each band's sub-channels.
     * \param support for the one-line error
     */
    void ValidateSpectrum(const D2dScenarioSupport& support) const;
    /**
     * \brief Validate() of the energy: the source chosen exists in this ns-3; the radio
     * attributes a profile sets are given only with --radioProfile=custom; the radios' state
     * powers keep transmit >= receive >= idle (or --allowUnorderedRadioPowers).
     * \param support for the one-line error
     */
    void ValidateEnergy(const D2dScenarioSupport& support);
    /**
     * \brief Switch off, at time 0, the D2D radios the run never uses (IsD2dRadioOff()).
     * \param network the network just made
     */
    void TurnOffUnusedRadios(const D2dNetwork& network) const;
    /**
     * \brief The compute models' attributes of --computeModel, --cyclesPerFlop and
     * --switchedCapacitance, given to the helper before it installs them.
     * \param d2d the helper
     */
    void ConfigureCompute(D2dHelper& d2d) const;
    /**
     * \brief --computeModel=cpu: each device's CPU frequency, --cpuFrequencyHz's f or, for
     * MIN:MAX, uniform in [MIN, MAX] in device order from D2dDataRng(seed, CPU_FREQUENCY).
     * \param network the network just made
     */
    void SetCpuFrequencies(const D2dNetwork& network);
    /**
     * \brief Validate() of the RSS sources: one at a time, drop probabilities in range with
     * noise, the --rssFile matrix read (m_matrix) and nDevices taken from it.
     * \param support for the one-line error
     */
    void ValidateRss(const D2dScenarioSupport& support);
    /**
     * \brief The RSS model of the flags in force (m_rss: the --rssFile matrix, dynamic RSS,
     * a constant RSS for --dropProbability, or null: the positions), checked as the
     * parameters are: before the trace files exist.
     * \param support for the one-line error
     */
    void MakeRssModel(const D2dScenarioSupport& support);
    /**
     * \brief Validate()'s checks of --backend (which flags act over which backend is
     * D2dFlagScope's): the data mode is one of the standard's, the MTU
     * (1400 bytes over Wi-Fi unless given) fits a 1500-byte frame with the headers.
     * \param support the scenario's support (error messages)
     */
    void ValidateBackend(const D2dScenarioSupport& support);
    /**
     * \brief Validate()'s checks of the server's place and of the D2S link lengths:
     * --serverPosition parsed (one-line error naming the accepted forms), --d2sLinks
     * resolved for the backend and --rssFile, and the flags that would not act refused:
     * --d2sDistanceFactor away from its default under --d2sLinks=distance, --serverPosition
     * away from the centre under --d2sLinks=equal on the channel.
     * \param support the scenario's support (error messages)
     */
    void ValidateServer(const D2dScenarioSupport& support);
    /**
     * \brief --energySource and --initialEnergyJ on the helper's energy sources (both backends).
     * \param d2d the helper that makes the devices
     */
    void SetEnergySource(D2dHelper& d2d) const;
    /**
     * \brief Make()'s Wi-Fi network: devices with energy sources and compute models, an
     * 802.11 ad hoc network among them, and with a server a second one (its own channel and
     * subnet) among them and the server at the centre of the square; energy through
     * WifiRadioEnergyModel.
     * \param traces where messages and energy go, or null
     * \param withServer add the server and its network
     * \return the network
     */
    D2dNetwork MakeWifi(D2dTraceHelper* traces, bool withServer);

    /**
     * \brief Build() without traces (traces null) or with them.
     * \param traces where messages and energy go, or null
     * \param withServer add a server reached over the D2S channel
     * \return the network
     */
    D2dNetwork Make(D2dTraceHelper* traces, bool withServer);

    double m_initialD2sTxPowerDbm;            //!< d2sTxPowerDbm as constructed
    Vector m_serverPositionM;                 //!< the server's position, m (Validate())
    const D2dScenarioFlags* m_flags{nullptr}; //!< the flags AddFlags() declared
    D2dTraffic m_traffic;                     //!< SetTraffic()'s (not known if not called)
    bool m_deferScope{false};                 //!< DeferScope() was called
    std::vector<std::string> m_inertGiven;    //!< --inertFlags=record: the flags it let pass
    /** ValidateEnergy(): "ordered", or the order the radios' state powers break (custom
     *  powers run with --allowUnorderedRadioPowers), for run.json */
    std::string m_radioStateOrder{"ordered"};
    std::vector<double> m_cpuHz;               //!< SetCpuFrequencies(): each device's f, Hz
    bool m_d2sFollowsTx{true};                 //!< d2sTxPowerDbm follows txPowerDbm
    std::vector<std::vector<double>> m_matrix; //!< the --rssFile matrix, W
    Ptr<D2dRssModel> m_rss;                    //!< null: the channel's propagation model
};

} // namespace ns3

#endif /* D2D_NETWORK_OPTIONS_H */
