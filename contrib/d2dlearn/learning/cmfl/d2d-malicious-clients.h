/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MALICIOUS_CLIENTS_H
#define D2D_MALICIOUS_CLIENTS_H

#include "d2d-byzantine-attack.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief CMFL's malicious clients (Che et al., "A Decentralized Federated Learning Framework
 * via Committee Mechanism with Convergence Guarantee", 2022): which devices they are, the
 * attack on their update and where it acts (D2dByzantineAttack), and what they do on the
 * committee. Part of D2dCmfl, which forwards SetMalicious and its AttackSpace and
 * MaliciousCommittee attributes here.
 */
class D2dMaliciousClients
{
  public:
    D2dMaliciousClients();

    /**
     * \param devices the malicious clients (resolved against the devices by Resolve())
     * \param attack what they do to their update
     * \param scalingLow gradient scaling: lambda is drawn in [scalingLow, 1)
     */
    void Set(const std::vector<uint32_t>& devices, D2dAttackType attack, double scalingLow);
    /**
     * \brief Mark Set()'s devices among n; a device beyond n aborts, naming it.
     * \param n the devices of the run
     */
    void Resolve(uint32_t n);
    /**
     * \param device a device
     * \return whether it is malicious (after Resolve())
     */
    bool IsMalicious(uint32_t device) const;
    /** \param space where the attack acts: the update g_k or the trained weights w_k */
    void SetSpace(D2dAttackSpace space);
    /** \return where the attack acts */
    D2dAttackSpace GetSpace() const;
    /** \param adversarial malicious committee members invert their scores and proposals */
    void SetAdversarialCommittee(bool adversarial);
    /** \return whether malicious committee members invert their scores and proposals */
    bool HasAdversarialCommittee() const;
    /**
     * \param device a device
     * \return whether it is malicious and, on the committee, adversarial
     */
    bool IsAdversarial(uint32_t device) const;
    /**
     * \param stream the RNG stream of the attacks' draws
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief A device's update g_k = w^t - w_k after its local steps: a malicious device's
     * attack acts on its trained weights w_k (weights space, the authors' runs) or on g_k
     * (update space, the paper's text).
     * \param device the device
     * \param base w^t
     * \param weights w_k, its trained weights
     * \return g_k
     */
    std::vector<float> Update(uint32_t device,
                              const std::vector<float>& base,
                              std::vector<float> weights);
    /** \brief Drop the random stream (the protocol's DoDispose). */
    void Dispose();

  private:
    std::vector<uint32_t> m_devices;                //!< Set()'s devices
    std::vector<bool> m_malicious;                  //!< device id -> malicious (Resolve())
    D2dAttackType m_attack{D2dAttackType::NONE};    //!< the attack
    double m_scalingLow{0.5};                       //!< lambda is drawn in [m_scalingLow, 1)
    D2dAttackSpace m_space{D2dAttackSpace::UPDATE}; //!< where the attack acts
    bool m_adversarialCommittee{false};             //!< malicious members invert on the committee
    Ptr<UniformRandomVariable> m_rng;               //!< the attacks' draws
};

} // namespace ns3

#endif /* D2D_MALICIOUS_CLIENTS_H */
