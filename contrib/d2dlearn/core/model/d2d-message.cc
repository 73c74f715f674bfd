/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-message.h"

#include "ns3/abort.h"

namespace ns3
{

D2dMessage::D2dMessage(std::string kind,
                       uint64_t sizeBytes,
                       std::shared_ptr<const D2dPayload> payload,
                       uint64_t items)
    : m_kind(std::move(kind)),
      m_sizeBytes(sizeBytes),
      m_payload(std::move(payload)),
      m_items(items)
{
    NS_ABORT_MSG_IF(sizeBytes == 0, "D2dMessage: sizeBytes must be > 0");
}

const std::string&
D2dMessage::GetKind() const
{
    return m_kind;
}

uint64_t
D2dMessage::GetSizeBytes() const
{
    return m_sizeBytes;
}

uint64_t
D2dMessage::GetItems() const
{
    return m_items;
}

const std::shared_ptr<const D2dPayload>&
D2dMessage::GetPayload() const
{
    return m_payload;
}

} // namespace ns3
