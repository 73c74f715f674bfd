/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FED_BUFF_H
#define D2D_FED_BUFF_H

#include "d2d-async-fl.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief FedBuff (Nguyen, Malik, Zhan, Yousefpour, Rabbat, Malek, Huba, "Federated Learning
 * with Buffered Asynchronous Aggregation", AISTATS 2022, Algorithm 1): a device uploads its
 * change Delta_k = x_tau - y_k; the server adds s(t - tau) Delta_k to a buffer and, once it
 * holds BufferSize K updates, makes a version x <- x - eta_g (sum_k s_k Delta_k) / K
 * (ServerLearningRate eta_g) and empties the buffer. Algorithm 1 adds each Delta_k as it is
 * (Staleness=constant); the paper's experiments scale it by 1 / sqrt(1 + staleness), the
 * default polynomial s with a = 0.5.
 */
class D2dFedBuff : public D2dAsyncFl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

  protected:
    bool Apply(std::vector<float>& x,
               const std::vector<float>& update,
               uint32_t staleness,
               double& weight) override;
    bool UploadsDelta() const override;

  private:
    uint32_t m_bufferSize;        //!< BufferSize K
    double m_serverLearningRate;  //!< ServerLearningRate eta_g
    std::vector<double> m_buffer; //!< sum of s_k Delta_k since the last version
    uint32_t m_buffered{0};       //!< updates in the buffer
};

} // namespace ns3

#endif /* D2D_FED_BUFF_H */
