/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-transport.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

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
                            "ns3::D2dTransport::SendTracedCallback");
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
    m_receiveCallback = ReceiveCallback();
    m_sendDoneCallback = SendDoneCallback();
    Object::DoDispose();
}

uint64_t
D2dTransport::Send(Ptr<const D2dMessage> message, uint32_t dst, D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << message << dst << ToString(mode));
    NS_ABORT_MSG_IF(!message, "D2dTransport::Send: null message");
    NS_ABORT_MSG_IF(dst == m_index, "D2dTransport::Send: device " << m_index << " sends to itself");
    if (m_off)
    {
        NS_LOG_LOGIC("device " << m_index << " is off: message not sent");
        return 0;
    }
    const uint64_t id = AllocateMessageId();
    m_sendTrace(id, message, dst);
    DoSend(id, message, dst, mode);
    return id;
}

void
D2dTransport::SetReceiveCallback(ReceiveCallback cb)
{
    m_receiveCallback = cb;
}

void
D2dTransport::SetSendDoneCallback(SendDoneCallback cb)
{
    m_sendDoneCallback = cb;
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
    DoTurnOff();
}

bool
D2dTransport::IsOff() const
{
    return m_off;
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
    if (!m_off && !m_receiveCallback.IsNull())
    {
        m_receiveCallback(reception);
    }
}

void
D2dTransport::NotifySendDone(uint64_t msgId, uint32_t dst, bool success)
{
    if (!m_off && !m_sendDoneCallback.IsNull())
    {
        m_sendDoneCallback(msgId, dst, success);
    }
}

void
D2dTransport::NotifyDelivery(const D2dDeliveryRecord& record)
{
    m_deliveryTrace(record);
}

} // namespace ns3
