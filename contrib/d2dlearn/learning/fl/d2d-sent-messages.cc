/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-sent-messages.h"

#include <algorithm>

namespace ns3
{

uint64_t
D2dSentMessages::Send(Ptr<D2dTransport> transport,
                      uint32_t src,
                      const std::vector<uint32_t>& receivers,
                      Ptr<const D2dMessage> message,
                      D2dDeliveryMode mode)
{
    const uint64_t id = receivers.size() == 1 ? transport->Send(message, receivers[0], mode)
                                              : transport->Send(message, receivers, mode);
    if (id != 0)
    {
        Sent& sent = m_sent[id];
        sent.src = src;
        sent.pending = receivers;
        std::sort(sent.pending.begin(), sent.pending.end());
        sent.message = message;
    }
    return id;
}

std::optional<D2dSentMessages::Resolved>
D2dSentMessages::Resolve(uint64_t msgId, uint32_t dst)
{
    auto it = m_sent.find(msgId);
    if (it == m_sent.end())
    {
        return std::nullopt;
    }
    auto& pending = it->second.pending;
    auto r = std::lower_bound(pending.begin(), pending.end(), dst);
    if (r == pending.end() || *r != dst)
    {
        return std::nullopt;
    }
    pending.erase(r);
    Resolved resolved{it->second.src, it->second.message};
    if (pending.empty())
    {
        m_sent.erase(it);
    }
    return resolved;
}

void
D2dSentMessages::Withdraw(const std::vector<Ptr<D2dTransport>>& transports, bool keepOnAir)
{
    auto sent = std::move(m_sent);
    m_sent.clear(); // first: the "cancelled" rows below are not resolutions
    for (auto& [id, s] : sent)
    {
        if (!transports[s.src]->Cancel(id) && keepOnAir)
        {
            m_sent.emplace(id, std::move(s)); // on the air: resolved as usual
        }
    }
}

void
D2dSentMessages::Clear()
{
    m_sent.clear();
}

} // namespace ns3
