/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trace-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTraceHelper");

namespace
{
const char* kMessagesHeader =
    "msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,"
    "fragments_lost,retransmissions,delivered,complete,mode,p_drop,reason\n";
const char* kEnergyHeader = "sim_time_s,node,component,energy_j,remaining_j\n";

std::string
TmpName(const std::string& dir, const std::string& file)
{
    return dir + "/." + file + ".tmp";
}

/** \return value as a JSON string */
std::string
JsonString(const std::string& value)
{
    std::string out = "\"";
    for (char c : value)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                out += fmt::format("\\u{:04x}", static_cast<int>(c));
            }
            else
            {
                out += c;
            }
        }
    }
    return out + "\"";
}
} // namespace

D2dTraceHelper::D2dTraceHelper(const std::string& outDir)
    : m_outDir(outDir),
      m_messagesBuffer(1 << 20),
      m_energyBuffer(1 << 20)
{
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec || !std::filesystem::is_directory(outDir))
    {
        throw std::runtime_error("outDir: cannot create directory '" + outDir + "'");
    }
    m_messages.rdbuf()->pubsetbuf(m_messagesBuffer.data(), m_messagesBuffer.size());
    m_energy.rdbuf()->pubsetbuf(m_energyBuffer.data(), m_energyBuffer.size());
    m_messages.open(TmpName(outDir, "messages.csv"), std::ios::trunc);
    m_energy.open(TmpName(outDir, "energy.csv"), std::ios::trunc);
    if (!m_messages || !m_energy)
    {
        throw std::runtime_error("outDir: cannot write in '" + outDir + "'");
    }
    m_messages << kMessagesHeader;
    m_energy << kEnergyHeader;
}

D2dTraceHelper::~D2dTraceHelper()
{
    if (!m_finished)
    {
        // No half-written output: a run that did not finish leaves no traces.
        m_messages.close();
        m_energy.close();
        std::remove(TmpName(m_outDir, "messages.csv").c_str());
        std::remove(TmpName(m_outDir, "energy.csv").c_str());
        for (auto& [file, stream] : m_extra)
        {
            stream->close();
            std::remove(TmpName(m_outDir, file).c_str());
        }
    }
}

void
D2dTraceHelper::AddParameterJson(const std::string& name, const std::string& json)
{
    m_parameters.emplace_back(name, json);
}

std::ostream&
D2dTraceHelper::OpenTrace(const std::string& file, const std::string& header)
{
    for (const auto& [name, stream] : m_extra)
    {
        if (name == file)
        {
            throw std::runtime_error("outDir: trace file '" + file + "' is open already");
        }
    }
    auto stream = std::make_unique<std::ofstream>(TmpName(m_outDir, file), std::ios::trunc);
    if (!*stream)
    {
        throw std::runtime_error("outDir: cannot write in '" + m_outDir + "'");
    }
    *stream << header << '\n';
    m_extra.emplace_back(file, std::move(stream));
    return *m_extra.back().second;
}

void
D2dTraceHelper::EnableRounds()
{
    if (!m_rounds)
    {
        m_rounds = &OpenTrace("rounds.csv", "round,sim_time_s,node,metric,value");
        m_summary.EnableRounds();
    }
}

void
D2dTraceHelper::ConnectRounds(Ptr<Object> protocol)
{
    NS_ABORT_MSG_IF(!protocol, "D2dTraceHelper::ConnectRounds: no object");
    EnableRounds();
    const bool connected =
        protocol->TraceConnectWithoutContext("RoundRecord",
                                             MakeCallback(&D2dTraceHelper::WriteRoundRecord, this));
    NS_ABORT_MSG_IF(!connected,
                    "D2dTraceHelper::ConnectRounds: " << protocol->GetInstanceTypeId().GetName()
                                                      << " has no RoundRecord trace source");
}

void
D2dTraceHelper::WriteRoundRecord(uint32_t round,
                                 int64_t node,
                                 const std::string& metric,
                                 double value)
{
    WriteRound(round, Simulator::Now(), node, metric, value);
}

void
D2dTraceHelper::WriteRound(uint32_t round,
                           Time time,
                           int64_t node,
                           const std::string& metric,
                           double value)
{
    NS_ABORT_MSG_IF(!m_rounds, "D2dTraceHelper::WriteRound before EnableRounds");
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{:.9f},{},{},{:.9g}\n",
                   round,
                   time.GetSeconds(),
                   node,
                   metric,
                   value);
    m_rounds->write(row.data(), static_cast<std::streamsize>(row.size()));
    m_summary.AddRound(round, node, metric, value);
}

void
D2dTraceHelper::ConnectTransport(Ptr<D2dTransport> transport)
{
    if (!m_connected.insert(PeekPointer(transport)).second)
    {
        return; // connected already
    }
    m_transports.push_back(transport);
    transport->TraceConnectWithoutContext("Delivery",
                                          MakeCallback(&D2dTraceHelper::WriteDelivery, this));
}

void
D2dTraceHelper::ConnectChannel(Ptr<D2dChannel> channel)
{
    const uint32_t n = channel->GetNRadios();
    for (uint32_t i = 0, found = 0; found < n; ++i)
    {
        if (auto radio = channel->GetRadio(i))
        {
            ConnectTransport(radio);
            ++found;
        }
    }
}

void
D2dTraceHelper::ConnectEnergyModel(Ptr<D2dEnergyModel> model)
{
    model->TraceConnectWithoutContext("EnergyEvent",
                                      MakeCallback(&D2dTraceHelper::WriteEnergy, this));
    m_energyModels.push_back(model);
}

void
D2dTraceHelper::ConnectEnergy(NodeContainer nodes)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto sources = nodes.Get(i)->GetObject<EnergySourceContainer>();
        if (!sources)
        {
            continue;
        }
        for (uint32_t s = 0; s < sources->GetN(); ++s)
        {
            // FindDeviceEnergyModels matches exact types only: ask for each concrete one.
            for (const char* type : {"ns3::D2dRadioEnergyModel", "ns3::D2dComputeModel"})
            {
                auto models = sources->Get(s)->FindDeviceEnergyModels(type);
                for (uint32_t m = 0; m < models.GetN(); ++m)
                {
                    ConnectEnergyModel(DynamicCast<D2dEnergyModel>(models.Get(m)));
                }
            }
        }
    }
}

void
D2dTraceHelper::AddCommandLine(int argc, char** argv)
{
    std::string commandLine;
    for (int i = 1; i < argc; ++i)
    {
        commandLine += (i > 1 ? " " : "") + std::string(argv[i]);
    }
    AddParameter("commandLine", commandLine);
}

void
D2dTraceHelper::AddParameter(const std::string& name, const std::string& value)
{
    m_parameters.emplace_back(name, JsonString(value));
}

void
D2dTraceHelper::AddParameter(const std::string& name, const char* value)
{
    AddParameter(name, std::string(value));
}

void
D2dTraceHelper::AddParameter(const std::string& name, bool value)
{
    m_parameters.emplace_back(name, value ? "true" : "false");
}

void
D2dTraceHelper::AddParameterArray(const std::string& name, const std::vector<double>& values)
{
    std::string json = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        json += (i ? ", " : "") +
                (std::isfinite(values[i]) ? fmt::format("{}", values[i]) : std::string("null"));
    }
    AddParameterJson(name, json + "]");
}

void
D2dTraceHelper::AddParameterArray(const std::string& name, const std::vector<uint32_t>& values)
{
    std::string json = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        json += fmt::format("{}{}", i ? ", " : "", values[i]);
    }
    AddParameterJson(name, json + "]");
}

void
D2dTraceHelper::AddParameter(const std::string& name, double value)
{
    // fmt's "{}" is the shortest text that reads back as the same double; JSON has no
    // infinity or NaN.
    m_parameters.emplace_back(name, std::isfinite(value) ? fmt::format("{}", value) : "null");
}

void
D2dTraceHelper::AddAttributes(Ptr<Object> object)
{
    const TypeId tid = object->GetInstanceTypeId();
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t a = 0; a < t.GetAttributeN(); ++a)
        {
            const auto info = t.GetAttribute(a);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            auto value = info.checker->Create();
            if (!info.accessor->Get(PeekPointer(object), *value))
            {
                continue;
            }
            const std::string name = tid.GetName() + "::" + info.name;
            // "ns3::DoubleValue", but "BooleanValue" (ns-3 3.37 names it without ns3::).
            std::string type = info.checker->GetValueTypeName();
            type = type.rfind("ns3::", 0) == 0 ? type : "ns3::" + type;
            if (type == "ns3::DoubleValue")
            {
                AddParameter(name, DynamicCast<DoubleValue>(value)->Get());
                continue;
            }
            if (type == "ns3::UintegerValue")
            {
                AddParameter(name, DynamicCast<UintegerValue>(value)->Get());
                continue;
            }
            if (type == "ns3::IntegerValue")
            {
                AddParameter(name, DynamicCast<IntegerValue>(value)->Get());
                continue;
            }
            if (type == "ns3::BooleanValue")
            {
                AddParameter(name, DynamicCast<BooleanValue>(value)->Get());
                continue;
            }
            const std::string text = value->SerializeToString(info.checker);
            if (text.empty() || text.find("0x") == 0)
            {
                continue; // pointers carry no value worth recording
            }
            AddParameter(name, text);
        }
        if (t == t.GetParent() || t.GetParent() == Object::GetTypeId() || t.GetParent() == TypeId())
        {
            break;
        }
    }
}

void
D2dTraceHelper::WriteDelivery(const D2dDeliveryRecord& r)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{},{},{},{},{},{:.9f},",
                   r.msgId,
                   r.kind,
                   r.src,
                   r.dst,
                   r.bytes,
                   r.sendTime.GetSeconds());
    if (r.delivered)
    {
        fmt::format_to(std::back_inserter(row), "{:.9f}", r.recvTime.GetSeconds());
    }
    fmt::format_to(std::back_inserter(row),
                   ",{},{},{},{},{},{},{},{}\n",
                   r.fragments,
                   r.fragmentsLost,
                   r.retransmissions,
                   r.delivered ? 1 : 0,
                   r.IsComplete() ? 1 : 0,
                   ToString(r.mode),
                   r.dropProbability,
                   r.reason);
    m_messages.write(row.data(), static_cast<std::streamsize>(row.size()));
    ++m_nMessageRows;
    m_summary.AddDelivery(r);
}

void
D2dTraceHelper::WriteEnergy(Time time,
                            uint32_t node,
                            const std::string& component,
                            double energyJ,
                            double remainingJ)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{:.9f},{},{},{},{}\n",
                   time.GetSeconds(),
                   node,
                   component,
                   energyJ,
                   remainingJ);
    m_energy.write(row.data(), static_cast<std::streamsize>(row.size()));
    ++m_nEnergyRows;
    m_summary.AddEnergy(component, energyJ);
}

void
D2dTraceHelper::Finish(uint64_t seed, double wallSeconds)
{
    // Messages still in flight get their rows before the files close.
    for (auto& transport : m_transports)
    {
        transport->ReportUnfinished();
    }
    for (auto& model : m_energyModels)
    {
        model->Flush();
    }
    m_messages.close();
    m_energy.close();
    bool failed = m_messages.fail() || m_energy.fail();
    for (auto& [file, stream] : m_extra)
    {
        stream->close();
        failed = failed || stream->fail();
    }
    if (failed)
    {
        throw std::runtime_error("outDir: error writing traces in '" + m_outDir + "'");
    }
    std::string json = "{\n";
    json += fmt::format("  \"version\": \"{}\",\n", Version());
    json += fmt::format("  \"seed\": {},\n", seed);
    json += fmt::format("  \"simulated_time_s\": {:.9f},\n", Simulator::Now().GetSeconds());
    json += fmt::format("  \"wall_time_s\": {:.3f},\n", wallSeconds);
    json += fmt::format("  \"message_rows\": {},\n", m_nMessageRows);
    json += fmt::format("  \"energy_rows\": {},\n", m_nEnergyRows);
    json += "  \"parameters\": {";
    for (std::size_t i = 0; i < m_parameters.size(); ++i)
    {
        json += fmt::format("{}\n    {}: {}",
                            i == 0 ? "" : ",",
                            JsonString(m_parameters[i].first),
                            m_parameters[i].second);
    }
    json += "\n  },\n  \"summary\": ";
    json += m_summary.ToJson(Simulator::Now().GetSeconds(), wallSeconds, "  ");
    json += "\n}\n";
    {
        std::ofstream out(TmpName(m_outDir, "run.json"), std::ios::trunc);
        out << json;
        out.close();
        if (out.fail())
        {
            throw std::runtime_error("outDir: error writing run.json in '" + m_outDir + "'");
        }
    }
    // Traces first, run.json last: a folder with run.json is a complete run.
    std::vector<std::string> files{"messages.csv", "energy.csv"};
    for (const auto& [file, stream] : m_extra)
    {
        files.push_back(file);
    }
    files.emplace_back("run.json");
    for (const auto& file : files)
    {
        std::filesystem::rename(TmpName(m_outDir, file), m_outDir + "/" + file);
    }
    m_finished = true;
}

const std::string&
D2dTraceHelper::GetOutDir() const
{
    return m_outDir;
}

const D2dRunSummary&
D2dTraceHelper::GetSummary() const
{
    return m_summary;
}

uint64_t
D2dTraceHelper::GetNMessageRows() const
{
    return m_nMessageRows;
}

uint64_t
D2dTraceHelper::GetNEnergyRows() const
{
    return m_nEnergyRows;
}

std::string
D2dTraceHelper::Version()
{
    return "0.1.0";
}

} // namespace ns3
