/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_MESSAGES_H
#define D2D_DISCOVERY_MESSAGES_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Which messages a graph-discovery paradigm's edge sends, and their sizes on the air
 * (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025). The four messages of one edge j -> i: the request (i -> j), the
 * offer V (j -> i), the demand Q (i -> j) and the allocation U (j -> i); their payloads are
 * vectors of L values. One of the three interfaces of D2dDiscoveryParadigm (with
 * D2dLabelCounts and D2dDiscoveryScoring).
 */
class D2dDiscoveryMessages
{
  public:
    /** \brief Destructor */
    virtual ~D2dDiscoveryMessages() = default;

    /** \return the size of the request on the air, bytes */
    virtual uint64_t GetRequestBytes() const = 0;
    /** \return the size of the offer V, the demand Q and the allocation U, bytes each */
    virtual uint64_t GetVectorBytes() const = 0;
    /**
     * \return true (default): the four messages request, V, Q, U; false: the request carries
     * the demand (Demand(i, {}), with whatever the paradigm sends along, GetRequestBytes) and
     * the transmitter answers with U directly (the unsupervised Alg. 2 of Wagle et al. 2025)
     */
    virtual bool HasOfferPhase() const;
    /** \return the size of the allocation U on the air, bytes (default GetVectorBytes()) */
    virtual uint64_t GetAllocationBytes() const;
    /** \return bytes a reward message carries beyond r^L and d', bytes (default 0) */
    virtual uint64_t GetRewardExtraBytes() const;
};

} // namespace ns3

#endif /* D2D_DISCOVERY_MESSAGES_H */
