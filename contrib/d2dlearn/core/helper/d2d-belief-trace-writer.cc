/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-belief-trace-writer.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>
#include <fmt/format.h>
#include <string>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dBeliefTraceWriter");

D2dBeliefTraceWriter::D2dBeliefTraceWriter(D2dTraceHelper& traces)
    : m_traces(traces)
{
}

D2dBeliefTraceWriter::~D2dBeliefTraceWriter()
{
    if (m_protocol)
    {
        m_protocol->TraceDisconnectWithoutContext(
            "StepDone",
            MakeCallback(&D2dBeliefTraceWriter::WriteStep, this));
        m_protocol->TraceDisconnectWithoutContext(
            "Consensus",
            MakeCallback(&D2dBeliefTraceWriter::WriteConsensus, this));
        m_protocol->TraceDisconnectWithoutContext(
            "LocalUpdateMissed",
            MakeCallback(&D2dBeliefTraceWriter::WriteMissed, this));
    }
}

void
D2dBeliefTraceWriter::Connect(Ptr<D2dBeliefConsensus> protocol,
                              Ptr<D2dBeliefLearner> learner,
                              bool meanRows)
{
    NS_ABORT_MSG_IF(!protocol || !learner, "D2dBeliefTraceWriter::Connect: no protocol or learner");
    NS_ABORT_MSG_IF(m_protocol, "D2dBeliefTraceWriter::Connect: a protocol is connected already");
    m_beliefs = &m_traces.OpenTrace("beliefs.csv", "step,node," + learner->GetBeliefsHeader());
    m_consensus = &m_traces.OpenTrace("consensus.csv", "step,node,fresh,reused,renormalized_out");
    m_missed = &m_traces.OpenTrace("missed.csv", "step,node");
    m_traces.EnableRounds();
    m_protocol = protocol;
    m_learner = learner;
    m_meanRows = meanRows;
    m_protocol->TraceConnectWithoutContext("StepDone",
                                           MakeCallback(&D2dBeliefTraceWriter::WriteStep, this));
    m_protocol->TraceConnectWithoutContext(
        "Consensus",
        MakeCallback(&D2dBeliefTraceWriter::WriteConsensus, this));
    m_protocol->TraceConnectWithoutContext("LocalUpdateMissed",
                                           MakeCallback(&D2dBeliefTraceWriter::WriteMissed, this));
}

void
D2dBeliefTraceWriter::WriteMissed(uint32_t k, uint32_t node)
{
    *m_missed << k << ',' << node << '\n';
}

void
D2dBeliefTraceWriter::WriteStep(uint32_t k)
{
    D2dEnumValue<D2dBeliefConsensus::Cooperation> cooperation;
    m_protocol->GetAttribute("Cooperation", cooperation);
    const bool central = cooperation.Get() == D2dBeliefConsensus::CENTRAL;
    const int64_t first = central ? -1 : 0;
    const int64_t last = central ? -1 : int64_t(m_learner->GetNDevices()) - 1;
    std::vector<std::pair<std::string, double>> mean; // meanRows: node -1
    uint32_t live = 0;
    for (int64_t i = first; i <= last; ++i)
    {
        if (i >= 0 && !m_protocol->IsLive(uint32_t(i)))
        {
            continue; // a depleted device no longer learns
        }
        const std::string row = m_learner->GetBeliefsRow(i);
        *m_beliefs << k << ',' << i << ',' << row << '\n';
        // NaN only: a log-belief of -inf is a belief of 0, which is legitimate.
        if (m_numericError.empty() && row.find("nan") != std::string::npos)
        {
            StopOnNonFinite(
                fmt::format("{}, step {}: the belief holds NaN (it "
                            "diverged; accepted: finite beliefs, e.g. with a lower "
                            "--learningRate)",
                            i < 0 ? std::string("central learner") : "device " + std::to_string(i),
                            k));
        }
        const auto metrics = m_learner->GetMetrics(i);
        for (std::size_t m = 0; m < metrics.size(); ++m)
        {
            if (!std::isfinite(metrics[m].second))
            {
                StopOnNonFinite(fmt::format("{}, step {}: {} is {} (the belief diverged; "
                                            "accepted: finite values, e.g. with a lower "
                                            "--learningRate)",
                                            i < 0 ? std::string("central learner")
                                                  : "device " + std::to_string(i),
                                            k,
                                            metrics[m].first,
                                            metrics[m].second));
            }
            m_traces.WriteRound(k, Simulator::Now(), i, metrics[m].first, metrics[m].second);
            if (mean.size() <= m)
            {
                mean.emplace_back(metrics[m].first, 0.0);
            }
            mean[m].second += metrics[m].second;
        }
        ++live;
    }
    if (m_meanRows && !central && live > 0)
    {
        for (const auto& [metric, sum] : mean)
        {
            m_traces.WriteRound(k, Simulator::Now(), -1, metric, sum / live);
        }
    }
}

void
D2dBeliefTraceWriter::StopOnNonFinite(const std::string& what)
{
    if (m_numericError.empty())
    {
        m_numericError = what;
        Simulator::Stop(); // after this event: GetNumericError() tells why
    }
}

const std::string&
D2dBeliefTraceWriter::GetNumericError() const
{
    return m_numericError;
}

void
D2dBeliefTraceWriter::WriteConsensus(uint32_t k,
                                     uint32_t node,
                                     uint32_t fresh,
                                     uint32_t reused,
                                     uint32_t renormalizedOut)
{
    *m_consensus << k << ',' << node << ',' << fresh << ',' << reused << ',' << renormalizedOut
                 << '\n';
}

} // namespace ns3
