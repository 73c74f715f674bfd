/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-discrete-belief.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

std::vector<double>
D2dDiscreteBelief::Uniform(uint32_t m)
{
    NS_ABORT_MSG_IF(m == 0, "a belief needs at least one parameter");
    return std::vector<double>(m, -std::log(double(m)));
}

double
D2dDiscreteBelief::LogSumExp(const std::vector<double>& x)
{
    const double hi = *std::max_element(x.begin(), x.end());
    if (!std::isfinite(hi))
    {
        return hi;
    }
    double sum = 0;
    for (double v : x)
    {
        sum += std::exp(v - hi);
    }
    return hi + std::log(sum);
}

void
D2dDiscreteBelief::Normalize(std::vector<double>& logBelief)
{
    const double z = LogSumExp(logBelief);
    NS_ABORT_MSG_IF(!std::isfinite(z), "belief with no mass (log-sum-exp " << z << ")");
    for (auto& v : logBelief)
    {
        v -= z;
    }
}

std::vector<double>
D2dDiscreteBelief::LocalUpdate(const std::vector<double>& logPrivate,
                               const std::vector<double>& logLikelihood)
{
    // Eq. (2): b = l rho / sum(l rho), i.e. log b = log l + log rho - logsumexp(...).
    NS_ABORT_MSG_IF(logPrivate.size() != logLikelihood.size(), "belief and likelihood sizes");
    std::vector<double> out(logPrivate.size());
    for (std::size_t k = 0; k < out.size(); ++k)
    {
        out[k] = logLikelihood[k] + logPrivate[k];
    }
    Normalize(out);
    return out;
}

std::vector<double>
D2dDiscreteBelief::Consensus(const std::vector<double>& weights,
                             const std::vector<const std::vector<double>*>& logPublic)
{
    // Eq. (3): log rho = sum_j W_ij log b_j - logsumexp(sum_j W_ij log b_j).
    NS_ABORT_MSG_IF(weights.size() != logPublic.size() || weights.empty(),
                    "one public belief per weight");
    const std::size_t m = logPublic[0]->size();
    std::vector<double> out(m, 0.0);
    for (std::size_t j = 0; j < weights.size(); ++j)
    {
        NS_ABORT_MSG_IF(logPublic[j]->size() != m, "public beliefs of different sizes");
        if (weights[j] == 0)
        {
            continue; // 0 x log 0 counts as 0: a zero weight ignores the belief
        }
        for (std::size_t k = 0; k < m; ++k)
        {
            out[k] += weights[j] * (*logPublic[j])[k];
        }
    }
    Normalize(out);
    return out;
}

uint32_t
D2dDiscreteBelief::Argmax(const std::vector<double>& logBelief)
{
    return static_cast<uint32_t>(std::max_element(logBelief.begin(), logBelief.end()) -
                                 logBelief.begin());
}

} // namespace ns3
