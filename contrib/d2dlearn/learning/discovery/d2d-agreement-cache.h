/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_AGREEMENT_CACHE_H
#define D2D_AGREEMENT_CACHE_H

#include "d2d-gaussian-clusters.h"
#include "d2d-kl-blocks.h"

#include <cstdint>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The system agreement of eq. (17) of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, with
 * everything that has not changed kept between calls, computed as dense linear algebra.
 *
 * In the unsupervised paradigm every device's reward asks for the agreement of the devices
 * whose statistics reached it: the members of a cluster ask for nearly the same sum, every
 * RL iteration asks again, and between two iterations only the devices that received sampled
 * points change their clusters after the exchange; the clusters before change once per edge
 * round. The cache keeps, per device, its clusters' prepared covariances
 * (D2dGaussianPrecision) before and after (a cluster whose statistics after are those before
 * shares the prepared one), and per ordered pair of devices the L_i x L_j terms h^B / h^A;
 * each is computed again only when a device it depends on changed (BeforeChanged,
 * AfterChanged, AfterReset).
 *
 * The divergences that are due are computed in blocks (D2dKlBlocks): all those of one
 * group's pairs at once, a block per group (one matrix product of the clusters of the
 * group's devices with those of the devices whose pairs are due: the few pairs of a device
 * with itself it also computes cost less than a block per device of the columns, whose
 * products are narrower and which prepare each row once per column device), the blocks and
 * the preparations spread over the workers of SetParallelFor. Each block's arithmetic and the
 * order of the final sum (i, j, l, l', the order of the plain sum) do not depend on the
 * workers, so neither do the bits. The arithmetic is not the textbook's
 * (D2dGaussianClusters::SystemAgreement, which the tests compare it with to 1e-9 relative).
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

    /**
     * \brief Bring the terms of every group's sum up to date at once: what is due across all
     * the groups is prepared and computed in one pass of blocks (SetParallelFor). Sum then
     * finds nothing due in a group given here. With disjoint groups the bits are those of Sum
     * alone (each block holds one group's pairs, as Sum's would); a pair of two groups is
     * computed in the block of the first.
     * \param groups device lists, each as Sum takes them
     * \param before every device's clusters before
     * \param after every device's clusters after
     */
    void Update(const std::vector<std::vector<uint32_t>>& groups,
                const Clusters& before,
                const Clusters& after);

    /** \return the KL divergences computed so far (each h^B and h^A counts one) */
    uint64_t GetDivergences() const;

    /**
     * \return the multiply-adds of the divergence blocks' matrix products so far (the
     * kernel's work, D2dKlBlocks::Divergences)
     */
    uint64_t GetMultiplyAdds() const;

    /**
     * A parallel loop: run body(k) for k = 0..n-1, each exactly once, on any threads, and
     * return when all have run.
     */
    using ParallelFor =
        std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;

    /** \param parallelFor how to spread the blocks (default: a plain loop in this thread) */
    void SetParallelFor(ParallelFor parallelFor);

  private:
    /** A device's state: versions of its clusters and their prepared covariances. */
    struct Device
    {
        uint64_t beforeVersion{0};                //!< bumped when the clusters before change
        uint64_t afterVersion{0};                 //!< bumped when the clusters after change
        bool afterSame{true};                     //!< after == before
        bool beforeBuilt{false};                  //!< before is current
        bool afterBuilt{false};                   //!< after is current
        std::vector<D2dGaussianPrecision> before; //!< the clusters before
        std::vector<D2dGaussianPrecision> after;  //!< after (if !afterSame; empty if shared)
        std::vector<const D2dGaussianPrecision*> afterOf; //!< after, each cluster's own or before's
    };

    /** One ordered pair's terms and the versions they were computed at. */
    struct Pair
    {
        uint64_t versions[4]{~0ULL, ~0ULL, ~0ULL, ~0ULL}; //!< before i, before j, after i, j
        std::vector<double> hb;                           //!< h^B per (l, l'), NaN if left out
        uint64_t hbVersions[2]{~0ULL, ~0ULL};             //!< before i, before j of hb
        std::vector<double> ratio; //!< h^B / h^A per (l, l'), NaN if the term is left out
    };

    /**
     * The pairs due in one group: one product of all the rows' clusters with all the
     * columns' (a pair of a device with itself, or not due, is computed and left unread).
     */
    struct Block
    {
        std::vector<uint32_t> rows; //!< the devices i of the pairs, in order of first appearance
        std::vector<uint32_t> cols; //!< the devices j of the pairs, in order of first appearance
        /** Each pair due: its row and column index in rows and cols, and its terms. */
        std::vector<std::tuple<uint32_t, uint32_t, Pair*>> pairs;
    };

    /** The blocks due, one per group that has pairs due. */
    using BlockList = std::vector<Block>;
    /**
     * \brief Prepare the covariances the due blocks read: before for needBefore, after for
     * needAfter (in parallel, one task per cluster).
     * \param needBefore devices \param needAfter devices \param before \param after clusters
     */
    void Prepare(const std::vector<uint32_t>& needBefore,
                 const std::vector<uint32_t>& needAfter,
                 const Clusters& before,
                 const Clusters& after);
    /**
     * \brief Compute the due h^B (afterSide false) or h^A (true) terms, a block per group, in
     * parallel; h^A blocks also set the pairs' ratios.
     * \param blocks the pairs due \param afterSide which terms \param before \param after
     */
    void Blocks(const BlockList& blocks,
                bool afterSide,
                const Clusters& before,
                const Clusters& after);
    /** \return the pairs due grouped by the group that asked for them first, in order
     * \param due the pairs (i, j) \param groupOf each pair's group \param pairs their terms,
     * one per pair of due */
    static BlockList ByGroup(const std::vector<std::pair<uint32_t, uint32_t>>& due,
                             const std::vector<std::size_t>& groupOf,
                             const std::vector<Pair*>& pairs);
    /** Set pair (i, j)'s ratios from its h^B and h^A. \param p the pair \param i \param j
     * \param ha h^A per (l, l') (null: h^A = h^B) \param before \param after */
    static void SetRatios(Pair& p,
                          uint32_t i,
                          uint32_t j,
                          const std::vector<double>* ha,
                          const Clusters& before,
                          const Clusters& after);

    D2dGaussianClusters::AgreementMix m_mix;    //!< the means of h^A
    double m_ridge;                             //!< KL ridge (squared units of the points)
    std::vector<Device> m_devices;              //!< per device
    std::unordered_map<uint64_t, Pair> m_pairs; //!< per ordered pair i * n + j
    uint64_t m_divergences{0};                  //!< KL divergences computed
    uint64_t m_multiplyAdds{0};                 //!< the blocks' multiply-adds
    ParallelFor m_parallelFor;                  //!< how blocks are spread
};

} // namespace ns3

#endif /* D2D_AGREEMENT_CACHE_H */
