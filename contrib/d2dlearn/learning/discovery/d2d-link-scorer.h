/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_LINK_SCORER_H
#define D2D_LINK_SCORER_H

#include "d2d-discovery-paradigm.h"

#include "ns3/d2d-link-quality.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Scores every directed link of a deployment before the discovery starts; with Graph
 * gcn, D2dGraphDiscovery (attribute LinkScorer) lets each receiver take the transmitter of
 * the highest score (D2dBaselineGraphs::HighestScore). D2dGcnGraphScorer is the GCN baseline
 * of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning", 2025, App. C.
 */
class D2dLinkScorer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~D2dLinkScorer() override;

    /**
     * \param paradigm the deployment's partitions (prepared)
     * \param links the links' RSS and P_D now
     * \return [i][j]: the score of link j -> i, N x N (the diagonal is ignored)
     */
    virtual std::vector<std::vector<double>> Score(const D2dDiscoveryParadigm& paradigm,
                                                   const D2dLinkQuality& links) = 0;
};

} // namespace ns3

#endif /* D2D_LINK_SCORER_H */
