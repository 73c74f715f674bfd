/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_GAUSSIAN_CLUSTERS_H
#define D2D_GAUSSIAN_CLUSTERS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

class D2dDataRng;

/**
 * \ingroup d2dlearn
 * \brief One cluster's Gaussian summary, as the unsupervised message carries it: the mean
 * (d values), the covariance (d x d, row-major) and the number of points.
 */
struct D2dGaussianCluster
{
    std::vector<double> mean; //!< mu, d values
    std::vector<double> cov;  //!< Sigma, d x d row-major (maximum likelihood: divided by n)
    double count{0};          //!< points in the cluster
};

/**
 * \ingroup d2dlearn
 * \brief A covariance prepared for the KL divergences of eq. (17): the Cholesky factor of
 * Sigma + ridge I and the logarithms of its diagonal. Computing it once per cluster and
 * reusing it in every divergence the cluster takes part in gives the same bits as factoring
 * afresh (D2dGaussianClusters::KlDivergence does exactly this).
 */
struct D2dGaussianFactor
{
    std::vector<double> l;       //!< L, d x d row-major, L L^T = Sigma + ridge I (if ok)
    std::vector<double> logDiag; //!< ln L_ee, d values (if ok)
    bool ok{false};              //!< false if Sigma + ridge I is not positive definite
};

/**
 * \ingroup d2dlearn
 * \brief The pure parts of the unsupervised paradigm of Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, sec. V-B and Alg. 2: K-means with k-means++ seeding on the PCA projections (the
 * partitions, sec. V-B1), the allotment of a request across the transmitter's clusters
 * (eq. (15)), Gaussian sampling and cluster statistics (Alg. 2 steps 8-9), the trace ratio of
 * the local reward (eq. (16)), the Gaussian KL divergence and the system agreement of the
 * global reward (eq. (17)), and the message sizes (sec. IV-C: 32(d + d^2) + 8 bits).
 *
 * Points are row-major n x d arrays. Neither LibTorch nor Boost has K-means; it is written
 * here (Lloyd's iterations, Arthur and Vassilvitskii, "k-means++: The Advantages of Careful
 * Seeding", 2007, for the seeds), deterministic given a seed and a device through D2dDataRng.
 */
class D2dGaussianClusters
{
  public:
    /** The outcome of K-means. */
    struct KMeansResult
    {
        std::vector<double> centroids; //!< k x d, row-major
        std::vector<uint32_t> assign;  //!< the cluster of each point
        uint32_t iterations{0};        //!< Lloyd iterations run
    };

    /**
     * \brief K-means with k-means++ seeding (Arthur and Vassilvitskii 2007): the first seed is
     * uniform, each next one drawn with probability proportional to the squared distance to
     * the nearest seed so far; then Lloyd's iterations until no assignment changes or
     * maxIterations. A cluster left empty keeps its centroid. Ties go to the lower index.
     * \param x the points, n x d
     * \param n points (>= k)
     * \param d dimension (> 0)
     * \param k clusters (> 0)
     * \param seed the run's seed
     * \param device the device (a stream of its own, D2dDataRng sub-index)
     * \param maxIterations bound on Lloyd's iterations
     * \return centroids, assignments, iterations
     */
    static KMeansResult KMeans(const std::vector<double>& x,
                               std::size_t n,
                               std::size_t d,
                               uint32_t k,
                               uint64_t seed,
                               uint32_t device,
                               uint32_t maxIterations = 300);

    /**
     * \param point d values
     * \param centroids k x d
     * \param d dimension
     * \return the index of the nearest centroid (Euclidean; ties to the lower index)
     */
    static uint32_t Nearest(const double* point,
                            const std::vector<double>& centroids,
                            std::size_t d);

    /**
     * \brief Mean and maximum-likelihood covariance of each cluster (a cluster with no point
     * has count 0, zero mean and zero covariance).
     * \param x the points, n x d
     * \param d dimension
     * \param assign the cluster of each point (n of them)
     * \param k clusters
     * \return the k summaries
     */
    static std::vector<D2dGaussianCluster> Statistics(const std::vector<double>& x,
                                                      std::size_t d,
                                                      const std::vector<uint32_t>& assign,
                                                      uint32_t k);

    /**
     * \brief The statistics of the clusters with more points added (Alg. 2 step 9 after the
     * samples of step 8): each cluster's summary merged with that of its new points by the
     * pairwise update of Chan, Golub and LeVeque, "Updating Formulae and a Pairwise Algorithm
     * for Computing Sample Variances", 1979: n = n_a + n_b, mu = mu_a + (n_b / n) delta,
     * Sigma = (n_a Sigma_a + n_b Sigma_b + (n_a n_b / n) delta delta^T) / n, delta = mu_b -
     * mu_a. The cost is that of the new points only (their scatter is one BLAS 3 dsyrk per
     * cluster); the result equals Statistics of all the points to rounding (not bit for bit);
     * a cluster that gets no point keeps its summary's bits.
     * \param clusters the summaries of the points held (Statistics)
     * \param x the new points, m x d
     * \param d dimension
     * \param assign the cluster of each new point (m of them)
     * \return the summaries of the points held and the new ones
     */
    static std::vector<D2dGaussianCluster> WithPoints(
        const std::vector<D2dGaussianCluster>& clusters,
        const std::vector<double>& x,
        std::size_t d,
        const std::vector<uint32_t>& assign);
    /**
     * \brief WithPoints in place: the same arithmetic, without copying the clusters.
     * \param clusters the summaries of the points held, updated
     * \param x the new points, m x d
     * \param d dimension
     * \param assign the cluster of each new point (m of them)
     */
    static void AddPoints(std::vector<D2dGaussianCluster>& clusters,
                          const std::vector<double>& x,
                          std::size_t d,
                          const std::vector<uint32_t>& assign);

    /**
     * \brief Eq. (15): the share of a receiver's request each transmitter cluster l gets,
     * sum_l' ||mu_i^l' - mu_j^l|| / sum_l sum_l' ||mu_i^l' - mu_j^l||: clusters far from the
     * receiver's centroids give more. (The printed denominator has mu_j^l' where the
     * normalisation needs mu_j^l; read so that the shares sum to 1.) If every distance is 0,
     * the shares are equal.
     * \param receiver mu_i, L_i x d
     * \param transmitter mu_j, L_j x d
     * \param d dimension
     * \return L_j shares, summing to 1
     */
    static std::vector<double> AllotShares(const std::vector<double>& receiver,
                                           const std::vector<double>& transmitter,
                                           std::size_t d);

    /**
     * \brief Cholesky factor of a symmetric positive-definite matrix.
     * \param a d x d, row-major
     * \param d dimension
     * \param l out: the lower triangle L with L L^T = a (row-major, zeros above)
     * \return false if a is not positive definite (a pivot <= 0)
     */
    static bool Cholesky(const std::vector<double>& a, std::size_t d, std::vector<double>& l);

    /**
     * \brief KL(N(m1, S1) || N(m2, S2)) = (tr(S2^-1 S1) + (m2 - m1)^T S2^-1 (m2 - m1) - d
     * + ln(det S2 / det S1)) / 2, in nats, through Cholesky factors. Each covariance gets
     * ridge on its diagonal first.
     * \param m1 mean 1
     * \param s1 covariance 1, d x d
     * \param m2 mean 2
     * \param s2 covariance 2, d x d
     * \param ridge added to both diagonals (>= 0)
     * \return the divergence; +infinity if a covariance is not positive definite
     */
    static double KlDivergence(const std::vector<double>& m1,
                               const std::vector<double>& s1,
                               const std::vector<double>& m2,
                               const std::vector<double>& s2,
                               double ridge = 0.0);

    /**
     * \brief The factor of cov + ridge I that KlDivergence uses.
     * \param cov Sigma, d x d
     * \param d dimension
     * \param ridge added to the diagonal (>= 0)
     * \return the factor (ok false if not positive definite)
     */
    static D2dGaussianFactor Factor(const std::vector<double>& cov, std::size_t d, double ridge);

    /**
     * \brief KlDivergence from prepared factors: the same arithmetic, in the same order, as
     * KlDivergence(m1, s1, m2, s2, ridge) with f1 = Factor(s1, d, ridge), f2 = Factor(s2, d,
     * ridge), so the same bits.
     * \param m1 mean 1 (d values)
     * \param f1 factor of covariance 1
     * \param m2 mean 2
     * \param f2 factor of covariance 2
     * \return the divergence in nats; +infinity if a factor is not ok
     */
    static double KlDivergence(const std::vector<double>& m1,
                               const D2dGaussianFactor& f1,
                               const std::vector<double>& m2,
                               const D2dGaussianFactor& f2);

    /** How Sample draws its standard normal variates z. */
    enum NormalDraws
    {
        BOX_MULLER, //!< D2dDataRng::Normal (Box-Muller: a log, a sin and a cos per pair)
        ZIGGURAT    //!< D2dDataRng::NormalZiggurat (Marsaglia and Tsang 2000, via Boost.Random)
    };

    /**
     * \brief Alg. 2 step 8: count points from N(mean, cov), mean + L z with z standard normal
     * (drawn as draws says, point after point) and L the Cholesky factor of cov (jitter
     * 1e-9 tr(cov)/d, growing tenfold, until it factors).
     * \param cluster the Gaussian
     * \param count points to draw
     * \param rng the stream
     * \param draws how z is drawn (the two give different streams of the same distribution)
     * \return count x d points
     */
    static std::vector<double> Sample(const D2dGaussianCluster& cluster,
                                      uint64_t count,
                                      D2dDataRng& rng,
                                      NormalDraws draws = BOX_MULLER);

    /**
     * \brief The factor Sample draws with: the Cholesky factor of cov, with the jitter Sample
     * describes.
     * \param cluster the Gaussian
     * \return L, d x d row-major
     */
    static std::vector<double> SampleFactor(const D2dGaussianCluster& cluster);

    /**
     * \brief Sample with a factor prepared once (SampleFactor): the same draws and the same
     * bits as Sample(cluster, count, rng, draws).
     * \param mean the Gaussian's mean (d values)
     * \param factor SampleFactor of the Gaussian
     * \param count points to draw
     * \param rng the stream
     * \param draws how z is drawn
     * \return count x d points
     */
    static std::vector<double> Sample(const std::vector<double>& mean,
                                      const std::vector<double>& factor,
                                      uint64_t count,
                                      D2dDataRng& rng,
                                      NormalDraws draws = BOX_MULLER);
    /**
     * \brief Sample into a caller's array: z drawn point after point into out, then
     * out := mean + L z for all points at once (BLAS 3 dtrmm).
     * \param mean the Gaussian's mean (d values)
     * \param factor SampleFactor of the Gaussian
     * \param count points to draw (< 2^31)
     * \param rng the stream
     * \param draws how z is drawn
     * \param out count x d values, written
     */
    static void SampleTo(const std::vector<double>& mean,
                         const std::vector<double>& factor,
                         uint64_t count,
                         D2dDataRng& rng,
                         NormalDraws draws,
                         double* out);

    /**
     * \brief The data term of eq. (16): sum_l Tr(Sigma-tilde_i^l) / Tr(Sigma_i^l). A cluster
     * with Tr(Sigma) = 0 (fewer than two distinct points: the ratio is undefined) counts 1.
     * Nothing received: L (each ratio is 1).
     * \param before Sigma_i^l
     * \param after Sigma-tilde_i^l (same number of clusters)
     * \return the sum
     */
    static double TraceRatio(const std::vector<D2dGaussianCluster>& before,
                             const std::vector<D2dGaussianCluster>& after);

    /** Which means h^A of eq. (17) uses with the post-exchange covariances. */
    enum AgreementMix
    {
        POST_EXCHANGE, //!< N(mu-tilde, Sigma-tilde): the post-exchange Gaussians as they are
        PRINTED        //!< N(mu, Sigma-tilde): the pre-exchange means, as printed
    };

    /** The system agreement's sum and the number of terms it has. */
    struct Agreement
    {
        double sum{0};     //!< sum over i != j, l, l' of h^B / h^A (eq. (17), printed form)
        uint64_t terms{0}; //!< terms summed (pairs with a finite, positive h^A)
    };

    /**
     * \brief The system agreement of eq. (17): for each ordered pair of devices i != j and
     * clusters l, l', h^B = KL(N(mu_i^l, Sigma_i^l) || N(mu_j^l', Sigma_j^l')) before the
     * exchange and h^A after it (mix: which means), summed as h^B / h^A. Clusters with fewer
     * than 2 points are left out; a term whose h^A or h^B is not finite or h^A <= 0 is left
     * out.
     * \param before each device's clusters before
     * \param after each device's clusters after (same shape)
     * \param mix the means of h^A
     * \param ridge the KL divergences' ridge
     * \return the sum and its number of terms
     */
    static Agreement SystemAgreement(const std::vector<std::vector<D2dGaussianCluster>>& before,
                                     const std::vector<std::vector<D2dGaussianCluster>>& after,
                                     AgreementMix mix,
                                     double ridge);

    /**
     * \param d dimension
     * \return bytes of one cluster's {mean, covariance, count}: 4 (d + d^2) + 1 (float32
     * values and an 8-bit count, sec. IV-C)
     */
    static uint64_t ClusterMessageBytes(std::size_t d);
};

} // namespace ns3

#endif /* D2D_GAUSSIAN_CLUSTERS_H */
