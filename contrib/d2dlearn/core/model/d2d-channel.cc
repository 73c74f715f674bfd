/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-channel.h"

#include "constant-rss-model.h"
#include "d2d-fragment-rounds.h"
#include "d2d-message-registry.h"
#include "d2d-spectrum.h"
#include "d2d-thermal-noise.h"
#include "dynamic-rss-model.h"
#include "matrix-rss-model.h"
#include "propagation-rss-model.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/random/binomial_distribution.hpp>
#include <cmath>
#include <limits>

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
    double pDrop{0.0};         //!< P_D of the link when the transmission started
    double rssW{0.0};          //!< W_ij when the transmission started (W)
    double interferenceW{0.0}; //!< co-channel interference I when it started (W)
    Time prop;                 //!< propagation delay
    bool reserved{false};      //!< channel access holds the receiver until its outcome
    bool started{false};       //!< BeginRx accepted the reception
    uint32_t offCount{0};      //!< the radio's GetOffCount() when the reception started
    bool ended{false};         //!< RxEnd ran
    bool delivered{false};     //!< the outcome
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
    double bitsFull{0};         //!< bits on the air of a full fragment
    double bitsLast{0};         //!< bits on the air of the last fragment
    double bitsSent{0};         //!< per-fragment path: bits sent so far
    Time start;                 //!< when the transmission started
    uint32_t nEnded{0};         //!< receivers whose outcome is reported
    bool reserved{false};       //!< channel access holds the sender until every outcome
    bool someOutOfRange{false}; //!< a named receiver does not hear (reliable: a failure)
    double rateBps{0.0};
    bool onAir{false};                 //!< it went on the air (start and airtime hold)
    std::vector<uint32_t> subChannels; //!< finite spectrum: the sub-channels it occupies
    bool occupying{false};             //!< it holds its sub-channels (until TxEnd)
    std::vector<Receiver> rx;
    EventId txEndEvent;
    bool aborted{false};
    uint32_t retransmissions{0}; //!< reliable: fragment retransmissions
    uint64_t fragmentTransmissions{0};
    Time airtime;
    D2dFragmentRounds arq; //!< per-fragment path: the ARQ rounds' fragments
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
            .SetParent<D2dLinkQuality>()
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
            .AddAttribute("NoiseModel",
                          "sigma^2 of eq. (18): Constant (NoisePowerW) or Thermal (k T0 B F, B "
                          "the bandwidth a transmission occupies, F the NoiseFigureDb).",
                          EnumValue(D2dChannel::CONSTANT_NOISE),
                          D2dMakeEnumAccessor(&D2dChannel::m_noiseModel),
                          MakeEnumChecker(D2dChannel::CONSTANT_NOISE,
                                          "Constant",
                                          D2dChannel::THERMAL_NOISE,
                                          "Thermal"))
            .AddAttribute("NoiseFigureDb",
                          "Receiver noise figure NF of the Thermal noise model, dB.",
                          DoubleValue(9.0),
                          MakeDoubleAccessor(&D2dChannel::m_noiseFigureDb),
                          MakeDoubleChecker<double>(0.0, 40.0))
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
                          "are no receivers (no row for a broadcast, out_of_range for a "
                          "named receiver), W.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dChannel::m_rxSensitivityW),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("RangeM",
                          "Hearing range, m (0: no limit). With positions a receiver "
                          "hears when closer than this; with an RSS matrix or dynamic RSS "
                          "when W_ij exceeds the default propagation model's RSS at this "
                          "distance. Ignored by a channel with FixedDistanceM; D2dHelper "
                          "makes its D2S channels with 0.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dChannel::m_rangeM),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("AccessPolicy",
                          "When a queued message goes on the air: Immediate (raw radios, "
                          "FIFO; a reception that starts while its receiver transmits is "
                          "lost) or Scheduled (an ideal MAC with spatial reuse: a message "
                          "starts when its sender is idle and none of the receivers that "
                          "hear it is sending; no half-duplex loss).",
                          EnumValue(D2dChannelAccess::IMMEDIATE),
                          D2dMakeEnumAccessor(&D2dChannel::m_policy),
                          MakeEnumChecker(D2dChannelAccess::IMMEDIATE,
                                          "Immediate",
                                          D2dChannelAccess::SCHEDULED,
                                          "Scheduled"))
            .AddAttribute("SubChannels",
                          "Sub-channels K the band is divided into (OFDMA resource blocks, "
                          "Wagle et al. 2025, App. C): a transmission occupies "
                          "SubChannelsPerTransmission of them for its airtime, at the rate r x "
                          "BandwidthHz x SubChannelsPerTransmission / K; a receiver receives at "
                          "most K at once (D2dRadio::ReceiveChains). 0: unlimited, every link "
                          "the whole band whatever else is on the air (the literal reading).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dChannel::m_subChannels),
                          MakeUintegerChecker<uint32_t>(0, 100000))
            .AddAttribute("SubChannelsPerTransmission",
                          "Sub-channels one transmission occupies, 1 to SubChannels (with "
                          "a finite spectrum).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dChannel::m_perTransmission),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("Interference",
                          "With a finite spectrum: transmissions on the same sub-channel that a "
                          "receiver hears add their RSS to the noise of eq. (18), "
                          "P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W_ij), I evaluated when a "
                          "transmission starts (per fragment on the per-fragment path); false: "
                          "the interference-free reading (I = 0).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dChannel::m_interference),
                          MakeBooleanChecker())
            .AddAttribute(
                "SpectrumReuse",
                "With a finite spectrum and Scheduled access, which transmissions "
                "may share a sub-channel: None (one at a time on this channel: a "
                "cell) or Hearing (two, when no receiver of one hears the other's "
                "transmitter within ReuseDistanceM).",
                EnumValue(D2dSpectrum::NONE),
                D2dMakeEnumAccessor(&D2dChannel::m_reuse),
                MakeEnumChecker(D2dSpectrum::NONE, "None", D2dSpectrum::HEARING, "Hearing"))
            .AddAttribute("ReuseDistanceM",
                          "SpectrumReuse Hearing: a receiver this far or farther from a "
                          "co-channel transmitter does not keep it off its sub-channel (its "
                          "power still counts in I), m; 0: hearing alone decides.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dChannel::m_reuseDistanceM),
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
                          "If > 0, every link has this length whatever the positions (the "
                          "equal-length device-to-server links of Wagle et al. 2025, sec. "
                          "VI-G); 0: each link as long as its radios are apart now, m.",
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
      m_fixedEnds(CreateObject<ConstantPositionMobilityModel>(),
                  CreateObject<ConstantPositionMobilityModel>())
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
    m_fixedEnds = {nullptr, nullptr};
    if (m_drx)
    {
        m_drx->Dispose();
        m_drx = nullptr;
    }
    if (m_access)
    {
        m_access->Dispose();
        m_access = nullptr;
    }
    if (m_spectrum)
    {
        m_spectrum->Dispose();
        m_spectrum = nullptr;
    }
    m_rangeReference = RangeReference();
    m_neighbourCache.Clear();
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
    if (m_drx)
    {
        m_drx->AddRadio(index);
    }
    m_neighbourCache.staticLinks = -1; // a new radio: what is known of the links is stale
    InvalidateNeighbours();
    if (m_neighbourCache.courseChangeConnected && radio->GetMobility())
    {
        // The others' positions are watched already (IsStatic()): watch this one's too, or a
        // move of it would leave the neighbour lists stale.
        radio->GetMobility()->TraceConnectWithoutContext(
            "CourseChange",
            MakeCallback(&D2dChannel::PositionChanged, this));
    }
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

std::vector<Ptr<D2dTransport>>
D2dChannel::GetTransports() const
{
    return std::vector<Ptr<D2dTransport>>(m_radios.begin(), m_radios.end());
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
    m_neighbourCache.staticLinks = -1;
    InvalidateNeighbours();
}

void
D2dChannel::SetDrx(Ptr<D2dDrx> drx)
{
    NS_ABORT_MSG_IF(m_drx, "D2dChannel::SetDrx: the channel has a DRX already");
    m_drx = drx;
    drx->Setup(this);
}

Ptr<D2dDrx>
D2dChannel::GetDrx() const
{
    return m_drx;
}

Ptr<D2dDrx>
D2dChannel::GetOrCreateDrx()
{
    if (!m_drx)
    {
        Ptr<D2dDrx> drx = CreateObject<D2dDrx>();
        drx->SetAttribute("Cycle", TimeValue(Seconds(0)));
        SetDrx(drx);
    }
    return m_drx;
}

Ptr<D2dChannelAccess>
D2dChannel::GetAccess()
{
    if (!m_access)
    {
        m_access = CreateObject<D2dChannelAccess>();
        m_access->Setup(this, m_policy);
    }
    return m_access;
}

Ptr<D2dSpectrum>
D2dChannel::GetSpectrum()
{
    if (!m_spectrum)
    {
        m_spectrum = CreateObject<D2dSpectrum>();
        m_spectrum->Setup(this, m_subChannels, m_perTransmission, m_reuse, m_reuseDistanceM);
    }
    return m_spectrum;
}

bool
D2dChannel::IsSpectrumFinite() const
{
    return m_subChannels > 0;
}

uint32_t
D2dChannel::GetReceiveChains(uint32_t index) const
{
    const uint32_t own = m_radios[index]->GetReceiveChains();
    if (m_subChannels == 0)
    {
        return own == 0 ? std::numeric_limits<uint32_t>::max() : own;
    }
    return own == 0 ? m_subChannels : std::min(own, m_subChannels);
}

Ptr<D2dRssModel>
D2dChannel::GetRssModel() const
{
    return m_rss;
}

double
D2dChannel::GetRateBps() const
{
    return m_spectralEfficiency * m_bandwidthHz * BandShare(m_subChannels, m_perTransmission);
}

double
D2dChannel::BandShare(uint32_t subChannels, uint32_t perTransmission)
{
    // A transmission's share of the band: m of K sub-channels (all of it if unlimited).
    return subChannels == 0
               ? 1.0
               : static_cast<double>(std::min(perTransmission, subChannels)) / subChannels;
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
    // Eq. (18) of Wagle et al. 2025 (eq. (19) in its App. C):
    // P_D(i, j) = 1 - exp(-(2^r - 1) sigma^2 / W_ij); with co-channel interference the
    // caller passes sigma^2 + I (the SINR form, D2dChannel::LinkDropProbability).
    return 1.0 - std::exp(-(std::exp2(spectralEfficiency) - 1.0) * noisePowerW / rssW);
}

Ptr<MobilityModel>
D2dChannel::MobilityOf(uint32_t index, bool isReceiver) const
{
    if (m_fixedDistanceM > 0)
    {
        m_fixedEnds.second->SetPosition(Vector(m_fixedDistanceM, 0, 0));
        return isReceiver ? m_fixedEnds.second : m_fixedEnds.first;
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
    // A link that is not heard delivers nothing; otherwise eq. (18).
    return Hears(rx, tx) ? LinkDropProbability(GetRssW(rx, tx)) : 1.0;
}

uint32_t
D2dChannel::GetLinkState(uint32_t rx, uint32_t tx) const
{
    return DynamicRssModel::StateOf(m_rss, rx, tx);
}

bool
D2dChannel::IsDynamic() const
{
    return DynamicCast<DynamicRssModel>(m_rss) != nullptr;
}

double
D2dChannel::LinkDropProbability(double rssW, double interferenceW) const
{
    // Eq. (18) with the co-channel interference I added to the noise:
    // P_D = 1 - exp(-(2^r - 1)(sigma^2 + I) / W_ij); I = 0 gives eq. (18) as written.
    return DropProbability(rssW, m_spectralEfficiency, GetNoisePowerW() + interferenceW);
}

double
D2dChannel::GetOccupiedBandwidthHz() const
{
    return m_bandwidthHz * BandShare(m_subChannels, m_perTransmission);
}

double
D2dChannel::GetNoisePowerW() const
{
    return m_noiseModel == THERMAL_NOISE
               ? D2dThermalNoise::PowerW(GetOccupiedBandwidthHz(), m_noiseFigureDb)
               : m_noisePowerW;
}

bool
D2dChannel::UsesPositions() const
{
    // A constant RSS carries no distance: its range is cut by distance too.
    return m_fixedDistanceM <= 0 &&
           (DynamicCast<PropagationRssModel>(m_rss) || DynamicCast<ConstantRssModel>(m_rss));
}

double
D2dChannel::GetRangeThresholdW(double txPowerDbm) const
{
    return m_rangeReference.ThresholdW(txPowerDbm, m_rangeM);
}

double
D2dChannel::RangeReference::ThresholdW(double txPowerDbm, double rangeM)
{
    auto it = thresholdsW.find(txPowerDbm);
    if (it != thresholdsW.end())
    {
        return it->second;
    }
    // The default propagation model (ns-3 log-distance) at RangeM, for this power.
    if (!model)
    {
        model = CreateObject<PropagationRssModel>();
    }
    auto a = CreateObject<ConstantPositionMobilityModel>();
    auto b = CreateObject<ConstantPositionMobilityModel>();
    b->SetPosition(Vector(rangeM, 0, 0));
    const double w = model->GetRssW(0, 1, a, b, txPowerDbm);
    thresholdsW[txPowerDbm] = w;
    return w;
}

bool
D2dChannel::Hears(uint32_t rx, uint32_t tx) const
{
    if (m_rangeM > 0 && m_fixedDistanceM <= 0 && UsesPositions() &&
        GetDistanceM(rx, tx) >= m_rangeM)
    {
        return false; // out of range
    }
    const double rss = GetRssW(rx, tx);
    if (rss <= m_rxSensitivityW)
    {
        return false;
    }
    if (m_rangeM > 0 && m_fixedDistanceM <= 0 && !UsesPositions())
    {
        return rss > GetRangeThresholdW(m_radios[tx]->GetTxPowerDbm());
    }
    return true;
}

double
D2dChannel::GetHearingDistanceM() const
{
    return m_rangeM > 0 && UsesPositions() ? m_rangeM : 0.0;
}

bool
D2dChannel::IsStatic()
{
    if (m_neighbourCache.staticLinks >= 0)
    {
        return m_neighbourCache.staticLinks == 1;
    }
    bool fixed = m_fixedDistanceM > 0 || DynamicCast<MatrixRssModel>(m_rss);
    if (!fixed && UsesPositions())
    {
        // Positions that change only when set: a set position is announced (CourseChange).
        fixed = std::all_of(m_radios.begin(), m_radios.end(), [](const Ptr<D2dRadio>& r) {
            return !r || DynamicCast<ConstantPositionMobilityModel>(r->GetMobility());
        });
        if (fixed && !m_neighbourCache.courseChangeConnected)
        {
            for (const auto& r : m_radios)
            {
                if (r && r->GetMobility())
                {
                    r->GetMobility()->TraceConnectWithoutContext(
                        "CourseChange",
                        MakeCallback(&D2dChannel::PositionChanged, this));
                }
            }
            m_neighbourCache.courseChangeConnected = true;
        }
    }
    m_neighbourCache.staticLinks = fixed ? 1 : 0;
    return fixed;
}

void
D2dChannel::PositionChanged(Ptr<const MobilityModel>)
{
    InvalidateNeighbours();
}

void
D2dChannel::InvalidateNeighbours()
{
    m_neighbourCache.Invalidate();
}

namespace
{
/** \return the key of the RangeM grid cell (cx, cy) */
int64_t
CellKey(int64_t cx, int64_t cy)
{
    return (cx << 32) ^ (cy & 0xFFFFFFFF);
}
} // namespace

void
D2dChannel::NeighbourCache::Invalidate()
{
    neighboursKnown.assign(neighboursKnown.size(), false);
    gridKnown = false;
}

void
D2dChannel::NeighbourCache::Clear()
{
    grid.clear();
    neighbours.clear();
}

const std::vector<uint32_t>*
D2dChannel::NeighbourCache::Known(uint32_t index, std::size_t devices)
{
    if (neighbours.size() != devices)
    {
        neighbours.resize(devices);
        neighboursKnown.assign(devices, false);
    }
    return neighboursKnown[index] ? &neighbours[index] : nullptr;
}

std::vector<uint32_t>&
D2dChannel::NeighbourCache::Store(uint32_t index)
{
    neighboursKnown[index] = true;
    return neighbours[index];
}

void
D2dChannel::NeighbourCache::BuildGrid(const std::vector<Ptr<D2dRadio>>& radios, double rangeM)
{
    grid.clear();
    for (uint32_t j = 0; j < radios.size(); ++j)
    {
        if (radios[j])
        {
            const Vector p = radios[j]->GetMobility()->GetPosition();
            grid[CellKey(static_cast<int64_t>(std::floor(p.x / rangeM)),
                         static_cast<int64_t>(std::floor(p.y / rangeM)))]
                .push_back(j);
        }
    }
    gridKnown = true;
}

const std::vector<uint32_t>*
D2dChannel::NeighbourCache::Cell(int64_t cx, int64_t cy) const
{
    auto it = grid.find(CellKey(cx, cy));
    return it == grid.end() ? nullptr : &it->second;
}

void
D2dChannel::ComputeNeighbours(uint32_t index, std::vector<uint32_t>& out)
{
    out.clear();
    const bool grid = m_rangeM > 0 && UsesPositions();
    if (!grid)
    {
        for (uint32_t j = 0; j < m_radios.size(); ++j)
        {
            if (j != index && m_radios[j] && Hears(j, index))
            {
                out.push_back(j);
            }
        }
        return;
    }
    // Only devices within RangeM can hear: look in the 3 x 3 cells of side RangeM around it.
    if (!m_neighbourCache.gridKnown || !IsStatic())
    {
        m_neighbourCache.BuildGrid(m_radios, m_rangeM);
    }
    const Vector p = m_radios[index]->GetMobility()->GetPosition();
    const auto cx = static_cast<int64_t>(std::floor(p.x / m_rangeM));
    const auto cy = static_cast<int64_t>(std::floor(p.y / m_rangeM));
    for (int64_t dx = -1; dx <= 1; ++dx)
    {
        for (int64_t dy = -1; dy <= 1; ++dy)
        {
            const std::vector<uint32_t>* cell = m_neighbourCache.Cell(cx + dx, cy + dy);
            if (!cell)
            {
                continue;
            }
            for (uint32_t j : *cell)
            {
                if (j != index && Hears(j, index))
                {
                    out.push_back(j);
                }
            }
        }
    }
    std::sort(out.begin(), out.end());
}

const std::vector<uint32_t>&
D2dChannel::GetNeighbours(uint32_t index)
{
    NS_ABORT_MSG_IF(!GetRadio(index), "D2dChannel: no radio " << index);
    if (!IsStatic())
    {
        ComputeNeighbours(index, m_neighbourCache.scratch);
        return m_neighbourCache.scratch;
    }
    if (const std::vector<uint32_t>* known = m_neighbourCache.Known(index, m_radios.size()))
    {
        return *known;
    }
    std::vector<uint32_t>& list = m_neighbourCache.Store(index);
    ComputeNeighbours(index, list);
    return list;
}

D2dChannel::Receiver
D2dChannel::MakeReceiver(Ptr<D2dRadio> radio, uint32_t sender) const
{
    Receiver r;
    r.radio = radio;
    r.index = radio->GetIndex();
    r.rssW = GetRssW(r.index, sender);
    r.pDrop = LinkDropProbability(r.rssW);
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

std::vector<uint32_t>
D2dChannel::Addressees(uint32_t sender, const D2dRadio::TxJob& job)
{
    if (job.dst == D2D_BROADCAST)
    {
        return GetNeighbours(sender);
    }
    if (job.dst == D2D_MULTICAST)
    {
        return job.receivers;
    }
    NS_ABORT_MSG_IF(!GetRadio(job.dst),
                    "D2dChannel: device " << sender << " sends to unknown device " << job.dst);
    return {job.dst};
}

std::vector<uint32_t>
D2dChannel::HeardReceivers(uint32_t sender, const D2dRadio::TxJob& job)
{
    if (job.dst == D2D_BROADCAST)
    {
        return GetNeighbours(sender);
    }
    std::vector<uint32_t> heard;
    for (uint32_t r : Addressees(sender, job))
    {
        if (Hears(r, sender))
        {
            heard.push_back(r);
        }
    }
    return heard;
}

bool
D2dChannel::StartTransmission(Ptr<D2dRadio> sender,
                              const D2dRadio::TxJob& job,
                              const std::vector<uint32_t>& heard)
{
    NS_LOG_FUNCTION(this << sender->GetIndex() << job.msgId);
    const uint32_t s = sender->GetIndex();
    bool someOutOfRange = false;
    if (job.dst != D2D_BROADCAST)
    {
        // Named receivers that cannot hear: a row each, and nothing on the air for them.
        std::vector<uint32_t> outOfRange;
        for (uint32_t r : Addressees(s, job))
        {
            if (!std::binary_search(heard.begin(), heard.end(), r))
            {
                outOfRange.push_back(r);
            }
        }
        someOutOfRange = !outOfRange.empty();
        if (!outOfRange.empty() || heard.empty())
        {
            // Its own event: the sender learns the message id only when Send() returns.
            Simulator::ScheduleNow(&D2dChannel::ReportOutOfRange,
                                   this,
                                   sender,
                                   job,
                                   outOfRange,
                                   !heard.empty());
        }
    }
    else if (heard.empty())
    {
        Simulator::ScheduleNow(&D2dChannel::ReportOutOfRange,
                               this,
                               sender,
                               job,
                               std::vector<uint32_t>(),
                               false);
    }
    if (heard.empty())
    {
        NS_LOG_LOGIC("message " << job.msgId << " of " << s << ": no receiver hears it");
        return false;
    }
    auto tx = Create<Transmission>();
    tx->sender = sender;
    tx->job = job;
    if (job.sleeping)
    {
        tx->job.sleepWait += Simulator::Now() - job.sleepSince; // its wait so far
    }
    tx->reliable = job.mode == D2dDeliveryMode::RELIABLE;
    tx->fastPath = m_fastPath;
    tx->rateBps = GetRateBps();
    const uint64_t bytes = job.message->GetSizeBytes();
    tx->fragments = GetNFragments(bytes);
    const uint64_t lastPayload = bytes - static_cast<uint64_t>(tx->fragments - 1) * m_mtuBytes;
    tx->bitsFull = (m_mtuBytes + m_headerBytes) * 8.0;
    tx->bitsLast = (lastPayload + m_headerBytes) * 8.0;
    tx->start = Simulator::Now();
    tx->someOutOfRange = someOutOfRange;

    double maxDistance = 0.0;
    tx->rx.reserve(heard.size());
    for (uint32_t k : heard)
    {
        Receiver r = MakeReceiver(m_radios[k], s);
        maxDistance = std::max(maxDistance, GetDistanceM(r.index, s));
        tx->rx.push_back(r);
    }
    if (IsSpectrumFinite())
    {
        // Its sub-channels: under scheduled access free of conflicts (channel access waited
        // for them), under immediate access the least interfered. Eq. (18) with the
        // interference of the transmissions on the air now.
        const bool scheduled = GetAccess()->GetPolicy() == D2dChannelAccess::SCHEDULED;
        const bool found = GetSpectrum()->Find(s, heard, scheduled, tx->subChannels);
        NS_ABORT_MSG_IF(!found, "D2dChannel: no sub-channel for message " << job.msgId);
        if (m_interference)
        {
            for (auto& r : tx->rx)
            {
                r.interferenceW = m_spectrum->InterferenceW(r.index, tx->subChannels, job.msgId);
                r.pDrop = LinkDropProbability(r.rssW, r.interferenceW);
            }
        }
        m_spectrum->Occupy(job.msgId, s, heard, tx->subChannels);
        tx->occupying = true;
    }
    tx->onAir = true;
    RememberLive(tx);
    m_current[s] = tx;
    // Channel access holds the sender and these receivers until their outcomes are known.
    GetAccess()->Reserve(s, heard);
    if (m_access->GetPolicy() == D2dChannelAccess::SCHEDULED)
    {
        tx->reserved = true;
        for (auto& r : tx->rx)
        {
            r.reserved = true;
        }
    }
    sender->BeginTx(tx->rateBps, maxDistance);
    if (tx->aborted) // the transmit draw emptied the sender's battery
    {
        return true;
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
        tx->arq.Start(tx->fragments);
        SendNextFragment(tx);
    }
    return true;
}

void
D2dChannel::ReportOutOfRange(Ptr<D2dRadio> sender,
                             D2dRadio::TxJob job,
                             std::vector<uint32_t> outOfRange,
                             bool sent)
{
    auto tx = Create<Transmission>();
    tx->sender = sender;
    tx->job = job;
    tx->reliable = job.mode == D2dDeliveryMode::RELIABLE;
    tx->fragments = GetNFragments(job.message->GetSizeBytes());
    for (uint32_t k : outOfRange)
    {
        Receiver r;
        r.radio = m_radios[k];
        r.index = k;
        r.pDrop = 1.0;
        Report(tx, r, false, "out_of_range");
    }
    if (!sent)
    {
        sender->ReportSendDone(job.msgId, job.dst, false);
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
    const uint32_t f = tx->arq.Current();
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
    const uint32_t f = tx->arq.Take();
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
        // Per fragment: eq. (18) with the interference of the transmissions on the air as
        // this fragment ends (the fast path takes the one at the transmission's start).
        const double pDrop =
            tx->occupying && m_interference
                ? LinkDropProbability(
                      r.rssW,
                      m_spectrum->InterferenceW(r.index, tx->subChannels, tx->job.msgId))
                : r.pDrop;
        const bool lost = m_uniform->GetValue() < pDrop;
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
        tx->arq.Again(f); // sent again in the next round
    }
    if (tx->arq.HasMore())
    {
        SendNextFragment(tx);
        return;
    }
    // End of an ARQ round (the only round in unreliable mode).
    const uint32_t again = tx->reliable ? tx->arq.NextRound(m_maxRetransmissions) : 0;
    if (again > 0)
    {
        tx->retransmissions += again;
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
    LeaveSpectrum(tx);
    m_transmissionTrace(tx->job.msgId, s, tx->fragmentTransmissions, tx->airtime);
    if (tx->rx.empty())
    {
        ForgetLive(tx);
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
        !tx->someOutOfRange &&
        std::all_of(tx->rx.begin(), tx->rx.end(), [](const Receiver& r) { return r.delivered; });
    tx->sender->ReportSendDone(tx->job.msgId, tx->job.dst, all);
}

void
D2dChannel::RxStart(Ptr<Transmission> tx, std::size_t k)
{
    Receiver& r = tx->rx[k];
    r.startEvent = EventId(); // fired: break the tx -> event -> tx reference cycle
    if (r.radio->IsOff())
    {
        r.failReason = "receiver_off";
    }
    else if (r.radio->GetNReceptions() >= GetReceiveChains(r.index) &&
             !(r.radio->IsHalfDuplex() && r.radio->IsTransmitting()))
    {
        r.failReason = "rx_busy"; // every receive chain is taken (immediate access)
    }
    else if (!r.radio->BeginRx(tx->rateBps))
    {
        r.failReason = r.radio->IsOff()      ? "receiver_off"
                       : !r.radio->IsAwake() ? "receiver_asleep"
                                             : "half_duplex";
    }
    else
    {
        r.started = true;
        r.offCount = r.radio->GetOffCount();
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
    // A receiver that went away during the reception lost it, even if it is back now.
    const bool cut = r.started && r.radio->GetOffCount() != r.offCount;
    if (r.started && !r.radio->IsOff() && !cut)
    {
        r.radio->EndRx(tx->rateBps);
    }
    if (r.failReason.empty() && (r.radio->IsOff() || cut))
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
    rec.onAir = tx->onAir;
    if (tx->onAir)
    {
        rec.startTime = tx->start;
        rec.airtime = tx->airtime;
    }
    rec.subChannels = tx->subChannels;
    rec.interferenceW = r.interferenceW;
    if (r.rssW > 0)
    {
        rec.rssW = r.rssW;
        rec.sinr = r.rssW / (GetNoisePowerW() + r.interferenceW);
    }
    rec.sleepWait = tx->job.sleepWait;
    rec.lastRow = tx->nEnded + 1 == tx->rx.size(); // nEnded counts this row below
    tx->sender->ReportDelivery(rec);
    if (r.reserved)
    {
        r.reserved = false;
        m_access->ReleaseReceiver(r.index);
    }
    if (++tx->nEnded == tx->rx.size())
    {
        ForgetLive(tx); // every receiver's outcome is known
        if (tx->reserved)
        {
            tx->reserved = false;
            m_access->ReleaseSender(tx->sender->GetIndex());
        }
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
    LeaveSpectrum(tx);
    ForgetLive(tx); // (also when it has no receiver to report)
    for (auto& r : tx->rx)
    {
        if (r.started && !r.ended && !r.radio->IsOff() && r.radio->GetOffCount() == r.offCount)
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
    // This sender's, in msgId order, from the per-sender index (no scan of every live
    // transmission: Finish calls this for every device).
    std::vector<Ptr<Transmission>> mine;
    for (auto it = m_liveBySender.lower_bound({s, 0}); it != m_liveBySender.end() && it->first == s;
         ++it)
    {
        mine.push_back(m_live.at(it->second));
    }
    for (auto& tx : mine)
    {
        tx->aborted = true; // nothing of it may happen any more
        CancelEvents(tx);
        LeaveSpectrum(tx);
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
        ForgetLive(tx);
    }
}

void
D2dChannel::LeaveSpectrum(Ptr<Transmission> tx)
{
    if (!tx->occupying)
    {
        return;
    }
    tx->occupying = false;
    m_spectrum->Release(tx->job.msgId);
    m_access->SpectrumReleased(); // a waiting transmission may take its sub-channels
}

void
D2dChannel::RememberLive(Ptr<Transmission> tx)
{
    m_live[tx->job.msgId] = tx;
    m_liveBySender.emplace(tx->sender->GetIndex(), tx->job.msgId);
}

void
D2dChannel::ForgetLive(Ptr<Transmission> tx)
{
    if (m_live.erase(tx->job.msgId) > 0)
    {
        m_liveBySender.erase({tx->sender->GetIndex(), tx->job.msgId});
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
    m_liveBySender.clear();
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
    for (uint32_t k : Addressees(sender->GetIndex(), job))
    {
        Receiver r = MakeReceiver(m_radios[k], sender->GetIndex());
        // The RSS drawn once (a chain with fading draws at each evaluation).
        r.pDrop = Hears(k, sender->GetIndex()) ? LinkDropProbability(r.rssW) : 1.0;
        Report(tx, r, false, reason);
    }
}

} // namespace ns3
