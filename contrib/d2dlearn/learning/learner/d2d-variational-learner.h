/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_VARIATIONAL_LEARNER_H
#define D2D_VARIATIONAL_LEARNER_H

#include "d2d-learner.h"

#include "ns3/d2d-belief-learner.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The settings of a D2dVariationalLearner (units in the names or comments).
 */
struct D2dVariationalConfig
{
    D2dModelSpec spec{"logistic", {}}; //!< classification model: logistic, mlp or cnn
    uint32_t localSteps{50};           //!< optimizer steps per local update (one mini-batch each)
    uint32_t batchSize{32};            //!< samples per mini-batch
    uint32_t mcSamples{1};             //!< weight samples per mini-batch (Monte Carlo)
    double learningRate{0.01};         //!< Adam step size (state reset at every update)
    double priorVariance{0.01};        //!< b^(0) = N(0, priorVariance I), per weight
    /**
     * sigma of q at the start of the first update (later updates start from the private
     * belief); 0 = the prior's sigma
     */
    double initialSigma{0.0};
};

/**
 * \ingroup d2dlearn
 * \brief Lalitha et al. 2018, sec. 3.1, for neural networks: every device keeps a
 * mean-field Gaussian belief over the weights of a LibTorch classifier, in natural
 * parameters (per weight the precision lambda = 1 / sigma^2 and eta = lambda mu); the local
 * Bayesian update eq. (2) is replaced by variational inference (Bayes by backprop, Blundell
 * et al. 2015) and the consensus eq. (3) of Gaussians is the W-weighted sum of natural
 * parameters, as for D2dGaussianBelief.
 *
 * Local update of device i (a training job in simulated time): q(theta) = prod_w
 * N(mu_w, sigma_w^2), sigma = softplus(rho), starts at the private belief rho_i^(k-1)
 * (mean eta / lambda, sigma 1 / sqrt(lambda)); in the first update at the common initial
 * weights (D2dNet's initialisation from a generator seeded by the run seed alone, the same
 * for every device, as FedAvg's w^0) with sigma = initialSigma. Adam then takes
 * localSteps steps on the free energy of eq. (5),
 *   F(q) = n_i E_q[mean NLL of a mini-batch] + KL(q || rho_i^(k-1)),
 * divided by n_i (the device's sample count: the expected NLL is scaled to the whole local
 * data set), the expectation by mcSamples reparameterised draws theta = mu + sigma * eps.
 * KL is the closed form of diagonal Gaussians (KlTerm). The result q is b_i^(k), sent as
 * 2 x P values (lambda then eta, P the parameter count), 4 bytes each (float32).
 *
 * The job costs localSteps x batch x mcSamples x 3 x forward FLOPs on the device's
 * D2dComputeModel (its duration and energy are drawn there; the KL term and the sampling
 * are not counted); the LibTorch work runs on a D2dTorchRuntime worker with the device's
 * own generator (seeded by the run seed and the device id: mini-batch order and eps), and
 * the result is visible at the job's completion event. The batch is min(batchSize, n_i)
 * samples drawn without replacement from a running permutation of the shard.
 *
 * The central learner (node -1) holds the union of the shards and takes localSteps steps
 * per step with N x batch samples per mini-batch, at once (a reference run: no simulated
 * time or energy). Metrics per node: accuracy and loss (mean cross-entropy) on the test
 * set of the posterior-mean model (the private belief's mean). beliefs.csv columns:
 * mean_l2 (norm of the mean), sigma_mean, sigma_min, sigma_max (over the weights), and
 * train_loss (the last update's mean per-sample free energy).
 *
 * The header is torch-free; the protocol library (bayes/) sees only D2dBeliefLearner.
 */
class D2dVariationalLearner : public D2dBeliefLearner
{
  public:
    /**
     * \brief Get the type ID (made with its constructor's arguments:
     * CreateObject<D2dVariationalLearner>(...)). \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * \param config settings
     * \param train training set (classification), shared
     * \param shards one shard per device (N = shards.size() >= 1)
     * \param test test set of the metrics
     * \param seed run seed (initial weights; with the device id, each device's generator)
     */
    D2dVariationalLearner(const D2dVariationalConfig& config,
                          std::shared_ptr<const D2dDataset> train,
                          const std::vector<D2dShard>& shards,
                          std::shared_ptr<const D2dDataset> test,
                          uint64_t seed);
    ~D2dVariationalLearner() override;

    /**
     * \param compute device i's compute model at index i (empty, or a null entry: that
     * device's update takes no simulated time)
     */
    void SetComputeModels(const std::vector<Ptr<D2dComputeModel>>& compute);

    /** \return number of devices N (the shards) */
    uint32_t GetNDevices() const override;
    /** \return 2 x P: the precisions then the eta values of the P weights */
    uint32_t GetNValues() const override;
    /**
     * \param i device
     * \return the prior b^(0) = N(0, priorVariance I): lambda = 1 / priorVariance, eta = 0
     */
    std::vector<double> GetInitialPublic(uint32_t i) const override;
    /** The local update run at once, in the calling thread (no simulated time). */
    std::vector<double> LocalUpdate(uint32_t i) override;
    /**
     * \brief Start device i's local update as a job of GetLocalUpdateFlops(i) on its compute
     * model (none: it completes at once in simulated time), the LibTorch work on a
     * D2dTorchRuntime worker; done gets b_i^(k) at the job's completion event.
     * \param i device
     * \param done called with b_i^(k) (2 x P values)
     * \return false if its previous update still runs or its compute model refused the job
     */
    bool StartLocalUpdate(uint32_t i, Callback<void, const std::vector<double>&> done) override;
    /** \return 4: values travel as float32 */
    uint64_t GetBytesPerValue() const override;
    /**
     * \brief Eq. (3) of Gaussians: rho_i^(k) is the weighted sum of the public natural
     * parameters.
     * \param i device
     * \param weights the weights (W_ij, or W_ij renormalized)
     * \param publicBeliefs b_j (2 x P values each), one per weight
     */
    void Consensus(uint32_t i,
                   const std::vector<double>& weights,
                   const std::vector<const std::vector<double>*>& publicBeliefs) override;
    /**
     * \brief The central learner: localSteps steps on the union of the shards, N x batch
     * samples per mini-batch, at once (no simulated time); the result is its belief.
     */
    void CentralStep() override;
    /** \return "mean_l2,sigma_mean,sigma_min,sigma_max,train_loss" */
    std::string GetBeliefsHeader() const override;
    /**
     * \param node device, or -1 for the central learner
     * \return the L2 norm of the mean, the mean, min and max sigma over the weights, and
     * the last update's mean per-sample free energy
     */
    std::string GetBeliefsRow(int64_t node) const override;
    /**
     * \param node device, or -1 for the central learner
     * \return accuracy and loss (mean cross-entropy) of its posterior-mean model (Evaluate)
     */
    std::vector<std::pair<std::string, double>> GetMetrics(int64_t node) const override;
    /** Uses no ns-3 stream (torch generators are seeded by the run seed): returns 0. */
    int64_t AssignStreams(int64_t stream) override;

    /** \return P, the model's parameter count */
    uint64_t GetNParameters() const;
    /** \param i device \return samples in its shard */
    uint64_t GetNSamples(uint32_t i) const;
    /** \return forward FLOPs of one sample (2 x multiply-adds) */
    double GetForwardFlops() const;
    /**
     * \param i device
     * \return modelled FLOPs of its local update: localSteps x min(batchSize, n_i) x
     * mcSamples x 3 x forward FLOPs
     */
    double GetLocalUpdateFlops(uint32_t i) const;
    /** \param i device \return true while its update job runs (or never completed) */
    bool IsTraining(uint32_t i) const;

    /**
     * \param node device, -1 central
     * \return accuracy and mean cross-entropy of its posterior-mean model on the test set
     */
    D2dEvalResult Evaluate(int64_t node) const;
    /** \param node device, -1 central \return the private belief's mean, P values */
    std::vector<float> GetPosteriorMean(int64_t node) const;
    /** \param node device, -1 central \return the private belief's precisions, P values */
    std::vector<float> GetPosteriorPrecision(int64_t node) const;

    /**
     * \brief The KL term of eq. (5) as training computes it (the same LibTorch code): for
     * q = prod_w N(mu_w, softplus(rho_w)^2) and the prior p = prod_w N(eta_w / lambda_w,
     * 1 / lambda_w),
     * KL(q || p) = sum_w 1/2 [lambda_w sigma_w^2 + lambda_w (mu_w - m_w)^2 - 1
     * - ln(lambda_w sigma_w^2)], m_w = eta_w / lambda_w.
     * \param mu means of q
     * \param rho rho of q (sigma = ln(1 + e^rho))
     * \param precision lambda of the prior (> 0)
     * \param eta eta of the prior
     * \return the KL divergence, nats
     */
    static double KlTerm(const std::vector<float>& mu,
                         const std::vector<float>& rho,
                         const std::vector<float>& precision,
                         const std::vector<float>& eta);

    /** Opaque LibTorch state (defined where torch is included). */
    struct Impl;

  private:
    /** \param i device: its job's completion event */
    void Complete(uint32_t i);

    D2dVariationalConfig m_config; //!< the settings
    uint32_t m_n;                  //!< number of devices N (the shards)
    /**
     * the LibTorch state: the network, the data as tensors, each device's and the central
     * learner's belief (shared with the worker jobs)
     */
    std::shared_ptr<Impl> m_impl;
    std::vector<Ptr<D2dComputeModel>> m_compute; //!< device i's compute model (null: no time)
    /** device i's StartLocalUpdate() callback, until its job completes */
    std::vector<Callback<void, const std::vector<double>&>> m_done;
    std::vector<bool> m_training; //!< device i's update job runs (StartLocalUpdate to Complete)
};

} // namespace ns3

#endif /* D2D_VARIATIONAL_LEARNER_H */
