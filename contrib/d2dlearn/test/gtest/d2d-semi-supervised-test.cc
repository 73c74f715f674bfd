/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the semi-supervised paradigm's pure parts (Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, sec. V-A1): distributed PCA (Liang, Balcan, Kanchanapally and Woodruff,
 * "Improved distributed principal component analysis", 2014) against centralised PCA computed
 * independently (GSL's symmetric eigensolver on the stacked data's Gram matrix), and label
 * propagation (Zhu and Ghahramani 2002) on hand-worked graphs and on two Gaussians, and the
 * MLP labeller of App. D-D on two Gaussians. The label propagation cases are torch-free:
 * the torch-free programs (D2DLEARN_GTEST_TORCH_FREE: the plain and the sanitized one) run
 * only them, and the LibTorch one (D2DLEARN_GTEST_TORCH_PART) only the others (the
 * distributed PCA's SVD and the MLP are LibTorch's), so that each case runs once, in a
 * process that loads no more than it needs.
 */

#ifndef D2DLEARN_GTEST_TORCH_FREE
#include "ns3/d2d-distributed-pca.h"
#endif
#include "ns3/d2d-label-propagation.h"
#ifndef D2DLEARN_GTEST_TORCH_FREE
#include "ns3/d2d-mlp-labeller.h"
#include "ns3/simulator.h"
#endif

#include <algorithm>
#include <cmath>
#ifndef D2DLEARN_GTEST_TORCH_FREE
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#endif
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

#ifndef D2DLEARN_GTEST_TORCH_FREE
namespace
{
/**
 * Centralised PCA, independently of the SVD under test: the top-d eigenvectors of A^T A
 * (GSL's symmetric eigensolver), A the stacked data. Also returns the eigenvalues, descending.
 */
std::vector<double>
CentralisedPca(const std::vector<double>& a,
               std::size_t rows,
               std::size_t cols,
               std::size_t d,
               std::vector<double>& eigenvalues)
{
    gsl_matrix* g = gsl_matrix_calloc(cols, cols);
    for (std::size_t r = 0; r < rows; ++r)
    {
        for (std::size_t i = 0; i < cols; ++i)
        {
            for (std::size_t j = 0; j < cols; ++j)
            {
                *gsl_matrix_ptr(g, i, j) += a[r * cols + i] * a[r * cols + j];
            }
        }
    }
    gsl_vector* eval = gsl_vector_alloc(cols);
    gsl_matrix* evec = gsl_matrix_alloc(cols, cols);
    gsl_eigen_symmv_workspace* w = gsl_eigen_symmv_alloc(cols);
    gsl_eigen_symmv(g, eval, evec, w);
    gsl_eigen_symmv_sort(eval, evec, GSL_EIGEN_SORT_VAL_DESC);
    std::vector<double> basis(d * cols);
    for (std::size_t k = 0; k < d; ++k)
    {
        for (std::size_t c = 0; c < cols; ++c)
        {
            basis[k * cols + c] = gsl_matrix_get(evec, c, k);
        }
    }
    eigenvalues.assign(cols, 0.0);
    for (std::size_t c = 0; c < cols; ++c)
    {
        eigenvalues[c] = gsl_vector_get(eval, c);
    }
    gsl_eigen_symmv_free(w);
    gsl_matrix_free(evec);
    gsl_vector_free(eval);
    gsl_matrix_free(g);
    return basis;
}

/** \return max |B B^T - I| over the entries */
double
OrthonormalityError(const std::vector<double>& b, std::size_t d, std::size_t cols)
{
    double err = 0;
    for (std::size_t i = 0; i < d; ++i)
    {
        for (std::size_t j = 0; j < d; ++j)
        {
            double dot = 0;
            for (std::size_t c = 0; c < cols; ++c)
            {
                dot += b[i * cols + c] * b[j * cols + c];
            }
            err = std::max(err, std::abs(dot - (i == j ? 1.0 : 0.0)));
        }
    }
    return err;
}
} // namespace

// A = diag(3, 4) as rows (3, 0), (0, 4): singular values 4, 3 with right vectors e2, e1, so
// the sketch is the rows (0, 4), (3, 0); with t = 1 only (0, 4).
TEST(DistributedPca, SketchOfADiagonalMatrixByHand)
{
    const std::vector<double> a{3, 0, 0, 4};
    EXPECT_EQ(D2dDistributedPca::LocalSketch(a, 2, 2, 2), (std::vector<double>{0, 4, 3, 0}));
    const auto one = D2dDistributedPca::LocalSketch(a, 2, 2, 1);
    ASSERT_EQ(one.size(), 2u);
    EXPECT_NEAR(one[0], 0, 1e-12);
    EXPECT_NEAR(one[1], 4, 1e-12);
    // t above min(rows, cols): min(rows, cols) rows come back. A 1 x 3 row (1, 2, -2): one
    // singular value 3 with vector (1, 2, -2)/3, signed so that its largest entry (2) is > 0.
    const auto row = D2dDistributedPca::LocalSketch({1, 2, -2}, 1, 3, 5);
    ASSERT_EQ(row.size(), 3u);
    EXPECT_NEAR(row[0], 1, 1e-12);
    EXPECT_NEAR(row[1], 2, 1e-12);
    EXPECT_NEAR(row[2], -2, 1e-12);
}

// M = A F: rows (1, 2, 3) and (0, 1, 0) on F^T = {e3, e1} give (3, 1) and (0, 0).
TEST(DistributedPca, ProjectionByHand)
{
    const std::vector<double> basis{0, 0, 1, 1, 0, 0};
    EXPECT_EQ(D2dDistributedPca::Project({1, 2, 3, 0, 1, 0}, 2, 3, basis, 2),
              (std::vector<double>{3, 1, 0, 0}));
    EXPECT_THROW(D2dDistributedPca::Project({1, 2, 3}, 1, 3, basis, 3), std::invalid_argument);
}

// With t = rank(A_i) the sketch keeps A_i^T A_i, so F is centralised PCA's subspace: random
// full-rank and low-rank instances, against GSL's eigenvectors of the stacked Gram matrix.
TEST(DistributedPca, EqualsCentralisedPcaWhenTIsTheRank)
{
    std::mt19937_64 rng(20141208);
    std::normal_distribution<double> normal(0.0, 1.0);
    int checked = 0;
    for (int instance = 0; instance < 60; ++instance)
    {
        const std::size_t cols = 3 + rng() % 14;
        const std::size_t devices = 2 + rng() % 5;
        const bool lowRank = instance % 2 == 1;
        std::vector<double> stacked;
        std::vector<std::vector<double>> sketches;
        std::vector<double> colScale(cols);
        for (auto& s : colScale)
        {
            s = 0.5 + 3.0 * std::abs(normal(rng));
        }
        for (std::size_t i = 0; i < devices; ++i)
        {
            const std::size_t rows = 1 + rng() % 20;
            std::vector<double> a(rows * cols);
            std::size_t rank = std::min(rows, cols);
            if (lowRank)
            {
                // A_i = X Y with X rows x r, Y r x D: rank r.
                rank = 1 + rng() % std::min(rows, cols);
                std::vector<double> x(rows * rank);
                std::vector<double> y(rank * cols);
                for (auto& v : x)
                {
                    v = normal(rng);
                }
                for (auto& v : y)
                {
                    v = normal(rng);
                }
                for (std::size_t r = 0; r < rows; ++r)
                {
                    for (std::size_t c = 0; c < cols; ++c)
                    {
                        double s = 0;
                        for (std::size_t k = 0; k < rank; ++k)
                        {
                            s += x[r * rank + k] * y[k * cols + c];
                        }
                        a[r * cols + c] = s * colScale[c];
                    }
                }
            }
            else
            {
                for (std::size_t r = 0; r < rows; ++r)
                {
                    for (std::size_t c = 0; c < cols; ++c)
                    {
                        a[r * cols + c] = normal(rng) * colScale[c];
                    }
                }
            }
            stacked.insert(stacked.end(), a.begin(), a.end());
            auto sketch = D2dDistributedPca::LocalSketch(a, rows, cols, rank);
            EXPECT_EQ(sketch.size(), rank * cols);
            sketches.push_back(std::move(sketch));
        }
        const std::size_t rows = stacked.size() / cols;
        std::vector<double> eig;
        CentralisedPca(stacked, rows, cols, cols, eig);
        // d: the largest d <= min(rows, cols) - whose eigen-gap makes the subspace unique.
        std::size_t sketchRows = 0;
        for (const auto& s : sketches)
        {
            sketchRows += s.size() / cols;
        }
        const std::size_t dMax = std::min(sketchRows, cols);
        const std::size_t d = 1 + rng() % dMax;
        const double gap = d < cols ? (eig[d - 1] - eig[d]) / eig[0] : 1.0;
        if (gap < 1e-3 || eig[d - 1] / eig[0] < 1e-8)
        {
            continue; // the top-d subspace is not well defined
        }
        std::vector<double> unused;
        const auto central = CentralisedPca(stacked, rows, cols, d, unused);
        const auto f = D2dDistributedPca::CommonSubspace(sketches, cols, d);
        ASSERT_EQ(f.size(), d * cols);
        EXPECT_LT(OrthonormalityError(f, d, cols), 1e-10) << "instance " << instance;
        EXPECT_LT(D2dDistributedPca::MaxPrincipalAngle(f, central, d, d, cols), 1e-6)
            << "instance " << instance << " (D " << cols << ", d " << d << ", " << devices
            << " devices" << (lowRank ? ", low rank" : "") << ")";
        ++checked;
    }
    EXPECT_GE(checked, 40);
}

// The sketch matters: t below the rank can miss the global top direction. Device 0 holds rows
// 5 e1 and 4 e2, device 1 rows 5 e3 and 4 e2: A^T A = diag(25, 32, 25), centralised PCA's
// top direction is e2, but with t = 1 the sketches are 5 e1 and 5 e3, whose top direction is
// in span(e1, e3): 90 degrees from e2. With t = 2 it is e2 again.
TEST(DistributedPca, TruncatedSketchesMissTheSharedDirection)
{
    const std::vector<double> a0{5, 0, 0, 0, 4, 0};
    const std::vector<double> a1{0, 0, 5, 0, 4, 0};
    const std::vector<double> e2{0, 1, 0};
    const auto f1 = D2dDistributedPca::CommonSubspace(
        {D2dDistributedPca::LocalSketch(a0, 2, 3, 1), D2dDistributedPca::LocalSketch(a1, 2, 3, 1)},
        3,
        1);
    EXPECT_NEAR(D2dDistributedPca::MaxPrincipalAngle(f1, e2, 1, 1, 3), M_PI / 2, 1e-9);
    const auto f2 = D2dDistributedPca::CommonSubspace(
        {D2dDistributedPca::LocalSketch(a0, 2, 3, 2), D2dDistributedPca::LocalSketch(a1, 2, 3, 2)},
        3,
        1);
    EXPECT_LT(D2dDistributedPca::MaxPrincipalAngle(f2, e2, 1, 1, 3), 1e-12);
}

TEST(DistributedPca, RefusesBadSizes)
{
    EXPECT_THROW(D2dDistributedPca::LocalSketch({1, 2, 3}, 2, 2, 1), std::invalid_argument);
    EXPECT_THROW(D2dDistributedPca::LocalSketch({1, 2, 3, 4}, 2, 2, 0), std::invalid_argument);
    // Two sketch rows of D = 2 cannot give d = 3.
    EXPECT_THROW(D2dDistributedPca::CommonSubspace({{1, 0}, {0, 1}}, 2, 3), std::invalid_argument);
    EXPECT_THROW(D2dDistributedPca::CommonSubspace({{1, 0, 1}}, 2, 1), std::invalid_argument);
}
#endif // D2DLEARN_GTEST_TORCH_FREE

#ifndef D2DLEARN_GTEST_TORCH_PART
// Points 0, 1, 2, 3.1 on a line, k = 1: 0 -> 1, 1 -> 0 (tie with 2, lower index), 2 -> 1
// (1 < 1.1), 3 -> 2; made symmetric: the path 0 - 1 - 2 - 3. Point 0 labelled 0, point 3
// labelled 1. The harmonic solution: f1 = (1 + f2) / 2, f2 = f1 / 2 for label 0, so
// f1 = 2/3, f2 = 1/3: points 1 and 2 take labels 0 and 1.
TEST(LabelPropagation, PathByHand)
{
    const std::vector<double> x{0, 1, 2, 3.1};
    const auto graph = D2dLabelPropagation::KnnGraph(x, 4, 1, 1);
    EXPECT_EQ(graph, (std::vector<std::vector<uint32_t>>{{1}, {0, 2}, {1, 3}, {2}}));
    const auto res = D2dLabelPropagation::Propagate(x, 4, 1, {0, -1, -1, 1}, 2, 1, 10000, 1e-12);
    EXPECT_TRUE(res.converged);
    EXPECT_EQ(res.labels, (std::vector<int64_t>{0, 0, 1, 1}));
    EXPECT_NEAR(res.scores[1 * 2 + 0], 2.0 / 3, 1e-9);
    EXPECT_NEAR(res.scores[1 * 2 + 1], 1.0 / 3, 1e-9);
    EXPECT_NEAR(res.scores[2 * 2 + 0], 1.0 / 3, 1e-9);
    EXPECT_NEAR(res.scores[2 * 2 + 1], 2.0 / 3, 1e-9);
    // Clamped: the labelled rows stay one-hot.
    EXPECT_EQ(res.scores[0], 1.0);
    EXPECT_EQ(res.scores[7], 1.0);
}

// Two well-separated 2-D Gaussians (means (-5, 0) and (5, 0), unit variance, 150 points each)
// with one labelled point each: every point gets its Gaussian's label.
TEST(LabelPropagation, TwoSeparatedGaussiansOneLabelEach)
{
    for (uint64_t seed : {1u, 2u, 3u})
    {
        std::mt19937_64 rng(seed);
        std::normal_distribution<double> normal(0.0, 1.0);
        const std::size_t per = 150;
        std::vector<double> x;
        std::vector<int64_t> truth;
        for (std::size_t p = 0; p < 2 * per; ++p)
        {
            const int64_t label = p % 2; // interleaved: no help from the order
            x.push_back((label ? 5.0 : -5.0) + normal(rng));
            x.push_back(normal(rng));
            truth.push_back(label);
        }
        std::vector<int64_t> given(2 * per, -1);
        given[10] = truth[10];
        given[37] = truth[37];
        const auto res = D2dLabelPropagation::Propagate(x, 2 * per, 2, given, 2, 7);
        EXPECT_EQ(res.labels, truth) << "seed " << seed;
    }
}

// Invariants on random instances: the labelled points keep their labels; every label comes
// from the given ones; each row of scores sums to 1 once converged (a stochastic average of
// stochastic rows); each point has at least min(k, n - 1) neighbours, and the graph is
// symmetric; moving every point by the same offset changes nothing.
TEST(LabelPropagation, Invariants)
{
    std::mt19937_64 rng(77);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (int instance = 0; instance < 30; ++instance)
    {
        const std::size_t n = 2 + rng() % 60;
        const std::size_t dims = 1 + rng() % 5;
        const uint32_t nl = 2 + rng() % 4;
        const uint32_t k = 1 + rng() % 9;
        std::vector<double> x(n * dims);
        for (auto& v : x)
        {
            v = normal(rng);
        }
        std::vector<int64_t> given(n, -1);
        given[rng() % n] = 0; // at least one
        std::set<int64_t> present{0};
        for (std::size_t i = 0; i < n; ++i)
        {
            if (rng() % 4 == 0)
            {
                given[i] = static_cast<int64_t>(rng() % (nl - 1)); // label nl - 1 never given
                present.insert(given[i]);
            }
        }
        const auto graph = D2dLabelPropagation::KnnGraph(x, n, dims, k);
        for (std::size_t i = 0; i < n; ++i)
        {
            EXPECT_GE(graph[i].size(), std::min<std::size_t>(k, n - 1));
            for (uint32_t j : graph[i])
            {
                EXPECT_NE(j, i);
                EXPECT_TRUE(std::binary_search(graph[j].begin(), graph[j].end(), i));
            }
        }
        const auto res = D2dLabelPropagation::Propagate(x, n, dims, given, nl, k, 100000, 1e-13);
        ASSERT_EQ(res.labels.size(), n);
        for (std::size_t i = 0; i < n; ++i)
        {
            if (given[i] >= 0)
            {
                EXPECT_EQ(res.labels[i], given[i]);
            }
            EXPECT_TRUE(present.count(res.labels[i])) << "instance " << instance;
            const double sum = std::accumulate(&res.scores[i * nl], &res.scores[i * nl] + nl, 0.0);
            // Rows of a component without a labelled point stay 0.
            EXPECT_TRUE(std::abs(sum - 1) < 1e-9 || sum == 0) << "row sum " << sum;
        }
        std::vector<double> moved(x);
        for (std::size_t i = 0; i < n; ++i)
        {
            moved[i * dims] += 0.5; // exact in binary: distances unchanged
        }
        EXPECT_EQ(
            D2dLabelPropagation::Propagate(moved, n, dims, given, nl, k, 100000, 1e-13).labels,
            res.labels);
    }
}

// A component that no labelled point reaches: points 10, 11 (k = 1) form their own
// component; they take the label of the nearest labelled point (3 at 2, label 1).
TEST(LabelPropagation, UnreachedPointsTakeTheNearestLabel)
{
    const std::vector<double> x{0, 1, 2, 10, 11};
    const auto res = D2dLabelPropagation::Propagate(x, 5, 1, {0, -1, 1, -1, -1}, 2, 1);
    EXPECT_EQ(res.labels, (std::vector<int64_t>{0, 0, 1, 1, 1}));
}

TEST(LabelPropagation, RefusesBadInput)
{
    const std::vector<double> x{0, 1};
    EXPECT_THROW(D2dLabelPropagation::Propagate(x, 2, 1, {-1, -1}, 2, 1), std::invalid_argument);
    EXPECT_THROW(D2dLabelPropagation::Propagate(x, 2, 1, {2, -1}, 2, 1), std::invalid_argument);
    EXPECT_THROW(D2dLabelPropagation::Propagate(x, 2, 1, {0, -1}, 2, 0), std::invalid_argument);
    EXPECT_THROW(D2dLabelPropagation::Propagate(x, 3, 1, {0, -1, -1}, 2, 1), std::invalid_argument);
    EXPECT_THROW(D2dLabelPropagation::ChooseLabelled({0, 1}, 0.0, 1, 0), std::invalid_argument);
    EXPECT_THROW(D2dLabelPropagation::ChooseLabelled({0, 1}, 1.5, 1, 0), std::invalid_argument);
}

// Sec. V-A1: round(f n) points, at least one of every label present. 200 points, labels
// 0 (180), 1 (15), 2 (5), f = 0.15: 30 labelled, every label among them; a device whose
// labels outnumber f n still gets one of each (3 labels, 10 points, f = 0.1: 3 labelled).
TEST(LabelPropagation, ChooseLabelledCountsAndCoverage)
{
    std::vector<int64_t> labels(180, 0);
    labels.insert(labels.end(), 15, 1);
    labels.insert(labels.end(), 5, 2);
    std::mt19937_64 shuffle(5);
    std::shuffle(labels.begin(), labels.end(), shuffle);
    const auto a = D2dLabelPropagation::ChooseLabelled(labels, 0.15, 9, 3);
    EXPECT_EQ(std::count(a.begin(), a.end(), true), 30);
    std::set<int64_t> covered;
    for (std::size_t i = 0; i < labels.size(); ++i)
    {
        if (a[i])
        {
            covered.insert(labels[i]);
        }
    }
    EXPECT_EQ(covered, (std::set<int64_t>{0, 1, 2}));
    EXPECT_EQ(D2dLabelPropagation::ChooseLabelled(labels, 0.15, 9, 3), a); // same seed
    EXPECT_NE(D2dLabelPropagation::ChooseLabelled(labels, 0.15, 9, 4), a); // other device
    const auto b = D2dLabelPropagation::ChooseLabelled({0, 0, 0, 0, 1, 1, 1, 2, 2, 2}, 0.1, 1, 0);
    EXPECT_EQ(std::count(b.begin(), b.end(), true), 3);
}
#endif // D2DLEARN_GTEST_TORCH_PART

#ifndef D2DLEARN_GTEST_TORCH_FREE
// The MLP labeller of App. D-D (a local one-hidden-layer MLP on the labelled points, a real
// LibTorch job of a D2dLearner inside the simulator): two well-separated 2-D Gaussians (means
// (-5, 0) and (5, 0), unit variance, 150 points each) with three labelled points each, on two
// devices (the second holds the points in the opposite order): every unlabelled point gets its
// Gaussian's label, the labelled ones keep theirs, and a second run gives the same labels.
TEST(MlpLabeller, TwoSeparatedGaussiansThreeLabelsEach)
{
    auto run = [](uint64_t seed, std::vector<std::vector<int64_t>>& truthOut) {
        std::mt19937_64 rng(seed);
        std::normal_distribution<double> normal(0.0, 1.0);
        const std::size_t per = 150;
        auto data = std::make_shared<D2dDataset>();
        data->name = "two-gaussians";
        data->featureShape = {2};
        data->numClasses = 2;
        for (std::size_t p = 0; p < 2 * per; ++p)
        {
            const int64_t label = p % 2;
            data->features.push_back(static_cast<float>((label ? 5.0 : -5.0) + normal(rng)));
            data->features.push_back(static_cast<float>(normal(rng)));
            data->labels.push_back(label);
        }
        std::vector<std::vector<std::size_t>> points(2);
        for (std::size_t p = 0; p < 2 * per; ++p)
        {
            points[0].push_back(p);
            points[1].push_back(2 * per - 1 - p);
        }
        std::vector<std::vector<int64_t>> given(2);
        truthOut.assign(2, {});
        for (uint32_t i = 0; i < 2; ++i)
        {
            given[i].assign(2 * per, -1);
            for (std::size_t k : {3u, 10u, 37u, 50u, 81u, 120u}) // three of each label
            {
                given[i][k] = data->labels[points[i][k]];
            }
            for (std::size_t p : points[i])
            {
                truthOut[i].push_back(data->labels[p]);
            }
        }
        auto labeller = CreateObject<D2dMlpLabeller>();
        labeller->Setup(data, points, given, seed);
        bool finished = false;
        labeller->Start(Callback<void>([&finished]() { finished = true; }));
        Simulator::Run();
        Simulator::Destroy();
        EXPECT_TRUE(finished);
        EXPECT_TRUE(labeller->IsDone());
        std::vector<std::vector<int64_t>> labels;
        for (uint32_t i = 0; i < 2; ++i)
        {
            // 6 points, batches of 32: one step per epoch.
            EXPECT_EQ(labeller->GetSteps(i), 100u);
            labels.push_back(labeller->GetLabels(i));
            for (std::size_t k = 0; k < given[i].size(); ++k)
            {
                if (given[i][k] >= 0)
                {
                    EXPECT_EQ(labels[i][k], given[i][k]);
                }
            }
        }
        return labels;
    };
    for (uint64_t seed : {1u, 2u, 3u})
    {
        std::vector<std::vector<int64_t>> truth;
        const auto first = run(seed, truth);
        EXPECT_EQ(first[0], truth[0]) << "seed " << seed;
        EXPECT_EQ(first[1], truth[1]) << "seed " << seed;
        std::vector<std::vector<int64_t>> again;
        EXPECT_EQ(run(seed, again), first) << "seed " << seed << ": same seed, same labels";
    }
}

// One label only, or none: nothing to train; the labelled points keep theirs and the rest
// take the only label there is (0 when none is given).
TEST(MlpLabeller, OneLabelOrNoneNeedsNoTraining)
{
    auto data = std::make_shared<D2dDataset>();
    data->featureShape = {1};
    data->numClasses = 3;
    data->features = {0, 1, 2, 3};
    data->labels = {2, 2, 1, 0};
    auto labeller = CreateObject<D2dMlpLabeller>();
    labeller->Setup(data, {{0, 1}, {2, 3}}, {{-1, 2}, {-1, -1}}, 1);
    bool finished = false;
    labeller->Start(Callback<void>([&finished]() { finished = true; }));
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_TRUE(finished);
    EXPECT_EQ(labeller->GetLabels(0), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(labeller->GetLabels(1), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(labeller->GetSteps(0), 0u);
}
#endif // D2DLEARN_GTEST_TORCH_FREE
