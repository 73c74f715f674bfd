/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of CMFL's pure rules (Che et al., "A Decentralized Federated
 * Learning Framework via Committee Mechanism with Convergence Guarantee", IEEE TPDS 2022):
 * the CCP quorum in its two readings and the malicious members each tolerates (checked
 * against a brute-force count of replies), where the next committee comes from after a
 * failed vote (step-down or the former keep-committee rule), the accepted count of the
 * two aggregation bases, the selection with an explicit count, the scoring system (eqs. (7)
 * and (8)), the ranking, selection strategies I and II and the election strategy, and the
 * Byzantine attacks (gradient scaling from a seeded ns-3 stream, same value, back gradient,
 * the adversarial score, their names), in the update and in the weights space. Every
 * expected number is worked out in the comments.
 */

#include "ns3/d2d-byzantine-attack.h"
#include "ns3/d2d-committee-consensus.h"
#include "ns3/d2d-committee-rules.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>
#include <string>
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

TEST(D2dCommitteeRulesScore, SquaredDistanceAndEq8ByHand)
{
    // Scoring system (Che et al. 2022, eq. (7)): P_k^c = 1 / ||g_k - g_c||^2.
    const double inf = std::numeric_limits<double>::infinity();
    // ||(1,2) - (0,0)||^2 = 1 + 4 = 5 -> 0.2.
    EXPECT_NEAR(D2dCommitteeRules::Score({1, 2}, {0, 0}), 0.2, 1e-15);
    // ||(1,2) - (3,-1)||^2 = 4 + 9 = 13.
    EXPECT_NEAR(D2dCommitteeRules::Score({1, 2}, {3, -1}), 1.0 / 13, 1e-15);
    EXPECT_EQ(D2dCommitteeRules::Score({1.5f, -2}, {1.5f, -2}), inf) << "identical: +inf";
    // Accumulated in double: (1e20)^2 = 1e40 overflows a float (max 3.4e38), not a double,
    // so the score is 1e-40, not 0.
    EXPECT_NEAR(D2dCommitteeRules::Score({1e20f}, {0.0f}) * 1e40, 1.0, 1e-6);

    // Eq. (8): P_k = C / sum_c 1/P_k^c = 2 / (5 + 2) = 0.285714...
    EXPECT_NEAR(D2dCommitteeRules::FinalScore({0.2, 0.5}), 2.0 / 7.0, 1e-15);
    // = 1 / mean squared distance: distances 5, 2, 11 -> 3 / 18.
    EXPECT_NEAR(D2dCommitteeRules::FinalScore({0.2, 0.5, 1.0 / 11}), 3.0 / 18.0, 1e-15);
    // +inf adds 0: 2 / (0 + 2) = 1.
    EXPECT_NEAR(D2dCommitteeRules::FinalScore({inf, 0.5}), 1.0, 1e-15);
    EXPECT_EQ(D2dCommitteeRules::FinalScore({inf, inf}), inf);
    EXPECT_EQ(D2dCommitteeRules::FinalScore({}), 0.0) << "no scores: 0";
}

TEST(D2dCommitteeRulesSelection, RankingSizesAndStrategiesIAndII)
{
    // Clients 12, 11, 10, 13, 14 with scores 0.3, 0.9, 0.3, 0.1, 0.5: descending
    // 11 (0.9), 14 (0.5), 10 and 12 (0.3 each: lower id first), 13 (0.1).
    const Ids clients{12, 11, 10, 13, 14};
    const std::vector<double> scores{0.3, 0.9, 0.3, 0.1, 0.5};
    EXPECT_EQ(D2dCommitteeRules::RankByScore(clients, scores), (Ids{11, 14, 10, 12, 13}));

    // m = max(1, round(alpha n)), at most n.
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(5, 0.4), 2u) << "0.4 of 5 = 2";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(5, 0.3), 2u) << "1.5 -> 2";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(7, 0.5), 4u) << "3.5 -> 4";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(10, 0.44), 4u) << "4.4 -> 4";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(5, 0.01), 1u) << "0.05 -> at least 1";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(5, 0), 1u) << "0 -> at least 1";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(3, 1), 3u) << "all";
    EXPECT_EQ(D2dCommitteeRules::SelectionSize(0, 0.4), 0u) << "none of 0";

    // alpha 0.4 of 5 -> m = 2. I: the top 2 = {11, 14}; II: the bottom 2 = {12, 13}.
    EXPECT_EQ(D2dCommitteeRules::Select(clients, scores, 0.4, D2dSelectionStrategy::HIGHEST_SCORES),
              (Ids{11, 14}));
    EXPECT_EQ(D2dCommitteeRules::Select(clients, scores, 0.4, D2dSelectionStrategy::LOWEST_SCORES),
              (Ids{12, 13}));
    // alpha 0.6 -> m = 3: the tie 10 / 12 at the boundary goes to the lower id (I); II with
    // alpha 0.2 keeps one client, the lowest.
    EXPECT_EQ(D2dCommitteeRules::Select(clients, scores, 0.6, D2dSelectionStrategy::HIGHEST_SCORES),
              (Ids{10, 11, 14}));
    EXPECT_EQ(D2dCommitteeRules::Select(clients, scores, 0.2, D2dSelectionStrategy::LOWEST_SCORES),
              (Ids{13}));
}

TEST(D2dCommitteeRulesElection, MiddleRanksByHand)
{
    // 7 clients 0..6 with scores 0.7 0.1 0.5 0.3 0.6 0.2 0.4: ranking 0 4 2 6 3 5 1.
    // C = 3: start = (7 - 3) / 2 = 2, ranks 2, 3, 4 = clients 2, 6, 3.
    const Ids seven{0, 1, 2, 3, 4, 5, 6};
    const std::vector<double> s7{0.7, 0.1, 0.5, 0.3, 0.6, 0.2, 0.4};
    EXPECT_EQ(D2dCommitteeRules::Elect(seven, s7, 3), (Ids{2, 3, 6}));
    // C = 4: start = 3 / 2 = 1, ranks 1..4 = clients 4, 2, 6, 3.
    EXPECT_EQ(D2dCommitteeRules::Elect(seven, s7, 4), (Ids{2, 3, 4, 6}));
    // C = 1: start = 3, the median rank: client 6.
    EXPECT_EQ(D2dCommitteeRules::Elect(seven, s7, 1), (Ids{6}));
    EXPECT_EQ(D2dCommitteeRules::Elect(seven, s7, 9), seven) << "C >= n: everyone";
    EXPECT_TRUE(D2dCommitteeRules::Elect(seven, s7, 0).empty()) << "C = 0";
    // Equal scores: ranking by id 0..6, ranks 2..4.
    EXPECT_EQ(D2dCommitteeRules::Elect(seven, std::vector<double>(7, 1.0), 3), (Ids{2, 3, 4}));
}

TEST(D2dByzantineAttacks, GradientScalingDrawsOneFactorPerElementInAToOne)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    // Gradient scaling: each element times its own lambda in [0.5, 1).
    const std::size_t n = 1000;
    Floats base(n);
    for (std::size_t j = 0; j < n; ++j)
    {
        base[j] = (j % 2 ? -1.0f : 1.0f) * (1.0f + static_cast<float>(j) / 100.0f);
    }
    auto scaled = base;
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(5);
    D2dByzantineAttack::Apply(D2dAttackType::GRADIENT_SCALING, scaled, rng);
    double lo = 1;
    double hi = 0;
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j)
    {
        const double lambda = static_cast<double>(scaled[j]) / base[j];
        lo = std::min(lo, lambda);
        hi = std::max(hi, lambda);
        sum += lambda;
    }
    EXPECT_GE(lo, 0.5 - 1e-6) << "lambda >= a";
    EXPECT_LT(hi, 1.0) << "lambda < 1";
    // 1000 draws of U[0.5, 1): min below 0.51 and max above 0.99 (each fails with
    // probability 0.98^1000 ~ 2e-9), mean 0.75 +- 0.02 (sd 0.144 / sqrt(1000) = 0.0046).
    EXPECT_LT(lo, 0.51);
    EXPECT_GT(hi, 0.99);
    EXPECT_NEAR(sum / n, 0.75, 0.02);
    // Element order, one draw each, from the given stream: the same stream again gives the
    // same bytes, element j scaled by the j-th draw.
    auto rng2 = CreateObject<UniformRandomVariable>();
    rng2->SetStream(5);
    for (std::size_t j = 0; j < n; ++j)
    {
        const float expected =
            static_cast<float>(static_cast<double>(base[j]) * rng2->GetValue(0.5, 1.0));
        ASSERT_EQ(scaled[j], expected) << j;
    }
    auto other = base;
    auto rng3 = CreateObject<UniformRandomVariable>();
    rng3->SetStream(6);
    D2dByzantineAttack::Apply(D2dAttackType::GRADIENT_SCALING, other, rng3);
    EXPECT_NE(other, scaled) << "another stream, other factors";
    // a = 0.9: lambda in [0.9, 1).
    auto narrow = base;
    D2dByzantineAttack::Apply(D2dAttackType::GRADIENT_SCALING, narrow, rng3, 0.9);
    for (std::size_t j = 0; j < n; ++j)
    {
        const double lambda = static_cast<double>(narrow[j]) / base[j];
        EXPECT_GE(lambda, 0.9 - 1e-6) << j;
        EXPECT_LT(lambda, 1.0) << j;
    }
}

TEST(D2dByzantineAttacks, SameValueBackGradientAndNone)
{
    const Floats g{1.0f, -2.0f, 3.5f, 0.0f};
    auto same = g;
    D2dByzantineAttack::Apply(D2dAttackType::SAME_VALUE, same, nullptr);
    EXPECT_EQ(same, Floats(4, 0.0f)) << "same value: zeros";
    auto back = g;
    D2dByzantineAttack::Apply(D2dAttackType::BACK_GRADIENT, back, nullptr);
    EXPECT_EQ(back, (Floats{-1.0f, 2.0f, -3.5f, -0.0f})) << "back gradient: -g";
    auto none = g;
    D2dByzantineAttack::Apply(D2dAttackType::NONE, none, nullptr);
    D2dByzantineAttack::Apply(D2dAttackType::LABEL_FLIPPING, none, nullptr);
    EXPECT_EQ(none, g) << "none / label flipping: unchanged";
}

TEST(D2dByzantineAttacks, AdversarialScoreInvertsTheRanking)
{
    // Adversarial score = ||g_k - g_c||^2 = 5 = 1 / Score.
    EXPECT_NEAR(D2dByzantineAttack::AdversarialScore({1, 2}, {0, 0}), 5.0, 1e-15);
    EXPECT_EQ(D2dByzantineAttack::AdversarialScore({1, 2}, {1, 2}), 0.0);
    // A malicious member's scores invert the ranking: honest (0.1, 0) and (0, 0.2) near its
    // own (0, 0) rank last; the malicious (-3, -3) first. Honest scores: 1 / 0.01 = 100,
    // 1 / 0.04 = 25, 1 / 18.
    const Floats gc{0, 0};
    const std::vector<Floats> gk{{0.1f, 0}, {0, 0.2f}, {-3, -3}};
    std::vector<double> honest;
    std::vector<double> adversarial;
    for (const auto& v : gk)
    {
        honest.push_back(D2dCommitteeRules::Score(v, gc));
        adversarial.push_back(D2dByzantineAttack::AdversarialScore(v, gc));
    }
    EXPECT_EQ(D2dCommitteeRules::RankByScore({0, 1, 2}, honest), (Ids{0, 1, 2}));
    EXPECT_EQ(D2dCommitteeRules::RankByScore({0, 1, 2}, adversarial), (Ids{2, 1, 0}));
}

TEST(D2dByzantineAttacks, NamesRoundTripAndOthersRefusedInOneLine)
{
    for (const std::string name :
         {"none", "gradient-scaling", "same-value", "back-gradient", "label-flipping"})
    {
        EXPECT_EQ(D2dByzantineAttack::ToString(D2dByzantineAttack::Parse(name)), name);
    }
    EXPECT_EQ(D2dByzantineAttack::Parse("back-gradient"), D2dAttackType::BACK_GRADIENT);
    for (const std::string bad : {"Back-Gradient", "scaling", ""})
    {
        try
        {
            D2dByzantineAttack::Parse(bad);
            ADD_FAILURE() << "no exception for '" << bad << "'";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_EQ(std::string(e.what()),
                      "attack=" + bad +
                          " is not accepted (none, gradient-scaling, same-value, "
                          "back-gradient or label-flipping)");
        }
    }
}

} // namespace
