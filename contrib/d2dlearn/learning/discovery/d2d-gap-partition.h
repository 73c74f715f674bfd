/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_GAP_PARTITION_H
#define D2D_GAP_PARTITION_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The partitions of a regression target for graph discovery (Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, sec. VI-C4): a device sorts its datapoints by their target in ascending
 * order and cuts the sorted list at the L - 1 largest differences between consecutive
 * targets; the L runs are the partitions, numbered 0..L-1 from the lowest targets up, and
 * play the part of the labels in the supervised message passing. Pure.
 *
 * Details the paper leaves open (our choices): the sort is stable (equal targets keep their
 * index order); among equal gaps the one lower in the sorted list is cut first; a gap of 0
 * (equal targets) may be cut when fewer than L - 1 positive gaps exist, so there are always
 * exactly L non-empty partitions when the device holds at least L points. Partition l of one
 * device and partition l of another cover different target ranges in general: the paper
 * compares them by index, and so does the message passing here.
 */
class D2dGapPartition
{
  public:
    /**
     * \param targets a device's regression targets, in its shard's order
     * \param parts L (>= 1)
     * \return the partition of each point, in [0, L)
     * \throws std::invalid_argument if L is 0, fewer than L points are given (and some are),
     *         or a target is not finite
     */
    static std::vector<uint32_t> Assign(const std::vector<double>& targets, uint32_t parts);
};

} // namespace ns3

#endif /* D2D_GAP_PARTITION_H */
