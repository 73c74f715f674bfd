/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-synthetic-data.h"

#include "d2d-data-errors.h"
#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSyntheticData");

namespace
{
/** f(x) = sum_k c_k x^k (Horner). */
double
Poly(const std::vector<double>& c, double x)
{
    double y = 0;
    for (std::size_t k = c.size(); k > 0; --k)
    {
        y = y * x + c[k - 1];
    }
    return y;
}
} // namespace

std::vector<std::vector<double>>
D2dSyntheticData::PaperGaussianMeans()
{
    return {{-2, 2}, {2, 2}, {-2, -2}, {2, -2}};
}

std::shared_ptr<D2dDataset>
D2dSyntheticData::GaussianMixture(const std::vector<std::vector<double>>& means,
                                  double sd,
                                  const std::vector<double>& classWeights,
                                  std::size_t n,
                                  uint64_t seed)
{
    NS_LOG_FUNCTION(means.size() << sd << n << seed);
    if (means.empty() || means[0].empty())
    {
        D2dDataErrors::Refuse("means", "needs at least one class mean of dimension >= 1");
    }
    const std::size_t d = means[0].size();
    for (const auto& m : means)
    {
        if (m.size() != d)
        {
            D2dDataErrors::Refuse("means",
                                  "all class means must have the same dimension (" +
                                      std::to_string(d) + ")");
        }
    }
    if (!(sd > 0) || !std::isfinite(sd))
    {
        D2dDataErrors::Refuse("sd",
                              D2dDataErrors::Number(sd) +
                                  " is outside the accepted range (0, inf)");
    }
    std::vector<double> w = classWeights;
    if (w.empty())
    {
        w.assign(means.size(), 1.0);
    }
    double wsum = 0;
    for (double x : w)
    {
        if (!(x >= 0) || !std::isfinite(x))
        {
            D2dDataErrors::Refuse("classWeights", "each weight must be in [0, inf)");
        }
        wsum += x;
    }
    if (w.size() != means.size() || wsum <= 0)
    {
        D2dDataErrors::Refuse("classWeights",
                              "needs one weight per class (" + std::to_string(means.size()) +
                                  ") with a positive sum, or none");
    }
    D2dDataRng rng(seed, D2dDataRng::GAUSSIAN_MIXTURE);
    auto counts = D2dApportion(w, n);
    std::vector<int64_t> cls;
    cls.reserve(n);
    for (std::size_t c = 0; c < counts.size(); ++c)
    {
        cls.insert(cls.end(), counts[c], int64_t(c));
    }
    rng.Shuffle(cls);
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "gaussian-mixture";
    ds->featureShape = {int64_t(d)};
    ds->numClasses = static_cast<uint32_t>(means.size());
    ds->labels = cls;
    ds->features.resize(n * d);
    for (std::size_t i = 0; i < n; ++i)
    {
        // Fan et al. 2023, sec. 5.1: x ~ N(mu_c, Sigma), Sigma = sd^2 I.
        for (std::size_t k = 0; k < d; ++k)
        {
            ds->features[i * d + k] = static_cast<float>(means[cls[i]][k] + sd * rng.Normal());
        }
    }
    return ds;
}

std::shared_ptr<D2dDataset>
D2dSyntheticData::FlipLabelFraction(const D2dDataset& data, double fraction, uint64_t seed)
{
    if (data.numClasses < 2)
    {
        D2dDataErrors::Refuse("data", "label noise needs a classification set with >= 2 classes");
    }
    if (!(fraction >= 0 && fraction <= 1))
    {
        D2dDataErrors::Refuse("fraction",
                              D2dDataErrors::Number(fraction) +
                                  " is outside the accepted range [0, 1]");
    }
    auto out = data.Subset([&data] {
        std::vector<std::size_t> all(data.Size());
        for (std::size_t i = 0; i < all.size(); ++i)
        {
            all[i] = i;
        }
        return all;
    }());
    out->name = data.name + "-noisy";
    const std::size_t n = data.Size();
    const auto m = static_cast<std::size_t>(std::llround(fraction * double(n)));
    D2dDataRng rng(seed, D2dDataRng::LABEL_NOISE);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    rng.Shuffle(order);
    const uint64_t k = data.numClasses;
    for (std::size_t j = 0; j < m; ++j)
    {
        auto& l = out->labels[order[j]];
        // A different class, uniform over the k - 1 others.
        l = static_cast<int64_t>((uint64_t(l) + 1 + rng.Below(k - 1)) % k);
    }
    return out;
}

std::vector<double>
D2dSyntheticData::PaperPolynomial()
{
    return {4.0, -5.0, 0.3, 0.5};
}

std::shared_ptr<D2dDataset>
D2dSyntheticData::PolynomialRegression(const std::vector<double>& coefficients,
                                       double xMean,
                                       double xSd,
                                       double noiseSd,
                                       std::size_t n,
                                       uint64_t seed)
{
    NS_LOG_FUNCTION(xMean << xSd << noiseSd << n << seed);
    if (coefficients.empty())
    {
        D2dDataErrors::Refuse("coefficients", "needs at least one coefficient");
    }
    if (!(xSd >= 0) || !std::isfinite(xSd))
    {
        D2dDataErrors::Refuse("xSd",
                              D2dDataErrors::Number(xSd) +
                                  " is outside the accepted range [0, inf)");
    }
    if (!(noiseSd >= 0) || !std::isfinite(noiseSd))
    {
        D2dDataErrors::Refuse("noiseSd",
                              D2dDataErrors::Number(noiseSd) +
                                  " is outside the accepted range [0, inf)");
    }
    D2dDataRng rng(seed, D2dDataRng::POLYNOMIAL);
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "polynomial";
    ds->featureShape = {1};
    ds->features.resize(n);
    ds->targets.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        // Fan et al. 2023, App. A.1: x ~ N(mean, 1), y = f(x) + eps, eps ~ N(0, 1).
        const double x = xMean + xSd * rng.Normal();
        const double eps = noiseSd * rng.Normal();
        ds->features[i] = static_cast<float>(x);
        ds->targets[i] = static_cast<float>(Poly(coefficients, x) + eps);
    }
    return ds;
}

std::shared_ptr<D2dDataset>
D2dSyntheticData::PolynomialGrid(const std::vector<double>& coefficients,
                                 double lo,
                                 double hi,
                                 std::size_t n)
{
    if (coefficients.empty())
    {
        D2dDataErrors::Refuse("coefficients", "needs at least one coefficient");
    }
    if (!(hi >= lo) || !std::isfinite(lo) || !std::isfinite(hi))
    {
        D2dDataErrors::Refuse("hi",
                              D2dDataErrors::Number(hi) + " must be finite and >= lo (" +
                                  D2dDataErrors::Number(lo) + ")");
    }
    if (n == 0)
    {
        D2dDataErrors::Refuse("n", "0 is outside the accepted range [1, inf)");
    }
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "polynomial-grid";
    ds->featureShape = {1};
    for (std::size_t i = 0; i < n; ++i)
    {
        const double x = n == 1 ? lo : lo + (hi - lo) * double(i) / double(n - 1);
        ds->features.push_back(static_cast<float>(x));
        ds->targets.push_back(static_cast<float>(Poly(coefficients, x)));
    }
    return ds;
}

std::vector<double>
D2dSyntheticData::PaperTheta()
{
    return {-0.3, 0.5, 0.8};
}

namespace
{
/** LinearRegression on stream (seed, LINEAR, sub). */
std::shared_ptr<D2dDataset>
LinearImpl(const std::vector<double>& theta,
           const std::vector<double>& xLow,
           const std::vector<double>& xHigh,
           double noiseSd,
           std::size_t n,
           uint64_t seed,
           uint32_t sub)
{
    if (theta.size() < 2)
    {
        D2dDataErrors::Refuse("theta", "needs the intercept and at least one slope (size >= 2)");
    }
    const std::size_t d = theta.size() - 1;
    if (xLow.size() != d || xHigh.size() != d)
    {
        D2dDataErrors::Refuse("xLow", "xLow and xHigh need " + std::to_string(d) + " bounds each");
    }
    for (std::size_t k = 0; k < d; ++k)
    {
        if (!(xHigh[k] >= xLow[k]) || !std::isfinite(xLow[k]) || !std::isfinite(xHigh[k]))
        {
            D2dDataErrors::Refuse("xHigh",
                                  "bound " + std::to_string(k) + " must be finite and >= xLow");
        }
    }
    if (!(noiseSd >= 0) || !std::isfinite(noiseSd))
    {
        D2dDataErrors::Refuse("noiseSd",
                              D2dDataErrors::Number(noiseSd) +
                                  " is outside the accepted range [0, inf)");
    }
    D2dDataRng rng(seed, D2dDataRng::LINEAR, sub);
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "linear";
    ds->featureShape = {int64_t(d)};
    ds->features.resize(n * d);
    ds->targets.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        // Lalitha et al. 2018, eq. (1), Example 1: y = <theta, [1, x]> + eta, eta ~ N(0, alpha^2).
        double y = theta[0];
        for (std::size_t k = 0; k < d; ++k)
        {
            const double x = xLow[k] + (xHigh[k] - xLow[k]) * rng.Uniform();
            ds->features[i * d + k] = static_cast<float>(x);
            y += theta[k + 1] * x;
        }
        ds->targets[i] = static_cast<float>(y + noiseSd * rng.Normal());
    }
    return ds;
}

} // namespace

std::shared_ptr<D2dDataset>
D2dSyntheticData::LinearRegression(const std::vector<double>& theta,
                                   const std::vector<double>& xLow,
                                   const std::vector<double>& xHigh,
                                   double noiseSd,
                                   std::size_t n,
                                   uint64_t seed)
{
    NS_LOG_FUNCTION(theta.size() << noiseSd << n << seed);
    return LinearImpl(theta, xLow, xHigh, noiseSd, n, seed, 0);
}

std::shared_ptr<D2dDataset>
D2dSyntheticData::Example1(int user, std::size_t n, uint64_t seed)
{
    std::shared_ptr<D2dDataset> ds;
    switch (user)
    {
    case 0:
        ds = LinearImpl(PaperTheta(), {-1, 0}, {1, 0}, 0.8, n, seed, 1);
        ds->name = "linear-user-A";
        break;
    case 1:
        ds = LinearImpl(PaperTheta(), {0, -1.5}, {0, 1.5}, 0.8, n, seed, 2);
        ds->name = "linear-user-B";
        break;
    case -1:
        ds = LinearImpl(PaperTheta(), {-1, -1.5}, {1, 1.5}, 0.8, n, seed, 3);
        ds->name = "linear-test";
        break;
    default:
        D2dDataErrors::Refuse("user",
                              std::to_string(user) + " is not one of 0 (A), 1 (B), -1 (test)");
    }
    return ds;
}

} // namespace ns3
