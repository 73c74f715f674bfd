/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-belief-consensus.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dBeliefConsensus");
NS_OBJECT_ENSURE_REGISTERED(D2dBeliefConsensus);

TypeId
D2dBeliefConsensus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dBeliefConsensus")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dBeliefConsensus>()
            .AddAttribute("StepInterval",
                          "Duration of one of the paper's synchronous instants: step k "
                          "starts at (k - 1) x StepInterval and its deadline (eq. 3) is "
                          "k x StepInterval.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&D2dBeliefConsensus::m_stepInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Steps",
                          "Number of steps (samples per device).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&D2dBeliefConsensus::m_steps),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LossRule",
                          "What replaces a neighbour's belief missing at the deadline.",
                          EnumValue(D2dBeliefConsensus::REUSE),
                          D2dMakeEnumAccessor(&D2dBeliefConsensus::m_lossRule),
                          MakeEnumChecker(D2dBeliefConsensus::REUSE,
                                          "Reuse",
                                          D2dBeliefConsensus::RENORMALIZE,
                                          "Renormalize"))
            .AddAttribute("Cooperation",
                          "Network (consensus over the channel), Isolated or Central.",
                          EnumValue(D2dBeliefConsensus::NETWORK),
                          D2dMakeEnumAccessor(&D2dBeliefConsensus::m_cooperation),
                          MakeEnumChecker(D2dBeliefConsensus::NETWORK,
                                          "Network",
                                          D2dBeliefConsensus::ISOLATED,
                                          "Isolated",
                                          D2dBeliefConsensus::CENTRAL,
                                          "Central"))
            .AddAttribute("Broadcast",
                          "Send each public belief as one broadcast (true) or as one unicast "
                          "per out-neighbour (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dBeliefConsensus::m_broadcast),
                          MakeBooleanChecker())
            .AddAttribute("Reliable",
                          "Send beliefs in reliable mode (ARQ) instead of unreliable.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&D2dBeliefConsensus::m_reliable),
                          MakeBooleanChecker())
            .AddTraceSource("Consensus",
                            "Per step and device: in-neighbours fresh, reused, renormalized "
                            "out.",
                            MakeTraceSourceAccessor(&D2dBeliefConsensus::m_consensusTrace),
                            "ns3::D2dBeliefConsensus::ConsensusTracedCallback")
            .AddTraceSource("StepDone",
                            "Every device has applied eq. (3) of a step.",
                            MakeTraceSourceAccessor(&D2dBeliefConsensus::m_stepDoneTrace),
                            "ns3::D2dBeliefConsensus::StepDoneTracedCallback")
            .AddTraceSource("LocalUpdateMissed",
                            "A live device's local update had not completed at the step "
                            "deadline (step, node): it skips the step's consensus.",
                            MakeTraceSourceAccessor(&D2dBeliefConsensus::m_missedTrace),
                            "ns3::D2dBeliefConsensus::LocalUpdateMissedTracedCallback");
    return tid;
}

D2dBeliefConsensus::D2dBeliefConsensus()
{
    NS_LOG_FUNCTION(this);
}

D2dBeliefConsensus::~D2dBeliefConsensus() = default;

void
D2dBeliefConsensus::DoDispose()
{
    if (!m_receiveCb.IsNull())
    {
        for (auto& t : m_transports)
        {
            t->RemoveReceiveHandler(m_receiveCb);
        }
        m_receiveCb = MakeNullCallback<void, const D2dReception&>();
    }
    m_transports.clear();
    m_learner = nullptr;
    m_last.clear();
    m_public.clear();
    m_initial.clear();
    Object::DoDispose();
}

void
D2dBeliefConsensus::SetLearner(Ptr<D2dBeliefLearner> learner)
{
    m_learner = learner;
}

void
D2dBeliefConsensus::SetMatrix(const D2dBeliefConsensusMatrix& w)
{
    m_w = w;
}

void
D2dBeliefConsensus::SetTransports(const std::vector<Ptr<D2dTransport>>& transports)
{
    m_transports = transports;
}

bool
D2dBeliefConsensus::IsLive(uint32_t i) const
{
    return i >= m_transports.size() || !m_transports[i]->IsOff();
}

void
D2dBeliefConsensus::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_learner, "D2dBeliefConsensus needs a learner");
    const uint32_t n = m_learner->GetNDevices();
    if (m_cooperation == NETWORK)
    {
        NS_ABORT_MSG_IF(m_w.GetN() != n,
                        "W is " << m_w.GetN() << " x " << m_w.GetN() << " for " << n << " devices");
        NS_ABORT_MSG_IF(m_transports.size() != n, "one transport per device");
        m_in.resize(n);
        m_out.resize(n);
        m_last.resize(n);
        m_initial.resize(n);
        NS_ABORT_MSG_IF(!m_receiveCb.IsNull(), "D2dBeliefConsensus::Start called twice");
        m_receiveCb = MakeCallback(&D2dBeliefConsensus::Receive, this);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_in[i] = m_w.InNeighbours(i);
            m_out[i] = m_w.OutNeighbours(i);
            m_last[i].assign(m_in[i].size(), nullptr);
            m_initial[i] =
                std::make_shared<const D2dBeliefPayload>(i, 0, m_learner->GetInitialPublic(i));
            NS_ABORT_MSG_IF(!m_transports[i], "no transport for device " << i);
            m_transports[i]->AddReceiveHandler(m_receiveCb, KIND);
        }
    }
    m_public.assign(n, nullptr);
    Simulator::ScheduleNow(&D2dBeliefConsensus::BeginStep, this, 1);
}

void
D2dBeliefConsensus::BeginStep(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    m_currentStep = k;
    const uint32_t n = m_learner->GetNDevices();
    if (m_cooperation != CENTRAL)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (!IsLive(i))
            {
                m_public[i] = nullptr;
                continue;
            }
            // Steps 1-2: sample and eq. (2), at once or as a training job in simulated time.
            m_public[i] = nullptr;
            m_learner->StartLocalUpdate(
                i,
                Callback<void, const std::vector<double>&>(
                    [this, i, k](const std::vector<double>& b) { LocalDone(i, k, b); }));
        }
    }
    Simulator::Schedule(m_stepInterval, &D2dBeliefConsensus::Deadline, this, k);
}

void
D2dBeliefConsensus::LocalDone(uint32_t i, uint32_t k, const std::vector<double>& values)
{
    NS_LOG_FUNCTION(this << i << k);
    if (m_completed >= k)
    {
        return; // finished after the step's deadline: counted as missed there, discarded
    }
    m_public[i] = std::make_shared<const D2dBeliefPayload>(i, k, values);
    if (m_cooperation == NETWORK && !m_out[i].empty())
    {
        // Step 3 of sec. 3 (Lalitha et al. 2018): b_i^(k) is sent as soon as eq. (2) has
        // formed it. No staggering here: when it goes on the air, and that half-duplex
        // radios do not lose each other's beliefs, is the channel access's business
        // (D2dChannel AccessPolicy Scheduled, or the Wi-Fi MAC).
        SendBelief(i, k);
    }
}

void
D2dBeliefConsensus::SendBelief(uint32_t i, uint32_t k)
{
    if (!IsLive(i) || !m_public[i] || m_public[i]->GetStep() != k)
    {
        return;
    }
    const uint64_t bytes = m_learner->GetBytesPerValue() * m_public[i]->GetValues().size();
    auto message = Create<D2dMessage>(KIND, bytes, m_public[i]);
    const auto mode = m_reliable ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    if (m_broadcast)
    {
        m_transports[i]->Send(message, D2D_BROADCAST, mode);
    }
    else
    {
        for (uint32_t dst : m_out[i])
        {
            m_transports[i]->Send(message, dst, mode);
        }
    }
}

void
D2dBeliefConsensus::Receive(const D2dReception& reception)
{
    if (!reception.IsComplete() || !reception.message)
    {
        return; // a partial belief is useless: counted as missing at the deadline
    }
    NS_LOG_FUNCTION(this << reception.src << reception.dst << reception.msgId);
    auto payload = reception.message->GetPayloadAs<D2dBeliefPayload>();
    if (!payload)
    {
        return;
    }
    const uint32_t i = reception.dst;
    const uint32_t j = payload->GetSender();
    const auto& in = m_in.at(i);
    auto it = std::lower_bound(in.begin(), in.end(), j);
    if (it == in.end() || *it != j)
    {
        return; // overheard from a device i does not listen to (W_ij = 0)
    }
    auto& slot = m_last[i][it - in.begin()];
    if (!slot || slot->GetStep() < payload->GetStep())
    {
        slot = payload;
    }
}

void
D2dBeliefConsensus::Deadline(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    const uint32_t n = m_learner->GetNDevices();
    if (m_cooperation == CENTRAL)
    {
        m_learner->CentralStep();
    }
    else
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (!IsLive(i))
            {
                continue;
            }
            if (!m_public[i] || m_public[i]->GetStep() != k)
            {
                // The local update did not complete by the deadline (or could not start):
                // no b_i^(k), no consensus; rho_i stays.
                ++m_missed;
                m_missedTrace(k, i);
                continue;
            }
            std::vector<double> weights;
            std::vector<const std::vector<double>*> beliefs;
            uint32_t fresh = 0;
            uint32_t reused = 0;
            uint32_t out = 0;
            if (m_cooperation == ISOLATED)
            {
                weights.push_back(1.0);
                beliefs.push_back(&m_public[i]->GetValues());
            }
            else
            {
                weights.push_back(m_w.Get(i, i));
                beliefs.push_back(&m_public[i]->GetValues());
                for (std::size_t a = 0; a < m_in[i].size(); ++a)
                {
                    const uint32_t j = m_in[i][a];
                    const auto& last = m_last[i][a];
                    if (last && last->GetStep() == k)
                    {
                        ++fresh;
                        weights.push_back(m_w.Get(i, j));
                        beliefs.push_back(&last->GetValues());
                    }
                    else if (m_lossRule == REUSE)
                    {
                        ++reused;
                        weights.push_back(m_w.Get(i, j));
                        beliefs.push_back(last ? &last->GetValues() : &m_initial[j]->GetValues());
                    }
                    else
                    {
                        ++out;
                    }
                }
                if (m_lossRule == RENORMALIZE && out > 0)
                {
                    double sum = 0;
                    for (double w : weights)
                    {
                        sum += w;
                    }
                    if (sum > 0)
                    {
                        for (double& w : weights)
                        {
                            w /= sum;
                        }
                    }
                    else
                    {
                        weights[0] = 1.0; // W_ii = 0 and nothing arrived: keep b_i
                    }
                }
            }
            // Step 4: eq. (3).
            m_learner->Consensus(i, weights, beliefs);
            m_totals[0] += fresh;
            m_totals[1] += reused;
            m_totals[2] += out;
            m_consensusTrace(k, i, fresh, reused, out);
        }
    }
    m_completed = k;
    m_stepDoneTrace(k);
    if (k < m_steps)
    {
        BeginStep(k + 1);
    }
}

uint32_t
D2dBeliefConsensus::GetCompletedSteps() const
{
    return m_completed;
}

Time
D2dBeliefConsensus::GetDuration() const
{
    return m_stepInterval * m_steps;
}

std::vector<uint64_t>
D2dBeliefConsensus::GetTotals() const
{
    return m_totals;
}

uint64_t
D2dBeliefConsensus::GetMissedUpdates() const
{
    return m_missed;
}

} // namespace ns3
