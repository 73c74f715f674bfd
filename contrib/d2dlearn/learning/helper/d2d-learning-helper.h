/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LEARNING_HELPER_H
#define D2D_LEARNING_HELPER_H

#include "ns3/d2d-channel.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-network.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Assembles a learning experiment on a network of devices: a D2dLearner on every
 * device (its shard of a training set, a model architecture, the device's compute model),
 * and the learning protocol, chosen by TypeId with its Attributes (an ObjectFactory, as
 * LteHelper::SetSchedulerType chooses the scheduler), given the learners, the test set and
 * the transports of the links it uses (D2dFlProtocol::UsesD2d, UsesD2s).
 *
 * \code
 *   D2dLearningHelper learning;
 *   learning.SetData(train, shards, test);
 *   learning.SetModel(D2dModelSpec::Parse("mlp:64"));
 *   learning.SetLearnerAttribute("LearningRate", DoubleValue(0.05));
 *   learning.SetProtocolType("ns3::D2dDecentralizedFl");
 *   learning.SetProtocolAttribute("Rounds", UintegerValue(5));
 *   Ptr<D2dFlProtocol> protocol = learning.Install(devices, channel, nullptr, mode);
 *   learning.AssignStreams(protocol, 100);
 *   Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
 * \endcode
 *
 * The setters only store, so their order does not matter; Install() reads them. The
 * protocol checks its set-up and connects to its transports when it starts
 * (Object::Initialize), so what a scenario sets on it after Install() (attributes,
 * SetTestSet, a graph) counts too.
 */
class D2dLearningHelper
{
  public:
    /** Protocol type ns3::D2dFedAvg, learner type ns3::D2dLearner, seed from --RngSeed. */
    D2dLearningHelper();

    /**
     * \param type the protocol's TypeId name (a subclass of D2dFlProtocol with a
     *        constructor, e.g. "ns3::D2dFedAvg", "ns3::D2dDecentralizedFl")
     */
    void SetProtocolType(const std::string& type);
    /**
     * \brief A protocol of D2dProtocolRegistry by its name: its class, then its presets
     * (Variant=fedprox, an aggregation rule, ...) added to the protocol attributes set so
     * far (SetProtocolAttribute() after it overrides them).
     * \param name a protocol's name in the registry, e.g. "fedprox"
     */
    void SetProtocol(const std::string& name);
    /**
     * \param name an attribute of the protocol type (or of its parents)
     * \param value its value
     */
    void SetProtocolAttribute(const std::string& name, const AttributeValue& value);
    /** \return the TypeId of the protocols Install() makes */
    TypeId GetProtocolType() const;
    /** \return true if the chosen protocol sends over D2D links */
    bool ProtocolUsesD2d() const;
    /** \return true if the chosen protocol has a server reached over D2S */
    bool ProtocolUsesD2s() const;

    /**
     * \param name an attribute of D2dLearner (LearningRate, BatchSize, Optimizer, ...)
     * \param value its value
     */
    void SetLearnerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param train the training set (shared by every learner)
     * \param shards device i's indices into train at index i
     * \param test the test set the protocol evaluates on
     */
    void SetData(std::shared_ptr<const D2dDataset> train,
                 std::vector<D2dShard> shards,
                 std::shared_ptr<const D2dDataset> test);
    /** \param spec every device's architecture */
    void SetModel(const D2dModelSpec& spec);
    /** \param specs device i gets specs[i % specs.size()] (heterogeneous devices) */
    void SetModels(std::vector<D2dModelSpec> specs);
    /**
     * \param seed seeds the learners' initial weights and batch order (with their device
     *        index) and LibTorch's global generator; default RngSeedManager::GetSeed() at
     *        Install()
     */
    void SetSeed(uint64_t seed);

    /**
     * \brief A learner on each device: Setup(i, spec of i, train, shards[i], seed), on the
     * device's compute model (D2dHelper::GetComputeModel; none: training takes no time).
     * \param devices the devices, device i = devices.Get(i) (at most one per shard)
     * \return device i's learner at index i
     */
    std::vector<Ptr<D2dLearner>> InstallLearners(const NodeContainer& devices) const;

    /**
     * \brief Make the protocol (the factory's type and attributes) and give it the learners,
     * the test set and the transports of the links it uses.
     * \param learners device i's learner at index i
     * \param d2d device i's D2D transport at index i (ignored unless the protocol UsesD2d)
     * \param d2s device i's D2S transport at index i, the server's last (ignored unless the
     *        protocol UsesD2s)
     * \param mode delivery mode of the protocol's messages on both links
     * \return the protocol (start it with D2dFlProtocol::Start)
     */
    Ptr<D2dFlProtocol> Install(const std::vector<Ptr<D2dLearner>>& learners,
                               const std::vector<Ptr<D2dTransport>>& d2d,
                               const std::vector<Ptr<D2dTransport>>& d2s,
                               D2dDeliveryMode mode) const;

    /**
     * \brief InstallLearners(devices), then the protocol on the channels' transports
     * (D2dChannel::GetTransports).
     * \param devices the devices, device i = devices.Get(i)
     * \param d2d the D2D channel (may be null if the protocol does not use D2D)
     * \param d2s the D2S channel: radio i device i's, radio N the server's (may be null if
     *        the protocol has no server)
     * \param mode delivery mode of the protocol's messages
     * \return the protocol; GetLearners() gives its learners
     */
    Ptr<D2dFlProtocol> Install(const NodeContainer& devices,
                               Ptr<D2dChannel> d2d,
                               Ptr<D2dChannel> d2s,
                               D2dDeliveryMode mode) const;

    /**
     * \brief InstallLearners(network.devices), then the protocol on the network's
     * transports (network.d2dTransports, d2sTransports: the channel's radios or 802.11's).
     * \param network a network D2dNetworkOptions::Build made
     * \return the protocol
     */
    Ptr<D2dFlProtocol> Install(const D2dNetwork& network) const;

    /**
     * \param protocol a protocol Install() made
     * \param stream first RNG stream of its random draws
     * \return streams used
     */
    int64_t AssignStreams(Ptr<D2dFlProtocol> protocol, int64_t stream) const;

  private:
    /** \brief Abort unless the type is a constructible D2dFlProtocol. */
    void CheckProtocolType() const;
    /** \return a protocol of the type, with the attributes set so far */
    Ptr<D2dFlProtocol> CreateProtocol() const;

    TypeId m_protocolType; //!< the protocol's type
    /** The protocol's attributes, applied when it is made (so that the type may be set after) */
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_protocolAttributes;
    ObjectFactory m_learner;                   //!< the learners' type and attributes
    std::shared_ptr<const D2dDataset> m_train; //!< the training set, shared by every learner
    std::vector<D2dShard> m_shards;            //!< device i's indices into m_train at index i
    std::shared_ptr<const D2dDataset> m_test;  //!< the test set given to the protocol
    std::vector<D2dModelSpec> m_specs;         //!< device i's architecture: m_specs[i % size]
    bool m_seedSet{false};                     //!< SetSeed() was called (else the ns-3 RngSeed)
    uint64_t m_seed{0};                        //!< SetSeed()'s seed of the learners
};

} // namespace ns3

#endif /* D2D_LEARNING_HELPER_H */
