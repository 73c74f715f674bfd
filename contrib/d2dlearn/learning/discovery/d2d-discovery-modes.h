/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_MODES_H
#define D2D_DISCOVERY_MODES_H

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The values of graph discovery's enumeration attributes that its RL policies and
 * rewards read (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph
 * Discovery in D2D-Enabled Federated Learning", 2025, sec. IV).
 *
 * D2dGraphDiscovery derives from it, so the values keep their names there
 * (D2dGraphDiscovery::MULTICAST, ...), and D2dDiscoveryPolicies stores them without
 * depending on D2dGraphDiscovery.
 */
struct D2dDiscoveryModes
{
    /** Values of BufferMode: the experience buffers (D2dLinkPolicy::BufferMode). */
    enum BufferMode
    {
        BUFFER_PER_ACTION, //!< one ring of H rewards per (state, action)
        BUFFER_SHARED      //!< one ring per device (the literal reading)
    };

    /** Values of BetaMode: how a below-mean reward is reduced (D2dLinkPolicy::BetaMode). */
    enum BetaMode
    {
        BETA_SIGN_AWARE, //!< R - delta |R|
        BETA_LITERAL     //!< (1 - delta) R
    };

    /** Values of StateMode: the RL state with dynamic RSS. */
    enum StateMode
    {
        STATE_PER_LINK, //!< action j's state is the quantised W_ij
        STATE_ROW       //!< the whole quantised row (the literal state)
    };

    /** How the local rewards reach the cluster (see D2dGraphDiscovery). */
    enum RewardSharing
    {
        CLUSTER_HEAD, //!< members -> head (r^L), head -> members (r^G)
        MULTICAST     //!< every member -> every other member (r^L)
    };
};

} // namespace ns3

#endif /* D2D_DISCOVERY_MODES_H */
