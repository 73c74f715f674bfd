/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-prediction-consensus.h"

#include "d2d-prediction-payload.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-model-payload.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPredictionConsensus");
NS_OBJECT_ENSURE_REGISTERED(D2dPredictionConsensus);

namespace
{
/** messages.csv kind of a predictions broadcast */
const std::string kPredictionKind = "predictions";
} // namespace

TypeId
D2dPredictionConsensus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dPredictionConsensus")
            .SetParent<D2dFlProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dPredictionConsensus>()
            .AddAttribute("Trust",
                          "Trust weights: naive (1/N), static (eq. 6 once, at the first "
                          "collaboration round), dynamic (eq. 6 every TrustEvery rounds)",
                          EnumValue(D2dPredictionConsensus::DYNAMIC),
                          D2dMakeEnumAccessor(&D2dPredictionConsensus::SetTrust,
                                              &D2dPredictionConsensus::GetTrust),
                          MakeEnumChecker(D2dPredictionConsensus::NAIVE,
                                          "naive",
                                          D2dPredictionConsensus::STATIC,
                                          "static",
                                          D2dPredictionConsensus::DYNAMIC,
                                          "dynamic"))
            .AddAttribute("Confidence",
                          "beta_i(x) of eq. 6: entropy-plus-one (1/(H+1), the authors' code), "
                          "entropy (1/H, the paper's sec. 4.3), none (1)",
                          EnumValue(static_cast<int>(D2dConfidence::ENTROPY_PLUS_ONE)),
                          D2dMakeEnumAccessor(&D2dPredictionConsensus::SetConfidence,
                                              &D2dPredictionConsensus::GetConfidence),
                          MakeEnumChecker(static_cast<int>(D2dConfidence::ENTROPY_PLUS_ONE),
                                          "entropy-plus-one",
                                          static_cast<int>(D2dConfidence::ENTROPY),
                                          "entropy",
                                          static_cast<int>(D2dConfidence::NONE),
                                          "none"))
            .AddAttribute("LossRule",
                          "Predictions missing at the end of the exchange: renormalize (drop "
                          "that column) or reuse (the last ones received from that peer)",
                          EnumValue(D2dPredictionConsensus::RENORMALIZE),
                          D2dMakeEnumAccessor(&D2dPredictionConsensus::m_lossRule),
                          MakeEnumChecker(D2dPredictionConsensus::RENORMALIZE,
                                          "renormalize",
                                          D2dPredictionConsensus::REUSE,
                                          "reuse"))
            .AddAttribute("Lambda",
                          "Weight of the disagreement term of eq. 2 (0: local training)",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&D2dPredictionConsensus::m_lambda),
                          MakeDoubleChecker<double>(0.0, 1e6))
            .AddAttribute("WarmupRounds",
                          "First rounds of local training only (no message)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&D2dPredictionConsensus::m_warmup),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TrustEvery",
                          "Dynamic trust: recompute the rows every this many collaboration "
                          "rounds (in between, the kept rows over the present peers)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dPredictionConsensus::SetTrustEvery,
                                               &D2dPredictionConsensus::GetTrustEvery),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DistillBatch",
                          "X* rows per training step in the distillation term",
                          UintegerValue(256),
                          MakeUintegerAccessor(&D2dPredictionConsensus::m_distillBatch),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceptionGuard",
                          "Unreliable delivery: how long the exchange waits after the last "
                          "broadcast's send-done (the end of its transmission) for its "
                          "receptions, which come one propagation delay later",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&D2dPredictionConsensus::m_receptionGuard),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("CommonInitialModel",
                          "Every device of device 0's architecture starts from device 0's "
                          "initial weights (as D2dLocalTraining)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dPredictionConsensus::m_commonInitialModel),
                          MakeBooleanChecker())
            .AddTraceSource("Trust",
                            "A trust weight: (round, agent, peer, w, fresh|reused|missing)",
                            MakeTraceSourceAccessor(&D2dPredictionConsensus::m_trustTrace),
                            "ns3::D2dPredictionConsensus::TrustTracedCallback")
            .AddTraceSource("Consensus",
                            "An agent's view of a collaboration round (matrix diagnostics)",
                            MakeTraceSourceAccessor(&D2dPredictionConsensus::m_consensusTrace),
                            "ns3::D2dPredictionConsensus::ConsensusTracedCallback");
    return tid;
}

D2dPredictionConsensus::D2dPredictionConsensus()
{
}

void
D2dPredictionConsensus::SetSharedSet(std::shared_ptr<const D2dDataset> xstar)
{
    m_xstar = std::move(xstar);
}

uint64_t
D2dPredictionConsensus::PredictionMessageBytes() const
{
    NS_ABORT_MSG_IF(!m_xstar, "D2dPredictionConsensus: no shared set (SetSharedSet)");
    const uint64_t classes = m_xstar->numClasses == 0 ? 1 : m_xstar->numClasses;
    const uint64_t perValue = m_codec.GetCompression() == "float16" ? 2 : 4;
    return m_xstar->Size() * classes * perValue + HeaderBytes;
}

const std::vector<std::vector<double>>&
D2dPredictionConsensus::GetTrustMatrix() const
{
    return m_trust.GetMatrix();
}

std::shared_ptr<const std::vector<float>>
D2dPredictionConsensus::GetPseudoLabels(uint32_t device) const
{
    return m_trust.GetPseudoLabels(device);
}

bool
D2dPredictionConsensus::UsesD2d() const
{
    return true;
}

void
D2dPredictionConsensus::DoInitialize()
{
    D2dFlProtocol::DoInitialize();
    NS_ABORT_MSG_IF(!m_xstar || m_xstar->Size() == 0,
                    "D2dPredictionConsensus: no shared set X* (SetSharedSet)");
    NS_ABORT_MSG_IF(m_xstar->numClasses != GetTestSet()->numClasses,
                    "D2dPredictionConsensus: X* and the test set differ in classes");
    NS_ABORT_MSG_IF(m_xstar->numClasses == 0 && m_trust.GetMode() != D2dTrustMatrix::NAIVE &&
                        m_trust.GetConfidence() != D2dConfidence::NONE,
                    "D2dPredictionConsensus: regression trust has no confidence weight (the "
                    "entropy needs class probabilities): set Confidence to none");
    for (const auto& t : m_transports)
    {
        t->AddReceiveHandler(MakeCallback(&D2dPredictionConsensus::Receive, this), kPredictionKind);
        t->AddSendDoneHandler(MakeCallback(&D2dPredictionConsensus::SendDone, this));
    }
}

void
D2dPredictionConsensus::DoDispose()
{
    m_deadlineEvent.Cancel();
    for (const auto& t : m_transports)
    {
        t->RemoveReceiveHandler(MakeCallback(&D2dPredictionConsensus::Receive, this));
        t->RemoveSendDoneHandler(MakeCallback(&D2dPredictionConsensus::SendDone, this));
    }
    m_own.clear();
    m_fresh.clear();
    m_last.clear();
    m_trust.Dispose();
    m_xstar.reset();
    D2dFlProtocol::DoDispose();
}

void
D2dPredictionConsensus::DoStart()
{
    const uint32_t n = GetNDevices();
    m_jobs.Revive(n);
    m_last.assign(n, std::vector<std::shared_ptr<const std::vector<float>>>(n));
    m_trust.Reset(n);
    if (m_commonInitialModel)
    {
        const auto w0 = m_learners[0]->GetSharedParameters(); // shared, copy-on-write
        for (uint32_t i = 1; i < n; ++i)
        {
            if (!m_learners[i]->IsTraining() &&
                m_learners[i]->GetSpec().ToString() == m_learners[0]->GetSpec().ToString())
            {
                m_learners[i]->SetParameters(w0);
            }
        }
    }
    EndOfRoundRecord(0);
    StartRound();
}

void
D2dPredictionConsensus::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    const uint32_t n = GetNDevices();
    m_own.assign(n, nullptr);
    m_fresh.assign(n, std::vector<std::shared_ptr<const std::vector<float>>>(n));
    m_predicting.clear();
    m_pendingSends.clear();
    if (m_round <= m_warmup)
    {
        StartTraining(std::vector<std::shared_ptr<const std::vector<float>>>(n));
        return;
    }
    ++m_collaborationRound;
    m_phase = EXCHANGE;
    D2dTrainTask predict;
    predict.predictOn = m_xstar;
    const uint32_t round = m_round;
    m_predicting = StartLiveJobs(predict, [this, round](uint32_t i, const D2dTrainResult& r) {
        Predicted(i, round, r);
    });
    NS_LOG_INFO("round " << m_round << ": " << m_predicting.size() << " agents predict");
    if (m_deadline > Seconds(0))
    {
        m_deadlineEvent =
            Simulator::Schedule(m_deadline, &D2dPredictionConsensus::EndExchange, this);
    }
    MaybeEndExchange();
}

void
D2dPredictionConsensus::Predicted(uint32_t device, uint32_t round, const D2dTrainResult& result)
{
    if (round != m_round || m_phase != EXCHANGE)
    {
        return; // late: the exchange is over (the agent is a straggler this round)
    }
    m_predicting.erase(device);
    auto values = std::make_shared<std::vector<float>>(*result.predictions);
    if (m_codec.GetCompression() == "float16")
    {
        D2dModelCodec::RoundToHalf(*values);
    }
    m_own[device] = values;
    auto payload = std::make_shared<D2dPredictionPayload>();
    payload->round = round;
    payload->origin = device;
    payload->points = static_cast<uint32_t>(m_xstar->Size());
    payload->classes = Classes();
    payload->values = values;
    auto message =
        Create<D2dMessage>(kPredictionKind, PredictionMessageBytes(), payload, m_xstar->Size());
    const uint64_t id = m_transports[device]->Send(message, D2D_BROADCAST, m_mode);
    if (id == 0)
    {
        m_jobs.MarkDead(device); // battery empty: it neither sends nor trains
        m_own[device] = nullptr;
    }
    else
    {
        m_pendingSends[id] = device;
    }
    MaybeEndExchange();
}

void
D2dPredictionConsensus::Receive(const D2dReception& reception)
{
    auto payload = reception.message->GetPayloadAs<D2dPredictionPayload>();
    if (!payload || !reception.IsComplete() || reception.dst >= GetNDevices())
    {
        return; // a partial prediction is not used: missing
    }
    m_last[reception.dst][reception.src] = payload->values;
    if (payload->round == m_round && m_phase == EXCHANGE)
    {
        m_fresh[reception.dst][reception.src] = payload->values;
    }
}

void
D2dPredictionConsensus::SendDone(uint64_t msgId, uint32_t, bool)
{
    if (m_pendingSends.erase(msgId) > 0)
    {
        MaybeEndExchange();
    }
}

void
D2dPredictionConsensus::MaybeEndExchange()
{
    if (m_phase == EXCHANGE && !m_exchangeEnding && m_predicting.empty() && m_pendingSends.empty())
    {
        m_deadlineEvent.Cancel();
        // After the receptions of the last broadcast: reliable delivery reports send-done
        // when the last acknowledgement is back, after every reception; unreliable delivery
        // at the end of the transmission, one propagation delay before the receptions.
        m_exchangeEnding = true;
        m_deadlineEvent = Simulator::Schedule(
            m_mode == D2dDeliveryMode::UNRELIABLE ? m_receptionGuard : Seconds(0),
            &D2dPredictionConsensus::EndExchange,
            this);
    }
}

void
D2dPredictionConsensus::EndExchange()
{
    if (m_phase != EXCHANGE)
    {
        return;
    }
    m_exchangeEnding = false;
    m_deadlineEvent.Cancel();
    m_phase = TRAINING;
    const uint32_t n = GetNDevices();
    const auto points = static_cast<uint32_t>(m_xstar->Size());
    std::vector<std::vector<double>> w(n, std::vector<double>(n, 0.0));
    std::vector<std::shared_ptr<const std::vector<float>>> psi(n);
    std::vector<ConsensusRecord> records(n);
    std::vector<const std::vector<float>*> freshOwn(n, nullptr);
    for (uint32_t i = 0; i < n; ++i)
    {
        freshOwn[i] = m_own[i].get();
        records[i].round = m_round;
        records[i].node = i;
        w[i][i] = 1.0; // no row this round: it keeps its own predictions
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_own[i] || m_jobs.IsDead(i))
        {
            continue;
        }
        std::vector<const std::vector<float>*> seen(n, nullptr);
        std::vector<std::string> how(n, "missing");
        std::vector<bool> present(n, false);
        for (uint32_t j = 0; j < n; ++j)
        {
            const std::vector<float>* p = j == i ? m_own[i].get() : m_fresh[i][j].get();
            if (p)
            {
                how[j] = "fresh";
                ++records[i].fresh;
            }
            else if (m_lossRule == REUSE && m_last[i][j])
            {
                p = m_last[i][j].get();
                how[j] = "reused";
                ++records[i].reused;
            }
            else
            {
                ++records[i].missing;
            }
            seen[j] = p;
            present[j] = p != nullptr;
        }
        const std::vector<double> row = m_trust.Row(i,
                                                    seen,
                                                    present,
                                                    points,
                                                    Classes(),
                                                    m_xstar->numClasses == 0,
                                                    m_collaborationRound);
        w[i] = row;
        psi[i] = std::make_shared<const std::vector<float>>(
            D2dTrustRules::PseudoLabels(row, seen, points, Classes(), m_xstar->numClasses > 0));
        for (uint32_t j = 0; j < n; ++j)
        {
            m_trustTrace(m_round, i, j, row[j], how[j]);
        }
    }
    // The round's matrix diagnostics (D2dTrustRules): eqs. 8, 9, column sums, pi.
    m_trust.Close(w, psi);
    const auto with = D2dTrustRules::ColumnSums(w, true);
    const auto without = D2dTrustRules::ColumnSums(w, false);
    const auto pi = D2dTrustRules::ConsensusDistribution(w);
    const double trace = D2dTrustRules::Trace(w);
    const double delta = D2dTrustRules::RowDifference(w);
    const double lambda = D2dTrustRules::Scrambling(w);
    const double productDelta = D2dTrustRules::RowDifference(m_trust.GetProduct());
    const double disagreement = D2dTrustRules::Disagreement(freshOwn, points, Classes());
    for (uint32_t i = 0; i < n; ++i)
    {
        auto& r = records[i];
        r.selfTrust = w[i][i];
        r.columnSum = with[i];
        r.columnSumOffDiag = without[i];
        r.consensusWeight = pi[i];
        r.trace = trace;
        r.delta = delta;
        r.lambda = lambda;
        r.productDelta = productDelta;
        r.disagreement = disagreement;
        m_consensusTrace(r);
    }
    StartTraining(psi);
}

void
D2dPredictionConsensus::StartTraining(
    const std::vector<std::shared_ptr<const std::vector<float>>>& psi)
{
    m_phase = TRAINING;
    m_completed = 0;
    const uint32_t round = m_round;
    m_running = StartLiveJobs(
        LocalTask(),
        [this, round](uint32_t i, const D2dTrainResult&) { Trained(i, round); },
        [this, &psi](uint32_t i, D2dTrainTask& task) {
            if (psi[i] && m_lambda > 0)
            {
                task.distillSet = m_xstar;
                task.distillTargets = psi[i];
                task.distillWeight = m_lambda;
                task.distillBatch = m_distillBatch;
            }
        });
    if (m_running.empty())
    {
        Simulator::ScheduleNow(&D2dPredictionConsensus::EndOfRound, this);
    }
    else if (m_deadline > Seconds(0))
    {
        m_deadlineEvent =
            Simulator::Schedule(m_deadline, &D2dPredictionConsensus::EndOfRound, this);
    }
}

void
D2dPredictionConsensus::Trained(uint32_t device, uint32_t round)
{
    if (m_phase != TRAINING || round != m_round)
    {
        return; // a straggler's job of an earlier round
    }
    m_running.erase(device);
    ++m_completed;
    if (m_running.empty())
    {
        m_deadlineEvent.Cancel();
        EndOfRound();
    }
}

void
D2dPredictionConsensus::EndOfRoundRecord(uint32_t round)
{
    // Node -1 is the mean over the regular agents (the paper's Table 1; SetLowQuality); the
    // low-quality agents' own rows are written too.
    RecordDevices(round, LiveDevices());
    double xstarSum = 0;
    uint32_t xstarCount = 0;
    for (auto i : LiveDevices())
    {
        if (m_learners[i]->IsTraining())
        {
            continue;
        }
        const auto x = m_learners[i]->Evaluate(*m_xstar);
        const std::string metric = m_xstar->numClasses > 0 ? "xstar_accuracy" : "xstar_loss";
        const double value = m_xstar->numClasses > 0 ? x.accuracy : x.loss;
        WriteRow(round, i, metric, value);
        if (!IsLowQuality(i))
        {
            xstarSum += value;
            ++xstarCount;
        }
    }
    if (xstarCount > 0)
    {
        WriteRow(round,
                 -1,
                 m_xstar->numClasses > 0 ? "xstar_accuracy" : "xstar_loss",
                 xstarSum / xstarCount);
    }
}

void
D2dPredictionConsensus::EndOfRound()
{
    if (m_phase != TRAINING)
    {
        return;
    }
    m_deadlineEvent.Cancel();
    m_phase = IDLE;
    EndOfRoundRecord(m_round);
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "participants", static_cast<double>(m_completed));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(m_running.size()));
    WriteBytesSent(m_round);
    EndRound(MakeCallback(&D2dPredictionConsensus::StartRound, this));
}

uint32_t
D2dPredictionConsensus::Classes() const
{
    return m_xstar->numClasses == 0 ? 1 : m_xstar->numClasses;
}

void
D2dPredictionConsensus::SetTrust(TrustMode mode)
{
    m_trust.SetMode(static_cast<D2dTrustMatrix::Mode>(mode));
}

D2dPredictionConsensus::TrustMode
D2dPredictionConsensus::GetTrust() const
{
    return static_cast<TrustMode>(m_trust.GetMode());
}

void
D2dPredictionConsensus::SetConfidence(int confidence)
{
    m_trust.SetConfidence(static_cast<D2dConfidence>(confidence));
}

int
D2dPredictionConsensus::GetConfidence() const
{
    return static_cast<int>(m_trust.GetConfidence());
}

void
D2dPredictionConsensus::SetTrustEvery(uint32_t every)
{
    m_trust.SetEvery(every);
}

uint32_t
D2dPredictionConsensus::GetTrustEvery() const
{
    return m_trust.GetEvery();
}

} // namespace ns3
