/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-input-file.h"

#include "d2d-matrix-csv.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/**
 * \param mode a stat() st_mode
 * \return what a path of that kind is, as an error says it ("a FIFO")
 */
std::string
Kind(mode_t mode)
{
    if (S_ISDIR(mode))
    {
        return "a folder";
    }
    if (S_ISFIFO(mode))
    {
        return "a FIFO";
    }
    if (S_ISCHR(mode))
    {
        return "a character device";
    }
    if (S_ISBLK(mode))
    {
        return "a block device";
    }
    if (S_ISSOCK(mode))
    {
        return "a socket";
    }
    if (S_ISREG(mode))
    {
        return "a regular file";
    }
    return "not a regular file";
}

/**
 * \param path a path
 * \param what how the error names it
 * \param[out] st its status (links followed)
 * \throws std::invalid_argument if it cannot be stat()ed
 */
void
Stat(const std::string& path, const std::string& what, struct stat& st)
{
    if (path.empty())
    {
        throw std::invalid_argument(what + ": an empty path");
    }
    if (stat(path.c_str(), &st) != 0)
    {
        const int e = errno;
        throw std::invalid_argument(
            what + (e == ENOENT || e == ENOTDIR
                        ? std::string(": no such file or folder")
                        : ": cannot be read (" + std::string(std::strerror(e)) + ")"));
    }
}

} // namespace

void
D2dInputFile::Check(const std::string& path,
                    const std::string& what,
                    const std::string& accepted,
                    uint64_t maxBytes)
{
    struct stat st = {};
    Stat(path, what, st);
    if (maxBytes == 0)
    {
        maxBytes = MemoryLimitBytes();
    }
    const std::string limit = fmt::format("accepted: {}{}a regular file of at most {}",
                                          accepted,
                                          accepted.empty() ? "" : ", ",
                                          Size(maxBytes));
    if (!S_ISREG(st.st_mode))
    {
        throw std::invalid_argument(
            fmt::format("{}: {}, not a regular file ({})", what, Kind(st.st_mode), limit));
    }
    if (static_cast<uint64_t>(st.st_size) > maxBytes)
    {
        throw std::invalid_argument(
            fmt::format("{}: {} ({})", what, Size(static_cast<uint64_t>(st.st_size)), limit));
    }
    if (access(path.c_str(), R_OK) != 0)
    {
        throw std::invalid_argument(
            fmt::format("{}: cannot be read ({})", what, std::strerror(errno)));
    }
}

void
D2dInputFile::CheckDirectory(const std::string& path, const std::string& what)
{
    struct stat st = {};
    Stat(path, what, st);
    if (!S_ISDIR(st.st_mode))
    {
        throw std::invalid_argument(
            fmt::format("{}: {}, not a folder (accepted: a folder)", what, Kind(st.st_mode)));
    }
    if (access(path.c_str(), R_OK | X_OK) != 0)
    {
        throw std::invalid_argument(
            fmt::format("{}: cannot be read ({})", what, std::strerror(errno)));
    }
}

std::size_t
D2dInputFile::JsonDepth(const std::string& text)
{
    std::size_t depth = 0;
    std::size_t deepest = 0;
    bool inString = false;
    for (std::size_t k = 0; k < text.size(); ++k)
    {
        const char c = text[k];
        if (inString)
        {
            k += c == '\\' ? 1 : 0; // an escape: the next character is not the string's end
            inString = c != '"';
        }
        else if (c == '"')
        {
            inString = true;
        }
        else if (c == '[' || c == '{')
        {
            deepest = std::max(deepest, ++depth);
        }
        else if ((c == ']' || c == '}') && depth > 0)
        {
            --depth;
        }
    }
    return deepest;
}

uint64_t
D2dInputFile::MemoryLimitBytes()
{
    return static_cast<uint64_t>(D2dMatrixCsv::AvailableMemoryBytes() / 2);
}

std::string
D2dInputFile::Size(uint64_t bytes)
{
    if (bytes < 1000)
    {
        return fmt::format("{} B", bytes);
    }
    static const char* const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double v = static_cast<double>(bytes) / 1000.0;
    std::size_t u = 0;
    while (v >= 1000.0 && u + 1 < std::size(units))
    {
        v /= 1000.0;
        ++u;
    }
    return fmt::format("{:.3g} {}", v, units[u]);
}

} // namespace ns3
