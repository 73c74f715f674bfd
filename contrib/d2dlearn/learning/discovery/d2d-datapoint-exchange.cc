/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-datapoint-exchange.h"

#include "d2d-discovery-paradigm.h"
#include "d2d-message-passing.h"

namespace ns3
{

std::size_t
D2dDatapointExchange::AddLink(const Link& link)
{
    m_links.push_back(link);
    return m_links.size() - 1;
}

void
D2dDatapointExchange::AddMessage(uint64_t msgId, std::size_t index)
{
    m_dataLinks[msgId] = index;
}

void
D2dDatapointExchange::Receive(uint64_t msgId, const D2dFractionalCounts& allocated, uint64_t items)
{
    const auto it = m_dataLinks.find(msgId);
    if (it != m_dataLinks.end())
    {
        m_links[it->second].received = D2dMessagePassing::Apportion(allocated, items);
    }
}

bool
D2dDatapointExchange::Settle(uint32_t edge,
                             D2dDiscoveryParadigm& paradigm,
                             const std::function<void(const Link&)>& onLink,
                             std::vector<D2dFractionalCounts>& counts)
{
    const uint32_t n = paradigm.GetNDevices();
    const uint32_t nl = paradigm.GetNPartitions();
    counts.clear();
    for (uint32_t i = 0; i < n; ++i)
    {
        counts.push_back(paradigm.GetCounts(i));
    }
    std::vector<D2dDiscoveryParadigm::Transfer> transfers;
    for (auto& link : m_links)
    {
        if (link.edge != edge)
        {
            continue;
        }
        for (uint32_t l = 0; l < nl; ++l)
        {
            counts[link.transmitter][l] -= link.allocated[l];
            counts[link.receiver][l] += link.received[l];
        }
        transfers.push_back({link.transmitter, link.receiver, link.allocated, link.received});
        onLink(link);
    }
    m_dataLinks.clear();
    // A paradigm whose partitions differ between devices (unsupervised clusters) moves the
    // points itself; otherwise the counts above are the new D_i.
    return paradigm.Exchange(transfers);
}

const std::vector<D2dDatapointExchange::Link>&
D2dDatapointExchange::GetLinks() const
{
    return m_links;
}

} // namespace ns3
