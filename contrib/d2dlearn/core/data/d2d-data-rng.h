/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DATA_RNG_H
#define D2D_DATA_RNG_H

#include <boost/random/mersenne_twister.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The random source of the data layer: portable and deterministic.
 *
 * A std::mt19937_64 seeded through std::seed_seq{seed low 32 bits, seed high 32 bits,
 * purpose, sub} (both algorithms are fixed by the C++ standard), so that each use
 * (a partitioner, a generator, a device) has its own stream for a given seed and the
 * streams do not depend on each other's consumption nor on ns-3's global RNG. The
 * distributions are implemented here (not std::*_distribution, whose algorithms are
 * implementation-defined), so the same seed gives the same data on every platform.
 */
class D2dDataRng
{
  public:
    /** Purposes: one constant per use, so that two uses of one seed are independent. */
    enum Purpose : uint32_t
    {
        FASHION_FRACTION = 0x46460001,  //!< D2dFashionMnist::Load fraction
        GAUSSIAN_MIXTURE = 0x53590001,  //!< D2dSyntheticData::GaussianMixture
        POLYNOMIAL = 0x53590002,        //!< D2dSyntheticData::PolynomialRegression
        LINEAR = 0x53590003,            //!< D2dSyntheticData::LinearRegression
        LABEL_NOISE = 0x53590004,       //!< D2dSyntheticData::FlipLabelFraction
        IID = 0x50410001,               //!< D2dPartitioner::Iid
        DIRICHLET = 0x50410002,         //!< D2dPartitioner::Dirichlet
        LABELS_PER_DEVICE = 0x50410003, //!< D2dPartitioner::LabelsPerDevice
        QUANTITY_SKEW = 0x50410004,     //!< D2dPartitioner::QuantitySkew
        FLIP = 0x50410005,              //!< D2dPartitioner::FlipLabels (sub = device)
        HOLD_OUT = 0x50410006,          //!< D2dPartitioner::HoldOut
        DATA_FRACTION = 0x46460002,     //!< --dataFraction of the file readers but Fashion-MNIST
        CPU_FREQUENCY = 0x43500001,     //!< --cpuFrequencyHz=MIN:MAX, each device's f
        COMPUTE_SPEED = 0x43500002,     //!< --computeSpread, each device's Z_i
    };

    /**
     * \param seed the user's seed
     * \param purpose one of Purpose (or any constant)
     * \param sub a further index (e.g. a device), 0 if unused
     */
    D2dDataRng(uint64_t seed, uint32_t purpose, uint32_t sub = 0);

    /** \return 64 random bits */
    uint64_t Bits();
    /** \return a uniform double in [0, 1) (53 bits) */
    double Uniform();
    /** \return a uniform double in (0, 1) */
    double UniformOpen();
    /**
     * \param n bound (> 0)
     * \return a uniform integer in [0, n), unbiased (rejection)
     */
    uint64_t Below(uint64_t n);
    /** \return a standard normal variate (Box-Muller, both values used) */
    double Normal();
    /**
     * \brief Standard normal variates by the ziggurat method of Marsaglia and Tsang, "The
     * Ziggurat Method for Generating Random Variables", J. Stat. Softw. 5(8), 2000, as
     * Boost.Random's normal_distribution implements it (128 layers; one 64-bit draw gives the
     * layer, the sign and a 53-bit uniform, and is enough in about 99 % of the calls): no
     * logarithm, sine and cosine per pair as Normal's Box-Muller; a different stream of the
     * same distribution. It does not touch Normal's spare value.
     * \param out where the n variates go, in the order drawn
     * \param n how many
     */
    void NormalZiggurat(double* out, std::size_t n);
    /**
     * \param shape gamma shape (> 0); scale 1
     * \return a Gamma(shape, 1) variate (Marsaglia-Tsang; shape < 1 by boosting)
     */
    double Gamma(double shape);
    /**
     * \param alpha concentration per component (> 0)
     * \param k number of components (> 0)
     * \return a Dirichlet(alpha, ..., alpha) vector of size k (normalized gammas)
     */
    std::vector<double> Dirichlet(double alpha, std::size_t k);

    /**
     * \brief Fisher-Yates shuffle with Below().
     * \param v the vector to shuffle in place
     */
    template <typename T>
    void Shuffle(std::vector<T>& v)
    {
        for (std::size_t i = v.size(); i > 1; --i)
        {
            std::size_t j = static_cast<std::size_t>(Below(i));
            std::swap(v[i - 1], v[j]);
        }
    }

  private:
    /**
     * The engine: MT19937-64 (Matsumoto and Nishimura, "Mersenne Twister: A 623-Dimensionally
     * Equidistributed Uniform Pseudo-Random Number Generator", ACM TOMACS 8(1), 1998), the
     * C++ standard's std::mt19937_64 draw for draw (seeded from the same std::seed_seq; a
     * test holds them equal), in Boost.Random's implementation, whose state update has no
     * data-dependent branch: about 4x as fast here as libstdc++'s.
     */
    boost::random::mt19937_64 m_engine;
    bool m_haveSpare{false}; //!< Box-Muller's second value is available
    double m_spare{0};       //!< Box-Muller's second value
};

/**
 * \brief Integer counts proportional to weights with a fixed total (largest remainder).
 * \param weights non-negative weights (not all zero unless total is 0)
 * \param total the sum the counts must have
 * \return counts c_i with sum total, floor(total w_i / W) <= c_i <= that + 1; ties of the
 *         remainders go to the lower index
 */
std::vector<std::size_t> D2dApportion(const std::vector<double>& weights, std::size_t total);

/**
 * \brief The samples a stratified random fraction of a labelled set keeps (--dataFraction of
 * the file readers): round(fraction x n) samples, each class keeping its share (D2dApportion,
 * largest remainder), chosen within the class by a permutation of D2dDataRng(seed, purpose).
 * \param n samples
 * \param numClasses classes (labels in 0..numClasses - 1)
 * \param label the label of sample i (< numClasses; else std::out_of_range)
 * \param fraction in (0, 1)
 * \param seed the run's seed for this draw
 * \param purpose the D2dDataRng purpose (FASHION_FRACTION for Fashion-MNIST, DATA_FRACTION
 *        for the other readers)
 * \return the kept samples, ascending (file order)
 * \throws std::invalid_argument "fraction: F keeps no sample of N; ..." if none is kept
 */
std::vector<std::size_t> D2dStratifiedKeep(std::size_t n,
                                           uint32_t numClasses,
                                           const std::function<uint32_t(std::size_t)>& label,
                                           double fraction,
                                           uint64_t seed,
                                           uint32_t purpose);

} // namespace ns3

#endif // D2D_DATA_RNG_H
