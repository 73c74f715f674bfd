/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-cmfl-votes.h"

namespace ns3
{

void
D2dCmflVotes::NewRound()
{
    m_aggregated.clear();
    m_nextCommittee.clear();
    m_aggregates.clear();
    m_proposals.clear();
    m_primary = -1;
    m_exchanging = false;
    m_attempts = 0;
    m_consensus = false;
    m_electionAgreed = false;
}

void
D2dCmflVotes::BeginExchange()
{
    m_exchanging = true;
}

bool
D2dCmflVotes::IsExchanging() const
{
    return m_exchanging;
}

void
D2dCmflVotes::ClearProposals()
{
    m_proposals.clear();
}

void
D2dCmflVotes::Propose(uint32_t member, std::vector<uint32_t> committee)
{
    m_proposals[member] = std::move(committee);
}

const std::map<uint32_t, std::vector<uint32_t>>&
D2dCmflVotes::GetProposals() const
{
    return m_proposals;
}

const D2dCmflVotes::Aggregate*
D2dCmflVotes::FindAggregate(const std::vector<uint32_t>& set) const
{
    auto it = m_aggregates.find(set);
    return it == m_aggregates.end() ? nullptr : &it->second;
}

const D2dCmflVotes::Aggregate&
D2dCmflVotes::KeepAggregate(const std::vector<uint32_t>& set, Aggregate aggregate)
{
    return m_aggregates.emplace(set, std::move(aggregate)).first->second;
}

void
D2dCmflVotes::ClearAggregates()
{
    m_aggregates.clear();
}

void
D2dCmflVotes::Count(const D2dCcpOutcome& outcome)
{
    m_attempts += outcome.attempts;
    m_ccpAttempts += outcome.attempts;
    if (outcome.consensus)
    {
        ++m_consensusVotes;
    }
}

void
D2dCmflVotes::Aggregated(const D2dCcpOutcome& outcome)
{
    m_consensus = true;
    m_aggregated = outcome.set;
    m_primary = outcome.primary;
}

void
D2dCmflVotes::Elected(const D2dCcpOutcome& outcome)
{
    m_electionAgreed = true;
    m_nextCommittee = outcome.set; // used if it has >= 3 members (NextCommittee)
}

void
D2dCmflVotes::SetNextCommittee(std::vector<uint32_t> committee)
{
    m_nextCommittee = std::move(committee);
}

const std::vector<uint32_t>&
D2dCmflVotes::GetAggregated() const
{
    return m_aggregated;
}

const std::vector<uint32_t>&
D2dCmflVotes::GetNextCommittee() const
{
    return m_nextCommittee;
}

int64_t
D2dCmflVotes::GetPrimary() const
{
    return m_primary;
}

bool
D2dCmflVotes::HasConsensus() const
{
    return m_consensus;
}

bool
D2dCmflVotes::IsElectionAgreed() const
{
    return m_electionAgreed;
}

uint32_t
D2dCmflVotes::GetRoundAttempts() const
{
    return m_attempts;
}

uint32_t
D2dCmflVotes::GetConsensusVotes() const
{
    return m_consensusVotes;
}

uint32_t
D2dCmflVotes::GetCcpAttempts() const
{
    return m_ccpAttempts;
}

} // namespace ns3
