/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-ideal-mac.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dIdealMac");
NS_OBJECT_ENSURE_REGISTERED(D2dIdealMac);

TypeId
D2dIdealMac::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dIdealMac")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dIdealMac>();
    return tid;
}

D2dIdealMac::D2dIdealMac()
{
}

void
D2dIdealMac::DoDispose()
{
    m_pumpEvent.Cancel();
    m_channel = nullptr;
    m_receive = ReceiveCallback();
    m_lost = LostCallback();
    m_queue.clear();
    m_inFlight.clear();
    Object::DoDispose();
}

void
D2dIdealMac::Setup(Ptr<D2dChannel> channel, D2dDeliveryMode mode)
{
    NS_ABORT_MSG_IF(!channel, "D2dIdealMac: no channel");
    m_channel = channel;
    m_mode = mode;
    const uint32_t n = channel->GetNRadios();
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<D2dRadio> radio = channel->GetRadio(i);
        NS_ABORT_MSG_IF(!radio, "D2dIdealMac: no radio with index " << i);
        radio->SetReceiveCallback(MakeCallback(&D2dIdealMac::Receive, this));
        radio->TraceConnectWithoutContext("Delivery", MakeCallback(&D2dIdealMac::Delivery, this));
    }
    m_txBusy.assign(n, false);
    m_rxCount.assign(n, 0);
}

void
D2dIdealMac::SetReceiveCallback(ReceiveCallback cb)
{
    m_receive = cb;
}

void
D2dIdealMac::SetLostCallback(LostCallback cb)
{
    m_lost = cb;
}

void
D2dIdealMac::Enqueue(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message)
{
    NS_ABORT_MSG_IF(!m_channel, "D2dIdealMac: Setup() not called");
    NS_ABORT_MSG_IF(src >= m_txBusy.size() || src == dst ||
                        (dst != D2D_BROADCAST && dst >= m_txBusy.size()),
                    "D2dIdealMac: message from " << src << " to " << dst);
    m_queue.push_back({src, dst, message});
    SchedulePump();
}

void
D2dIdealMac::Flush()
{
    m_queue.clear();
}

std::size_t
D2dIdealMac::GetNQueued() const
{
    return m_queue.size();
}

std::size_t
D2dIdealMac::GetNInFlight() const
{
    return m_inFlight.size();
}

void
D2dIdealMac::SchedulePump()
{
    if (!m_pumpEvent.IsRunning() && !m_queue.empty())
    {
        m_pumpEvent = Simulator::ScheduleNow(&D2dIdealMac::Pump, this);
    }
}

bool
D2dIdealMac::CanSend(uint32_t src, uint32_t dst) const
{
    if (m_txBusy[src] || m_rxCount[src] > 0)
    {
        return false;
    }
    if (dst != D2D_BROADCAST)
    {
        return !m_txBusy[dst];
    }
    for (uint32_t k = 0; k < m_txBusy.size(); ++k)
    {
        if (k != src && m_txBusy[k] && !m_channel->GetRadio(k)->IsOff())
        {
            return false;
        }
    }
    return true;
}

void
D2dIdealMac::Pump()
{
    // Greedy, in queue order: each message whose sender is idle (neither sending nor
    // receiving) and whose receivers are not sending goes to its sender's radio now.
    std::vector<Queued> unsent; // senders that are off: resolved after the loop
    const auto n = static_cast<uint32_t>(m_txBusy.size());
    for (auto it = m_queue.begin(); it != m_queue.end();)
    {
        if (!CanSend(it->src, it->dst))
        {
            ++it;
            continue;
        }
        const uint64_t id = m_channel->GetRadio(it->src)->Send(it->message, it->dst, m_mode);
        if (id == 0)
        {
            unsent.push_back(*it);
        }
        else
        {
            InFlight f{it->src, it->dst, 0, it->message};
            m_txBusy[it->src] = true;
            if (it->dst == D2D_BROADCAST)
            {
                for (uint32_t k = 0; k < n; ++k)
                {
                    if (k != it->src)
                    {
                        ++m_rxCount[k];
                        ++f.pending;
                    }
                }
            }
            else
            {
                ++m_rxCount[it->dst];
                f.pending = 1;
            }
            if (f.pending == 0)
            {
                m_txBusy[it->src] = false; // a broadcast on a channel of one radio
            }
            else
            {
                m_inFlight[id] = f;
            }
        }
        it = m_queue.erase(it);
    }
    // The callbacks may queue or flush messages: call them once the queue is left alone.
    for (const auto& q : unsent)
    {
        NS_LOG_INFO("device " << q.src << " is off: " << q.message->GetKind() << " not sent");
        if (m_lost.IsNull())
        {
            continue;
        }
        if (q.dst != D2D_BROADCAST)
        {
            m_lost(q.src, q.dst, q.message);
            continue;
        }
        for (uint32_t k = 0; k < n; ++k)
        {
            if (k != q.src)
            {
                m_lost(q.src, k, q.message);
            }
        }
    }
}

void
D2dIdealMac::Delivery(const D2dDeliveryRecord& record)
{
    auto it = m_inFlight.find(record.msgId);
    if (it == m_inFlight.end())
    {
        return;
    }
    InFlight& f = it->second;
    if (f.dst != D2D_BROADCAST && f.dst != record.dst)
    {
        return;
    }
    // The transfer to this receiver is over: its radio may send again, and the sender's
    // once every receiver is done.
    --m_rxCount[record.dst];
    const Ptr<const D2dMessage> message = f.message;
    const uint32_t src = f.src;
    if (--f.pending == 0)
    {
        m_txBusy[src] = false;
        m_inFlight.erase(it);
    }
    SchedulePump(); // not from inside the channel's event
    if (!record.delivered)
    {
        NS_LOG_INFO(message->GetKind()
                    << " " << src << " -> " << record.dst << " lost: " << record.reason);
        if (!m_lost.IsNull())
        {
            m_lost(src, record.dst, message);
        }
    }
}

void
D2dIdealMac::Receive(const D2dReception& r)
{
    if (r.IsComplete())
    {
        if (!m_receive.IsNull())
        {
            m_receive(r);
        }
    }
    else if (!m_lost.IsNull())
    {
        m_lost(r.src, r.dst, r.message); // a message with missing fragments is no message
    }
}

} // namespace ns3
