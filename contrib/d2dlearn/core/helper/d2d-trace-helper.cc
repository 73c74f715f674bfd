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
#include "ns3/d2d-stop-signals.h"
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
 * Delete the temporary files (TmpName()) that runs which no longer exist left in dir (a run
 * killed by SIGKILL or the OOM killer cannot delete its own): ".NAME.PID.tmp" whose PID is
 * not a live process. Those of a live process (another run writing into the folder) stay.
 * \param dir the output folder
 */
void
RemoveDeadRunsTmp(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        if (name.size() < 7 || name[0] != '.' || name.compare(name.size() - 4, 4, ".tmp") != 0)
        {
            continue;
        }
        const std::size_t dot = name.rfind('.', name.size() - 5); // the dot before PID
        if (dot == std::string::npos || dot == 0)
        {
            continue;
        }
        const std::string digits = name.substr(dot + 1, name.size() - 4 - dot - 1);
        if (digits.empty() || digits.size() > 9 ||
            digits.find_first_not_of("0123456789") != std::string::npos)
        {
            continue;
        }
        const auto pid = static_cast<pid_t>(std::stol(digits));
        if (pid > 0 && pid != getpid() && kill(pid, 0) == -1 && errno == ESRCH)
        {
            std::error_code rm;
            fs::remove(it->path(), rm);
        }
    }
}

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

/**
 * \return the temporary name of dir/file while this process writes it: hidden, and unique to
 * the process (two runs publishing into one folder, e.g. a campaign resumed while an orphan
 * still runs, never share one)
 */
std::string
TmpName(const std::string& dir, const std::string& file)
{
    static const std::string pid = std::to_string(getpid());
    return dir + "/." + file + "." + pid + ".tmp";
}

/**
 * The hidden file listing the files a run published, one name a line: the next run into the
 * folder removes them (those it does not write itself) before its own appear.
 */
const char* kManifest = ".run-files";

/**
 * The files a run wrote before a manifest existed (d2dlearn 0.1.0): removed when an earlier
 * run.json without a manifest is replaced.
 */
const std::vector<std::string> kLegacyFiles = {"messages.csv",
                                               "energy.csv",
                                               "rounds.csv",
                                               "beliefs.csv",
                                               "consensus.csv",
                                               "committee.csv",
                                               "ccp.csv",
                                               "aggregation.csv"};

/** \return whether name is a plain file name of the folder (no '/', not . or ..) */
bool
IsPlainName(const std::string& name)
{
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\0') == std::string::npos;
}

/**
 * \brief Write text to dir/file atomically (a temporary file, then rename).
 * \throws std::runtime_error on an I/O error
 */
void
WriteAtomically(const std::string& dir, const std::string& file, const std::string& text)
{
    const std::string tmp = TmpName(dir, file);
    D2dTraceFile out;
    out.OpenNew(tmp);
    out << text;
    out.Close();
    std::error_code ec;
    if (out.fail())
    {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error("outDir: error writing " + file + " in '" + dir +
                                 "': " + out.ErrorText());
    }
    std::filesystem::rename(tmp, dir + "/" + file, ec);
    if (ec)
    {
        const std::string why = ec.message(); // before remove() sets ec ("Success")
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error("outDir: cannot publish " + file + " in '" + dir + "': " + why);
    }
}

/** The lock file of an output folder (LockFolder()). */
const char* kLockFile = ".run-lock";

/** Write "PID HOST" into the lock file fd (at path), for a second run's refusal. */
void
WriteHolder(int fd, const std::string& path)
{
    char host[200] = {};
    if (::gethostname(host, sizeof(host) - 1) != 0 || !host[0])
    {
        std::strcpy(host, "unknown");
    }
    const std::string holder = std::to_string(getpid()) + " " + host + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size()))
    {
        NS_LOG_WARN("cannot write the holder into '" << path << "'");
    }
}

/**
 * \param fd the lock file, locked by another run
 * \param dir the output folder
 * \return the refusal: "outDir: 'dir' is in use by another run (pid N on host H): ..."
 */
std::string
InUse(int fd, const std::string& dir)
{
    char text[256] = {};
    const ssize_t n = ::pread(fd, text, sizeof(text) - 1, 0);
    unsigned long pid = 0;
    char host[200] = {};
    const bool named = n > 0 && std::sscanf(text, "%lu %199s", &pid, host) == 2;
    return "outDir: '" + dir + "' is in use by another run (" +
           (named ? "pid " + std::to_string(pid) + " on host " + host
                  : std::string("its pid not written yet")) +
           "): wait for it or stop it, or choose another --outDir";
}

/**
 * \param outDir a folder path
 * \return the folders of outDir that do not exist (outDir and its missing parents),
 *         outermost first: those std::filesystem::create_directories() makes
 */
std::vector<std::string>
MissingFolders(const std::string& outDir)
{
    namespace fs = std::filesystem;
    fs::path p = fs::path(outDir).lexically_normal();
    while (!p.empty() && p.filename().empty() && p != p.root_path())
    {
        p = p.parent_path(); // "out/" is "out"
    }
    std::vector<std::string> missing;
    std::error_code ec;
    for (; !p.empty() && p != p.root_path(); p = p.parent_path())
    {
        if (fs::exists(fs::symlink_status(p, ec)) || p.filename() == "..")
        {
            break;
        }
        missing.push_back(p.string());
    }
    std::reverse(missing.begin(), missing.end());
    return missing;
}

/**
 * \brief Take the output folder's lock: one run writes into a folder at a time (the same
 * kind of lock analysis/sweep.py takes for a campaign folder). An flock on dir/.run-lock,
 * which the kernel releases however the process ends (even SIGKILL); the file names the
 * holder (pid and host) for the refusal of a second run.
 * \param dir the output folder
 * \return the lock file's descriptor, to be closed when the run ends (-1: the file system
 *         has no locks, e.g. some network file systems; the run goes on without)
 * \throws std::runtime_error "outDir: 'dir' is in use by another run (pid N on host H)"
 */
int
LockFolder(const std::string& dir)
{
    const std::string path = dir + "/" + kLockFile;
    // A run removes the lock file when it ends (Unlock()), while it holds the lock: a run that
    // opened that file before and locks it after finds it no longer at the path, and retries.
    for (int attempt = 0;; ++attempt)
    {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
        {
            throw std::runtime_error("outDir: cannot create the lock file '" + path +
                                     "': " + std::strerror(errno));
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
        {
            const int error = errno;
            if (error != EWOULDBLOCK)
            {
                ::close(fd);
                NS_LOG_WARN("no lock on '" << path << "' (" << std::strerror(error)
                                           << "): a second run into the folder is not refused");
                return -1;
            }
            const std::string message = InUse(fd, dir);
            ::close(fd);
            throw std::runtime_error(message);
        }
        struct stat held = {};
        struct stat named = {};
        if (::fstat(fd, &held) == 0 && ::lstat(path.c_str(), &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino)
        {
            WriteHolder(fd, path);
            return fd;
        }
        ::close(fd); // removed by the run that held it: take the new one
        if (attempt == 100)
        {
            throw std::runtime_error("outDir: cannot take the lock '" + path +
                                     "': it keeps being replaced");
        }
    }
}

} // namespace

D2dTraceHelper::D2dTraceHelper(const std::string& outDir)
    : D2dTraceHelper(outDir, Mode::RUN)
{
}

D2dTraceHelper::D2dTraceHelper(const std::string& outDir, Mode mode)
    : m_outDir(outDir),
      m_messagesBuffer(mode == Mode::RUN ? 1 << 20 : 0),
      m_energyBuffer(mode == Mode::RUN ? 1 << 20 : 0),
      m_validate(mode == Mode::VALIDATE)
{
    if (m_validate)
    {
        CheckOutDir(outDir);
        return;
    }
    // Before a folder is registered: an exit() after this removes it if the run left it empty.
    D2dStopSignals::Install();
    const auto missing = MissingFolders(outDir);
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    for (const auto& folder : missing)
    {
        m_madeFolders.emplace_back(folder, D2dStopSignals::AddFolder(folder));
    }
    if (ec || !std::filesystem::is_directory(outDir))
    {
        RemoveMadeFolders();
        throw std::runtime_error("outDir: cannot create directory '" + outDir + "'");
    }
    try
    {
        m_lockFd = LockFolder(outDir);
        Open();
    }
    catch (...)
    {
        // No destructor runs: the temporary files created so far go here (those of this
        // process only: one that could not be created may be something else's).
        for (const auto& [stream, file] :
             {std::pair{&m_messages, "messages.csv"}, std::pair{&m_energy, "energy.csv"}})
        {
            if (stream->IsOpen())
            {
                stream->Close();
                std::remove(TmpName(m_outDir, file).c_str());
            }
        }
        for (int slot : m_tmpSlots)
        {
            D2dStopSignals::RemoveFile(slot);
        }
        Unlock();
        RemoveMadeFolders();
        throw;
    }
}

void
D2dTraceHelper::CheckOutDir(const std::string& outDir)
{
    namespace fs = std::filesystem;
    const std::string cannot = "outDir: cannot create directory '" + outDir + "'";
    struct stat st = {};
    if (outDir.empty())
    {
        throw std::runtime_error(cannot);
    }
    if (::stat(outDir.c_str(), &st) != 0)
    {
        // Missing: its nearest existing parent must be a folder this process may write in.
        const auto missing = MissingFolders(outDir);
        fs::path parent = missing.empty() ? fs::path(outDir) : fs::path(missing.front());
        parent = parent.parent_path();
        const std::string at = parent.empty() ? std::string(".") : parent.string();
        if (missing.empty() || ::stat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
            ::access(at.c_str(), W_OK | X_OK) != 0)
        {
            throw std::runtime_error(cannot);
        }
        return;
    }
    if (!S_ISDIR(st.st_mode))
    {
        throw std::runtime_error(cannot);
    }
    const std::string lock = outDir + "/" + kLockFile;
    if (::access(outDir.c_str(), W_OK | X_OK) != 0)
    {
        throw std::runtime_error("outDir: cannot create the lock file '" + lock +
                                 "': " + std::strerror(errno));
    }
    // Another run's lock: tried, without making the file, and let go at once.
    const int fd = ::open(lock.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
    {
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        {
            const std::string message = InUse(fd, outDir);
            ::close(fd);
            throw std::runtime_error(message);
        }
        ::close(fd); // releases the flock, if taken
    }
}

void
D2dTraceHelper::RemoveMadeFolders()
{
    for (auto it = m_madeFolders.rbegin(); it != m_madeFolders.rend(); ++it)
    {
        ::rmdir(it->first.c_str()); // fails, as it should, on a folder with files
    }
    ForgetMadeFolders();
}

void
D2dTraceHelper::ForgetMadeFolders()
{
    for (const auto& [folder, slot] : m_madeFolders)
    {
        D2dStopSignals::RemoveFolder(slot);
    }
    m_madeFolders.clear();
}

void
D2dTraceHelper::Open()
{
    const std::string& outDir = m_outDir;
    RemoveDeadRunsTmp(outDir);
    D2dStopSignals::Install();
    if (m_lockFd >= 0)
    {
        // A stop signal or an uncaught exception leaves no lock file either.
        m_tmpSlots.push_back(D2dStopSignals::AddFile(m_outDir + "/" + kLockFile));
    }
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(outDir, "messages.csv")));
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(outDir, "energy.csv")));
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(outDir, "run.json")));
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(outDir, kManifest)));
    m_messages.OpenNew(TmpName(outDir, "messages.csv"),
                       m_messagesBuffer.data(),
                       static_cast<std::streamsize>(m_messagesBuffer.size()));
    m_energy.OpenNew(TmpName(outDir, "energy.csv"),
                     m_energyBuffer.data(),
                     static_cast<std::streamsize>(m_energyBuffer.size()));
    m_messages << kMessagesHeader;
    m_energy << kEnergyHeader;
}

D2dTraceHelper::~D2dTraceHelper()
{
    if (m_validate)
    {
        return; // it made nothing
    }
    if (!m_finished)
    {
        // No half-written output: a run that did not finish leaves no traces.
        m_messages.Close();
        m_energy.Close();
        std::remove(TmpName(m_outDir, "messages.csv").c_str());
        std::remove(TmpName(m_outDir, "energy.csv").c_str());
        for (auto& [file, stream] : m_extra)
        {
            stream->Close();
            std::remove(TmpName(m_outDir, file).c_str());
        }
        std::remove(TmpName(m_outDir, "run.json").c_str());
        std::remove(TmpName(m_outDir, kManifest).c_str());
    }
    Unlock();
    for (int slot : m_tmpSlots)
    {
        D2dStopSignals::RemoveFile(slot);
    }
    if (!m_finished)
    {
        RemoveMadeFolders(); // a run that did not finish leaves no empty folder either
    }
    ForgetMadeFolders();
}

void
D2dTraceHelper::Unlock()
{
    if (m_lockFd >= 0)
    {
        // The file goes while the lock is held (LockFolder() retries on a removed file): a
        // folder keeps no lock file after its run.
        std::remove((m_outDir + "/" + kLockFile).c_str());
        ::close(m_lockFd); // releases the flock
        m_lockFd = -1;
    }
}

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
                               m_outDir,
                               Simulator::Now().GetSeconds(),
                               stream.ErrorText());
    NS_LOG_WARN(m_writeError);
    Simulator::Stop();
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
    if (!IsPlainName(file) || file == "run.json" || file == kManifest || file == "messages.csv" ||
        file == "energy.csv")
    {
        throw std::runtime_error("outDir: '" + file + "' cannot be a trace file name");
    }
    auto stream = std::make_unique<D2dTraceFile>();
    if (!m_validate) // a validation's streams are never opened: what they get goes nowhere
    {
        m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(m_outDir, file)));
        stream->OpenNew(TmpName(m_outDir, file));
    }
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
    CheckWritten(*m_rounds, "rounds.csv");
    m_summary.AddRound(round, node, metric, value);
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
    m_parameters.emplace_back(name, D2dJson::String(value));
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
    AddParameterJson(name, D2dJson::NumberArray(values));
}

void
D2dTraceHelper::AddResult(const std::string& name, double value)
{
    m_summary.AddResult(name, D2dJson::Number(value));
}

void
D2dTraceHelper::AddResultArray(const std::string& name, const std::vector<double>& values)
{
    m_summary.AddResult(name, D2dJson::NumberArray(values));
}

void
D2dTraceHelper::AddResultJson(const std::string& name, const std::string& json)
{
    m_summary.AddResult(name, json);
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
    m_parameters.emplace_back(name, D2dJson::Number(value));
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
            const std::string type = D2dAttributePath::ValueTypeName(info.checker);
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
    m_summary.AddDelivery(r);
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
    m_summary.AddEnergy(component, energyJ);
}

void
D2dTraceHelper::Finish(uint64_t seed, double wallSeconds)
{
    NS_ABORT_MSG_IF(m_validate,
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
                                             m_outDir,
                                             failed->ErrorText()));
    }
    std::string json = "{\n";
    json += fmt::format("  \"version\": \"{}\",\n", Version());
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
        const auto [rows, crc] = FileRowsAndCrc(TmpName(m_outDir, files[i]));
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
    json += "  \"parameters\": {";
    for (std::size_t i = 0; i < m_parameters.size(); ++i)
    {
        json += fmt::format("{}\n    {}: {}",
                            i == 0 ? "" : ",",
                            D2dJson::String(m_parameters[i].first),
                            m_parameters[i].second);
    }
    json += "\n  },\n  \"summary\": ";
    json += m_summary.ToJson(Simulator::Now().GetSeconds(), wallSeconds, "  ");
    json += "\n}\n";
    {
        D2dTraceFile out;
        out.OpenNew(TmpName(m_outDir, "run.json"));
        out << json;
        out.Close();
        if (out.fail())
        {
            throw std::runtime_error(fmt::format("outDir: error writing run.json in '{}': {}",
                                                 m_outDir,
                                                 out.ErrorText()));
        }
    }
    Publish(files);
    m_finished = true;
    ForgetMadeFolders(); // the run's now, with its files
    // A SIGINT/SIGTERM that came while the files moved: the run is complete; exit as asked.
    D2dStopSignals::Published();
}

void
D2dTraceHelper::Publish(const std::vector<std::string>& files)
{
    // A folder holds a complete run exactly when it holds run.json: the earlier run.json goes
    // first, then the earlier run's other files (its manifest names them; a folder of
    // d2dlearn 0.1.0 has none: its known trace names), then the new traces, run.json last.
    // SIGINT/SIGTERM wait meanwhile (D2dStopSignals::Deferral).
    const D2dStopSignals::Deferral deferral;
    namespace fs = std::filesystem;
    const fs::path dir(m_outDir);
    std::error_code ec;
    const bool hadRun = fs::exists(dir / "run.json", ec);
    std::set<std::string> stale;
    std::ifstream manifest(dir / kManifest);
    if (manifest)
    {
        std::string line;
        for (int n = 0; n < 10000 && std::getline(manifest, line); ++n)
        {
            if (IsPlainName(line) && line != kManifest && line[0] != '.')
            {
                stale.insert(line);
            }
        }
    }
    else if (hadRun)
    {
        stale.insert(kLegacyFiles.begin(), kLegacyFiles.end());
    }
    manifest.close();
    for (const auto& file : files)
    {
        stale.erase(file);
    }
    stale.erase("run.json");
    fs::remove(dir / "run.json", ec);
    if (ec)
    {
        throw std::runtime_error("outDir: cannot replace run.json in '" + m_outDir +
                                 "': " + ec.message());
    }
    std::string list;
    for (const auto& file : files)
    {
        list += file + "\n";
    }
    list += "run.json\n";
    std::string withStale = list;
    for (const auto& file : stale)
    {
        withStale += file + "\n";
    }
    // The manifest names the stale files until they are gone, should the run die meanwhile.
    WriteAtomically(m_outDir, kManifest, withStale);
    for (const auto& file : stale)
    {
        if (fs::is_regular_file(fs::symlink_status(dir / file, ec)))
        {
            fs::remove(dir / file, ec);
        }
    }
    for (const auto& file : files)
    {
        fs::rename(TmpName(m_outDir, file), dir / file, ec);
        if (ec)
        {
            throw std::runtime_error("outDir: cannot publish " + file + " in '" + m_outDir +
                                     "': " + ec.message());
        }
    }
    if (!stale.empty())
    {
        WriteAtomically(m_outDir, kManifest, list);
    }
    fs::rename(TmpName(m_outDir, "run.json"), dir / "run.json", ec);
    if (ec)
    {
        throw std::runtime_error("outDir: cannot publish run.json in '" + m_outDir +
                                 "': " + ec.message());
    }
}

const std::string&
D2dTraceHelper::GetOutDir() const
{
    return m_outDir;
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
