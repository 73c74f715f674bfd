/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_ITERATION_H
#define D2D_DISCOVERY_ITERATION_H

#include "d2d-discovery-payload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What one RL iteration of graph discovery holds (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, Alg. 1 and 2): each receiver's chosen transmitter, the messages of the
 * message-passing phases as they arrive at each device (eqs. (9)-(12)), and the rewards of
 * eqs. (13)-(14). D2dGraphDiscovery keeps one and resets it at each iteration's start.
 * Device indices 0..N-1 index every vector.
 */
struct D2dDiscoveryIteration
{
    std::vector<int64_t> sel;                   //!< each receiver's transmitter (-1: none)
    std::vector<uint32_t> selState;             //!< the RL state of the chosen link (Graph rl)
    std::vector<double> selDrop;                //!< P_D of the chosen link
    std::vector<std::set<uint32_t>> requestsAt; //!< at j: the receivers that requested
    /** at i: the offer V of its transmitter (null: none arrived) */
    std::vector<std::unique_ptr<D2dFractionalCounts>> offerAt;
    std::vector<std::map<uint32_t, D2dFractionalCounts>> demandAt;    //!< at j: Q of each i
    std::vector<std::map<uint32_t, D2dFractionalCounts>> allocatedBy; //!< at j: U to each i
    /** at i: the allocation U of its transmitter (null: none arrived) */
    std::vector<std::unique_ptr<D2dFractionalCounts>> allocationAt;
    std::vector<D2dFractionalCounts> sentBy; //!< at j: what it allocated in all, per partition
    std::vector<double> localReward;         //!< r^L of eq. (13)
    std::vector<double> interCluster;        //!< points allocated over inter-cluster links
    /** at m: (r^L, inter-cluster points) of each cluster member that reached it */
    std::vector<std::map<uint32_t, std::pair<double, double>>> rewardsAt;
    std::vector<double> global;      //!< r^G of eq. (14) of each device
    std::vector<bool> globalArrived; //!< ClusterHead: r^G reached the member
    std::vector<double> gain;        //!< g of each receiver's exchange

    /**
     * \brief Empty the message buffers and the rewards for a new iteration (the selection
     * is the caller's).
     * \param n devices N
     * \param nl partitions L
     */
    void ResetMessages(uint32_t n, uint32_t nl)
    {
        requestsAt.assign(n, {});
        offerAt.clear();
        offerAt.resize(n);
        demandAt.assign(n, {});
        allocatedBy.assign(n, {});
        allocationAt.clear();
        allocationAt.resize(n);
        sentBy.assign(n, D2dFractionalCounts(nl, 0.0));
        localReward.assign(n, 0.0);
        interCluster.assign(n, 0.0);
        gain.assign(n, 0.0);
        rewardsAt.assign(n, {});
        global.assign(n, 0.0);
        globalArrived.assign(n, false);
    }
};

} // namespace ns3

#endif /* D2D_DISCOVERY_ITERATION_H */
