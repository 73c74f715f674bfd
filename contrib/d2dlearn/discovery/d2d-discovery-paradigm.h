/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISCOVERY_PARADIGM_H
#define D2D_DISCOVERY_PARADIGM_H

#include "d2d-message-passing.h"

#include "ns3/object.h"

#include <cstdint>
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
 */
class D2dDiscoveryParadigm : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \return N */
    virtual uint32_t GetNDevices() const = 0;
    /** \return L, the number of partitions */
    virtual uint32_t GetNPartitions() const = 0;
    /** \return D_i: the datapoints of each partition at device i */
    virtual const D2dCounts& GetCounts(uint32_t device) const = 0;
    /** \param device i \param counts its new D_i (after an exchange of datapoints) */
    virtual void SetCounts(uint32_t device, const D2dCounts& counts) = 0;

    /** \return the size of the request on the air, bytes */
    virtual uint64_t GetRequestBytes() const = 0;
    /** \return the size of the offer V, the demand Q and the allocation U, bytes each */
    virtual uint64_t GetVectorBytes() const = 0;

    /** \return V_{j->i}: what transmitter j offers requester i */
    virtual D2dCounts Offer(uint32_t transmitter, uint32_t receiver) const = 0;
    /** \return Q_{j->i}: what receiver i asks for, given the offer */
    virtual D2dCounts Demand(uint32_t receiver, const D2dCounts& offer) const = 0;
    /**
     * \param transmitter j
     * \param demands the demands that reached j, one per requester
     * \return U_{j->i} for each demand, in order
     */
    virtual std::vector<D2dCounts> Allocate(uint32_t transmitter,
                                            const std::vector<D2dCounts>& demands) const = 0;
    /**
     * \brief The diversity score of receiver i for one step (the data term of eq. (13)).
     * \param receiver i
     * \param allocated U_{j->i} (zeros if no allocation arrived)
     * \param pDrop P_D(i, j) of the edge (0 if none)
     * \param sent what i allocates to its own requesters this step
     * \return the score g
     */
    virtual double Gain(uint32_t receiver,
                        const D2dCounts& allocated,
                        double pDrop,
                        const D2dCounts& sent) const = 0;
    /**
     * \param transmitter j
     * \param receiver i
     * \return how many partitions j can share with i (the most-trusted baseline's score)
     */
    virtual double Shareable(uint32_t transmitter, uint32_t receiver) const = 0;
    /** \return the labels satisfied at a device (eq. (8) count; for the traces) */
    virtual uint32_t Satisfied(uint32_t device) const = 0;
};

} // namespace ns3

#endif /* D2D_DISCOVERY_PARADIGM_H */
