/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CMFL_VOTES_H
#define D2D_CMFL_VOTES_H

#include "d2d-committee-consensus.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What the votes of a CMFL round produce, from its score exchange to its election
 * (Che et al., "A Decentralized Federated Learning Framework via Committee Mechanism with
 * Convergence Guarantee", 2022, Algorithm CCP): the members' election proposals, the
 * aggregated models each aggregation set gives (memoised), the agreed S_a^t and its primary,
 * the elected S_c^{t+1}, the round's CCP attempts; and the run's counts of votes agreed and
 * attempts. Part of D2dCmfl; NewRound() resets the round's part.
 */
class D2dCmflVotes
{
  public:
    /** An aggregated model w^t - eta sum p_k g_k and its digest. */
    typedef std::pair<std::vector<float>, uint64_t> Aggregate;

    /** \brief A round begins: no proposal, no aggregate, no vote yet (the run's counts stay). */
    void NewRound();
    /** \brief The score exchange begins (gradients arriving later are not scored). */
    void BeginExchange();
    /** \return true once the round's score exchange has begun */
    bool IsExchanging() const;

    /** \brief Forget the members' election proposals (a new score exchange). */
    void ClearProposals();
    /** \param member a committee member \param committee its proposal of S_c^{t+1} */
    void Propose(uint32_t member, std::vector<uint32_t> committee);
    /** \return each member's proposal of S_c^{t+1}, by member (the election vote's input) */
    const std::map<uint32_t, std::vector<uint32_t>>& GetProposals() const;

    /** \param set an aggregation set \return its aggregate, if made (null: not yet) */
    const Aggregate* FindAggregate(const std::vector<uint32_t>& set) const;
    /**
     * \param set an aggregation set \param aggregate its aggregate
     * \return the aggregate kept for the set
     */
    const Aggregate& KeepAggregate(const std::vector<uint32_t>& set, Aggregate aggregate);
    /** \brief Drop the aggregates (D2dCmfl::DoDispose). */
    void ClearAggregates();

    /** \param outcome a vote's outcome: its attempts, and whether it agreed, are counted */
    void Count(const D2dCcpOutcome& outcome);
    /** \param outcome the aggregation vote's agreed outcome: S_a^t and its primary */
    void Aggregated(const D2dCcpOutcome& outcome);
    /** \param outcome the election vote's agreed outcome: S_c^{t+1} */
    void Elected(const D2dCcpOutcome& outcome);
    /**
     * \param committee S_c^{t+1} as decided at the round's end (drawn, or empty: S_c^t is
     *        kept)
     */
    void SetNextCommittee(std::vector<uint32_t> committee);

    /** \return S_a^t agreed on (empty: none) */
    const std::vector<uint32_t>& GetAggregated() const;
    /** \return S_c^{t+1}: elected (used if it has >= 3 members) or drawn; empty: kept */
    const std::vector<uint32_t>& GetNextCommittee() const;
    /** \return the aggregation vote's primary (-1: none) */
    int64_t GetPrimary() const;
    /** \return true if the aggregation vote reached consensus */
    bool HasConsensus() const;
    /** \return true if the election vote agreed */
    bool IsElectionAgreed() const;
    /** \return CCP attempts (primaries tried) of the round's votes */
    uint32_t GetRoundAttempts() const;
    /** \return CCP votes that reached consensus so far in the run */
    uint32_t GetConsensusVotes() const;
    /** \return CCP attempts so far in the run */
    uint32_t GetCcpAttempts() const;

  private:
    std::vector<uint32_t> m_aggregated;    //!< S_a^t agreed on (empty: none)
    std::vector<uint32_t> m_nextCommittee; //!< S_c^{t+1} (empty: S_c^t kept)
    /** the aggregates, by aggregation set (memoised by D2dCmfl::Aggregate) */
    std::map<std::vector<uint32_t>, Aggregate> m_aggregates;
    /** each committee member's proposal of S_c^{t+1}, by member (the election vote) */
    std::map<uint32_t, std::vector<uint32_t>> m_proposals;
    int64_t m_primary{-1};        //!< primary of the aggregation vote (-1: none)
    bool m_exchanging{false};     //!< the score exchange has begun
    uint32_t m_attempts{0};       //!< CCP attempts of the round's votes
    bool m_consensus{false};      //!< the aggregation vote reached consensus
    bool m_electionAgreed{false}; //!< the election vote agreed
    uint32_t m_consensusVotes{0}; //!< CCP votes that reached consensus so far
    uint32_t m_ccpAttempts{0};    //!< CCP attempts (primaries tried) so far
};

} // namespace ns3

#endif /* D2D_CMFL_VOTES_H */
