/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MOBILITY_OPTIONS_H
#define D2D_MOBILITY_OPTIONS_H

#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;
class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief What an ns-2 mobility trace holds, as D2dMobilityOptions::ReadNs2Trace() reads it
 * (the lines ns-3's Ns2MobilityHelper interprets).
 */
struct D2dNs2TraceInfo
{
    uint32_t nodes{0};     //!< highest $node_(i) + 1
    uint64_t movements{0}; //!< `$ns_ at T "$node_(i) setdest x y speed"` lines
    double lastTimeS{0};   //!< latest T of a scheduled line, s
};

/**
 * \ingroup d2dlearn
 * \brief The devices' movement, from the command line (--mobility and its parameters), with
 * ns-3's mobility models, and the positions trace (positions.csv, --positionEvery).
 *
 * The models (every scenario, both backends; the devices start uniformly in the square of
 * side --areaSideM, stream 0, except with ns2, whose trace places them):
 * - constant: ns3::ConstantPositionMobilityModel;
 * - random-walk (--speedMps > 0 alone means it too, as before --mobility existed):
 *   D2dRandomWalkMobilityModel, the legs of ns-3's RandomWalk2dMobilityModel with the
 *   reflections in closed form;
 * - random-waypoint: ns3::RandomWaypointMobilityModel, waypoints uniform in the square, speed
 *   uniform in [--waypointMinSpeedMps, --waypointMaxSpeedMps], pause --waypointPause;
 * - gauss-markov: ns3::GaussMarkovMobilityModel in the square (Bounds: z in [0, 0], MeanPitch
 *   and NormalPitch 0, so that the devices stay in the plane z = 0), mean speed
 *   --gaussMarkovMeanSpeedMps, Alpha --gaussMarkovAlpha, TimeStep --gaussMarkovTimeStep, mean
 *   direction uniform in [0, 2 pi), ns-3's default Gaussian terms (NormalVelocity,
 *   NormalDirection); (mean speed + 10 m/s) x TimeStep at most half the side, as ns-3's model
 *   leaves the square between steps otherwise;
 * - ns2: ns3::Ns2MobilityHelper on --mobilityTrace (ns3::ConstantVelocityMobilityModel per
 *   node), whose node count must be --nDevices, every node with its initial X_ and Y_, every
 *   coordinate in the square.
 *
 * Random streams: positions stream 0, the models' streams from 1000 (MobilityHelper::
 * AssignStreams), drawn in the network's ns-3 run (--RngRun).
 *
 * A model's parameter given with another --mobility is refused (one line naming the
 * --mobility that uses it), as is movement with --rssFile (whose matrix, not the positions,
 * gives every link).
 */
class D2dMobilityOptions
{
  public:
    /** Highest speed a model accepts, m/s (as --speedMps: one event per leg or step). */
    static constexpr double MAX_SPEED_MPS = 1e5;
    /**
     * Gauss-Markov: what the speed may exceed the mean by, m/s (the Bound of ns-3's default
     * NormalVelocity, 10 standard deviations); (mean + this) x TimeStep must be at most half
     * the square's side, or ns-3's model leaves the square between steps.
     */
    static constexpr double GAUSS_MARKOV_SPEED_MARGIN_MPS = 10.0;
    /** First RNG stream of the mobility models (MobilityHelper::AssignStreams). */
    static constexpr int64_t FIRST_STREAM = 1000;
    /** The positions trace's file name. */
    static constexpr const char* POSITIONS_FILE = "positions.csv";

    // The flags' values; after Validate() the ones in force.
    /**
     * --mobility: constant | random-walk | random-waypoint | gauss-markov | ns2; not given:
     * random-walk if --speedMps > 0, else constant
     */
    std::string model{"constant"};
    double waypointMinSpeedMps{1.0};      //!< --waypointMinSpeedMps: random waypoint, m/s
    double waypointMaxSpeedMps{5.0};      //!< --waypointMaxSpeedMps: random waypoint, m/s
    Time waypointPause{Seconds(2)};       //!< --waypointPause: random waypoint, pause at a waypoint
    double gaussMarkovMeanSpeedMps{1.0};  //!< --gaussMarkovMeanSpeedMps: Gauss-Markov, m/s
    double gaussMarkovAlpha{0.85};        //!< --gaussMarkovAlpha: Gauss-Markov memory, 0 to 1
    Time gaussMarkovTimeStep{Seconds(1)}; //!< --gaussMarkovTimeStep: Gauss-Markov update period
    std::string mobilityTrace;            //!< --mobilityTrace: ns-2 mobility trace (--mobility=ns2)
    /** --positionEvery: positions.csv sampling period (0: the positions at time 0 only) */
    Time positionEvery{Seconds(0)};

    /**
     * \brief Declare --mobility, the models' parameters and --positionEvery (--speedMps and
     * --areaSideM are D2dNetworkOptions's).
     * \param flags the scenario's flags
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * \brief After D2dScenarioFlags::Parse(): the model resolved, each given parameter checked
     * against it, the ns-2 trace read (its node count sets nDevices when nDevices is 0, and
     * must equal it otherwise). Bad input ends the program via support.Fail().
     * \param support the scenario's support (error messages)
     * \param flags the parsed flags
     * \param speedMps --speedMps, m/s
     * \param areaSideM --areaSideM, m
     * \param rssFile --rssFile (movement is refused with it)
     * \param nDevices --nDevices (0: not given); with --mobility=ns2, set to the trace's nodes
     */
    void Validate(const D2dScenarioSupport& support,
                  const D2dScenarioFlags& flags,
                  double speedMps,
                  double areaSideM,
                  const std::string& rssFile,
                  uint32_t& nDevices);

    /**
     * \brief Place the devices and install their mobility model (see the class), its streams
     * from FIRST_STREAM.
     * \param devices the devices
     * \param areaSideM side of the square, m
     * \param speedMps random walk speed, m/s
     * \param heightM the devices' antenna height z, m (they move in the plane z = heightM;
     *        an ns-2 trace's z: 0)
     */
    void Install(NodeContainer devices, double areaSideM, double speedMps, double heightM) const;

    /**
     * \brief Write positions.csv through traces (a temporary file renamed at Finish()): the
     * positions at time 0, and with --positionEvery > 0 every positionEvery while the
     * simulation runs (D2dPositionTraceWriter). Nothing with --rssFile (no positions).
     * \param traces the run's traces
     * \param devices the devices, node i = device i
     * \param server the server (node N), or null; written if it has a MobilityModel
     * \param rssFile --rssFile
     */
    void StartTrace(D2dTraceHelper& traces,
                    NodeContainer devices,
                    Ptr<Node> server,
                    const std::string& rssFile) const;

    /** \return true unless the devices stand still (--mobility=constant) */
    bool Moves() const;

    /**
     * \brief Read an ns-2 mobility trace as ns-3's Ns2MobilityHelper does, checking it: every
     * non-empty line that is not a comment ('#') is `$node_(i) set X_|Y_|Z_ v`, `$ns_ at T
     * "$node_(i) set X_|Y_|Z_ v"` or `$ns_ at T "$node_(i) setdest x y speed"`, with numbers,
     * T >= 0, speed >= 0, x and y in [0, areaSideM], z 0; every node 0..N-1 has its initial
     * X_ and Y_.
     * \param path the file
     * \param areaSideM side of the square, m
     * \return what it holds
     * \throws std::runtime_error (one line naming the file, the line and what is wrong)
     */
    static D2dNs2TraceInfo ReadNs2Trace(const std::string& path, double areaSideM);
};

} // namespace ns3

#endif /* D2D_MOBILITY_OPTIONS_H */
