/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-channel-access.h"

#include "d2d-channel.h"
#include "d2d-drx.h"

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
    m_chainWaiting.clear();
    m_spectrumWaiting.clear();
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
    D2dRadio::TxJob queued = job;
    if (m_pumpEvent.IsExpired())
    {
        std::vector<uint32_t> heard;
        const Block block = Blocker(radio, job, heard);
        if (block.kind == Block::FREE)
        {
            m_channel->StartTransmission(radio, job, heard);
            return;
        }
        NoteSleep(queued, radio, block.kind == Block::SLEEP ? block.index : NONE);
    }
    m_waiting.emplace(seq, Waiting{radio, queued});
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
        D2dRadio::TxJob& head = m_fifo[s].front();
        std::vector<uint32_t> heard = m_channel->HeardReceivers(s, head);
        // DRX: the sender wakes to send; a sleeping receiver is waited for (not woken).
        const uint32_t sleeper = Sleeper(radio, heard);
        NoteSleep(head, radio, sleeper);
        if (sleeper != NONE)
        {
            if (sleeper >= m_wakeWaiters.size())
            {
                m_wakeWaiters.resize(std::max<std::size_t>(sleeper + 1, m_fifo.size()));
            }
            auto& waiters = m_wakeWaiters[sleeper];
            if (std::find(waiters.begin(), waiters.end(), s) == waiters.end())
            {
                waiters.push_back(s);
            }
            return;
        }
        D2dRadio::TxJob job = std::move(head);
        m_fifo[s].pop_front();
        if (m_channel->StartTransmission(radio, job, heard))
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

D2dChannelAccess::Block
D2dChannelAccess::Blocker(Ptr<D2dRadio> radio,
                          const D2dRadio::TxJob& job,
                          std::vector<uint32_t>& heard) const
{
    const uint32_t s = radio->GetIndex();
    if (radio->IsTransmitting() || m_txOpen[s] > 0 ||
        (radio->IsHalfDuplex() && (m_rxOpen[s] > 0 || radio->GetNReceptions() > 0)))
    {
        return {Block::RADIO, s};
    }
    heard = m_channel->HeardReceivers(s, job);
    // DRX: a sleeping receiver is waited for; a sleeping sender is woken (NoteSleep) only
    // once nothing else keeps its message waiting, as a scheduler wakes a device for its
    // grant: it does not listen while its message waits for the medium.
    const uint32_t sleeper = Sleeper(radio, heard);
    if (sleeper != NONE && sleeper != s)
    {
        return {Block::SLEEP, sleeper};
    }
    for (uint32_t r : heard)
    {
        Ptr<D2dRadio> rx = m_channel->GetRadio(r);
        if (rx->IsHalfDuplex() && !rx->IsOff() &&
            (rx->IsTransmitting() || (r < m_txOpen.size() && m_txOpen[r] > 0)))
        {
            return {Block::RADIO, r};
        }
    }
    // A finite spectrum: every receive chain of a receiver taken, or no sub-channel free of
    // conflicts (D2dSpectrum's reuse rule).
    for (uint32_t r : heard)
    {
        if (r < m_rxOpen.size() && m_rxOpen[r] >= m_channel->GetReceiveChains(r))
        {
            return {Block::CHAINS, r};
        }
    }
    if (m_channel->IsSpectrumFinite() && !heard.empty())
    {
        std::vector<uint32_t> subChannels;
        if (!m_channel->GetSpectrum()->Find(s, heard, true, subChannels))
        {
            return {Block::SPECTRUM, 0};
        }
    }
    if (sleeper == s)
    {
        return {Block::SLEEP, s};
    }
    return {Block::FREE, 0};
}

void
D2dChannelAccess::SpectrumReleased()
{
    if (m_policy != SCHEDULED || m_spectrumWaiting.empty())
    {
        return;
    }
    m_spectrumReleased = true;
    SchedulePump();
}

uint32_t
D2dChannelAccess::FreeChains(uint32_t receiver) const
{
    const uint32_t chains = m_channel->GetReceiveChains(receiver);
    return chains > m_rxOpen[receiver] ? chains - m_rxOpen[receiver] : 0;
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
    //
    // A finite spectrum adds two kinds of wait, each kept in send order: for a receive chain
    // of a receiver, and for a sub-channel. A receiver that frees chains lets as many of its
    // first waiters be examined as it has free chains, and free sub-channels of a cell
    // (SpectrumReuse None) as many as they can carry; when some of those turn out to be held
    // by another radio instead, the next ones are examined in another pass. So n uploads to
    // one server cost O(n log n), not O(n^2). With SpectrumReuse Hearing a free sub-channel
    // may serve any waiter far enough from its users: every sub-channel waiter is examined.
    bool again = true;
    while (again)
    {
        again = false;
        std::vector<uint64_t> candidates;
        candidates.swap(m_new);
        for (uint32_t r : m_released)
        {
            auto& on = m_waitingOn[r];
            candidates.insert(candidates.end(), on.begin(), on.end());
            on.clear();
        }
        m_released.clear();
        std::vector<uint32_t> chainsTaken;
        // A receiver that freed several chains since the last pass is listed once per chain:
        // its free chains are counted once.
        std::sort(m_chainReleased.begin(), m_chainReleased.end());
        m_chainReleased.erase(std::unique(m_chainReleased.begin(), m_chainReleased.end()),
                              m_chainReleased.end());
        for (uint32_t r : m_chainReleased)
        {
            auto it = m_chainWaiting.find(r);
            if (it == m_chainWaiting.end())
            {
                continue;
            }
            const uint32_t free = FreeChains(r);
            for (uint32_t i = 0; i < free && !it->second.empty(); ++i)
            {
                candidates.push_back(*it->second.begin());
                it->second.erase(it->second.begin());
            }
            if (it->second.empty())
            {
                m_chainWaiting.erase(it);
            }
            else if (free > 0)
            {
                chainsTaken.push_back(r);
            }
        }
        m_chainReleased.clear();
        bool spectrumTaken = false;
        if (m_spectrumReleased)
        {
            m_spectrumReleased = false;
            Ptr<D2dSpectrum> spectrum = m_channel->GetSpectrum();
            std::size_t take = spectrum->GetReuse() == D2dSpectrum::NONE
                                   ? spectrum->GetNFree() / spectrum->GetPerTransmission()
                                   : m_spectrumWaiting.size();
            for (; take > 0 && !m_spectrumWaiting.empty(); --take)
            {
                candidates.push_back(*m_spectrumWaiting.begin());
                m_spectrumWaiting.erase(m_spectrumWaiting.begin());
                spectrumTaken = true;
            }
        }
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        std::vector<uint32_t> heard;
        for (uint64_t seq : candidates)
        {
            auto it = m_waiting.find(seq);
            if (it == m_waiting.end())
            {
                continue; // its sender's queue was taken (battery died), or it was withdrawn
            }
            const Block block = Blocker(it->second.radio, it->second.job, heard);
            NoteSleep(it->second.job,
                      it->second.radio,
                      block.kind == Block::SLEEP ? block.index : NONE);
            if (block.kind == Block::RADIO || block.kind == Block::SLEEP)
            {
                Grow(block.index); // a sleeping receiver may not have sent or received yet
                m_waitingOn[block.index].push_back(seq);
                continue;
            }
            if (block.kind == Block::CHAINS)
            {
                m_chainWaiting[block.index].insert(seq);
                continue;
            }
            if (block.kind == Block::SPECTRUM)
            {
                m_spectrumWaiting.insert(seq);
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
        // Capacity left where the examined waiters turned out to be held elsewhere.
        for (uint32_t r : chainsTaken)
        {
            if (m_chainWaiting.count(r) && FreeChains(r) > 0)
            {
                m_chainReleased.push_back(r);
                again = true;
            }
        }
        if (spectrumTaken && !m_spectrumWaiting.empty() &&
            m_channel->GetSpectrum()->GetReuse() == D2dSpectrum::NONE &&
            m_channel->GetSpectrum()->GetNFree() >= m_channel->GetSpectrum()->GetPerTransmission())
        {
            m_spectrumReleased = true;
            again = true;
        }
    }
}

uint32_t
D2dChannelAccess::Sleeper(Ptr<D2dRadio> sender, const std::vector<uint32_t>& heard) const
{
    D2dDrx* drx = PeekPointer(m_channel->GetDrx());
    if (!drx)
    {
        return NONE;
    }
    // Receivers first: a sender is not woken for a message that must wait anyway.
    for (uint32_t r : heard)
    {
        if (!drx->IsAwake(r) && !m_channel->GetRadio(r)->IsOff())
        {
            return r;
        }
    }
    const uint32_t s = sender->GetIndex();
    return drx->IsAwake(s) ? NONE : s;
}

void
D2dChannelAccess::NoteSleep(D2dRadio::TxJob& job, Ptr<D2dRadio> sender, uint32_t sleeper)
{
    if (sleeper != NONE && sleeper == sender->GetIndex())
    {
        m_channel->GetDrx()->RequestWake(sleeper); // RadioAwake() when it is
    }
    const bool asleep = sleeper != NONE;
    const Time now = Simulator::Now();
    if (job.sleeping)
    {
        job.sleepWait += now - job.sleepSince;
    }
    job.sleeping = asleep;
    job.sleepSince = now;
}

void
D2dChannelAccess::RadioAwake(Ptr<D2dRadio> radio)
{
    const uint32_t r = radio->GetIndex();
    Grow(r);
    if (m_policy == SCHEDULED)
    {
        m_released.push_back(r);
        SchedulePump();
        return;
    }
    std::vector<uint32_t> waiters;
    if (r < m_wakeWaiters.size())
    {
        waiters.swap(m_wakeWaiters[r]);
    }
    TryStartHead(radio);
    for (uint32_t s : waiters)
    {
        if (s != r)
        {
            TryStartHead(m_channel->GetRadio(s));
        }
    }
}

bool
D2dChannelAccess::IsReserved(uint32_t index) const
{
    return index < m_txOpen.size() && (m_txOpen[index] > 0 || m_rxOpen[index] > 0);
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
        if (Ptr<D2dDrx> drx = m_channel->GetDrx())
        {
            drx->Released(receiver); // it may sleep now
        }
        m_released.push_back(receiver);
        SchedulePump(); // not from inside the channel's event
    }
    if (m_chainWaiting.count(receiver))
    {
        m_chainReleased.push_back(receiver); // a receive chain is free
        SchedulePump();
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
        if (Ptr<D2dDrx> drx = m_channel->GetDrx())
        {
            drx->Released(sender); // it may sleep now
        }
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
