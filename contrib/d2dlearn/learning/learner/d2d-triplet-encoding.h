/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRIPLET_ENCODING_H
#define D2D_TRIPLET_ENCODING_H

#include <cstdint>
#include <vector>

namespace ns3
{

/** \brief The ranges of the random augmentation that makes a triplet's positive. */
struct D2dAugmentOptions
{
    double maxRotationDeg{30}; //!< angle uniform in [-max, max], degrees (0: no rotation)
    double maxBlurSigma{2.0};  //!< Gaussian blur sigma uniform in [0, max], pixels (0: none)
};

/**
 * \ingroup d2dlearn
 * \brief The self-supervised learner of the unsupervised paradigm (D2dModelSpec "triplet"):
 * a small convolutional encoder with an 8-dimensional embedding trained with FaceNet's
 * triplet loss, and its linear evaluation. Torch-free: the functions take and return flat
 * float vectors (the learners use the same code on tensors).
 *
 * Wagle, Das, Love, Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning", 2025, eq. 4: L = sum_d Triplet(phi, d, F(d)), the anchor
 * d a local point, the positive F(d) a random augmentation of it ("such as rotation or
 * blur"), the negative a random other local point; triplet loss of Schroff, Kalenichenko,
 * Philbin, "FaceNet: A Unified Embedding for Face Recognition and Clustering", 2015.
 *
 * Training (a job of D2dLearner, inside simulated time): each mini-batch of anchors (the
 * epoch's random order, as for every learner) gets, from the device's generator, B
 * rotation angles, B blur widths (D2dAugmentOptions{30 degrees, sigma 2 pixels}: assumed,
 * the paper gives no ranges) and B negatives drawn uniformly among the device's other
 * points; the three batches pass through the encoder together and the loss is the batch
 * mean of max(0, ||f(a) - f(p)||^2 - ||f(a) - f(n)||^2 + margin) on unit-norm embeddings
 * (margin: "triplet:M", default 0.2 as FaceNet). A sample costs three forward and backward
 * passes plus the augmentation (GetTrainingFlopsPerSample).
 *
 * Linear evaluation (the accuracy the protocols trace in rounds.csv for this model; the
 * paper, sec. VI, only says "linear evaluation [Chen et al. 2020]"). Assumptions:
 *  - trained at every evaluation, at no simulated cost (like every test evaluation): it is a
 *    measurement of the encoder, not part of the federated process;
 *  - on the embeddings of the whole labelled training set the scenario loaded (the union of
 *    the devices' shards and any sample no device holds), with the true labels, the encoder
 *    frozen (NoGradGuard, eval mode), as Chen et al. 2020 train their linear classifier on
 *    the full training set;
 *  - the embeddings standardised per dimension with the training set's mean and standard
 *    deviation (the test embeddings with the same figures);
 *  - a softmax regression (8 x classes weights and classes biases), initial weights zero,
 *    full-batch Adam with learning rate LinearEvalLearningRate for LinearEvalEpochs epochs
 *    (full passes), no weight decay: deterministic, no random draw;
 *  - scored on the test set: accuracy and mean cross-entropy (D2dEvalResult).
 */
class D2dTripletEncoding
{
  public:
    static constexpr int64_t EmbeddingDim = 8;             //!< embedding dimensions
    static constexpr int64_t Channels[3] = {8, 16, 16};    //!< the convolutions' channels
    static constexpr double DefaultMargin = 0.2;           //!< FaceNet's alpha
    static constexpr uint32_t LinearEvalEpochs = 200;      //!< full-batch Adam steps
    static constexpr double LinearEvalLearningRate = 0.05; //!< Adam's learning rate
    static constexpr int64_t KernelRadius = 2;             //!< blur kernel: 5 x 5

    /**
     * \brief FaceNet's triplet loss (batch mean, squared Euclidean distances, no
     * normalisation of the given embeddings).
     * \param anchors row-major B x dim
     * \param positives row-major B x dim
     * \param negatives row-major B x dim
     * \param dim embedding dimensions (>= 1)
     * \param margin alpha (>= 0)
     * \return (1/B) sum_i max(0, ||a_i - p_i||^2 - ||a_i - n_i||^2 + margin)
     */
    static double Loss(const std::vector<float>& anchors,
                       const std::vector<float>& positives,
                       const std::vector<float>& negatives,
                       uint32_t dim,
                       double margin);

    /**
     * \brief Rotate images counter-clockwise about their centres (bilinear, zeros outside).
     * \param images row-major [B, C, H, W]
     * \param shape {B, C, H, W}
     * \param degrees B angles, degrees
     * \return the rotated images, same shape
     */
    static std::vector<float> Rotate(const std::vector<float>& images,
                                     const std::vector<int64_t>& shape,
                                     const std::vector<double>& degrees);

    /**
     * \brief Gaussian blur, a 5 x 5 kernel normalised to sum 1, zeros outside the image.
     * \param images row-major [B, C, H, W]
     * \param shape {B, C, H, W}
     * \param sigmas B standard deviations, pixels (< 1e-3: unchanged)
     * \return the blurred images, same shape
     */
    static std::vector<float> Blur(const std::vector<float>& images,
                                   const std::vector<int64_t>& shape,
                                   const std::vector<double>& sigmas);

    /**
     * \brief The random augmentation of the learner's training, with a generator seeded
     * with seed (the learner uses the device's own).
     * \param images row-major [B, C, H, W]
     * \param shape {B, C, H, W}
     * \param seed the generator's seed
     * \param options the ranges
     * \return the augmented images, same shape
     */
    static std::vector<float> Augment(const std::vector<float>& images,
                                      const std::vector<int64_t>& shape,
                                      uint64_t seed,
                                      const D2dAugmentOptions& options);
};

} // namespace ns3

#endif /* D2D_TRIPLET_ENCODING_H */
