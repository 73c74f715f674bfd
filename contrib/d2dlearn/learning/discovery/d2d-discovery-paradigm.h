/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISCOVERY_PARADIGM_H
#define D2D_DISCOVERY_PARADIGM_H

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
 */
class D2dDiscoveryParadigm : public Object
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
     * \return the true labels' histogram at device i (the measure of the bias left; by
     *         default GetCounts: the partitions are the labels)
     */
    virtual D2dFractionalCounts GetLabelCounts(uint32_t device) const;
    /** \return L-hat_i, the labels device i aims to satisfy (0 when the paradigm has none)
     * \param device i */
    virtual uint32_t GetMinLabels(uint32_t device) const;

    /** \return N */
    virtual uint32_t GetNDevices() const = 0;
    /** \return L, the number of partitions */
    virtual uint32_t GetNPartitions() const = 0;
    /** \return D_i: the datapoints of each partition at device i */
    virtual const D2dFractionalCounts& GetCounts(uint32_t device) const = 0;
    /** \param device i \param counts its new D_i (after an exchange of datapoints) */
    virtual void SetCounts(uint32_t device, const D2dFractionalCounts& counts) = 0;

    /** \return the size of the request on the air, bytes */
    virtual uint64_t GetRequestBytes() const = 0;
    /** \return the size of the offer V, the demand Q and the allocation U, bytes each */
    virtual uint64_t GetVectorBytes() const = 0;

    /** \return V_{j->i}: what transmitter j offers requester i */
    virtual D2dFractionalCounts Offer(uint32_t transmitter, uint32_t receiver) const = 0;
    /** \return Q_{j->i}: what receiver i asks for, given the offer */
    virtual D2dFractionalCounts Demand(uint32_t receiver,
                                       const D2dFractionalCounts& offer) const = 0;
    /**
     * \param transmitter j
     * \param demands the demands that reached j, one per requester
     * \return U_{j->i} for each demand, in order
     */
    virtual std::vector<D2dFractionalCounts> Allocate(
        uint32_t transmitter,
        const std::vector<D2dFractionalCounts>& demands) const = 0;
    /**
     * \brief The diversity score of receiver i for one step (the data term of eq. (13)).
     * \param receiver i
     * \param allocated U_{j->i} (zeros if no allocation arrived)
     * \param pDrop P_D(i, j) of the edge (0 if none)
     * \param sent what i allocates to its own requesters this step
     * \return the score g
     */
    virtual double Gain(uint32_t receiver,
                        const D2dFractionalCounts& allocated,
                        double pDrop,
                        const D2dFractionalCounts& sent) const = 0;
    /**
     * \param transmitter j
     * \param receiver i
     * \return how many partitions j can share with i (the most-trusted baseline's score)
     */
    virtual double Shareable(uint32_t transmitter, uint32_t receiver) const = 0;
    /** \return the labels satisfied at a device (eq. (8) count; for the traces) */
    virtual uint32_t Satisfied(uint32_t device) const = 0;

    // The hooks below let a paradigm change the protocol; their defaults are the supervised
    // protocol's behaviour, so a paradigm that keeps them sends the same messages.

    /**
     * \return true (default): the four messages request, V, Q, U; false: the request carries
     * the demand (Demand(i, {}), with whatever the paradigm sends along, GetRequestBytes) and
     * the transmitter answers with U directly (the unsupervised Alg. 2 of Wagle et al. 2025)
     */
    virtual bool HasOfferPhase() const;
    /** \return the size of the allocation U on the air, bytes (default GetVectorBytes()) */
    virtual uint64_t GetAllocationBytes() const;
    /** \return bytes a reward message carries beyond r^L and d' (default 0) */
    virtual uint64_t GetRewardExtraBytes() const;
    /** \brief Called when an iteration starts, before any message (default: nothing). */
    virtual void StartStep();
    /**
     * \brief Allocate with the requesters known (default: Allocate(transmitter, demands)).
     * \param transmitter j
     * \param receivers the requester of each demand
     * \param demands the demands, in order
     * \return U_{j->i} for each demand, in order
     */
    virtual std::vector<D2dFractionalCounts> AllocateTo(
        uint32_t transmitter,
        const std::vector<uint32_t>& receivers,
        const std::vector<D2dFractionalCounts>& demands) const;
    /**
     * \brief Gain with the transmitter known (default: Gain(receiver, allocated, pDrop, sent)).
     * \param receiver i
     * \param transmitter j
     * \param allocated U_{j->i} (zeros if no allocation arrived)
     * \param pDrop P_D(i, j)
     * \param sent what i allocates to its own requesters this step
     * \return the score g
     */
    virtual double GainFrom(uint32_t receiver,
                            uint32_t transmitter,
                            const D2dFractionalCounts& allocated,
                            double pDrop,
                            const D2dFractionalCounts& sent);
    /**
     * \return false (default): r^G of eq. (14) sums the members' r^L / N; true: it uses
     * SystemAgreement instead (eq. (17))
     */
    virtual bool HasSystemAgreement() const;
    /**
     * \param devices the devices whose post-step statistics reached the one computing r^G
     * \return the system-agreement term of r^G (default 0)
     */
    virtual double SystemAgreement(const std::vector<uint32_t>& devices) const;
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
        uint32_t transmitter{0}; //!< j
        uint32_t receiver{0};    //!< i
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
