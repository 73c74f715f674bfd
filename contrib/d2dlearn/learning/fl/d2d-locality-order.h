/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LOCALITY_ORDER_H
#define D2D_LOCALITY_ORDER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief An order of a graph's vertices in which neighbours come close to each other: the
 * reverse Cuthill-McKee order (E. Cuthill and J. McKee, "Reducing the bandwidth of sparse
 * symmetric matrices", 1969; reversed after A. George, 1971), as Boost.Graph's
 * cuthill_mckee_ordering computes it, each connected component from a pseudo-peripheral
 * vertex, components one after the other.
 *
 * Its use: a computation that visits the vertices one by one and needs, at each, values
 * its neighbours made (a decentralized averaging step, D2dModelExchange::ComputeModels)
 * keeps a value only from the first to the last neighbour that needs it, so at most about
 * twice the order's bandwidth, max over edges (u, v) of |pos(u) - pos(v)|, are alive at a
 * time. On a range graph of devices spread over a square, that is a band of the square a
 * few ranges wide, not a fraction of all devices as in index order.
 *
 * \param adjacency adjacency[v]: v's neighbours (either direction of an edge is enough:
 *        the graph is made undirected; duplicates and self-loops are ignored)
 * \return a permutation of 0 .. adjacency.size() - 1 (the same for the same graph)
 */
std::vector<uint32_t> D2dLocalityOrder(const std::vector<std::vector<uint32_t>>& adjacency);

/**
 * \param adjacency a graph, as for D2dLocalityOrder
 * \param order a permutation of its vertices
 * \return the order's bandwidth: the largest |pos(u) - pos(v)| over the edges (0 without
 *         edges)
 */
uint32_t D2dOrderBandwidth(const std::vector<std::vector<uint32_t>>& adjacency,
                           const std::vector<uint32_t>& order);

} // namespace ns3

#endif /* D2D_LOCALITY_ORDER_H */
