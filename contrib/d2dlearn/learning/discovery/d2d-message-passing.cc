/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-message-passing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

D2dFractionalCounts
D2dMessagePassing::Available(const std::vector<uint8_t>& trustRow,
                             const D2dFractionalCounts& countsJ,
                             const D2dFractionalCounts& thresholdsJ)
{
    D2dFractionalCounts v(countsJ.size(), 0.0);
    for (std::size_t l = 0; l < v.size(); ++l)
    {
        v[l] = trustRow.at(l) != 0 && countsJ[l] > thresholdsJ.at(l) ? 1.0 : 0.0;
    }
    return v;
}

D2dFractionalCounts
D2dMessagePassing::Request(const D2dFractionalCounts& available,
                           const D2dFractionalCounts& countsI,
                           const D2dFractionalCounts& thresholdsI)
{
    D2dFractionalCounts q(available.size(), 0.0);
    for (std::size_t l = 0; l < q.size(); ++l)
    {
        const double r = thresholdsI.at(l) - countsI.at(l);
        q[l] = r > 0 && available[l] == 1.0 ? r : 0.0;
    }
    return q;
}

std::vector<D2dFractionalCounts>
D2dMessagePassing::Allocate(const std::vector<D2dFractionalCounts>& requests,
                            const D2dFractionalCounts& countsJ,
                            const D2dFractionalCounts& thresholdsJ)
{
    std::vector<D2dFractionalCounts> u(requests.size(), D2dFractionalCounts(countsJ.size(), 0.0));
    for (std::size_t l = 0; l < countsJ.size(); ++l)
    {
        double demand = 0;
        for (const auto& q : requests)
        {
            demand += q.at(l);
        }
        const double spare = std::max(0.0, countsJ[l] - thresholdsJ.at(l));
        for (std::size_t k = 0; k < requests.size(); ++k)
        {
            const double q = requests[k][l];
            if (demand <= spare)
            {
                u[k][l] = q;
            }
            else if (demand > 0)
            {
                // Rounded down, with a tolerance for quotients such as 10 / 20 x 10 that are
                // integers but may come out a hair below.
                u[k][l] = std::floor(q / demand * spare + 1e-9);
            }
        }
    }
    return u;
}

D2dExchangeOutcome
D2dMessagePassing::Run(const D2dExchangeInstance& in)
{
    const std::size_t n = in.counts.size();
    if (in.thresholds.size() != n || in.selection.size() != n || in.pDrop.size() != n ||
        in.trust.GetNDevices() != n)
    {
        throw std::invalid_argument("D2dMessagePassing::Run: sizes of the instance disagree");
    }
    const std::size_t nl = n == 0 ? 0 : in.counts[0].size();
    D2dExchangeOutcome out;
    out.available.assign(n, D2dFractionalCounts(nl, 0.0));
    out.requested.assign(n, D2dFractionalCounts(nl, 0.0));
    out.allocated.assign(n, D2dFractionalCounts(nl, 0.0));
    out.sent.assign(n, D2dFractionalCounts(nl, 0.0));
    out.received.assign(n, D2dFractionalCounts(nl, 0.0));
    // Requesters of each transmitter, in receiver order.
    std::vector<std::vector<uint32_t>> requesters(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const int64_t j = in.selection[i];
        if (j < 0)
        {
            continue;
        }
        if (static_cast<std::size_t>(j) >= n || j == i)
        {
            throw std::invalid_argument("D2dMessagePassing::Run: selection of device " +
                                        std::to_string(i) + " is not another device");
        }
        requesters[j].push_back(i);
        out.available[i] = Available(in.trust.Row(j, i), in.counts[j], in.thresholds[j]);
        out.requested[i] = Request(out.available[i], in.counts[i], in.thresholds[i]);
    }
    for (uint32_t j = 0; j < n; ++j)
    {
        if (requesters[j].empty())
        {
            continue;
        }
        std::vector<D2dFractionalCounts> q;
        for (uint32_t i : requesters[j])
        {
            q.push_back(out.requested[i]);
        }
        const auto u = Allocate(q, in.counts[j], in.thresholds[j]);
        for (std::size_t k = 0; k < requesters[j].size(); ++k)
        {
            const uint32_t i = requesters[j][k];
            out.allocated[i] = u[k];
            for (std::size_t l = 0; l < nl; ++l)
            {
                out.sent[j][l] += u[k][l];
                out.received[i][l] = (1.0 - in.pDrop[i].at(j)) * u[k][l];
            }
        }
    }
    out.afterAllocated = in.counts;
    out.afterExpected = in.counts;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (std::size_t l = 0; l < nl; ++l)
        {
            out.afterAllocated[i][l] += out.allocated[i][l] - out.sent[i][l];
            out.afterExpected[i][l] += out.received[i][l] - out.sent[i][l];
        }
    }
    return out;
}

D2dFractionalCounts
D2dMessagePassing::Apportion(const D2dFractionalCounts& allocated, uint64_t received)
{
    double total = 0;
    for (double a : allocated)
    {
        total += a;
    }
    D2dFractionalCounts out(allocated.size(), 0.0);
    if (total <= 0)
    {
        return out;
    }
    const double k = std::min<double>(received, total);
    double given = 0;
    std::vector<std::pair<double, std::size_t>> rest;
    for (std::size_t l = 0; l < allocated.size(); ++l)
    {
        const double exact = allocated[l] * k / total;
        out[l] = std::floor(exact + 1e-9);
        given += out[l];
        rest.emplace_back(exact - out[l], l);
    }
    std::stable_sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) {
        return a.first > b.first;
    });
    for (std::size_t r = 0; given + 0.5 < k && r < rest.size(); ++r)
    {
        if (out[rest[r].second] < allocated[rest[r].second])
        {
            out[rest[r].second] += 1;
            given += 1;
        }
    }
    return out;
}

} // namespace ns3
