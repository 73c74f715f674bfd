/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BYZANTINE_ATTACK_H
#define D2D_BYZANTINE_ATTACK_H

#include "ns3/callback.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The attacks of Che et al. 2022's robustness experiment ("Robustness Comparative
 * Experiment") and its label-flipping data attack.
 */
enum class D2dAttackType
{
    NONE,             //!< honest
    GRADIENT_SCALING, //!< each element times lambda ~ U[a, 1)
    SAME_VALUE,       //!< the gradient replaced by zeros (Li et al. 2019)
    BACK_GRADIENT,    //!< the gradient replaced by its opposite (Munoz-Gonzalez et al. 2017)
    LABEL_FLIPPING,   //!< a data attack: the client trains on flipped labels
};

/**
 * \ingroup d2dlearn
 * \brief What the attack changes (D2dCmfl AttackSpace attribute, the cmfl scenario's
 * --attackSpace).
 *
 * Che et al. 2022 describe the attacks on the local gradient ("replace some local gradients
 * with malicious gradients"); the authors' code applies them to the uploaded model weights
 * (the client's soln after local training), which is what makes the FedAvg-style baselines
 * collapse in their figures: back-gradient then uploads -w_k, far from every honest model.
 */
enum class D2dAttackSpace
{
    UPDATE,  //!< the update g_k = w^t - w_k (the paper's text)
    WEIGHTS, //!< the uploaded weights w_k; the update becomes w^t - attack(w_k) (the code)
};

/**
 * \ingroup d2dlearn
 * \brief What a Byzantine (malicious) client does to its local gradient g_k before it
 * leaves the device, and the score a malicious committee member hands out.
 */
class D2dByzantineAttack
{
  public:
    /**
     * \param name "none", "gradient-scaling", "same-value", "back-gradient" or
     * "label-flipping"
     * \return the attack
     * \throws std::invalid_argument with the one line "attack=<name> is not accepted (none,
     * gradient-scaling, same-value, back-gradient or label-flipping)"
     */
    static D2dAttackType Parse(const std::string& name);

    /**
     * \param type an attack
     * \return its name as Parse() accepts it
     */
    static std::string ToString(D2dAttackType type);

    /**
     * \brief Tamper with a local gradient in place:
     *  - GRADIENT_SCALING: g_j <- lambda_j g_j, each lambda_j ~ U[scalingLow, 1) drawn from
     *    rng (rng->GetValue(scalingLow, 1), one draw per element in element order; the
     *    paper's a = 0.5);
     *  - SAME_VALUE: g <- 0;
     *  - BACK_GRADIENT: g <- -g;
     *  - NONE, LABEL_FLIPPING: unchanged (label flipping acts on the data, see
     *    D2dPartitioner::FlipLabels).
     * \param type the attack
     * \param gradient g_k
     * \param rng the stream of the scaling factors (needed for GRADIENT_SCALING only)
     * \param scalingLow a, the lower end of lambda's range, in [0, 1)
     */
    static void Apply(D2dAttackType type,
                      std::vector<float>& gradient,
                      Ptr<UniformRandomVariable> rng,
                      double scalingLow = 0.5);

    /**
     * \brief Apply() in an attack space to the update g_k = w^t - w_k, in place:
     *  - UPDATE: Apply(type, g_k);
     *  - WEIGHTS: w_k = w^t - g_k (float), Apply(type, w_k), g_k <- w^t - w_k (float): e.g.
     *    back-gradient gives g_k = w^t + w_k, same-value g_k = w^t.
     * \param type the attack
     * \param space where it acts
     * \param base w^t (same size as g_k; used for WEIGHTS only)
     * \param update g_k
     * \param rng the stream of the scaling factors
     * \param scalingLow a, the lower end of lambda's range, in [0, 1)
     */
    static void ApplyInSpace(D2dAttackType type,
                             D2dAttackSpace space,
                             const std::vector<float>& base,
                             std::vector<float>& update,
                             Ptr<UniformRandomVariable> rng,
                             double scalingLow = 0.5);

    /**
     * \param name "update" or "weights"
     * \return the space
     * \throws std::invalid_argument with the one line "attackSpace=<name> is not accepted
     * (update or weights)"
     */
    static D2dAttackSpace ParseSpace(const std::string& name);

    /**
     * \brief What a server protocol (D2dFedAvg::SetUpdateTamper) calls on every local
     * update: ApplyInSpace() to the updates of the malicious devices, others unchanged.
     * \param malicious the malicious devices
     * \param type the attack
     * \param rng the stream of the scaling factors
     * \param scalingLow a, the lower end of lambda's range, in [0, 1)
     * \param space where the attack acts
     * \param base returns w^t, the model the device trained from (needed for WEIGHTS)
     * \return the tamper callback (device, g_k)
     */
    static Callback<void, uint32_t, std::vector<float>&> MakeUpdateTamper(
        const std::vector<uint32_t>& malicious,
        D2dAttackType type,
        Ptr<UniformRandomVariable> rng,
        double scalingLow,
        D2dAttackSpace space = D2dAttackSpace::UPDATE,
        std::function<std::vector<float>()> base = {});

    /**
     * \brief The score a malicious committee member assigns training client k in D2dCmfl's
     * MaliciousCommittee "adversarial" mode (an extension: neither the paper nor the authors'
     * code has it; there a malicious member's reference is attacked, then scores normally):
     * the reciprocal of the honest P_k^c, ||g_k - g_c||_2^2 (accumulated in double), so that
     * honest gradients near the member's own rank lowest and far (malicious) ones highest.
     * \param gk local gradient of training client k
     * \param gc the member's own local gradient (same size, not empty)
     * \return ||g_k - g_c||^2
     */
    static double AdversarialScore(const std::vector<float>& gk, const std::vector<float>& gc);
};

} // namespace ns3

#endif /* D2D_BYZANTINE_ATTACK_H */
