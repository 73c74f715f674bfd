/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-wifi-transport.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/qos-utils.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wifi-mac-queue.h"
#include "ns3/wifi-mac.h"
#include "ns3/wifi-mpdu.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"

#include <algorithm>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dWifiTransport");
NS_OBJECT_ENSURE_REGISTERED(D2dWifiFragmentHeader);
NS_OBJECT_ENSURE_REGISTERED(D2dWifiNetwork);
NS_OBJECT_ENSURE_REGISTERED(D2dWifiTransport);

namespace
{
/** IPv4 (20 bytes) plus UDP (8 bytes) headers, in bytes. */
constexpr uint32_t IP_UDP_HEADER_BYTES = 28;
} // namespace

// ---------------------------------------------------------------------------------------
// D2dWifiFragmentHeader
// ---------------------------------------------------------------------------------------

TypeId
D2dWifiFragmentHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dWifiFragmentHeader")
                            .SetParent<Header>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dWifiFragmentHeader>();
    return tid;
}

TypeId
D2dWifiFragmentHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
D2dWifiFragmentHeader::GetSerializedSize() const
{
    return 1 + 1 + 2 + 4 + 4 + 4 + 8 + 8;
}

void
D2dWifiFragmentHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(static_cast<uint8_t>(type));
    i.WriteU8(mode == D2dDeliveryMode::RELIABLE ? 1 : 0);
    i.WriteHtonU16(attempt);
    i.WriteHtonU32(src);
    i.WriteHtonU32(fragIndex);
    i.WriteHtonU32(fragCount);
    i.WriteHtonU64(msgId);
    i.WriteHtonU64(totalBytes);
}

uint32_t
D2dWifiFragmentHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    type = i.ReadU8() == ACK ? ACK : DATA;
    mode = i.ReadU8() == 1 ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    attempt = i.ReadNtohU16();
    src = i.ReadNtohU32();
    fragIndex = i.ReadNtohU32();
    fragCount = i.ReadNtohU32();
    msgId = i.ReadNtohU64();
    totalBytes = i.ReadNtohU64();
    return GetSerializedSize();
}

void
D2dWifiFragmentHeader::Print(std::ostream& os) const
{
    os << (type == ACK ? "ACK" : "DATA") << " msg=" << msgId << " src=" << src
       << " frag=" << fragIndex << "/" << fragCount << " bytes=" << totalBytes
       << " mode=" << ToString(mode) << " attempt=" << attempt;
}

// ---------------------------------------------------------------------------------------
// D2dWifiNetwork
// ---------------------------------------------------------------------------------------

TypeId
D2dWifiNetwork::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dWifiNetwork")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dWifiNetwork>();
    return tid;
}

D2dWifiNetwork::D2dWifiNetwork()
{
    NS_LOG_FUNCTION(this);
}

D2dWifiNetwork::~D2dWifiNetwork()
{
    NS_LOG_FUNCTION(this);
}

void
D2dWifiNetwork::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& entry : m_messages)
    {
        entry.second->senderTimer.Cancel();
        for (auto& rx : entry.second->rx)
        {
            rx.second.timer.Cancel();
        }
    }
    m_messages.clear();
    m_transports.clear();
    m_addresses.clear();
    m_registry = nullptr;
    Object::DoDispose();
}

void
D2dWifiNetwork::SetMessageRegistry(Ptr<D2dMessageRegistry> registry)
{
    m_registry = registry;
}

Ptr<D2dMessageRegistry>
D2dWifiNetwork::GetMessageRegistry()
{
    if (!m_registry)
    {
        m_registry = CreateObject<D2dMessageRegistry>();
    }
    return m_registry;
}

void
D2dWifiNetwork::AddTransport(Ptr<D2dWifiTransport> transport, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!transport, "D2dWifiNetwork::AddTransport: null transport");
    NS_ABORT_MSG_IF(transport->GetIndex() != m_transports.size(),
                    "D2dWifiNetwork::AddTransport: transport index "
                        << transport->GetIndex() << " but " << m_transports.size()
                        << " transports so far (indices must be 0, 1, 2, ...)");
    m_transports.push_back(transport);
    m_addresses.push_back(address);
}

uint32_t
D2dWifiNetwork::GetNTransports() const
{
    return static_cast<uint32_t>(m_transports.size());
}

Ptr<D2dWifiTransport>
D2dWifiNetwork::GetTransport(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_transports.size(),
                    "D2dWifiNetwork: no device " << index << " (" << m_transports.size()
                                                 << " devices)");
    return m_transports[index];
}

Ipv4Address
D2dWifiNetwork::GetAddress(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_addresses.size(),
                    "D2dWifiNetwork: no device " << index << " (" << m_addresses.size()
                                                 << " devices)");
    return m_addresses[index];
}

void
D2dWifiNetwork::SetBroadcastAddress(Ipv4Address address)
{
    m_broadcast = address;
}

Ipv4Address
D2dWifiNetwork::GetBroadcastAddress() const
{
    return m_broadcast;
}

void
D2dWifiNetwork::AddMessage(Ptr<MessageState> state)
{
    NS_ABORT_MSG_IF(m_messages.count(state->msgId) != 0,
                    "D2dWifiNetwork: message id " << state->msgId << " already in flight");
    m_messages[state->msgId] = state;
}

Ptr<D2dWifiNetwork::MessageState>
D2dWifiNetwork::FindMessage(uint64_t msgId) const
{
    auto it = m_messages.find(msgId);
    return it == m_messages.end() ? nullptr : it->second;
}

void
D2dWifiNetwork::RemoveMessage(uint64_t msgId)
{
    m_messages.erase(msgId);
    if (m_registry)
    {
        m_registry->Release(msgId);
    }
}

std::vector<uint64_t>
D2dWifiNetwork::GetMessageIds() const
{
    std::vector<uint64_t> ids;
    ids.reserve(m_messages.size());
    for (const auto& entry : m_messages)
    {
        ids.push_back(entry.first);
    }
    return ids;
}

std::size_t
D2dWifiNetwork::GetNInFlight() const
{
    return m_messages.size();
}

// ---------------------------------------------------------------------------------------
// D2dWifiTransport
// ---------------------------------------------------------------------------------------

TypeId
D2dWifiTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dWifiTransport")
            .SetParent<D2dTransport>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dWifiTransport>()
            .AddAttribute("Port",
                          "UDP port of the transport's socket (the same on every device).",
                          UintegerValue(9999),
                          MakeUintegerAccessor(&D2dWifiTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MtuBytes",
                          "Payload bytes per fragment (bytes); a message of B bytes is sent "
                          "as ceil(B / MtuBytes) packets. Must fit the device MTU with the "
                          "28 bytes of IP/UDP and 32 bytes of fragment header.",
                          UintegerValue(1400),
                          MakeUintegerAccessor(&D2dWifiTransport::m_mtuBytes),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("ReassemblyTimeout",
                          "Unreliable mode: a receiver delivers the fragments it has this "
                          "long after the last one arrived (time).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&D2dWifiTransport::m_reassemblyTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AckTimeout",
                          "Reliable mode: the whole message is retransmitted if no ACK came "
                          "this long after the MAC finished with its last fragment (time).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&D2dWifiTransport::m_ackTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRetransmissions",
                          "Reliable mode: end-to-end retransmissions of a message before the "
                          "send fails (count).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&D2dWifiTransport::m_maxRetransmissions),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("MaxQueuedPackets",
                          "Pacing: packets of this device kept in the Wi-Fi MAC queue at most "
                          "(packets); the next fragment goes to the socket when the MAC "
                          "releases one.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&D2dWifiTransport::m_maxQueuedPackets),
                          MakeUintegerChecker<uint32_t>(1, 400))
            .AddAttribute(
                "GroupJitter",
                "Each attempt of a broadcast or multicast waits a uniform random time in "
                "[0, GroupJitter) before it is queued (time; 0: none). 802.11 neither "
                "acknowledges nor retries group frames, and frames handed to idle MACs in the "
                "same instant go on the air at once and collide: the jitter spreads them so "
                "that carrier sensing separates them, as RFC 5148 (Clausen, Dearlove and "
                "Adamson, \"Jitter Considerations in Mobile Ad Hoc Networks\", 2008) "
                "recommends for MANET broadcasts. Default 10 ms: about 1,000 802.11a slots "
                "(9 us), so two senders start within one slot with probability about 0.2 %, "
                "and below RFC 5148's bound of half the message interval for the 100 ms "
                "steps of the belief consensus.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&D2dWifiTransport::m_groupJitter),
                MakeTimeChecker(Seconds(0), Seconds(10)));
    return tid;
}

D2dWifiTransport::D2dWifiTransport()
    : m_port(9999),
      m_mtuBytes(1400),
      m_maxRetransmissions(3),
      m_maxQueuedPackets(8),
      m_groupJitter(MilliSeconds(10)),
      m_jitter(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

int64_t
D2dWifiTransport::AssignStreams(int64_t stream)
{
    m_jitter->SetStream(stream);
    return 1;
}

void
D2dWifiTransport::QueueAttempt(Ptr<MessageState> state)
{
    const uint32_t attempt = state->attempt;
    if (state->txDst != D2D_BROADCAST || m_groupJitter.IsZero())
    {
        m_txQueue.push_back(TxItem{state->msgId, attempt, 0});
        SchedulePump();
        return;
    }
    const Time wait = NanoSeconds(static_cast<int64_t>(
        m_jitter->GetValue(0, static_cast<double>(m_groupJitter.GetNanoSeconds()))));
    m_jitterEvents[{state->msgId, attempt}] =
        Simulator::Schedule(wait, &D2dWifiTransport::JitterDone, this, state->msgId, attempt);
}

bool
D2dWifiTransport::DoCancel(uint64_t msgId)
{
    NS_LOG_FUNCTION(this << GetIndex() << msgId);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s || s->src != GetIndex() || s->senderDone || s->attempt != 0)
    {
        return false;
    }
    auto jitter = m_jitterEvents.find({msgId, 0});
    if (jitter != m_jitterEvents.end())
    {
        jitter->second.Cancel();
        m_jitterEvents.erase(jitter);
    }
    else
    {
        auto queued = std::find_if(m_txQueue.begin(), m_txQueue.end(), [msgId](const TxItem& t) {
            return t.msgId == msgId && t.attempt == 0;
        });
        if (queued == m_txQueue.end() || queued->next > 0)
        {
            return false; // on its way through the socket and the MAC
        }
        m_txQueue.erase(queued);
    }
    s->senderDone = true;
    for (auto& [r, rx] : s->rx)
    {
        CloseReceiver(s, r, false, "cancelled");
    }
    MaybeRelease(s);
    return true;
}

void
D2dWifiTransport::JitterDone(uint64_t msgId, uint32_t attempt)
{
    m_jitterEvents.erase({msgId, attempt});
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s || s->senderDone || s->attempt != attempt || IsOff())
    {
        return;
    }
    m_txQueue.push_back(TxItem{msgId, attempt, 0});
    SchedulePump();
}

D2dWifiTransport::~D2dWifiTransport()
{
    NS_LOG_FUNCTION(this);
}

void
D2dWifiTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pumpEvent.Cancel();
    for (auto& [key, event] : m_jitterEvents)
    {
        event.Cancel();
    }
    m_jitterEvents.clear();
    m_txQueue.clear();
    m_lastFragmentUids.clear();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr;
    }
    if (m_macQueue)
    {
        m_macQueue->TraceDisconnectWithoutContext(
            "Dequeue",
            MakeCallback(&D2dWifiTransport::MacQueueRelease, this));
        m_macQueue->TraceDisconnectWithoutContext(
            "DropBeforeEnqueue",
            MakeCallback(&D2dWifiTransport::MacQueueRelease, this));
        m_macQueue = nullptr;
    }
    m_device = nullptr;
    if (m_network)
    {
        // Breaks the transport <-> network reference cycle.
        Ptr<D2dWifiNetwork> network = m_network;
        m_network = nullptr;
        network->Dispose();
    }
    D2dTransport::DoDispose();
}

void
D2dWifiTransport::SetNetwork(Ptr<D2dWifiNetwork> network)
{
    m_network = network;
}

Ptr<D2dWifiNetwork>
D2dWifiTransport::GetNetwork() const
{
    return m_network;
}

void
D2dWifiTransport::SetDevice(Ptr<WifiNetDevice> device)
{
    m_device = device;
}

Ptr<WifiNetDevice>
D2dWifiTransport::GetDevice() const
{
    return m_device;
}

void
D2dWifiTransport::Start()
{
    NS_LOG_FUNCTION(this << GetIndex());
    NS_ABORT_MSG_IF(!GetNode(), "D2dWifiTransport::Start: no node (SetNode)");
    NS_ABORT_MSG_IF(!m_network, "D2dWifiTransport::Start: no network (SetNetwork)");
    NS_ABORT_MSG_IF(m_socket, "D2dWifiTransport::Start: already started");
    if (m_device)
    {
        const uint32_t need =
            m_mtuBytes + IP_UDP_HEADER_BYTES + D2dWifiFragmentHeader().GetSerializedSize();
        NS_ABORT_MSG_IF(need > m_device->GetMtu(),
                        "D2dWifiTransport: MtuBytes=" << m_mtuBytes << " needs " << need
                                                      << "-byte packets, the Wi-Fi MTU is "
                                                      << m_device->GetMtu() << " bytes");
        Ptr<WifiMac> mac = m_device->GetMac();
        m_macQueue = mac->GetTxopQueue(mac->GetQosSupported() ? AC_BE : AC_BE_NQOS);
        NS_ABORT_MSG_IF(!m_macQueue, "D2dWifiTransport: the Wi-Fi MAC has no best-effort queue");
        m_macQueue->TraceConnectWithoutContext(
            "Dequeue",
            MakeCallback(&D2dWifiTransport::MacQueueRelease, this));
        m_macQueue->TraceConnectWithoutContext(
            "DropBeforeEnqueue",
            MakeCallback(&D2dWifiTransport::MacQueueRelease, this));
    }
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    const int bound = m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    NS_ABORT_MSG_IF(bound != 0,
                    "D2dWifiTransport: device " << GetIndex() << " cannot bind UDP port "
                                                << m_port);
    m_socket->SetAllowBroadcast(true);
    m_socket->SetRecvCallback(MakeCallback(&D2dWifiTransport::HandleRead, this));
}

bool
D2dWifiTransport::CanLeave() const
{
    return false;
}

uint32_t
D2dWifiTransport::GetNFragments(uint64_t bytes) const
{
    if (bytes == 0)
    {
        return 1;
    }
    return static_cast<uint32_t>((bytes + m_mtuBytes - 1) / m_mtuBytes);
}

uint64_t
D2dWifiTransport::GetNPacketsSent() const
{
    return m_nSent;
}

uint64_t
D2dWifiTransport::GetNPacketsReceived() const
{
    return m_nReceived;
}

uint64_t
D2dWifiTransport::AllocateMessageId()
{
    NS_ABORT_MSG_IF(!m_network, "D2dWifiTransport: no network (use D2dWifiHelper::Install)");
    return m_network->GetMessageRegistry()->AllocateId();
}

void
D2dWifiTransport::DoSend(uint64_t msgId,
                         Ptr<const D2dMessage> message,
                         uint32_t dst,
                         const std::vector<uint32_t>& receivers,
                         D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << msgId << dst << receivers.size() << ToString(mode));
    NS_ABORT_MSG_IF(!m_socket, "D2dWifiTransport: device " << GetIndex() << " not started");
    const uint32_t n = m_network->GetNTransports();
    const bool multicast = dst == D2D_MULTICAST;
    NS_ABORT_MSG_IF(dst != D2D_BROADCAST && !multicast && dst >= n,
                    "D2dWifiTransport: destination " << dst << " does not exist (" << n
                                                     << " devices)");
    NS_ABORT_MSG_IF(multicast && receivers.size() < 2,
                    "D2dWifiTransport: a multicast names at least two receivers (device "
                        << GetIndex() << ", message " << msgId << ")");
    NS_ABORT_MSG_IF(!multicast && !receivers.empty(),
                    "D2dWifiTransport: a receiver list without D2D_MULTICAST (device "
                        << GetIndex() << ", message " << msgId << ")");
    for (uint32_t r : receivers)
    {
        NS_ABORT_MSG_IF(r >= n,
                        "D2dWifiTransport: multicast receiver " << r << " does not exist (" << n
                                                                << " devices)");
    }

    auto state = Create<MessageState>();
    state->msgId = msgId;
    state->message = message;
    state->src = GetIndex();
    state->dst = dst;
    // Broadcasts and multicasts go to the subnet broadcast address.
    state->txDst = multicast ? D2D_BROADCAST : dst;
    state->mode = mode;
    state->sendTime = Simulator::Now();
    state->fragments = GetNFragments(message->GetSizeBytes());
    for (uint32_t r = 0; r < n; ++r)
    {
        const bool named = multicast ? std::binary_search(receivers.begin(), receivers.end(), r)
                                     : (dst == D2D_BROADCAST || r == dst);
        if (r == GetIndex() || !named)
        {
            continue;
        }
        D2dWifiNetwork::RxState& rx = state->rx[r];
        rx.got.assign(state->fragments, false);
        ++state->nOpen;
    }
    m_network->GetMessageRegistry()->Register(msgId, message);
    m_network->AddMessage(state);
    QueueAttempt(state);
}

void
D2dWifiTransport::SchedulePump()
{
    if (!m_pumpEvent.IsExpired() || IsOff())
    {
        return;
    }
    m_pumpEvent = Simulator::ScheduleNow(&D2dWifiTransport::Pump, this);
}

uint32_t
D2dWifiTransport::FragmentPayload(const MessageState& state, uint32_t index) const
{
    const uint64_t size = state.message->GetSizeBytes();
    const uint64_t offset = static_cast<uint64_t>(index) * m_mtuBytes;
    if (offset >= size)
    {
        return 0;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(m_mtuBytes, size - offset));
}

void
D2dWifiTransport::DoIdleUntil(Time until)
{
    NS_LOG_FUNCTION(this << GetIndex() << until);
    m_idleUntil = until;
    TrySleep();
}

void
D2dWifiTransport::TrySleep()
{
    m_sleepRetry.Cancel();
    const Time now = Simulator::Now();
    Ptr<WifiPhy> phy = m_device ? m_device->GetPhy() : nullptr;
    if (IsOff() || !phy || !m_socket || now >= m_idleUntil || phy->IsStateSleep() ||
        !m_txQueue.empty() || !m_jitterEvents.empty() ||
        (m_macQueue && m_macQueue->GetNPackets() > 0))
    {
        return; // a packet leaving the MAC queue tries again (MacQueueRelease)
    }
    const uint32_t me = GetIndex();
    for (uint64_t id : m_network->GetMessageIds())
    {
        Ptr<MessageState> s = m_network->FindMessage(id);
        if (s && s->src == me && !s->senderDone)
        {
            return; // it would miss its own ACKs
        }
    }
    if (!(phy->IsStateIdle() || phy->IsStateCcaBusy()))
    {
        // Sending, receiving or switching: once that is over.
        m_sleepRetry =
            Simulator::Schedule(phy->GetDelayUntilIdle(), &D2dWifiTransport::TrySleep, this);
        return;
    }
    NS_LOG_LOGIC("device " << me << " puts its Wi-Fi PHY to sleep until "
                           << m_idleUntil.As(Time::S));
    phy->SetSleepMode();
    m_wakeEvent.Cancel();
    m_wakeEvent = Simulator::Schedule(m_idleUntil - now, &D2dWifiTransport::Wake, this);
}

void
D2dWifiTransport::Wake()
{
    m_wakeEvent.Cancel();
    Ptr<WifiPhy> phy = m_device ? m_device->GetPhy() : nullptr;
    if (!IsOff() && phy && phy->IsStateSleep())
    {
        NS_LOG_LOGIC("device " << GetIndex() << " wakes its Wi-Fi PHY");
        phy->ResumeFromSleep();
    }
}

void
D2dWifiTransport::Pump()
{
    NS_LOG_FUNCTION(this << GetIndex());
    if (!m_wakeEvent.IsExpired() && !m_txQueue.empty())
    {
        Wake(); // asleep (DoIdleUntil) with something to send: wake first
    }
    while (!IsOff() && m_socket && !m_txQueue.empty() &&
           (!m_macQueue || m_macQueue->GetNPackets() < m_maxQueuedPackets))
    {
        TxItem& item = m_txQueue.front();
        Ptr<MessageState> s = m_network->FindMessage(item.msgId);
        if (!s || s->senderDone || item.attempt != s->attempt)
        {
            m_txQueue.pop_front(); // acknowledged, failed or superseded
            continue;
        }
        const uint32_t index = item.next++;
        const uint32_t attempt = item.attempt;
        const bool last = index + 1 == s->fragments;
        if (last)
        {
            m_txQueue.pop_front();
        }

        D2dWifiFragmentHeader h;
        h.type = D2dWifiFragmentHeader::DATA;
        h.mode = s->mode;
        h.attempt = static_cast<uint16_t>(attempt);
        h.src = GetIndex();
        h.fragIndex = index;
        h.fragCount = s->fragments;
        h.msgId = s->msgId;
        h.totalBytes = s->message->GetSizeBytes();
        Ptr<Packet> p = Create<Packet>(FragmentPayload(*s, index));
        p->AddHeader(h);
        if (attempt > 0)
        {
            ++s->retransmissions;
        }
        const Ipv4Address to = s->txDst == D2D_BROADCAST ? m_network->GetBroadcastAddress()
                                                         : m_network->GetAddress(s->txDst);
        const uint64_t uid = p->GetUid();
        if (last && m_macQueue)
        {
            m_lastFragmentUids[uid] = std::make_pair(s->msgId, attempt);
        }
        NS_LOG_LOGIC("device " << GetIndex() << " sends " << h << " to " << to);
        const int sent = m_socket->SendTo(p, 0, InetSocketAddress(to, m_port));
        ++m_nSent;
        if (sent < 0)
        {
            NS_LOG_WARN("device " << GetIndex() << ": socket refused fragment " << index
                                  << " of message " << s->msgId);
        }
        if (last && (sent < 0 || !m_macQueue))
        {
            // Without a MAC queue to watch (or if the packet never reached it) the attempt
            // counts as on the air now.
            m_lastFragmentUids.erase(uid);
            Simulator::ScheduleNow(&D2dWifiTransport::AttemptOnAir, this, s->msgId, attempt);
        }
        if (last && s->mode == D2dDeliveryMode::UNRELIABLE)
        {
            s->senderDone = true;
            NotifySendDone(s->msgId, s->dst, true);
            MaybeRelease(s);
        }
    }
}

void
D2dWifiTransport::MacQueueRelease(Ptr<const WifiMpdu> mpdu)
{
    auto it = m_lastFragmentUids.find(mpdu->GetPacket()->GetUid());
    if (it != m_lastFragmentUids.end())
    {
        const auto attempt = it->second;
        m_lastFragmentUids.erase(it);
        Simulator::ScheduleNow(&D2dWifiTransport::AttemptOnAir,
                               this,
                               attempt.first,
                               attempt.second);
    }
    SchedulePump();
    if (m_idleUntil > Simulator::Now())
    {
        // Asked to sleep while busy: try again once the MAC queue has let this packet go.
        m_sleepRetry.Cancel();
        m_sleepRetry = Simulator::ScheduleNow(&D2dWifiTransport::TrySleep, this);
    }
}

void
D2dWifiTransport::AttemptOnAir(uint64_t msgId, uint32_t attempt)
{
    NS_LOG_FUNCTION(this << msgId << attempt);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s || IsOff())
    {
        return;
    }
    if (s->mode == D2dDeliveryMode::UNRELIABLE)
    {
        s->airDone = true;
        s->senderTimer.Cancel();
        s->senderTimer = Simulator::Schedule(m_reassemblyTimeout,
                                             &D2dWifiTransport::FinishUnreliable,
                                             this,
                                             msgId);
    }
    else if (!s->senderDone && attempt == s->attempt)
    {
        s->senderTimer.Cancel();
        s->senderTimer =
            Simulator::Schedule(m_ackTimeout, &D2dWifiTransport::AckExpired, this, msgId);
    }
}

void
D2dWifiTransport::HandleRead(Ptr<Socket> socket)
{
    Address from;
    Ptr<Packet> p;
    while ((p = socket->RecvFrom(from)))
    {
        ++m_nReceived;
        D2dWifiFragmentHeader h;
        if (IsOff() || !m_network || p->GetSize() < h.GetSerializedSize())
        {
            continue;
        }
        p->RemoveHeader(h);
        if (h.src == GetIndex())
        {
            continue; // own broadcast
        }
        if (h.type == D2dWifiFragmentHeader::ACK)
        {
            ReceiveAck(h);
        }
        else
        {
            ReceiveData(h);
        }
    }
}

void
D2dWifiTransport::ReceiveData(const D2dWifiFragmentHeader& h)
{
    NS_LOG_FUNCTION(this << GetIndex() << h.msgId << h.fragIndex);
    Ptr<MessageState> s = m_network->FindMessage(h.msgId);
    if (!s)
    {
        NS_LOG_LOGIC("device " << GetIndex() << ": late fragment of message " << h.msgId);
        return;
    }
    auto it = s->rx.find(GetIndex());
    if (it == s->rx.end() || h.fragIndex >= s->fragments)
    {
        return;
    }
    D2dWifiNetwork::RxState& rx = it->second;
    const bool reliable = s->mode == D2dDeliveryMode::RELIABLE;
    if (rx.closed)
    {
        // A retransmission of a message this device already delivered: its ACK was lost.
        if (reliable && rx.delivered && static_cast<int32_t>(h.attempt) > rx.ackedAttempt)
        {
            rx.ackedAttempt = h.attempt;
            SendAck(*s, h.attempt);
        }
        return;
    }
    if (!rx.got[h.fragIndex])
    {
        rx.got[h.fragIndex] = true;
        ++rx.nGot;
    }
    if (rx.nGot == s->fragments)
    {
        if (reliable)
        {
            rx.ackedAttempt = h.attempt;
            SendAck(*s, h.attempt);
        }
        CloseReceiver(s, GetIndex(), true, "");
        MaybeRelease(s);
    }
    else if (!reliable)
    {
        rx.timer.Cancel();
        rx.timer = Simulator::Schedule(m_reassemblyTimeout,
                                       &D2dWifiTransport::ReassemblyExpired,
                                       this,
                                       h.msgId);
    }
}

void
D2dWifiTransport::SendAck(const MessageState& state, uint32_t attempt)
{
    if (IsOff() || !m_socket)
    {
        return;
    }
    D2dWifiFragmentHeader h;
    h.type = D2dWifiFragmentHeader::ACK;
    h.mode = state.mode;
    h.attempt = static_cast<uint16_t>(attempt);
    h.src = GetIndex();
    h.fragCount = state.fragments;
    h.msgId = state.msgId;
    h.totalBytes = state.message->GetSizeBytes();
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(h);
    NS_LOG_LOGIC("device " << GetIndex() << " acknowledges message " << state.msgId);
    m_socket->SendTo(p, 0, InetSocketAddress(m_network->GetAddress(state.src), m_port));
    ++m_nSent;
}

void
D2dWifiTransport::ReceiveAck(const D2dWifiFragmentHeader& h)
{
    NS_LOG_FUNCTION(this << GetIndex() << h.msgId);
    Ptr<MessageState> s = m_network->FindMessage(h.msgId);
    if (!s || s->src != GetIndex() || s->senderDone)
    {
        return;
    }
    auto it = s->rx.find(h.src); // for a unicast: h.src == s->dst
    if (it == s->rx.end())
    {
        return;
    }
    it->second.acked = true;
    if (s->IsMultiReceiver())
    {
        FinishIfNoneAwaited(s);
        return;
    }
    s->senderDone = true;
    s->senderTimer.Cancel();
    NotifySendDone(s->msgId, s->dst, true);
    MaybeRelease(s);
}

void
D2dWifiTransport::ReassemblyExpired(uint64_t msgId)
{
    NS_LOG_FUNCTION(this << GetIndex() << msgId);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s)
    {
        return;
    }
    auto it = s->rx.find(GetIndex());
    if (it != s->rx.end() && !it->second.closed)
    {
        CloseReceiver(s, GetIndex(), it->second.nGot > 0, "");
    }
    MaybeRelease(s);
}

void
D2dWifiTransport::FinishUnreliable(uint64_t msgId)
{
    NS_LOG_FUNCTION(this << msgId);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s)
    {
        return;
    }
    for (auto& entry : s->rx)
    {
        if (!entry.second.closed)
        {
            CloseReceiver(s, entry.first, entry.second.nGot > 0, "");
        }
    }
    MaybeRelease(s);
}

void
D2dWifiTransport::AckExpired(uint64_t msgId)
{
    NS_LOG_FUNCTION(this << GetIndex() << msgId);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s || s->senderDone || IsOff())
    {
        return;
    }
    if (s->IsMultiReceiver() && FinishIfNoneAwaited(s))
    {
        return;
    }
    if (s->attempt < m_maxRetransmissions)
    {
        ++s->attempt;
        if (s->IsMultiReceiver())
        {
            // Two or more receivers left: a broadcast again; one: a unicast (MAC retries).
            const std::vector<uint32_t> awaited = AwaitedReceivers(*s);
            NS_ASSERT(!awaited.empty());
            s->txDst = awaited.size() == 1 ? awaited[0] : D2D_BROADCAST;
        }
        NS_LOG_LOGIC("device " << GetIndex() << ": no ACK for message " << msgId
                               << ", retransmission " << s->attempt << " to "
                               << (s->txDst == D2D_BROADCAST ? std::string("broadcast")
                                                             : std::to_string(s->txDst)));
        QueueAttempt(s);
        return;
    }
    s->senderDone = true;
    for (auto& entry : s->rx)
    {
        if (!entry.second.closed)
        {
            CloseReceiver(s, entry.first, false, "");
        }
    }
    NotifySendDone(s->msgId, s->dst, false);
    MaybeRelease(s);
}

std::vector<uint32_t>
D2dWifiTransport::AwaitedReceivers(const MessageState& state) const
{
    std::vector<uint32_t> awaited;
    for (const auto& [r, rx] : state.rx) // std::map: ascending
    {
        if (!rx.acked && !(rx.closed && !rx.delivered) && !m_network->GetTransport(r)->IsOff())
        {
            awaited.push_back(r);
        }
    }
    return awaited;
}

bool
D2dWifiTransport::FinishIfNoneAwaited(Ptr<MessageState> state)
{
    NS_ASSERT(state->src == GetIndex() && state->IsMultiReceiver() &&
              state->mode == D2dDeliveryMode::RELIABLE);
    if (state->senderDone)
    {
        return true;
    }
    if (!AwaitedReceivers(*state).empty())
    {
        return false;
    }
    state->senderDone = true;
    state->senderTimer.Cancel();
    bool success = true;
    for (auto& [r, rx] : state->rx)
    {
        if (!rx.closed)
        {
            CloseReceiver(state, r, false, ""); // off: "receiver_off"
        }
        success = success && (rx.acked || rx.delivered);
    }
    NS_LOG_LOGIC("device " << GetIndex() << ": message " << state->msgId << " awaits no receiver, "
                           << (success ? "success" : "failure"));
    NotifySendDone(state->msgId, state->dst, success);
    MaybeRelease(state);
    return true;
}

void
D2dWifiTransport::CheckAwaited(uint64_t msgId)
{
    NS_LOG_FUNCTION(this << GetIndex() << msgId);
    Ptr<MessageState> s = m_network ? m_network->FindMessage(msgId) : nullptr;
    if (!s || s->src != GetIndex() || IsOff())
    {
        return;
    }
    FinishIfNoneAwaited(s);
}

void
D2dWifiTransport::CloseReceiver(Ptr<MessageState> state,
                                uint32_t receiver,
                                bool delivered,
                                std::string reason)
{
    D2dWifiNetwork::RxState& rx = state->rx.at(receiver);
    if (rx.closed)
    {
        return;
    }
    Ptr<D2dWifiTransport> rxTransport = m_network->GetTransport(receiver);
    Ptr<D2dWifiTransport> txTransport = m_network->GetTransport(state->src);
    const bool reliable = state->mode == D2dDeliveryMode::RELIABLE;
    if (delivered && rxTransport->IsOff())
    {
        delivered = false;
        reason = "receiver_off";
    }
    if (!delivered && reason.empty())
    {
        reason = rxTransport->IsOff() ? "receiver_off" : (reliable ? "retry_limit" : "loss");
    }
    rx.closed = true;
    rx.delivered = delivered;
    rx.timer.Cancel();
    NS_ASSERT(state->nOpen > 0);
    --state->nOpen;

    D2dDeliveryRecord rec;
    rec.msgId = state->msgId;
    rec.kind = state->message->GetKind();
    rec.src = state->src;
    rec.dst = receiver;
    rec.bytes = state->message->GetSizeBytes();
    rec.mode = state->mode;
    rec.sendTime = state->sendTime;
    rec.recvTime = Simulator::Now();
    rec.fragments = state->fragments;
    // A reception that failed as a whole (the run ended first, ...) lost every fragment, as
    // messages.csv documents for every backend; otherwise those that did not arrive.
    rec.fragmentsLost = !delivered && (reason == "unfinished" || reason == "receiver_off" ||
                                       reason == "sender_off" || reason == "cancelled")
                            ? state->fragments
                            : state->fragments - rx.nGot;
    rec.retransmissions = reliable ? state->retransmissions : 0;
    rec.delivered = delivered;
    rec.dropProbability = 0.0; // no eq. (18) model at packet level
    rec.reason = delivered ? "" : reason;
    rec.lastRow = state->nOpen == 0; // every receiver's outcome is known
    NS_LOG_LOGIC("message " << rec.msgId << " " << rec.src << "->" << rec.dst
                            << (delivered ? " delivered" : " failed: " + rec.reason) << " ("
                            << rx.nGot << "/" << state->fragments << " fragments)");
    txTransport->NotifyDelivery(rec);

    if (delivered)
    {
        D2dReception reception;
        reception.msgId = state->msgId;
        reception.src = state->src;
        reception.dst = receiver;
        reception.message = m_network->GetMessageRegistry()->Lookup(state->msgId);
        NS_ASSERT_MSG(reception.message, "message " << state->msgId << " not in the registry");
        reception.mode = state->mode;
        reception.fragments = state->fragments;
        reception.fragmentsReceived = rx.nGot;
        reception.sendTime = state->sendTime;
        reception.recvTime = Simulator::Now();
        rxTransport->NotifyReceive(reception);
    }
}

void
D2dWifiTransport::MaybeRelease(Ptr<MessageState> state)
{
    if (!m_network || !state->senderDone || state->nOpen != 0 ||
        m_network->FindMessage(state->msgId) != state)
    {
        return;
    }
    state->senderTimer.Cancel();
    m_network->RemoveMessage(state->msgId);
}

void
D2dWifiTransport::DoTurnOff()
{
    NS_LOG_FUNCTION(this << GetIndex());
    m_pumpEvent.Cancel();
    m_wakeEvent.Cancel();
    m_sleepRetry.Cancel();
    for (auto& [key, event] : m_jitterEvents)
    {
        event.Cancel();
    }
    m_jitterEvents.clear();
    m_txQueue.clear();
    m_lastFragmentUids.clear();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
    if (m_device && m_device->GetPhy())
    {
        if (m_nSent == 0 && m_nReceived == 0)
        {
            // Nothing of this transport ever reached the MAC or came from it (a radio the
            // protocol never uses, switched off at time 0): nothing can be in flight, so the
            // PHY goes off and draws nothing, as an off radio on the channel.
            m_device->GetPhy()->SetOffMode();
        }
        else
        {
            // Sleep, not WifiPhy::SetOffMode(): in ns-3.37 the latter flushes the MAC queue
            // and crashes when an MPDU is in flight. A sleeping PHY neither sends nor
            // receives (it draws SleepCurrentA, reported as idle).
            m_device->GetPhy()->SetSleepMode();
        }
    }
    if (!m_network)
    {
        return;
    }
    const uint32_t me = GetIndex();
    for (uint64_t id : m_network->GetMessageIds())
    {
        Ptr<MessageState> s = m_network->FindMessage(id);
        if (!s)
        {
            continue;
        }
        if (s->src == me)
        {
            const bool unreliable = s->mode == D2dDeliveryMode::UNRELIABLE;
            if (!s->senderDone || (unreliable && !s->airDone))
            {
                s->senderDone = true;
                s->senderTimer.Cancel();
                for (auto& entry : s->rx)
                {
                    // A receiver holding fragments of an unreliable message still delivers
                    // them at its reassembly timeout.
                    if (!entry.second.closed && !(unreliable && entry.second.nGot > 0))
                    {
                        CloseReceiver(s, entry.first, false, "sender_off");
                    }
                }
            }
        }
        else
        {
            auto it = s->rx.find(me);
            if (it != s->rx.end() && !it->second.closed)
            {
                CloseReceiver(s, me, false, "receiver_off");
            }
            // A reliable broadcast or multicast stops awaiting this receiver: its sender
            // ends the send now if no other receiver is awaited (an event of its own, not
            // a send-done from inside this device's TurnOff()).
            if (it != s->rx.end() && s->mode == D2dDeliveryMode::RELIABLE && s->IsMultiReceiver() &&
                !s->senderDone)
            {
                Simulator::ScheduleNow(&D2dWifiTransport::CheckAwaited,
                                       m_network->GetTransport(s->src),
                                       id);
            }
        }
        MaybeRelease(s);
    }
}

void
D2dWifiTransport::DoReportUnfinished()
{
    NS_LOG_FUNCTION(this << GetIndex());
    // Called after Simulator::Run() returned: nothing here schedules an event.
    m_pumpEvent.Cancel();
    // Every queued attempt belongs to a message whose state is in the network from
    // DoSend() on (or was released already, with its records written): the loop below
    // writes their records.
    m_txQueue.clear();
    m_lastFragmentUids.clear();
    if (!m_network)
    {
        return;
    }
    const uint32_t me = GetIndex();
    for (uint64_t id : m_network->GetMessageIds()) // increasing ids: deterministic rows
    {
        Ptr<MessageState> s = m_network->FindMessage(id);
        if (!s || s->src != me)
        {
            continue;
        }
        s->senderDone = true;
        s->senderTimer.Cancel();
        for (auto& entry : s->rx)
        {
            // CloseReceiver skips receivers already closed (one record per pair), cancels
            // the reassembly timer and counts fragmentsLost = fragments - distinct got.
            entry.second.timer.Cancel();
            if (!entry.second.closed)
            {
                CloseReceiver(s, entry.first, false, "unfinished");
            }
        }
        NS_ASSERT(s->nOpen == 0);
        m_network->RemoveMessage(id);
    }
}

} // namespace ns3
