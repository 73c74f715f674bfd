/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-cmfl-roles.h"

#include "ns3/d2d-fl-protocol.h"

#include <algorithm>

namespace ns3
{

void
D2dCmflRoles::CreateStream()
{
    m_pick = CreateObject<UniformRandomVariable>();
}

int64_t
D2dCmflRoles::AssignStreams(int64_t stream)
{
    m_pick->SetStream(stream);
    return 1;
}

uint32_t
D2dCmflRoles::DrawFirst(uint32_t devices, uint32_t active, uint32_t committeeSize)
{
    std::vector<uint32_t> order(devices);
    for (uint32_t i = 0; i < devices; ++i)
    {
        order[i] = i;
    }
    D2dFlProtocol::PartialShuffle(order, active, m_pick);
    m_devices = devices;
    m_committeeSize = committeeSize;
    m_activeCount = active;
    m_committee.assign(order.begin(), order.begin() + committeeSize);
    m_training.assign(order.begin() + committeeSize, order.begin() + active);
    std::sort(m_committee.begin(), m_committee.end());
    std::sort(m_training.begin(), m_training.end());
    return m_committee[m_pick->GetInteger(0, committeeSize - 1)];
}

std::vector<uint32_t>
D2dCmflRoles::DrawCommittee()
{
    // Candidates: the round's training clients (the members step down and cannot be
    // re-elected at once); all devices off the committee if there are too few of them.
    std::vector<uint32_t> candidates =
        m_training.size() < m_committeeSize ? OffCommittee() : m_training;
    const auto size = std::min<uint32_t>(m_committeeSize, candidates.size());
    return Draw(std::move(candidates), size); // the committee's common seed
}

void
D2dCmflRoles::StepDown(const std::vector<uint32_t>& next)
{
    if (!next.empty())
    {
        m_committee = next;
    }
    std::vector<uint32_t> others = OffCommittee();
    const auto draw = std::min<uint32_t>(m_training.size(), others.size());
    m_training = Draw(std::move(others), draw);
}

std::vector<uint32_t>
D2dCmflRoles::OffCommittee() const
{
    std::vector<uint32_t> off;
    for (uint32_t i = 0; i < m_devices; ++i)
    {
        if (!IsCommittee(i))
        {
            off.push_back(i);
        }
    }
    return off;
}

std::vector<uint32_t>
D2dCmflRoles::Draw(std::vector<uint32_t> candidates, uint32_t k)
{
    D2dFlProtocol::PartialShuffle(candidates, k, m_pick);
    candidates.resize(k);
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

const std::vector<uint32_t>&
D2dCmflRoles::GetCommittee() const
{
    return m_committee;
}

const std::vector<uint32_t>&
D2dCmflRoles::GetTraining() const
{
    return m_training;
}

uint32_t
D2dCmflRoles::GetCommitteeSize() const
{
    return m_committeeSize;
}

uint32_t
D2dCmflRoles::GetActiveCount() const
{
    return m_activeCount;
}

bool
D2dCmflRoles::IsCommittee(uint32_t device) const
{
    return std::binary_search(m_committee.begin(), m_committee.end(), device);
}

bool
D2dCmflRoles::IsTraining(uint32_t device) const
{
    return std::binary_search(m_training.begin(), m_training.end(), device);
}

void
D2dCmflRoles::Dispose()
{
    m_pick = nullptr;
}

} // namespace ns3
