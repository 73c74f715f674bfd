/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fl-protocol.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-ns3-compat.h"
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
            .AddAttribute(
                "Rounds",
                "Rounds to run",
                UintegerValue(10),
                MakeUintegerAccessor(&D2dFlProtocol::SetRounds, &D2dFlProtocol::GetRounds),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LocalEpochs",
                          "Epochs over the device's shard per local training job",
                          UintegerValue(1),
                          MakeUintegerAccessor(&D2dFlProtocol::SetLocalEpochs,
                                               &D2dFlProtocol::GetLocalEpochs),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "LocalSteps",
                "Mini-batch steps per local job (0: LocalEpochs epochs)",
                UintegerValue(0),
                MakeUintegerAccessor(&D2dFlProtocol::SetLocalSteps, &D2dFlProtocol::GetLocalSteps),
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
                          MakeBooleanAccessor(&D2dFlProtocol::SetSleepWhileTraining,
                                              &D2dFlProtocol::GetSleepWhileTraining),
                          MakeBooleanChecker())
            .AddAttribute("EvaluateDevices",
                          "Decentralized protocols: write each device's test accuracy and "
                          "loss every round (costly with thousands of devices)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dFlProtocol::SetEvaluateDevices,
                                              &D2dFlProtocol::GetEvaluateDevices),
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
    : m_recorder([this](uint32_t round, int64_t node, const std::string& metric, double value) {
          m_roundRecordTrace(round, node, metric, value);
      })
{
}

void
D2dFlProtocol::SetEvaluateDevices(bool evaluate)
{
    m_recorder.SetEvaluateDevices(evaluate);
}

bool
D2dFlProtocol::GetEvaluateDevices() const
{
    return m_recorder.GetEvaluateDevices();
}

void
D2dFlProtocol::SetLocalEpochs(uint32_t epochs)
{
    m_jobs.SetEpochs(epochs);
}

uint32_t
D2dFlProtocol::GetLocalEpochs() const
{
    return m_jobs.GetEpochs();
}

void
D2dFlProtocol::SetLocalSteps(uint64_t steps)
{
    m_jobs.SetSteps(steps);
}

uint64_t
D2dFlProtocol::GetLocalSteps() const
{
    return m_jobs.GetSteps();
}

void
D2dFlProtocol::SetSleepWhileTraining(bool sleep)
{
    m_jobs.SetSleepWhileTraining(sleep);
}

bool
D2dFlProtocol::GetSleepWhileTraining() const
{
    return m_jobs.GetSleepWhileTraining();
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
    NS_ABORT_MSG_IF(!m_recorder.GetTestSet(), Name() << ": not set up: no test set (SetTestSet)");
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
        if (m_jobs.GetSleepWhileTraining())
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
    m_recorder.StopOnNonFinite(what); // logs it (D2dRoundRecorder's log component)
}

const std::string&
D2dFlProtocol::GetNumericError() const
{
    return m_recorder.GetNumericError();
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
    m_count.Dispose();
    m_recorder.Dispose();
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
    m_recorder.SetTestSet(std::move(test));
}

void
D2dFlProtocol::SetLowQuality(const std::vector<uint32_t>& devices)
{
    m_recorder.SetLowQuality(devices);
}

bool
D2dFlProtocol::IsLowQuality(uint32_t device) const
{
    return m_recorder.IsLowQuality(device);
}

void
D2dFlProtocol::SetFinishedCallback(Callback<void> cb)
{
    m_count.SetFinishedCallback(cb);
}

uint32_t
D2dFlProtocol::GetRoundsDone() const
{
    return m_count.GetDone();
}

double
D2dFlProtocol::GetLastAccuracy() const
{
    return m_recorder.GetLastAccuracy();
}

double
D2dFlProtocol::GetLastLoss() const
{
    return m_recorder.GetLastLoss();
}

uint32_t
D2dFlProtocol::GetNDevices() const
{
    return static_cast<uint32_t>(m_learners.size());
}

void
D2dFlProtocol::CountBytesSent(const std::vector<Ptr<D2dTransport>>& radios)
{
    m_recorder.CountBytesSent(radios);
}

uint64_t
D2dFlProtocol::GetBytesSent() const
{
    return m_recorder.GetBytesSent();
}

void
D2dFlProtocol::WriteBytesSent(uint32_t round)
{
    m_recorder.BytesSent(round);
}

D2dTrainTask
D2dFlProtocol::LocalTask() const
{
    return m_jobs.Task();
}

void
D2dFlProtocol::WriteRow(uint32_t round, int64_t node, const std::string& metric, double value)
{
    m_recorder.Row(round, node, metric, value);
}

void
D2dFlProtocol::RecordGlobal(uint32_t round, const std::vector<float>& values)
{
    NS_ABORT_MSG_IF(!m_recorder.GetTestSet() || m_learners.empty(),
                    "D2dFlProtocol: no test set or learners");
    m_recorder.Global(round, values, m_learners);
}

void
D2dFlProtocol::RecordDevices(uint32_t round, const std::vector<uint32_t>& devices)
{
    NS_ABORT_MSG_IF(!m_recorder.GetTestSet(), "D2dFlProtocol: no test set");
    m_recorder.Devices(round, devices, m_learners);
}

const std::shared_ptr<const D2dDataset>&
D2dFlProtocol::GetTestSet() const
{
    return m_recorder.GetTestSet();
}

void
D2dFlProtocol::MarkRoundStart(Time start)
{
    m_recorder.SetRoundStart(start);
}

void
D2dFlProtocol::WriteRoundTime(uint32_t round)
{
    m_recorder.RoundTime(round);
}

void
D2dFlProtocol::SetRounds(uint32_t rounds)
{
    m_count.SetRounds(rounds);
}

uint32_t
D2dFlProtocol::GetRounds() const
{
    return m_count.GetRounds();
}

void
D2dFlProtocol::EndRound(Callback<void> next)
{
    const bool last = m_count.Count();
    m_roundEndTrace(m_round, m_recorder.GetLastAccuracy(), m_recorder.GetLastLoss());
    if (last)
    {
        m_count.Finish();
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
    return m_jobs.Live(GetNDevices());
}

std::set<uint32_t>
D2dFlProtocol::StartLiveJobs(const D2dTrainTask& task,
                             const std::function<void(uint32_t, const D2dTrainResult&)>& done,
                             const std::function<void(uint32_t, D2dTrainTask&)>& adjust)
{
    return m_jobs.Start(m_learners, task, done, adjust);
}

} // namespace ns3
