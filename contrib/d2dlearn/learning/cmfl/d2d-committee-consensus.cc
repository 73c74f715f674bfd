/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-committee-consensus.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dCommitteeConsensus");
NS_OBJECT_ENSURE_REGISTERED(D2dCommitteeConsensus);

namespace
{
const char* const kScoreKind = "ccp_score";
const char* const kRequestKind = "ccp_request";
const char* const kReplyKind = "ccp_reply";
const char* const kScoresStep = "scores";
} // namespace

TypeId
D2dCommitteeConsensus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dCommitteeConsensus")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dCommitteeConsensus>()
            .AddAttribute("RequestTimeout",
                          "The committee's synchronized timer of a vote attempt: how long the "
                          "primary waits for replies after its request was handed to its "
                          "radio, and how long the committee waits for a primary that sends "
                          "no request (counted from the attempt's start).",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&D2dCommitteeConsensus::m_requestTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxAttempts",
                          "Primaries tried per vote before the vote fails; 0 = the committee "
                          "size (more than the committee size counts as the committee size).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dCommitteeConsensus::m_maxAttempts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Quorum",
                "What the primary counts: majority (floor(C/2) matching replica replies plus "
                "its own result, a majority of the committee: live and safe while the honest "
                "members are a majority) or replicas (floor(C/2) + 1 replica replies, the "
                "paper's CCP step 6 read literally: tolerates ceil(C/2) - 2 malicious members)",
                EnumValue(static_cast<int>(D2dQuorumMode::MAJORITY)),
                D2dMakeEnumAccessor(&D2dCommitteeConsensus::m_quorumMode),
                MakeEnumChecker(static_cast<int>(D2dQuorumMode::MAJORITY),
                                "majority",
                                static_cast<int>(D2dQuorumMode::REPLICAS),
                                "replicas"))
            .AddTraceSource("Step",
                            "A step ended (a row of ccp.csv): (round, step, attempt, primary, "
                            "replies, quorum, outcome).",
                            MakeTraceSourceAccessor(&D2dCommitteeConsensus::m_stepTrace),
                            "ns3::D2dCommitteeConsensus::StepTracedCallback");
    return tid;
}

D2dCommitteeConsensus::D2dCommitteeConsensus()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

bool
D2dCommitteeConsensus::SameViews(const ScoreViews& a, const ScoreViews& b)
{
    auto sameView = [](const auto& x, const auto& y) {
        return x.first == y.first && std::equal(x.second.begin(),
                                                x.second.end(),
                                                y.second.begin(),
                                                y.second.end(),
                                                [](const auto& u, const auto& v) {
                                                    return u.first == v.first &&
                                                           *u.second == *v.second;
                                                });
    };
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), sameView);
}

D2dCommitteeConsensus::~D2dCommitteeConsensus()
{
    NS_LOG_FUNCTION(this);
}

void
D2dCommitteeConsensus::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_vote.timer.Cancel();
    m_exchange.event.Cancel();
    for (auto& e : m_doneEvents)
    {
        e.Cancel();
    }
    m_doneEvents.clear();
    Detach();
    m_vote = VoteState();
    m_exchange = Exchange();
    m_rng = nullptr;
    Object::DoDispose();
}

void
D2dCommitteeConsensus::Detach()
{
    for (const auto& t : m_transports)
    {
        if (t)
        {
            t->RemoveReceiveHandler(MakeCallback(&D2dCommitteeConsensus::Receive, this));
            t->RemoveSendDoneHandler(MakeCallback(&D2dCommitteeConsensus::SendDone, this));
            t->TraceDisconnectWithoutContext("Delivery",
                                             MakeCallback(&D2dCommitteeConsensus::Delivery, this));
        }
    }
    m_transports.clear();
}

void
D2dCommitteeConsensus::SetTransports(std::vector<Ptr<D2dTransport>> transports,
                                     D2dDeliveryMode mode)
{
    NS_LOG_FUNCTION(this << transports.size());
    Detach();
    m_transports = std::move(transports);
    m_mode = mode;
    for (const auto& t : m_transports)
    {
        if (t)
        {
            for (const char* kind : {kScoreKind, kRequestKind, kReplyKind})
            {
                t->AddReceiveHandler(MakeCallback(&D2dCommitteeConsensus::Receive, this), kind);
            }
            t->AddSendDoneHandler(MakeCallback(&D2dCommitteeConsensus::SendDone, this));
            t->TraceConnectWithoutContext("Delivery",
                                          MakeCallback(&D2dCommitteeConsensus::Delivery, this));
        }
    }
}

int64_t
D2dCommitteeConsensus::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
D2dCommitteeConsensus::Quorum(uint32_t committeeSize)
{
    return Quorum(committeeSize, D2dQuorumMode::REPLICAS);
}

uint32_t
D2dCommitteeConsensus::Quorum(uint32_t committeeSize, D2dQuorumMode mode)
{
    // Replicas only: floor(C/2) + 1 replies (CCP step 6 as written). Majority: the primary's
    // own result plus floor(C/2) replies, floor(C/2) + 1 of the C members.
    return mode == D2dQuorumMode::REPLICAS ? committeeSize / 2 + 1 : committeeSize / 2;
}

int32_t
D2dCommitteeConsensus::ToleratedMalicious(uint32_t committeeSize, D2dQuorumMode mode)
{
    NS_ABORT_MSG_IF(committeeSize == 0, "D2dCommitteeConsensus::ToleratedMalicious: C = 0");
    // Live: an honest primary has C - f - 1 honest replicas >= Q, f <= C - 1 - Q.
    // Safe: f colluders count f - 1 replies < Q; with Q >= floor(C/2) that follows from
    // liveness (f <= C - 1 - Q < Q + 1 whenever C - 1 - Q <= Q, true for both modes).
    const auto c = static_cast<int32_t>(committeeSize);
    const auto q = static_cast<int32_t>(Quorum(committeeSize, mode));
    return std::max(-1, c - 1 - q);
}

bool
D2dCommitteeConsensus::IsVoting() const
{
    return m_vote.open;
}

bool
D2dCommitteeConsensus::IsExchanging() const
{
    return m_exchange.open;
}

bool
D2dCommitteeConsensus::HasTransport(uint32_t index) const
{
    return index < m_transports.size() && m_transports[index];
}

std::vector<uint32_t>
D2dCommitteeConsensus::Others(const std::vector<uint32_t>& committee, uint32_t except)
{
    std::vector<uint32_t> others;
    others.reserve(committee.size());
    for (auto m : committee)
    {
        if (m != except)
        {
            others.push_back(m);
        }
    }
    std::sort(others.begin(), others.end());
    return others;
}

void
D2dCommitteeConsensus::Row(uint32_t round,
                           const std::string& step,
                           uint32_t attempt,
                           int64_t primary,
                           uint32_t replies,
                           uint32_t quorum,
                           const std::string& outcome)
{
    NS_LOG_INFO("round " << round << " " << step << " attempt " << attempt << " primary " << primary
                         << ": " << replies << "/" << quorum << " " << outcome);
    m_stepTrace(round, step, attempt, primary, replies, quorum, outcome);
}

void
D2dCommitteeConsensus::Receive(const D2dReception& r)
{
    if (!r.message)
    {
        return;
    }
    auto p = r.message->GetPayloadAs<D2dCcpPayload>();
    if (!p || !r.IsComplete())
    {
        return; // a CCP message with missing fragments carries nothing usable
    }
    if (p->type == D2dCcpPayload::Type::SCORE)
    {
        m_exchange.Arrive(r.msgId, r.src, r.dst, p);
    }
    else if (p->type == D2dCcpPayload::Type::REQUEST)
    {
        ReceiveRequest(r, *p);
    }
    else
    {
        ReceiveReply(r, *p);
    }
}

void
D2dCommitteeConsensus::SendDone(uint64_t msgId, uint32_t /* dst */, bool success)
{
    if (ScoreSend* send = m_exchange.Find(msgId))
    {
        NS_LOG_LOGIC("score message " << msgId << " send done, success " << success);
        send->sendDone = true;
        CheckExchangeEnded();
    }
}

void
D2dCommitteeConsensus::Delivery(const D2dDeliveryRecord& record)
{
    ScoreSend* send = m_exchange.Find(record.msgId);
    if (send && send->pending.erase(record.dst) > 0)
    {
        CheckExchangeEnded();
    }
}

// ---------------------------------------------------------------------------------------
// Score exchange: Alg. 1 lines 1-5.

D2dCommitteeConsensus::ScoreSend*
D2dCommitteeConsensus::Exchange::Find(uint64_t msgId)
{
    auto it = open && msgId != 0 ? sends.find(msgId) : sends.end();
    return it != sends.end() ? &it->second : nullptr;
}

void
D2dCommitteeConsensus::Exchange::Arrive(uint64_t msgId,
                                        uint32_t src,
                                        uint32_t dst,
                                        const std::shared_ptr<const D2dCcpPayload>& payload)
{
    // Only the score messages of the open exchange count (a late one of an earlier
    // exchange has another id).
    auto it = open ? sends.find(msgId) : sends.end();
    if (it != sends.end() && payload->round == round && src == it->second.sender &&
        members.count(dst) && dst != src)
    {
        if (views[dst]
                .emplace(payload->origin,
                         std::shared_ptr<const D2dScoreVector>(payload, &payload->scores))
                .second)
        {
            ++arrived;
        }
    }
}

void
D2dCommitteeConsensus::ExchangeScores(uint32_t round,
                                      const std::vector<uint32_t>& committee,
                                      const std::map<uint32_t, D2dScoreVector>& own,
                                      Callback<void, const ScoreViews&> done)
{
    NS_LOG_FUNCTION(this << round << committee.size() << own.size());
    if (m_exchange.open)
    {
        NS_LOG_WARN("score exchange of round " << m_exchange.round << " abandoned");
    }
    m_exchange.event.Cancel();
    Exchange x;
    x.open = true;
    x.serial = ++m_serial;
    x.round = round;
    x.committee = committee;
    x.members.insert(committee.begin(), committee.end());
    NS_ABORT_MSG_IF(x.members.size() != committee.size(),
                    "D2dCommitteeConsensus::ExchangeScores: a member appears twice");
    for (auto c : committee)
    {
        NS_ABORT_MSG_IF(!HasTransport(c), "D2dCommitteeConsensus: no transport for member " << c);
        x.views[c]; // every member has a view, perhaps empty
    }
    std::map<uint32_t, D2dScoreVector> rounded;
    for (const auto& [c, scores] : own)
    {
        NS_ABORT_MSG_IF(!x.members.count(c),
                        "D2dCommitteeConsensus::ExchangeScores: " << c << " is no member");
        // Scores travel as float32: the sender keeps the same rounded values.
        D2dScoreVector r;
        r.reserve(scores.size());
        for (const auto& [k, score] : scores)
        {
            r.emplace_back(k, static_cast<double>(static_cast<float>(score)));
        }
        auto shared = std::make_shared<const D2dScoreVector>(std::move(r));
        x.views[c][c] = shared;
        rounded[c] = *shared;
    }
    x.done = done;
    m_exchange = std::move(x);
    // Alg. 1 lines 1-5: every member with scores sends them at once, one multicast to
    // the other members each (ascending member order: the order in which they are handed
    // to the transports). The channel access below serialises half-duplex radios.
    for (const auto& [c, scores] : rounded)
    {
        const std::vector<uint32_t> others = Others(committee, c);
        if (others.empty())
        {
            continue; // a committee of one has nobody to tell
        }
        auto payload = std::make_shared<D2dCcpPayload>();
        payload->type = D2dCcpPayload::Type::SCORE;
        payload->round = round;
        payload->step = kScoresStep;
        payload->attempt = 0;
        payload->origin = c;
        payload->scores = scores;
        payload->timestamp = Simulator::Now();
        const uint64_t bytes = payload->GetSizeBytes();
        auto msg = Create<D2dMessage>(kScoreKind,
                                      bytes,
                                      std::shared_ptr<const D2dPayload>(payload),
                                      payload->scores.size());
        ScoreSend send;
        send.sender = c;
        send.pending.insert(others.begin(), others.end());
        const uint64_t id = m_transports[c]->Send(msg, others, m_mode);
        if (id == 0)
        {
            NS_LOG_INFO("member " << c << " is off: its scores are not sent");
            continue;
        }
        ++m_exchange.sent;
        // The transports report records and send-done in later events, never from within
        // Send(): the entry is in place before them.
        m_exchange.sends.emplace(id, std::move(send));
        NS_LOG_LOGIC("member " << c << " sends " << bytes << " bytes of scores to " << others.size()
                               << " members, msg " << id);
    }
    CheckExchangeEnded();
}

void
D2dCommitteeConsensus::CheckExchangeEnded()
{
    Exchange& x = m_exchange;
    if (!x.open || x.ending)
    {
        return;
    }
    for (const auto& [id, send] : x.sends)
    {
        const bool senderDone = send.sendDone || m_transports[send.sender]->IsOff();
        if (!senderDone || !send.pending.empty())
        {
            return;
        }
    }
    x.ending = true;
    // An event of its own: the Delivery record of the last receiver precedes its reception,
    // which still counts (matched by message id until the exchange closes).
    x.event = Simulator::ScheduleNow(&D2dCommitteeConsensus::FinishExchange, this, x.serial);
}

void
D2dCommitteeConsensus::FinishExchange(uint64_t serial)
{
    Exchange& x = m_exchange;
    if (!x.open || x.serial != serial)
    {
        return;
    }
    const auto c = static_cast<uint32_t>(x.committee.size());
    // The vectors that could have arrived: each score message that left, at the C - 1 others.
    const uint32_t possible = x.sent * (c > 0 ? c - 1 : 0);
    Row(x.round, kScoresStep, 0, -1, x.arrived, possible, "exchanged");
    ScoreViews views = std::move(x.views);
    Callback<void, const ScoreViews&> done = x.done;
    m_exchange = Exchange(); // closed before done(), which may start another exchange
    if (!done.IsNull())
    {
        done(views);
    }
}

// ---------------------------------------------------------------------------------------
// The voting algorithm.

void
D2dCommitteeConsensus::Vote(uint32_t round,
                            const std::string& step,
                            const std::vector<uint32_t>& committee,
                            const std::map<uint32_t, std::vector<uint32_t>>& proposals,
                            ExecuteCallback execute,
                            Callback<void, const D2dCcpOutcome&> done)
{
    NS_LOG_FUNCTION(this << round << step << committee.size() << proposals.size());
    NS_ABORT_MSG_IF(committee.empty(), "D2dCommitteeConsensus::Vote: empty committee");
    NS_ABORT_MSG_IF(execute.IsNull(), "D2dCommitteeConsensus::Vote: no operation");
    if (m_vote.open)
    {
        NS_LOG_WARN("vote " << m_vote.step << " of round " << m_vote.round << " abandoned");
    }
    m_vote.timer.Cancel();
    VoteState v;
    v.open = true;
    v.serial = ++m_serial;
    v.round = round;
    v.step = step;
    v.committee = committee;
    std::set<uint32_t> members(committee.begin(), committee.end());
    NS_ABORT_MSG_IF(members.size() != committee.size(),
                    "D2dCommitteeConsensus::Vote: a member appears twice");
    for (auto c : committee)
    {
        NS_ABORT_MSG_IF(!HasTransport(c), "D2dCommitteeConsensus: no transport for member " << c);
    }
    for (const auto& [k, set] : proposals)
    {
        NS_ABORT_MSG_IF(!members.count(k),
                        "D2dCommitteeConsensus::Vote: proposal of " << k << ", no member");
    }
    v.proposals = proposals;
    v.execute = execute;
    v.done = done;
    const auto c = static_cast<uint32_t>(committee.size());
    v.quorum = Quorum(c, static_cast<D2dQuorumMode>(m_quorumMode));
    v.maxAttempts = m_maxAttempts == 0 ? c : std::min(m_maxAttempts, c);
    m_vote = std::move(v);
    StartAttempt();
}

void
D2dCommitteeConsensus::StartAttempt()
{
    VoteState& v = m_vote;
    ++v.attempt;
    // The primary: uniform among the members not yet primary, from the common seed.
    std::vector<uint32_t> candidates;
    for (auto c : v.committee)
    {
        if (!v.tried.count(c))
        {
            candidates.push_back(c);
        }
    }
    NS_ASSERT(!candidates.empty());
    std::sort(candidates.begin(), candidates.end());
    const auto n = static_cast<uint32_t>(candidates.size());
    v.primary = candidates[m_rng->GetInteger(0, n - 1)];
    v.tried.insert(v.primary);
    v.attemptStart = Simulator::Now();
    v.requestSent = false;
    v.digest = 0;
    v.request = nullptr;
    v.acted.clear();
    v.replies.clear();
    NS_LOG_INFO("round " << v.round << " " << v.step << " attempt " << v.attempt << ": primary "
                         << v.primary);
    auto it = v.proposals.find(v.primary);
    if (it == v.proposals.end() || m_transports[v.primary]->IsOff())
    {
        SilentAttempt();
        return;
    }
    // Voting lines 5-6: p performs the operation on S^p (may take simulated time).
    const uint64_t serial = v.serial;
    const uint32_t attempt = v.attempt;
    Ptr<D2dCommitteeConsensus> self(this);
    const std::vector<uint32_t> set = it->second; // the callee may start another vote
    v.execute(v.primary, set, Callback<void, uint64_t>([self, serial, attempt](uint64_t d) {
                  self->PrimaryExecuted(serial, attempt, d);
              }));
}

void
D2dCommitteeConsensus::SilentAttempt()
{
    VoteState& v = m_vote;
    const Time expiry = std::max(v.attemptStart + m_requestTimeout, Simulator::Now());
    v.timer.Cancel();
    v.timer = Simulator::Schedule(expiry - Simulator::Now(),
                                  &D2dCommitteeConsensus::AttemptExpired,
                                  this,
                                  v.serial,
                                  v.attempt);
}

void
D2dCommitteeConsensus::PrimaryExecuted(uint64_t serial, uint32_t attempt, uint64_t digest)
{
    VoteState& v = m_vote;
    if (!v.open || v.serial != serial || v.attempt != attempt || v.requestSent)
    {
        return; // the attempt is over
    }
    if (digest == 0)
    {
        NS_LOG_INFO("primary " << v.primary << " refuses to execute");
        SilentAttempt();
        return;
    }
    if (v.quorum == 0)
    {
        // A committee of one with the majority quorum: the primary's result is the majority.
        D2dCcpOutcome outcome;
        outcome.consensus = true;
        outcome.primary = v.primary;
        outcome.set = v.proposals.at(v.primary);
        outcome.digest = digest;
        outcome.attempts = v.attempt;
        Row(v.round, v.step, v.attempt, v.primary, 0, 0, "consensus");
        EndVote(outcome);
        return;
    }
    // Voting line 7: <Request, S^p, o, timestamp> broadcast to the replicas: one multicast
    // naming them (see the class text).
    auto payload = std::make_shared<D2dCcpPayload>();
    payload->type = D2dCcpPayload::Type::REQUEST;
    payload->round = v.round;
    payload->step = v.step;
    payload->attempt = v.attempt;
    payload->origin = v.primary;
    payload->set = v.proposals.at(v.primary);
    payload->digest = digest;
    payload->timestamp = Simulator::Now();
    auto msg = Create<D2dMessage>(kRequestKind,
                                  payload->GetSizeBytes(),
                                  std::shared_ptr<const D2dPayload>(payload));
    const std::vector<uint32_t> replicas = Others(v.committee, v.primary);
    const uint64_t id = replicas.empty() ? 0 : m_transports[v.primary]->Send(msg, replicas, m_mode);
    if (id == 0)
    {
        NS_LOG_INFO("primary " << v.primary << " is off or alone: no request leaves");
        SilentAttempt();
        return;
    }
    v.requestSent = true;
    v.digest = digest;
    v.request = payload;
    v.timer.Cancel();
    v.timer = Simulator::Schedule(m_requestTimeout,
                                  &D2dCommitteeConsensus::AttemptExpired,
                                  this,
                                  v.serial,
                                  v.attempt);
}

void
D2dCommitteeConsensus::ReceiveRequest(const D2dReception& r, const D2dCcpPayload& p)
{
    VoteState& v = m_vote;
    const uint32_t k = r.dst;
    if (!v.open || !v.requestSent || p.round != v.round || p.step != v.step ||
        p.attempt != v.attempt || p.origin != v.primary || r.src != v.primary || k == v.primary ||
        !v.acted.insert(k).second)
    {
        return; // stale, not for a replica, or already acted on
    }
    if (std::find(v.committee.begin(), v.committee.end(), k) == v.committee.end())
    {
        return; // only the committee's replicas act on a request
    }
    auto it = v.proposals.find(k);
    if (it == v.proposals.end() || it->second != p.set)
    {
        NS_LOG_LOGIC("replica " << k << ": no proposal or S^k != S^p");
        return;
    }
    // Voting lines 10-11: S^k == S^p, so k performs the operation.
    const uint64_t serial = v.serial;
    const uint32_t attempt = v.attempt;
    Ptr<D2dCommitteeConsensus> self(this);
    const std::vector<uint32_t> set = p.set;
    v.execute(k, set, Callback<void, uint64_t>([self, serial, attempt, k](uint64_t d) {
                  self->ReplicaExecuted(serial, attempt, k, d);
              }));
}

void
D2dCommitteeConsensus::ReplicaExecuted(uint64_t serial,
                                       uint32_t attempt,
                                       uint32_t replica,
                                       uint64_t digest)
{
    VoteState& v = m_vote;
    if (!v.open || v.serial != serial || v.attempt != attempt || !v.request)
    {
        return;
    }
    if (digest == 0 || digest != v.request->digest)
    {
        NS_LOG_INFO("replica " << replica << ": result differs or refused, no reply");
        return;
    }
    // Voting line 12: <Reply, timestamp, S^p, response> to p.
    auto payload = std::make_shared<D2dCcpPayload>();
    payload->type = D2dCcpPayload::Type::REPLY;
    payload->round = v.round;
    payload->step = v.step;
    payload->attempt = v.attempt;
    payload->origin = replica;
    payload->set = v.request->set;
    payload->digest = digest;
    payload->timestamp = v.request->timestamp;
    auto msg = Create<D2dMessage>(kReplyKind,
                                  payload->GetSizeBytes(),
                                  std::shared_ptr<const D2dPayload>(payload));
    if (m_transports[replica]->Send(msg, v.primary, m_mode) == 0)
    {
        NS_LOG_INFO("replica " << replica << " is off: no reply");
    }
}

void
D2dCommitteeConsensus::ReceiveReply(const D2dReception& r, const D2dCcpPayload& p)
{
    VoteState& v = m_vote;
    if (!v.open || !v.request || p.round != v.round || p.step != v.step || p.attempt != v.attempt ||
        r.dst != v.primary || r.src != p.origin || p.origin == v.primary || p.digest != v.digest ||
        p.set != v.request->set || p.timestamp != v.request->timestamp ||
        std::find(v.committee.begin(), v.committee.end(), p.origin) == v.committee.end())
    {
        return;
    }
    v.replies.insert(p.origin);
    // Voting lines 14-15: at least Q identical results (Quorum attribute).
    if (v.replies.size() >= v.quorum)
    {
        D2dCcpOutcome outcome;
        outcome.consensus = true;
        outcome.primary = v.primary;
        outcome.set = v.request->set;
        outcome.digest = v.digest;
        outcome.attempts = v.attempt;
        Row(v.round,
            v.step,
            v.attempt,
            v.primary,
            static_cast<uint32_t>(v.replies.size()),
            v.quorum,
            "consensus");
        EndVote(outcome);
    }
}

void
D2dCommitteeConsensus::AttemptExpired(uint64_t serial, uint32_t attempt)
{
    VoteState& v = m_vote;
    if (!v.open || v.serial != serial || v.attempt != attempt)
    {
        return;
    }
    const auto replies = static_cast<uint32_t>(v.replies.size());
    if (v.attempt < v.maxAttempts)
    {
        Row(v.round, v.step, v.attempt, v.primary, replies, v.quorum, "timeout");
        StartAttempt(); // a new primary at once
        return;
    }
    Row(v.round, v.step, v.attempt, v.primary, replies, v.quorum, "failed");
    D2dCcpOutcome outcome;
    outcome.attempts = v.attempt;
    EndVote(outcome);
}

void
D2dCommitteeConsensus::EndVote(const D2dCcpOutcome& outcome)
{
    Callback<void, const D2dCcpOutcome&> done = m_vote.done;
    m_vote.timer.Cancel();
    m_vote = VoteState(); // closed: late messages and executions of it are ignored
    m_doneEvents.erase(std::remove_if(m_doneEvents.begin(),
                                      m_doneEvents.end(),
                                      [](const EventId& e) { return e.IsExpired(); }),
                       m_doneEvents.end());
    if (!done.IsNull())
    {
        // An event of its own: not from inside a reception, and done() may start a vote.
        m_doneEvents.push_back(Simulator::ScheduleNow([done, outcome]() { done(outcome); }));
    }
}

} // namespace ns3
