/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_LABEL_PROPAGATION_H
#define D2D_LABEL_PROPAGATION_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Label propagation of Zhu and Ghahramani, "Learning from labeled and unlabeled data
 * with label propagation", CMU tech. report CMU-CALD-02-107, 2002, as the semi-supervised
 * paradigm of graph discovery labels each device's points (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, sec. V-A1), on the points' projections on the distributed-PCA subspace.
 *
 * The graph: each point's k nearest neighbours (Euclidean, ties to the lower index), made
 * symmetric (an edge if either point is among the other's k nearest), weight 1 per edge (the
 * "knn kernel" whose k the paper's App. D-C varies). The iteration: Y <- D^-1 W Y, then the
 * labelled rows clamped back to their one-hot labels, from Y = one-hot on the labelled points
 * and 0 elsewhere, until no entry changes by more than the tolerance (or maxIterations);
 * its fixed point is the harmonic solution. A point takes the label of its largest entry (the
 * lower label on a tie); a point that no labelled point reaches (a component without one)
 * takes the label of its nearest labelled point.
 *
 * Pure and deterministic.
 */
class D2dLabelPropagation
{
  public:
    /** The outcome of a propagation. */
    struct Result
    {
        std::vector<int64_t> labels; //!< every point's label (the given one if labelled)
        std::vector<double> scores;  //!< Y at the end, n x L row-major
        uint32_t iterations{0};      //!< iterations run
        bool converged{false};       //!< the change fell below the tolerance
    };

    /**
     * \param x the points, n x dims row-major
     * \param n n (> 0)
     * \param dims dims (> 0)
     * \param given a label in [0, L) for a labelled point, -1 for an unlabelled one (n entries,
     *        at least one labelled)
     * \param nLabels L (> 0)
     * \param k neighbours (> 0; min(k, n - 1) are used)
     * \param maxIterations at most this many iterations (> 0)
     * \param tolerance stop when the largest change of Y is at most this
     * \return the labels and scores
     * \throws std::invalid_argument naming the parameter on bad input
     */
    static Result Propagate(const std::vector<double>& x,
                            std::size_t n,
                            std::size_t dims,
                            const std::vector<int64_t>& given,
                            uint32_t nLabels,
                            uint32_t k,
                            uint32_t maxIterations = 1000,
                            double tolerance = 1e-6);

    /**
     * \brief The symmetric kNN graph.
     * \param x n x dims
     * \param n n
     * \param dims dims
     * \param k neighbours
     * \return each point's neighbours, ascending
     */
    static std::vector<std::vector<uint32_t>> KnnGraph(const std::vector<double>& x,
                                                       std::size_t n,
                                                       std::size_t dims,
                                                       uint32_t k);

    /**
     * \brief Which points of a device are labelled (sec. V-A1): max(round(fraction n),
     * labels present) points, first one drawn uniformly from each label present (in label
     * order), then the rest uniformly from the remaining points.
     * \param labels the true labels of the device's points
     * \param fraction the labelled fraction, in (0, 1]
     * \param seed the seed (with device: an own random stream)
     * \param device the device (the stream's index)
     * \return true for a labelled point
     * \throws std::invalid_argument if fraction is outside (0, 1]
     */
    static std::vector<bool> ChooseLabelled(const std::vector<int64_t>& labels,
                                            double fraction,
                                            uint64_t seed,
                                            uint32_t device);
};

} // namespace ns3

#endif /* D2D_LABEL_PROPAGATION_H */
