/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-kl-blocks.h"

#include "d2d-blas.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{
/**
 * \brief Row-major C (m x n) = A (m x k) B^T (B n x k), both row-major: in the column-major
 * terms of BLAS, C^T = B A^T, i.e. dgemm('T', 'N', n, m, k, B, A).
 * \param a A \param b B \param c C \param m rows of A \param n rows of B \param k columns
 */
void
RowsTimesRowsT(const double* a, const double* b, double* c, int m, int n, int k)
{
    const double one = 1.0;
    const double zero = 0.0;
    dgemm_("T", "N", &n, &m, &k, &one, b, &k, a, &k, &zero, c, &n, 1, 1);
}

/** The operands and products of D2dKlBlocks::Divergences, kept by each thread. */
struct Buffers
{
    std::vector<double> a;       //!< the rows: packed S_a + x_a x_a^T, then x_a
    std::vector<double> b;       //!< the columns: packed S_b^-1, then -2 S_b^-1 x_b
    std::vector<double> terms;   //!< their products, rows x columns
    std::vector<double> centre;  //!< the means' average
    std::vector<double> centred; //!< the means, centred on it (x)
    std::vector<double> self;    //!< x_b^T S_b^-1 x_b per column
};

/** At or below this order the recursions call LAPACK's own routine. */
constexpr int RECURSION_BASE = 16;

/** A column-major square matrix of order n split in halves: [A 0; B C], A of order n / 2. */
struct Halves
{
    /**
     * \param n order \param a the matrix \param lda its leading dimension
     */
    Halves(int n, double* a, int lda)
        : n1(n / 2),
          n2(n - n / 2),
          a11(a),
          a21(a + n / 2),
          a22(a + n / 2 + static_cast<std::size_t>(n / 2) * lda)
    {
    }

    int n1;      //!< order of A
    int n2;      //!< order of C
    double* a11; //!< A
    double* a21; //!< B (n2 x n1)
    double* a22; //!< C
};

/**
 * \brief L := L^-1 for a lower triangular L (column-major, leading dimension lda) by recursive
 * halving (Elmroth, Gustavson, Jonsson and Kagstrom, "Recursive Blocked Algorithms and Hybrid
 * Data Structures for Dense Matrix Library Software", SIAM Review 46(1), 2004): with
 * L = [A 0; B C], L^-1 = [A^-1 0; -C^-1 B A^-1 C^-1], the off-diagonal block by BLAS 3
 * (dtrmm, dtrsm). OpenBLAS's dtrtri runs a matrix-vector loop below order 64, every d of the
 * defaults; halved down to order 16, most of the work is matrix-matrix (bench-kl-blocks
 * prints the preparations' rate).
 * \param n order \param a L, overwritten \param lda leading dimension
 * \return LAPACK's info of the diagonal blocks (0: invertible)
 */
int
InvertLower(int n, double* a, int lda)
{
    int info = 0;
    if (n <= RECURSION_BASE)
    {
        dtrtri_("L", "N", &n, a, &lda, &info, 1, 1);
        return info;
    }
    const Halves h(n, a, lda);
    const double one = 1.0;
    const double minusOne = -1.0;
    if ((info = InvertLower(h.n1, h.a11, lda)) != 0)
    {
        return info;
    }
    // B := B A^-1, then B := -C^-1 B with C not yet inverted.
    dtrmm_("R", "L", "N", "N", &h.n2, &h.n1, &one, h.a11, &lda, h.a21, &lda, 1, 1, 1, 1);
    dtrsm_("L", "L", "N", "N", &h.n2, &h.n1, &minusOne, h.a22, &lda, h.a21, &lda, 1, 1, 1, 1);
    return InvertLower(h.n2, h.a22, lda);
}

/**
 * \brief The lower triangle of W^T W in place over a lower triangular W (LAPACK's dlauum with
 * 'L'), by recursive halving: with W = [A 0; B C], W^T W = [A^T A + B^T B, .; C^T B, C^T C],
 * the blocks by BLAS 3 (dsyrk, dtrmm).
 * \param n order \param a W, overwritten \param lda leading dimension
 */
void
LowerGram(int n, double* a, int lda)
{
    if (n <= RECURSION_BASE)
    {
        int info = 0;
        dlauum_("L", &n, a, &lda, &info, 1);
        return;
    }
    const Halves h(n, a, lda);
    const double one = 1.0;
    LowerGram(h.n1, h.a11, lda);
    dsyrk_("L", "T", &h.n1, &h.n2, &one, h.a21, &lda, &one, h.a11, &lda, 1, 1);
    dtrmm_("L", "L", "T", "N", &h.n2, &h.n1, &one, h.a22, &lda, h.a21, &lda, 1, 1, 1, 1);
    LowerGram(h.n2, h.a22, lda);
}
} // namespace

D2dGaussianPrecision
D2dKlBlocks::Precision(const std::vector<double>& cov, std::size_t d, double ridge)
{
    if (d == 0 || cov.size() != d * d || !(ridge >= 0))
    {
        throw std::invalid_argument("D2dKlBlocks::Precision: a d x d covariance, ridge >= 0");
    }
    D2dGaussianPrecision p;
    // Row-major symmetric = its own transpose: the column-major lower triangle of the copy is
    // the matrix's lower triangle, and so is its factor's.
    p.precision = cov;
    for (std::size_t e = 0; e < d; ++e)
    {
        p.precision[e * d + e] += ridge;
    }
    p.covPacked.resize(d * (d + 1) / 2);
    std::size_t t = 0;
    for (std::size_t r = 0; r < d; ++r)
    {
        for (std::size_t c = 0; c <= r; ++c)
        {
            p.covPacked[t++] = p.precision[r * d + c];
        }
    }
    for (double v : p.precision)
    {
        if (!std::isfinite(v))
        {
            p.precision.clear();
            return p; // not ok: dpotrf would not see every non-finite entry
        }
    }
    const int n = static_cast<int>(d);
    int info = 0;
    dpotrf_("L", &n, p.precision.data(), &n, &info, 1);
    if (info != 0)
    {
        p.precision.clear();
        return p;
    }
    double logDet = 0;
    for (std::size_t e = 0; e < d; ++e)
    {
        logDet += std::log(p.precision[e * d + e]);
    }
    p.logDet = 2.0 * logDet;
    // (Sigma + ridge I)^-1 = L^-T L^-1, what LAPACK's dpotri computes, in BLAS 3 blocks.
    info = InvertLower(n, p.precision.data(), n);
    if (info == 0)
    {
        LowerGram(n, p.precision.data(), n);
    }
    if (info != 0)
    {
        p.precision.clear();
        return p;
    }
    // LowerGram filled the column-major lower triangle, element (r, c), r >= c, at c d + r:
    // mirror it into the other half, and pack it (off-diagonal entries doubled).
    p.precisionPacked.resize(d * (d + 1) / 2);
    t = 0;
    for (std::size_t r = 0; r < d; ++r)
    {
        for (std::size_t c = 0; c <= r; ++c)
        {
            const double v = p.precision[c * d + r];
            p.precision[r * d + c] = v;
            p.precisionPacked[t++] = r == c ? v : 2.0 * v;
        }
    }
    p.ok = true;
    return p;
}

uint64_t
D2dKlBlocks::Divergences(const std::vector<const double*>& meanA,
                         const std::vector<const D2dGaussianPrecision*>& rowsA,
                         const std::vector<const double*>& meanB,
                         const std::vector<const D2dGaussianPrecision*>& rowsB,
                         std::size_t d,
                         std::vector<double>& out)
{
    const std::size_t na = rowsA.size();
    const std::size_t nb = rowsB.size();
    if (meanA.size() != na || meanB.size() != nb || d == 0)
    {
        throw std::invalid_argument("D2dKlBlocks::Divergences: one mean per Gaussian");
    }
    out.assign(na * nb, std::numeric_limits<double>::infinity());
    if (na == 0 || nb == 0)
    {
        return 0;
    }
    const std::size_t tp = d * (d + 1) / 2;
    // One row of an operand: a packed lower triangle, then d values.
    const std::size_t width = tp + d;
    // The operands, in buffers of the calling thread kept from one call to the next: every
    // entry is written before it is read.
    thread_local Buffers buffers;
    auto& a = buffers.a;
    auto& b = buffers.b;
    auto& terms = buffers.terms;
    auto& centre = buffers.centre;
    auto& centred = buffers.centred;
    auto& self = buffers.self;
    // The means centred on their average m_0 (which changes no difference, and keeps the
    // expansion below small): x = m - m_0.
    const std::size_t nm = na + nb;
    centre.assign(d, 0.0);
    for (std::size_t r = 0; r < nm; ++r)
    {
        const double* m = r < na ? meanA[r] : meanB[r - na];
        for (std::size_t e = 0; e < d; ++e)
        {
            centre[e] += m[e];
        }
    }
    for (double& c : centre)
    {
        c /= static_cast<double>(nm);
    }
    centred.resize(nm * d);
    for (std::size_t r = 0; r < nm; ++r)
    {
        const double* m = r < na ? meanA[r] : meanB[r - na];
        for (std::size_t e = 0; e < d; ++e)
        {
            centred[r * d + e] = m[e] - centre[e];
        }
    }
    // With P = S_b^-1 (symmetric), x_a, x_b the centred means:
    //   tr(P S_a) + (x_b - x_a)^T P (x_b - x_a)
    //     = <P, S_a + x_a x_a^T>_F - 2 x_a . (P x_b) + x_b^T P x_b,
    // so the trace and the Mahalanobis term of every pair are one dot product of a row
    // [packed (S_a + x_a x_a^T), x_a] with a column [packed P (off-diagonal entries
    // doubled), -2 P x_b], and x_b^T P x_b once per column. Rows and columns of a Gaussian
    // that is not ok are zeros: their entries are set to +infinity below.
    a.resize(na * width);
    for (std::size_t r = 0; r < na; ++r)
    {
        double* row = &a[r * width];
        if (!rowsA[r]->ok)
        {
            std::fill_n(row, width, 0.0);
            continue;
        }
        const double* cov = rowsA[r]->covPacked.data();
        const double* x = &centred[r * d];
        std::size_t t = 0;
        for (std::size_t e = 0; e < d; ++e)
        {
            const double xe = x[e];
            for (std::size_t f = 0; f <= e; ++f, ++t)
            {
                row[t] = cov[t] + xe * x[f];
            }
        }
        std::memcpy(row + tp, x, d * sizeof(double));
    }
    b.resize(nb * width);
    self.assign(nb, 0.0);
    for (std::size_t c = 0; c < nb; ++c)
    {
        double* row = &b[c * width];
        if (!rowsB[c]->ok)
        {
            std::fill_n(row, width, 0.0);
            continue;
        }
        std::memcpy(row, rowsB[c]->precisionPacked.data(), tp * sizeof(double));
        // v = P x_b as a sum of P's columns (its rows: P is symmetric), which vectorises
        // where a dot product per entry would be a chain of dependent additions.
        const double* p = rowsB[c]->precision.data();
        const double* x = &centred[(na + c) * d];
        double* v = row + tp;
        std::fill_n(v, d, 0.0);
        for (std::size_t f = 0; f < d; ++f)
        {
            const double xf = x[f];
            const double* pf = p + f * d;
            for (std::size_t e = 0; e < d; ++e)
            {
                v[e] += pf[e] * xf;
            }
        }
        double quad = 0;
        for (std::size_t e = 0; e < d; ++e)
        {
            quad += x[e] * v[e];
            v[e] *= -2.0;
        }
        self[c] = quad;
    }
    terms.resize(na * nb);
    RowsTimesRowsT(a.data(),
                   b.data(),
                   terms.data(),
                   static_cast<int>(na),
                   static_cast<int>(nb),
                   static_cast<int>(width));
    for (std::size_t c = 0; c < nb; ++c)
    {
        if (!rowsB[c]->ok)
        {
            continue;
        }
        for (std::size_t r = 0; r < na; ++r)
        {
            if (!rowsA[r]->ok)
            {
                continue;
            }
            out[r * nb + c] = 0.5 * (terms[r * nb + c] + self[c] - static_cast<double>(d) +
                                     rowsB[c]->logDet - rowsA[r]->logDet);
        }
    }
    return static_cast<uint64_t>(nb) * (na * width + d * d);
}

} // namespace ns3
