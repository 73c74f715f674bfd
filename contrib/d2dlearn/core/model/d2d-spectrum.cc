/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-spectrum.h"

#include "d2d-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSpectrum");
NS_OBJECT_ENSURE_REGISTERED(D2dSpectrum);

TypeId
D2dSpectrum::GetTypeId()
{
    // Its parameters are the channel's Attributes (SubChannels, SubChannelsPerTransmission,
    // SpectrumReuse, ReuseDistanceM): one place to set them, D2dChannel::GetSpectrum() hands
    // them over.
    static TypeId tid = TypeId("ns3::D2dSpectrum")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dSpectrum>();
    return tid;
}

D2dSpectrum::D2dSpectrum()
{
    NS_LOG_FUNCTION(this);
}

D2dSpectrum::~D2dSpectrum()
{
    NS_LOG_FUNCTION(this);
}

void
D2dSpectrum::DoDispose()
{
    m_channel = nullptr;
    m_on.clear();
    m_where.clear();
    Object::DoDispose();
}

void
D2dSpectrum::Setup(D2dChannel* channel,
                   uint32_t subChannels,
                   uint32_t perTransmission,
                   Reuse reuse,
                   double reuseDistanceM)
{
    NS_ABORT_MSG_IF(subChannels > 0 && (perTransmission < 1 || perTransmission > subChannels),
                    "D2dChannel: SubChannelsPerTransmission must be 1 to SubChannels ("
                        << subChannels << "), not " << perTransmission);
    m_channel = channel;
    m_k = subChannels;
    m_perTransmission = subChannels > 0 ? perTransmission : 1;
    m_reuse = reuse;
    m_reuseDistanceM = reuseDistanceM;
    m_on.assign(m_k, {});
    m_nFree = m_k;
    m_where.clear();
    // A hearing range between positions bounds who can matter to whom: a grid of that side.
    m_cellM = m_k > 0 ? channel->GetHearingDistanceM() : 0.0;
    m_senderCells.assign(m_cellM > 0 ? m_k : 0, {});
    m_receiverCells.assign(m_cellM > 0 ? m_k : 0, {});
    m_cells.clear();
}

namespace
{
/** \return the key of grid cell (cx, cy) */
int64_t
SpectrumCellKey(int64_t cx, int64_t cy)
{
    return (cx << 32) ^ (cy & 0xFFFFFFFF);
}
} // namespace

std::pair<int64_t, int64_t>
D2dSpectrum::CellXY(uint32_t index) const
{
    const Vector p = m_channel->GetRadio(index)->GetMobility()->GetPosition();
    return {static_cast<int64_t>(std::floor(p.x / m_cellM)),
            static_cast<int64_t>(std::floor(p.y / m_cellM))};
}

int64_t
D2dSpectrum::CellOf(uint32_t index) const
{
    const auto [cx, cy] = CellXY(index);
    return SpectrumCellKey(cx, cy);
}

void
D2dSpectrum::Nearby(uint32_t c,
                    const std::vector<uint32_t>& radios,
                    bool bySender,
                    std::vector<const Occupant*>& out) const
{
    const auto& cells = bySender ? m_senderCells[c] : m_receiverCells[c];
    if (cells.empty())
    {
        return;
    }
    for (uint32_t r : radios)
    {
        const auto [cx, cy] = CellXY(r);
        for (int64_t dx = -1; dx <= 1; ++dx)
        {
            for (int64_t dy = -1; dy <= 1; ++dy)
            {
                auto it = cells.find(SpectrumCellKey(cx + dx, cy + dy));
                if (it == cells.end())
                {
                    continue;
                }
                for (uint64_t q : it->second)
                {
                    out.push_back(&m_on[c].at(q));
                }
            }
        }
    }
}

std::vector<const D2dSpectrum::Occupant*>
D2dSpectrum::Candidates(uint32_t c, uint32_t sender, const std::vector<uint32_t>& receivers) const
{
    std::vector<const Occupant*> out;
    if (m_cellM <= 0)
    {
        out.reserve(m_on[c].size());
        for (const auto& [q, o] : m_on[c])
        {
            out.push_back(&o);
        }
        return out;
    }
    // Those whose transmitter one of the receivers may hear, and (a sender that must not
    // disturb) those with a receiver that may hear the sender; in the order they went on the
    // air, so that sums keep the order of a scan of every occupant (the others add nothing).
    Nearby(c, receivers, true, out);
    if (m_reuse == HEARING && sender != NO_SENDER)
    {
        Nearby(c, {sender}, false, out);
        Nearby(c, {sender}, true, out); // the sender's own transmission, if on this channel
    }
    std::sort(out.begin(), out.end(), [](const Occupant* a, const Occupant* b) {
        return a->seq < b->seq;
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool
D2dSpectrum::IsUnlimited() const
{
    return m_k == 0;
}

uint32_t
D2dSpectrum::GetSubChannels() const
{
    return m_k;
}

uint32_t
D2dSpectrum::GetPerTransmission() const
{
    return m_perTransmission;
}

double
D2dSpectrum::GetBandShare() const
{
    return m_k == 0 ? 1.0 : static_cast<double>(m_perTransmission) / m_k;
}

D2dSpectrum::Reuse
D2dSpectrum::GetReuse() const
{
    return m_reuse;
}

uint32_t
D2dSpectrum::GetNFree() const
{
    return m_nFree;
}

bool
D2dSpectrum::Near(uint32_t rx, uint32_t tx) const
{
    if (rx == tx)
    {
        return true; // a radio is never far from itself
    }
    if (!m_channel->Hears(rx, tx))
    {
        return false;
    }
    return m_reuseDistanceM <= 0 || m_channel->GetDistanceM(rx, tx) < m_reuseDistanceM;
}

bool
D2dSpectrum::Conflicts(uint32_t sender,
                       const std::vector<uint32_t>& receivers,
                       const Occupant& other) const
{
    if (m_reuse == NONE)
    {
        return true;
    }
    for (uint32_t r : receivers)
    {
        if (Near(r, other.sender))
        {
            return true; // it would be interfered with
        }
    }
    for (uint32_t r : other.receivers)
    {
        if (Near(r, sender))
        {
            return true; // it would interfere
        }
    }
    return false;
}

bool
D2dSpectrum::Find(uint32_t sender,
                  const std::vector<uint32_t>& receivers,
                  bool clearOnly,
                  std::vector<uint32_t>& out) const
{
    out.clear();
    if (clearOnly && m_reuse == NONE)
    {
        // A cell: the lowest free sub-channels (none of them carries interference).
        if (m_nFree < m_perTransmission)
        {
            return false;
        }
        for (uint32_t c = 0; c < m_k && out.size() < m_perTransmission; ++c)
        {
            if (m_on[c].empty())
            {
                out.push_back(c);
            }
        }
        return true;
    }
    // (interference summed over the receivers, occupants, index) of each qualifying one
    std::vector<std::tuple<double, std::size_t, uint32_t>> ranked;
    ranked.reserve(m_k);
    for (uint32_t c = 0; c < m_k; ++c)
    {
        bool ok = true;
        double interference = 0.0;
        for (const Occupant* occupant : Candidates(c, clearOnly ? sender : NO_SENDER, receivers))
        {
            const Occupant& o = *occupant;
            if (clearOnly && Conflicts(sender, receivers, o))
            {
                ok = false;
                break;
            }
            for (uint32_t r : receivers)
            {
                if (r != o.sender && m_channel->Hears(r, o.sender))
                {
                    interference += m_channel->GetRssW(r, o.sender);
                }
            }
        }
        if (ok)
        {
            ranked.emplace_back(interference, m_on[c].size(), c);
        }
    }
    if (ranked.size() < m_perTransmission)
    {
        return false;
    }
    std::partial_sort(ranked.begin(), ranked.begin() + m_perTransmission, ranked.end());
    for (uint32_t i = 0; i < m_perTransmission; ++i)
    {
        out.push_back(std::get<2>(ranked[i]));
    }
    std::sort(out.begin(), out.end());
    return true;
}

void
D2dSpectrum::Occupy(uint64_t id,
                    uint32_t sender,
                    const std::vector<uint32_t>& receivers,
                    const std::vector<uint32_t>& subChannels)
{
    const uint64_t seq = m_nextSeq++;
    std::pair<int64_t, std::vector<int64_t>> cells;
    if (m_cellM > 0)
    {
        cells.first = CellOf(sender);
        if (m_reuse == HEARING)
        {
            for (uint32_t r : receivers)
            {
                cells.second.push_back(CellOf(r));
            }
            std::sort(cells.second.begin(), cells.second.end());
            cells.second.erase(std::unique(cells.second.begin(), cells.second.end()),
                               cells.second.end());
        }
    }
    for (uint32_t c : subChannels)
    {
        NS_ASSERT(c < m_k);
        if (m_on[c].empty())
        {
            --m_nFree;
        }
        Occupant o;
        o.id = id;
        o.seq = seq;
        o.sender = sender;
        if (m_reuse == HEARING)
        {
            o.receivers = receivers;
        }
        m_on[c].emplace(seq, std::move(o));
        if (m_cellM > 0)
        {
            m_senderCells[c][cells.first].push_back(seq);
            for (int64_t cell : cells.second)
            {
                m_receiverCells[c][cell].push_back(seq);
            }
        }
    }
    if (m_cellM > 0)
    {
        m_cells[seq] = std::move(cells);
    }
    m_where[id] = {subChannels, seq};
}

void
D2dSpectrum::Release(uint64_t id)
{
    auto it = m_where.find(id);
    if (it == m_where.end())
    {
        return;
    }
    const uint64_t seq = it->second.second;
    auto drop = [seq](std::unordered_map<int64_t, std::vector<uint64_t>>& cells, int64_t cell) {
        auto at = cells.find(cell);
        if (at != cells.end())
        {
            auto& v = at->second;
            v.erase(std::remove(v.begin(), v.end(), seq), v.end());
            if (v.empty())
            {
                cells.erase(at);
            }
        }
    };
    auto cells = m_cells.find(seq);
    for (uint32_t c : it->second.first)
    {
        m_on[c].erase(seq);
        if (m_on[c].empty())
        {
            ++m_nFree;
        }
        if (cells != m_cells.end())
        {
            drop(m_senderCells[c], cells->second.first);
            for (int64_t cell : cells->second.second)
            {
                drop(m_receiverCells[c], cell);
            }
        }
    }
    if (cells != m_cells.end())
    {
        m_cells.erase(cells);
    }
    m_where.erase(it);
}

double
D2dSpectrum::InterferenceW(uint32_t receiver,
                           const std::vector<uint32_t>& subChannels,
                           uint64_t exclude) const
{
    if (subChannels.empty())
    {
        return 0.0;
    }
    // The interference power averaged over the transmission's sub-channels: a co-channel
    // transmitter on c of its m sub-channels adds W_ik x c / m.
    double sum = 0.0;
    for (uint32_t c : subChannels)
    {
        for (const Occupant* occupant : Candidates(c, NO_SENDER, {receiver}))
        {
            const Occupant& o = *occupant;
            if (o.id != exclude && o.sender != receiver && m_channel->Hears(receiver, o.sender))
            {
                sum += m_channel->GetRssW(receiver, o.sender);
            }
        }
    }
    return sum / static_cast<double>(subChannels.size());
}

} // namespace ns3
