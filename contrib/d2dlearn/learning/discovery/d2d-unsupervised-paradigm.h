/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_UNSUPERVISED_PARADIGM_H
#define D2D_UNSUPERVISED_PARADIGM_H

#include "d2d-agreement-cache.h"
#include "d2d-discovery-paradigm.h"
#include "d2d-gaussian-clusters.h"
#include "d2d-pca-exchange.h"

#include "ns3/d2d-data-rng.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The unsupervised paradigm of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025,
 * sec. V-B and Alg. 2.
 *
 * Partitions (sec. V-B1): K-means with k-means++ seeding (D2dGaussianClusters::KMeans) on
 * each device's projections on the common PCA subspace (distributed PCA, done by the caller)
 * gives Clusters clusters per device; each cluster's mean is its centroid.
 *
 * Messages (sec. V-B2, Alg. 2): receiver i's request carries Q_{j->i} (RequestPoints) and its
 * L centroids (4 + 4 d L bytes: float32); there is no offer nor demand message. Transmitter j
 * allots Q across its clusters by eq. (15) (D2dGaussianClusters::AllotShares, rounded to
 * whole points by largest remainders), caps each by what it may give (V of eq. (9) without
 * trust, which is per label and has no meaning for unlabelled clusters: D_j[l] - b_j[l], with
 * b_j[l] = ceil(RetainFraction D_j[l])) shared among its requesters by eq. (11), whole points
 * (floor), and answers U = {mu_j^l, Sigma_j^l, D_{j,l->i}} for its L clusters:
 * L (4 (d + d^2) + 1) bytes.
 *
 * Local score (Alg. 2 steps 8-10, eq. (16)): i draws D_{j,l->i} points from N(mu_j^l,
 * Sigma_j^l) (D2dGaussianClusters::Sample, a stream per device; NormalDraws: the ziggurat's
 * standard normals by default, Box-Muller's, d2dlearn's generator before 2026-11, as an
 * option), assigns each to its nearest own centroid, recomputes its clusters' statistics
 * with them and scores the trace ratio sum_l Tr(Sigma-tilde_i^l) / Tr(Sigma_i^l) (L when
 * nothing arrives). GainForm: excess
 * (default) takes g = that - L, 0 when nothing arrives; sum takes g = the printed sum. The
 * protocol forms r^L = alpha1 g - alpha2 P_D (eq. (16)). The two differ by a constant alpha1 L
 * on every link, which the learning does not cancel: the policy's softmax (eq. (7)) values an
 * untried transmitter at 0, so with the printed sum every tried one looks better by about
 * alpha1 L and the first tried is kept (seen in the learning test). What i itself allots to
 * its requesters is not taken out (Alg. 2 adds the generated data only).
 *
 * Global reward (eq. (17)): each reward message also carries the sender's statistics before
 * and after (2 L 4 (d + d^2) bytes); the head sums h^B / h^A over the ordered pairs of the
 * devices whose statistics reached it and their clusters (D2dGaussianClusters::
 * SystemAgreement). AgreementMix: post-exchange (default) takes h^A between N(mu-tilde,
 * Sigma-tilde), the post-exchange Gaussians as they are; printed takes N(mu, Sigma-tilde),
 * the pre-exchange means with the post-exchange covariances as eq. (17)'s text prints it.
 * AgreementScale: mean (default) is sum / terms - 1: 0 when nothing changes, positive when the
 * clusters moved closer, the scale of the paper's App. B Table III (whose entries are negative
 * when distributions become less alike, which a plain sum of positive ratios cannot be);
 * sum is the printed sum (N(N-1)L^2 terms, which dwarfs r^L).
 *
 * Exchange (ExchangeMode): real (default): j sends D_{j,l->i} of its real points of cluster l
 * (drawn with a stream per device) and drops them all; the first received[l] of them reach i
 * (the rest are lost over the channel); sampled: i adds as many points drawn from N(mu_j^l,
 * Sigma_j^l) as arrived and j keeps its points (no real datapoint moves; label histograms do
 * not change at i). After the exchange every device assigns its points to its nearest centroid
 * and recomputes its clusters' statistics and centroids (Alg. 2 step 9); the next edge round
 * (Remark 2) starts from them.
 *
 * Each point keeps its true label and its index in the dataset (labels only to measure the
 * label histograms, as the paper's Fig. 8d; they never enter a message nor a reward).
 */
class D2dUnsupervisedParadigm : public D2dDiscoveryParadigm
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dUnsupervisedParadigm();

    /**
     * \brief Cluster every device's points (K-means, Clusters clusters).
     * \param projections device i's points at index i: n_i x d, row-major (n_i >= Clusters)
     * \param d the dimension (> 0)
     * \param labels each point's true label (-1: unknown), n_i per device
     * \param ids each point's index in the dataset, n_i per device
     * \param seed the run's seed (K-means seeding, sampling, the points sent)
     * \param sittingOut per device, whether it sits the discovery out (empty: none does): the
     * common subspace F did not reach it, so its points have no projection (projections[i]
     * empty; labels[i] and ids[i] still list the points it holds); it is not clustered, holds
     * no cluster statistics (GetCounts: zeros), TakesPart is false and Exchange keeps its
     * points as they are
     */
    void Setup(std::vector<std::vector<double>> projections,
               uint32_t d,
               std::vector<std::vector<int64_t>> labels,
               std::vector<std::vector<uint64_t>> ids,
               uint64_t seed,
               std::vector<bool> sittingOut = {});

    /**
     * \brief The unsupervised preparation (sec. V-B1): each device's sketch (top t =
     * PcaLocalRank, 0: PcaDims, right singular vectors) goes over Data::server to the server,
     * which returns the common subspace F (a D2dPcaExchange, messages of their true size);
     * then Setup with the projections on F (K-means), the true labels (to measure only) and
     * the dataset indices; a device that F did not reach sits out. Then done.
     * \param data the devices' data and the server link
     * \param done called once every device has its clusters
     */
    void Prepare(const Data& data, Callback<void> done) override;
    /** \return true: the distributed PCA goes over the device-to-server link */
    bool UsesServer() const override;
    /** \return LabelCounts(i, the training set's classes) \param device i */
    D2dFractionalCounts GetLabelCounts(uint32_t device) const override;
    /** \return the distributed PCA of Prepare (null before) */
    Ptr<D2dPcaExchange> GetPcaExchange() const;
    /**
     * \brief The devices' shards as the exchange left them: the real points each holds now
     * (sampled points have no dataset index), ascending.
     * \param shards device i's shard at i, rewritten
     */
    void MoveShards(std::vector<D2dShard>& shards) const;

    /** \return N, the devices given to Setup */
    uint32_t GetNDevices() const override;
    /** \return L, the clusters per device (attribute Clusters) */
    uint32_t GetNPartitions() const override;
    /** \return D_i: the points in each of device i's L clusters (zeros if i sits out)
     * \param device i */
    const D2dFractionalCounts& GetCounts(uint32_t device) const override;
    /**
     * \brief Does nothing: the counts follow the points moved by Exchange.
     * \param device i (unused)
     * \param counts unused
     */
    void SetCounts(uint32_t device, const D2dFractionalCounts& counts) override;
    /** \return 4 + 4 d L bytes: Q (a 32-bit count) and the receiver's L centroids (float32) */
    uint64_t GetRequestBytes() const override;
    /** \return GetAllocationBytes(), bytes (there is no offer nor demand message) */
    uint64_t GetVectorBytes() const override;
    /**
     * \param transmitter j
     * \param receiver i (unused)
     * \return V of eq. (9) without trust: max(0, D_j[l] - b_j[l]) for each of j's clusters l
     */
    D2dFractionalCounts Offer(uint32_t transmitter, uint32_t receiver) const override;
    /**
     * \param receiver i (unused)
     * \param offer unused (no offer phase)
     * \return {Q_{j->i}}: one value, RequestPoints
     */
    D2dFractionalCounts Demand(uint32_t receiver, const D2dFractionalCounts& offer) const override;
    /**
     * \brief Aborts: eq. (15) needs the requesters' centroids; the protocol calls AllocateTo.
     * \param transmitter j
     * \param demands the demands that reached j
     * \return nothing (aborts)
     */
    std::vector<D2dFractionalCounts> Allocate(
        uint32_t transmitter,
        const std::vector<D2dFractionalCounts>& demands) const override;
    /**
     * \brief Aborts: the points drawn need the transmitter's Gaussians; the protocol calls
     * GainFrom.
     * \param receiver i
     * \param allocated U_{j->i}
     * \param pDrop P_D(i, j)
     * \param sent what i allocates to its own requesters
     * \return nothing (aborts)
     */
    double Gain(uint32_t receiver,
                const D2dFractionalCounts& allocated,
                double pDrop,
                const D2dFractionalCounts& sent) const override;
    /**
     * \param transmitter j
     * \param receiver i
     * \return the points j can give i: the sum over l of Offer(j, i)[l]
     */
    double Shareable(uint32_t transmitter, uint32_t receiver) const override;
    /** \return the clusters of device i holding at least two points (no label thresholds here)
     * \param device i */
    uint32_t Satisfied(uint32_t device) const override;

    /** \return false: the request carries Q and the centroids, j answers with U (Alg. 2) */
    bool HasOfferPhase() const override;
    /** \return L (4 (d + d^2) + 1) bytes: U = {mu_j^l, Sigma_j^l, D_{j,l->i}} per cluster */
    uint64_t GetAllocationBytes() const override;
    /** \return 2 L 4 (d + d^2) bytes: the sender's means and covariances before and after */
    uint64_t GetRewardExtraBytes() const override;
    /** \brief Resets the statistics after (m_post) to those before, for eq. (17). */
    void StartStep() override;
    /**
     * \brief Eq. (15): spreads each Q over j's clusters by distance to the requester's
     * centroids (whole points, largest remainders), then caps by V shared among the
     * requesters as eq. (11), floored to whole points.
     * \param transmitter j
     * \param receivers the requester i of each demand
     * \param demands {Q_{j->i}} of each requester, in order
     * \return U_{j->i}: the points of each of j's clusters for each demand, in order
     */
    std::vector<D2dFractionalCounts> AllocateTo(
        uint32_t transmitter,
        const std::vector<uint32_t>& receivers,
        const std::vector<D2dFractionalCounts>& demands) const override;
    /**
     * \brief Alg. 2 steps 8-10: draws D_{j,l->i} points from N(mu_j^l, Sigma_j^l), adds them
     * to i's nearest clusters and keeps i's statistics after (for eq. (17)).
     * \param receiver i
     * \param transmitter j
     * \param allocated U_{j->i}: the points of each of j's clusters (zeros: nothing arrived)
     * \param pDrop P_D(i, j) (unused: the protocol subtracts it in r^L)
     * \param sent unused (Alg. 2 adds the generated data only)
     * \return g of eq. (16): the trace ratio sum, minus L with GainForm excess
     */
    double GainFrom(uint32_t receiver,
                    uint32_t transmitter,
                    const D2dFractionalCounts& allocated,
                    double pDrop,
                    const D2dFractionalCounts& sent) override;
    /**
     * \brief GainFrom for every receiver of the step: the draws and statistics (each
     * receiver's own stream) spread over the learners' worker pool (--threads), then applied
     * in order; the same scores and bits as the calls in order.
     * \param requests one per receiver
     * \return the scores g
     */
    std::vector<double> GainsFrom(const std::vector<GainRequest>& requests) override;
    /** \return true: r^G uses SystemAgreement (eq. (17)) */
    bool HasSystemAgreement() const override;
    /**
     * \param devices the devices whose statistics before and after reached the head
     * \return eq. (17)'s agreement over their ordered pairs and clusters, on the scale of
     * AgreementScale
     */
    double SystemAgreement(const std::vector<uint32_t>& devices) const override;
    /**
     * \brief Computes the terms of every head's eq. (17) that are due, in one pass of blocks
     * over the worker pool (D2dAgreementCache::Update); SystemAgreement then sums them.
     * \param groups each head's devices
     */
    void PrepareAgreements(const std::vector<std::vector<uint32_t>>& groups) override;
    /**
     * \brief Moves the points of one edge round (ExchangeMode), then every device that takes
     * part reassigns its points to its centroids (Recluster).
     * \param transfers the edge round's exchanges, in order
     * \return true: the paradigm updated the counts itself
     */
    bool Exchange(const std::vector<Transfer>& transfers) override;
    /** \return false if device i sits out (Setup's sittingOut) \param device i */
    bool TakesPart(uint32_t device) const override;

    /** \return d */
    uint32_t GetDims() const;
    /** \return device i's clusters (mean, covariance, count) now */
    const std::vector<D2dGaussianCluster>& GetClusters(uint32_t device) const;
    /** \return device i's centroids, L x d */
    const std::vector<double>& GetCentroids(uint32_t device) const;
    /** \return device i's points, n_i x d */
    const std::vector<double>& GetPoints(uint32_t device) const;
    /** \return the true label of each of device i's points (-1: a sampled point) */
    const std::vector<int64_t>& GetLabels(uint32_t device) const;
    /** \return the dataset index of each of device i's points (UINT64_MAX: a sampled point) */
    const std::vector<uint64_t>& GetIds(uint32_t device) const;
    /**
     * \param device i
     * \param numClasses the number of labels
     * \return the label histogram of i's real points
     */
    D2dFractionalCounts LabelCounts(uint32_t device, uint32_t numClasses) const;
    /** \return the K-means iterations at device i (Setup) */
    uint32_t GetKMeansIterations(uint32_t device) const;

    /** Values of AgreementScale: eq. (17)'s agreement (see the class description). */
    enum AgreementScale
    {
        SCALE_MEAN, //!< sum / terms - 1
        SCALE_SUM   //!< the printed sum
    };

    /** Values of GainForm: g of eq. (16) (see the class description). */
    enum GainForm
    {
        GAIN_EXCESS, //!< sum_l Tr ratio - L
        GAIN_SUM     //!< the printed sum
    };

    /** Exchange modes (see the class description). */
    enum ExchangeMode
    {
        REAL,   //!< j's real points move
        SAMPLED //!< i adds points drawn from j's Gaussians; j keeps its points
    };

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \return device i's feature rows of Prepare's shard, n_i x D \param device i */
    std::vector<double> Features(uint32_t device) const;

    /** Reassign device i's points to its nearest centroids and recompute its statistics. */
    void Recluster(uint32_t device);
    /**
     * \param device j
     * \param cluster l
     * \return the factor that draws from j's cluster l before (m_sampleFactors, built now if
     * not yet)
     */
    const std::vector<double>& SampleFactorOf(uint32_t device, uint32_t cluster);
    /**
     * \brief Alg. 2 steps 8-9 for one receiver: the points drawn from j's Gaussians and i's
     * statistics with them, in m_post[i] (m_stats[i] if nothing is drawn). Reads
     * m_sampleFactors, which must hold j's factors; writes only i's stream and m_post[i], so
     * receivers may run in parallel.
     * \param receiver i \param transmitter j \param allocated U_{j->i}
     * \return whether anything was drawn
     */
    bool Draw(uint32_t receiver, uint32_t transmitter, const D2dFractionalCounts& allocated);
    /** \brief m_post[i] = m_stats[i], copying only the clusters that differ (a changed
     * cluster holds more points). \param device i */
    void RestorePost(uint32_t device);
    /** \brief Make j's factors for the clusters U draws from. \param transmitter j
     * \param allocated U_{j->i} */
    void PrepareDraw(uint32_t transmitter, const D2dFractionalCounts& allocated);
    /**
     * \brief Step 10: keep i's statistics after and score eq. (16).
     * \param receiver i \param drawn whether Draw drew
     * \return g
     */
    double ApplyDraw(uint32_t receiver, bool drawn);
    /** \return b_j (ceil(RetainFraction D_j[l])) */
    D2dFractionalCounts Thresholds(uint32_t device) const;

    // Attributes.
    uint32_t m_nClusters;     //!< L, clusters per device (attribute Clusters)
    uint32_t m_requestPoints; //!< Q_{j->i}, points a receiver requests (attribute RequestPoints)
    double m_retainFraction;  //!< b_j[l] / D_j[l] (attribute RetainFraction)
    D2dGaussianClusters::AgreementMix m_mix; //!< means of h^A in eq. (17) (attribute AgreementMix)
    AgreementScale m_agreementScale;         //!< attribute AgreementScale
    GainForm m_gainForm;                     //!< attribute GainForm
    double m_klRidge; //!< added to the covariances' diagonal in eq. (17)'s KL (attribute KlRidge)
    ExchangeMode m_exchangeMode;                    //!< attribute ExchangeMode
    D2dGaussianClusters::NormalDraws m_normalDraws; //!< z of the samples (attribute NormalDraws)
    uint32_t m_kmeansIterations; //!< bound on Lloyd's iterations (attribute KMeansIterations)

    uint32_t m_d{0};                           //!< d, the dimension of the projections (Setup)
    uint64_t m_seed{0};                        //!< the run's seed given to Setup
    std::vector<std::vector<double>> m_points; //!< per device: its points on F, n_i x d, row-major
    /** Per device: each point's true label (-1: a sampled point) */
    std::vector<std::vector<int64_t>> m_labels;
    /** Per device: each point's index in the dataset (UINT64_MAX: a sampled point) */
    std::vector<std::vector<uint64_t>> m_ids;
    std::vector<std::vector<uint32_t>> m_assign;  //!< per device: each point's cluster
    std::vector<std::vector<double>> m_centroids; //!< per device: its L centroids, L x d
    /** Per device: its L clusters' statistics (mean, covariance, count) before the step */
    std::vector<std::vector<D2dGaussianCluster>> m_stats;
    std::vector<D2dFractionalCounts> m_counts; //!< per device: D_i, the points in each cluster
    std::vector<uint32_t> m_iterations;        //!< per device: K-means iterations in Setup
    std::vector<std::vector<D2dGaussianCluster>> m_post; //!< this step's statistics after
    std::vector<uint32_t> m_postChanged; //!< devices whose m_post is not m_stats (StartStep)
    /** Eq. (17)'s factors and terms of m_stats and m_post, kept while they do not change */
    mutable D2dAgreementCache m_agreement;
    std::vector<D2dDataRng> m_sampleRng; //!< per device: Gain's draws
    /** Per device and cluster: SampleFactor of m_stats, built when first drawn from (empty:
     * not yet), dropped when the device's statistics before change */
    std::vector<std::vector<std::vector<double>>> m_sampleFactors;
    std::vector<D2dDataRng> m_sendRng; //!< per device: points sent / drawn
    uint32_t m_edgeRound{0};           //!< edge rounds exchanged (Exchange calls) since Setup
    std::vector<bool> m_out;           //!< devices sitting out (Setup)
    uint32_t m_pcaDims;                //!< attribute PcaDims
    uint32_t m_pcaLocalRank;           //!< attribute PcaLocalRank
    std::shared_ptr<const D2dDataset> m_train; //!< Prepare's training set
    std::vector<D2dShard> m_shards;            //!< Prepare's shards
    uint32_t m_nLabels{0};                     //!< the training set's classes
    Ptr<D2dPcaExchange> m_pca;                 //!< Prepare's distributed PCA
};

} // namespace ns3

#endif /* D2D_UNSUPERVISED_PARADIGM_H */
