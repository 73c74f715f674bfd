/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-diversity-rewards.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

D2dDiversityRewards::Metric
D2dDiversityRewards::ParseMetric(const std::string& name)
{
    if (name == "w1")
    {
        return Metric::W1;
    }
    if (name == "js")
    {
        return Metric::JS;
    }
    throw std::invalid_argument("unknown diversity metric '" + name + "' (w1 | js)");
}

D2dFractionalCounts
D2dDiversityRewards::Normalise(const D2dFractionalCounts& counts)
{
    const double sum = std::accumulate(counts.begin(), counts.end(), 0.0);
    D2dFractionalCounts p(counts.size(), 0.0);
    if (sum > 0)
    {
        for (std::size_t l = 0; l < p.size(); ++l)
        {
            p[l] = counts[l] / sum;
        }
    }
    return p;
}

double
D2dDiversityRewards::Wasserstein1(const D2dFractionalCounts& p, const D2dFractionalCounts& q)
{
    const D2dFractionalCounts a = Normalise(p);
    const D2dFractionalCounts b = Normalise(q);
    double ca = 0;
    double cb = 0;
    double w = 0;
    for (std::size_t l = 0; l + 1 < a.size(); ++l)
    {
        ca += a[l];
        cb += b.at(l);
        w += std::fabs(ca - cb);
    }
    return w;
}

double
D2dDiversityRewards::JensenShannon(const D2dFractionalCounts& p, const D2dFractionalCounts& q)
{
    const D2dFractionalCounts a = Normalise(p);
    const D2dFractionalCounts b = Normalise(q);
    double jsd = 0;
    for (std::size_t l = 0; l < a.size(); ++l)
    {
        const double m = 0.5 * (a[l] + b.at(l));
        if (a[l] > 0)
        {
            jsd += 0.5 * a[l] * std::log2(a[l] / m);
        }
        if (b[l] > 0)
        {
            jsd += 0.5 * b[l] * std::log2(b[l] / m);
        }
    }
    return std::sqrt(std::max(0.0, jsd));
}

double
D2dDiversityRewards::Distance(Metric metric,
                              const D2dFractionalCounts& p,
                              const D2dFractionalCounts& q)
{
    return metric == Metric::W1 ? Wasserstein1(p, q) : JensenShannon(p, q);
}

double
D2dDiversityRewards::DistanceToUniform(const D2dFractionalCounts& counts)
{
    return Wasserstein1(counts, D2dFractionalCounts(counts.size(), 1.0));
}

uint32_t
D2dDiversityRewards::Satisfied(const D2dFractionalCounts& counts,
                               const D2dFractionalCounts& thresholds)
{
    uint32_t k = 0;
    for (std::size_t l = 0; l < counts.size(); ++l)
    {
        k += counts[l] >= thresholds.at(l) ? 1 : 0;
    }
    return k;
}

double
D2dDiversityRewards::Gain(Metric metric,
                          const D2dFractionalCounts& before,
                          const D2dFractionalCounts& after,
                          const D2dFractionalCounts& thresholdCounts,
                          const D2dFractionalCounts& thresholds,
                          uint32_t minLabels)
{
    if (Satisfied(thresholdCounts, thresholds) < minLabels)
    {
        return 0.0;
    }
    return Distance(metric, before, after);
}

double
D2dDiversityRewards::LocalReward(double gain, double pDrop, double alpha1, double alpha2)
{
    return alpha1 * gain - alpha2 * pDrop;
}

double
D2dDiversityRewards::GlobalReward(const std::vector<double>& memberRewards,
                                  uint32_t nDevices,
                                  double alpha3,
                                  double budget,
                                  double interClusterPoints)
{
    const double sum = std::accumulate(memberRewards.begin(), memberRewards.end(), 0.0);
    return sum / nDevices + alpha3 * (budget - interClusterPoints);
}

std::vector<uint32_t>
D2dDiversityRewards::Clusters(const std::vector<std::vector<double>>& pDrop, double alphaD)
{
    const std::size_t n = pDrop.size();
    std::vector<std::vector<uint32_t>> members;
    std::vector<uint32_t> cluster(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        bool placed = false;
        for (uint32_t k = 0; k < members.size() && !placed; ++k)
        {
            bool ok = true;
            for (uint32_t m : members[k])
            {
                ok = ok && pDrop[i].at(m) <= alphaD && pDrop[m].at(i) <= alphaD;
            }
            if (ok)
            {
                members[k].push_back(i);
                cluster[i] = k;
                placed = true;
            }
        }
        if (!placed)
        {
            cluster[i] = members.size();
            members.push_back({i});
        }
    }
    return cluster;
}

} // namespace ns3
