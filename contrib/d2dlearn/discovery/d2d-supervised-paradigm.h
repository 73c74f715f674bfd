/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_SUPERVISED_PARADIGM_H
#define D2D_SUPERVISED_PARADIGM_H

#include "d2d-discovery-paradigm.h"
#include "d2d-diversity-rewards.h"
#include "d2d-trust-matrices.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The supervised paradigm of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, sec. V-A: partitions
 * are labels, the messages are label vectors (eqs. (9)-(11), D2dMessagePassing), and g is the
 * distance (W1 or JS) between the label histograms before and after the exchange when eq. (8)
 * holds after it.
 *
 * Attributes: ThresholdOn (allocated: eq. (8) is checked on D_i + U - sent, the loss-free
 * counts, the default; expected: on D-hat_i with (1 - P_D) U, the literal reading, under which
 * a receiver that needs a new label cannot reach b_i over a lossy link), Metric (w1 | js),
 * BytesPerCount (8 bits per entry as in the paper's sec. IV-C), RequestBytes.
 */
class D2dSupervisedParadigm : public D2dDiscoveryParadigm
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dSupervisedParadigm();

    /**
     * \brief Set the state of every device.
     * \param counts D_i (N x L)
     * \param thresholds b_i (N x L)
     * \param minLabels L-hat_i (N)
     * \param trust T_j (N devices, L labels)
     */
    void Setup(std::vector<D2dCounts> counts,
               std::vector<D2dCounts> thresholds,
               std::vector<uint32_t> minLabels,
               D2dTrustMatrices trust);

    uint32_t GetNDevices() const override;
    uint32_t GetNPartitions() const override;
    const D2dCounts& GetCounts(uint32_t device) const override;
    void SetCounts(uint32_t device, const D2dCounts& counts) override;
    uint64_t GetRequestBytes() const override;
    uint64_t GetVectorBytes() const override;
    D2dCounts Offer(uint32_t transmitter, uint32_t receiver) const override;
    D2dCounts Demand(uint32_t receiver, const D2dCounts& offer) const override;
    std::vector<D2dCounts> Allocate(uint32_t transmitter,
                                    const std::vector<D2dCounts>& demands) const override;
    double Gain(uint32_t receiver,
                const D2dCounts& allocated,
                double pDrop,
                const D2dCounts& sent) const override;
    double Shareable(uint32_t transmitter, uint32_t receiver) const override;
    uint32_t Satisfied(uint32_t device) const override;

    /** \return b_i */
    const D2dCounts& GetThresholds(uint32_t device) const;
    /** \return L-hat_i */
    uint32_t GetMinLabels(uint32_t device) const;
    /** \return the trust matrices */
    const D2dTrustMatrices& GetTrust() const;

  private:
    std::vector<D2dCounts> m_counts;
    std::vector<D2dCounts> m_thresholds;
    std::vector<uint32_t> m_minLabels;
    D2dTrustMatrices m_trust;
    std::string m_thresholdOn;
    std::string m_metric;
    uint32_t m_bytesPerCount;
    uint32_t m_requestBytes;
};

} // namespace ns3

#endif /* D2D_SUPERVISED_PARADIGM_H */
