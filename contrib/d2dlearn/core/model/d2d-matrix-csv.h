/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MATRIX_CSV_H
#define D2D_MATRIX_CSV_H

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The reader of the N x N matrices given as CSV files (the RSS matrix W of
 * --rssFile, the stochastic matrix W of --wFile): N lines of N comma-separated decimal
 * numbers, no header. Bounded: only a regular file is read (a FIFO would block, /dev/zero
 * never ends), a line is at most MAX_LINE_BYTES, the rows may not outnumber the first
 * row's values, N is at most the caller's bound, and the N x N doubles must fit in the
 * memory available before they are allocated. Strict: a cell is optional blanks, a
 * decimal number ([+-]digits[.digits][e[+-]digits]) and optional blanks; no hexadecimal,
 * no inf or nan, no empty cell (a trailing comma), no NUL byte; blank lines are skipped and
 * a CR before the newline is accepted. Every error is one line naming the parameter, the
 * line and column, with at most a short escaped excerpt of the bad bytes.
 */
class D2dMatrixCsv
{
  public:
    /** Longest line accepted, bytes (N = 100,000 numbers of 20 characters: 2 MB). */
    static constexpr std::size_t MAX_LINE_BYTES = std::size_t(4) << 20;

    /**
     * \brief Read a matrix file.
     * \param path the file
     * \param what how messages name it, e.g. "rssFile: 'w.csv'" or "--wFile=w.csv"
     * \param maxN the largest N accepted
     * \return the rows
     * \throws std::runtime_error, one line starting with what
     */
    static std::vector<std::vector<double>> Read(const std::string& path,
                                                 const std::string& what,
                                                 std::size_t maxN);

    /**
     * \brief Parse a matrix from a stream (Read() after the file checks).
     * \param in the text
     * \param what how messages name it
     * \param maxN the largest N accepted
     * \param memoryBytes the memory the N x N doubles may take
     * \return the rows, square
     * \throws std::runtime_error, one line starting with what
     */
    static std::vector<std::vector<double>> Parse(std::istream& in,
                                                  const std::string& what,
                                                  std::size_t maxN,
                                                  double memoryBytes);

    /**
     * \brief The one excerpt of untrusted bytes that the module's error messages quote
     * (file names, cells of a file, environment variables, the first line of a LibTorch
     * error).
     * \param text bytes to quote in a message
     * \param max longest excerpt, bytes (a longer text is cut and ends with "...")
     * \return text with control, backslash and non-ASCII bytes escaped (\\xNN)
     */
    static std::string Excerpt(const std::string& text, std::size_t max = 40);

    /** What ReadLine() found. */
    enum class LineRead
    {
        LINE,    //!< a line, possibly empty
        END,     //!< the end of the stream, nothing read
        TOO_LONG //!< a line longer than the bound
    };

    /**
     * \brief Read one line of at most maxBytes bytes, for the parsers of untrusted files
     * (std::getline would take a line of any length: /dev/zero has no end of line). The
     * line is the bytes up to the next newline (consumed, not kept) or the end of the
     * stream, a CR before the newline dropped. Reads the stream's buffer directly: the
     * stream's state flags are left as they are.
     * \param in the stream
     * \param line set to the line (LINE); the line's first maxBytes bytes (TOO_LONG)
     * \param maxBytes the longest line accepted, bytes, counting a CR before the newline but
     *        not the newline
     * \return LINE, END at the end of the stream with no byte read, or TOO_LONG as soon as
     *         a line's byte maxBytes + 1 is read (the stream is then in the middle of it)
     */
    static LineRead ReadLine(std::istream& in, std::string& line, std::size_t maxBytes);

    /** \return the memory available (MemAvailable of /proc/meminfo, else physical), bytes */
    static double AvailableMemoryBytes();
};

} // namespace ns3

#endif /* D2D_MATRIX_CSV_H */
