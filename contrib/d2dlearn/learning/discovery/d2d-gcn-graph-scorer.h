/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_GCN_GRAPH_SCORER_H
#define D2D_GCN_GRAPH_SCORER_H

#include "d2d-gcn-link-scorer.h"
#include "d2d-link-scorer.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The GCN baseline of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning
 * for Graph Discovery in D2D-Enabled Federated Learning", 2025, App. C, as a D2dLinkScorer:
 * the server trains D2dGcnLinkScorer on small systems drawn from the deployment (their RSS in
 * dBm, P_D, partitions) and scores every link. The attributes are D2dGcnLinkScorer::Options;
 * the record of the training (GetResult) is what run.json reports. The training takes no
 * simulated time (D2dGcnLinkScorer lists the assumptions).
 */
class D2dGcnGraphScorer : public D2dLinkScorer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dGcnGraphScorer();

    std::vector<std::vector<double>> Score(const D2dDiscoveryParadigm& paradigm,
                                           const D2dLinkQuality& links) override;

    /** \return the last Score()'s training record (systems, losses, best-link agreement) */
    const D2dGcnLinkScorer::Result& GetResult() const;

  private:
    uint32_t m_systems;                //!< attribute Systems
    uint32_t m_systemDevices;          //!< attribute SystemDevices
    uint32_t m_subsetSize;             //!< attribute SubsetSize
    uint32_t m_epochs;                 //!< attribute Epochs
    double m_alpha1;                   //!< attribute Alpha1
    double m_alpha2;                   //!< attribute Alpha2
    uint64_t m_seed;                   //!< attribute Seed
    D2dGcnLinkScorer::Result m_result; //!< Score()'s record
};

} // namespace ns3

#endif /* D2D_GCN_GRAPH_SCORER_H */
