/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LABEL_COUNTS_H
#define D2D_LABEL_COUNTS_H

#include "d2d-message-passing.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What a graph-discovery paradigm counts (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning",
 * 2025, Table II): the
 * partitions' datapoints D_i at each device, the labels each aims to satisfy and satisfies
 * (eq. (8)), the true labels' histogram. One of the three interfaces of D2dDiscoveryParadigm
 * (with D2dDiscoveryMessages and D2dDiscoveryScoring).
 */
class D2dLabelCounts
{
  public:
    /** \brief Destructor */
    virtual ~D2dLabelCounts() = default;

    /** \return N */
    virtual uint32_t GetNDevices() const = 0;
    /** \return L, the number of partitions */
    virtual uint32_t GetNPartitions() const = 0;
    /** \return D_i: the datapoints of each partition at device i \param device i */
    virtual const D2dFractionalCounts& GetCounts(uint32_t device) const = 0;
    /** \param device i \param counts its new D_i (after an exchange of datapoints) */
    virtual void SetCounts(uint32_t device, const D2dFractionalCounts& counts) = 0;
    /** \return the labels satisfied at a device (eq. (8) count; for the traces)
     * \param device i */
    virtual uint32_t Satisfied(uint32_t device) const = 0;
    /**
     * \param device i
     * \return the true labels' histogram at device i (the measure of the bias left; by
     *         default GetCounts: the partitions are the labels)
     */
    virtual D2dFractionalCounts GetLabelCounts(uint32_t device) const;
    /** \return L-hat_i, the labels device i aims to satisfy (0 when the paradigm has none)
     * \param device i */
    virtual uint32_t GetMinLabels(uint32_t device) const;
};

} // namespace ns3

#endif /* D2D_LABEL_COUNTS_H */
