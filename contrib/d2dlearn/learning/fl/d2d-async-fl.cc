/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-async-fl.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dAsyncFl");
NS_OBJECT_ENSURE_REGISTERED(D2dAsyncFl);

TypeId
D2dAsyncFl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dAsyncFl")
            .SetParent<D2dFlProtocol>()
            .SetGroupName("D2dlearn")
            .AddAttribute("Concurrency",
                          "Devices training at once (0: every device)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dAsyncFl::m_concurrency),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Staleness",
                          "The weight s(t - tau) of an update of staleness t - tau: constant "
                          "(1), polynomial ((t - tau + 1)^-a) or hinge (1 up to b, then "
                          "1 / (a (t - tau - b) + 1)) (Xie, Koyejo, Gupta 2019, sec. 5)",
                          EnumValue(D2dStaleness::POLYNOMIAL),
                          D2dMakeEnumAccessor(&D2dAsyncFl::m_staleness),
                          MakeEnumChecker(D2dStaleness::CONSTANT,
                                          "constant",
                                          D2dStaleness::POLYNOMIAL,
                                          "polynomial",
                                          D2dStaleness::HINGE,
                                          "hinge"))
            .AddAttribute("StalenessA",
                          "a of the polynomial and hinge s (0.5: 1 / sqrt(t - tau + 1))",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&D2dAsyncFl::m_stalenessA),
                          MakeDoubleChecker<double>(0.0, 1e6))
            .AddAttribute("StalenessB",
                          "b of the hinge s: versions an update may lag at full weight",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&D2dAsyncFl::m_stalenessB),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddTraceSource("Update",
                            "An update applied: (version t, device, staleness t - tau, weight)",
                            MakeTraceSourceAccessor(&D2dAsyncFl::m_updateTrace),
                            "ns3::D2dAsyncFl::UpdateTracedCallback");
    return tid;
}

D2dAsyncFl::D2dAsyncFl()
{
    m_pick = CreateObject<UniformRandomVariable>();
}

void
D2dAsyncFl::DoDispose()
{
    // The transports may outlive this protocol: leave them no callback into it.
    for (uint32_t i = 0; i < m_d2s.size(); ++i)
    {
        m_d2s[i]->RemoveReceiveHandler(i + 1 < m_d2s.size()
                                           ? MakeCallback(&D2dAsyncFl::ClientReceive, this)
                                           : MakeCallback(&D2dAsyncFl::ServerReceive, this));
        if (i + 1 < m_d2s.size())
        {
            m_d2s[i]->TraceDisconnectWithoutContext("Presence",
                                                    MakeCallback(&D2dAsyncFl::Presence, this));
            if (i < m_learners.size())
            {
                m_learners[i]->TraceDisconnectWithoutContext(
                    "TrainingLost",
                    MakeCallback(&D2dAsyncFl::ClientLost, this));
            }
        }
    }
    if (!m_d2s.empty())
    {
        m_d2s.back()->TraceDisconnectWithoutContext(
            "Delivery",
            MakeCallback(&D2dAsyncFl::DownlinkDelivery, this));
    }
    for (auto& [device, slot] : m_slots)
    {
        slot.timeout.Cancel();
    }
    m_slots.clear();
    m_pick = nullptr;
    D2dFlProtocol::DoDispose();
}

bool
D2dAsyncFl::UsesD2s() const
{
    return true;
}

std::vector<std::string>
D2dAsyncFl::GetUnreadAttributes() const
{
    return {"ns3::D2dFlProtocol::EvaluateDevices"};
}

int64_t
D2dAsyncFl::AssignStreams(int64_t stream)
{
    m_pick->SetStream(stream);
    return 1;
}

const std::vector<float>&
D2dAsyncFl::GetGlobalModel() const
{
    return m_global;
}

uint64_t
D2dAsyncFl::GetTotalUpdates() const
{
    return m_totalUpdates;
}

double
D2dAsyncFl::StalenessWeight(uint32_t staleness) const
{
    return D2dStaleness::Weight(m_staleness, m_stalenessA, m_stalenessB, staleness);
}

void
D2dAsyncFl::DoInitialize()
{
    D2dFlProtocol::DoInitialize();
    const uint32_t n = GetNDevices();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_d2s[i]->AddReceiveHandler(MakeCallback(&D2dAsyncFl::ClientReceive, this),
                                    D2dModelCodec::KIND_GLOBAL_MODEL);
    }
    m_d2s[n]->AddReceiveHandler(MakeCallback(&D2dAsyncFl::ServerReceive, this),
                                D2dModelCodec::KIND_UPDATE);
    m_d2s[n]->TraceConnectWithoutContext("Delivery",
                                         MakeCallback(&D2dAsyncFl::DownlinkDelivery, this));
    for (uint32_t i = 0; i < n; ++i)
    {
        m_d2s[i]->TraceConnectWithoutContext("Presence", MakeCallback(&D2dAsyncFl::Presence, this));
        m_learners[i]->TraceConnectWithoutContext("TrainingLost",
                                                  MakeCallback(&D2dAsyncFl::ClientLost, this));
    }
}

void
D2dAsyncFl::DoStart()
{
    m_global = m_learners[0]->GetParameters(); // x_0: device 0's initial weights
    for (auto& learner : m_learners)
    {
        learner->ReleaseParameters(); // a device holds a model only while it trains
    }
    RecordGlobal(0, m_global);
    m_round = 1;
    MarkRoundStart(Simulator::Now());
    const uint32_t n = GetNDevices();
    m_idle.clear();
    m_idleAt.assign(n, -1);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_d2s[i]->IsAway()) // a device away is drawn once it is back (Presence)
        {
            m_idleAt[i] = static_cast<int64_t>(m_idle.size());
            m_idle.push_back(i);
        }
    }
    Dispatch();
}

void
D2dAsyncFl::Dispatch()
{
    const uint32_t n = GetNDevices();
    const uint32_t limit = m_concurrency == 0 ? n : std::min(m_concurrency, n);
    if (m_finished)
    {
        return;
    }
    Ptr<D2dTransport> server = m_d2s[n];
    while (m_slots.size() < limit && !m_idle.empty())
    {
        // Uniform among the idle devices: O(1) a draw (m_idle's order is its history's).
        const auto at = static_cast<std::size_t>(m_pick->GetInteger(0, m_idle.size() - 1));
        const uint32_t device = m_idle[at];
        m_idle[at] = m_idle.back();
        m_idleAt[m_idle[at]] = static_cast<int64_t>(at);
        m_idle.pop_back();
        m_idleAt[device] = -1;
        auto message = m_codec.Encode(D2dModelCodec::KIND_GLOBAL_MODEL,
                                      D2dModelCodec::WHAT_WEIGHTS,
                                      m_version,
                                      0,
                                      n,
                                      m_global);
        Slot& slot = m_slots[device];
        slot.sentAt = Simulator::Now();
        slot.msgId = server->Send(message, device, m_d2sMode);
        if (m_deadline > Seconds(0))
        {
            slot.timeout =
                Simulator::Schedule(m_deadline, &D2dAsyncFl::Timeout, this, device, slot.sentAt);
        }
        NS_LOG_INFO("version " << m_version << " sent to device " << device);
    }
}

void
D2dAsyncFl::Release(uint32_t device, bool dead)
{
    auto it = m_slots.find(device);
    if (it != m_slots.end())
    {
        it->second.timeout.Cancel();
        m_slots.erase(it);
    }
    if (!dead && m_idleAt[device] < 0)
    {
        m_idleAt[device] = static_cast<int64_t>(m_idle.size());
        m_idle.push_back(device); // an empty battery (dead) is never drawn again
    }
}

void
D2dAsyncFl::ConfigureTask(D2dTrainTask&, const std::shared_ptr<const std::vector<float>>&) const
{
}

void
D2dAsyncFl::ClientLost(uint32_t device, Time, Time)
{
    m_learners[device]->ReleaseParameters(); // a device holds a model only while it trains
}

void
D2dAsyncFl::Presence(uint32_t device, bool present)
{
    if (m_finished || m_idleAt.empty())
    {
        return;
    }
    if (!present)
    {
        // Away or depleted: its model, job or update is lost; drawn again once back.
        if (m_slots.count(device))
        {
            NS_LOG_INFO("device " << device << " left with a model of the server's");
            Release(device, true);
            Simulator::ScheduleNow(&D2dAsyncFl::Dispatch, this); // not from inside the trace
        }
        else if (m_idleAt[device] >= 0)
        {
            const auto at = static_cast<std::size_t>(m_idleAt[device]);
            m_idle[at] = m_idle.back();
            m_idleAt[m_idle[at]] = static_cast<int64_t>(at);
            m_idle.pop_back();
            m_idleAt[device] = -1;
        }
        return;
    }
    if (m_idleAt[device] < 0 && !m_slots.count(device))
    {
        Release(device, false); // back in the draw
        Simulator::ScheduleNow(&D2dAsyncFl::Dispatch, this);
    }
}

void
D2dAsyncFl::Timeout(uint32_t device, Time sentAt)
{
    auto it = m_slots.find(device);
    if (it == m_slots.end() || it->second.sentAt != sentAt)
    {
        return;
    }
    NS_LOG_INFO("device " << device << " did not answer within the deadline");
    Release(device, false);
    Dispatch();
}

void
D2dAsyncFl::DownlinkDelivery(const D2dDeliveryRecord& record)
{
    // Only a reliable send tells the server that its model did not arrive.
    auto it = m_slots.find(record.dst);
    if (record.mode != D2dDeliveryMode::RELIABLE || record.delivered || it == m_slots.end() ||
        it->second.msgId != record.msgId)
    {
        return;
    }
    NS_LOG_INFO("the model to device " << record.dst << " was lost: " << record.reason);
    Release(record.dst, record.reason == "receiver_off");
    Simulator::ScheduleNow(&D2dAsyncFl::Dispatch, this); // not from inside the trace
}

void
D2dAsyncFl::ClientReceive(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return;
    }
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    const uint32_t device = r.dst;
    Ptr<D2dLearner> learner = m_learners[device];
    if (!payload->IsFor(device) || learner->IsTraining())
    {
        return; // still on an earlier model: this one is lost (its slot times out)
    }
    learner->SetParameters(payload->values);
    const uint32_t version = payload->round;
    std::shared_ptr<const std::vector<float>> base = payload->values;
    D2dTrainTask task = LocalTask();
    ConfigureTask(task, base);
    learner->Train(task, [this, device, version, base](const D2dTrainResult&) {
        Ptr<D2dLearner> l = m_learners[device];
        std::shared_ptr<const std::vector<float>> y = l->GetSharedParameters();
        l->ReleaseParameters();
        std::vector<float> upload = *y;
        if (UploadsDelta())
        {
            // FedBuff's Delta = x_tau - y (Nguyen et al. 2022, Algorithm 1).
            for (std::size_t j = 0; j < upload.size(); ++j)
            {
                upload[j] = (*base)[j] - upload[j];
            }
        }
        auto message =
            m_codec.Encode(D2dModelCodec::KIND_UPDATE,
                           UploadsDelta() ? D2dModelCodec::WHAT_DELTA : D2dModelCodec::WHAT_WEIGHTS,
                           version,
                           l->GetNSamples(),
                           device,
                           std::move(upload));
        m_d2s[device]->Send(message, GetNDevices(), m_d2sMode);
    });
}

void
D2dAsyncFl::ServerReceive(const D2dReception& r)
{
    if (!r.IsComplete() || m_finished)
    {
        return;
    }
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    const uint32_t device = payload->origin;
    NS_ABORT_MSG_IF(payload->round > m_version, Name() << ": an update from the future");
    const uint32_t staleness = m_version - payload->round;
    double weight = 0;
    const bool made = Apply(m_global, *payload->values, staleness, weight);
    m_updateTrace(m_version, device, staleness, weight);
    ++m_totalUpdates;
    m_versionStaleness.push_back(staleness);
    Release(device, false);
    if (made)
    {
        NewVersion();
    }
    Dispatch();
}

void
D2dAsyncFl::NewVersion()
{
    ++m_version;
    RecordGlobal(m_round, m_global);
    if (!GetNumericError().empty())
    {
        m_finished = true;
        return;
    }
    double sum = 0;
    double top = 0;
    for (double s : m_versionStaleness)
    {
        sum += s;
        top = std::max(top, s);
    }
    const auto count = static_cast<double>(m_versionStaleness.size());
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "updates", count);
    WriteRow(m_round, -1, "staleness_mean", count > 0 ? sum / count : 0.0);
    WriteRow(m_round, -1, "staleness_max", top);
    WriteBytesSent(m_round);
    m_versionStaleness.clear();
    m_finished = GetRoundsDone() + 1 >= GetRounds();
    // EndRound counts the version and fires RoundEnd (or the finished callback); the next
    // version's row number and start are set now, not in an event that another update
    // arriving at this instant could precede.
    EndRound(MakeCallback(&D2dAsyncFl::NextVersion, this));
    ++m_round;
    MarkRoundStart(Simulator::Now());
}

void
D2dAsyncFl::NextVersion()
{
    // Nothing to start: the devices already training carry on (EndRound's hook).
}

} // namespace ns3
