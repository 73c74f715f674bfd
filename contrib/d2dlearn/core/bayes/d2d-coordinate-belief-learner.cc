/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-coordinate-belief-learner.h"

#include "d2d-discrete-belief.h"

#include "ns3/abort.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dCoordinateBeliefLearner);

TypeId
D2dCoordinateBeliefLearner::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dCoordinateBeliefLearner")
                            .SetParent<D2dBeliefLearner>()
                            .SetGroupName("D2dlearn");
    return tid;
}

D2dCoordinateBeliefLearner::D2dCoordinateBeliefLearner(uint32_t nDevices,
                                                       uint32_t levels,
                                                       std::vector<uint32_t> thetaTrue,
                                                       double eps)
    : m_n(nDevices),
      m_levels(levels),
      m_thetaTrue(std::move(thetaTrue)),
      m_eps(eps),
      m_d(static_cast<uint32_t>(m_thetaTrue.size()))
{
    NS_ABORT_MSG_IF(m_n == 0 || m_levels < 2 || m_d == 0, "bad coordinate problem");
    NS_ABORT_MSG_IF(!(eps > 0 && eps < 0.5), "eps must be in (0, 0.5)");
    double m = std::pow(double(m_levels), double(m_d));
    NS_ABORT_MSG_IF(m > 1e7, "Theta_M too large: " << m);
    m_m = static_cast<uint32_t>(m);
    m_trueIndex = 0;
    uint32_t radix = 1;
    for (uint32_t c = 0; c < m_d; ++c)
    {
        NS_ABORT_MSG_IF(m_thetaTrue[c] >= m_levels, "theta* level out of range");
        m_trueIndex += m_thetaTrue[c] * radix;
        radix *= m_levels;
    }
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_logLik1.push_back(LogLikelihood(i, 1));
        m_logLik0.push_back(LogLikelihood(i, 0));
        m_private.push_back(D2dDiscreteBelief::Uniform(m_m));
        m_coin.push_back(CreateObject<UniformRandomVariable>());
    }
    m_central = D2dDiscreteBelief::Uniform(m_m);
}

uint32_t
D2dCoordinateBeliefLearner::GetNDevices() const
{
    return m_n;
}

uint32_t
D2dCoordinateBeliefLearner::GetNValues() const
{
    return m_m;
}

uint32_t
D2dCoordinateBeliefLearner::GetM() const
{
    return m_m;
}

uint32_t
D2dCoordinateBeliefLearner::GetTrueIndex() const
{
    return m_trueIndex;
}

uint32_t
D2dCoordinateBeliefLearner::GetCoordinate(uint32_t i) const
{
    return i % m_d;
}

uint32_t
D2dCoordinateBeliefLearner::Level(uint32_t index, uint32_t c) const
{
    for (uint32_t k = 0; k < c; ++k)
    {
        index /= m_levels;
    }
    return index % m_levels;
}

double
D2dCoordinateBeliefLearner::CoinProbability(uint32_t level) const
{
    return m_eps + (1.0 - 2.0 * m_eps) * double(level) / double(m_levels - 1);
}

std::vector<double>
D2dCoordinateBeliefLearner::LogLikelihood(uint32_t i, uint32_t y) const
{
    const uint32_t c = GetCoordinate(i);
    std::vector<double> out(m_m);
    for (uint32_t t = 0; t < m_m; ++t)
    {
        const double p = CoinProbability(Level(t, c));
        out[t] = std::log(y ? p : 1.0 - p);
    }
    return out;
}

std::vector<double>
D2dCoordinateBeliefLearner::GetInitialPublic(uint32_t /*i*/) const
{
    return D2dDiscreteBelief::Uniform(m_m);
}

uint32_t
D2dCoordinateBeliefLearner::DrawLabel(uint32_t i)
{
    const double p = CoinProbability(m_thetaTrue[GetCoordinate(i)]);
    return m_coin[i]->GetValue() < p ? 1 : 0;
}

std::vector<double>
D2dCoordinateBeliefLearner::LocalUpdate(uint32_t i)
{
    const uint32_t y = DrawLabel(i);
    // Eq. (2) on the private belief of the previous step.
    return D2dDiscreteBelief::LocalUpdate(m_private[i], y ? m_logLik1[i] : m_logLik0[i]);
}

void
D2dCoordinateBeliefLearner::Consensus(uint32_t i,
                                      const std::vector<double>& weights,
                                      const std::vector<const std::vector<double>*>& beliefs)
{
    // Eq. (3).
    m_private[i] = D2dDiscreteBelief::Consensus(weights, beliefs);
}

void
D2dCoordinateBeliefLearner::CentralStep()
{
    // Every device's sample of the step, eq. (2) applied in turn (a product of likelihoods).
    for (uint32_t i = 0; i < m_n; ++i)
    {
        const uint32_t y = DrawLabel(i);
        m_central = D2dDiscreteBelief::LocalUpdate(m_central, y ? m_logLik1[i] : m_logLik0[i]);
    }
}

const std::vector<double>&
D2dCoordinateBeliefLearner::GetLogPrivate(int64_t node) const
{
    return node < 0 ? m_central : m_private.at(node);
}

uint32_t
D2dCoordinateBeliefLearner::GetEstimate(int64_t node) const
{
    return D2dDiscreteBelief::Argmax(GetLogPrivate(node));
}

std::string
D2dCoordinateBeliefLearner::GetBeliefsHeader() const
{
    return "estimate,belief_true,log_belief_true,error";
}

std::string
D2dCoordinateBeliefLearner::GetBeliefsRow(int64_t node) const
{
    const double logTrue = GetLogPrivate(node)[m_trueIndex];
    const uint32_t estimate = GetEstimate(node);
    return fmt::format("{},{},{},{}",
                       estimate,
                       std::exp(logTrue),
                       logTrue,
                       estimate == m_trueIndex ? 0 : 1);
}

std::vector<std::pair<std::string, double>>
D2dCoordinateBeliefLearner::GetMetrics(int64_t node) const
{
    return {{"error", GetEstimate(node) == m_trueIndex ? 0.0 : 1.0},
            {"belief_true", std::exp(GetLogPrivate(node)[m_trueIndex])}};
}

int64_t
D2dCoordinateBeliefLearner::AssignStreams(int64_t stream)
{
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_coin[i]->SetStream(stream + i);
    }
    return m_n;
}

double
D2dCoordinateBeliefLearner::GetC() const
{
    return (1.0 - m_eps) / m_eps;
}

double
D2dCoordinateBeliefLearner::ComputeK(const std::vector<double>& v) const
{
    NS_ABORT_MSG_IF(v.size() != m_n, "stationary distribution size");
    // KL(Bern(p*) || Bern(q)) per coordinate and level, then the v-weighted sum per psi.
    std::vector<double> weightOfCoordinate(m_d, 0.0);
    for (uint32_t j = 0; j < m_n; ++j)
    {
        weightOfCoordinate[GetCoordinate(j)] += v[j];
    }
    double k = std::numeric_limits<double>::infinity();
    for (uint32_t psi = 0; psi < m_m; ++psi)
    {
        if (psi == m_trueIndex)
        {
            continue;
        }
        double sum = 0;
        for (uint32_t c = 0; c < m_d; ++c)
        {
            const double p = CoinProbability(m_thetaTrue[c]);
            const double q = CoinProbability(Level(psi, c));
            const double kl = p * std::log(p / q) + (1 - p) * std::log((1 - p) / (1 - q));
            sum += weightOfCoordinate[c] * kl;
        }
        k = std::min(k, sum);
    }
    return k;
}

} // namespace ns3
