/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRACE_FILE_H
#define D2D_TRACE_FILE_H

#include <fstream>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A trace file being written: an output stream that keeps the system error of the
 * write that failed (Error()).
 *
 * A std::ofstream only says that a write failed; the reason is in errno at that moment,
 * and a trace is checked later (a protocol's own file after the next energy row, every file
 * at the end of the run), when LibTorch or ns-3 may have set errno to something else (a
 * full disk used to be reported as "Invalid argument"). Here the buffer records errno
 * where the write to the file fails: the user reads "No space left on device" or "File too
 * large".
 */
class D2dTraceFile : public std::ostream
{
  public:
    D2dTraceFile();

    /**
     * \brief Create path as a new file and write to it: O_CREAT | O_EXCL | O_NOFOLLOW, so
     * that whatever is already at that name (a symbolic link, a FIFO, a stale file) is
     * neither followed, nor opened, nor blocked on; the stream is opened on the new file
     * through its descriptor (/proc/self/fd), so that the name cannot be swapped in between.
     * \param path the file
     * \param buffer a buffer for the stream (nullptr: the library's), alive while it is
     * \param bufferBytes its size, in bytes
     * \throws std::runtime_error "outDir: cannot create the temporary file 'path': reason"
     */
    void OpenNew(const std::string& path, char* buffer = nullptr, std::streamsize bufferBytes = 0);

    /**
     * \brief Open an existing file for writing, truncated (tests: /dev/full).
     * \param path the file
     * \return whether it is open
     */
    bool OpenExisting(const std::string& path);

    /**
     * \brief Write what is buffered and close the file; failbit is set if that failed. A file
     * that is not open is left as it is.
     */
    void Close();

    /** \return whether the file is open */
    bool IsOpen() const;

    /**
     * \return the errno of the first write to the file that failed (EIO if the system gave
     * none), 0 if none failed
     */
    int Error() const;

    /**
     * \return the reason of the first failed write, as strerror() words ("No space left on
     * device"); "input/output error" words (EIO) if the stream failed without a failed write
     */
    std::string ErrorText() const;

  private:
    /** A file buffer that records errno where a write to its file fails. */
    class Buffer : public std::filebuf
    {
      public:
        int m_error{0}; //!< errno of the first failed write, 0 if none

        /** Keep errno (EIO if none) as the first error, if none is kept yet. */
        void Record();

      protected:
        /**
         * \brief std::filebuf::overflow (a full buffer written to the file, or what close()
         * flushes); Record() if it fails.
         * \param c the character to put after the buffer (eof: none)
         * \return eof if the write failed, something else otherwise
         */
        int_type overflow(int_type c) override;
        /**
         * \brief std::filebuf::xsputn; Record() if fewer than n characters were written.
         * \param s the characters
         * \param n how many
         * \return the characters written
         */
        std::streamsize xsputn(const char_type* s, std::streamsize n) override;
        /**
         * \brief std::filebuf::sync (the buffer written to the file); Record() if it fails.
         * \return 0 on success, -1 on failure
         */
        int sync() override;
    };

    Buffer m_buffer; //!< the file's buffer
};

} // namespace ns3

#endif // D2D_TRACE_FILE_H
