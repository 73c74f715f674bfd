/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of CMFL's pure rules (Che et al., "A Decentralized Federated
 * Learning Framework via Committee Mechanism with Convergence Guarantee", IEEE TPDS 2022):
 * the CCP quorum in its two readings and the malicious members each tolerates (checked
 * against a brute-force count of replies), where the next committee comes from after a
 * failed vote (step-down or the former keep-committee rule), the accepted count of the
 * two aggregation bases, the selection with an explicit count, and the attacks in the
 * update and in the weights space. Every expected number is worked out in the comments.
 */

#include "ns3/d2d-byzantine-attack.h"
#include "ns3/d2d-committee-consensus.h"
#include "ns3/d2d-committee-rules.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

using Ids = std::vector<uint32_t>;
using Floats = std::vector<float>;

TEST(D2dCcpQuorum, RepliesPerMode)
{
    // Replicas (CCP step 6 literally): floor(C/2) + 1 replies.
    const uint32_t replicas[] = {0, 1, 2, 2, 3, 3, 4, 4, 5}; // C = 0 .. 8
    // Majority: floor(C/2) replies + the primary's own result = floor(C/2) + 1 of C.
    const uint32_t majority[] = {0, 0, 1, 1, 2, 2, 3, 3, 4};
    for (uint32_t c = 1; c <= 8; ++c)
    {
        EXPECT_EQ(D2dCommitteeConsensus::Quorum(c, D2dQuorumMode::REPLICAS), replicas[c]) << c;
        EXPECT_EQ(D2dCommitteeConsensus::Quorum(c, D2dQuorumMode::MAJORITY), majority[c]) << c;
        // The one-argument form is the literal one.
        EXPECT_EQ(D2dCommitteeConsensus::Quorum(c), replicas[c]) << c;
    }
}

TEST(D2dCcpQuorum, ToleratedMaliciousByHand)
{
    // Replicas: ceil(C/2) - 2, i.e. none for C = 3 and C = 4 (the stalled committee of 4
    // with one malicious member), 1 for C = 5 and 6, 2 for C = 7 and 8; C = 2 never agrees.
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(2, D2dQuorumMode::REPLICAS), -1);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(3, D2dQuorumMode::REPLICAS), 0);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(4, D2dQuorumMode::REPLICAS), 0);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(5, D2dQuorumMode::REPLICAS), 1);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(6, D2dQuorumMode::REPLICAS), 1);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(7, D2dQuorumMode::REPLICAS), 2);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(8, D2dQuorumMode::REPLICAS), 2);
    // Majority: ceil(C/2) - 1, every minority (the paper's "honest members greater than
    // malicious members").
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(3, D2dQuorumMode::MAJORITY), 1);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(4, D2dQuorumMode::MAJORITY), 1);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(5, D2dQuorumMode::MAJORITY), 2);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(6, D2dQuorumMode::MAJORITY), 2);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(7, D2dQuorumMode::MAJORITY), 3);
    EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(40, D2dQuorumMode::MAJORITY), 19);
}

TEST(D2dCcpQuorum, ToleratedMaliciousMatchesACountOfReplies)
{
    // Independent check: with f malicious members that never reply to an honest request,
    // an honest primary counts the C - f - 1 honest replicas; f colluders count f - 1. The
    // tolerance is the largest f for which, for every f' <= f, the first reaches the quorum
    // and the second does not.
    for (auto mode : {D2dQuorumMode::MAJORITY, D2dQuorumMode::REPLICAS})
    {
        for (uint32_t c = 1; c <= 30; ++c)
        {
            const auto q = static_cast<int32_t>(D2dCommitteeConsensus::Quorum(c, mode));
            int32_t tolerated = -1;
            for (int32_t f = 0; f < static_cast<int32_t>(c); ++f)
            {
                const bool live = static_cast<int32_t>(c) - f - 1 >= q;
                const bool safe = f - 1 < q;
                if (!live || !safe)
                {
                    break;
                }
                tolerated = f;
            }
            EXPECT_EQ(D2dCommitteeConsensus::ToleratedMalicious(c, mode), tolerated)
                << "C = " << c << (mode == D2dQuorumMode::MAJORITY ? " majority" : " replicas");
        }
    }
}

TEST(D2dCommitteeRulesNextCommittee, StepDownAfterAFailedVote)
{
    const auto step = D2dFailedVote::STEP_DOWN;
    const auto keep = D2dFailedVote::KEEP_COMMITTEE;
    // An agreed election of >= 3 members: elected, in both modes, whatever the aggregation.
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 4, true, step), D2dNextCommittee::ELECTED);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 3, false, step), D2dNextCommittee::ELECTED);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 4, true, keep), D2dNextCommittee::ELECTED);
    // Step-down: a failed election, or one of fewer than 3 members, is replaced by a draw:
    // the committee never stays.
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(false, 0, true, step), D2dNextCommittee::DRAWN);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(false, 0, false, step), D2dNextCommittee::DRAWN);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 2, true, step), D2dNextCommittee::DRAWN);
    // Keep-committee (the former rule): no election after a failed aggregation vote, and a
    // failed or too small election keeps the committee.
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(false, 0, false, keep), D2dNextCommittee::KEPT);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 4, false, keep), D2dNextCommittee::KEPT);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(false, 0, true, keep), D2dNextCommittee::KEPT);
    EXPECT_EQ(D2dCommitteeRules::NextCommittee(true, 2, true, keep), D2dNextCommittee::KEPT);
    EXPECT_STREQ(D2dCommitteeRules::ToString(D2dNextCommittee::ELECTED), "elected");
    EXPECT_STREQ(D2dCommitteeRules::ToString(D2dNextCommittee::DRAWN), "drawn");
    EXPECT_STREQ(D2dCommitteeRules::ToString(D2dNextCommittee::KEPT), "kept");
}

TEST(D2dCommitteeRulesSelection, AcceptedCountOfTheTwoBases)
{
    // alpha = 0.4 with 6 scored training clients of 10 active: the training base accepts
    // round(2.4) = 2, the active base round(4.0) = 4.
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(6, 6, 0.4), 2u);
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(6, 10, 0.4), 4u);
    // The active base never accepts more than were scored: 0.4 of 10 = 4 > 3 scored.
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(3, 10, 0.4), 3u);
    // At least one (SelectionSize): 0.1 of 4 = 0.4 -> 1; nothing scored -> 0.
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(4, 4, 0.1), 1u);
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(0, 10, 0.4), 0u);
    // The authors' setting: 65 active, omega = 0.4 -> 26 committee, 39 training; alpha =
    // 0.4: round(15.6) = 16 of the training clients, round(26) = 26 of the active ones.
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(39, 39, 0.4), 16u);
    EXPECT_EQ(D2dCommitteeRules::AcceptedCount(39, 65, 0.4), 26u);
}

TEST(D2dCommitteeRulesSelection, ActiveClientsAndCommitteeByHand)
{
    // "Hyper-parameter Notation" of Che et al. 2022: A = round(activation K), C = round(omega
    // A). The paper's scale: 650 clients, activation 0.1 -> 65; omega 0.4 -> 26.
    EXPECT_EQ(D2dCommitteeRules::ActiveCount(650, 0.1), 65u);
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(65, 0.4), 26u);
    // The tests' small runs: 20 devices, activation 0.5 -> 10; omega 0.4 -> 4, 0.5 -> 5.
    EXPECT_EQ(D2dCommitteeRules::ActiveCount(20, 0.5), 10u);
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(10, 0.4), 4u);
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(10, 0.5), 5u);
    // Products on integers and halves: 20 x 0.3 = 6; 5 x 0.3 = 1.5 -> 2; 50 x 0.29 = 14.5
    // -> 15 (14.499999999999998 in doubles); 90 x 0.7 = 63 (62.99999999999999).
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(20, 0.3), 6u);
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(5, 0.3), 2u);
    EXPECT_EQ(D2dCommitteeRules::ActiveCount(50, 0.29), 15u);
    EXPECT_EQ(D2dCommitteeRules::ActiveCount(90, 0.7), 63u);
    // All and none.
    EXPECT_EQ(D2dCommitteeRules::ActiveCount(7, 1), 7u);
    EXPECT_EQ(D2dCommitteeRules::CommitteeSize(7, 0), 0u);
}

TEST(D2dCommitteeRulesSelection, SelectCountTopAndBottom)
{
    // Scores: 7 -> 0.5, 3 -> 2.0, 9 -> 1.0, 4 -> 2.0, 1 -> 0.1. Ranking (descending, ties
    // by id): 3, 4, 9, 7, 1.
    const Ids clients = {7, 3, 9, 4, 1};
    const std::vector<double> scores = {0.5, 2.0, 1.0, 2.0, 0.1};
    EXPECT_EQ(
        D2dCommitteeRules::SelectCount(clients, scores, 3, D2dSelectionStrategy::HIGHEST_SCORES),
        (Ids{3, 4, 9}));
    EXPECT_EQ(
        D2dCommitteeRules::SelectCount(clients, scores, 2, D2dSelectionStrategy::LOWEST_SCORES),
        (Ids{1, 7}));
    // A count above n takes everyone; 0 takes nobody.
    EXPECT_EQ(
        D2dCommitteeRules::SelectCount(clients, scores, 9, D2dSelectionStrategy::HIGHEST_SCORES),
        (Ids{1, 3, 4, 7, 9}));
    EXPECT_TRUE(
        D2dCommitteeRules::SelectCount(clients, scores, 0, D2dSelectionStrategy::LOWEST_SCORES)
            .empty());
    // Select(alpha) is SelectCount(SelectionSize(n, alpha)): 0.4 of 5 = 2 -> {3, 4}.
    EXPECT_EQ(D2dCommitteeRules::Select(clients, scores, 0.4, D2dSelectionStrategy::HIGHEST_SCORES),
              (Ids{3, 4}));
}

TEST(D2dByzantineAttackSpace, UpdateAndWeightsByHand)
{
    const Floats base = {1.0f, 2.0f};
    const Floats g = {0.5f, -1.0f}; // w_k = w^t - g_k = (0.5, 3)
    // Update space, back-gradient: g <- -g = (-0.5, 1).
    Floats u = g;
    D2dByzantineAttack::ApplyInSpace(D2dAttackType::BACK_GRADIENT,
                                     D2dAttackSpace::UPDATE,
                                     base,
                                     u,
                                     nullptr);
    EXPECT_EQ(u, (Floats{-0.5f, 1.0f}));
    // Weights space, back-gradient: w <- -w = (-0.5, -3), g = w^t - w = (1.5, 5).
    Floats w = g;
    D2dByzantineAttack::ApplyInSpace(D2dAttackType::BACK_GRADIENT,
                                     D2dAttackSpace::WEIGHTS,
                                     base,
                                     w,
                                     nullptr);
    EXPECT_EQ(w, (Floats{1.5f, 5.0f}));
    // Weights space, same value: w <- 0, g = w^t; update space: g <- 0.
    Floats z = g;
    D2dByzantineAttack::ApplyInSpace(D2dAttackType::SAME_VALUE,
                                     D2dAttackSpace::WEIGHTS,
                                     base,
                                     z,
                                     nullptr);
    EXPECT_EQ(z, base);
    Floats zu = g;
    D2dByzantineAttack::ApplyInSpace(D2dAttackType::SAME_VALUE,
                                     D2dAttackSpace::UPDATE,
                                     base,
                                     zu,
                                     nullptr);
    EXPECT_EQ(zu, (Floats{0.0f, 0.0f}));
    // No attack and label flipping leave g bit for bit in both spaces.
    for (auto type : {D2dAttackType::NONE, D2dAttackType::LABEL_FLIPPING})
    {
        Floats n = g;
        D2dByzantineAttack::ApplyInSpace(type, D2dAttackSpace::WEIGHTS, base, n, nullptr);
        EXPECT_EQ(n, g);
    }
}

TEST(D2dByzantineAttackSpace, ScalingInTheWeightsSpace)
{
    // Gradient scaling of the weights: w'_j = lambda_j w_j with lambda_j in [0.5, 1), so
    // g'_j = w^t_j - lambda_j w_j; the same stream in the update space scales g_j instead.
    RngSeedManager::SetSeed(3);
    const Floats base = {1.0f, 2.0f, -4.0f};
    const Floats g = {0.5f, -1.0f, -2.0f}; // w = (0.5, 3, -2)
    auto rngW = CreateObject<UniformRandomVariable>();
    rngW->SetStream(11);
    auto rngRef = CreateObject<UniformRandomVariable>();
    rngRef->SetStream(11);
    Floats w = g;
    D2dByzantineAttack::ApplyInSpace(D2dAttackType::GRADIENT_SCALING,
                                     D2dAttackSpace::WEIGHTS,
                                     base,
                                     w,
                                     rngW,
                                     0.5);
    const Floats weights = {0.5f, 3.0f, -2.0f};
    for (std::size_t j = 0; j < g.size(); ++j)
    {
        const double lambda = rngRef->GetValue(0.5, 1.0);
        const float attacked = static_cast<float>(static_cast<double>(weights[j]) * lambda);
        EXPECT_EQ(w[j], base[j] - attacked) << j;
        EXPECT_GE(lambda, 0.5);
        EXPECT_LT(lambda, 1.0);
    }
}

TEST(D2dByzantineAttackSpace, ParseSpace)
{
    EXPECT_EQ(D2dByzantineAttack::ParseSpace("update"), D2dAttackSpace::UPDATE);
    EXPECT_EQ(D2dByzantineAttack::ParseSpace("weights"), D2dAttackSpace::WEIGHTS);
    try
    {
        D2dByzantineAttack::ParseSpace("model");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "attackSpace=model is not accepted (update or weights)");
    }
}

} // namespace
