/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-byzantine-attack.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dByzantineAttack");

D2dAttackType
D2dByzantineAttack::Parse(const std::string& name)
{
    if (name == "none")
    {
        return D2dAttackType::NONE;
    }
    if (name == "gradient-scaling")
    {
        return D2dAttackType::GRADIENT_SCALING;
    }
    if (name == "same-value")
    {
        return D2dAttackType::SAME_VALUE;
    }
    if (name == "back-gradient")
    {
        return D2dAttackType::BACK_GRADIENT;
    }
    if (name == "label-flipping")
    {
        return D2dAttackType::LABEL_FLIPPING;
    }
    throw std::invalid_argument("attack=" + name +
                                " is not accepted (none, gradient-scaling, same-value, "
                                "back-gradient or label-flipping)");
}

std::string
D2dByzantineAttack::ToString(D2dAttackType type)
{
    switch (type)
    {
    case D2dAttackType::NONE:
        return "none";
    case D2dAttackType::GRADIENT_SCALING:
        return "gradient-scaling";
    case D2dAttackType::SAME_VALUE:
        return "same-value";
    case D2dAttackType::BACK_GRADIENT:
        return "back-gradient";
    case D2dAttackType::LABEL_FLIPPING:
        return "label-flipping";
    }
    NS_ABORT_MSG("D2dByzantineAttack::ToString: unknown attack");
    return "";
}

void
D2dByzantineAttack::Apply(D2dAttackType type,
                          std::vector<float>& gradient,
                          Ptr<UniformRandomVariable> rng,
                          double scalingLow)
{
    switch (type)
    {
    case D2dAttackType::GRADIENT_SCALING:
        // Gradient scaling attack: g_j <- lambda_j g_j, lambda_j ~ U[a, 1).
        NS_ABORT_MSG_IF(!rng, "D2dByzantineAttack::Apply: gradient-scaling needs a stream");
        NS_ABORT_MSG_IF(!(scalingLow >= 0 && scalingLow < 1),
                        "D2dByzantineAttack::Apply: scalingLow " << scalingLow << " not in [0, 1)");
        for (auto& x : gradient)
        {
            x = static_cast<float>(static_cast<double>(x) * rng->GetValue(scalingLow, 1.0));
        }
        break;
    case D2dAttackType::SAME_VALUE:
        // Same-value attack: a vector of the same size whose elements are all 0.
        std::fill(gradient.begin(), gradient.end(), 0.0f);
        break;
    case D2dAttackType::BACK_GRADIENT:
        // Back-gradient attack: the same size, the opposite direction.
        for (auto& x : gradient)
        {
            x = -x;
        }
        break;
    case D2dAttackType::NONE:
    case D2dAttackType::LABEL_FLIPPING:
        break;
    }
}

double
D2dByzantineAttack::AdversarialScore(const std::vector<float>& gk, const std::vector<float>& gc)
{
    NS_ABORT_MSG_IF(gk.empty() || gk.size() != gc.size(),
                    "D2dByzantineAttack::AdversarialScore: gradients of sizes "
                        << gk.size() << " and " << gc.size());
    double d2 = 0;
    for (std::size_t j = 0; j < gk.size(); ++j)
    {
        const double d = static_cast<double>(gk[j]) - static_cast<double>(gc[j]);
        d2 += d * d;
    }
    return d2;
}

void
D2dByzantineAttack::ApplyInSpace(D2dAttackType type,
                                 D2dAttackSpace space,
                                 const std::vector<float>& base,
                                 std::vector<float>& update,
                                 Ptr<UniformRandomVariable> rng,
                                 double scalingLow)
{
    if (space == D2dAttackSpace::UPDATE)
    {
        Apply(type, update, rng, scalingLow);
        return;
    }
    if (type == D2dAttackType::NONE || type == D2dAttackType::LABEL_FLIPPING)
    {
        return; // nothing to change: g_k stays bit for bit
    }
    NS_ABORT_MSG_IF(base.size() != update.size(),
                    "D2dByzantineAttack::ApplyInSpace: w^t of size "
                        << base.size() << ", update of size " << update.size());
    // The authors' runs attack the uploaded weights w_k = w^t - g_k.
    std::vector<float> w(update.size());
    for (std::size_t j = 0; j < w.size(); ++j)
    {
        w[j] = base[j] - update[j];
    }
    Apply(type, w, rng, scalingLow);
    for (std::size_t j = 0; j < w.size(); ++j)
    {
        update[j] = base[j] - w[j];
    }
}

D2dAttackSpace
D2dByzantineAttack::ParseSpace(const std::string& name)
{
    if (name == "update")
    {
        return D2dAttackSpace::UPDATE;
    }
    if (name == "weights")
    {
        return D2dAttackSpace::WEIGHTS;
    }
    throw std::invalid_argument("attackSpace=" + name + " is not accepted (update or weights)");
}

Callback<void, uint32_t, std::vector<float>&>
D2dByzantineAttack::MakeUpdateTamper(const std::vector<uint32_t>& malicious,
                                     D2dAttackType type,
                                     Ptr<UniformRandomVariable> rng,
                                     double scalingLow,
                                     D2dAttackSpace space,
                                     std::function<std::vector<float>()> base)
{
    NS_ABORT_MSG_IF(space == D2dAttackSpace::WEIGHTS && !base,
                    "D2dByzantineAttack::MakeUpdateTamper: the weights space needs w^t");
    const std::set<uint32_t> bad(malicious.begin(), malicious.end());
    return Callback<void, uint32_t, std::vector<float>&>(
        [bad, type, rng, scalingLow, space, base](uint32_t device, std::vector<float>& g) {
            if (bad.count(device) == 0)
            {
                return;
            }
            if (space == D2dAttackSpace::UPDATE)
            {
                Apply(type, g, rng, scalingLow);
                return;
            }
            ApplyInSpace(type, space, base(), g, rng, scalingLow);
        });
}

} // namespace ns3
