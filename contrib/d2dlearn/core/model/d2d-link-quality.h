/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LINK_QUALITY_H
#define D2D_LINK_QUALITY_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What a protocol may know of the links beside its transports: the drop probability
 * and the received signal strength of each directed link now, and the quantized state of the link
 * (for protocols whose decisions depend on it, such as the RL of Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
 * App. C).
 *
 * The narrow interface between a protocol and the model below its transports, so that the
 * protocol runs over any backend: D2dChannel implements it with its own eq. (18) (what its
 * messages are actually lost with), D2dRssLinkQuality with eq. (18) at the RSS of an RSS
 * model, e.g. the propagation model of an 802.11 channel.
 */
class D2dLinkQuality : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~D2dLinkQuality() override;

    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return P_D(i, j) now, in [0, 1] (1: i does not hear j)
     */
    virtual double GetDropProbability(uint32_t rx, uint32_t tx) const = 0;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return W_ij now, the received signal strength at i from j, W (what P_D is computed
     *         from; e.g. a feature of the GCN link scorer of Wagle et al. 2025, App. C)
     */
    virtual double GetRssW(uint32_t rx, uint32_t tx) const = 0;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return the quantized state of link j -> i now (0 for every link when the links do
     *         not change: IsDynamic() false)
     */
    virtual uint32_t GetLinkState(uint32_t rx, uint32_t tx) const;
    /** \return true if links have states that change over time (GetLinkState) */
    virtual bool IsDynamic() const;
};

} // namespace ns3

#endif /* D2D_LINK_QUALITY_H */
