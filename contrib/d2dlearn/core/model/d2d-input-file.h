/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_INPUT_FILE_H
#define D2D_INPUT_FILE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The one check of a path a user gives (a model, a data file, a trace, a matrix),
 * made before it is opened: opening a FIFO blocks until something writes to it, a device
 * such as /dev/zero never ends, and a file larger than the memory cannot be read whole. So
 * every reader asks Check() first, and a bad path is refused in one line naming the flag,
 * what the path is, and what is accepted.
 */
class D2dInputFile
{
  public:
    /**
     * \brief Check that path names a regular file (symbolic links followed) of at most
     * maxBytes bytes that this process may read.
     * \param path the path
     * \param what how the error names it, e.g. "--mobilityTrace=x.ns"
     * \param accepted what the file should hold, for the error ("an ns-2 movement trace"),
     *        or ""
     * \param maxBytes the largest accepted size, bytes; 0: MemoryLimitBytes()
     * \throws std::invalid_argument in one line: "WHAT: a FIFO, not a regular file
     *         (accepted: ACCEPTED, a regular file of at most 1.2 GB)", "WHAT: no such file
     *         or folder", "WHAT: 3.1 GB (accepted: ...)", "WHAT: cannot be read (Permission
     *         denied)"
     */
    static void Check(const std::string& path,
                      const std::string& what,
                      const std::string& accepted = "",
                      uint64_t maxBytes = 0);
    /**
     * \brief Check that path names a folder (symbolic links followed) this process may read.
     * \param path the path
     * \param what how the error names it, e.g. "--dataDir=data"
     * \throws std::invalid_argument as Check(), "WHAT: a regular file, not a folder"
     */
    static void CheckDirectory(const std::string& path, const std::string& what);
    /**
     * \brief How deep a JSON text nests, read in one pass without recursion, so a parser
     * that recurses (boost::property_tree's) or a value's dump() (nlohmann's) is given only
     * texts of bounded depth.
     * \param text a JSON text (it need not be valid: brackets inside strings are skipped,
     *        with their escapes)
     * \return the greatest number of '[' and '{' open at once
     */
    static std::size_t JsonDepth(const std::string& text);
    /**
     * \return the size limit of a file that is read whole, bytes: half the memory available
     *         now (MemAvailable of /proc/meminfo, else the physical memory)
     */
    static uint64_t MemoryLimitBytes();
    /**
     * \param bytes a size
     * \return it for a person, e.g. "512 B", "3.4 kB", "1.2 GB" (decimal units)
     */
    static std::string Size(uint64_t bytes);
};

} // namespace ns3

#endif /* D2D_INPUT_FILE_H */
