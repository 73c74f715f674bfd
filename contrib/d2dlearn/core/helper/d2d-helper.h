/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_HELPER_H
#define D2D_HELPER_H

#include "ns3/d2d-availability-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio.h"
#include "ns3/energy-source.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Makes devices of nodes: a D2D radio on a shared D2dChannel, an energy source
 * (D2dEnergySource by default: no periodic events; ns-3's BasicEnergySource,
 * LiIonEnergySource (to ns-3.44) and GenericBatteryModel (from ns-3.40) selectable), a
 * D2dRadioEnergyModel and
 * a D2dComputeModel (the compute profile) on that source; and, optionally, a server
 * with a device-to-server (D2S) link.
 *
 * Device i is the i-th node of the container given to Install(); that index is its
 * address and its id in every trace. The nodes need a MobilityModel unless the RSS model
 * ignores positions (MatrixRssModel, DynamicRssModel). The D2D radio is aggregated to the
 * node (node->GetObject<D2dRadio>()); the energy source is in the node's aggregated
 * EnergySourceContainer and the compute model on that source (GetComputeModel()): ns-3
 * device energy models must not be aggregated to nodes. When a battery is
 * depleted the device's radios switch off and its compute jobs stop.
 */
class D2dHelper
{
  public:
    D2dHelper();

    /** \brief Set an attribute of the D2D channel. \param n name \param v value */
    void SetChannelAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \brief Set an attribute of the D2S channel, which otherwise has the D2D channel's.
     * \param n name
     * \param v value
     */
    void SetD2sChannelAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \brief Set an attribute of every radio: the D2D radios, and the D2S radios (devices'
     * and server's) unless SetD2sRadioAttribute() sets it for them.
     * \param n name
     * \param v value
     */
    void SetRadioAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \brief Set an attribute of the D2S radios only (the devices' and the server's), e.g. a
     * TxPowerDbm of their own; otherwise they have the D2D radios' attributes.
     * \param n name
     * \param v value
     */
    void SetD2sRadioAttribute(const std::string& n, const AttributeValue& v);
    /** \brief Set an attribute of every radio energy model. \param n name \param v value */
    void SetRadioEnergyAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \brief Give every radio energy model (D2D and D2S) the state powers of a profile
     * (D2dRadioProfile): its attributes, set as SetRadioEnergyAttribute() does; "custom"
     * sets none (the attributes' values in force are used).
     * \param name a profile's name (aborts for another name)
     */
    void SetRadioProfile(const std::string& name);
    /**
     * \brief Give the D2D channel's radios a DRX cycle (D2dDrx) and set one of its
     * attributes (Cycle, OnDuration, InactivityTimer); without a call, no DRX.
     * \param n name
     * \param v value
     */
    void SetDrxAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \brief The same for the devices' D2S radios (InstallServer); the mains-powered
     * server's radio never sleeps.
     * \param n name
     * \param v value
     */
    void SetD2sDrxAttribute(const std::string& n, const AttributeValue& v);
    /** \brief Set an attribute of every compute model. \param n name \param v value */
    void SetComputeAttribute(const std::string& n, const AttributeValue& v);
    /**
     * \param type TypeId name of the energy source, e.g. BasicEnergySource's (default
     * ns3::D2dEnergySource); resets the source attributes but the initial energy. A
     * BasicEnergySource's and a GenericBatteryModel's low-battery threshold is set to 0:
     * depleted means empty, and for a GenericBatteryModel the cut-off voltage (ns-3's own
     * criterion for that model).
     */
    void SetEnergySourceType(const std::string& type);
    /**
     * \brief Set the initial energy of every energy source, whatever its type (its
     * InitialEnergyJ, BasicEnergySourceInitialEnergyJ or LiIonEnergySourceInitialEnergyJ
     * attribute), before or after SetEnergySourceType(). A GenericBatteryModel has no such
     * attribute (its energy is MaxCapacity x FullVoltage x 3600): each one is made a pack of
     * the factory's cell in parallel, ScaleGenericBatteryToEnergy().
     * \param joules the initial energy, J (> 0 for a GenericBatteryModel, else >= 0)
     */
    void SetInitialEnergyJ(double joules);
    /** \brief Set an attribute of every energy source. \param n name \param v value */
    void SetEnergySourceAttribute(const std::string& n, const AttributeValue& v);
    /** \param model the RSS model of the D2D channel (default PropagationRssModel) */
    void SetRssModel(Ptr<D2dRssModel> model);

    /**
     * \brief Make devices of the nodes.
     * \param nodes the devices, in index order
     * \return the D2D channel (its radios are the devices' radios)
     */
    Ptr<D2dChannel> Install(NodeContainer nodes);

    /**
     * \brief Devices without a D2D radio, for another backend (802.11: D2dWifiHelper): on
     * each node an energy source and a compute model, as Install() makes them.
     * \param nodes the devices, in index order
     */
    void InstallWithoutRadios(NodeContainer nodes);

    /**
     * rief Add a server reached over D2S links of equal length: a second channel on which
     * device i has a radio with index i (its energy charged as d2s_tx / d2s_rx / d2s_idle to
     * the device's source; it idles from now on at the radio energy model's IdlePowerW, as
     * the D2D radio does) and the server a full-duplex radio (a base station: it receives
     * uploads while it transmits) with index N = nodes.GetN(). Every D2S link is
     * distanceFactor x the mean D2D distance long whatever the positions (the channel's
     * FixedDistanceM), as in Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
     * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, sec. VI-G ("the
     * D2S distance is 3x the average D2D distance").
     * \param server the server node (no energy source: mains powered)
     * \param nodes the devices, as given to Install()
     * \param distanceFactor D2S distance over the mean D2D distance (> 0)
     * \return the D2S channel
     */
    Ptr<D2dChannel> InstallServer(Ptr<Node> server, NodeContainer nodes, double distanceFactor);

    /**
     * \brief Add a server at its own place: the D2S channel and radios of
     * InstallServer(server, nodes, distanceFactor), but each D2S link is as long as the
     * device's distance to the server now (the server node's MobilityModel and the device's),
     * through the D2S channel's RSS model (by default ns-3's log-distance loss, as on the D2D
     * links) and eq. (18): a device that moves away from the server sees its P_D rise. The
     * D2S channel has no hearing range (RangeM 0) unless SetD2sChannelAttribute() gives one.
     * \param server the server node, with a MobilityModel (e.g. a
     *        ConstantPositionMobilityModel at the access point); no energy source
     * \param nodes the devices, as given to Install(), with their MobilityModels
     * \return the D2S channel
     */
    Ptr<D2dChannel> InstallServer(Ptr<Node> server, NodeContainer nodes);

    /**
     * \param stream first RNG stream index
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param node a device made by Install()
     * \return its compute model (null if none)
     */
    static Ptr<D2dComputeModel> GetComputeModel(Ptr<Node> node);

    /**
     * \brief Make devices come and go as an availability model says: at each change of
     * device i's state its transports leave or rejoin (D2dTransport::Leave(), Rejoin(): its
     * radios are off while it is away; the D2S one's Presence trace tells a server) and its
     * compute model leaves (its job is lost) or rejoins; each compute model is told that its
     * device may go away (D2dComputeModel::EnableAvailability). Call before the model's
     * Start().
     * \param availability the model, installed for the devices
     * \param devices the devices made by Install(), device i at index i
     * \param d2d device i's D2D transport at index i (may be empty)
     * \param d2s device i's D2S transport at index i (may be empty; a server's beyond the
     *        devices is left alone)
     */
    static void ConnectAvailability(Ptr<D2dAvailabilityModel> availability,
                                    const NodeContainer& devices,
                                    const std::vector<Ptr<D2dTransport>>& d2d,
                                    const std::vector<Ptr<D2dTransport>>& d2s);

    /**
     * \brief Every D2dEnergyModel (radio and compute) of every energy source of the nodes,
     * in node, source, then model order: the one list of the module's energy model types
     * (EnergySource::FindDeviceEnergyModels matches exact types only).
     * \param nodes nodes, those without an EnergySourceContainer contributing nothing
     * \return the models
     */
    static std::vector<Ptr<D2dEnergyModel>> GetEnergyModels(NodeContainer nodes);

    /**
     * \brief The graph of who hears whom: in[j] lists the devices that j hears (every i
     * with j in channel->GetNeighbours(i)), ascending; e.g. the in-neighbours of
     * D2dDecentralizedFl::SetGraph within RangeM.
     * \param channel the D2D channel
     * \return in[j] for every radio j of the channel
     */
    static std::vector<std::vector<uint32_t>> InNeighbours(Ptr<D2dChannel> channel);

    /**
     * \brief The mean distance between two devices: exact (every pair) up to 2000 nodes;
     * above, the mean over a fixed, evenly spread sample of about 2 million pairs (each
     * node with the nodes at k offsets spread evenly over 1 .. N-1 in index order), so
     * that the cost stays O(N) and the result deterministic.
     * \param nodes devices with mobility models
     * \return the mean pair distance (m), 0 for fewer than 2 nodes
     */
    static double MeanPairDistanceM(NodeContainer nodes);

    /**
     * \brief Fix the simulator's time resolution at its current unit (ns-3's default, ns,
     * unless the program chose another before). Until the resolution is fixed, or
     * Simulator::Run() starts, ns-3 records every Time object it constructs in a std::set
     * (a node of 48 heap bytes each) so that a later Time::SetResolution() can convert them,
     * and a device's energy models, radios and learner hold a dozen Times (bench-footprint
     * measures the difference). Times keep their values. D2dNetworkOptions::Build() calls it;
     * a program of its own calls it before building its devices. Only the first call of a
     * process acts, and it must come before Simulator::Run() and after any
     * Time::SetResolution() of the program's own: ns-3 fixes the resolution once, and a
     * second fixing (Run() is one) finds no record of Times to convert (an optimized ns-3
     * crashes).
     */
    static void FixTimeResolution();

    /**
     * \brief Make a battery of ns-3's GenericBatteryModel (ns-3.40 and later) a pack of k of
     * its cells in parallel, k = joules / (MaxCapacity x FullVoltage x 3600), so that its
     * initial energy (GetInitialEnergy(), MaxCapacity x FullVoltage x 3600) is joules.
     *
     * The model is that of O. Tremblay and L.-A. Dessaint, "Experimental Validation of a
     * Battery Dynamic Model for EV Applications", World Electric Vehicle Journal, 2009, as
     * ns-3 implements it for one cell. k cells in parallel carry k times the charge and the
     * current at the cell's voltage: the capacities (MaxCapacity, NominalCapacity,
     * ExponentialCapacity, Ah) and TypicalDischargeCurrent (A) are multiplied by k and
     * InternalResistance (Ohm) divided by k, the voltages kept. Every term of the model's
     * voltage (the exponential zone A exp(-B it) with B = 3 / ExponentialCapacity, the
     * polarisation K Q / (Q - it) it and K Q / (it + 0.1 Q) i*, the ohmic drop R i) is then
     * unchanged when the drawn charge it and the current i are k times the cell's: the pack
     * discharges along the cell's voltage curve (tested). k need not be whole.
     * \param battery a GenericBatteryModel, not yet drawn from
     * \param joules the pack's initial energy, J (> 0)
     */
    static void ScaleGenericBatteryToEnergy(Ptr<EnergySource> battery, double joules);

  private:
    /**
     * \brief The D2S channel and radios of both InstallServer()s.
     * \param server the server node
     * \param nodes the devices
     * \param fixedDistanceM > 0: every link this long (FixedDistanceM); 0: the radios follow
     *        the nodes' MobilityModels
     * \return the D2S channel
     */
    Ptr<D2dChannel> MakeServer(Ptr<Node> server, NodeContainer nodes, double fixedDistanceM);
    /** \return a new energy source on the node, added to its EnergySourceContainer */
    Ptr<EnergySource> AddEnergySource(Ptr<Node> node);

    double m_initialEnergyJ{-1.0};  //!< SetInitialEnergyJ()'s value, J (< 0: not set)
    ObjectFactory m_channelFactory; //!< makes both channels (SetChannelAttribute)
    /** (name, value) set on the D2S channel after the D2D channel's (SetD2sChannelAttribute) */
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_d2sAttributes;
    ObjectFactory m_radioFactory; //!< makes every radio (SetRadioAttribute)
    /** (name, value) set on the D2S radios over m_radioFactory's (SetD2sRadioAttribute) */
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_d2sRadioAttributes;
    ObjectFactory m_radioEnergyFactory; //!< makes each D2D and D2S radio's energy model
    ObjectFactory m_computeFactory;     //!< makes each device's compute model
    ObjectFactory m_sourceFactory;      //!< makes each device's energy source (SetEnergySourceType)
    ObjectFactory m_drxFactory;         //!< the D2D channel's DRX (SetDrxAttribute)
    ObjectFactory m_d2sDrxFactory;      //!< the D2S channel's DRX (SetD2sDrxAttribute)
    bool m_drx{false};                  //!< the D2D radios follow a DRX cycle
    bool m_d2sDrx{false};               //!< the devices' D2S radios follow a DRX cycle
    Ptr<D2dRssModel> m_rss;             //!< the D2D channel's RSS model (null: the channel's own)
    Ptr<D2dChannel> m_channel;          //!< the D2D channel made by Install() (null before)
    Ptr<D2dChannel> m_d2sChannel;       //!< the D2S channel made by InstallServer() (null before)
};

} // namespace ns3

#endif /* D2D_HELPER_H */
