/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TEST_EQ18_H
#define D2D_TEST_EQ18_H

#include <cmath>

namespace ns3
{

/*
 * The tests' own inversions of eq. (18) of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning" (2025),
 * P_D = 1 - exp(-(2^r - 1) sigma^2 / W): written out here, once for every test suite,
 * independently of the library's (ConstantRssModel::ForDropProbability), so that a test
 * checks the library against the formula rather than against itself. Header-only: the
 * torch-free (sanitized) test runner uses it too.
 */

/**
 * \brief Eq. 18 solved for the noise: sigma^2 = -ln(1 - P_D) W / (2^r - 1).
 * \param pd drop probability, in [0, 1)
 * \param rssW received signal strength W, W
 * \param spectralEfficiency r, bit/s/Hz
 * \return sigma^2, W
 */
inline double
NoiseForDropW(double pd, double rssW, double spectralEfficiency)
{
    return -std::log(1.0 - pd) * rssW / (std::pow(2.0, spectralEfficiency) - 1.0);
}

/**
 * \brief Eq. 18 solved for the RSS: W = -(2^r - 1) sigma^2 / ln(1 - P_D).
 * \param pd drop probability, in (0, 1)
 * \param noiseW sigma^2, W
 * \param spectralEfficiency r, bit/s/Hz
 * \return W, W
 */
inline double
RssForDropW(double pd, double noiseW, double spectralEfficiency)
{
    return -(std::pow(2.0, spectralEfficiency) - 1.0) * noiseW / std::log(1.0 - pd);
}

/**
 * \brief RssForDropW at the unit setting of the channel and Bayesian suites.
 * \param pd drop probability, in (0, 1)
 * \return W giving P_D = pd with sigma^2 = 1 W and r = 1 bit/s/Hz, W
 */
inline double
RssForDrop(double pd)
{
    return RssForDropW(pd, 1.0, 1.0);
}

/** sigma^2 of the graph-discovery suites, W */
constexpr double kDiscoveryNoiseW = 1e-13;
/** spectral efficiency r of the graph-discovery suites, bit/s/Hz */
constexpr double kDiscoverySpectralEfficiency = 2.0;

/**
 * \brief RssForDropW at the graph-discovery suites' setting.
 * \param pd drop probability, in (0, 1)
 * \return W giving P_D = pd with sigma^2 = kDiscoveryNoiseW and r = 2, W
 */
inline double
RssForDiscoveryDrop(double pd)
{
    return RssForDropW(pd, kDiscoveryNoiseW, kDiscoverySpectralEfficiency);
}

} // namespace ns3

#endif /* D2D_TEST_EQ18_H */
