/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-partitioner.h"

#include "d2d-data-errors.h"
#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPartitioner");

namespace
{

/** \return the pool, ascending (all samples if null), checked */
std::vector<std::size_t>
GetPool(const D2dDataset& data, const std::vector<std::size_t>* pool)
{
    std::vector<std::size_t> p;
    const std::size_t n = data.Size();
    if (pool == nullptr)
    {
        p.resize(n);
        std::iota(p.begin(), p.end(), std::size_t(0));
        return p;
    }
    p = *pool;
    std::sort(p.begin(), p.end());
    if (std::adjacent_find(p.begin(), p.end()) != p.end())
    {
        D2dDataErrors::Refuse("pool",
                              "holds an index twice (accepted: distinct indices < " +
                                  std::to_string(n) + ")");
    }
    if (!p.empty() && p.back() >= n)
    {
        D2dDataErrors::Refuse("pool",
                              "index " + std::to_string(p.back()) +
                                  " outside the accepted range [0, " + std::to_string(n) + ")");
    }
    return p;
}

void
CheckDevices(uint32_t nDevices, std::size_t poolSize)
{
    if (nDevices == 0 || nDevices > poolSize)
    {
        D2dDataErrors::Refuse("nDevices",
                              std::to_string(nDevices) + " is outside the accepted range [1, " +
                                  std::to_string(poolSize) + "] (1 .. samples available)");
    }
}

void
CheckClassification(const D2dDataset& data, const std::string& what)
{
    if (data.numClasses == 0)
    {
        D2dDataErrors::Refuse("data", what + " needs a classification data set (numClasses > 0)");
    }
}

/** \return the pool's indices of each class, in pool order */
std::vector<std::vector<std::size_t>>
ByClass(const D2dDataset& data, const std::vector<std::size_t>& pool)
{
    std::vector<std::vector<std::size_t>> byClass(data.numClasses);
    for (std::size_t i : pool)
    {
        byClass[static_cast<std::size_t>(data.labels[i])].push_back(i);
    }
    return byClass;
}

/** \brief Gives each empty shard one random sample of the then largest shard. */
void
FillEmpty(std::vector<D2dShard>& shards, D2dDataRng& rng)
{
    for (auto& s : shards)
    {
        if (!s.indices.empty())
        {
            continue;
        }
        auto largest = std::max_element(shards.begin(),
                                        shards.end(),
                                        [](const D2dShard& a, const D2dShard& b) {
                                            return a.indices.size() < b.indices.size();
                                        });
        auto& from = largest->indices;
        const std::size_t k = static_cast<std::size_t>(rng.Below(from.size()));
        s.indices.push_back(from[k]);
        from.erase(from.begin() + static_cast<std::ptrdiff_t>(k));
    }
}

void
SortShards(std::vector<D2dShard>& shards)
{
    for (auto& s : shards)
    {
        std::sort(s.indices.begin(), s.indices.end());
    }
}

/** \brief Deals consecutive blocks of `order` of the given sizes. */
std::vector<D2dShard>
Deal(const std::vector<std::size_t>& order, const std::vector<std::size_t>& sizes)
{
    std::vector<D2dShard> shards(sizes.size());
    std::size_t at = 0;
    for (std::size_t j = 0; j < sizes.size(); ++j)
    {
        shards[j].indices.assign(order.begin() + static_cast<std::ptrdiff_t>(at),
                                 order.begin() + static_cast<std::ptrdiff_t>(at + sizes[j]));
        at += sizes[j];
    }
    return shards;
}

/**
 * \return the share of each of a device's k labels, rank by rank: proportions, or k equal
 * shares if it is empty
 * \param proportions k values in [0, 1] summing to 1 (within 1e-6), or none
 * \param k labels per device
 * \throws std::invalid_argument (BadPartition) naming "proportions" otherwise
 */
std::vector<double>
CheckedProportions(const std::vector<double>& proportions, uint32_t k)
{
    std::vector<double> prop = proportions;
    if (prop.empty())
    {
        prop.assign(k, 1.0 / k);
    }
    if (prop.size() != k)
    {
        D2dDataErrors::Refuse("proportions",
                              "has " + std::to_string(prop.size()) + " values; accepted: k = " +
                                  std::to_string(k) + " values in [0, 1] summing to 1, or none");
    }
    double sum = 0;
    for (double x : prop)
    {
        if (!(x >= 0 && x <= 1))
        {
            D2dDataErrors::Refuse("proportions",
                                  D2dDataErrors::Number(x) +
                                      " is outside the accepted range [0, 1]");
        }
        sum += x;
    }
    if (std::fabs(sum - 1.0) > 1e-6)
    {
        D2dDataErrors::Refuse("proportions",
                              "sum to " + D2dDataErrors::Number(sum) +
                                  "; accepted: a sum of 1 (within 1e-6)");
    }
    return prop;
}

} // namespace

int64_t
D2dShard::LabelOf(const D2dDataset& data, std::size_t k) const
{
    const int64_t l = data.labels[indices[k]];
    return labelMap.empty() ? l : labelMap[static_cast<std::size_t>(l)];
}

std::vector<D2dShard>
D2dPartitioner::Iid(const D2dDataset& data,
                    uint32_t nDevices,
                    uint64_t seed,
                    const std::vector<std::size_t>* pool)
{
    NS_LOG_FUNCTION(nDevices << seed);
    auto p = GetPool(data, pool);
    CheckDevices(nDevices, p.size());
    D2dDataRng rng(seed, D2dDataRng::IID);
    rng.Shuffle(p);
    std::vector<std::size_t> sizes(nDevices, p.size() / nDevices);
    for (std::size_t j = 0; j < p.size() % nDevices; ++j)
    {
        ++sizes[j];
    }
    auto shards = Deal(p, sizes);
    SortShards(shards);
    return shards;
}

std::vector<D2dShard>
D2dPartitioner::Dirichlet(const D2dDataset& data,
                          uint32_t nDevices,
                          double alpha,
                          uint64_t seed,
                          const std::vector<std::size_t>* pool)
{
    NS_LOG_FUNCTION(nDevices << alpha << seed);
    CheckClassification(data, "Dirichlet");
    if (!(alpha > 0) || !std::isfinite(alpha))
    {
        D2dDataErrors::Refuse("alpha",
                              D2dDataErrors::Number(alpha) +
                                  " is outside the accepted range (0, inf)");
    }
    auto p = GetPool(data, pool);
    CheckDevices(nDevices, p.size());
    auto byClass = ByClass(data, p);
    D2dDataRng rng(seed, D2dDataRng::DIRICHLET);
    std::vector<D2dShard> shards(nDevices);
    for (auto& idx : byClass)
    {
        // Fan et al. 2023, sec. 5.2 (PFL-Non-IID): class shares over devices ~ Dir(alpha 1_N).
        rng.Shuffle(idx);
        const auto share = rng.Dirichlet(alpha, nDevices);
        const auto counts = D2dApportion(share, idx.size());
        std::size_t at = 0;
        for (uint32_t j = 0; j < nDevices; ++j)
        {
            shards[j].indices.insert(shards[j].indices.end(),
                                     idx.begin() + static_cast<std::ptrdiff_t>(at),
                                     idx.begin() + static_cast<std::ptrdiff_t>(at + counts[j]));
            at += counts[j];
        }
    }
    FillEmpty(shards, rng);
    SortShards(shards);
    return shards;
}

std::vector<D2dShard>
D2dPartitioner::LabelsPerDevice(const D2dDataset& data,
                                uint32_t nDevices,
                                uint32_t k,
                                const std::vector<double>& proportions,
                                uint64_t seed,
                                const std::vector<std::size_t>* pool)
{
    NS_LOG_FUNCTION(nDevices << k << seed);
    CheckClassification(data, "LabelsPerDevice");
    const uint32_t nc = data.numClasses;
    if (k == 0 || k > nc)
    {
        D2dDataErrors::Refuse("k",
                              std::to_string(k) + " is outside the accepted range [1, " +
                                  std::to_string(nc) + "] (1 .. numClasses)");
    }
    const std::vector<double> prop = CheckedProportions(proportions, k);
    auto p = GetPool(data, pool);
    CheckDevices(nDevices, p.size());
    auto byClass = ByClass(data, p);
    std::vector<uint32_t> present;
    for (uint32_t c = 0; c < nc; ++c)
    {
        if (!byClass[c].empty())
        {
            present.push_back(c);
        }
    }
    if (present.size() < k)
    {
        D2dDataErrors::Refuse("k",
                              std::to_string(k) + " exceeds the " + std::to_string(present.size()) +
                                  " classes present in the pool; accepted range [1, " +
                                  std::to_string(present.size()) + "]");
    }
    D2dDataRng rng(seed, D2dDataRng::LABELS_PER_DEVICE);
    for (auto& idx : byClass)
    {
        rng.Shuffle(idx);
    }
    // Wagle et al. 2025, App. C: k random labels per device; least-loaded choice keeps sizes equal.
    // Rank by rank (the large shares first), devices in a fresh random order.
    std::vector<double> load(nc, 0.0);
    std::vector<std::vector<uint32_t>> labelsOf(nDevices);
    std::vector<uint32_t> order(nDevices);
    for (uint32_t r = 0; r < k; ++r)
    {
        std::iota(order.begin(), order.end(), 0u);
        rng.Shuffle(order);
        for (uint32_t j : order)
        {
            double least = INFINITY;
            std::vector<uint32_t> cand;
            for (uint32_t c : present)
            {
                if (std::find(labelsOf[j].begin(), labelsOf[j].end(), c) != labelsOf[j].end())
                {
                    continue;
                }
                // Relative load: share demanded per sample the class has.
                const double rel = load[c] / double(byClass[c].size());
                if (rel < least - 1e-12)
                {
                    least = rel;
                    cand.clear();
                }
                if (rel <= least + 1e-12)
                {
                    cand.push_back(c);
                }
            }
            const uint32_t c = cand[rng.Below(cand.size())];
            labelsOf[j].push_back(c);
            load[c] += prop[r];
        }
    }
    // Largest equal size s the classes can supply.
    std::size_t s = p.size() / nDevices;
    for (uint32_t c : present)
    {
        if (load[c] > 0)
        {
            s = std::min(
                s,
                static_cast<std::size_t>(std::floor(double(byClass[c].size()) / load[c] + 1e-9)));
        }
    }
    std::vector<std::size_t> perRank;
    for (;; --s)
    {
        perRank = D2dApportion(prop, s);
        std::vector<std::size_t> demand(nc, 0);
        for (uint32_t j = 0; j < nDevices; ++j)
        {
            for (uint32_t r = 0; r < k; ++r)
            {
                demand[labelsOf[j][r]] += perRank[r];
            }
        }
        bool ok = true;
        for (uint32_t c = 0; c < nc; ++c)
        {
            ok = ok && demand[c] <= byClass[c].size();
        }
        if (ok)
        {
            break;
        }
    }
    if (s == 0)
    {
        D2dDataErrors::Refuse("nDevices",
                              std::to_string(nDevices) + " devices with " + std::to_string(k) +
                                  " labels each cannot all get samples from this pool; accepted "
                                  "range [1, " +
                                  std::to_string(p.size()) + "] with enough samples per class");
    }
    std::vector<std::size_t> taken(nc, 0);
    std::vector<D2dShard> shards(nDevices);
    for (uint32_t j = 0; j < nDevices; ++j)
    {
        for (uint32_t r = 0; r < k; ++r)
        {
            const uint32_t c = labelsOf[j][r];
            auto& idx = byClass[c];
            shards[j].indices.insert(shards[j].indices.end(),
                                     idx.begin() + static_cast<std::ptrdiff_t>(taken[c]),
                                     idx.begin() +
                                         static_cast<std::ptrdiff_t>(taken[c] + perRank[r]));
            taken[c] += perRank[r];
        }
    }
    SortShards(shards);
    return shards;
}

std::vector<D2dShard>
D2dPartitioner::QuantitySkew(const D2dDataset& data,
                             uint32_t nDevices,
                             double skew,
                             uint64_t seed,
                             const std::vector<std::size_t>* pool)
{
    NS_LOG_FUNCTION(nDevices << skew << seed);
    if (!(skew >= 0) || !std::isfinite(skew))
    {
        D2dDataErrors::Refuse("skew",
                              D2dDataErrors::Number(skew) +
                                  " is outside the accepted range [0, inf)");
    }
    auto p = GetPool(data, pool);
    CheckDevices(nDevices, p.size());
    D2dDataRng rng(seed, D2dDataRng::QUANTITY_SKEW);
    std::vector<uint32_t> rank(nDevices);
    std::iota(rank.begin(), rank.end(), 0u);
    rng.Shuffle(rank);
    std::vector<double> w(nDevices);
    for (uint32_t j = 0; j < nDevices; ++j)
    {
        // Zipf law: share of rank r proportional to (r + 1)^-skew.
        w[j] = std::pow(double(rank[j]) + 1.0, -skew);
    }
    auto sizes = D2dApportion(w, p.size());
    for (auto& sz : sizes)
    {
        if (sz == 0)
        {
            ++sz;
            --*std::max_element(sizes.begin(), sizes.end());
        }
    }
    rng.Shuffle(p);
    auto shards = Deal(p, sizes);
    SortShards(shards);
    return shards;
}

void
D2dPartitioner::FlipLabels(std::vector<D2dShard>& shards,
                           const std::vector<uint32_t>& devices,
                           uint32_t numClasses,
                           uint64_t seed,
                           D2dFlipMode mode)
{
    NS_LOG_FUNCTION(devices.size() << numClasses << seed);
    if (numClasses < 2)
    {
        D2dDataErrors::Refuse("numClasses",
                              std::to_string(numClasses) +
                                  " is outside the accepted range [2, inf)");
    }
    for (uint32_t d : devices)
    {
        if (d >= shards.size())
        {
            D2dDataErrors::Refuse("devices",
                                  "device " + std::to_string(d) +
                                      " is outside the accepted range [0, " +
                                      std::to_string(shards.size()) + ")");
        }
    }
    for (uint32_t d : devices)
    {
        std::vector<int64_t> perm(numClasses);
        std::iota(perm.begin(), perm.end(), int64_t(0));
        if (mode == D2dFlipMode::SHIFT)
        {
            for (uint32_t c = 0; c < numClasses; ++c)
            {
                perm[c] = (c + 1) % numClasses;
            }
        }
        else if (mode == D2dFlipMode::RANDOM_SHIFT)
        {
            D2dDataRng rng(seed, D2dDataRng::FLIP, d);
            const uint64_t k = 1 + rng.Below(numClasses - 1);
            for (uint32_t c = 0; c < numClasses; ++c)
            {
                perm[c] = static_cast<int64_t>((c + k) % numClasses);
            }
        }
        else
        {
            // Uniform derangement by rejection (accepts with probability ~1/e).
            D2dDataRng rng(seed, D2dDataRng::FLIP, d);
            bool fixedPoint = true;
            while (fixedPoint)
            {
                rng.Shuffle(perm);
                fixedPoint = false;
                for (uint32_t c = 0; c < numClasses; ++c)
                {
                    fixedPoint = fixedPoint || perm[c] == int64_t(c);
                }
            }
        }
        auto& map = shards[d].labelMap;
        if (map.empty())
        {
            map = perm;
        }
        else
        {
            if (map.size() != numClasses)
            {
                D2dDataErrors::Refuse("numClasses",
                                      std::to_string(numClasses) + " differs from device " +
                                          std::to_string(d) + "'s label map size " +
                                          std::to_string(map.size()));
            }
            for (auto& l : map)
            {
                l = perm[static_cast<std::size_t>(l)];
            }
        }
    }
}

std::vector<std::size_t>
D2dPartitioner::HoldOut(const D2dDataset& data,
                        std::size_t m,
                        uint64_t seed,
                        std::vector<std::size_t>* remaining,
                        const std::vector<std::size_t>* pool)
{
    NS_LOG_FUNCTION(m << seed);
    auto p = GetPool(data, pool);
    if (m > p.size())
    {
        D2dDataErrors::Refuse("m",
                              std::to_string(m) + " is outside the accepted range [0, " +
                                  std::to_string(p.size()) + "] (0 .. samples available)");
    }
    D2dDataRng rng(seed, D2dDataRng::HOLD_OUT);
    std::vector<std::size_t> held;
    if (data.numClasses == 0)
    {
        auto order = p;
        rng.Shuffle(order);
        held.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(m));
    }
    else
    {
        // Fan et al. 2023, App. G.1: X* with each class equally represented (water-filling when a
        // class has fewer samples than its share; remainders to random classes).
        auto byClass = ByClass(data, p);
        const std::size_t nc = byClass.size();
        std::vector<std::size_t> classOrder(nc);
        std::iota(classOrder.begin(), classOrder.end(), std::size_t(0));
        rng.Shuffle(classOrder);
        std::vector<std::size_t> count(nc, 0);
        std::size_t left = m;
        while (left > 0)
        {
            std::vector<double> w(nc, 0.0);
            for (std::size_t r = 0; r < nc; ++r)
            {
                const std::size_t c = classOrder[r];
                w[r] = count[c] < byClass[c].size() ? 1.0 : 0.0;
            }
            const auto add = D2dApportion(w, left);
            for (std::size_t r = 0; r < nc; ++r)
            {
                const std::size_t c = classOrder[r];
                const std::size_t take = std::min(add[r], byClass[c].size() - count[c]);
                count[c] += take;
                left -= take;
            }
        }
        for (std::size_t c = 0; c < nc; ++c)
        {
            rng.Shuffle(byClass[c]);
            held.insert(held.end(),
                        byClass[c].begin(),
                        byClass[c].begin() + static_cast<std::ptrdiff_t>(count[c]));
        }
    }
    std::sort(held.begin(), held.end());
    if (remaining != nullptr)
    {
        remaining->clear();
        std::set_difference(p.begin(),
                            p.end(),
                            held.begin(),
                            held.end(),
                            std::back_inserter(*remaining));
    }
    return held;
}

} // namespace ns3
