/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_SHARD_EXCHANGE_H
#define D2D_SHARD_EXCHANGE_H

#include "d2d-graph-discovery.h"

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Moves real datapoints between devices' shards as the datapoint exchange of graph
 * discovery did (Wagle, Das, Love and Brinton 2025, eq. (12) with the points that arrived):
 * for each link in order, transmitter j gives up the first allocated[l] samples of label l of
 * its shard (ascending indices: a deterministic selection), and receiver i gets the first
 * received[l] of them; the rest were lost on the air. Pure.
 */
class D2dShardExchange
{
  public:
    /**
     * \param train the training set the shards index (labels)
     * \param shards device i's shard at index i (modified; indices stay ascending)
     * \param links the exchanges, in order (D2dGraphDiscovery::GetLinks())
     * \return the number of samples that moved into a receiver's shard
     * \throws std::logic_error if a transmitter lacks the samples its link says it sent
     */
    static uint64_t Apply(const D2dDataset& train,
                          std::vector<D2dShard>& shards,
                          const std::vector<D2dGraphDiscovery::Link>& links);
    /**
     * \param train the training set
     * \param shard a shard
     * \param nLabels L
     * \return its samples per label (the label map applied)
     */
    static D2dFractionalCounts Counts(const D2dDataset& train,
                                      const D2dShard& shard,
                                      uint32_t nLabels);
};

} // namespace ns3

#endif /* D2D_SHARD_EXCHANGE_H */
