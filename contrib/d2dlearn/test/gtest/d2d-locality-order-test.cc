/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest of the locality order (reverse Cuthill-McKee, after E. Cuthill and J. McKee,
 * "Reducing the bandwidth of sparse symmetric matrices", 1969) that D2dModelExchange
 * computes deferred averages in, and of the bandwidth it is judged by. Bandwidths of the
 * path and the grid are worked out in the comments.
 */

#include "ns3/d2d-locality-order.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{
using Graph = std::vector<std::vector<uint32_t>>;

/** \return the graph with vertex v renamed label[v] */
Graph
Relabel(const Graph& g, const std::vector<uint32_t>& label)
{
    Graph out(g.size());
    for (uint32_t v = 0; v < g.size(); ++v)
    {
        for (uint32_t w : g[v])
        {
            out[label[v]].push_back(label[w]);
        }
    }
    return out;
}

/** \return a random permutation of 0 .. n - 1 */
std::vector<uint32_t>
Shuffled(uint32_t n, uint32_t seed)
{
    std::vector<uint32_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    std::mt19937 rng(seed);
    std::shuffle(p.begin(), p.end(), rng);
    return p;
}

/** \return true if order is a permutation of 0 .. n - 1 */
bool
IsPermutation(std::vector<uint32_t> order, uint32_t n)
{
    std::sort(order.begin(), order.end());
    std::vector<uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    return order == all;
}

/** \return the side x side grid graph, vertex r * side + c, edges both ways */
Graph
Grid(uint32_t side)
{
    Graph g(side * side);
    for (uint32_t r = 0; r < side; ++r)
    {
        for (uint32_t c = 0; c < side; ++c)
        {
            const uint32_t v = r * side + c;
            if (c + 1 < side)
            {
                g[v].push_back(v + 1);
                g[v + 1].push_back(v);
            }
            if (r + 1 < side)
            {
                g[v].push_back(v + side);
                g[v + side].push_back(v);
            }
        }
    }
    return g;
}
} // namespace

TEST(LocalityOrder, BandwidthByHand)
{
    // Path 0 - 1 - 2 in the order 0, 2, 1: positions 0, 2, 1; edge (0, 1) spans 2, (1, 2) 1.
    const Graph path{{1}, {0, 2}, {1}};
    EXPECT_EQ(D2dOrderBandwidth(path, {0, 2, 1}), 2U);
    EXPECT_EQ(D2dOrderBandwidth(path, {0, 1, 2}), 1U);
    EXPECT_EQ(D2dOrderBandwidth(Graph(4), {3, 1, 0, 2}), 0U); // no edges
    EXPECT_THROW(D2dOrderBandwidth(path, {0, 0, 1}), std::invalid_argument);
    EXPECT_THROW(D2dOrderBandwidth(path, {0, 1}), std::invalid_argument);
}

TEST(LocalityOrder, ShuffledPathComesOutInLine)
{
    // A path of 200 vertices with random names: index order spreads its edges over the
    // whole range; the order starts at an end (a peripheral vertex), and every
    // breadth-first level is one vertex, so the bandwidth is 1, the optimum.
    const uint32_t n = 200;
    Graph path(n);
    for (uint32_t v = 0; v + 1 < n; ++v)
    {
        path[v].push_back(v + 1); // one direction only: the order makes it undirected
    }
    const Graph g = Relabel(path, Shuffled(n, 1));
    std::vector<uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_GT(D2dOrderBandwidth(g, identity), 100U);
    const auto order = D2dLocalityOrder(g);
    ASSERT_TRUE(IsPermutation(order, n));
    EXPECT_EQ(D2dOrderBandwidth(g, order), 1U);
}

TEST(LocalityOrder, ShuffledGridBandIsADiagonal)
{
    // A 30 x 30 grid with random names. From a corner, breadth-first level k is the
    // anti-diagonal r + c = k, at most 30 vertices, and an edge joins two consecutive
    // levels, so the bandwidth is below two levels: at most 2 x 30 - 1 = 59 (index order:
    // about 900).
    const uint32_t side = 30;
    const Graph g = Relabel(Grid(side), Shuffled(side * side, 2));
    std::vector<uint32_t> identity(side * side);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_GT(D2dOrderBandwidth(g, identity), 500U);
    const auto order = D2dLocalityOrder(g);
    ASSERT_TRUE(IsPermutation(order, side * side));
    EXPECT_LE(D2dOrderBandwidth(g, order), 2 * side - 1);
    EXPECT_EQ(D2dLocalityOrder(g), order); // the same graph, the same order
}

TEST(LocalityOrder, ComponentsIsolatedVerticesAndNoise)
{
    // Two triangles {0, 2, 4} and {1, 3, 5}, vertex 6 alone; edges given once, twice,
    // with self-loops: every vertex once, each component contiguous.
    const Graph g{{2, 4, 0}, {3}, {4, 0, 0}, {5}, {}, {1}, {6}};
    const auto order = D2dLocalityOrder(g);
    ASSERT_TRUE(IsPermutation(order, 7));
    std::vector<int> component(7);
    component[0] = component[2] = component[4] = 0;
    component[1] = component[3] = component[5] = 1;
    component[6] = 2;
    int changes = 0;
    for (std::size_t p = 1; p < order.size(); ++p)
    {
        changes += component[order[p]] != component[order[p - 1]] ? 1 : 0;
    }
    EXPECT_EQ(changes, 2); // three components, two boundaries
    const Graph clean{{2, 4}, {3, 5}, {0, 4}, {1, 5}, {0, 2}, {1, 3}, {}};
    EXPECT_EQ(D2dOrderBandwidth(clean, order), D2dOrderBandwidth(g, order));
    EXPECT_LE(D2dOrderBandwidth(clean, order), 2U);
    EXPECT_EQ(D2dLocalityOrder({}), std::vector<uint32_t>{});
    EXPECT_THROW(D2dLocalityOrder({{1}, {7}}), std::invalid_argument);
}
