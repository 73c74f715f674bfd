/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-graph-discovery.h"

#include "d2d-baseline-graphs.h"
#include "d2d-discovery-payload.h"
#include "d2d-supervised-paradigm.h"

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

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dGraphDiscovery");
NS_OBJECT_ENSURE_REGISTERED(D2dGraphDiscovery);

namespace
{
const std::string REQUEST = "gd_request";
const std::string OFFER = "gd_offer";
const std::string DEMAND = "gd_demand";
const std::string ALLOCATION = "gd_allocation";
const std::string REWARD = "gd_reward";
const std::string GLOBAL = "gd_global";
const std::string DATA = "gd_data";
} // namespace

TypeId
D2dGraphDiscovery::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::D2dGraphDiscovery")
                       .SetParent<Object>()
                       .SetGroupName("D2dlearn")
                       .AddConstructor<D2dGraphDiscovery>()
                       .AddAttribute("Graph",
                                     "How the graph is found: rl (the policies learn it), closest, "
                                     "most-trusted, uniform, gcn (SetLinkScores), none, fixed "
                                     "(SetFixedGraph: the iterations run on it without learning)",
                                     EnumValue(D2dGraphDiscovery::RL),
                                     D2dMakeEnumAccessor(&D2dGraphDiscovery::m_graph),
                                     MakeEnumChecker(D2dGraphDiscovery::RL,
                                                     "rl",
                                                     D2dGraphDiscovery::CLOSEST,
                                                     "closest",
                                                     D2dGraphDiscovery::MOST_TRUSTED,
                                                     "most-trusted",
                                                     D2dGraphDiscovery::UNIFORM,
                                                     "uniform",
                                                     D2dGraphDiscovery::GCN,
                                                     "gcn",
                                                     D2dGraphDiscovery::NONE,
                                                     "none",
                                                     D2dGraphDiscovery::FIXED,
                                                     "fixed"))
                       .AddAttribute("Iterations",
                                     "RL iterations per edge round",
                                     UintegerValue(5000),
                                     MakeUintegerAccessor(&D2dGraphDiscovery::m_iterations),
                                     MakeUintegerChecker<uint32_t>(1, 10000000));
        // The attributes keep their former order, which run.json follows.
        AddPolicyAttributes(t);
        t.AddAttribute("Edges",
                       "E: incoming edges per device, discovered one after another",
                       UintegerValue(1),
                       MakeUintegerAccessor(&D2dGraphDiscovery::m_edges),
                       MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute(
                "ReliabilityThreshold",
                "alpha_D: P_D bound on every pair of a reliable cluster (eq. (1))",
                DoubleValue(0.1),
                MakeDoubleAccessor(
                    &D2dGraphDiscovery::
                        SetPolicyParameter<double, &D2dDiscoveryPolicies::Parameters::alphaD>,
                    &D2dGraphDiscovery::
                        GetPolicyParameter<double, &D2dDiscoveryPolicies::Parameters::alphaD>),
                MakeDoubleChecker<double>(0, 1));
        AddMessageAttributes(t);
        t.AddAttribute("IterationPeriod",
                       "Iterations start at multiples of this period (0: each right after "
                       "the previous); with dynamic RSS, the RSS step",
                       TimeValue(Seconds(0)),
                       MakeTimeAccessor(&D2dGraphDiscovery::m_iterationPeriod),
                       MakeTimeChecker(Seconds(0)))
            .AddAttribute("GuardTime",
                          "Time between the end of a phase's last message and the next phase",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&D2dGraphDiscovery::m_guard),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("SleepBetweenIterations",
                          "With IterationPeriod > 0: every device knows when the next "
                          "iteration starts, and its radio sleeps from the end of an "
                          "iteration until then (D2dTransport::IdleUntil)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&D2dGraphDiscovery::m_sleepBetween),
                          MakeBooleanChecker())
            .AddAttribute("Paradigm",
                          "The learning paradigm (partitions, messages, diversity score)",
                          PointerValue(),
                          MakePointerAccessor(&D2dGraphDiscovery::m_paradigm),
                          MakePointerChecker<D2dDiscoveryParadigm>())
            .AddAttribute("LinkScorer",
                          "Graph gcn: scores every link at Start unless SetLinkScores gave "
                          "the "
                          "scores (e.g. D2dGcnGraphScorer, the GCN baseline of App. C)",
                          PointerValue(),
                          MakePointerAccessor(&D2dGraphDiscovery::m_linkScorer),
                          MakePointerChecker<D2dLinkScorer>());
        AddTraceSources(t);
        return t;
    }();
    return tid;
}

void
D2dGraphDiscovery::AddPolicyAttributes(TypeId& tid)
{
    tid.AddAttribute(
           "BufferSize",
           "H: rewards an experience buffer holds",
           UintegerValue(256),
           MakeUintegerAccessor(
               &D2dGraphDiscovery::
                   SetPolicyParameter<uint32_t, &D2dDiscoveryPolicies::Parameters::bufferSize>,
               &D2dGraphDiscovery::
                   GetPolicyParameter<uint32_t, &D2dDiscoveryPolicies::Parameters::bufferSize>),
           MakeUintegerChecker<uint32_t>(1, 10000000))
        .AddAttribute(
            "Gamma",
            "gamma: weight of the global reward",
            DoubleValue(0.5),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::gamma>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::gamma>),
            MakeDoubleChecker<double>(0, 1e6))
        .AddAttribute(
            "Delta",
            "delta: reduction of below-mean rewards",
            DoubleValue(0.9),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::delta>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::delta>),
            MakeDoubleChecker<double>(0, 1))
        .AddAttribute(
            "Alpha1",
            "alpha1: weight of the diversity score in eq. (13)",
            DoubleValue(1.0),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha1>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha1>),
            MakeDoubleChecker<double>(0, 1e6))
        .AddAttribute(
            "Alpha2",
            "alpha2: weight of P_D in eq. (13)",
            DoubleValue(1.0),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha2>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha2>),
            MakeDoubleChecker<double>(0, 1e6))
        .AddAttribute(
            "Alpha3",
            "alpha3: weight of the cluster budget in eq. (14), per datapoint (-1: "
            "0 without a Budget, 1 / Budget with one; Start sets the value used)",
            DoubleValue(-1.0),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha3>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::alpha3>),
            MakeDoubleChecker<double>(-1, 1e6))
        .AddAttribute(
            "Budget",
            "B_k: datapoints a cluster may receive over inter-cluster links",
            DoubleValue(0.0),
            MakeDoubleAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::budget>,
                &D2dGraphDiscovery::GetPolicyParameter<double,
                                                       &D2dDiscoveryPolicies::Parameters::budget>),
            MakeDoubleChecker<double>(0, 1e12))
        .AddAttribute(
            "BufferMode",
            "per-action (a buffer per (state, action)) or shared (one per device)",
            EnumValue(D2dGraphDiscovery::BUFFER_PER_ACTION),
            D2dMakeEnumAccessor(
                &D2dGraphDiscovery::
                    SetPolicyParameter<BufferMode, &D2dDiscoveryPolicies::Parameters::bufferMode>,
                &D2dGraphDiscovery::
                    GetPolicyParameter<BufferMode, &D2dDiscoveryPolicies::Parameters::bufferMode>),
            MakeEnumChecker(D2dGraphDiscovery::BUFFER_PER_ACTION,
                            "per-action",
                            D2dGraphDiscovery::BUFFER_SHARED,
                            "shared"))
        .AddAttribute(
            "BetaMode",
            "sign-aware (below-mean R -> R - delta |R|) or literal ((1-delta) R)",
            EnumValue(D2dGraphDiscovery::BETA_SIGN_AWARE),
            D2dMakeEnumAccessor(
                &D2dGraphDiscovery::SetPolicyParameter<BetaMode,
                                                       &D2dDiscoveryPolicies::Parameters::betaMode>,
                &D2dGraphDiscovery::
                    GetPolicyParameter<BetaMode, &D2dDiscoveryPolicies::Parameters::betaMode>),
            MakeEnumChecker(D2dGraphDiscovery::BETA_SIGN_AWARE,
                            "sign-aware",
                            D2dGraphDiscovery::BETA_LITERAL,
                            "literal"))
        .AddAttribute(
            "StateMode",
            "Dynamic RSS: per-link (action j's state is the quantised W_ij) or "
            "row (the whole quantised row, the literal state)",
            EnumValue(D2dGraphDiscovery::STATE_PER_LINK),
            D2dMakeEnumAccessor(
                &D2dGraphDiscovery::
                    SetPolicyParameter<StateMode, &D2dDiscoveryPolicies::Parameters::stateMode>,
                &D2dGraphDiscovery::
                    GetPolicyParameter<StateMode, &D2dDiscoveryPolicies::Parameters::stateMode>),
            MakeEnumChecker(D2dGraphDiscovery::STATE_PER_LINK,
                            "per-link",
                            D2dGraphDiscovery::STATE_ROW,
                            "row"));
}

void
D2dGraphDiscovery::AddMessageAttributes(TypeId& tid)
{
    tid.AddAttribute("ControlReliable",
                     "Send the control messages (request, V, Q, U, reward) reliably",
                     BooleanValue(true),
                     MakeBooleanAccessor(&D2dGraphDiscovery::m_controlReliable),
                     MakeBooleanChecker())
        .AddAttribute("DataReliable",
                      "Send the datapoints reliably",
                      BooleanValue(false),
                      MakeBooleanAccessor(&D2dGraphDiscovery::m_dataReliable),
                      MakeBooleanChecker())
        .AddAttribute("BytesPerPoint",
                      "Size of a datapoint on the air (785: a Fashion-MNIST image + label; "
                      "D2dGraphDiscoveryHelper sets it from the data set unless given)",
                      UintegerValue(785),
                      MakeUintegerAccessor(&D2dGraphDiscovery::m_bytesPerPoint),
                      MakeUintegerChecker<uint32_t>(1, 100000000))
        .AddAttribute(
            "RewardBytes",
            "Size of a reward message (r^L and d' as two float32), bytes",
            UintegerValue(8),
            MakeUintegerAccessor(
                &D2dGraphDiscovery::
                    SetPolicyParameter<uint32_t, &D2dDiscoveryPolicies::Parameters::rewardBytes>,
                &D2dGraphDiscovery::
                    GetPolicyParameter<uint32_t, &D2dDiscoveryPolicies::Parameters::rewardBytes>),
            MakeUintegerChecker<uint32_t>(1, 1500))
        .AddAttribute(
            "GlobalRewardBytes",
            "Size of a cluster head's r^G message (one float32), bytes",
            UintegerValue(4),
            MakeUintegerAccessor(&D2dGraphDiscovery::SetPolicyParameter<
                                     uint32_t,
                                     &D2dDiscoveryPolicies::Parameters::globalRewardBytes>,
                                 &D2dGraphDiscovery::GetPolicyParameter<
                                     uint32_t,
                                     &D2dDiscoveryPolicies::Parameters::globalRewardBytes>),
            MakeUintegerChecker<uint32_t>(1, 1500))
        .AddAttribute("RewardSharing",
                      "How local rewards reach the cluster: cluster-head (members -> head, "
                      "head -> members with r^G; O(1) messages per device) or multicast "
                      "(every member to every other, the literal reading)",
                      EnumValue(D2dGraphDiscovery::CLUSTER_HEAD),
                      D2dMakeEnumAccessor(&D2dGraphDiscovery::SetPolicyParameter<
                                              RewardSharing,
                                              &D2dDiscoveryPolicies::Parameters::rewardSharing>,
                                          &D2dGraphDiscovery::GetPolicyParameter<
                                              RewardSharing,
                                              &D2dDiscoveryPolicies::Parameters::rewardSharing>),
                      MakeEnumChecker(D2dGraphDiscovery::CLUSTER_HEAD,
                                      "cluster-head",
                                      D2dGraphDiscovery::MULTICAST,
                                      "multicast"));
}

void
D2dGraphDiscovery::AddTraceSources(TypeId& tid)
{
    tid.AddTraceSource("Iteration",
                       "One device's choice and rewards in one iteration",
                       MakeTraceSourceAccessor(&D2dGraphDiscovery::m_iterationTrace),
                       "ns3::D2dGraphDiscovery::IterationTracedCallback")
        .AddTraceSource("Histogram",
                        "A device's partition counts before and after an edge's exchange",
                        MakeTraceSourceAccessor(&D2dGraphDiscovery::m_histogramTrace),
                        "ns3::D2dGraphDiscovery::HistogramTracedCallback")
        .AddTraceSource("Link",
                        "One datapoint exchange over an edge",
                        MakeTraceSourceAccessor(&D2dGraphDiscovery::m_linkTrace),
                        "ns3::D2dGraphDiscovery::LinkTracedCallback")
        .AddTraceSource("Stage",
                        "An edge round's learning ended or its datapoints moved",
                        MakeTraceSourceAccessor(&D2dGraphDiscovery::m_stageTrace),
                        "ns3::D2dGraphDiscovery::StageTracedCallback");
}

D2dGraphDiscovery::D2dGraphDiscovery()
{
    m_uniform = CreateObject<UniformRandomVariable>();
}

D2dGraphDiscovery::~D2dGraphDiscovery() = default;

void
D2dGraphDiscovery::DoDispose()
{
    for (auto& t : m_transports)
    {
        t->RemoveReceiveHandler(MakeCallback(&D2dGraphDiscovery::Receive, this));
        t->RemoveSendDoneHandler(MakeCallback(&D2dGraphDiscovery::SendDone, this));
    }
    m_transports.clear();
    m_linkQuality = nullptr;
    m_linkScorer = nullptr;
    m_paradigm = nullptr;
    m_uniform = nullptr;
    m_finished = Callback<void>();
    Object::DoDispose();
}

void
D2dGraphDiscovery::Setup(const std::vector<Ptr<D2dTransport>>& transports,
                         Ptr<D2dLinkQuality> links)
{
    m_transports = transports;
    m_linkQuality = links;
    m_n = transports.size();
    for (auto& t : m_transports)
    {
        for (const auto& kind : {REQUEST, OFFER, DEMAND, ALLOCATION, REWARD, GLOBAL, DATA})
        {
            t->AddReceiveHandler(MakeCallback(&D2dGraphDiscovery::Receive, this), kind);
        }
        t->AddSendDoneHandler(MakeCallback(&D2dGraphDiscovery::SendDone, this));
    }
}

void
D2dGraphDiscovery::SetFixedGraph(const std::vector<int64_t>& selection)
{
    m_fixed = selection;
}

void
D2dGraphDiscovery::SetLinkScores(const std::vector<std::vector<double>>& scores)
{
    m_linkScores = scores;
}

void
D2dGraphDiscovery::SetFinishedCallback(Callback<void> cb)
{
    m_finished = cb;
}

int64_t
D2dGraphDiscovery::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

std::set<std::string>
D2dGraphDiscovery::ControlKinds()
{
    return {REQUEST, OFFER, DEMAND, ALLOCATION, REWARD, GLOBAL};
}

Ptr<D2dDiscoveryParadigm>
D2dGraphDiscovery::GetParadigm() const
{
    return m_paradigm;
}

const std::vector<uint32_t>&
D2dGraphDiscovery::GetClusters() const
{
    return m_rl.GetClusters();
}

const std::vector<std::vector<D2dLinkPolicy>>&
D2dGraphDiscovery::GetPolicies() const
{
    return m_rl.GetPolicies();
}

const std::vector<std::vector<int64_t>>&
D2dGraphDiscovery::GetGraphs() const
{
    return m_graphs;
}

const std::vector<D2dGraphDiscovery::Link>&
D2dGraphDiscovery::GetLinks() const
{
    return m_exchange.GetLinks();
}

bool
D2dGraphDiscovery::IsFinished() const
{
    return m_finishedFlag;
}

double
D2dGraphDiscovery::DropProbability(uint32_t rx, uint32_t tx) const
{
    return m_linkQuality->GetDropProbability(rx, tx);
}

std::vector<uint32_t>
D2dGraphDiscovery::CurrentStates(uint32_t rx)
{
    return m_rl.CurrentStates(rx, *m_linkQuality);
}

void
D2dGraphDiscovery::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_paradigm, "D2dGraphDiscovery: no Paradigm");
    NS_ABORT_MSG_UNLESS(m_paradigm->GetNDevices() == m_n,
                        "D2dGraphDiscovery: the paradigm's N differs from the transports'");
    NS_ABORT_MSG_IF(m_graph == FIXED && m_fixed.size() != m_n,
                    "D2dGraphDiscovery: Graph fixed needs SetFixedGraph with N entries");
    if (m_graph == GCN && m_linkScores.size() != m_n && m_linkScorer)
    {
        // The GCN baseline (App. C) scores the links once the partitions are known.
        m_linkScores = m_linkScorer->Score(*m_paradigm, *m_linkQuality);
    }
    NS_ABORT_MSG_IF(m_graph == GCN && m_linkScores.size() != m_n,
                    "D2dGraphDiscovery: Graph gcn needs a LinkScorer or SetLinkScores with N x N "
                    "scores");
    std::vector<std::vector<double>> p(m_n, std::vector<double>(m_n, 0.0));
    for (uint32_t i = 0; i < m_n; ++i)
    {
        for (uint32_t j = 0; j < m_n; ++j)
        {
            p[i][j] = i == j ? 0.0 : DropProbability(i, j);
        }
    }
    m_rl.Start(p, *m_paradigm);
    m_excluded.assign(m_n, std::vector<bool>(m_n, false));
    for (uint32_t out = 0; out < m_n; ++out)
    {
        if (!m_rl.SitsOut(out))
        {
            continue;
        }
        for (uint32_t i = 0; i < m_n; ++i)
        {
            m_excluded[i][out] = true; // no edge out of it
            m_excluded[out][i] = true; // nor into it
        }
    }
    m_edge = 0;
    StartEdge();
}

void
D2dGraphDiscovery::StartEdge()
{
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_histogramTrace("before", m_edge, i, m_paradigm->GetCounts(i));
    }
    m_rl.AddEdge(m_graph == RL);
    m_iteration = 0;
    m_final = m_graph != RL && m_graph != FIXED;
    if (m_final)
    {
        m_stageTrace(m_edge, "learned");
    }
    StartIteration();
}

std::vector<int64_t>
D2dGraphDiscovery::BaselineGraph()
{
    // Each baseline of Wagle et al. 2025, sec. VI, is one function of D2dBaselineGraphs.
    switch (m_graph)
    {
    case NONE:
        return D2dBaselineGraphs::None(m_n);
    case GCN:
        return D2dBaselineGraphs::HighestScore(m_linkScores, m_excluded);
    case UNIFORM:
        return D2dBaselineGraphs::Uniform(
            m_n,
            [this]() { return m_uniform->GetValue(); },
            m_excluded);
    default:
        break;
    }
    std::vector<std::vector<double>> p(m_n, std::vector<double>(m_n, 0.0));
    for (uint32_t i = 0; i < m_n; ++i)
    {
        for (uint32_t j = 0; j < m_n; ++j)
        {
            p[i][j] = i == j ? 0.0 : DropProbability(i, j);
        }
    }
    if (m_graph == CLOSEST)
    {
        return D2dBaselineGraphs::Closest(p, m_excluded);
    }
    NS_ASSERT(m_graph == MOST_TRUSTED);
    // Most trusted: the paradigm's count of shareable partitions (the supervised one:
    // sum_l T_j[i,l] 1[D_j[l] > b_j[l]]).
    std::vector<std::vector<double>> shareable(m_n, std::vector<double>(m_n, 0.0));
    for (uint32_t i = 0; i < m_n; ++i)
    {
        for (uint32_t j = 0; j < m_n; ++j)
        {
            shareable[i][j] = i == j ? 0.0 : m_paradigm->Shareable(j, i);
        }
    }
    return D2dBaselineGraphs::MostShareable(shareable, p, m_excluded);
}

void
D2dGraphDiscovery::StartIteration()
{
    const uint32_t nl = m_paradigm->GetNPartitions();
    m_it.sel.assign(m_n, -1);
    m_it.selState.assign(m_n, 0);
    m_it.selDrop.assign(m_n, 0.0);
    if (m_graph == RL)
    {
        for (uint32_t i = 0; i < m_n; ++i)
        {
            const auto states = CurrentStates(i);
            std::vector<bool> allowed(m_n, true);
            for (uint32_t j = 0; j < m_n; ++j)
            {
                allowed[j] = j != i && !m_excluded[i][j];
            }
            if (std::none_of(allowed.begin(), allowed.end(), [](bool a) { return a; }))
            {
                continue;
            }
            const auto probs = m_rl.GetPolicy(m_edge, i).Probabilities(states, allowed);
            const double u = m_uniform->GetValue();
            const uint32_t j =
                m_final ? D2dLinkPolicy::Greedy(probs) : D2dLinkPolicy::Sample(probs, u);
            m_it.sel[i] = j;
            m_it.selState[i] = states[j];
        }
    }
    else if (m_graph == FIXED)
    {
        m_it.sel = m_fixed;
    }
    else
    {
        m_it.sel = BaselineGraph();
    }
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_it.sel[i] >= 0 && (m_rl.SitsOut(i) || m_rl.SitsOut(m_it.sel[i])))
        {
            m_it.sel[i] = -1; // a fixed graph's link of a device that sits out
        }
        if (m_it.sel[i] >= 0)
        {
            m_it.selDrop[i] = DropProbability(i, m_it.sel[i]);
        }
    }
    m_it.ResetMessages(m_n, nl);
    m_paradigm->StartStep();
    RunPhase(Phase::REQUEST);
}

uint64_t
D2dGraphDiscovery::SendControl(uint32_t src,
                               const std::vector<uint32_t>& dst,
                               const std::string& kind,
                               uint64_t bytes,
                               std::shared_ptr<const D2dDiscoveryPayload> payload,
                               D2dDeliveryMode mode)
{
    auto msg = Create<D2dMessage>(kind, bytes, payload);
    const uint64_t id = m_transports[src]->Send(msg, dst, mode);
    if (id > 0)
    {
        m_pending.insert(id);
    }
    return id;
}

void
D2dGraphDiscovery::RunPhase(Phase phase)
{
    m_phase = phase;
    switch (phase)
    {
    case Phase::REQUEST:
        SendRequests();
        break;
    case Phase::OFFER:
        SendOffers();
        break;
    case Phase::DEMAND:
        SendDemands();
        break;
    case Phase::ALLOCATION:
        SendAllocations();
        break;
    case Phase::REWARD:
        SendRewards();
        break;
    case Phase::GLOBAL:
        SendGlobalRewards();
        break;
    case Phase::DATA:
        SendData();
        break;
    }
    if (m_pending.empty())
    {
        PhaseDone();
    }
}

std::shared_ptr<D2dDiscoveryPayload>
D2dGraphDiscovery::MakePayload(const D2dFractionalCounts& values) const
{
    auto p = std::make_shared<D2dDiscoveryPayload>();
    p->edge = m_edge;
    p->iteration = m_iteration;
    p->values = values;
    return p;
}

D2dDeliveryMode
D2dGraphDiscovery::ControlMode() const
{
    return m_controlReliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
}

void
D2dGraphDiscovery::SendRequests()
{
    const auto control = ControlMode();
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_it.sel[i] >= 0)
        {
            // Without the offer phase the request carries the demand (Alg. 2).
            SendControl(i,
                        {static_cast<uint32_t>(m_it.sel[i])},
                        REQUEST,
                        m_paradigm->GetRequestBytes(),
                        MakePayload(m_paradigm->HasOfferPhase() ? D2dFractionalCounts{}
                                                                : m_paradigm->Demand(i, {})),
                        control);
        }
    }
}

void
D2dGraphDiscovery::SendOffers()
{
    const auto control = ControlMode();
    for (uint32_t j = 0; j < m_n; ++j)
    {
        for (uint32_t i : m_it.requestsAt[j])
        {
            SendControl(j,
                        {i},
                        OFFER,
                        m_paradigm->GetVectorBytes(),
                        MakePayload(m_paradigm->Offer(j, i)),
                        control);
        }
    }
}

void
D2dGraphDiscovery::SendDemands()
{
    const auto control = ControlMode();
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_it.offerAt[i] && m_it.sel[i] >= 0)
        {
            SendControl(i,
                        {static_cast<uint32_t>(m_it.sel[i])},
                        DEMAND,
                        m_paradigm->GetVectorBytes(),
                        MakePayload(m_paradigm->Demand(i, *m_it.offerAt[i])),
                        control);
        }
    }
}

void
D2dGraphDiscovery::SendAllocations()
{
    const uint32_t nl = m_paradigm->GetNPartitions();
    const auto control = ControlMode();
    for (uint32_t j = 0; j < m_n; ++j)
    {
        if (m_it.demandAt[j].empty())
        {
            continue;
        }
        std::vector<D2dFractionalCounts> q;
        std::vector<uint32_t> requesters;
        for (const auto& [i, d] : m_it.demandAt[j])
        {
            q.push_back(d);
            requesters.push_back(i);
        }
        const auto u = m_paradigm->AllocateTo(j, requesters, q);
        std::size_t k = 0;
        for (const auto& [i, d] : m_it.demandAt[j])
        {
            m_it.allocatedBy[j][i] = u[k];
            for (uint32_t l = 0; l < nl; ++l)
            {
                m_it.sentBy[j][l] += u[k][l];
            }
            SendControl(j,
                        {i},
                        ALLOCATION,
                        m_paradigm->GetAllocationBytes(),
                        MakePayload(u[k]),
                        control);
            ++k;
        }
    }
}

void
D2dGraphDiscovery::SendRewards()
{
    const uint32_t nl = m_paradigm->GetNPartitions();
    const auto control = ControlMode();
    // Every receiver's score first, at once (a paradigm may spread them over threads).
    std::vector<D2dFractionalCounts> received(m_n, D2dFractionalCounts(nl, 0.0));
    std::vector<D2dDiscoveryScoring::GainRequest> requests;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_it.allocationAt[i] != nullptr)
        {
            received[i] = *m_it.allocationAt[i];
        }
        if (m_it.sel[i] >= 0)
        {
            requests.push_back({i,
                                static_cast<uint32_t>(m_it.sel[i]),
                                &received[i],
                                m_it.selDrop[i],
                                &m_it.sentBy[i]});
        }
    }
    const auto gains = m_paradigm->GainsFrom(requests);
    std::size_t next = 0;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        const auto& u = received[i];
        const double g = m_it.sel[i] < 0 ? 0.0 : gains.at(next++);
        m_it.localReward[i] = m_it.sel[i] < 0 ? 0.0 : m_rl.LocalReward(g, m_it.selDrop[i]);
        double points = 0;
        if (m_it.sel[i] >= 0 && m_rl.IsInterCluster(i, m_it.sel[i]))
        {
            for (double x : u)
            {
                points += x;
            }
        }
        m_it.interCluster[i] = points;
        m_it.gain[i] = g;
        const auto others = m_rl.RewardDestinations(i);
        if (!others.empty())
        {
            auto p = MakePayload({});
            p->localReward = m_it.localReward[i];
            p->interClusterPoints = points;
            SendControl(i,
                        others,
                        REWARD,
                        m_rl.GetParameters().rewardBytes + m_paradigm->GetRewardExtraBytes(),
                        p,
                        control);
        }
    }
}

void
D2dGraphDiscovery::SendGlobalRewards()
{
    const auto control = ControlMode();
    if (m_paradigm->HasSystemAgreement())
    {
        // Every head's eq. (17) at once (a paradigm may spread them over threads).
        std::vector<std::vector<uint32_t>> groups;
        for (const auto& members : m_rl.GetClusterMembers())
        {
            if (!m_rl.SitsOut(members.front()))
            {
                groups.push_back(m_rl.AgreementDevices(members.front(), m_it));
            }
        }
        m_paradigm->PrepareAgreements(groups);
    }
    for (const auto& members : m_rl.GetClusterMembers())
    {
        const uint32_t head = members.front();
        m_it.global[head] =
            m_rl.SitsOut(head) ? 0.0 : m_rl.ClusterGlobalReward(head, m_it, *m_paradigm);
        if (members.size() > 1)
        {
            auto p = MakePayload({});
            p->globalReward = m_it.global[head];
            SendControl(head,
                        std::vector<uint32_t>(members.begin() + 1, members.end()),
                        GLOBAL,
                        m_rl.GetParameters().globalRewardBytes,
                        p,
                        control);
        }
    }
}

void
D2dGraphDiscovery::SendData()
{
    const uint32_t nl = m_paradigm->GetNPartitions();
    for (uint32_t j = 0; j < m_n; ++j)
    {
        for (const auto& [i, u] : m_it.allocatedBy[j])
        {
            double total = 0;
            for (double x : u)
            {
                total += x;
            }
            Link link;
            link.edge = m_edge;
            link.receiver = i;
            link.transmitter = j;
            link.pDrop = DropProbability(i, j);
            link.requested = m_it.demandAt[j].at(i);
            link.allocated = u;
            link.received = D2dFractionalCounts(nl, 0.0);
            const std::size_t index = m_exchange.AddLink(link);
            if (total <= 0)
            {
                continue;
            }
            const auto items = static_cast<uint64_t>(total + 0.5);
            auto msg = Create<D2dMessage>(DATA, items * m_bytesPerPoint, MakePayload(u), items);
            const uint64_t id = m_transports[j]->Send(msg,
                                                      std::vector<uint32_t>{i},
                                                      m_dataReliable ? D2dDeliveryMode::RELIABLE
                                                                     : D2dDeliveryMode::UNRELIABLE);
            if (id > 0)
            {
                m_pending.insert(id);
                m_exchange.AddMessage(id, index);
            }
        }
    }
}

void
D2dGraphDiscovery::Receive(const D2dReception& r)
{
    const auto p = r.message->GetPayloadAs<D2dDiscoveryPayload>();
    if (!p || p->edge != m_edge || p->iteration != m_iteration)
    {
        return; // a straggler of an earlier iteration
    }
    const std::string& kind = r.message->GetKind();
    if (kind == DATA)
    {
        m_exchange.Receive(r.msgId, p->values, r.ItemsReceived());
        return;
    }
    if (!r.IsComplete())
    {
        return; // a control message with a fragment missing is lost
    }
    if (kind == REQUEST)
    {
        m_it.requestsAt[r.dst].insert(r.src);
        if (!m_paradigm->HasOfferPhase())
        {
            m_it.demandAt[r.dst][r.src] = p->values;
        }
    }
    else if (kind == OFFER)
    {
        if (m_it.sel[r.dst] == r.src)
        {
            m_it.offerAt[r.dst] = std::make_unique<D2dFractionalCounts>(p->values);
        }
    }
    else if (kind == DEMAND)
    {
        m_it.demandAt[r.dst][r.src] = p->values;
    }
    else if (kind == ALLOCATION)
    {
        if (m_it.sel[r.dst] == r.src)
        {
            m_it.allocationAt[r.dst] = std::make_unique<D2dFractionalCounts>(p->values);
        }
    }
    else if (kind == REWARD)
    {
        m_it.rewardsAt[r.dst][r.src] = {p->localReward, p->interClusterPoints};
    }
    else if (kind == GLOBAL)
    {
        m_it.global[r.dst] = p->globalReward;
        m_it.globalArrived[r.dst] = true;
    }
}

void
D2dGraphDiscovery::SendDone(uint64_t msgId, uint32_t /* dst */, bool /* success */)
{
    if (m_pending.erase(msgId) > 0 && m_pending.empty())
    {
        // Receptions end with the last fragment, within a propagation delay of the sender's
        // end: the guard lets them arrive before the next phase reads them.
        Simulator::Schedule(m_guard, &D2dGraphDiscovery::PhaseDone, this);
    }
}

void
D2dGraphDiscovery::PhaseDone()
{
    switch (m_phase)
    {
    case Phase::REQUEST:
        RunPhase(m_paradigm->HasOfferPhase() ? Phase::OFFER : Phase::ALLOCATION);
        break;
    case Phase::OFFER:
        RunPhase(Phase::DEMAND);
        break;
    case Phase::DEMAND:
        RunPhase(Phase::ALLOCATION);
        break;
    case Phase::ALLOCATION:
        RunPhase(m_final ? Phase::DATA : Phase::REWARD);
        break;
    case Phase::REWARD:
        if (m_rl.SharesThroughHead())
        {
            RunPhase(Phase::GLOBAL);
        }
        else
        {
            EndIteration();
        }
        break;
    case Phase::GLOBAL:
        EndIteration();
        break;
    case Phase::DATA:
        ApplyData();
        break;
    }
}

void
D2dGraphDiscovery::EndIteration()
{
    for (uint32_t i = 0; i < m_n; ++i)
    {
        const double global = m_rl.GlobalRewardAt(i, m_it, *m_paradigm);
        const double reward = m_rl.Reward(m_it.localReward[i], global);
        if (m_it.sel[i] >= 0 && m_graph == RL)
        {
            m_rl.GetPolicy(m_edge, i).Update(m_it.selState[i], m_it.sel[i], reward);
        }
        m_iterationTrace(IterationRecord{m_edge,
                                         m_iteration,
                                         i,
                                         m_it.sel[i],
                                         m_it.selDrop[i],
                                         m_it.allocationAt[i] != nullptr,
                                         m_it.gain[i],
                                         m_it.localReward[i],
                                         global,
                                         reward});
    }
    ++m_iteration;
    if (m_iteration >= m_iterations)
    {
        m_final = true;
        m_stageTrace(m_edge, "learned");
    }
    if (m_iterationPeriod.IsStrictlyPositive())
    {
        // The next multiple of the period after the iteration's start.
        const int64_t k = Simulator::Now().GetTimeStep() / m_iterationPeriod.GetTimeStep() + 1;
        const Time next = TimeStep(k * m_iterationPeriod.GetTimeStep());
        if (m_sleepBetween)
        {
            // Every phase of the iteration is over (its guard time passed): nothing to send
            // or receive before the next one, whose start every device knows.
            for (const auto& t : m_transports)
            {
                t->IdleUntil(next);
            }
        }
        Simulator::Schedule(next - Simulator::Now(), &D2dGraphDiscovery::StartIteration, this);
    }
    else
    {
        StartIteration();
    }
}

void
D2dGraphDiscovery::ApplyData()
{
    m_graphs.push_back(m_it.sel);
    std::vector<D2dFractionalCounts> counts;
    const bool moved = m_exchange.Settle(
        m_edge,
        *m_paradigm,
        [this](const Link& link) { m_linkTrace(link); },
        counts);
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (moved)
        {
            counts[i] = m_paradigm->GetCounts(i);
        }
        else
        {
            m_paradigm->SetCounts(i, counts[i]);
        }
        m_histogramTrace("after", m_edge, i, counts[i]);
        if (m_it.sel[i] >= 0)
        {
            m_excluded[i][m_it.sel[i]] = true;
        }
    }
    m_stageTrace(m_edge, "exchanged");
    ++m_edge;
    if (m_edge < m_edges && m_graph != NONE)
    {
        StartEdge();
    }
    else
    {
        Finish();
    }
}

void
D2dGraphDiscovery::Finish()
{
    m_finishedFlag = true;
    if (!m_finished.IsNull())
    {
        m_finished();
    }
}

} // namespace ns3
