/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-peer-protocol.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
    if (!m_receive.IsNull() || !m_lost.IsNull())
    {
        // ConnectMessages was called. The transports may outlive this protocol: leave
        // them no callback into it.
        for (const auto& transport : m_transports)
        {
            transport->RemoveReceiveHandler(MakeCallback(&D2dPeerProtocol::MessageReceived, this));
            transport->TraceDisconnectWithoutContext(
                "Delivery",
                MakeCallback(&D2dPeerProtocol::MessageDelivery, this));
        }
    }
    m_pick = nullptr;
    m_receive = ReceiveCallback();
    m_lost = LostCallback();
    m_sent.Clear();
    D2dFlProtocol::DoDispose();
}

bool
D2dPeerProtocol::UsesD2d() const
{
    return true;
}

void
D2dPeerProtocol::DoInitialize()
{
    D2dFlProtocol::DoInitialize();
    ConnectTransports();
}

int64_t
D2dPeerProtocol::AssignStreams(int64_t stream)
{
    m_pick->SetStream(stream);
    return 1;
}

void
D2dPeerProtocol::ConnectMessages(const std::vector<std::string>& kinds,
                                 ReceiveCallback receive,
                                 LostCallback lost)
{
    m_receive = receive;
    m_lost = lost;
    for (const auto& transport : m_transports)
    {
        for (const auto& kind : kinds)
        {
            transport->AddReceiveHandler(MakeCallback(&D2dPeerProtocol::MessageReceived, this),
                                         kind);
        }
        transport->TraceConnectWithoutContext(
            "Delivery",
            MakeCallback(&D2dPeerProtocol::MessageDelivery, this));
    }
}

void
D2dPeerProtocol::SendMessage(uint32_t src,
                             const std::vector<uint32_t>& receivers,
                             Ptr<const D2dMessage> message)
{
    NS_ABORT_MSG_IF(src >= m_transports.size() || receivers.empty(),
                    Name() << ": message " << message->GetKind() << " from " << src);
    if (m_sent.Send(m_transports[src], src, receivers, message, m_mode) == 0)
    {
        NS_LOG_INFO("device " << src << " is off: " << message->GetKind() << " not sent");
        for (uint32_t dst : receivers)
        {
            Simulator::ScheduleNow([this, src, dst, message]() {
                if (!m_lost.IsNull())
                {
                    m_lost(src, dst, message);
                }
            });
        }
    }
}

void
D2dPeerProtocol::CancelUnsent()
{
    m_sent.Withdraw(m_transports, true); // those on the air: resolved as usual
}

void
D2dPeerProtocol::MessageReceived(const D2dReception& r)
{
    // A message with missing fragments is no message: its Delivery row resolves it as lost.
    // (Its row may come before or after the reception: the protocols match receptions to
    // their rounds by the payload.)
    if (r.IsComplete() && !m_receive.IsNull())
    {
        m_receive(r);
    }
}

void
D2dPeerProtocol::MessageDelivery(const D2dDeliveryRecord& record)
{
    // Every row resolves its receiver: lost unless complete (a complete message is handed
    // over at its reception, MessageReceived).
    const auto sent = m_sent.Resolve(record.msgId, record.dst);
    if (!sent)
    {
        return; // not one of SendMessage's, or withdrawn
    }
    const uint32_t src = sent->src;
    const Ptr<const D2dMessage> message = sent->message;
    if (!record.IsComplete())
    {
        NS_LOG_INFO(message->GetKind()
                    << " " << src << " -> " << record.dst << " lost: " << record.reason);
        if (!m_lost.IsNull())
        {
            m_lost(src, record.dst, message);
        }
    }
}

std::vector<float>
D2dPeerProtocol::ShareInitialModel()
{
    // One vector shared by every device (copy-on-write: each device's first job makes its
    // own), not a copy each.
    auto w0 = m_learners[0]->GetSharedParameters();
    for (uint32_t i = 1; i < GetNDevices(); ++i)
    {
        if (!m_learners[i]->IsTraining())
        {
            m_learners[i]->SetParameters(w0);
        }
    }
    return *w0;
}

std::vector<uint32_t>
D2dPeerProtocol::LiveDevices() const
{
    std::vector<uint32_t> live;
    for (uint32_t i = 0; i < GetNDevices(); ++i)
    {
        if (!m_transports[i]->IsOff())
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
