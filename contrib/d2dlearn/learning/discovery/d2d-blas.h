/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BLAS_H
#define D2D_BLAS_H

#include <cstddef>

/**
 * \file
 * \ingroup d2dlearn
 * The BLAS and LAPACK routines graph discovery's Gaussian clusters call (Debian's
 * libblas.so.3 and liblapack.so.3 alternatives: OpenBLAS after setup.sh), declared once in the
 * Fortran calling convention: column-major arrays, arguments by address, and the hidden
 * lengths of the character arguments last (gfortran's ABI). (Internal: not a published
 * header.)
 */
extern "C"
{
    /** LAPACK: Cholesky factor of a symmetric positive definite matrix. */
    void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
    /** LAPACK: inverse of a triangular matrix. */
    void dtrtri_(const char* uplo,
                 const char* diag,
                 const int* n,
                 double* a,
                 const int* lda,
                 int* info,
                 size_t,
                 size_t);
    /** LAPACK: U U^T or L^T L of a triangular matrix, in place (one triangle). */
    void dlauum_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
    /** BLAS 3: B = alpha op(A)^-1 B (side 'L') or alpha B op(A)^-1 ('R'), A triangular. */
    void dtrsm_(const char* side,
                const char* uplo,
                const char* transa,
                const char* diag,
                const int* m,
                const int* n,
                const double* alpha,
                const double* a,
                const int* lda,
                double* b,
                const int* ldb,
                size_t,
                size_t,
                size_t,
                size_t);
    /** BLAS 3: C = alpha op(A) op(B) + beta C. */
    void dgemm_(const char* transa,
                const char* transb,
                const int* m,
                const int* n,
                const int* k,
                const double* alpha,
                const double* a,
                const int* lda,
                const double* b,
                const int* ldb,
                const double* beta,
                double* c,
                const int* ldc,
                size_t,
                size_t);
    /** BLAS 3: C = alpha A A^T + beta C (trans 'N') or alpha A^T A + beta C ('T'), one
     * triangle of C. */
    void dsyrk_(const char* uplo,
                const char* trans,
                const int* n,
                const int* k,
                const double* alpha,
                const double* a,
                const int* lda,
                const double* beta,
                double* c,
                const int* ldc,
                size_t,
                size_t);
    /** BLAS 3: B = alpha op(A) B (side 'L') or alpha B op(A) ('R'), A triangular. */
    void dtrmm_(const char* side,
                const char* uplo,
                const char* transa,
                const char* diag,
                const int* m,
                const int* n,
                const double* alpha,
                const double* a,
                const int* lda,
                double* b,
                const int* ldb,
                size_t,
                size_t,
                size_t,
                size_t);
}

#endif /* D2D_BLAS_H */
