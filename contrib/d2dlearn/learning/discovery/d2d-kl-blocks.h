/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_KL_BLOCKS_H
#define D2D_KL_BLOCKS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A Gaussian's covariance prepared for many KL divergences at once (D2dKlBlocks):
 * Sigma + ridge I, its inverse and its log-determinant.
 */
struct D2dGaussianPrecision
{
    /** Sigma + ridge I: its lower triangle row by row, d (d + 1) / 2 values */
    std::vector<double> covPacked;
    std::vector<double> precision; //!< (Sigma + ridge I)^-1, d x d, symmetric (if ok)
    /** (Sigma + ridge I)^-1's lower triangle row by row, the off-diagonal entries doubled, so
     * that its dot product with covPacked of another is tr(S_b^-1 S_a) (if ok) */
    std::vector<double> precisionPacked;
    double logDet{0}; //!< ln det(Sigma + ridge I), nats (if ok)
    bool ok{false};   //!< false if Sigma + ridge I is not positive definite
};

/**
 * \ingroup d2dlearn
 * \brief Blocks of Gaussian KL divergences as dense linear algebra (BLAS and LAPACK): the
 * kernel under the system agreement of eq. (17) of Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025.
 *
 * KL(N(m_a, S_a) || N(m_b, S_b)) = (tr(S_b^-1 S_a) + (m_b - m_a)^T S_b^-1 (m_b - m_a) - d
 * + ln det S_b - ln det S_a) / 2. The textbook route (D2dGaussianClusters::KlDivergence)
 * solves L_b Y = L_a for every pair: d^3/6 multiply-adds a pair, one pair at a time. Here
 * each Gaussian is prepared once (Precision: LAPACK dpotrf, then the inverse L^-T L^-1 by
 * recursive BLAS-3 halving; d^3 / 2 multiply-adds)
 * and then, because both matrices are symmetric, tr(S_b^-1 S_a) = <S_b^-1, S_a>_F = the
 * dot product of their lower triangles with the off-diagonal products counted twice. The
 * Mahalanobis term joins it: with the means centred on the block's average (x = m - m_0,
 * which changes no difference) and P = S_b^-1,
 *   tr(P S_a) + (x_b - x_a)^T P (x_b - x_a) = <P, S_a + x_a x_a^T>_F - 2 x_a . (P x_b)
 *                                              + x_b^T P x_b,
 * so every pair of a block of rows a and columns b is one dot product of a row [packed
 * (S_a + x_a x_a^T), x_a] with a column [packed P, -2 P x_b]: one matrix product (dgemm,
 * d (d + 1) / 2 + d multiply-adds a pair), and x_b^T P x_b once per column (d^2). For d = 50
 * that is about 1,300 multiply-adds a pair in BLAS-3 against about 22,100 in scalar loops.
 * (Until 2026-11 the Mahalanobis terms took a second product of all the means with the
 * columns' S_b^-1, d^2 a pair more: about 3,800 a pair, and slower at the blocks' sizes.)
 *
 * The arithmetic is not the textbook's order: results agree with it to rounding (the tests
 * check 1e-9 relative to the size of the terms, ill-conditioned covariances included), not
 * bit for bit. The same inputs in the same calls give the same bits: the BLAS is held to one
 * thread (D2dTorchRuntime), so the bits do not depend on how many threads call it.
 */
class D2dKlBlocks
{
  public:
    /**
     * \brief Prepare a covariance: Sigma + ridge I, its Cholesky factor (dpotrf), its
     * log-determinant 2 sum ln L_ee and its inverse L^-T L^-1 (what LAPACK's dpotri computes,
     * by recursive halving into BLAS 3 blocks: dtrmm, dtrsm, dsyrk).
     * \param cov Sigma, d x d row-major (symmetric)
     * \param d dimension (> 0)
     * \param ridge added to the diagonal (>= 0)
     * \return the prepared covariance (ok false if Sigma + ridge I is not positive definite)
     */
    static D2dGaussianPrecision Precision(const std::vector<double>& cov,
                                          std::size_t d,
                                          double ridge);

    /**
     * \brief One block of divergences: out[a nb + b] = KL(N(meanA[a], rowsA[a]) ||
     * N(meanB[b], rowsB[b])), +infinity where either is not ok.
     * \param meanA the rows' means (d values each)
     * \param rowsA the rows' prepared covariances
     * \param meanB the columns' means
     * \param rowsB the columns' prepared covariances
     * \param d dimension
     * \param out resized to rowsA.size() x rowsB.size(), row-major
     * \return the multiply-adds of the block's matrix product and of its columns' P x_b,
     * nb (na (d (d + 1) / 2 + d) + d^2)
     */
    static uint64_t Divergences(const std::vector<const double*>& meanA,
                                const std::vector<const D2dGaussianPrecision*>& rowsA,
                                const std::vector<const double*>& meanB,
                                const std::vector<const D2dGaussianPrecision*>& rowsB,
                                std::size_t d,
                                std::vector<double>& out);
};

} // namespace ns3

#endif /* D2D_KL_BLOCKS_H */
