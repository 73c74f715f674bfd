/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-matrix-csv.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{
/** \return whether c is a blank (space or tab) \param c a byte */
bool
IsBlank(char c)
{
    return c == ' ' || c == '\t';
}

/** \return whether c is a decimal digit \param c a byte */
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * \return whether cell is blanks, a decimal number, blanks; value set to it
 * \param cell the text \param value the number
 */
bool
ParseCell(const std::string& cell, double& value)
{
    std::size_t i = 0;
    const std::size_t n = cell.size();
    while (i < n && IsBlank(cell[i]))
    {
        ++i;
    }
    const std::size_t start = i;
    if (i < n && (cell[i] == '+' || cell[i] == '-'))
    {
        ++i;
    }
    std::size_t digits = 0;
    while (i < n && IsDigit(cell[i]))
    {
        ++i;
        ++digits;
    }
    if (i < n && cell[i] == '.')
    {
        ++i;
        while (i < n && IsDigit(cell[i]))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return false;
    }
    if (i < n && (cell[i] == 'e' || cell[i] == 'E'))
    {
        ++i;
        if (i < n && (cell[i] == '+' || cell[i] == '-'))
        {
            ++i;
        }
        std::size_t exponent = 0;
        while (i < n && IsDigit(cell[i]))
        {
            ++i;
            ++exponent;
        }
        if (exponent == 0)
        {
            return false;
        }
    }
    const std::size_t end = i;
    while (i < n && IsBlank(cell[i]))
    {
        ++i;
    }
    if (i != n)
    {
        return false;
    }
    const std::string number = cell.substr(start, end - start);
    errno = 0;
    value = std::strtod(number.c_str(), nullptr);
    return std::isfinite(value); // 1e999 overflows to infinity
}
} // namespace

std::string
D2dMatrixCsv::Excerpt(const std::string& text, std::size_t max)
{
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < max; ++i)
    {
        const auto c = static_cast<unsigned char>(text[i]);
        out += c < 0x20 || c >= 0x7f || c == '\\' ? fmt::format("\\x{:02x}", c)
                                                  : std::string(1, static_cast<char>(c));
    }
    return text.size() > max ? out + "..." : out;
}

D2dMatrixCsv::LineRead
D2dMatrixCsv::ReadLine(std::istream& in, std::string& line, std::size_t maxBytes)
{
    line.clear();
    std::streambuf* buf = in.rdbuf();
    bool eof = true;
    for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc())
    {
        eof = false;
        if (c == '\n')
        {
            break;
        }
        if (line.size() >= maxBytes)
        {
            return LineRead::TOO_LONG;
        }
        line.push_back(static_cast<char>(c));
    }
    if (eof && line.empty())
    {
        return LineRead::END;
    }
    if (!line.empty() && line.back() == '\r')
    {
        line.pop_back();
    }
    return LineRead::LINE;
}

double
D2dMatrixCsv::AvailableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kb = 0;
    std::string unit;
    while (meminfo >> key >> kb >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kb * 1024;
        }
    }
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<double>(pages) * pageSize : 1e18;
}

std::vector<std::vector<double>>
D2dMatrixCsv::Read(const std::string& path, const std::string& what, std::size_t maxN)
{
    struct stat st{};
    if (stat(path.c_str(), &st) != 0)
    {
        throw std::runtime_error(what + ": cannot read the file (expected N lines of N "
                                        "comma-separated numbers)");
    }
    if (!S_ISREG(st.st_mode))
    {
        throw std::runtime_error(what + ": not a regular file (expected N lines of N "
                                        "comma-separated numbers)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(what + ": cannot read the file (expected N lines of N "
                                        "comma-separated numbers)");
    }
    return Parse(in, what, maxN, AvailableMemoryBytes() / 2);
}

std::vector<std::vector<double>>
D2dMatrixCsv::Parse(std::istream& in,
                    const std::string& what,
                    std::size_t maxN,
                    double memoryBytes)
{
    std::vector<std::vector<double>> w;
    std::string line;
    std::size_t lineNo = 0;
    std::size_t n = 0; // the first row's values: N
    for (;;)
    {
        const LineRead read = ReadLine(in, line, MAX_LINE_BYTES);
        if (read == LineRead::TOO_LONG)
        {
            throw std::runtime_error(fmt::format("{}: line {} is longer than {} bytes (accepted: "
                                                 "N lines of N comma-separated numbers)",
                                                 what,
                                                 lineNo + 1,
                                                 MAX_LINE_BYTES));
        }
        if (read == LineRead::END)
        {
            break;
        }
        ++lineNo;
        std::size_t first = 0;
        while (first < line.size() && IsBlank(line[first]))
        {
            ++first;
        }
        if (first == line.size())
        {
            continue; // a blank line
        }
        if (n > 0 && w.size() == n)
        {
            throw std::runtime_error(fmt::format("{}: line {}: more than {} rows, the number "
                                                 "of values of the first row (accepted: an "
                                                 "N x N matrix)",
                                                 what,
                                                 lineNo,
                                                 n));
        }
        std::vector<double> row;
        row.reserve(n);
        std::size_t start = 0;
        for (std::size_t col = 1;; ++col)
        {
            const std::size_t comma = line.find(',', start);
            const std::string cell =
                line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            double value = 0;
            if (!ParseCell(cell, value))
            {
                throw std::runtime_error(
                    fmt::format("{}: line {} column {}: '{}' is not a number (accepted: N "
                                "lines of N comma-separated decimal numbers)",
                                what,
                                lineNo,
                                col,
                                Excerpt(cell)));
            }
            row.push_back(value);
            if (n > 0 && row.size() > n)
            {
                throw std::runtime_error(fmt::format("{}: line {} has more than {} values, the "
                                                     "first row's (accepted: an N x N matrix)",
                                                     what,
                                                     lineNo,
                                                     n));
            }
            if (comma == std::string::npos)
            {
                break;
            }
            start = comma + 1;
        }
        if (n == 0)
        {
            n = row.size();
            if (n > maxN)
            {
                throw std::runtime_error(fmt::format("{}: the first row has {} values (accepted: "
                                                     "N x N with N at most {})",
                                                     what,
                                                     n,
                                                     maxN));
            }
            const double need = static_cast<double>(n) * static_cast<double>(n) * sizeof(double);
            if (need > memoryBytes)
            {
                throw std::runtime_error(fmt::format("{}: a {} x {} matrix needs {:.3g} GB, more "
                                                     "than the {:.3g} GB available",
                                                     what,
                                                     n,
                                                     n,
                                                     need / 1e9,
                                                     memoryBytes / 1e9));
            }
        }
        else if (row.size() != n)
        {
            throw std::runtime_error(fmt::format("{}: row {} has {} values, the first row {} "
                                                 "(accepted: an N x N matrix)",
                                                 what,
                                                 w.size() + 1,
                                                 row.size(),
                                                 n));
        }
        w.push_back(std::move(row));
    }
    if (w.empty())
    {
        throw std::runtime_error(what + ": the file holds no matrix (accepted: N lines of N "
                                        "comma-separated numbers)");
    }
    if (w.size() != n)
    {
        throw std::runtime_error(fmt::format("{}: {} rows of {} values (accepted: an N x N "
                                             "matrix)",
                                             what,
                                             w.size(),
                                             n));
    }
    return w;
}

} // namespace ns3
