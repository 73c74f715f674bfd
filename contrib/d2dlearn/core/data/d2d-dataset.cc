/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-dataset.h"

#include <stdexcept>
#include <string>

namespace ns3
{

std::size_t
D2dDataset::FeatureSize() const
{
    std::size_t s = 1;
    for (int64_t d : featureShape)
    {
        s *= static_cast<std::size_t>(d);
    }
    return s;
}

std::size_t
D2dDataset::Size() const
{
    std::size_t fs = FeatureSize();
    return fs == 0 ? 0 : features.size() / fs;
}

const float*
D2dDataset::Sample(std::size_t i) const
{
    return features.data() + i * FeatureSize();
}

bool
D2dDataset::IsClassification() const
{
    return numClasses > 0;
}

std::vector<std::size_t>
D2dDataset::ClassCounts(const std::vector<std::size_t>* indices) const
{
    std::vector<std::size_t> counts(numClasses, 0);
    if (numClasses == 0)
    {
        return counts;
    }
    if (indices == nullptr)
    {
        for (int64_t l : labels)
        {
            ++counts.at(static_cast<std::size_t>(l));
        }
    }
    else
    {
        for (std::size_t i : *indices)
        {
            ++counts.at(static_cast<std::size_t>(labels.at(i)));
        }
    }
    return counts;
}

std::shared_ptr<D2dDataset>
D2dDataset::Subset(const std::vector<std::size_t>& indices) const
{
    auto out = std::make_shared<D2dDataset>();
    out->name = name + "-subset";
    out->featureShape = featureShape;
    out->numClasses = numClasses;
    const std::size_t fs = FeatureSize();
    const std::size_t n = Size();
    out->features.reserve(indices.size() * fs);
    for (std::size_t i : indices)
    {
        if (i >= n)
        {
            throw std::out_of_range("D2dDataset::Subset: index " + std::to_string(i) + " >= size " +
                                    std::to_string(n));
        }
        out->features.insert(out->features.end(), Sample(i), Sample(i) + fs);
        if (!labels.empty())
        {
            out->labels.push_back(labels[i]);
        }
        if (!targets.empty())
        {
            out->targets.push_back(targets[i]);
        }
    }
    return out;
}

void
D2dDataset::Validate() const
{
    const std::size_t fs = FeatureSize();
    if (fs == 0 || features.size() % fs != 0)
    {
        throw std::logic_error("D2dDataset " + name + ": " + std::to_string(features.size()) +
                               " feature values are not a multiple of the sample size " +
                               std::to_string(fs));
    }
    const std::size_t n = Size();
    if (numClasses > 0)
    {
        if (labels.size() != n)
        {
            throw std::logic_error("D2dDataset " + name + ": " + std::to_string(labels.size()) +
                                   " labels for " + std::to_string(n) + " samples");
        }
        for (int64_t l : labels)
        {
            if (l < 0 || l >= static_cast<int64_t>(numClasses))
            {
                throw std::logic_error("D2dDataset " + name + ": label " + std::to_string(l) +
                                       " outside [0, " + std::to_string(numClasses) + ")");
            }
        }
    }
    else if (targets.size() != n)
    {
        throw std::logic_error("D2dDataset " + name + ": " + std::to_string(targets.size()) +
                               " targets for " + std::to_string(n) + " samples");
    }
}

std::string
D2dDataset::ShapeText(const std::vector<int64_t>& shape)
{
    std::string text;
    for (std::size_t i = 0; i < shape.size(); ++i)
    {
        text += (i ? " x " : "") + std::to_string(shape[i]);
    }
    return text.empty() ? "scalars" : text;
}

} // namespace ns3
