/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-local-shard.h"

namespace ns3
{

void
D2dLocalShard::Assign(const D2dShard& shard, const D2dDataset& data)
{
    m_regression = data.numClasses == 0;
    m_indices.assign(shard.indices.begin(), shard.indices.end());
    m_labels.clear();
    m_targets.clear();
    if (m_regression)
    {
        m_targets.reserve(m_indices.size());
        for (auto i : m_indices)
        {
            m_targets.push_back(data.targets[static_cast<std::size_t>(i)]);
        }
        return;
    }
    m_labels.reserve(m_indices.size());
    for (auto i : m_indices)
    {
        const int64_t label = data.labels[static_cast<std::size_t>(i)];
        m_labels.push_back(
            shard.labelMap.empty() ? label : shard.labelMap[static_cast<std::size_t>(label)]);
    }
}

int64_t
D2dLocalShard::Size() const
{
    return static_cast<int64_t>(m_indices.size());
}

bool
D2dLocalShard::IsRegression() const
{
    return m_regression;
}

int64_t
D2dLocalShard::IndexAt(int64_t k) const
{
    return m_indices[static_cast<std::size_t>(k)];
}

float
D2dLocalShard::TargetAt(int64_t k) const
{
    return m_targets[static_cast<std::size_t>(k)];
}

torch::Tensor
D2dLocalShard::Indices() const
{
    return torch::from_blob(const_cast<int64_t*>(m_indices.data()),
                            {static_cast<int64_t>(m_indices.size())},
                            torch::kLong);
}

torch::Tensor
D2dLocalShard::Targets() const
{
    if (m_regression)
    {
        return torch::from_blob(const_cast<float*>(m_targets.data()),
                                {static_cast<int64_t>(m_targets.size())},
                                torch::kFloat);
    }
    return torch::from_blob(const_cast<int64_t*>(m_labels.data()),
                            {static_cast<int64_t>(m_labels.size())},
                            torch::kLong);
}

} // namespace ns3
