/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_STOP_SIGNALS_H
#define D2D_STOP_SIGNALS_H

#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Stopping a run cleanly on a signal: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and
 * SIGPIPE delete every temporary file registered (AddFile()) and exit with 128 + the signal
 * (130, 143, 129, 131, 138, 141), after one line on stderr ("program: interrupted (SIGINT):
 * no traces written", or "... after its traces were written" once a run has published them,
 * Published()). While a Deferral is alive (files being moved into place) a signal waits;
 * Published() then acts on it. The handler calls only async-signal-safe functions. SIGXFSZ
 * is ignored (a write past the file size limit fails, and the writer says so), and an
 * exception that nothing catches ends the run like a Fail(): the registered files deleted,
 * "program: error: what", exit status 2.
 * D2dTraceHelper uses it for its temporary trace files.
 */
class D2dStopSignals
{
  public:
    /**
     * \brief Install the handler for the signals above and the terminate handler for
     * uncaught exceptions, once per process; a signal that is ignored when this is first
     * called (e.g. SIGINT of a background job) stays ignored.
     */
    static void Install();

    /**
     * \brief Register a temporary file that a stop signal deletes.
     * \param path the file
     * \return its slot for RemoveFile() (-1 if the path is too long or 256 are registered:
     *         the file is then not deleted by a signal)
     */
    static int AddFile(const std::string& path);

    /**
     * \brief Forget a file of AddFile().
     * \param slot its slot (-1: none)
     */
    static void RemoveFile(int slot);

    /**
     * \brief Register a folder a run created for its output (the output folder, or a parent
     * of it that did not exist): a stop signal, an uncaught exception or exit() before the
     * run ends removes it if it is empty then (rmdir(2), so never a folder with files), the
     * folders registered last first. A refusal after the folder was made leaves nothing.
     * \param path the folder
     * \return its slot for RemoveFolder() (-1 if the path is too long or 64 are registered)
     */
    static int AddFolder(const std::string& path);

    /**
     * \brief Forget a folder of AddFolder() (its run ended: published, or removed it).
     * \param slot its slot (-1: none)
     */
    static void RemoveFolder(int slot);

    /**
     * \brief End the process from any thread as a Fail() would, for a fault no caller can
     * unwind from (a job that never returns): the registered files and empty folders
     * removed, "program: error: what" on stderr, _exit(status).
     * \param what the error, one line
     * \param status the exit status
     */
    [[noreturn]] static void Exit(const std::string& what, int status);

    /**
     * \brief A run's files are all in place: a later signal says so, and one that came
     * during a Deferral exits now (as it would have).
     */
    static void Published();

    /**
     * \brief While one is alive, a stop signal waits (until Published()) instead of exiting:
     * a run's files are being moved into place.
     */
    class Deferral
    {
      public:
        Deferral();
        ~Deferral();
        Deferral(const Deferral&) = delete;
        Deferral& operator=(const Deferral&) = delete;
    };
};

} // namespace ns3

#endif /* D2D_STOP_SIGNALS_H */
