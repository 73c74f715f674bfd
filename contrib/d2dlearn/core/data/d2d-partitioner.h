/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PARTITIONER_H
#define D2D_PARTITIONER_H

#include "d2d-dataset.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief One device's local data: indices into a shared D2dDataset, plus the label map of
 * a low-quality (label-flipped) device.
 */
struct D2dShard
{
    std::vector<std::size_t> indices; //!< sample indices, ascending
    /** empty = identity; else labelMap[c] is the label this device sees for class c */
    std::vector<int64_t> labelMap;

    /**
     * \param data the data set the indices point into
     * \param k position in indices (< indices.size())
     * \return the label this device trains on for its k-th sample (labelMap applied)
     */
    int64_t LabelOf(const D2dDataset& data, std::size_t k) const;
};

/** How FlipLabels maps a low-quality device's labels. */
enum class D2dFlipMode
{
    DERANGEMENT, //!< a uniformly random permutation without fixed point, per device
    SHIFT,       //!< c -> (c + 1) mod K on every flipped device
    /**
     * c -> (c + k_d) mod K, k_d uniform in 1..K-1 drawn once per device (stream (seed,
     * FLIP, device)): the "complete flip" of the prediction-consensus code of Fan et al. 2023
     */
    RANDOM_SHIFT,
};

/**
 * \ingroup d2dlearn
 * \brief Splits a data set over devices: IID, Dirichlet label skew, k labels per device,
 * quantity skew; label flips; the shared unlabeled hold-out X*.
 *
 * Every function is deterministic for a given seed (D2dDataRng with its own purpose
 * constant). Each partitioner takes an optional `pool`: the sample indices it may use
 * (nullptr = all samples of the data set). After HoldOut, pass its `remaining` as the
 * pool, so that no device holds a sample of X*. Shards are disjoint, their indices are
 * ascending; a partitioner uses the whole pool except LabelsPerDevice (see there).
 *
 * Bad parameters throw std::invalid_argument with one line naming the parameter and the
 * accepted range ("nDevices", "alpha", "k", "proportions", "skew", "m", "devices",
 * "pool").
 */
class D2dPartitioner
{
  public:
    /**
     * \brief IID: the pool shuffled and cut into nDevices blocks whose sizes differ by at
     * most one (the first |pool| mod nDevices devices get one more).
     * \param data the data set
     * \param nDevices number of devices, 1..|pool|
     * \param seed the seed
     * \param pool allowed indices (nullptr = all)
     * \return nDevices shards
     */
    static std::vector<D2dShard> Iid(const D2dDataset& data,
                                     uint32_t nDevices,
                                     uint64_t seed,
                                     const std::vector<std::size_t>* pool = nullptr);

    /**
     * \brief Dirichlet label skew (Fan et al. 2023, sec. 5.2, alpha = 1 there; the code it cites,
     * PFL-Non-IID, after Hsu et al. 2019): for each class c, the shares
     * p_c ~ Dirichlet(alpha, ..., alpha) over the nDevices devices, and the class's
     * pooled samples (shuffled) are cut into blocks of sizes apportioned to p_c (largest
     * remainder). So device j's share of class c has mean 1/N and variance
     * (1/N)(1 - 1/N)/(N alpha + 1); small alpha concentrates each class on few devices.
     * Unlike PFL-Non-IID, no re-draw and no size cap (they bias the law); instead a device
     * left empty takes one random sample from the then largest shard, so that every
     * device has data.
     * \param data a classification data set
     * \param nDevices 1..|pool|
     * \param alpha concentration (> 0)
     * \param seed the seed
     * \param pool allowed indices (nullptr = all)
     * \return nDevices shards
     */
    static std::vector<D2dShard> Dirichlet(const D2dDataset& data,
                                           uint32_t nDevices,
                                           double alpha,
                                           uint64_t seed,
                                           const std::vector<std::size_t>* pool = nullptr);

    /**
     * \brief k labels per device (Wagle et al. 2025, App. C: k = 3 with 70 %, 20 %, 10 %;
     * devices of approximately equal size).
     *
     * Each device's k distinct labels are random; label r of a device (its rank) gets
     * proportions[r] of its samples. To keep devices equal-sized, labels are drawn
     * greedily, rank by rank (large shares first), devices in a random order per rank:
     * among the labels the device does not have yet, one with the least relative load so
     * far (proportions already asked of the class / its pooled samples; ties broken at
     * random), so each class is asked for about what it has.
     * Every device then gets s samples, s the largest size <= |pool| / nDevices that all
     * classes can supply; device counts per rank are apportioned from s x proportions.
     * Samples of a class are dealt from its shuffled pooled samples; samples not needed
     * stay unused.
     * \param data a classification data set
     * \param nDevices 1..|pool|
     * \param k labels per device, 1..numClasses
     * \param proportions k shares (>= 0, summing to 1 within 1e-6), largest first by
     *        convention; empty = equal shares 1/k
     * \param seed the seed
     * \param pool allowed indices (nullptr = all)
     * \return nDevices shards of equal size s
     */
    static std::vector<D2dShard> LabelsPerDevice(const D2dDataset& data,
                                                 uint32_t nDevices,
                                                 uint32_t k,
                                                 const std::vector<double>& proportions,
                                                 uint64_t seed,
                                                 const std::vector<std::size_t>* pool = nullptr);

    /**
     * \brief Quantity skew with a power (Zipf) law: the device of size rank r (0-based)
     * gets a share proportional to (r + 1)^(-skew) of the pool; ranks are a random
     * permutation of the devices; sizes apportioned by largest remainder, at least one
     * sample each (taken from the largest); samples IID. skew = 0 is IID with equal
     * sizes, skew = 1 is Zipf's law (largest device ~ r times the r-th).
     * \param data the data set
     * \param nDevices 1..|pool|
     * \param skew the exponent (>= 0, finite)
     * \param seed the seed
     * \param pool allowed indices (nullptr = all)
     * \return nDevices shards
     */
    static std::vector<D2dShard> QuantitySkew(const D2dDataset& data,
                                              uint32_t nDevices,
                                              double skew,
                                              uint64_t seed,
                                              const std::vector<std::size_t>* pool = nullptr);

    /**
     * \brief Makes devices low-quality (Fan et al. 2023, sec. 5.1/5.2: "complete flip of local
     * training labels"): every label the device sees is wrong. DERANGEMENT (default): a
     * random permutation without fixed point, drawn per device (stream (seed, FLIP,
     * device)), so flipped devices do not agree with each other; SHIFT: c -> (c+1) mod K.
     * Composes with a map the shard already has (new map = flip o old map).
     * \param shards the shards (modified)
     * \param devices indices into shards (each < shards.size())
     * \param numClasses K (>= 2)
     * \param seed the seed
     * \param mode the flip
     */
    static void FlipLabels(std::vector<D2dShard>& shards,
                           const std::vector<uint32_t>& devices,
                           uint32_t numClasses,
                           uint64_t seed,
                           D2dFlipMode mode = D2dFlipMode::DERANGEMENT);

    /**
     * \brief Holds out m samples as the shared unlabeled set X* (Fan et al. 2023, App. G.1:
     * 5 % of the data, each class equally represented). Classification: class counts
     * apportioned equally over the classes (capped by what each class has, the rest spread
     * over the others), samples random within a class; regression: m random samples.
     * \param data the data set
     * \param m size of X*, 0..|pool|
     * \param seed the seed
     * \param remaining if not null, receives the pool minus X* (ascending): pass it as
     *        the partitioners' pool
     * \param pool allowed indices (nullptr = all)
     * \return the indices of X*, ascending
     */
    static std::vector<std::size_t> HoldOut(const D2dDataset& data,
                                            std::size_t m,
                                            uint64_t seed,
                                            std::vector<std::size_t>* remaining,
                                            const std::vector<std::size_t>* pool = nullptr);
};

} // namespace ns3

#endif // D2D_PARTITIONER_H
