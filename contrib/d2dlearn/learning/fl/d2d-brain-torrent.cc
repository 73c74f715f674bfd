/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-brain-torrent.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dBrainTorrent");
NS_OBJECT_ENSURE_REGISTERED(D2dBrainTorrent);

TypeId
D2dBrainTorrent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dBrainTorrent")
            .SetParent<D2dPeerProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dBrainTorrent>()
            .AddAttribute("CommonInitialModel",
                          "Every device starts from device 0's initial weights (false: "
                          "each from its own initialization)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dBrainTorrent::m_commonInitialModel),
                          MakeBooleanChecker())
            .AddTraceSource("Merged",
                            "The aggregator merged: (round, aggregator, contributors)",
                            MakeTraceSourceAccessor(&D2dBrainTorrent::m_mergedTrace),
                            "ns3::D2dBrainTorrent::MergedTracedCallback");
    return tid;
}

D2dBrainTorrent::D2dBrainTorrent()
{
}

void
D2dBrainTorrent::DoDispose()
{
    m_endEvent.Cancel();
    m_models.clear();
    D2dPeerProtocol::DoDispose();
}

uint64_t
D2dBrainTorrent::VersionMessageBytes(uint32_t devices)
{
    return D2dModelCodec::HeaderBytes + 4 * static_cast<uint64_t>(devices);
}

void
D2dBrainTorrent::ConnectTransports()
{
    ConnectMessages({PingKind, AnswerKind, ModelKind},
                    MakeCallback(&D2dBrainTorrent::Receive, this),
                    MakeCallback(&D2dBrainTorrent::Lost, this));
}

std::vector<uint32_t>
D2dBrainTorrent::GetVersions(uint32_t device) const
{
    return device < m_versions.size() ? m_versions[device] : std::vector<uint32_t>();
}

void
D2dBrainTorrent::DoStart()
{
    const uint32_t k = GetNDevices();
    m_versions.assign(k, std::vector<uint32_t>(k, 0));
    if (m_commonInitialModel)
    {
        ShareInitialModel();
    }
    InitialTraining();
}

void
D2dBrainTorrent::InitialTraining()
{
    MarkRoundStart(Simulator::Now());
    m_initialPending = 0;
    for (uint32_t i : IdleDevices())
    {
        if (m_learners[i]->Train(LocalTask(),
                                 [this, i](const D2dTrainResult&) { InitialTrained(i); }))
        {
            ++m_initialPending;
        }
    }
    m_phase = Phase::TRAIN; // round 0: the initial jobs
    if (m_initialPending == 0)
    {
        m_endEvent = Simulator::ScheduleNow(&D2dBrainTorrent::InitialDone, this);
    }
    else if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dBrainTorrent::InitialDone, this);
    }
}

void
D2dBrainTorrent::InitialTrained(uint32_t device)
{
    ++m_versions[device][device]; // a job always makes a new version, even a late one
    if (m_round == 0 && m_phase == Phase::TRAIN && --m_initialPending == 0)
    {
        m_deadlineEvent.Cancel();
        m_endEvent = Simulator::ScheduleNow(&D2dBrainTorrent::InitialDone, this);
    }
}

void
D2dBrainTorrent::InitialDone()
{
    m_phase = Phase::IDLE;
    RecordDevices(0, LiveDevices());
    WriteRoundTime(0);
    WriteBytesSent(0);
    StartRound();
}

void
D2dBrainTorrent::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_awaitAnswer.clear();
    m_awaitModel.clear();
    m_models.clear();
    m_merged = 0;
    // The aggregator: uniform over the devices able to act (battery left, learner idle).
    const std::vector<uint32_t> candidates = IdleDevices();
    if (candidates.empty())
    {
        NS_LOG_INFO("round " << m_round << ": no device can aggregate");
        m_phase = Phase::IDLE;
        m_aggregator = 0;
        m_endEvent = Simulator::ScheduleNow(&D2dBrainTorrent::EndOfRound, this);
        return;
    }
    const auto c = static_cast<uint32_t>(candidates.size());
    m_aggregator = candidates[m_pick->GetInteger(0, c - 1)];
    m_phase = Phase::COLLECT;
    NS_LOG_INFO("round " << m_round << ": aggregator " << m_aggregator);

    auto ping = std::make_shared<VersionPayload>();
    ping->round = m_round;
    ping->origin = m_aggregator;
    ping->versions = m_versions[m_aggregator];
    // One transmission to every other device, named (a multicast rather than a broadcast
    // to the neighbours), so that a device that cannot hear it is reported (out_of_range)
    // and not waited for.
    std::vector<uint32_t> peers;
    for (uint32_t j = 0; j < GetNDevices(); ++j)
    {
        if (j != m_aggregator)
        {
            peers.push_back(j);
            m_awaitAnswer.insert(j); // a lost ping is reported by the aggregator's transport
        }
    }
    if (!peers.empty())
    {
        SendMessage(m_aggregator,
                    peers,
                    Create<D2dMessage>(PingKind, VersionMessageBytes(GetNDevices()), ping));
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dBrainTorrent::Deadline, this);
    }
}

void
D2dBrainTorrent::Receive(const D2dReception& r)
{
    const std::string& kind = r.message->GetKind();
    if (kind == PingKind)
    {
        auto ping = r.message->GetPayloadAs<VersionPayload>();
        if (!ping || ping->round != m_round || m_phase != Phase::COLLECT ||
            ping->origin != m_aggregator)
        {
            return; // a ping of an earlier round
        }
        // Peer j answers with its version vector and, if its model is newer than the one
        // the aggregator merged last, sends that model next.
        const uint32_t j = r.dst;
        Ptr<D2dLearner> learner = m_learners[j];
        auto answer = std::make_shared<VersionPayload>();
        answer->round = m_round;
        answer->origin = j;
        answer->versions = m_versions[j];
        answer->modelFollows = !learner->IsTraining() && m_versions[j][j] > ping->versions[j];
        SendMessage(j,
                    {ping->origin},
                    Create<D2dMessage>(AnswerKind, VersionMessageBytes(GetNDevices()), answer));
        if (answer->modelFollows)
        {
            auto coded = m_codec.Encode(ModelKind,
                                        D2dModelCodec::WHAT_WEIGHTS,
                                        m_round,
                                        learner->GetNSamples(),
                                        j,
                                        learner->GetParameters());
            auto model = std::make_shared<ModelPayload>(*coded->GetPayloadAs<D2dModelPayload>());
            model->version = m_versions[j][j];
            SendMessage(j,
                        {ping->origin},
                        Create<D2dMessage>(ModelKind, coded->GetSizeBytes(), model));
        }
        return;
    }
    if (m_phase != Phase::COLLECT || r.dst != m_aggregator)
    {
        return; // late
    }
    if (kind == AnswerKind)
    {
        auto answer = r.message->GetPayloadAs<VersionPayload>();
        if (!answer || answer->round != m_round || !m_awaitAnswer.erase(answer->origin))
        {
            return;
        }
        if (answer->modelFollows && !m_models.count(answer->origin))
        {
            m_awaitModel.insert(answer->origin);
        }
        TryMerge();
    }
    else if (kind == ModelKind)
    {
        auto model = r.message->GetPayloadAs<ModelPayload>();
        if (!model || model->round != m_round)
        {
            return;
        }
        m_models[model->origin] = model;
        m_awaitModel.erase(model->origin);
        TryMerge();
    }
}

void
D2dBrainTorrent::Lost(uint32_t src, uint32_t dst, Ptr<const D2dMessage> message)
{
    if (m_phase != Phase::COLLECT)
    {
        return;
    }
    const std::string& kind = message->GetKind();
    if (kind == PingKind)
    {
        auto ping = message->GetPayloadAs<VersionPayload>();
        if (ping && ping->round == m_round && src == m_aggregator)
        {
            m_awaitAnswer.erase(dst); // it did not hear the ping: no answer comes
        }
    }
    else if (kind == AnswerKind)
    {
        auto answer = message->GetPayloadAs<VersionPayload>();
        if (answer && answer->round == m_round && dst == m_aggregator)
        {
            m_awaitAnswer.erase(src); // a model that still comes is taken, not waited for
        }
    }
    else if (kind == ModelKind)
    {
        auto model = message->GetPayloadAs<ModelPayload>();
        if (model && model->round == m_round && dst == m_aggregator)
        {
            m_awaitModel.erase(src);
        }
    }
    TryMerge();
}

void
D2dBrainTorrent::TryMerge()
{
    if (m_phase == Phase::COLLECT && m_awaitAnswer.empty() && m_awaitModel.empty())
    {
        Merge();
    }
}

void
D2dBrainTorrent::Merge()
{
    m_deadlineEvent.Cancel();
    const uint32_t i = m_aggregator;
    Ptr<D2dLearner> learner = m_learners[i];
    // w_i <- sum_k n_k w_k / sum_k n_k over i and the models that arrived, ascending.
    std::vector<std::shared_ptr<const std::vector<float>>> values;
    std::vector<double> weights;
    std::vector<uint32_t> contributors;
    bool own = false;
    auto addOwn = [&]() {
        values.push_back(std::make_shared<const std::vector<float>>(learner->GetParameters()));
        weights.push_back(static_cast<double>(learner->GetNSamples()));
        contributors.push_back(i);
        own = true;
    };
    for (const auto& [origin, model] : m_models)
    {
        if (!own && origin > i)
        {
            addOwn();
        }
        values.push_back(model->values);
        weights.push_back(static_cast<double>(model->samples));
        contributors.push_back(origin);
        m_versions[i][origin] = model->version;
    }
    if (!own)
    {
        addOwn();
    }
    if (values.size() > 1)
    {
        learner->SetParameters(D2dRobustAggregation::Mean(values, weights));
    }
    m_merged = static_cast<uint32_t>(m_models.size());
    m_models.clear();
    m_mergedTrace(m_round, i, contributors);

    m_phase = Phase::TRAIN;
    const uint32_t round = m_round;
    const bool ok = m_transports[i]->IsOff()
                        ? false
                        : learner->Train(LocalTask(), [this, i, round](const D2dTrainResult&) {
                              Trained(i, round);
                          });
    if (!ok)
    {
        m_endEvent = Simulator::ScheduleNow(&D2dBrainTorrent::EndOfRound, this);
        return;
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dBrainTorrent::Deadline, this);
    }
}

void
D2dBrainTorrent::Trained(uint32_t device, uint32_t round)
{
    ++m_versions[device][device]; // a job always makes a new version, even a late one
    if (round == m_round && m_phase == Phase::TRAIN)
    {
        m_deadlineEvent.Cancel();
        m_endEvent = Simulator::ScheduleNow(&D2dBrainTorrent::EndOfRound, this);
    }
}

void
D2dBrainTorrent::Deadline()
{
    NS_LOG_INFO("round " << m_round << ": deadline");
    if (m_phase == Phase::COLLECT)
    {
        Merge(); // with what arrived in time
    }
    else if (m_phase == Phase::TRAIN)
    {
        EndOfRound(); // the aggregator is still training
    }
}

void
D2dBrainTorrent::EndOfRound()
{
    m_phase = Phase::IDLE;
    CancelUnsent(); // what is not on the air yet is stale: never sent
    RecordDevices(m_round, LiveDevices());
    WriteRoundTime(m_round);
    WriteBytesSent(m_round);
    WriteRow(m_round, -1, "aggregator", static_cast<double>(m_aggregator));
    WriteRow(m_round, -1, "models_received", static_cast<double>(m_merged));
    EndRound(MakeCallback(&D2dBrainTorrent::StartRound, this));
}

} // namespace ns3
