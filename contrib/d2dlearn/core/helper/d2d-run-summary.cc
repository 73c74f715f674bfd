/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-run-summary.h"

#include "d2d-streaming-quantile.h"

#include "ns3/abort.h"
#include "ns3/d2d-json.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRunSummary");

namespace
{
/** The learning metrics a summary reports, in order of preference, and whether higher is
 * better. */
const std::vector<std::pair<std::string, bool>> kMetrics{{"accuracy", true},
                                                         {"mse", false},
                                                         {"error", false}};

/** The energy.csv components every summary lists. */
const std::vector<std::string> kComponents{"radio_tx",
                                           "radio_rx",
                                           "radio_idle",
                                           "radio_sleep",
                                           "radio_transition",
                                           "compute",
                                           "d2s_tx",
                                           "d2s_rx",
                                           "d2s_idle",
                                           "d2s_sleep",
                                           "d2s_transition"};

} // namespace

const std::vector<std::string>&
D2dRunSummary::EnergyComponents()
{
    return kComponents;
}

namespace
{

/** \return num / den as a JSON number, null if den is 0 */
std::string
Ratio(double num, double den)
{
    return den > 0 ? D2dJson::Number(num / den) : std::string("null");
}
} // namespace

void
D2dRunSummary::AddDelivery(const D2dDeliveryRecord& r)
{
    ++m_rows;
    const bool complete = r.IsComplete();
    m_complete += complete ? 1 : 0;
    m_delivered += r.delivered ? 1 : 0;
    Kind& kind = m_kinds[r.kind];
    ++kind.rows;
    kind.complete += complete ? 1 : 0;
    if (r.delivered)
    {
        const double latency = (r.recvTime - r.sendTime).GetSeconds();
        kind.latencySum += latency;
        kind.p95.Add(latency);
    }
    Message& message = m_messages[r.msgId];
    message.bytes = r.bytes;
    message.fragments = r.fragments;
    message.retransmissions = std::max(message.retransmissions, r.retransmissions);
    if (r.lastRow)
    {
        // Every receiver's row of this message is in: fold it into the totals, so that the
        // memory holds only the messages in flight.
        ++m_messagesDone;
        m_fragmentsDone += message.fragments;
        m_retransmissionsDone += message.retransmissions;
        m_bytesDone += message.bytes;
        m_messages.erase(r.msgId);
    }
}

void
D2dRunSummary::AddEnergy(const std::string& component, double energyJ)
{
    m_energy[component] += energyJ;
    m_energyTotal += energyJ;
}

void
D2dRunSummary::EnableRounds()
{
    m_rounds = true;
}

double
D2dRunSummary::AsWritten(double value)
{
    return std::strtod(fmt::format("{:.9g}", value).c_str(), nullptr);
}

void
D2dRunSummary::Curve::Add(uint32_t round, double value, bool higherIsBetter)
{
    if (!seen || round >= finalRound)
    {
        finalRound = round;
        finalValue = value;
    }
    // NaN is never best; ties keep the earlier round.
    if (!std::isnan(value))
    {
        const bool better = higherIsBetter ? value > bestValue : value < bestValue;
        if (!hasBest || better)
        {
            bestValue = value;
            bestRound = round;
            hasBest = true;
        }
        else if (value == bestValue && round < bestRound)
        {
            bestRound = round;
        }
    }
    seen = true;
}

void
D2dRunSummary::AddRound(uint32_t round, int64_t node, const std::string& metric, double value)
{
    m_rounds = true;
    m_maxRound = m_anyRound ? std::max(m_maxRound, round) : round;
    m_anyRound = true;
    auto known = std::find_if(kMetrics.begin(), kMetrics.end(), [&metric](const auto& m) {
        return m.first == metric;
    });
    if (known == kMetrics.end() || node < -1)
    {
        return;
    }
    value = AsWritten(value);
    Metric& m = m_metrics[metric];
    if (node == -1)
    {
        m.global.Add(round, value, known->second);
        return;
    }
    auto& [sum, count] = m.devices[round];
    sum += value;
    ++count;
}

double
D2dRunSummary::Percentile(std::vector<double> values, double q)
{
    return D2dStreamingQuantile::Type7(std::move(values), q);
}

void
D2dRunSummary::AddResult(const std::string& name, const std::string& json)
{
    for (auto& [key, value] : m_results)
    {
        if (key == name)
        {
            value = json;
            return;
        }
    }
    m_results.emplace_back(name, json);
}

std::string
D2dRunSummary::ToJson(double simulatedSeconds, double wallSeconds, const std::string& indent) const
{
    std::vector<std::pair<std::string, std::string>> keys;
    // The metric: the first with node -1 rows, else the first with device rows (then the
    // per-round mean over the devices' rows).
    Curve curve;
    std::string metricName;
    std::string from;
    for (const auto& [name, higherIsBetter] : kMetrics)
    {
        auto it = m_metrics.find(name);
        if (it != m_metrics.end() && it->second.global.seen)
        {
            curve = it->second.global;
            metricName = name;
            from = "node -1";
            break;
        }
    }
    for (const auto& [name, higherIsBetter] : kMetrics)
    {
        auto it = m_metrics.find(name);
        if (!metricName.empty() || it == m_metrics.end() || it->second.devices.empty())
        {
            continue;
        }
        for (const auto& [round, sumCount] : it->second.devices)
        {
            curve.Add(round, sumCount.first / sumCount.second, higherIsBetter);
        }
        metricName = name;
        from = "device mean";
    }
    if (!metricName.empty())
    {
        keys.emplace_back("metric", D2dJson::String(metricName));
        keys.emplace_back("metric_from", D2dJson::String(from));
        keys.emplace_back("final_" + metricName, D2dJson::Number(curve.finalValue));
        keys.emplace_back("best_" + metricName,
                          curve.hasBest ? D2dJson::Number(curve.bestValue) : "null");
        keys.emplace_back("best_" + metricName + "_round",
                          curve.hasBest ? std::to_string(curve.bestRound) : "null");
    }
    if (m_rounds)
    {
        const uint32_t rounds = metricName.empty() ? m_maxRound : curve.finalRound;
        keys.emplace_back("rounds_completed", std::to_string(rounds));
    }

    std::string energy = "{";
    std::vector<std::string> components = kComponents;
    for (const auto& [component, joules] : m_energy)
    {
        if (std::find(components.begin(), components.end(), component) == components.end())
        {
            components.push_back(component);
        }
    }
    for (const auto& component : components)
    {
        auto it = m_energy.find(component);
        energy += fmt::format("{}: {}, ",
                              D2dJson::String(component),
                              D2dJson::Number(it == m_energy.end() ? 0.0 : it->second));
    }
    energy += fmt::format("\"total\": {}}}", D2dJson::Number(m_energyTotal));
    keys.emplace_back("energy_j", energy);

    uint64_t fragments = m_fragmentsDone;
    uint64_t retransmissions = m_retransmissionsDone;
    uint64_t bytes = m_bytesDone;
    for (const auto& [id, message] : m_messages)
    {
        fragments += message.fragments;
        retransmissions += message.retransmissions;
        bytes += message.bytes;
    }
    keys.emplace_back("message_rows", std::to_string(m_rows));
    keys.emplace_back("messages", std::to_string(m_messagesDone + m_messages.size()));
    keys.emplace_back("complete_delivery_rate", Ratio(m_complete, m_rows));
    keys.emplace_back("delivered_rate", Ratio(m_delivered, m_rows));
    keys.emplace_back("fragments", std::to_string(fragments));
    keys.emplace_back("retransmissions", std::to_string(retransmissions));
    keys.emplace_back("retransmissions_per_fragment", Ratio(retransmissions, fragments));
    keys.emplace_back("bytes_sent", std::to_string(bytes));

    std::string kinds = "{";
    for (const auto& [name, kind] : m_kinds)
    {
        const auto n = kind.p95.Count();
        kinds += fmt::format("{}{}: {{\"rows\": {}, \"complete_rate\": {}, \"latency_n\": {}, "
                             "\"latency_mean_s\": {}, \"latency_p95_s\": {}, "
                             "\"latency_p95_estimator\": \"{}\"}}",
                             kinds.size() > 1 ? ", " : "",
                             D2dJson::String(name),
                             kind.rows,
                             Ratio(kind.complete, kind.rows),
                             n,
                             n ? D2dJson::Number(kind.latencySum / n) : "null",
                             n ? D2dJson::Number(kind.p95.Value()) : "null",
                             kind.p95.IsExact() ? "exact" : "p2");
    }
    keys.emplace_back("kinds", kinds + "}");
    if (!m_results.empty())
    {
        std::string results = "{";
        for (const auto& [name, value] : m_results)
        {
            results += fmt::format("{}{}: {}",
                                   results.size() > 1 ? ", " : "",
                                   D2dJson::String(name),
                                   value);
        }
        keys.emplace_back("results", results + "}");
    }
    keys.emplace_back("simulated_time_s", fmt::format("{:.9f}", simulatedSeconds));
    keys.emplace_back("wall_time_s", fmt::format("{:.3f}", wallSeconds));

    std::string json = "{";
    for (std::size_t i = 0; i < keys.size(); ++i)
    {
        json += fmt::format("{}\n{}  {}: {}",
                            i ? "," : "",
                            indent,
                            D2dJson::String(keys[i].first),
                            keys[i].second);
    }
    return json + "\n" + indent + "}";
}

} // namespace ns3
