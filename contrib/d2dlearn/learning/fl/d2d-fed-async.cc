/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fed-async.h"

#include "ns3/abort.h"
#include "ns3/double.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dFedAsync);

TypeId
D2dFedAsync::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dFedAsync")
                            .SetParent<D2dAsyncFl>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dFedAsync>()
                            .AddAttribute("MixingAlpha",
                                          "alpha of the mixing weight alpha_t = alpha s(t - tau)",
                                          DoubleValue(0.6),
                                          MakeDoubleAccessor(&D2dFedAsync::m_alpha),
                                          MakeDoubleChecker<double>(0.0, 1.0))
                            .AddAttribute("ProximalRho",
                                          "rho of a device's local objective f(x) + (rho / 2) "
                                          "||x - x_tau||^2 (Xie et al. 2019, Algorithm 1; 0: "
                                          "plain local SGD)",
                                          DoubleValue(0.0),
                                          MakeDoubleAccessor(&D2dFedAsync::m_rho),
                                          MakeDoubleChecker<double>(0.0, 1e6));
    return tid;
}

void
D2dFedAsync::Mix(std::vector<float>& x, const std::vector<float>& y, double alphaT)
{
    NS_ABORT_MSG_IF(x.size() != y.size(), "D2dFedAsync: model sizes differ");
    for (std::size_t j = 0; j < x.size(); ++j)
    {
        x[j] = static_cast<float>((1.0 - alphaT) * x[j] + alphaT * y[j]);
    }
}

bool
D2dFedAsync::Apply(std::vector<float>& x,
                   const std::vector<float>& update,
                   uint32_t staleness,
                   double& weight)
{
    weight = m_alpha * StalenessWeight(staleness); // alpha_t (Xie et al. 2019, Algorithm 1)
    Mix(x, update, weight);
    return true; // every update is a version
}

bool
D2dFedAsync::UploadsDelta() const
{
    return false; // the device's model y
}

void
D2dFedAsync::ConfigureTask(D2dTrainTask& task,
                           const std::shared_ptr<const std::vector<float>>& base) const
{
    if (m_rho > 0)
    {
        task.proximalMu = m_rho; // Algorithm 1: x <- x - gamma grad g_{x_tau}(x; z)
        task.proxCenter = base;
    }
}

} // namespace ns3
