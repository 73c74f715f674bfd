/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-channel.h"

#include "d2d-message-registry.h"
#include "propagation-rss-model.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/random/binomial_distribution.hpp>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dChannel");
NS_OBJECT_ENSURE_REGISTERED(D2dChannel);

namespace
{
/** A uniform random bit generator on an ns-3 RNG stream, for Boost distributions. */
struct StreamUrbg
{
    using result_type = uint32_t;
    Ptr<UniformRandomVariable> stream;

    static constexpr result_type min()
    {
        return 0;
    }

    static constexpr result_type max()
    {
        return 0xFFFFFFFFu;
    }

    result_type operator()()
    {
        return static_cast<result_type>(stream->GetValue(0.0, 4294967296.0));
    }
};
} // namespace

/** One receiver of a transmission. */
struct D2dChannel::Receiver
{
    Ptr<D2dRadio> radio;
    uint32_t index{0};
    double pDrop{0.0};     //!< P_D of the link when the transmission started
    Time prop;             //!< propagation delay
    bool heard{true};      //!< RSS above the receiver's sensitivity
    bool started{false};   //!< BeginRx accepted the reception
    bool ended{false};     //!< RxEnd ran
    bool delivered{false}; //!< the outcome
    std::string failReason;
    uint32_t lost{0};      //!< fast path: fragments lost (reliable: still missing at the end)
    uint32_t received{0};  //!< per-fragment path: fragments arrived
    std::vector<bool> has; //!< per-fragment path, reliable: fragments already received
    EventId startEvent;
};

/** One transmission of one message by one radio. */
struct D2dChannel::Transmission : public SimpleRefCount<D2dChannel::Transmission>
{
    Ptr<D2dRadio> sender;
    D2dRadio::TxJob job;
    bool reliable{false};
    bool fastPath{true};
    uint32_t fragments{0};
    double bitsFull{0}; //!< bits on the air of a full fragment
    double bitsLast{0}; //!< bits on the air of the last fragment
    double bitsSent{0}; //!< per-fragment path: bits sent so far
    Time start;         //!< when the transmission started
    uint32_t nEnded{0}; //!< receivers whose outcome is reported
    double rateBps{0.0};
    std::vector<Receiver> rx;
    EventId txEndEvent;
    bool aborted{false};
    uint32_t retransmissions{0}; //!< reliable: fragment retransmissions
    uint64_t fragmentTransmissions{0};
    Time airtime;
    // per-fragment path state
    std::vector<uint32_t> roundList;
    std::vector<uint32_t> nextList;
    std::size_t pos{0};
    uint32_t round{0};
    EventId fragmentEvent;

    double FragmentBits(uint32_t f) const
    {
        return f + 1 == fragments ? bitsLast : bitsFull;
    }

    /** \return when the given number of bits has been sent: one rounding, no drift */
    Time AfterBits(double bits) const
    {
        return start + Seconds(bits / rateBps);
    }
};

TypeId
D2dChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dChannel")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dChannel>()
            .AddAttribute("SpectralEfficiency",
                          "Rate of transmission r of eq. (18), bit/s/Hz.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&D2dChannel::m_spectralEfficiency),
                          MakeDoubleChecker<double>(1e-9, 64.0))
            .AddAttribute("BandwidthHz",
                          "Channel bandwidth, Hz; the link rate is r x BandwidthHz bit/s.",
                          DoubleValue(10e6),
                          MakeDoubleAccessor(&D2dChannel::m_bandwidthHz),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("NoisePowerW",
                          "Noise power sigma^2 of eq. (18), W.",
                          DoubleValue(1e-13),
                          MakeDoubleAccessor(&D2dChannel::m_noisePowerW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("MtuBytes",
                          "Fragment payload size, bytes.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&D2dChannel::m_mtuBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FragmentHeaderBytes",
                          "Per-fragment header sent on the air, bytes.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dChannel::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxSensitivityW",
                          "Links whose RSS is at or below this are not heard at all: they "
                          "deliver nothing (P_D = 1) and do not occupy the receiver, W.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dChannel::m_rxSensitivityW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("MaxRetransmissions",
                          "Reliable mode: retransmissions allowed per fragment.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&D2dChannel::m_maxRetransmissions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FastPath",
                          "Draw loss and retransmission counts per message (O(1) events) "
                          "instead of scheduling every fragment.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dChannel::m_fastPath),
                          MakeBooleanChecker())
            .AddAttribute("FixedDistanceM",
                          "If > 0, every link has this length whatever the positions "
                          "(device-to-server link), m.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dChannel::m_fixedDistanceM),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("RssModel",
                          "The RSS model W_ij (default PropagationRssModel).",
                          PointerValue(),
                          MakePointerAccessor(&D2dChannel::m_rss),
                          MakePointerChecker<D2dRssModel>())
            .AddAttribute("PropagationDelayModel",
                          "The propagation delay model (default constant speed of light).",
                          PointerValue(),
                          MakePointerAccessor(&D2dChannel::m_delay),
                          MakePointerChecker<PropagationDelayModel>())
            .AddTraceSource("Transmission",
                            "A transmission ended at the sender: (msgId, sender, fragment "
                            "transmissions, airtime).",
                            MakeTraceSourceAccessor(&D2dChannel::m_transmissionTrace),
                            "ns3::D2dChannel::TransmissionTracedCallback");
    return tid;
}

D2dChannel::D2dChannel()
    : m_rss(CreateObject<PropagationRssModel>()),
      m_delay(CreateObject<ConstantSpeedPropagationDelayModel>()),
      m_registry(CreateObject<D2dMessageRegistry>()),
      m_uniform(CreateObject<UniformRandomVariable>()),
      m_fixedA(CreateObject<ConstantPositionMobilityModel>()),
      m_fixedB(CreateObject<ConstantPositionMobilityModel>())
{
    NS_LOG_FUNCTION(this);
}

D2dChannel::~D2dChannel()
{
    NS_LOG_FUNCTION(this);
}

void
D2dChannel::DoDispose()
{
    ReleaseTransmissions();
    m_radios.clear();
    m_current.clear();
    m_rss = nullptr;
    m_delay = nullptr;
    m_registry = nullptr;
    m_uniform = nullptr;
    m_fixedA = nullptr;
    m_fixedB = nullptr;
    Object::DoDispose();
}

void
D2dChannel::Attach(Ptr<D2dRadio> radio)
{
    const uint32_t index = radio->GetIndex();
    if (index >= m_radios.size())
    {
        m_radios.resize(index + 1);
        m_current.resize(index + 1);
    }
    NS_ABORT_MSG_IF(m_radios[index], "D2dChannel: two radios with index " << index);
    m_radios[index] = radio;
    radio->SetChannel(this);
    if (!m_releaseScheduled)
    {
        // Radios refer to their channel and the channel to them, transmissions to their
        // events and events to them: dispose of the channel with the simulator.
        Simulator::ScheduleDestroy(&D2dChannel::DisposeAtDestroy, Ptr<D2dChannel>(this));
        m_releaseScheduled = true;
    }
}

void
D2dChannel::DisposeAtDestroy()
{
    Dispose();
}

uint32_t
D2dChannel::GetNRadios() const
{
    return static_cast<uint32_t>(
        std::count_if(m_radios.begin(), m_radios.end(), [](const auto& r) { return bool(r); }));
}

Ptr<D2dRadio>
D2dChannel::GetRadio(uint32_t index) const
{
    return index < m_radios.size() ? m_radios[index] : nullptr;
}

void
D2dChannel::SetMessageRegistry(Ptr<D2dMessageRegistry> registry)
{
    m_registry = registry;
}

Ptr<D2dMessageRegistry>
D2dChannel::GetMessageRegistry() const
{
    return m_registry;
}

void
D2dChannel::SetRssModel(Ptr<D2dRssModel> model)
{
    m_rss = model;
}

Ptr<D2dRssModel>
D2dChannel::GetRssModel() const
{
    return m_rss;
}

double
D2dChannel::GetRateBps() const
{
    return m_spectralEfficiency * m_bandwidthHz;
}

uint32_t
D2dChannel::GetMtuBytes() const
{
    return m_mtuBytes;
}

uint32_t
D2dChannel::GetNFragments(uint64_t bytes) const
{
    const uint64_t n = (bytes + m_mtuBytes - 1) / m_mtuBytes;
    NS_ABORT_MSG_IF(n > 0xFFFFFFFFull, "D2dChannel: message of " << bytes << " bytes too large");
    return static_cast<uint32_t>(std::max<uint64_t>(n, 1));
}

Time
D2dChannel::GetAirtime(uint64_t bytes) const
{
    const uint32_t n = GetNFragments(bytes);
    const uint64_t lastPayload = bytes - static_cast<uint64_t>(n - 1) * m_mtuBytes;
    const double bits = (static_cast<double>(n - 1) * (m_mtuBytes + m_headerBytes) +
                         static_cast<double>(lastPayload + m_headerBytes)) *
                        8.0;
    return Seconds(bits / GetRateBps());
}

double
D2dChannel::DropProbability(double rssW, double spectralEfficiency, double noisePowerW)
{
    if (rssW <= 0)
    {
        return 1.0;
    }
    // Seed 002, eq. (18)/(19): P_D(i, j) = 1 - exp(-(2^r - 1) sigma^2 / W_ij).
    return 1.0 - std::exp(-(std::exp2(spectralEfficiency) - 1.0) * noisePowerW / rssW);
}

Ptr<MobilityModel>
D2dChannel::MobilityOf(uint32_t index, bool isReceiver) const
{
    if (m_fixedDistanceM > 0)
    {
        m_fixedB->SetPosition(Vector(m_fixedDistanceM, 0, 0));
        return isReceiver ? m_fixedB : m_fixedA;
    }
    return m_radios[index]->GetMobility();
}

double
D2dChannel::GetRssW(uint32_t rx, uint32_t tx) const
{
    NS_ABORT_MSG_IF(!GetRadio(rx) || !GetRadio(tx),
                    "D2dChannel: no radio " << (GetRadio(rx) ? tx : rx));
    return m_rss->GetRssW(rx,
                          tx,
                          MobilityOf(rx, true),
                          MobilityOf(tx, false),
                          m_radios[tx]->GetTxPowerDbm());
}

double
D2dChannel::GetDropProbability(uint32_t rx, uint32_t tx) const
{
    return LinkDropProbability(GetRssW(rx, tx));
}

double
D2dChannel::LinkDropProbability(double rssW) const
{
    // A link at or below the receiver's sensitivity is not heard at all; otherwise eq. (18).
    return rssW <= m_rxSensitivityW ? 1.0
                                    : DropProbability(rssW, m_spectralEfficiency, m_noisePowerW);
}

D2dChannel::Receiver
D2dChannel::MakeReceiver(Ptr<D2dRadio> radio, uint32_t sender) const
{
    Receiver r;
    r.radio = radio;
    r.index = radio->GetIndex();
    const double rss = GetRssW(r.index, sender);
    // Not heard: it delivers nothing, costs the receiver no energy, does not occupy its radio.
    r.heard = rss > m_rxSensitivityW;
    r.pDrop = LinkDropProbability(rss);
    r.prop = GetPropagationDelay(r.index, sender);
    return r;
}

double
D2dChannel::GetDistanceM(uint32_t rx, uint32_t tx) const
{
    auto a = MobilityOf(rx, true);
    auto b = MobilityOf(tx, false);
    return (a && b) ? a->GetDistanceFrom(b) : 0.0;
}

Time
D2dChannel::GetPropagationDelay(uint32_t rx, uint32_t tx) const
{
    auto a = MobilityOf(rx, true);
    auto b = MobilityOf(tx, false);
    return (a && b && m_delay) ? m_delay->GetDelay(b, a) : Time(0);
}

int64_t
D2dChannel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    int64_t used = 1;
    used += m_rss->AssignStreams(stream + used);
    return used;
}

uint64_t
D2dChannel::Binomial(uint64_t n, double p)
{
    if (n == 0 || p <= 0)
    {
        return 0;
    }
    if (p >= 1)
    {
        return n;
    }
    StreamUrbg urbg{m_uniform};
    boost::random::binomial_distribution<int64_t, double> dist(static_cast<int64_t>(n), p);
    return static_cast<uint64_t>(dist(urbg));
}

std::vector<Ptr<D2dRadio>>
D2dChannel::Receivers(Ptr<D2dRadio> sender, uint32_t dst) const
{
    std::vector<Ptr<D2dRadio>> out;
    if (dst == D2D_BROADCAST)
    {
        for (const auto& radio : m_radios)
        {
            if (radio && radio != sender)
            {
                out.push_back(radio);
            }
        }
    }
    else
    {
        NS_ABORT_MSG_IF(!GetRadio(dst),
                        "D2dChannel: device " << sender->GetIndex() << " sends to unknown device "
                                              << dst);
        out.push_back(m_radios[dst]);
    }
    return out;
}

void
D2dChannel::StartTransmission(Ptr<D2dRadio> sender, const D2dRadio::TxJob& job)
{
    NS_LOG_FUNCTION(this << sender->GetIndex() << job.msgId);
    const uint32_t s = sender->GetIndex();
    auto tx = Create<Transmission>();
    tx->sender = sender;
    tx->job = job;
    tx->reliable = job.mode == D2dDeliveryMode::RELIABLE;
    tx->fastPath = m_fastPath;
    tx->rateBps = GetRateBps();
    const uint64_t bytes = job.message->GetSizeBytes();
    tx->fragments = GetNFragments(bytes);
    const uint64_t lastPayload = bytes - static_cast<uint64_t>(tx->fragments - 1) * m_mtuBytes;
    tx->bitsFull = (m_mtuBytes + m_headerBytes) * 8.0;
    tx->bitsLast = (lastPayload + m_headerBytes) * 8.0;
    tx->start = Simulator::Now();

    double maxDistance = 0.0;
    for (const auto& radio : Receivers(sender, job.dst))
    {
        Receiver r = MakeReceiver(radio, s);
        if (r.heard)
        {
            maxDistance = std::max(maxDistance, GetDistanceM(r.index, s));
        }
        tx->rx.push_back(r);
    }
    m_live[tx->job.msgId] = tx;
    m_current[s] = tx;
    sender->BeginTx(tx->rateBps, maxDistance);
    if (tx->aborted) // the transmit draw emptied the sender's battery
    {
        return;
    }
    for (std::size_t k = 0; k < tx->rx.size(); ++k)
    {
        tx->rx[k].startEvent =
            Simulator::Schedule(tx->rx[k].prop, &D2dChannel::RxStart, this, tx, k);
    }

    if (tx->fastPath)
    {
        if (!tx->reliable)
        {
            // Each fragment is lost independently with P_D: the count is Binomial(F, P_D).
            for (auto& r : tx->rx)
            {
                r.lost = static_cast<uint32_t>(Binomial(tx->fragments, r.pDrop));
            }
            tx->fragmentTransmissions = tx->fragments;
            tx->airtime =
                tx->AfterBits(tx->bitsFull * (tx->fragments - 1) + tx->bitsLast) - tx->start;
        }
        else
        {
            DrawReliableOutcome(tx);
        }
        tx->txEndEvent = Simulator::Schedule(tx->airtime, &D2dChannel::TxEnd, this, tx);
    }
    else
    {
        if (tx->reliable)
        {
            for (auto& r : tx->rx)
            {
                r.has.assign(tx->fragments, false);
            }
        }
        tx->roundList.resize(tx->fragments);
        for (uint32_t f = 0; f < tx->fragments; ++f)
        {
            tx->roundList[f] = f;
        }
        SendNextFragment(tx);
    }
}

void
D2dChannel::DrawReliableOutcome(Ptr<Transmission> tx)
{
    // Selective-repeat ARQ in rounds: a fragment is sent again in the next round while a
    // receiver lacks it, at most MaxRetransmissions times. Receiver r gets each
    // transmission with probability 1 - p_r, so the number T of transmissions a fragment
    // needs has P(T <= t) = prod_r (1 - p_r^t); fragments are independent. The counts of
    // fragments needing t = 1, 2, ... transmissions are drawn as a chain of binomials
    // (exact), the last (short) fragment apart so that the airtime is exact.
    const uint32_t maxTx = m_maxRetransmissions + 1;
    std::vector<double> cdf(maxTx + 1, 0.0); // cdf[t] = P(T <= t)
    for (uint32_t t = 1; t <= maxTx; ++t)
    {
        double all = 1.0;
        for (const auto& r : tx->rx)
        {
            all *= 1.0 - std::pow(r.pDrop, t);
        }
        cdf[t] = all;
    }
    // Returns (transmissions, fragments that failed) of n fragments.
    auto draw = [this, &cdf, maxTx](uint64_t n) {
        uint64_t transmissions = 0;
        for (uint32_t t = 1; t <= maxTx && n > 0; ++t)
        {
            const double survive = 1.0 - cdf[t - 1];
            const double q =
                survive > 0 ? std::clamp((cdf[t] - cdf[t - 1]) / survive, 0.0, 1.0) : 1.0;
            const uint64_t done = Binomial(n, q); // need exactly t transmissions
            transmissions += done * t;
            n -= done;
        }
        return std::make_pair(transmissions + n * maxTx, n);
    };
    const auto [fullTx, fullFailed] = draw(tx->fragments - 1);
    const auto [lastTx, lastFailed] = draw(1);
    tx->fragmentTransmissions = fullTx + lastTx;
    tx->retransmissions = static_cast<uint32_t>(tx->fragmentTransmissions - tx->fragments);
    tx->airtime = tx->AfterBits(tx->bitsFull * fullTx + tx->bitsLast * lastTx) - tx->start;

    // Who misses each failed fragment: receiver r misses it with q_r = p_r^maxTx,
    // independently, given that at least one does. Draw the first receiver that misses it
    // (P(k) proportional to q_k prod_{j<k} (1 - q_j)), then the others independently.
    const uint64_t failed = fullFailed + lastFailed;
    if (failed == 0)
    {
        return;
    }
    std::vector<double> q(tx->rx.size());
    std::vector<double> first(tx->rx.size());
    double none = 1.0;
    for (std::size_t k = 0; k < tx->rx.size(); ++k)
    {
        q[k] = std::pow(tx->rx[k].pDrop, maxTx);
        first[k] = q[k] * none;
        none *= 1.0 - q[k];
    }
    const double total = 1.0 - none;
    for (uint64_t f = 0; f < failed; ++f)
    {
        double u = m_uniform->GetValue() * total;
        std::size_t k = 0;
        while (k + 1 < tx->rx.size() && u >= first[k])
        {
            u -= first[k];
            ++k;
        }
        tx->rx[k].lost++;
        for (std::size_t j = k + 1; j < tx->rx.size(); ++j)
        {
            if (m_uniform->GetValue() < q[j])
            {
                tx->rx[j].lost++;
            }
        }
    }
}

void
D2dChannel::SendNextFragment(Ptr<Transmission> tx)
{
    const uint32_t f = tx->roundList[tx->pos];
    const Time end = tx->AfterBits(tx->bitsSent + tx->FragmentBits(f));
    tx->fragmentEvent =
        Simulator::Schedule(end - Simulator::Now(), &D2dChannel::FragmentSent, this, tx);
}

void
D2dChannel::FragmentSent(Ptr<Transmission> tx)
{
    if (tx->aborted)
    {
        return;
    }
    tx->fragmentEvent = EventId(); // fired: break the tx -> event -> tx reference cycle
    const uint32_t f = tx->roundList[tx->pos++];
    tx->fragmentTransmissions++;
    tx->bitsSent += tx->FragmentBits(f);
    tx->airtime = Simulator::Now() - tx->start;
    bool someoneMissing = false;
    for (std::size_t k = 0; k < tx->rx.size(); ++k)
    {
        Receiver& r = tx->rx[k];
        if (tx->reliable && r.has[f])
        {
            continue; // a receiver that has the fragment ignores its retransmission
        }
        const bool lost = m_uniform->GetValue() < r.pDrop;
        if (!lost)
        {
            if (tx->reliable)
            {
                r.has[f] = true;
            }
            Simulator::Schedule(r.prop, &D2dChannel::FragmentArrived, this, tx, k);
        }
        else
        {
            someoneMissing = true;
        }
    }
    if (tx->reliable && someoneMissing)
    {
        tx->nextList.push_back(f); // sent again in the next round
    }
    if (tx->pos < tx->roundList.size())
    {
        SendNextFragment(tx);
        return;
    }
    // End of an ARQ round (the only round in unreliable mode).
    if (tx->reliable && !tx->nextList.empty() && tx->round < m_maxRetransmissions)
    {
        tx->round++;
        tx->retransmissions += static_cast<uint32_t>(tx->nextList.size());
        tx->roundList.swap(tx->nextList);
        tx->nextList.clear();
        tx->pos = 0;
        SendNextFragment(tx);
        return;
    }
    TxEnd(tx);
}

void
D2dChannel::FragmentArrived(Ptr<Transmission> tx, std::size_t k)
{
    if (!tx->aborted)
    {
        tx->rx[k].received++;
    }
}

void
D2dChannel::TxEnd(Ptr<Transmission> tx)
{
    NS_LOG_FUNCTION(this << tx->job.msgId);
    tx->txEndEvent = EventId(); // fired: break the tx -> event -> tx reference cycle
    tx->fragmentEvent = EventId();
    if (tx->aborted)
    {
        return;
    }
    const uint32_t s = tx->sender->GetIndex();
    if (m_current[s] == tx)
    {
        m_current[s] = nullptr;
    }
    m_transmissionTrace(tx->job.msgId, s, tx->fragmentTransmissions, tx->airtime);
    if (tx->rx.empty())
    {
        m_live.erase(tx->job.msgId);
    }
    for (std::size_t k = 0; k < tx->rx.size(); ++k)
    {
        Simulator::Schedule(tx->rx[k].prop, &D2dChannel::RxEnd, this, tx, k);
    }
    if (tx->reliable)
    {
        // The last acknowledgement comes back one propagation delay after delivery.
        Time maxProp;
        for (const auto& r : tx->rx)
        {
            maxProp = std::max(maxProp, r.prop);
        }
        Simulator::Schedule(maxProp * 2, &D2dChannel::ReliableAck, this, tx);
    }
    else
    {
        tx->sender->ReportSendDone(tx->job.msgId, tx->job.dst, true);
    }
    tx->sender->EndTx(); // may start the sender's next transmission
}

void
D2dChannel::ReliableAck(Ptr<Transmission> tx)
{
    if (tx->aborted)
    {
        return;
    }
    const bool all =
        std::all_of(tx->rx.begin(), tx->rx.end(), [](const Receiver& r) { return r.delivered; });
    tx->sender->ReportSendDone(tx->job.msgId, tx->job.dst, all);
}

void
D2dChannel::RxStart(Ptr<Transmission> tx, std::size_t k)
{
    Receiver& r = tx->rx[k];
    r.startEvent = EventId(); // fired: break the tx -> event -> tx reference cycle
    if (!r.heard)
    {
        return; // nothing arrives, the receiver's radio is not involved
    }
    if (r.radio->IsOff())
    {
        r.failReason = "receiver_off";
    }
    else if (!r.radio->BeginRx(tx->rateBps))
    {
        r.failReason = r.radio->IsOff() ? "receiver_off" : "half_duplex";
    }
    else
    {
        r.started = true;
    }
}

void
D2dChannel::RxEnd(Ptr<Transmission> tx, std::size_t k)
{
    Receiver& r = tx->rx[k];
    if (tx->aborted || r.ended)
    {
        return; // already reported (sender off, or unfinished at an earlier stop)
    }
    r.ended = true;
    if (r.started && !r.radio->IsOff())
    {
        r.radio->EndRx(tx->rateBps);
    }
    if (r.failReason.empty() && r.radio->IsOff())
    {
        r.failReason = "receiver_off";
    }
    uint32_t received = 0;
    if (!tx->fastPath)
    {
        received = r.received;
    }
    else
    {
        received = tx->fragments - r.lost;
    }
    if (!r.failReason.empty())
    {
        received = 0;
    }
    r.received = received;
    r.delivered = r.failReason.empty() && (tx->reliable ? received == tx->fragments : received > 0);
    std::string reason = r.failReason;
    if (!r.delivered && reason.empty())
    {
        reason = tx->reliable ? "retry_limit" : "loss";
    }
    Report(tx, r, r.delivered, reason);
    if (r.delivered)
    {
        D2dReception reception;
        reception.msgId = tx->job.msgId;
        reception.src = tx->sender->GetIndex();
        reception.dst = r.index;
        reception.message = tx->job.message;
        reception.mode = tx->job.mode;
        reception.fragments = tx->fragments;
        reception.fragmentsReceived = received;
        reception.sendTime = tx->job.sendTime;
        reception.recvTime = Simulator::Now();
        r.radio->Deliver(reception);
    }
}

void
D2dChannel::Report(Ptr<Transmission> tx, Receiver& r, bool delivered, const std::string& reason)
{
    D2dDeliveryRecord rec;
    rec.msgId = tx->job.msgId;
    rec.kind = tx->job.message->GetKind();
    rec.src = tx->sender->GetIndex();
    rec.dst = r.index;
    rec.bytes = tx->job.message->GetSizeBytes();
    rec.mode = tx->job.mode;
    rec.sendTime = tx->job.sendTime;
    rec.recvTime = Simulator::Now();
    rec.fragments = tx->fragments;
    rec.fragmentsLost = tx->fragments - r.received;
    rec.retransmissions = tx->reliable ? tx->retransmissions : 0;
    rec.delivered = delivered;
    rec.dropProbability = r.pDrop;
    rec.reason = reason;
    tx->sender->ReportDelivery(rec);
    if (++tx->nEnded == tx->rx.size())
    {
        m_live.erase(tx->job.msgId); // every receiver's outcome is known
    }
}

void
D2dChannel::AbortTransmission(Ptr<D2dRadio> sender)
{
    const uint32_t s = sender->GetIndex();
    if (s >= m_current.size() || !m_current[s])
    {
        return;
    }
    Ptr<Transmission> tx = m_current[s];
    m_current[s] = nullptr;
    tx->aborted = true;
    CancelEvents(tx);
    m_live.erase(tx->job.msgId); // (also when it has no receiver to report)
    for (auto& r : tx->rx)
    {
        if (r.started && !r.ended && !r.radio->IsOff())
        {
            r.radio->EndRx(tx->rateBps);
        }
        r.received = 0;
        Report(tx, r, false, "sender_off");
    }
}

void
D2dChannel::ReportUnfinished(Ptr<D2dRadio> sender)
{
    NS_LOG_FUNCTION(this << sender->GetIndex());
    const uint32_t s = sender->GetIndex();
    std::vector<Ptr<Transmission>> mine; // in msgId order: m_live is ordered
    for (const auto& [id, tx] : m_live)
    {
        if (tx->sender == sender)
        {
            mine.push_back(tx);
        }
    }
    for (auto& tx : mine)
    {
        tx->aborted = true; // nothing of it may happen any more
        CancelEvents(tx);
        if (s < m_current.size() && m_current[s] == tx)
        {
            m_current[s] = nullptr;
        }
        for (auto& r : tx->rx)
        {
            if (!r.ended)
            {
                r.ended = true;
                r.received = 0;
                Report(tx, r, false, "unfinished");
            }
        }
        m_live.erase(tx->job.msgId);
    }
}

void
D2dChannel::CancelEvents(Ptr<Transmission> tx)
{
    tx->txEndEvent.Cancel();
    tx->txEndEvent = EventId();
    tx->fragmentEvent.Cancel();
    tx->fragmentEvent = EventId();
    for (auto& r : tx->rx)
    {
        r.startEvent.Cancel();
        r.startEvent = EventId();
    }
}

void
D2dChannel::ReleaseTransmissions()
{
    for (auto& [id, tx] : m_live)
    {
        CancelEvents(tx);
    }
    m_live.clear();
    std::fill(m_current.begin(), m_current.end(), nullptr);
}

void
D2dChannel::DropUnsent(Ptr<D2dRadio> sender, const D2dRadio::TxJob& job, const std::string& reason)
{
    auto tx = Create<Transmission>();
    tx->sender = sender;
    tx->job = job;
    tx->reliable = job.mode == D2dDeliveryMode::RELIABLE;
    tx->fragments = GetNFragments(job.message->GetSizeBytes());
    for (const auto& radio : Receivers(sender, job.dst))
    {
        Receiver r = MakeReceiver(radio, sender->GetIndex());
        Report(tx, r, false, reason);
    }
}

} // namespace ns3
