/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-radio.h"

#include "d2d-channel-access.h"
#include "d2d-channel.h"
#include "d2d-drx.h"
#include "d2d-message-registry.h"
#include "d2d-radio-energy-model.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRadio");
NS_OBJECT_ENSURE_REGISTERED(D2dRadio);

TypeId
D2dRadio::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dRadio")
            .SetParent<D2dTransport>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dRadio>()
            .AddAttribute("TxPowerDbm",
                          "Transmit power, dBm.",
                          DoubleValue(20.0),
                          MakeDoubleAccessor(&D2dRadio::m_txPowerDbm),
                          MakeDoubleChecker<double>(-100.0, 60.0))
            .AddAttribute("HalfDuplex",
                          "A transmitting radio cannot receive, and waits for its ongoing "
                          "receptions to end before transmitting.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dRadio::m_halfDuplex),
                          MakeBooleanChecker())
            .AddAttribute("ReceiveChains",
                          "Receptions the radio can take part in at once with a finite "
                          "spectrum (D2dChannel SubChannels > 0; at most that many); 0: one "
                          "per sub-channel (unlimited with an unlimited spectrum).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dRadio::m_receiveChains),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

D2dRadio::D2dRadio()
{
    NS_LOG_FUNCTION(this);
}

D2dRadio::~D2dRadio()
{
    NS_LOG_FUNCTION(this);
}

void
D2dRadio::DoDispose()
{
    m_channel = nullptr;
    m_energy = nullptr;
    m_mobility = nullptr;
    D2dTransport::DoDispose();
}

void
D2dRadio::SetChannel(Ptr<D2dChannel> channel)
{
    m_channel = channel;
}

Ptr<D2dChannel>
D2dRadio::GetChannel() const
{
    return m_channel;
}

void
D2dRadio::SetEnergyModel(Ptr<D2dRadioEnergyModel> model)
{
    m_energy = model;
}

Ptr<D2dRadioEnergyModel>
D2dRadio::GetEnergyModel() const
{
    return m_energy;
}

void
D2dRadio::SetMobility(Ptr<MobilityModel> mobility)
{
    m_mobility = mobility;
}

Ptr<MobilityModel>
D2dRadio::GetMobility() const
{
    return m_mobility;
}

double
D2dRadio::GetTxPowerDbm() const
{
    return m_txPowerDbm;
}

bool
D2dRadio::IsTransmitting() const
{
    return m_transmitting;
}

uint32_t
D2dRadio::GetReceiveChains() const
{
    return m_receiveChains;
}

bool
D2dRadio::IsAwake() const
{
    Ptr<D2dDrx> drx = m_channel ? m_channel->GetDrx() : nullptr;
    return !drx || drx->IsAwake(GetIndex());
}

bool
D2dRadio::IsHalfDuplex() const
{
    return m_halfDuplex;
}

uint32_t
D2dRadio::GetNReceptions() const
{
    return m_nRx;
}

uint32_t
D2dRadio::GetOffCount() const
{
    return m_offCount;
}

std::size_t
D2dRadio::GetQueueLength() const
{
    return m_channel ? m_channel->GetAccess()->GetQueueLength(GetIndex()) : 0;
}

uint64_t
D2dRadio::AllocateMessageId()
{
    NS_ABORT_MSG_IF(!m_channel, "D2dRadio " << GetIndex() << " is not attached to a channel");
    return m_channel->GetMessageRegistry()->AllocateId();
}

void
D2dRadio::DoSend(uint64_t msgId,
                 Ptr<const D2dMessage> message,
                 uint32_t dst,
                 const std::vector<uint32_t>& receivers,
                 D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << msgId << dst);
    NS_ABORT_MSG_IF(dst != D2D_BROADCAST && dst != D2D_MULTICAST && !m_channel->GetRadio(dst),
                    "D2dRadio: device " << GetIndex() << " sends to unknown device " << dst);
    for (uint32_t r : receivers)
    {
        NS_ABORT_MSG_IF(!m_channel->GetRadio(r),
                        "D2dRadio: device " << GetIndex() << " sends to unknown device " << r);
    }
    m_channel->GetAccess()->Enqueue(this,
                                    TxJob{msgId, message, dst, receivers, mode, Simulator::Now()});
}

void
D2dRadio::BeginTx(double rateBps, double distanceM)
{
    m_transmitting = true;
    if (m_energy)
    {
        m_energy->NotifyTxStart(std::pow(10.0, (m_txPowerDbm - 30.0) / 10.0), rateBps, distanceM);
    }
}

void
D2dRadio::EndTx()
{
    NS_LOG_FUNCTION(this);
    m_transmitting = false;
    if (IsOff())
    {
        return;
    }
    if (m_energy)
    {
        m_energy->NotifyTxEnd();
    }
    if (Ptr<D2dDrx> drx = m_channel->GetDrx())
    {
        drx->Activity(GetIndex()); // its inactivity timer restarts
    }
    m_channel->GetAccess()->RadioFree(this);
}

bool
D2dRadio::BeginRx(double rateBps)
{
    if (IsOff() || (m_halfDuplex && m_transmitting) || !IsAwake())
    {
        return false;
    }
    ++m_nRx;
    if (m_energy)
    {
        m_energy->NotifyRxStart(rateBps);
    }
    return !IsOff(); // the rx draw may have emptied the battery
}

void
D2dRadio::EndRx(double rateBps)
{
    if (IsOff())
    {
        return;
    }
    NS_ASSERT(m_nRx > 0);
    --m_nRx;
    if (m_energy)
    {
        m_energy->NotifyRxEnd(rateBps);
    }
    if (Ptr<D2dDrx> drx = m_channel->GetDrx())
    {
        drx->Activity(GetIndex()); // its inactivity timer restarts
    }
    m_channel->GetAccess()->RadioFree(this);
}

void
D2dRadio::Deliver(const D2dReception& reception)
{
    NotifyReceive(reception);
}

void
D2dRadio::ReportDelivery(const D2dDeliveryRecord& record)
{
    NotifyDelivery(record);
}

void
D2dRadio::ReportSendDone(uint64_t msgId, uint32_t dst, bool success)
{
    NotifySendDone(msgId, dst, success);
}

void
D2dRadio::DropQueue(const std::string& reason)
{
    // Taken first: a trace sink may call Send while the rows are written.
    for (const auto& job : m_channel->GetAccess()->TakeQueue(GetIndex()))
    {
        m_channel->DropUnsent(this, job, reason);
    }
}

bool
D2dRadio::DoCancel(uint64_t msgId)
{
    D2dRadio::TxJob job;
    if (!m_channel || !m_channel->GetAccess()->Withdraw(GetIndex(), msgId, job))
    {
        return false;
    }
    m_channel->DropUnsent(this, job, "cancelled");
    return true;
}

void
D2dRadio::DoReportUnfinished()
{
    NS_LOG_FUNCTION(this << GetIndex());
    if (!m_channel)
    {
        return;
    }
    m_channel->ReportUnfinished(this);
    DropQueue("unfinished");
}

void
D2dRadio::DoIdleUntil(Time until)
{
    NS_LOG_FUNCTION(this << GetIndex() << until);
    if (m_channel && m_energy) // a radio without energy model (the server's) never sleeps
    {
        m_channel->GetOrCreateDrx()->SleepUntil(GetIndex(), until);
    }
}

void
D2dRadio::DoTurnOff()
{
    NS_LOG_FUNCTION(this << GetIndex());
    if (m_energy && !m_energy->IsDepleted())
    {
        m_energy->NotifyOff(); // switched off from outside: the radio draws nothing more
    }
    ++m_offCount;
    m_nRx = 0;
    if (m_channel)
    {
        m_channel->AbortTransmission(this);
        DropQueue("sender_off");
    }
    m_transmitting = false;
}

void
D2dRadio::DoRejoin()
{
    NS_LOG_FUNCTION(this << GetIndex());
    if (m_energy)
    {
        m_energy->NotifyOn();
    }
    if (m_channel)
    {
        if (Ptr<D2dDrx> drx = m_channel->GetDrx())
        {
            drx->Rejoined(GetIndex()); // its DRX state, kept while away, draws again
        }
    }
}

} // namespace ns3
