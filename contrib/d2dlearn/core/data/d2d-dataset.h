/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DATASET_H
#define D2D_DATASET_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A data set in memory: float features, integer labels or float targets.
 *
 * Torch-free: features are a row-major float array of Size() x FeatureSize() values.
 * A classification set (numClasses > 0) fills `labels` (class ids in [0, numClasses));
 * a regression set (numClasses == 0) fills `targets`. Once built, a data set is not
 * modified: it is shared as std::shared_ptr<const D2dDataset> by every device, and a
 * device's local data is an index list into it (D2dShard), never a copy.
 */
class D2dDataset
{
  public:
    std::string name;                  //!< e.g. "fashion-mnist-train"
    std::vector<int64_t> featureShape; //!< shape of one sample, e.g. {1, 28, 28} or {d}
    uint32_t numClasses{0};            //!< number of classes; 0 = regression
    std::vector<float> features;       //!< row-major, Size() x FeatureSize()
    std::vector<int64_t> labels;       //!< classification: class id per sample
    std::vector<float> targets;        //!< regression: one target per sample

    /** \return the number of samples */
    std::size_t Size() const;
    /** \return the number of floats per sample (product of featureShape; 1 if empty) */
    std::size_t FeatureSize() const;
    /**
     * \param i sample index (< Size())
     * \return pointer to sample i's FeatureSize() floats
     */
    const float* Sample(std::size_t i) const;
    /** \return true if numClasses > 0 */
    bool IsClassification() const;
    /**
     * \brief Samples per class.
     * \param indices samples to count (nullptr: all)
     * \return vector of numClasses counts (empty for regression)
     */
    std::vector<std::size_t> ClassCounts(const std::vector<std::size_t>* indices = nullptr) const;
    /**
     * \brief A copy holding the given samples in the given order (for small sets such as
     * a test subset; shards of large sets should stay index lists).
     * \param indices sample indices (< Size(); repeats allowed)
     * \return the new data set (same name with suffix "-subset", shape and numClasses)
     * \throws std::out_of_range if an index is >= Size()
     */
    std::shared_ptr<D2dDataset> Subset(const std::vector<std::size_t>& indices) const;
    /**
     * \param shape a sample shape, e.g. featureShape
     * \return it as text for messages: "3 x 32 x 32"; "scalars" for an empty shape
     */
    static std::string ShapeText(const std::vector<int64_t>& shape);
    /**
     * \brief Checks the invariants (sizes agree, labels in range).
     * \throws std::logic_error naming what is wrong
     */
    void Validate() const;
};

} // namespace ns3

#endif // D2D_DATASET_H
