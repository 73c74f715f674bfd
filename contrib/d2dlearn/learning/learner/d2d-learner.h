/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LEARNER_H
#define D2D_LEARNER_H

#include "ns3/callback.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-running-job.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class D2dDeferredJob;

/**
 * \ingroup d2dlearn
 * \brief The architecture of a device's model. Input shape and number of outputs come from
 * the data set.
 */
struct D2dModelSpec
{
    /**
     * "linear" (regression, one output, mean squared error), "logistic" (linear classifier,
     * softmax cross-entropy), "mlp" (ReLU hidden layers of the sizes in `hidden`), "cnn"
     * (two 5x5 convolutions with 2x2 max-pooling, `hidden`[0] and `hidden`[1] channels, for
     * images), "poly" (polynomial regression of degree `hidden`[0] on scalar inputs,
     * p(x) = sum_e c_e x^e, trained in closed form by D2dPolynomialFit: the learner of the
     * regression toys of Fan, Mendler-Dünner, Jaggi 2023, App. A), "triplet" (a
     * self-supervised convolutional encoder with an 8-dimensional embedding trained with
     * FaceNet's triplet loss, scored by linear evaluation: D2dTripletEncoding; the
     * unsupervised learner of Wagle, Das, Love, Brinton 2025, eq. 4), "torchscript" (a
     * module saved from Python by torch.jit.script or torch.jit.trace, at `path`: its
     * forward takes [B, sample shape...] float32 and gives [B, classes] logits; every device
     * starts from the file's weights; the state a device holds, sends and averages is its
     * parameters followed by its floating-point buffers, e.g. BatchNorm's running
     * statistics: D2dScriptModel).
     */
    /** The width of the hidden layer of "mlp" without widths: Parse("mlp") and the default. */
    static constexpr int64_t DefaultMlpWidth = 128;

    std::string arch{"mlp"}; //!< logistic, mlp, cnn, triplet, poly or torchscript
    /** hidden layer widths (mlp) or channels (cnn); the default is Parse("mlp")'s */
    std::vector<int64_t> hidden{DefaultMlpWidth};
    double margin{0.2}; //!< triplet: the triplet loss's margin alpha (squared distances)
    std::string path;   //!< torchscript: the module's file

    /**
     * \brief Parse "mlp", "mlp:256x64", "cnn", "cnn:16x32", "logistic", "linear", "poly",
     * "poly:4" (poly's degree: 0 to 20, default 4), "triplet", "triplet:0.5" (the triplet
     * loss's margin: a number in (0, 4], default 0.2), "torchscript:PATH" (PATH: everything
     * after the first colon; the file is read by CountParameters and by the learners).
     * \param text the description
     * \return the spec
     * \throws std::invalid_argument (one line naming "model") if it is not one of those
     */
    static D2dModelSpec Parse(const std::string& text);

    /** \return the description in the form Parse() accepts */
    std::string ToString() const;

    /**
     * \brief The number of parameters of this architecture on samples of inputShape with
     * outputs outputs, counted without building it (a double: mlp:100000x100000 has 1e10).
     * \param inputShape one sample's shape, e.g. {1, 28, 28}
     * \param outputs classes (1 for regression)
     * \return the parameter count
     * \throws std::invalid_argument (one line naming "model") if the samples do not fit the
     * architecture: a cnn needs images [channels, height, width] of at least 4 x 4 pixels
     * (two 2x2 poolings); poly needs scalar samples and one output (regression); triplet
     * needs images of at least 8 x 8 pixels (three 2x2 poolings) and classes (its linear
     * evaluation); torchscript: the file is loaded and its forward run on one zero sample,
     * which must give [1, outputs] (the count is then of its state: parameters and
     * floating-point buffers)
     */
    double CountParameters(const std::vector<int64_t>& inputShape, int64_t outputs) const;

    /**
     * \brief Of CountParameters(), the values that are floating-point buffers (BatchNorm's
     * running statistics): not trained by gradients. 0 for the built-in models.
     * \param inputShape as CountParameters \param outputs as CountParameters
     * \return the buffer values
     */
    double CountBufferValues(const std::vector<int64_t>& inputShape, int64_t outputs) const;
};

/** \brief What a training job did (visible when its completion event fires). */
struct D2dTrainResult
{
    uint64_t samples{0}; //!< samples processed (epochs x shard, or the gradient's samples)
    uint64_t steps{0};   //!< optimizer steps
    double meanLoss{0};  //!< mean training loss over the job's batches
    double flops{0};     //!< modelled floating-point operations
    /** FedSGD: the mean gradient over the shard, flattened (null for weight training). */
    std::shared_ptr<const std::vector<float>> gradient;
    /**
     * A prediction job (D2dTrainTask::predictOn): the model's outputs on that set, row-major
     * n x C (softmax probabilities; regression: n x 1 values); null otherwise.
     */
    std::shared_ptr<const std::vector<float>> predictions;
    /**
     * A deferred job (D2dTrainTask::deferrable): its LibTorch work, whose result (the
     * trained weights, or FedSGD's gradient) is computed when first read (Get). The
     * result handed to the done callback then carries only this and flops; samples, steps
     * and meanLoss come with the TrainingDone trace, fired when the work has run. Null for
     * a job that ran eagerly.
     */
    std::shared_ptr<D2dDeferredJob> deferred;
};

/** \brief Test-set figures of a model. */
struct D2dEvalResult
{
    double accuracy{0};  //!< fraction of correct predictions (classification)
    double loss{0};      //!< mean cross-entropy (classification) or squared error (regression)
    uint64_t samples{0}; //!< test samples evaluated
};

/** \brief One local training job. */
struct D2dTrainTask
{
    uint32_t epochs{1};   //!< passes over the shard (ignored if maxSteps > 0)
    uint64_t maxSteps{0}; //!< > 0: this many mini-batch steps instead of epochs
    /**
     * FedProx: the proximal term (mu / 2) ||w - center||^2 is added to the local loss
     * (Li et al. 2020; a baseline of Wagle et al. 2025, sec. VI-D). 0 = plain local SGD
     * (FedAvg).
     */
    double proximalMu{0};
    std::shared_ptr<const std::vector<float>> proxCenter; //!< w^t of the round (FedProx)
    /** FedSGD: compute the mean gradient over the whole shard, do not step. */
    bool gradientOnly{false};

    // Prediction consensus (Fan, Mendler-Dünner, Jaggi 2023).
    /**
     * If set, the job only predicts: the model's outputs on this set (forward FLOPs x its
     * size are charged to the compute model), in D2dTrainResult::predictions; no step.
     */
    std::shared_ptr<const D2dDataset> predictOn;
    /**
     * Distillation (eq. 2): each step adds distillWeight x dist(f(X* batch), targets batch)
     * to the local loss: cross-entropy against the soft targets (classification) or squared
     * error (regression). The X* batches of distillBatch rows are taken in order, one per
     * step, starting over at every local epoch (and wrapping if an epoch has more steps).
     * Ignored unless distillWeight > 0 and both distillSet and distillTargets are set.
     */
    std::shared_ptr<const D2dDataset> distillSet;
    /** The pseudo-labels psi on distillSet, row-major n* x C (C = 1 for regression). */
    std::shared_ptr<const std::vector<float>> distillTargets;
    double distillWeight{0};    //!< lambda of eq. 2 (0: plain local training)
    uint32_t distillBatch{256}; //!< X* rows per step (Fan et al. 2023, App. G.1: 256)
    /**
     * The job's LibTorch work may run later than its simulated time, when its result is
     * first read (D2dDeferredJob): at its completion event the done callback gets
     * D2dTrainResult::deferred, and the learner behaves as if the work had run (any call
     * that reads its state runs the work first). The simulated duration and energy are
     * the same (they come from the FLOPs); the TrainingDone trace fires when the work has
     * run, with the job's simulated start and end. Prediction jobs are never deferred.
     */
    bool deferrable{false};
};

/**
 * \ingroup d2dlearn
 * \brief A device's learner: a LibTorch model, its optimizer and its data shard, training
 * inside simulated time.
 *
 * Train() starts a job on the device's D2dComputeModel whose duration is the modelled work
 * (samples x FLOPs per sample / FLOP/s x slow-down) and whose energy the compute model
 * draws; the LibTorch work runs meanwhile on a D2dTorchRuntime worker, and the result
 * (weights via GetParameters, or the gradient) becomes visible only when the compute job's
 * completion event fires. A device whose battery dies mid-job never completes it. Each
 * learner has its own torch generator, seeded from the run seed and the device id, for its
 * initial weights and batch order, so results do not depend on thread timing.
 *
 * The header is torch-free: parameters cross it as flat float vectors (in the order of
 * the model's parameters()), which is also what models-as-messages carry.
 *
 * Storage: a learner holds its weights as one flat float vector, shared and immutable
 * (copy-on-write: SetParameters(shared) and GetSharedParameters() copy nothing, a job
 * replaces the vector), or holds none at all (ReleaseParameters: a stateless FedAvg client
 * between rounds). No learner owns a LibTorch module: a module exists only while a job (or
 * an evaluation) runs, taken from a per-thread pool that keeps one module per architecture
 * and reuses it for every device of that architecture, the device's weights copied in and,
 * after training, out again. The initial weights are drawn lazily (at the first
 * GetParameters, or at the first job, where they are drawn and overwritten when the
 * protocol set the weights before), always as the first draws of the device's generator,
 * so that the batch order is the same as if they had been drawn at Setup. With
 * KeepOptimizerState the optimizer's state (SGD's momentum buffer: P floats; Adam's two
 * moments: 2 P floats and a step count per tensor) is kept between jobs as flat vectors.
 */
class D2dLearner : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dLearner();
    ~D2dLearner() override;

    /** Values of the Optimizer attribute. */
    enum Optimizer
    {
        SGD, //!< SGD with Momentum and WeightDecay
        ADAM //!< Adam (LibTorch's defaults besides the learning rate and WeightDecay)
    };

    /**
     * \brief Build the model and the optimizer.
     * \param id device id (seeds the generator with the run seed)
     * \param spec architecture
     * \param data the (shared) training set
     * \param shard this device's samples of data and its label map
     * \param seed run seed
     */
    void Setup(uint32_t id,
               const D2dModelSpec& spec,
               std::shared_ptr<const D2dDataset> data,
               D2dShard shard,
               uint64_t seed);

    /** \param compute the device's compute model (null: training takes no time) */
    void SetComputeModel(Ptr<D2dComputeModel> compute);

    /** \return the architecture */
    const D2dModelSpec& GetSpec() const;
    /**
     * \return the number of values of the model's state: its parameters, then its
     * floating-point buffers (BatchNorm statistics of a torchscript model; the built-in
     * models have none), in the order of GetParameters()
     */
    uint64_t GetNParameters() const;
    /** \return the values of those that are floating-point buffers (not trained by the
     *  optimizer; a FedSGD gradient holds zeros for them) */
    uint64_t GetNBufferValues() const;
    /** \return modelled FLOPs of one sample's forward pass (ForwardFlopsPerSample if set, else
     *  the architecture's own: D2dNetImpl, D2dFlopCounter for torchscript) */
    double GetForwardFlopsPerSample() const;
    /** \return samples in the shard */
    uint64_t GetNSamples() const;
    /**
     * \return modelled FLOPs of one training sample: 3x the forward FLOPs (forward pass
     * plus a backward pass of about twice its cost); forward FLOPs are 2 x multiply-adds of
     * the linear and convolution layers. triplet: three such passes (anchor, positive,
     * negative) plus the positive's augmentation (bilinear rotation, about 12 FLOPs per
     * pixel, and a 5 x 5 blur, 50 per pixel)
     */
    double GetTrainingFlopsPerSample() const;

    /**
     * \return the parameters, flattened (a copy; aborts while a job runs or when the learner
     * holds no weights after ReleaseParameters). The first call on a fresh learner draws its
     * initial weights.
     */
    std::vector<float> GetParameters() const;
    /**
     * \return the parameters as the shared vector the learner holds (no copy; the same
     * conditions as GetParameters)
     */
    std::shared_ptr<const std::vector<float>> GetSharedParameters() const;
    /** \param values parameters in GetParameters() order (aborts while a job runs) */
    void SetParameters(const std::vector<float>& values);
    /**
     * \brief Hold these parameters, shared (no copy): the vector must not change afterwards.
     * \param values parameters in GetParameters() order (aborts while a job runs)
     */
    void SetParameters(std::shared_ptr<const std::vector<float>> values);
    /** Computes weights when they are first read (SetDeferredParameters). */
    typedef std::function<std::shared_ptr<const std::vector<float>>()> WeightsThunk;
    /**
     * \brief Hold weights that are computed later: compute runs (once, in the event loop's
     * thread) when the weights are first read or changed (GetParameters, Evaluate, Predict,
     * SetParameters, Train, ...), after the work of a pending deferred job (which still
     * starts from the weights held before), and its result becomes the weights. Unlike
     * SetParameters, this neither waits for a pending deferred job nor reads anything: a
     * protocol can set the outcome of an averaging whose inputs are deferred jobs
     * (D2dModelExchange) and let it be computed when, and in the order, it chooses. A
     * deferred setting made before and not computed yet is dropped. A TrainingDone sink of
     * the pending job reads the trained weights (the computation comes after the job).
     * \param compute returns the parameters, in GetParameters() order (aborts while a job
     *        runs)
     */
    void SetDeferredParameters(WeightsThunk compute);
    /** \return true if weights set by SetDeferredParameters wait to be computed */
    bool HasDeferredParameters() const;
    /**
     * \brief Drop the weights (a stateless client between rounds holds none); the next job
     * needs SetParameters first. Kept: the generator, the shard and the optimizer state.
     */
    void ReleaseParameters();
    /**
     * \return true if the learner holds weights (or will draw its initial weights), or a job
     * runs
     */
    bool HoldsParameters() const;
    /**
     * \return the LibTorch modules (D2dNet) alive in this process: the per-thread pools'
     * (one per architecture and thread that ran a job or an evaluation), plus any a caller
     * made; never one per device
     */
    static uint64_t GetLiveModules();

    /**
     * \brief Start a local training job.
     * \param task what to do
     * \param done called at the completion event with the result
     * \return false if the device cannot train (depleted battery, or away: IsAway())
     */
    bool Train(const D2dTrainTask& task, Callback<void, const D2dTrainResult&> done);

    /** \return true while a job runs (or never completed: depleted mid-job) */
    bool IsTraining() const;
    /**
     * \return true while the device is away (its compute model's Leave(): it neither trains
     * nor communicates); Train() is refused then
     */
    bool IsAway() const;
    /**
     * \return true if the device may go away during the run (its compute model's
     * HasAvailability(): a D2dAvailabilityModel drives it)
     */
    bool MayGoAway() const;

    /**
     * \brief Evaluate the current model (no simulated cost). triplet: linear evaluation
     * (D2dTripletEncoding: a logistic regression on the frozen embeddings of the labelled
     * training set, scored on test).
     * \param test test set
     * \return accuracy and loss
     */
    D2dEvalResult Evaluate(const D2dDataset& test) const;

    /**
     * \brief The current model's outputs on a data set (no simulated cost; for traces such
     * as decision boundaries and fitted curves).
     * \param data the inputs
     * \return row-major n x C softmax probabilities (regression: n x 1 values)
     */
    std::vector<float> Predict(const D2dDataset& data) const;

    /**
     * \brief Evaluate given parameters with this learner's architecture (the learner's own
     * weights are left unchanged).
     * \param values parameters in GetParameters() order
     * \param test test set
     * \return accuracy and loss
     */
    D2dEvalResult Evaluate(const std::vector<float>& values, const D2dDataset& test) const;

    /**
     * Signature of the TrainingStart trace: (device id, start, planned end: when the
     * device's compute model will have completed the job, as it plans it at the start).
     */
    typedef void (*TrainingStartTracedCallback)(uint32_t id, Time start, Time end);
    /**
     * Signature of the TrainingLost trace: (device id, start, end) a job whose device went
     * away before it completed; its done callback is never called.
     */
    typedef void (*TrainingLostTracedCallback)(uint32_t id, Time start, Time end);
    /** Signature of the TrainingDone trace: (device id, start, end, result). */
    typedef void (*TrainingDoneTracedCallback)(uint32_t id,
                                               Time start,
                                               Time end,
                                               const D2dTrainResult& result);

    /** Opaque LibTorch state (defined where torch is included). */
    struct Impl;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief The compute job finished: collect the worker's result and report it. */
    void Complete();
    /**
     * \brief Run a deferred job's work if one is pending, and wait for it, then compute
     * deferred weights if any (before any call that reads or changes the learner's state).
     */
    void Settle() const;
    /** \brief A deferred job's work has run (its done hook): fire TrainingDone. */
    void DeferredDone();
    /**
     * \brief The device went away during the job (the compute model's lost callback): the
     * work is lost. Its LibTorch work still runs (now, or it has: the generator advances
     * as if it had completed, whatever the threads), then the weights go back to what the
     * job started from; the optimizer's state, with KeepOptimizerState, keeps its steps.
     * TrainingLost fires; the done callback is not called.
     */
    void Lost();

    /** LibTorch state (data, shard, weights, jobs), shared with the worker running a job */
    std::shared_ptr<Impl> m_impl;
    double m_forwardFlops{0};       //!< 2 x multiply-adds of one sample's forward pass
    uint64_t m_nParameters{0};      //!< values of the model's state (GetNParameters)
    uint64_t m_nBufferValues{0};    //!< of m_nParameters, floating-point buffer values
    double m_forwardFlopsOverride;  //!< ForwardFlopsPerSample (0: the model's own)
    Ptr<D2dComputeModel> m_compute; //!< runs the jobs in simulated time (null: instantly)
    D2dModelSpec m_spec;            //!< the architecture, as given to Setup()
    uint32_t m_id{0};               //!< device id, as given to Setup()
    double m_learningRate;          //!< local learning rate (LearningRate attribute)
    Optimizer m_optimizer;          //!< local optimizer (Optimizer attribute)
    double m_momentum;              //!< SGD momentum (Momentum attribute)
    double m_weightDecay;           //!< L2 weight decay (WeightDecay attribute)
    uint32_t m_batchSize;           //!< mini-batch size, samples (BatchSize attribute)
    bool m_keepOptimizerState;      //!< reuse the optimizer (and its state) across jobs
    D2dRunningJob m_job;            //!< the job in simulated time (Train to its completion)
    /** TrainingLost trace source: (device id, start, end) */
    TracedCallback<uint32_t, Time, Time> m_trainingLostTrace;
    /** TrainingStart trace source: (device id, start, planned end) */
    TracedCallback<uint32_t, Time, Time> m_trainingStartTrace;
    /** TrainingDone trace source: (device id, start, end, result) */
    TracedCallback<uint32_t, Time, Time, const D2dTrainResult&> m_trainingDoneTrace;
};

} // namespace ns3

#endif /* D2D_LEARNER_H */
