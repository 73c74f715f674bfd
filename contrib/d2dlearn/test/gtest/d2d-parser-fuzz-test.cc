/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest fuzz-style and regression tests of the file parsers: the N x N
 * matrix CSV reader (--rssFile, --wFile), the gzip idx reader of Fashion-MNIST (--dataDir),
 * the readers of the published data formats (CIFAR binary, NumPy .npy, LEAF JSON) and the
 * --model parser. Each fuzz test feeds 10,000 or more inputs mutated from valid
 * ones by a seeded generator; every input must be parsed into a well-formed result or
 * refused with a one-line std::exception, never crash, hang or allocate beyond the stated
 * bound (the matrix reader: the memory it is given; the idx reader: 1032 x the compressed
 * size, gzip's largest expansion, checked before allocating; the CIFAR and .npy readers: the
 * size of the file, checked against what the header or record size announces).
 *
 * The --model tests need the learners' library (LibTorch); the others are torch-free. The
 * torch-free programs (D2DLEARN_GTEST_TORCH_FREE: the plain and the sanitized one) run the
 * others, the LibTorch one (D2DLEARN_GTEST_TORCH_PART) only the --model tests: each case
 * runs once, in a process that loads no more than it needs.
 */

#include "ns3/d2d-cifar.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-input-file.h"
#include "ns3/d2d-leaf.h"
#include "ns3/d2d-matrix-csv.h"
#include "ns3/d2d-npy.h"
#include "ns3/d2d-trust-matrices.h"
#ifndef D2DLEARN_GTEST_TORCH_FREE
#include "ns3/d2d-learner.h"
#endif

#include "d2d-test-gzip.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>
#include <zlib.h>

using namespace ns3;

namespace
{

/** Inputs per fuzz test. */
constexpr int kCases = 10000;

#ifndef D2DLEARN_GTEST_TORCH_PART
/** \return whether an error message is one short line \param what the message */
bool
OneLine(const std::string& what)
{
    return !what.empty() && what.find('\n') == std::string::npos && what.size() < 1000;
}
#endif // D2DLEARN_GTEST_TORCH_PART

/** Mutates byte strings: the classic operations plus tokens that parsers trip on. */
class Mutator
{
  public:
    explicit Mutator(uint64_t seed)
        : m_rng(seed)
    {
    }

    /** \return text after 1 to 4 mutations \param text the seed input */
    std::string Mutate(std::string text)
    {
        const int n = 1 + Pick(4);
        for (int k = 0; k < n; ++k)
        {
            const std::size_t at = text.empty() ? 0 : Pick(text.size() + 1);
            switch (Pick(8))
            {
            case 0: // flip a byte
                if (!text.empty())
                {
                    text[std::min(at, text.size() - 1)] = static_cast<char>(Pick(256));
                }
                break;
            case 1: // insert a byte
                text.insert(at, 1, static_cast<char>(Pick(256)));
                break;
            case 2: // delete a range
                if (!text.empty())
                {
                    text.erase(std::min(at, text.size() - 1), 1 + Pick(8));
                }
                break;
            case 3: // duplicate a range
                if (!text.empty())
                {
                    const std::size_t from = Pick(text.size());
                    text.insert(at, text.substr(from, 1 + Pick(16)));
                }
                break;
            case 4: // truncate
                text.resize(std::min(text.size(), at));
                break;
            default: { // a token
                static const std::vector<std::string> tokens = {
                    ",",     "\n",       "\r\n",     std::string(1, '\0'),
                    "e",     "-",        "+",        ".",
                    "nan",   "inf",      "-inf",     "0x1p3",
                    "1e999", "1e-999",   " ",        "\t",
                    ",,",    "\x1b[31m", "\xff\xfe", "99999999999999999999999999",
                    "0",     "1",        "x",        std::string(300, '7')};
                text.insert(at, tokens[Pick(tokens.size())]);
            }
            }
        }
        return text;
    }

    /** \return a number in [0, n) \param n the bound */
    std::size_t Pick(std::size_t n)
    {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(m_rng);
    }

  private:
    std::mt19937_64 m_rng;
};

#ifndef D2DLEARN_GTEST_TORCH_PART

/** \return the n x n matrix text of the values \param w the rows */
std::string
MatrixText(const std::vector<std::vector<double>>& w)
{
    std::string text;
    for (const auto& row : w)
    {
        for (std::size_t j = 0; j < row.size(); ++j)
        {
            text += (j ? "," : "") + fmt::format("{}", row[j]);
        }
        text += "\n";
    }
    return text;
}

using d2dtest::Gzip;

/** \return an idx header: magic and dimensions, big-endian \param magic it \param dims them */
std::string
IdxHeader(uint32_t magic, const std::vector<uint32_t>& dims)
{
    std::string h;
    for (uint32_t v : std::vector<uint32_t>{magic})
    {
        h += {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    }
    for (uint32_t v : dims)
    {
        h += {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    }
    return h;
}

/** \return an idx3 image file of n images r x c, uncompressed */
std::string
IdxImages(uint32_t n, uint32_t r, uint32_t c)
{
    std::string data = IdxHeader(0x803, {n, r, c});
    for (uint32_t i = 0; i < n * r * c; ++i)
    {
        data += static_cast<char>((i * 37) % 256);
    }
    return data;
}

/**
 * \brief Read gz with ReadIdxGzip; check the result is well formed or the error one line.
 * \return true if it was parsed
 */
bool
ReadIdxChecked(const std::string& gz, uint32_t magic)
{
    std::istringstream in(gz);
    std::vector<uint32_t> dims;
    try
    {
        auto data = D2dFashionMnist::ReadIdxGzip(in, "fuzz.gz", gz.size(), magic, dims);
        uint64_t product = 1;
        for (auto d : dims)
        {
            product *= d;
        }
        EXPECT_EQ(dims.size(), magic & 0xff);
        EXPECT_EQ(data.size(), product);
        EXPECT_LE(data.size(), gz.size() * 1032 + 1024); // the allocation bound
        return true;
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_TRUE(OneLine(e.what())) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("dataDir: fuzz.gz: ", 0), 0u) << e.what();
        return false;
    }
}

// A matrix written with the shortest round-trip form reads back exactly (property test
// over random sizes and magnitudes, including negatives and the diagonal).
TEST(D2dMatrixCsvTest, RandomMatricesReadBackExactly)
{
    std::mt19937_64 rng(19);
    for (int t = 0; t < 200; ++t)
    {
        const std::size_t n = 1 + rng() % 12;
        std::vector<std::vector<double>> w(n, std::vector<double>(n));
        for (auto& row : w)
        {
            for (auto& x : row)
            {
                x = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                               static_cast<int>(rng() % 200) - 100);
            }
        }
        std::string text = MatrixText(w);
        if (t % 3 == 0)
        {
            text = "\n" + text + "\n  \n"; // blank lines are skipped
        }
        std::istringstream in(text);
        EXPECT_EQ(D2dMatrixCsv::Parse(in, "w", 100, 1e9), w);
    }
}

// The W reader used to accept what the RSS reader refused: one strict
// grammar now, with the offending bytes escaped and cut short in the message.
TEST(D2dMatrixCsvTest, StrictCellsAndEscapedExcerpts)
{
    auto refuse = [](const std::string& text) {
        std::istringstream in(text);
        try
        {
            D2dMatrixCsv::Parse(in, "--wFile=w.csv", 100, 1e9);
        }
        catch (const std::runtime_error& e)
        {
            return std::string(e.what());
        }
        return std::string("(parsed)");
    };
    EXPECT_NE(refuse("0.5,0.5,\n0.5,0.5\n").find("line 1 column 3"), std::string::npos);
    EXPECT_NE(refuse("0x1p-1,0.5\n0.5,0.5\n").find("'0x1p-1' is not a number"), std::string::npos);
    EXPECT_NE(refuse("inf,0\n0,1\n").find("'inf'"), std::string::npos);
    EXPECT_NE(refuse("nan,0\n0,1\n").find("'nan'"), std::string::npos);
    EXPECT_NE(refuse("1e999,0\n0,1\n").find("'1e999'"), std::string::npos);
    EXPECT_NE(refuse(std::string("1,0\n0,1\0junk\n", 13)).find("'1\\x00junk'"), std::string::npos);
    const std::string ansi = refuse("\x1b[31mred,0\n0,1\n");
    EXPECT_EQ(ansi.find('\x1b'), std::string::npos) << ansi;
    EXPECT_NE(ansi.find("\\x1b[31mred"), std::string::npos) << ansi;
    const std::string longCell = refuse(std::string(100000, 'z') + ",0\n0,1\n");
    EXPECT_LT(longCell.size(), 300u) << longCell;
    EXPECT_NE(refuse("1,0\n0,1\n1,1\n").find("more than 2 rows"), std::string::npos);
    EXPECT_NE(refuse("1,0,0\n0,1\n").find("row 2 has 2 values"), std::string::npos);
    EXPECT_NE(refuse("").find("holds no matrix"), std::string::npos);
    // Lines are bounded: a 5 MB line is refused when the bound is reached.
    EXPECT_NE(refuse(std::string(5 << 20, '1')).find("longer than"), std::string::npos);
    // The memory bound is checked from the first row, before the matrix is allocated.
    std::string wide;
    for (int j = 0; j < 2000; ++j)
    {
        wide += j ? ",1" : "1";
    }
    std::istringstream in(wide + "\n");
    EXPECT_THROW(D2dMatrixCsv::Parse(in, "w", 100000, 1e6), std::runtime_error);
    EXPECT_EQ(refuse("1,-2.5e-3\n+3,4.\n"), "(parsed)"); // decimal forms that are accepted
}

// Fuzz: 12,000 mutated matrices; each parsed into a square matrix of finite values of at
// most 64 rows (the bound given), or refused with one line.
TEST(D2dMatrixCsvTest, FuzzMutatedMatrices)
{
    Mutator mutator(1919);
    std::mt19937_64 rng(7);
    int parsed = 0;
    for (int t = 0; t < 12000; ++t)
    {
        const std::size_t n = 1 + rng() % 6;
        std::vector<std::vector<double>> w(n, std::vector<double>(n));
        for (auto& row : w)
        {
            for (auto& x : row)
            {
                x = std::uniform_real_distribution<double>(-2, 2)(rng);
            }
        }
        const std::string text = mutator.Mutate(MatrixText(w));
        std::istringstream in(text);
        try
        {
            const auto m = D2dMatrixCsv::Parse(in, "w", 64, 64.0 * 64 * 8);
            ASSERT_LE(m.size(), 64u);
            for (const auto& row : m)
            {
                ASSERT_EQ(row.size(), m.size());
                for (double x : row)
                {
                    ASSERT_TRUE(std::isfinite(x));
                }
            }
            ++parsed;
        }
        catch (const std::runtime_error& e)
        {
            ASSERT_TRUE(OneLine(e.what())) << e.what();
            ASSERT_EQ(std::string(e.what()).rfind("w: ", 0), 0u) << e.what();
        }
    }
    EXPECT_GT(parsed, 0); // the mutations leave some valid matrices
    EXPECT_LT(parsed, 12000);
}

/** \return a valid trust file of N x N rows of L random 0/1 values, with a comment */
std::string
TrustText(uint32_t n, uint32_t l, std::mt19937_64& rng)
{
    std::string text = "# T_0 .. T_{N-1}\n";
    for (uint32_t r = 0; r < n * n; ++r)
    {
        for (uint32_t k = 0; k < l; ++k)
        {
            text += (k ? "," : "") + std::string(rng() % 2 ? "1" : "0");
        }
        text += "\n";
    }
    return text;
}

/** \return "(parsed)" or the error of D2dTrustMatrices::Parse on text (N = 2, L = 3) */
std::string
TrustError(const std::string& text)
{
    std::istringstream in(text);
    try
    {
        D2dTrustMatrices::Parse(in, "t.csv", 2, 3);
        return "(parsed)";
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
}

// The one excerpt every error message quotes untrusted bytes with: control, backslash and
// non-ASCII bytes escaped as \xNN, cut at max bytes of the text with "..." appended.
TEST(D2dMatrixCsvTest, ExcerptEscapesAndCuts)
{
    EXPECT_EQ(D2dMatrixCsv::Excerpt(""), "");
    EXPECT_EQ(D2dMatrixCsv::Excerpt("w.csv"), "w.csv");
    EXPECT_EQ(D2dMatrixCsv::Excerpt(std::string("a\0b\\c\x1b\xff\x7f\t", 9)),
              "a\\x00b\\x5cc\\x1b\\xff\\x7f\\x09");
    EXPECT_EQ(D2dMatrixCsv::Excerpt(std::string(40, 'z')), std::string(40, 'z'));
    EXPECT_EQ(D2dMatrixCsv::Excerpt(std::string(41, 'z')), std::string(40, 'z') + "...");
    EXPECT_EQ(D2dMatrixCsv::Excerpt("abcdef", 3), "abc...");
    // The cut counts the text's bytes, not the escaped ones.
    EXPECT_EQ(D2dMatrixCsv::Excerpt("\n\n\nx", 2), "\\x0a\\x0a...");
}

// The bounded line reader of the matrix and trust files: a line of exactly the bound is
// read, one byte more is refused; a CR before the newline is dropped (but counted); the last line
// needs no newline; the end of the stream comes only when no byte is left.
TEST(D2dMatrixCsvTest, ReadLineIsBounded)
{
    using LineRead = D2dMatrixCsv::LineRead;
    std::istringstream in("abcd\nabc\r\n\nabcde\n");
    std::string line;
    EXPECT_EQ(D2dMatrixCsv::ReadLine(in, line, 4), LineRead::LINE);
    EXPECT_EQ(line, "abcd");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(in, line, 4), LineRead::LINE);
    EXPECT_EQ(line, "abc");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(in, line, 4), LineRead::LINE);
    EXPECT_EQ(line, "");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(in, line, 4), LineRead::TOO_LONG);
    // The CR counts against the bound.
    std::istringstream crlf("abcd\r\n");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(crlf, line, 4), LineRead::TOO_LONG);
    std::istringstream last("x\ny");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(last, line, 4), LineRead::LINE);
    EXPECT_EQ(D2dMatrixCsv::ReadLine(last, line, 4), LineRead::LINE);
    EXPECT_EQ(line, "y");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(last, line, 4), LineRead::END);
    std::istringstream cr("\r");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(cr, line, 4), LineRead::LINE);
    EXPECT_EQ(line, "");
    EXPECT_EQ(D2dMatrixCsv::ReadLine(cr, line, 4), LineRead::END);
    // Both parsers that read with it name the line in the same message as before.
    const std::string longLine = "1,0\n" + std::string(D2dMatrixCsv::MAX_LINE_BYTES + 1, '1');
    std::istringstream matrix(longLine);
    try
    {
        D2dMatrixCsv::Parse(matrix, "--wFile=w.csv", 100, 1e9);
        ADD_FAILURE() << "parsed";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  fmt::format("--wFile=w.csv: line 2 is longer than {} bytes (accepted: N lines "
                              "of N comma-separated numbers)",
                              D2dMatrixCsv::MAX_LINE_BYTES));
    }
    std::istringstream trust("0,0,0\n" + std::string(D2dTrustMatrices::MAX_LINE_BYTES + 1, '1'));
    try
    {
        D2dTrustMatrices::Parse(trust, "t.csv", 2, 3);
        ADD_FAILURE() << "parsed";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "t.csv line 2: longer than " + std::to_string(D2dTrustMatrices::MAX_LINE_BYTES) +
                      " bytes");
    }
}

// The graph-discovery trust file (--trustFile) meets the matrix reader's bar:
// a non-regular file is refused at once (a FIFO would block, /dev/zero never ends), lines
// are bounded, bad bytes are quoted short and escaped, a trailing comma is refused.
TEST(D2dTrustMatricesFileTest, BoundedAndStrict)
{
    const std::string dir = ::testing::TempDir() + "/d2d-trust-file-test";
    std::filesystem::create_directories(dir);
    const std::string fifo = dir + "/fifo";
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& path : {fifo, std::string("/dev/zero"), dir})
    {
        try
        {
            D2dTrustMatrices::ReadFile(path, 2, 3);
            ADD_FAILURE() << path << " was read";
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos)
                << e.what();
        }
    }
    std::filesystem::remove_all(dir);
    const std::string ok = "0,0,0\n1,0,1\n0,1,1\n1,1,1\n";
    EXPECT_EQ(TrustError(ok), "(parsed)");
    EXPECT_EQ(TrustError("# c\r\n0,0,0\r\n1,0,1\r\n\n0,1,1\n1, 1 ,1"), "(parsed)");
    EXPECT_NE(TrustError("0,0,0\n1,0,1,\n0,1,1\n1,1,1\n").find("line 2"), std::string::npos);
    const std::string ansi = TrustError("0,0,0\n1,\x1b[31m,1\n0,1,1\n1,1,1\n");
    EXPECT_EQ(ansi.find('\x1b'), std::string::npos) << ansi;
    EXPECT_NE(ansi.find("\\x1b[31m"), std::string::npos) << ansi;
    const std::string nul = TrustError(std::string("0,0,0\n1,0,1\0x\n0,1,1\n1,1,1\n", 26));
    EXPECT_NE(nul.find("\\x00x"), std::string::npos) << nul;
    const std::string longCell = TrustError("0,0," + std::string(100000, 'z') + "\n");
    EXPECT_LT(longCell.size(), 300u) << longCell;
    EXPECT_NE(TrustError(std::string(5 << 20, '1')).find("longer than"), std::string::npos);
    EXPECT_NE(TrustError(ok + "1,1,1\n").find("more than N x N = 4 rows"), std::string::npos);
}

// Fuzz: 10,000 mutated trust files (N = 1..4 devices, L = 1..4 labels); each parsed into
// N x N rows of L values 0 or 1 with a zero diagonal, or refused with one line naming the
// file. The allocation is the N x N x L matrices, made before reading.
TEST(D2dTrustMatricesFileTest, FuzzMutatedTrustFiles)
{
    Mutator mutator(1913);
    std::mt19937_64 rng(13);
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const auto n = static_cast<uint32_t>(1 + rng() % 4);
        const auto l = static_cast<uint32_t>(1 + rng() % 4);
        const std::string text = mutator.Mutate(TrustText(n, l, rng));
        std::istringstream in(text);
        try
        {
            const auto m = D2dTrustMatrices::Parse(in, "fuzz.csv", n, l);
            ASSERT_EQ(m.GetNDevices(), n);
            ASSERT_EQ(m.GetNLabels(), l);
            for (uint32_t j = 0; j < n; ++j)
            {
                for (uint32_t i = 0; i < n; ++i)
                {
                    const auto row = m.Row(j, i);
                    ASSERT_EQ(row.size(), l);
                    for (auto v : row)
                    {
                        ASSERT_TRUE(v == 0 || (v == 1 && i != j));
                    }
                }
            }
            ++parsed;
        }
        catch (const std::runtime_error& e)
        {
            ASSERT_TRUE(OneLine(e.what())) << e.what();
            ASSERT_EQ(std::string(e.what()).rfind("fuzz.csv", 0), 0u) << e.what();
        }
    }
    EXPECT_GT(parsed, 0); // the mutations leave some valid files
    EXPECT_LT(parsed, kCases);
}

// Regressions of the idx reader: a header whose size overflows 64 bits, a header
// announcing more than the compressed file can hold (a bomb: refused before allocating),
// trailing bytes after the gzip stream, and two concatenated gzip members (valid).
TEST(D2dIdxReaderTest, HeaderFirstBoundsAndTrailingBytes)
{
    // 2^22 x 2^21 x 2^21 = 2^64 bytes: wrapped around to 0 before.
    EXPECT_FALSE(ReadIdxChecked(Gzip(IdxHeader(0x803, {1u << 22, 1u << 21, 1u << 21})), 0x803));
    // 60000 x 28 x 28 announced by a 100-byte file.
    EXPECT_FALSE(ReadIdxChecked(Gzip(IdxHeader(0x803, {60000, 28, 28})), 0x803));
    const std::string good = IdxImages(3, 5, 4);
    EXPECT_TRUE(ReadIdxChecked(Gzip(good), 0x803));
    EXPECT_FALSE(ReadIdxChecked(Gzip(good) + "garbage", 0x803));
    EXPECT_FALSE(ReadIdxChecked(Gzip(good + "x"), 0x803)); // a data byte too many
    EXPECT_FALSE(ReadIdxChecked(Gzip(good.substr(0, good.size() - 1)), 0x803));
    EXPECT_TRUE(ReadIdxChecked(Gzip(good.substr(0, 10)) + Gzip(good.substr(10)), 0x803));
    EXPECT_FALSE(ReadIdxChecked("not gzip at all", 0x803));
    // A bomb: 16 MB of zeros (16 kB compressed) after a header announcing 1 image of
    // 8 x 8: refused after reading 64 bytes of data and one more, not after inflating it all.
    const std::string bomb = Gzip(IdxHeader(0x803, {1, 8, 8}) + std::string(16 << 20, '\0'));
    EXPECT_FALSE(ReadIdxChecked(bomb, 0x803));
    // A 1 MB gzip of zeros can hold a gigabyte: a header announcing 1,400,000 images of
    // 28 x 28 (1.1 GB) is refused by the payload bound (256 MiB), before any inflating.
    {
        std::istringstream in(Gzip(IdxHeader(0x803, {1400000, 28, 28})));
        std::vector<uint32_t> dims;
        try
        {
            D2dFashionMnist::ReadIdxGzip(in, "bomb.gz", 1 << 20, 0x803, dims);
            ADD_FAILURE() << "a 1.1 GB announcement was accepted";
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_NE(std::string(e.what()).find("accepted: at most 268435456"), std::string::npos)
                << e.what();
        }
    }
    // A header announcing 200 MB (within the bound) whose stream holds 1 MB: "truncated",
    // after inflating what is there (in 1 MB chunks, not a 200 MB buffer up front).
    EXPECT_FALSE(
        ReadIdxChecked(Gzip(IdxHeader(0x803, {255000, 28, 28}) + std::string(1 << 20, '\1')) +
                           std::string(200000, '\0'),
                       0x803));
}

// Fuzz: 10,000 idx files mutated before compression and 10,000 compressed files mutated.
TEST(D2dIdxReaderTest, FuzzMutatedIdxFiles)
{
    Mutator mutator(2019);
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const uint32_t n = 1 + mutator.Pick(4);
        const bool labels = mutator.Pick(2) == 0;
        std::string data = labels ? IdxHeader(0x801, {n}) + std::string(n, '\3')
                                  : IdxImages(n, 1 + mutator.Pick(6), 1 + mutator.Pick(6));
        parsed += ReadIdxChecked(Gzip(mutator.Mutate(data)), labels ? 0x801 : 0x803);
    }
    for (int t = 0; t < kCases; ++t)
    {
        const std::string gz = Gzip(IdxImages(2, 4, 4));
        parsed += ReadIdxChecked(mutator.Mutate(gz), 0x803);
    }
    EXPECT_GT(parsed, 0);
}

/**
 * \brief Read bytes as a CIFAR file of the claimed size; check the result is well formed or
 * the error one line naming the file.
 * \return true if it was parsed
 */
bool
ReadCifarChecked(const std::string& bytes, uint64_t size, bool cifar100, bool coarse)
{
    std::istringstream in(bytes);
    D2dCifar::Records records;
    try
    {
        D2dCifar::ReadBinary(in, "fuzz.bin", size, cifar100, coarse, records);
        EXPECT_EQ(records.labels.size(), records.count);
        EXPECT_EQ(records.pixels.size(), records.count * D2dCifar::PIXEL_BYTES);
        EXPECT_EQ(records.count * D2dCifar::RecordBytes(cifar100), bytes.size());
        for (auto l : records.labels)
        {
            EXPECT_LT(l, cifar100 ? (coarse ? 20 : 100) : 10);
        }
        return true;
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_TRUE(OneLine(e.what())) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("dataDir: fuzz.bin: ", 0), 0u) << e.what();
        return false;
    }
}

// Fuzz: 10,000 CIFAR-10 and CIFAR-100 files of 1 to 3 records, mutated (sizes, labels,
// pixels), read with their true size or a claimed one that differs.
TEST(D2dCifarReaderTest, FuzzMutatedCifarFiles)
{
    Mutator mutator(2009);
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const bool cifar100 = mutator.Pick(2) == 0;
        const uint32_t n = 1 + mutator.Pick(3);
        std::string data;
        for (uint32_t r = 0; r < n; ++r)
        {
            data += static_cast<char>(r % 10);
            if (cifar100)
            {
                data += static_cast<char>(r % 100);
            }
            data += std::string(D2dCifar::PIXEL_BYTES, static_cast<char>(r * 40));
        }
        // Mutate the labels' region, not just the pixels' (3072 bytes to land in).
        std::string mutated = mutator.Pick(2) == 0
                                  ? mutator.Mutate(data)
                                  : mutator.Mutate(data.substr(0, 3)) + data.substr(3);
        const uint64_t size =
            mutator.Pick(8) == 0 ? mutator.Pick(4 * 3074 + 1) : uint64_t(mutated.size());
        parsed += ReadCifarChecked(mutated, size, cifar100, mutator.Pick(2) == 0);
    }
    EXPECT_GT(parsed, 0);
}

/** \return a small valid .npy file (version 1.0) \param descr dtype \param shape its text
 * \param bytes the data */
std::string
NpyFile(const std::string& descr, const std::string& shape, const std::string& bytes)
{
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0)
    {
        header += ' ';
    }
    header += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size() & 0xff) +
           static_cast<char>(header.size() >> 8) + header + bytes;
}

/**
 * \brief Read bytes as a .npy file; check the result is well formed (its bytes are the
 * shape's) or the error one line naming the file.
 * \return true if it was parsed
 */
bool
ReadNpyChecked(const std::string& bytes)
{
    std::istringstream in(bytes);
    try
    {
        auto a = D2dNpy::Read(in, "fuzz.npy", bytes.size());
        uint64_t product = a.itemBytes;
        for (auto d : a.shape)
        {
            product *= d;
        }
        EXPECT_EQ(a.data.size(), product);
        EXPECT_LE(a.data.size(), bytes.size()); // the allocation bound: the file's bytes
        return true;
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_TRUE(OneLine(e.what())) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("dataDir: fuzz.npy: ", 0), 0u) << e.what();
        return false;
    }
}

// Fuzz: 10,000 .npy files of each accepted dtype mutated (header and data).
TEST(D2dNpyReaderTest, FuzzMutatedNpyFiles)
{
    Mutator mutator(1998);
    const std::vector<std::pair<std::string, uint32_t>> dtypes = {{"<f4", 4},
                                                                  {"<f8", 8},
                                                                  {"|u1", 1},
                                                                  {"<i8", 8},
                                                                  {"<i4", 4}};
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const auto& [descr, item] = dtypes[mutator.Pick(dtypes.size())];
        const uint32_t n = 1 + mutator.Pick(4);
        const uint32_t m = 1 + mutator.Pick(3);
        const std::string file =
            NpyFile(descr,
                    fmt::format("({}, {})", n, m),
                    std::string(std::size_t(n) * m * item, static_cast<char>(t)));
        parsed += ReadNpyChecked(mutator.Mutate(file));
    }
    EXPECT_GT(parsed, 0);
}

// Fuzz: 10,000 LEAF JSON texts (images and next characters, two users) mutated; each parsed
// into a consistent split (num_samples, users and samples agree) or refused in one line.
TEST(D2dLeafReaderTest, FuzzMutatedLeafFiles)
{
    Mutator mutator(2018);
    const std::string images =
        "{\"users\": [\"a\", \"b\"], \"num_samples\": [2, 1], \"hierarchies\": [], "
        "\"user_data\": {\"a\": {\"x\": [[0.5, 1, 0, 0.25], [1, 1, 0, 0]], \"y\": [3, 61]}, "
        "\"b\": {\"x\": [[0, 0, 0, 0.125]], \"y\": [0]}}}";
    const std::string text =
        "{\"users\": [\"KING\", \"FOOL\"], \"num_samples\": [1, 2], \"user_data\": "
        "{\"KING\": {\"x\": [\"to be, or n\"], \"y\": [\"o\"]}, \"FOOL\": {\"x\": "
        "[\"nuncle!\\n  Lea\", \"ar, what s\"], \"y\": [\"r\", \"a\"]}}}";
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const std::string input = mutator.Mutate(t % 2 ? images : text);
        D2dLeaf::Split split;
        try
        {
            D2dLeaf::Parse(input, "fuzz.json", split);
            std::size_t total = 0;
            EXPECT_EQ(split.users.size(), split.count.size());
            EXPECT_EQ(split.users.size(), split.first.size());
            for (std::size_t u = 0; u < split.users.size(); ++u)
            {
                EXPECT_EQ(split.first[u], total);
                total += split.count[u];
            }
            EXPECT_EQ(split.data->Size(), total);
            EXPECT_EQ(split.data->labels.size(), total);
            EXPECT_EQ(split.data->features.size(), total * split.data->FeatureSize());
            if (total > 0)
            {
                EXPECT_NO_THROW(split.data->Validate());
            }
            ++parsed;
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_TRUE(OneLine(e.what())) << e.what();
            EXPECT_EQ(std::string(e.what()).rfind("dataDir: fuzz.json: ", 0), 0u) << e.what();
        }
    }
    EXPECT_GT(parsed, 0);
}

// LEAF's x nested deeper and deeper, then 200,000 levels deep (a 400 kB file; nlohmann's
// dump() of such a value overflowed the stack, SIGSEGV): up to D2dLeaf::MAX_JSON_DEPTH the
// parser sees the file (and refuses it for what x holds), beyond it the file is refused in
// one line naming the depth, before parsing, whatever the depth.
TEST(D2dLeafReaderTest, NestingIsBoundedBeforeParsing)
{
    auto leafWithX = [](const std::string& x) {
        return "{\"users\": [\"a\"], \"num_samples\": [1], \"user_data\": {\"a\": {\"x\": " + x +
               ", \"y\": [1]}}}";
    };
    for (std::size_t depth : {1, 2, 3, 4, 5, 6, 100, 1000, 200000})
    {
        // x at depth 4 of the document: a list nested `depth` deep holds the number 1.
        const std::string x = std::string(depth, '[') + "1" + std::string(depth, ']');
        const std::string text = leafWithX(x);
        EXPECT_EQ(D2dInputFile::JsonDepth(text), 3 + depth);
        D2dLeaf::Split split;
        try
        {
            D2dLeaf::Parse(text, "deep.json", split);
            EXPECT_EQ(depth, 2u) << "only [[1]] (one sample of one value) is a valid x";
        }
        catch (const std::runtime_error& e)
        {
            const std::string what = e.what();
            EXPECT_TRUE(OneLine(what)) << what;
            const bool tooDeep = 3 + depth > D2dLeaf::MAX_JSON_DEPTH;
            EXPECT_EQ(what.find("nested more than 8 levels deep") != std::string::npos, tooDeep)
                << depth << ": " << what.substr(0, 200);
        }
    }
}

// The depth count skips brackets inside strings, with their escapes.
TEST(D2dInputFileTest, JsonDepthSkipsStrings)
{
    EXPECT_EQ(D2dInputFile::JsonDepth(""), 0u);
    EXPECT_EQ(D2dInputFile::JsonDepth("1"), 0u);
    EXPECT_EQ(D2dInputFile::JsonDepth("[]"), 1u);
    EXPECT_EQ(D2dInputFile::JsonDepth("[[],{\"a\":[1]}]"), 3u);
    EXPECT_EQ(D2dInputFile::JsonDepth("[\"[[[{{{\"]"), 1u);
    EXPECT_EQ(D2dInputFile::JsonDepth("[\"\\\"[[\", [2]]"), 2u); // an escaped quote
    EXPECT_EQ(D2dInputFile::JsonDepth("]]]][[]"), 2u);           // unbalanced: still bounded
}

// Every path a user gives is checked before it is opened: a FIFO (whose open blocks), a
// device (/dev/zero never ends), a folder and a missing path are refused in one line naming
// the flag and what the path is; a file above the size limit too, with both sizes.
TEST(D2dInputFileTest, OnlyRegularFilesWithinTheLimit)
{
    const std::string dir = ::testing::TempDir() + "/d2d-input-file-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string fifo = dir + "/fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string file = dir + "/file";
    std::ofstream(file) << std::string(2000, 'x');
    const std::vector<std::pair<std::string, std::string>> refused = {
        {fifo,
         "--f=" + fifo +
             ": a FIFO, not a regular file (accepted: a trace, a regular file "
             "of at most 5 kB)"},
        {"/dev/zero",
         "--f=/dev/zero: a character device, not a regular file (accepted: a trace, a regular "
         "file of at most 5 kB)"},
        {dir,
         "--f=" + dir +
             ": a folder, not a regular file (accepted: a trace, a regular file "
             "of at most 5 kB)"},
        {dir + "/none", "--f=" + dir + "/none: no such file or folder"},
        {"", "--f=: an empty path"},
    };
    for (const auto& [path, message] : refused)
    {
        try
        {
            D2dInputFile::Check(path, "--f=" + path, "a trace", 5000);
            ADD_FAILURE() << path << " accepted";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_EQ(std::string(e.what()), message);
        }
    }
    EXPECT_NO_THROW(D2dInputFile::Check(file, "--f", "a trace", 2000));
    try
    {
        D2dInputFile::Check(file, "--f", "", 1999);
        ADD_FAILURE() << "2000 bytes accepted under a 1999-byte limit";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()), "--f: 2 kB (accepted: a regular file of at most 2 kB)");
    }
    EXPECT_NO_THROW(D2dInputFile::CheckDirectory(dir, "--d"));
    EXPECT_THROW(D2dInputFile::CheckDirectory(file, "--d"), std::invalid_argument);
    EXPECT_THROW(D2dInputFile::CheckDirectory(fifo, "--d"), std::invalid_argument);
    EXPECT_GT(D2dInputFile::MemoryLimitBytes(), 0u);
    EXPECT_EQ(D2dInputFile::Size(999), "999 B");
    EXPECT_EQ(D2dInputFile::Size(1234567), "1.23 MB");
    std::filesystem::remove_all(dir);
}

#endif // D2DLEARN_GTEST_TORCH_PART

#ifndef D2DLEARN_GTEST_TORCH_FREE
// Fuzz: 10,000 mutated --model texts: a spec whose sizes are whole numbers in [1, 100000]
// (mlp: one or more, cnn: two), or a one-line std::invalid_argument naming "model".
TEST(D2dModelSpecTest, FuzzMutatedModelTexts)
{
    Mutator mutator(2026);
    const std::vector<std::string> seeds =
        {"mlp", "mlp:128", "mlp:256x64", "cnn", "cnn:16x32", "logistic", "linear"};
    int parsed = 0;
    for (int t = 0; t < kCases; ++t)
    {
        const std::string text = mutator.Mutate(seeds[t % seeds.size()]);
        try
        {
            const auto spec = D2dModelSpec::Parse(text);
            for (auto h : spec.hidden)
            {
                ASSERT_GE(h, 1);
                ASSERT_LE(h, 100000);
            }
            if (spec.arch == "cnn")
            {
                ASSERT_EQ(spec.hidden.size(), 2u);
            }
            // What Parse accepts, ToString writes back in a form Parse reads the same.
            EXPECT_EQ(D2dModelSpec::Parse(spec.ToString()).ToString(), spec.ToString());
            ++parsed;
        }
        catch (const std::invalid_argument& e)
        {
            ASSERT_TRUE(std::string(e.what()).rfind("model: ", 0) == 0) << e.what();
        }
    }
    EXPECT_GT(parsed, 0);
}

// A default-constructed spec is the one --model=mlp gives: one width, defined once.
TEST(D2dModelSpecTest, DefaultIsParsedMlp)
{
    const D2dModelSpec byDefault;
    const D2dModelSpec parsed = D2dModelSpec::Parse("mlp");
    EXPECT_EQ(byDefault.arch, parsed.arch);
    EXPECT_EQ(byDefault.hidden, parsed.hidden);
    EXPECT_EQ(parsed.hidden, std::vector<int64_t>{D2dModelSpec::DefaultMlpWidth});
    EXPECT_EQ(byDefault.ToString(), parsed.ToString());
}

// The parameter count used to refuse models too large for the memory, against the
// architecture written out by hand (784-128-10 MLP; the default cnn on 28 x 28).
TEST(D2dModelSpecTest, ParameterCountsAndTooSmallImages)
{
    EXPECT_DOUBLE_EQ(D2dModelSpec::Parse("mlp:128").CountParameters({1, 28, 28}, 10),
                     785.0 * 128 + 129 * 10);
    // cnn: conv 1->16 (5x5), conv 16->32 (5x5), 28 -> 14 -> 7, linear 32*7*7 -> 10.
    EXPECT_DOUBLE_EQ(D2dModelSpec::Parse("cnn").CountParameters({1, 28, 28}, 10),
                     (25.0 + 1) * 16 + (16 * 25.0 + 1) * 32 + (32 * 49.0 + 1) * 10);
    EXPECT_DOUBLE_EQ(D2dModelSpec::Parse("mlp:100000x100000").CountParameters({1, 28, 28}, 10),
                     785.0 * 100000 + 100001.0 * 100000 + 100001.0 * 10);
    EXPECT_THROW(D2dModelSpec::Parse("cnn").CountParameters({1, 3, 3}, 10), std::invalid_argument);
    EXPECT_THROW(D2dModelSpec::Parse("cnn").CountParameters({2}, 10), std::invalid_argument);
}
#endif // D2DLEARN_GTEST_TORCH_FREE

} // namespace
