/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRACE_FOLDER_H
#define D2D_TRACE_FOLDER_H

#include "ns3/d2d-trace-file.h"

#include <ios>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A run's output folder and its files until they are published: the folder made if
 * missing and locked (outDir/.run-lock, flock, naming the holder's pid and host) so that one
 * run writes into it at a time; every trace file written as a hidden temporary file of this
 * process (.NAME.PID.tmp; those that dead runs left are removed); Publish() moves them into
 * place with run.json last, so a folder holds a complete run exactly when it holds run.json:
 * an earlier run's run.json is removed first, then the earlier run's other files (listed in
 * the hidden manifest .run-files), so that none sits beside the new run.json. A run that
 * does not publish leaves nothing: the destructor removes the temporary files and the
 * folders it made, SIGINT and SIGTERM do the same (D2dStopSignals), and a signal that comes
 * while the files are moved into place waits until they all are. Part of D2dTraceHelper,
 * which writes the files.
 */
class D2dTraceFolder
{
  public:
    /**
     * \brief Take the folder: make it if missing and lock it (nothing of the kind when
     * validating: CheckOutDir() only).
     * \param path the output folder
     * \param validate --validate: check that a run could write there, make nothing
     * \throws std::runtime_error if the folder cannot be made or locked, or another run (named
     * by its pid and host) writes into it
     */
    D2dTraceFolder(const std::string& path, bool validate);
    ~D2dTraceFolder();
    D2dTraceFolder(const D2dTraceFolder&) = delete;
    D2dTraceFolder& operator=(const D2dTraceFolder&) = delete;

    /**
     * \brief Check, without making or changing anything, that a run could write into path:
     * the constructor's refusals with its messages (a path that is not a folder and cannot
     * become one, a folder it may not write into, one another run holds).
     * \param path output folder
     * \throws std::runtime_error as the constructor
     */
    static void CheckOutDir(const std::string& path);

    /**
     * \param file a name
     * \return true if it can name a trace file: a plain name in the folder (no '/', not . or
     * ..), and neither run.json nor the manifest
     */
    static bool IsTraceName(const std::string& file);

    /** \return the output folder */
    const std::string& GetPath() const;
    /** \return true if validating (nothing is written) */
    bool IsValidating() const;
    /** \param file a trace file \return its temporary name while the run writes it */
    std::string TemporaryName(const std::string& file) const;

    /**
     * \brief Create the temporary file of a trace and open a stream on it (nothing when
     * validating: the stream stays closed and what it gets goes nowhere).
     * \param stream the stream
     * \param file the trace file's name
     * \param buffer the stream's buffer (nullptr: the library's), alive while it is
     * \param bufferBytes its size, in bytes
     * \throws std::runtime_error if the file cannot be created
     */
    void OpenTemporary(D2dTraceFile& stream,
                       const std::string& file,
                       char* buffer = nullptr,
                       std::streamsize bufferBytes = 0);

    /**
     * \brief Write run.json, then move the trace files (closed) and run.json into place and
     * keep the folders made: the run is complete.
     * \param files the trace files, in the order of run.json's trace_files
     * \param runJson run.json's text
     * \throws std::runtime_error on an I/O error
     */
    void Publish(const std::vector<std::string>& files, const std::string& runJson);

  private:
    /** \brief Move the files into place, the earlier run's first, run.json last. */
    void MoveIntoPlace(const std::vector<std::string>& files);
    /** \brief Release the folder's lock (closing its file), if held. */
    void Unlock();
    /** \brief Remove the folders made (m_madeFolders), innermost first, if empty. */
    void RemoveMadeFolders();
    /** \brief Forget the folders made (m_madeFolders): the run's now, or removed. */
    void ForgetMadeFolders();

    std::string m_path;              //!< the output folder
    bool m_validate{false};          //!< validating: nothing is written
    int m_lockFd{-1};                //!< the lock file (.run-lock, flock), -1 if none
    std::vector<int> m_tmpSlots;     //!< the temporary files' D2dStopSignals slots
    std::vector<std::string> m_open; //!< the trace files whose temporary file this run made
    bool m_published{false};         //!< Publish() moved the files into place
    /** The folders the constructor made (the folder and its missing parents), outermost
     *  first, each with its D2dStopSignals slot: removed, if empty, when the run ends without
     *  publishing */
    std::vector<std::pair<std::string, int>> m_madeFolders;
};

} // namespace ns3

#endif /* D2D_TRACE_FOLDER_H */
