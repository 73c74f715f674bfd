/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-message-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMessageRegistry");
NS_OBJECT_ENSURE_REGISTERED(D2dMessageRegistry);

TypeId
D2dMessageRegistry::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dMessageRegistry")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dMessageRegistry>();
    return tid;
}

uint64_t
D2dMessageRegistry::AllocateId()
{
    return m_nextId++;
}

void
D2dMessageRegistry::Register(uint64_t id, Ptr<const D2dMessage> message)
{
    m_inFlight[id] = message;
}

Ptr<const D2dMessage>
D2dMessageRegistry::Lookup(uint64_t id) const
{
    auto it = m_inFlight.find(id);
    return it == m_inFlight.end() ? nullptr : it->second;
}

void
D2dMessageRegistry::Release(uint64_t id)
{
    m_inFlight.erase(id);
}

std::size_t
D2dMessageRegistry::GetNInFlight() const
{
    return m_inFlight.size();
}

void
D2dMessageRegistry::DoDispose()
{
    m_inFlight.clear();
    Object::DoDispose();
}

} // namespace ns3
