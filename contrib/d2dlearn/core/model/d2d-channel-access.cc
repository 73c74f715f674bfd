/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-channel-access.h"

#include "d2d-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dChannelAccess");
NS_OBJECT_ENSURE_REGISTERED(D2dChannelAccess);

TypeId
D2dChannelAccess::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dChannelAccess")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dChannelAccess>();
    return tid;
}

D2dChannelAccess::D2dChannelAccess()
{
    NS_LOG_FUNCTION(this);
}

D2dChannelAccess::~D2dChannelAccess()
{
    NS_LOG_FUNCTION(this);
}

void
D2dChannelAccess::DoDispose()
{
    m_pumpEvent.Cancel();
    m_channel = nullptr;
    m_fifo.clear();
    m_waiting.clear();
    m_waitingOn.clear();
    Object::DoDispose();
}

void
D2dChannelAccess::Setup(D2dChannel* channel, Policy policy)
{
    m_channel = channel;
    m_policy = policy;
}

D2dChannelAccess::Policy
D2dChannelAccess::GetPolicy() const
{
    return m_policy;
}

void
D2dChannelAccess::Grow(uint32_t index)
{
    if (index < m_fifo.size())
    {
        return;
    }
    const std::size_t n = index + 1;
    m_fifo.resize(n);
    m_waitingOn.resize(n);
    m_nWaiting.resize(n, 0);
    m_mine.resize(n);
    m_txOpen.resize(n, 0);
    m_rxOpen.resize(n, 0);
}

void
D2dChannelAccess::Enqueue(Ptr<D2dRadio> radio, const D2dRadio::TxJob& job)
{
    const uint32_t s = radio->GetIndex();
    Grow(s);
    if (m_policy == IMMEDIATE)
    {
        m_fifo[s].push_back(job);
        TryStartHead(radio);
        return;
    }
    // SCHEDULED: start at once if nothing waits to be examined and its radios are free;
    // otherwise it waits its turn in send order.
    const uint64_t seq = m_nextSeq++;
    if (m_pumpEvent.IsExpired())
    {
        std::vector<uint32_t> heard;
        if (Blocker(radio, job, heard) < 0)
        {
            m_channel->StartTransmission(radio, job, heard);
            return;
        }
    }
    m_waiting.emplace(seq, Waiting{radio, job});
    ++m_nWaiting[s];
    m_mine[s].push_back(seq);
    m_new.push_back(seq);
    SchedulePump();
}

void
D2dChannelAccess::TryStartHead(Ptr<D2dRadio> radio)
{
    const uint32_t s = radio->GetIndex();
    // Messages that no receiver can hear leave the queue without occupying the radio.
    while (s < m_fifo.size() && !m_fifo[s].empty() && !radio->IsOff() && !radio->IsTransmitting() &&
           !(radio->IsHalfDuplex() && radio->GetNReceptions() > 0))
    {
        D2dRadio::TxJob job = m_fifo[s].front();
        m_fifo[s].pop_front();
        if (m_channel->StartTransmission(radio, job, m_channel->HeardReceivers(s, job)))
        {
            return;
        }
    }
}

void
D2dChannelAccess::RadioFree(Ptr<D2dRadio> radio)
{
    if (m_policy == IMMEDIATE)
    {
        TryStartHead(radio);
    }
    // SCHEDULED: radios are released by the channel's outcomes (ReleaseReceiver/Sender).
}

int64_t
D2dChannelAccess::Blocker(Ptr<D2dRadio> radio,
                          const D2dRadio::TxJob& job,
                          std::vector<uint32_t>& heard) const
{
    const uint32_t s = radio->GetIndex();
    if (radio->IsTransmitting() || m_txOpen[s] > 0 ||
        (radio->IsHalfDuplex() && (m_rxOpen[s] > 0 || radio->GetNReceptions() > 0)))
    {
        return s;
    }
    heard = m_channel->HeardReceivers(s, job);
    for (uint32_t r : heard)
    {
        Ptr<D2dRadio> rx = m_channel->GetRadio(r);
        if (rx->IsHalfDuplex() && !rx->IsOff() &&
            (rx->IsTransmitting() || (r < m_txOpen.size() && m_txOpen[r] > 0)))
        {
            return r;
        }
    }
    return -1;
}

void
D2dChannelAccess::SchedulePump()
{
    if (m_pumpEvent.IsExpired())
    {
        m_pumpEvent = Simulator::ScheduleNow(&D2dChannelAccess::Pump, this);
    }
}

void
D2dChannelAccess::Pump()
{
    // The candidates: messages queued since the last pump and those waiting on a released
    // radio. Every other waiting message is still blocked by a radio that is still busy,
    // and starting messages only occupies radios: examining the candidates in send order
    // gives what examining every waiting message would.
    std::vector<uint64_t> candidates;
    candidates.swap(m_new);
    for (uint32_t r : m_released)
    {
        auto& on = m_waitingOn[r];
        candidates.insert(candidates.end(), on.begin(), on.end());
        on.clear();
    }
    m_released.clear();
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<uint32_t> heard;
    for (uint64_t seq : candidates)
    {
        auto it = m_waiting.find(seq);
        if (it == m_waiting.end())
        {
            continue; // its sender's queue was taken (battery died)
        }
        const int64_t blocker = Blocker(it->second.radio, it->second.job, heard);
        if (blocker >= 0)
        {
            m_waitingOn[blocker].push_back(seq);
            continue;
        }
        Waiting w = std::move(it->second);
        m_waiting.erase(it);
        const uint32_t s = w.radio->GetIndex();
        if (--m_nWaiting[s] == 0)
        {
            m_mine[s].clear(); // its entries are all stale now
        }
        m_channel->StartTransmission(w.radio, w.job, heard);
    }
}

void
D2dChannelAccess::Reserve(uint32_t sender, const std::vector<uint32_t>& receivers)
{
    if (m_policy != SCHEDULED)
    {
        return;
    }
    Grow(sender);
    ++m_txOpen[sender];
    for (uint32_t r : receivers)
    {
        Grow(r);
        ++m_rxOpen[r];
    }
}

void
D2dChannelAccess::ReleaseReceiver(uint32_t receiver)
{
    if (m_policy != SCHEDULED)
    {
        return;
    }
    NS_ASSERT(m_rxOpen[receiver] > 0);
    if (--m_rxOpen[receiver] == 0)
    {
        m_released.push_back(receiver);
        SchedulePump(); // not from inside the channel's event
    }
}

void
D2dChannelAccess::ReleaseSender(uint32_t sender)
{
    if (m_policy != SCHEDULED)
    {
        return;
    }
    NS_ASSERT(m_txOpen[sender] > 0);
    if (--m_txOpen[sender] == 0)
    {
        m_released.push_back(sender);
        SchedulePump();
    }
}

std::size_t
D2dChannelAccess::GetQueueLength(uint32_t index) const
{
    if (index >= m_fifo.size())
    {
        return 0;
    }
    return m_policy == IMMEDIATE ? m_fifo[index].size() : m_nWaiting[index];
}

bool
D2dChannelAccess::Withdraw(uint32_t index, uint64_t msgId, D2dRadio::TxJob& job)
{
    if (index >= m_fifo.size())
    {
        return false;
    }
    if (m_policy == IMMEDIATE)
    {
        auto& fifo = m_fifo[index];
        auto it = std::find_if(fifo.begin(), fifo.end(), [msgId](const D2dRadio::TxJob& j) {
            return j.msgId == msgId;
        });
        if (it == fifo.end())
        {
            return false;
        }
        job = *it;
        fifo.erase(it);
        return true;
    }
    auto& mine = m_mine[index];
    for (auto seq = mine.begin(); seq != mine.end(); ++seq)
    {
        auto it = m_waiting.find(*seq);
        if (it == m_waiting.end() || it->second.job.msgId != msgId)
        {
            continue; // started already (a stale entry), or another message
        }
        job = it->second.job;
        m_waiting.erase(it); // entries naming it elsewhere are skipped as stale
        mine.erase(seq);
        --m_nWaiting[index];
        return true;
    }
    return false;
}

std::vector<D2dRadio::TxJob>
D2dChannelAccess::TakeQueue(uint32_t index)
{
    std::vector<D2dRadio::TxJob> jobs;
    if (index >= m_fifo.size())
    {
        return jobs;
    }
    if (m_policy == IMMEDIATE)
    {
        jobs.assign(m_fifo[index].begin(), m_fifo[index].end());
        m_fifo[index].clear();
        return jobs;
    }
    for (uint64_t seq : m_mine[index]) // in send order
    {
        auto it = m_waiting.find(seq);
        if (it != m_waiting.end())
        {
            jobs.push_back(it->second.job);
            m_waiting.erase(it);
        }
    }
    m_mine[index].clear();
    m_nWaiting[index] = 0;
    return jobs;
}

} // namespace ns3
