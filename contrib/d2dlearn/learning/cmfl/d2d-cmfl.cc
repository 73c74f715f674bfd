/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-cmfl.h"

#include "ns3/abort.h"
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
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dCmfl");
NS_OBJECT_ENSURE_REGISTERED(D2dCmfl);

namespace
{
/** \return FNV-1a hash of the bytes of the values (never 0) */
uint64_t
Digest(const std::vector<float>& values)
{
    uint64_t h = 1469598103934665603ULL;
    const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
    for (std::size_t i = 0; i < values.size() * sizeof(float); ++i)
    {
        h = (h ^ bytes[i]) * 1099511628211ULL;
    }
    return h == 0 ? 1 : h;
}

/** \return FNV-1a hash of a set of device ids (never 0) */
uint64_t
Digest(const std::vector<uint32_t>& set)
{
    uint64_t h = 1469598103934665603ULL;
    for (auto id : set)
    {
        for (int b = 0; b < 4; ++b)
        {
            h = (h ^ ((id >> (8 * b)) & 0xff)) * 1099511628211ULL;
        }
    }
    return h == 0 ? 1 : h;
}

bool
Contains(const std::vector<uint32_t>& sorted, uint32_t id)
{
    return std::binary_search(sorted.begin(), sorted.end(), id);
}
} // namespace

TypeId
D2dCmfl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dCmfl")
            .SetParent<D2dFlProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dCmfl>()
            .AddAttribute("CommitteeFraction",
                          "omega: the activated clients on the committee, a share in [0, 1]",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&D2dCmfl::m_committeeFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AggregationFraction",
                          "alpha: the training clients whose gradients are aggregated, a "
                          "share in [0, 1]",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&D2dCmfl::m_aggregationFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ActivationFraction",
                          "All clients active in a round (committee + training), a share in "
                          "[0, 1]",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&D2dCmfl::m_activationFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Strategy",
                          "Selection strategy: 1 accepts the top alpha by score (robust), "
                          "2 the bottom alpha (faster without attacks)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dCmfl::m_strategy),
                          MakeUintegerChecker<uint32_t>(1, 2))
            .AddAttribute("GlobalLearningRate",
                          "eta_t of w <- w - eta sum p_k g_k (eq. (6))",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dCmfl::m_globalLearningRate),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("PhaseTimeout",
                          "The committee's synchronized timer: PhaseTimeout after a round "
                          "began, members that trained score the gradients that arrived and "
                          "the score exchange begins (if it has not already)",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&D2dCmfl::m_phaseTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("UploadRetries",
                          "Reliable mode: times a training client sends a gradient unicast "
                          "again after the link's retransmissions ran out, while the round "
                          "is open",
                          UintegerValue(2),
                          MakeUintegerAccessor(&D2dCmfl::m_uploadRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "GradientUpload",
                "How a training client sends its gradient to the committee: "
                "unicast (one message per member, as the paper's complexity "
                "analysis counts) or broadcast (one multicast to the members)",
                EnumValue(D2dCmfl::UNICAST),
                D2dMakeEnumAccessor(&D2dCmfl::m_upload),
                MakeEnumChecker(D2dCmfl::UNICAST, "unicast", D2dCmfl::BROADCAST, "broadcast"))
            .AddAttribute(
                "FailedVote",
                "What a vote without consensus does to the committee: step-down (w^t is "
                "kept, the committee steps down all the same: elected if the election vote "
                "agrees, else drawn among the round's training clients) or keep-committee "
                "(w^t and the committee are kept: the former rule, which lets a committee "
                "that cannot agree stall every later round)",
                EnumValue(static_cast<int>(D2dFailedVote::STEP_DOWN)),
                D2dMakeEnumAccessor(&D2dCmfl::m_failedVote),
                MakeEnumChecker(static_cast<int>(D2dFailedVote::STEP_DOWN),
                                "step-down",
                                static_cast<int>(D2dFailedVote::KEEP_COMMITTEE),
                                "keep-committee"))
            .AddAttribute(
                "MaliciousCommittee",
                "What a malicious committee member does: attacked-reference (its own "
                "reference update is attacked like an upload, then it scores and votes by "
                "the rules, as in the authors' code) or adversarial (inverted scores "
                "||g_k - g_c||^2 and the opposite proposals: an extension)",
                EnumValue(static_cast<int>(MaliciousCommittee::ATTACKED_REFERENCE)),
                D2dMakeEnumAccessor(&D2dCmfl::SetMaliciousCommittee,
                                    &D2dCmfl::GetMaliciousCommittee),
                MakeEnumChecker(static_cast<int>(MaliciousCommittee::ATTACKED_REFERENCE),
                                "attacked-reference",
                                static_cast<int>(MaliciousCommittee::ADVERSARIAL),
                                "adversarial"))
            .AddAttribute("AttackSpace",
                          "What a malicious client's attack changes: update (g_k = w^t - w_k, "
                          "the paper's text) or weights (the uploaded w_k, as in the authors' "
                          "runs: g_k = w^t - attack(w_k))",
                          EnumValue(static_cast<int>(D2dAttackSpace::UPDATE)),
                          D2dMakeEnumAccessor(&D2dCmfl::SetAttackSpace, &D2dCmfl::GetAttackSpace),
                          MakeEnumChecker(static_cast<int>(D2dAttackSpace::UPDATE),
                                          "update",
                                          static_cast<int>(D2dAttackSpace::WEIGHTS),
                                          "weights"))
            .AddAttribute("AggregationBase",
                          "What alpha (AggregationFraction) is a share of: training (the scored "
                          "training clients, the paper's text) or active (the round's active "
                          "clients, committee included, as in the authors' code); at most "
                          "the scored clients are accepted",
                          EnumValue(static_cast<int>(AggregationBase::TRAINING)),
                          D2dMakeEnumAccessor(&D2dCmfl::m_aggregationBase),
                          MakeEnumChecker(static_cast<int>(AggregationBase::TRAINING),
                                          "training",
                                          static_cast<int>(AggregationBase::ACTIVE),
                                          "active"))
            .AddAttribute("Aggregation",
                          "The aggregation of S_a's gradients in eq. (6): "
                          "w <- w - eta g, g = the strategy's global gradient (default: the "
                          "n_k-weighted mean of eq. (5))",
                          StringValue("ns3::D2dMeanAggregation"),
                          MakePointerAccessor(&D2dCmfl::m_aggregation),
                          MakePointerChecker<D2dAggregationStrategy>())
            .AddTraceSource("Committee",
                            "A round finished: its training clients, committee and "
                            "aggregation set, and how many of each are malicious (a "
                            "committee.csv row)",
                            MakeTraceSourceAccessor(&D2dCmfl::m_committeeTrace),
                            "ns3::D2dCmfl::CommitteeTracedCallback");
    return tid;
}

D2dCmfl::D2dCmfl()
{
    m_ccp = CreateObject<D2dCommitteeConsensus>();
    m_roles.CreateStream();
}

void
D2dCmfl::SetMaliciousCommittee(int behaviour)
{
    m_attackers.SetAdversarialCommittee(static_cast<MaliciousCommittee>(behaviour) ==
                                        MaliciousCommittee::ADVERSARIAL);
}

int
D2dCmfl::GetMaliciousCommittee() const
{
    return static_cast<int>(m_attackers.HasAdversarialCommittee()
                                ? MaliciousCommittee::ADVERSARIAL
                                : MaliciousCommittee::ATTACKED_REFERENCE);
}

void
D2dCmfl::SetAttackSpace(int space)
{
    m_attackers.SetSpace(static_cast<D2dAttackSpace>(space));
}

int
D2dCmfl::GetAttackSpace() const
{
    return static_cast<int>(m_attackers.GetSpace());
}

void
D2dCmfl::DoDispose()
{
    m_phaseEvent.Cancel();
    if (m_ccp)
    {
        m_ccp->Dispose();
    }
    m_ccp = nullptr;
    Detach();
    m_roles.Dispose();
    m_attackers.Dispose();
    m_state.clear();
    m_votes.ClearAggregates();
    m_uploadRetry.Clear();
    m_aggregation = nullptr;
    D2dFlProtocol::DoDispose();
}

void
D2dCmfl::Detach()
{
    for (const auto& t : m_transports)
    {
        if (t)
        {
            t->RemoveReceiveHandler(MakeCallback(&D2dCmfl::ReceiveModel, this));
            t->RemoveReceiveHandler(MakeCallback(&D2dCmfl::ReceiveGradient, this));
            t->RemoveSendDoneHandler(MakeCallback(&D2dCmfl::SendDone, this));
        }
    }
    m_transports.clear();
}

bool
D2dCmfl::UsesD2d() const
{
    return true;
}

std::vector<TypeId>
D2dCmfl::GetPartTypeIds() const
{
    auto parts = D2dFlProtocol::GetPartTypeIds();
    parts.push_back(D2dCommitteeConsensus::GetTypeId());
    return parts;
}

std::vector<std::string>
D2dCmfl::GetUnreadAttributes() const
{
    // The committee's global model is the one evaluated (RecordGlobal): no device's rows.
    return {"ns3::D2dFlProtocol::RoundDeadline", "ns3::D2dFlProtocol::EvaluateDevices"};
}

void
D2dCmfl::DoInitialize()
{
    D2dFlProtocol::DoInitialize();
    for (const auto& t : m_transports)
    {
        t->AddReceiveHandler(MakeCallback(&D2dCmfl::ReceiveModel, this),
                             D2dModelCodec::KIND_GLOBAL_MODEL);
        t->AddReceiveHandler(MakeCallback(&D2dCmfl::ReceiveGradient, this),
                             D2dModelCodec::KIND_GRADIENT);
        t->AddSendDoneHandler(MakeCallback(&D2dCmfl::SendDone, this));
    }
    m_ccp->SetTransports(m_transports, m_mode);
    ResolveMalicious();
}

void
D2dCmfl::ResolveMalicious()
{
    m_attackers.Resolve(GetNDevices());
}

void
D2dCmfl::SetMalicious(const std::vector<uint32_t>& devices, D2dAttackType attack, double scalingLow)
{
    m_attackers.Set(devices, attack, scalingLow);
    if (IsInitialized())
    {
        ResolveMalicious(); // a change during the run (else: at initialization)
    }
}

int64_t
D2dCmfl::AssignStreams(int64_t stream)
{
    m_roles.AssignStreams(stream);
    m_attackers.AssignStreams(stream + 1);
    return 2 + m_ccp->AssignStreams(stream + 2);
}

Ptr<D2dCommitteeConsensus>
D2dCmfl::GetConsensus() const
{
    return m_ccp;
}

const std::vector<float>&
D2dCmfl::GetGlobalModel() const
{
    return m_global;
}

const std::vector<uint32_t>&
D2dCmfl::GetCommittee() const
{
    return m_roles.GetCommittee();
}

const std::vector<uint32_t>&
D2dCmfl::GetTraining() const
{
    return m_roles.GetTraining();
}

const std::vector<uint32_t>&
D2dCmfl::GetAggregated() const
{
    return m_votes.GetAggregated();
}

uint32_t
D2dCmfl::GetConsensusVotes() const
{
    return m_votes.GetConsensusVotes();
}

uint32_t
D2dCmfl::GetCcpAttempts() const
{
    return m_votes.GetCcpAttempts();
}

const std::vector<D2dCmfl::ClientCounts>&
D2dCmfl::GetClientCounts() const
{
    return m_counts;
}

bool
D2dCmfl::IsMalicious(uint32_t device) const
{
    return m_attackers.IsMalicious(device);
}

uint32_t
D2dCmfl::CountMalicious(const std::vector<uint32_t>& devices) const
{
    uint32_t n = 0;
    for (auto d : devices)
    {
        n += IsMalicious(d) ? 1 : 0;
    }
    return n;
}

void
D2dCmfl::DoStart()
{
    NS_ABORT_MSG_IF(!m_aggregation, "D2dCmfl: no Aggregation strategy");
    m_uploadRetry.SetMaxRetries(m_uploadRetries);
    const uint32_t k = GetNDevices();
    m_state.assign(k, DeviceState());
    m_counts.assign(k, ClientCounts());
    // Activated clients A = activation x K; omega x A of them on the committee, the rest
    // training clients (Che et al. 2022, "Hyper-parameter Notation").
    const uint32_t active = D2dCommitteeRules::ActiveCount(k, m_activationFraction);
    const uint32_t c = D2dCommitteeRules::CommitteeSize(active, m_committeeFraction);
    NS_ABORT_MSG_IF(c < 3 || active <= c,
                    "D2dCmfl: " << active << " active clients with a committee of " << c
                                << " (need >= 3 committee members and >= 1 training client)");
    // Round 1: a random committee S_c^1 and random training clients S_b^1.
    const uint32_t first = m_roles.DrawFirst(k, active, c);
    // w^1: the initial weights of the member that sends the first model.
    m_global = m_learners[first]->GetParameters();
    RecordGlobal(0, m_global);
    Broadcast(first);
}

void
D2dCmfl::Broadcast(uint32_t sender)
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_votes.NewRound();
    NS_LOG_INFO("round " << m_round << ": device " << sender << " sends w^t to "
                         << m_roles.GetCommittee().size() << " committee and "
                         << m_roles.GetTraining().size() << " training clients");
    std::vector<uint32_t> recipients = m_roles.GetCommittee();
    recipients.insert(recipients.end(), m_roles.GetTraining().begin(), m_roles.GetTraining().end());
    std::sort(recipients.begin(), recipients.end());
    auto model = m_codec.Encode(D2dModelCodec::KIND_GLOBAL_MODEL,
                                D2dModelCodec::WHAT_WEIGHTS,
                                m_round,
                                0,
                                sender,
                                m_global,
                                {});
    auto payload = std::make_shared<D2dCmflModelPayload>();
    static_cast<D2dModelPayload&>(*payload) = *model->GetPayloadAs<D2dModelPayload>();
    payload->recipients = recipients;
    payload->committee = m_roles.GetCommittee();
    payload->training = m_roles.GetTraining();
    // Size: the model, 4 bytes per recipient, 4 more per committee member (its role).
    const uint64_t bytes =
        model->GetSizeBytes() + 4 * (recipients.size() + payload->committee.size());
    auto message = Create<D2dMessage>(D2dModelCodec::KIND_GLOBAL_MODEL, bytes, payload);
    std::vector<uint32_t> receivers;
    for (auto d : recipients)
    {
        if (d != sender)
        {
            receivers.push_back(d);
        }
    }
    m_transports[sender]->Send(message, receivers, m_mode);
    if (std::binary_search(recipients.begin(), recipients.end(), sender))
    {
        // The sender has a role this round too: it holds the model already.
        Simulator::ScheduleNow(&D2dCmfl::Begin, this, sender, payload);
    }
    m_phaseEvent.Cancel();
    if (m_phaseTimeout > Seconds(0))
    {
        m_phaseEvent = Simulator::Schedule(m_phaseTimeout, &D2dCmfl::PhaseTimeout, this, m_round);
    }
}

void
D2dCmfl::ReceiveModel(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return; // a model with missing fragments is none
    }
    auto payload = r.message->GetPayloadAs<D2dCmflModelPayload>();
    if (payload && payload->IsFor(r.dst))
    {
        Begin(r.dst, payload);
    }
}

void
D2dCmfl::ReceiveGradient(const D2dReception& r)
{
    if (!r.IsComplete())
    {
        return; // a gradient with missing fragments is none
    }
    const uint32_t device = r.dst;
    auto payload = r.message->GetPayloadAs<D2dModelPayload>();
    DeviceState& st = m_state[device];
    if (!payload || !payload->IsFor(device) || payload->round != m_round || st.round != m_round ||
        !st.committee || st.scored || !m_roles.IsTraining(payload->origin))
    {
        return; // late, or not for a committee member still collecting
    }
    st.gradients[payload->origin] = payload;
    TryScore(device, false);
}

void
D2dCmfl::Begin(uint32_t device, std::shared_ptr<const D2dCmflModelPayload> payload)
{
    if (payload->round != m_round || m_learners[device]->IsTraining())
    {
        return; // stale, or still busy with an earlier round (a straggler)
    }
    DeviceState& st = m_state[device];
    st = DeviceState();
    st.round = payload->round;
    st.committee = Contains(payload->committee, device);
    st.base = payload->values;
    m_learners[device]->SetParameters(*payload->values);
    const uint32_t round = payload->round;
    m_learners[device]->Train(LocalTask(), [this, device, round](const D2dTrainResult&) {
        Trained(device, round);
    });
}

void
D2dCmfl::Trained(uint32_t device, uint32_t round)
{
    DeviceState& st = m_state[device];
    if (round != m_round || st.round != round)
    {
        return; // a straggler of an earlier round
    }
    st.trained = true;
    // The local gradient of the round's local steps: g_k = w^t - w_k.
    // (a malicious device's attack acts on w_k or g_k: AttackSpace, D2dMaliciousClients)
    std::vector<float> g =
        m_attackers.Update(device, *st.base, m_learners[device]->GetParameters());
    if (st.committee)
    {
        st.own = std::make_shared<const std::vector<float>>(std::move(g));
        TryScore(device, false);
        return;
    }
    // A training client sends g_k to every committee member.
    Ptr<D2dTransport> transport = m_transports[device];
    const uint64_t samples = m_learners[device]->GetNSamples();
    if (m_upload == BROADCAST)
    {
        // One multicast to the committee (GradientUpload "broadcast").
        transport->Send(m_codec.Encode(D2dModelCodec::KIND_GRADIENT,
                                       D2dModelCodec::WHAT_GRADIENT,
                                       round,
                                       samples,
                                       device,
                                       g,
                                       m_roles.GetCommittee()),
                        m_roles.GetCommittee(),
                        m_mode);
        return;
    }
    auto message = m_codec.Encode(D2dModelCodec::KIND_GRADIENT,
                                  D2dModelCodec::WHAT_GRADIENT,
                                  round,
                                  samples,
                                  device,
                                  g);
    for (auto c : m_roles.GetCommittee())
    {
        const uint64_t id = transport->Send(message, c, m_mode);
        m_uploadRetry.Track(id, transport, round, message, m_mode);
    }
}

void
D2dCmfl::SendDone(uint64_t msgId, uint32_t dst, bool success)
{
    // The link's retransmissions ran out: send the gradient again while the member still
    // collects (its round is open and the score exchange has not begun).
    m_uploadRetry.SendDone(msgId, dst, success, m_round, !m_votes.IsExchanging());
}

void
D2dCmfl::TryScore(uint32_t device, bool timeout)
{
    DeviceState& st = m_state[device];
    if (m_votes.IsExchanging() || st.round != m_round || !st.committee || !st.trained || st.scored)
    {
        return;
    }
    if (!timeout && st.gradients.size() < m_roles.GetTraining().size())
    {
        return; // still collecting
    }
    // Scoring system: P_k^c = 1/||g_k - g_c||^2; a malicious member's g_c is attacked, and
    // with MaliciousCommittee "adversarial" it hands out inverted scores.
    const bool adversarial = m_attackers.IsAdversarial(device);
    for (const auto& [k, payload] : st.gradients) // ascending client id
    {
        const double score = adversarial
                                 ? D2dByzantineAttack::AdversarialScore(*payload->values, *st.own)
                                 : D2dCommitteeRules::Score(*payload->values, *st.own);
        st.scores.emplace_back(k, score);
    }
    st.scored = true;
    if (timeout)
    {
        return; // PhaseTimeout starts the exchange after every member had its chance
    }
    for (auto c : m_roles.GetCommittee())
    {
        const DeviceState& s = m_state[c];
        if (s.round != m_round || !s.scored)
        {
            return; // another member is still training or collecting
        }
    }
    ExchangeScores();
}

void
D2dCmfl::PhaseTimeout(uint32_t round)
{
    if (round != m_round || m_votes.IsExchanging())
    {
        return;
    }
    NS_LOG_INFO("round " << m_round << ": phase timeout");
    for (auto c : m_roles.GetCommittee())
    {
        TryScore(c, true);
    }
    ExchangeScores();
}

void
D2dCmfl::ExchangeScores()
{
    m_votes.BeginExchange();
    m_phaseEvent.Cancel();
    std::map<uint32_t, D2dScoreVector> own;
    for (auto c : m_roles.GetCommittee())
    {
        const DeviceState& s = m_state[c];
        if (s.round == m_round && s.scored && !m_transports[c]->IsOff())
        {
            own[c] = s.scores;
        }
    }
    m_ccp->ExchangeScores(m_round,
                          m_roles.GetCommittee(),
                          own,
                          MakeCallback(&D2dCmfl::ScoresExchanged, this));
}

void
D2dCmfl::ScoresExchanged(const D2dCommitteeConsensus::ScoreViews& views)
{
    // Each member: P_k = C_k / sum_c 1/P_k^c (eq. (8)) over the score vectors it
    // holds, then its proposals: S_a by the selection strategy, S_c^{t+1} by the election.
    std::map<uint32_t, std::vector<uint32_t>> aggregation;
    m_votes.ClearProposals();
    const uint32_t size = m_roles.GetCommitteeSize();
    for (const auto& [member, byOrigin] : views)
    {
        std::map<uint32_t, std::vector<double>> perClient;
        for (const auto& [origin, scores] : byOrigin)
        {
            for (const auto& [k, p] : *scores)
            {
                perClient[k].push_back(p);
            }
        }
        if (perClient.empty())
        {
            continue; // nothing to decide on: silent
        }
        std::vector<uint32_t> clients;
        std::vector<double> finals;
        for (const auto& [k, p] : perClient)
        {
            clients.push_back(k);
            finals.push_back(D2dCommitteeRules::FinalScore(p));
        }
        // Honest members, and malicious ones that only attack their reference (the authors'
        // code), follow the rules; adversarial members propose the opposite sets.
        const bool honest = !m_attackers.IsAdversarial(member);
        const auto strategy = (m_strategy == 1) == honest ? D2dSelectionStrategy::HIGHEST_SCORES
                                                          : D2dSelectionStrategy::LOWEST_SCORES;
        const auto scored = static_cast<uint32_t>(clients.size());
        const uint32_t m = D2dCommitteeRules::AcceptedCount(
            scored,
            static_cast<AggregationBase>(m_aggregationBase) == AggregationBase::ACTIVE
                ? m_roles.GetActiveCount()
                : scored,
            m_aggregationFraction);
        aggregation[member] = D2dCommitteeRules::SelectCount(clients, finals, m, strategy);
        if (honest)
        {
            m_votes.Propose(member, D2dCommitteeRules::Elect(clients, finals, size));
        }
        else
        {
            // A malicious member wants the lowest-ranked clients (its accomplices) elected.
            auto ranked = D2dCommitteeRules::RankByScore(clients, finals);
            const std::size_t take = std::min<std::size_t>(size, ranked.size());
            std::vector<uint32_t> bottom(ranked.end() - take, ranked.end());
            std::sort(bottom.begin(), bottom.end());
            m_votes.Propose(member, bottom);
        }
    }
    m_ccp->Vote(m_round,
                "aggregation",
                m_roles.GetCommittee(),
                aggregation,
                MakeCallback(&D2dCmfl::ExecuteAggregation, this),
                MakeCallback(&D2dCmfl::AggregationVoted, this));
}

const std::pair<std::vector<float>, uint64_t>&
D2dCmfl::Aggregate(const std::vector<uint32_t>& set)
{
    if (const auto* made = m_votes.FindAggregate(set))
    {
        return *made;
    }
    // Every member holds the same w^t and, for a client, the same gradient message.
    const DeviceState* holder = nullptr;
    for (auto c : m_roles.GetCommittee())
    {
        const DeviceState& s = m_state[c];
        bool all = s.round == m_round && s.base;
        for (auto k : set)
        {
            all = all && s.gradients.count(k);
        }
        if (all)
        {
            holder = &s;
            break;
        }
    }
    NS_ABORT_MSG_IF(!holder, "D2dCmfl::Aggregate: no member holds the set");
    // eq. (5): g = sum_{k in S_a} n_k / sum n g_k; eq. (6): w - eta g.
    std::vector<std::shared_ptr<const std::vector<float>>> grads;
    std::vector<double> weights;
    for (auto k : set)
    {
        const auto& p = holder->gradients.at(k);
        grads.push_back(p->values);
        weights.push_back(static_cast<double>(p->samples));
    }
    std::vector<float> w = m_aggregation->Step(*holder->base,
                                               grads,
                                               false,
                                               weights,
                                               static_cast<uint32_t>(m_roles.GetTraining().size()),
                                               m_globalLearningRate);
    const uint64_t digest = Digest(w);
    return m_votes.KeepAggregate(set, std::make_pair(std::move(w), digest));
}

void
D2dCmfl::ExecuteAggregation(uint32_t member,
                            const std::vector<uint32_t>& set,
                            Callback<void, uint64_t> done)
{
    const DeviceState& st = m_state[member];
    bool holds = st.round == m_round && st.base && !set.empty();
    for (auto k : set)
    {
        holds = holds && st.gradients.count(k);
    }
    // A member missing a gradient of the set cannot execute the request: it refuses.
    const uint64_t digest = holds ? Aggregate(set).second : 0;
    Simulator::ScheduleNow([done, digest]() { done(digest); });
}

void
D2dCmfl::AggregationVoted(const D2dCcpOutcome& outcome)
{
    m_votes.Count(outcome);
    if (!outcome.consensus)
    {
        NS_LOG_INFO("round " << m_round << ": no consensus on S_a; w^t is kept");
        if (static_cast<D2dFailedVote>(m_failedVote) == D2dFailedVote::STEP_DOWN)
        {
            VoteElection(); // the committee steps down all the same
            return;
        }
        FinishRound();
        return;
    }
    m_votes.Aggregated(outcome);
    m_global = Aggregate(outcome.set).first;
    VoteElection();
}

void
D2dCmfl::VoteElection()
{
    m_ccp->Vote(m_round,
                "election",
                m_roles.GetCommittee(),
                m_votes.GetProposals(),
                Callback<void, uint32_t, const std::vector<uint32_t>&, Callback<void, uint64_t>>(
                    [](uint32_t, const std::vector<uint32_t>& set, Callback<void, uint64_t> done) {
                        const uint64_t digest = Digest(set);
                        Simulator::ScheduleNow([done, digest]() { done(digest); });
                    }),
                MakeCallback(&D2dCmfl::ElectionVoted, this));
}

void
D2dCmfl::ElectionVoted(const D2dCcpOutcome& outcome)
{
    m_votes.Count(outcome);
    if (outcome.consensus)
    {
        m_votes.Elected(outcome);
    }
    FinishRound();
}

void
D2dCmfl::FinishRound()
{
    for (auto k : m_roles.GetTraining())
    {
        ++m_counts[k].training;
    }
    for (auto c : m_roles.GetCommittee())
    {
        ++m_counts[c].committee;
    }
    for (auto k : m_votes.GetAggregated())
    {
        ++m_counts[k].aggregated;
    }
    // Where S_c^{t+1} comes from (an agreed election of >= 3, a draw, or the old committee).
    const D2dNextCommittee next =
        D2dCommitteeRules::NextCommittee(m_votes.IsElectionAgreed(),
                                         m_votes.GetNextCommittee().size(),
                                         m_votes.HasConsensus(),
                                         static_cast<D2dFailedVote>(m_failedVote));
    if (next == D2dNextCommittee::DRAWN)
    {
        m_votes.SetNextCommittee(m_roles.DrawCommittee());
        NS_LOG_INFO("round " << m_round << ": no agreed election; the committee steps down "
                             << "and " << m_votes.GetNextCommittee().size()
                             << " members are drawn");
    }
    else if (next == D2dNextCommittee::KEPT)
    {
        m_votes.SetNextCommittee({});
    }
    CommitteeRecord record;
    record.round = m_round;
    record.next = next;
    record.nextCommittee =
        m_votes.GetNextCommittee().empty() ? m_roles.GetCommittee() : m_votes.GetNextCommittee();
    record.maliciousNext = CountMalicious(record.nextCommittee);
    record.training = m_roles.GetTraining();
    record.committee = m_roles.GetCommittee();
    record.aggregated = m_votes.GetAggregated();
    record.maliciousTraining = CountMalicious(m_roles.GetTraining());
    record.maliciousCommittee = CountMalicious(m_roles.GetCommittee());
    record.maliciousAggregated = CountMalicious(m_votes.GetAggregated());
    m_committeeTrace(record);
    RecordGlobal(m_round, m_global);
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "training_clients", static_cast<double>(m_roles.GetTraining().size()));
    WriteRow(m_round, -1, "committee_clients", static_cast<double>(m_roles.GetCommittee().size()));
    WriteRow(m_round, -1, "aggregated", static_cast<double>(m_votes.GetAggregated().size()));
    WriteRow(m_round, -1, "ccp_attempts", static_cast<double>(m_votes.GetRoundAttempts()));
    WriteRow(m_round, -1, "consensus", m_votes.HasConsensus() ? 1.0 : 0.0);
    if (m_mode == D2dDeliveryMode::RELIABLE)
    {
        WriteRow(m_round,
                 -1,
                 "upload_retries",
                 static_cast<double>(m_uploadRetry.GetRoundRetries()));
    }
    m_uploadRetry.ResetRound();
    WriteBytesSent(m_round);

    // Who sends w^{t+1}: the aggregation vote's primary; without consensus, the committee's
    // lowest-id member whose radio still works (the round is repeated with w^t).
    int64_t sender = -1;
    if (m_votes.GetPrimary() >= 0 && !m_transports[m_votes.GetPrimary()]->IsOff())
    {
        sender = m_votes.GetPrimary();
    }
    for (std::size_t i = 0; sender < 0 && i < m_roles.GetCommittee().size(); ++i)
    {
        if (!m_transports[m_roles.GetCommittee()[i]]->IsOff())
        {
            sender = m_roles.GetCommittee()[i];
        }
    }
    // Step down: the elected members form S_c^{t+1}; S_b^{t+1} is drawn among the others.
    m_roles.StepDown(m_votes.GetNextCommittee());
    if (sender < 0)
    {
        NS_LOG_WARN("round " << m_round << ": no committee member can send the model; stop");
        EndRound(Callback<void>([] {}));
        return;
    }
    // CCP step 8: the primary sends the global model as soon as the votes are over; the
    // channel access decides when it goes on the air.
    const auto from = static_cast<uint32_t>(sender);
    EndRound(Callback<void>([this, from]() { Broadcast(from); }));
}

} // namespace ns3
