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
    std::vector<uint32_t> candidates = m_training;
    if (candidates.size() < m_committeeSize)
    {
        candidates.clear();
        for (uint32_t i = 0; i < m_devices; ++i)
        {
            if (!IsCommittee(i))
            {
                candidates.push_back(i);
            }
        }
    }
    const auto size = std::min<uint32_t>(m_committeeSize, candidates.size());
    D2dFlProtocol::PartialShuffle(candidates, size, m_pick); // the committee's common seed
    std::vector<uint32_t> drawn(candidates.begin(), candidates.begin() + size);
    std::sort(drawn.begin(), drawn.end());
    return drawn;
}

void
D2dCmflRoles::StepDown(const std::vector<uint32_t>& next)
{
    if (!next.empty())
    {
        m_committee = next;
    }
    const auto n = static_cast<uint32_t>(m_training.size());
    std::vector<uint32_t> others;
    for (uint32_t i = 0; i < m_devices; ++i)
    {
        if (!IsCommittee(i))
        {
            others.push_back(i);
        }
    }
    const uint32_t draw = std::min<uint32_t>(n, others.size());
    D2dFlProtocol::PartialShuffle(others, draw, m_pick);
    m_training.assign(others.begin(), others.begin() + draw);
    std::sort(m_training.begin(), m_training.end());
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
