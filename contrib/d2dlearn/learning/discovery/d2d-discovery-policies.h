/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_POLICIES_H
#define D2D_DISCOVERY_POLICIES_H

#include "d2d-discovery-iteration.h"
#include "d2d-discovery-modes.h"
#include "d2d-link-policy.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class D2dDiscoveryParadigm;
class D2dLinkQuality;

/**
 * \ingroup d2dlearn
 * \brief The RL policies and rewards of graph discovery (Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, sec. IV): one D2dLinkPolicy per device and edge round, the reliable
 * clusters of eq. (1), the local reward r^L of eq. (13), the global reward r^G of eq. (14)
 * (or eq. (17) with a paradigm's system agreement), and R = r^L + gamma r^G of sec. IV-E.
 *
 * D2dGraphDiscovery owns one: it runs the message passing and the exchange, this class
 * decides what the devices learn from them. Its parameters are D2dGraphDiscovery's
 * attributes of the same names (AddPolicyAttributes), stored here. It draws no random
 * number: the discovery draws the samples of eq. (7) and passes them in.
 */
class D2dDiscoveryPolicies
{
  public:
    /** The parameters: each is the D2dGraphDiscovery attribute named with it. */
    struct Parameters
    {
        uint32_t bufferSize{256}; //!< H, rewards an experience buffer holds (BufferSize)
        double gamma{0.5};        //!< gamma, weight of r^G in R, dimensionless (Gamma)
        double delta{0.9};        //!< delta in [0, 1], reduction of below-mean rewards (Delta)
        double alpha1{1.0};       //!< alpha1, weight of g in eq. (13), dimensionless (Alpha1)
        double alpha2{1.0};       //!< alpha2, weight of P_D in eq. (13), dimensionless (Alpha2)
        /** alpha3, weight of the budget in eq. (14), per datapoint (Alpha3; -1: 0 without a
         * budget, 1 / budget with one, which Start stores) */
        double alpha3{-1.0};
        double budget{0.0}; //!< B_k, datapoints a cluster may receive (Budget; 0: none)
        D2dDiscoveryModes::BufferMode bufferMode{
            D2dDiscoveryModes::BUFFER_PER_ACTION}; //!< the experience buffers (BufferMode)
        D2dDiscoveryModes::BetaMode betaMode{
            D2dDiscoveryModes::BETA_SIGN_AWARE}; //!< below-mean reduction (BetaMode)
        D2dDiscoveryModes::StateMode stateMode{
            D2dDiscoveryModes::STATE_PER_LINK}; //!< the RL state with dynamic RSS (StateMode)
        double alphaD{0.1}; //!< alpha_D, P_D bound of eq. (1), a probability (ReliabilityThreshold)
        uint32_t rewardBytes{8};       //!< size of an r^L message, bytes (RewardBytes)
        uint32_t globalRewardBytes{4}; //!< size of a head's r^G message, bytes (GlobalRewardBytes)
        D2dDiscoveryModes::RewardSharing rewardSharing{
            D2dDiscoveryModes::CLUSTER_HEAD}; //!< how r^L reaches the cluster (RewardSharing)
    };

    /** \return the parameters, for D2dGraphDiscovery's attribute accessors */
    Parameters& GetParameters();
    /** \return the parameters */
    const Parameters& GetParameters() const;

    /**
     * \brief Start a run: resolve alpha3 (Parameters::alpha3), form the reliable clusters of
     * eq. (1) (greedy, D2dDiversityRewards::Clusters) and put each device the paradigm says
     * does not take part in a cluster of its own; forget the policies and row states.
     * \param pDrop pDrop[i][j] = P_D(i, j) (0 on the diagonal)
     * \param paradigm the paradigm (D2dDiscoveryParadigm::TakesPart)
     */
    void Start(const std::vector<std::vector<double>>& pDrop, const D2dDiscoveryParadigm& paradigm);
    /**
     * \brief Start an edge round (Remark 2): its policies, one per device when learn.
     * \param learn whether the policies learn the graph (Graph rl)
     */
    void AddEdge(bool learn);

    /**
     * \param edge the edge round
     * \param device i
     * \return device i's policy of that edge round (Graph rl)
     */
    D2dLinkPolicy& GetPolicy(uint32_t edge, uint32_t device);
    /** \return device i's policy of edge round e, at [e][i] (empty unless Graph = rl) */
    const std::vector<std::vector<D2dLinkPolicy>>& GetPolicies() const;
    /**
     * \param rx receiver i
     * \param links the link states
     * \return the state q each action j is valued in at device i now (Parameters::stateMode;
     *         all 0 with static RSS, App. C, S = 1)
     */
    std::vector<uint32_t> CurrentStates(uint32_t rx, const D2dLinkQuality& links);

    /** \return the reliable cluster of each device */
    const std::vector<uint32_t>& GetClusters() const;
    /** \return the members of each cluster, in index order (the first is its head) */
    const std::vector<std::vector<uint32_t>>& GetClusterMembers() const;
    /**
     * \param device i
     * \return whether i sits the discovery out (D2dDiscoveryParadigm::TakesPart false)
     */
    bool SitsOut(uint32_t device) const;
    /**
     * \param rx receiver i
     * \param tx transmitter j
     * \return whether j -> i joins two reliable clusters (its points count in d'_k)
     */
    bool IsInterCluster(uint32_t rx, uint32_t tx) const;
    /**
     * \param device i
     * \return the devices i sends its r^L to: its cluster's head (CLUSTER_HEAD; none for the
     *         head) or every other member (MULTICAST)
     */
    std::vector<uint32_t> RewardDestinations(uint32_t device) const;
    /** \return whether the heads send r^G back to the members (RewardSharing CLUSTER_HEAD) */
    bool SharesThroughHead() const;

    /**
     * \brief Eq. (13): r^L = alpha1 g - alpha2 P_D(i, j).
     * \param gain g, the paradigm's diversity score of the exchange
     * \param pDrop P_D(i, j) of the chosen link, a probability
     * \return r^L
     */
    double LocalReward(double gain, double pDrop) const;
    /**
     * \param i a device
     * \param it the iteration (r^L and d' of i, the members' rewards that reached i)
     * \param paradigm the paradigm (its system agreement, eq. (17), if it has one)
     * \return r^G of eq. (14) (or eq. (17)) for i's cluster from i's own reward and the
     *         members' rewards that reached i
     */
    double ClusterGlobalReward(uint32_t i,
                               const D2dDiscoveryIteration& it,
                               const D2dDiscoveryParadigm& paradigm) const;
    /**
     * \param i a device
     * \param it the iteration
     * \return the devices whose statistics ClusterGlobalReward(i) compares by eq. (17): i and
     *         the members of its cluster whose rewards reached i, in that order
     */
    std::vector<uint32_t> AgreementDevices(uint32_t i, const D2dDiscoveryIteration& it) const;
    /**
     * \param i a device
     * \param it the iteration
     * \param paradigm the paradigm
     * \return the r^G device i learns from: 0 if it sits out; its head's, if that arrived
     *         (CLUSTER_HEAD, i not the head); else the one i forms (ClusterGlobalReward)
     */
    double GlobalRewardAt(uint32_t i,
                          const D2dDiscoveryIteration& it,
                          const D2dDiscoveryParadigm& paradigm) const;
    /**
     * \brief Sec. IV-E: R = r^L + gamma r^G.
     * \param local r^L
     * \param global r^G
     * \return R
     */
    double Reward(double local, double global) const;

  private:
    Parameters m_params;                                 //!< the attributes' values
    std::vector<std::vector<D2dLinkPolicy>> m_policies;  //!< [edge][device] (Graph rl)
    std::vector<uint32_t> m_clusters;                    //!< reliable cluster of each device
    std::vector<std::vector<uint32_t>> m_clusterMembers; //!< members of each cluster
    std::vector<bool> m_out;                             //!< devices that sit the discovery out
    std::vector<std::map<std::vector<uint32_t>, uint32_t>> m_rowStates; //!< STATE_ROW: row -> q
};

} // namespace ns3

#endif /* D2D_DISCOVERY_POLICIES_H */
