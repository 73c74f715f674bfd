/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RADIO_H
#define D2D_RADIO_H

#include "d2d-transport.h"

#include "ns3/mobility-model.h"

#include <deque>

namespace ns3
{

class D2dChannel;
class D2dRadioEnergyModel;

/**
 * \ingroup d2dlearn
 * \brief A device's D2D radio on a D2dChannel: the channel-model messaging backend.
 *
 * The radio transmits one message at a time; the messages it is handed wait for the
 * channel's access policy (D2dChannelAccess: raw FIFO, or an ideal schedule with spatial
 * reuse), so queueing delay is real. It is half-duplex (attribute HalfDuplex): a message
 * whose first fragment reaches the radio while it transmits is lost at this radio, and a
 * queued transmission waits until the radio's ongoing receptions end. Receptions from different
 * transmitters overlap freely with an unlimited spectrum (orthogonal sub-channels, OFDMA as in
 * Wagle et al. 2025, App. C); with a finite one (D2dChannel SubChannels) at most ReceiveChains
 * at once.
 * Transmit and receive energy go to the radio's D2dRadioEnergyModel; when its battery is depleted
 * the radio switches off (D2dTransport::TurnOff).
 */
class D2dRadio : public D2dTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dRadio();
    ~D2dRadio() override;

    /** \param channel the channel this radio is attached to */
    void SetChannel(Ptr<D2dChannel> channel);
    /** \return the channel */
    Ptr<D2dChannel> GetChannel() const;
    /** \param model the energy model charged for tx/rx (may be null: no energy) */
    void SetEnergyModel(Ptr<D2dRadioEnergyModel> model);
    /** \return the energy model (may be null) */
    Ptr<D2dRadioEnergyModel> GetEnergyModel() const;
    /** \param mobility where the radio is (may be null for matrix RSS) */
    void SetMobility(Ptr<MobilityModel> mobility);
    /** \return the mobility model (may be null) */
    Ptr<MobilityModel> GetMobility() const;

    /** \return the transmit power (dBm) */
    double GetTxPowerDbm() const;
    /** \return true while transmitting */
    bool IsTransmitting() const;
    /** \return false while its DRX (D2dDrx) has it asleep or on its way to or from sleep */
    bool IsAwake() const;
    /** \return the HalfDuplex attribute */
    bool IsHalfDuplex() const;
    /** \return the ReceiveChains attribute (0: one per sub-channel of the channel) */
    uint32_t GetReceiveChains() const;
    /** \return number of ongoing receptions */
    uint32_t GetNReceptions() const;
    /**
     * \return how many times the radio went off (Leave or TurnOff): a reception that began
     * under another count was cut by an absence, even if the radio is back now
     */
    uint32_t GetOffCount() const;
    /** \return messages waiting for channel access (D2dChannelAccess) */
    std::size_t GetQueueLength() const;

    /** \brief A queued message: what the channel transmits. */
    struct TxJob
    {
        uint64_t msgId{0};               //!< message id
        Ptr<const D2dMessage> message;   //!< the message
        uint32_t dst{0};                 //!< receiver, D2D_BROADCAST or D2D_MULTICAST
        std::vector<uint32_t> receivers; //!< D2D_MULTICAST: the named receivers, ascending
        D2dDeliveryMode mode{D2dDeliveryMode::UNRELIABLE}; //!< delivery mode
        Time sendTime;                                     //!< when Send() was called
        Time sleepWait;       //!< DRX: time it waited for a sleeping radio so far
        Time sleepSince;      //!< DRX: when it was last examined (sleeping: waiting since)
        bool sleeping{false}; //!< DRX: it waits for a sleeping radio
    };

    // Called by D2dChannel only.
    /**
     * \brief The channel starts this radio's transmission (the radio is transmitting from
     * now on).
     * \param rateBps link rate (bit/s)
     * \param distanceM distance to the farthest receiver (m)
     */
    void BeginTx(double rateBps, double distanceM);
    /** \brief The channel ends this radio's transmission; the next one may start. */
    void EndTx();
    /**
     * \brief A reception starts at this radio.
     * \param rateBps link rate (bit/s)
     * \return false if the radio cannot receive (off, asleep, or transmitting when
     *         half-duplex)
     */
    bool BeginRx(double rateBps);
    /** \brief A reception that BeginRx accepted ends. \param rateBps its link rate */
    void EndRx(double rateBps);
    /** \param reception hand a received message to the protocol */
    void Deliver(const D2dReception& reception);
    /** \param record report one (message, receiver) outcome of a message this radio sent */
    void ReportDelivery(const D2dDeliveryRecord& record);
    /** \brief Report the end of a send (see D2dTransport::SendDoneCallback). */
    void ReportSendDone(uint64_t msgId, uint32_t dst, bool success);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /**
     * \brief Queue the message for channel access (D2dChannelAccess::Enqueue); aborts for
     * an unknown receiver.
     * \param msgId id allocated for this send
     * \param message the message
     * \param dst receiver index, D2D_BROADCAST or D2D_MULTICAST
     * \param receivers with D2D_MULTICAST: the named receivers (ascending); otherwise empty
     * \param mode delivery mode
     */
    void DoSend(uint64_t msgId,
                Ptr<const D2dMessage> message,
                uint32_t dst,
                const std::vector<uint32_t>& receivers,
                D2dDeliveryMode mode) override;
    /** \return a fresh message id from the channel's message registry */
    uint64_t AllocateMessageId() override;
    /**
     * \brief Withdraw a message still queued for channel access (rows with reason
     * "cancelled").
     * \param msgId the message id
     * \return true if it was queued and is withdrawn
     */
    bool DoCancel(uint64_t msgId) override;
    /**
     * \brief Switched off: stop the energy draw, end receptions, abort the ongoing
     * transmission and drop the queue ("sender_off").
     */
    void DoTurnOff() override;
    /**
     * \brief Back after Leave(): the radio draws its idle (or DRX sleep) power again and
     * takes receptions and messages.
     */
    void DoRejoin() override;
    /**
     * \brief Sleep until then (D2dDrx::SleepUntil, on the channel's DRX, made without a
     * cycle if the channel has none): messages for this radio wait until it is awake.
     * \param until after now
     */
    void DoIdleUntil(Time until) override;
    /** \brief Report the open transmissions and the queue ("unfinished") to the channel. */
    void DoReportUnfinished() override;

  private:
    /** \brief Report every queued message as never sent. \param reason why */
    void DropQueue(const std::string& reason);

    Ptr<D2dChannel> m_channel;         //!< the channel this radio is attached to
    Ptr<D2dRadioEnergyModel> m_energy; //!< charged for tx/rx (null: no energy)
    Ptr<MobilityModel> m_mobility;     //!< where the radio is (null for matrix RSS)
    double m_txPowerDbm;               //!< attribute TxPowerDbm: transmit power (dBm)
    bool m_halfDuplex;                 //!< attribute HalfDuplex: no reception while sending
    uint32_t m_receiveChains{0};       //!< receptions at once (0: the channel's sub-channels)
    bool m_transmitting{false};        //!< between BeginTx and EndTx (or DoTurnOff)
    uint32_t m_nRx{0};                 //!< ongoing receptions (BeginRx accepted, EndRx not yet)
    uint32_t m_offCount{0};            //!< DoTurnOff() calls (GetOffCount)
};

} // namespace ns3

#endif /* D2D_RADIO_H */
