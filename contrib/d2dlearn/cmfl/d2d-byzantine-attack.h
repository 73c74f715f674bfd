/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BYZANTINE_ATTACK_H
#define D2D_BYZANTINE_ATTACK_H

#include "ns3/callback.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

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
     * \brief What a server protocol (D2dFedAvg::SetUpdateTamper) calls on every local
     * update: Apply() to the updates of the malicious devices, others unchanged.
     * \param malicious the malicious devices
     * \param type the attack
     * \param rng the stream of the scaling factors
     * \param scalingLow a, the lower end of lambda's range, in [0, 1)
     * \return the tamper callback (device, g_k)
     */
    static Callback<void, uint32_t, std::vector<float>&> MakeUpdateTamper(
        const std::vector<uint32_t>& malicious,
        D2dAttackType type,
        Ptr<UniformRandomVariable> rng,
        double scalingLow);

    /**
     * \brief The score a malicious committee member assigns training client k: the
     * reciprocal of the honest P_k^c, ||g_k - g_c||_2^2 (accumulated in double), so that
     * honest gradients near the member's own rank lowest and far (malicious) ones highest.
     * \param gk local gradient of training client k
     * \param gc the member's own local gradient (same size, not empty)
     * \return ||g_k - g_c||^2
     */
    static double AdversarialScore(const std::vector<float>& gk, const std::vector<float>& gc);
};

} // namespace ns3

#endif /* D2D_BYZANTINE_ATTACK_H */
