/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CHANNEL_ACCESS_H
#define D2D_CHANNEL_ACCESS_H

#include "d2d-radio.h"

#include "ns3/event-id.h"
#include "ns3/object.h"

#include <list>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

class D2dChannel;

/**
 * \ingroup d2dlearn
 * \brief Channel access of a D2dChannel: when a radio's queued message goes on the air.
 * It sits between the radios' queues and the channel, once, so that protocols never
 * schedule radios themselves (as ns-3's wifi ChannelAccessManager sits below the
 * applications).
 *
 * Two policies (attribute AccessPolicy of D2dChannel):
 *  - IMMEDIATE: the raw radio. Each radio sends its queue in FIFO order, one message at a
 *    time, as soon as it is not transmitting and, if half-duplex, not receiving. A
 *    reception that starts while its receiver transmits is lost there ("half_duplex").
 *  - SCHEDULED: an ideal MAC with spatial reuse. A message starts when its sender is idle
 *    (no transmission of its own whose receivers' outcomes are still open and, if
 *    half-duplex, no reception under way or announced) and none of its receivers that can
 *    hear it (D2dChannel::GetNeighbours, RangeM) is half-duplex and sending. From its
 *    start until its outcome at a receiver is known, the message occupies exactly the
 *    sender and those receivers: transmissions whose radios are disjoint overlap in time
 *    (spatial reuse); radios that cannot hear it are not involved. Receptions from several
 *    senders still overlap at one radio (the channel's orthogonal sub-channels, OFDMA as in
 *    Wagle et al. 2025, App. C); with a finite spectrum (D2dChannel SubChannels) at most its
 *    receive chains, and a message also waits for a sub-channel that D2dSpectrum's reuse
 *    rule gives it (a scheduler over sub-channels and receivers). Waiting messages start greedily
 * in the order they were sent (a later message may go first when an earlier one's radios are busy),
 * each time radios are released; so no message is lost to half-duplex. A message waits on one radio
 *    that blocks it and is examined again only when that radio is released: a release
 *    costs O(messages waiting on it), not O(messages waiting).
 */
class D2dChannelAccess : public Object
{
  public:
    /** The access policy. */
    enum Policy
    {
        IMMEDIATE, //!< raw radios: FIFO, half-duplex losses
        SCHEDULED  //!< ideal MAC with spatial reuse: no half-duplex losses
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dChannelAccess();
    ~D2dChannelAccess() override;

    /**
     * \param channel the channel whose radios this object schedules
     * \param policy the policy
     */
    void Setup(D2dChannel* channel, Policy policy);
    /** \return the policy */
    Policy GetPolicy() const;

    /**
     * \brief A radio was handed a message: queue it (it may start at once).
     * \param radio the sender
     * \param job the message
     */
    void Enqueue(Ptr<D2dRadio> radio, const D2dRadio::TxJob& job);
    /**
     * \brief A radio stopped transmitting or receiving (IMMEDIATE: it may start its next
     * message).
     * \param radio the radio
     */
    void RadioFree(Ptr<D2dRadio> radio);
    /**
     * \param index a radio's index
     * \return the messages it has queued, not on the air yet
     */
    std::size_t GetQueueLength(uint32_t index) const;
    /**
     * \brief Remove a radio's queued messages (its battery died, or the simulation ends).
     * \param index the radio's index
     * \return the messages, in the order they were sent
     */
    std::vector<D2dRadio::TxJob> TakeQueue(uint32_t index);
    /**
     * \brief Remove one queued message (not on the air yet) of a radio.
     * \param index the radio's index
     * \param msgId the message id
     * \param job out: the message, if it was queued
     * \return true if it was queued and is removed
     */
    bool Withdraw(uint32_t index, uint64_t msgId, D2dRadio::TxJob& job);

    // Called by D2dChannel (SCHEDULED; no-ops otherwise).
    /**
     * \brief A transmission started: it occupies its sender and these receivers.
     * \param sender the sender's index
     * \param receivers the receivers that hear it
     */
    void Reserve(uint32_t sender, const std::vector<uint32_t>& receivers);
    /** \param receiver a receiver whose outcome of a transmission is known */
    void ReleaseReceiver(uint32_t receiver);
    /** \param sender a sender every one of whose receivers' outcomes is known */
    void ReleaseSender(uint32_t sender);
    /** \brief A transmission left its sub-channels (finite spectrum). */
    void SpectrumReleased();

    // Called by D2dDrx.
    /**
     * \brief A radio woke (DRX): the messages that waited for it may start.
     * \param radio the radio
     */
    void RadioAwake(Ptr<D2dRadio> radio);
    /**
     * \param index a radio's index
     * \return whether a transmission whose outcome is open holds it (SCHEDULED)
     */
    bool IsReserved(uint32_t index) const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** A message waiting for its radios (SCHEDULED). */
    struct Waiting
    {
        Ptr<D2dRadio> radio; //!< the sender
        D2dRadio::TxJob job; //!< the message and its receivers
    };

    /** What keeps a message from starting now (SCHEDULED). */
    struct Block
    {
        /** The kind of wait. */
        enum Kind
        {
            FREE,     //!< it may start
            RADIO,    //!< a radio (index) is busy: sending, or half-duplex
            CHAINS,   //!< a receiver (index) has every receive chain taken
            SPECTRUM, //!< no sub-channel is free of conflicts
            SLEEP     //!< a radio (index) sleeps (DRX): the sender until it woke, a receiver
                      //!< until its next on-duration
        };

        Kind kind{FREE};   //!< the kind
        uint32_t index{0}; //!< RADIO, CHAINS: the radio
    };

    /** \brief IMMEDIATE: start the radio's next message if it may. \param radio the radio */
    void TryStartHead(Ptr<D2dRadio> radio);
    /**
     * \brief SCHEDULED: the radio that keeps a message from starting now.
     * \param radio the sender
     * \param job the message
     * \param heard out: its receivers that hear it (filled when it may start)
     * \return what keeps it waiting (Block::FREE: it may start)
     */
    Block Blocker(Ptr<D2dRadio> radio,
                  const D2dRadio::TxJob& job,
                  std::vector<uint32_t>& heard) const;
    /** No radio (Sleeper()). */
    static constexpr uint32_t NONE = UINT32_MAX;
    /**
     * \brief DRX: a receiver that hears the message and sleeps (receivers first: a sender
     * is not woken for a message that must wait anyway), else the sender if it sleeps.
     * \param sender the sender
     * \param heard its receivers that hear it
     * \return that radio's index, or NONE (every one awake, or no DRX)
     */
    uint32_t Sleeper(Ptr<D2dRadio> sender, const std::vector<uint32_t>& heard) const;
    /**
     * \brief A message was examined now: wake its sender if that is what it waits for
     * (D2dDrx::RequestWake; RadioAwake() follows), and account its wait for a sleeping
     * radio (D2dDeliveryRecord::sleepWait): the time since it was found waiting for one,
     * up to now.
     * \param job the message
     * \param sender its sender
     * \param sleeper the sleeping radio it waits for from now on (Sleeper()), or NONE
     */
    void NoteSleep(D2dRadio::TxJob& job, Ptr<D2dRadio> sender, uint32_t sleeper);
    /** \param receiver a radio \return its receive chains not taken now */
    uint32_t FreeChains(uint32_t receiver) const;
    /** \brief SCHEDULED: examine the messages waiting on released radios, in send order. */
    void Pump();
    /** \brief Run Pump() in an event scheduled now (once). */
    void SchedulePump();
    /** \param index grow the per-radio state to hold this index */
    void Grow(uint32_t index);

    D2dChannel* m_channel{nullptr}; //!< the owner (not a Ptr: it owns this object)
    Policy m_policy{IMMEDIATE};     //!< the access policy (D2dChannel's AccessPolicy)

    // IMMEDIATE
    /// Per radio. A list, not a deque: an empty std::deque allocates ~600 bytes
    /// (libstdc++'s first 512-byte block and its map), a million devices 600 MB.
    std::vector<std::list<D2dRadio::TxJob>> m_fifo;

    // SCHEDULED
    uint64_t m_nextSeq{0}; //!< send order of the next message enqueued (the m_waiting key)
    std::map<uint64_t, Waiting> m_waiting;          //!< by send order
    std::vector<std::vector<uint64_t>> m_waitingOn; //!< per radio: messages it blocks
    std::vector<uint32_t> m_nWaiting;               //!< per radio: its messages waiting
    std::vector<std::vector<uint64_t>> m_mine;      //!< per radio: its waiting messages
    std::vector<uint32_t> m_txOpen;                 //!< per radio: its open transmissions
    std::vector<uint32_t> m_rxOpen;                 //!< per radio: open receptions
    std::vector<uint32_t> m_released;               //!< radios released since the last pump
    std::vector<uint64_t> m_new;                    //!< messages queued since the last pump
    /// Finite spectrum: per receiver whose chains are all taken, its waiters in send order.
    std::map<uint32_t, std::set<uint64_t>> m_chainWaiting;
    std::vector<uint32_t> m_chainReleased; //!< receivers that freed a chain since the last pump
    std::set<uint64_t> m_spectrumWaiting;  //!< waiting for a sub-channel, in send order
    bool m_spectrumReleased{false};        //!< a sub-channel was freed since the last pump
    EventId m_pumpEvent;                   //!< Pump() scheduled now (expired: none pending)
    /// DRX, IMMEDIATE: per radio, the senders whose head message waits for it to wake.
    std::vector<std::vector<uint32_t>> m_wakeWaiters;
};

} // namespace ns3

#endif /* D2D_CHANNEL_ACCESS_H */
