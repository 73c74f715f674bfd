/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_GCN_LINK_SCORER_H
#define D2D_GCN_LINK_SCORER_H

#include "d2d-discovery-paradigm.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The GCN baseline of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning
 * for Graph Discovery in D2D-Enabled Federated Learning", 2025, sec. VI-A (v) and App. C: a
 * graph convolutional network (Kipf and Welling, "Semi-Supervised Classification with Graph
 * Convolutional Networks", 2017), trained at the server, that scores directed links; each
 * receiver then takes the transmitter of the highest score (D2dBaselineGraphs::HighestScore)
 * and the message passing and the exchange run on that graph like on any baseline's.
 * Torch-free header (the network lives in d2d-gcn-modules.h).
 *
 * What the paper states: two graph convolutions (64, 16 outputs), two linear layers (16, 1),
 * ReLU between each layer; node features are the state (the RSS) and the local data
 * distribution; training data from 10-device systems with 3 labels per device, the best links
 * from all 4-device subsets by local reward; 100 epochs of Adam, learning rate 1e-3, weight
 * decay 5e-4. What it does not, and our assumptions (also in the module documentation):
 *  - node feature of device i: its RSS row, RSS_dBm(i, j) / 100 for every j of the deployment
 *    (0 for j = i and for j outside the system), then its partition histogram D_i / |D_i|;
 *    N + L values, so the network trained on small systems applies to the N-device one;
 *  - the graph convolved on: A_ij = 1 - (P_D(i, j) + P_D(j, i)) / 2 for i != j (the
 *    symmetrised success probability of eq. (18)), normalised with self-loops (Kipf-Welling);
 *  - the decoder scores j -> i from [z_i, z_j] (D2dGcnNetImpl);
 *  - the training systems: random 10-device subsets of the deployment itself (its RSS, data
 *    and trust, all known at the server), the target of pair (i, j) 1 if j is i's best link
 *    (D2dBestLinks) else 0, the loss binary cross-entropy on the logits of every ordered pair
 *    of distinct members;
 *  - an epoch is one Adam step per training system, in a fixed order; float64; weights drawn
 *    from the seed (PyTorch's Linear initialisation), so a seed fixes the links chosen;
 *  - the server's training costs no simulated time and the features reach it without
 *    messages (the paper does not count them either).
 */
class D2dGcnLinkScorer
{
  public:
    /** One training system. */
    struct System
    {
        std::vector<std::vector<double>> features;  //!< n x F node features
        std::vector<std::vector<double>> adjacency; //!< n x n, A (not normalised)
        std::vector<int64_t> best; //!< best[i]: the best transmitter of node i (-1: none)
    };

    /**
     * \param inFeatures F, node features
     * \param seed the seed of the initial weights
     */
    D2dGcnLinkScorer(uint32_t inFeatures, uint64_t seed);
    ~D2dGcnLinkScorer();
    D2dGcnLinkScorer(const D2dGcnLinkScorer&) = delete;
    D2dGcnLinkScorer& operator=(const D2dGcnLinkScorer&) = delete;

    /**
     * \brief Train: epochs x (one Adam step per system, in order).
     * \param systems the training systems (nodes numbered within each)
     * \param epochs epochs
     * \param learningRate Adam's learning rate
     * \param weightDecay Adam's weight decay (L2)
     * \return the mean loss over the systems before training (entry 0) and after each epoch
     *         (entries 1..epochs), evaluated without a step
     * \throws std::invalid_argument for a malformed system
     */
    std::vector<double> Train(const std::vector<System>& systems,
                              uint32_t epochs,
                              double learningRate,
                              double weightDecay);

    /** \return the mean binary cross-entropy over the systems' ordered pairs */
    double Loss(const std::vector<System>& systems) const;

    /**
     * \param features n x F
     * \param adjacency n x n
     * \return the score (logit) of each link j -> i at [i][j]; the diagonal is -inf
     */
    std::vector<std::vector<double>> Score(const std::vector<std::vector<double>>& features,
                                           const std::vector<std::vector<double>>& adjacency) const;

    /** The baseline's settings (App. C values by default). */
    struct Options
    {
        uint32_t systemDevices{10}; //!< devices per training system
        uint32_t systems{8};        //!< training systems (1 if N <= systemDevices)
        uint32_t subsetSize{4};     //!< the subsets the best links are searched over
        uint32_t epochs{100};       //!< epochs
        double learningRate{1e-3};  //!< Adam
        double weightDecay{5e-4};   //!< Adam
        double alpha1{1.0};         //!< eq. (13)
        double alpha2{1.0};         //!< eq. (13)
        uint64_t seed{1};           //!< subsets drawn and initial weights
    };

    /** What Run() did. */
    struct Result
    {
        std::vector<std::vector<double>> scores; //!< [i][j]: link j -> i on the deployment
        std::vector<double> losses;              //!< Train()'s losses
        uint32_t systems{0};                     //!< training systems used
        double bestLinkAgreement{
            0}; //!< share of training receivers whose top score is the best link
    };

    /**
     * \brief One training system: the members' features and adjacency (see the class
     * description), best links renumbered within the system.
     * \param rssDbm RSS at i from j, dBm, N x N
     * \param pDrop P_D(i, j), N x N
     * \param counts D_i of every device (N x L)
     * \param members the system's devices, ascending
     * \param best the best transmitter of each device (N entries; -1 or outside: none)
     * \return the system
     */
    static System MakeSystem(const std::vector<std::vector<double>>& rssDbm,
                             const std::vector<std::vector<double>>& pDrop,
                             const std::vector<std::vector<double>>& counts,
                             const std::vector<uint32_t>& members,
                             const std::vector<int64_t>& best);

    /**
     * \brief The baseline end to end at the server: draw the training systems from the
     * deployment (random systemDevices-subsets, the subsets drawn with std::mt19937_64 from
     * the seed), label them with D2dBestLinks, train, and score every link of the deployment.
     * \param paradigm the deployment's state
     * \param rssDbm RSS, dBm, N x N
     * \param pDrop P_D, N x N
     * \param options settings
     * \return the scores and the training record
     */
    static Result Run(const D2dDiscoveryParadigm& paradigm,
                      const std::vector<std::vector<double>>& rssDbm,
                      const std::vector<std::vector<double>>& pDrop,
                      const Options& options);

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< the LibTorch GCN and its input width (defined in the .cc)
};

} // namespace ns3

#endif /* D2D_GCN_LINK_SCORER_H */
