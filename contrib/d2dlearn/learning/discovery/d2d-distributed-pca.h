/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_DISTRIBUTED_PCA_H
#define D2D_DISTRIBUTED_PCA_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Distributed PCA of Liang, Balcan, Kanchanapally and Woodruff, "Improved distributed
 * principal component analysis", NeurIPS 2014, as graph discovery's semi-supervised and
 * unsupervised paradigms use it (Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, secs. V-A1, V-B1).
 *
 * Device i with data A_i (n_i x D, one datapoint a row) computes its thin SVD A_i = U S V^T and
 * sends the sketch S_t V_t^T: its top-t right singular vectors scaled by their singular values
 * (t x D). The server stacks the sketches and returns F, the top-d right singular vectors of
 * the stack (D x d, here stored as d rows of length D). Since the sketch's Gram matrix
 * V_t S_t^2 V_t^T equals A_i^T A_i when t = rank(A_i), the stack's top-d subspace is then
 * exactly the one of the stacked data (A_1; ...; A_N): centralised PCA.
 *
 * Reading chosen: PCA here is the best rank-d subspace of the data matrix as it is (not
 * centred), the object of Liang et al.'s theorems; centring would need the global mean, one
 * more round of messages the paper does not describe.
 *
 * Matrices are row-major std::vector<double>. Pure functions; the SVDs are LAPACK's (LibTorch's
 * linalg_svd in double precision, in the learning library: this header is torch-free).
 * Singular vectors are signed so that their largest-magnitude entry (the first of equal
 * ones) is positive.
 */
class D2dDistributedPca
{
  public:
    /**
     * \brief Top right singular vectors of a matrix.
     * \param a rows x cols, row-major
     * \param rows its rows (> 0)
     * \param cols its columns (> 0)
     * \param t how many to keep (> 0; at most min(rows, cols) are returned)
     * \param[out] values their singular values, descending
     * \return the vectors, one per row (values.size() x cols)
     * \throws std::invalid_argument on an empty matrix, t = 0 or a size mismatch
     */
    static std::vector<double> TopRightSingular(const std::vector<double>& a,
                                                std::size_t rows,
                                                std::size_t cols,
                                                std::size_t t,
                                                std::vector<double>& values);
    /**
     * \brief Device i's message: its top-t right singular vectors scaled by their singular
     * values.
     * \param a A_i (rows x cols)
     * \param rows n_i
     * \param cols D
     * \param t t (> 0)
     * \return min(t, rows, cols) rows of length D
     */
    static std::vector<double> LocalSketch(const std::vector<double>& a,
                                           std::size_t rows,
                                           std::size_t cols,
                                           std::size_t t);
    /**
     * \brief The server's answer: the common subspace.
     * \param sketches the devices' sketches (each a multiple of cols values)
     * \param cols D
     * \param d d (> 0, at most the stack's rows and D)
     * \return F^T: d orthonormal rows of length D, by decreasing singular value
     * \throws std::invalid_argument if d exceeds what the stack holds
     */
    static std::vector<double> CommonSubspace(const std::vector<std::vector<double>>& sketches,
                                              std::size_t cols,
                                              std::size_t d);
    /**
     * \brief M_i = A_i F.
     * \param a rows x cols
     * \param rows rows
     * \param cols D
     * \param basis F^T (d x D)
     * \param d d
     * \return rows x d
     */
    static std::vector<double> Project(const std::vector<double>& a,
                                       std::size_t rows,
                                       std::size_t cols,
                                       const std::vector<double>& basis,
                                       std::size_t d);
    /**
     * \brief Largest principal angle between two subspaces given by orthonormal rows:
     * asin of the spectral norm of (I - Q Q^T) P, from the singular values of the residual.
     * \param p d x D, orthonormal rows
     * \param q d' x D, orthonormal rows (d' >= d)
     * \param d rows of p
     * \param dq rows of q
     * \param cols D
     * \return the angle, radians, in [0, pi/2]
     */
    static double MaxPrincipalAngle(const std::vector<double>& p,
                                    const std::vector<double>& q,
                                    std::size_t d,
                                    std::size_t dq,
                                    std::size_t cols);
};

} // namespace ns3

#endif /* D2D_DISTRIBUTED_PCA_H */
