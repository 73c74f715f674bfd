/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_LINK_POLICY_H
#define D2D_LINK_POLICY_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief One device's link-formation policy of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025: the
 * Q-table psi^R (total reward) and psi^C (count) per (state, action), the softmax of eq. (7)
 * over psi^R / psi^C (0 for an action never taken), and the policy update of sec. IV-E with
 * its experience buffer of the last H rewards and the reduction beta of below-mean rewards.
 * Pure (the caller draws the uniform number Choose() takes).
 *
 * The paper leaves two points degenerate; both readings are kept:
 * - BufferMode PER_ACTION (default): a ring of the last H rewards per (state, action), so
 *   psi^R / psi^C is that action's recent mean. SHARED (the literal text): one buffer per
 *   device; the action taken gets psi^R = buffer sum and psi^C = its fill, so every action's
 *   value is the device's recent mean reward when it was last taken and actions are not told
 *   apart.
 * - BetaMode SIGN_AWARE (default): a reward below the buffer's mean is stored as
 *   R - delta |R| (always lower). LITERAL: stored as (1 - delta) R, which makes a negative
 *   reward look better.
 * The buffer's mean is that of the rewards it holds (none: no reduction).
 */
class D2dLinkPolicy
{
  public:
    /** Where rewards are buffered. */
    enum class BufferMode
    {
        PER_ACTION, //!< one ring of H rewards per (state, action)
        SHARED      //!< one ring of H rewards per device (the literal reading)
    };
    /** How a below-mean reward is reduced. */
    enum class BetaMode
    {
        SIGN_AWARE, //!< R - delta |R|
        LITERAL     //!< (1 - delta) R
    };

    /**
     * \param nActions N (the devices; action j = transmitter j)
     * \param self this device (never selected)
     * \param bufferSize H (>= 1)
     * \param delta the reduction delta in [0, 1]
     * \param bufferMode per-action or shared
     * \param betaMode sign-aware or literal
     */
    D2dLinkPolicy(uint32_t nActions,
                  uint32_t self,
                  uint32_t bufferSize,
                  double delta,
                  BufferMode bufferMode,
                  BetaMode betaMode);

    /**
     * \brief Eq. (7): softmax of the values (shifted by their maximum for stability).
     * \param values psi^R / psi^C of each allowed action
     * \return the probabilities
     */
    static std::vector<double> Softmax(const std::vector<double>& values);

    /**
     * \param state q
     * \param action j
     * \return psi^R[q, j] / psi^C[q, j], 0 if never taken
     */
    double Value(uint32_t state, uint32_t action) const;
    /** \return psi^R[q, j] */
    double TotalReward(uint32_t state, uint32_t action) const;
    /** \return psi^C[q, j] */
    double Count(uint32_t state, uint32_t action) const;

    /**
     * \brief pi(s)[j] over the allowed actions (eq. (7)).
     * \param stateOfAction the state q each action j is valued in (size N): all 0 with
     *        static RSS; the quantised W_ij with per-link states; one index of the whole
     *        quantised row with the literal state
     * \param allowed allowed[j]: j may be chosen (self never is)
     * \return probability of each action (0 for those not allowed)
     */
    std::vector<double> Probabilities(const std::vector<uint32_t>& stateOfAction,
                                      const std::vector<bool>& allowed) const;
    /**
     * \param probabilities pi(s)
     * \param u a uniform number in [0, 1)
     * \return the action whose cumulative probability first exceeds u (inverse CDF)
     */
    static uint32_t Sample(const std::vector<double>& probabilities, double u);
    /** \return the most probable action (lowest index on ties) */
    static uint32_t Greedy(const std::vector<double>& probabilities);

    /**
     * \brief Sec. IV-E: beta-scale the reward against the buffer's mean, store it, and set
     * psi^R[q, j] = buffer sum, psi^C[q, j] = buffer fill.
     * \param state q of the action taken
     * \param action j
     * \param reward R_i^k(t)
     * \return the value stored in the buffer
     */
    double Update(uint32_t state, uint32_t action, double reward);

    /** \return the (state, action) pairs visited, in order */
    std::vector<std::pair<uint32_t, uint32_t>> Visited() const;

  private:
    /** A ring of the last H rewards. */
    struct Ring
    {
        std::vector<double> values; //!< at most H
        std::size_t next{0};        //!< where the next reward goes once full
        double Sum() const;         //!< sum of the values held
    };

    /** psi^R and psi^C of one (state, action). */
    struct Entry
    {
        double total{0}; //!< psi^R: sum of the buffered rewards
        double count{0}; //!< psi^C: number of rewards buffered (at most H)
    };

    uint32_t m_n;            //!< N, the actions (action j = transmitter j)
    uint32_t m_self;         //!< this device, never selected
    uint32_t m_h;            //!< H, the buffer size (>= 1)
    double m_delta;          //!< the reduction delta of below-mean rewards, in [0, 1]
    BufferMode m_bufferMode; //!< per-action or shared buffers
    BetaMode m_betaMode;     //!< sign-aware or literal reduction
    std::map<std::pair<uint32_t, uint32_t>, Entry> m_q;    //!< the Q-table
    std::map<std::pair<uint32_t, uint32_t>, Ring> m_rings; //!< PER_ACTION buffers
    Ring m_shared;                                         //!< SHARED buffer
};

} // namespace ns3

#endif /* D2D_LINK_POLICY_H */
