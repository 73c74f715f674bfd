/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_SCORING_H
#define D2D_DISCOVERY_SCORING_H

#include "d2d-message-passing.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How a graph-discovery paradigm's messages weigh and score an exchange (Wagle, Das,
 * Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025, Table II): the offer V, the demand Q, the allocation U, the
 * receiver's diversity score g of eq. (13), the most-trusted baseline's score and the system
 * agreement of eq. (17). The hooks with defaults let a paradigm change the protocol; their
 * defaults are the supervised protocol's behaviour. One of the three interfaces of
 * D2dDiscoveryParadigm (with D2dLabelCounts and D2dDiscoveryMessages).
 */
class D2dDiscoveryScoring
{
  public:
    /** \brief Destructor */
    virtual ~D2dDiscoveryScoring() = default;

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

    /** One receiver's GainFrom arguments (GainsFrom). */
    struct GainRequest
    {
        uint32_t receiver{0};                          //!< i
        uint32_t transmitter{0};                       //!< j
        const D2dFractionalCounts* allocated{nullptr}; //!< U_{j->i}
        double pDrop{0};                               //!< P_D(i, j)
        const D2dFractionalCounts* sent{nullptr};      //!< what i allocates to its requesters
    };

    /**
     * \brief GainFrom for every receiver of a step (default: GainFrom of each, in order). A
     * paradigm may compute them at once (in parallel): the scores and the state left must be
     * those of the calls in order.
     * \param requests one per receiver, each receiver at most once
     * \return the scores g, in the order of the requests
     */
    virtual std::vector<double> GainsFrom(const std::vector<GainRequest>& requests);
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
     * \brief Called before a step's SystemAgreement calls with the device lists the cluster
     * heads will give them, so that a paradigm may compute them at once (default: nothing).
     * The calls that follow must return what they would have returned without it.
     * \param groups each head's devices (D2dDiscoveryPolicies::AgreementDevices)
     */
    virtual void PrepareAgreements(const std::vector<std::vector<uint32_t>>& groups);
};

} // namespace ns3

#endif /* D2D_DISCOVERY_SCORING_H */
