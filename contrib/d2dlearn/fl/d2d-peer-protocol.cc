/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-peer-protocol.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPeerProtocol");
NS_OBJECT_ENSURE_REGISTERED(D2dPeerProtocol);

TypeId
D2dPeerProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dPeerProtocol").SetParent<D2dFlProtocol>().SetGroupName("D2dlearn");
    return tid;
}

D2dPeerProtocol::D2dPeerProtocol()
{
    m_pick = CreateObject<UniformRandomVariable>();
}

void
D2dPeerProtocol::DoDispose()
{
    m_deadlineEvent.Cancel();
    m_channel = nullptr;
    m_pick = nullptr;
    if (m_mac)
    {
        m_mac->Dispose();
        m_mac = nullptr;
    }
    D2dFlProtocol::DoDispose();
}

std::string
D2dPeerProtocol::Name() const
{
    const std::string name = GetInstanceTypeId().GetName();
    return name.rfind("ns3::", 0) == 0 ? name.substr(5) : name;
}

void
D2dPeerProtocol::SetChannel(Ptr<D2dChannel> channel, D2dDeliveryMode mode)
{
    NS_ABORT_MSG_IF(m_learners.empty(), Name() << ": SetLearners before SetChannel");
    NS_ABORT_MSG_IF(!channel || channel->GetNRadios() != GetNDevices(),
                    Name() << ": the channel must hold one radio per learner");
    m_channel = channel;
    m_mode = mode;
    DoSetChannel();
}

int64_t
D2dPeerProtocol::AssignStreams(int64_t stream)
{
    m_pick->SetStream(stream);
    return 1;
}

void
D2dPeerProtocol::ConnectIdealMac(D2dIdealMac::ReceiveCallback receive,
                                 D2dIdealMac::LostCallback lost)
{
    if (!m_mac)
    {
        m_mac = CreateObject<D2dIdealMac>();
    }
    m_mac->Setup(m_channel, m_mode);
    m_mac->SetReceiveCallback(receive);
    m_mac->SetLostCallback(lost);
    std::vector<Ptr<D2dTransport>> radios;
    for (uint32_t i = 0; i < GetNDevices(); ++i)
    {
        radios.push_back(m_channel->GetRadio(i));
    }
    CountBytesSent(radios); // bytes_sent: the sizes of the messages handed to the radios
}

void
D2dPeerProtocol::CheckSetUp() const
{
    NS_ABORT_MSG_IF(!m_channel || m_learners.empty() || !m_test,
                    Name() << ": not set up (SetLearners, SetTestSet, SetChannel)");
}

bool
D2dPeerProtocol::IsSampleWeighting(const std::string& weighting) const
{
    NS_ABORT_MSG_IF(weighting != "uniform" && weighting != "samples",
                    Name() << ": Weighting " << weighting << " (accepted: uniform, samples)");
    return weighting == "samples";
}

std::vector<float>
D2dPeerProtocol::ShareInitialModel()
{
    auto w0 = m_learners[0]->GetParameters();
    for (uint32_t i = 1; i < GetNDevices(); ++i)
    {
        if (!m_learners[i]->IsTraining())
        {
            m_learners[i]->SetParameters(w0);
        }
    }
    return w0;
}

std::vector<uint32_t>
D2dPeerProtocol::LiveDevices() const
{
    std::vector<uint32_t> live;
    for (uint32_t i = 0; i < GetNDevices(); ++i)
    {
        if (!m_channel->GetRadio(i)->IsOff())
        {
            live.push_back(i);
        }
    }
    return live;
}

std::vector<uint32_t>
D2dPeerProtocol::IdleDevices() const
{
    std::vector<uint32_t> idle;
    for (uint32_t i : LiveDevices())
    {
        if (!m_learners[i]->IsTraining())
        {
            idle.push_back(i);
        }
    }
    return idle;
}

} // namespace ns3
