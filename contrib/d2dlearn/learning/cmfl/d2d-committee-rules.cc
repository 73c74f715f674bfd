/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-committee-rules.h"

#include "ns3/abort.h"
#include "ns3/d2d-share.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dCommitteeRules");

double
D2dCommitteeRules::Score(const std::vector<float>& gk, const std::vector<float>& gc)
{
    NS_ABORT_MSG_IF(gk.empty() || gk.size() != gc.size(),
                    "D2dCommitteeRules::Score: gradients of sizes " << gk.size() << " and "
                                                                    << gc.size());
    // Scoring system: P_k^c = 1 / ||g_k - g_c||_2^2.
    double d2 = 0;
    for (std::size_t j = 0; j < gk.size(); ++j)
    {
        const double d = static_cast<double>(gk[j]) - static_cast<double>(gc[j]);
        d2 += d * d;
    }
    if (d2 == 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return 1.0 / d2;
}

double
D2dCommitteeRules::FinalScore(const std::vector<double>& scores)
{
    if (scores.empty())
    {
        return 0;
    }
    // Eq. (8): P_k = C / sum_c (1 / P_k^c).
    double sum = 0;
    for (double p : scores)
    {
        NS_ABORT_MSG_IF(std::isnan(p) || p < 0, "D2dCommitteeRules::FinalScore: score " << p);
        if (!std::isinf(p))
        {
            sum += 1.0 / p; // p = 0 (infinitely far) makes the sum, and P_k, infinite / 0
        }
    }
    if (sum == 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return static_cast<double>(scores.size()) / sum;
}

std::vector<uint32_t>
D2dCommitteeRules::RankByScore(const std::vector<uint32_t>& clients,
                               const std::vector<double>& scores)
{
    NS_ABORT_MSG_IF(clients.size() != scores.size(),
                    "D2dCommitteeRules::RankByScore: " << clients.size() << " clients, "
                                                       << scores.size() << " scores");
    std::vector<std::size_t> order(clients.size());
    std::iota(order.begin(), order.end(), 0);
    for (double s : scores)
    {
        NS_ABORT_MSG_IF(std::isnan(s), "D2dCommitteeRules::RankByScore: NaN score");
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (scores[a] != scores[b])
        {
            return scores[a] > scores[b];
        }
        return clients[a] < clients[b];
    });
    std::vector<uint32_t> ranked;
    ranked.reserve(order.size());
    for (auto i : order)
    {
        ranked.push_back(clients[i]);
    }
    return ranked;
}

uint32_t
D2dCommitteeRules::SelectionSize(uint32_t n, double alpha)
{
    NS_ABORT_MSG_IF(!(alpha >= 0 && alpha <= 1),
                    "D2dCommitteeRules::SelectionSize: alpha " << alpha << " not in [0, 1]");
    if (n == 0)
    {
        return 0;
    }
    // D2dShare::Count gives exact halves (alpha 0.3 of 5 = 1.5 -> 2).
    return std::max<uint32_t>(1, D2dShare::Count(n, alpha, D2dShare::Rounding::NEAREST));
}

uint32_t
D2dCommitteeRules::ActiveCount(uint32_t k, double activation)
{
    return D2dShare::Count(k, activation, D2dShare::Rounding::NEAREST);
}

uint32_t
D2dCommitteeRules::CommitteeSize(uint32_t active, double omega)
{
    return D2dShare::Count(active, omega, D2dShare::Rounding::NEAREST);
}

std::vector<uint32_t>
D2dCommitteeRules::Select(const std::vector<uint32_t>& clients,
                          const std::vector<double>& scores,
                          double alpha,
                          D2dSelectionStrategy strategy)
{
    // Strategy I: the top alpha; strategy II: the bottom alpha.
    return SelectCount(clients,
                       scores,
                       SelectionSize(static_cast<uint32_t>(clients.size()), alpha),
                       strategy);
}

std::vector<uint32_t>
D2dCommitteeRules::SelectCount(const std::vector<uint32_t>& clients,
                               const std::vector<double>& scores,
                               uint32_t m,
                               D2dSelectionStrategy strategy)
{
    const auto ranked = RankByScore(clients, scores);
    m = std::min<uint32_t>(m, static_cast<uint32_t>(ranked.size()));
    std::vector<uint32_t> chosen;
    if (strategy == D2dSelectionStrategy::HIGHEST_SCORES)
    {
        chosen.assign(ranked.begin(), ranked.begin() + m);
    }
    else
    {
        chosen.assign(ranked.end() - m, ranked.end());
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

uint32_t
D2dCommitteeRules::AcceptedCount(uint32_t scored, uint32_t base, double alpha)
{
    if (scored == 0)
    {
        return 0;
    }
    return std::min(scored, SelectionSize(base, alpha));
}

D2dNextCommittee
D2dCommitteeRules::NextCommittee(bool electionAgreed,
                                 std::size_t electedSize,
                                 bool aggregationAgreed,
                                 D2dFailedVote mode)
{
    if (mode == D2dFailedVote::KEEP_COMMITTEE)
    {
        // The old rule: no election after a failed aggregation vote, and a failed (or too
        // small) election keeps the committee.
        return aggregationAgreed && electionAgreed && electedSize >= 3 ? D2dNextCommittee::ELECTED
                                                                       : D2dNextCommittee::KEPT;
    }
    // Step down in every round (Che et al. 2022, "Step Down"): the agreed election, else a
    // draw, so that a committee whose votes fail cannot stay.
    return electionAgreed && electedSize >= 3 ? D2dNextCommittee::ELECTED : D2dNextCommittee::DRAWN;
}

const char*
D2dCommitteeRules::ToString(D2dNextCommittee source)
{
    switch (source)
    {
    case D2dNextCommittee::ELECTED:
        return "elected";
    case D2dNextCommittee::DRAWN:
        return "drawn";
    case D2dNextCommittee::KEPT:
        return "kept";
    }
    return "";
}

std::vector<uint32_t>
D2dCommitteeRules::Elect(const std::vector<uint32_t>& clients,
                         const std::vector<double>& scores,
                         uint32_t committeeSize)
{
    const auto ranked = RankByScore(clients, scores);
    const auto n = static_cast<uint32_t>(ranked.size());
    std::vector<uint32_t> elected;
    if (committeeSize >= n)
    {
        elected = ranked;
    }
    else
    {
        // Election strategy: the clients closest to the middle of the ranking.
        const uint32_t start = (n - committeeSize) / 2;
        elected.assign(ranked.begin() + start, ranked.begin() + start + committeeSize);
    }
    std::sort(elected.begin(), elected.end());
    return elected;
}

} // namespace ns3
