/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-shard-exchange.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

D2dFractionalCounts
D2dShardExchange::Counts(const D2dDataset& train, const D2dShard& shard, uint32_t nLabels)
{
    D2dFractionalCounts c(nLabels, 0.0);
    for (std::size_t k = 0; k < shard.indices.size(); ++k)
    {
        const int64_t label = shard.LabelOf(train, k);
        if (label >= 0 && static_cast<uint32_t>(label) < nLabels)
        {
            c[label] += 1;
        }
    }
    return c;
}

uint64_t
D2dShardExchange::Apply(const D2dDataset& train,
                        std::vector<D2dShard>& shards,
                        const std::vector<D2dGraphDiscovery::Link>& links)
{
    uint64_t moved = 0;
    for (const auto& link : links)
    {
        D2dShard& tx = shards.at(link.transmitter);
        D2dShard& rx = shards.at(link.receiver);
        std::vector<std::size_t> keep;
        std::vector<std::size_t> gained;
        std::vector<double> toSend = link.allocated;
        std::vector<double> toKeep = link.received;
        for (std::size_t k = 0; k < tx.indices.size(); ++k)
        {
            const int64_t label = tx.LabelOf(train, k);
            if (label >= 0 && static_cast<std::size_t>(label) < toSend.size() && toSend[label] >= 1)
            {
                toSend[label] -= 1;
                if (toKeep[label] >= 1)
                {
                    toKeep[label] -= 1;
                    gained.push_back(tx.indices[k]);
                }
                continue;
            }
            keep.push_back(tx.indices[k]);
        }
        for (double left : toSend)
        {
            if (left >= 1)
            {
                throw std::logic_error("D2dShardExchange: transmitter " +
                                       std::to_string(link.transmitter) +
                                       " lacks the samples it sent");
            }
        }
        tx.indices = std::move(keep);
        std::vector<std::size_t> merged;
        std::merge(rx.indices.begin(),
                   rx.indices.end(),
                   gained.begin(),
                   gained.end(),
                   std::back_inserter(merged));
        rx.indices = std::move(merged);
        moved += gained.size();
    }
    return moved;
}

} // namespace ns3
