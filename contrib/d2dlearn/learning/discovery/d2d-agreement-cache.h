/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_AGREEMENT_CACHE_H
#define D2D_AGREEMENT_CACHE_H

#include "d2d-gaussian-clusters.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The system agreement of eq. (17) of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, with
 * everything that has not changed kept between calls.
 *
 * In the unsupervised paradigm every device's reward asks for the agreement of the devices
 * whose statistics reached it: the members of a cluster ask for nearly the same sum, every
 * RL iteration asks again, and between two iterations only the devices that received sampled
 * points change their clusters after the exchange; the clusters before change once per edge
 * round. The cache keeps, per device, the factors of its clusters (D2dGaussianFactor) before
 * and after, and per ordered pair of devices the L_i x L_j terms h^B / h^A; each is computed
 * again only when a device it depends on changed (BeforeChanged, AfterChanged, AfterReset).
 * The terms are added in the order of an uncached sum, so Sum gives the same bits as
 * computing every divergence afresh (the test checks it against a plain implementation).
 *
 * The caller owns the clusters and tells the cache when they change; Sum reads them.
 */
class D2dAgreementCache
{
  public:
    /** Each device's clusters, indexed by device. */
    using Clusters = std::vector<std::vector<D2dGaussianCluster>>;

    /**
     * \param mix the means of h^A
     * \param ridge added to every covariance's diagonal in the divergences (>= 0)
     */
    D2dAgreementCache(D2dGaussianClusters::AgreementMix mix = D2dGaussianClusters::POST_EXCHANGE,
                      double ridge = 0.0);

    /**
     * \brief Forget everything; devices 0..n-1, each with its clusters after equal to before.
     * \param nDevices n
     */
    void Reset(uint32_t nDevices);

    /** \param device whose clusters before changed (and after, which equal them now) */
    void BeforeChanged(uint32_t device);

    /** \param device whose clusters after changed (they differ from before now) */
    void AfterChanged(uint32_t device);

    /** \param device whose clusters after are equal to its clusters before again */
    void AfterSameAsBefore(uint32_t device);

    /** Every device's clusters after are equal to its clusters before again. */
    void AfterReset();

    /**
     * \brief Eq. (17) over the ordered pairs of devices (D2dGaussianClusters::SystemAgreement
     * on before[devices], after[devices]).
     * \param devices the devices, in the order the sum runs over them
     * \param before every device's clusters before (indexed by device)
     * \param after every device's clusters after (indexed by device)
     * \return the sum and its number of terms
     */
    D2dGaussianClusters::Agreement Sum(const std::vector<uint32_t>& devices,
                                       const Clusters& before,
                                       const Clusters& after);

    /** \return the KL divergences computed so far (each h^B and h^A counts one) */
    uint64_t GetDivergences() const;

  private:
    /** A device's state: versions of its clusters and their factors. */
    struct Device
    {
        uint64_t beforeVersion{0};             //!< bumped when the clusters before change
        uint64_t afterVersion{0};              //!< bumped when the clusters after change
        bool afterSame{true};                  //!< after == before
        bool beforeBuilt{false};               //!< before factors are current
        bool afterBuilt{false};                //!< after factors are current
        std::vector<D2dGaussianFactor> before; //!< factors of the clusters before
        std::vector<D2dGaussianFactor> after;  //!< factors after (if !afterSame)
    };

    /** One ordered pair's terms and the versions they were computed at. */
    struct Pair
    {
        uint64_t versions[4]{~0ULL, ~0ULL, ~0ULL, ~0ULL}; //!< before i, before j, after i, j
        std::vector<double> hb;                           //!< h^B per (l, l'), NaN if left out
        uint64_t hbVersions[2]{~0ULL, ~0ULL};             //!< before i, before j of hb
        std::vector<double> ratio; //!< h^B / h^A per (l, l'), NaN if the term is left out
    };

    /** \return the factors of device i's clusters before \param i \param before clusters */
    const std::vector<D2dGaussianFactor>& BeforeFactors(uint32_t i, const Clusters& before);
    /** \return the factors of i's clusters after \param i \param before \param after */
    const std::vector<D2dGaussianFactor>& AfterFactors(uint32_t i,
                                                       const Clusters& before,
                                                       const Clusters& after);
    /** Bring pair (i, j)'s terms up to date. \param i \param j \param before \param after
     * \return the pair */
    const Pair& Terms(uint32_t i, uint32_t j, const Clusters& before, const Clusters& after);

    D2dGaussianClusters::AgreementMix m_mix;    //!< the means of h^A
    double m_ridge;                             //!< KL ridge (squared units of the points)
    std::vector<Device> m_devices;              //!< per device
    std::unordered_map<uint64_t, Pair> m_pairs; //!< per ordered pair i * n + j
    uint64_t m_divergences{0};                  //!< KL divergences computed
};

} // namespace ns3

#endif /* D2D_AGREEMENT_CACHE_H */
