/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_NETWORK_OPTION_GROUPS_H
#define D2D_NETWORK_OPTION_GROUPS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

// The flag groups of D2dNetworkOptions, which holds one of each: the values of the network
// flags every scenario program shares, each group with the flags that set it.

namespace ns3
{

class D2dDeviceProfileOptions;
class D2dScenarioFlags;
class D2dScenarioSupport;

/**
 * \ingroup d2dlearn
 * \brief The D2D and D2S links of eq. (18) of Wagle et al. 2025 (rate, noise, power), fragmenting
 * and reliability: the first flags of D2dNetworkOptions. A scenario may change them before
 * D2dNetworkOptions::AddFlags() to set its own defaults; after Validate() they hold the values in
 * force.
 */
struct D2dLinkOptions
{
    /**
     * \brief Declare the link flags (--nDevices to --access), in the order --PrintHelp and
     * run.json list them, each with its range and the attributes it sets.
     * \param flags where to declare them
     * \param maxDevices the most devices --nDevices accepts
     * \param d2sFollowsTx --d2sTxPowerDbm follows --txPowerDbm unless given (its help says so)
     */
    void AddFlags(D2dScenarioFlags& flags, uint32_t maxDevices, bool d2sFollowsTx);

    uint32_t nDevices{0};           //!< --nDevices (0: the scenario's default or N of --rssFile)
    uint32_t mtuBytes{1500};        //!< --mtuBytes: fragment payload, bytes
    uint32_t maxRetransmissions{7}; //!< --maxRetransmissions: reliable mode, per fragment
    double spectralEfficiency{2.0}; //!< --spectralEfficiency: r of eq. (18), bit/s/Hz
    double bandwidthHz{10e6};       //!< --bandwidthHz: Hz; link rate = r x bandwidth
    double noisePowerW{1e-13};      //!< --noisePowerW: sigma^2 of eq. (18), W
    double txPowerDbm{20.0};        //!< --txPowerDbm: D2D transmit power, dBm
    /**
     * --d2sTxPowerDbm: transmit power of the D2S radios (devices' and server's), dBm.
     * Unless given on the command line (or changed by the scenario before AddFlags()),
     * it follows --txPowerDbm, as D2S radios did before this parameter existed.
     */
    double d2sTxPowerDbm{20.0};
    bool reliable{false};            //!< --reliable: retransmit lost fragments
    bool fastPath{true};             //!< --fastPath: O(1) events per message
    double rangeM{0.0};              //!< --rangeM: hearing range, m (0: no limit)
    std::string access{"immediate"}; //!< --access: immediate | scheduled (channel access)
};

/**
 * \ingroup d2dlearn
 * \brief The finite spectrum: sub-channels of the D2D band and of the device-to-server cell,
 * receive chains, interference and reuse (D2dSpectrum): D2dNetworkOptions' spectrum flags. A
 * scenario may change them before D2dNetworkOptions::AddFlags() to set its own defaults; after
 * Validate() they hold the values in force.
 */
struct D2dSpectrumOptions
{
    /**
     * \brief Declare the spectrum flags (--subChannels to --reuseDistanceM), in the order
     * --PrintHelp and run.json list them.
     * \param flags where to declare them
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * --subChannels: sub-channels K of the D2D band (OFDMA resource blocks, D2dSpectrum): a
     * transmission gets r x bandwidth x subChannelsPerTransmission / K and waits (scheduled
     * access) or collides (immediate) when they are taken. 0: unlimited (every link the whole
     * band at once, the literal reading of Wagle et al. 2025, App. C).
     */
    uint32_t subChannels{0};
    /** --d2sSubChannels: sub-channels of the device-to-server cell (-1: --subChannels) */
    int64_t d2sSubChannels{-1};
    /** --d2sBandwidthHz: the device-to-server cell's own band, Hz (-1: --bandwidthHz) */
    double d2sBandwidthHz{-1};
    uint32_t subChannelsPerTransmission{1}; //!< --subChannelsPerTransmission: m, 1 to K
    uint32_t receiveChains{0};         //!< --receiveChains: receptions at once per radio (0: K)
    bool interference{true};           //!< --interference: co-channel I in eq. (18)
    std::string spectrumReuse{"none"}; //!< --spectrumReuse: none | hearing (D2D band)
    double reuseDistanceM{0.0};        //!< --reuseDistanceM: hearing reuse distance, m
};

/**
 * \ingroup d2dlearn
 * \brief Where the devices and the server are: the square, the server's position, how long the
 * device-to-server links are, the devices' speed: D2dNetworkOptions' placement flags. A scenario
 * may change them before D2dNetworkOptions::AddFlags() to set its own defaults; after Validate()
 * they hold the values in force.
 */
struct D2dPlacementOptions
{
    /**
     * \brief Declare the placement flags (--d2sLinks to --speedMps), in the order --PrintHelp
     * and run.json list them (the mobility flags follow, D2dMobilityOptions).
     * \param flags where to declare them
     */
    void AddFlags(D2dScenarioFlags& flags);

    double d2sDistanceFactor{3.0}; //!< --d2sDistanceFactor: D2S / mean D2D distance
    /**
     * --d2sLinks: how long the device-to-server links are. "distance": each device's own
     * distance to the server node at --serverPosition, through the D2S channel's propagation
     * loss and eq. (18), followed as the device moves; "equal": every link
     * d2sDistanceFactor x the mean D2D distance whatever the positions (Wagle et al. 2025,
     * sec. VI-G). After Validate() the mode in force: "equal" with --rssFile (no positions
     * the matrix would agree with), "distance" over Wi-Fi (the 802.11 server has a place).
     */
    std::string d2sLinks{"distance"};
    /**
     * --serverPosition: where the server (access point, base station) is, m: "x,y" or
     * "x,y,z" (or ns-3's Vector form "x:y:z"), or "centre", the centre of the square at
     * z = 0. After Validate() the position in force as "x,y,z" (GetServerPositionM()).
     */
    std::string serverPosition{"centre"};
    double areaSideM{200.0}; //!< --areaSideM: side of the square, m
    double speedMps{0.0};    //!< --speedMps: > 0: random walk in the square, m/s
};

/**
 * \ingroup d2dlearn
 * \brief The devices' batteries and radio energy model: D2dNetworkOptions' energy flags. A scenario
 * may change them before D2dNetworkOptions::AddFlags() to set its own defaults; after Validate()
 * they hold the values in force.
 */
struct D2dEnergyOptions
{
    /**
     * \brief Declare the energy flags (--initialEnergyJ to --energySource; the compute flags
     * and the device profiles' only if computes), in the order --PrintHelp and run.json list
     * them.
     * \param flags where to declare them
     * \param profiles the device profiles' options, whose flags follow the compute model's
     */
    void AddFlags(D2dScenarioFlags& flags, D2dDeviceProfileOptions& profiles);

    double initialEnergyJ{10000.0};     //!< --initialEnergyJ: battery per device, J
    std::string energySource{"linear"}; //!< --energySource: linear | basic | liion | generic
    /** --radioProfile: the radios' state powers, a D2dRadioProfile (ns3-wifi, nr-ue,
     *  first-order, custom) */
    std::string radioProfile{"ns3-wifi"};
    /** --allowUnorderedRadioPowers: run custom powers that break transmit >= receive >=
     *  idle (refused otherwise) */
    bool allowUnorderedRadioPowers{false};
    /** --d2dRadio: auto (off from the start when the protocol sends no D2D messages) or on */
    std::string d2dRadio{"auto"};
    /** --drx: the D2D radios' DRX cycle (D2dDrx), CYCLE,ON_DURATION[,INACTIVITY] as ns-3
     *  times ("100ms,10ms,20ms"); "" (default): none, the radios listen all the run */
    std::string drx;
    /** --d2sDrx: the same for the devices' D2S radios (the server never sleeps) */
    std::string d2sDrx;
    /** whether the protocol puts radios to sleep (--sleepWhileTraining; a scenario sets it
     *  before Validate()): the power-order check then includes idle > sleep, as with a DRX */
    bool protocolSleeps{false};
    /** whether the program runs compute jobs (its devices train): else the compute flags
     *  below are not declared (a scenario sets it before D2dNetworkOptions::AddFlags()) */
    bool computes{true};
    /** --computeModel: flops (FlopsPerSecond at BusyPowerW) or cpu (D2dComputeModel's Cpu
     *  model: c F / f seconds at (alpha/2) f^3) */
    std::string computeModel{"flops"};
    /** --cpuFrequencyHz: f, Hz, or MIN:MAX, each device's f uniform in [MIN, MAX] */
    std::string cpuFrequencyHz{"2e9"};
    double cyclesPerFlop{0.2};           //!< --cyclesPerFlop: CPU cycles per FLOP (cpu)
    double switchedCapacitance{2.5e-28}; //!< --switchedCapacitance: alpha/2 (cpu)

    /**
     * \brief After D2dScenarioFlags::Parse(): --cpuFrequencyHz read (f or MIN:MAX, 1 <= MIN <=
     * MAX <= 1e12 Hz) if computes, --drx and --d2sDrx read (CYCLE,ON_DURATION[,INACTIVITY]),
     * and --energySource one this ns-3 has. Bad input ends the program via support.Fail().
     * \param support the scenario's support (error messages)
     */
    void Validate(const D2dScenarioSupport& support);
    /** \return --cpuFrequencyHz's MIN (or f), Hz, after Validate() */
    double GetCpuMinHz() const;
    /** \return --cpuFrequencyHz's MAX (or f), Hz, after Validate() */
    double GetCpuMaxHz() const;
    /** \return --drx's times (cycle, on-duration, inactivity), empty: no DRX; after Validate() */
    const std::vector<Time>& GetDrxTimes() const;
    /** \return --d2sDrx's times, as GetDrxTimes() */
    const std::vector<Time>& GetD2sDrxTimes() const;
    /** \return whether the D2D or the D2S radios have a DRX (after Validate()) */
    bool HasDrx() const;

  private:
    double m_cpuMinHz{2e9};          //!< --cpuFrequencyHz's MIN (or f), Hz
    double m_cpuMaxHz{2e9};          //!< --cpuFrequencyHz's MAX (or f), Hz
    std::vector<Time> m_drxTimes;    //!< --drx's times; empty: no DRX
    std::vector<Time> m_d2sDrxTimes; //!< --d2sDrx's times; empty: no DRX
};

/**
 * \ingroup d2dlearn
 * \brief What sets each link's RSS or drop probability instead of the positions: dynamic RSS, an
 * RSS matrix, fixed drop probabilities, the D2S noise: D2dNetworkOptions' RSS flags. A scenario may
 * change them before D2dNetworkOptions::AddFlags() to set its own defaults; after Validate() they
 * hold the values in force.
 */
struct D2dRssOptions
{
    /**
     * \brief Declare the RSS flags (--dynamicRssLevels to --d2sDropProbability), in the order
     * --PrintHelp and run.json list them.
     * \param flags where to declare them
     */
    void AddFlags(D2dScenarioFlags& flags);

    uint32_t dynamicRssLevels{
        0};                   //!< --dynamicRssLevels: > 0: dynamic RSS (Wagle et al. 2025, VI-P)
    Time rssStep{Seconds(1)}; //!< --rssStep: dynamic RSS: time between redraws
    std::string rssFile;      //!< --rssFile: N x N RSS matrix (W), replaces positions
    /**
     * --dropProbability: >= 0: every D2D link has this P_D (a ConstantRssModel whose W gives
     * it through eq. (18)); -1: P_D from the RSS (positions, --rssFile or dynamic RSS)
     */
    double dropProbability{-1};
    /** --d2sDropProbability: >= 0: every D2S link has this P_D; -1: from the D2S distance */
    double d2sDropProbability{-1};
    /**
     * sigma^2 of eq. (18) on the D2S links, W (-1: noisePowerW, the D2D links'). Set by a
     * scenario with a flag of its own (graph-discovery's --d2sNoisePowerW) before Validate();
     * the D2S channel gets it at Build(), and --d2sDropProbability is inverted with it, so
     * that the D2S links have exactly the P_D asked for.
     */
    double d2sNoisePowerW{-1};
};

/**
 * \ingroup d2dlearn
 * \brief The run itself: seeds, replications, what the program prints or checks instead of running,
 * where and what it traces: D2dNetworkOptions' run flags. A scenario may change
 * them before D2dNetworkOptions::AddFlags() to set its own defaults; after Validate() they
 * hold the values in force.
 */
struct D2dRunOptions
{
    /**
     * \brief Declare the run flags (--seed to --quiet), in the order --PrintHelp and run.json
     * list them.
     * \param flags where to declare them
     */
    void AddFlags(D2dScenarioFlags& flags);

    uint64_t seed{1};       //!< --seed: seeds every RNG stream
    uint64_t rngRun{1};     //!< --RngRun: ns-3 run of the network's streams (see the class)
    bool printLinks{false}; //!< --printLinks: print the links (PrintLinks()) and exit
    /**
     * --validate: build the run as it would be, every check included (data found, ranges,
     * the checks between flags and those that need the network, the learners or the
     * protocol), with traces that go nowhere (D2dTraceHelper::Mode::VALIDATE), then say so
     * and exit 0 at simulated time 0, before the first event; or exit with the run's
     * one-line error. Nothing is written, not even the output folder. What sweep.py runs
     * for every run of a campaign before it starts any.
     */
    bool validate{false};
    /**
     * --printScope: print, for the configuration on the command line, every flag and whether
     * it can change the run (and why not: D2dFlagScope), then exit 0 at Validate(), before
     * anything is checked further, written or simulated.
     */
    bool printScope{false};
    /**
     * --inertFlags: what a flag given at a value that cannot change the run does: refuse (one
     * line, exit 2: D2dFlagScope) or record (accepted and listed in run.json's
     * inertFlagsGiven: a campaign whose fixed parameters span several algorithms, e.g. CMFL's
     * rules beside its FedAvg baseline).
     */
    std::string inertFlags{"refuse"};
    std::string outDir; //!< --outDir: trace folder
    bool quiet{false};  //!< --quiet: no progress on stderr
    /** --traces: standard (energy.csv per second, a scenario's untraced kinds left out of
     * messages.csv) or full (every row); see D2dTraceHelper */
    std::string traces{"standard"};
};

/**
 * \ingroup d2dlearn
 * \brief The messaging backend and the Wi-Fi backend's parameters: D2dNetworkOptions' backend
 * flags. A scenario may change them before D2dNetworkOptions::AddFlags() to set its own defaults;
 * after Validate() they hold the values in force.
 */
struct D2dWifiOptions
{
    /**
     * \brief Declare the backend flags (--backend to --netanim), in the order --PrintHelp and
     * run.json list them.
     * \param flags where to declare them
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * --backend: channel (the D2dChannel: eq. (18) of Wagle et al. 2025 on every link) or
     * wifi (ns-3's 802.11 ad hoc MAC and PHY, D2dWifiHelper; the D2S link a second 802.11
     * network to a server node at the centre of the square; energy through ns-3's
     * WifiRadioEnergyModel). Over Wi-Fi the channel's own parameters (RSS sources, drop
     * probabilities, eq. (18)'s rate and noise, channel access, the D2S distance, the radio
     * energy model, the fast path) are refused.
     */
    std::string backend{"channel"};
    std::string wifiStandard{"80211a"}; //!< --wifiStandard: 80211a | 80211g
    std::string wifiRateManager{
        "constant"}; //!< --wifiRateManager: constant | ideal | minstrel | aarf
    /** --wifiDataMode: the constant rate's mode ("": 6 Mbit/s of the standard) */
    std::string wifiDataMode;
    /** --wifiLossExponent: exponent of the log-distance loss (ns-3's Yans default: 3) */
    double wifiLossExponent{3.0};
    /** --pcap: Wi-Fi backend, the prefix of ns-3's pcap files of the frames ("": none) */
    std::string pcap;
    /** --netanim: write netanim.xml, the run for NetAnim (D2dTraceHelper::EnableNetAnim) */
    bool netanim{false};
    /** --flowMonitor: Wi-Fi backend, write flowmon.xml, ns-3's FlowMonitor statistics */
    bool flowMonitor{false};

    /** \return true if --backend=wifi */
    bool IsWifi() const
    {
        return backend == "wifi";
    }
};

} // namespace ns3

#endif /* D2D_NETWORK_OPTION_GROUPS_H */
