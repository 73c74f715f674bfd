/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trace-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-attribute-path.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-json.h"
#include "ns3/d2d-trace-file.h"
#include "ns3/d2d-wifi-energy-meter.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/mobility-model.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <set>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTraceHelper");

namespace
{
const char* kMessagesHeader =
    "msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,"
    "fragments_lost,retransmissions,delivered,complete,mode,p_drop,reason\n";
/** messages.csv's further columns of the channel backend (SetSpectrumColumns(): every channel
 *  run's): when a message went on the air, its sub-channel and interference, and its wait
 *  for a sleeping radio */
const char* kChannelColumns =
    ",t_start_s,airtime_s,sub_channel,interference_w,sleep_wait_s,rss_w,sinr";
/** energy.csv's header, the same at every level: a row is one period of constant draw
 *  (FULL: start_s, duration_s, power_w the period's, periods 1) or the periods of one device
 *  and component that ended within one energy period (STANDARD: start_s the first one's start,
 *  duration_s their summed duration, power_w = energy_j / duration_s, periods their count) */
const char* kEnergyHeader =
    "sim_time_s,node,component,energy_j,remaining_j,start_s,duration_s,power_w,periods\n";

/**
 * The data rows (lines after the header) and the CRC-32 (zlib's, as Python's zlib.crc32) of a
 * closed trace file, for run.json's trace_files: a reader can tell a file that lost rows, was
 * cut or changed since the run wrote it.
 * \param path the file
 * \return (rows, CRC-32)
 */
std::pair<uint64_t, uint32_t>
FileRowsAndCrc(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error("outDir: cannot read back '" + path + "'");
    }
    std::vector<char> buffer(1 << 16);
    uint64_t lines = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    while (in)
    {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto n = static_cast<std::size_t>(in.gcount());
        lines += static_cast<uint64_t>(std::count(buffer.begin(), buffer.begin() + n, '\n'));
        crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(n));
    }
    if (in.bad())
    {
        throw std::runtime_error("outDir: cannot read back '" + path + "'");
    }
    return {lines > 0 ? lines - 1 : 0, static_cast<uint32_t>(crc)};
}

} // namespace

D2dTraceHelper::D2dTraceHelper(const std::string& outDir)
    : D2dTraceHelper(outDir, Mode::RUN)
{
}

D2dTraceHelper::D2dTraceHelper(const std::string& outDir, Mode mode)
    : m_folder(outDir, mode == Mode::VALIDATE),
      m_messagesBuffer(mode == Mode::RUN ? 1 << 20 : 0),
      m_energyBuffer(mode == Mode::RUN ? 1 << 20 : 0)
{
    // A failure now destroys the folder, which removes what it made (no destructor runs).
    Open();
}

void
D2dTraceHelper::CheckOutDir(const std::string& outDir)
{
    D2dTraceFolder::CheckOutDir(outDir);
}

void
D2dTraceHelper::Open()
{
    if (m_folder.IsValidating())
    {
        return; // no file: what the traces get goes nowhere
    }
    m_folder.OpenTemporary(m_messages,
                           "messages.csv",
                           m_messagesBuffer.data(),
                           static_cast<std::streamsize>(m_messagesBuffer.size()));
    m_folder.OpenTemporary(m_energy,
                           "energy.csv",
                           m_energyBuffer.data(),
                           static_cast<std::streamsize>(m_energyBuffer.size()));
    m_messages << kMessagesHeader;
    m_energy << kEnergyHeader;
}

D2dTraceHelper::~D2dTraceHelper() = default;

void
D2dTraceHelper::CheckWritten(const D2dTraceFile& stream, const std::string& file)
{
    if (stream.good() || !m_writeError.empty())
    {
        return;
    }
    // Found when it happens (a full disk, a file size limit): the run stops at once, and
    // Finish() reports it and publishes nothing.
    m_writeError = fmt::format("outDir: error writing {} in '{}' at simulated {:.6f} s: {}",
                               file,
                               m_folder.GetPath(),
                               Simulator::Now().GetSeconds(),
                               stream.ErrorText());
    NS_LOG_WARN(m_writeError);
    Simulator::Stop();
}

void
D2dTraceHelper::AddParameterJson(const std::string& name, const std::string& json)
{
    m_record.AddParameterJson(name, json);
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
    if (!D2dTraceFolder::IsTraceName(file) || file == "messages.csv" || file == "energy.csv")
    {
        throw std::runtime_error("outDir: '" + file + "' cannot be a trace file name");
    }
    auto stream = std::make_unique<D2dTraceFile>();
    m_folder.OpenTemporary(*stream, file);
    *stream << header << '\n';
    m_extra.emplace_back(file, std::move(stream));
    return *m_extra.back().second;
}

void
D2dTraceHelper::EnableNetAnim(NodeContainer nodes)
{
    if (m_netanim)
    {
        return;
    }
    // AnimationInterface::StartAnimation's first elements: anim, then each node.
    std::string header = "<anim ver=\"netanim-3.108\" filetype=\"animation\" >";
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto mobility = nodes.Get(i)->GetObject<MobilityModel>();
        const Vector p = mobility ? mobility->GetPosition() : Vector();
        header += fmt::format("\n<node id=\"{}\" sysId=\"0\" locX=\"{:.6f}\" locY=\"{:.6f}\" />",
                              i,
                              p.x,
                              p.y);
    }
    OpenTrace("netanim.xml", header);
    m_netanim = m_extra.back().second.get();
}

void
D2dTraceHelper::AddFinalTrace(const std::string& file,
                              const std::string& header,
                              std::function<void(std::ostream&)> write)
{
    std::ostream& out = OpenTrace(file, header);
    m_finalTraces.emplace_back(&out, std::move(write));
}

std::ostream*
D2dTraceHelper::NetAnimPositions()
{
    return m_netanim;
}

void
D2dTraceHelper::EnableRounds()
{
    if (!m_rounds)
    {
        OpenTrace("rounds.csv", "round,sim_time_s,node,metric,value");
        m_rounds = m_extra.back().second.get();
        m_record.Summary().EnableRounds();
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
    CheckWritten(*m_rounds, "rounds.csv");
    m_record.Summary().AddRound(round, node, metric, value);
    const std::pair<int64_t, Time> key{round, time};
    if ((!m_energyModels.empty() || !m_wifiMeters.empty()) && key != m_lastEnergyRound &&
        time == Simulator::Now())
    {
        // The energy so far at this (round, time), once: exact at every trace level (a row
        // stamped with another time than now, which no protocol writes, gets none).
        m_lastEnergyRound = key;
        const std::map<std::string, double> byComponent = GetEnergySoFar();
        std::vector<std::string> components = D2dRunSummary::EnergyComponents();
        double totalJ = 0;
        for (const auto& [component, joules] : byComponent)
        {
            totalJ += joules;
            if (std::find(components.begin(), components.end(), component) == components.end())
            {
                components.push_back(component);
            }
        }
        WriteRound(round, time, -1, "energy_j", totalJ);
        for (const auto& component : components)
        {
            const auto it = byComponent.find(component);
            WriteRound(round,
                       time,
                       -1,
                       "energy_j." + component,
                       it == byComponent.end() ? 0.0 : it->second);
        }
    }
}

std::map<std::string, double>
D2dTraceHelper::GetEnergySoFar() const
{
    std::map<std::string, double> byComponent = m_reportedEnergyJ;
    for (const auto& model : m_energyModels)
    {
        model->AddOpenEnergy(byComponent);
    }
    for (const auto& meter : m_wifiMeters)
    {
        meter->AddOpenEnergy(byComponent);
    }
    return byComponent;
}

void
D2dTraceHelper::ConnectTransport(Ptr<D2dTransport> transport)
{
    if (!m_connected.insert(PeekPointer(transport)).second)
    {
        return; // connected already
    }
    m_transports.push_back(transport);
    if (m_deliverySink.IsNull())
    {
        m_deliverySink = MakeCallback(&D2dTraceHelper::WriteDelivery, this);
    }
    transport->TraceConnectWithoutContext("Delivery", m_deliverySink);
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
    if (m_energySink.IsNull())
    {
        m_energySink = MakeCallback(&D2dTraceHelper::WriteEnergy, this);
    }
    model->TraceConnectWithoutContext("EnergyEvent", m_energySink);
    m_energyModels.push_back(model);
}

void
D2dTraceHelper::ConnectWifiEnergy(Ptr<D2dWifiEnergyMeter> meter)
{
    if (m_energySink.IsNull())
    {
        m_energySink = MakeCallback(&D2dTraceHelper::WriteEnergy, this);
    }
    meter->TraceConnectWithoutContext("EnergyEvent", m_energySink);
    m_wifiMeters.push_back(meter);
}

void
D2dTraceHelper::ConnectEnergy(NodeContainer nodes)
{
    for (const auto& model : D2dHelper::GetEnergyModels(nodes))
    {
        ConnectEnergyModel(model);
    }
}

void
D2dTraceHelper::AddCommandLine(int argc, char** argv)
{
    m_record.AddCommandLine(argc, argv);
}

void
D2dTraceHelper::AddParameter(const std::string& name, const std::string& value)
{
    m_record.AddParameter(name, value);
}

void
D2dTraceHelper::AddParameter(const std::string& name, const char* value)
{
    m_record.AddParameter(name, value);
}

void
D2dTraceHelper::AddParameter(const std::string& name, bool value)
{
    m_record.AddParameter(name, value);
}

void
D2dTraceHelper::AddParameter(const std::string& name, double value)
{
    m_record.AddParameter(name, value);
}

void
D2dTraceHelper::AddParameterArray(const std::string& name, const std::vector<double>& values)
{
    m_record.AddParameterArray(name, values);
}

void
D2dTraceHelper::AddParameterArray(const std::string& name, const std::vector<uint32_t>& values)
{
    m_record.AddParameterArray(name, values);
}

void
D2dTraceHelper::AddResult(const std::string& name, double value)
{
    m_record.Summary().AddResult(name, D2dJson::Number(value));
}

void
D2dTraceHelper::AddResultArray(const std::string& name, const std::vector<double>& values)
{
    m_record.Summary().AddResult(name, D2dJson::NumberArray(values));
}

void
D2dTraceHelper::AddResultJson(const std::string& name, const std::string& json)
{
    m_record.Summary().AddResult(name, json);
}

void
D2dTraceHelper::AddAttributes(Ptr<Object> object)
{
    m_record.AddAttributes(object);
}

void
D2dTraceHelper::WriteDelivery(const D2dDeliveryRecord& r)
{
    if (m_level == STANDARD && m_untracedKinds.count(r.kind))
    {
        ++m_untracedRows[r.kind];
        return;
    }
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
                   ",{},{},{},{},{},{},{},{}",
                   r.fragments,
                   r.fragmentsLost,
                   r.retransmissions,
                   r.delivered ? 1 : 0,
                   r.IsComplete() ? 1 : 0,
                   ToString(r.mode),
                   r.dropProbability,
                   r.reason);
    if (m_spectrumColumns)
    {
        // t_start_s, airtime_s (empty if it never went on the air), its sub-channels joined
        // by '+', interference_w
        row.push_back(',');
        if (r.onAir)
        {
            fmt::format_to(std::back_inserter(row),
                           "{:.9f},{:.9f}",
                           r.startTime.GetSeconds(),
                           r.airtime.GetSeconds());
        }
        else
        {
            row.push_back(',');
        }
        row.push_back(',');
        for (std::size_t i = 0; i < r.subChannels.size(); ++i)
        {
            fmt::format_to(std::back_inserter(row), "{}{}", i > 0 ? "+" : "", r.subChannels[i]);
        }
        // sleep_wait_s: what it waited for a sleeping sender or receiver (DRX), in its queueing
        // time t_start_s - t_send_s
        fmt::format_to(std::back_inserter(row),
                       ",{},{:.9f},",
                       r.interferenceW,
                       r.sleepWait.GetSeconds());
        // rss_w, sinr: the W_ij and W_ij / (sigma^2 + I) of eq. (18) behind p_drop (empty on a
        // link not evaluated: out_of_range)
        if (r.rssW > 0)
        {
            fmt::format_to(std::back_inserter(row), "{},{}", r.rssW, r.sinr);
        }
        else
        {
            row.push_back(',');
        }
    }
    row.push_back('\n');
    m_messages.write(row.data(), static_cast<std::streamsize>(row.size()));
    CheckWritten(m_messages, "messages.csv");
    ++m_nMessageRows;
    m_record.Summary().AddDelivery(r);
    if (m_netanim)
    {
        // The row as a packet (AnimationInterface's WriteXmlP): first and last bit sent
        // over its air time, received from its start to its reception.
        const double fbTx = (r.onAir ? r.startTime : r.sendTime).GetSeconds();
        const double lbTx = r.onAir ? (r.startTime + r.airtime).GetSeconds() : fbTx;
        const double lbRx = std::max(r.delivered ? r.recvTime.GetSeconds() : lbTx, fbTx);
        *m_netanim << fmt::format("<p fId=\"{}\" fbTx=\"{:.9f}\" lbTx=\"{:.9f}\" "
                                  "meta-info=\"{} {}{}\" tId=\"{}\" fbRx=\"{:.9f}\" "
                                  "lbRx=\"{:.9f}\" />\n",
                                  r.src,
                                  fbTx,
                                  lbTx,
                                  r.kind,
                                  r.msgId,
                                  r.delivered ? "" : " lost",
                                  r.dst,
                                  fbTx,
                                  lbRx);
    }
}

void
D2dTraceHelper::SetSpectrumColumns(bool on)
{
    NS_ABORT_MSG_IF(m_nMessageRows > 0 || m_untracedRows.size() > 0,
                    "D2dTraceHelper::SetSpectrumColumns after rows were written");
    if (on && !m_spectrumColumns)
    {
        // Only the header is in the file: the longer one replaces it.
        std::string header = kMessagesHeader;
        header.insert(header.size() - 1, kChannelColumns);
        m_messages.seekp(0);
        m_messages << header;
    }
    NS_ABORT_MSG_IF(!on && m_spectrumColumns,
                    "D2dTraceHelper::SetSpectrumColumns cannot be undone");
    m_spectrumColumns = on;
}

bool
D2dTraceHelper::HasSpectrumColumns() const
{
    return m_spectrumColumns;
}

void
D2dTraceHelper::SetLevel(Level level)
{
    NS_ABORT_MSG_IF(m_nEnergyRows > 0 || m_energyEvents > 0 || m_nMessageRows > 0,
                    "D2dTraceHelper::SetLevel after rows were written");
    NS_ABORT_MSG_IF(m_level == STANDARD && level == FULL,
                    "D2dTraceHelper::SetLevel: STANDARD cannot be undone");
    m_level = level;
}

D2dTraceHelper::Level
D2dTraceHelper::GetLevel() const
{
    return m_level;
}

D2dTraceHelper::Level
D2dTraceHelper::ParseLevel(const std::string& name)
{
    if (name == "standard")
    {
        return STANDARD;
    }
    if (name == "full")
    {
        return FULL;
    }
    throw std::invalid_argument("unknown trace level '" + name + "' (standard | full)");
}

void
D2dTraceHelper::SetEnergyPeriod(Time period)
{
    NS_ABORT_MSG_IF(!period.IsStrictlyPositive(), "D2dTraceHelper: energy period must be > 0");
    m_energyPeriod = period;
    m_energyPeriodEnd = period;
}

void
D2dTraceHelper::SetUntracedKinds(const std::set<std::string>& kinds)
{
    m_untracedKinds = kinds;
}

void
D2dTraceHelper::CloseEnergyPeriods()
{
    for (auto& model : m_energyModels)
    {
        model->Flush();
    }
    for (auto& meter : m_wifiMeters)
    {
        meter->Flush();
    }
    FlushEnergy();
}

void
D2dTraceHelper::FlushEnergy()
{
    if (m_energySums.empty())
    {
        return;
    }
    // Every row of a flush has the same time (the latest period's end), so energy.csv stays
    // in time order; within a device the rows follow the order of their last periods, so
    // its remaining energy never rises.
    std::vector<std::pair<const std::pair<uint32_t, std::string>*, const EnergySum*>> rows;
    Time stamp;
    for (const auto& [key, sum] : m_energySums)
    {
        rows.emplace_back(&key, &sum);
        stamp = std::max(stamp, sum.last);
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second->order < b.second->order;
    });
    for (const auto& [key, sum] : rows)
    {
        WriteEnergyRow(stamp,
                       key->first,
                       key->second,
                       sum->energyJ,
                       sum->remainingJ,
                       sum->first,
                       sum->duration,
                       sum->energyJ / sum->duration.GetSeconds(),
                       sum->periods);
    }
    m_energySums.clear();
}

void
D2dTraceHelper::WriteEnergy(Time time,
                            uint32_t node,
                            const std::string& component,
                            double energyJ,
                            double remainingJ,
                            Time start,
                            double powerW)
{
    m_reportedEnergyJ[component] += energyJ;
    if (m_level == FULL)
    {
        WriteEnergyRow(time, node, component, energyJ, remainingJ, start, time - start, powerW, 1);
        return;
    }
    if (time > m_energyPeriodEnd)
    {
        // The period is over: its rows, then the period this one ends in.
        FlushEnergy();
        const int64_t periods =
            (time - m_energyPeriodEnd).GetTimeStep() / m_energyPeriod.GetTimeStep() + 1;
        m_energyPeriodEnd += m_energyPeriod * periods;
    }
    auto& sum = m_energySums[{node, component}];
    sum.first = sum.periods == 0 ? start : std::min(sum.first, start);
    sum.duration += time - start;
    sum.energyJ += energyJ;
    sum.remainingJ = remainingJ;
    sum.last = std::max(sum.last, time);
    sum.order = ++m_energyEvents;
    ++sum.periods;
}

void
D2dTraceHelper::WriteEnergyRow(Time time,
                               uint32_t node,
                               const std::string& component,
                               double energyJ,
                               double remainingJ,
                               Time start,
                               Time duration,
                               double powerW,
                               uint64_t periods)
{
    fmt::memory_buffer row;
    fmt::format_to(std::back_inserter(row),
                   "{:.9f},{},{},{},{},{:.9f},{:.9f},{},{}\n",
                   time.GetSeconds(),
                   node,
                   component,
                   energyJ,
                   remainingJ,
                   start.GetSeconds(),
                   duration.GetSeconds(),
                   powerW,
                   periods);
    m_energy.write(row.data(), static_cast<std::streamsize>(row.size()));
    CheckWritten(m_energy, "energy.csv");
    for (const auto& [file, stream] : m_extra)
    {
        CheckWritten(*stream, file); // the protocols' own files, written by their writers
    }
    ++m_nEnergyRows;
    m_record.Summary().AddEnergy(component, energyJ);
}

void
D2dTraceHelper::Finish(uint64_t seed, double wallSeconds)
{
    NS_ABORT_MSG_IF(m_folder.IsValidating(),
                    "D2dTraceHelper::Finish: a helper of Mode::VALIDATE writes nothing (the "
                    "scenario stops before simulating)");
    // Messages still in flight get their rows before the files close.
    for (auto& transport : m_transports)
    {
        transport->ReportUnfinished();
    }
    CloseEnergyPeriods();
    if (m_netanim)
    {
        *m_netanim << "</anim>\n";
    }
    for (auto& [out, write] : m_finalTraces)
    {
        write(*out);
    }
    m_messages.Close();
    m_energy.Close();
    // The first file that failed, and why (the errno of its failed write).
    const D2dTraceFile* failed = m_messages.fail() ? &m_messages
                                 : m_energy.fail() ? &m_energy
                                                   : nullptr;
    std::string failedFile = m_messages.fail() ? "messages.csv" : "energy.csv";
    for (auto& [file, stream] : m_extra)
    {
        stream->Close();
        if (stream->fail() && !failed)
        {
            failed = stream.get();
            failedFile = file;
        }
    }
    if (!m_writeError.empty())
    {
        throw std::runtime_error(m_writeError);
    }
    if (failed)
    {
        throw std::runtime_error(fmt::format("outDir: error writing {} in '{}': {}",
                                             failedFile,
                                             m_folder.GetPath(),
                                             failed->ErrorText()));
    }
    std::string json = fmt::format("  \"version\": \"{}\",\n", Version());
    json += fmt::format("  \"seed\": {},\n", seed);
    json += fmt::format("  \"simulated_time_s\": {:.9f},\n", Simulator::Now().GetSeconds());
    json += fmt::format("  \"wall_time_s\": {:.3f},\n", wallSeconds);
    json += fmt::format("  \"message_rows\": {},\n", m_nMessageRows);
    json += fmt::format("  \"energy_rows\": {},\n", m_nEnergyRows);
    json += fmt::format("  \"traces\": \"{}\",\n", m_level == FULL ? "full" : "standard");
    std::vector<std::string> files{"messages.csv", "energy.csv"};
    for (const auto& [file, stream] : m_extra)
    {
        files.push_back(file);
    }
    // Every trace file as written: its data rows and CRC-32 (analysis/audit.py checks them).
    json += "  \"trace_files\": {";
    for (std::size_t i = 0; i < files.size(); ++i)
    {
        const auto [rows, crc] = FileRowsAndCrc(m_folder.TemporaryName(files[i]));
        json += fmt::format("{}\n    {}: {{\"rows\": {}, \"crc32\": \"{:08x}\"}}",
                            i == 0 ? "" : ",",
                            D2dJson::String(files[i]),
                            rows,
                            crc);
    }
    json += "\n  },\n";
    if (!m_untracedKinds.empty() && m_level == STANDARD)
    {
        json += "  \"untraced_message_rows\": {";
        std::size_t k = 0;
        for (const auto& kind : m_untracedKinds)
        {
            auto it = m_untracedRows.find(kind);
            json += fmt::format("{}{}: {}",
                                k++ ? ", " : "",
                                D2dJson::String(kind),
                                it == m_untracedRows.end() ? 0 : it->second);
        }
        json += "},\n";
    }
    m_folder.Publish(files, m_record.ToJson(json, Simulator::Now().GetSeconds(), wallSeconds));
}

const std::string&
D2dTraceHelper::GetOutDir() const
{
    return m_folder.GetPath();
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
