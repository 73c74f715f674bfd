/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-locality-order.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{
/** \return the graph's edges (u < v), each once, ascending; throws on a vertex out of range */
std::vector<std::pair<uint32_t, uint32_t>>
Edges(const std::vector<std::vector<uint32_t>>& adjacency)
{
    const auto n = static_cast<uint32_t>(adjacency.size());
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t u = 0; u < n; ++u)
    {
        for (uint32_t v : adjacency[u])
        {
            if (v >= n)
            {
                throw std::invalid_argument("D2dLocalityOrder: vertex " + std::to_string(v) +
                                            " of a graph of " + std::to_string(n));
            }
            if (v != u)
            {
                edges.emplace_back(std::min(u, v), std::max(u, v));
            }
        }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    return edges;
}
} // namespace

std::vector<uint32_t>
D2dLocalityOrder(const std::vector<std::vector<uint32_t>>& adjacency)
{
    using Graph =
        boost::adjacency_list<boost::vecS,
                              boost::vecS,
                              boost::undirectedS,
                              boost::property<boost::vertex_color_t,
                                              boost::default_color_type,
                                              boost::property<boost::vertex_degree_t, int>>>;
    const auto edges = Edges(adjacency);
    Graph g(edges.begin(), edges.end(), adjacency.size());
    // Boost.Graph's example: the reverse order, written back to front.
    std::vector<Graph::vertex_descriptor> order(boost::num_vertices(g));
    boost::cuthill_mckee_ordering(g,
                                  order.rbegin(),
                                  boost::get(boost::vertex_color, g),
                                  boost::make_degree_map(g));
    return std::vector<uint32_t>(order.begin(), order.end());
}

uint32_t
D2dOrderBandwidth(const std::vector<std::vector<uint32_t>>& adjacency,
                  const std::vector<uint32_t>& order)
{
    const auto n = adjacency.size();
    if (order.size() != n)
    {
        throw std::invalid_argument("D2dOrderBandwidth: an order of " +
                                    std::to_string(order.size()) + " vertices for " +
                                    std::to_string(n));
    }
    std::vector<int64_t> position(n, -1);
    for (std::size_t p = 0; p < n; ++p)
    {
        if (order[p] >= n || position[order[p]] >= 0)
        {
            throw std::invalid_argument("D2dOrderBandwidth: not a permutation");
        }
        position[order[p]] = static_cast<int64_t>(p);
    }
    int64_t bandwidth = 0;
    for (const auto& [u, v] : Edges(adjacency))
    {
        bandwidth = std::max(bandwidth, std::abs(position[u] - position[v]));
    }
    return static_cast<uint32_t>(bandwidth);
}

} // namespace ns3
