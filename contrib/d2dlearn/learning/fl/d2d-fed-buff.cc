/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fed-buff.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dFedBuff);

TypeId
D2dFedBuff::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dFedBuff")
                            .SetParent<D2dAsyncFl>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dFedBuff>()
                            .AddAttribute("BufferSize",
                                          "K: updates aggregated into each version",
                                          UintegerValue(10),
                                          MakeUintegerAccessor(&D2dFedBuff::m_bufferSize),
                                          MakeUintegerChecker<uint32_t>(1))
                            .AddAttribute("ServerLearningRate",
                                          "eta_g of x <- x - eta_g (sum_k s_k Delta_k) / K",
                                          DoubleValue(1.0),
                                          MakeDoubleAccessor(&D2dFedBuff::m_serverLearningRate),
                                          MakeDoubleChecker<double>(0.0, 1e6));
    return tid;
}

bool
D2dFedBuff::Apply(std::vector<float>& x,
                  const std::vector<float>& update,
                  uint32_t staleness,
                  double& weight)
{
    // Nguyen et al. 2022, Algorithm 1: Delta-bar += s_k Delta_k; after K, x -= eta_g
    // Delta-bar / K.
    NS_ABORT_MSG_IF(update.size() != x.size(), "D2dFedBuff: model sizes differ");
    weight = StalenessWeight(staleness);
    m_buffer.resize(x.size(), 0.0);
    for (std::size_t j = 0; j < x.size(); ++j)
    {
        m_buffer[j] += weight * update[j];
    }
    if (++m_buffered < m_bufferSize)
    {
        return false;
    }
    const double step = m_serverLearningRate / m_bufferSize;
    for (std::size_t j = 0; j < x.size(); ++j)
    {
        x[j] = static_cast<float>(x[j] - step * m_buffer[j]);
    }
    m_buffer.assign(x.size(), 0.0);
    m_buffered = 0;
    return true;
}

bool
D2dFedBuff::UploadsDelta() const
{
    return true; // Delta_k = x_tau - y_k
}

} // namespace ns3
