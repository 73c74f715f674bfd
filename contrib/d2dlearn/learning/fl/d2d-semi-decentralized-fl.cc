/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-semi-decentralized-fl.h"

#include "ns3/abort.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSemiDecentralizedFl");
NS_OBJECT_ENSURE_REGISTERED(D2dSemiDecentralizedFl);

TypeId
D2dSemiDecentralizedFl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dSemiDecentralizedFl")
            .SetParent<D2dPeerProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dSemiDecentralizedFl>()
            .AddAttribute("GroupSize",
                          "Devices per group when the groups are index blocks (Wagle et al. 2025 "
                          "sec. VI-E: 5)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&D2dSemiDecentralizedFl::m_groupSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "StepsPerExchange",
                "Local mini-batch steps between two group exchanges (Wagle et al. 2025: 2); "
                "LocalEpochs and LocalSteps are not used",
                UintegerValue(2),
                MakeUintegerAccessor(&D2dSemiDecentralizedFl::m_stepsPerExchange),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ExchangesPerRound",
                          "Group exchanges between two global aggregations (Wagle et al. 2025: 4, "
                          "i.e. 8 mini-batch steps per global aggregation)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&D2dSemiDecentralizedFl::m_exchangesPerRound),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Selected",
                            "The server chose a device per group: (round, chosen devices)",
                            MakeTraceSourceAccessor(&D2dSemiDecentralizedFl::m_selectedTrace),
                            "ns3::D2dSemiDecentralizedFl::SelectedTracedCallback");
    return tid;
}

D2dSemiDecentralizedFl::D2dSemiDecentralizedFl()
{
    m_exchange = CreateObject<D2dModelExchange>();
}

void
D2dSemiDecentralizedFl::DoDispose()
{
    // The transports may outlive this protocol: leave them no callback into it.
    for (uint32_t i = 0; i < m_d2s.size(); ++i)
    {
        const bool server = i + 1 == m_d2s.size();
        m_d2s[i]->RemoveReceiveHandler(
            server ? MakeCallback(&D2dSemiDecentralizedFl::ServerReceive, this)
                   : MakeCallback(&D2dSemiDecentralizedFl::DeviceReceive, this));
        m_d2s[i]->TraceDisconnectWithoutContext(
            "Delivery",
            server ? MakeCallback(&D2dSemiDecentralizedFl::BroadcastDelivery, this)
                   : MakeCallback(&D2dSemiDecentralizedFl::UploadDelivery, this));
    }
    if (m_exchange)
    {
        m_exchange->Dispose();
        m_exchange = nullptr;
    }
    D2dPeerProtocol::DoDispose();
}

bool
D2dSemiDecentralizedFl::UsesD2d() const
{
    return true;
}

bool
D2dSemiDecentralizedFl::UsesD2s() const
{
    return true;
}

std::vector<std::string>
D2dSemiDecentralizedFl::GetUnreadAttributes() const
{
    return {"ns3::D2dFlProtocol::EvaluateDevices"};
}

void
D2dSemiDecentralizedFl::ConnectTransports()
{
    m_exchange->Setup(m_learners, m_transports, m_mode, m_codec);
    m_exchange->SetSampleWeighting(true);
    const uint32_t k = GetNDevices();
    for (uint32_t i = 0; i < k; ++i)
    {
        Ptr<D2dTransport> device = m_d2s[i];
        device->AddReceiveHandler(MakeCallback(&D2dSemiDecentralizedFl::DeviceReceive, this),
                                  D2dModelCodec::KIND_GLOBAL_MODEL);
        device->TraceConnectWithoutContext(
            "Delivery",
            MakeCallback(&D2dSemiDecentralizedFl::UploadDelivery, this));
    }
    Ptr<D2dTransport> server = m_d2s[k];
    server->AddReceiveHandler(MakeCallback(&D2dSemiDecentralizedFl::ServerReceive, this),
                              D2dModelCodec::KIND_UPLOAD);
    server->TraceConnectWithoutContext(
        "Delivery",
        MakeCallback(&D2dSemiDecentralizedFl::BroadcastDelivery, this));
}

void
D2dSemiDecentralizedFl::SetGroups(std::vector<std::vector<uint32_t>> groups)
{
    m_groups = std::move(groups);
}

const std::vector<std::vector<uint32_t>>&
D2dSemiDecentralizedFl::GetGroups() const
{
    return m_groups;
}

const std::vector<float>&
D2dSemiDecentralizedFl::GetGlobalModel() const
{
    return m_global;
}

void
D2dSemiDecentralizedFl::DoStart()
{
    const uint32_t k = GetNDevices();
    if (m_groups.empty())
    {
        for (uint32_t i = 0; i < k; i += m_groupSize)
        {
            std::vector<uint32_t> g;
            for (uint32_t j = i; j < std::min(k, i + m_groupSize); ++j)
            {
                g.push_back(j);
            }
            m_groups.push_back(g);
        }
    }
    m_groupOf.assign(k, k);
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        std::sort(m_groups[g].begin(), m_groups[g].end());
        for (uint32_t i : m_groups[g])
        {
            NS_ABORT_MSG_IF(i >= k || m_groupOf[i] != k,
                            "D2dSemiDecentralizedFl: device " << i << " missing or in two groups");
            m_groupOf[i] = g;
        }
    }
    for (uint32_t i = 0; i < k; ++i)
    {
        NS_ABORT_MSG_IF(m_groupOf[i] == k,
                        "D2dSemiDecentralizedFl: device " << i << " in no group");
    }
    // w^0: device 0's initial weights, given to every device (no message).
    m_global = ShareInitialModel();
    RecordGlobal(0, m_global);
    StartRound();
}

void
D2dSemiDecentralizedFl::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_phase = 0;
    m_stragglers = 0;
    StartPhase();
}

void
D2dSemiDecentralizedFl::StartPhase()
{
    ++m_phase;
    m_stage = Stage::EXCHANGE;
    const uint32_t k = GetNDevices();
    std::vector<std::vector<uint32_t>> in(k);
    for (uint32_t i = 0; i < k; ++i)
    {
        for (uint32_t j : m_groups[m_groupOf[i]])
        {
            if (j != i)
            {
                in[i].push_back(j);
            }
        }
    }
    D2dTrainTask task;
    task.maxSteps = m_stepsPerExchange;
    const uint32_t participants =
        m_exchange->Begin(m_round,
                          in,
                          task,
                          D2dModelExchange::AveragedCallback(),
                          MakeCallback(&D2dSemiDecentralizedFl::PhaseDone, this));
    NS_LOG_INFO("round " << m_round << " phase " << m_phase << ": " << participants
                         << " participants");
    if (participants > 0 && m_deadline > Seconds(0))
    {
        m_deadlineEvent =
            Simulator::Schedule(m_deadline, &D2dSemiDecentralizedFl::PhaseDeadline, this);
    }
}

void
D2dSemiDecentralizedFl::PhaseDone()
{
    m_deadlineEvent.Cancel();
    EndPhase();
}

void
D2dSemiDecentralizedFl::PhaseDeadline()
{
    m_exchange->Close();
    EndPhase();
}

void
D2dSemiDecentralizedFl::EndPhase()
{
    m_stragglers += m_exchange->GetNStragglers();
    if (m_phase < m_exchangesPerRound)
    {
        StartPhase();
    }
    else
    {
        StartUpload();
    }
}

void
D2dSemiDecentralizedFl::StartUpload()
{
    m_stage = Stage::UPLOAD;
    m_uploads.clear();
    m_uploadIds.clear();
    m_uploadsPending = 0;
    const uint32_t k = GetNDevices();
    // One device per group, uniformly among the members that averaged in the last phase.
    std::vector<uint32_t> chosen(m_groups.size(), k);
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        std::vector<uint32_t> candidates;
        for (uint32_t i : m_groups[g])
        {
            if (m_exchange->HasAveraged(i) && !m_d2s[i]->IsOff())
            {
                candidates.push_back(i);
            }
        }
        if (!candidates.empty())
        {
            const auto n = static_cast<uint32_t>(candidates.size());
            chosen[g] = candidates[m_pick->GetInteger(0, n - 1)];
        }
    }
    std::vector<uint32_t> selected;
    for (uint32_t c : chosen)
    {
        if (c < k)
        {
            selected.push_back(c);
        }
    }
    m_selectedTrace(m_round, selected);
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        const uint32_t device = chosen[g];
        if (device == k)
        {
            continue;
        }
        uint64_t groupSamples = 0; // N_g: the group's data behind its model
        for (uint32_t i : m_groups[g])
        {
            groupSamples += m_learners[i]->GetNSamples();
        }
        auto message = m_codec.Encode(D2dModelCodec::KIND_UPLOAD,
                                      D2dModelCodec::WHAT_WEIGHTS,
                                      m_round,
                                      groupSamples,
                                      device,
                                      m_learners[device]->GetParameters());
        const uint64_t id = m_d2s[device]->Send(message, k, m_d2sMode);
        if (id != 0)
        {
            m_uploadIds[id] = g;
            ++m_uploadsPending;
        }
    }
    NS_LOG_INFO("round " << m_round << ": " << m_uploadsPending << " uploads");
    if (m_uploadsPending == 0)
    {
        Aggregate();
        return;
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dSemiDecentralizedFl::Aggregate, this);
    }
}

void
D2dSemiDecentralizedFl::ServerReceive(const D2dReception& r)
{
    if (m_stage != Stage::UPLOAD)
    {
        return;
    }
    auto it = m_uploadIds.find(r.msgId);
    if (it == m_uploadIds.end())
    {
        return; // late: its round's upload stage is over
    }
    if (r.IsComplete())
    {
        m_uploads[it->second] = r.message->GetPayloadAs<D2dModelPayload>();
    }
    m_uploadIds.erase(it);
    if (--m_uploadsPending == 0)
    {
        m_deadlineEvent.Cancel();
        Aggregate();
    }
}

void
D2dSemiDecentralizedFl::UploadDelivery(const D2dDeliveryRecord& record)
{
    if (m_stage != Stage::UPLOAD || record.delivered)
    {
        return;
    }
    auto it = m_uploadIds.find(record.msgId);
    if (it == m_uploadIds.end())
    {
        return;
    }
    m_uploadIds.erase(it);
    if (--m_uploadsPending == 0)
    {
        m_deadlineEvent.Cancel();
        Aggregate();
    }
}

void
D2dSemiDecentralizedFl::Aggregate()
{
    m_uploadIds.clear();
    const uint32_t k = GetNDevices();
    if (m_uploads.empty())
    {
        // Nothing arrived: w^{t+1} = w^t, and the devices keep their group models.
        NS_LOG_INFO("round " << m_round << ": no upload arrived");
        m_downloaded = 0;
        EndOfRound();
        return;
    }
    // w^{t+1} = sum_g N_g w_g / sum_g N_g, groups in ascending order.
    std::vector<std::shared_ptr<const std::vector<float>>> values;
    std::vector<double> weights;
    for (const auto& [g, payload] : m_uploads)
    {
        values.push_back(payload->values);
        weights.push_back(static_cast<double>(payload->samples));
    }
    auto message = m_codec.Encode(D2dModelCodec::KIND_GLOBAL_MODEL,
                                  D2dModelCodec::WHAT_WEIGHTS,
                                  m_round,
                                  0,
                                  k,
                                  D2dRobustAggregation::Mean(values, weights));
    m_global = *message->GetPayloadAs<D2dModelPayload>()->values;
    m_stage = Stage::DOWNLOAD;
    m_downloaded = 0;
    m_downloadPending.clear();
    for (uint32_t i = 0; i < k; ++i)
    {
        if (!m_d2s[i]->IsOff() && !m_learners[i]->IsTraining())
        {
            m_downloadPending.insert(i);
        }
    }
    m_broadcastId =
        m_downloadPending.empty() ? 0 : m_d2s[k]->Send(message, D2D_BROADCAST, m_d2sMode);
    if (m_broadcastId == 0)
    {
        EndOfRound();
        return;
    }
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent =
            Simulator::Schedule(m_deadline, &D2dSemiDecentralizedFl::EndOfRound, this);
    }
}

void
D2dSemiDecentralizedFl::DeviceReceive(const D2dReception& r)
{
    if (m_stage != Stage::DOWNLOAD || r.msgId != m_broadcastId || !m_downloadPending.count(r.dst))
    {
        return;
    }
    Ptr<D2dLearner> learner = m_learners[r.dst];
    if (r.IsComplete() && !learner->IsTraining())
    {
        learner->SetParameters(*r.message->GetPayloadAs<D2dModelPayload>()->values);
        ++m_downloaded;
    }
    DownloadResolved(r.dst);
}

void
D2dSemiDecentralizedFl::BroadcastDelivery(const D2dDeliveryRecord& record)
{
    if (m_stage != Stage::DOWNLOAD || record.delivered || record.msgId != m_broadcastId)
    {
        return;
    }
    DownloadResolved(record.dst);
}

void
D2dSemiDecentralizedFl::DownloadResolved(uint32_t device)
{
    if (m_downloadPending.erase(device) > 0 && m_downloadPending.empty())
    {
        m_deadlineEvent.Cancel();
        // Not from inside the reception: the next round's first phase starts from here.
        Simulator::ScheduleNow(&D2dSemiDecentralizedFl::EndOfRound, this);
        m_stage = Stage::IDLE;
    }
}

void
D2dSemiDecentralizedFl::EndOfRound()
{
    m_stage = Stage::IDLE;
    m_downloadPending.clear();
    RecordGlobal(m_round, m_global);
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "uploads", static_cast<double>(m_uploads.size()));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(m_stragglers));
    WriteRow(m_round, -1, "global_received", static_cast<double>(m_downloaded));
    m_uploads.clear();
    EndRound(MakeCallback(&D2dSemiDecentralizedFl::StartRound, this));
}

} // namespace ns3
