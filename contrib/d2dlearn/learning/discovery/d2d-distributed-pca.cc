/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-distributed-pca.h"

// The operators used, not <ATen/ATen.h> (every operator's header: 6 s of parsing).
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/linalg_matrix_norm.h>
#include <ATen/ops/linalg_svd.h>
#include <ATen/ops/matmul.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
/** \return a double tensor holding a copy of a (rows x cols) */
at::Tensor
ToTensor(const std::vector<double>& a, std::size_t rows, std::size_t cols)
{
    if (rows == 0 || cols == 0 || a.size() != rows * cols)
    {
        throw std::invalid_argument("D2dDistributedPca: a matrix of " + std::to_string(rows) +
                                    " x " + std::to_string(cols) + " needs that many values, got " +
                                    std::to_string(a.size()));
    }
    return at::from_blob(const_cast<double*>(a.data()),
                         {static_cast<int64_t>(rows), static_cast<int64_t>(cols)},
                         at::TensorOptions().dtype(at::kDouble))
        .clone();
}

/** \return the values of a contiguous double tensor */
std::vector<double>
FromTensor(const at::Tensor& t)
{
    at::Tensor c = t.contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}
} // namespace

std::vector<double>
D2dDistributedPca::TopRightSingular(const std::vector<double>& a,
                                    std::size_t rows,
                                    std::size_t cols,
                                    std::size_t t,
                                    std::vector<double>& values)
{
    if (t == 0)
    {
        throw std::invalid_argument("D2dDistributedPca: t must be at least 1");
    }
    at::Tensor m = ToTensor(a, rows, cols);
    // Thin SVD (LAPACK gesdd): m = U diag(S) Vh, S descending.
    auto [u, s, vh] = at::linalg_svd(m, /*full_matrices=*/false);
    const std::size_t keep = std::min({t, rows, cols});
    std::vector<double> sv = FromTensor(s);
    std::vector<double> v = FromTensor(vh.slice(0, 0, static_cast<int64_t>(keep)));
    values.assign(sv.begin(), sv.begin() + keep);
    for (std::size_t r = 0; r < keep; ++r)
    {
        // Sign: the largest-magnitude entry (the first of equal ones) positive.
        std::size_t best = 0;
        for (std::size_t c = 1; c < cols; ++c)
        {
            if (std::abs(v[r * cols + c]) > std::abs(v[r * cols + best]))
            {
                best = c;
            }
        }
        if (v[r * cols + best] < 0)
        {
            for (std::size_t c = 0; c < cols; ++c)
            {
                v[r * cols + c] = -v[r * cols + c];
            }
        }
    }
    return v;
}

std::vector<double>
D2dDistributedPca::LocalSketch(const std::vector<double>& a,
                               std::size_t rows,
                               std::size_t cols,
                               std::size_t t)
{
    std::vector<double> values;
    std::vector<double> v = TopRightSingular(a, rows, cols, t, values);
    for (std::size_t r = 0; r < values.size(); ++r)
    {
        for (std::size_t c = 0; c < cols; ++c)
        {
            v[r * cols + c] *= values[r];
        }
    }
    return v;
}

std::vector<double>
D2dDistributedPca::CommonSubspace(const std::vector<std::vector<double>>& sketches,
                                  std::size_t cols,
                                  std::size_t d)
{
    if (cols == 0)
    {
        throw std::invalid_argument("D2dDistributedPca: D must be at least 1");
    }
    std::vector<double> stack;
    for (const auto& s : sketches)
    {
        if (s.size() % cols != 0)
        {
            throw std::invalid_argument(
                "D2dDistributedPca: a sketch of " + std::to_string(s.size()) +
                " values is not a whole number of rows of " + std::to_string(cols));
        }
        stack.insert(stack.end(), s.begin(), s.end());
    }
    const std::size_t rows = stack.size() / cols;
    if (d == 0 || d > std::min(rows, cols))
    {
        throw std::invalid_argument("D2dDistributedPca: d = " + std::to_string(d) +
                                    " must be in [1, " + std::to_string(std::min(rows, cols)) +
                                    "] (the rows the sketches stack and D)");
    }
    std::vector<double> values;
    return TopRightSingular(stack, rows, cols, d, values);
}

std::vector<double>
D2dDistributedPca::Project(const std::vector<double>& a,
                           std::size_t rows,
                           std::size_t cols,
                           const std::vector<double>& basis,
                           std::size_t d)
{
    if (basis.size() != d * cols || a.size() != rows * cols)
    {
        throw std::invalid_argument("D2dDistributedPca::Project: sizes disagree");
    }
    std::vector<double> out(rows * d, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
    {
        const double* x = a.data() + r * cols;
        for (std::size_t k = 0; k < d; ++k)
        {
            const double* f = basis.data() + k * cols;
            double dot = 0;
            for (std::size_t c = 0; c < cols; ++c)
            {
                dot += x[c] * f[c];
            }
            out[r * d + k] = dot;
        }
    }
    return out;
}

double
D2dDistributedPca::MaxPrincipalAngle(const std::vector<double>& p,
                                     const std::vector<double>& q,
                                     std::size_t d,
                                     std::size_t dq,
                                     std::size_t cols)
{
    at::Tensor tp = ToTensor(p, d, cols);
    at::Tensor tq = ToTensor(q, dq, cols);
    // Residual of p's rows after projection on q's row space; its spectral norm is the sine
    // of the largest principal angle (accurate for small angles, unlike acos of cosines).
    at::Tensor r = tp - at::matmul(at::matmul(tp, tq.transpose(0, 1)), tq);
    const double s = at::linalg_matrix_norm(r, 2).item<double>();
    return std::asin(std::min(1.0, s));
}

} // namespace ns3
