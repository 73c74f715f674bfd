/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-malicious-clients.h"

#include "ns3/abort.h"

namespace ns3
{

D2dMaliciousClients::D2dMaliciousClients()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

void
D2dMaliciousClients::Set(const std::vector<uint32_t>& devices,
                         D2dAttackType attack,
                         double scalingLow)
{
    m_scalingLow = scalingLow;
    m_devices = devices;
    m_attack = attack;
}

void
D2dMaliciousClients::Resolve(uint32_t n)
{
    m_malicious.assign(n, false);
    for (auto d : m_devices)
    {
        NS_ABORT_MSG_IF(d >= n, "D2dCmfl::SetMalicious: device " << d << " of " << n);
        m_malicious[d] = true;
    }
}

bool
D2dMaliciousClients::IsMalicious(uint32_t device) const
{
    return device < m_malicious.size() && m_malicious[device];
}

void
D2dMaliciousClients::SetSpace(D2dAttackSpace space)
{
    m_space = space;
}

D2dAttackSpace
D2dMaliciousClients::GetSpace() const
{
    return m_space;
}

void
D2dMaliciousClients::SetAdversarialCommittee(bool adversarial)
{
    m_adversarialCommittee = adversarial;
}

bool
D2dMaliciousClients::HasAdversarialCommittee() const
{
    return m_adversarialCommittee;
}

bool
D2dMaliciousClients::IsAdversarial(uint32_t device) const
{
    return IsMalicious(device) && m_adversarialCommittee;
}

int64_t
D2dMaliciousClients::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

std::vector<float>
D2dMaliciousClients::Update(uint32_t device,
                            const std::vector<float>& base,
                            std::vector<float> weights)
{
    const bool attackWeights = IsMalicious(device) && m_space == D2dAttackSpace::WEIGHTS;
    if (attackWeights)
    {
        // The authors' runs: the trained weights are attacked, g_k = w^t - attack(w_k).
        D2dByzantineAttack::Apply(m_attack, weights, m_rng, m_scalingLow);
    }
    std::vector<float> g(weights.size());
    for (std::size_t j = 0; j < weights.size(); ++j)
    {
        g[j] = base[j] - weights[j];
    }
    if (IsMalicious(device) && !attackWeights)
    {
        D2dByzantineAttack::Apply(m_attack, g, m_rng, m_scalingLow); // the paper's text
    }
    return g;
}

void
D2dMaliciousClients::Dispose()
{
    m_rng = nullptr;
}

} // namespace ns3
