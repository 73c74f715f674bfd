/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-gcn-link-scorer.h"

#include "d2d-best-links.h"
#include "d2d-gcn-modules.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <torch/optim/adam.h>

namespace ns3
{

torch::Tensor
D2dGcnNormalisedAdjacency(const std::vector<std::vector<double>>& adjacency)
{
    const int64_t n = adjacency.size();
    auto a = torch::zeros({n, n}, torch::kDouble);
    auto acc = a.accessor<double, 2>();
    for (int64_t i = 0; i < n; ++i)
    {
        if (static_cast<int64_t>(adjacency[i].size()) != n)
        {
            throw std::invalid_argument("GCN: the adjacency must be n x n");
        }
        for (int64_t j = 0; j < n; ++j)
        {
            acc[i][j] = adjacency[i][j] + (i == j ? 1.0 : 0.0);
        }
    }
    const auto dInvSqrt = a.sum(1).pow(-0.5);
    return dInvSqrt.unsqueeze(1) * a * dInvSqrt.unsqueeze(0);
}

D2dGraphConvImpl::D2dGraphConvImpl(int64_t in, int64_t out)
{
    weight = register_parameter("weight", torch::zeros({in, out}, torch::kDouble));
    bias = register_parameter("bias", torch::zeros({out}, torch::kDouble));
}

torch::Tensor
D2dGraphConvImpl::forward(const torch::Tensor& x, const torch::Tensor& aHat)
{
    return aHat.matmul(x.matmul(weight)) + bias;
}

D2dGcnNetImpl::D2dGcnNetImpl(int64_t in)
{
    conv1 = register_module("conv1", D2dGraphConv(in, 64));
    conv2 = register_module("conv2", D2dGraphConv(64, 16));
    dec1 = register_module("dec1", torch::nn::Linear(32, 16));
    dec2 = register_module("dec2", torch::nn::Linear(16, 1));
    dec1->to(torch::kDouble);
    dec2->to(torch::kDouble);
}

torch::Tensor
D2dGcnNetImpl::forward(const torch::Tensor& x, const torch::Tensor& aHat)
{
    auto z = torch::relu(conv1->forward(x, aHat));
    z = torch::relu(conv2->forward(z, aHat));
    const int64_t n = z.size(0);
    // pair[i][j] = [z_i, z_j]: receiver first.
    const auto zi = z.unsqueeze(1).expand({n, n, z.size(1)});
    const auto zj = z.unsqueeze(0).expand({n, n, z.size(1)});
    auto h = torch::relu(dec1->forward(torch::cat({zi, zj}, 2)));
    return dec2->forward(h).squeeze(2);
}

void
D2dGcnNetImpl::Initialize(at::Generator& generator)
{
    torch::NoGradGuard noGrad;
    auto draw = [&](torch::Tensor& w, torch::Tensor& b, double fanIn) {
        const double bound = 1.0 / std::sqrt(fanIn);
        w.uniform_(-bound, bound, generator);
        b.uniform_(-bound, bound, generator);
    };
    draw(conv1->weight, conv1->bias, conv1->weight.size(0));
    draw(conv2->weight, conv2->bias, conv2->weight.size(0));
    draw(dec1->weight, dec1->bias, dec1->weight.size(1));
    draw(dec2->weight, dec2->bias, dec2->weight.size(1));
}

namespace
{
/** \return rows as a [rows, cols] float64 tensor */
torch::Tensor
ToTensor(const std::vector<std::vector<double>>& rows, int64_t cols, const char* what)
{
    auto t = torch::zeros({static_cast<int64_t>(rows.size()), cols}, torch::kDouble);
    auto acc = t.accessor<double, 2>();
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        if (static_cast<int64_t>(rows[i].size()) != cols)
        {
            throw std::invalid_argument(std::string("GCN: every row of the ") + what +
                                        " must have " + std::to_string(cols) + " values");
        }
        for (int64_t j = 0; j < cols; ++j)
        {
            acc[i][j] = rows[i][j];
        }
    }
    return t;
}
} // namespace

struct D2dGcnLinkScorer::Impl
{
    /** One system as tensors. */
    struct Prepared
    {
        torch::Tensor x;      //!< [n, F]
        torch::Tensor aHat;   //!< [n, n]
        torch::Tensor target; //!< [n, n], 0/1
        torch::Tensor mask;   //!< [n, n], 1 off the diagonal
    };

    int64_t inFeatures{0};
    mutable D2dGcnNet net{nullptr}; // forward() is not const in LibTorch

    Prepared Prepare(const System& s) const
    {
        const int64_t n = s.features.size();
        if (n < 2 || static_cast<int64_t>(s.adjacency.size()) != n ||
            static_cast<int64_t>(s.best.size()) != n)
        {
            throw std::invalid_argument("GCN: a training system needs n >= 2 nodes with "
                                        "features, adjacency rows and best links for each");
        }
        Prepared p;
        p.x = ToTensor(s.features, inFeatures, "features");
        p.aHat = D2dGcnNormalisedAdjacency(s.adjacency);
        p.target = torch::zeros({n, n}, torch::kDouble);
        auto acc = p.target.accessor<double, 2>();
        for (int64_t i = 0; i < n; ++i)
        {
            if (s.best[i] >= n || s.best[i] == i)
            {
                throw std::invalid_argument("GCN: a best link must be another node of the system");
            }
            if (s.best[i] >= 0)
            {
                acc[i][s.best[i]] = 1.0;
            }
        }
        p.mask = torch::ones({n, n}, torch::kDouble) - torch::eye(n, torch::kDouble);
        return p;
    }

    torch::Tensor LossOf(const Prepared& p) const
    {
        const auto logits = net->forward(p.x, p.aHat);
        const auto bce =
            torch::binary_cross_entropy_with_logits(logits, p.target, {}, {}, at::Reduction::None);
        return (bce * p.mask).sum() / p.mask.sum();
    }
};

D2dGcnLinkScorer::D2dGcnLinkScorer(uint32_t inFeatures, uint64_t seed)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->inFeatures = inFeatures;
    m_impl->net = D2dGcnNet(static_cast<int64_t>(inFeatures));
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    m_impl->net->Initialize(generator);
}

D2dGcnLinkScorer::~D2dGcnLinkScorer() = default;

double
D2dGcnLinkScorer::Loss(const std::vector<System>& systems) const
{
    torch::NoGradGuard noGrad;
    double sum = 0;
    for (const auto& s : systems)
    {
        sum += m_impl->LossOf(m_impl->Prepare(s)).item<double>();
    }
    return systems.empty() ? 0.0 : sum / systems.size();
}

std::vector<double>
D2dGcnLinkScorer::Train(const std::vector<System>& systems,
                        uint32_t epochs,
                        double learningRate,
                        double weightDecay)
{
    std::vector<Impl::Prepared> prepared;
    for (const auto& s : systems)
    {
        prepared.push_back(m_impl->Prepare(s));
    }
    auto mean = [&]() {
        torch::NoGradGuard noGrad;
        double sum = 0;
        for (const auto& p : prepared)
        {
            sum += m_impl->LossOf(p).item<double>();
        }
        return prepared.empty() ? 0.0 : sum / prepared.size();
    };
    std::vector<double> losses{mean()};
    torch::optim::Adam adam(m_impl->net->parameters(),
                            torch::optim::AdamOptions(learningRate).weight_decay(weightDecay));
    for (uint32_t e = 0; e < epochs; ++e)
    {
        for (const auto& p : prepared)
        {
            adam.zero_grad();
            m_impl->LossOf(p).backward();
            adam.step();
        }
        losses.push_back(mean());
    }
    return losses;
}

std::vector<std::vector<double>>
D2dGcnLinkScorer::Score(const std::vector<std::vector<double>>& features,
                        const std::vector<std::vector<double>>& adjacency) const
{
    torch::NoGradGuard noGrad;
    const int64_t n = features.size();
    if (static_cast<int64_t>(adjacency.size()) != n)
    {
        throw std::invalid_argument("GCN: features and adjacency disagree on n");
    }
    const auto logits = m_impl->net
                            ->forward(ToTensor(features, m_impl->inFeatures, "features"),
                                      D2dGcnNormalisedAdjacency(adjacency))
                            .contiguous();
    auto acc = logits.accessor<double, 2>();
    std::vector<std::vector<double>> out(n, std::vector<double>(n, 0.0));
    for (int64_t i = 0; i < n; ++i)
    {
        for (int64_t j = 0; j < n; ++j)
        {
            out[i][j] = i == j ? -std::numeric_limits<double>::infinity() : acc[i][j];
        }
    }
    return out;
}

D2dGcnLinkScorer::System
D2dGcnLinkScorer::MakeSystem(const std::vector<std::vector<double>>& rssDbm,
                             const std::vector<std::vector<double>>& pDrop,
                             const std::vector<std::vector<double>>& counts,
                             const std::vector<uint32_t>& members,
                             const std::vector<int64_t>& best)
{
    const uint32_t n = rssDbm.size();
    const uint32_t m = members.size();
    std::vector<int64_t> position(n, -1);
    for (uint32_t k = 0; k < m; ++k)
    {
        position.at(members[k]) = k;
    }
    System s;
    for (uint32_t k = 0; k < m; ++k)
    {
        const uint32_t d = members[k];
        std::vector<double> f(n, 0.0);
        for (uint32_t j = 0; j < n; ++j)
        {
            if (j != d && position[j] >= 0)
            {
                f[j] = rssDbm[d][j] / 100.0;
            }
        }
        double total = 0;
        for (double c : counts.at(d))
        {
            total += c;
        }
        for (double c : counts[d])
        {
            f.push_back(total > 0 ? c / total : 0.0);
        }
        s.features.push_back(std::move(f));
        std::vector<double> a(m, 0.0);
        for (uint32_t q = 0; q < m; ++q)
        {
            if (q != k)
            {
                a[q] = 1.0 - 0.5 * (pDrop[d][members[q]] + pDrop[members[q]][d]);
            }
        }
        s.adjacency.push_back(std::move(a));
        const int64_t b = best.at(d);
        s.best.push_back(b >= 0 ? position.at(b) : -1);
    }
    return s;
}

D2dGcnLinkScorer::Result
D2dGcnLinkScorer::Run(const D2dDiscoveryParadigm& paradigm,
                      const std::vector<std::vector<double>>& rssDbm,
                      const std::vector<std::vector<double>>& pDrop,
                      const Options& options)
{
    const uint32_t n = paradigm.GetNDevices();
    const uint32_t nl = paradigm.GetNPartitions();
    if (rssDbm.size() != n || pDrop.size() != n)
    {
        throw std::invalid_argument("GCN: the RSS and P_D matrices must be N x N");
    }
    std::vector<std::vector<double>> counts;
    for (uint32_t i = 0; i < n; ++i)
    {
        counts.push_back(paradigm.GetCounts(i));
    }
    const uint32_t size = std::min(options.systemDevices, n);
    const uint32_t systems = size == n ? 1 : options.systems;
    std::mt19937_64 rng(options.seed);
    std::vector<System> train;
    for (uint32_t s = 0; s < systems; ++s)
    {
        // A uniform size-subset: partial Fisher-Yates (the modulo bias is negligible).
        std::vector<uint32_t> all(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            all[i] = i;
        }
        for (uint32_t k = 0; k < size && size < n; ++k)
        {
            std::swap(all[k], all[k + rng() % (n - k)]);
        }
        std::vector<uint32_t> members(all.begin(), all.begin() + size);
        std::sort(members.begin(), members.end());
        const auto best = D2dBestLinks::Find(paradigm,
                                             pDrop,
                                             members,
                                             std::min(options.subsetSize, size),
                                             options.alpha1,
                                             options.alpha2);
        train.push_back(MakeSystem(rssDbm, pDrop, counts, members, best));
    }
    D2dGcnLinkScorer scorer(n + nl, options.seed);
    Result r;
    r.systems = systems;
    r.losses = scorer.Train(train, options.epochs, options.learningRate, options.weightDecay);
    uint32_t agree = 0;
    uint32_t receivers = 0;
    for (const auto& s : train)
    {
        const auto sc = scorer.Score(s.features, s.adjacency);
        for (std::size_t i = 0; i < s.best.size(); ++i)
        {
            if (s.best[i] < 0)
            {
                continue;
            }
            ++receivers;
            agree += std::max_element(sc[i].begin(), sc[i].end()) - sc[i].begin() == s.best[i];
        }
    }
    r.bestLinkAgreement = receivers ? static_cast<double>(agree) / receivers : 0.0;
    const auto whole = [&]() {
        std::vector<uint32_t> everyone(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            everyone[i] = i;
        }
        return MakeSystem(rssDbm, pDrop, counts, everyone, std::vector<int64_t>(n, -1));
    }();
    r.scores = scorer.Score(whole.features, whole.adjacency);
    return r;
}

} // namespace ns3
