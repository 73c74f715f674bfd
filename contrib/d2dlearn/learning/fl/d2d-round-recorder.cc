/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-round-recorder.h"

#include "ns3/abort.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>
#include <fmt/format.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRoundRecorder");

D2dRoundRecorder::D2dRoundRecorder(Sink sink)
    : m_sink(std::move(sink))
{
}

void
D2dRoundRecorder::SetTestSet(std::shared_ptr<const D2dDataset> test)
{
    m_test = std::move(test);
}

const std::shared_ptr<const D2dDataset>&
D2dRoundRecorder::GetTestSet() const
{
    return m_test;
}

void
D2dRoundRecorder::SetRoundStart(Time start)
{
    m_roundStart = start;
}

void
D2dRoundRecorder::RoundTime(uint32_t round)
{
    Row(round, -1, "round_time_s", (Simulator::Now() - m_roundStart).GetSeconds());
}

void
D2dRoundRecorder::SetEvaluateDevices(bool evaluate)
{
    m_evaluateDevices = evaluate;
}

bool
D2dRoundRecorder::GetEvaluateDevices() const
{
    return m_evaluateDevices;
}

void
D2dRoundRecorder::SetLowQuality(const std::vector<uint32_t>& devices)
{
    m_lowQuality = std::set<uint32_t>(devices.begin(), devices.end());
}

bool
D2dRoundRecorder::IsLowQuality(uint32_t device) const
{
    return m_lowQuality.count(device) > 0;
}

void
D2dRoundRecorder::Row(uint32_t round, int64_t node, const std::string& metric, double value)
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
    m_sink(round, node, metric, value);
}

void
D2dRoundRecorder::Global(uint32_t round, const std::vector<float>& values, const Learners& learners)
{
    // Any idle learner of the architecture evaluates (its own weights are restored).
    Ptr<D2dLearner> evaluator;
    for (const auto& l : learners)
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
        Row(round, -1, "accuracy", r.accuracy);
    }
    Row(round, -1, "loss", r.loss);
}

void
D2dRoundRecorder::Devices(uint32_t round,
                          const std::vector<uint32_t>& devices,
                          const Learners& learners)
{
    // Devices still training (stragglers, dead batteries) have no visible model; node -1
    // is the regular devices' (SetLowQuality).
    std::vector<uint32_t> idle;
    std::vector<uint32_t> lowQuality;
    for (auto i : devices)
    {
        if (!learners[i]->IsTraining())
        {
            (IsLowQuality(i) ? lowQuality : idle).push_back(i);
        }
    }
    Regular(round, idle, learners);
    // The low-quality devices' own rows, after node -1's.
    for (auto i : lowQuality)
    {
        const auto r = learners[i]->Evaluate(*m_test);
        if (m_test->numClasses > 0)
        {
            Row(round, i, "accuracy", r.accuracy);
        }
        Row(round, i, "loss", r.loss);
    }
}

void
D2dRoundRecorder::Regular(uint32_t round,
                          const std::vector<uint32_t>& idle,
                          const Learners& learners)
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
        const auto r = learners[i]->Evaluate(*m_test);
        accuracy += r.accuracy;
        loss += r.loss;
        if (m_evaluateDevices)
        {
            if (m_test->numClasses > 0)
            {
                Row(round, i, "accuracy", r.accuracy);
            }
            Row(round, i, "loss", r.loss);
        }
    }
    m_lastAccuracy = accuracy / static_cast<double>(evaluated.size());
    m_lastLoss = loss / static_cast<double>(evaluated.size());
    if (m_test->numClasses > 0)
    {
        Row(round, -1, "accuracy", m_lastAccuracy);
    }
    Row(round, -1, "loss", m_lastLoss);
    MeanModel(round, idle, learners);
}

void
D2dRoundRecorder::MeanModel(uint32_t round,
                            const std::vector<uint32_t>& idle,
                            const Learners& learners)
{
    // The devices' parameter average, when they share an architecture: its distance to
    // the devices, (1/K) sum_k ||w_k - mean||^2, and its test accuracy (what one averaging
    // step over all devices would give).
    std::vector<std::shared_ptr<const std::vector<float>>> models;
    for (auto i : idle)
    {
        models.push_back(learners[i]->GetSharedParameters()); // no copy
        if (models.back()->size() != models.front()->size() ||
            learners[i]->GetSpec().ToString() != learners[idle[0]]->GetSpec().ToString())
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
    Row(round, -1, "consensus_distance", distance);
    const auto r = learners[idle[0]]->Evaluate(mean, *m_test);
    if (m_test->numClasses > 0)
    {
        Row(round, -1, "mean_model_accuracy", r.accuracy);
    }
    Row(round, -1, "mean_model_loss", r.loss);
}

void
D2dRoundRecorder::StopOnNonFinite(const std::string& what)
{
    if (m_numericError.empty())
    {
        NS_LOG_WARN(what);
        m_numericError = what;
        Simulator::Stop(); // after this event: GetNumericError() tells why
    }
}

const std::string&
D2dRoundRecorder::GetNumericError() const
{
    return m_numericError;
}

double
D2dRoundRecorder::GetLastAccuracy() const
{
    return m_lastAccuracy;
}

double
D2dRoundRecorder::GetLastLoss() const
{
    return m_lastLoss;
}

void
D2dRoundRecorder::CountBytesSent(const std::vector<Ptr<D2dTransport>>& radios)
{
    m_countingBytes = true;
    for (const auto& radio : radios)
    {
        if (!m_watched.insert(PeekPointer(radio)).second)
        {
            continue; // watched already: count its messages once
        }
        radio->TraceConnectWithoutContext("Send",
                                          MakeCallback(&D2dRoundRecorder::MessageSent, this));
    }
}

void
D2dRoundRecorder::MessageSent(uint64_t, Ptr<const D2dMessage> message, uint32_t)
{
    m_bytesSent += message->GetSizeBytes();
}

uint64_t
D2dRoundRecorder::GetBytesSent() const
{
    return m_bytesSent;
}

void
D2dRoundRecorder::BytesSent(uint32_t round)
{
    if (m_countingBytes)
    {
        Row(round, -1, "bytes_sent", static_cast<double>(m_bytesSent - m_bytesWritten));
        m_bytesWritten = m_bytesSent;
    }
}

void
D2dRoundRecorder::Dispose()
{
    m_test.reset();
    m_watched.clear();
}

} // namespace ns3
