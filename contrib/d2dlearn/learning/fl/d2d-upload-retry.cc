/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-upload-retry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dUploadRetry");

void
D2dUploadRetry::SetMaxRetries(uint32_t maxRetries)
{
    m_maxRetries = maxRetries;
}

void
D2dUploadRetry::Track(uint64_t msgId,
                      Ptr<D2dTransport> transport,
                      uint32_t round,
                      Ptr<const D2dMessage> message,
                      D2dDeliveryMode mode)
{
    if (msgId != 0 && mode == D2dDeliveryMode::RELIABLE)
    {
        m_uploads[msgId] = Upload{transport, round, 0, message};
    }
}

bool
D2dUploadRetry::SendDone(uint64_t msgId, uint32_t dst, bool success, uint32_t round, bool open)
{
    auto it = m_uploads.find(msgId);
    if (it == m_uploads.end())
    {
        return false; // not an update, or not reliable
    }
    Upload upload = it->second;
    m_uploads.erase(it);
    // Reliable mode: failure means the link's retransmissions ran out. Send the update
    // again while its round is open, at most m_maxRetries times.
    if (success || upload.attempts >= m_maxRetries || !open || upload.round != round)
    {
        return false;
    }
    const uint64_t id = upload.transport->Send(upload.message, dst, D2dDeliveryMode::RELIABLE);
    if (id == 0)
    {
        return false;
    }
    NS_LOG_INFO("round " << round << ": update to " << dst << " sent again (retry "
                         << upload.attempts + 1 << ")");
    ++upload.attempts;
    ++m_roundRetries;
    ++m_totalRetries;
    m_uploads[id] = upload;
    return true;
}

uint32_t
D2dUploadRetry::GetRoundRetries() const
{
    return m_roundRetries;
}

uint64_t
D2dUploadRetry::GetTotalRetries() const
{
    return m_totalRetries;
}

void
D2dUploadRetry::ResetRound()
{
    m_roundRetries = 0;
}

void
D2dUploadRetry::Clear()
{
    m_uploads.clear();
}

} // namespace ns3
