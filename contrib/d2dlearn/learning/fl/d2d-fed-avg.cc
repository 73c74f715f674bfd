/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fed-avg.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dFedAvg");
NS_OBJECT_ENSURE_REGISTERED(D2dFedAvg);

TypeId
D2dFedAvg::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dFedAvg")
            .SetParent<D2dFlProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dFedAvg>()
            .AddAttribute("Variant",
                          "fedavg (upload the trained weights), fedprox (the same with the "
                          "proximal term) or fedsgd (upload one mean gradient)",
                          EnumValue(D2dFedAvg::FEDAVG),
                          D2dMakeEnumAccessor(&D2dFedAvg::m_variant),
                          MakeEnumChecker(D2dFedAvg::FEDAVG,
                                          "fedavg",
                                          D2dFedAvg::FEDPROX,
                                          "fedprox",
                                          D2dFedAvg::FEDSGD,
                                          "fedsgd"))
            .AddAttribute(
                "ClientFraction",
                "Fraction C of the devices sampled each round",
                DoubleValue(1.0),
                MakeDoubleAccessor(&D2dFedAvg::SetClientFraction, &D2dFedAvg::GetClientFraction),
                MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ProximalMu",
                          "FedProx proximal coefficient mu",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&D2dFedAvg::m_mu),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "Downlink",
                "How w^t reaches the sampled devices: broadcast (one D2S "
                "transmission naming them; every device's radio receives it) or "
                "unicast (one transmission each, queued at the server)",
                EnumValue(D2dFedAvg::BROADCAST),
                D2dMakeEnumAccessor(&D2dFedAvg::m_downlink),
                MakeEnumChecker(D2dFedAvg::BROADCAST, "broadcast", D2dFedAvg::UNICAST, "unicast"))
            .AddAttribute("UploadRetries",
                          "Reliable mode: times a device sends its update again after the "
                          "link's retransmissions ran out, while the round is open",
                          UintegerValue(2),
                          MakeUintegerAccessor(&D2dFedAvg::m_uploadRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GlobalLearningRate",
                          "Server step eta of w <- w - eta g (1: FedAvg's weighted average)",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dFedAvg::m_globalLearningRate),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Aggregation",
                          "The server's aggregation step: the global gradient g of the "
                          "answers (default: the n_k-weighted mean; robust rules: "
                          "ns3::D2dMedianAggregation, ns3::D2dTrimmedMeanAggregation, "
                          "ns3::D2dKrumAggregation, ns3::D2dMultiKrumAggregation)",
                          StringValue("ns3::D2dMeanAggregation"),
                          MakePointerAccessor(&D2dFedAvg::m_aggregation),
                          MakePointerChecker<D2dAggregationStrategy>())
            .AddAttribute("DeferTraining",
                          "Run a client's LibTorch training work when the server reads its "
                          "update rather than at its simulated training time (the same "
                          "results and traces; a bounded number of trained models in "
                          "memory); off with an update tamper",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dFedAvg::m_deferTraining),
                          MakeBooleanChecker())
            .AddAttribute("WaitForFailed",
                          "Wait until RoundDeadline for a sampled device that cannot answer: "
                          "its global model did not reach it (reliable delivery), or it is "
                          "still training an earlier round's (false: it says so with a "
                          "\"busy\" message; the round closes without it)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&D2dFedAvg::m_waitForFailed),
                          MakeBooleanChecker())
            .AddAttribute(
                "OverSelection",
                "Sample min(K, round(s m)) devices and close the round at the "
                "first m = max(1, round(C K)) answers (Bonawitz et al. 2019: 1.3)",
                DoubleValue(1.0),
                MakeDoubleAccessor(&D2dFedAvg::SetOverSelection, &D2dFedAvg::GetOverSelection),
                MakeDoubleChecker<double>(1.0, 1e6))
            .AddTraceSource("ClientFailed",
                            "The server stops waiting for a sampled device that cannot answer: "
                            "(round, device, its downlink row's reason or \"busy\")",
                            MakeTraceSourceAccessor(&D2dFedAvg::m_clientFailedTrace),
                            "ns3::D2dFedAvg::ClientFailedTracedCallback");
    return tid;
}

D2dFedAvg::D2dFedAvg()
{
}

void
D2dFedAvg::SetClientFraction(double fraction)
{
    m_sample.SetFraction(fraction);
}

double
D2dFedAvg::GetClientFraction() const
{
    return m_sample.GetFraction();
}

void
D2dFedAvg::SetOverSelection(double factor)
{
    m_sample.SetOverSelection(factor);
}

double
D2dFedAvg::GetOverSelection() const
{
    return m_sample.GetOverSelection();
}

void
D2dFedAvg::DoDispose()
{
    // The transports may outlive this protocol: leave them no callback into it.
    for (uint32_t i = 0; i < m_d2s.size(); ++i)
    {
        m_d2s[i]->RemoveReceiveHandler(i + 1 < m_d2s.size()
                                           ? MakeCallback(&D2dFedAvg::ClientReceive, this)
                                           : MakeCallback(&D2dFedAvg::ServerReceive, this));
        if (i + 1 == m_d2s.size())
        {
            m_d2s[i]->RemoveReceiveHandler(MakeCallback(&D2dFedAvg::ServerBusy, this));
        }
        m_d2s[i]->RemoveSendDoneHandler(MakeCallback(&D2dFedAvg::UploadDone, this));
    }
    if (!m_d2s.empty())
    {
        m_d2s.back()->TraceDisconnectWithoutContext(
            "Delivery",
            MakeCallback(&D2dFedAvg::DownlinkDelivery, this));
        for (uint32_t i = 0; i + 1 < m_d2s.size(); ++i)
        {
            m_d2s[i]->TraceDisconnectWithoutContext("Presence",
                                                    MakeCallback(&D2dFedAvg::Presence, this));
        }
        for (const auto& learner : m_learners)
        {
            learner->TraceDisconnectWithoutContext("TrainingLost",
                                                   MakeCallback(&D2dFedAvg::ClientLost, this));
        }
    }
    m_sample.Dispose();
    m_aggregation = nullptr;
    m_uploadRetry.Clear();
    m_updateTamper = UpdateTamper(); // may hold references to the caller's objects
    D2dFlProtocol::DoDispose();
}

bool
D2dFedAvg::UsesD2s() const
{
    return true;
}

bool
D2dFedAvg::SendsGradients() const
{
    return m_variant == FEDSGD;
}

std::vector<TypeId>
D2dFedAvg::GetPartTypeIds() const
{
    auto parts = D2dFlProtocol::GetPartTypeIds();
    if (m_aggregation)
    {
        parts.push_back(m_aggregation->GetInstanceTypeId());
    }
    return parts;
}

std::vector<std::string>
D2dFedAvg::GetUnreadAttributes() const
{
    // The server's model is the one evaluated (RecordGlobal): no device's rows.
    std::vector<std::string> unread = {"ns3::D2dFlProtocol::EvaluateDevices"};
    if (m_variant != FEDPROX)
    {
        unread.emplace_back("ns3::D2dFedAvg::ProximalMu");
    }
    if (m_variant == FEDSGD)
    {
        // One mean gradient over the shard: no local epochs or steps, no optimizer; the
        // server steps by GlobalLearningRate, which the learners' rate sets only where it is 0
        // (the scenarios' rule).
        unread.emplace_back("ns3::D2dFlProtocol::LocalEpochs");
        unread.emplace_back("ns3::D2dFlProtocol::LocalSteps");
        unread.emplace_back("ns3::D2dLearner::Optimizer");
        if (m_globalLearningRate != 0)
        {
            unread.emplace_back("ns3::D2dLearner::LearningRate");
        }
    }
    return unread;
}

void
D2dFedAvg::DoInitialize()
{
    D2dFlProtocol::DoInitialize();
    const uint32_t n = GetNDevices();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_d2s[i]->AddReceiveHandler(MakeCallback(&D2dFedAvg::ClientReceive, this),
                                    D2dModelCodec::KIND_GLOBAL_MODEL);
        m_d2s[i]->AddSendDoneHandler(MakeCallback(&D2dFedAvg::UploadDone, this));
        m_d2s[i]->TraceConnectWithoutContext("Presence", MakeCallback(&D2dFedAvg::Presence, this));
        m_learners[i]->TraceConnectWithoutContext("TrainingLost",
                                                  MakeCallback(&D2dFedAvg::ClientLost, this));
    }
    m_d2s[n]->AddReceiveHandler(MakeCallback(&D2dFedAvg::ServerReceive, this),
                                D2dModelCodec::KIND_UPDATE);
    m_d2s[n]->AddReceiveHandler(MakeCallback(&D2dFedAvg::ServerBusy, this),
                                D2dModelCodec::KIND_BUSY);
    m_d2s[n]->TraceConnectWithoutContext("Delivery",
                                         MakeCallback(&D2dFedAvg::DownlinkDelivery, this));
}

int64_t
D2dFedAvg::AssignStreams(int64_t stream)
{
    return m_sample.AssignStreams(stream);
}

uint64_t
D2dFedAvg::GetTotalParticipants() const
{
    return m_totalParticipants;
}

uint64_t
D2dFedAvg::GetTotalUploadRetries() const
{
    return m_uploadRetry.GetTotalRetries();
}

const std::vector<float>&
D2dFedAvg::GetGlobalModel() const
{
    return m_global;
}

void
D2dFedAvg::SetUpdateTamper(UpdateTamper tamper)
{
    m_updateTamper = tamper;
}

void
D2dFedAvg::DoStart()
{
    NS_ABORT_MSG_IF(!m_aggregation, "D2dFedAvg: no Aggregation strategy");
    m_uploadRetry.SetMaxRetries(m_uploadRetries);
    // w^0: the server starts from device 0's initial weights.
    m_global = m_learners[0]->GetParameters();
    // Stateless clients: a device holds the global model only while it trains on it (its
    // own initial weights are never kept; its generator still makes their draws first).
    for (auto& learner : m_learners)
    {
        learner->ReleaseParameters();
    }
    RecordGlobal(0, m_global); // the accuracy before any round
    StartRound();
}

void
D2dFedAvg::StartRound()
{
    const uint32_t k = GetNDevices();
    m_restartPending = false;
    if (!m_waitingForDevices)
    {
        m_waitStart = Simulator::Now();
    }
    // The server samples among the devices there now (every device when none is away).
    std::vector<uint32_t> order;
    order.reserve(k);
    for (uint32_t i = 0; i < k; ++i)
    {
        if (!m_d2s[i]->IsAway())
        {
            order.push_back(i);
        }
    }
    if (order.empty())
    {
        m_waitingForDevices = true; // the round starts when a device comes back (Presence)
        return;
    }
    m_waitingForDevices = false;
    ++m_round;
    MarkRoundStart(m_waitStart); // a wait for devices counts in the round's time
    m_roundOpen = true;
    m_downlinkIds.clear();
    const uint32_t m = m_sample.Draw(order, k);
    NS_LOG_INFO("round " << m_round << ": " << m << " clients");
    Ptr<D2dTransport> server = m_d2s[k];
    if (m_downlink == BROADCAST)
    {
        // One transmission of w^t; the sampled devices are named in the message.
        std::vector<uint32_t> recipients;
        if (m < k)
        {
            recipients.assign(order.begin(), order.begin() + m);
            std::sort(recipients.begin(), recipients.end());
        }
        auto message = m_codec.Encode(D2dModelCodec::KIND_GLOBAL_MODEL,
                                      D2dModelCodec::WHAT_WEIGHTS,
                                      m_round,
                                      0,
                                      k,
                                      m_global,
                                      recipients);
        m_sent = message->GetPayloadAs<D2dModelPayload>()->values;
        m_downlinkIds.insert(server->Send(message, D2D_BROADCAST, m_d2sMode));
    }
    else
    {
        // One unicast per sampled device, in sampling order (FIFO at the server radio).
        auto message = m_codec.Encode(D2dModelCodec::KIND_GLOBAL_MODEL,
                                      D2dModelCodec::WHAT_WEIGHTS,
                                      m_round,
                                      0,
                                      k,
                                      m_global);
        m_sent = message->GetPayloadAs<D2dModelPayload>()->values;
        for (uint32_t i = 0; i < m; ++i)
        {
            m_downlinkIds.insert(server->Send(message, order[i], m_d2sMode));
        }
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dFedAvg::EndOfRound, this);
    }
}

void
D2dFedAvg::ClientReceive(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return; // a model with missing fragments is not a model
    }
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    const uint32_t device = r.dst;
    if (!payload->IsFor(device))
    {
        return; // a broadcast for the other sampled devices
    }
    Ptr<D2dLearner> learner = m_learners[device];
    if (payload->round != m_round)
    {
        return; // stale
    }
    if (learner->IsTraining())
    {
        // Still busy with an earlier round (a straggler): it says so, and the server stops
        // waiting for it (with WaitForFailed it says nothing and is waited for).
        if (!m_waitForFailed)
        {
            auto busy = m_codec.Encode(D2dModelCodec::KIND_BUSY,
                                       D2dModelCodec::WHAT_NONE,
                                       m_round,
                                       0,
                                       device,
                                       std::vector<float>{});
            m_d2s[device]->Send(busy, GetNDevices(), m_d2sMode);
        }
        return;
    }
    learner->SetParameters(payload->values); // shared with the message: no copy
    D2dTrainTask task = LocalTask();
    if (m_variant == FEDPROX)
    {
        task.proximalMu = m_mu;
        task.proxCenter = payload->values;
    }
    task.gradientOnly = m_variant == FEDSGD;
    task.deferrable = m_deferTraining && m_updateTamper.IsNull();
    const uint32_t round = payload->round;
    std::shared_ptr<const std::vector<float>> base = payload->values;
    learner->Train(task, [this, device, round, base](const D2dTrainResult& result) {
        ClientTrained(device, round, base, result);
    });
}

void
D2dFedAvg::ClientTrained(uint32_t device,
                         uint32_t round,
                         std::shared_ptr<const std::vector<float>> base,
                         const D2dTrainResult& result)
{
    Ptr<D2dLearner> learner = m_learners[device];
    const uint64_t samples = learner->GetNSamples();
    if (result.deferred)
    {
        // The upload carries the job: the trained weights (or the gradient) are computed
        // when the server reads them.
        learner->ReleaseParameters(); // a client holds no model between rounds
        SendUpdate(device,
                   round,
                   m_codec.EncodeDeferred(D2dModelCodec::KIND_UPDATE,
                                          m_variant == FEDSGD ? D2dModelCodec::WHAT_GRADIENT
                                                              : D2dModelCodec::WHAT_WEIGHTS,
                                          round,
                                          samples,
                                          device,
                                          result.deferred,
                                          learner->GetNParameters()));
        return;
    }
    const bool gradient = static_cast<bool>(result.gradient);
    const char* what = gradient ? D2dModelCodec::WHAT_GRADIENT : D2dModelCodec::WHAT_WEIGHTS;
    std::shared_ptr<const std::vector<float>> trained =
        gradient ? result.gradient : learner->GetSharedParameters();
    learner->ReleaseParameters(); // a client holds no model between rounds
    if (m_updateTamper.IsNull())
    {
        // The upload shares the trained weights (or the gradient): no copy.
        SendUpdate(device,
                   round,
                   m_codec.Encode(D2dModelCodec::KIND_UPDATE,
                                  what,
                                  round,
                                  samples,
                                  device,
                                  std::move(trained)));
        return;
    }
    std::vector<float> update = *trained;
    trained.reset();
    Tamper(device, *base, gradient, update);
    SendUpdate(
        device,
        round,
        m_codec
            .Encode(D2dModelCodec::KIND_UPDATE, what, round, samples, device, std::move(update)));
}

void
D2dFedAvg::Tamper(uint32_t device,
                  const std::vector<float>& base,
                  bool gradient,
                  std::vector<float>& update) const
{
    if (gradient)
    {
        m_updateTamper(device, update); // FedSGD: g_k is the update itself
        return;
    }
    // g_k = w^t - w_k; the device sends w^t - g_k, or w_k itself if g_k is untouched
    // (w^t - (w^t - w_k) need not round back to w_k).
    NS_ABORT_MSG_IF(base.size() != update.size(), "D2dFedAvg: model sizes differ");
    std::vector<float> g(update.size());
    for (std::size_t j = 0; j < g.size(); ++j)
    {
        g[j] = base[j] - update[j];
    }
    const std::vector<float> honest = g;
    m_updateTamper(device, g);
    NS_ABORT_MSG_IF(g.size() != update.size(), "D2dFedAvg: the tamper resized g_k");
    if (g != honest)
    {
        for (std::size_t j = 0; j < g.size(); ++j)
        {
            update[j] = base[j] - g[j];
        }
    }
}

void
D2dFedAvg::SendUpdate(uint32_t device, uint32_t round, Ptr<D2dMessage> update)
{
    // To the server, retransmitted while its round is open if its link runs out of retries.
    const uint64_t id = m_d2s[device]->Send(update, GetNDevices(), m_d2sMode);
    m_uploadRetry.Track(id, m_d2s[device], round, update, m_d2sMode);
}

void
D2dFedAvg::UploadDone(uint64_t msgId, uint32_t dst, bool success)
{
    // An update whose link ran out of retransmissions goes again while its round is open.
    m_uploadRetry.SendDone(msgId, dst, success, m_round, m_roundOpen);
}

void
D2dFedAvg::ServerBusy(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return;
    }
    // A sampled device still on an earlier round's job: no answer will come.
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    if (payload->round == m_round && GiveUp(payload->origin, D2dModelCodec::KIND_BUSY))
    {
        m_deadlineEvent.Cancel();
        EndOfRound();
    }
}

void
D2dFedAvg::ServerReceive(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return;
    }
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    NS_LOG_INFO("server: update of device " << payload->origin << " for round " << payload->round);
    if (!m_roundOpen || payload->round != m_round || !m_sample.IsAsked(payload->origin))
    {
        // Late: its round is over. A deferred update's work runs now all the same (its
        // TrainingDone fires, as an eager job's would have), and its result is dropped.
        if (payload->deferred && !payload->deferred->IsReleased())
        {
            payload->deferred->Wait();
            payload->ReleaseDeferred();
        }
        return;
    }
    m_sample.Answer(payload->origin, payload);
    if (RoundComplete())
    {
        m_deadlineEvent.Cancel();
        EndOfRound();
    }
}

bool
D2dFedAvg::GiveUp(uint32_t device, const std::string& reason)
{
    if (!m_roundOpen || !m_sample.GiveUp(device))
    {
        return false; // not waited for now, or already given up
    }
    NS_LOG_INFO("round " << m_round << ": no answer will come from device " << device << " ("
                         << reason << ")");
    m_clientFailedTrace(m_round, device, reason);
    return RoundComplete();
}

bool
D2dFedAvg::RoundComplete() const
{
    return m_sample.IsComplete();
}

void
D2dFedAvg::ClientLost(uint32_t device, Time, Time)
{
    m_learners[device]->ReleaseParameters(); // a client holds no model between rounds
}

void
D2dFedAvg::Presence(uint32_t device, bool present)
{
    if (present)
    {
        if (m_waitingForDevices && !m_restartPending)
        {
            m_restartPending = true;
            Simulator::ScheduleNow(&D2dFedAvg::StartRound, this); // not from inside the trace
        }
        return;
    }
    // The device went away or its battery emptied: whatever it holds of this round is lost
    // (the server learns it at once, as from a closed connection).
    if (m_waitForFailed)
    {
        return;
    }
    if (GiveUp(device, m_d2s[device]->IsDepleted() ? "depleted" : "left"))
    {
        m_deadlineEvent.Cancel();
        const uint32_t round = m_round;
        Simulator::ScheduleNow([this, round]() {
            if (m_roundOpen && m_round == round)
            {
                EndOfRound();
            }
        });
    }
}

void
D2dFedAvg::DownlinkDelivery(const D2dDeliveryRecord& record)
{
    // The server learns that w^t did not reach a device only from a reliable send's missing
    // acknowledgement; an unreliable loss, or a failure after reception, tells it nothing.
    if (m_waitForFailed || record.mode != D2dDeliveryMode::RELIABLE || record.delivered ||
        !m_downlinkIds.count(record.msgId))
    {
        return;
    }
    if (GiveUp(record.dst, record.reason))
    {
        // Not from inside the transport's trace: end the round as its own event.
        m_deadlineEvent.Cancel();
        const uint32_t round = m_round;
        Simulator::ScheduleNow([this, round]() {
            if (m_roundOpen && m_round == round)
            {
                EndOfRound();
            }
        });
    }
}

void
D2dFedAvg::EndOfRound()
{
    NS_LOG_INFO("round " << m_round << " ends: " << m_sample.GetAnswers().size() << " of "
                         << m_sample.GetAsked().size() << " answered");
    m_roundOpen = false;
    const std::size_t answered = m_sample.GetAnswers().size();
    if (answered > 0)
    {
        std::vector<std::shared_ptr<const D2dModelPayload>> payloads;
        std::vector<double> weights;
        for (const auto& [device, payload] : m_sample.GetAnswers()) // ascending device id
        {
            payloads.push_back(payload);
            weights.push_back(static_cast<double>(payload->samples));
        }
        m_sample.ClearAnswers();
        const bool gradient = payloads.front()->what == D2dModelCodec::WHAT_GRADIENT;
        // Seed 001: g = Aggregation({g_k}, {n_k}) (default: sum_k (n_k / n) g_k), then
        // w <- w^t - eta g. For weights, g_k = w^t - w_k. The updates are read one at a
        // time, in ascending device order: a deferred one is computed then, and dropped
        // once the strategy has taken it (the mean adds it to a running sum).
        m_global = m_aggregation->StepFetched(
            *m_sent,
            [&payloads](std::size_t k) {
                auto values = payloads[k]->Resolve();
                payloads[k]->ReleaseDeferred();
                payloads[k] = nullptr;
                return values;
            },
            !gradient,
            weights,
            static_cast<uint32_t>(m_sample.GetAsked().size()),
            m_globalLearningRate);
        if (!GetNumericError().empty())
        {
            return; // a client's training loss was not finite (seen as its work ran): stop
        }
    }
    RecordGlobal(m_round, m_global);
    if (m_learners[0]->MayGoAway())
    {
        WriteRow(m_round, -1, "available", static_cast<double>(m_sample.GetAvailable()));
    }
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "participants", static_cast<double>(answered));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(m_sample.GetAsked().size() - answered));
    if (m_d2sMode == D2dDeliveryMode::RELIABLE)
    {
        WriteRow(m_round,
                 -1,
                 "upload_retries",
                 static_cast<double>(m_uploadRetry.GetRoundRetries()));
    }
    m_uploadRetry.ResetRound();
    WriteBytesSent(m_round);
    m_totalParticipants += answered;
    EndRound(MakeCallback(&D2dFedAvg::StartRound, this));
}

} // namespace ns3
