/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-decentralized-fl.h"

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

NS_LOG_COMPONENT_DEFINE("D2dDecentralizedFl");
NS_OBJECT_ENSURE_REGISTERED(D2dDecentralizedFl);

TypeId
D2dDecentralizedFl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dDecentralizedFl")
            .SetParent<D2dPeerProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dDecentralizedFl>()
            .AddAttribute("Neighbours",
                          "In-neighbours each device draws per round (Wagle et al. 2025 sec. VI-E: "
                          "7), capped at its number of candidates (K - 1, or its degree in "
                          "the graph of SetGraph)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&D2dDecentralizedFl::m_neighbours),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Weighting",
                          "Averaging weights: uniform (1 per model) or samples (the "
                          "models' training sample counts n_k)",
                          EnumValue(D2dPeerProtocol::UNIFORM),
                          D2dMakeEnumAccessor(&D2dDecentralizedFl::m_weighting),
                          MakeEnumChecker(D2dPeerProtocol::UNIFORM,
                                          "uniform",
                                          D2dPeerProtocol::SAMPLES,
                                          "samples"))
            .AddAttribute("CommonInitialModel",
                          "Every device starts from device 0's initial weights (false: "
                          "each from its own initialization)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dDecentralizedFl::m_commonInitialModel),
                          MakeBooleanChecker())
            .AddAttribute("DeferTraining",
                          "Defer the devices' LibTorch work and averages until the round's "
                          "end and compute them then in a locality order of the round's "
                          "neighbour graph, so that about one model per device is resident "
                          "(the same results, bit for bit; see D2dModelExchange)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dDecentralizedFl::m_deferTraining),
                          MakeBooleanChecker())
            .AddTraceSource("Averaged",
                            "A device averaged: (round, device, contributors)",
                            MakeTraceSourceAccessor(&D2dDecentralizedFl::m_averagedTrace),
                            "ns3::D2dDecentralizedFl::AveragedTracedCallback");
    return tid;
}

D2dDecentralizedFl::D2dDecentralizedFl()
{
    m_exchange = CreateObject<D2dModelExchange>();
}

void
D2dDecentralizedFl::DoDispose()
{
    if (m_exchange)
    {
        m_exchange->Dispose();
        m_exchange = nullptr;
    }
    D2dPeerProtocol::DoDispose();
}

void
D2dDecentralizedFl::ConnectTransports()
{
    m_exchange->Setup(m_learners, m_transports, m_mode, m_codec);
}

void
D2dDecentralizedFl::SetGraph(std::vector<std::vector<uint32_t>> adjacency)
{
    m_graph = std::move(adjacency);
}

void
D2dDecentralizedFl::SetGraphSource(Callback<std::vector<std::vector<uint32_t>>> source)
{
    m_graphSource = source;
}

void
D2dDecentralizedFl::CheckGraph() const
{
    const uint32_t k = GetNDevices();
    NS_ABORT_MSG_IF(!m_graph.empty() && m_graph.size() != k,
                    "D2dDecentralizedFl: graph of " << m_graph.size() << " devices, " << k
                                                    << " learners");
    for (uint32_t i = 0; i < m_graph.size(); ++i)
    {
        for (uint32_t j : m_graph[i])
        {
            NS_ABORT_MSG_IF(j >= k || j == i,
                            "D2dDecentralizedFl: graph edge " << j << " -> " << i);
        }
    }
}

void
D2dDecentralizedFl::DoStart()
{
    const bool bySamples = m_weighting == SAMPLES;
    CheckGraph();
    m_exchange->SetSampleWeighting(bySamples);
    m_exchange->SetDeferred(m_deferTraining);
    if (m_commonInitialModel)
    {
        ShareInitialModel();
    }
    RecordDevices(0, LiveDevices()); // the state before any round
    StartRound();
}

void
D2dDecentralizedFl::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_nAveraged = 0;
    m_available = 0;
    for (const auto& transport : m_transports)
    {
        m_available += transport->IsAway() ? 0 : 1;
    }
    if (!m_graphSource.IsNull())
    {
        m_graph = m_graphSource(); // e.g. who hears whom where the devices are now
        CheckGraph();
    }
    const std::vector<std::vector<uint32_t>> in = DrawInNeighbours(m_round);
    const uint32_t participants =
        m_exchange->Begin(m_round,
                          in,
                          LocalTask(),
                          MakeCallback(&D2dDecentralizedFl::Averaged, this),
                          MakeCallback(&D2dDecentralizedFl::AllAveraged, this));
    NS_LOG_INFO("round " << m_round << ": " << participants << " participants");
    if (participants > 0 && m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dDecentralizedFl::Deadline, this);
    }
}

std::vector<std::vector<uint32_t>>
D2dDecentralizedFl::DrawInNeighbours(uint32_t /* round */)
{
    const uint32_t k = GetNDevices();
    // Neighbour draws: partial Fisher-Yates over each device's candidates, in index order.
    std::vector<std::vector<uint32_t>> in(k);
    std::vector<uint32_t> candidates;
    for (uint32_t i = 0; i < k; ++i)
    {
        candidates.clear();
        if (m_graph.empty())
        {
            for (uint32_t j = 0; j < k; ++j)
            {
                if (j != i)
                {
                    candidates.push_back(j);
                }
            }
        }
        else
        {
            candidates = m_graph[i];
            std::sort(candidates.begin(), candidates.end());
            candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        }
        const auto c = static_cast<uint32_t>(candidates.size());
        const uint32_t m = std::min(m_neighbours, c);
        if (m < c)
        {
            PartialShuffle(candidates, m, m_pick);
        }
        in[i].assign(candidates.begin(), candidates.begin() + m);
        std::sort(in[i].begin(), in[i].end());
    }
    return in;
}

void
D2dDecentralizedFl::Averaged(uint32_t device, const std::vector<uint32_t>& contributors)
{
    ++m_nAveraged;
    m_averagedTrace(m_round, device, contributors);
}

void
D2dDecentralizedFl::AllAveraged()
{
    m_deadlineEvent.Cancel();
    EndOfRound();
}

void
D2dDecentralizedFl::Deadline()
{
    NS_LOG_INFO("round " << m_round << ": deadline");
    m_exchange->Close();
    EndOfRound();
}

void
D2dDecentralizedFl::EndOfRound()
{
    m_exchange->ComputeModels(); // in a locality order, before they are read
    RecordDevices(m_round, LiveDevices());
    if (m_learners[0]->MayGoAway())
    {
        WriteRow(m_round, -1, "available", static_cast<double>(m_available));
    }
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "participants", static_cast<double>(m_nAveraged));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(m_exchange->GetNStragglers()));
    WriteRow(m_round, -1, "models_received", static_cast<double>(m_exchange->GetNModelsReceived()));
    EndRound(MakeCallback(&D2dDecentralizedFl::StartRound, this));
}

} // namespace ns3
