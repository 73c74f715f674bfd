/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-discovery-policies.h"

#include "d2d-discovery-paradigm.h"
#include "d2d-diversity-rewards.h"

#include "ns3/d2d-link-quality.h"

#include <algorithm>

namespace ns3
{

D2dDiscoveryPolicies::Parameters&
D2dDiscoveryPolicies::GetParameters()
{
    return m_params;
}

const D2dDiscoveryPolicies::Parameters&
D2dDiscoveryPolicies::GetParameters() const
{
    return m_params;
}

void
D2dDiscoveryPolicies::Start(const std::vector<std::vector<double>>& pDrop,
                            const D2dDiscoveryParadigm& paradigm)
{
    const auto n = static_cast<uint32_t>(pDrop.size());
    if (m_params.alpha3 < 0)
    {
        // The value used, as run.json records it.
        m_params.alpha3 = m_params.budget > 0 ? 1.0 / m_params.budget : 0.0;
    }
    m_clusters = D2dDiversityRewards::Clusters(pDrop, m_params.alphaD);
    m_out.assign(n, false);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_out[i] = !paradigm.TakesPart(i);
    }
    if (std::find(m_out.begin(), m_out.end(), true) != m_out.end())
    {
        // A device sitting out is a cluster of its own (it sends and receives no reward);
        // the others keep their clusters, numbered again in order of first member.
        std::map<uint32_t, uint32_t> renumbered;
        std::vector<uint32_t> clusters(n, 0);
        uint32_t next = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (m_out[i])
            {
                clusters[i] = next++;
                continue;
            }
            auto it = renumbered.find(m_clusters[i]);
            if (it == renumbered.end())
            {
                it = renumbered.emplace(m_clusters[i], next++).first;
            }
            clusters[i] = it->second;
        }
        m_clusters = std::move(clusters);
    }
    m_clusterMembers.clear();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_clusters[i] >= m_clusterMembers.size())
        {
            m_clusterMembers.resize(m_clusters[i] + 1);
        }
        m_clusterMembers[m_clusters[i]].push_back(i);
    }
    m_rowStates.assign(n, {});
}

void
D2dDiscoveryPolicies::AddEdge(bool learn)
{
    const auto n = static_cast<uint32_t>(m_clusters.size());
    m_policies.emplace_back();
    if (!learn)
    {
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_policies.back().emplace_back(n,
                                       i,
                                       m_params.bufferSize,
                                       m_params.delta,
                                       m_params.bufferMode == D2dDiscoveryModes::BUFFER_SHARED
                                           ? D2dLinkPolicy::BufferMode::SHARED
                                           : D2dLinkPolicy::BufferMode::PER_ACTION,
                                       m_params.betaMode == D2dDiscoveryModes::BETA_LITERAL
                                           ? D2dLinkPolicy::BetaMode::LITERAL
                                           : D2dLinkPolicy::BetaMode::SIGN_AWARE);
    }
}

D2dLinkPolicy&
D2dDiscoveryPolicies::GetPolicy(uint32_t edge, uint32_t device)
{
    return m_policies[edge][device];
}

const std::vector<std::vector<D2dLinkPolicy>>&
D2dDiscoveryPolicies::GetPolicies() const
{
    return m_policies;
}

std::vector<uint32_t>
D2dDiscoveryPolicies::CurrentStates(uint32_t rx, const D2dLinkQuality& links)
{
    const auto n = static_cast<uint32_t>(m_clusters.size());
    std::vector<uint32_t> states(n, 0);
    if (!links.IsDynamic())
    {
        return states; // static RSS: one state (App. C, S = 1)
    }
    for (uint32_t j = 0; j < n; ++j)
    {
        states[j] = j == rx ? 0 : links.GetLinkState(rx, j);
    }
    if (m_params.stateMode == D2dDiscoveryModes::STATE_ROW)
    {
        auto& ids = m_rowStates[rx];
        const auto it = ids.emplace(states, ids.size()).first;
        std::fill(states.begin(), states.end(), it->second);
    }
    return states;
}

const std::vector<uint32_t>&
D2dDiscoveryPolicies::GetClusters() const
{
    return m_clusters;
}

const std::vector<std::vector<uint32_t>>&
D2dDiscoveryPolicies::GetClusterMembers() const
{
    return m_clusterMembers;
}

bool
D2dDiscoveryPolicies::SitsOut(uint32_t device) const
{
    return m_out[device];
}

bool
D2dDiscoveryPolicies::IsInterCluster(uint32_t rx, uint32_t tx) const
{
    return m_clusters[tx] != m_clusters[rx];
}

std::vector<uint32_t>
D2dDiscoveryPolicies::RewardDestinations(uint32_t device) const
{
    const auto& members = m_clusterMembers[m_clusters[device]];
    std::vector<uint32_t> others;
    if (m_params.rewardSharing == D2dDiscoveryModes::CLUSTER_HEAD)
    {
        if (members.front() != device)
        {
            others.push_back(members.front()); // to the head only
        }
        return others;
    }
    for (uint32_t m : members)
    {
        if (m != device)
        {
            others.push_back(m);
        }
    }
    return others;
}

bool
D2dDiscoveryPolicies::SharesThroughHead() const
{
    return m_params.rewardSharing == D2dDiscoveryModes::CLUSTER_HEAD;
}

double
D2dDiscoveryPolicies::LocalReward(double gain, double pDrop) const
{
    return D2dDiversityRewards::LocalReward(gain, pDrop, m_params.alpha1, m_params.alpha2);
}

double
D2dDiscoveryPolicies::ClusterGlobalReward(uint32_t i,
                                          const D2dDiscoveryIteration& it,
                                          const D2dDiscoveryParadigm& paradigm) const
{
    const auto n = static_cast<uint32_t>(m_clusters.size());
    const uint32_t k = m_clusters[i];
    std::vector<double> members{it.localReward[i]};
    double points = it.interCluster[i];
    for (const auto& [m, rp] : it.rewardsAt[i])
    {
        if (m_clusters[m] == k)
        {
            members.push_back(rp.first);
            points += rp.second;
        }
    }
    const double budget = m_params.budget;
    const double alpha3 = m_params.alpha3;
    if (paradigm.HasSystemAgreement())
    {
        // Eq. (17): the system agreement of the devices whose statistics reached i, then the
        // budget term.
        return paradigm.SystemAgreement(AgreementDevices(i, it)) +
               (budget > 0 ? alpha3 * (budget - points) : 0.0);
    }
    return budget > 0 ? D2dDiversityRewards::GlobalReward(members, n, alpha3, budget, points)
                      : D2dDiversityRewards::GlobalReward(members, n, 0.0, 0.0, 0.0);
}

std::vector<uint32_t>
D2dDiscoveryPolicies::AgreementDevices(uint32_t i, const D2dDiscoveryIteration& it) const
{
    std::vector<uint32_t> devices{i};
    for (const auto& [m, rp] : it.rewardsAt[i])
    {
        if (m_clusters[m] == m_clusters[i])
        {
            devices.push_back(m);
        }
    }
    return devices;
}

double
D2dDiscoveryPolicies::GlobalRewardAt(uint32_t i,
                                     const D2dDiscoveryIteration& it,
                                     const D2dDiscoveryParadigm& paradigm) const
{
    // Multicast, a head, or a member whose r^G was lost: from the rewards at i.
    const bool fromHead =
        SharesThroughHead() && m_clusterMembers[m_clusters[i]].front() != i && it.globalArrived[i];
    return m_out[i] ? 0.0 : fromHead ? it.global[i] : ClusterGlobalReward(i, it, paradigm);
}

double
D2dDiscoveryPolicies::Reward(double local, double global) const
{
    return local + m_params.gamma * global;
}

} // namespace ns3
