/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISCOVERY_PARADIGM_H
#define D2D_DISCOVERY_PARADIGM_H

#include "d2d-discovery-messages.h"
#include "d2d-discovery-scoring.h"
#include "d2d-label-counts.h"
#include "d2d-message-passing.h"

#include "ns3/callback.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-transport.h"
#include "ns3/object.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The learning-paradigm step of graph discovery (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, Table II): what the partitions are, what the messages of the message passing carry and
 * weigh, and how a receiver scores the exchange. D2dGraphDiscovery runs the link formation,
 * the messages over the channel, the rewards' combination and the policy update, and asks its
 * paradigm (attribute Paradigm) for these. D2dSupervisedParadigm is the labelled case; the
 * semi-supervised and unsupervised paradigms subclass this too.
 *
 * The four messages of one edge j -> i: the request (i -> j), the offer V (j -> i), the demand
 * Q (i -> j) and the allocation U (j -> i); their payloads are vectors of L values.
 *
 * Before the discovery, Prepare() does the paradigm's own preparation from the devices' data:
 * the partitions' counts (supervised), the labelling (semi-supervised: distributed PCA over
 * the device-to-server link and label propagation, or local MLPs), the clusters
 * (unsupervised: distributed PCA and K-means). It may take simulated time (the PCA messages);
 * D2dGraphDiscovery::Start is for when it has called back.
 *
 * The paradigm is three small interfaces and its life cycle: D2dLabelCounts (what it counts),
 * D2dDiscoveryMessages (which messages an edge sends, their sizes), D2dDiscoveryScoring (how
 * they weigh and score an exchange); this class adds the preparation, the server link, which
 * devices take part and the exchange of datapoints.
 */
class D2dDiscoveryParadigm : public Object,
                             public D2dLabelCounts,
                             public D2dDiscoveryMessages,
                             public D2dDiscoveryScoring
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** What a paradigm prepares from: the devices' data and the link to the server. */
    struct Data
    {
        /** The training set. The semi-supervised paradigm writes the labels it assigns to
         * the unlabelled points into it (they stand for the unknown ones from then on). */
        std::shared_ptr<D2dDataset> train;
        /** The set whose labels are the partitions: train for classification; for
         * regression, a copy whose labels are each point's gap partition. */
        std::shared_ptr<const D2dDataset> partitions;
        std::vector<D2dShard> shards; //!< device i's datapoints at i
        /** The device-to-server link: device i's transport at i, the server's at N (the
         * distributed PCA's messages; empty if the paradigm needs none). */
        std::vector<Ptr<D2dTransport>> server;
        uint64_t seed{1}; //!< the run's seed (labelled points, trust matrices, K-means)
    };

    /**
     * \brief The paradigm's preparation (see the class description); calls done once every
     * device is ready, which may be later in simulated time. It may be called before
     * Simulator::Run (D2dGraphDiscoveryHelper does): the messages it sends and the jobs it
     * starts take simulated time from Simulator::Now().
     * \param data the devices' data and the server link
     * \param done called when the discovery can start
     */
    virtual void Prepare(const Data& data, Callback<void> done) = 0;
    /** \return whether Prepare() sends messages over Data::server */
    virtual bool UsesServer() const;

    /**
     * \param device i
     * \return true (default): i takes part in the discovery; false: i sits it out (no
     * incoming nor outgoing edge, no reward message; e.g. an unsupervised device that the
     * common PCA subspace did not reach, whose clusters cannot be compared with the others')
     */
    virtual bool TakesPart(uint32_t device) const;

    /** One edge's datapoints as the exchange moved them. */
    struct Transfer
    {
        uint32_t transmitter{0};       //!< j
        uint32_t receiver{0};          //!< i
        D2dFractionalCounts allocated; //!< U_{j->i}: sent (and dropped at j), per partition of j
        D2dFractionalCounts received;  //!< what reached i, per partition of j
    };

    /**
     * \brief Move the datapoints of one edge round's exchange.
     * \param transfers the edge round's exchanges, in order
     * \return false (default): the protocol updates the counts itself (D_j - U, D_i +
     * received, the same partitions on both sides); true: the paradigm did, GetCounts is new
     */
    virtual bool Exchange(const std::vector<Transfer>& transfers);
};

} // namespace ns3

#endif /* D2D_DISCOVERY_PARADIGM_H */
