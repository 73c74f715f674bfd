/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-segmented-gossip.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSegmentedGossip");
NS_OBJECT_ENSURE_REGISTERED(D2dSegmentedGossip);

TypeId
D2dSegmentedGossip::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dSegmentedGossip")
            .SetParent<D2dPeerProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dSegmentedGossip>()
            .AddAttribute("Segments",
                          "Contiguous segments S a model is split into (<= its parameters)",
                          UintegerValue(10),
                          MakeUintegerAccessor(&D2dSegmentedGossip::m_segments),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Replicas",
                          "Peers R each segment is pulled from per round (capped at the "
                          "other participants)",
                          UintegerValue(3),
                          MakeUintegerAccessor(&D2dSegmentedGossip::m_replicas),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Weighting",
                          "Segment averaging weights: samples (the devices' training "
                          "sample counts n_k, as Combo) or uniform (1 per model)",
                          EnumValue(D2dPeerProtocol::SAMPLES),
                          D2dMakeEnumAccessor(&D2dSegmentedGossip::m_weighting),
                          MakeEnumChecker(D2dPeerProtocol::UNIFORM,
                                          "uniform",
                                          D2dPeerProtocol::SAMPLES,
                                          "samples"))
            .AddAttribute("CommonInitialModel",
                          "Every device starts from device 0's initial weights (false: "
                          "each from its own initialization)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dSegmentedGossip::m_commonInitialModel),
                          MakeBooleanChecker())
            .AddTraceSource("Averaged",
                            "A device averaged a segment: (round, device, segment, "
                            "contributors)",
                            MakeTraceSourceAccessor(&D2dSegmentedGossip::m_averagedTrace),
                            "ns3::D2dSegmentedGossip::AveragedTracedCallback");
    return tid;
}

D2dSegmentedGossip::D2dSegmentedGossip()
{
}

void
D2dSegmentedGossip::DoDispose()
{
    m_endEvent.Cancel();
    m_state.clear();
    D2dPeerProtocol::DoDispose();
}

uint64_t
D2dSegmentedGossip::RequestBytes()
{
    return D2dModelCodec::HeaderBytes;
}

std::vector<std::pair<uint64_t, uint64_t>>
D2dSegmentedGossip::SegmentRanges(uint64_t nParameters, uint32_t segments)
{
    NS_ABORT_MSG_IF(segments == 0 || segments > nParameters,
                    "D2dSegmentedGossip: " << segments << " segments of " << nParameters
                                           << " parameters (accepted: 1 to " << nParameters << ")");
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (uint64_t s = 0; s < segments; ++s)
    {
        ranges.emplace_back(s * nParameters / segments, (s + 1) * nParameters / segments);
    }
    return ranges;
}

void
D2dSegmentedGossip::ConnectTransports()
{
    ConnectMessages({RequestKind, SegmentKind},
                    MakeCallback(&D2dSegmentedGossip::Receive, this),
                    MakeCallback(&D2dSegmentedGossip::Lost, this));
}

void
D2dSegmentedGossip::DoStart()
{
    m_bySamples = m_weighting == SAMPLES;
    const uint32_t k = GetNDevices();
    const uint64_t p = m_learners[0]->GetNParameters();
    for (uint32_t i = 1; i < k; ++i)
    {
        NS_ABORT_MSG_IF(m_learners[i]->GetNParameters() != p,
                        "D2dSegmentedGossip: devices with different architectures cannot "
                        "exchange segments");
    }
    m_ranges = SegmentRanges(p, m_segments);
    if (m_commonInitialModel)
    {
        ShareInitialModel();
    }
    RecordDevices(0, LiveDevices()); // the state before any round
    StartRound();
}

void
D2dSegmentedGossip::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_nAveraged = 0;
    m_segmentsReceived = 0;
    const uint32_t k = GetNDevices();
    const auto nSegments = static_cast<uint32_t>(m_ranges.size());
    m_state.assign(k, DeviceState());
    const std::vector<uint32_t> participants = IdleDevices();
    for (uint32_t i : participants)
    {
        m_state[i].participating = true;
    }
    // Peer draws: partial Fisher-Yates over the other participants, per device and segment.
    std::vector<uint32_t> candidates;
    for (uint32_t i : participants)
    {
        DeviceState& s = m_state[i];
        s.peers.resize(nSegments);
        s.received.resize(nSegments);
        for (uint32_t seg = 0; seg < nSegments; ++seg)
        {
            candidates.clear();
            for (uint32_t j : participants)
            {
                if (j != i)
                {
                    candidates.push_back(j);
                }
            }
            const auto c = static_cast<uint32_t>(candidates.size());
            const uint32_t m = std::min(m_replicas, c);
            if (m < c)
            {
                PartialShuffle(candidates, m, m_pick);
            }
            s.peers[seg].assign(candidates.begin(), candidates.begin() + m);
            s.pending += m;
        }
    }
    m_open = true;
    m_waiting = 0;
    const uint32_t round = m_round;
    for (uint32_t i : participants)
    {
        if (m_learners[i]->Train(LocalTask(),
                                 [this, i, round](const D2dTrainResult&) { Trained(i, round); }))
        {
            ++m_waiting;
        }
        else
        {
            m_state[i].participating = false; // battery just empty: its peers lose its pulls
        }
    }
    NS_LOG_INFO("round " << m_round << ": " << m_waiting << " participants");
    if (m_waiting == 0)
    {
        m_open = false;
        m_endEvent = Simulator::ScheduleNow(&D2dSegmentedGossip::EndOfRound, this);
        return;
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dSegmentedGossip::Deadline, this);
    }
}

void
D2dSegmentedGossip::Trained(uint32_t device, uint32_t round)
{
    if (!m_open || round != m_round)
    {
        NS_LOG_INFO("device " << device << ": job of an earlier round done, ignored");
        return; // a straggler: it keeps its model and joins a later round
    }
    DeviceState& s = m_state[device];
    s.trained = true;
    s.trainedModel =
        std::make_shared<const std::vector<float>>(m_learners[device]->GetParameters());
    // Its pulls: one request per (segment, peer).
    for (uint32_t seg = 0; seg < s.peers.size(); ++seg)
    {
        for (uint32_t peer : s.peers[seg])
        {
            auto request = std::make_shared<RequestPayload>();
            request->round = m_round;
            request->requester = device;
            request->segment = seg;
            SendMessage(device, {peer}, Create<D2dMessage>(RequestKind, RequestBytes(), request));
        }
    }
    // The requests that came while it trained.
    const auto waiting = std::move(s.waiting);
    for (const auto& [requester, seg] : waiting)
    {
        Serve(device, requester, seg);
    }
    TryAverage(device);
}

void
D2dSegmentedGossip::Serve(uint32_t device, uint32_t requester, uint32_t segment)
{
    const DeviceState& s = m_state[device];
    const auto [begin, end] = m_ranges[segment];
    std::vector<float> values(s.trainedModel->begin() + begin, s.trainedModel->begin() + end);
    auto coded = m_codec.Encode(SegmentKind,
                                D2dModelCodec::WHAT_WEIGHTS,
                                m_round,
                                m_learners[device]->GetNSamples(),
                                device,
                                std::move(values));
    auto payload = std::make_shared<SegmentPayload>(*coded->GetPayloadAs<D2dModelPayload>());
    payload->segment = segment;
    SendMessage(device,
                {requester},
                Create<D2dMessage>(SegmentKind, coded->GetSizeBytes(), payload));
}

void
D2dSegmentedGossip::Receive(const D2dReception& r)
{
    if (!m_open)
    {
        return;
    }
    const std::string& kind = r.message->GetKind();
    if (kind == RequestKind)
    {
        auto request = r.message->GetPayloadAs<RequestPayload>();
        if (!request || request->round != m_round)
        {
            return; // of an earlier round
        }
        DeviceState& s = m_state[r.dst];
        if (s.trained)
        {
            Serve(r.dst, request->requester, request->segment);
        }
        else
        {
            s.waiting.emplace_back(request->requester, request->segment); // served when done
        }
    }
    else if (kind == SegmentKind)
    {
        auto segment = r.message->GetPayloadAs<SegmentPayload>();
        if (!segment || segment->round != m_round)
        {
            return;
        }
        DeviceState& s = m_state[r.dst];
        if (s.averaged || segment->segment >= s.received.size())
        {
            return;
        }
        s.received[segment->segment][segment->origin] = segment;
        ++m_segmentsReceived;
        Resolve(r.dst);
    }
}

void
D2dSegmentedGossip::Lost(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message)
{
    if (!m_open)
    {
        return;
    }
    const std::string& kind = message->GetKind();
    if (kind == RequestKind)
    {
        auto request = message->GetPayloadAs<RequestPayload>();
        if (request && request->round == m_round)
        {
            Resolve(src); // the requester's pull failed
        }
    }
    else if (kind == SegmentKind)
    {
        auto segment = message->GetPayloadAs<SegmentPayload>();
        if (segment && segment->round == m_round)
        {
            Resolve(dst);
        }
    }
}

void
D2dSegmentedGossip::Resolve(uint32_t device)
{
    DeviceState& s = m_state[device];
    if (s.averaged || s.pending == 0)
    {
        return;
    }
    --s.pending;
    TryAverage(device);
}

void
D2dSegmentedGossip::TryAverage(uint32_t device)
{
    const DeviceState& s = m_state[device];
    if (m_open && s.CanAverage() && s.pending == 0)
    {
        Average(device);
        if (m_waiting == 0)
        {
            m_deadlineEvent.Cancel();
            m_open = false;
            m_endEvent = Simulator::ScheduleNow(&D2dSegmentedGossip::EndOfRound, this);
        }
    }
}

void
D2dSegmentedGossip::Average(uint32_t device)
{
    DeviceState& s = m_state[device];
    const double ownWeight =
        m_bySamples ? static_cast<double>(m_learners[device]->GetNSamples()) : 1.0;
    std::vector<float> next = *s.trainedModel;
    for (uint32_t seg = 0; seg < s.received.size(); ++seg)
    {
        // w_i[s] <- sum_k a_k w_k[s] / sum_k a_k over i and the peers whose segment
        // arrived, in ascending device order, accumulated in double.
        const auto [begin, end] = m_ranges[seg];
        std::vector<std::pair<uint32_t, std::pair<double, const float*>>> terms;
        for (const auto& [origin, payload] : s.received[seg])
        {
            terms.push_back({origin,
                             {m_bySamples ? static_cast<double>(payload->samples) : 1.0,
                              payload->values->data()}});
        }
        terms.push_back({device, {ownWeight, s.trainedModel->data() + begin}});
        std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        std::vector<uint32_t> contributors;
        double total = 0;
        for (const auto& t : terms)
        {
            contributors.push_back(t.first);
            total += t.second.first;
        }
        if (terms.size() > 1)
        {
            std::vector<double> acc(end - begin, 0.0);
            for (const auto& t : terms)
            {
                const double w = t.second.first / total;
                const float* v = t.second.second;
                for (uint64_t j = 0; j < acc.size(); ++j)
                {
                    acc[j] += w * v[j];
                }
            }
            std::copy(acc.begin(), acc.end(), next.begin() + begin);
        }
        m_averagedTrace(m_round, device, seg, contributors);
    }
    m_learners[device]->SetParameters(next);
    s.averaged = true;
    s.received.clear();
    ++m_nAveraged;
    --m_waiting;
}

void
D2dSegmentedGossip::Deadline()
{
    NS_LOG_INFO("round " << m_round << ": deadline");
    if (!m_open)
    {
        return;
    }
    D2dStepProgress::AverageAtDeadline(m_state, [this](uint32_t i) { Average(i); });
    m_open = false;
    EndOfRound();
}

void
D2dSegmentedGossip::EndOfRound()
{
    CancelUnsent(); // what is not on the air yet is stale: never sent
    const uint32_t stragglers = D2dStepProgress::CountStragglers(m_state);
    RecordDevices(m_round, LiveDevices());
    WriteRoundTime(m_round);
    WriteBytesSent(m_round);
    WriteRow(m_round, -1, "participants", static_cast<double>(m_nAveraged));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(stragglers));
    WriteRow(m_round, -1, "segments_received", static_cast<double>(m_segmentsReceived));
    EndRound(MakeCallback(&D2dSegmentedGossip::StartRound, this));
}

} // namespace ns3
