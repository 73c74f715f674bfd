/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fl-protocol.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <fmt/format.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dFlProtocol");
NS_OBJECT_ENSURE_REGISTERED(D2dFlProtocol);

TypeId
D2dFlProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dFlProtocol")
            .SetParent<Object>()
            .SetGroupName("D2dlearn")
            .AddAttribute("Rounds",
                          "Rounds to run",
                          UintegerValue(10),
                          MakeUintegerAccessor(&D2dFlProtocol::m_rounds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LocalEpochs",
                          "Epochs over the device's shard per local training job",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dFlProtocol::m_localEpochs),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LocalSteps",
                          "Mini-batch steps per local job (0: LocalEpochs epochs)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dFlProtocol::m_localSteps),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("RoundDeadline",
                          "A round (phase) ends at most this long after it started; what "
                          "has not arrived by then is left out (0: wait for everything)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&D2dFlProtocol::m_deadline),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute(
                "Compression",
                "Model values on the air: float32 (4 bytes each) or float16 (2 bytes each)",
                EnumValue(D2dFlProtocol::FLOAT32),
                D2dMakeEnumAccessor(&D2dFlProtocol::SetCompression, &D2dFlProtocol::GetCompression),
                MakeEnumChecker(D2dFlProtocol::FLOAT32,
                                "float32",
                                D2dFlProtocol::FLOAT16,
                                "float16"))
            .AddAttribute("SleepWhileTraining",
                          "A device's radios sleep while it trains: from the start of each "
                          "local job until its planned end, the device tells the transports "
                          "of the links the protocol uses that it has nothing to send or "
                          "receive (D2dTransport::IdleUntil); messages for it meanwhile "
                          "wait (channel backend) or are missed (Wi-Fi)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&D2dFlProtocol::m_sleepWhileTraining),
                          MakeBooleanChecker())
            .AddAttribute("EvaluateDevices",
                          "Decentralized protocols: write each device's test accuracy and "
                          "loss every round (costly with thousands of devices)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dFlProtocol::m_evaluateDevices),
                          MakeBooleanChecker())
            .AddTraceSource("RoundEnd",
                            "A round ended: (round, accuracy, loss)",
                            MakeTraceSourceAccessor(&D2dFlProtocol::m_roundEndTrace),
                            "ns3::D2dFlProtocol::RoundEndTracedCallback")
            .AddTraceSource("RoundRecord",
                            "A measurement of a round, at the time it was taken (a rounds.csv "
                            "row): (round, node or -1, metric, value)",
                            MakeTraceSourceAccessor(&D2dFlProtocol::m_roundRecordTrace),
                            "ns3::D2dFlProtocol::RoundRecordTracedCallback");
    return tid;
}

D2dFlProtocol::D2dFlProtocol()
{
}

void
D2dFlProtocol::SetCompression(Compression compression)
{
    m_codec = D2dModelCodec(compression == FLOAT16 ? "float16" : "float32");
}

D2dFlProtocol::Compression
D2dFlProtocol::GetCompression() const
{
    return m_codec.GetCompression() == "float16" ? FLOAT16 : FLOAT32;
}

std::string
D2dFlProtocol::Name() const
{
    const std::string name = GetInstanceTypeId().GetName();
    return name.rfind("ns3::", 0) == 0 ? name.substr(5) : name;
}

void
D2dFlProtocol::SetTransports(std::vector<Ptr<D2dTransport>> transports, D2dDeliveryMode mode)
{
    m_transports = std::move(transports);
    m_mode = mode;
}

void
D2dFlProtocol::SetD2sTransports(std::vector<Ptr<D2dTransport>> d2s, D2dDeliveryMode mode)
{
    m_d2s = std::move(d2s);
    m_d2sMode = mode;
}

bool
D2dFlProtocol::UsesD2d() const
{
    return false;
}

bool
D2dFlProtocol::UsesD2s() const
{
    return false;
}

uint32_t
D2dFlProtocol::GetMinDevices() const
{
    return 2;
}

bool
D2dFlProtocol::AveragesModels() const
{
    return true;
}

bool
D2dFlProtocol::SendsGradients() const
{
    return false;
}

std::vector<TypeId>
D2dFlProtocol::GetPartTypeIds() const
{
    return {D2dLearner::GetTypeId()}; // the devices' learners
}

std::vector<std::string>
D2dFlProtocol::GetUnreadAttributes() const
{
    return {};
}

int64_t
D2dFlProtocol::AssignStreams(int64_t)
{
    return 0;
}

void
D2dFlProtocol::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = GetNDevices();
    NS_ABORT_MSG_IF(n == 0, Name() << ": not set up: no learners (SetLearners)");
    for (const auto& l : m_learners)
    {
        NS_ABORT_MSG_IF(!l, Name() << ": a null learner");
    }
    NS_ABORT_MSG_IF(!m_test, Name() << ": not set up: no test set (SetTestSet)");
    if (UsesD2d())
    {
        NS_ABORT_MSG_IF(m_transports.size() != n,
                        Name() << ": " << m_transports.size() << " D2D transports for " << n
                               << " learners (SetTransports: one each)");
    }
    if (UsesD2s())
    {
        NS_ABORT_MSG_IF(m_d2s.size() != n + 1,
                        Name() << ": " << m_d2s.size() << " D2S transports for " << n
                               << " devices (SetD2sTransports: one each and the server's last)");
    }
    for (const auto& t : m_transports)
    {
        NS_ABORT_MSG_IF(!t, Name() << ": a null D2D transport");
    }
    for (const auto& t : m_d2s)
    {
        NS_ABORT_MSG_IF(!t, Name() << ": a null D2S transport");
    }
    // bytes_sent rows and GetBytesSent(): the messages handed to the links it uses.
    CountBytesSent(m_transports);
    CountBytesSent(m_d2s);
    // A training job whose loss is not finite has diverged: the run stops (GetNumericError).
    for (uint32_t i = 0; i < n; ++i)
    {
        m_learners[i]->TraceConnectWithoutContext(
            "TrainingDone",
            MakeCallback(&D2dFlProtocol::CheckTraining, this).Bind(i));
        if (m_sleepWhileTraining)
        {
            m_learners[i]->TraceConnectWithoutContext(
                "TrainingStart",
                MakeCallback(&D2dFlProtocol::SleepWhileTraining, this).Bind(i));
        }
    }
    Object::DoInitialize();
}

void
D2dFlProtocol::SleepWhileTraining(uint32_t device, uint32_t, Time, Time end)
{
    // Nothing to send before the job ends: every protocol's device sends what it trained
    // only then. What comes for it meanwhile (none in server FedAvg; a faster peer's model
    // in the peer protocols) waits for the radio (sleep_wait_s, channel backend) or is
    // missed and retried (Wi-Fi).
    if (UsesD2d())
    {
        m_transports[device]->IdleUntil(end);
    }
    if (UsesD2s())
    {
        m_d2s[device]->IdleUntil(end);
    }
}

void
D2dFlProtocol::CheckTraining(uint32_t device, uint32_t, Time, Time, const D2dTrainResult& result)
{
    if (!std::isfinite(result.meanLoss))
    {
        StopOnNonFinite(fmt::format("device {}, round {}: training loss is {} (the model "
                                    "diverged; accepted: finite losses, e.g. with a lower "
                                    "--learningRate)",
                                    device,
                                    m_round,
                                    result.meanLoss));
    }
}

void
D2dFlProtocol::StopOnNonFinite(const std::string& what)
{
    if (m_numericError.empty())
    {
        NS_LOG_WARN(Name() << ": " << what);
        m_numericError = what;
        Simulator::Stop(); // after this event: GetNumericError() tells why
    }
}

const std::string&
D2dFlProtocol::GetNumericError() const
{
    return m_numericError;
}

void
D2dFlProtocol::Start()
{
    NS_LOG_FUNCTION(this);
    Initialize();
    DoStart();
}

void
D2dFlProtocol::DoDispose()
{
    m_learners.clear();
    m_test.reset();
    m_finished = Callback<void>();
    m_watched.clear();
    m_transports.clear();
    m_d2s.clear();
    Object::DoDispose();
}

void
D2dFlProtocol::SetLearners(std::vector<Ptr<D2dLearner>> learners)
{
    m_learners = std::move(learners);
}

const std::vector<Ptr<D2dLearner>>&
D2dFlProtocol::GetLearners() const
{
    return m_learners;
}

void
D2dFlProtocol::SetTestSet(std::shared_ptr<const D2dDataset> test)
{
    m_test = std::move(test);
}

void
D2dFlProtocol::SetLowQuality(const std::vector<uint32_t>& devices)
{
    m_lowQuality = std::set<uint32_t>(devices.begin(), devices.end());
}

bool
D2dFlProtocol::IsLowQuality(uint32_t device) const
{
    return m_lowQuality.count(device) > 0;
}

void
D2dFlProtocol::SetFinishedCallback(Callback<void> cb)
{
    m_finished = cb;
}

uint32_t
D2dFlProtocol::GetRoundsDone() const
{
    return m_roundsDone;
}

double
D2dFlProtocol::GetLastAccuracy() const
{
    return m_lastAccuracy;
}

double
D2dFlProtocol::GetLastLoss() const
{
    return m_lastLoss;
}

uint32_t
D2dFlProtocol::GetNDevices() const
{
    return static_cast<uint32_t>(m_learners.size());
}

void
D2dFlProtocol::CountBytesSent(const std::vector<Ptr<D2dTransport>>& radios)
{
    m_countingBytes = true;
    for (const auto& radio : radios)
    {
        if (!m_watched.insert(PeekPointer(radio)).second)
        {
            continue; // watched already: count its messages once
        }
        radio->TraceConnectWithoutContext("Send", MakeCallback(&D2dFlProtocol::MessageSent, this));
    }
}

void
D2dFlProtocol::MessageSent(uint64_t, Ptr<const D2dMessage> message, uint32_t)
{
    m_bytesSent += message->GetSizeBytes();
}

uint64_t
D2dFlProtocol::GetBytesSent() const
{
    return m_bytesSent;
}

void
D2dFlProtocol::WriteBytesSent(uint32_t round)
{
    if (m_countingBytes)
    {
        WriteRow(round, -1, "bytes_sent", static_cast<double>(m_bytesSent - m_bytesWritten));
        m_bytesWritten = m_bytesSent;
    }
}

D2dTrainTask
D2dFlProtocol::LocalTask() const
{
    D2dTrainTask task;
    task.epochs = m_localEpochs;
    task.maxSteps = m_localSteps;
    return task;
}

void
D2dFlProtocol::WriteRow(uint32_t round, int64_t node, const std::string& metric, double value)
{
    if (!std::isfinite(value))
    {
        StopOnNonFinite(
            fmt::format("{}, round {}: {} is {} (the model diverged; accepted: "
                        "finite values, e.g. with a lower --learningRate)",
                        node < 0 ? std::string("global model") : "device " + std::to_string(node),
                        round,
                        metric,
                        value));
    }
    m_roundRecordTrace(round, node, metric, value);
}

void
D2dFlProtocol::RecordGlobal(uint32_t round, const std::vector<float>& values)
{
    NS_ABORT_MSG_IF(!m_test || m_learners.empty(), "D2dFlProtocol: no test set or learners");
    // Any idle learner of the architecture evaluates (its own weights are restored).
    Ptr<D2dLearner> evaluator;
    for (auto& l : m_learners)
    {
        if (!l->IsTraining())
        {
            evaluator = l;
            break;
        }
    }
    D2dEvalResult r;
    if (evaluator)
    {
        r = evaluator->Evaluate(values, *m_test);
    }
    m_lastAccuracy = r.accuracy;
    m_lastLoss = r.loss;
    if (m_test->numClasses > 0)
    {
        WriteRow(round, -1, "accuracy", r.accuracy);
    }
    WriteRow(round, -1, "loss", r.loss);
}

void
D2dFlProtocol::RecordDevices(uint32_t round, const std::vector<uint32_t>& devices)
{
    NS_ABORT_MSG_IF(!m_test, "D2dFlProtocol: no test set");
    // Devices still training (stragglers, dead batteries) have no visible model; node -1
    // is the regular devices' (SetLowQuality).
    std::vector<uint32_t> idle;
    std::vector<uint32_t> lowQuality;
    for (auto i : devices)
    {
        if (!m_learners[i]->IsTraining())
        {
            (IsLowQuality(i) ? lowQuality : idle).push_back(i);
        }
    }
    RecordRegular(round, idle);
    // The low-quality devices' own rows, after node -1's.
    for (auto i : lowQuality)
    {
        const auto r = m_learners[i]->Evaluate(*m_test);
        if (m_test->numClasses > 0)
        {
            WriteRow(round, i, "accuracy", r.accuracy);
        }
        WriteRow(round, i, "loss", r.loss);
    }
}

void
D2dFlProtocol::RecordRegular(uint32_t round, const std::vector<uint32_t>& idle)
{
    if (idle.empty())
    {
        return;
    }
    // Node -1: the mean of the devices' own test figures (every device, or with
    // EvaluateDevices = false an evenly spread sample of up to 16 of them).
    std::vector<uint32_t> evaluated = idle;
    if (!m_evaluateDevices && idle.size() > 16)
    {
        evaluated.clear();
        for (std::size_t k = 0; k < 16; ++k)
        {
            evaluated.push_back(idle[k * idle.size() / 16]);
        }
    }
    double accuracy = 0;
    double loss = 0;
    for (auto i : evaluated)
    {
        const auto r = m_learners[i]->Evaluate(*m_test);
        accuracy += r.accuracy;
        loss += r.loss;
        if (m_evaluateDevices)
        {
            if (m_test->numClasses > 0)
            {
                WriteRow(round, i, "accuracy", r.accuracy);
            }
            WriteRow(round, i, "loss", r.loss);
        }
    }
    m_lastAccuracy = accuracy / static_cast<double>(evaluated.size());
    m_lastLoss = loss / static_cast<double>(evaluated.size());
    if (m_test->numClasses > 0)
    {
        WriteRow(round, -1, "accuracy", m_lastAccuracy);
    }
    WriteRow(round, -1, "loss", m_lastLoss);

    // The devices' parameter average, when they share an architecture: its distance to
    // the devices, (1/K) sum_k ||w_k - mean||^2, and its test accuracy (what one averaging
    // step over all devices would give).
    std::vector<std::shared_ptr<const std::vector<float>>> models;
    for (auto i : idle)
    {
        models.push_back(m_learners[i]->GetSharedParameters()); // no copy
        if (models.back()->size() != models.front()->size() ||
            m_learners[i]->GetSpec().ToString() != m_learners[idle[0]]->GetSpec().ToString())
        {
            return; // heterogeneous architectures: no mean model
        }
    }
    const auto mean = D2dRobustAggregation::Mean(models, std::vector<double>(models.size(), 1.0));
    double distance = 0;
    for (const auto& m : models)
    {
        for (std::size_t j = 0; j < mean.size(); ++j)
        {
            const double d = static_cast<double>((*m)[j]) - mean[j];
            distance += d * d;
        }
    }
    distance /= static_cast<double>(models.size());
    WriteRow(round, -1, "consensus_distance", distance);
    const auto r = m_learners[idle[0]]->Evaluate(mean, *m_test);
    if (m_test->numClasses > 0)
    {
        WriteRow(round, -1, "mean_model_accuracy", r.accuracy);
    }
    WriteRow(round, -1, "mean_model_loss", r.loss);
}

void
D2dFlProtocol::EndRound(Callback<void> next)
{
    ++m_roundsDone;
    m_roundEndTrace(m_round, m_lastAccuracy, m_lastLoss);
    if (m_roundsDone >= m_rounds)
    {
        if (!m_finished.IsNull())
        {
            m_finished();
        }
        return;
    }
    Simulator::ScheduleNow(next);
}

void
D2dFlProtocol::PartialShuffle(std::vector<uint32_t>& values,
                              uint32_t m,
                              Ptr<UniformRandomVariable> rng)
{
    const auto n = static_cast<uint32_t>(values.size());
    NS_ABORT_MSG_IF(m > n, "PartialShuffle: sample of " << m << " from " << n);
    for (uint32_t r = 0; r < m; ++r)
    {
        std::swap(values[r], values[rng->GetInteger(r, n - 1)]);
    }
}

std::vector<uint32_t>
D2dFlProtocol::PickDevices(uint32_t n, uint32_t k, Ptr<UniformRandomVariable> rng)
{
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    PartialShuffle(order, k, rng);
    order.resize(k);
    std::sort(order.begin(), order.end());
    return order;
}

std::vector<uint32_t>
D2dFlProtocol::LiveDevices() const
{
    std::vector<uint32_t> live;
    for (uint32_t i = 0; i < GetNDevices(); ++i)
    {
        if (i >= m_dead.size() || !m_dead[i])
        {
            live.push_back(i);
        }
    }
    return live;
}

std::set<uint32_t>
D2dFlProtocol::StartLiveJobs(const D2dTrainTask& task,
                             const std::function<void(uint32_t, const D2dTrainResult&)>& done,
                             const std::function<void(uint32_t, D2dTrainTask&)>& adjust)
{
    std::set<uint32_t> started;
    // A device beyond m_dead is live, as in LiveDevices(): a protocol that does not track
    // batteries need not size it; a refusal below marks the device there.
    if (m_dead.size() < GetNDevices())
    {
        m_dead.resize(GetNDevices(), false);
    }
    for (uint32_t i = 0; i < GetNDevices(); ++i)
    {
        if (m_dead[i] || m_learners[i]->IsTraining() || m_learners[i]->IsAway())
        {
            continue; // depleted, a straggler still on an earlier round's job, or away
        }
        D2dTrainTask own = task; // a few scalars and shared pointers
        if (adjust)
        {
            adjust(i, own);
        }
        if (m_learners[i]->Train(own, [done, i](const D2dTrainResult& r) { done(i, r); }))
        {
            started.insert(i);
        }
        else
        {
            m_dead[i] = true;
        }
    }
    return started;
}

} // namespace ns3
