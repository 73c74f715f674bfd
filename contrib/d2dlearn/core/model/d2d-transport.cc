/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-transport.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTransport");
NS_OBJECT_ENSURE_REGISTERED(D2dTransport);

TypeId
D2dTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dTransport")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddTraceSource("Delivery",
                            "Outcome of one (message, receiver) pair sent by this device.",
                            MakeTraceSourceAccessor(&D2dTransport::m_deliveryTrace),
                            "ns3::D2dDeliveryTracedCallback")
            .AddTraceSource("Send",
                            "A message was accepted for transmission: (msgId, message, dst).",
                            MakeTraceSourceAccessor(&D2dTransport::m_sendTrace),
                            "ns3::D2dTransport::SendTracedCallback")
            .AddTraceSource("Presence",
                            "The device went away or was depleted (false), or came back (true): "
                            "(index, present).",
                            MakeTraceSourceAccessor(&D2dTransport::m_presenceTrace),
                            "ns3::D2dTransport::PresenceTracedCallback");
    return tid;
}

D2dTransport::D2dTransport()
{
    NS_LOG_FUNCTION(this);
}

D2dTransport::~D2dTransport()
{
    NS_LOG_FUNCTION(this);
}

void
D2dTransport::DoDispose()
{
    m_node = nullptr;
    m_receiveHandlers.clear();
    m_sendDoneHandlers.clear();
    Object::DoDispose();
}

uint64_t
D2dTransport::Send(Ptr<const D2dMessage> message, uint32_t dst, D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << message << dst << ToString(mode));
    NS_ABORT_MSG_IF(dst == D2D_MULTICAST,
                    "D2dTransport::Send: name the receivers of a multicast (device " << m_index
                                                                                     << ")");
    return SendTo(message, dst, {}, mode);
}

uint64_t
D2dTransport::Send(Ptr<const D2dMessage> message,
                   const std::vector<uint32_t>& receivers,
                   D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << message << receivers.size() << ToString(mode));
    NS_ABORT_MSG_IF(receivers.empty(),
                    "D2dTransport::Send: device " << m_index << " sends to no receiver");
    if (receivers.size() == 1)
    {
        return SendTo(message, receivers[0], {}, mode); // a unicast
    }
    std::vector<uint32_t> sorted = receivers;
    std::sort(sorted.begin(), sorted.end());
    NS_ABORT_MSG_IF(std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end(),
                    "D2dTransport::Send: device " << m_index << " names a receiver twice");
    NS_ABORT_MSG_IF(sorted.back() >= D2D_MULTICAST,
                    "D2dTransport::Send: D2D_BROADCAST in a receiver list");
    return SendTo(message, D2D_MULTICAST, sorted, mode);
}

uint64_t
D2dTransport::SendTo(Ptr<const D2dMessage> message,
                     uint32_t dst,
                     const std::vector<uint32_t>& receivers,
                     D2dDeliveryMode mode)
{
    NS_ABORT_MSG_IF(!message, "D2dTransport::Send: null message");
    NS_ABORT_MSG_IF(dst == m_index ||
                        std::binary_search(receivers.begin(), receivers.end(), m_index),
                    "D2dTransport::Send: device " << m_index << " sends to itself");
    if (IsOff())
    {
        NS_LOG_LOGIC("device " << m_index << " is off: message not sent");
        return 0;
    }
    const uint64_t id = AllocateMessageId();
    m_sendTrace(id, message, dst);
    DoSend(id, message, dst, receivers, mode);
    return id;
}

bool
D2dTransport::Cancel(uint64_t msgId)
{
    return msgId != 0 && !IsOff() && DoCancel(msgId);
}

bool
D2dTransport::DoCancel(uint64_t)
{
    return false;
}

void
D2dTransport::AddReceiveHandler(ReceiveCallback cb, const std::string& kind)
{
    NS_ABORT_MSG_IF(cb.IsNull(), "D2dTransport::AddReceiveHandler: null handler");
    m_receiveHandlers.emplace_back(kind, cb);
}

void
D2dTransport::RemoveReceiveHandler(ReceiveCallback cb)
{
    m_receiveHandlers.erase(std::remove_if(m_receiveHandlers.begin(),
                                           m_receiveHandlers.end(),
                                           [&cb](const auto& h) { return h.second.IsEqual(cb); }),
                            m_receiveHandlers.end());
}

void
D2dTransport::AddSendDoneHandler(SendDoneCallback cb)
{
    NS_ABORT_MSG_IF(cb.IsNull(), "D2dTransport::AddSendDoneHandler: null handler");
    m_sendDoneHandlers.push_back(cb);
}

void
D2dTransport::RemoveSendDoneHandler(SendDoneCallback cb)
{
    m_sendDoneHandlers.erase(std::remove_if(m_sendDoneHandlers.begin(),
                                            m_sendDoneHandlers.end(),
                                            [&cb](const auto& h) { return h.IsEqual(cb); }),
                             m_sendDoneHandlers.end());
}

void
D2dTransport::SetReceiveCallback(ReceiveCallback cb)
{
    m_receiveHandlers.clear();
    if (!cb.IsNull())
    {
        m_receiveHandlers.emplace_back("", cb);
    }
}

void
D2dTransport::SetSendDoneCallback(SendDoneCallback cb)
{
    m_sendDoneHandlers.clear();
    if (!cb.IsNull())
    {
        m_sendDoneHandlers.push_back(cb);
    }
}

void
D2dTransport::SetIndex(uint32_t index)
{
    m_index = index;
}

uint32_t
D2dTransport::GetIndex() const
{
    return m_index;
}

void
D2dTransport::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<Node>
D2dTransport::GetNode() const
{
    return m_node;
}

void
D2dTransport::TurnOff()
{
    NS_LOG_FUNCTION(this << m_index);
    if (m_off)
    {
        return;
    }
    m_off = true;
    if (!m_away) // away: already off
    {
        DoTurnOff();
        m_presenceTrace(m_index, false);
    }
}

bool
D2dTransport::IsOff() const
{
    return m_off || m_away;
}

bool
D2dTransport::IsDepleted() const
{
    return m_off;
}

bool
D2dTransport::CanLeave() const
{
    return true;
}

void
D2dTransport::DoRejoin()
{
    NS_FATAL_ERROR("D2dTransport: device " << m_index << "'s backend cannot rejoin");
}

void
D2dTransport::Leave()
{
    NS_LOG_FUNCTION(this << m_index);
    NS_ABORT_MSG_IF(!CanLeave(),
                    "D2dTransport::Leave: device " << m_index
                                                   << "'s backend does not support devices "
                                                      "that come and go");
    if (IsOff())
    {
        m_away = true; // depleted: stays off; or already away
        return;
    }
    m_away = true;
    DoTurnOff();
    m_presenceTrace(m_index, false);
}

void
D2dTransport::Rejoin()
{
    NS_LOG_FUNCTION(this << m_index);
    if (!m_away)
    {
        return;
    }
    m_away = false;
    if (!m_off)
    {
        DoRejoin();
        m_presenceTrace(m_index, true);
    }
}

bool
D2dTransport::IsAway() const
{
    return m_away;
}

void
D2dTransport::IdleUntil(Time until)
{
    NS_LOG_FUNCTION(this << m_index << until);
    if (!IsOff() && until > Simulator::Now())
    {
        DoIdleUntil(until);
    }
}

void
D2dTransport::ReportUnfinished()
{
    NS_LOG_FUNCTION(this << m_index);
    DoReportUnfinished();
}

void
D2dTransport::NotifyReceive(const D2dReception& reception)
{
    if (IsOff())
    {
        return;
    }
    // A copy: a handler may register or remove handlers while the reception is dispatched.
    const auto handlers = m_receiveHandlers;
    const std::string& kind = reception.message->GetKind();
    for (const auto& [k, cb] : handlers)
    {
        if (k.empty() || k == kind)
        {
            cb(reception);
        }
    }
}

void
D2dTransport::NotifySendDone(uint64_t msgId, uint32_t dst, bool success)
{
    if (IsOff())
    {
        return;
    }
    const auto handlers = m_sendDoneHandlers;
    for (const auto& cb : handlers)
    {
        cb(msgId, dst, success);
    }
}

void
D2dTransport::NotifyDelivery(const D2dDeliveryRecord& record)
{
    m_deliveryTrace(record);
}

} // namespace ns3
