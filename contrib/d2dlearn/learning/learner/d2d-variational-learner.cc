/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-variational-learner.h"

#include "d2d-net.h"
#include "d2d-torch-runtime.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/conv.h>
#include <torch/nn/functional/linear.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/pooling.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/pooling.h>
#include <torch/optim/adam.h>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dVariationalLearner);

TypeId
D2dVariationalLearner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dVariationalLearner").SetParent<D2dBeliefLearner>().SetGroupName("D2dlearn");
    return tid;
}

NS_LOG_COMPONENT_DEFINE("D2dVariationalLearner");

namespace
{

namespace F = torch::nn::functional;

/** \return a generator seeded by (seed, id) mixed by splitmix64, as D2dLearner's */
at::Generator
MakeGenerator(uint64_t seed, uint64_t id)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (id + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return at::make_generator<at::CPUGeneratorImpl>(z);
}

/** One layer of the functional forward pass. */
struct Op
{
    enum Kind
    {
        LINEAR,
        CONV,
        RELU,
        POOL,
        FLATTEN
    } kind;

    std::size_t weight{0}; //!< index of the weight among the parameters (LINEAR, CONV)
};

/**
 * \brief KL(q || p) of diagonal Gaussians, summed over all weights (the closed form in
 * D2dVariationalLearner::KlTerm).
 * \param mu means of q
 * \param rho rho of q (sigma = softplus(rho))
 * \param lambda precisions of p
 * \param eta lambda x mean of p
 * \return the KL divergence (a scalar tensor)
 */
torch::Tensor
Kl(const std::vector<torch::Tensor>& mu,
   const std::vector<torch::Tensor>& rho,
   const std::vector<torch::Tensor>& lambda,
   const std::vector<torch::Tensor>& eta)
{
    auto kl = torch::zeros({}, torch::kFloat);
    for (std::size_t l = 0; l < mu.size(); ++l)
    {
        const auto sigma = F::softplus(rho[l]);
        const auto var = sigma * sigma;
        const auto diff = mu[l] - eta[l] / lambda[l];
        kl = kl +
             0.5 * (lambda[l] * var + lambda[l] * diff * diff - 1.0 - torch::log(lambda[l] * var))
                       .sum();
    }
    return kl;
}

/** \return rho with softplus(rho) = sigma (stable for small sigma) */
torch::Tensor
SoftplusInverse(const torch::Tensor& sigma)
{
    return sigma + torch::log(-torch::expm1(-sigma));
}

} // namespace

/** A device's (or the central learner's) LibTorch state. */
struct VariationalDevice
{
    uint32_t id{0};
    at::Generator generator;
    torch::Tensor shard;   //!< sample indices into the training set, int64 [n]
    torch::Tensor targets; //!< labels, int64 [n]
    int64_t n{0};
    int64_t batch{0};                  //!< samples per mini-batch
    std::vector<torch::Tensor> lambda; //!< private belief: precisions, per parameter
    std::vector<torch::Tensor> eta;    //!< private belief: lambda x mean
    bool first{true};                  //!< no consensus yet: q starts at the common weights
    torch::Tensor perm;                //!< the running permutation of the shard
    int64_t permPos{0};
    std::shared_future<void> job;
    std::vector<double> result; //!< the job's q in natural parameters (worker side)
    double resultLoss{0};       //!< the job's mean free energy per sample (worker side)
    double lastLoss{0};         //!< the last completed update's (event side)

    /**
     * \return the next min(batch, n) samples of the running permutation of the shard (a new
     *         permutation, drawn from generator, whenever one is used up)
     */
    torch::Tensor NextBatch()
    {
        std::vector<torch::Tensor> parts;
        int64_t need = batch;
        while (need > 0)
        {
            if (!perm.defined() || permPos >= n)
            {
                perm = torch::randperm(n, generator, torch::kLong);
                permPos = 0;
            }
            const int64_t take = std::min(need, n - permPos);
            parts.push_back(perm.slice(0, permPos, permPos + take));
            permPos += take;
            need -= take;
        }
        return parts.size() == 1 ? parts[0] : torch::cat(parts);
    }
};

/** The shared LibTorch state. */
struct D2dVariationalLearner::Impl
{
    D2dNet net{nullptr}; //!< the architecture (ops, shapes, FLOPs)
    std::vector<Op> ops;
    std::vector<std::vector<int64_t>> shapes; //!< parameter shapes
    std::vector<int64_t> numels;
    int64_t p{0};                    //!< parameter count
    std::vector<torch::Tensor> init; //!< the common initial weights
    torch::Tensor features;          //!< the training set, [N, shape...] (no copy)
    torch::Tensor testFeatures;      //!< the test set
    torch::Tensor testLabels;        //!< int64
    std::shared_ptr<const D2dDataset> train;
    std::shared_ptr<const D2dDataset> test;
    std::vector<std::shared_ptr<VariationalDevice>> devices;
    std::shared_ptr<VariationalDevice> central;

    /**
     * \param w weights, one tensor per parameter
     * \param x a batch
     * \return logits
     */
    torch::Tensor Forward(const std::vector<torch::Tensor>& w, torch::Tensor x) const
    {
        for (const auto& op : ops)
        {
            switch (op.kind)
            {
            case Op::LINEAR:
                x = F::linear(x, w[op.weight], w[op.weight + 1]);
                break;
            case Op::CONV:
                x = F::conv2d(x,
                              w[op.weight],
                              F::Conv2dFuncOptions().bias(w[op.weight + 1]).padding(2));
                break;
            case Op::RELU:
                x = torch::relu(x);
                break;
            case Op::POOL:
                x = F::max_pool2d(x, F::MaxPool2dFuncOptions(2));
                break;
            case Op::FLATTEN:
                x = x.flatten(1);
                break;
            }
        }
        return x;
    }

    /** \param flat 2P values (lambda, eta) \param d device whose private belief is set */
    void SetPrivate(VariationalDevice& d, const std::vector<double>& flat) const
    {
        d.lambda.clear();
        d.eta.clear();
        int64_t offset = 0;
        for (std::size_t l = 0; l < shapes.size(); ++l)
        {
            auto lam = torch::empty(shapes[l], torch::kFloat);
            auto et = torch::empty(shapes[l], torch::kFloat);
            float* pl = lam.data_ptr<float>();
            float* pe = et.data_ptr<float>();
            for (int64_t k = 0; k < numels[l]; ++k)
            {
                pl[k] = static_cast<float>(flat[offset + k]);
                pe[k] = static_cast<float>(flat[p + offset + k]);
            }
            d.lambda.push_back(lam);
            d.eta.push_back(et);
            offset += numels[l];
        }
    }

    /** \return the prior's natural parameters: lambda = 1 / priorVariance, eta = 0 */
    std::vector<double> Prior(double priorVariance) const
    {
        std::vector<double> v(2 * p, 0.0);
        std::fill(v.begin(), v.begin() + p, 1.0 / priorVariance);
        return v;
    }

    /** \param d device \return the private belief's mean, per parameter */
    std::vector<torch::Tensor> Mean(const VariationalDevice& d) const
    {
        std::vector<torch::Tensor> m;
        for (std::size_t l = 0; l < d.lambda.size(); ++l)
        {
            m.push_back(d.eta[l] / d.lambda[l]);
        }
        return m;
    }
};

namespace
{

/** What an update job needs, snapshot at its start. */
struct UpdateJob
{
    D2dVariationalConfig config;
    std::vector<torch::Tensor> lambda; //!< the prior rho_i^(k-1)
    std::vector<torch::Tensor> eta;
    bool first{false};
};

/**
 * \brief The local update: Bayes by backprop on the free energy of eq. (5) with the
 * private belief as prior; writes q's natural parameters into d.result.
 */
void
RunUpdate(const D2dVariationalLearner::Impl& s, VariationalDevice& d, const UpdateJob& job)
{
    const auto& c = job.config;
    std::vector<torch::Tensor> mu;
    std::vector<torch::Tensor> rho;
    {
        torch::NoGradGuard noGrad;
        for (std::size_t l = 0; l < s.shapes.size(); ++l)
        {
            torch::Tensor m;
            torch::Tensor sigma;
            if (job.first)
            {
                m = s.init[l].clone();
                const double s0 = c.initialSigma > 0 ? c.initialSigma : std::sqrt(c.priorVariance);
                sigma = torch::full(s.shapes[l], s0, torch::kFloat);
            }
            else
            {
                m = job.eta[l] / job.lambda[l];
                sigma = torch::rsqrt(job.lambda[l]);
            }
            mu.push_back(m.detach().clone().set_requires_grad(true));
            rho.push_back(SoftplusInverse(sigma).detach().clone().set_requires_grad(true));
        }
    }
    std::vector<torch::Tensor> params = mu;
    params.insert(params.end(), rho.begin(), rho.end());
    torch::optim::Adam opt(params, torch::optim::AdamOptions(c.learningRate));
    const double n = static_cast<double>(d.n);
    double lossSum = 0;
    for (uint32_t step = 0; step < c.localSteps; ++step)
    {
        const auto order = d.NextBatch();
        const auto x = s.features.index_select(0, d.shard.index_select(0, order));
        const auto y = d.targets.index_select(0, order);
        opt.zero_grad();
        auto nll = torch::zeros({}, torch::kFloat);
        for (uint32_t m = 0; m < c.mcSamples; ++m)
        {
            std::vector<torch::Tensor> w;
            for (std::size_t l = 0; l < mu.size(); ++l)
            {
                const auto eps = torch::randn(s.shapes[l], d.generator, torch::kFloat);
                w.push_back(mu[l] + F::softplus(rho[l]) * eps); // reparameterised draw
            }
            nll = nll + F::cross_entropy(s.Forward(w, x), y);
        }
        nll = nll / static_cast<double>(c.mcSamples);
        // Eq. (5) divided by n: E_q[NLL of the local data] / n + KL(q || rho_i) / n.
        auto loss = nll + Kl(mu, rho, job.lambda, job.eta) / n;
        lossSum += loss.item<double>();
        loss.backward();
        opt.step();
    }
    torch::NoGradGuard noGrad;
    d.result.assign(2 * s.p, 0.0);
    int64_t offset = 0;
    for (std::size_t l = 0; l < mu.size(); ++l)
    {
        const auto sigma = F::softplus(rho[l]).to(torch::kDouble).contiguous();
        const auto lam = (1.0 / (sigma * sigma)).contiguous();
        const auto et = (lam * mu[l].to(torch::kDouble)).contiguous();
        std::copy_n(lam.data_ptr<double>(), s.numels[l], d.result.begin() + offset);
        std::copy_n(et.data_ptr<double>(), s.numels[l], d.result.begin() + s.p + offset);
        offset += s.numels[l];
    }
    d.resultLoss = c.localSteps > 0 ? lossSum / c.localSteps : 0.0;
}

/** \return a device with the samples of shard */
std::shared_ptr<VariationalDevice>
MakeDevice(uint32_t id,
           const D2dDataset& train,
           const std::vector<std::size_t>& indices,
           const std::vector<int64_t>& labelMap,
           uint64_t seed,
           int64_t batch)
{
    auto d = std::make_shared<VariationalDevice>();
    d->id = id;
    d->generator = MakeGenerator(seed, id);
    std::vector<int64_t> idx(indices.begin(), indices.end());
    std::vector<int64_t> y;
    y.reserve(idx.size());
    for (auto i : idx)
    {
        const int64_t label = train.labels[static_cast<std::size_t>(i)];
        y.push_back(labelMap.empty() ? label : labelMap[static_cast<std::size_t>(label)]);
    }
    d->shard = torch::tensor(idx, torch::kLong);
    d->targets = torch::tensor(y, torch::kLong);
    d->n = static_cast<int64_t>(idx.size());
    d->batch = std::min<int64_t>(batch, d->n);
    return d;
}

} // namespace

D2dVariationalLearner::D2dVariationalLearner(const D2dVariationalConfig& config,
                                             std::shared_ptr<const D2dDataset> train,
                                             const std::vector<D2dShard>& shards,
                                             std::shared_ptr<const D2dDataset> test,
                                             uint64_t seed)
    : m_config(config),
      m_n(static_cast<uint32_t>(shards.size())),
      m_impl(std::make_shared<Impl>())
{
    NS_LOG_FUNCTION(this << m_n);
    NS_ABORT_MSG_IF(!train || !test || m_n == 0, "D2dVariationalLearner: data and shards");
    NS_ABORT_MSG_IF(!train->IsClassification(), "D2dVariationalLearner: classification only");
    NS_ABORT_MSG_IF(config.spec.arch == "linear", "D2dVariationalLearner: classification only");
    NS_ABORT_MSG_IF(config.localSteps == 0 || config.batchSize == 0 || config.mcSamples == 0 ||
                        !(config.priorVariance > 0) || !(config.learningRate > 0),
                    "D2dVariationalLearner: localSteps, batchSize, mcSamples, priorVariance "
                    "and learningRate must be > 0");
    auto& s = *m_impl;
    s.train = train;
    s.test = test;
    s.net = D2dNet(config.spec, train->featureShape, train->numClasses);
    // The common initial weights: one generator of the run seed, not of a device.
    auto common = MakeGenerator(seed, 0xFFFFFFFFULL);
    s.net->Initialize(common);
    std::size_t param = 0;
    for (const auto& module : s.net->layers->children())
    {
        if (module->as<torch::nn::Linear>())
        {
            s.ops.push_back({Op::LINEAR, param});
            param += 2;
        }
        else if (module->as<torch::nn::Conv2d>())
        {
            s.ops.push_back({Op::CONV, param});
            param += 2;
        }
        else if (module->as<torch::nn::ReLU>())
        {
            s.ops.push_back({Op::RELU});
        }
        else if (module->as<torch::nn::MaxPool2d>())
        {
            s.ops.push_back({Op::POOL});
        }
        else if (module->as<torch::nn::Flatten>())
        {
            s.ops.push_back({Op::FLATTEN});
        }
        else
        {
            NS_FATAL_ERROR("D2dVariationalLearner: unsupported layer " << module->name());
        }
    }
    for (const auto& t : s.net->parameters())
    {
        s.shapes.push_back(t.sizes().vec());
        s.numels.push_back(t.numel());
        s.p += t.numel();
        s.init.push_back(t.detach().clone());
    }
    NS_ABORT_MSG_IF(param != s.shapes.size(), "D2dVariationalLearner: layers without bias");
    s.features = D2dFeaturesOf(*train);
    s.testFeatures = D2dFeaturesOf(*test);
    s.testLabels = torch::tensor(test->labels, torch::kLong);
    const auto prior = s.Prior(config.priorVariance);
    std::vector<std::size_t> all;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        NS_ABORT_MSG_IF(shards[i].indices.empty(),
                        "D2dVariationalLearner: device " << i << " has no samples");
        NS_ABORT_MSG_IF(!shards[i].labelMap.empty(),
                        "D2dVariationalLearner: label maps (flipped labels) are not supported");
        s.devices.push_back(MakeDevice(i, *train, shards[i].indices, {}, seed, config.batchSize));
        s.SetPrivate(*s.devices.back(), prior);
        all.insert(all.end(), shards[i].indices.begin(), shards[i].indices.end());
    }
    std::sort(all.begin(), all.end());
    s.central =
        MakeDevice(m_n, *train, all, {}, seed, static_cast<int64_t>(config.batchSize) * m_n);
    s.SetPrivate(*s.central, prior);
    m_compute.assign(m_n, nullptr);
    m_done.resize(m_n);
    m_training.assign(m_n, false);
}

D2dVariationalLearner::~D2dVariationalLearner()
{
    for (auto& d : m_impl->devices)
    {
        if (d->job.valid())
        {
            d->job.wait(); // a worker may still run it (device depleted mid-job)
        }
    }
}

void
D2dVariationalLearner::SetComputeModels(const std::vector<Ptr<D2dComputeModel>>& compute)
{
    m_compute.assign(m_n, nullptr);
    for (std::size_t i = 0; i < compute.size() && i < m_n; ++i)
    {
        m_compute[i] = compute[i];
    }
}

uint32_t
D2dVariationalLearner::GetNDevices() const
{
    return m_n;
}

uint32_t
D2dVariationalLearner::GetNValues() const
{
    return static_cast<uint32_t>(2 * m_impl->p);
}

std::vector<double>
D2dVariationalLearner::GetInitialPublic(uint32_t /*i*/) const
{
    return m_impl->Prior(m_config.priorVariance);
}

uint64_t
D2dVariationalLearner::GetBytesPerValue() const
{
    return 4;
}

uint64_t
D2dVariationalLearner::GetNParameters() const
{
    return static_cast<uint64_t>(m_impl->p);
}

uint64_t
D2dVariationalLearner::GetNSamples(uint32_t i) const
{
    return static_cast<uint64_t>(m_impl->devices.at(i)->n);
}

double
D2dVariationalLearner::GetForwardFlops() const
{
    return m_impl->net->forwardFlops;
}

double
D2dVariationalLearner::GetLocalUpdateFlops(uint32_t i) const
{
    return static_cast<double>(m_config.localSteps) *
           static_cast<double>(m_impl->devices.at(i)->batch) *
           static_cast<double>(m_config.mcSamples) * 3.0 * GetForwardFlops();
}

bool
D2dVariationalLearner::IsTraining(uint32_t i) const
{
    return m_training.at(i);
}

std::vector<double>
D2dVariationalLearner::LocalUpdate(uint32_t i)
{
    NS_ABORT_MSG_IF(m_training.at(i), "D2dVariationalLearner: device " << i << " is training");
    auto& d = *m_impl->devices.at(i);
    UpdateJob job{m_config, d.lambda, d.eta, d.first};
    RunUpdate(*m_impl, d, job);
    d.lastLoss = d.resultLoss;
    return d.result;
}

bool
D2dVariationalLearner::StartLocalUpdate(uint32_t i, Callback<void, const std::vector<double>&> done)
{
    NS_LOG_FUNCTION(this << i);
    if (m_training.at(i))
    {
        return false; // the previous update still runs
    }
    Callback<void> complete([this, i]() { Complete(i); });
    if (m_compute[i])
    {
        // The compute model refuses a depleted device before any work is submitted.
        if (m_compute[i]->StartJob(GetLocalUpdateFlops(i), complete) == 0)
        {
            return false;
        }
    }
    else
    {
        Simulator::ScheduleNow(complete);
    }
    m_training[i] = true;
    m_done[i] = done;
    auto impl = m_impl;
    auto device = m_impl->devices[i];
    // Snapshot of the prior: Consensus may replace the private belief meanwhile.
    UpdateJob job{m_config, device->lambda, device->eta, device->first};
    device->job =
        D2dTorchRuntime::Submit([impl, device, job]() { RunUpdate(*impl, *device, job); });
    return true;
}

void
D2dVariationalLearner::Complete(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    auto& d = *m_impl->devices[i];
    d.job.get(); // waits for the worker; rethrows its exception
    m_training[i] = false;
    d.lastLoss = d.resultLoss;
    auto done = m_done[i];
    m_done[i] = Callback<void, const std::vector<double>&>();
    if (!done.IsNull())
    {
        done(d.result);
    }
}

void
D2dVariationalLearner::Consensus(uint32_t i,
                                 const std::vector<double>& weights,
                                 const std::vector<const std::vector<double>*>& beliefs)
{
    NS_ABORT_MSG_IF(weights.size() != beliefs.size(), "one weight per belief");
    const std::size_t size = 2 * static_cast<std::size_t>(m_impl->p);
    // Eq. (3) of Gaussians: the W-weighted sum of natural parameters.
    std::vector<double> sum(size, 0.0);
    for (std::size_t j = 0; j < beliefs.size(); ++j)
    {
        NS_ABORT_MSG_IF(beliefs[j]->size() != size, "belief of the wrong size");
        const double w = weights[j];
        const double* b = beliefs[j]->data();
        for (std::size_t k = 0; k < size; ++k)
        {
            sum[k] += w * b[k];
        }
    }
    auto& d = *m_impl->devices.at(i);
    m_impl->SetPrivate(d, sum);
    d.first = false;
}

void
D2dVariationalLearner::CentralStep()
{
    auto& c = *m_impl->central;
    UpdateJob job{m_config, c.lambda, c.eta, c.first};
    RunUpdate(*m_impl, c, job);
    c.lastLoss = c.resultLoss;
    m_impl->SetPrivate(c, c.result);
    c.first = false;
}

D2dEvalResult
D2dVariationalLearner::Evaluate(int64_t node) const
{
    torch::NoGradGuard noGrad;
    const auto& s = *m_impl;
    const auto& d = node < 0 ? *s.central : *s.devices.at(node);
    const auto w = s.Mean(d);
    const int64_t n = s.testFeatures.size(0);
    double lossSum = 0;
    int64_t correct = 0;
    for (int64_t start = 0; start < n; start += 1000)
    {
        const int64_t end = std::min(n, start + 1000);
        const auto out = s.Forward(w, s.testFeatures.slice(0, start, end));
        const auto y = s.testLabels.slice(0, start, end);
        correct += out.argmax(1).eq(y).sum().item<int64_t>();
        lossSum += F::cross_entropy(out, y, F::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .item<double>();
    }
    D2dEvalResult r;
    r.samples = static_cast<uint64_t>(n);
    if (n > 0)
    {
        r.accuracy = static_cast<double>(correct) / static_cast<double>(n);
        r.loss = lossSum / static_cast<double>(n);
    }
    return r;
}

std::vector<float>
D2dVariationalLearner::GetPosteriorMean(int64_t node) const
{
    const auto& d = node < 0 ? *m_impl->central : *m_impl->devices.at(node);
    std::vector<float> out;
    for (const auto& t : m_impl->Mean(d))
    {
        auto c = t.contiguous();
        out.insert(out.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    }
    return out;
}

std::vector<float>
D2dVariationalLearner::GetPosteriorPrecision(int64_t node) const
{
    const auto& d = node < 0 ? *m_impl->central : *m_impl->devices.at(node);
    std::vector<float> out;
    for (const auto& t : d.lambda)
    {
        auto c = t.contiguous();
        out.insert(out.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    }
    return out;
}

std::string
D2dVariationalLearner::GetBeliefsHeader() const
{
    return "mean_l2,sigma_mean,sigma_min,sigma_max,train_loss";
}

std::string
D2dVariationalLearner::GetBeliefsRow(int64_t node) const
{
    torch::NoGradGuard noGrad;
    const auto& d = node < 0 ? *m_impl->central : *m_impl->devices.at(node);
    double sq = 0;
    double sigmaSum = 0;
    double sigmaMin = INFINITY;
    double sigmaMax = 0;
    for (std::size_t l = 0; l < d.lambda.size(); ++l)
    {
        const auto mean = (d.eta[l] / d.lambda[l]).to(torch::kDouble);
        const auto sigma = torch::rsqrt(d.lambda[l].to(torch::kDouble));
        sq += (mean * mean).sum().item<double>();
        sigmaSum += sigma.sum().item<double>();
        sigmaMin = std::min(sigmaMin, sigma.min().item<double>());
        sigmaMax = std::max(sigmaMax, sigma.max().item<double>());
    }
    return fmt::format("{},{},{},{},{}",
                       std::sqrt(sq),
                       sigmaSum / static_cast<double>(m_impl->p),
                       sigmaMin,
                       sigmaMax,
                       d.lastLoss);
}

std::vector<std::pair<std::string, double>>
D2dVariationalLearner::GetMetrics(int64_t node) const
{
    const auto r = Evaluate(node);
    return {{"accuracy", r.accuracy}, {"loss", r.loss}};
}

int64_t
D2dVariationalLearner::AssignStreams(int64_t /*stream*/)
{
    return 0;
}

double
D2dVariationalLearner::KlTerm(const std::vector<float>& mu,
                              const std::vector<float>& rho,
                              const std::vector<float>& precision,
                              const std::vector<float>& eta)
{
    NS_ABORT_MSG_IF(rho.size() != mu.size() || precision.size() != mu.size() ||
                        eta.size() != mu.size(),
                    "KlTerm: vectors of different sizes");
    auto t = [](const std::vector<float>& v) {
        return torch::tensor(std::vector<float>(v.begin(), v.end()), torch::kFloat);
    };
    torch::NoGradGuard noGrad;
    return Kl({t(mu)}, {t(rho)}, {t(precision)}, {t(eta)}).item<double>();
}

} // namespace ns3
