/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_BEST_LINKS_H
#define D2D_BEST_LINKS_H

#include "d2d-discovery-paradigm.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The training labels of the GCN baseline of Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, App. C: "all possible combinations of 4 devices are considered, and the 10 best links
 * are chosen based on the local reward". Our reading (the paper gives no more): for every
 * subset of SubsetSize devices of a system and every graph on it with one incoming edge per
 * member (each member picks one of the other members: (s - 1)^s graphs), one noiseless
 * message passing (the paradigm's Offer, Demand and Allocate, the demands at a transmitter in
 * requester order, as D2dGraphDiscovery orders them) and each member's local reward of
 * eq. (13), r^L = alpha1 g - alpha2 P_D(i, j) with the paradigm's g. The best link of
 * receiver i is the transmitter j of the highest r^L any such subset and graph gave i (lower
 * j on ties): one link per receiver, 10 for a 10-device system. Pure (the paradigm is only
 * read).
 */
class D2dBestLinks
{
  public:
    /**
     * \param paradigm the system's state (D_i, thresholds, trust, ...)
     * \param pDrop pDrop[i][j] = P_D(i, j), N x N
     * \param devices the system: devices of the paradigm (distinct, ascending, >= 2)
     * \param subsetSize s, 2..|devices|
     * \param alpha1 weight of g in eq. (13)
     * \param alpha2 weight of P_D in eq. (13)
     * \param bestReward if not null, receives the best r^L of each device (N entries, 0 for
     *        devices not in the system)
     * \return the best transmitter of each device (N entries, -1 for devices not in the
     *         system)
     * \throws std::invalid_argument for a bad subset size or device list
     */
    static std::vector<int64_t> Find(const D2dDiscoveryParadigm& paradigm,
                                     const std::vector<std::vector<double>>& pDrop,
                                     const std::vector<uint32_t>& devices,
                                     uint32_t subsetSize,
                                     double alpha1,
                                     double alpha2,
                                     std::vector<double>* bestReward = nullptr);

    /**
     * \brief One noiseless message passing on a graph and the receivers' local rewards.
     * \param paradigm the state
     * \param pDrop P_D
     * \param selection selection[i] = transmitter of i, -1 none (N entries)
     * \param alpha1 eq. (13)
     * \param alpha2 eq. (13)
     * \return r^L of each device (0 for a device without a transmitter)
     */
    static std::vector<double> LocalRewards(const D2dDiscoveryParadigm& paradigm,
                                            const std::vector<std::vector<double>>& pDrop,
                                            const std::vector<int64_t>& selection,
                                            double alpha1,
                                            double alpha2);
};

} // namespace ns3

#endif /* D2D_BEST_LINKS_H */
