/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SPECTRUM_H
#define D2D_SPECTRUM_H

#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class D2dChannel;

/**
 * \ingroup d2dlearn
 * \brief The band of a D2dChannel as a finite resource: K sub-channels (OFDMA resource
 * blocks) of BandwidthHz / K each, and which transmissions are on the air on each.
 *
 * Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in
 * D2D-Enabled Federated Learning" (2025), sec. III-A and App. C, conduct D2D communication
 * "using OFDMA". OFDMA divides a finite band
 * into a finite number of resource blocks; a transmission on m of the K blocks gets the
 * rate r x BandwidthHz x m / K. The literal reading (every link the whole band, however
 * many transmit: unlimited orthogonal sub-channels) is K = 0, which this object leaves
 * untouched (IsUnlimited(): the channel then never asks it anything).
 *
 * What it decides, for the channel and its channel access (D2dChannelAccess):
 *  - which sub-channels a transmission starting now may use (Find()): under scheduled access
 *    only sub-channels on which it conflicts with no transmission on the air (the reuse
 *    rule below), the least interfered of them; under immediate access the least interfered
 *    of all, whether or not they are in use (co-channel transmissions then interfere);
 *  - the co-channel interference at a receiver (InterferenceW()): the sum of the received
 *    powers W_ik of the other transmitters k on the air on its sub-channels that the
 *    receiver hears (D2dChannel::Hears), each weighted by the share of the transmission's
 *    sub-channels it occupies. Eq. (18) with interference is then
 *    P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W_ij).
 *
 * The reuse rule (attribute SpectrumReuse of the channel): NONE, a sub-channel carries one
 * transmission at a time on this channel (a cell: the D2S link to one server, or a band
 * shared by every device); HEARING, two transmissions may share a sub-channel when no
 * receiver of either is near the other's transmitter: it hears it (D2dChannel::Hears) and,
 * with a ReuseDistanceM > 0, is closer than that distance (co-channel transmitters that a
 * receiver hears beyond ReuseDistanceM add their power to its interference).
 *
 * Cost: Find() and InterferenceW() examine the K sub-channels and the transmissions on the
 * air on them that may matter: all of them when hearing has no distance bound; with a
 * hearing range between positions (D2dChannel::GetHearingDistanceM() > 0) only those whose
 * transmitter or a receiver lies in the 3 x 3 grid cells of that size around the radios in
 * question (positions taken when each transmission starts), so that a network of many
 * devices with a range costs per message what its neighbourhood holds, not what the whole
 * network has on the air.
 */
class D2dSpectrum : public Object
{
  public:
    /** Which transmissions may share a sub-channel under scheduled access. */
    enum Reuse
    {
        NONE,   //!< one transmission per sub-channel on the channel
        HEARING //!< when no receiver of one hears (within ReuseDistanceM) the other's sender
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dSpectrum();
    ~D2dSpectrum() override;

    /**
     * \param channel the channel whose band this is (for hearing, RSS and distances)
     * \param subChannels K (0: unlimited, the literal reading)
     * \param perTransmission sub-channels one transmission occupies, 1..K
     * \param reuse the reuse rule
     * \param reuseDistanceM HEARING: a receiver at least this far from a co-channel
     *        transmitter (m) does not keep it off the sub-channel (0: hearing decides alone)
     */
    void Setup(D2dChannel* channel,
               uint32_t subChannels,
               uint32_t perTransmission,
               Reuse reuse,
               double reuseDistanceM);

    /** \return true for K = 0: every link the whole band, nothing shared */
    bool IsUnlimited() const;
    /** \return K (0: unlimited) */
    uint32_t GetSubChannels() const;
    /** \return the sub-channels one transmission occupies (m) */
    uint32_t GetPerTransmission() const;
    /** \return the share of the band one transmission gets: m / K (1 if unlimited) */
    double GetBandShare() const;
    /** \return the reuse rule */
    Reuse GetReuse() const;
    /** \return the sub-channels on which no transmission is on the air */
    uint32_t GetNFree() const;

    /**
     * \brief Choose the sub-channels of a transmission that starts now.
     * \param sender the transmitter's index
     * \param receivers its receivers that hear it, ascending
     * \param clearOnly true (scheduled access): only sub-channels on which it conflicts with
     *        no transmission on the air; false (immediate): any
     * \param out the m chosen sub-channels, ascending: the least interfered (sum over the
     *        receivers of InterferenceW), ties to the lowest index
     * \return false if fewer than m sub-channels qualify (out is then empty)
     */
    bool Find(uint32_t sender,
              const std::vector<uint32_t>& receivers,
              bool clearOnly,
              std::vector<uint32_t>& out) const;

    /**
     * \brief A transmission goes on the air on these sub-channels.
     * \param id the transmission's id (its message id)
     * \param sender its transmitter
     * \param receivers its receivers that hear it
     * \param subChannels from Find()
     */
    void Occupy(uint64_t id,
                uint32_t sender,
                const std::vector<uint32_t>& receivers,
                const std::vector<uint32_t>& subChannels);
    /**
     * \brief A transmission left the air (it ended, or was aborted).
     * \param id its id (unknown ids are ignored)
     */
    void Release(uint64_t id);

    /**
     * \param receiver a receiver's index
     * \param subChannels the sub-channels of its transmission
     * \param exclude the id of its own transmission
     * \return the co-channel interference I at the receiver now (W): the RSS of every other
     *         transmitter on the air on those sub-channels that it hears, times the share of
     *         the sub-channels it occupies
     */
    double InterferenceW(uint32_t receiver,
                         const std::vector<uint32_t>& subChannels,
                         uint64_t exclude) const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** Candidates() without a sender: only the receivers' neighbourhood matters. */
    static constexpr uint32_t NO_SENDER = 0xFFFFFFFFu;

    /** A transmission on the air. */
    struct Occupant
    {
        uint64_t id{0};                  //!< its id
        uint64_t seq{0};                 //!< when it went on the air (Occupy() order)
        uint32_t sender{0};              //!< its transmitter
        std::vector<uint32_t> receivers; //!< its receivers that hear it (HEARING only)
    };

    /** \return the grid coordinates of a radio's position now (hearing distance as side) */
    std::pair<int64_t, int64_t> CellXY(uint32_t index) const;
    /** \return the key of the grid cell of a radio's position now */
    int64_t CellOf(uint32_t index) const;
    /**
     * \param c a sub-channel
     * \param radios radios whose neighbourhood matters
     * \param bySender look up transmitters (true) or receivers (false) in their 3 x 3 cells
     * \param out the occupants found (appended; may repeat)
     */
    void Nearby(uint32_t c,
                const std::vector<uint32_t>& radios,
                bool bySender,
                std::vector<const Occupant*>& out) const;
    /**
     * \param c a sub-channel
     * \param sender a transmitter that must not disturb them (NO_SENDER: none)
     * \param receivers receivers they must not disturb
     * \return the occupants of c that may matter, in the order they went on the air (every
     *         occupant without a grid)
     */
    std::vector<const Occupant*> Candidates(uint32_t c,
                                            uint32_t sender,
                                            const std::vector<uint32_t>& receivers) const;
    /** \return true if a receiver of one is near (HEARING) the other's transmitter */
    bool Conflicts(uint32_t sender,
                   const std::vector<uint32_t>& receivers,
                   const Occupant& other) const;
    /** \return true if rx hears tx and, with ReuseDistanceM, is closer than it */
    bool Near(uint32_t rx, uint32_t tx) const;

    D2dChannel* m_channel{nullptr}; //!< the owner (not a Ptr: it owns this object)
    uint32_t m_k{0};                //!< K, sub-channels (0: unlimited)
    uint32_t m_perTransmission{1};  //!< m, sub-channels per transmission
    Reuse m_reuse{NONE};            //!< the reuse rule
    double m_reuseDistanceM{0.0};   //!< HEARING: reuse distance, m (0: hearing only)
    uint32_t m_nFree{0};            //!< sub-channels with no occupant
    /// Per sub-channel, its occupants by seq (the order they went on the air)
    std::vector<std::map<uint64_t, Occupant>> m_on;
    /// id -> (its sub-channels, its seq)
    std::unordered_map<uint64_t, std::pair<std::vector<uint32_t>, uint64_t>> m_where;
    uint64_t m_nextSeq{0}; //!< the next occupant's seq
    double m_cellM{0.0};   //!< grid cell side, m (the hearing distance; 0: no grid)
    /// With a grid: per sub-channel, cell -> seqs of its occupants whose transmitter is there
    std::vector<std::unordered_map<int64_t, std::vector<uint64_t>>> m_senderCells;
    /// With a grid: per sub-channel, cell -> seqs of its occupants with a receiver there
    std::vector<std::unordered_map<int64_t, std::vector<uint64_t>>> m_receiverCells;
    /// With a grid: seq -> (the cell of its transmitter, those of its receivers)
    std::unordered_map<uint64_t, std::pair<int64_t, std::vector<int64_t>>> m_cells;
};

} // namespace ns3

#endif /* D2D_SPECTRUM_H */
