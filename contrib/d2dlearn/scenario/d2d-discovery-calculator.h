/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_CALCULATOR_H
#define D2D_DISCOVERY_CALCULATOR_H

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief graph-discovery's calculator (--evaluate=INSTANCE.json): one message-passing step
 * (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning", 2025, eqs. (9)-(12)) and the rewards of eqs. (13)-(14)
 * on a hand-written instance, printed as JSON, without simulating.
 *
 * The instance's keys: counts (N rows of L label counts), thresholds, pDrop (each a number
 * or N rows), trust (N x N x L values 0/1, T_j[i][l]), selection (N transmitters, -1: none),
 * minLabels (a number or N numbers); optional alpha1, alpha2, alpha3, gamma, budget,
 * reliabilityThreshold, thresholdOn (allocated or expected) and diversity (w1 or js), with
 * the defaults and ranges of the flags of those names. The output's keys: V, Q, U, sent,
 * received, Dhat, DhatAllocated, clusters, gain, localReward, globalReward and reward.
 */
class D2dDiscoveryCalculator
{
  public:
    /** Largest instance read, bytes: the paper's are a few hundred bytes; a parsed tree
     *  takes about 160 times its text, so 1 MiB bounds the memory to about 200 MB. */
    static constexpr std::size_t MAX_INSTANCE_BYTES = 1 << 20;
    /** Deepest nesting of an instance: {"trust": [[[0, 1]]]} is 4 levels (the JSON parser
     *  recurses: 2,000,000 '[' overflowed its stack). */
    static constexpr int MAX_INSTANCE_DEPTH = 8;

    /**
     * \brief Read an instance: a regular file (a FIFO or device is never opened for
     * reading), at most MAX_INSTANCE_BYTES, nested at most MAX_INSTANCE_DEPTH deep.
     * \param path the file
     * \return its text
     * \throws std::runtime_error saying what is wrong
     */
    static std::string ReadInstance(const std::string& path);

    /**
     * \param json an instance's text
     * \return the result, a JSON object (numbers to 9 significant digits)
     * \throws std::runtime_error naming the key that is wrong, or "cannot read the JSON
     *         instance (...)"
     */
    static std::string Evaluate(const std::string& json);
};

} // namespace ns3

#endif /* D2D_DISCOVERY_CALCULATOR_H */
