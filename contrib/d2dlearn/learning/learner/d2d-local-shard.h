/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LOCAL_SHARD_H
#define D2D_LOCAL_SHARD_H

/*
 * Internal header (includes LibTorch): a learner's samples. Only the learning library's
 * sources include it.
 */

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-partitioner.h"

#include <cstdint>
#include <torch/types.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A learner's samples: the indices of its shard in the shared data set and the
 * labels (classification, the shard's label map applied) or targets (regression) it trains
 * on.
 *
 * Held as plain vectors, not tensors: a tensor costs about 300 bytes of TensorImpl and
 * storage even for two samples, a device's idle footprint at a million devices. A job views
 * them as tensors (Indices(), Targets()) without copying.
 */
class D2dLocalShard
{
  public:
    /**
     * \brief Take a device's shard: its indices, and the labels (label map applied) or the
     * targets of those samples.
     * \param shard the device's sample indices and label map
     * \param data the data set they index (regression: numClasses == 0)
     */
    void Assign(const D2dShard& shard, const D2dDataset& data);

    /** \return samples in the shard */
    int64_t Size() const;
    /** \return true if the data set is a regression (targets, not labels) */
    bool IsRegression() const;
    /** \return the k-th sample's index in the data set \param k position, < Size() */
    int64_t IndexAt(int64_t k) const;
    /** \return the k-th sample's regression target \param k position, < Size() */
    float TargetAt(int64_t k) const;

    /** \return the sample indices as an int64 tensor [n] (a view, no copy) */
    torch::Tensor Indices() const;
    /** \return the labels (int64) or targets (float) as a tensor [n] (a view, no copy) */
    torch::Tensor Targets() const;

  private:
    std::vector<int64_t> m_indices; //!< the device's sample indices, [n]
    std::vector<int64_t> m_labels;  //!< their labels (classification), [n]
    std::vector<float> m_targets;   //!< their targets (regression), [n]
    bool m_regression{false};       //!< the data set is a regression
};

} // namespace ns3

#endif /* D2D_LOCAL_SHARD_H */
