/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trace-folder.h"

#include "ns3/d2d-stop-signals.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dTraceFolder");

namespace
{
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

D2dTraceFolder::D2dTraceFolder(const std::string& path, bool validate)
    : m_path(path),
      m_validate(validate)
{
    if (m_validate)
    {
        CheckOutDir(path);
        return;
    }
    // Before a folder is registered: an exit() after this removes it if the run left it empty.
    D2dStopSignals::Install();
    const auto missing = MissingFolders(path);
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    for (const auto& folder : missing)
    {
        m_madeFolders.emplace_back(folder, D2dStopSignals::AddFolder(folder));
    }
    if (ec || !std::filesystem::is_directory(path))
    {
        RemoveMadeFolders();
        throw std::runtime_error("outDir: cannot create directory '" + path + "'");
    }
    try
    {
        m_lockFd = LockFolder(path);
    }
    catch (...)
    {
        RemoveMadeFolders(); // no destructor runs
        throw;
    }
    RemoveDeadRunsTmp(path);
    if (m_lockFd >= 0)
    {
        // A stop signal or an uncaught exception leaves no lock file either.
        m_tmpSlots.push_back(D2dStopSignals::AddFile(m_path + "/" + kLockFile));
    }
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(path, "run.json")));
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(path, kManifest)));
}

D2dTraceFolder::~D2dTraceFolder()
{
    if (m_validate)
    {
        return; // it made nothing
    }
    if (!m_published)
    {
        // No half-written output: a run that did not finish leaves no traces (the streams
        // were closed by their owner, destroyed before).
        for (const auto& file : m_open)
        {
            std::remove(TmpName(m_path, file).c_str());
        }
        std::remove(TmpName(m_path, "run.json").c_str());
        std::remove(TmpName(m_path, kManifest).c_str());
    }
    Unlock();
    for (int slot : m_tmpSlots)
    {
        D2dStopSignals::RemoveFile(slot);
    }
    if (!m_published)
    {
        RemoveMadeFolders(); // a run that did not finish leaves no empty folder either
    }
    ForgetMadeFolders();
}

bool
D2dTraceFolder::IsTraceName(const std::string& file)
{
    return IsPlainName(file) && file != "run.json" && file != kManifest;
}

const std::string&
D2dTraceFolder::GetPath() const
{
    return m_path;
}

bool
D2dTraceFolder::IsValidating() const
{
    return m_validate;
}

std::string
D2dTraceFolder::TemporaryName(const std::string& file) const
{
    return TmpName(m_path, file);
}

void
D2dTraceFolder::OpenTemporary(D2dTraceFile& stream,
                              const std::string& file,
                              char* buffer,
                              std::streamsize bufferBytes)
{
    if (m_validate) // a validation's streams are never opened: what they get goes nowhere
    {
        return;
    }
    m_tmpSlots.push_back(D2dStopSignals::AddFile(TmpName(m_path, file)));
    stream.OpenNew(TmpName(m_path, file), buffer, bufferBytes);
    m_open.push_back(file); // this process's file (one it could not create may be another's)
}

void
D2dTraceFolder::Publish(const std::vector<std::string>& files, const std::string& runJson)
{
    {
        D2dTraceFile out;
        out.OpenNew(TmpName(m_path, "run.json"));
        out << runJson;
        out.Close();
        if (out.fail())
        {
            throw std::runtime_error(
                fmt::format("outDir: error writing run.json in '{}': {}", m_path, out.ErrorText()));
        }
    }
    MoveIntoPlace(files);
    m_published = true;
    ForgetMadeFolders(); // the run's now, with its files
    // A SIGINT/SIGTERM that came while the files moved: the run is complete; exit as asked.
    D2dStopSignals::Published();
}

void
D2dTraceFolder::CheckOutDir(const std::string& outDir)
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
D2dTraceFolder::RemoveMadeFolders()
{
    for (auto it = m_madeFolders.rbegin(); it != m_madeFolders.rend(); ++it)
    {
        ::rmdir(it->first.c_str()); // fails, as it should, on a folder with files
    }
    ForgetMadeFolders();
}

void
D2dTraceFolder::ForgetMadeFolders()
{
    for (const auto& [folder, slot] : m_madeFolders)
    {
        D2dStopSignals::RemoveFolder(slot);
    }
    m_madeFolders.clear();
}

void
D2dTraceFolder::Unlock()
{
    if (m_lockFd >= 0)
    {
        // The file goes while the lock is held (LockFolder() retries on a removed file): a
        // folder keeps no lock file after its run.
        std::remove((m_path + "/" + kLockFile).c_str());
        ::close(m_lockFd); // releases the flock
        m_lockFd = -1;
    }
}

void
D2dTraceFolder::MoveIntoPlace(const std::vector<std::string>& files)
{
    // A folder holds a complete run exactly when it holds run.json: the earlier run.json goes
    // first, then the earlier run's other files (its manifest names them; a folder of
    // d2dlearn 0.1.0 has none: its known trace names), then the new traces, run.json last.
    // SIGINT/SIGTERM wait meanwhile (D2dStopSignals::Deferral).
    const D2dStopSignals::Deferral deferral;
    namespace fs = std::filesystem;
    const fs::path dir(m_path);
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
        throw std::runtime_error("outDir: cannot replace run.json in '" + m_path +
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
    WriteAtomically(m_path, kManifest, withStale);
    for (const auto& file : stale)
    {
        if (fs::is_regular_file(fs::symlink_status(dir / file, ec)))
        {
            fs::remove(dir / file, ec);
        }
    }
    for (const auto& file : files)
    {
        fs::rename(TmpName(m_path, file), dir / file, ec);
        if (ec)
        {
            throw std::runtime_error("outDir: cannot publish " + file + " in '" + m_path +
                                     "': " + ec.message());
        }
    }
    if (!stale.empty())
    {
        WriteAtomically(m_path, kManifest, list);
    }
    fs::rename(TmpName(m_path, "run.json"), dir / "run.json", ec);
    if (ec)
    {
        throw std::runtime_error("outDir: cannot publish run.json in '" + m_path +
                                 "': " + ec.message());
    }
}

} // namespace ns3
