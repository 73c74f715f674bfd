/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-learner.h"

#include "d2d-deferred-job.h"
#include "d2d-device-generator.h"
#include "d2d-job-watchdog.h"
#include "d2d-local-shard.h"
#include "d2d-net.h"
#include "d2d-optimizer-state.h"
#include "d2d-pending-work.h"
#include "d2d-script-model.h"
#include "d2d-torch-runtime.h"
#include "d2d-triplet-encoder.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-polynomial-fit.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dLearner");
NS_OBJECT_ENSURE_REGISTERED(D2dLearner);

D2dModelSpec
D2dModelSpec::Parse(const std::string& text)
{
    D2dModelSpec spec;
    const auto colon = text.find(':');
    spec.arch = text.substr(0, colon);
    if (spec.arch == "torchscript")
    {
        // torchscript:PATH, everything after the first colon (a path may hold colons).
        spec.hidden.clear();
        spec.path = colon == std::string::npos ? std::string() : text.substr(colon + 1);
        if (spec.path.empty())
        {
            throw std::invalid_argument("model: '" + text +
                                        "': torchscript needs the module's file "
                                        "(torchscript:PATH, a module saved by "
                                        "torch.jit.script(model).save(PATH))");
        }
        return spec;
    }
    if (spec.arch != "linear" && spec.arch != "logistic" && spec.arch != "mlp" &&
        spec.arch != "cnn" && spec.arch != "poly" && spec.arch != "triplet")
    {
        throw std::invalid_argument("model: '" + text +
                                    "' is not accepted (linear, logistic, mlp[:WxW...], "
                                    "cnn[:C1xC2], poly[:D], triplet[:MARGIN], "
                                    "torchscript:PATH)");
    }
    spec.hidden = spec.arch == "cnn"    ? std::vector<int64_t>{16, 32}
                  : spec.arch == "mlp"  ? std::vector<int64_t>{DefaultMlpWidth}
                  : spec.arch == "poly" ? std::vector<int64_t>{4}
                                        : std::vector<int64_t>{};
    if (spec.arch == "triplet")
    {
        // triplet:M, the margin of the triplet loss on unit-norm embeddings (squared
        // distances lie in [0, 4]; FaceNet, Schroff et al. 2015: 0.2).
        spec.margin = D2dTripletEncoding::DefaultMargin;
        if (colon != std::string::npos)
        {
            const std::string item = text.substr(colon + 1);
            std::size_t used = 0;
            double margin = -1;
            try
            {
                margin = std::stod(item, &used);
            }
            catch (const std::exception&)
            {
                used = 0;
            }
            if (item.empty() || used != item.size() || !(margin > 0 && margin <= 4))
            {
                throw std::invalid_argument("model: '" + text +
                                            "': the margin of triplet is a number in (0, 4]");
            }
            spec.margin = margin;
        }
        return spec;
    }
    if (colon != std::string::npos && spec.arch == "poly")
    {
        // poly:D, the degree of the polynomial (Fan et al. 2023, App. A: 4, and 1 for a weak
        // agent).
        const std::string item = text.substr(colon + 1);
        std::size_t used = 0;
        long long degree = -1;
        try
        {
            degree = std::stoll(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (item.empty() || used != item.size() || degree < 0 || degree > 20)
        {
            throw std::invalid_argument("model: '" + text +
                                        "': the degree of poly is an integer in [0, 20]");
        }
        spec.hidden = {degree};
    }
    else if (colon != std::string::npos)
    {
        if (spec.arch != "mlp" && spec.arch != "cnn")
        {
            throw std::invalid_argument("model: '" + text + "': only mlp, cnn and poly take sizes");
        }
        spec.hidden.clear();
        std::stringstream in(text.substr(colon + 1));
        std::string item;
        while (std::getline(in, item, 'x'))
        {
            std::size_t used = 0;
            long long width = 0;
            try
            {
                width = std::stoll(item, &used);
            }
            catch (const std::exception&)
            {
                used = 0;
            }
            if (used != item.size() || width < 1 || width > 100000)
            {
                throw std::invalid_argument("model: '" + text +
                                            "': sizes are integers in [1, 100000] separated "
                                            "by x");
            }
            spec.hidden.push_back(width);
        }
        if (spec.hidden.empty() || (spec.arch == "cnn" && spec.hidden.size() != 2))
        {
            throw std::invalid_argument("model: '" + text +
                                        "': mlp takes one or more widths, cnn two channel "
                                        "counts (cnn:16x32)");
        }
    }
    return spec;
}

std::string
D2dModelSpec::ToString() const
{
    std::string text = arch;
    if (arch == "torchscript")
    {
        return text + ":" + path;
    }
    if (arch == "triplet")
    {
        return margin == D2dTripletEncoding::DefaultMargin ? text
                                                           : fmt::format("{}:{}", text, margin);
    }
    for (std::size_t i = 0; i < hidden.size(); ++i)
    {
        text += (i == 0 ? ":" : "x") + std::to_string(hidden[i]);
    }
    return text;
}

double
D2dModelSpec::CountParameters(const std::vector<int64_t>& inputShape, int64_t outputs) const
{
    double inputs = 1;
    for (auto d : inputShape)
    {
        inputs *= static_cast<double>(d);
    }
    const double out = static_cast<double>(outputs);
    if (arch == "torchscript")
    {
        const auto fit = D2dScriptModel::Load(path)->CheckData(inputShape, outputs);
        return fit.parameters + fit.floatBuffers;
    }
    if (arch == "poly")
    {
        if (inputs != 1 || outputs != 1)
        {
            throw std::invalid_argument("model: poly is a regression on scalar inputs (one "
                                        "feature, one output)");
        }
        return static_cast<double>(hidden.empty() ? 4 : hidden[0]) + 1;
    }
    if (arch == "linear" || arch == "logistic")
    {
        return (inputs + 1) * out;
    }
    if (arch == "triplet")
    {
        // As D2dTripletEncoderImpl builds it: three 3x3 convolutions, each pooled 2x2, and a
        // linear layer to the embedding.
        if (inputShape.size() != 3 || inputShape[1] < 8 || inputShape[2] < 8)
        {
            throw std::invalid_argument("model: triplet needs image samples [channels, height, "
                                        "width] of at least 8 x 8 pixels (three 2x2 poolings)");
        }
        if (outputs < 2)
        {
            throw std::invalid_argument("model: triplet is scored by linear evaluation, which "
                                        "needs labelled data (classification)");
        }
        double count = 0;
        double c = static_cast<double>(inputShape[0]);
        int64_t h = inputShape[1];
        int64_t w = inputShape[2];
        for (auto channels : D2dTripletEncoding::Channels)
        {
            count += (c * 9 + 1) * static_cast<double>(channels);
            c = static_cast<double>(channels);
            h /= 2;
            w /= 2;
        }
        return count + (c * static_cast<double>(h * w) + 1) *
                           static_cast<double>(D2dTripletEncoding::EmbeddingDim);
    }
    if (arch == "mlp")
    {
        double count = 0;
        double in = inputs;
        for (auto width : hidden)
        {
            count += (in + 1) * static_cast<double>(width);
            in = static_cast<double>(width);
        }
        return count + (in + 1) * out;
    }
    // cnn: as D2dNetImpl builds it (5x5 "same" convolutions, 2x2 max-pooling, twice).
    if (inputShape.size() != 3)
    {
        throw std::invalid_argument("model: cnn needs image samples [channels, height, width]");
    }
    int64_t h = inputShape[1];
    int64_t w = inputShape[2];
    if (h < 4 || w < 4)
    {
        throw std::invalid_argument(fmt::format("model: cnn needs images of at least 4 x 4 "
                                                "pixels (two 2x2 poolings); these are {} x {}",
                                                h,
                                                w));
    }
    double count = 0;
    double c = static_cast<double>(inputShape[0]);
    for (auto channels : hidden)
    {
        count += (c * 25 + 1) * static_cast<double>(channels);
        c = static_cast<double>(channels);
        h /= 2;
        w /= 2;
    }
    return count + (c * static_cast<double>(h * w) + 1) * out;
}

double
D2dModelSpec::CountBufferValues(const std::vector<int64_t>& inputShape, int64_t outputs) const
{
    return arch == "torchscript"
               ? D2dScriptModel::Load(path)->CheckData(inputShape, outputs).floatBuffers
               : 0.0;
}

/**
 * The state of a learner, shared with the worker running its job: no LibTorch module (the
 * jobs borrow one from their thread's pool), the weights as one flat vector.
 */
struct D2dLearner::Impl
{
    /** The model and the pool's key (spec, outputs, sample shape): one object shared by the
     *  learners of an architecture (InternArchitecture), not a copy per device. */
    struct Architecture
    {
        D2dModelSpec spec;         //!< the architecture
        std::string key;           //!< the pool's key: spec, outputs, sample shape
        int64_t outputs{1};        //!< classes (1: regression)
        int64_t polyDegree{-1};    //!< >= 0: the closed-form polynomial learner ("poly")
        bool triplet{false};       //!< the self-supervised triplet encoder ("triplet")
        D2dAugmentOptions augment; //!< triplet: the positives' augmentation
        /** torchscript: the file's state, flat, made once and shared by every device that
         *  holds it (copy-on-write, as all weights): a device does not copy it */
        mutable std::shared_ptr<const std::vector<float>> fileState;
        mutable std::mutex fileStateMutex; //!< guards fileState (worker threads read it)
    };

    std::shared_ptr<const Architecture> arch;
    D2dDeviceGenerator generator; //!< the device's own stream (Setup)
    bool released{false};         //!< ReleaseParameters: hold no weights until SetParameters
    /** The weights (immutable, possibly shared with messages); null: none held. */
    std::shared_ptr<const std::vector<float>> weights;
    D2dLocalShard shard; //!< the device's samples (Setup)
    std::shared_ptr<const D2dDataset> data;
    std::shared_future<void> job;
    D2dTrainResult result;

    /** Made by the first training job: a device that never trains (most FedAvg clients
     *  of a large population) holds none. */
    std::unique_ptr<D2dOptimizerState> optimizer;
    D2dPendingWork pending; //!< a deferred job's work and deferred weights, to compute
};

namespace
{

/**
 * \return the model's state: its parameters, then its buffers (a torchscript model's
 * floating-point buffers, e.g. BatchNorm's running statistics; the built-in models have
 * none), in registration order
 */
std::vector<torch::Tensor>
StateOf(torch::nn::Module& net)
{
    auto state = net.parameters();
    for (auto& b : net.buffers())
    {
        state.push_back(b);
    }
    return state;
}

/** \return the state (parameters, then buffers) flattened into one vector */
std::vector<float>
Flatten(torch::nn::Module& net)
{
    std::vector<float> out;
    std::size_t total = 0;
    const auto state = StateOf(net);
    for (const auto& p : state)
    {
        total += static_cast<std::size_t>(p.numel());
    }
    out.reserve(total); // exactly: grown by insert, the capacity would reach twice the size
    for (const auto& p : state)
    {
        auto c = p.detach().contiguous();
        const float* d = c.data_ptr<float>();
        out.insert(out.end(), d, d + c.numel());
    }
    return out;
}

/** \brief Copy flat values into the state (parameters, then buffers). */
void
Unflatten(torch::nn::Module& net, const std::vector<float>& values)
{
    torch::NoGradGuard noGrad;
    std::size_t offset = 0;
    for (auto& p : StateOf(net))
    {
        const auto n = static_cast<std::size_t>(p.numel());
        NS_ABORT_MSG_IF(offset + n > values.size(), "D2dLearner: too few parameter values");
        std::memcpy(p.data_ptr<float>(), values.data() + offset, n * sizeof(float));
        offset += n;
    }
    NS_ABORT_MSG_IF(offset != values.size(),
                    "D2dLearner: " << values.size() << " parameter values for a model of "
                                   << offset);
}

/**
 * \return this thread's module of the learner's architecture: one per architecture and
 * thread, made at its first use and reused by every device's jobs (its weights are
 * whatever the last job copied in)
 */
D2dNet&
PooledNet(const D2dLearner::Impl& s)
{
    thread_local std::map<std::string, D2dNet> pool;
    auto it = pool.find(s.arch->key);
    if (it == pool.end())
    {
        it = pool.emplace(s.arch->key, D2dNet(s.arch->spec, s.data->featureShape, s.arch->outputs))
                 .first;
    }
    return it->second;
}

/**
 * \param spec the model
 * \param key the pool's key of the architecture (spec, outputs, sample shape)
 * \param outputs classes (1: regression)
 * \return the one Architecture of that key, made at its first request
 */
std::shared_ptr<const D2dLearner::Impl::Architecture>
InternArchitecture(const D2dModelSpec& spec, const std::string& key, int64_t outputs)
{
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const D2dLearner::Impl::Architecture>> known;
    std::lock_guard<std::mutex> lock(mutex);
    auto& arch = known[key];
    if (!arch)
    {
        auto made = std::make_shared<D2dLearner::Impl::Architecture>();
        made->spec = spec;
        made->key = key;
        made->outputs = outputs;
        made->polyDegree = spec.arch == "poly" ? (spec.hidden.empty() ? 4 : spec.hidden[0]) : -1;
        made->triplet = spec.arch == "triplet";
        arch = made;
    }
    return arch;
}

/**
 * \brief Draw the initial weights if they are due: always the generator's first draws,
 * as when every learner built its own module at Setup. Kept only if the learner holds no
 * weights yet and has not released them.
 * \param s the learner
 * \param net a module of its architecture (its weights are overwritten)
 * \return true if the weights now in net are the learner's (they were just drawn)
 */
bool
DrawInitialWeights(D2dLearner::Impl& s, D2dNet& net)
{
    if (s.generator.InitialDrawn())
    {
        return false;
    }
    if (net->script)
    {
        // The file's weights, the same for every device: one shared vector (no copy per
        // device, and no generator made for it).
        net->InitializeFromFile();
        s.generator.SetInitialDrawn();
        if (!s.weights && !s.released)
        {
            std::lock_guard<std::mutex> lock(s.arch->fileStateMutex);
            if (!s.arch->fileState)
            {
                s.arch->fileState = std::make_shared<const std::vector<float>>(Flatten(*net));
            }
            s.weights = s.arch->fileState;
            return true;
        }
        return false;
    }
    net->Initialize(s.generator.Get());
    s.generator.SetInitialDrawn();
    if (!s.weights && !s.released)
    {
        s.weights = std::make_shared<const std::vector<float>>(Flatten(*net));
        return true;
    }
    return false;
}

/** \return the pooled module holding the learner's weights (initial ones drawn if due) */
D2dNet&
Materialize(D2dLearner::Impl& s)
{
    auto& net = PooledNet(s);
    if (!DrawInitialWeights(s, net))
    {
        NS_ABORT_MSG_IF(!s.weights,
                        "D2dLearner: no weights (released; SetParameters before the next "
                        "job)");
        Unflatten(*net, *s.weights);
    }
    return net;
}

} // namespace

namespace
{

/** \return the loss of a batch: cross-entropy or mean squared error */
torch::Tensor
Loss(bool regression, const torch::Tensor& out, const torch::Tensor& y, bool sum = false)
{
    namespace F = torch::nn::functional;
    if (regression)
    {
        auto options = F::MSELossFuncOptions();
        options = sum ? options.reduction(torch::kSum) : options.reduction(torch::kMean);
        return F::mse_loss(out.squeeze(1), y, options);
    }
    auto options = F::CrossEntropyFuncOptions();
    options = sum ? options.reduction(torch::kSum) : options.reduction(torch::kMean);
    return F::cross_entropy(out, y, options);
}

/** The training a worker runs: everything it needs, copied or shared. */
struct Job
{
    D2dTrainTask task;
    double learningRate;
    D2dLearner::Optimizer optimizer;
    double momentum;
    double weightDecay;
    int64_t batchSize;
    bool keepOptimizer; //!< reuse Impl::optimizer (made at the first job)
};

/** \return rows [first, second) of the X* batch of a step's position in its epoch */
std::pair<int64_t, int64_t>
DistillRows(uint64_t inEpoch, int64_t nStar, int64_t batch)
{
    const int64_t batches = (nStar + batch - 1) / batch;
    const int64_t b = static_cast<int64_t>(inEpoch % static_cast<uint64_t>(batches));
    return {b * batch, std::min(nStar, (b + 1) * batch)};
}

/** \return the model's outputs on a data set, row-major (softmax for classifiers) */
std::vector<float>
Outputs(D2dLearner::Impl& s, const D2dDataset& data)
{
    torch::NoGradGuard noGrad;
    auto& net = Materialize(s);
    net->eval();
    auto x = D2dFeaturesOf(data);
    const int64_t n = x.size(0);
    std::vector<float> out;
    for (int64_t start = 0; start < n; start += 1000)
    {
        const int64_t end = std::min(n, start + 1000);
        auto y = net->forward(x.slice(0, start, end));
        if (!s.shard.IsRegression())
        {
            y = torch::softmax(y, 1);
        }
        y = y.contiguous();
        out.insert(out.end(), y.data_ptr<float>(), y.data_ptr<float>() + y.numel());
    }
    net->train();
    return out;
}

/** \brief A prediction job: the model's outputs on a data set (softmax for classifiers). */
void
RunPrediction(D2dLearner::Impl& s, const D2dDataset& data)
{
    D2dTrainResult r;
    r.samples = static_cast<uint64_t>(data.Size());
    r.predictions = std::make_shared<const std::vector<float>>(Outputs(s, data));
    s.result = r;
}

/** \return X* rows a job's distillation term uses (0: none) \param task the job */
int64_t
DistillRowsOf(const D2dTrainTask& task)
{
    return task.distillWeight > 0 && task.distillSet && task.distillTargets
               ? static_cast<int64_t>(task.distillSet->Size())
               : 0;
}

/**
 * \brief A job of a torchscript model, watched by D2dJobWatchdog: the user's forward may
 * never return. Empty for d2dlearn's own models, whose forwards always do.
 */
struct JobWatch
{
    std::string what;   //!< the job and its model, for the error ("" : not watched)
    double budget{0};   //!< its budget, s
    std::string reason; //!< how the budget came about

    /** \brief Arm the guard for the job's duration \param guard its holder */
    void Arm(std::optional<D2dJobWatchdog::Guard>& guard) const
    {
        if (!what.empty())
        {
            guard.emplace(what, budget, reason);
        }
    }
};

/**
 * \param spec the learner's model
 * \param kind the job, e.g. "a training job"
 * \param flops its FLOPs (as the compute model charges them)
 * \return its watch (empty unless spec is a torchscript model)
 */
JobWatch
WatchOf(const D2dModelSpec& spec, const std::string& kind, double flops)
{
    if (spec.arch != "torchscript")
    {
        return {};
    }
    return {fmt::format("--model={}: {} of {:.3g} FLOPs", spec.ToString(), kind, flops),
            D2dJobWatchdog::GetBudgetSeconds(flops),
            D2dJobWatchdog::DescribeBudget(flops)};
}

/**
 * \brief The closed-form polynomial learner ("poly"): the exact minimiser of eq. 2 of Fan et
 * al. 2023 with mean squared errors, (1/n) sum_k (p(x_k) - y_k)^2 + lambda (1/n*) sum_m
 * (p(x*_m) - psi_m)^2, i.e. D2dPolynomialFit with weight lambda n / n* on the sums; the
 * job's epochs, steps and the optimizer play no part.
 */
void
RunClosedForm(D2dLearner::Impl& s, const Job& job)
{
    const auto& task = job.task;
    const int64_t n = s.shard.Size();
    D2dTrainResult r;
    if (n == 0)
    {
        s.result = r;
        return;
    }
    std::vector<double> x;
    std::vector<double> y;
    for (int64_t k = 0; k < n; ++k)
    {
        x.push_back(s.data->features[static_cast<std::size_t>(s.shard.IndexAt(k))]);
        y.push_back(s.shard.TargetAt(k));
    }
    std::vector<double> xs;
    std::vector<double> psi;
    double weight = 0;
    const int64_t nStar = DistillRowsOf(task);
    if (nStar > 0)
    {
        NS_ABORT_MSG_IF(static_cast<int64_t>(task.distillTargets->size()) != nStar,
                        "D2dLearner: " << task.distillTargets->size() << " targets for " << nStar
                                       << " X* points");
        xs.assign(task.distillSet->features.begin(), task.distillSet->features.end());
        psi.assign(task.distillTargets->begin(), task.distillTargets->end());
        weight = task.distillWeight * static_cast<double>(n) / static_cast<double>(nStar);
    }
    const auto c =
        D2dPolynomialFit::Fit(x, y, xs, psi, weight, static_cast<uint32_t>(s.arch->polyDegree));
    {
        torch::NoGradGuard noGrad;
        auto& net = Materialize(s); // the other parameters (if any) keep their values
        auto w = net->parameters()[0];
        for (std::size_t e = 0; e < c.size(); ++e)
        {
            w.data_ptr<float>()[e] = static_cast<float>(c[e]);
        }
        s.weights = std::make_shared<const std::vector<float>>(Flatten(*net));
    }
    double sse = 0;
    for (int64_t k = 0; k < n; ++k)
    {
        const double d = D2dPolynomialFit::Evaluate(c, x[static_cast<std::size_t>(k)]) -
                         y[static_cast<std::size_t>(k)];
        sse += d * d;
    }
    r.samples = static_cast<uint64_t>(n + nStar);
    r.steps = 1;
    r.meanLoss = sse / static_cast<double>(n);
    s.result = r;
}

/**
 * \brief The triplet loss of a batch of anchors (Wagle et al. 2025, eq. 4; Schroff et al.
 * 2015): positives, the anchors augmented (D2dAugmentImages), negatives drawn uniformly
 * among the shard's other points, all from the device's generator (angles, blur widths,
 * then negatives); the three batches pass through the encoder as one.
 * \param s the learner
 * \param net its pooled module (a triplet encoder)
 * \param features the training set's features
 * \param anchors the batch, [B, C, H, W]
 * \param positions the anchors' places in the shard, [B]
 * \return the batch mean of the triplet loss
 */
torch::Tensor
TripletBatchLoss(D2dLearner::Impl& s,
                 D2dNet& net,
                 const torch::Tensor& features,
                 const torch::Tensor& anchors,
                 const torch::Tensor& positions)
{
    const int64_t b = anchors.size(0);
    const int64_t n = s.shard.Size();
    auto& generator = s.generator.Get();
    torch::Tensor positives;
    {
        torch::NoGradGuard noGrad; // the augmentation is data, not part of the model
        positives = D2dAugmentImages(anchors, generator, s.arch->augment);
    }
    // A uniform other place: j in [0, n - 2], shifted past the anchor's own (n = 1: itself).
    torch::Tensor others;
    if (n > 1)
    {
        auto j = torch::randint(0, n - 1, {b}, generator, torch::kLong);
        others = j + j.ge(positions).to(torch::kLong);
    }
    else
    {
        others = positions;
    }
    auto negatives = features.index_select(0, s.shard.Indices().index_select(0, others));
    auto z = net->forward(torch::cat({anchors, positives, negatives}, 0));
    return D2dTripletLossOf(z.slice(0, 0, b),
                            z.slice(0, b, 2 * b),
                            z.slice(0, 2 * b),
                            s.arch->spec.margin);
}

/**
 * \brief FedSGD's job: the mean gradient of the loss over the whole shard, no step (the
 * result's gradient, buffers as zeros).
 * \param s the learner
 * \param job the job
 * \param net the learner's model
 * \param features the data set's features
 * \param shard the shard's sample indices
 * \param targets their labels or targets
 * \param params the model's parameters
 */
void
RunGradientOnly(D2dLearner::Impl& s,
                const Job& job,
                D2dNet& net,
                const torch::Tensor& features,
                const torch::Tensor& shard,
                const torch::Tensor& targets,
                std::vector<torch::Tensor>& params)
{
    const int64_t n = s.shard.Size();
    D2dTrainResult r;
    net->zero_grad();
    double lossSum = 0;
    for (int64_t start = 0; start < n; start += job.batchSize)
    {
        const int64_t end = std::min(n, start + job.batchSize);
        auto idx = shard.slice(0, start, end);
        auto x = features.index_select(0, idx);
        auto y = targets.slice(0, start, end);
        auto loss =
            s.arch->triplet
                ? TripletBatchLoss(s, net, features, x, torch::arange(start, end, torch::kLong)) *
                      (static_cast<double>(end - start) / static_cast<double>(n))
                : Loss(s.shard.IsRegression(), net->forward(x), y, true) / static_cast<double>(n);
        loss.backward();
        lossSum += loss.item<double>();
    }
    auto grad = std::make_shared<std::vector<float>>();
    grad->reserve(s.weights->size());
    for (auto& p : params)
    {
        if (!p.grad().defined())
        {
            // A parameter the loss does not reach, or one saved with requires_grad off.
            grad->insert(grad->end(), static_cast<std::size_t>(p.numel()), 0.0F);
            continue;
        }
        auto g = p.grad().contiguous();
        grad->insert(grad->end(), g.data_ptr<float>(), g.data_ptr<float>() + g.numel());
        p.mutable_grad() = torch::Tensor(); // free the gradient buffers between jobs
    }
    // Buffers (BatchNorm statistics) are not trained by gradients: zeros, so that the
    // gradient has the state's length and a step w - lr g leaves them as they were.
    for (const auto& b : net->buffers())
    {
        grad->insert(grad->end(), static_cast<std::size_t>(b.numel()), 0.0F);
    }
    r.samples = n;
    r.steps = 0;
    r.meanLoss = lossSum;
    r.gradient = grad;
    s.result = r;
}

/**
 * \brief A training job's state across its steps (RunTraining): its optimizer, the extra
 * terms of its local objective and the current epoch's order of the shard.
 */
struct LocalRun
{
    torch::optim::Optimizer* opt{nullptr}; //!< the job's optimizer
    /** prediction consensus: the shared set X* (undefined without distillation) */
    torch::Tensor distillX;
    torch::Tensor distillY; //!< prediction consensus: X*'s pseudo-labels, nStar x outputs
    int64_t nStar{0};       //!< rows of X*, 0 without distillation
    /** FedProx: the round's global weights, per parameter, as views of the shared vector
     * (empty without the proximal term) */
    std::vector<torch::Tensor> center;
    torch::Tensor epochSamples;   //!< the epoch's sample indices, in its random order
    torch::Tensor epochTargets;   //!< their labels or targets
    torch::Tensor epochPositions; //!< their places in the shard (triplet: the anchors')
    torch::Tensor lossSum;        //!< the batches' losses, summed as a double (no sync per step)
};

/**
 * \brief The extra terms of a job's local objective: prediction consensus's X* and its
 * pseudo-labels (distillation, eq. 2), FedProx's center.
 * \param s the learner
 * \param job the job
 * \param params the model's parameters
 * \param run the job's state, whose distillX, distillY, nStar and center are set
 */
void
SetLocalTerms(const D2dLearner::Impl& s,
              const Job& job,
              const std::vector<torch::Tensor>& params,
              LocalRun& run)
{
    const auto& task = job.task;
    if (task.distillWeight > 0 && task.distillSet && task.distillTargets)
    {
        run.distillX = D2dFeaturesOf(*task.distillSet);
        run.nStar = run.distillX.size(0);
        const int64_t nStar = run.nStar;
        const int64_t width = s.shard.IsRegression() ? 1 : static_cast<int64_t>(s.data->numClasses);
        NS_ABORT_MSG_IF(static_cast<int64_t>(task.distillTargets->size()) != nStar * width,
                        "D2dLearner: " << task.distillTargets->size() << " targets for " << nStar
                                       << " x " << width << " outputs");
        run.distillY = torch::from_blob(const_cast<float*>(task.distillTargets->data()),
                                        {nStar, width},
                                        torch::kFloat);
    }
    if (job.task.proximalMu > 0 && job.task.proxCenter)
    {
        std::size_t offset = 0;
        for (const auto& p : params)
        {
            run.center.push_back(
                torch::from_blob(const_cast<float*>(job.task.proxCenter->data()) + offset,
                                 p.sizes(),
                                 torch::kFloat));
            offset += static_cast<std::size_t>(p.numel());
        }
    }
}

/**
 * \brief A new epoch's order of the shard; its indices and targets gathered once, not per
 * step.
 * \param s the learner (its generator draws the order)
 * \param shard the shard's sample indices
 * \param targets their labels or targets
 * \param run the job's state, whose epoch order is set
 */
void
NewEpoch(D2dLearner::Impl& s,
         const torch::Tensor& shard,
         const torch::Tensor& targets,
         LocalRun& run)
{
    const int64_t n = s.shard.Size();
    auto perm = torch::randperm(n, s.generator.Get(), torch::kLong);
    run.epochSamples = shard.index_select(0, perm);
    run.epochTargets = targets.index_select(0, perm);
    run.epochPositions = perm; // triplet: the anchors' places in the shard
}

/**
 * \brief One step on a batch of the epoch's order: the loss (summed into run.lossSum), the
 * local objective's extra terms, the gradients and the optimizer's step.
 * \param s the learner
 * \param net its model
 * \param job the job
 * \param features the data set's features
 * \param params the model's parameters
 * \param run the job's state
 * \param inEpoch the step's position in its epoch
 * \param start the batch's first position in the epoch's order
 * \param end one past its last
 */
void
TrainBatch(D2dLearner::Impl& s,
           D2dNet& net,
           const Job& job,
           const torch::Tensor& features,
           std::vector<torch::Tensor>& params,
           LocalRun& run,
           uint64_t inEpoch,
           int64_t start,
           int64_t end)
{
    const auto& task = job.task;
    auto x = features.index_select(0, run.epochSamples.slice(0, start, end));
    auto y = run.epochTargets.slice(0, start, end);
    // Gradients dropped rather than zeroed (the optimizer's zero_grad): backward then
    // writes them instead of adding to zeros, which gives the same values and saves two
    // kernels per parameter and step.
    for (auto& p : params)
    {
        p.mutable_grad() = torch::Tensor();
    }
    auto loss = s.arch->triplet
                    ? TripletBatchLoss(s, net, features, x, run.epochPositions.slice(0, start, end))
                    : Loss(s.shard.IsRegression(), net->forward(x), y);
    run.lossSum += loss.detach().to(torch::kDouble);
    if (!run.center.empty())
    {
        // FedProx local objective: F_k(w) + (mu / 2) ||w - w^t||^2.
        auto prox = torch::zeros({}, torch::kFloat);
        for (std::size_t i = 0; i < params.size(); ++i)
        {
            prox = prox + (params[i] - run.center[i]).pow(2).sum();
        }
        loss = loss + 0.5 * job.task.proximalMu * prox;
    }
    if (run.nStar > 0)
    {
        const auto rows = DistillRows(inEpoch, run.nStar, task.distillBatch);
        auto out = net->forward(run.distillX.slice(0, rows.first, rows.second));
        auto target = run.distillY.slice(0, rows.first, rows.second);
        torch::Tensor dist;
        if (s.shard.IsRegression())
        {
            dist = (out - target).pow(2).mean();
        }
        else
        {
            // cross-entropy against soft labels: -sum_c psi_c log softmax(f)_c, batch mean
            dist = -(target * torch::log_softmax(out, 1)).sum(1).mean();
        }
        loss = loss + task.distillWeight * dist;
    }
    loss.backward();
    run.opt->step();
}

void
RunTraining(D2dLearner::Impl& s, const Job& job)
{
    if (s.arch->polyDegree >= 0 && !job.task.gradientOnly)
    {
        RunClosedForm(s, job);
        return;
    }
    auto& net = Materialize(s); // draws the initial weights first if they are due
    net->train();
    // A torchscript model whose forward draws from LibTorch's global generator (dropout):
    // one such job at a time, the global generator seeded from the device's own.
    std::unique_lock<std::mutex> globalGenerator;
    if (net->drawsRandom)
    {
        globalGenerator = std::unique_lock<std::mutex>(D2dScriptModel::GlobalGeneratorMutex());
        const uint64_t seed =
            at::check_generator<at::CPUGeneratorImpl>(s.generator.Get())->random64();
        auto global = at::detail::getDefaultCPUGenerator();
        global.set_current_seed(seed);
    }
    const int64_t n = s.shard.Size();
    const torch::Tensor shard = s.shard.Indices();
    const torch::Tensor targets = s.shard.Targets();
    D2dTrainResult r;
    if (n == 0)
    {
        s.result = r;
        return;
    }
    const auto features = D2dFeaturesOf(*s.data);
    auto params = net->parameters();
    if (job.task.gradientOnly)
    {
        RunGradientOnly(s, job, net, features, shard, targets, params);
        return;
    }
    // A fresh optimizer per job (KeepOptimizerState: the previous job's state restored).
    if (!s.optimizer)
    {
        s.optimizer =
            std::make_unique<D2dOptimizerState>(); // a device that never trains holds none
    }
    std::unique_ptr<torch::optim::Optimizer> made = s.optimizer->Make(job.optimizer,
                                                                      job.learningRate,
                                                                      job.momentum,
                                                                      job.weightDecay,
                                                                      job.keepOptimizer,
                                                                      params);
    LocalRun run;
    run.opt = made.get();
    SetLocalTerms(s, job, params, run);
    const uint64_t stepsPerEpoch = static_cast<uint64_t>((n + job.batchSize - 1) / job.batchSize);
    const uint64_t totalSteps =
        job.task.maxSteps > 0 ? job.task.maxSteps : stepsPerEpoch * job.task.epochs;
    run.lossSum = torch::zeros({}, torch::kDouble); // summed without a sync per step
    for (uint64_t step = 0; step < totalSteps; ++step)
    {
        const uint64_t inEpoch = step % stepsPerEpoch;
        if (inEpoch == 0)
        {
            NewEpoch(s, shard, targets, run);
        }
        const int64_t start = static_cast<int64_t>(inEpoch) * job.batchSize;
        const int64_t end = std::min(n, start + job.batchSize);
        TrainBatch(s, net, job, features, params, run, inEpoch, start, end);
        r.samples += static_cast<uint64_t>(end - start);
    }
    for (auto& p : params)
    {
        p.mutable_grad() = torch::Tensor(); // free the gradient buffers between jobs
    }
    if (job.keepOptimizer)
    {
        s.optimizer->Save(*run.opt, params);
    }
    run.opt = nullptr;
    made.reset();
    s.weights = std::make_shared<const std::vector<float>>(Flatten(*net)); // copy-on-write
    r.steps = totalSteps;
    r.meanLoss =
        totalSteps > 0 ? run.lossSum.item<double>() / static_cast<double>(totalSteps) : 0.0;
    s.result = r;
}
} // namespace

TypeId
D2dLearner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dLearner")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dLearner>()
            .AddAttribute("LearningRate",
                          "Local learning rate of the optimizer",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&D2dLearner::m_learningRate),
                          MakeDoubleChecker<double>(0.0, 1e3))
            .AddAttribute("Optimizer",
                          "Local optimizer: sgd or adam (its state is reset at every job: "
                          "each job starts from the weights it is given)",
                          EnumValue(D2dLearner::SGD),
                          D2dMakeEnumAccessor(&D2dLearner::m_optimizer),
                          MakeEnumChecker(D2dLearner::SGD, "sgd", D2dLearner::ADAM, "adam"))
            .AddAttribute("Momentum",
                          "SGD momentum",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dLearner::m_momentum),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("WeightDecay",
                          "L2 weight decay",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dLearner::m_weightDecay),
                          MakeDoubleChecker<double>(0.0, 1e3))
            .AddAttribute("KeepOptimizerState",
                          "Keep the optimizer and its state (Adam's moments, SGD's momentum) "
                          "from one job to the next instead of a fresh one per job (the "
                          "prediction-consensus code of Fan et al. 2023 keeps it)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&D2dLearner::m_keepOptimizerState),
                          MakeBooleanChecker())
            .AddAttribute("ForwardFlopsPerSample",
                          "FLOPs of one sample's forward pass charged to the compute model "
                          "(training: 3 x; prediction: 1 x); 0: the model's own (the built-in "
                          "models' formula; a torchscript model's counted multiply-adds x 2)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dLearner::m_forwardFlopsOverride),
                          MakeDoubleChecker<double>(0.0, 1e18))
            .AddAttribute("BatchSize",
                          "Mini-batch size, samples",
                          UintegerValue(32),
                          MakeUintegerAccessor(&D2dLearner::m_batchSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("TrainingStart",
                            "A training job started: (device id, start, planned end)",
                            MakeTraceSourceAccessor(&D2dLearner::m_trainingStartTrace),
                            "ns3::D2dLearner::TrainingStartTracedCallback")
            .AddTraceSource("TrainingDone",
                            "A training job completed: (device id, start, end, result)",
                            MakeTraceSourceAccessor(&D2dLearner::m_trainingDoneTrace),
                            "ns3::D2dLearner::TrainingDoneTracedCallback")
            .AddTraceSource("TrainingLost",
                            "A training job lost: its device went away before it completed "
                            "(device id, start, end)",
                            MakeTraceSourceAccessor(&D2dLearner::m_trainingLostTrace),
                            "ns3::D2dLearner::TrainingLostTracedCallback");
    return tid;
}

D2dLearner::D2dLearner()
{
    NS_LOG_FUNCTION(this);
}

D2dLearner::~D2dLearner()
{
    if (m_impl && m_impl->job.valid())
    {
        m_impl->job.wait(); // a worker may still use the model (device depleted mid-job)
    }
}

void
D2dLearner::DoDispose()
{
    if (m_impl && m_impl->job.valid())
    {
        m_impl->job.wait();
    }
    if (m_impl)
    {
        // A pending job's work must not call back into a disposed learner; a deferred
        // average never computed (the run stopped mid-round) holds the jobs it reads.
        m_impl->pending.Drop();
    }
    m_compute = nullptr;
    m_job.End();
    Object::DoDispose();
}

void
D2dLearner::Setup(uint32_t id,
                  const D2dModelSpec& spec,
                  std::shared_ptr<const D2dDataset> data,
                  D2dShard shard,
                  uint64_t seed)
{
    NS_LOG_FUNCTION(this << id << spec.ToString());
    NS_ABORT_MSG_IF(!data, "D2dLearner::Setup: no data set");
    m_id = id;
    m_spec = spec;
    m_impl = std::make_shared<Impl>();
    auto& s = *m_impl;
    s.data = data;
    s.shard.Assign(shard, *data);
    s.generator.Seed(seed, id); // the generator and the initial weights are made at first use
    const int64_t outputs = s.shard.IsRegression() ? 1 : static_cast<int64_t>(data->numClasses);
    std::string key = spec.ToString() + "/" + std::to_string(outputs);
    for (auto d : data->featureShape)
    {
        key += "/" + std::to_string(d);
    }
    s.arch = InternArchitecture(spec, key, outputs);
    // This thread's module of the architecture (made once): its size and FLOPs; it throws
    // std::invalid_argument for samples that do not fit the architecture.
    auto& net = PooledNet(s);
    m_forwardFlops = m_forwardFlopsOverride > 0 ? m_forwardFlopsOverride : net->forwardFlops;
    m_nParameters = 0;
    m_nBufferValues = 0;
    for (const auto& p : net->parameters())
    {
        m_nParameters += static_cast<uint64_t>(p.numel());
    }
    for (const auto& b : net->buffers())
    {
        m_nBufferValues += static_cast<uint64_t>(b.numel());
    }
    m_nParameters += m_nBufferValues;
}

void
D2dLearner::SetComputeModel(Ptr<D2dComputeModel> compute)
{
    m_compute = compute;
}

const D2dModelSpec&
D2dLearner::GetSpec() const
{
    return m_spec;
}

uint64_t
D2dLearner::GetNParameters() const
{
    return m_nParameters;
}

uint64_t
D2dLearner::GetNSamples() const
{
    return static_cast<uint64_t>(m_impl->shard.Size());
}

uint64_t
D2dLearner::GetNBufferValues() const
{
    return m_nBufferValues;
}

double
D2dLearner::GetForwardFlopsPerSample() const
{
    return m_forwardFlops;
}

double
D2dLearner::GetTrainingFlopsPerSample() const
{
    double flops = 3.0 * m_forwardFlops; // forward and backward
    if (m_impl && m_impl->arch->triplet)
    {
        // Anchor, positive and negative, forward and backward; the positive's rotation
        // (bilinear: about 12 FLOPs per pixel with its grid) and 5 x 5 blur (50 per pixel).
        double pixels = 1;
        for (auto d : m_impl->data->featureShape)
        {
            pixels *= static_cast<double>(d);
        }
        flops = 3.0 * flops + (12.0 + 50.0) * pixels;
    }
    return flops;
}

std::vector<float>
D2dLearner::GetParameters() const
{
    return *GetSharedParameters();
}

std::shared_ptr<const std::vector<float>>
D2dLearner::GetSharedParameters() const
{
    NS_ABORT_MSG_IF(m_job.IsRunning(),
                    "D2dLearner " << m_id << ": parameters read during training");
    Settle();
    auto& s = *m_impl;
    if (!s.weights && !s.generator.InitialDrawn() && !s.released)
    {
        DrawInitialWeights(s, PooledNet(s));
    }
    NS_ABORT_MSG_IF(!s.weights, "D2dLearner " << m_id << ": parameters read after release");
    return s.weights;
}

void
D2dLearner::SetParameters(const std::vector<float>& values)
{
    SetParameters(std::make_shared<const std::vector<float>>(values));
}

void
D2dLearner::SetParameters(std::shared_ptr<const std::vector<float>> values)
{
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": parameters set during training");
    Settle();
    NS_ABORT_MSG_IF(!values || values->size() != m_nParameters,
                    "D2dLearner " << m_id << ": " << (values ? values->size() : 0)
                                  << " parameter values for a model of " << m_nParameters);
    m_impl->weights = std::move(values);
    m_impl->released = false;
}

void
D2dLearner::SetDeferredParameters(WeightsThunk compute)
{
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": parameters set during training");
    NS_ABORT_MSG_IF(!compute, "D2dLearner " << m_id << ": no deferred parameters");
    m_impl->pending.SetWeights(std::move(compute));
}

bool
D2dLearner::HasDeferredParameters() const
{
    return m_impl->pending.HasWeights();
}

void
D2dLearner::ReleaseParameters()
{
    NS_ABORT_MSG_IF(m_job.IsRunning(),
                    "D2dLearner " << m_id << ": parameters released during training");
    m_impl->pending.DropWeights(); // never computed
    if (m_impl->pending.Job())
    {
        m_impl->pending.ReleaseAfter(); // its work still needs them; dropped after it
        return;
    }
    m_impl->weights = nullptr;
    m_impl->released = true; // the initial weights, still to be drawn, are not kept
}

bool
D2dLearner::HoldsParameters() const
{
    if (m_job.IsRunning())
    {
        return true; // a job runs on the model (and the worker may replace the vector)
    }
    if (m_impl->pending.HasWeights())
    {
        return true;
    }
    if (m_impl->pending.Job())
    {
        return !m_impl->pending.ReleasesAfter(); // its work will leave trained weights
    }
    return m_impl->weights || (!m_impl->generator.InitialDrawn() && !m_impl->released);
}

uint64_t
D2dLearner::GetLiveModules()
{
    return D2dNetImpl::GetLive();
}

bool
D2dLearner::Train(const D2dTrainTask& task, Callback<void, const D2dTrainResult&> done)
{
    NS_LOG_FUNCTION(this << m_id);
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": Train while a job runs");
    Settle(); // the previous job's work, if deferred, runs first (it advances the generator)
    NS_ABORT_MSG_IF(!HoldsParameters(),
                    "D2dLearner " << m_id
                                  << ": Train without weights (released; SetParameters "
                                     "first)");
    NS_ABORT_MSG_IF(m_impl->arch->triplet && (task.predictOn || task.distillWeight > 0),
                    "D2dLearner " << m_id
                                  << ": the triplet encoder has no class outputs to predict "
                                     "or distil");
    const uint64_t n = GetNSamples();
    uint64_t samples = 0;
    uint64_t totalSteps = 0; // optimizer steps of a weight-training job
    if (task.predictOn)
    {
        samples = task.predictOn->Size();
    }
    else if (task.gradientOnly)
    {
        samples = n;
    }
    else if (task.maxSteps > 0)
    {
        // Steps of a full batch, except where an epoch ends.
        const uint64_t per = (n + m_batchSize - 1) / m_batchSize;
        const uint64_t full = task.maxSteps / std::max<uint64_t>(per, 1);
        const uint64_t rest = task.maxSteps % std::max<uint64_t>(per, 1);
        samples = full * n + std::min<uint64_t>(rest * m_batchSize, n);
        totalSteps = task.maxSteps;
    }
    else
    {
        samples = n * task.epochs;
        totalSteps = ((n + m_batchSize - 1) / m_batchSize) * task.epochs;
    }
    double flops = static_cast<double>(samples) *
                   (task.predictOn ? m_forwardFlops : GetTrainingFlopsPerSample());
    if (m_impl->arch->polyDegree >= 0 && !task.predictOn && !task.gradientOnly)
    {
        // Closed form: the normal equations, 2 (d + 1)^2 per point (local and X*), and their
        // elimination, (2/3) (d + 1)^3.
        const double p = static_cast<double>(m_impl->arch->polyDegree + 1);
        const double points = n > 0 ? static_cast<double>(n + DistillRowsOf(task)) : 0.0;
        flops = points * 2.0 * p * p + (n > 0 ? 2.0 / 3.0 * p * p * p : 0.0);
    }
    else if (!task.predictOn && !task.gradientOnly && n > 0 && task.distillWeight > 0 &&
             task.distillSet && task.distillTargets && task.distillSet->Size() > 0)
    {
        // The X* rows each step adds, trained like local samples.
        const uint64_t per = (n + m_batchSize - 1) / m_batchSize;
        const auto nStar = static_cast<int64_t>(task.distillSet->Size());
        uint64_t distilled = 0;
        for (uint64_t step = 0; step < totalSteps; ++step)
        {
            const auto rows = DistillRows(step % per, nStar, task.distillBatch);
            distilled += static_cast<uint64_t>(rows.second - rows.first);
        }
        flops += static_cast<double>(distilled) * GetTrainingFlopsPerSample();
    }
    Job job{task,
            m_learningRate,
            m_optimizer,
            m_momentum,
            m_weightDecay,
            m_batchSize,
            m_keepOptimizerState};
    if (m_compute)
    {
        // The compute model refuses a depleted or away device before any work is submitted.
        if (m_compute->StartJob(flops,
                                MakeCallback(&D2dLearner::Complete, this),
                                MakeCallback(&D2dLearner::Lost, this)) == 0)
        {
            return false;
        }
        if (m_compute->HasAvailability())
        {
            // The device may go away before the job completes: keep what it starts from (the
            // initial weights drawn now if due, the same draws as in the worker).
            auto& s = *m_impl;
            if (!s.weights && !s.generator.InitialDrawn() && !s.released)
            {
                DrawInitialWeights(s, PooledNet(s));
            }
            m_job.KeepBase(s.weights);
        }
    }
    else
    {
        Simulator::ScheduleNow(&D2dLearner::Complete, this);
    }
    const Time start = Simulator::Now();
    m_job.Begin(start, flops, task.deferrable && !task.predictOn, done);
    m_trainingStartTrace(m_id, start, m_compute ? m_compute->GetIdleTime() : start);
    auto impl = m_impl; // the worker keeps the state alive
    const JobWatch watch =
        WatchOf(m_spec, task.predictOn ? "a prediction job" : "a training job", flops);
    if (task.predictOn)
    {
        auto data = task.predictOn;
        m_impl->job = D2dTorchRuntime::Submit([impl, data, watch]() {
            std::optional<D2dJobWatchdog::Guard> guard;
            watch.Arm(guard);
            RunPrediction(*impl, *data);
        });
    }
    else if (m_job.IsDeferrable())
    {
        // Queued (started by the look-ahead, or when first read); its inputs (the weights
        // it starts from, the generator, the optimizer state) stay untouched until then.
        m_impl->job = std::shared_future<void>();
        m_impl->pending.Hold(D2dDeferredJob::Create([impl, job, watch]() {
                                 std::optional<D2dJobWatchdog::Guard> guard;
                                 watch.Arm(guard);
                                 RunTraining(*impl, job);
                                 return impl->result.gradient ? impl->result.gradient
                                                              : impl->weights;
                             }),
                             [this]() { DeferredDone(); });
    }
    else
    {
        m_impl->job = D2dTorchRuntime::Submit([impl, job, watch]() {
            std::optional<D2dJobWatchdog::Guard> guard;
            watch.Arm(guard);
            RunTraining(*impl, job);
        });
    }
    return true;
}

void
D2dLearner::Lost()
{
    NS_LOG_FUNCTION(this << m_id);
    auto& s = *m_impl;
    if (m_job.IsDeferrable() && s.pending.Job())
    {
        s.pending.Abandon(); // no TrainingDone: the job did not complete
    }
    else if (s.job.valid())
    {
        s.job.get(); // waits for the worker; rethrows its exception
    }
    s.result = D2dTrainResult{};
    if (auto base = m_job.TakeBase())
    {
        s.weights = std::move(base);
        s.released = false;
    }
    m_job.End(); // the done callback is not called
    m_trainingLostTrace(m_id, m_job.GetStart(), Simulator::Now());
}

bool
D2dLearner::IsAway() const
{
    return m_compute && m_compute->IsAway();
}

bool
D2dLearner::MayGoAway() const
{
    return m_compute && m_compute->HasAvailability();
}

void
D2dLearner::Complete()
{
    NS_LOG_FUNCTION(this << m_id);
    if (m_job.IsDeferrable())
    {
        // The work may not have run: the result is the job; TrainingDone fires when it has.
        auto& s = *m_impl;
        s.pending.Ended(m_job.GetStart(), Simulator::Now(), m_job.GetFlops());
        D2dTrainResult result;
        result.flops = m_job.GetFlops();
        result.deferred = s.pending.Job();
        // Nothing waits for a job before its completion event (the learner's calls that
        // would are refused while it trains), so its TrainingDone has not fired yet.
        NS_ASSERT(s.pending.Job());
        auto done = m_job.End();
        if (!done.IsNull())
        {
            done(result);
        }
        return;
    }
    m_impl->job.get();                      // waits for the worker; rethrows its exception
    D2dTrainResult result = m_impl->result; // written by the worker only
    result.flops = m_job.GetFlops();
    auto done = m_job.End();
    m_trainingDoneTrace(m_id, m_job.GetStart(), Simulator::Now(), result);
    if (!done.IsNull())
    {
        done(result);
    }
}

bool
D2dLearner::IsTraining() const
{
    return m_job.IsRunning();
}

void
D2dLearner::Settle() const
{
    if (!m_impl)
    {
        return;
    }
    m_impl->pending.Settle();
    // Not from a TrainingDone sink of the pending job: there the weights are the trained
    // ones (what comes after the job is not computed from inside its report).
    if (m_impl->pending.HasWeights() && !m_impl->pending.Reporting())
    {
        auto compute = m_impl->pending.TakeWeights();
        auto values = compute();
        compute = nullptr;
        NS_ABORT_MSG_IF(!values || values->size() != m_nParameters,
                        "D2dLearner " << m_id << ": " << (values ? values->size() : 0)
                                      << " deferred parameter values for a model of "
                                      << m_nParameters);
        m_impl->weights = std::move(values);
        m_impl->released = false;
    }
}

void
D2dLearner::DeferredDone()
{
    auto& s = *m_impl;
    s.pending.Forget();
    D2dTrainResult result = s.result; // written by the work, which has run
    result.flops = s.pending.GetFlops();
    s.result.gradient = nullptr; // the consumer holds it; the learner keeps no copy
    s.pending.Report([this, &s, &result]() {
        m_trainingDoneTrace(m_id, s.pending.GetStart(), s.pending.GetEnd(), result);
    });
    if (s.pending.TakeReleaseAfter())
    {
        s.weights = nullptr;
        s.released = true;
    }
}

/** \return accuracy and loss of a module on a test set (no simulated cost) */
static D2dEvalResult
EvaluateNet(D2dNet& net, const D2dDataset& test)
{
    torch::NoGradGuard noGrad;
    net->eval();
    const bool regression = test.numClasses == 0;
    auto x = D2dFeaturesOf(test);
    const int64_t n = x.size(0);
    D2dEvalResult r;
    double lossSum = 0;
    int64_t correct = 0;
    for (int64_t start = 0; start < n; start += 1000)
    {
        const int64_t end = std::min(n, start + 1000);
        auto out = net->forward(x.slice(0, start, end));
        torch::Tensor y;
        if (regression)
        {
            y = torch::from_blob(const_cast<float*>(test.targets.data()) + start,
                                 {end - start},
                                 torch::kFloat);
        }
        else
        {
            y = torch::from_blob(const_cast<int64_t*>(test.labels.data()) + start,
                                 {end - start},
                                 torch::kLong);
            correct += out.argmax(1).eq(y).sum().item<int64_t>();
        }
        lossSum += Loss(regression, out, y, true).item<double>();
    }
    r.samples = static_cast<uint64_t>(n);
    if (n > 0)
    {
        r.loss = lossSum / static_cast<double>(n);
        r.accuracy = static_cast<double>(correct) / static_cast<double>(n);
    }
    return r;
}

std::vector<float>
D2dLearner::Predict(const D2dDataset& data) const
{
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": Predict during training");
    Settle();
    std::optional<D2dJobWatchdog::Guard> guard;
    WatchOf(m_spec, "a prediction", static_cast<double>(data.Size()) * m_forwardFlops).Arm(guard);
    return Outputs(*m_impl, data);
}

/**
 * \return the linear evaluation of a triplet encoder: a logistic regression on the frozen
 * embeddings of the learner's whole labelled training set, scored on test
 * (D2dTripletEncoding)
 */
static D2dEvalResult
LinearEvaluation(const D2dLearner::Impl& s, D2dNet& net, const D2dDataset& test)
{
    NS_ABORT_MSG_IF(test.numClasses == 0 || s.data->labels.size() != s.data->Size(),
                    "D2dLearner: linear evaluation needs labelled training and test sets");
    const auto trainLabels = torch::from_blob(const_cast<int64_t*>(s.data->labels.data()),
                                              {static_cast<int64_t>(s.data->Size())},
                                              torch::kLong);
    const auto testLabels = torch::from_blob(const_cast<int64_t*>(test.labels.data()),
                                             {static_cast<int64_t>(test.Size())},
                                             torch::kLong);
    const int64_t classes = std::max<int64_t>(s.data->numClasses, test.numClasses);
    return D2dLinearEvaluation(net->encoder,
                               D2dFeaturesOf(*s.data),
                               trainLabels,
                               D2dFeaturesOf(test),
                               testLabels,
                               classes);
}

D2dEvalResult
D2dLearner::Evaluate(const D2dDataset& test) const
{
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": Evaluate during training");
    Settle();
    auto& net = Materialize(*m_impl);
    std::optional<D2dJobWatchdog::Guard> guard;
    WatchOf(m_spec, "an evaluation", static_cast<double>(test.Size()) * m_forwardFlops).Arm(guard);
    return m_impl->arch->triplet ? LinearEvaluation(*m_impl, net, test) : EvaluateNet(net, test);
}

D2dEvalResult
D2dLearner::Evaluate(const std::vector<float>& values, const D2dDataset& test) const
{
    NS_ABORT_MSG_IF(m_job.IsRunning(), "D2dLearner " << m_id << ": Evaluate during training");
    auto& net = PooledNet(*m_impl);
    Unflatten(*net, values);
    std::optional<D2dJobWatchdog::Guard> guard;
    WatchOf(m_spec, "an evaluation", static_cast<double>(test.Size()) * m_forwardFlops).Arm(guard);
    return m_impl->arch->triplet ? LinearEvaluation(*m_impl, net, test) : EvaluateNet(net, test);
}

} // namespace ns3
